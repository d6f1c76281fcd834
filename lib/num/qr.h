/*
 * qr.h - the small-matrix Householder QR kernels inside libemb (qr.c,
 * qrb.c), shared by the OSE solvers (ose.c), the unit tests and the
 * benchmark; not part of the public interface.
 *
 * Matrices are column-major doubles with an explicit leading dimension
 * (lda n: the matrix is n rows); the factored matrix is stored as LAPACK
 * stores it (R on and above the diagonal, the Householder vectors below
 * it with their unit first entry implied, the scalars in tau).  Every
 * kernel has a plain-loop twin, _ref, written for clarity and used only
 * by the tests and the benchmark; the tests compare the two by residual,
 * never bit for bit.  The _vec kernels are what the solvers run: their
 * bits are the bits emb-ose writes, so a change to one is a change to the
 * program's output.
 */
#ifndef EMB_QR_H
#define EMB_QR_H

#include <stddef.h>

#define EMB_QR_SMALL	64	/* widest matrix emb_dqrcp_vec takes */
#define EMB_QR_NB	4	/* panel width of emb_dqrb_vec */

/* @return the sum of squares of x (n entries), 4-wide partial sums. */
double	emb_dsumsq(const double *x, size_t n);
/* x *= s (n entries). */
void	emb_dscal(double *x, size_t n, double s);
/* y = s x (n entries), floats to doubles. */
void	emb_dscalf(const float *x, double s, double *y, size_t n);
/*
 * y = x - s z (n entries), floats z to doubles, in one pass.  @return the
 * sum of squares of y, summed as emb_dsumsq sums.
 */
double	emb_dsubscalf(const double *x, const float *z, double s, double *y,
	    size_t n);
/* y = s x (n entries), doubles to floats. */
void	emb_dtofloat(const double *x, double s, float *y, size_t n);

/*
 * emb_dqrcp_vec - Householder QR with column pivoting of the n x m matrix
 * a (lda n), m <= EMB_QR_SMALL: A P = Q R, the algorithm of LAPACK
 * dgeqp2 (column norms downdated, recomputed when they cancel), on 4-wide
 * vectors.  jpvt gets the 1-based pivots (P's columns), tau the m
 * reflector scalars (min(n, m) of them meaningful).  extra columns (at
 * most one) after the m are multiplied by Q^t along the way, never
 * pivoted.  cn, if not NULL, holds the m column norms, already computed.
 * emb_dqrcp_ref: the same factorization by plain loops, norms recomputed
 * at every step, no extra columns; any m.
 */
void	emb_dqrcp_vec(double *a, size_t n, size_t m, size_t extra,
	    const double *cn, int *jpvt, double *tau);
void	emb_dqrcp_ref(double *a, size_t n, size_t m, int *jpvt,
	    double *tau);

/*
 * emb_dqrb_vec - Householder QR without pivoting of the n x m matrix a
 * (lda n), m <= EMB_QR_SMALL, m <= n, or of the n x m float matrix f
 * (lda n) into a, if f is not NULL: A = Q R, in panels of EMB_QR_NB
 * columns whose reflectors together are I - V T V^t (LAPACK dgeqrt's
 * block reflector, dlarft's T).  t gets each full panel's upper
 * triangular EMB_QR_NB x EMB_QR_NB T (column-major, panel p at
 * t + p EMB_QR_NB EMB_QR_NB; room for EMB_QR_SMALL / EMB_QR_NB panels).
 * Needs m + EMB_QR_NB <= n (a panel's triangle is read EMB_QR_NB rows
 * deep).  emb_dqrb_ref: the same by plain loops, one reflector at a
 * time, T built afterwards as dlarft builds it; any m <= n.
 */
void	emb_dqrb_vec(double *a, size_t n, size_t m, const float *f,
	    double *tau, double *t);
void	emb_dqrb_ref(double *a, size_t n, size_t m, const float *f,
	    double *tau, double *t);

/*
 * emb_dqrb_apply_vec - b <- Q b (n entries) for the m reflectors of
 * emb_dqrb_vec: a full panel as its block reflector, a narrow last panel
 * one reflector at a time.  The triangles of R in a are overwritten.
 * emb_dqrb_apply_ref: the same one reflector at a time; a is left as is.
 */
void	emb_dqrb_apply_vec(double *a, size_t n, size_t m, const double *tau,
	    const double *t, double *b);
void	emb_dqrb_apply_ref(const double *a, size_t n, size_t m,
	    const double *tau, double *b);

/*
 * emb_dlarf1 - b <- H_k b for the reflector k stored in column k of a
 * (lda n) with tau[k] (LAPACK dlarf on one vector).
 */
void	emb_dlarf1(const double *a, size_t n, const double *tau, size_t k,
	    double *b);

#endif /* EMB_QR_H */
