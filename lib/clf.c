/*
 * clf.c - the classifier object of emb-eval: options, fit and predict
 * dispatched by kind, the stratified folds, the scores of the linear
 * models, and the helpers the classifier files share (threads, the BLIS
 * product, class means).
 *
 * Each closed-form classifier computes what scikit-learn computes, so that
 * predictions agree up to rounding:
 *   centroid  NearestCentroid(): class means, smallest Euclidean distance;
 *   lda       LinearDiscriminantAnalysis(solver="lsqr", shrinkage=s):
 *             priors n_c / n, covariance sum_c prior_c cov_c, where cov_c is
 *             the class's empirical covariance, shrunk by s toward
 *             mu I (mu = trace / d), or by the Ledoit-Wolf s_c of the
 *             standardized class data ("auto"); coef = cov^-1 mean_c,
 *             intercept = -mean_c . coef_c / 2 + log prior_c;
 *   ridge     RidgeClassifier(alpha): targets +1/-1 (one column for two
 *             classes), centred data, (Xc'Xc + alpha I) W = Xc'Y;
 *   knn       KNeighborsClassifier(k, metric="cosine"): uniform vote, a
 *             tie going to the smallest class.
 * The iterative ones minimize the same objective as their model:
 *   logreg    LogisticRegression(C): multinomial for three classes or more,
 *             binary for two, penalty |W|^2 / (2C) on the weights only;
 *   mlp       SentEval's MLP: Linear, Dropout, Sigmoid, Linear; mean
 *             cross-entropy of each batch, Adam (lr 1e-3), weight decay on every
 *             parameter, early stopping on a dev set with SentEval's
 *             tenacity rule.
 * The kinds live in clf-linear.c (centroid, lda, ridge), clf-logreg.c,
 * clf-mlp.c and clf-knn.c; the solvers in clf-solve.c (see clf.h).
 *
 * Level-3 work (Gram matrices, scores, distances, the Cholesky solves)
 * goes through BLIS, one thread per call, the large steps spread over
 * o.threads threads of our own (see "Threads"); the least-squares fallback
 * (dgelsd) through LAPACK.  Each BLIS kernel has a plain-loop twin used by
 * the unit tests.
 */
#include "emb.h"
#include "rng.h"
#include "clf.h"
#include "ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Threads.  Row-parallel work is cut into lanes, a number that depends on
 * the problem only, never on the thread count: lane l holds rows
 * [n l / nlane, n (l + 1) / nlane) and owns its partial results, which
 * are summed in lane order afterwards, so that every thread count gives
 * the same bits.  Workers (the calling thread and up to o.threads - 1
 * others) take lanes in turn from an atomic counter: a worker that a busy
 * machine deschedules just takes fewer, and the only wait is the final
 * join (BLIS's own threads spin at barriers, which a descheduled thread
 * turns into lost time slices).  Every BLIS call runs on one thread.
 */

/*
 * Threads for a step of work multiply-adds: below o.parmin (2^27 by
 * default, a few milliseconds on one core) starting threads and faulting
 * in their buffers costs more than it saves, so one.  The lanes, and
 * therefore the results, do not depend on it.
 */
int
emb_clf_threads(const struct emb_clf_opts *o, double work)
{
	return work < o->parmin ? 1 : o->threads;
}

/* Lanes for n rows: one per `per' rows, at least one, at most max. */
size_t
emb_clf_lanes(size_t n, size_t per, size_t max)
{
	size_t l = n / per;

	return l < 1 ? 1 : l > max ? max : l;
}

/* The BLIS runtime of every call of the classifiers: one thread. */
rntm_t *
emb_blis1(rntm_t *rt)
{
	bli_rntm_init(rt);
	bli_rntm_set_num_threads(1, rt);
	return rt;
}

/* emb_dgemm_blis and emb_sgemm_blis: one body, BLIS's typed call. */
#define GEMM_BLIS(name, T, blisfn)					\
void									\
name(int ta, int tb, size_t m, size_t n, size_t k, T alpha, const T *A,	\
    size_t lda, const T *B, size_t ldb, T beta, T *C, size_t ldc)	\
{									\
	rntm_t rt;							\
									\
	if (m == 0 || n == 0)						\
		return;							\
	blisfn(ta ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE,			\
	    tb ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE, (dim_t)m, (dim_t)n,	\
	    (dim_t)k, &alpha, (T *)A, (inc_t)lda, 1, (T *)B, (inc_t)ldb,	\
	    1, &beta, C, (inc_t)ldc, 1, NULL, emb_blis1(&rt));		\
}

