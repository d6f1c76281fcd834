/*
 * emb-eval - evaluate precomputed vectors as the paper does: classifiers
 * (kNN, nearest centroid, LDA, ridge, logistic regression, SentEval's MLP)
 * on labelled streams, STS correlations of sentence pairs, and word
 * similarity against a word-keyed stream.
 *
 * Every figure is one line "task<TAB>classifier<TAB>metric<TAB>value" on
 * stdout, for sort and awk; -v adds a human summary on stderr.  The
 * protocol (class order, folds, the MLP's regularization search) is
 * written out in emb-eval(1) precisely enough to redo a figure by hand.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"
#include "eval.h"


/* A classifier as named on the command line. */
static const struct {
	const char	*name;
	enum emb_clf_kind kind;
} clfnames[] = {
	{ "knn",	EMB_CLF_KNN },
	{ "centroid",	EMB_CLF_CENTROID },
	{ "lda",	EMB_CLF_LDA },
	{ "ridge",	EMB_CLF_RIDGE },
	{ "logreg",	EMB_CLF_LOGREG },
	{ "mlp",	EMB_CLF_MLP },
};
#define NCLF	(sizeof(clfnames) / sizeof(clfnames[0]))

/* SentEval's search grid for the MLP's weight decay. */
static const double l2grid[] = { 1e-5, 1e-4, 1e-3, 1e-2 };
#define NL2	(sizeof(l2grid) / sizeof(l2grid[0]))

static struct emb_clf_opts base;	/* numeric options for every kind */
const char	*task;			/* -T */
int		 verbose;		/* -v */
static int	 l2fixed;		/* --l2 given */
static int	 innerk;		/* --inner-folds, 0: same as -k */
static double	 devshare;		/* --dev-share */
static FILE	*predfp;		/* --predictions */
static const char *predpath;
static int	 nseeds = 1;		/* --seeds */
int		 protocol;		/* --protocol */
const char	*protonote;		/* --protocol-note */
const char	*versus;		/* --versus */
const char	*versus2;		/* --versus-second */
const char	*vnames[2];		/* --names */
const char	*taskv[3];		/* task/first, task/second, task */
long		 nres = 2000;		/* --resamples */
double		 level = 0.95;		/* --level */
uint64_t	 resseed;		/* the resampling seed: --seed */
int		 pairthreads = 1;	/* -j, for the correlation bootstrap */

/*
 * The long-only options: the numeric ones share OPT_NUM (setnum finds
 * each by its name), the others have a code each.
 */
enum { OPT_NUM = 256, OPT_SHRINK, OPT_PRED, OPT_CSLS, OPT_VERSUS, OPT_VERSUS2,
    OPT_NAMES, OPT_PROTO, OPT_PNOTE };

static const struct opt opts[] = {
	{ 'c', "classifiers", "list", "comma-separated: knn, centroid, lda, "
	    "ridge, logreg, mlp or all", NULL },
	{ 'f', "word-field", "field", "with -w: the word's key field "
	    "(default 1)", NULL },
	{ 'g', "gold", "gold", "with -p: the STS gold scores", OPT_FILE },
	{ 'I', "case-sensitive", NULL, "with -w: compare words as they are",
	    NULL },
	{ 'i', "id-field", "field", "with -p: check the pairs' alignment on "
	    "this key field", NULL },
	OPT_THREADS,
	{ 'k', "folds", "folds", "cross-validation folds (default 5)", NULL },
	{ 'L', "lexicon", "dict", "bilingual lexicon induction: the test "
	    "dictionary, source TAB target", OPT_FILE },
	{ 'l', "label-field", "field", "the label's key field (default 1)",
	    NULL },
	{ 'n', "limit", "count", "with -w: the first count words only "
	    "(default 300000)", NULL },
	{ 'p', "second", "second", "STS: the stream of second sentences",
	    OPT_FILE },
	{ 'R', "target", "target", "with -L: the target space's stream",
	    OPT_FILE },
	{ 's', "split-field", "field", "one stream, its split (train, dev, "
	    "test) in this key field", NULL },
	{ 'T', "task", "task", "the task name printed first on every line",
	    NULL },
	{ 't', "test", "test", "the test stream", OPT_FILE },
	{ 'u', "subset-field", "field", "with -p: the STS subset's key field",
	    NULL },
	{ 'w', "pairs", "pairs", "word similarity: the scored word pairs",
	    OPT_FILE },
	OPT_QUIET("only errors and warnings on standard error (default)"),
	OPT_VERBOSE("a summary, and the progress even off a terminal"),
	{ OPT_NUM, "neighbours", "k", "knn: neighbours (default 5)", NULL },
	{ OPT_NUM, "alpha", "a", "ridge: the penalty", NULL },
	{ OPT_SHRINK, "shrinkage", "s", "lda: a shrinkage in [0, 1], auto or "
	    "none", "auto none" },
	{ OPT_NUM, "C", "c", "logreg: the inverse penalty", NULL },
	{ OPT_NUM, "max-iter", "n", "logreg: iterations at most", NULL },
	{ OPT_NUM, "tol", "t", "logreg: the tolerance", NULL },
	{ OPT_NUM, "nhid", "h", "mlp: hidden units (0: none)", NULL },
	{ OPT_NUM, "l2", "w", "mlp: the weight decay (else searched)", NULL },
	{ OPT_NUM, "dropout", "p", "mlp: the dropout", NULL },
	{ OPT_NUM, "batch", "b", "mlp: rows per batch", NULL },
	{ OPT_NUM, "tenacity", "t", "mlp: epochs without progress before it "
	    "stops", NULL },
	{ OPT_NUM, "epoch-size", "e", "mlp: passes per epoch", NULL },
	{ OPT_NUM, "max-epoch", "n", "mlp: epochs at most", NULL },
	{ OPT_NUM, "inner-folds", "k", "mlp: folds of the weight decay search",
	    NULL },
	{ OPT_NUM, "dev-share", "p", "mlp: the share of a training set kept "
	    "for its search", NULL },
	{ OPT_NUM, "seed", "n", "the seed of the folds and the MLP "
	    "(default 1111)", NULL },
	{ OPT_PRED, "predictions", "file", "write every prediction to file",
	    OPT_FILE },
	{ OPT_CSLS, "csls-k", "n", "with -L: CSLS's neighbours (default 10)",
	    NULL },
	{ OPT_VERSUS, "versus", "other", "compare a second representation of "
	    "the same items", OPT_FILE },
	{ OPT_VERSUS2, "versus-second", "file", "with --versus: the second's "
	    "stream for -t or -p", OPT_FILE },
	{ OPT_NAMES, "names", "first,second", "with --versus: the two names "
	    "(default a,b)", NULL },
	{ OPT_NUM, "resamples", "n", "bootstrap samples and permutations "
	    "(default 2000)", NULL },
	{ OPT_NUM, "level", "p", "the intervals' level (default 0.95)", NULL },
	{ OPT_NUM, "seeds", "n", "mlp: run over n seeds from --seed", NULL },
	{ OPT_PROTO, "protocol", NULL, "a protocol line beside the figures",
	    NULL },
	{ OPT_PNOTE, "protocol-note", "note", "append note to the protocol "
	    "line", NULL },
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-eval",
	    "usage: emb-eval [-v] [-c list] [-j threads] [-k folds] "
	    "[-l field] [-s field]\n"
	    "                [-T task] [-t test] [--name=value ...] [train]\n"
	    "       emb-eval -p second -g gold [-v] [-i field] [-T task] "
	    "[-u field] [first]\n"
	    "       emb-eval -w pairs [-Iv] [-f field] [-n count] [-T task] "
	    "[words]\n"
	    "       emb-eval -L dict -R target [-v] [-f field] [-j threads] "
	    "[-T task]\n"
	    "                [--csls-k n] [mapped]\n", opts };

/* CPU seconds of the process: a loaded machine stretches wall time. */
static double
cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define MAXFOLDS 1000	/* -k, --inner-folds at most */

static void *
readmain(void *arg)
{
	void **a = arg;

	flatread(a[0], a[1], GROUPED, NULL, NULL);
	return NULL;
}

