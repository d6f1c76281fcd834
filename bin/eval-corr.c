/*
 * eval-corr.c - emb-eval's correlation tasks: STS (the cosine of aligned
 * sentence pairs against gold scores) and word similarity (as gensim's
 * evaluate_word_pairs).
 */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"

/* Cosine of two float vectors in double; 0 when either is zero. */
static double
cosine(const float *a, const float *b, size_t d)
{
	double ab = 0, aa = 0, bb = 0;

	for (size_t j = 0; j < d; j++) {
		ab += (double)a[j] * b[j];
		aa += (double)a[j] * a[j];
		bb += (double)b[j] * b[j];
	}
	return aa > 0 && bb > 0 ? ab / sqrt(aa * bb) : 0;
}

/* Print a correlation, or nan when it is undefined. */
static void
outcorr(const char *clf, const char *metric, int rc, double v)
{
	if (rc < 0)
		out(clf, metric, "nan");
	else
		out(clf, metric, "%.6f", v);
}

/* Free sts's subsets (one per pair), gold scores and streams. */
static void
stsfree(char **sub, char **names, double *gold, char *scored, struct flat *A,
    struct flat *B)
{
	for (size_t i = 0; i < A->n; i++)
		free(sub[i]);
	free(sub);
	free(names);
	free(gold);
	free(scored);
	flatfree(A);
	flatfree(B);
}

/*
 * What a comparison of two representations needs of one: the scored
 * pairs' gold scores, similarities and subsets, and every record's key.
 */
struct kept {
	size_t		 n, m;		/* records, scored pairs */
	double		*gold, *sim;	/* m each */
	int		*sub;		/* subset number of each */
	int		 nsub;
	char		**key;		/* n keys, of the first stream */
};

/*
 * STS: the cosine of each aligned pair against its gold score, per subset
 * (a key field of the first stream), their mean, their mean weighted by
 * pair count, and over all pairs pooled; K (unless NULL) keeps the pairs.
 */