GEMM_BLIS(emb_dgemm_blis, double, bli_dgemm_ex)
GEMM_BLIS(emb_sgemm_blis, float, bli_sgemm_ex)

void
emb_dgemm_ref(int ta, int tb, size_t m, size_t n, size_t k, double alpha,
    const double *A, size_t lda, const double *B, size_t ldb, double beta,
    double *C, size_t ldc)
{
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++) {
			double s = 0;

			for (size_t t = 0; t < k; t++)
				s += (ta ? A[t * lda + i] : A[i * lda + t]) *
				    (tb ? B[j * ldb + t] : B[t * ldb + j]);
			C[i * ldc + j] = alpha * s + (beta == 0 ? 0 :
			    beta * C[i * ldc + j]);
		}
}

void
emb_dsyrk_up(size_t d, size_t m, double alpha, const double *A, double beta,
    double *C)
{
	rntm_t rt;

	bli_dsyrk_ex(BLIS_UPPER, BLIS_TRANSPOSE, (dim_t)d, (dim_t)m, &alpha,
	    (double *)A, (inc_t)d, 1, &beta, C, (inc_t)d, 1, NULL, emb_blis1(&rt));
}

/*
 * Folds.
 */

int
emb_folds(const int *y, size_t n, int ncls, int k, uint64_t seed, int *fold)
{
	struct emb_rng g;
	size_t *idx, off = 0;

	if (k < 2 || ncls < 1)
		return EMB_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (y[i] < 0 || y[i] >= ncls)
			return EMB_EINVAL;
	if ((idx = malloc((n ? n : 1) * sizeof(*idx))) == NULL)
		return EMB_ENOMEM;
	emb_rng_seed(&g, seed);
	for (int c = 0; c < ncls; c++) {
		size_t m = 0;

		for (size_t i = 0; i < n; i++)
			if (y[i] == c)
				idx[m++] = i;
		emb_rng_perm(&g, idx, m);
		for (size_t j = 0; j < m; j++)
			fold[idx[j]] = (int)((off + j) % (size_t)k);
		off += m;
	}
	free(idx);
	return 0;
}

/*
 * Helpers.
 */

/* Converting floats to doubles, a lane at a time. */
struct conv {
	const float	*X;
	double		*D;
	size_t		 d;
};

static void
convlane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct conv *cv = arg;

	(void)w;
	(void)lane;
	for (size_t i = r0 * cv->d; i < r1 * cv->d; i++)
		cv->D[i] = cv->X[i];
}

/*
 * A double copy of the float matrix X (n x d), or NULL; on nt threads
 * when it is large (the fresh pages cost more than the conversion).
 */
double *
emb_todouble(const float *X, size_t n, size_t d, int nt)
{
	struct conv cv;
	size_t sz;

	if (emb_mul(n ? n : 1, d, &sz) < 0 || emb_mul(sz, sizeof(double),
	    &sz) < 0 || (cv.D = emb_alloc(sz)) == NULL)
		return NULL;
	cv.X = X;
	cv.d = d;
	emb_par_run(nt, n, emb_clf_lanes(n, 1024, 64), convlane, &cv);
	return cv.D;
}

/* Per-class counts and means (ncls x d) in double. */
void
emb_classmeans(const float *X, size_t n, size_t d, const int *y, int ncls,
    size_t *cnt, double *mean)
{
	memset(cnt, 0, ncls * sizeof(*cnt));
	memset(mean, 0, (size_t)ncls * d * sizeof(*mean));
	for (size_t i = 0; i < n; i++) {
		double *m = mean + (size_t)y[i] * d;

		cnt[y[i]]++;
		for (size_t j = 0; j < d; j++)
			m[j] += X[i * d + j];
	}
	for (int c = 0; c < ncls; c++)
		if (cnt[c] > 0)
			for (size_t j = 0; j < d; j++)
				mean[(size_t)c * d + j] /= (double)cnt[c];
}

static struct emb_clf *
newclf(const struct emb_clf_opts *o, size_t d, int ncls)
{
	struct emb_clf *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->o = *o;
	c->d = d;
	c->ncls = ncls;
	c->only = -1;
	return c;
}

/* Allocate W (d x nout) and b (nout), zeroed. */
int
emb_clf_linalloc(struct emb_clf *c, int nout)
{
	c->nout = nout;
	c->W = emb_alloc(c->d * nout * sizeof(double));
	c->b = emb_alloc(nout * sizeof(double));
	if (c->W == NULL || c->b == NULL)
		return EMB_ENOMEM;
	memset(c->W, 0, c->d * nout * sizeof(double));
	memset(c->b, 0, nout * sizeof(double));
	return 0;
}

