/*
 * emb-align - map one embedding space onto another by an orthogonal
 * transformation fitted on a dictionary of word pairs, and apply the map
 * to any stream.
 *
 * Fitting (-F) reads the two spaces (streams or stores) whole, normalizes
 * both by the steps of -n, takes the rows of the dictionary's pairs and
 * solves the orthogonal Procrustes problem (libemb's emb_align_fit, SVD
 * through LAPACK); with -r, the dictionary is then replaced by the mutual
 * nearest neighbours of the mapped source and the target (exact cosine
 * search) and the map fitted again, as MUSE's refinement does.  The model
 * is written whole, and only the model.  Applying (-M) passes a stream
 * through the source's steps and the map (or, with -t, the target's
 * steps alone) in batches; groups, keys and order pass unchanged.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"
#include "compose.h"
#include "dict.h"
#include "knn-cross.h"

#define BATCH		4096		/* vectors mapped at once */
#define REFINEMAX	15000		/* -N default, as MUSE's */
#define FITMEM		((uint64_t)4 << 30)	/* -F's bound without -L */

static const struct opt opts[] = {
	{ 'd', "dict", "dict", "the word pairs to fit on, \"source target\" a "
	    "line", OPT_FILE },
	{ 'F', "fit", "model", "fit the map and write it to model", OPT_FILE },
	OPT_THREADS,
	{ 'L', "large", NULL, "fit even when the fit's matrices take more "
	    "than 4 GiB", NULL },
	{ 'M', "model", "model", "map a stream with the model in the file "
	    "model", OPT_FILE },
	{ 'N', "refine-max", "max", "-r pairs among the first max words of each "
	    "side (default 15000; 0: all)", NULL },
	{ 'n', "normalize", "steps", "unit, center, comma-separated, in order, "
	    "on both sides", OPT_LIST "unit center" },
	{ 'r', "refine", "iters", "rounds of mutual-nearest-neighbour "
	    "refinement", NULL },
	{ 't', "target-only", NULL, "with -M: the target's steps only, no map",
	    NULL },
	{ 'w', "word-field", "field", "the key field that holds the word "
	    "(default 1; 0: the whole key)", NULL },
	OPT_QUIET("no summary on standard error"),
	OPT_VERBOSE("the summary (the default), and each round of -r"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-align",
	    "usage: emb-align -F model -d dict [-Lqv] [-j threads] "
	    "[-N max] [-n steps]\n"
	    "                 [-r iters] [-w field] source target\n"
	    "       emb-align -M model [-qtv] [-j threads] [file]\n", opts };

/* What is live, freed at exit however the program ends (atexit). */
static struct emb_align	*model;
static struct flat	 S, T;		/* -F: the two spaces */
static struct emb_reader *rd;
static struct emb_writer *wr;
static float		*inb, *outb;	/* -M: a batch in and out */
static struct emb_buf	 kb;		/* -M: the batch's keys */
static unsigned		 wfield = 1;	/* -w */
static int		 nthreads;	/* -j (0: every CPU) */

static void
cleanup(void)
{
	emb_align_free(model);
	flatfree(&S);
	flatfree(&T);
	emb_reader_free(rd);
	emb_writer_free(wr);
	free(inb);
	free(outb);
	emb_buf_free(&kb);
}

/* -n: "unit,center,unit" into steps[]; exit 2 on a bad one. */
static int
parsesteps(const char *arg, int *steps)
{
	char *s = xstrdup(arg), *tok, *save;
	int n = 0;

	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (n == EMB_ALIGN_STEPS_MAX)
			errx(2, "-n: at most %d steps", EMB_ALIGN_STEPS_MAX);
		if (strcmp(tok, "unit") == 0)
			steps[n++] = EMB_ALIGN_UNIT;
		else if (strcmp(tok, "center") == 0)
			steps[n++] = EMB_ALIGN_CENTER;
		else if (strcmp(tok, "none") != 0)
			errx(2, "-n: %s: not unit, center or none", tok);
	}
	free(s);
	return n;
}