/*
 * The training stream into D and the test stream (testpath; none if NULL)
 * after it, as one matrix; D->n counts the training rows, T is a view of
 * the test rows.  The arrays are sized for both files at once.  With
 * threads to spare and both inputs regular files, the two are read at
 * once: the test rows into place after the training rows' bound (a file's
 * size bounds its records), then moved down.  Otherwise the test stream
 * is opened once the training one is closed, so that its reader reuses
 * the memory of the first.
 */
static void
readboth(struct flat *D, struct flat *T, const char *trainpath,
    const char *testpath, int threads)
{
	struct flatsrc S, St;
	struct flat V;
	size_t ntr;
	struct stat st;
	pthread_t tid;
	void *arg[2];
	int par;

	flatopen(&S, trainpath);
	memset(D, 0, sizeof(*D));
	memset(T, 0, sizeof(*T));
	D->name = S.name;
	D->dim = emb_reader_dim(S.r);
	if (testpath == NULL) {
		flatread(D, &S, GROUPED, NULL, NULL);
		return;
	}
	if (strcmp(testpath, "-") != 0 && stat(testpath, &st) == 0 &&
	    S_ISREG(st.st_mode))
		flatreserve(D, S.est + recmax(&st, D->dim));
	par = threads > 1 && S.est > 0 && D->cap > S.est;
	if (par) {
		flatopen(&St, testpath);
		if (emb_reader_dim(St.r) != D->dim)
			errx(1, "%s: dimension %u, %s has %u", St.name,
			    emb_reader_dim(St.r), D->name, D->dim);
		memset(&V, 0, sizeof(V));
		V.name = St.name;
		V.dim = D->dim;
		V.X = D->X + S.est * D->dim;
		V.keyoff = D->keyoff + S.est;
		V.keylen = D->keylen + S.est;
		V.cap = D->cap - S.est;
		V.fixed = D->fixed = 1;
		D->cap = S.est;
		arg[0] = &V;
		arg[1] = &St;
		if (pthread_create(&tid, NULL, readmain, arg) != 0)
			readmain(arg);
		flatread(D, &S, GROUPED, NULL, NULL);
		pthread_join(tid, NULL);
		/* Close the gap; the test keys follow the training ones. */
		ntr = D->n;
		memmove(D->X + ntr * D->dim, V.X, V.n * D->dim * sizeof(float));
		memmove(D->keylen + ntr, V.keylen, V.n * sizeof(size_t));
		memmove(D->keyoff + ntr, V.keyoff, V.n * sizeof(size_t));
		for (size_t i = 0; i < V.n; i++)
			D->keyoff[ntr + i] += D->keys.len;
		xbufadd(&D->keys, V.keys.p, V.keys.len);
		D->n += V.n;
		D->cap = S.est + V.cap;
		D->fixed = 0;
		emb_buf_free(&V.keys);
	} else {
		flatread(D, &S, GROUPED, NULL, NULL);
		ntr = D->n;
		flatopen(&St, testpath);
		if (emb_reader_dim(St.r) != D->dim)
			errx(1, "%s: dimension %u, %s has %u", St.name,
			    emb_reader_dim(St.r), D->name, D->dim);
		flatread(D, &St, GROUPED, NULL, NULL);
	}
	*T = *D;
	T->name = St.name;
	T->X = D->X + ntr * D->dim;
	T->keyoff = D->keyoff + ntr;
	T->keylen = D->keylen + ntr;
	T->n = D->n - ntr;
	D->n = ntr;
}

char *
field(const struct flat *D, size_t i, unsigned f)
{
	const char *k;
	size_t len;
	char *s;

	if ((k = keyfield(KEY(D, i), D->keylen[i], f, &len)) == NULL)
		errx(1, "%s: record %zu: key has no field %u", D->name, i + 1,
		    f);
	s = xmalloc(len + 1);
	memcpy(s, k, len);
	s[len] = '\0';
	return s;
}

