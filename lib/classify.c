/*
 * classify.c - the classifiers of emb-eval: k nearest neighbours (cosine),
 * nearest centroid, linear discriminant analysis with shrinkage, ridge
 * classifier, L2 logistic regression and a one-hidden-layer perceptron,
 * plus the seeded generator and the stratified folds.
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
 *   mlp       SentEval's MLP: Linear, Dropout, Sigmoid, Linear; summed
 *             cross-entropy, Adam (lr 1e-3), weight decay on every
 *             parameter, early stopping on a dev set with SentEval's
 *             tenacity rule.
 *
 * Level-3 work (Gram matrices, scores, distances, the Cholesky solves)
 * goes through BLIS, one thread per call, the large steps spread over
 * o.threads threads of our own (see "Threads"); the least-squares fallback
 * (dgelsd) through LAPACK.  Each BLIS kernel has a plain-loop twin used by
 * the unit tests.
 */
#include "emb.h"
#include "int.h"

#include <blis.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK, Fortran calling convention. */
extern void dgelsd_(const int *, const int *, const int *, double *,
    const int *, double *, const int *, double *, const double *, int *,
    double *, const int *, int *, int *);
extern void dsyev_(const char *, const char *, const int *, double *,
    const int *, double *, double *, const int *, int *);

struct emb_clf {
	struct emb_clf_opts o;		/* options it was fitted with */
	size_t		 d;		/* input dimension */
	int		 ncls;		/* classes */
	int		 iters;		/* iterations or passes taken */
	int		 only;		/* one class in training: it, else -1 */
	/* knn */
	float		*ref;		/* unit rows, nref x d */
	size_t		 nref;		/* reference rows */
	int		*yref;		/* their classes */
	/* linear models: scores = X W + b, W d x nout */
	double		*W;
	double		*b;
	int		 nout;		/* ncls, or 1 for a binary rule */
	/* mlp: all parameters (W1, b1, W2, b2) as one block */
	double		*W1;
};

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
#define MAXTHR	EMB_MAXTHREADS

typedef emb_lanefn lanefn;

/*
 * Threads for a step of work multiply-adds: below o.parmin (2^27 by
 * default, a few milliseconds on one core) starting threads and faulting
 * in their buffers costs more than it saves, so one.  The lanes, and
 * therefore the results, do not depend on it.
 */
static int
threadsfor(const struct emb_clf_opts *o, double work)
{
	return work < o->parmin ? 1 : o->threads;
}

/* Lanes for n rows: one per `per' rows, at least one, at most max. */
static size_t
lanes(size_t n, size_t per, size_t max)
{
	size_t l = n / per;

	return l < 1 ? 1 : l > max ? max : l;
}

/* The BLIS runtime of every call here: one thread. */
static rntm_t *
one(rntm_t *rt)
{
	bli_rntm_init(rt);
	bli_rntm_set_num_threads(1, rt);
	return rt;
}

void
emb_dgemm_blis(int ta, int tb, size_t m, size_t n, size_t k, double alpha,
    const double *A, size_t lda, const double *B, size_t ldb, double beta,
    double *C, size_t ldc)
{
	rntm_t rt;

	if (m == 0 || n == 0)
		return;
	bli_dgemm_ex(ta ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE,
	    tb ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE, (dim_t)m, (dim_t)n,
	    (dim_t)k, &alpha, (double *)A, (inc_t)lda, 1, (double *)B,
	    (inc_t)ldb, 1, &beta, C, (inc_t)ldc, 1, NULL, one(&rt));
}

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

#define dgemm	emb_dgemm_blis

/* Single-precision C = A B' for the cosine scores of kNN. */
static void
sgemm_nt(size_t m, size_t n, size_t k, const float *A, const float *B,
    float *C)
{
	float one_ = 1, zero = 0;
	rntm_t rt;

	bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_TRANSPOSE, (dim_t)m, (dim_t)n,
	    (dim_t)k, &one_, (float *)A, (inc_t)k, 1, (float *)B, (inc_t)k, 1,
	    &zero, C, (inc_t)n, 1, NULL, one(&rt));
}