/* A store's words into R, keyed by the word escaped as a key. */
static void
storeflat(struct flat *R, int fd, const char *name)
{
	struct emb_store *st;
	struct emb_buf key = { 0 };
	int rc;

	if ((rc = emb_store_fdopen(&st, fd)) < 0) {
		if (rc == EMB_EIO)
			err(1, "%s", name);
		errx(1, "%s: %s", name, st != NULL ? emb_store_msg(st) :
		    emb_strerror(rc));
	}
	R->dim = emb_store_dim(st);
	flatreserve(R, emb_store_count(st));
	for (uint64_t i = 0; i < emb_store_count(st); i++) {
		size_t len;
		const char *w = emb_store_word(st, i, &len);

		if (emb_store_check(st, i) < 0)
			errx(1, "%s: %s", name, emb_store_msg(st));
		xbufreserve(&key, 2 * len);
		key.len = emb_key_escape(key.p, w, len);
		memcpy(R->X + R->n * R->dim, emb_store_vector(st, i),
		    R->dim * sizeof(float));
		R->keyoff[R->n] = R->keys.len;
		R->keylen[R->n] = key.len;
		xbufadd(&R->keys, key.p, key.len + 1);
		R->n++;
	}
	emb_store_close(st);
	emb_buf_free(&key);
}

/* A space: a store (told by its magic) or the records of a stream. */
static void
loadspace(struct flat *R, const char *path)
{
	struct flatsrc src;
	struct stat st;
	int fd;

	memset(R, 0, sizeof(*R));
	R->name = inname(path);
	fd = openin(path);
	if (fdstore(fd)) {
		storeflat(R, fd, R->name);
		if (fd != STDIN_FILENO)
			close(fd);
		return;
	}
	src.name = R->name;
	src.fd = fd;
	src.r = xreader(fd, R->name);
	src.est = fstat(fd, &st) == 0 ? recmax(&st, emb_reader_dim(src.r)) :
	    0;
	R->dim = emb_reader_dim(src.r);
	flatread(R, &src, "a group; expected ungrouped word records", NULL,
	    NULL);
	if (R->dim > EMB_ALIGN_DIM_MAX)
		errx(1, "%s: dimension %u: -F fits at most %u", R->name,
		    R->dim, EMB_ALIGN_DIM_MAX);
	if (R->n == 0)
		errx(1, "%s: no vector", R->name);
}

/* The word of row i of a space: field -w of its key. */
static const char *
wordof(const void *ctx, size_t i, size_t *len)
{
	const struct flat *R = ctx;
	const char *w = keyfield(R->keys.p + R->keyoff[i], R->keylen[i],
	    wfield, len);

	/* A key without the field is indexed under no word. */
	if (w == NULL) {
		*len = 0;
		return "";
	}
	return w;
}

static void
indexspace(struct emb_index *x, const struct flat *R)
{
	emb_index_init(x, wordof, R);
	if (emb_index_reserve(x, R->n) < 0)
		errx(1, "%s: out of memory", R->name);
	for (size_t i = 0; i < R->n; i++) {
		size_t len;

		wordof(R, i, &len);
		if (len > 0 && emb_index_add(x, i, NULL) < 0)
			errx(1, "%s: out of memory", R->name);
	}
}

/* The dictionary's pairs as rows of S and T: pairs found, into *pairs. */
static size_t
readdict(const char *path, const struct emb_index *xs,
    const struct emb_index *xt, uint32_t **pairs, size_t *npairs,
    unsigned long *nlines)
{
	struct textin in;
	char *a, *b;
	size_t n = 0, pcap = 0;
	struct emb_buf ka = { 0 }, kbb = { 0 };
	unsigned long lno = 0;

	*pairs = NULL;
	textopen(&in, openside(path), path);
	while (dictpair(&in, &lno, &a, &b)) {
		int64_t i, j;

		xbufreserve(&ka, 2 * strlen(a));
		ka.len = emb_key_escape(ka.p, a, strlen(a));
		xbufreserve(&kbb, 2 * strlen(b));
		kbb.len = emb_key_escape(kbb.p, b, strlen(b));
		i = emb_index_find(xs, ka.p, ka.len);
		j = emb_index_find(xt, kbb.p, kbb.len);
		n++;
		if (i < 0 || j < 0)
			continue;
		xgrow(pairs, &pcap, *npairs + 1, 2 * sizeof(**pairs));
		(*pairs)[2 * *npairs] = (uint32_t)i;
		(*pairs)[2 * *npairs + 1] = (uint32_t)j;
		++*npairs;
	}
	textclose(&in);
	emb_buf_free(&ka);
	emb_buf_free(&kbb);
	*nlines = lno;
	return n;
}