static int
strpcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Labels to classes.  The training labels, sorted bytewise and made
 * unique, are classes 0..ntrain-1 (scikit-learn's classes_); labels seen
 * only in the test rows follow, sorted, so they appear in the confusion
 * matrix although no classifier can predict them.
 */
struct labels {
	char		**name;		/* class names */
	int		 n;		/* classes in all */
	int		 ntrain;	/* classes seen in training */
};

static int
uniq(char **v, size_t n)
{
	size_t m = 0;

	qsort(v, n, sizeof(*v), strpcmp);
	for (size_t i = 0; i < n; i++)
		if (m == 0 || strcmp(v[m - 1], v[i]) != 0)
			v[m++] = v[i];
	return (int)m;
}

static int
classof(const struct labels *L, const char *s)
{
	char *const *p;

	p = bsearch(&s, L->name, (size_t)L->ntrain, sizeof(char *), strpcmp);
	if (p != NULL)
		return (int)(p - L->name);
	p = bsearch(&s, L->name + L->ntrain, (size_t)(L->n - L->ntrain),
	    sizeof(char *), strpcmp);
	return p ? (int)(p - L->name) : -1;
}

/* lab[i], train[i] (nonzero for training rows): build the classes. */
static void
mklabels(struct labels *L, char **lab, size_t n, const char *intrain)
{
	char **v = xreallocarray(NULL, n ? n : 1, sizeof(char *));
	size_t m = 0, t;

	for (size_t i = 0; i < n; i++)
		if (intrain[i])
			v[m++] = lab[i];
	L->ntrain = uniq(v, m);
	t = 0;
	L->name = xreallocarray(NULL, n ? n : 1, sizeof(char *));
	memcpy(L->name, v, L->ntrain * sizeof(char *));
	L->n = L->ntrain;
	for (size_t i = 0; i < n; i++)
		if (!intrain[i]) {
			const char *s = lab[i];

			if (bsearch(&s, v, (size_t)L->ntrain, sizeof(char *),
			    strpcmp) == NULL)
				v[L->ntrain + t++] = lab[i];
		}
	L->n = L->ntrain + uniq(v + L->ntrain, t);
	memcpy(L->name + L->ntrain, v + L->ntrain,
	    (L->n - L->ntrain) * sizeof(char *));
	free(v);
}

void
out(const char *clf, const char *metric, const char *fmt, ...)
{
	va_list ap;

	progdone();
	printf("%s\t%s\t%s\t", task, clf, metric);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Rows idx[0..m-1] of D into a new matrix. */
static float *
rows(const struct flat *D, const size_t *idx, size_t m)
{
	float *X = xreallocarray(NULL, m ? m : 1, (size_t)D->dim *
	    sizeof(float));

	for (size_t i = 0; i < m; i++)
		memcpy(X + i * D->dim, D->X + idx[i] * D->dim,
		    D->dim * sizeof(float));
	return X;
}

/* Rows idx (increasing) of D: a view when they are contiguous, else a
 * copy (*copied set; free it). */
static float *
rowsview(const struct flat *D, const size_t *idx, size_t m, int *copied)
{
	if (m > 0 && idx[m - 1] - idx[0] == m - 1) {
		*copied = 0;
		return D->X + idx[0] * D->dim;
	}
	*copied = 1;
	return rows(D, idx, m);
}

/* Where a fit happens, for its messages: the input, and the fold. */
static _Thread_local char where[256];	/* each thread's, for messages */

static void
fitdie(const char *clf, int rc)
{
	errx(1, "%s: %s: %s", where, clf, emb_strerror(rc));
}

/* Fit o on (X, y), optionally with an early-stopping dev set; predict. */
static void
fitpredict(const struct emb_clf_opts *o, const char *clf, const float *X,
    size_t n, size_t d, const int *y, int ncls, const float *dev,
    size_t ndev, const int *ydev, const float *T, size_t nt, int *pred,
    int *iters)
{
	struct emb_clf *c;
	int rc;

	if ((rc = emb_clf_fit(&c, o, X, n, d, y, ncls, dev, ndev, ydev)) < 0)
		fitdie(clf, rc);
	if ((rc = emb_clf_predict(c, T, nt, pred)) < 0)
		fitdie(clf, rc);
	if (iters)
		*iters = emb_clf_iters(c);
	emb_clf_free(c);
}

static double
accof(const int *pred, const int *y, size_t n)
{
	size_t ok = 0;

	for (size_t i = 0; i < n; i++)
		ok += pred[i] == y[i];
	return n ? (double)ok / (double)n : 0;
}

/*
 * The MLP's weight-decay search: one job per grid value (with a dev set)
 * or per grid value and inner fold (without), each an independent fit on
 * one thread, taken in turn by -j workers; each job writes only its own
 * slot, and the slots are combined in grid and fold order, so that every
 * thread count gives the same bits.
 */
struct l2search {
	struct emb_clf_opts o;		/* the options, l2 set per job */
	const float	*X, *dev, *T;	/* training, dev, test rows */
	size_t		 n, d, ndev, nt;
	const int	*y, *ydev, *fold;
	int		 ncls, kfold, njob;
	double		 acc[NL2 * MAXFOLDS];	/* per job */
	int		*tpred[NL2];	/* with dev: each model's test classes */
	int		 titers[NL2];	/* and its passes */
	char		 where[256];	/* the caller's, for the workers' */
	int		 ndone;		/* jobs done, for the progress */
	pthread_mutex_t	 lock;		/* over ndone and its line */
};

/* Job j of s: fit, score on its early-stopping rows. */
static void
l2job(struct l2search *s, int j)
{
	struct emb_clf_opts o = s->o;
	int g = s->dev ? j : j / s->kfold, f = s->dev ? 0 : j % s->kfold;
	int *pred;

	o.l2 = l2grid[g];
	o.threads = 1;
	if (s->dev) {
		struct emb_clf *c;
		int rc;

		/* Dev accuracy, and the test classes: refitting the chosen
		 * value would give the same model. */
		pred = xreallocarray(NULL, s->ndev + 1, sizeof(int));
		s->tpred[g] = xreallocarray(NULL, s->nt + 1, sizeof(int));
		if ((rc = emb_clf_fit(&c, &o, s->X, s->n, s->d, s->y, s->ncls,
		    s->dev, s->ndev, s->ydev)) < 0 ||
		    (rc = emb_clf_predict(c, s->dev, s->ndev, pred)) < 0 ||
		    (rc = emb_clf_predict(c, s->T, s->nt, s->tpred[g])) < 0)
			fitdie("mlp", rc);
		s->titers[g] = emb_clf_iters(c);
		emb_clf_free(c);
		s->acc[j] = accof(pred, s->ydev, s->ndev);
		free(pred);
	} else {
		struct flat tmp = { .X = (float *)s->X, .dim = (uint32_t)s->d };
		size_t ntr = 0, nte = 0, *tr, *te;
		float *Xtr, *Xte;
		int *ytr, *yte;

		tr = xreallocarray(NULL, s->n + 1, sizeof(size_t));
		te = xreallocarray(NULL, s->n + 1, sizeof(size_t));
		for (size_t i = 0; i < s->n; i++)
			if (s->fold[i] == f)
				te[nte++] = i;
			else
				tr[ntr++] = i;
		if (ntr == 0)
			errx(1, "%s: mlp: inner fold %d of %d has no "
			    "training rows", where, f + 1, s->kfold);
		Xtr = rows(&tmp, tr, ntr);
		Xte = rows(&tmp, te, nte);
		ytr = xreallocarray(NULL, ntr + 1, sizeof(int));
		yte = xreallocarray(NULL, nte + 1, sizeof(int));
		pred = xreallocarray(NULL, nte + 1, sizeof(int));
		for (size_t i = 0; i < ntr; i++)
			ytr[i] = s->y[tr[i]];
		for (size_t i = 0; i < nte; i++)
			yte[i] = s->y[te[i]];
		fitpredict(&o, "mlp", Xtr, ntr, s->d, ytr, s->ncls, Xte,
		    nte, yte, Xte, nte, pred, NULL);
		s->acc[j] = accof(pred, yte, nte);
		free(Xtr);
		free(Xte);
		free(ytr);
		free(yte);
		free(pred);
		free(tr);
		free(te);
	}
}

/* Job j, a lane of emb_par_run. */
static void
l2lane(void *arg, int worker, size_t j, size_t r0, size_t r1)
{
	struct l2search *s = arg;

	(void)worker;
	(void)r0;
	(void)r1;
	memcpy(where, s->where, sizeof(where));
	l2job(s, (int)j);
	/* The count, not the job: the same lines in any order. */
	pthread_mutex_lock(&s->lock);
	progress("%s: mlp: %s: weight decay search, fit %d of %d done",
	    task, where, ++s->ndone, s->njob);
	pthread_mutex_unlock(&s->lock);
}

/*
 * The MLP's weight decay, as SentEval chooses it: with a dev set, the grid
 * value whose model (early-stopped on dev) scores best on dev; without,
 * the value with the best mean accuracy over inner stratified folds of the
 * training rows (each model early-stopped on its inner test fold).
 * Accuracies are rounded to 0.01 % before comparing, ties going to the
 * smaller value.  With a dev set, the chosen model's classes of the nt
 * test rows T go to tpred and its passes to *iters, and 1 is returned in
 * *done: refitting it would give the same model.
 */
static double
choosel2(struct emb_clf_opts *o, const float *X, size_t n, size_t d,
    const int *y, int ncls, const float *dev, size_t ndev, const int *ydev,
    int kfold, const float *T, size_t nt, int *tpred, int *iters, int *done)
{
	struct l2search *s;
	double best = -1, bestl2 = l2grid[0];
	int *fold = NULL, gbest = 0;

	*done = 0;
	if (l2fixed)
		return o->l2;
	if (dev == NULL && emb_folds(y, n, ncls, kfold, o->seed,
	    fold = xreallocarray(NULL, n + 1, sizeof(int))) < 0)
		errx(1, "%s: mlp: cannot make %d inner folds", where, kfold);
	/* Told here, once, and not by each worker that meets it. */
	for (int f = 0; fold != NULL && f < kfold; f++) {
		size_t ntr = 0;

		for (size_t i = 0; i < n; i++)
			ntr += fold[i] != f;
		if (ntr == 0)
			errx(1, "%s: mlp: inner fold %d of %d has no training "
			    "rows", where, f + 1, kfold);
	}
	s = xcalloc(1, sizeof(*s));
	s->o = *o;
	s->X = X, s->n = n, s->d = d, s->y = y, s->ncls = ncls;
	s->dev = dev, s->ndev = ndev, s->ydev = ydev;
	s->T = T, s->nt = nt, s->fold = fold, s->kfold = kfold;
	s->njob = dev ? (int)NL2 : (int)NL2 * kfold;
	memcpy(s->where, where, sizeof(where));
	pthread_mutex_init(&s->lock, NULL);
	emb_par_run(o->threads, (size_t)s->njob, (size_t)s->njob, l2lane, s);
	pthread_mutex_destroy(&s->lock);
	progdone();
	for (size_t g = 0; g < NL2; g++) {
		double score = 0;

		if (dev != NULL)
			score = s->acc[g];
		else {
			for (int f = 0; f < kfold; f++)
				score += s->acc[g * kfold + f];
			score /= kfold;
		}
		score = round(10000 * score) / 10000;
		if (verbose)
			fprintf(stderr, "emb-eval: %s: mlp: l2 %g: dev "
			    "accuracy %.4f\n", task, l2grid[g], score);
		if (score > best) {
			best = score;
			bestl2 = l2grid[g];
			gbest = (int)g;
		}
	}
	if (dev != NULL) {
		memcpy(tpred, s->tpred[gbest], nt * sizeof(int));
		*iters = s->titers[gbest];
		*done = 1;
	}
	for (size_t g = 0; g < NL2; g++)
		free(s->tpred[g]);
	free(s);
	free(fold);
	return bestl2;
}

/*
 * --dev-share: the MLP's dev rows, when the split has none, drawn from
 * the ntr training rows tr (increasing): a Fisher-Yates shuffle of their
 * positions (for i from ntr - 1 down to 1, swap i and a draw below i + 1,
 * emb_rng_below on a generator seeded with seed), the first floor(share
 * ntr) of it held out.  Both lists stay in increasing order.
 */
static void
carvedev(size_t *tr, size_t *ntr, size_t *dv, size_t *ndv, double share,
    uint64_t seed)
{
	struct emb_rng g;
	size_t n = *ntr, m = (size_t)(share * (double)n), *pos, k = 0;
	char *out;

	if (m == 0 || m >= n)
		return;
	pos = xreallocarray(NULL, n, sizeof(size_t));
	out = xcalloc(n, 1);
	for (size_t i = 0; i < n; i++)
		pos[i] = i;
	emb_rng_seed(&g, seed);
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)emb_rng_below(&g, i + 1), t = pos[i];

		pos[i] = pos[j];
		pos[j] = t;
	}
	for (size_t i = 0; i < m; i++)
		out[pos[i]] = 1;
	*ndv = 0;
	for (size_t i = 0; i < n; i++)
		if (out[i])
			dv[(*ndv)++] = tr[i];
		else
			tr[k++] = tr[i];
	*ntr = k;
	free(pos);
	free(out);
}