/* C = alpha A'A + beta C, upper triangle, A m x d (row-major). */
static void
syrk_up(size_t d, size_t m, double alpha, const double *A, double beta,
    double *C)
{
	rntm_t rt;

	bli_dsyrk_ex(BLIS_UPPER, BLIS_TRANSPOSE, (dim_t)d, (dim_t)m, &alpha,
	    (double *)A, (inc_t)d, 1, &beta, C, (inc_t)d, 1, NULL, one(&rt));
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
static double *
todouble(const float *X, size_t n, size_t d, int nt)
{
	struct conv cv;
	size_t sz;

	if (emb_mul(n ? n : 1, d, &sz) < 0 || emb_mul(sz, sizeof(double),
	    &sz) < 0 || (cv.D = emb_alloc(sz)) == NULL)
		return NULL;
	cv.X = X;
	cv.d = d;
	emb_par_run(nt, n, lanes(n, 1024, 64), convlane, &cv);
	return cv.D;
}

/* Per-class counts and means (ncls x d) in double. */
static int
classmeans(const float *X, size_t n, size_t d, const int *y, int ncls,
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
	return 0;
}

/*
 * Cholesky factorization A = L L' of the symmetric n x n matrix A
 * (row-major, leading dimension lda), lower triangle read and overwritten
 * by L; the strict upper triangle is left alone.  The BLIS version
 * recurses on halves (L11 = chol(A11), L21 = A21 L11^-T by trsm, A22 -=
 * L21 L21' by syrk) down to blocks of CHOLBLK, factored by the plain loops
 * of emb_dchol_ref: the level-3 calls are large, where LAPACK's dpotrf
 * makes many small ones.
 */
#define CHOLBLK	32

int
emb_dchol_ref(size_t n, double *A, size_t lda)
{
	for (size_t j = 0; j < n; j++) {
		double *aj = A + j * lda, djj = aj[j];

		for (size_t k = 0; k < j; k++)
			djj -= aj[k] * aj[k];
		if (!(djj > 0))
			return EMB_ENOSOL;
		aj[j] = djj = sqrt(djj);
		for (size_t i = j + 1; i < n; i++) {
			double *ai = A + i * lda, s = ai[j];

			for (size_t k = 0; k < j; k++)
				s -= ai[k] * aj[k];
			ai[j] = s / djj;
		}
	}
	return 0;
}

int
emb_dchol_blis(size_t n, double *A, size_t lda)
{
	size_t n1 = n / 2 / 8 * 8, n2 = n - n1;
	double one_ = 1, mone = -1;
	rntm_t rt;
	double *A21 = A + n1 * lda, *A22 = A21 + n1;
	int rc;

	if (n <= CHOLBLK)
		return emb_dchol_ref(n, A, lda);
	if ((rc = emb_dchol_blis(n1, A, lda)) < 0)
		return rc;
	bli_dtrsm_ex(BLIS_RIGHT, BLIS_LOWER, BLIS_TRANSPOSE,
	    BLIS_NONUNIT_DIAG, (dim_t)n2, (dim_t)n1, &one_, A, (inc_t)lda, 1,
	    A21, (inc_t)lda, 1, NULL, one(&rt));
	bli_dsyrk_ex(BLIS_LOWER, BLIS_NO_TRANSPOSE, (dim_t)n2, (dim_t)n1,
	    &mone, A21, (inc_t)lda, 1, &one_, A22, (inc_t)lda, 1, NULL,
	    one(&rt));
	return emb_dchol_blis(n2, A22, lda);
}

/*
 * Solve the symmetric positive definite system A X = B (A d x d, B d x m,
 * both row-major).  A falls back to the minimum-norm least-squares
 * solution (dgelsd, singular values below eps times the largest dropped,
 * as scipy.linalg.lstsq) when it is not positive definite.  A and B are
 * overwritten; the solution is in B.
 */
static int
spdsolve(double *A, double *B, size_t d, size_t m)
{
	int n = (int)d, nrhs = (int)m, info = 0, rank, lwork, *iwork = NULL;
	double *Bt = NULL, *s = NULL, *work = NULL, *diag, wq;
	double rcond = DBL_EPSILON, one_ = 1;
	rntm_t rt;
	int liwork, nlvl, rc = EMB_ENOMEM;

	/* The factorization keeps the strict upper triangle: the diagonal
	 * is all it takes to restore A for the fallback. */
	if ((diag = malloc(d * sizeof(*diag))) == NULL)
		return EMB_ENOMEM;
	for (size_t i = 0; i < d; i++)
		diag[i] = A[i * d + i];
	if (emb_dchol_blis(d, A, d) == 0) {
		/* L Z = B, then L' X = Z. */
		bli_dtrsm_ex(BLIS_LEFT, BLIS_LOWER, BLIS_NO_TRANSPOSE,
		    BLIS_NONUNIT_DIAG, (dim_t)d, (dim_t)m, &one_, A,
		    (inc_t)d, 1, B, (inc_t)m, 1, NULL, one(&rt));
		bli_dtrsm_ex(BLIS_LEFT, BLIS_LOWER, BLIS_TRANSPOSE,
		    BLIS_NONUNIT_DIAG, (dim_t)d, (dim_t)m, &one_, A,
		    (inc_t)d, 1, B, (inc_t)m, 1, NULL, one(&rt));
		free(diag);
		return 0;
	}
	for (size_t i = 0; i < d; i++) {
		A[i * d + i] = diag[i];
		for (size_t j = 0; j < i; j++)
			A[i * d + j] = A[j * d + i];
	}
	/* Column-major right-hand sides are the rows of B'. */
	if ((Bt = malloc(d * m * sizeof(*Bt))) == NULL)
		goto out;
	for (size_t i = 0; i < d; i++)
		for (size_t j = 0; j < m; j++)
			Bt[j * d + i] = B[i * m + j];
	nlvl = 1 + (int)log2((double)n / 26.0 + 1);
	if (nlvl < 1)
		nlvl = 1;
	liwork = 3 * n * nlvl + 11 * n;
	s = malloc(d * sizeof(*s));
	iwork = malloc((size_t)liwork * sizeof(*iwork));
	if (s == NULL || iwork == NULL)
		goto out;
	lwork = -1;
	dgelsd_(&n, &n, &nrhs, A, &n, Bt, &n, s, &rcond, &rank, &wq, &lwork,
	    iwork, &info);
	lwork = (int)wq;
	if ((work = malloc((size_t)(lwork > 1 ? lwork : 1) *
	    sizeof(*work))) == NULL)
		goto out;
	dgelsd_(&n, &n, &nrhs, A, &n, Bt, &n, s, &rcond, &rank, work, &lwork,
	    iwork, &info);
	if (info != 0) {
		rc = EMB_ENOSOL;
		goto out;
	}
	for (size_t i = 0; i < d; i++)
		for (size_t j = 0; j < m; j++)
			B[i * m + j] = Bt[j * d + i];
	rc = 0;
out:
	free(work);
	free(iwork);
	free(s);
	free(Bt);
	free(diag);
	return rc;
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
static int
linalloc(struct emb_clf *c, int nout)
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

/*
 * Nearest centroid: argmin |x - m_c|^2 = argmax 2 x.m_c - |m_c|^2.
 */
static int
fit_centroid(struct emb_clf *c, const float *X, size_t n, const int *y)
{
	size_t d = c->d, *cnt;
	double *mean;
	int rc;

	if ((rc = linalloc(c, c->ncls)) < 0)
		return rc;
	cnt = malloc(c->ncls * sizeof(*cnt));
	mean = malloc((size_t)c->ncls * d * sizeof(*mean));
	if (cnt == NULL || mean == NULL) {
		free(cnt);
		free(mean);
		return EMB_ENOMEM;
	}
	classmeans(X, n, d, y, c->ncls, cnt, mean);
	for (int k = 0; k < c->ncls; k++) {
		double nn = 0;

		for (size_t j = 0; j < d; j++) {
			double v = mean[(size_t)k * d + j];

			c->W[j * c->ncls + k] = 2 * v;
			nn += v * v;
		}
		c->b[k] = cnt[k] ? -nn : -INFINITY;
	}
	free(cnt);
	free(mean);
	return 0;
}

/*
 * Linear discriminant analysis (lsqr solver).
 */

/* C = alpha A'A for A m x d (row-major), both triangles of C filled. */
static void
syrk_tn(size_t d, size_t m, double alpha, const double *A, double *C)
{
	syrk_up(d, m, alpha, A, 0, C);
	for (size_t i = 0; i < d; i++)
		for (size_t j = 0; j < i; j++)
			C[i * d + j] = C[j * d + i];
}

/*
 * The Ledoit-Wolf shrinkage of m standardized rows of dimension d from
 * the sums it takes: beta_ the sum over rows of |z_i|^4, tr the mean of
 * |z_i|^2, delta_ = |E|_F^2 for the empirical covariance E = Z'Z / m.
 */
static double
lwshrink(double beta_, double tr, double delta_, size_t m, size_t d)
{
	double mu, beta, delta;

	mu = tr / (double)d;
	beta = 1.0 / ((double)d * m) * (beta_ / (double)m - delta_);
	delta = (delta_ - 2.0 * mu * tr + (double)d * mu * mu) / (double)d;
	if (beta > delta)
		beta = delta;
	return beta == 0 ? 0 : beta / delta;
}

/* Ledoit-Wolf shrinkage of the standardized class data Z (m x d), given
 * its empirical covariance E = Z'Z / m. */
static double
ledoitwolf(const double *Z, const double *E, size_t m, size_t d)
{
	double beta_ = 0, delta_ = 0, tr = 0;

	if (d == 1)
		return 0;
	for (size_t i = 0; i < m; i++) {
		double r = 0;

		for (size_t j = 0; j < d; j++)
			r += Z[i * d + j] * Z[i * d + j];
		beta_ += r * r;
		tr += r;
	}
	tr /= (double)m;	/* sum of the per-feature mean squares */
	for (size_t j = 0; j < d * d; j++)
		delta_ += E[j] * E[j];
	return lwshrink(beta_, tr, delta_, m, d);
}

/* The same from the Gram matrix G = Z Z' (m x m): |Z'Z|_F = |Z Z'|_F. */
static double
ledoitwolf_gram(const double *G, size_t m, size_t d)
{
	double beta_ = 0, delta_ = 0, tr = 0;

	if (d == 1)
		return 0;
	for (size_t i = 0; i < m; i++) {
		double r = G[i * m + i];

		beta_ += r * r;
		tr += r;
	}
	tr /= (double)m;
	for (size_t j = 0; j < m * m; j++)
		delta_ += G[j] * G[j];
	delta_ /= (double)m * (double)m;
	return lwshrink(beta_, tr, delta_, m, d);
}

/*
 * The fits of LDA and ridge go through the n x n dual when there are
 * fewer rows than dimensions (o.dual 0), always (1) or never (-1): the
 * d x d primal costs d^2 memory and d^3 time whatever n is.  LDA without
 * shrinkage takes the dual also while n < d + K: the within-class
 * scatter then has rank at most n - K < d, and only the dual's
 * pseudo-inverse solves it (a Cholesky of the singular primal succeeds
 * on rounding and gives scores of 1e16).
 */
static int
usedual(const struct emb_clf *c, size_t n)
{
	int noshrink = c->o.kind == EMB_CLF_LDA &&
	    (c->o.shrinkage == EMB_SHRINK_NONE || c->o.shrinkage == 0);

	if (c->o.dual != 0)
		return c->o.dual > 0;
	return n < c->d || (noshrink && n < c->d + (size_t)c->ncls);
}

/*
 * B = pinv(G)^p B for the symmetric positive semidefinite G (n x n,
 * overwritten) and B (n x m): eigenvalues of G at most max(n, d) eps
 * times the largest are taken as zero (numpy's matrix_rank tolerance;
 * the rounding of a Gram matrix of length-d rows lies below it).
 */
static int
psdpinv(double *G, size_t n, double *B, size_t m, int p, size_t d)
{
	int nn = (int)n, lwork = -1, info = 0;
	double *w, *T, *work = NULL, wq, tol;
	int rc = EMB_ENOMEM;

	w = malloc(n * sizeof(*w));
	T = malloc(n * m * sizeof(*T));
	if (w == NULL || T == NULL)
		goto out;
	dsyev_("V", "U", &nn, G, &nn, w, &wq, &lwork, &info);
	lwork = (int)wq;
	if ((work = malloc((size_t)(lwork > 1 ? lwork : 1) *
	    sizeof(*work))) == NULL)
		goto out;
	dsyev_("V", "U", &nn, G, &nn, w, work, &lwork, &info);
	if (info != 0) {
		rc = EMB_ENOSOL;
		goto out;
	}
	/* Column j of the column-major Q is row j of G here: T = Q' B. */
	dgemm(0, 0, n, m, n, 1, G, n, B, m, 0, T, m);
	tol = (double)(n > d ? n : d) * DBL_EPSILON * w[n - 1];
	for (size_t j = 0; j < n; j++) {
		double f = w[j] > tol ? 1 / w[j] : 0;

		if (p == 2)
			f *= f;
		for (size_t k = 0; k < m; k++)
			T[j * m + k] *= f;
	}
	dgemm(1, 0, n, m, n, 1, G, n, T, m, 0, B, m);
	rc = 0;
out:
	free(w);
	free(T);
	free(work);
	return rc;
}

/* The largest of the K class counts. */
static size_t
maxcount(const size_t *cnt, int K)
{
	size_t m = 0;

	for (int k = 0; k < K; k++)
		if (cnt[k] > m)
			m = cnt[k];
	return m;
}

/* The K x d means transposed into rhs (d x K). */
static void
transpose(const double *mean, int K, size_t d, double *rhs)
{
	for (size_t j = 0; j < d; j++)
		for (int k = 0; k < K; k++)
			rhs[j * K + k] = mean[(size_t)k * d + j];
}

/*
 * "auto": the class's centred rows Z (m x d) divided by their standard
 * deviations, which go to scale (StandardScaler leaves a constant
 * feature, scale 1).
 */
static void
standardize(double *Z, size_t m, size_t d, double *scale)
{
	for (size_t j = 0; j < d; j++) {
		double v = 0;

		for (size_t i = 0; i < m; i++)
			v += Z[i * d + j] * Z[i * d + j];
		v = sqrt(v / (double)m);
		scale[j] = v < 10 * DBL_EPSILON ? 1 : v;
	}
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < d; j++)
			Z[i * d + j] /= scale[j];
}

/*
 * LDA in the primal: S (d x d) summed class by class, S W = M' solved.
 * rhs (d x K) receives W; it serves as d values of scratch before.
 */
static int
lda_primal(struct emb_clf *c, const float *X, size_t n, const int *y,
    const size_t *cnt, const double *mean, double *rhs)
{
	size_t d = c->d, maxm = maxcount(cnt, c->ncls);
	int K = c->ncls, rc = EMB_ENOMEM;
	double *cov = NULL, *Z = NULL, *E = NULL;
	double shr = c->o.shrinkage;
	size_t *rows = NULL;

	cov = calloc(d * d, sizeof(*cov));
	E = emb_alloc(d * d * sizeof(*E));
	rows = malloc(n * sizeof(*rows));
	if (!cov || !E || !rows)
		goto out;
	if ((Z = emb_alloc(maxm * d * sizeof(*Z))) == NULL)
		goto out;
	for (int k = 0; k < K; k++) {
		size_t m = 0;
		double prior = (double)cnt[k] / (double)n, s = 0, mu = 0;
		double *scale = rhs;	/* d scratch values, used before rhs */

		if (cnt[k] == 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (y[i] == k)
				rows[m++] = i;
		/* Z = the class's rows minus their mean. */
		for (size_t i = 0; i < m; i++)
			for (size_t j = 0; j < d; j++)
				Z[i * d + j] = X[rows[i] * d + j] -
				    mean[(size_t)k * d + j];
		if (shr == EMB_SHRINK_AUTO)
			standardize(Z, m, d, scale);
		/* E = Z'Z / m, the empirical covariance. */
		syrk_tn(d, m, 1.0 / (double)m, Z, E);
		if (shr == EMB_SHRINK_AUTO) {
			s = ledoitwolf(Z, E, m, d);
			for (size_t j = 0; j < d; j++)
				mu += E[j * d + j];
			mu /= (double)d;
			/* Rescale: D ((1-s) E + s mu I) D. */
			for (size_t i = 0; i < d; i++)
				for (size_t j = 0; j < d; j++)
					E[i * d + j] *= scale[i] * scale[j];
			for (size_t i = 0; i < d; i++)
				for (size_t j = 0; j < d; j++)
					cov[i * d + j] += prior * ((1 - s) *
					    E[i * d + j] + (i == j ? s * mu *
					    scale[i] * scale[i] : 0));
		} else {
			s = shr == EMB_SHRINK_NONE ? 0 : shr;
			for (size_t j = 0; j < d; j++)
				mu += E[j * d + j];
			mu /= (double)d;
			for (size_t i = 0; i < d; i++)
				for (size_t j = 0; j < d; j++)
					cov[i * d + j] += prior * ((1 - s) *
					    E[i * d + j] + (i == j ? s * mu :
					    0));
		}
	}
	/* coef' = cov^-1 mean': d x K. */
	transpose(mean, K, d, rhs);
	rc = spdsolve(cov, rhs, d, K);
out:
	free(cov);
	emb_free(E);
	emb_free(Z);
	free(rows);
	return rc;
}

/*
 * LDA in the dual.  With D_c the class's scaling (the identity unless
 * "auto"), s_c its shrinkage and mu_c the mean diagonal of its
 * (standardized) covariance E_c, the primal's S is
 *   sum_c prior_c ((1 - s_c) D_c E_c D_c + s_c mu_c D_c^2) = R'R + L,
 * where row i of R is sqrt((1 - s_c) / n) (x_i - m_c), since
 * prior_c D_c E_c D_c = Z_c'Z_c / n, and L = sum_c prior_c s_c mu_c D_c^2
 * is diagonal: positive everywhere or zero (D_c > 0).  With L > 0 and
 * U = R L^-1/2, Woodbury's identity gives
 *   S^-1 = L^-1/2 (I - U' (I + U U')^-1 U) L^-1/2,
 * an n x n system; with L = 0, S = R'R and its pseudo-inverse is
 * R' pinv(R R')^2 R.  s_c takes |E_c|_F from the class's Gram matrix.
 */
static int
lda_dual(struct emb_clf *c, const float *X, size_t n, const int *y,
    const size_t *cnt, const double *mean, double *rhs)
{
	size_t d = c->d, off = 0, maxm = maxcount(cnt, c->ncls);
	int K = c->ncls, rc = EMB_ENOMEM, pos = 1;
	double *R = NULL, *L = NULL, *scale = NULL, *Gk = NULL, *G = NULL;
	double *P = NULL, shr = c->o.shrinkage;

	R = emb_alloc(n * d * sizeof(*R));
	L = calloc(d, sizeof(*L));
	scale = malloc(d * sizeof(*scale));
	G = emb_alloc(n * n * sizeof(*G));
	P = malloc(n * K * sizeof(*P));
	if (shr == EMB_SHRINK_AUTO)
		Gk = emb_alloc(maxm * maxm * sizeof(*Gk));
	if (!R || !L || !scale || !G || !P ||
	    (shr == EMB_SHRINK_AUTO && !Gk))
		goto out;
	/* R: the rows class by class, centred, standardized for "auto". */
	for (int k = 0; k < K; k++) {
		double prior = (double)cnt[k] / (double)n, s, mu = 0, wt;
		double *Z = R + off * d;
		const double *mk = mean + (size_t)k * d;
		size_t m = 0;

		if (cnt[k] == 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (y[i] == k) {
				for (size_t j = 0; j < d; j++)
					Z[m * d + j] = X[i * d + j] - mk[j];
				m++;
			}
		for (size_t j = 0; j < d; j++)
			scale[j] = 1;
		if (shr == EMB_SHRINK_AUTO) {
			standardize(Z, m, d, scale);
			dgemm(0, 1, m, m, d, 1, Z, d, Z, d, 0, Gk, m);
			s = ledoitwolf_gram(Gk, m, d);
			for (size_t i = 0; i < m; i++)
				mu += Gk[i * m + i];
			/* Back to the centred rows, as computed above. */
			for (size_t i = 0, r = 0; i < n; i++)
				if (y[i] == k) {
					for (size_t j = 0; j < d; j++)
						Z[r * d + j] = X[i * d + j] -
						    mk[j];
					r++;
				}
		} else {
			s = shr == EMB_SHRINK_NONE ? 0 : shr;
			for (size_t j = 0; j < m * d; j++)
				mu += Z[j] * Z[j];
		}
		mu /= (double)m * (double)d;
		for (size_t j = 0; j < d; j++)
			L[j] += prior * s * mu * scale[j] * scale[j];
		wt = sqrt((1 - s) / (double)n);
		for (size_t j = 0; j < m * d; j++)
			Z[j] *= wt;
		off += m;
	}
	for (size_t j = 0; j < d; j++)
		if (!(L[j] > 0))
			pos = 0;
	if (pos) {
		/* V = L^-1/2 M' into rhs, U = R L^-1/2 in place of R. */
		transpose(mean, K, d, rhs);
		for (size_t j = 0; j < d; j++) {
			double f = 1 / sqrt(L[j]);

			for (int k = 0; k < K; k++)
				rhs[j * K + k] *= f;
			for (size_t i = 0; i < n; i++)
				R[i * d + j] *= f;
		}
		/* (I + U U') Q = U V, then W = L^-1/2 (V - U' Q). */
		dgemm(0, 1, n, n, d, 1, R, d, R, d, 0, G, n);
		for (size_t i = 0; i < n; i++)
			G[i * n + i] += 1;
		dgemm(0, 0, n, K, d, 1, R, d, rhs, K, 0, P, K);
		if ((rc = spdsolve(G, P, n, K)) < 0)
			goto out;
		dgemm(1, 0, d, K, n, -1, R, d, P, K, 1, rhs, K);
		for (size_t j = 0; j < d; j++)
			for (int k = 0; k < K; k++)
				rhs[j * K + k] /= sqrt(L[j]);
	} else {
		/* W = R' pinv(R R')^2 R M'. */
		transpose(mean, K, d, rhs);
		dgemm(0, 1, n, n, d, 1, R, d, R, d, 0, G, n);
		dgemm(0, 0, n, K, d, 1, R, d, rhs, K, 0, P, K);
		if ((rc = psdpinv(G, n, P, K, 2, d)) < 0)
			goto out;
		dgemm(1, 0, d, K, n, 1, R, d, P, K, 0, rhs, K);
	}
	rc = 0;
out:
	emb_free(R);
	free(L);
	free(scale);
	emb_free(Gk);
	emb_free(G);
	free(P);
	return rc;
}

static int
fit_lda(struct emb_clf *c, const float *X, size_t n, const int *y)
{
	size_t d = c->d, *cnt;
	int K = c->ncls, rc = EMB_ENOMEM;
	double *mean = NULL, *rhs = NULL;

	if ((rc = linalloc(c, K)) < 0)
		return rc;
	rc = EMB_ENOMEM;
	cnt = malloc(K * sizeof(*cnt));
	mean = malloc((size_t)K * d * sizeof(*mean));
	rhs = malloc(d * K * sizeof(*rhs));
	if (!cnt || !mean || !rhs)
		goto out;
	classmeans(X, n, d, y, K, cnt, mean);
	if (usedual(c, n))
		rc = lda_dual(c, X, n, y, cnt, mean, rhs);
	else
		rc = lda_primal(c, X, n, y, cnt, mean, rhs);
	if (rc < 0)
		goto out;
	for (int k = 0; k < K; k++) {
		double dot = 0;

		for (size_t j = 0; j < d; j++) {
			c->W[j * K + k] = rhs[j * K + k];
			dot += mean[(size_t)k * d + j] * rhs[j * K + k];
		}
		c->b[k] = cnt[k] ? -0.5 * dot + log((double)cnt[k] /
		    (double)n) : -INFINITY;
		if (cnt[k] == 0)
			for (size_t j = 0; j < d; j++)
				c->W[j * K + k] = 0;
	}
	if (K == 2) {
		/* scikit-learn's two-class form: one column, class 1 - 0. */
		for (size_t j = 0; j < d; j++)
			c->W[j] = c->W[2 * j + 1] - c->W[2 * j];
		c->b[0] = c->b[1] - c->b[0];
		c->nout = 1;
	}
	rc = 0;
out:
	free(cnt);
	free(mean);
	free(rhs);
	return rc;
}

/*
 * Ridge classifier.
 */
#define RBLK	512	/* rows per block of the ridge Gram matrix */
#define RLANES	4	/* lanes of it at most */

/* The ridge Gram matrix, lane by lane. */
struct gram {
	const float	*X;		/* the rows */
	const double	*xm;		/* their mean */
	size_t		 d;
	double		*G[RLANES];	/* per lane: its Xc'Xc, upper */
	double		*Xb[RLANES];	/* per worker: a centred block */
};

static void
gramlane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct gram *g = arg;
	size_t d = g->d;
	double *Xb = g->Xb[w];

	if (r0 == r1)
		memset(g->G[lane], 0, d * d * sizeof(double));
	for (size_t i0 = r0; i0 < r1; i0 += RBLK) {
		size_t r = r1 - i0 < RBLK ? r1 - i0 : RBLK;

		for (size_t i = 0; i < r; i++)
			for (size_t j = 0; j < d; j++)
				Xb[i * d + j] = g->X[(i0 + i) * d + j] -
				    g->xm[j];
		syrk_up(d, r, 1, Xb, i0 > r0 ? 1 : 0, g->G[lane]);
	}
}

/*
 * Ridge in the dual: with Xc the centred rows and T the centred targets,
 * (Xc'Xc + a I)^-1 Xc' = Xc' (Xc Xc' + a I)^-1, so W = Xc' Q with
 * (Xc Xc' + a I) Q = T, an n x n system (a = 0: the pseudo-inverse, the
 * minimum-norm solution of the primal).
 */
static int
ridge_dual(struct emb_clf *c, const float *X, size_t n, const int *y,
    const double *xm, const double *ym)
{
	size_t d = c->d;
	int nout = c->nout, rc = EMB_ENOMEM;
	double *Xc, *G, *T;

	Xc = emb_alloc(n * d * sizeof(*Xc));
	G = emb_alloc(n * n * sizeof(*G));
	T = malloc(n * nout * sizeof(*T));
	if (Xc == NULL || G == NULL || T == NULL)
		goto out;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < d; j++)
			Xc[i * d + j] = X[i * d + j] - xm[j];
		for (int k = 0; k < nout; k++)
			T[i * nout + k] = (y[i] == (nout == 1 ? 1 : k) ? 1 :
			    -1) - ym[k];
	}
	dgemm(0, 1, n, n, d, 1, Xc, d, Xc, d, 0, G, n);
	if (c->o.alpha > 0) {
		for (size_t i = 0; i < n; i++)
			G[i * n + i] += c->o.alpha;
		rc = spdsolve(G, T, n, nout);
	} else
		rc = psdpinv(G, n, T, nout, 1, d);
	if (rc < 0)
		goto out;
	dgemm(1, 0, d, nout, n, 1, Xc, d, T, nout, 0, c->W, nout);
	rc = 0;
out:
	emb_free(Xc);
	emb_free(G);
	free(T);
	return rc;
}