static int
cmpu64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The distinct pairs among the np of pairs, as source row << 32 | target
 * row, sorted, into *keyp, their counts into *cntp (both freed by the
 * caller): @return how many.
 */
static size_t
distinct(const uint32_t *pairs, size_t np, uint64_t **keyp, size_t **cntp)
{
	uint64_t *key = xcalloc(np, sizeof(*key));
	size_t *cnt = xcalloc(np, sizeof(*cnt)), nd = 0;

	for (size_t p = 0; p < np; p++)
		key[p] = (uint64_t)pairs[2 * p] << 32 | pairs[2 * p + 1];
	qsort(key, np, sizeof(*key), cmpu64);
	for (size_t p = 0; p < np; p++)
		if (nd > 0 && key[nd - 1] == key[p])
			cnt[nd - 1]++;
		else {
			key[nd] = key[p];
			cnt[nd++] = 1;
		}
	*keyp = key;
	*cntp = cnt;
	return nd;
}

/*
 * The pairs the fit takes: each distinct pair once, its rows scaled by
 * the square root of its count (the same X^t Z), when there are fewer of
 * them than the smaller dimension and so the fit is thin; else all.
 * @return how many; rows of S and T, counts (or NULL) into key, cnt.
 */
static size_t
fitset(const uint32_t *pairs, size_t np, uint64_t **key, size_t **cnt)
{
	size_t nd = distinct(pairs, np, key, cnt);

	if (nd < np && nd < S.dim && nd < T.dim)
		return nd;
	for (size_t p = 0; p < np; p++)
		(*key)[p] = (uint64_t)pairs[2 * p] << 32 | pairs[2 * p + 1];
	free(*cnt);
	*cnt = NULL;
	return np;
}

/* Fit W on the pairs (rows of S, rows of T), normalized by the steps. */
static void
fitpairs(const uint32_t *pairs, size_t np)
{
	uint64_t *key;
	size_t *cnt, n = fitset(pairs, np, &key, &cnt);
	double *X = xcalloc(n, (size_t)S.dim * sizeof(double));
	double *Z = xcalloc(n, (size_t)T.dim * sizeof(double));
	int rc;

	for (size_t p = 0; p < n; p++) {
		double *x = X + p * S.dim, *z = Z + p * T.dim;

		emb_align_norm(model, 0, model->nsteps,
		    S.X + (size_t)(key[p] >> 32) * S.dim, x);
		emb_align_norm(model, 1, model->nsteps,
		    T.X + (size_t)(uint32_t)key[p] * T.dim, z);
		if (cnt != NULL && cnt[p] > 1) {
			double f = sqrt((double)cnt[p]);

			for (uint32_t i = 0; i < S.dim; i++)
				x[i] *= f;
			for (uint32_t i = 0; i < T.dim; i++)
				z[i] *= f;
		}
	}
	if ((rc = emb_align_fit(model, X, Z, n)) < 0)
		errx(1, "fit: %s", emb_strerror(rc));
	model->count = np;
	free(X);
	free(Z);
	free(key);
	free(cnt);
}

/* Each row of q's nearest reference (or EMB_KNN_NONE). */
static void
nearest(const struct emb_knn *kn, const float *q, size_t nq, uint32_t d,
    uint32_t *nn)
{
	struct emb_hit *h = xcalloc(nq ? nq : 1, sizeof(*h));
	int rc;

	if ((rc = emb_knn_search(kn, q, nq, d, 1, NULL, NULL,
	    (unsigned)nthreads, h, NULL)) < 0)
		errx(1, "refine: %s", emb_strerror(rc));
	for (size_t i = 0; i < nq; i++)
		nn[i] = h[i].ref;
	free(h);
}

/*
 * One round of refinement: the pairs become the mutual nearest
 * neighbours (cosine) of the first ns mapped source words and the first
 * nt target words.  @return the new number of pairs.
 */