/* Print the figures of one classifier. */
static void
report(const char *clf, const struct labels *L, const uint64_t *conf,
    double acc, double f1, size_t ntr, size_t nte, double l2, int iters,
    double secs, double cpusecs)
{
	int K = L->n;

	out(clf, "accuracy", "%.6f", acc);
	out(clf, "macro_f1", "%.6f", f1);
	out(clf, "n_train", "%zu", ntr);
	out(clf, "n_test", "%zu", nte);
	if (l2 >= 0)
		out(clf, "l2", "%g", l2);
	for (int i = 0; i < K; i++)
		out(clf, "class", "%d:%s", i, L->name[i]);
	for (int i = 0; i < K; i++)
		for (int j = 0; j < K; j++)
			if (conf[(size_t)i * K + j])
				out(clf, "confusion", "%d:%d:%llu", i, j,
				    (unsigned long long)conf[(size_t)i * K +
				    j]);
	if (!verbose)
		return;
	fprintf(stderr, "%s: %s: accuracy %.4f, macro-F1 %.4f (%zu train, "
	    "%zu test", task, clf, acc, f1, ntr, nte);
	if (l2 >= 0)
		fprintf(stderr, ", l2 %g", l2);
	if (iters > 0)
		fprintf(stderr, ", %d iterations", iters);
	fprintf(stderr, ", %.4f s, %.4f s CPU)\n", secs, cpusecs);
	if (K <= 12) {
		fprintf(stderr, "  true \\ predicted");
		for (int j = 0; j < K; j++)
			fprintf(stderr, "\t%s", L->name[j]);
		fputc('\n', stderr);
		for (int i = 0; i < K; i++) {
			fprintf(stderr, "  %s", L->name[i]);
			for (int j = 0; j < K; j++)
				fprintf(stderr, "\t%llu", (unsigned long long)
				    conf[(size_t)i * K + j]);
			fputc('\n', stderr);
		}
	}
}

/*
 * Classification.  Rows are training, dev or test by the split field (-s),
 * by the stream they come from (-t), or by fold (neither).
 */
enum { TRAIN, DEV, TEST };

/* What is shared by every run of a classification: rows and classes. */
struct cdata {
	struct flat	 D;		/* all rows (T is a view into D) */
	struct flat	 T;
	size_t		 n;		/* rows */
	const struct labels *L;
	const int	*y, *part, *fold;	/* class, part, fold of a row */
	int		 kfold;
	const char	*split;		/* how, for the protocol line */
	int		 hasdev;	/* dev rows in the split */
};

/* One classifier's run: its figures summed over the folds. */
struct crun {
	uint64_t	*conf;		/* L->n x L->n, pooled */
	double		 acc;		/* mean of the fold accuracies */
	size_t		 ntrsum, ntesum;
	double		 l2;		/* mlp: the last weight decay, else -1 */
	int		 iters;
};

/* One fold of a run: its rows in each part, their vectors and classes. */
struct foldrows {
	size_t		*tr, *dv, *te;	/* rows, increasing (room for all) */
	size_t		 ntr, ndv, nte;
	float		*Xtr, *Xdv, *Xte;	/* their vectors */
	int		 ctr, cte;	/* Xtr, Xte copies, not views of D */
	int		*ytr, *ydv, *yte;	/* their classes */
};

/*
 * Fold f of C (the split itself when there are no folds): its rows into
 * the parts of F, and for the MLP without dev rows, dev rows drawn from
 * the training rows (--dev-share); @return what the fold lacks, or NULL.
 */
static const char *
foldparts(const struct cdata *C, int f, const struct emb_clf_opts *o,
    struct foldrows *F)
{
	F->ntr = F->ndv = F->nte = 0;
	for (size_t i = 0; i < C->n; i++) {
		int pt = C->fold ? (C->fold[i] == f ? TEST : TRAIN) :
		    C->part[i];

		if (pt == TRAIN)
			F->tr[F->ntr++] = i;
		else if (pt == DEV)
			F->dv[F->ndv++] = i;
		else
			F->te[F->nte++] = i;
	}
	if (F->ntr == 0)
		return "no training rows";
	if (F->nte == 0)
		return "no test rows";
	if (o->kind == EMB_CLF_MLP && F->ndv == 0 && !C->fold &&
	    devshare > 0)
		carvedev(F->tr, &F->ntr, F->dv, &F->ndv, devshare, o->seed);
	return NULL;
}

/*
 * The vectors and classes of the rows of F: training and test rows a
 * view of C's matrix where they lie together, else copied, as the dev
 * rows are.
 */
static void
foldmats(const struct cdata *C, struct foldrows *F)
{
	const struct flat *D = &C->D;
	const int *y = C->y;

	F->Xtr = rowsview(D, F->tr, F->ntr, &F->ctr);
	F->Xte = rowsview(D, F->te, F->nte, &F->cte);
	F->ytr = xreallocarray(NULL, F->ntr + 1, sizeof(int));
	F->yte = xreallocarray(NULL, F->nte + 1, sizeof(int));
	for (size_t i = 0; i < F->ntr; i++)
		F->ytr[i] = y[F->tr[i]];
	for (size_t i = 0; i < F->nte; i++)
		F->yte[i] = y[F->te[i]];
	if (F->ndv > 0) {
		size_t m = 0;

		/* A dev label unseen in training: no class. */
		F->ydv = xreallocarray(NULL, F->ndv, sizeof(int));
		for (size_t i = 0; i < F->ndv; i++)
			if (y[F->dv[i]] < C->L->ntrain) {
				F->dv[m] = F->dv[i];
				F->ydv[m++] = y[F->dv[i]];
			}
		F->ndv = m;
		F->Xdv = rows(D, F->dv, F->ndv);
	}
}

/* Free what foldmats made: the fold's rows are kept, for the next. */
static void
foldmatsfree(struct foldrows *F)
{
	if (F->ctr)
		free(F->Xtr);
	if (F->cte)
		free(F->Xte);
	free(F->Xdv);
	free(F->ytr);
	free(F->yte);
	free(F->ydv);
	F->Xtr = F->Xdv = F->Xte = NULL;
	F->ctr = F->cte = 0;
	F->ytr = F->ydv = F->yte = NULL;
}

static void
foldfree(struct foldrows *F)
{
	foldmatsfree(F);
	free(F->tr);
	free(F->dv);
	free(F->te);
}

/*
 * Classifier cn (options o) on the rows of C, fold by fold: the class it
 * predicts for each test row goes to rowpred (other rows untouched), its
 * figures to R (conf zeroed by the caller).
 */
