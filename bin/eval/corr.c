/*
 * corr.c - emb-eval's correlation tasks: STS (the cosine of aligned
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
outcorr(const struct eval *E, const char *clf, const char *metric, int rc,
    double v)
{
	if (rc < 0)
		out(E, clf, metric, "nan");
	else
		out(E, clf, metric, "%.6f", v);
}

/*
 * The gold score in p (n bytes, line lno of path): a finite decimal
 * number, or exit 1.
 */
static double
score(const char *p, size_t n, const char *path, size_t lno)
{
	char *end, q[EMB_QUOTE_BUF];
	double g;

	errno = 0;
	g = strtod(p, &end);
	if (*end != '\0' || errno == ERANGE || !isfinite(g))
		errx(1, "%s: line %zu: '%s' is not a score", path, lno,
		    emb_quote(q, p, n));
	return g;
}

/*
 * The correlation (Pearson's, or Spearman's with rank) of the m cosines
 * ss with their gold scores gs, printed as metric: @return its code, its
 * value in *r.
 */
static int
corrout(const struct eval *E, int rank, const double *ss, const double *gs, size_t m,
    const char *metric, double *r)
{
	int rc = rank ? emb_spearman(ss, gs, m, r) :
	    emb_pearson(ss, gs, m, r);

	outcorr(E, "cosine", metric, rc, *r);
	return rc;
}

/*
 * One STS run: the two streams of aligned pairs, the gold scores, the
 * subsets and the cosines; stsfree() frees it all.
 */
struct sts {
	struct flat	 A, B;		/* first and second sentences */
	double		*gold;		/* n + 1: pair i's gold score */
	char		*scored;	/* n + 1: 1 if pair i has a score */
	size_t		 unscored;	/* pairs without one */
	char		**sub;		/* n + 1: pair i's subset */
	char		**names;	/* the subsets, in order of appearance */
	size_t		 nsub;
	double		*sim;		/* n + 1: pair i's cosine */
	double		*gs, *ss;	/* n + 1: gold and cosine of a set */
};

static void
stsfree(struct sts *S)
{
	for (size_t i = 0; S->sub != NULL && i < S->A.n; i++)
		free(S->sub[i]);
	free(S->sub);
	free(S->names);
	free(S->gold);
	free(S->scored);
	free(S->sim);
	free(S->gs);
	free(S->ss);
	flatfree(&S->A);
	flatfree(&S->B);
}

/*
 * The two streams into S, pair by pair: the same dimension, as many
 * records, and the same keys (or key fields idf) in the same order.
 */
static void
stsload(struct sts *S, const char *apath, const char *bpath, unsigned idf)
{
	struct flat *A = &S->A, *B = &S->B;

	memset(S, 0, sizeof(*S));
	flatload(A, apath, GROUPED, NULL, NULL);
	flatload(B, bpath, GROUPED, NULL, NULL);
	if (A->dim != B->dim)
		errx(1, "%s: dimension %u, %s has %u", B->name, B->dim,
		    A->name, A->dim);
	if (A->n != B->n)
		errx(1, "%s has %zu records, %s has %zu", A->name, A->n,
		    B->name, B->n);
	for (size_t i = 0; i < A->n; i++) {
		int same;

		if (idf) {
			char *x = field(A, i, idf), *y = field(B, i, idf);

			same = strcmp(x, y) == 0;
			free(x);
			free(y);
		} else
			same = A->keylen[i] == B->keylen[i] &&
			    memcmp(KEY(A, i), KEY(B, i), A->keylen[i]) == 0;
		if (!same) {
			char qb[EMB_QUOTE_BUF], qa[EMB_QUOTE_BUF];

			errx(1, "%s: record %zu: key '%s' does not match '%s' "
			    "in %s", B->name, i + 1, emb_quote(qb, KEY(B, i),
			    B->keylen[i]), emb_quote(qa, KEY(A, i),
			    A->keylen[i]), A->name);
		}
	}
}