static size_t
refine(uint32_t **pairs, size_t ns, size_t nt)
{
	float *ms = xcalloc(ns, (size_t)T.dim * sizeof(float));
	float *nz = xcalloc(nt, (size_t)T.dim * sizeof(float));
	uint32_t *s2t = xcalloc(ns, sizeof(uint32_t));
	uint32_t *t2s = xcalloc(nt, sizeof(uint32_t));
	struct emb_knn *ks, *kt;
	size_t np = 0;
	int rc;

	if ((rc = emb_align_map(model, 0, S.X, ns, ms, nthreads)) < 0 ||
	    (rc = emb_align_map(model, 1, T.X, nt, nz, nthreads)) < 0)
		errx(1, "refine: %s", emb_strerror(rc));
	kt = knnrows(nz, nt, T.dim, NULL, "refine");
	nearest(kt, ms, ns, T.dim, s2t);
	emb_knn_free(kt);
	ks = knnrows(ms, ns, T.dim, NULL, "refine");
	nearest(ks, nz, nt, T.dim, t2s);
	emb_knn_free(ks);
	*pairs = xreallocarray(*pairs, ns ? ns : 1, 2 * sizeof(**pairs));
	for (size_t i = 0; i < ns; i++)
		if (s2t[i] != EMB_KNN_NONE && t2s[s2t[i]] == i) {
			(*pairs)[2 * np] = (uint32_t)i;
			(*pairs)[2 * np + 1] = s2t[i];
			np++;
		}
	free(ms);
	free(nz);
	free(s2t);
	free(t2s);
	return np;
}

/*
 * The fit's matrices for the pairs, or the kmax pairs of a round of -r,
 * within FITMEM (rows of X and Z, then what emb_align_fit takes), or
 * exit 1, unless large.
 */
static void
fitbound(const uint32_t *pairs, size_t np, size_t kmax, int large)
{
	uint64_t *key, need, rows;
	size_t *cnt, k = fitset(pairs, np, &key, &cnt);

	free(key);
	free(cnt);
	k = kmax > k ? kmax : k;
	need = emb_align_fitmem(S.dim, T.dim, k);
	rows = (uint64_t)k * (S.dim + T.dim) * sizeof(double);

	need = need > UINT64_MAX - rows ? UINT64_MAX : need + rows;
	if (need > FITMEM && !large)
		errx(1, "fit: %zu pairs, %u x %u: the fit would take %.1f GiB, "
		    "over 4 GiB (-L lifts the bound)", k, S.dim, T.dim,
		    (double)need / (1 << 30));
}

static void
fit(const char *path, FILE *fp, const char *dict, const int *steps,
    int nsteps, long rounds, size_t rmax, int quiet, int verbose,
    int large, char *const *inputs)
{
	struct emb_index xs, xt;
	uint32_t *pairs = NULL;
	size_t np = 0, nd, ns, nt;
	unsigned long nlines;
	int rc;

	loadspace(&S, inputs[0]);
	loadspace(&T, inputs[1]);
	if ((rc = emb_align_create(&model, S.dim, T.dim, steps, nsteps)) < 0)
		errx(1, "%s: %s", path, emb_strerror(rc));
	if ((rc = emb_align_center(model, 0, S.X, S.n, S.dim)) < 0 ||
	    (rc = emb_align_center(model, 1, T.X, T.n, T.dim)) < 0)
		errx(1, "%s", emb_strerror(rc));
	indexspace(&xs, &S);
	indexspace(&xt, &T);
	nd = readdict(dict, &xs, &xt, &pairs, &np, &nlines);
	emb_index_free(&xs);
	emb_index_free(&xt);
	if (np == 0)
		errx(1, "%s: no pair of the dictionary in both %s and %s",
		    dict, S.name, T.name);
	ns = rmax == 0 || rmax > S.n ? S.n : rmax;
	nt = rmax == 0 || rmax > T.n ? T.n : rmax;
	/* The rounds of -r fit on min(ns, nt) pairs at most. */
	fitbound(pairs, np, rounds > 0 ? (ns < nt ? ns : nt) : 0, large);
	fitpairs(pairs, np);
	if (!quiet)
		fprintf(stderr, "emb-align: %s: %zu of %zu pairs in both "
		    "spaces (%zu out of vocabulary)\n", dict, np, nd,
		    nd - np);
	for (long r = 1; r <= rounds; r++) {
		if ((np = refine(&pairs, ns, nt)) == 0)
			errx(1, "refine: round %ld: no mutual nearest "
			    "neighbours", r);
		fitpairs(pairs, np);
		if (verbose)
			fprintf(stderr, "emb-align: round %ld: %zu mutual "
			    "nearest neighbours\n", r, np);
	}
	free(pairs);
	if ((rc = emb_align_save(model, fileno(fp))) < 0)
		errx(1, "%s: %s", path, rc == EMB_EIO ? strerror(errno) :
		    emb_strerror(rc));
	outcommit(fp, path);
	if (!quiet)
		fprintf(stderr, "emb-align: %s: map %u x %u fitted on %zu "
		    "pairs, written to %s\n", S.name, S.dim, T.dim, np, path);
}