static int
fit_ridge(struct emb_clf *c, const float *X, size_t n, const int *y)
{
	size_t d = c->d, *cnt = NULL, nl = lanes(n, RBLK, RLANES);
	int K = c->ncls, nout = K > 2 ? K : 1, rc, nt, nw;
	double *A = NULL, *xm = NULL, *ym = NULL, *sum = NULL;
	struct gram g;

	if ((rc = linalloc(c, nout)) < 0)
		return rc;
	rc = EMB_ENOMEM;
	memset(&g, 0, sizeof(g));
	xm = calloc(d, sizeof(*xm));
	ym = calloc(nout, sizeof(*ym));
	cnt = malloc(K * sizeof(*cnt));
	sum = malloc((size_t)K * d * sizeof(*sum));
	if (!xm || !ym || !cnt || !sum)
		goto out;
	/* Class sums (classmeans divides; undo it) and the data mean. */
	classmeans(X, n, d, y, K, cnt, sum);
	for (int k = 0; k < K; k++)
		for (size_t j = 0; j < d; j++) {
			sum[(size_t)k * d + j] *= (double)cnt[k];
			xm[j] += sum[(size_t)k * d + j];
		}
	for (size_t j = 0; j < d; j++)
		xm[j] /= (double)n;
	/*
	 * Targets t = +1 / -1, centred: Xc'Tc = Xc'T, and since the columns
	 * of Xc sum to zero, column k of Xc'T is 2 (S_k - n_k xm), S_k the
	 * sum of class k's rows (class 1's for the one binary column).  The
	 * column means of T: (2 n_k - n) / n.
	 */
	for (int k = 0; k < nout; k++) {
		int cl = nout == 1 ? 1 : k;
		double nk = (double)cnt[cl];

		for (size_t j = 0; j < d; j++)
			c->W[j * nout + k] = 2 * (sum[(size_t)cl * d + j] -
			    nk * xm[j]);
		ym[k] = (2 * nk - (double)n) / (double)n;
	}
	if (usedual(c, n)) {
		if ((rc = ridge_dual(c, X, n, y, xm, ym)) < 0)
			goto out;
		goto intercept;
	}
	nt = threadsfor(&c->o, (double)n * d * d / 2);
	nw = emb_par_workers(nt, nl);
	for (int t = 0; t < nw; t++)
		if ((g.Xb[t] = emb_alloc((n < RBLK ? n : RBLK) * d *
		    sizeof(double))) == NULL)
			goto out;
	for (size_t l = 0; l < nl; l++)
		if ((g.G[l] = emb_alloc(d * d * sizeof(double))) == NULL)
			goto out;
	A = g.G[0];
	/*
	 * A = Xc'Xc (upper triangle), a block of centred rows at a time (no
	 * n x d copy of the data), the lanes' parts summed in lane order.
	 */
	g.X = X;
	g.xm = xm;
	g.d = d;
	emb_par_run(nt, n, nl, gramlane, &g);
	for (size_t l = 1; l < nl; l++)
		for (size_t i = 0; i < d; i++)
			for (size_t j = i; j < d; j++)
				A[i * d + j] += g.G[l][i * d + j];
	for (size_t i = 0; i < d; i++) {
		A[i * d + i] += c->o.alpha;
		for (size_t j = 0; j < i; j++)
			A[i * d + j] = A[j * d + i];
	}
	if ((rc = spdsolve(A, c->W, d, nout)) < 0)
		goto out;
intercept:
	for (int k = 0; k < nout; k++) {
		double t = 0;

		for (size_t j = 0; j < d; j++)
			t += xm[j] * c->W[j * nout + k];
		c->b[k] = ym[k] - t;
	}
	rc = 0;
out:
	for (int l = 0; l < RLANES; l++) {
		emb_free(g.Xb[l]);
		emb_free(g.G[l]);
	}
	free(xm);
	free(ym);
	free(cnt);
	free(sum);
	return rc;
}