static void
runclf(const struct cdata *C, struct emb_clf_opts o, const char *cn,
    int *rowpred, struct crun *R)
{
	const struct flat *D = &C->D;
	const struct labels *L = C->L;
	struct foldrows F;
	const char *why;
	int nf = C->fold ? C->kfold : 1;

	memset(&F, 0, sizeof(F));
	F.tr = xreallocarray(NULL, C->n + 1, sizeof(size_t));
	F.te = xreallocarray(NULL, C->n + 1, sizeof(size_t));
	F.dv = xreallocarray(NULL, C->n + 1, sizeof(size_t));
	R->acc = 0;
	R->ntrsum = R->ntesum = 0;
	R->l2 = -1;
	R->iters = 0;
	for (int f = 0; f < nf; f++) {
		int *p, done = 0;

		if ((why = foldparts(C, f, &o, &F)) != NULL) {
			foldfree(&F);
			errx(1, "%s: %s", D->name, why);
		}
		if (C->fold) {
			snprintf(where, sizeof(where), "%s: fold %d",
			    D->name, f + 1);
			progress("%s: %s: fold %d of %d", task, cn, f + 1, nf);
		} else {
			snprintf(where, sizeof(where), "%s", D->name);
			progress("%s: %s: fitting", task, cn);
		}
		foldmats(C, &F);
		p = xreallocarray(NULL, F.nte + 1, sizeof(int));
		if (o.kind == EMB_CLF_MLP) {
			o.l2 = choosel2(&o, F.Xtr, F.ntr, D->dim, F.ytr,
			    L->ntrain, F.Xdv, F.ndv, F.ydv, innerk ? innerk :
			    C->kfold, F.Xte, F.nte, p, &R->iters, &done);
			R->l2 = o.l2;
		}
		if (!done)
			fitpredict(&o, cn, F.Xtr, F.ntr, D->dim, F.ytr,
			    C->fold ? L->n : L->ntrain, F.Xdv, F.ndv, F.ydv,
			    F.Xte, F.nte, p, &R->iters);
		if (emb_confusion(F.yte, p, F.nte, L->n, R->conf) < 0) {
			free(p);
			foldfree(&F);
			errx(1, "%s: internal error: class out of range", cn);
		}
		R->acc += accof(p, F.yte, F.nte);
		for (size_t i = 0; i < F.nte; i++)
			rowpred[F.te[i]] = p[i];
		R->ntrsum += F.ntr;
		R->ntesum += F.nte;
		free(p);
		foldmatsfree(&F);
	}
	/* Cross-validation: the mean of the fold accuracies. */
	R->acc /= nf;
	if (C->fold)
		R->ntrsum /= nf;
	foldfree(&F);
}

/*
 * The predictions of classifier cn, one line per test row, in the order
 * of the folds (the rows of each in input order); prefixed by the
 * representation's name when two are compared.
 */
static void
writepred(const struct cdata *C, const char *cn, const char *name,
    const int *rowpred)
{
	int nf = C->fold ? C->kfold : 1;

	for (int f = 0; f < nf; f++)
		for (size_t i = 0; i < C->n; i++) {
			if (C->fold ? C->fold[i] != f : C->part[i] != TEST)
				continue;
			if (name != NULL)
				fprintf(predfp, "%s\t", name);
			fprintf(predfp, "%s\t%s\t%s\t%s\n", cn,
			    C->L->name[rowpred[i]], C->L->name[C->y[i]],
			    KEY(&C->D, i));
		}
}

/*
 * --protocol: one line "protocol" after a classifier's figures, holding
 * what fixes them: the split, the classifier and its settings, the seeds,
 * the summary of each figure, and the rows that are zero vectors (a
 * composed sentence with no known word: the OOV that reached emb-eval).
 */
static void
protoclf(const struct cdata *C, const char *cn, const struct emb_clf_opts *o,
    int ns)
{
	char buf[1024], s[64];
	size_t z = zerocount(&C->D, C->n), len = 0;

#define ADD(...) do { int w_ = snprintf(buf + len, sizeof(buf) - len, \
	__VA_ARGS__); if (w_ > 0) len += (size_t)w_; if (len >= sizeof(buf)) \
	len = sizeof(buf) - 1; } while (0)
	ADD("split=%s", C->split);
	switch (o->kind) {
	case EMB_CLF_KNN:
		ADD(" clf=knn neighbours=%d similarity=cosine", o->k);
		break;
	case EMB_CLF_CENTROID:
		ADD(" clf=centroid distance=euclidean");
		break;
	case EMB_CLF_LDA:
		if (o->shrinkage == EMB_SHRINK_AUTO)
			snprintf(s, sizeof(s), "auto");
		else if (o->shrinkage == EMB_SHRINK_NONE)
			snprintf(s, sizeof(s), "none");
		else
			snprintf(s, sizeof(s), "%g", o->shrinkage);
		ADD(" clf=lda shrinkage=%s", s);
		break;
	case EMB_CLF_RIDGE:
		ADD(" clf=ridge alpha=%g", o->alpha);
		break;
	case EMB_CLF_LOGREG:
		ADD(" clf=logreg C=%g tol=%g max_iter=%d", o->C, o->tol,
		    o->maxiter);
		break;
	case EMB_CLF_MLP:
		ADD(" clf=mlp nhid=%d dropout=%g batch=%d epoch_size=%d "
		    "tenacity=%d max_epoch=%d", o->nhid, o->dropout, o->batch,
		    o->epoch_size, o->tenacity, o->max_epoch);
		if (l2fixed)
			ADD(" l2=%g", o->l2);
		else if (C->hasdev || (devshare > 0 && !C->fold))
			ADD(" l2=search:1e-5,1e-4,1e-3,1e-2:dev");
		else
			ADD(" l2=search:1e-5,1e-4,1e-3,1e-2:inner_folds=%d",
			    innerk ? innerk : C->kfold);
		if (C->hasdev)
			ADD(" early_stop=dev");
		else if (devshare > 0 && !C->fold)
			ADD(" early_stop=dev_share:%g", devshare);
		else
			ADD(" early_stop=5%%_of_train");
		break;
	}
	if (ns > 1)
		ADD(" seeds=%llu..%llu vote=majority", (unsigned long long)
		    base.seed, (unsigned long long)(base.seed + ns - 1));
	else
		ADD(" seed=%llu", (unsigned long long)base.seed);
	ADD(" accuracy=%s macro_f1=%s", C->fold ? "mean_of_folds" : "test",
	    C->fold ? "pooled_out_of_fold" : "test");
	ADD(" rows=%zu zero_vectors=%zu", C->n, z);
	if (protonote != NULL)
		ADD(" %s", protonote);
#undef ADD
	out(cn, "protocol", "%s", buf);
}

/*
 * One representation, one classifier: over --seeds seeds for the MLP
 * (the folds stay those of --seed), else once.  rowpred gets the
 * predictions (with seeds, each test row's most frequent class over the
 * seeds, on a tie the first seed's class if it is among the tied, else
 * the smallest); the figures are printed: accuracy and macro-F1 the means
 * over the seeds, the confusion matrix the vote's.
 */
/* The runs of one classifier over its seeds, and their figures. */
struct seeds {
	const struct cdata *C;
	struct emb_clf_opts o;
	const char	*cn;
	int		 K;
	int		*pred;		/* with parallel seeds: ns x n */
	struct crun	*R;		/* and ns runs */
	double		*acc, *f1, *l2s;	/* per seed */
};

/* Seed s: its run into pred and R, its figures into S. */
static void
runseed(const struct seeds *S, int s, int *pred, struct crun *R)
{
	struct emb_clf_opts o = S->o;

	o.seed = base.seed + (uint64_t)s;
	memset(R->conf, 0, (size_t)S->K * S->K * sizeof(uint64_t));
	runclf(S->C, o, S->cn, pred, R);
	S->acc[s] = R->acc;
	S->f1[s] = emb_macro_f1(R->conf, S->K);
	S->l2s[s] = R->l2;
}

static void
seedlane(void *arg, int worker, size_t lane, size_t r0, size_t r1)
{
	const struct seeds *S = arg;

	(void)worker;
	(void)lane;
	for (size_t s = r0; s < r1; s++)
		runseed(S, (int)s, S->pred + s * S->C->n, &S->R[s]);
}

/*
 * The seeds' vote on each test row of C (votes: its count of each of the
 * K classes, first: the first seed's class) into rowpred, and the vote's
 * confusion matrix into conf.
 */
static void
seedvote(const struct cdata *C, int K, const int *votes, const int *first,
    int *rowpred, uint64_t *conf)
{
	memset(conf, 0, (size_t)K * K * sizeof(uint64_t));
	for (size_t i = 0; i < C->n; i++) {
		int best = 0;

		if (!(C->fold || C->part[i] == TEST))
			continue;
		/* A tie: the first seed's class, if tied. */
		for (int k = 1; k < K; k++)
			if (votes[i * K + k] > votes[i * K + best])
				best = k;
		if (votes[i * K + first[i]] == votes[i * K + best])
			best = first[i];
		rowpred[i] = best;
		conf[(size_t)C->y[i] * K + best]++;
	}
}