/* Map the batch: n vectors in inb, keys in kb, records in order. */
struct pend {
	int		 group;
	size_t		 koff, klen;
	uint32_t	 nmemb;
	unsigned long long recno;
};

static void
flush(struct pend *p, size_t np, size_t nv, int side, const char *name,
    const char *mpath)
{
	uint32_t dout = model->dout;
	size_t v = 0;
	int rc;

	if ((rc = emb_align_map(model, side, inb, nv, outb, nthreads)) < 0)
		errx(1, "%s: %s", name, emb_strerror(rc));
	for (size_t i = 0; i < np; i++) {
		if (p[i].group)
			rc = emb_write_group(wr, kb.p + p[i].koff, p[i].klen,
			    p[i].nmemb);
		else
			rc = emb_write_vec(wr, kb.p + p[i].koff, p[i].klen,
			    outb + v++ * dout);
		if (rc == EMB_ENONFINITE)
			errx(1, "%s: record %llu: the model %s makes a "
			    "component non-finite", name, p[i].recno, mpath);
		if (rc < 0)
			wdie(rc);
	}
}

static void
apply(const char *mpath, const char *in, int side, int quiet)
{
	const char *name = inname(in);
	uint32_t din, dim;
	struct pend *p;
	struct emb_rec rec;
	size_t np = 0, nv = 0;
	unsigned long long nvec = 0;
	int fd, rc;

	fd = openin(in);
	bigpipe(fd);
	rd = xreader(fd, name);
	din = side ? model->dout : model->din;
	if ((dim = emb_reader_dim(rd)) != din)
		errx(1, "%s: dimension %u, but the model %s maps %u", name,
		    dim, mpath, din);
	wr = xwriter(model->dout);
	inb = xcalloc(BATCH, (size_t)din * sizeof(float));
	outb = xcalloc(BATCH, (size_t)model->dout * sizeof(float));
	p = xcalloc(2 * BATCH, sizeof(*p));
	while ((rc = emb_reader_next(rd, &rec)) > 0) {
		p[np].group = rec.type == EMB_REC_GROUP;
		p[np].koff = kb.len;
		p[np].klen = rec.keylen;
		p[np].nmemb = rec.nmemb;
		p[np].recno = (unsigned long long)rec.recno;
		xbufadd(&kb, rec.key, rec.keylen);
		np++;
		if (!p[np - 1].group) {
			memcpy(inb + nv * din, rec.vec, din * sizeof(float));
			nv++;
			nvec++;
		}
		if (nv == BATCH || np == 2 * BATCH ||
		    kb.len >= ((size_t)16 << 20)) {
			flush(p, np, nv, side, name, mpath);
			np = nv = kb.len = 0;
		}
	}
	if (rc < 0)
		rdie(rd, name, rc);
	flush(p, np, nv, side, name, mpath);
	free(p);
	wclose(wr);
	wr = NULL;
	if (!quiet)
		fprintf(stderr, "emb-align: %s: %llu vectors %s\n", name, nvec,
		    side ? "normalized as the target" : "mapped");
	if (fd != STDIN_FILENO)
		close(fd);
}