/*
 * Logistic regression by L-BFGS on the mean loss
 *   f = (1/n) sum_i (logsumexp(z_i) - z_i,y_i) + |W|^2 / (2 C n),
 * z_i = x_i W + b.  With two classes, class 0's score is pinned at 0 and
 * only class 1's column is free: the binary model of scikit-learn.
 *
 * Along a search direction p = [P, pb], the scores at the step t are
 * X W + t X P + b + t pb: with Zc = X W kept from the last point and
 * Zp = X P formed once per direction, every trial of the line search costs
 * O(n K), its slope g.p being sum_ik R_ik (Zp_ik + pb_k) + W.P / (C n),
 * where R = (softmax - one-hot) / n.  The gradient's product X'R is formed
 * only at the point the search accepts: two products of n x d x K per
 * iteration, however many trials.
 */
#define LLANES	16	/* lanes of the loss at most */
#define LROWS	256	/* rows per lane at least */

struct lrdata {
	const double	*X;		/* n x d */
	const int	*y;
	size_t		 n, d;
	int		 K, nf;		/* classes, free columns */
	double		 lam;		/* 1 / (C n) */
	int		 nt;		/* threads */
	size_t		 nl;		/* lanes */
	double		*Zc;		/* X W at the current point, n x nf */
	double		*Zp;		/* X P along the direction */
	double		*Zt;		/* X W at the trial point */
	double		*R;		/* (softmax - one-hot) / n there */
	const double	*M;		/* lrprod: the d x nf factor */
	double		*out;		/* lrprod: X M */
	const double	*bt;		/* lrloss: the trial's intercepts */
	const double	*pb;		/* their direction, NULL: no step */
	double		 t;		/* the step */
	double		*part;		/* per lane: loss, slope, gradient */
};