static void
evalclf(const struct cdata *C, size_t ci, int *rowpred)
{
	const char *cn = clfnames[ci].name;
	const struct labels *L = C->L;
	int ns = clfnames[ci].kind == EMB_CLF_MLP ? nseeds : 1, K = L->n;
	int *sp = NULL, *votes = NULL, *first = NULL, par;
	double t0 = emb_now(), c0 = cpu();
	struct crun R = { 0 };
	struct seeds S = { C, base, cn, K, NULL, NULL, NULL, NULL, NULL };

	S.o.kind = clfnames[ci].kind;
	S.acc = xreallocarray(NULL, (size_t)ns, sizeof(double));
	S.f1 = xreallocarray(NULL, (size_t)ns, sizeof(double));
	S.l2s = xreallocarray(NULL, (size_t)ns, sizeof(double));
	R.conf = xcalloc((size_t)K * K, sizeof(uint64_t));
	if (ns > 1) {
		sp = xreallocarray(NULL, C->n + 1, sizeof(int));
		votes = xcalloc(C->n * (size_t)K + 1, sizeof(int));
		first = xreallocarray(NULL, C->n + 1, sizeof(int));
	}
	/*
	 * With a fixed weight decay a seed's run is one fit at a time, on
	 * one thread: the seeds then run side by side, a thread each (else
	 * each seed's search fills the threads).  Each seed's figures are
	 * its own either way, and combined in seed order.
	 */
	par = ns > 1 && l2fixed && base.threads > 1;
	if (par) {
		S.o.threads = 1;
		S.pred = xreallocarray(NULL, (size_t)ns * C->n + 1,
		    sizeof(int));
		S.R = xcalloc((size_t)ns, sizeof(struct crun));
		for (int s = 0; s < ns; s++)
			S.R[s].conf = xcalloc((size_t)K * K,
			    sizeof(uint64_t));
		emb_par_run(base.threads, (size_t)ns, (size_t)ns, seedlane,
		    &S);
		progdone();
	}
	for (int s = 0; s < ns; s++) {
		if (par) {
			memcpy(sp, S.pred + (size_t)s * C->n,
			    C->n * sizeof(int));
			free(R.conf);
			R = S.R[s];
			S.R[s].conf = NULL;
		} else
			runseed(&S, s, ns > 1 ? sp : rowpred, &R);
		for (size_t i = 0; ns > 1 && i < C->n; i++)
			if (C->fold || C->part[i] == TEST) {
				votes[i * K + sp[i]]++;
				if (s == 0)
					first[i] = sp[i];
			}
	}
	if (ns > 1)
		seedvote(C, K, votes, first, rowpred, R.conf);
	report(cn, L, R.conf, meanof(S.acc, ns), meanof(S.f1, ns), R.ntrsum,
	    R.ntesum, ns > 1 ? -1 : R.l2, R.iters, emb_now() - t0,
	    cpu() - c0);
	if (C->fold)
		out(cn, "folds", "%d", C->kfold);
	if (ns > 1)
		reportseeds(cn, base.seed, S.acc, S.f1, S.l2s, ns,
		    emb_accuracy(R.conf, K), emb_macro_f1(R.conf, K));
	if (protocol)
		protoclf(C, cn, &S.o, ns);
	free(S.acc);
	free(S.f1);
	free(S.l2s);
	free(S.pred);
	free(S.R);
	free(sp);
	free(votes);
	free(first);
	free(R.conf);
}

/* Load the rows of one representation: train (and test) streams. */
static void
loadcdata(struct cdata *C, const char *trainpath, const char *testpath)
{
	readboth(&C->D, &C->T, trainpath, testpath, base.threads);
	C->n = C->D.n + (testpath ? C->T.n : 0);
	if (testpath == NULL)
		C->T.name = NULL;
}

/* The key of row i of C, which may be in its test stream. */
static const char *
rowkey(const struct cdata *C, size_t i, size_t *len)
{
	*len = C->D.keylen[i];
	return KEY(&C->D, i);
}

/* The second representation's rows: the same keys, in the same order. */
static void
samekeys(const struct cdata *A, const struct cdata *B)
{
	if (A->D.dim == 0 && B->D.dim == 0)
		return;
	if (A->n != B->n)
		errx(1, "%s has %zu records, %s has %zu", A->D.name, A->n,
		    B->D.name, B->n);
	for (size_t i = 0; i < A->n; i++) {
		size_t la, lb;
		const char *ka = rowkey(A, i, &la), *kb = rowkey(B, i, &lb);

		if (la != lb || memcmp(ka, kb, la) != 0) {
			char qa[EMB_QUOTE_BUF], qb[EMB_QUOTE_BUF];
			const struct flat *F = i < B->D.n ? &B->D : &B->T;

			errx(1, "%s: record %zu: key '%s' does not match '%s' "
			    "in %s", F->name, i < B->D.n ? i + 1 :
			    i - B->D.n + 1, emb_quote(qb, kb, lb),
			    emb_quote(qa, ka, la), i < A->D.n ? A->D.name :
			    A->T.name);
		}
	}
}

/* The labels, parts and classes of the rows of a classification. */
struct rowinfo {
	char		**lab;		/* each row's label */
	int		 *part;		/* TRAIN, DEV or TEST */
	char		 *intrain;	/* its label makes a class */
	int		 *y;		/* its class */
	int		 *fold;		/* cross-validation: its fold, else NULL */
	struct labels	  L;
	char		  split[128];	/* how, for the protocol line */
};

/*
 * The label (key field labf) and part of each row of C: by the split
 * field splitf, else training for the rows of the training stream and
 * test for those of the test stream.
 */
static void
rowparts(struct rowinfo *I, const struct cdata *C, unsigned labf,
    unsigned splitf, int cv)
{
	size_t n = C->n;

	I->lab = xreallocarray(NULL, n + 1, sizeof(char *));
	I->part = xreallocarray(NULL, n + 1, sizeof(int));
	I->intrain = xmalloc(n + 1);
	I->y = xreallocarray(NULL, n + 1, sizeof(int));
	for (size_t i = 0; i < n; i++) {
		const struct flat *src = &C->D;
		size_t ri = i;

		if (i >= C->D.n) {
			src = &C->T;
			ri = i - C->D.n;
		}
		I->lab[i] = field(src, ri, labf);
		I->part[i] = i < C->D.n ? TRAIN : TEST;
		if (splitf) {
			char *s = field(src, ri, splitf);

			if (strcmp(s, "train") == 0)
				I->part[i] = TRAIN;
			else if (strcmp(s, "dev") == 0)
				I->part[i] = DEV;
			else if (strcmp(s, "test") == 0)
				I->part[i] = TEST;
			else {
				char q[EMB_QUOTE_BUF];

				emb_quotes(q, s);
				free(s);
				errx(1, "%s: record %zu: split '%s' is not "
				    "train, dev or test", src->name, ri + 1, q);
			}
			free(s);
		}
		/* Every label is a class in cross-validation. */
		I->intrain[i] = I->part[i] == TRAIN || cv;
	}
}

/*
 * The classes of the rows' labels, and in cross-validation (cv) the kfold
 * folds; the split told as the protocol line tells it.
 */
static void
rowclasses(struct rowinfo *I, const struct cdata *C, unsigned splitf,
    int kfold, int cv)
{
	size_t n = C->n;

	mklabels(&I->L, I->lab, n, I->intrain);
	for (size_t i = 0; i < n; i++)
		I->y[i] = classof(&I->L, I->lab[i]);
	if (cv) {
		if (n == 0)
			errx(1, "%s: no records", C->D.name);
		I->fold = xreallocarray(NULL, n + 1, sizeof(int));
		if (emb_folds(I->y, n, I->L.n, kfold, base.seed, I->fold) < 0)
			errx(2, "-k: %d folds", kfold);
	}
	if (I->L.ntrain == 0)
		errx(1, "%s: no training rows", C->D.name);
	if (I->fold)
		snprintf(I->split, sizeof(I->split), "cv:%d fold_seed=%llu",
		    kfold, (unsigned long long)base.seed);
	else if (splitf)
		snprintf(I->split, sizeof(I->split), "field:%u", splitf);
	else
		snprintf(I->split, sizeof(I->split), "test_stream");
}

static void
rowinfofree(struct rowinfo *I, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(I->lab[i]);
	free(I->lab);
	free(I->L.name);
	free(I->part);
	free(I->intrain);
	free(I->y);
	free(I->fold);
}