static void
sts1(const char *apath, const char *bpath, const char *goldpath,
    unsigned idf, unsigned subf, struct kept *K)
{
	struct flat A, B;
	struct textin gf;
	char *line, **sub, **names, q[EMB_QUOTE_BUF];
	size_t nl = 0, unscored = 0, m = 0, nsub;
	double *gold, *sim, *gs, *ss;
	char *scored;
	ssize_t len;
	double pm = 0, pw = 0, sm = 0, sw = 0;
	size_t ndef = 0, wsum = 0;
	int rc;
	double r;

	flatload(&A, apath, GROUPED, NULL, NULL);
	flatload(&B, bpath, GROUPED, NULL, NULL);
	if (A.dim != B.dim)
		errx(1, "%s: dimension %u, %s has %u", B.name, B.dim, A.name,
		    A.dim);
	if (A.n != B.n)
		errx(1, "%s has %zu records, %s has %zu", A.name, A.n, B.name,
		    B.n);
	for (size_t i = 0; i < A.n; i++) {
		int same;

		if (idf) {
			char *x = field(&A, i, idf), *y = field(&B, i, idf);

			same = strcmp(x, y) == 0;
			free(x);
			free(y);
		} else
			same = A.keylen[i] == B.keylen[i] &&
			    memcmp(KEY(&A, i), KEY(&B, i), A.keylen[i]) == 0;
		if (!same) {
			char qb[EMB_QUOTE_BUF], qa[EMB_QUOTE_BUF];

			errx(1, "%s: record %zu: key '%s' does not match '%s' "
			    "in %s", B.name, i + 1, emb_quote(qb, KEY(&B, i),
			    B.keylen[i]), emb_quote(qa, KEY(&A, i),
			    A.keylen[i]), A.name);
		}
	}
	textopen(&gf, openside(goldpath), goldpath);
	gold = xreallocarray(NULL, A.n + 1, sizeof(double));
	scored = xmalloc(A.n + 1);
	while ((len = textline(&gf, &line, nl + 1)) != -1) {
		char *p = line, *end;

		if (nl == A.n)
			errx(1, "%s: line %zu: more gold lines than the %zu "
			    "pairs", goldpath, nl + 1, A.n);
		while (len > 0 && isspace((unsigned char)line[len - 1]))
			line[--len] = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0') {
			scored[nl++] = 0;
			unscored++;
			continue;
		}
		errno = 0;
		gold[nl] = strtod(p, &end);
		if (*end != '\0' || errno == ERANGE || !isfinite(gold[nl]))
			errx(1, "%s: line %zu: '%s' is not a score", goldpath,
			    nl + 1, emb_quote(q, p, (size_t)(line + len - p)));
		scored[nl++] = 1;
	}
	textclose(&gf);
	if (nl != A.n)
		errx(1, "%s: %zu lines for %zu pairs", goldpath, nl, A.n);

	/* Subsets in order of first appearance. */
	sub = xreallocarray(NULL, A.n + 1, sizeof(char *));
	names = xreallocarray(NULL, A.n + 1, sizeof(char *));
	nsub = 0;
	for (size_t i = 0; i < A.n; i++) {
		size_t s;

		sub[i] = subf ? field(&A, i, subf) : xstrdup("all");
		for (s = 0; s < nsub; s++)
			if (strcmp(names[s], sub[i]) == 0)
				break;
		if (s == nsub)
			names[nsub++] = sub[i];
	}
	/*
	 * A subset of fewer than two scored pairs has no correlation: with
	 * -u, a field that is no subset (an id, a line number) is the
	 * likely cause, refused before any figure.
	 */
	for (size_t s = 0; subf && s < nsub; s++) {
		size_t k = 0, n = A.n;

		for (size_t i = 0; i < A.n; i++)
			k += scored[i] && strcmp(sub[i], names[s]) == 0;
		if (k >= 2)
			continue;
		emb_quotes(q, names[s]);
		/* Freed first: the message is the run's end. */
		stsfree(sub, names, gold, scored, &A, &B);
		warnx("%s: -u %u: subset '%s' has %zu scored pair%s, fewer "
		    "than the two a correlation needs (%zu subsets for %zu "
		    "pairs: is key field %u the subset?)", A.name, subf, q, k,
		    k == 1 ? "" : "s", nsub, n, subf);
		exit(1);
	}
	sim = xreallocarray(NULL, A.n + 1, sizeof(double));
	gs = xreallocarray(NULL, A.n + 1, sizeof(double));
	ss = xreallocarray(NULL, A.n + 1, sizeof(double));
	for (size_t i = 0; i < A.n; i++)
		sim[i] = cosine(A.X + i * A.dim, B.X + i * A.dim, A.dim);
	for (size_t s = 0; s < nsub; s++) {
		double rs, rp;
		int rcp, rcs;
		size_t msz = strlen(names[s]) + 16;
		char *met = xmalloc(msz);
		size_t k = 0;

		for (size_t i = 0; i < A.n; i++)
			if (scored[i] && strcmp(sub[i], names[s]) == 0) {
				gs[k] = gold[i];
				ss[k++] = sim[i];
			}
		rcp = emb_pearson(ss, gs, k, &rp);
		rcs = emb_spearman(ss, gs, k, &rs);
		if (rcs == EMB_ENOMEM)
			errx(1, "out of memory");
		/* Each figure named by its subset. */
		printf("%s\tcosine\tsubset:%zu\t%s\n", task, s + 1, names[s]);
		snprintf(met, msz, "pearson:%s", names[s]);
		outcorr("cosine", met, rcp, rp);
		snprintf(met, msz, "spearman:%s", names[s]);
		outcorr("cosine", met, rcs, rs);
		snprintf(met, msz, "n:%s", names[s]);
		out("cosine", met, "%zu", k);
		free(met);
		if (verbose)
			fprintf(stderr, "%s: %s: pearson %.4f, spearman %.4f, "
			    "%zu pairs\n", task, names[s], rcp < 0 ? NAN : rp,
			    rcs < 0 ? NAN : rs, k);
		if (rcp == 0 && rcs == 0) {
			pm += rp;
			sm += rs;
			pw += rp * (double)k;
			sw += rs * (double)k;
			ndef++;
			wsum += k;
		}
		m += k;
	}
	/* The means skip subsets whose correlation is undefined. */
	outcorr("cosine", "pearson_mean", ndef ? 0 : -1, pm / (double)ndef);
	outcorr("cosine", "spearman_mean", ndef ? 0 : -1, sm / (double)ndef);
	outcorr("cosine", "pearson_wmean", wsum ? 0 : -1, pw / (double)wsum);
	outcorr("cosine", "spearman_wmean", wsum ? 0 : -1, sw / (double)wsum);
	m = 0;
	for (size_t i = 0; i < A.n; i++)
		if (scored[i]) {
			gs[m] = gold[i];
			ss[m++] = sim[i];
		}
	rc = emb_pearson(ss, gs, m, &r);
	outcorr("cosine", "pearson_pooled", rc, r);
	if (verbose)
		fprintf(stderr, "%s: all: pearson mean %.4f, weighted %.4f, "
		    "pooled %.4f\n", task, ndef ? pm / ndef : NAN, wsum ?
		    pw / wsum : NAN, rc < 0 ? NAN : r);
	rc = emb_spearman(ss, gs, m, &r);
	outcorr("cosine", "spearman_pooled", rc, r);
	if (verbose)
		fprintf(stderr, "%s: all: spearman mean %.4f, weighted %.4f, "
		    "pooled %.4f; %zu pairs scored, %zu unscored\n", task,
		    ndef ? sm / ndef : NAN, wsum ? sw / wsum : NAN,
		    rc < 0 ? NAN : r, m, unscored);
	out("cosine", "pairs", "%zu", m);
	out("cosine", "unscored", "%zu", unscored);
	if (protocol)
		out("cosine", "protocol", "similarity=cosine subsets=%s:%zu "
		    "summaries=pooled(SentEval's all),mean,wmean "
		    "correlations=pearson,spearman(average_ranks) pairs=%zu "
		    "unscored=%zu undefined_subsets_left_out zero_vectors=%zu%s%s",
		    subf ? "field" : "none", nsub, m, unscored,
		    zerocount(&A, A.n) + zerocount(&B, B.n), protonote ? " " : "",
		    protonote ? protonote : "");
	if (K != NULL) {
		K->n = A.n;
		K->m = m;
		K->gold = xreallocarray(NULL, m + 1, sizeof(double));
		K->sim = xreallocarray(NULL, m + 1, sizeof(double));
		K->sub = xreallocarray(NULL, m + 1, sizeof(int));
		K->key = xreallocarray(NULL, A.n + 1, sizeof(char *));
		K->nsub = (int)nsub;
		m = 0;
		for (size_t i = 0; i < A.n; i++) {
			size_t s;

			K->key[i] = idf ? field(&A, i, idf) :
			    xstrdup(KEY(&A, i));
			if (!scored[i])
				continue;
			for (s = 0; strcmp(names[s], sub[i]) != 0; s++)
				;
			K->gold[m] = gold[i];
			K->sim[m] = sim[i];
			K->sub[m++] = (int)s;
		}
	}
	free(sim);
	free(gs);
	free(ss);
	stsfree(sub, names, gold, scored, &A, &B);
}

