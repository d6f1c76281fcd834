/*
 * clf-solve.c - the symmetric systems of the linear classifiers: the
 * Cholesky factorization, positive definite solves with a least-squares
 * fallback (LAPACK dgelsd), and the pseudo-inverse of a positive
 * semidefinite Gram matrix (LAPACK dsyev, through lapack.c).
 */
#include "eval/emb-eval.h"
#include "eval/clf.h"
#include "base/lapack.h"
#include "eval/ref-eval.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Cholesky factorization A = L L' of the symmetric n x n matrix A
 * (row-major, leading dimension lda), lower triangle read and overwritten
 * by L; the strict upper triangle is left alone.  The BLIS version
 * recurses on halves (L11 = chol(A11), L21 = A21 L11^-T by trsm, A22 -=
 * L21 L21' by syrk) down to blocks of CHOLBLK, factored by the plain loops
 * of emb_dchol_ref: the level-3 calls are large, where LAPACK's dpotrf
 * makes many small ones (its dpotrf2 recurses down to 1 x 1, a BLIS call
 * or two per level, each with BLIS's fixed cost).  Measured against
 * dpotrf over the same BLIS, one thread each (tests/bench/09-chol.sh,
 * medians of 5), n and dpotrf's time over this one's:
 *	n	50	100	300	500	1000	2000	4000
 *	ratio	25.8	13.4	6.7	2.8	1.7	1.5	1.3
 * (48 GFLOP/s here at n = 2000, 37 for dpotrf at 4000); the factors
 * differ by an ulp or so, which would move the predictions.
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
	    A21, (inc_t)lda, 1, NULL, emb_blis1(&rt));
	bli_dsyrk_ex(BLIS_LOWER, BLIS_NO_TRANSPOSE, (dim_t)n2, (dim_t)n1,
	    &mone, A21, (inc_t)lda, 1, &one_, A22, (inc_t)lda, 1, NULL,
	    emb_blis1(&rt));
	return emb_dchol_blis(n2, A22, lda);
}

/*
 * Solve the symmetric positive definite system A X = B (A d x d, B d x m,
 * both row-major).  A falls back to the minimum-norm least-squares
 * solution (dgelsd, singular values below eps times the largest dropped,
 * as scipy.linalg.lstsq) when it is not positive definite.  A and B are
 * overwritten; the solution is in B.
 */
int
emb_dspdsolve(double *A, double *B, size_t d, size_t m)
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
		    (inc_t)d, 1, B, (inc_t)m, 1, NULL, emb_blis1(&rt));
		bli_dtrsm_ex(BLIS_LEFT, BLIS_LOWER, BLIS_TRANSPOSE,
		    BLIS_NONUNIT_DIAG, (dim_t)d, (dim_t)m, &one_, A,
		    (inc_t)d, 1, B, (inc_t)m, 1, NULL, emb_blis1(&rt));
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

/*
 * B = pinv(G)^p B for the symmetric positive semidefinite G (n x n,
 * overwritten) and B (n x m): eigenvalues of G at most max(n, d) eps
 * times the largest are taken as zero (numpy's matrix_rank tolerance;
 * the rounding of a Gram matrix of length-d rows lies below it).
 */
int
emb_dpsdpinv(double *G, size_t n, double *B, size_t m, int p, size_t d)
{
	double *w, *T, tol;
	int rc = EMB_ENOMEM;

	w = malloc(n * sizeof(*w));
	T = malloc(n * m * sizeof(*T));
	if (w == NULL || T == NULL || (rc = emb_dsyev(n, G, w)) < 0)
		goto out;
	/* Column j of the column-major Q is row j of G here: T = Q' B. */
	emb_dgemm_blis(0, 0, n, m, n, 1, G, n, B, m, 0, T, m);
	tol = (double)(n > d ? n : d) * DBL_EPSILON * w[n - 1];
	for (size_t j = 0; j < n; j++) {
		double f = w[j] > tol ? 1 / w[j] : 0;

		if (p == 2)
			f *= f;
		for (size_t k = 0; k < m; k++)
			T[j * m + k] *= f;
	}
	emb_dgemm_blis(1, 0, n, m, n, 1, G, n, T, m, 0, B, m);
	rc = 0;
out:
	free(w);
	free(T);
	return rc;
}