/* The gold file: a score or a blank line (unscored) for each pair. */
static void
readgold(struct sts *S, const char *goldpath)
{
	struct textin gf;
	char *line;
	size_t nl = 0, n = S->A.n;
	ssize_t len;

	textopen(&gf, openside(goldpath), goldpath);
	S->gold = xreallocarray(NULL, n + 1, sizeof(double));
	S->scored = xmalloc(n + 1);
	while ((len = textline(&gf, &line, nl + 1)) != -1) {
		char *p = line;

		if (nl == n)
			errx(1, "%s: line %zu: more gold lines than the %zu "
			    "pairs", goldpath, nl + 1, n);
		while (len > 0 && isspace((unsigned char)line[len - 1]))
			line[--len] = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0') {
			S->scored[nl++] = 0;
			S->unscored++;
			continue;
		}
		S->gold[nl] = score(p, (size_t)(line + len - p), goldpath,
		    nl + 1);
		S->scored[nl++] = 1;
	}
	textclose(&gf);
	if (nl != n)
		errx(1, "%s: %zu lines for %zu pairs", goldpath, nl, n);
}

/*
 * The subsets (key field subf of the first stream, or one "all") in
 * order of first appearance.  A subset of fewer than two scored pairs
 * has no correlation: with -u, a field that is no subset (an id, a line
 * number) is the likely cause, refused before any figure.
 */
static void
subsets(struct sts *S, unsigned subf)
{
	size_t n = S->A.n;
	char q[EMB_QUOTE_BUF];

	S->sub = xreallocarray(NULL, n + 1, sizeof(char *));
	S->names = xreallocarray(NULL, n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		size_t s;

		S->sub[i] = subf ? field(&S->A, i, subf) : xstrdup("all");
		for (s = 0; s < S->nsub; s++)
			if (strcmp(S->names[s], S->sub[i]) == 0)
				break;
		if (s == S->nsub)
			S->names[S->nsub++] = S->sub[i];
	}
	for (size_t s = 0; subf && s < S->nsub; s++) {
		size_t k = 0, nsub = S->nsub;

		for (size_t i = 0; i < n; i++)
			k += S->scored[i] && strcmp(S->sub[i],
			    S->names[s]) == 0;
		if (k >= 2)
			continue;
		emb_quotes(q, S->names[s]);
		/* Freed first: the message is the run's end. */
		stsfree(S);
		warnx("%s: -u %u: subset '%s' has %zu scored pair%s, fewer "
		    "than the two a correlation needs (%zu subsets for %zu "
		    "pairs: is key field %u the subset?)", S->A.name, subf, q,
		    k, k == 1 ? "" : "s", nsub, n, subf);
		exit(1);
	}
}

/* The sums of the per-subset correlations, for their means. */
struct means {
	double		 pm, sm;	/* Pearson's, Spearman's */
	double		 pw, sw;	/* the same weighted by pairs */
	size_t		 ndef;		/* subsets with both defined */
	size_t		 wsum;		/* their pairs */
};

/*
 * The figures of subset s, each named by it, added to M: @return its
 * scored pairs.
 */
static size_t
subsetfigs(const struct eval *E, struct sts *S, size_t s, struct means *M)
{
	const char *name = S->names[s];
	size_t msz = strlen(name) + 16, k = 0;
	char *met = xmalloc(msz);
	double rs, rp;
	int rcp, rcs;

	for (size_t i = 0; i < S->A.n; i++)
		if (S->scored[i] && strcmp(S->sub[i], name) == 0) {
			S->gs[k] = S->gold[i];
			S->ss[k++] = S->sim[i];
		}
	rcp = emb_pearson(S->ss, S->gs, k, &rp);
	rcs = emb_spearman(S->ss, S->gs, k, &rs);
	if (rcs == EMB_ENOMEM)
		errx(1, "out of memory");
	printf("%s\tcosine\tsubset:%zu\t%s\n", E->task, s + 1, name);
	snprintf(met, msz, "pearson:%s", name);
	outcorr(E, "cosine", met, rcp, rp);
	snprintf(met, msz, "spearman:%s", name);
	outcorr(E, "cosine", met, rcs, rs);
	snprintf(met, msz, "n:%s", name);
	out(E, "cosine", met, "%zu", k);
	free(met);
	if (E->verbose)
		fprintf(stderr, "%s: %s: pearson %.4f, spearman %.4f, "
		    "%zu pairs\n", E->task, name, rcp < 0 ? NAN : rp,
		    rcs < 0 ? NAN : rs, k);
	if (rcp == 0 && rcs == 0) {
		M->pm += rp;
		M->sm += rs;
		M->pw += rp * (double)k;
		M->sw += rs * (double)k;
		M->ndef++;
		M->wsum += k;
	}
	return k;
}

/*
 * The means over subsets (those whose correlation is undefined left
 * out) and the correlations over all scored pairs pooled: @return the
 * scored pairs.
 */