static void
keptfree(struct kept *K)
{
	for (size_t i = 0; K->key && i < K->n; i++)
		free(K->key[i]);
	free(K->key);
	free(K->gold);
	free(K->sim);
	free(K->sub);
}

/*
 * The second representation's pairs against the first's: the same keys
 * (or key fields -i) in the same order, the same scored pairs.
 */
static void
samepairs(const struct kept *A, const struct kept *B, const char *an,
    const char *bn)
{
	char qa[EMB_QUOTE_BUF], qb[EMB_QUOTE_BUF];

	if (A->n != B->n)
		errx(1, "%s has %zu records, %s has %zu", an, A->n, bn, B->n);
	for (size_t i = 0; i < A->n; i++)
		if (strcmp(A->key[i], B->key[i]) != 0)
			errx(1, "%s: record %zu: key '%s' does not match '%s' "
			    "in %s", bn, i + 1, emb_quotes(qb, B->key[i]),
			    emb_quotes(qa, A->key[i]), an);
	if (A->nsub != B->nsub)
		errx(1, "%s: %d subsets, %s has %d", bn, B->nsub, an,
		    A->nsub);
	for (size_t i = 0; i < A->m; i++)
		if (A->sub[i] != B->sub[i])
			errx(1, "%s: scored pair %zu: another subset than in "
			    "%s", bn, i + 1, an);
}