/* The options. */
struct alignopt {
	const char	*fitfile;	/* -F */
	const char	*modelfile;	/* -M */
	const char	*dict;		/* -d */
	int		 steps[EMB_ALIGN_STEPS_MAX];	/* -n */
	int		 nsteps;
	int		 nflag;		/* -n given */
	int		 quiet;		/* -q */
	int		 verbose;	/* -v */
	int		 tflag;		/* -t */
	int		 large;		/* -L */
	long		 rounds;	/* -r */
	size_t		 rmax;		/* -N */
};

/* The options into o (and wfield, nthreads): @return the operands' index. */
static int
options(struct alignopt *o, int argc, char *argv[])
{
	int c;

	while ((c = optget(argc, argv, &prog, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->dict = optarg;
			break;
		case 'F':
			o->fitfile = optarg;
			break;
		case 'j':
			nthreads = (int)parsenum(optarg, 1, EMB_MAXTHREADS,
			    "-j");
			break;
		case 'L':
			o->large = 1;
			break;
		case 'M':
			o->modelfile = optarg;
			break;
		case 'N':
			o->rmax = (size_t)parsenum(optarg, 0, UINT32_MAX - 1,
			    "-N");
			break;
		case 'n':
			o->nsteps = parsesteps(optarg, o->steps);
			o->nflag = 1;
			break;
		case 'q':
			o->quiet = 1;
			o->verbose = 0;
			break;
		case 'r':
			o->rounds = (long)parsenum(optarg, 0, 1000, "-r");
			break;
		case 't':
			o->tflag = 1;
			break;
		case 'v':
			o->quiet = 0;
			o->verbose = 1;
			break;
		case 'w':
			wfield = (unsigned)parsenum(optarg, 0, EMB_FIELD_MAX,
			    "-w");
			break;
		default:
			usage();
		}
	}
	return optind;
}

/* -F: the operands checked, the model fitted on them and written. */
static void
fitmain(const struct alignopt *o, int argc, char *argv[])
{
	const char *d[1] = { o->dict };
	FILE *fp;

	if (o->modelfile != NULL || o->tflag)
		misuse("-F fits a map: no -M or -t with it");
	if (o->dict == NULL)
		misuse("-F needs -d dict, the word pairs to fit on");
	if (argc != 2)
		misuse("-F needs two streams or stores: source and target");
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		misuse("the source and the target cannot both be standard "
		    "input");
	fp = outopen(o->fitfile, (const char *const *)argv, 2, 0666);
	notinput(o->fitfile, d, 1);
	fit(o->fitfile, fp, o->dict, o->steps, o->nsteps, o->rounds, o->rmax,
	    o->quiet, o->verbose, o->large, argv);
}

/* The model of the file path into model. */
static void
loadmodel(const char *path)
{
	unsigned long lno;
	int fd, rc;

	fd = openside(path);
	if ((rc = emb_align_load(&model, fd, &lno)) < 0) {
		if (rc == EMB_EFORMAT)
			errx(1, "%s: line %lu: not an emb-align model line",
			    path, lno);
		if (rc == EMB_ERANGE)
			errx(1, "%s: line %lu: the map is not orthogonal: not "
			    "an emb-align model", path, lno);
		if (rc == EMB_ETRUNC)
			errx(1, "%s: no crc32 line at the end: not a whole "
			    "emb-align model", path);
		if (rc == EMB_EIO)
			err(1, "%s", path);
		errx(1, "%s: %s", path, emb_strerror(rc));
	}
	close(fd);
}

int
main(int argc, char *argv[])
{
	struct alignopt o = { .rmax = REFINEMAX };
	int ind;

	knnenv();
	ind = options(&o, argc, argv);
	argc -= ind;
	argv += ind;
	if (nthreads == 0)
		nthreads = emb_ncpu();
	atexit(cleanup);
	if (o.fitfile != NULL) {
		fitmain(&o, argc, argv);
		return 0;
	}
	if (o.modelfile == NULL)
		misuse("-F model (fit) or -M model (map): one of them");
	if (o.dict != NULL || o.nflag || o.rounds)
		misuse("-d, -n and -r go with -F only");
	if (o.large)
		misuse("-L goes with -F only");
	if (argc > 1)
		misuse("one input file at most");
	loadmodel(o.modelfile);
	apply(o.modelfile, argv[0], o.tflag, o.quiet);
	return 0;
}
