/*
 * lapack.h - the library's door to BLAS and LAPACK: every Fortran
 * routine it calls, declared here and nowhere else (the BLAS ones as
 * BLIS's blis.h declares them, the LAPACK ones below: Fortran calling
 * convention, arguments by address, column-major matrices, the hidden
 * lengths of character arguments last where a routine is given them),
 * and the BLIS calls the kernels share (lapack.c): one thread per call,
 * row-major, each with a plain-loop twin in ref.h for the tests.
 *
 * Below every numerical module (classifiers, alignment, PCA, OSE, the
 * association tests); it uses no other module of libemb.
 */
#ifndef EMB_LAPACK_H
#define EMB_LAPACK_H

#include <blis.h>
#include <stddef.h>

/* LAPACK, Fortran calling convention (the BLAS: blis.h). */
void dgelsd_(const int *m, const int *n, const int *nrhs, double *a,
    const int *lda, double *b, const int *ldb, double *s,
    const double *rcond, int *rank, double *work, const int *lwork,
    int *iwork, int *info);
void dgeqp3_(const int *m, const int *n, double *a, const int *lda,
    int *jpvt, double *tau, double *work, const int *lwork, int *info);
void dgeqrf_(const int *m, const int *n, double *a, const int *lda,
    double *tau, double *work, const int *lwork, int *info);
void dgesdd_(const char *jobz, const int *m, const int *n, double *a,
    const int *lda, double *s, double *u, const int *ldu, double *vt,
    const int *ldvt, double *work, const int *lwork, int *iwork, int *info,
    size_t);
void dormqr_(const char *side, const char *trans, const int *m,
    const int *n, const int *k, const double *a, const int *lda,
    const double *tau, double *c, const int *ldc, double *work,
    const int *lwork, int *info);
void dorgqr_(const int *m, const int *n, const int *k, double *a,
    const int *lda, const double *tau, double *work, const int *lwork,
    int *info);
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda,
    int *info);
void dsyev_(const char *jobz, const char *uplo, const int *n, double *a,
    const int *lda, double *w, double *work, const int *lwork, int *info);
void dsyevr_(const char *jobz, const char *range, const char *uplo,
    const int *n, double *a, const int *lda, const double *vl,
    const double *vu, const int *il, const int *iu, const double *abstol,
    int *m, double *w, double *z, const int *ldz, int *isuppz,
    double *work, const int *lwork, int *iwork, const int *liwork,
    int *info, size_t, size_t, size_t);


/*
 * emb_dsyev - the eigenvalues w (ascending) and eigenvectors of the
 * symmetric n x n matrix A (n >= 1), through LAPACK's dsyev with the
 * workspace it asks for: the upper triangle of the column-major A (the
 * lower of a row-major one) is read, and A is overwritten by the
 * eigenvectors, vector j in column j (row j of a row-major A).
 * @return 0, EMB_ENOMEM, or EMB_ENOSOL when they did not converge.
 */
int emb_dsyev(size_t n, double *A, double *w);

/*
 * emb_dgemm_blis - C = alpha op(A) op(B) + beta C, row-major, op(A) m x k,
 * op(B) k x n; ta, tb nonzero transpose.  The level-3 kernel of the
 * classifiers and of alignment, through BLIS; emb_dgemm_ref (ref.h) is
 * its plain-loop twin for the tests.
 */
void emb_dgemm_blis(int ta, int tb, size_t m, size_t n, size_t k,
    double alpha, const double *A, size_t lda, const double *B, size_t ldb,
    double beta, double *C, size_t ldc);

/*
 * emb_sgemm_blis - emb_dgemm_blis in single precision, for the perceptron
 * (float, as PyTorch trains it).
 */
void emb_sgemm_blis(int ta, int tb, size_t m, size_t n, size_t k,
    float alpha, const float *A, size_t lda, const float *B, size_t ldb,
    float beta, float *C, size_t ldc);

/* C = alpha A'A + beta C, upper triangle, A m x d (row-major). */
void emb_dsyrk_up(size_t d, size_t m, double alpha, const double *A,
    double beta, double *C);

/* rt set up for one BLIS thread, as every call above runs; @return rt. */
rntm_t *emb_blis1(rntm_t *rt);

#endif /* EMB_LAPACK_H */