/* Classifier ci on the one representation C, and its predictions. */
static void
clfone(const struct cdata *C, size_t ci)
{
	int *pa = xreallocarray(NULL, C->n + 1, sizeof(int));

	evalclf(C, ci, pa);
	if (predfp)
		writepred(C, clfnames[ci].name, NULL, pa);
	free(pa);
}

/*
 * --versus: classifier ci on both representations, C's figures under
 * the first's task name and V's under the second's, then the two
 * compared on the test rows under the task's.
 */
static void
clfversus(const struct cdata *C, const struct cdata *V, size_t ci)
{
	const char *cn = clfnames[ci].name;
	size_t n = C->n, m = 0;
	int *pa, *pb, *t;

	pa = xreallocarray(NULL, n + 1, sizeof(int));
	pb = xreallocarray(NULL, n + 1, sizeof(int));
	task = taskv[0];
	evalclf(C, ci, pa);
	task = taskv[1];
	evalclf(V, ci, pb);
	task = taskv[2];
	if (predfp) {
		writepred(C, cn, vnames[0], pa);
		writepred(V, cn, vnames[1], pb);
	}
	t = xreallocarray(NULL, n + 1, sizeof(int));
	/* The test rows, in pa and pb's place. */
	for (size_t i = 0; i < n; i++)
		if (C->fold || C->part[i] == TEST) {
			t[m] = C->y[i];
			pa[m] = pa[i];
			pb[m++] = pb[i];
		}
	comparepred(cn, t, pa, pb, m, C->L->n);
	free(t);
	free(pa);
	free(pb);
}

/*
 * Classification: the rows of the training stream and the test one
 * (testpath, or none), those of --versus beside them; each classifier of
 * use run on them.
 */
static void
classify(const char *trainpath, const char *testpath, unsigned labf,
    unsigned splitf, int kfold, const int *use)
{
	struct cdata C, V;
	struct rowinfo I;
	int cv = !splitf && !testpath;

	memset(&C, 0, sizeof(C));
	memset(&V, 0, sizeof(V));
	memset(&I, 0, sizeof(I));
	loadcdata(&C, trainpath, testpath);
	if (versus != NULL) {
		loadcdata(&V, versus, testpath ? versus2 : NULL);
		samekeys(&C, &V);
	}
	rowparts(&I, &C, labf, splitf, cv);
	rowclasses(&I, &C, splitf, kfold, cv);
	for (size_t i = 0; i < C.n; i++)
		C.hasdev |= I.part[i] == DEV;
	V.hasdev = C.hasdev;
	C.split = V.split = I.split;
	C.L = V.L = &I.L;
	C.y = V.y = I.y;
	C.part = V.part = I.part;
	C.fold = V.fold = I.fold;
	C.kfold = V.kfold = kfold;
	for (size_t ci = 0; ci < NCLF; ci++) {
		if (!use[ci])
			continue;
		if (versus == NULL)
			clfone(&C, ci);
		else
			clfversus(&C, &V, ci);
	}
	rowinfofree(&I, C.n);
	flatfree(&C.D);	/* T is a view into D */
	if (versus != NULL)
		flatfree(&V.D);
}

/* The task's default name: the input's base name without extension. */
static const char *
taskname(const char *path, char *buf, size_t sz)
{
	const char *b;
	char *dot;

	if (path == NULL || strcmp(path, "-") == 0)
		return "stdin";
	b = strrchr(path, '/');
	snprintf(buf, sz, "%s", b ? b + 1 : path);
	if ((dot = strchr(buf, '.')) != NULL && dot != buf)
		*dot = '\0';
	return buf;
}

/* -c: a comma-separated list of classifier names, or "all". */
static void
parseclfs(const char *arg, int *use)
{
	char *s = xstrdup(arg), *tok, *save = NULL;
	int any = 0;

	memset(use, 0, NCLF * sizeof(*use));
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",",
	    &save)) {
		size_t i;

		if (strcmp(tok, "all") == 0) {
			for (i = 0; i < NCLF; i++)
				use[i] = 1;
			any = 1;
			continue;
		}
		for (i = 0; i < NCLF; i++)
			if (strcmp(tok, clfnames[i].name) == 0)
				break;
		if (i == NCLF) {
			char q[EMB_QUOTE_BUF];

			warnx("-c: unknown classifier '%s' (knn, centroid, "
			    "lda, ridge, logreg, mlp, all)", emb_quotes(q, tok));
			exit(2);
		}
		use[i] = 1;
		any = 1;
	}
	free(s);
	if (!any) {
		warnx("-c: no classifier named");
		exit(2);
	}
}

/*
 * The numeric long options: the field each sets in base (or innerk) and
 * its range.  All share one case of the getopt loop.
 */
static const struct numopt {
	const char	*name;
	int		 isint;		/* parsenum (2: a long), else parsedbl */
	double		 min, max;
	void		*dst;		/* int or double; the seed a uint64_t */
} numopts[] = {
	{ "neighbours",	1, 1, 100000,	&base.k },
	{ "alpha",	0, 0, 1e300,	&base.alpha },
	{ "C",		0, 1e-300, 1e300, &base.C },
	{ "max-iter",	1, 1, 1000000,	&base.maxiter },
	{ "tol",	0, 0, 1,	&base.tol },
	{ "nhid",	1, 0, 100000,	&base.nhid },
	{ "l2",		0, 0, 1e6,	&base.l2 },
	{ "dropout",	0, 0, 0.99,	&base.dropout },
	{ "batch",	1, 1, 1000000,	&base.batch },
	{ "tenacity",	1, 0, 100000,	&base.tenacity },
	{ "epoch-size",	1, 1, 100000,	&base.epoch_size },
	{ "max-epoch",	1, 0, 1000000,	&base.max_epoch },
	{ "seed",	1, 0, 9.2e18,	&base.seed },
	{ "inner-folds", 1, 2, MAXFOLDS, &innerk },
	{ "dev-share",	0, 0, 0.9,	&devshare },
	{ "seeds",	1, 1, 1000,	&nseeds },
	{ "resamples",	2, 1, 1e8,	&nres },
	{ "level",	0, 0.5, 0.9999,	&level },
};

static void
setnum(const char *name, const char *arg)
{
	char opt[64];

	snprintf(opt, sizeof(opt), "--%s", name);
	for (size_t i = 0; i < sizeof(numopts) / sizeof(numopts[0]); i++) {
		const struct numopt *n = &numopts[i];

		if (strcmp(n->name, name) != 0)
			continue;
		if (n->dst == &base.seed)
			base.seed = (uint64_t)parsenum(arg, 0, LLONG_MAX, opt);
		else if (n->isint == 2)
			*(long *)n->dst = (long)parsenum(arg, (long long)n->min,
			    (long long)n->max, opt);
		else if (n->isint)
			*(int *)n->dst = (int)parsenum(arg, (long long)n->min,
			    (long long)n->max, opt);
		else
			*(double *)n->dst = parsedbl(arg, n->min, n->max, opt);
		if (n->dst == &base.l2)
			l2fixed = 1;
		return;
	}
}

/*
 * --versus: the second representation's streams, one for each of the
 * first's (the operand, and -t or -p), never standard input twice; the
 * names of the two (--names first,second, default a,b).
 */
static void
checkversus(const char *first, const char *test, const char *second,
    const char *gold, const char *pairs, const char *names)
{
	static char nbuf[2][256];
	const char *two = test ? test : second, *c;

	if (versus == NULL) {
		if (versus2 != NULL || names != NULL) {
			warnx("%s: without --versus", versus2 ? 
			    "--versus-second" : "--names");
			exit(2);
		}
		return;
	}
	if ((two != NULL) != (versus2 != NULL)) {
		warnx(two ? "--versus: %s needs --versus-second" :
		    "--versus-second: %s has no second stream", test ? "-t" :
		    second ? "-p" : "this mode");
		exit(2);
	}
	{
		const char *in[] = { first, test, second, gold, pairs,
		    versus, versus2 };
		int nstd = 0;

		for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
			nstd += in[i] != NULL && strcmp(in[i], "-") == 0;
		if (nstd > 1) {
			warnx("--versus: standard input can be read once");
			exit(2);
		}
		if ((gold != NULL && strcmp(gold, "-") == 0) ||
		    (pairs != NULL && strcmp(pairs, "-") == 0)) {
			warnx("--versus: %s is read twice: not standard "
			    "input", gold ? "-g" : "-w");
			exit(2);
		}
	}
	vnames[0] = "a";
	vnames[1] = "b";
	if (names != NULL) {
		if ((c = strchr(names, ',')) == NULL || c == names ||
		    c[1] == '\0' || strchr(c + 1, ',') != NULL ||
		    (size_t)(c - names) >= sizeof(nbuf[0]) ||
		    strlen(c + 1) >= sizeof(nbuf[1]) ||
		    strpbrk(names, "\t\n/") != NULL) {
			warnx("--names: expected two names 'first,second' "
			    "(no tab, newline or slash)");
			exit(2);
		}
		memcpy(nbuf[0], names, (size_t)(c - names));
		nbuf[0][c - names] = '\0';
		snprintf(nbuf[1], sizeof(nbuf[1]), "%s", c + 1);
		vnames[0] = nbuf[0];
		vnames[1] = nbuf[1];
	}
}