/* The task column of representation i (0, 1; 2: the comparison). */
static void
taskof(int i, struct kept *K)
{
	if (K != NULL)
		memset(K, 0, sizeof(*K));
	task = taskv[i];
}

void
sts(const char *apath, const char *bpath, const char *goldpath,
    unsigned idf, unsigned subf)
{
	struct kept KA, KB;

	if (versus == NULL) {
		sts1(apath, bpath, goldpath, idf, subf, NULL);
		return;
	}
	taskof(0, &KA);
	sts1(apath, bpath, goldpath, idf, subf, &KA);
	taskof(1, &KB);
	sts1(versus, versus2, goldpath, idf, subf, &KB);
	taskof(2, NULL);
	samepairs(&KA, &KB, apath ? apath : "stdin", versus);
	comparecorr(KA.gold, KA.sim, KB.sim, KA.sub, KA.m, KA.nsub, 0);
	keptfree(&KA);
	keptfree(&KB);
}

/*
 * Word similarity, as gensim's KeyedVectors.evaluate_word_pairs: the
 * vocabulary is the first nvocab records, words compared in ASCII upper
 * case unless -I (the first record of a folded word wins); a pair with an
 * unknown word is counted and skipped.
 */
struct vocab {
	char		**w;		/* words, unescaped and folded */
	size_t		*len;		/* word i is record i's */
	struct emb_index ix;		/* word -> its first record */
};

static const char *
vkey(const void *ctx, size_t i, size_t *len)
{
	const struct vocab *V = ctx;

	*len = V->len[i];
	return V->w[i];
}

/* @return the record of word s (n bytes), or (size_t)-1. */
static size_t
vfind(const struct vocab *V, const char *s, size_t n)
{
	int64_t e = emb_index_find(&V->ix, s, n);

	return e < 0 ? (size_t)-1 : (size_t)e;
}

static void
fold(char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		s[i] = (char)toupper((unsigned char)s[i]);
}

/*
 * K (unless NULL) keeps every pair line's gold score and similarity, NAN
 * for a pair with an unknown word.
 */