/* Index of the largest of n scores, the first on ties. */
int
emb_argmax(const double *s, int n)
{
	int best = 0;

	for (int k = 1; k < n; k++)
		if (s[k] > s[best])
			best = k;
	return best;
}

#define SBLK	256	/* rows per block (and lane) of a linear model's scores */

/* Scores X W + b of r <= SBLK rows X into S; Xb holds r x d doubles. */
static void
linscores(const struct emb_clf *c, const float *X, size_t r, double *Xb,
    double *S)
{
	size_t d = c->d;
	int no = c->nout;

	for (size_t j = 0; j < r * d; j++)
		Xb[j] = X[j];
	emb_dgemm_blis(0, 0, r, no, d, 1, Xb, d, c->W, no, 0, S, no);
	for (size_t i = 0; i < r; i++)
		for (int k = 0; k < no; k++)
			S[i * no + k] += c->b[k];
}

/* Scores of a linear model, a block of rows per lane. */
struct scoring {
	const struct emb_clf *c;
	const float	*X;
	double		*S;		/* all scores, or NULL: only pred */
	int		*pred;		/* classes, or NULL */
	double		*Xb[MAXTHR];	/* per worker: SBLK x d */
	double		*Sb[MAXTHR];	/* per worker: SBLK x nout */
};

static void
scorelane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct scoring *sc = arg;
	int no = sc->c->nout;
	double *S = sc->S ? sc->S + r0 * no : sc->Sb[w];

	(void)lane;
	linscores(sc->c, sc->X + r0 * sc->c->d, r1 - r0, sc->Xb[w], S);
	/* One column: the binary rule, class 1 when > 0. */
	for (size_t i = 0; sc->pred && i < r1 - r0; i++)
		sc->pred[r0 + i] = no == 1 ? S[i] > 0 : emb_argmax(S + i * no, no);
}

/* Scores into S (n x nout) or classes into pred. */
static int
linear(const struct emb_clf *c, const float *X, size_t n, double *S,
    int *pred)
{
	size_t nl = (n + SBLK - 1) / SBLK, rows = n < SBLK ? n : SBLK;
	struct scoring *sc;
	int nt = emb_clf_threads(&c->o, (double)n * c->d * c->nout);
	int nw = emb_par_workers(nt, nl), rc = 0;

	if ((sc = calloc(1, sizeof(*sc))) == NULL)
		return EMB_ENOMEM;
	sc->c = c;
	sc->X = X;
	sc->S = S;
	sc->pred = pred;
	for (int t = 0; t < nw; t++) {
		sc->Xb[t] = emb_alloc(rows * c->d * sizeof(double));
		sc->Sb[t] = S ? NULL : emb_alloc(rows * c->nout *
		    sizeof(double));
		if (sc->Xb[t] == NULL || (S == NULL && sc->Sb[t] == NULL))
			rc = EMB_ENOMEM;
	}
	if (rc == 0)
		emb_par_run(nt, n, nl, scorelane, sc);
	for (int t = 0; t < nw; t++) {
		emb_free(sc->Xb[t]);
		emb_free(sc->Sb[t]);
	}
	free(sc);
	return rc;
}

int
emb_clf_scores(const struct emb_clf *c, const float *X, size_t n, double *S)
{
	if (c->only >= 0)
		return EMB_EINVAL;
	if (c->o.kind == EMB_CLF_MLP)
		return emb_clf_scores_mlp(c, X, n, S);
	if (c->W == NULL)
		return EMB_EINVAL;
	return n ? linear(c, X, n, S, NULL) : 0;
}

int
emb_clf_nscores(const struct emb_clf *c)
{
	if (c->only >= 0)
		return 0;
	if (c->o.kind == EMB_CLF_MLP)
		return c->ncls;
	return c->W ? c->nout : 0;
}

/* Scores X W + b in blocks, then the class rule. */
static int
predict_linear(const struct emb_clf *c, const float *X, size_t n, int *pred)
{
	return linear(c, X, n, NULL, pred);
}


/*
 * Classes with no training row never win: their scores become -inf (the
 * binary rule of one column needs no change, since two classes were seen).
 * Centroid and LDA already score them so; kNN never votes for them.
 */
static void
unseen(struct emb_clf *c, const unsigned char *seen)
{
	int K = c->ncls;
	float *b2;

	for (int k = 0; k < K; k++) {
		if (seen[k])
			continue;
		if (c->o.kind == EMB_CLF_MLP) {
			b2 = c->W1 + (c->o.nhid ? c->d * c->o.nhid +
			    c->o.nhid + (size_t)c->o.nhid * K : c->d * K);
			b2[k] = -INFINITY;
		} else if (c->W != NULL && c->nout == K) {
			for (size_t j = 0; j < c->d; j++)
				c->W[j * K + k] = 0;
			c->b[k] = -INFINITY;
		}
	}
}

