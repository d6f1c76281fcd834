/*
 * emb-bias - association and bias tests on word vectors: WEAT (Caliskan
 * et al. 2017) with its permutation test, exact or sampled, and bootstrap
 * intervals over words; RND (Garg et al. 2018), RIPA (Ethayarajh et al.
 * 2019), MAC (Manzini et al. 2019) and ECT (Dev and Phillips 2019).
 *
 * The word sets come from a small text file (roles X, Y, A, B); the
 * vectors from a stream or a store, matched to the words by key (or a key
 * field), so that vectors composed upstream (emb-ose, emb-bov) are tested
 * as words are (SEAT-style).  Every figure is one line
 * "task<TAB>test<TAB>metric<TAB>value" on stdout.  The formulas, the
 * order of the random draws and the tolerances are in emb-bias(1),
 * precisely enough to redo each figure by hand.
 *
 * The numbers are the library's (bias.c, emb.h's association tests):
 * this file reads the sets and the vectors, checks, and prints.
 */
#include <sys/stat.h>

#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"

enum { RX, RY, RA, RB, NROLE };
static const char rolename[NROLE] = { 'X', 'Y', 'A', 'B' };

/* The tests, as -t names them. */
enum { T_WEAT = 1, T_RND = 2, T_RIPA = 4, T_MAC = 8, T_ECT = 16 };
static const struct {
	const char	*name;
	int		 bit;
} testnames[] = {
	{ "weat", T_WEAT }, { "rnd", T_RND }, { "ripa", T_RIPA },
	{ "mac", T_MAC }, { "ect", T_ECT },
};
#define NTEST	(sizeof(testnames) / sizeof(testnames[0]))

/* A word set of a sets or pairs file: one role. */
struct wset {
	char		*name;		/* NULL: the role is absent */
	unsigned long	 line;		/* its first line, for messages */
	size_t		*word;		/* n entries of the word table */
	unsigned long	*wline;		/* the line of each */
	size_t		 n, cap, lcap;
	size_t		*row;		/* the found words' entries, in order */
	size_t		 nrow;
};

/* A sets file (or a pairs file): its four roles. */
struct sets {
	const char	*path;
	struct wset	 s[NROLE];
};

/*
 * Every word any file names, once: raw bytes in words (strs), its key
 * field as the stream spells it (escaped) in esc for matching, and its
 * vector once found.
 */
static struct strs	 words, esc;
static struct emb_index	 wix;		/* raw word -> entry */
static struct emb_index	 eix;		/* escaped word -> entry */
static float		*vec;		/* entries x dim */
static char		*found;
static uint32_t		 dim;
/* Per entry, the roles of the sets file that hold it (bit r). */
static unsigned char	*inrole;
static size_t		 inrolecap;

static unsigned	 kfield;		/* -f */
static double	 minshare = 0.8;	/* -m */
static uint64_t	 nperm = 1000000;	/* -n */
static uint64_t	 exactmax = 10000000;	/* -E */
static uint64_t	 nboot = 1000;		/* -b */
static uint64_t	 seed = 1;		/* -s */
static double	 level = 0.95;		/* -c */
static int	 sdsample = 1;		/* -S: 1 sample (n - 1), 0 population */
static int	 verbose;
static int	 lower;			/* -l */
static int	 asis;			/* -U: RND, ECT on the vectors as they are */
static const char *task;
static const char *dirpath;		/* -d */