/* --shrinkage: auto, none or a number in [0, 1]. */
static double
parseshrink(const char *arg)
{
	if (strcmp(arg, "auto") == 0)
		return EMB_SHRINK_AUTO;
	if (strcmp(arg, "none") == 0)
		return EMB_SHRINK_NONE;
	return parsedbl(arg, 0, 1, "--shrinkage");
}

/* The options that choose and feed a task. */
struct args {
	const char	*test, *second, *gold, *pairs;	/* -t -p -g -w */
	const char	*lexicon, *target, *names;	/* -L -R --names */
	unsigned	 cslsk;				/* --csls-k */
	unsigned	 labf, splitf, idf, subf, wf;	/* -l -s -i -u -f */
	int		 kfold, caseful;		/* -k -I */
	int		 use[NCLF];			/* -c */
	size_t		 nvocab;			/* -n */
};

/*
 * The long-only option ch (opts[li]) into a, base and the settings it
 * names; any other is a misuse.
 */
static void
longopt(struct args *a, int ch, int li)
{
	switch (ch) {
	case OPT_CSLS:
		a->cslsk = (unsigned)parsenum(optarg, 1, 100000, "--csls-k");
		break;
	case OPT_NUM:
		setnum(opts[li].name, optarg);
		break;
	case OPT_SHRINK:
		base.shrinkage = parseshrink(optarg);
		break;
	case OPT_PRED:
		predpath = optarg;
		break;
	case OPT_VERSUS:
		versus = optarg;
		break;
	case OPT_VERSUS2:
		versus2 = optarg;
		break;
	case OPT_NAMES:
		a->names = optarg;
		break;
	case OPT_PROTO:
		protocol = 1;
		break;
	case OPT_PNOTE:
		protocol = 1;
		protonote = optarg;
		break;
	default:
		usage();
	}
}

/* The options into a and base; @return the operands' index in argv. */
static int
options(struct args *a, int argc, char *argv[])
{
	int ch, li = 0;

	while ((ch = optget(argc, argv, &prog, &li)) != -1) {
		switch (ch) {
		case 'c':
			parseclfs(optarg, a->use);
			break;
		case 'f':
			a->wf = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-f");
			break;
		case 'g':
			a->gold = optarg;
			break;
		case 'I':
			a->caseful = 1;
			break;
		case 'i':
			a->idf = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-i");
			break;
		case 'j':
			base.threads = (int)parsenum(optarg, 1, EMB_MAXTHREADS,
			    "-j");
			break;
		case 'k':
			a->kfold = (int)parsenum(optarg, 2, MAXFOLDS, "-k");
			break;
		case 'L':
			a->lexicon = optarg;
			break;
		case 'R':
			a->target = optarg;
			break;
		case 'l':
			a->labf = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-l");
			break;
		case 'n':
			a->nvocab = (size_t)parsenum(optarg, 1, LLONG_MAX,
			    "-n");
			break;
		case 'p':
			a->second = optarg;
			break;
		case 's':
			a->splitf = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-s");
			break;
		case 'T':
			task = optarg;
			break;
		case 't':
			a->test = optarg;
			break;
		case 'u':
			a->subf = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-u");
			break;
		case 'q':
			verbose = 0;
			progmode = PROG_OFF;
			break;
		case 'v':
			verbose = 1;
			progmode = PROG_ON;
			break;
		case 'w':
			a->pairs = optarg;
			break;
		default:
			longopt(a, ch, li);
		}
	}
	return optind;
}

/* The misuses of the options a and the operands (argc of argv). */
static void
misuses(const struct args *a, int argc, char *argv[])
{
	int split = a->splitf != 0;

	if (argc > 1)
		misuse("one input file at most");
	if (a->second != NULL && a->gold == NULL)
		misuse("-p needs -g gold, the STS gold scores");
	if (a->second == NULL && a->gold != NULL)
		misuse("-g goes with -p only");
	if (a->second != NULL && (a->pairs != NULL || a->test != NULL ||
	    split))
		misuse("-p takes no -w, -t or -s");
	if (a->pairs != NULL && (a->test != NULL || split))
		misuse("-w takes no -t or -s");
	if (a->test != NULL && split)
		misuse("-t and -s exclude each other");
	if (a->lexicon != NULL && a->target == NULL)
		misuse("-L needs -R target, the space mapped onto");
	if (a->lexicon == NULL && a->target != NULL)
		misuse("-R goes with -L only");
	if (a->lexicon != NULL && (a->second != NULL || a->pairs != NULL ||
	    a->test != NULL || split))
		misuse("-L takes no -p, -w, -t or -s");
	/* Standard input can be read once. */
	if ((argc == 0 || strcmp(argv[0], "-") == 0) &&
	    ((a->test != NULL && strcmp(a->test, "-") == 0) ||
	    (a->second != NULL && strcmp(a->second, "-") == 0))) {
		warnx("%s: standard input cannot be both streams",
		    a->test != NULL ? "-t" : "-p");
		exit(2);
	}
}

int
main(int argc, char *argv[])
{
	struct args a = { .cslsk = 10, .labf = 1, .wf = 1, .kfold = 5,
	    .use = { 1, 1, 1, 1, 1, 0 }, .nvocab = 300000 };
	const char *in;
	char tbuf[256], vtask[2][600];
	int n;

	/*
	 * Keep freed blocks up to 32 MiB in the heap: the classifiers'
	 * buffers then reuse the pages the readers used, where fresh mappings
	 * would be faulted in page by page (a fault costs more than copying
	 * the page).
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	emb_clf_defaults(&base, EMB_CLF_KNN);
	base.threads = emb_ncpu();
	knnenv();
	n = options(&a, argc, argv);
	argc -= n;
	argv += n;
	misuses(&a, argc, argv);
	in = argc ? argv[0] : NULL;
	checkversus(in ? in : "-", a.test, a.second, a.gold, a.pairs,
	    a.names);
	if (predpath != NULL) {
		const char *ins[] = { in ? in : "-", a.test, a.second, a.gold,
		    a.pairs, a.lexicon, a.target, versus, versus2 };

		/* Written whole or not at all, as every named output. */
		predfp = outopen(predpath, ins, sizeof(ins) / sizeof(ins[0]),
		    0666);
	}
	if (task == NULL)
		task = taskname(in, tbuf, sizeof(tbuf));
	resseed = base.seed;
	pairthreads = base.threads;
	if (versus != NULL) {
		taskv[0] = vtask[0];
		taskv[1] = vtask[1];
		taskv[2] = task;
		snprintf(vtask[0], sizeof(vtask[0]), "%s/%s", task, vnames[0]);
		snprintf(vtask[1], sizeof(vtask[1]), "%s/%s", task, vnames[1]);
	}
	if (a.lexicon != NULL)
		bli(in, a.target, a.lexicon, a.wf, a.cslsk,
		    (unsigned)base.threads, predfp);
	else if (a.second != NULL)
		sts(in, a.second, a.gold, a.idf, a.subf);
	else if (a.pairs != NULL)
		wordsim(in, a.pairs, a.wf, a.nvocab, a.caseful);
	else
		classify(in, a.test, a.labf, a.splitf, a.kfold, a.use);
	if (predfp != NULL)
		outcommit(predfp, predpath);
	fshut(stdout, "stdout");
	return 0;
}