#define LRPART(L)	(2 + (L)->d * (L)->nf + (L)->nf)

static void
prodlane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct lrdata *L = arg;

	(void)w;
	(void)lane;
	dgemm(0, 0, r1 - r0, L->nf, L->d, 1, L->X + r0 * L->d, L->d, L->M,
	    L->nf, 0, L->out + r0 * L->nf, L->nf);
}

/* out = X M, lane by lane. */
static void
lrprod(struct lrdata *L, const double *M, double *out)
{
	L->M = M;
	L->out = out;
	emb_par_run(L->nt, L->n, L->nl, prodlane, L);
}

/* One lane's loss (times n) and slope at the trial; R and Zt there. */
static void
losslane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct lrdata *L = arg;
	size_t n = L->n;
	int nf = L->nf, K = L->K;
	double *P = L->part + lane * LRPART(L), f = 0, sl = 0;

	(void)w;
	for (size_t i = r0; i < r1; i++) {
		const double *zc = L->Zc + i * nf, *zp = L->Zp + i * nf;
		double *z = L->R + i * nf, *zt = L->Zt + i * nf;
		double mx = 0, s = 0, zy;
		int y = L->y[i];

		for (int k = 0; k < nf; k++) {
			z[k] = L->pb ? (zt[k] = zc[k] + L->t * zp[k]) : zc[k];
			z[k] += L->bt[k];
		}
		/* Full logits: z, or (0, z) for the binary model. */
		if (nf == K) {
			mx = z[0];
			for (int k = 1; k < K; k++)
				if (z[k] > mx)
					mx = z[k];
		} else
			mx = z[0] > 0 ? z[0] : 0;
		zy = nf == K ? z[y] : (y == 1 ? z[0] : 0);
		if (nf < K)
			s = exp(-mx);
		for (int k = 0; k < nf; k++)
			s += (z[k] = exp(z[k] - mx));
		f += mx + log(s) - zy;
		/* Softmax minus one-hot, divided by n. */
		for (int k = 0; k < nf; k++) {
			int cls = nf == K ? k : 1;

			z[k] = (z[k] / s - (y == cls)) / (double)n;
			if (L->pb)
				sl += z[k] * (zp[k] + L->pb[k]);
		}
	}
	P[0] = f;
	P[1] = sl;
}

/*
 * f at the trial thn = th + t p (p NULL: thn itself, scores Zc), and its
 * slope g.p into *slope.
 */
static double
lrloss(struct lrdata *L, const double *thn, const double *p, double t,
    double *slope)
{
	size_t d = L->d, nw = d * L->nf;
	double f = 0, sl = 0, reg = 0, wp = 0;

	L->bt = thn + nw;
	L->pb = p ? p + nw : NULL;
	L->t = t;
	emb_par_run(L->nt, L->n, L->nl, losslane, L);
	for (size_t l = 0; l < L->nl; l++) {
		f += L->part[l * LRPART(L)];
		sl += L->part[l * LRPART(L) + 1];
	}
	for (size_t j = 0; j < nw; j++) {
		reg += thn[j] * thn[j];
		if (p)
			wp += thn[j] * p[j];
	}
	if (slope)
		*slope = sl + L->lam * wp;
	return f / (double)L->n + 0.5 * L->lam * reg;
}

/* One lane's share of X'R and of R's column sums. */
static void
gradlane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct lrdata *L = arg;
	size_t d = L->d;
	int nf = L->nf;
	double *P = L->part + lane * LRPART(L) + 2;

	(void)w;
	dgemm(1, 0, d, nf, r1 - r0, 1, L->X + r0 * d, d, L->R + r0 * nf, nf,
	    0, P, nf);
	for (int k = 0; k < nf; k++)
		P[d * nf + k] = 0;
	for (size_t i = r0; i < r1; i++)
		for (int k = 0; k < nf; k++)
			P[d * nf + k] += L->R[i * nf + k];
}

/* The gradient g at th, from R of the last lrloss there. */
static void
lrgrad(struct lrdata *L, const double *th, double *g)
{
	size_t nw = L->d * L->nf, np = nw + L->nf;

	emb_par_run(L->nt, L->n, L->nl, gradlane, L);
	memset(g, 0, np * sizeof(*g));
	for (size_t l = 0; l < L->nl; l++)
		for (size_t j = 0; j < np; j++)
			g[j] += L->part[l * LRPART(L) + 2 + j];
	for (size_t j = 0; j < nw; j++)
		g[j] += L->lam * th[j];
}