/*
 * The public face.
 */

void
emb_clf_defaults(struct emb_clf_opts *o, enum emb_clf_kind kind)
{
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->k = 5;
	o->alpha = 1.0;
	o->shrinkage = EMB_SHRINK_NONE;
	o->C = 1.0;
	o->maxiter = 1000;
	o->tol = 1e-4;
	o->nhid = 50;
	o->l2 = 1e-4;
	o->dropout = 0;
	o->batch = 64;
	o->tenacity = 5;
	o->epoch_size = 4;
	o->max_epoch = 200;
	o->valfrac = 0.05;
	o->seed = 1111;
	o->threads = 1;
	o->parmin = 1 << 27;
}

int
emb_clf_fit(struct emb_clf **cp, const struct emb_clf_opts *o,
    const float *X, size_t n, size_t d, const int *y, int ncls,
    const float *dev, size_t ndev, const int *ydev)
{
	struct emb_clf *c;
	unsigned char *seen;
	int rc, nseen = 0;

	*cp = NULL;
	if (d == 0 || ncls < 1 || o->kind < EMB_CLF_KNN ||
	    o->kind > EMB_CLF_MLP || (o->kind == EMB_CLF_KNN && o->k < 1) ||
	    (o->kind == EMB_CLF_LDA && o->shrinkage != EMB_SHRINK_NONE &&
	    o->shrinkage != EMB_SHRINK_AUTO && !(o->shrinkage >= 0 &&
	    o->shrinkage <= 1)) || (o->kind == EMB_CLF_LOGREG && !(o->C > 0)) ||
	    (o->kind == EMB_CLF_MLP && (o->batch < 1 || o->nhid < 0 ||
	    o->epoch_size < 1 || !(o->dropout >= 0 && o->dropout < 1))))
		return EMB_EINVAL;
	if (n == 0)
		return EMB_EEMPTY;
	for (size_t i = 0; i < n; i++)
		if (y[i] < 0 || y[i] >= ncls)
			return EMB_EINVAL;
	if ((c = newclf(o, d, ncls)) == NULL)
		return EMB_ENOMEM;
	if ((seen = calloc(ncls, 1)) == NULL) {
		free(c);
		return EMB_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (!seen[y[i]]) {	/* a flag, not a count: no wrap */
			seen[y[i]] = 1;
			nseen++;
		}
	if (nseen == 1) {
		/* One class: every kind predicts it, as a constant would. */
		c->only = y[0];
		free(seen);
		*cp = c;
		return 0;
	}
	switch (o->kind) {
	case EMB_CLF_KNN:
		rc = emb_clf_fit_knn(c, X, n, y);
		break;
	case EMB_CLF_CENTROID:
		rc = emb_clf_fit_centroid(c, X, n, y);
		break;
	case EMB_CLF_LDA:
		rc = emb_clf_fit_lda(c, X, n, y);
		break;
	case EMB_CLF_RIDGE:
		rc = emb_clf_fit_ridge(c, X, n, y);
		break;
	case EMB_CLF_LOGREG:
		rc = emb_clf_fit_logreg(c, X, n, y);
		break;
	default:
		rc = emb_clf_fit_mlp(c, X, n, y, dev, ndev, ydev);
		break;
	}
	if (rc == 0)
		unseen(c, seen);
	free(seen);
	if (rc < 0) {
		emb_clf_free(c);
		return rc;
	}
	*cp = c;
	return 0;
}

int
emb_clf_predict(const struct emb_clf *c, const float *X, size_t n, int *pred)
{
	if (n == 0)
		return 0;
	if (c->only >= 0) {
		for (size_t i = 0; i < n; i++)
			pred[i] = c->only;
		return 0;
	}
	switch (c->o.kind) {
	case EMB_CLF_KNN:
		return emb_clf_predict_knn(c, X, n, pred);
	case EMB_CLF_MLP:
		return emb_clf_predict_mlp(c, X, n, pred);
	default:
		return predict_linear(c, X, n, pred);
	}
}

int
emb_clf_iters(const struct emb_clf *c)
{
	return c->iters;
}

void
emb_clf_free(struct emb_clf *c)
{
	if (c == NULL)
		return;
	emb_knn_free(c->kn);
	free(c->yref);
	emb_free(c->W);
	emb_free(c->b);
	free(c->W1);
	free(c);
}