static const struct opt opts[] = {
	{ 'b', "bootstrap", "resamples", "bootstrap resamples over words "
	    "(1000; 0: no intervals)", NULL },
	{ 'c', "level", "level", "confidence level of the intervals (0.95)",
	    NULL },
	{ 'D', "differences", NULL, "write the pairs' differences of unit "
	    "vectors as a stream", NULL },
	{ 'd', "direction", "model", "RIPA along the first component of an "
	    "emb-normalize model", OPT_FILE },
	{ 'E', "exact-limit", "limit", "enumerate the partitions up to limit "
	    "of them (10^7)", NULL },
	{ 'f', "field", "field", "match the words to key field field (0: the "
	    "whole key)", NULL },
	{ 'l', "lowercase", NULL, "match the words in ASCII lower case "
	    "(GloVe's vocabulary)", NULL },
	{ 'm', "min-share", "share", "refuse a set with less than share of its "
	    "words found (0.8)", NULL },
	{ 'n', "permutations", "permutations", "partitions drawn beyond the "
	    "limit (10^6)", NULL },
	{ 'p', "pairs", "pairs", "pairs (X, Y aligned) of RIPA's direction or "
	    "of -D", OPT_FILE },
	{ 'S', "sd", "sd", "WEAT's standard deviation: sample or population",
	    "sample population" },
	{ 's', "seed", "seed", "seed of the permutations and the bootstrap "
	    "(1)", NULL },
	{ 'T', "task", "task", "the first column (the sets file's name)",
	    NULL },
	{ 't', "tests", "tests", "weat, rnd, ripa, mac, ect (a list) or all "
	    "(weat)", OPT_LIST "weat rnd ripa mac ect all" },
	{ 'U', "as-is", NULL, "RND and ECT on the vectors as they are, not "
	    "unit length", NULL },
	{ 'w', "sets", "sets", "the word sets: lines 'ROLE name word...'",
	    OPT_FILE },
	OPT_QUIET("nothing but errors on standard error (the default)"),
	OPT_VERBOSE("a summary of WEAT on standard error"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-bias",
	    "usage: emb-bias -w sets [-lqUv] [-b resamples] [-c level] "
	    "[-d model] [-E limit]\n"
	    "                [-f field] [-m share] [-n permutations] "
	    "[-p pairs] [-S sd]\n"
	    "                [-s seed] [-T task] [-t tests] [file]\n"
	    "       emb-bias -D -p pairs [-l] [-f field] [-m share] [file]\n",
	    opts };

/* One output line. */
static void
out(const char *test, const char *metric, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
out(const char *test, const char *metric, const char *fmt, ...)
{
	va_list ap;

	printf("%s\t%s\t%s\t", task, test, metric);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/*
 * The metric "pfx:R:word" of a word's own line (word entry e as the
 * stream spells it), in a buffer that lives until the next call.
 */
static struct emb_buf	 mbuf;

static const char *
wmetric(const char *pfx, int role, size_t e)
{
	struct emb_buf *b = &mbuf;
	size_t l;
	const char *w = strskey(&esc, e, &l);
	char r[4] = { ':', rolename[role], ':', '\0' };

	b->len = 0;
	xbufadd(b, pfx, strlen(pfx));
	xbufadd(b, r, 3);
	xbufadd(b, w, l);
	return b->p;
}

/* ---- the word table and the sets files ---- */

/*
 * @return the entry of the raw word w (n bytes, ASCII lower-cased in place
 * with -l), added if new.
 */
static size_t
wordentry(const char *w, size_t n)
{
	size_t e, had, l;
	int rc;
	int64_t f;
	char *c = (char *)w;

	if (lower)
		for (size_t i = 0; i < n; i++)
			if (c[i] >= 'A' && c[i] <= 'Z')
				c[i] = (char)(c[i] - 'A' + 'a');
	if ((f = emb_index_find(&wix, w, n)) >= 0)
		return (size_t)f;
	xbufadd(&words.b, w, n);
	e = strsend(&words);
	xbufreserve(&esc.b, 2 * n);
	l = emb_key_escape(esc.b.p + esc.b.len, w, n);
	esc.b.len += l;
	esc.b.p[esc.b.len] = '\0';
	(void)strsend(&esc);
	if ((rc = emb_index_add(&wix, e, &had)) < 0 ||
	    (rc = emb_index_add(&eix, e, &had)) < 0)
		errx(1, "%s", emb_strerror(rc));
	return e;
}

/*
 * Read a sets file: lines "ROLE name word ...", ROLE one of X, Y, A, B;
 * '#' starts a comment line; a role may go on over several lines under
 * the same name.  A set holds each word once: a word named twice in a
 * role is refused, so that what WEAT holds and costs follows the distinct
 * words (a pairs file, whose X and Y are aligned lists, may repeat a word
 * in a role; pairrepeats refuses a pair named twice).  A named set with
 * no words is refused.
 */
static void
readsets(struct sets *S, const char *path, int pairs)
{
	struct textin in;
	char *line, q[EMB_QUOTE_BUF], q2[EMB_QUOTE_BUF];
	ssize_t len;
	unsigned long lno = 0;

	memset(S, 0, sizeof(*S));
	S->path = path;
	textopen(&in, openside(path), path);
	while ((len = textline(&in, &line, lno + 1)) != -1) {
		size_t i = 0, tok = 0, tl, nt = 0;
		struct wset *w = NULL;
		int r = 0;

		lno++;
		if (memchr(line, '\0', (size_t)len) != NULL)
			errx(1, "%s: line %lu: a NUL byte", path, lno);
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		for (;;) {
			while (i < (size_t)len && (line[i] == ' ' ||
			    line[i] == '\t'))
				i++;
			if (i == (size_t)len)
				break;
			tok = i;
			while (i < (size_t)len && line[i] != ' ' &&
			    line[i] != '\t')
				i++;
			tl = i - tok;
			if (nt == 0 && line[tok] == '#')
				break;
			if (nt == 0) {
				for (r = 0; r < NROLE; r++)
					if (tl == 1 && line[tok] ==
					    rolename[r])
						break;
				if (r == NROLE)
					errx(1, "%s: line %lu: '%s' is not a "
					    "role (X, Y, A or B)", path, lno,
					    emb_quote(q, line + tok, tl));
				w = &S->s[r];
			} else if (nt == 1) {
				if (w->name == NULL) {
					w->name = xmalloc(tl + 1);
					memcpy(w->name, line + tok, tl);
					w->name[tl] = '\0';
					w->line = lno;
				} else if (strlen(w->name) != tl ||
				    memcmp(w->name, line + tok, tl) != 0)
					errx(1, "%s: line %lu: set %c is "
					    "named '%s' on line %lu, here "
					    "'%s'", path, lno, rolename[r],
					    emb_quotes(q, w->name), w->line,
					    emb_quote(q2, line + tok, tl));
			} else {
				if (tl > EMB_KEY_MAX / 2)
					errx(1, "%s: line %lu: a word of %zu "
					    "bytes", path, lno, tl);
				size_t e = wordentry(line + tok, tl);

				xgrow(&w->word, &w->cap, w->n + 1,
				    sizeof(size_t));
				xgrow(&w->wline, &w->lcap, w->n + 1,
				    sizeof(unsigned long));
				if (!pairs) {
					size_t had = inrolecap;

					xgrow(&inrole, &inrolecap, e + 1, 1);
					memset(inrole + had, 0, inrolecap -
					    had);
					if (inrole[e] & 1 << r)
						errx(1, "%s: line %lu: set %c "
						    "'%s': '%s' twice%s: a set "
						    "holds a word once", path,
						    lno, rolename[r],
						    emb_quotes(q, w->name),
						    emb_quote(q2, line + tok,
						    tl), lower ? " (in lower "
						    "case, -l)" : "");
					inrole[e] |= (unsigned char)(1 << r);
				}
				w->wline[w->n] = lno;
				w->word[w->n++] = e;
			}
			nt++;
		}
		if (nt == 1)
			errx(1, "%s: line %lu: a role without a set name",
			    path, lno);
	}
	textclose(&in);
	for (int r = 0; r < NROLE; r++)
		if (S->s[r].name != NULL && S->s[r].n == 0)
			errx(1, "%s: line %lu: set %c '%s' has no words",
			    path, S->s[r].line, rolename[r],
			    emb_quotes(q, S->s[r].name));
	if (!pairs)
		memset(inrole, 0, inrolecap);
}

static void
freesets(struct sets *S)
{
	for (int r = 0; r < NROLE; r++) {
		free(S->s[r].name);
		free(S->s[r].word);
		free(S->s[r].wline);
		free(S->s[r].row);
	}
}

/* ---- the vectors ---- */

static void
take(size_t e, const float *v)
{
	if (!found[e]) {
		memcpy(vec + e * dim, v, dim * sizeof(float));
		found[e] = 1;
	}
}

static void
havedim(uint32_t d)
{
	dim = d;
	found = xcalloc(words.n + 1, 1);
	vec = xreallocarray(NULL, (words.n + 1) * (size_t)dim,
	    sizeof(float));
}

/*
 * The vectors of the words from a store (raw words) or from every VEC
 * record of a stream (its key, or field kfield, against the escaped
 * words; the first record of a word wins).
 */
static void
readvectors(const char *path)
{
	const char *name = inname(path);
	int fd = openin(path), rc;
	struct emb_reader *r;
	struct emb_rec rec;

	if (fdstore(fd)) {
		struct emb_store *s;

		if ((rc = emb_store_fdopen(&s, fd)) < 0) {
			if (rc == EMB_EIO)
				err(1, "%s", name);
			errx(1, "%s: %s", name, s != NULL ?
			    emb_store_msg(s) : emb_strerror(rc));
		}
		havedim(emb_store_dim(s));
		for (size_t e = 0; e < words.n; e++) {
			size_t n;
			const char *w = strskey(&words, e, &n);
			int64_t i = emb_store_lookup(s, w, n);
			const float *v;

			if (i < 0)
				continue;
			if (emb_store_check(s, (uint64_t)i) < 0)
				errx(1, "%s: %s", name, emb_store_msg(s));
			if ((v = emb_store_vector(s, (uint64_t)i)) == NULL) {
				/* Loaded in place: little-endian
				 * rows at any alignment. */
				const unsigned char *p =
				    emb_store_row(s, (uint64_t)i);
				float *d = vec + e * dim;

				for (uint32_t j = 0; j < dim; j++) {
					uint32_t u = (uint32_t)p[4 * j] |
					    (uint32_t)p[4 * j + 1] << 8 |
					    (uint32_t)p[4 * j + 2] << 16 |
					    (uint32_t)p[4 * j + 3] << 24;
					memcpy(d + j, &u, 4);
				}
				found[e] = 1;
			} else
				take(e, v);
		}
		emb_store_close(s);
		if (fd != STDIN_FILENO)
			close(fd);
		return;
	}
	r = xreader(fd, name);
	havedim(emb_reader_dim(r));
	while ((rc = emb_reader_next(r, &rec)) > 0) {
		const char *k;
		size_t kl;
		int64_t e;

		if (rec.type != EMB_REC_VEC)
			continue;
		if ((k = keyfield(rec.key, rec.keylen, kfield, &kl)) == NULL)
			errx(1, "%s: record %llu: key has no field %u", name,
			    (unsigned long long)rec.recno, kfield);
		if ((e = emb_index_find(&eix, k, kl)) >= 0)
			take((size_t)e, rec.vec);
	}
	if (rc < 0)
		rdie(r, name, rc);
	emb_reader_free(r);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* The missing words of w, on the message line (namesadd). */
static void
misslist(const struct wset *w)
{
	struct names nl = { 0 };

	for (size_t i = 0; i < w->n; i++) {
		size_t l;
		const char *s = strskey(&words, w->word[i], &l);

		if (!found[w->word[i]])
			namesadd(&nl, stderr, s, l);
	}
	namesend(&nl, stderr);
}

/*
 * How checksets names the words found and missing: as rows of test
 * "words" (the sets), of test "pairs" (the pairs of RIPA's direction), or
 * on standard error, the pairs dropped, each with its line (-D, whose
 * standard output is a stream).
 */
enum { CK_SETS, CK_PAIRS, CK_STDERR };

/* -D: each pair dropped for a word not found, on standard error. */
static void
dropped(const struct sets *P, const char *name)
{
	const struct wset *x = &P->s[RX], *y = &P->s[RY];
	char q[EMB_QUOTE_BUF];

	if (x->name == NULL || y->name == NULL || x->n != y->n)
		return;		/* refused by pairdiffs */
	for (size_t i = 0; i < x->n; i++)
		for (int r = RX; r <= RY; r++) {
			const struct wset *w = &P->s[r];
			size_t l;
			const char *s;

			if (found[w->word[i]])
				continue;
			s = strskey(&words, w->word[i], &l);
			warnx("%s: line %lu: pair %zu dropped: '%s' not in %s",
			    P->path, w->wline[i], i + 1, emb_quote(q, s, l),
			    name);
		}
}

/*
 * Count each set's words found and missing, name the missing ones (as
 * how says), and refuse a set with less than minshare of its words found.
 */
static void
checksets(struct sets *S, const char *name, int how)
{
	char q[EMB_QUOTE_BUF];
	const char *test = how == CK_PAIRS ? "pairs" : "words";

	for (int r = 0; r < NROLE; r++) {
		struct wset *w = &S->s[r];
		size_t miss;
		char m[64];

		if (w->name == NULL)
			continue;
		w->row = xreallocarray(NULL, w->n + 1, sizeof(size_t));
		for (size_t i = 0; i < w->n; i++)
			if (found[w->word[i]])
				w->row[w->nrow++] = w->word[i];
		miss = w->n - w->nrow;
		if (how != CK_STDERR) {
			snprintf(m, sizeof(m), "%c:found", rolename[r]);
			out(test, m, "%zu", w->nrow);
			snprintf(m, sizeof(m), "%c:missing", rolename[r]);
			out(test, m, "%zu", miss);
			snprintf(m, sizeof(m), "%c:missing_word", rolename[r]);
			for (size_t i = 0; i < w->n; i++) {
				size_t l;
				const char *s = strskey(&esc, w->word[i], &l);

				if (!found[w->word[i]])
					out(test, m, "%.*s", (int)l, s);
			}
		}
		/* A set with no word found is refused whatever -m says. */
		if (w->nrow == 0 || (double)w->nrow < minshare *
		    (double)w->n) {
			fflush(stdout);
			fprintf(stderr, "emb-bias: %s: line %lu: set %c '%s': "
			    "%zu of %zu words not in %s (at least %g %% must be "
			    "found, -m%s)", S->path, w->line, rolename[r],
			    emb_quotes(q, w->name), miss, w->n, name, 100 *
			    minshare, lower ? "" : "; -l: words in lower case");
			misslist(w);
			fputc('\n', stderr);
			exit(1);
		}
	}
	if (how == CK_STDERR)
		dropped(S, name);
}

/* ---- numbers ---- */

#define V(e)	(vec + (size_t)(e) * dim)

/* The sets of S as the library's tests take them. */
static struct emb_wsets
wsets(const struct sets *S)
{
	struct emb_wsets w = { .V = vec, .dim = dim, .asis = asis };

	for (int r = 0; r < NROLE; r++) {
		w.row[r] = S->s[r].row;
		w.n[r] = S->s[r].nrow;
	}
	return w;
}

/*
 * Say so when the vectors of a set are one vector (emb_onevector): every
 * figure that compares them is then void or undefined.
 */
static void
onevector(const struct sets *S, const char *name)
{
	struct emb_wsets ws = wsets(S);
	char q[EMB_QUOTE_BUF];

	for (int r = 0; r < NROLE; r++)
		if (S->s[r].name != NULL && emb_onevector(&ws, r))
			warnx("%s: line %lu: set %c '%s': its %zu vectors in "
			    "%s are one vector (up to length): were its words "
			    "dropped upstream? (emb-lookup leaves out the words "
			    "it does not know, silently under -q: all that is "
			    "left of each sentence is then its template)",
			    S->path, S->s[r].line, rolename[r], emb_quotes(q,
			    S->s[r].name), S->s[r].nrow, name);
}

/* Exit when the library has run out of memory. */
static void
nomem(int rc)
{
	if (rc == EMB_ENOMEM)
		errx(1, "out of memory");
}

/*
 * Print metric_lo and metric_hi of the n values v (sorted here): numpy's
 * linear quantiles (emb_interval, EMB_IVL_LINEAR).
 */
static void
interval(const char *test, const char *metric, double *v, size_t n)
{
	char m[128];
	double lo, hi;

	emb_interval(v, n, level, EMB_IVL_LINEAR, &lo, &hi);
	snprintf(m, sizeof(m), "%s_lo", metric);
	out(test, m, "%.17g", lo);
	snprintf(m, sizeof(m), "%s_hi", metric);
	out(test, m, "%.17g", hi);
}

/* ---- WEAT ---- */

/*
 * WEAT's bootstrap over words, from the cosines C of the n = nx + ny
 * target words (rows) with the m = na + nb attribute words.
 */
static void
weatboot(const double *C, size_t nx, size_t ny, size_t na, size_t nb)
{
	double *bd = xreallocarray(NULL, nboot, sizeof(double));
	double *bs = xreallocarray(NULL, nboot, sizeof(double));
	size_t nd;

	nomem(emb_weat_boot(C, nx, ny, na, nb, nboot, sdsample, seed + 1, bd,
	    &nd, bs));
	out("weat", "bootstrap", "%llu", (unsigned long long)nboot);
	out("weat", "bootstrap_undefined", "%llu",
	    (unsigned long long)(nboot - nd));
	out("weat", "level", "%g", level);
	interval("weat", "effect_size", bd, nd);
	interval("weat", "statistic", bs, nboot);
	free(bd);
	free(bs);
}

/*
 * Say why WEAT's effect size is undefined (printed as nan, the other
 * figures as they are): every target word has the same association, so
 * that the standard deviation is 0, and every partition ties (p = 1).
 */
static void
undefined(const struct sets *S, int ab, double s0)
{
	if (ab)
		warnx("%s: WEAT: A and B hold the same words, so that every "
		    "association s(w, A, B) is 0: the effect size is "
		    "undefined (nan), and p is 1 (every partition ties)",
		    S->path);
	else
		warnx("%s: WEAT: every target word has the same association "
		    "s(w, A, B) = %.17g, a standard deviation of 0: the "
		    "effect size is undefined (nan), and p is 1 (every "
		    "partition ties)", S->path, s0);
}

/*
 * WEAT's one-sided p: the share of partitions (X', Y') of the same sizes
 * whose statistic is at least the observed one.
 */
static void
weatp(const struct emb_weat_p *pt)
{
	double p = (double)pt->hit / (double)pt->count;

	out("weat", "p", "%.17g", p);
	if (pt->exact) {
		out("weat", "p_method", "exact");
		out("weat", "partitions", "%llu",
		    (unsigned long long)pt->parts);
		out("weat", "partitions_at_least", "%llu",
		    (unsigned long long)pt->hit);
		return;
	}
	out("weat", "p_method", "sampled");
	out("weat", "permutations", "%llu", (unsigned long long)nperm);
	out("weat", "permutations_at_least", "%llu",
	    (unsigned long long)pt->hit);
	out("weat", "p_mc_se", "%.17g", sqrt(p * (1 - p) / (double)nperm));
	/* Valid whatever the sample (Phipson and Smyth 2010). */
	out("weat", "p_conservative", "%.17g", (double)(pt->hit + 1) /
	    (double)(nperm + 1));
}

static void
weat(struct sets *S)
{
	struct wset *X = &S->s[RX], *Y = &S->s[RY];
	size_t nx = X->nrow, ny = Y->nrow, n = nx + ny, m = S->s[RA].nrow +
	    S->s[RB].nrow;
	struct emb_wsets ws = wsets(S);
	struct emb_weat_p pt;
	double *C, *s, d, stat;
	int ab;

	for (int r = 0; r < NROLE; r++)
		if (S->s[r].name == NULL)
			errx(1, "%s: WEAT needs sets X, Y, A and B; there is "
			    "no %c", S->path, rolename[r]);
	if (n < 3)
		errx(1, "%s: WEAT needs three target words or more", S->path);
	/* Cosines of every target word with every attribute word. */
	C = xreallocarray(NULL, n * m, sizeof(double));
	s = xreallocarray(NULL, n, sizeof(double));
	nomem(ab = emb_weat_assoc(&ws, C, s));
	for (size_t i = 0; i < n; i++)
		out("weat", wmetric("s", i < nx ? RX : RY, i < nx ? X->row[i] :
		    Y->row[i - nx]), "%.17g", s[i]);
	d = emb_weat_effect(s, nx, ny, sdsample, &stat);
	if (!isfinite(d))
		undefined(S, ab, s[0]);
	out("weat", "statistic", "%.17g", stat);
	out("weat", "effect_size", "%.17g", d);
	out("weat", "sd", "%s", sdsample ? "sample" : "population");
	nomem(emb_weat_p(s, nx, ny, exactmax, nperm, seed, &pt));
	weatp(&pt);
	if (verbose)
		fprintf(stderr, "emb-bias: %s: WEAT statistic %.4f, effect "
		    "size %.4f, p %.3g (%s)\n", task, stat, d, (double)pt.hit /
		    (double)pt.count, pt.exact ? "exact" : "sampled");
	if (nboot > 0)
		weatboot(C, nx, ny, S->s[RA].nrow, S->s[RB].nrow);
	free(C);
	free(s);
}

/* ---- RND, ECT, MAC ---- */

/* The attribute words' count (A, then B if present); A is needed. */
static size_t
attrs(const struct sets *S, const char *test)
{
	if (S->s[RA].name == NULL)
		errx(1, "%s: %s needs a set A", S->path, test);
	return S->s[RA].nrow + S->s[RB].nrow;
}

static void
needxy(struct sets *S, const char *test)
{
	if (S->s[RX].name == NULL || S->s[RY].name == NULL)
		errx(1, "%s: %s needs sets X and Y", S->path, test);
}

/*
 * RND: sum over attribute words a of |a^ - mean X^| - |a^ - mean Y^|
 * (-U: of the vectors as they are).
 */
static void
rnd(struct sets *S)
{
	struct emb_wsets ws = wsets(S);
	double sum;
	size_t n;

	needxy(S, "RND");
	n = attrs(S, "RND");
	nomem(emb_rnd(&ws, &sum));
	out("rnd", "rnd", "%.17g", sum);
	out("rnd", "words", "%zu", n);
}

/* ECT: Spearman's rho of cos(mean X^, a) and cos(mean Y^, a) over a. */
static void
ect(struct sets *S)
{
	struct emb_wsets ws = wsets(S);
	double rho;
	size_t n;
	int rc;

	needxy(S, "ECT");
	n = attrs(S, "ECT");
	nomem(rc = emb_ect(&ws, &rho));
	if (rc < 0)
		warnx("%s: ECT: %s: Spearman's rho is undefined (nan)", S->path,
		    rc == EMB_EEMPTY ? "one attribute word" : "the cosines of "
		    "the attribute words with the mean of X, or with that of "
		    "Y, are all equal, a standard deviation of 0");
	out("ect", "ect", "%.17g", rc < 0 ? NAN : rho);
	out("ect", "words", "%zu", n);
}

/*
 * MAC: the mean over target words t (X, then Y if given) and attribute
 * sets S (A, and B if given) of the mean cosine distance 1 - cos(t, a),
 * a in S.
 */
static void
mac(struct sets *S)
{
	struct emb_wsets ws = wsets(S);

	if (S->s[RX].name == NULL || S->s[RA].name == NULL)
		errx(1, "%s: MAC needs sets X and A", S->path);
	out("mac", "mac", "%.17g", emb_mac(&ws));
	out("mac", "targets", "%zu", S->s[RX].nrow + S->s[RY].nrow);
	out("mac", "attribute_sets", "%d", S->s[RB].name ? 2 : 1);
}

/* ---- the direction of pairs, RIPA ---- */

/* The most pairs RIPA's direction and -D take (a k x k Gram matrix). */
#define PAIRMAX	10000

static int
cmppair(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	for (int i = 0; i < 3; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/*
 * Refuse a pair named twice (its difference would weigh twice in the
 * direction and be written twice by -D), naming the first repeat in
 * file order and the pair it repeats.
 */
static void
pairrepeats(const struct sets *P)
{
	const struct wset *x = &P->s[RX], *y = &P->s[RY];
	size_t *t = xreallocarray(NULL, x->n + 1, 3 * sizeof(size_t));
	size_t rep = SIZE_MAX, orig = 0, l;
	char q[EMB_QUOTE_BUF], q2[EMB_QUOTE_BUF];
	const char *s;

	for (size_t i = 0; i < x->n; i++) {
		t[3 * i] = x->word[i];
		t[3 * i + 1] = y->word[i];
		t[3 * i + 2] = i;
	}
	qsort(t, x->n, 3 * sizeof(size_t), cmppair);
	/* Equal pairs are adjacent, the first named first in their run. */
	for (size_t i = 1, first = 0; i < x->n; i++) {
		if (t[3 * i] != t[3 * i - 3] || t[3 * i + 1] != t[3 * i - 2])
			first = i;
		else if (t[3 * i + 2] < rep) {
			rep = t[3 * i + 2];
			orig = t[3 * first + 2];
		}
	}
	free(t);
	if (rep == SIZE_MAX)
		return;
	s = strskey(&words, x->word[rep], &l);
	emb_quote(q, s, l);
	s = strskey(&words, y->word[rep], &l);
	emb_quote(q2, s, l);
	errx(1, "%s: line %lu: pair %zu ('%s', '%s') is pair %zu again%s: "
	    "a pair is named once", P->path, x->wline[rep], rep + 1, q, q2,
	    orig + 1, lower ? " (in lower case, -l)" : "");
}

/*
 * The direction of the pairs (X[i], Y[i]), both found: the first
 * principal component (not centered) of the differences of unit vectors
 * x^ - y^, through the eigenvector of their k x k Gram matrix, signed so
 * that the differences' projections sum to >= 0.  @return pairs used.
 */
static size_t
pairdiffs(struct sets *P, double **dp)
{
	const struct wset *x = &P->s[RX], *y = &P->s[RY];
	size_t k = 0;
	double *D;

	if (x->name == NULL || y->name == NULL)
		errx(1, "%s: pairs need sets X and Y", P->path);
	if (x->n != y->n)
		errx(1, "%s: %zu words in X, %zu in Y: pairs are aligned "
		    "word by word", P->path, x->n, y->n);
	pairrepeats(P);
	for (size_t i = 0; i < x->n; i++)
		k += found[x->word[i]] && found[y->word[i]];
	if (k > PAIRMAX)
		errx(1, "%s: %zu pairs: at most %d", P->path, k, PAIRMAX);
	D = xreallocarray(NULL, k + 1, dim * sizeof(double));
	k = 0;
	for (size_t i = 0; i < x->n; i++)
		if (found[x->word[i]] && found[y->word[i]])
			emb_unitdiff(V(x->word[i]), V(y->word[i]), dim,
			    D + k++ * dim);
	*dp = D;
	return k;
}

static void
direction(struct sets *P, double *u)
{
	double *D;
	size_t k = pairdiffs(P, &D);
	int rc;

	if (k == 0)
		errx(1, "%s: no pair has both words", P->path);
	nomem(rc = emb_pairdir(D, k, dim, u));
	if (rc == EMB_ENOSOL)
		errx(1, "%s: the eigenvectors did not converge", P->path);
	if (rc < 0)
		errx(1, "%s: the pairs' differences are all zero", P->path);
	out("ripa", "pairs", "%zu", k);
	free(D);
}

/* The direction as -d gives it: the first component of a model. */
static void
modeldir(double *u)
{
	struct emb_pca *m = xpcaload(dirpath);

	if (m->dim != dim)
		errx(1, "%s: dimension %u, the vectors have %u", dirpath,
		    m->dim, dim);
	if (m->ncomp < 1)
		errx(1, "%s: a model without components", dirpath);
	memcpy(u, m->comp, dim * sizeof(double));
	emb_pca_free(m);
}

/*
 * RIPA: <w, u> for every word of every set (w as it is, u the unit
 * direction), each set's mean, and its bootstrap interval: nboot means
 * of words drawn with replacement, the sets in order X, Y, A, B.
 */
static void
ripa(struct sets *S, struct sets *P)
{
	double *u = xreallocarray(NULL, dim, sizeof(double)), *bm = NULL;
	struct emb_wsets ws = wsets(S);
	struct emb_rng g;
	char met[64];

	if (dirpath != NULL)
		modeldir(u);
	else
		direction(P, u);
	emb_rng_seed(&g, seed + 2);
	if (nboot > 0)
		bm = xreallocarray(NULL, nboot, sizeof(double));
	for (int r = 0; r < NROLE; r++) {
		const struct wset *w = &S->s[r];
		double *v, m;

		if (w->name == NULL || w->nrow == 0)
			continue;
		v = xreallocarray(NULL, w->nrow, sizeof(double));
		m = emb_ripa(&ws, r, u, v);
		for (size_t i = 0; i < w->nrow; i++)
			out("ripa", wmetric("word", r, w->row[i]), "%.17g",
			    v[i]);
		snprintf(met, sizeof(met), "%c:mean", rolename[r]);
		out("ripa", met, "%.17g", m);
		if (nboot > 0) {
			emb_boot_means(v, w->nrow, nboot, &g, bm);
			interval("ripa", met, bm, nboot);
		}
		free(v);
	}
	free(bm);
	free(u);
}

/* -D: the pairs' differences of unit vectors as a stream, keyed x TAB y. */
static void
differences(struct sets *P, const char *name)
{
	struct emb_writer *w;
	struct emb_buf key = { 0 };
	float *f = xreallocarray(NULL, dim, sizeof(float));
	double *D;
	size_t k = pairdiffs(P, &D), i = 0;
	int rc;

	w = xwriter(dim);
	for (size_t p = 0; p < P->s[RX].n; p++) {
		size_t a = P->s[RX].word[p], b = P->s[RY].word[p], l;
		const char *s;

		if (!found[a] || !found[b])
			continue;
		key.len = 0;
		s = strskey(&esc, a, &l);
		xbufadd(&key, s, l);
		xbufadd(&key, "\t", 1);
		s = strskey(&esc, b, &l);
		xbufadd(&key, s, l);
		for (uint32_t j = 0; j < dim; j++)
			f[j] = (float)D[i * dim + j];
		i++;
		if ((rc = emb_write_vec(w, key.p, key.len, f)) < 0)
			wdie(rc);
	}
	wclose(w);
	if (verbose)
		fprintf(stderr, "emb-bias: %s: %zu pair differences written\n",
		    name, k);
	emb_buf_free(&key);
	free(D);
	free(f);
}

/* ---- main ---- */

static int
parsetests(const char *s)
{
	int t = 0;
	const char *p = s;

	if (strcmp(s, "all") == 0)
		return T_WEAT | T_RND | T_RIPA | T_MAC | T_ECT;
	while (*p) {
		size_t l = strcspn(p, ","), i;

		for (i = 0; i < NTEST; i++)
			if (strlen(testnames[i].name) == l &&
			    strncmp(testnames[i].name, p, l) == 0)
				break;
		if (i == NTEST) {
			char q[EMB_QUOTE_BUF];

			misuse("-t: '%s' is not a test (weat, rnd, ripa, "
			    "mac, ect, all)", emb_quote(q, p, l));
		}
		t |= testnames[i].bit;
		p += l;
		if (*p == ',')
			p++;
	}
	if (t == 0)
		misuse("-t: no test named");
	return t;
}

/* The task's default name: the sets file's, without directory or suffix. */
static char *
taskname(const char *path)
{
	const char *b = strrchr(path, '/');
	char *t = xstrdup(b ? b + 1 : path), *dot = strrchr(t, '.');

	if (dot != NULL && dot != t)
		*dot = '\0';
	return t;
}

/* What main reads from the options beside the globals. */
struct args {
	const char	*setspath, *pairspath;	/* -w, -p */
	int		 tests;			/* -t, T_* */
	int		 dflag;			/* -D */
};

/* The options into a and the globals; @return the operands' index. */
static int
options(struct args *a, int argc, char *argv[])
{
	int ch;

	while ((ch = optget(argc, argv, &prog, NULL)) != -1) {
		switch (ch) {
		case 'b':
			nboot = (uint64_t)parsenum(optarg, 0, 10000000,
			    "-b");
			break;
		case 'c':
			level = parsedbl(optarg, 0, 1, "-c");
			if (level <= 0 || level >= 1)
				misuse("-c: '%s': a level between 0 and 1, "
				    "both excluded", optarg);
			break;
		case 'D':
			a->dflag = 1;
			break;
		case 'd':
			dirpath = optarg;
			break;
		case 'E':
			exactmax = (uint64_t)parsenum(optarg, 0,
			    (long long)1 << 40, "-E");
			break;
		case 'f':
			kfield = (unsigned)parsenum(optarg, 0, EMB_FIELD_MAX,
			    "-f");
			break;
		case 'l':
			lower = 1;
			break;
		case 'm':
			minshare = parsedbl(optarg, 0, 1, "-m");
			break;
		case 'n':
			nperm = (uint64_t)parsenum(optarg, 1,
			    (long long)1 << 40, "-n");
			break;
		case 'p':
			a->pairspath = optarg;
			break;
		case 'q':
			verbose = 0;
			break;
		case 'S':
			if (strcmp(optarg, "sample") == 0)
				sdsample = 1;
			else if (strcmp(optarg, "population") == 0)
				sdsample = 0;
			else
				misuse("-S: '%s': sample or population",
				    optarg);
			break;
		case 's':
			seed = (uint64_t)parsenum(optarg, 0, INT64_MAX, "-s");
			break;
		case 'T':
			task = optarg;
			break;
		case 't':
			a->tests = parsetests(optarg);
			break;
		case 'U':
			asis = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'w':
			a->setspath = optarg;
			break;
		default:
			usage();
		}
	}
	if (argc - optind > 1)
		misuse("one input at most");
	if (a->dflag && (a->pairspath == NULL || a->setspath != NULL))
		misuse("-D takes -p pairs and no -w");
	if (!a->dflag && a->setspath == NULL)
		misuse("-w sets needed");
	if ((a->tests & T_RIPA) && a->pairspath == NULL && dirpath == NULL)
		misuse("-t ripa needs -p pairs or -d model");
	return optind;
}

/* The tests of a on the sets S (and the pairs P, with -p). */
static void
report(const struct args *a, struct sets *S, struct sets *P,
    const char *in)
{
	checksets(S, inname(in), CK_SETS);
	onevector(S, inname(in));
	if (a->pairspath != NULL) {
		checksets(P, inname(in), CK_PAIRS);
		onevector(P, inname(in));
	}
	if (a->tests & T_WEAT)
		weat(S);
	if (a->tests & T_RND)
		rnd(S);
	if (a->tests & T_RIPA)
		ripa(S, P);
	if (a->tests & T_MAC)
		mac(S);
	if (a->tests & T_ECT)
		ect(S);
	fshut(stdout, "stdout");
}

int
main(int argc, char *argv[])
{
	struct args a = { .tests = T_WEAT };
	struct sets S, P;
	const char *in;
	char *tname = NULL;
	int n;

	n = options(&a, argc, argv);
	in = argc - n == 1 ? argv[n] : NULL;
	if (a.dflag)
		notty(STDOUT_FILENO);

	emb_index_init(&wix, strskey, &words);
	emb_index_init(&eix, strskey, &esc);
	if (a.setspath != NULL)
		readsets(&S, a.setspath, 0);
	if (a.pairspath != NULL)
		readsets(&P, a.pairspath, 1);
	if (task == NULL)
		task = tname = taskname(a.setspath ? a.setspath :
		    a.pairspath);
	readvectors(in);
	if (a.dflag) {
		checksets(&P, inname(in), CK_STDERR);
		differences(&P, inname(in));
	} else
		report(&a, &S, &P, in);
	if (a.setspath != NULL)
		freesets(&S);
	if (a.pairspath != NULL)
		freesets(&P);
	emb_index_free(&wix);
	emb_index_free(&eix);
	strsfree(&words);
	strsfree(&esc);
	free(vec);
	free(found);
	free(inrole);
	free(tname);
	emb_buf_free(&mbuf);
	return 0;
}
