/*
 * lapack.c - the door to BLAS and LAPACK (lapack.h): the BLIS calls the
 * numerical modules share, one thread each, their plain-loop twin, and
 * dsyev with its workspace.
 */
#include "base/emb-base.h"
#include "base/lapack.h"
#include "base/ref-base.h"

#include <stdlib.h>

/* The BLIS runtime of every call: one thread. */
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
 * dsyev asked first for its workspace, then given what it asked for (its
 * blocking, and so its rounding, depends on that size).
 */
int
emb_dsyev(size_t n, double *A, double *w)
{
	int nn = (int)n, lwork = -1, info = 0;
	double wq, *work;

	dsyev_("V", "U", &nn, A, &nn, w, &wq, &lwork, &info);
	lwork = info == 0 ? (int)wq : 1;
	if ((work = malloc((size_t)(lwork > 1 ? lwork : 1) *
	    sizeof(*work))) == NULL)
		return EMB_ENOMEM;
	dsyev_("V", "U", &nn, A, &nn, w, work, &lwork, &info);
	free(work);
	return info != 0 ? EMB_ENOSOL : 0;
}