static void
wordsim1(const char *streampath, const char *pairspath, unsigned wf,
    size_t nvocab, int caseful, struct kept *K)
{
	struct flat D;
	struct vocab V;
	struct textin pf;
	char *line, q[EMB_QUOTE_BUF];
	size_t lineno = 0, npairs = 0, oov = 0, nv;
	double *gs = NULL, *ss = NULL, r;
	ssize_t len;
	int rc;

	flatload(&D, streampath, GROUPED, NULL, NULL);
	nv = D.n < nvocab ? D.n : nvocab;
	emb_index_init(&V.ix, vkey, &V);
	if (emb_index_reserve(&V.ix, nv) < 0)
		errx(1, "%s: too many records", D.name);
	V.w = xreallocarray(NULL, nv + 1, sizeof(char *));
	V.len = xreallocarray(NULL, nv + 1, sizeof(size_t));
	for (size_t i = 0; i < nv; i++) {
		char *f = field(&D, i, wf);
		long l = emb_key_unescape(f, f, strlen(f));

		if (l < 0)
			errx(1, "%s: record %zu: bad escape in the key",
			    D.name, i + 1);
		if (!caseful)
			fold(f, (size_t)l);
		V.w[i] = f;
		V.len[i] = (size_t)l;
		/* The first record of a word wins. */
		if (emb_index_add(&V.ix, i, NULL) < 0)
			errx(1, "%s: too many records", D.name);
	}
	textopen(&pf, openside(pairspath), pairspath);
	while ((len = textline(&pf, &line, lineno + 1)) != -1) {
		char *tok[4], *p = line, *end;
		size_t ia, ib;
		int nt = 0;
		double g;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		if (line[0] == '#' || strspn(line, " \t") == (size_t)len)
			continue;
		while (nt < 4 && (tok[nt] = strtok_r(p, " \t", &end)) != NULL) {
			nt++;
			p = NULL;
		}
		if (nt != 3)
			errx(1, "%s: line %zu: expected 'word word score'",
			    pairspath, lineno);
		errno = 0;
		g = strtod(tok[2], &p);
		if (*p != '\0' || errno == ERANGE || !isfinite(g))
			errx(1, "%s: line %zu: '%s' is not a score", pairspath,
			    lineno, emb_quotes(q, tok[2]));
		if (!caseful) {
			fold(tok[0], strlen(tok[0]));
			fold(tok[1], strlen(tok[1]));
		}
		ia = vfind(&V, tok[0], strlen(tok[0]));
		ib = vfind(&V, tok[1], strlen(tok[1]));
		if (K != NULL) {
			K->gold = xreallocarray(K->gold, K->m + 1,
			    sizeof(double));
			K->sim = xreallocarray(K->sim, K->m + 1,
			    sizeof(double));
			K->gold[K->m] = g;
			K->sim[K->m++] = ia == (size_t)-1 || ib == (size_t)-1 ?
			    NAN : cosine(D.X + ia * D.dim, D.X + ib * D.dim,
			    D.dim);
		}
		if (ia == (size_t)-1 || ib == (size_t)-1) {
			oov++;
			continue;
		}
		gs = xreallocarray(gs, npairs + 1, sizeof(double));
		ss = xreallocarray(ss, npairs + 1, sizeof(double));
		gs[npairs] = g;
		ss[npairs++] = cosine(D.X + ia * D.dim, D.X + ib * D.dim,
		    D.dim);
	}
	textclose(&pf);
	rc = emb_pearson(ss, gs, npairs, &r);
	outcorr("cosine", "pearson", rc, r);
	if (verbose)
		fprintf(stderr, "%s: pearson %.4f", task, rc < 0 ? NAN : r);
	rc = emb_spearman(ss, gs, npairs, &r);
	outcorr("cosine", "spearman", rc, r);
	out("cosine", "pairs", "%zu", npairs);
	out("cosine", "oov_pairs", "%zu", oov);
	out("cosine", "oov_pct", "%.6f", npairs + oov ? 100.0 * oov /
	    (double)(npairs + oov) : 0.0);
	if (verbose)
		fprintf(stderr, ", spearman %.4f; %zu pairs, %zu with an "
		    "unknown word (%.2f %%)\n", rc < 0 ? NAN : r, npairs, oov,
		    npairs + oov ? 100.0 * oov / (double)(npairs + oov) : 0.0);
	if (protocol)
		out("cosine", "protocol", "similarity=cosine vocabulary=%zu "
		    "case=%s first_record_wins oov=pairs_skipped oov_pct=%.2f "
		    "correlations=pearson,spearman(average_ranks) "
		    "as=gensim_evaluate_word_pairs%s%s", nv, caseful ?
		    "as_is" : "ascii_upper", npairs + oov ? 100.0 * oov /
		    (double)(npairs + oov) : 0.0, protonote ? " " : "",
		    protonote ? protonote : "");
	for (size_t i = 0; i < nv; i++)
		free(V.w[i]);
	free(V.w);
	free(V.len);
	emb_index_free(&V.ix);
	free(gs);
	free(ss);
	flatfree(&D);
}

void
wordsim(const char *streampath, const char *pairspath, unsigned wf,
    size_t nvocab, int caseful)
{
	struct kept KA, KB;
	double *g, *a, *b;
	int *sub;
	size_t m = 0;

	if (versus == NULL) {
		wordsim1(streampath, pairspath, wf, nvocab, caseful, NULL);
		return;
	}
	taskof(0, &KA);
	wordsim1(streampath, pairspath, wf, nvocab, caseful, &KA);
	taskof(1, &KB);
	wordsim1(versus, pairspath, wf, nvocab, caseful, &KB);
	taskof(2, NULL);
	/* The pairs both know. */
	g = xreallocarray(NULL, KA.m + 1, sizeof(double));
	a = xreallocarray(NULL, KA.m + 1, sizeof(double));
	b = xreallocarray(NULL, KA.m + 1, sizeof(double));
	sub = xcalloc(KA.m + 1, sizeof(int));
	for (size_t i = 0; i < KA.m && i < KB.m; i++)
		if (!isnan(KA.sim[i]) && !isnan(KB.sim[i])) {
			g[m] = KA.gold[i];
			a[m] = KA.sim[i];
			b[m++] = KB.sim[i];
		}
	out("cosine", "oov_pairs_either", "%zu", KA.m - m);
	comparecorr(g, a, b, sub, m, 1, 1);
	free(g);
	free(a);
	free(b);
	free(sub);
	keptfree(&KA);
	keptfree(&KB);
}