static size_t
pooledfigs(const struct eval *E, struct sts *S, const struct means *M)
{
	size_t m = 0;
	double r;
	int rc;

	outcorr(E, "cosine", "pearson_mean", M->ndef ? 0 : -1,
	    M->pm / (double)M->ndef);
	outcorr(E, "cosine", "spearman_mean", M->ndef ? 0 : -1,
	    M->sm / (double)M->ndef);
	outcorr(E, "cosine", "pearson_wmean", M->wsum ? 0 : -1,
	    M->pw / (double)M->wsum);
	outcorr(E, "cosine", "spearman_wmean", M->wsum ? 0 : -1,
	    M->sw / (double)M->wsum);
	for (size_t i = 0; i < S->A.n; i++)
		if (S->scored[i]) {
			S->gs[m] = S->gold[i];
			S->ss[m++] = S->sim[i];
		}
	rc = corrout(E, 0, S->ss, S->gs, m, "pearson_pooled", &r);
	if (E->verbose)
		fprintf(stderr, "%s: all: pearson mean %.4f, weighted %.4f, "
		    "pooled %.4f\n", E->task, M->ndef ? M->pm / M->ndef : NAN,
		    M->wsum ? M->pw / M->wsum : NAN, rc < 0 ? NAN : r);
	rc = corrout(E, 1, S->ss, S->gs, m, "spearman_pooled", &r);
	if (E->verbose)
		fprintf(stderr, "%s: all: spearman mean %.4f, weighted %.4f, "
		    "pooled %.4f; %zu pairs scored, %zu unscored\n", E->task,
		    M->ndef ? M->sm / M->ndef : NAN, M->wsum ? M->sw / M->wsum :
		    NAN, rc < 0 ? NAN : r, m, S->unscored);
	return m;
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

/* The m scored pairs of S into K, and the keys (fields idf) of A. */
static void
keep(const struct sts *S, size_t m, unsigned idf, struct kept *K)
{
	const struct flat *A = &S->A;

	K->n = A->n;
	K->m = m;
	K->gold = xreallocarray(NULL, m + 1, sizeof(double));
	K->sim = xreallocarray(NULL, m + 1, sizeof(double));
	K->sub = xreallocarray(NULL, m + 1, sizeof(int));
	K->key = xreallocarray(NULL, A->n + 1, sizeof(char *));
	K->nsub = (int)S->nsub;
	m = 0;
	for (size_t i = 0; i < A->n; i++) {
		size_t s;

		K->key[i] = idf ? field(A, i, idf) : xstrdup(KEY(A, i));
		if (!S->scored[i])
			continue;
		for (s = 0; strcmp(S->names[s], S->sub[i]) != 0; s++)
			;
		K->gold[m] = S->gold[i];
		K->sim[m] = S->sim[i];
		K->sub[m++] = (int)s;
	}
}

/*
 * STS: the cosine of each aligned pair against its gold score, per subset
 * (a key field of the first stream), their mean, their mean weighted by
 * pair count, and over all pairs pooled; K (unless NULL) keeps the pairs.
 */
static void
sts1(const struct eval *E, const char *apath, const char *bpath,
    const char *goldpath, unsigned idf, unsigned subf, struct kept *K)
{
	struct sts S;
	struct means M = { 0 };
	size_t n, m;

	stsload(&S, apath, bpath, idf);
	readgold(&S, goldpath);
	subsets(&S, subf);
	n = S.A.n;
	S.sim = xreallocarray(NULL, n + 1, sizeof(double));
	S.gs = xreallocarray(NULL, n + 1, sizeof(double));
	S.ss = xreallocarray(NULL, n + 1, sizeof(double));
	for (size_t i = 0; i < n; i++)
		S.sim[i] = cosine(S.A.X + i * S.A.dim, S.B.X + i * S.A.dim,
		    S.A.dim);
	for (size_t s = 0; s < S.nsub; s++)
		subsetfigs(E, &S, s, &M);
	m = pooledfigs(E, &S, &M);
	out(E, "cosine", "pairs", "%zu", m);
	out(E, "cosine", "unscored", "%zu", S.unscored);
	if (E->protocol)
		out(E, "cosine", "protocol", "similarity=cosine subsets=%s:%zu "
		    "summaries=pooled(SentEval's all),mean,wmean "
		    "correlations=pearson,spearman(average_ranks) pairs=%zu "
		    "unscored=%zu undefined_subsets_left_out zero_vectors=%zu%s%s",
		    subf ? "field" : "none", S.nsub, m, S.unscored,
		    zerocount(&S.A, n) + zerocount(&S.B, n), E->protonote ?
		    " " : "", E->protonote ? E->protonote : "");
	if (K != NULL)
		keep(&S, m, idf, K);
	stsfree(&S);
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

void
sts(const struct eval *E, const char *apath, const char *bpath,
    const char *goldpath, unsigned idf, unsigned subf)
{
	struct kept KA = { 0 }, KB = { 0 };
	struct eval Ea, Eb;

	if (E->versus == NULL) {
		sts1(E, apath, bpath, goldpath, idf, subf, NULL);
		return;
	}
	Ea = evalside(E, 0);
	sts1(&Ea, apath, bpath, goldpath, idf, subf, &KA);
	Eb = evalside(E, 1);
	sts1(&Eb, E->versus, E->versus2, goldpath, idf, subf, &KB);
	samepairs(&KA, &KB, apath ? apath : "stdin", E->versus);
	comparecorr(E, KA.gold, KA.sim, KB.sim, KA.sub, KA.m, KA.nsub, 0);
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
 * The first nv records of D as the vocabulary V: key field wf of each,
 * unescaped, and folded unless caseful.
 */
static void
vocabload(struct vocab *V, const struct flat *D, unsigned wf, size_t nv,
    int caseful)
{
	emb_index_init(&V->ix, vkey, V);
	if (emb_index_reserve(&V->ix, nv) < 0)
		errx(1, "%s: too many records", D->name);
	V->w = xreallocarray(NULL, nv + 1, sizeof(char *));
	V->len = xreallocarray(NULL, nv + 1, sizeof(size_t));
	for (size_t i = 0; i < nv; i++) {
		char *f = field(D, i, wf);
		long l = emb_key_unescape(f, f, strlen(f));

		if (l < 0)
			errx(1, "%s: record %zu: bad escape in the key",
			    D->name, i + 1);
		if (!caseful)
			fold(f, (size_t)l);
		V->w[i] = f;
		V->len[i] = (size_t)l;
		/* The first record of a word wins. */
		if (emb_index_add(&V->ix, i, NULL) < 0)
			errx(1, "%s: too many records", D->name);
	}
}

static void
vocabfree(struct vocab *V, size_t nv)
{
	for (size_t i = 0; i < nv; i++)
		free(V->w[i]);
	free(V->w);
	free(V->len);
	emb_index_free(&V->ix);
}

/*
 * Line lineno of path (len bytes) as "word word score": the words into
 * tok[0] and tok[1] (folded unless caseful), the score into *g.  @return
 * 0 for a comment or a blank line, 1 for a pair.
 */
static int
pairline(char *line, ssize_t len, const char *path, size_t lineno,
    int caseful, char *tok[4], double *g)
{
	char *p = line, *end;
	int nt = 0;

	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	if (line[0] == '#' || strspn(line, " \t") == (size_t)len)
		return 0;
	while (nt < 4 && (tok[nt] = strtok_r(p, " \t", &end)) != NULL) {
		nt++;
		p = NULL;
	}
	if (nt != 3)
		errx(1, "%s: line %zu: expected 'word word score'", path,
		    lineno);
	*g = score(tok[2], strlen(tok[2]), path, lineno);
	if (!caseful) {
		fold(tok[0], strlen(tok[0]));
		fold(tok[1], strlen(tok[1]));
	}
	return 1;
}

/* The pairs both of whose words are known: gold scores and cosines. */
struct known {
	double		*gs, *ss;
	size_t		 npairs;
	size_t		 oov;		/* pairs with an unknown word */
};

/*
 * The pairs of the file pairspath into P, the cosines from the vectors D
 * of the words of V; K (unless NULL) keeps every pair line's gold score
 * and similarity, NAN for a pair with an unknown word.
 */
static void
readpairs(const char *pairspath, const struct flat *D, const struct vocab *V,
    int caseful, struct known *P, struct kept *K)
{
	struct textin pf;
	char *line;
	size_t lineno = 0, m = K != NULL ? K->m : 0;
	size_t kcap[2] = { m, m }, pcap[2] = { P->npairs, P->npairs };
	ssize_t len;

	textopen(&pf, openside(pairspath), pairspath);
	while ((len = textline(&pf, &line, lineno + 1)) != -1) {
		char *tok[4];
		size_t ia, ib;
		double g, sim;
		int unknown;

		lineno++;
		if (!pairline(line, len, pairspath, lineno, caseful, tok, &g))
			continue;
		ia = vfind(V, tok[0], strlen(tok[0]));
		ib = vfind(V, tok[1], strlen(tok[1]));
		unknown = ia == (size_t)-1 || ib == (size_t)-1;
		sim = unknown ? NAN : cosine(D->X + ia * D->dim,
		    D->X + ib * D->dim, D->dim);
		if (K != NULL) {
			xgrow(&K->gold, &kcap[0], K->m + 1, sizeof(double));
			xgrow(&K->sim, &kcap[1], K->m + 1, sizeof(double));
			K->gold[K->m] = g;
			K->sim[K->m++] = sim;
		}
		if (unknown) {
			P->oov++;
			continue;
		}
		xgrow(&P->gs, &pcap[0], P->npairs + 1, sizeof(double));
		xgrow(&P->ss, &pcap[1], P->npairs + 1, sizeof(double));
		P->gs[P->npairs] = g;
		P->ss[P->npairs++] = sim;
	}
	textclose(&pf);
}

/*
 * The figures of the known pairs P, the vocabulary the first nv words,
 * compared folded unless caseful.
 */
static void
wsfigs(const struct eval *E, const struct known *P, size_t nv, int caseful)
{
	size_t all = P->npairs + P->oov;
	double pct = all ? 100.0 * P->oov / (double)all : 0.0, r;
	int rc;

	rc = corrout(E, 0, P->ss, P->gs, P->npairs, "pearson", &r);
	if (E->verbose)
		fprintf(stderr, "%s: pearson %.4f", E->task, rc < 0 ? NAN : r);
	rc = corrout(E, 1, P->ss, P->gs, P->npairs, "spearman", &r);
	out(E, "cosine", "pairs", "%zu", P->npairs);
	out(E, "cosine", "oov_pairs", "%zu", P->oov);
	out(E, "cosine", "oov_pct", "%.6f", pct);
	if (E->verbose)
		fprintf(stderr, ", spearman %.4f; %zu pairs, %zu with an "
		    "unknown word (%.2f %%)\n", rc < 0 ? NAN : r, P->npairs,
		    P->oov, pct);
	if (E->protocol)
		out(E, "cosine", "protocol", "similarity=cosine vocabulary=%zu "
		    "case=%s first_record_wins oov=pairs_skipped oov_pct=%.2f "
		    "correlations=pearson,spearman(average_ranks) "
		    "as=gensim_evaluate_word_pairs%s%s", nv, caseful ?
		    "as_is" : "ascii_upper", pct, E->protonote ? " " :
		    "", E->protonote ? E->protonote : "");
}

/*
 * Word similarity of the pairs in pairspath by the vectors of
 * streampath; K (unless NULL) keeps every pair line's gold score and
 * similarity, NAN for a pair with an unknown word.
 */
static void
wordsim1(const struct eval *E, const char *streampath,
    const char *pairspath, unsigned wf, size_t nvocab, int caseful,
    struct kept *K)
{
	struct flat D;
	struct vocab V;
	struct known P = { 0 };
	size_t nv;

	flatload(&D, streampath, GROUPED, NULL, NULL);
	nv = D.n < nvocab ? D.n : nvocab;
	vocabload(&V, &D, wf, nv, caseful);
	readpairs(pairspath, &D, &V, caseful, &P, K);
	wsfigs(E, &P, nv, caseful);
	vocabfree(&V, nv);
	free(P.gs);
	free(P.ss);
	flatfree(&D);
}

void
wordsim(const struct eval *E, const char *streampath, const char *pairspath,
    unsigned wf, size_t nvocab, int caseful)
{
	struct kept KA = { 0 }, KB = { 0 };
	struct eval Ea, Eb;
	double *g, *a, *b;
	int *sub;
	size_t m = 0;

	if (E->versus == NULL) {
		wordsim1(E, streampath, pairspath, wf, nvocab, caseful, NULL);
		return;
	}
	Ea = evalside(E, 0);
	wordsim1(&Ea, streampath, pairspath, wf, nvocab, caseful, &KA);
	Eb = evalside(E, 1);
	wordsim1(&Eb, E->versus, pairspath, wf, nvocab, caseful, &KB);
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
	out(E, "cosine", "oov_pairs_either", "%zu", KA.m - m);
	comparecorr(E, g, a, b, sub, m, 1, 1);
	free(g);
	free(a);
	free(b);
	free(sub);
	keptfree(&KA);
	keptfree(&KB);
}