static double
dot(const double *a, const double *b, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

#define LBFGS_M	10

static int
fit_logreg(struct emb_clf *c, const float *X, size_t n, const int *y)
{
	struct lrdata L;
	size_t d = c->d, np;
	int K = c->ncls, nf = K > 2 ? K : 1, rc = EMB_ENOMEM, head = 0, have = 0;
	double *buf = NULL, *th, *g, *p, *thn, *gn, *S, *Yv, rho[LBFGS_M];
	double alpha[LBFGS_M], f, fn, gmax;

	if ((rc = linalloc(c, nf)) < 0)
		return rc;
	np = d * nf + nf;
	L.d = d;
	L.nf = nf;
	L.nl = lanes(n, LROWS, LLANES);
	L.X = todouble(X, n, d, threadsfor(&c->o, 16.0 * n * d));
	L.Zc = emb_alloc(n * nf * sizeof(double));
	L.Zp = emb_alloc(n * nf * sizeof(double));
	L.Zt = emb_alloc(n * nf * sizeof(double));
	L.R = emb_alloc(n * nf * sizeof(double));
	L.part = malloc(L.nl * LRPART(&L) * sizeof(double));
	buf = calloc(np * (5 + 2 * LBFGS_M), sizeof(double));
	if (L.X == NULL || L.Zc == NULL || L.Zp == NULL || L.Zt == NULL ||
	    L.R == NULL || L.part == NULL || buf == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	L.y = y;
	L.n = n;
	L.K = K;
	L.lam = 1.0 / (c->o.C * (double)n);
	L.nt = threadsfor(&c->o, 2.0 * n * d * nf);
	th = buf;
	g = th + np;
	p = g + np;
	thn = p + np;
	gn = thn + np;
	S = gn + np;
	Yv = S + np * LBFGS_M;
	lrprod(&L, th, L.Zc);
	f = lrloss(&L, th, NULL, 0, NULL);
	lrgrad(&L, th, g);
	for (c->iters = 0; c->iters < c->o.maxiter; c->iters++) {
		double t, gp, lo = 0, hi = INFINITY;
		int ls;

		gmax = 0;
		for (size_t j = 0; j < np; j++)
			if (fabs(g[j]) > gmax)
				gmax = fabs(g[j]);
		if (gmax <= c->o.tol)
			break;
		/* Two-loop recursion: p = -H g. */
		for (size_t j = 0; j < np; j++)
			p[j] = -g[j];
		for (int i = 0; i < have; i++) {
			int s = (head - 1 - i + LBFGS_M) % LBFGS_M;

			alpha[s] = rho[s] * dot(S + s * np, p, np);
			for (size_t j = 0; j < np; j++)
				p[j] -= alpha[s] * Yv[s * np + j];
		}
		if (have > 0) {
			int s = (head - 1 + LBFGS_M) % LBFGS_M;
			double gam = dot(S + s * np, Yv + s * np, np) /
			    dot(Yv + s * np, Yv + s * np, np);

			for (size_t j = 0; j < np; j++)
				p[j] *= gam;
		}
		for (int i = have - 1; i >= 0; i--) {
			int s = (head - 1 - i + LBFGS_M) % LBFGS_M;
			double beta = rho[s] * dot(Yv + s * np, p, np);

			for (size_t j = 0; j < np; j++)
				p[j] += (alpha[s] - beta) * S[s * np + j];
		}
		gp = dot(g, p, np);
		if (gp >= 0) {	/* not a descent direction: restart */
			have = 0;
			for (size_t j = 0; j < np; j++)
				p[j] = -g[j];
			gp = dot(g, p, np);
		}
		t = have == 0 ? 1.0 / sqrt(-gp) : 1.0;
		if (have == 0 && t > 1)
			t = 1;
		/* Weak Wolfe line search by bracketing (Lewis-Overton). */
		lrprod(&L, p, L.Zp);
		for (ls = 0; ls < 60; ls++) {
			double sl;

			for (size_t j = 0; j < np; j++)
				thn[j] = th[j] + t * p[j];
			fn = lrloss(&L, thn, p, t, &sl);
			if (fn > f + 1e-4 * t * gp)
				hi = t;
			else if (sl < 0.9 * gp)
				lo = t;
			else
				break;
			t = isinf(hi) ? 2 * lo : (lo + hi) / 2;
		}
		if (ls == 60 && !(fn <= f))
			break;		/* no progress possible */
		/* Accept the last trial: its scores, then its gradient. */
		{
			double *z = L.Zc;

			L.Zc = L.Zt;
			L.Zt = z;
		}
		lrgrad(&L, thn, gn);
		{
			int s = head;
			double sy;

			for (size_t j = 0; j < np; j++) {
				S[s * np + j] = thn[j] - th[j];
				Yv[s * np + j] = gn[j] - g[j];
			}
			sy = dot(S + s * np, Yv + s * np, np);
			if (sy > 1e-300) {
				rho[s] = 1 / sy;
				head = (head + 1) % LBFGS_M;
				if (have < LBFGS_M)
					have++;
			}
		}
		memcpy(th, thn, np * sizeof(*th));
		memcpy(g, gn, np * sizeof(*g));
		if (f - fn <= 64 * DBL_EPSILON * fmax(fmax(fabs(f), fabs(fn)),
		    1)) {
			f = fn;
			break;
		}
		f = fn;
	}
	memcpy(c->W, th, d * nf * sizeof(double));
	memcpy(c->b, th + d * nf, nf * sizeof(double));
	rc = 0;
out:
	emb_free((double *)L.X);
	emb_free(L.Zc);
	emb_free(L.Zp);
	emb_free(L.Zt);
	emb_free(L.R);
	free(L.part);
	free(buf);
	return rc;
}

/*
 * The perceptron.  One generator, seeded with o.seed, draws in this order:
 * the dev split (a permutation of the rows, the first valfrac n of them
 * held out) when no dev set is given, the initial weights (uniform in
 * +-1/sqrt(fan-in), as torch.nn.Linear: W1, b1, W2, b2), and for each
 * pass a permutation of the training rows, then the dropout masks of its
 * batches.
 */
struct mlp {
	size_t		 d;
	int		 h, K;		/* hidden units (0: linear), classes */
	double		*W1, *b1;	/* d x h, h */
	double		*W2, *b2;	/* (h or d) x K, K */
	size_t		 np;		/* parameters in all */
	double		*P;		/* all parameters, contiguous */
};

static int
mlp_init(struct mlp *m, size_t d, int h, int K)
{
	size_t in2 = h ? (size_t)h : d;

	m->d = d;
	m->h = h;
	m->K = K;
	m->np = (h ? d * h + h : 0) + in2 * K + K;
	if ((m->P = calloc(m->np, sizeof(double))) == NULL)
		return EMB_ENOMEM;
	m->W1 = m->P;
	m->b1 = m->W1 + (h ? d * h : 0);
	m->W2 = m->b1 + h;
	m->b2 = m->W2 + in2 * K;
	return 0;
}

/*
 * Forward pass on m rows Xb (double): hidden activations to H (m x h),
 * scores to S (m x K).  mask (m x h, or NULL) multiplies the
 * pre-activations (dropout, already scaled by 1 / (1 - p)).
 */
static void
mlp_forward(const struct mlp *m, const double *Xb, size_t rows,
    const double *mask, double *H, double *S)
{
	size_t d = m->d, h = (size_t)m->h;
	int K = m->K;
	const double *in = Xb;

	if (h) {
		dgemm(0, 0, rows, h, d, 1, Xb, d, m->W1, h, 0, H, h);
		for (size_t i = 0; i < rows; i++)
			for (size_t j = 0; j < h; j++) {
				double a = H[i * h + j] + m->b1[j];

				if (mask)
					a *= mask[i * h + j];
				H[i * h + j] = 1 / (1 + exp(-a));
			}
		in = H;
	}
	dgemm(0, 0, rows, K, h ? h : d, 1, in, h ? h : d, m->W2, K, 0, S, K);
	for (size_t i = 0; i < rows; i++)
		for (int k = 0; k < K; k++)
			S[i * K + k] += m->b2[k];
}

/* Index of the largest of n scores, the first on ties. */
static int
argmax(const double *s, int n)
{
	int best = 0;

	for (int k = 1; k < n; k++)
		if (s[k] > s[best])
			best = k;
	return best;
}

/* Rows idx[0..cnt-1] of X (float) into Xb (double). */
static void
gather(const float *X, size_t d, const size_t *idx, size_t cnt, double *Xb)
{
	for (size_t i = 0; i < cnt; i++)
		for (size_t j = 0; j < d; j++)
			Xb[i * d + j] = X[idx[i] * d + j];
}

#define PBLK	256	/* rows per block when predicting */

/* Accuracy of the model on rows idx of X with classes y. */
static double
mlp_score(const struct mlp *m, const float *X, const int *y,
    const size_t *idx, size_t cnt, double *Xb, double *H, double *S)
{
	size_t ok = 0;

	for (size_t i0 = 0; i0 < cnt; i0 += PBLK) {
		size_t r = cnt - i0 < PBLK ? cnt - i0 : PBLK;

		gather(X, m->d, idx + i0, r, Xb);
		mlp_forward(m, Xb, r, NULL, H, S);
		for (size_t i = 0; i < r; i++)
			ok += argmax(S + i * m->K, m->K) == y[idx[i0 + i]];
	}
	return cnt ? (double)ok / (double)cnt : 0;
}

/*
 * Gradient of the summed cross-entropy of one batch (r rows in Xb, classes
 * yb) into G (laid out as m->P), without the weight decay.  H, S, dA are
 * scratch (r x h, r x K, r x h); mask as for mlp_forward.
 */
static void
mlp_grad(const struct mlp *m, const double *Xb, size_t r, const int *yb,
    const double *mask, double *H, double *S, double *dA, double *G)
{
	size_t d = m->d, h = (size_t)m->h, nin = h ? h : d;
	int K = m->K;
	double *gW1 = G, *gb1 = G + (h ? d * h : 0), *gW2 = gb1 + h;
	double *gb2 = gW2 + nin * K;

	mlp_forward(m, Xb, r, mask, H, S);
	/* S becomes dLoss/dScores: softmax minus one-hot. */
	for (size_t i = 0; i < r; i++) {
		double *s = S + i * K, mx = s[0], z = 0;

		for (int k = 1; k < K; k++)
			if (s[k] > mx)
				mx = s[k];
		for (int k = 0; k < K; k++)
			z += (s[k] = exp(s[k] - mx));
		for (int k = 0; k < K; k++)
			s[k] /= z;
		s[yb[i]] -= 1;
	}
	dgemm(1, 0, nin, K, r, 1, h ? H : Xb, nin, S, K, 0, gW2, K);
	for (int k = 0; k < K; k++) {
		double t = 0;

		for (size_t i = 0; i < r; i++)
			t += S[i * K + k];
		gb2[k] = t;
	}
	if (h == 0)
		return;
	/* Back through the sigmoid and the dropout mask. */
	dgemm(0, 1, r, h, K, 1, S, K, m->W2, K, 0, dA, h);
	for (size_t i = 0; i < r * h; i++)
		dA[i] *= H[i] * (1 - H[i]) * (mask ? mask[i] : 1);
	dgemm(1, 0, d, h, r, 1, Xb, d, dA, h, 0, gW1, h);
	for (size_t j = 0; j < h; j++) {
		double t = 0;

		for (size_t i = 0; i < r; i++)
			t += dA[i * h + j];
		gb1[j] = t;
	}
}

#define ADAM_LR		1e-3
#define ADAM_B1		0.9
#define ADAM_B2		0.999
#define ADAM_EPS	1e-8

static int
fit_mlp(struct emb_clf *c, const float *X, size_t n, const int *y,
    const float *dev, size_t ndev, const int *ydev)
{
	const struct emb_clf_opts *o = &c->o;
	struct mlp m, best;
	struct emb_rng g;
	size_t d = c->d, h = (size_t)o->nhid, ntr, nva, *idx = NULL, *vidx;
	size_t bs = (size_t)o->batch, blk = bs > PBLK ? bs : PBLK, hh;
	int K = c->ncls, rc = EMB_ENOMEM, stop = 0, count = 0, *yb = NULL;
	double *Xb = NULL, *H = NULL, *S = NULL, *mask = NULL, *G = NULL;
	double *dA = NULL, *M1 = NULL, *V1 = NULL, bestacc = -1;
	double b1t = 1, b2t = 1;
	const float *VX;
	const int *vy;

	hh = h ? h : 1;
	/* Blocks of at most the rows there are (n for a batch, n or ndev
	 * for scoring), not what the batch size declares. */
	if (blk > (n > ndev ? n : ndev))
		blk = n > ndev ? n : ndev;
	memset(&m, 0, sizeof(m));
	memset(&best, 0, sizeof(best));
	if (mlp_init(&m, d, (int)h, K) < 0 || mlp_init(&best, d, (int)h, K) < 0)
		goto out;
	idx = malloc((2 * n + ndev + 1) * sizeof(*idx));
	yb = malloc(blk * sizeof(*yb));
	Xb = emb_alloc(blk * d * sizeof(double));
	H = emb_alloc(blk * hh * sizeof(double));
	S = emb_alloc(blk * K * sizeof(double));
	mask = emb_alloc(blk * hh * sizeof(double));
	dA = emb_alloc(blk * hh * sizeof(double));
	G = calloc(m.np, sizeof(double));
	M1 = calloc(m.np, sizeof(double));
	V1 = calloc(m.np, sizeof(double));
	if (!idx || !yb || !Xb || !H || !S || !mask || !dA || !G || !M1 || !V1)
		goto out;
	emb_rng_seed(&g, o->seed);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	vidx = idx + n;
	if (dev != NULL && ndev > 0) {
		ntr = n;
		nva = ndev;
		VX = dev;
		vy = ydev;
		for (size_t i = 0; i < ndev; i++)
			vidx[i] = i;
	} else {
		/* SentEval: the first valfrac n of a permutation are dev. */
		emb_rng_perm(&g, idx, n);
		nva = (size_t)(o->valfrac * (double)n);
		if (nva == 0 || nva >= n) {
			/* Too few rows to hold any out: stop on train. */
			nva = n;
			memcpy(vidx, idx, n * sizeof(*idx));
			ntr = n;
		} else {
			ntr = n - nva;
			memcpy(vidx, idx, nva * sizeof(*idx));
			memmove(idx, idx + nva, ntr * sizeof(*idx));
		}
		VX = X;
		vy = y;
	}
	{
		double a1 = 1 / sqrt((double)d), a2 = 1 / sqrt((double)hh);
		size_t n1 = h ? d * h + h : 0;

		if (h == 0)
			a2 = a1;
		for (size_t j = 0; j < m.np; j++)
			m.P[j] = (2 * emb_rng_unif(&g) - 1) * (j < n1 ? a1 :
			    a2);
	}
	for (c->iters = 0; !stop && c->iters <= o->max_epoch;) {
		double acc;

		for (int e = 0; e < o->epoch_size; e++, c->iters++) {
			emb_rng_perm(&g, idx, ntr);
			for (size_t i0 = 0; i0 < ntr; i0 += bs) {
				size_t r = ntr - i0 < bs ? ntr - i0 : bs;
				int drop = h && o->dropout > 0;

				gather(X, d, idx + i0, r, Xb);
				for (size_t i = 0; i < r; i++)
					yb[i] = y[idx[i0 + i]];
				if (drop)
					for (size_t j = 0; j < r * h; j++)
						mask[j] = emb_rng_unif(&g) <
						    o->dropout ? 0 : 1 / (1 -
						    o->dropout);
				mlp_grad(&m, Xb, r, yb, drop ? mask : NULL, H,
				    S, dA, G);
				/* Adam with L2 weight decay, as torch. */
				b1t *= ADAM_B1;
				b2t *= ADAM_B2;
				for (size_t j = 0; j < m.np; j++) {
					double gj = G[j] + o->l2 * m.P[j];

					M1[j] = ADAM_B1 * M1[j] + (1 - ADAM_B1)
					    * gj;
					V1[j] = ADAM_B2 * V1[j] + (1 - ADAM_B2)
					    * gj * gj;
					m.P[j] -= ADAM_LR / (1 - b1t) * M1[j] /
					    (sqrt(V1[j]) / sqrt(1 - b2t) +
					    ADAM_EPS);
				}
			}
		}
		acc = mlp_score(&m, VX, vy, vidx, nva, Xb, H, S);
		if (acc > bestacc) {
			bestacc = acc;
			memcpy(best.P, m.P, m.np * sizeof(double));
		} else {
			/* SentEval's rule: the count is never reset. */
			if (count >= o->tenacity)
				stop = 1;
			count++;
		}
	}
	rc = 0;
	c->W1 = best.P;		/* the whole parameter block */
	best.P = NULL;
out:
	free(m.P);
	free(best.P);
	free(idx);
	free(yb);
	emb_free(Xb);
	emb_free(H);
	emb_free(S);
	emb_free(mask);
	emb_free(dA);
	free(G);
	free(M1);
	free(V1);
	return rc;
}

/*
 * k nearest neighbours by cosine similarity: unit copies of the
 * references, blocked sgemm against unit queries, a running top-k per
 * query (ties to the earlier reference), then a vote.
 */
static void
unitrows(float *dst, const float *src, size_t n, size_t d)
{
	for (size_t i = 0; i < n; i++) {
		double s = 0;

		for (size_t j = 0; j < d; j++)
			s += (double)src[i * d + j] * src[i * d + j];
		s = s > 0 ? 1 / sqrt(s) : 0;	/* a zero row stays zero */
		for (size_t j = 0; j < d; j++)
			dst[i * d + j] = (float)(src[i * d + j] * s);
	}
}

static int
fit_knn(struct emb_clf *c, const float *X, size_t n, const int *y)
{
	size_t sz;

	if (emb_mul(n, c->d * sizeof(float), &sz) < 0)
		return EMB_ELIMIT;
	c->ref = emb_alloc(sz);
	c->yref = malloc(n * sizeof(int));
	if (c->ref == NULL || c->yref == NULL)
		return EMB_ENOMEM;
	unitrows(c->ref, X, n, c->d);
	memcpy(c->yref, y, n * sizeof(int));
	c->nref = n;
	return 0;
}

/* Rows per sgemm block: the score block stays near 32 MiB. */
static size_t
knnblock(size_t nref)
{
	size_t q = ((size_t)8 << 20) / (nref ? nref : 1);

	return q < 16 ? 16 : q > 1024 ? 1024 : q;
}

/* kNN predictions, a block of queries per lane. */
struct knnjob {
	const struct emb_clf *c;
	const float	*X;
	int		*pred;
	int		 k;		/* neighbours, at most nref */
	struct knnw {
		float	*Q;		/* unit queries */
		float	*S;		/* their similarities, rows x nref */
		float	*bs;		/* the best k similarities */
		size_t	*bi;		/* and their references */
		int	*votes;		/* per class */
	}		 w[MAXTHR];
};

static void
knnlane(void *arg, int wi, size_t lane, size_t q0, size_t q1)
{
	struct knnjob *jb = arg;
	struct knnw *w = &jb->w[wi];
	const struct emb_clf *c = jb->c;
	size_t d = c->d, nr = c->nref, r = q1 - q0;
	int k = jb->k, K = c->ncls;
	float *bs = w->bs;
	size_t *bi = w->bi;

	(void)lane;
	unitrows(w->Q, jb->X + q0 * d, r, d);
	sgemm_nt(r, nr, d, w->Q, c->ref, w->S);
	for (size_t i = 0; i < r; i++) {
		const float *s = w->S + i * nr;
		int have = 0, best = 0;

		/* Sorted insertion; strict > keeps earlier refs. */
		for (size_t j = 0; j < nr; j++) {
			int p;

			if (have == k && !(s[j] > bs[k - 1]))
				continue;
			p = have < k ? have++ : k - 1;
			while (p > 0 && s[j] > bs[p - 1]) {
				bs[p] = bs[p - 1];
				bi[p] = bi[p - 1];
				p--;
			}
			bs[p] = s[j];
			bi[p] = j;
		}
		memset(w->votes, 0, (size_t)K * sizeof(int));
		for (int t = 0; t < have; t++)
			w->votes[c->yref[bi[t]]]++;
		for (int t = 1; t < K; t++)
			if (w->votes[t] > w->votes[best])
				best = t;
		jb->pred[q0 + i] = best;
	}
}

static int
predict_knn(const struct emb_clf *c, const float *X, size_t n, int *pred)
{
	size_t d = c->d, nr = c->nref, qb = knnblock(nr), nl, rows;
	struct knnjob *jb;
	int nt, nw, rc = 0;

	if ((jb = calloc(1, sizeof(*jb))) == NULL)
		return EMB_ENOMEM;
	jb->c = c;
	jb->X = X;
	jb->pred = pred;
	jb->k = c->o.k < (int)nr ? c->o.k : (int)nr;
	nl = (n + qb - 1) / qb;
	rows = n < qb ? n : qb;
	nt = threadsfor(&c->o, (double)n * nr * d);
	nw = emb_par_workers(nt, nl);
	for (int t = 0; t < nw; t++) {
		struct knnw *w = &jb->w[t];

		w->Q = emb_alloc(rows * d * sizeof(float));
		w->S = emb_alloc(rows * (nr ? nr : 1) * sizeof(float));
		w->bs = malloc((size_t)(jb->k ? jb->k : 1) * sizeof(float));
		w->bi = malloc((size_t)(jb->k ? jb->k : 1) * sizeof(size_t));
		w->votes = malloc((size_t)c->ncls * sizeof(int));
		if (!w->Q || !w->S || !w->bs || !w->bi || !w->votes)
			rc = EMB_ENOMEM;
	}
	if (rc == 0)
		emb_par_run(nt, n, nl, knnlane, jb);
	for (int t = 0; t < nw; t++) {
		emb_free(jb->w[t].Q);
		emb_free(jb->w[t].S);
		free(jb->w[t].bs);
		free(jb->w[t].bi);
		free(jb->w[t].votes);
	}
	free(jb);
	return rc;
}

static int mlp_scores(const struct emb_clf *, const float *, size_t,
    double *);

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
	dgemm(0, 0, r, no, d, 1, Xb, d, c->W, no, 0, S, no);
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
		sc->pred[r0 + i] = no == 1 ? S[i] > 0 : argmax(S + i * no, no);
}

/* Scores into S (n x nout) or classes into pred. */
static int
linear(const struct emb_clf *c, const float *X, size_t n, double *S,
    int *pred)
{
	size_t nl = (n + SBLK - 1) / SBLK, rows = n < SBLK ? n : SBLK;
	struct scoring *sc;
	int nt = threadsfor(&c->o, (double)n * c->d * c->nout);
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
		return mlp_scores(c, X, n, S);
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

/* The MLP's output scores (logits), n x ncls, into S. */
static int
mlp_scores(const struct emb_clf *c, const float *X, size_t n, double *S)
{
	struct mlp m;
	size_t d = c->d, h = (size_t)c->o.nhid;
	size_t blk = n < 1 ? 1 : n < PBLK ? n : PBLK;
	double *Xb = emb_alloc(blk * d * sizeof(double));
	double *H = emb_alloc(blk * (h ? h : 1) * sizeof(double));

	if (Xb == NULL || H == NULL) {
		emb_free(Xb);
		emb_free(H);
		return EMB_ENOMEM;
	}
	/* Lay the struct over the stored parameter block. */
	m.d = d;
	m.h = (int)h;
	m.K = c->ncls;
	m.W1 = c->W1;
	m.b1 = m.W1 + (h ? d * h : 0);
	m.W2 = m.b1 + h;
	m.b2 = m.W2 + (h ? h : d) * c->ncls;
	for (size_t i0 = 0; i0 < n; i0 += PBLK) {
		size_t r = n - i0 < PBLK ? n - i0 : PBLK;

		for (size_t j = 0; j < r * d; j++)
			Xb[j] = X[i0 * d + j];
		mlp_forward(&m, Xb, r, NULL, H, S + i0 * c->ncls);
	}
	emb_free(Xb);
	emb_free(H);
	return 0;
}

static int
predict_mlp(const struct emb_clf *c, const float *X, size_t n, int *pred)
{
	double *S;
	int rc;

	for (size_t i0 = 0; i0 < n; i0 += PBLK) {
		size_t r = n - i0 < PBLK ? n - i0 : PBLK;

		if ((S = malloc(r * c->ncls * sizeof(*S))) == NULL)
			return EMB_ENOMEM;
		if ((rc = mlp_scores(c, X + i0 * c->d, r, S)) < 0) {
			free(S);
			return rc;
		}
		for (size_t i = 0; i < r; i++)
			pred[i0 + i] = argmax(S + i * c->ncls, c->ncls);
		free(S);
	}
	return 0;
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
	double *b2;

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
		rc = fit_knn(c, X, n, y);
		break;
	case EMB_CLF_CENTROID:
		rc = fit_centroid(c, X, n, y);
		break;
	case EMB_CLF_LDA:
		rc = fit_lda(c, X, n, y);
		break;
	case EMB_CLF_RIDGE:
		rc = fit_ridge(c, X, n, y);
		break;
	case EMB_CLF_LOGREG:
		rc = fit_logreg(c, X, n, y);
		break;
	default:
		rc = fit_mlp(c, X, n, y, dev, ndev, ydev);
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
		return predict_knn(c, X, n, pred);
	case EMB_CLF_MLP:
		return predict_mlp(c, X, n, pred);
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
	emb_free(c->ref);
	free(c->yref);
	emb_free(c->W);
	emb_free(c->b);
	free(c->W1);
	free(c);
}
