/*
 * ose.c - the Optimal Synthesis Embedding and Problem 2.
 *
 * Everything is computed in double from the float32 members.  The members
 * are normalized (zero members left out, identical members taken once) and
 * stored as the columns of a dim x m matrix; the matrix to factor (the
 * differences u_N - u_j for the OSE, the unit members themselves for
 * Problem 2) is factored by Householder QR with column pivoting, LAPACK
 * dgeqp3 running over BLIS.  The rank is read from the diagonal of R, and
 * the projections the paper needs are applied with the Householder vectors
 * themselves, never through a Gram matrix or an inverse.  Most OSE groups
 * take a faster route to the same vector (see qr_blocked and ose_fast).
 *
 * The _ref twins do the same with plain loops and modified Gram-Schmidt
 * (pivoted, reorthogonalized), an independent route used by the tests.
 */
#include "emb.h"
#include "int.h"
#include "vec.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK, Fortran calling convention. */
extern void dgeqp3_(const int *m, const int *n, double *a, const int *lda,
    int *jpvt, double *tau, double *work, const int *lwork, int *info);

/* A residual of V x = w above this is an inconsistent system. */
#define CTOL	1e-8
/* ||z|| may exceed 1 by this much and still count as 1. */
#define ZTOL	1e-9

/* A member's hash and index. */
struct hk {
	uint64_t	 h;
	uint32_t	 i;
};

struct emb_ose {
	uint32_t	 dim;
	size_t		 cap;		/* columns the buffers hold */
	double		*u;		/* dim x cap: unit members */
	double		*a;		/* dim x cap: matrix being factored */
	double		*tau;		/* cap reflector scalars */
	int		*jpvt;		/* cap pivots, 1-based */
	double		*work;		/* dgeqp3 workspace */
	int		 lwork;
	double		*b;		/* dim scratch */
	double		*c;		/* dim scratch */
	struct hk	*hk;		/* cap: member hashes, for repeats */
	uint32_t	*idx;		/* cap: kept members (lazy prepare) */
	double		*sc;		/* cap: their 1 / norm */
	double		*cn;		/* cap: column norms of o->a */
	unsigned char	*drop;		/* cap: 1 = repeated member */
	double		*t;		/* the T factors of its panels */
};

/*
 * The small-group kernel.  Groups of a few dozen members are the common
 * case (sentences, word sets); for them LAPACK's blocked code spends its
 * time in call overhead, so an unblocked Householder QR with column
 * pivoting (the algorithm of LAPACK dgeqp2/dlaqp2, same storage: R on and
 * above the diagonal, reflectors below, tau, 1-based jpvt) is written here
 * on 4-wide vectors, compiled twice (AVX2+FMA and baseline) and chosen at
 * load time.  Wider groups go to dgeqp3.
 */
#define SMALLQR	64	/* widest matrix the kernel takes */

KERN static double
sumsq(const double *x, size_t n)
{
	v4d a = { 0 }, b = { 0 };
	double t;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		v4d x0 = ld4(x + i), x1 = ld4(x + i + 4);

		a += x0 * x0;
		b += x1 * x1;
	}
	a += b;
	t = a[0] + a[1] + a[2] + a[3];
	for (; i < n; i++)
		t += x[i] * x[i];
	return t;
}


/* y = x, floats to doubles. */
KERN static void
cvtf(const float *x, double *y, size_t n)
{
	size_t i = 0;

	for (; i + 4 <= n; i += 4)
		st4(y + i, ldf4(x + i));
	for (; i < n; i++)
		y[i] = x[i];
}

/* y = s x, floats to doubles. */
KERN static void
scalef(const float *x, double s, double *y, size_t n)
{
	v4d a = { s, s, s, s };
	size_t i = 0;

	for (; i + 4 <= n; i += 4)
		st4(y + i, a * ldf4(x + i));
	for (; i < n; i++)
		y[i] = s * x[i];
}

/*
 * y = x - s z, floats z to doubles, in one pass; @return the sum of
 * squares of y (summed as sumsq does).
 */
KERN static double
subscalef(const double *x, const float *z, double s, double *y, size_t n)
{
	v4d a = { s, s, s, s }, c0 = { 0 }, c1 = { 0 };
	double t;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		v4d y0 = ld4(x + i) - a * ldf4(z + i);
		v4d y1 = ld4(x + i + 4) - a * ldf4(z + i + 4);

		st4(y + i, y0);
		st4(y + i + 4, y1);
		c0 += y0 * y0;
		c1 += y1 * y1;
	}
	c0 += c1;
	t = c0[0] + c0[1] + c0[2] + c0[3];
	for (; i < n; i++) {
		y[i] = x[i] - s * z[i];
		t += y[i] * y[i];
	}
	return t;
}

/* y = s x, doubles to floats. */
KERN static void
tofloat(const double *x, double s, float *y, size_t n)
{
	v4d a = { s, s, s, s };
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		v4f t = __builtin_convertvector(a * ld4(x + i), v4f);

		memcpy(y + i, &t, sizeof(t));
	}
	for (; i < n; i++)
		y[i] = (float)(s * x[i]);
}

KERN static double
dot1(const double *x, const double *y, size_t n)
{
	v4d a = { 0 }, b = { 0 };
	double t;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		a += ld4(x + i) * ld4(y + i);
		b += ld4(x + i + 4) * ld4(y + i + 4);
	}
	a += b;
	t = a[0] + a[1] + a[2] + a[3];
	for (; i < n; i++)
		t += x[i] * y[i];
	return t;
}

/* Swap x and y (n entries). */
KERN static void
dswap(double *x, double *y, size_t n)
{
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		v4d t = ld4(x + i);

		st4(x + i, ld4(y + i));
		st4(y + i, t);
	}
	for (; i < n; i++) {
		double t = x[i];

		x[i] = y[i];
		y[i] = t;
	}
}

/* x *= s (n entries). */
KERN static void
dscal(double *x, size_t n, double s)
{
	v4d a = { s, s, s, s };
	size_t i = 0;

	for (; i + 4 <= n; i += 4)
		st4(x + i, a * ld4(x + i));
	for (; i < n; i++)
		x[i] *= s;
}

/* y -= s x */
KERN static void
axpy1(const double *x, double *y, size_t n, double s)
{
	v4d a = { s, s, s, s };
	size_t i = 0;

	for (; i + 4 <= n; i += 4)
		st4(y + i, ld4(y + i) - a * ld4(x + i));
	for (; i < n; i++)
		y[i] -= s * x[i];
}

/*
 * y -= s x, and return the dot product of z with the updated y (n
 * entries): applies one reflector and starts the next in one pass.
 */
KERN static double
axpydot(const double *x, const double *z, double *y, size_t n, double s)
{
	v4d a = { s, s, s, s }, c0 = { 0 }, c1 = { 0 };
	double t;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		v4d y0 = ld4(y + i) - a * ld4(x + i);
		v4d y1 = ld4(y + i + 4) - a * ld4(x + i + 4);

		st4(y + i, y0);
		st4(y + i + 4, y1);
		c0 += ld4(z + i) * y0;
		c1 += ld4(z + i + 4) * y1;
	}
	c0 += c1;
	t = c0[0] + c0[1] + c0[2] + c0[3];
	for (; i < n; i++) {
		y[i] -= s * x[i];
		t += z[i] * y[i];
	}
	return t;
}

/*
 * Four columns at once: for each c, y[c] -= s[c] x, then d[c] = z . y[c]
 * (the same operations, in the same order, as axpydot on each column).
 * x and z are loaded once for the four columns.
 */
KERN static void
axpydot4(const double *x, const double *z, double *const y[4], size_t n,
    const double s[4], double d[4])
{
	v4d a0 = { s[0], s[0], s[0], s[0] }, a1 = { s[1], s[1], s[1], s[1] };
	v4d a2 = { s[2], s[2], s[2], s[2] }, a3 = { s[3], s[3], s[3], s[3] };
	v4d c00 = { 0 }, c01 = { 0 }, c10 = { 0 }, c11 = { 0 };
	v4d c20 = { 0 }, c21 = { 0 }, c30 = { 0 }, c31 = { 0 };
	double *y0 = y[0], *y1 = y[1], *y2 = y[2], *y3 = y[3];
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		v4d x0 = ld4(x + i), x1 = ld4(x + i + 4);
		v4d z0 = ld4(z + i), z1 = ld4(z + i + 4), t0, t1;

		t0 = ld4(y0 + i) - a0 * x0;
		t1 = ld4(y0 + i + 4) - a0 * x1;
		st4(y0 + i, t0);
		st4(y0 + i + 4, t1);
		c00 += z0 * t0;
		c01 += z1 * t1;
		t0 = ld4(y1 + i) - a1 * x0;
		t1 = ld4(y1 + i + 4) - a1 * x1;
		st4(y1 + i, t0);
		st4(y1 + i + 4, t1);
		c10 += z0 * t0;
		c11 += z1 * t1;
		t0 = ld4(y2 + i) - a2 * x0;
		t1 = ld4(y2 + i + 4) - a2 * x1;
		st4(y2 + i, t0);
		st4(y2 + i + 4, t1);
		c20 += z0 * t0;
		c21 += z1 * t1;
		t0 = ld4(y3 + i) - a3 * x0;
		t1 = ld4(y3 + i + 4) - a3 * x1;
		st4(y3 + i, t0);
		st4(y3 + i + 4, t1);
		c30 += z0 * t0;
		c31 += z1 * t1;
	}
	c00 += c01;
	c10 += c11;
	c20 += c21;
	c30 += c31;
	d[0] = c00[0] + c00[1] + c00[2] + c00[3];
	d[1] = c10[0] + c10[1] + c10[2] + c10[3];
	d[2] = c20[0] + c20[1] + c20[2] + c20[3];
	d[3] = c30[0] + c30[1] + c30[2] + c30[3];
	for (; i < n; i++) {
		y0[i] -= s[0] * x[i];
		d[0] += z[i] * y0[i];
		y1[i] -= s[1] * x[i];
		d[1] += z[i] * y1[i];
		y2[i] -= s[2] * x[i];
		d[2] += z[i] * y2[i];
		y3[i] -= s[3] * x[i];
		d[3] += z[i] * y3[i];
	}
}

/* d[c] = z . y[c] for four columns (as dot1 on each). */
KERN static void
dot4(const double *z, const double *const y[4], size_t n, double d[4])
{
	v4d c00 = { 0 }, c01 = { 0 }, c10 = { 0 }, c11 = { 0 };
	v4d c20 = { 0 }, c21 = { 0 }, c30 = { 0 }, c31 = { 0 };
	const double *y0 = y[0], *y1 = y[1], *y2 = y[2], *y3 = y[3];
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		v4d z0 = ld4(z + i), z1 = ld4(z + i + 4);

		c00 += z0 * ld4(y0 + i);
		c01 += z1 * ld4(y0 + i + 4);
		c10 += z0 * ld4(y1 + i);
		c11 += z1 * ld4(y1 + i + 4);
		c20 += z0 * ld4(y2 + i);
		c21 += z1 * ld4(y2 + i + 4);
		c30 += z0 * ld4(y3 + i);
		c31 += z1 * ld4(y3 + i + 4);
	}
	c00 += c01;
	c10 += c11;
	c20 += c21;
	c30 += c31;
	d[0] = c00[0] + c00[1] + c00[2] + c00[3];
	d[1] = c10[0] + c10[1] + c10[2] + c10[3];
	d[2] = c20[0] + c20[1] + c20[2] + c20[3];
	d[3] = c30[0] + c30[1] + c30[2] + c30[3];
	for (; i < n; i++) {
		d[0] += z[i] * y0[i];
		d[1] += z[i] * y1[i];
		d[2] += z[i] * y2[i];
		d[3] += z[i] * y3[i];
	}
}

/* The reflector of column k below its diagonal (LAPACK dlarfg). */
static void
house(double *a, size_t n, size_t k, double *tau)
{
	double *ak = a + k * n, alpha = ak[k], beta, sigma;

	sigma = k + 1 < n ? sumsq(ak + k + 1, n - k - 1) : 0;
	if (sigma == 0) {
		tau[k] = 0;
		return;
	}
	beta = -copysign(sqrt(alpha * alpha + sigma), alpha);
	tau[k] = (beta - alpha) / beta;
	dscal(ak + k + 1, n - k - 1, 1 / (alpha - beta));
	ak[k] = beta;
}

/*
 * Householder QR with column pivoting of the n x m column-major matrix a
 * (lda n), m <= SMALLQR: the algorithm of LAPACK dgeqp2 (norms downdated,
 * recomputed when they cancel), with the update of the trailing columns by
 * reflector k and their dot products with reflector k + 1 fused into one
 * pass over the matrix: the pivot column is updated first, which is all
 * the next reflector needs.  The pass takes four columns at a time.
 * extra columns (at most one) after the m are carried along: multiplied
 * by every reflector, never pivoted, their norms never kept.  cn, if not
 * NULL, holds the m column norms already computed.
 */
static void
qrcp_small(double *a, size_t n, size_t m, size_t extra, const double *cn,
    int *jpvt, double *tau)
{
	double nrm[SMALLQR], nrm0[SMALLQR], dot[SMALLQR + 1], sv[SMALLQR + 1];
	unsigned char fresh[SMALLQR + 1]; /* already updated by reflector k */
	size_t jf[SMALLQR + 1], ju[SMALLQR + 1], nf, nu, i, c;
	size_t k, j, p, kmax = m < n ? m : n, mt = m + extra;
	const double tol3z = sqrt(DBL_EPSILON);

	for (j = 0; j < m; j++) {
		nrm[j] = nrm0[j] = cn != NULL ? cn[j] :
		    sqrt(sumsq(a + j * n, n));
		jpvt[j] = (int)j + 1;
	}
	if (kmax == 0)
		return;
	for (p = 0, j = 1; j < m; j++)
		if (nrm[j] > nrm[p])
			p = j;
	k = 0;
	for (;;) {
		double *ak;

		/* Column p (up to date) becomes column k, the reflector. */
		if (p != k) {
			int ip = jpvt[p];
			double t;
			unsigned char f;

			dswap(a + p * n, a + k * n, n);
			jpvt[p] = jpvt[k];
			jpvt[k] = ip;
			nrm[p] = nrm[k];
			nrm0[p] = nrm0[k];
			t = sv[p];
			sv[p] = sv[k];
			sv[k] = t;
			f = fresh[p];
			fresh[p] = fresh[k];
			fresh[k] = f;
		}
		house(a, n, k, tau);
		ak = a + k * n;
		/*
		 * Finish the previous update, start this one: dot products,
		 * four columns at a time.
		 */
		nf = nu = 0;
		for (j = k + 1; j < mt; j++) {
			if (k == 0 || fresh[j])
				jf[nf++] = j;
			else {
				a[j * n + k] -= sv[j] * a[(k - 1) * n + k];
				ju[nu++] = j;
			}
		}
		for (i = 0; i + 4 <= nf; i += 4) {
			double *y[4], d[4];

			for (c = 0; c < 4; c++)
				y[c] = a + jf[i + c] * n + k + 1;
			dot4(ak + k + 1, (const double *const *)y, n - k - 1,
			    d);
			for (c = 0; c < 4; c++)
				dot[jf[i + c]] = d[c];
		}
		for (; i < nf; i++)
			dot[jf[i]] = dot1(ak + k + 1, a + jf[i] * n + k + 1,
			    n - k - 1);
		for (i = 0; i + 4 <= nu; i += 4) {
			double *y[4], s[4], d[4];

			for (c = 0; c < 4; c++) {
				y[c] = a + ju[i + c] * n + k + 1;
				s[c] = sv[ju[i + c]];
			}
			axpydot4(a + (k - 1) * n + k + 1, ak + k + 1, y,
			    n - k - 1, s, d);
			for (c = 0; c < 4; c++)
				dot[ju[i + c]] = d[c];
		}
		for (; i < nu; i++)
			dot[ju[i]] = axpydot(a + (k - 1) * n + k + 1,
			    ak + k + 1, a + ju[i] * n + k + 1, n - k - 1,
			    sv[ju[i]]);
		/* Row k of the trailing columns, and their norms. */
		for (j = k + 1; j < mt; j++) {
			double *aj = a + j * n, t;

			sv[j] = tau[k] * (dot[j] + aj[k]);
			aj[k] -= sv[j];
			fresh[j] = 0;
			if (j >= m || nrm[j] == 0)
				continue;
			t = fabs(aj[k]) / nrm[j];
			t = 1 - t * t;
			t = t < 0 ? 0 : t;
			if (t * (nrm[j] / nrm0[j]) * (nrm[j] / nrm0[j]) <=
			    tol3z) {
				axpy1(ak + k + 1, aj + k + 1, n - k - 1, sv[j]);
				fresh[j] = 1;
				nrm[j] = k + 1 < n ? sqrt(sumsq(aj + k + 1,
				    n - k - 1)) : 0;
				nrm0[j] = nrm[j];
			} else
				nrm[j] *= sqrt(t);
		}
		if (++k >= kmax)
			break;
		for (p = k, j = k + 1; j < m; j++)
			if (nrm[j] > nrm[p])
				p = j;
		if (!fresh[p]) {
			axpy1(ak + k, a + p * n + k, n - k, sv[p]);
			fresh[p] = 1;
		}
	}
	/* The last reflector's update of the columns beyond kmax. */
	for (j = k; j < mt; j++)
		if (!fresh[j])
			axpy1(a + (k - 1) * n + k, a + j * n + k, n - k,
			    sv[j]);
}


/*
 * The fast route for a group of m <= SMALLQR members, m + QRNB <= dim
 * (the common case).  The dim x m matrix of the members (U, the unit
 * members, up to column scaling) is factored by Householder QR without
 * pivoting, U = Q R, in panels of QRNB columns:
 * each panel is factored left-looking (panel), and its trailing columns
 * are updated by the panel's reflectors as one block reflector
 * I - V T V^t (LAPACK dgeqrt's storage, dlarft's T), which holds the bulk
 * of the flops as small matrix products kept in registers.  When R shows
 * U well conditioned (certsolve: sigma_min(U) >= FASTTOL), the members are
 * independent; the differences u_N - u_j, which are U E with
 * sigma_min(E) = 1, then have full rank (sigma_min >= FASTTOL, far above
 * the rank tolerance), u_N lies outside their span, and the OSE is the
 * min-norm x with <u_i, x> = 1 for every i, normalized: x = Q z with
 * R^t z = 1.  Every other group takes the general route, which decides
 * rank and the orthogonal case on the differences themselves.
 */
#define QRNB	4
/*
 * The fast route takes a group whose certified lower bound on
 * sigma_min(U) is above this.
 */
#define FASTTOL	1e-6

/*
 * w[2l + c] = v_l . y_c for the four columns v_l (v + l ldv) and two
 * columns y_c, all n long, in double or (fl) in float.
 */
static inline __attribute__((always_inline)) v4d
ldy(const void *y, size_t i, const int fl)
{
	return fl ? ldf4b(y, i) : ld4((const double *)y + i);
}

static inline __attribute__((always_inline)) double
ldy1(const void *y, size_t i, const int fl)
{
	return fl ? ldf1b(y, i) : ((const double *)y)[i];
}

static inline __attribute__((always_inline)) void
gemtn42_k(const double *v, size_t ldv, const void *y0, const void *y1,
    size_t n, double w[8], const int reg, const int fl)
{
	const double *v0 = v, *v1 = v + ldv, *v2 = v + 2 * ldv, *v3 = v + 3 * ldv;
	v4d c00 = { 0 }, c01 = { 0 }, c10 = { 0 }, c11 = { 0 };
	v4d c20 = { 0 }, c21 = { 0 }, c30 = { 0 }, c31 = { 0 };
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		v4d a0 = ldy(y0, i, fl), a1 = ldy(y1, i, fl), x;

		x = ld4(v0 + i);
		if (reg)
			INREG(x);
		c00 += x * a0;
		c01 += x * a1;
		x = ld4(v1 + i);
		if (reg)
			INREG(x);
		c10 += x * a0;
		c11 += x * a1;
		x = ld4(v2 + i);
		if (reg)
			INREG(x);
		c20 += x * a0;
		c21 += x * a1;
		x = ld4(v3 + i);
		if (reg)
			INREG(x);
		c30 += x * a0;
		c31 += x * a1;
	}
	w[0] = hsum4(c00);
	w[1] = hsum4(c01);
	w[2] = hsum4(c10);
	w[3] = hsum4(c11);
	w[4] = hsum4(c20);
	w[5] = hsum4(c21);
	w[6] = hsum4(c30);
	w[7] = hsum4(c31);
	for (; i < n; i++) {
		double a0 = ldy1(y0, i, fl), a1 = ldy1(y1, i, fl);

		w[0] += v0[i] * a0;
		w[1] += v0[i] * a1;
		w[2] += v1[i] * a0;
		w[3] += v1[i] * a1;
		w[4] += v2[i] * a0;
		w[5] += v2[i] * a1;
		w[6] += v3[i] * a0;
		w[7] += v3[i] * a1;
	}
}

/* The body above as name_v3, name_any and name, the dispatcher. */
#ifdef KERN_V3
#define GEMTN42(name, T, fl)						\
KERN_V3 static void							\
name##_v3(const double *v, size_t ldv, const T *y0, const T *y1,	\
    size_t n, double w[8])						\
{									\
	gemtn42_k(v, ldv, y0, y1, n, w, 1, fl);				\
}									\
static void								\
name##_any(const double *v, size_t ldv, const T *y0, const T *y1,	\
    size_t n, double w[8])						\
{									\
	gemtn42_k(v, ldv, y0, y1, n, w, 0, fl);				\
}									\
static void								\
name(const double *v, size_t ldv, const T *y0, const T *y1, size_t n,	\
    double w[8])							\
{									\
	if (have_v3())							\
		name##_v3(v, ldv, y0, y1, n, w);			\
	else								\
		name##_any(v, ldv, y0, y1, n, w);			\
}
#else
#define GEMTN42(name, T, fl)						\
static void								\
name(const double *v, size_t ldv, const T *y0, const T *y1, size_t n,	\
    double w[8])							\
{									\
	gemtn42_k(v, ldv, y0, y1, n, w, 0, fl);				\
}
#endif

GEMTN42(gemtn42, double, 0)
GEMTN42(gemtn42f, float, 1)	/* the two columns y_c in float */

/* w[l] = v_l . y for the four columns v_l and one column y. */
KERN static void
gemtn41(const double *v, size_t ldv, const double *y, size_t n, double w[4])
{
	const double *v0 = v, *v1 = v + ldv, *v2 = v + 2 * ldv, *v3 = v + 3 * ldv;
	v4d c0 = { 0 }, c1 = { 0 }, c2 = { 0 }, c3 = { 0 };
	v4d e0 = { 0 }, e1 = { 0 }, e2 = { 0 }, e3 = { 0 };
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		v4d a = ld4(y + i), b = ld4(y + i + 4);

		c0 += ld4(v0 + i) * a;
		c1 += ld4(v1 + i) * a;
		c2 += ld4(v2 + i) * a;
		c3 += ld4(v3 + i) * a;
		e0 += ld4(v0 + i + 4) * b;
		e1 += ld4(v1 + i + 4) * b;
		e2 += ld4(v2 + i + 4) * b;
		e3 += ld4(v3 + i + 4) * b;
	}
	w[0] = hsum4(c0 + e0);
	w[1] = hsum4(c1 + e1);
	w[2] = hsum4(c2 + e2);
	w[3] = hsum4(c3 + e3);
	for (; i < n; i++) {
		w[0] += v0[i] * y[i];
		w[1] += v1[i] * y[i];
		w[2] += v2[i] * y[i];
		w[3] += v3[i] * y[i];
	}
}

/* y_c -= sum_l w[2l + c] v_l for the two columns y_c. */
KERN static void
gemnn42(const double *v, size_t ldv, double *y0, double *y1, size_t n,
    const double w[8])
{
	const double *v0 = v, *v1 = v + ldv, *v2 = v + 2 * ldv, *v3 = v + 3 * ldv;
	v4d w00 = { w[0], w[0], w[0], w[0] }, w01 = { w[1], w[1], w[1], w[1] };
	v4d w10 = { w[2], w[2], w[2], w[2] }, w11 = { w[3], w[3], w[3], w[3] };
	v4d w20 = { w[4], w[4], w[4], w[4] }, w21 = { w[5], w[5], w[5], w[5] };
	v4d w30 = { w[6], w[6], w[6], w[6] }, w31 = { w[7], w[7], w[7], w[7] };
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		v4d x0 = ld4(v0 + i), x1 = ld4(v1 + i);
		v4d x2 = ld4(v2 + i), x3 = ld4(v3 + i);

		st4(y0 + i, ld4(y0 + i) - x0 * w00 - x1 * w10 - x2 * w20 -
		    x3 * w30);
		st4(y1 + i, ld4(y1 + i) - x0 * w01 - x1 * w11 - x2 * w21 -
		    x3 * w31);
	}
	for (; i < n; i++) {
		y0[i] -= v0[i] * w[0] + v1[i] * w[2] + v2[i] * w[4] +
		    v3[i] * w[6];
		y1[i] -= v0[i] * w[1] + v1[i] * w[3] + v2[i] * w[5] +
		    v3[i] * w[7];
	}
}

/* y_c = f_c - sum_l w[2l + c] v_l for the two float columns f_c. */
KERN static void
gemnn42f(const double *v, size_t ldv, const float *f0, const float *f1,
    double *y0, double *y1, size_t n, const double w[8])
{
	const double *v0 = v, *v1 = v + ldv, *v2 = v + 2 * ldv, *v3 = v + 3 * ldv;
	v4d w00 = { w[0], w[0], w[0], w[0] }, w01 = { w[1], w[1], w[1], w[1] };
	v4d w10 = { w[2], w[2], w[2], w[2] }, w11 = { w[3], w[3], w[3], w[3] };
	v4d w20 = { w[4], w[4], w[4], w[4] }, w21 = { w[5], w[5], w[5], w[5] };
	v4d w30 = { w[6], w[6], w[6], w[6] }, w31 = { w[7], w[7], w[7], w[7] };
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		v4d x0 = ld4(v0 + i), x1 = ld4(v1 + i);
		v4d x2 = ld4(v2 + i), x3 = ld4(v3 + i);

		st4(y0 + i, ldf4(f0 + i) - x0 * w00 - x1 * w10 - x2 * w20 -
		    x3 * w30);
		st4(y1 + i, ldf4(f1 + i) - x0 * w01 - x1 * w11 - x2 * w21 -
		    x3 * w31);
	}
	for (; i < n; i++) {
		y0[i] = f0[i] - (v0[i] * w[0] + v1[i] * w[2] + v2[i] * w[4] +
		    v3[i] * w[6]);
		y1[i] = f1[i] - (v0[i] * w[1] + v1[i] * w[3] + v2[i] * w[5] +
		    v3[i] * w[7]);
	}
}

/* y -= sum_l w[l] v_l. */
KERN static void
gemnn41(const double *v, size_t ldv, double *y, size_t n, const double w[4])
{
	const double *v0 = v, *v1 = v + ldv, *v2 = v + 2 * ldv, *v3 = v + 3 * ldv;
	v4d w0 = { w[0], w[0], w[0], w[0] }, w1 = { w[1], w[1], w[1], w[1] };
	v4d w2 = { w[2], w[2], w[2], w[2] }, w3 = { w[3], w[3], w[3], w[3] };
	size_t i = 0;

	for (; i + 4 <= n; i += 4)
		st4(y + i, ld4(y + i) - ld4(v0 + i) * w0 - ld4(v1 + i) * w1 -
		    ld4(v2 + i) * w2 - ld4(v3 + i) * w3);
	for (; i < n; i++)
		y[i] -= v0[i] * w[0] + v1[i] * w[1] + v2[i] * w[2] +
		    v3[i] * w[3];
}

/*
 * The panel's one pass over column y from the panel's first row (n rows)
 * for the l <= 3 reflectors v_c (v + c ldv) before it, the last of which
 * is first scaled by sp in place (its dlarfg scaling, put off to here);
 * the panel's triangle (the first QRNB rows) of v_c is read from vt + 4c
 * instead (unit diagonal, zeros above), and mk is 1 in its rows below k,
 * 0 elsewhere: the update
 * y -= sum_c wt[c] v_c, then, of the updated y below k, the dot
 * products d[c] = v_c . y and the sum of squares (returned); and, if nx,
 * of the next column yn as it is, e[c] = v_c . yn and, below k,
 * *cross = y . yn.  u rows
 * of four at a time, with as many sets of accumulators (2 where there
 * are few, to hide their latency).
 */
static inline __attribute__((always_inline)) double
ppass_l(double *v, size_t ldv, double sp, const double *wt,
    const double *vt, const double *mk, double *y, const double *yn,
    size_t n, double *d, double *e, double *cross, const int l,
    const int nx, const int u)
{
	v4d cd[2][3], ce[2][3], b[3], ss[2], cx[2], ps = { 0 };
	double t, tx = 0;
	size_t i = QRNB;

#pragma GCC unroll 2
	for (int h = 0; h < u; h++) {
		ss[h] = cx[h] = (v4d){ 0 };
#pragma GCC unroll 3
		for (int q = 0; q < l; q++)
			cd[h][q] = ce[h][q] = (v4d){ 0 };
	}
#pragma GCC unroll 3
	for (int q = 0; q < l; q++)
		b[q] = (v4d){ wt[q], wt[q], wt[q], wt[q] };
	if (l > 0)
		ps = (v4d){ sp, sp, sp, sp };
	/* The triangle, V's part from vt; the sums over its rows below k. */
	{
		v4d a = ld4(y), an = { 0 }, am;

		if (nx)
			an = ld4(yn);
#pragma GCC unroll 3
		for (int q = 0; q < l; q++)
			a -= ld4(vt + 4 * q) * b[q];
		if (l > 0)
			st4(y, a);
		am = a * ld4(mk);
#pragma GCC unroll 3
		for (int q = 0; q < l; q++) {
			cd[0][q] += ld4(vt + 4 * q) * am;
			if (nx)
				ce[0][q] += ld4(vt + 4 * q) * an;
		}
		ss[0] += am * am;
		if (nx)
			cx[0] += am * an;
	}
	for (; i + 4 * u <= n; i += 4 * u) {
#pragma GCC unroll 2
		for (int h = 0; h < u; h++) {
			size_t r = i + 4 * h;
			v4d a = ld4(y + r), an = { 0 }, x[3];

			if (nx)
				an = ld4(yn + r);
#pragma GCC unroll 3
			for (int q = 0; q < l; q++) {
				x[q] = ld4(v + q * ldv + r);
				if (q == l - 1) {
					x[q] *= ps;
					st4(v + q * ldv + r, x[q]);
				}
				a -= x[q] * b[q];
			}
			if (l > 0)
				st4(y + r, a);
#pragma GCC unroll 3
			for (int q = 0; q < l; q++) {
				cd[h][q] += x[q] * a;
				if (nx)
					ce[h][q] += x[q] * an;
			}
			ss[h] += a * a;
			if (nx)
				cx[h] += a * an;
		}
	}
	if (u == 2) {
		ss[0] += ss[1];
		cx[0] += cx[1];
#pragma GCC unroll 3
		for (int q = 0; q < l; q++) {
			cd[0][q] += cd[1][q];
			ce[0][q] += ce[1][q];
		}
	}
	t = hsum4(ss[0]);
	if (nx)
		tx = hsum4(cx[0]);
#pragma GCC unroll 3
	for (int q = 0; q < l; q++) {
		d[q] = hsum4(cd[0][q]);
		if (nx)
			e[q] = hsum4(ce[0][q]);
	}
	for (; i < n; i++) {
		if (l > 0)
			v[(l - 1) * ldv + i] *= sp;
		for (int q = 0; q < l; q++)
			y[i] -= wt[q] * v[q * ldv + i];
		for (int q = 0; q < l; q++) {
			d[q] += v[q * ldv + i] * y[i];
			if (nx)
				e[q] += v[q * ldv + i] * yn[i];
		}
		t += y[i] * y[i];
		if (nx)
			tx += y[i] * yn[i];
	}
	if (nx)
		*cross = tx;
	return t;
}

KERN static double
ppass(double *v, size_t ldv, int l, double sp, const double *wt,
    const double *vt, const double *mk, double *y, const double *yn,
    size_t n, double *d, double *e, double *cross)
{
	if (yn == NULL)
		switch (l) {
		case 0:
			return ppass_l(v, ldv, sp, wt, vt, mk, y, yn, n, d, e,
			    cross, 0, 0, 2);
		case 1:
			return ppass_l(v, ldv, sp, wt, vt, mk, y, yn, n, d, e,
			    cross, 1, 0, 2);
		case 2:
			return ppass_l(v, ldv, sp, wt, vt, mk, y, yn, n, d, e,
			    cross, 2, 0, 1);
		default:
			return ppass_l(v, ldv, sp, wt, vt, mk, y, yn, n, d, e,
			    cross, 3, 0, 1);
		}
	switch (l) {
	case 0:
		return ppass_l(v, ldv, sp, wt, vt, mk, y, yn, n, d, e,
			    cross, 0, 1, 2);
	case 1:
		return ppass_l(v, ldv, sp, wt, vt, mk, y, yn, n, d, e,
			    cross, 1, 1, 2);
	case 2:
		return ppass_l(v, ldv, sp, wt, vt, mk, y, yn, n, d, e,
			    cross, 2, 1, 1);
	default:
		return ppass_l(v, ldv, sp, wt, vt, mk, y, yn, n, d, e,
			    cross, 3, 1, 1);
	}
}

/*
 * Factor the panel of nb <= QRNB columns at j0 of the n x m matrix a (lda
 * n, j0 + QRNB <= n), left-looking: column k is brought up to date by the
 * panel's reflectors before it as one block reflector, then reflected.
 * One pass over the column does the update and gives the sum of squares
 * the reflector needs, the dot products that make the next column of T
 * (dlarfg, dlarft), and those of the next column with the reflectors,
 * which are what its own update needs.  Rows j0 to j0 + QRNB - 1 (the
 * triangle) by hand, the rest by the kernel.
 */
static void
panel(double *a, size_t n, size_t j0, size_t nb, double *tau, double *tp)
{
	double *v = a + j0 * n, w[QRNB], sp = 0;
	double vt[QRNB * QRNB], mk[QRNB];
	size_t r0 = j0 + QRNB;

	for (size_t l = 0; l < nb; l++) {
		size_t k = j0 + l;
		double *ak = a + k * n, wt[QRNB], g[QRNB], e[QRNB];
		double *an = l + 1 < nb ? ak + n : NULL;
		double sigma, alpha, beta, sc = 0, cross = 0;

		/* wt = T^t w; a_k -= V wt, with the dot products. */
		for (size_t q = 0; q < l; q++) {
			double t = 0;

			for (size_t c = 0; c <= q; c++)
				t += tp[c + q * QRNB] * w[c];
			wt[q] = t;
		}
		for (size_t i = 0; i < QRNB; i++)
			mk[i] = i > l;
		sigma = ppass(v + j0, n, (int)l, sp, wt, vt, mk, ak + j0,
		    an != NULL ? an + j0 : NULL, n - j0, g, e, &cross);
		/* The reflector (dlarfg). */
		alpha = ak[k];
		if (sigma == 0) {
			tau[k] = 0;
			for (size_t q = 0; q <= l; q++)
				tp[q + l * QRNB] = 0;
		} else {
			beta = -copysign(sqrt(alpha * alpha + sigma), alpha);
			tau[k] = (beta - alpha) / beta;
			sc = 1 / (alpha - beta);
			if (an == NULL)
				dscal(ak + k + 1, n - k - 1, sc);
			else	/* the rest in the next column's pass */
				for (size_t i = k + 1; i < r0; i++)
					ak[i] *= sc;
			ak[k] = beta;
			/* T[0:l, l] = -tau_k T[0:l, 0:l] V^t v_k. */
			for (size_t q = 0; q < l; q++)
				g[q] = v[q * n + k] + g[q] * sc;
			for (size_t q = 0; q < l; q++) {
				double t = 0;

				for (size_t c = q; c < l; c++)
					t += tp[q + c * QRNB] * g[c];
				tp[q + l * QRNB] = -tau[k] * t;
			}
			tp[l + l * QRNB] = tau[k];
		}
		if (an == NULL)
			break;
		/* The next column's dot products with v_0 .. v_l. */
		for (size_t q = 0; q < l; q++)
			w[q] = e[q];
		w[l] = an[k] + sc * cross;	/* v_k below k: sc a_k */
		for (size_t i = 0; i < QRNB; i++)
			vt[4 * l + i] = i < l ? 0 : i == l ? 1 : ak[j0 + i];
		sp = sc;
	}
}

/*
 * The QRNB x QRNB triangle at v (lda n) of a full panel: vexplicit saves
 * it to sv and writes V's unit diagonal and the zeros above it, so that
 * the kernels can take V from the panel's first row; vrestore puts R back.
 */
static void
vexplicit(double *v, size_t n, double *sv)
{
	for (size_t l = 0; l < QRNB; l++)
		for (size_t i = 0; i <= l; i++) {
			sv[i + l * QRNB] = v[i + l * n];
			v[i + l * n] = i == l;
		}
}

static void
vrestore(double *v, size_t n, const double *sv)
{
	for (size_t l = 0; l < QRNB; l++)
		for (size_t i = 0; i <= l; i++)
			v[i + l * n] = sv[i + l * QRNB];
}

/*
 * Householder QR without pivoting of the n x m matrix a (lda n), m <= n,
 * or of the n x m float matrix f (lda n) into a, if f is not NULL:
 * R on and above the diagonal, reflectors below, tau; t gets the upper
 * triangular QRNB x QRNB factor T of each panel (column-major, panel p
 * at t + p QRNB QRNB), so that its reflectors together are I - V T V^t
 * (dlarft, forward, columnwise); qr_apply takes a narrow last panel's
 * reflectors one by one instead.
 */
static void
qr_blocked(double *a, size_t n, size_t m, const float *f, double *tau,
    double *t)
{
	if (f != NULL)		/* the first panel, to double */
		for (size_t j = 0; j < m && j < QRNB; j++)
			cvtf(f + j * n, a + j * n, n);
	for (size_t j0 = 0; j0 < m; j0 += QRNB) {
		size_t nb = m - j0 < QRNB ? m - j0 : QRNB, nd = n - j0, j;
		double *tp = t + (j0 / QRNB) * QRNB * QRNB, *v = a + j0 * n + j0;
		double sv[QRNB * QRNB];

		panel(a, n, j0, nb, tau, tp);
		if (j0 + nb >= m)
			break;		/* no trailing columns */
		/*
		 * The trailing columns: W = V^t A, W = T^t W, A -= V W, by the
		 * kernels from row j0 on, with the panel's triangle (R on
		 * and above the diagonal) set aside meanwhile for the unit
		 * diagonal and zeros of V.  The first panel's update reads
		 * the columns still in float and writes them in double.
		 */
		vexplicit(v, n, sv);
		for (j = j0 + QRNB; j < m; j += 2) {
			double w[8], wt[8], *y0 = a + j * n + j0, *y1;
			size_t nc = j + 1 < m ? 2 : 1;
			int fl = f != NULL && j0 == 0 && nc == 2;

			y1 = nc == 2 ? y0 + n : y0;
			if (fl)
				gemtn42f(v, n, f + j * n, f + j * n + n, nd, w);
			else if (nc == 2)
				gemtn42(v, n, y0, y1, nd, w);
			else {
				double w1[4];

				if (f != NULL && j0 == 0)
					cvtf(f + j * n, y0, n);
				gemtn41(v, n, y0, nd, w1);
				for (size_t l = 0; l < QRNB; l++)
					w[2 * l] = w[2 * l + 1] = w1[l];
			}
			/* wt = T^t w */
			for (size_t l = 0; l < QRNB; l++)
				for (size_t c = 0; c < 2; c++) {
					double s = 0;

					for (size_t q = 0; q <= l; q++)
						s += tp[q + l * QRNB] *
						    w[2 * q + c];
					wt[2 * l + c] = s;
				}
			if (fl)
				gemnn42f(v, n, f + j * n, f + j * n + n, y0, y1,
				    nd, wt);
			else if (nc == 2)
				gemnn42(v, n, y0, y1, nd, wt);
			else {
				double w1[4];

				for (size_t l = 0; l < QRNB; l++)
					w1[l] = wt[2 * l];
				gemnn41(v, n, y0, nd, w1);
			}
		}
		vrestore(v, n, sv);
	}
}

/*
 * b <- Q b for the panels of qr_blocked (m reflectors, lda n).  The
 * triangles of R in a are overwritten.
 */
static void
qr_apply(double *a, size_t n, size_t m, const double *tau,
    const double *t, double *b)
{
	size_t np = (m + QRNB - 1) / QRNB;

	for (size_t p = np; p-- > 0;) {
		size_t j0 = p * QRNB, nb = m - j0 < QRNB ? m - j0 : QRNB;
		const double *v = a + j0 * n, *tp = t + p * QRNB * QRNB;
		double w[QRNB], wt[QRNB], w4[QRNB * QRNB];

		if (nb < QRNB) {	/* a narrow last panel */
			for (size_t k = j0 + nb; k-- > j0;) {
				const double *vk = a + k * n;
				double s;

				if (tau[k] == 0)
					continue;
				s = tau[k] * (b[k] + dot1(vk + k + 1, b + k + 1,
				    n - k - 1));
				b[k] -= s;
				axpy1(vk + k + 1, b + k + 1, n - k - 1, s);
			}
			continue;
		}
		/* Q b = b - V T V^t b; R is no longer needed. */
		vexplicit(a + j0 * n + j0, n, w4);
		gemtn41(v + j0, n, b + j0, n - j0, w);
		for (size_t l = 0; l < QRNB; l++) {
			double s = 0;

			for (size_t q = l; q < QRNB; q++)
				s += tp[l + q * QRNB] * w[q];
			wt[l] = s;
		}
		gemnn41(v + j0, n, b + j0, n - j0, wt);
	}
}


int
emb_ose_create(struct emb_ose **op, uint32_t dim)
{
	struct emb_ose *o;

	*op = NULL;
	if (dim == 0 || dim > EMB_DIM_MAX)
		return EMB_EDIM;
	if ((o = calloc(1, sizeof(*o))) == NULL)
		return EMB_ENOMEM;
	o->dim = dim;
	if ((o->b = emb_alloc(dim * sizeof(double))) == NULL ||
	    (o->c = emb_alloc(dim * sizeof(double))) == NULL ||
	    (o->t = emb_alloc(SMALLQR * QRNB * sizeof(double))) == NULL) {
		emb_ose_free(o);
		return EMB_ENOMEM;
	}
	*op = o;
	return 0;
}

void
emb_ose_free(struct emb_ose *o)
{
	if (o == NULL)
		return;
	emb_free(o->u);
	emb_free(o->a);
	free(o->tau);
	free(o->jpvt);
	free(o->work);
	emb_free(o->b);
	emb_free(o->c);
	emb_free(o->t);
	free(o->hk);
	free(o->idx);
	free(o->sc);
	free(o->cn);
	free(o->drop);
	free(o);
}

/* Room for m columns. */
static int
grow(struct emb_ose *o, size_t m)
{
	size_t cap, sz;
	int nn, mm, lw = -1, info;
	double q;

	if (m <= o->cap)
		return 0;
	cap = o->cap ? o->cap : 32;
	while (cap < m)
		cap *= 2;
	if (cap > INT32_MAX / 2 || emb_mul(cap, (size_t)o->dim * 8, &sz) < 0)
		return EMB_ELIMIT;
	emb_free(o->u);
	emb_free(o->a);
	free(o->tau);
	free(o->jpvt);
	free(o->work);
	free(o->hk);
	free(o->idx);
	free(o->sc);
	free(o->cn);
	free(o->drop);
	o->u = emb_alloc(sz);
	o->a = emb_alloc(sz);
	o->tau = malloc(cap * sizeof(double));
	o->jpvt = malloc(cap * sizeof(int));
	o->hk = malloc(cap * sizeof(*o->hk));
	o->idx = malloc(cap * sizeof(*o->idx));
	o->sc = malloc(cap * sizeof(double));
	o->cn = malloc(cap * sizeof(double));
	o->drop = malloc(cap);
	o->work = NULL;
	o->cap = 0;
	if (o->u == NULL || o->a == NULL || o->tau == NULL ||
	    o->jpvt == NULL || o->hk == NULL || o->idx == NULL ||
	    o->sc == NULL || o->cn == NULL ||
	    o->drop == NULL)
		return EMB_ENOMEM;
	/* Workspace query for the widest matrix. */
	nn = (int)o->dim;
	mm = (int)cap;
	memset(o->jpvt, 0, cap * sizeof(int));
	dgeqp3_(&nn, &mm, o->a, &nn, o->jpvt, o->tau, &q, &lw, &info);
	o->lwork = info == 0 && q > 3 * cap + 1 ? (int)q : 3 * (int)cap + 1;
	if ((o->work = malloc((size_t)o->lwork * sizeof(double))) == NULL)
		return EMB_ENOMEM;
	o->cap = cap;
	return 0;
}

/*
 * A cheap hash of a member: 16 components spread over the vector.  Equal
 * members hash equal; a collision only costs a memcmp.
 */
static uint64_t
hashrow(const float *v, uint32_t dim)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (uint32_t i = 0; i < 16; i++) {
		uint32_t x;

		memcpy(&x, &v[(uint64_t)i * dim / 16], 4);
		h = (h ^ x) * 0x100000001b3ull;
	}
	return h ^ h >> 29;
}

static int
byhash(const void *pa, const void *pb)
{
	const struct hk *a = pa, *b = pb;

	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/*
 * Mark in o->drop the members identical (bit for bit) to an earlier one:
 * sort by hash, then compare within runs of equal hashes.
 */
static void
markrepeats(struct emb_ose *o, const float *v, size_t n)
{
	uint32_t dim = o->dim;

	for (size_t i = 0; i < n; i++) {
		o->hk[i].h = hashrow(v + i * dim, dim);
		o->hk[i].i = (uint32_t)i;
		o->drop[i] = 0;
	}
	if (n > 32)
		qsort(o->hk, n, sizeof(*o->hk), byhash);
	else			/* a sentence: insertion sort */
		for (size_t i = 1; i < n; i++) {
			struct hk t = o->hk[i];
			size_t j = i;

			for (; j > 0 && byhash(&o->hk[j - 1], &t) > 0; j--)
				o->hk[j] = o->hk[j - 1];
			o->hk[j] = t;
		}
	for (size_t i = 1; i < n; i++) {
		uint32_t b = o->hk[i].i;

		for (size_t j = i; j-- > 0 && o->hk[j].h == o->hk[i].h;) {
			uint32_t a = o->hk[j].i;

			if (!o->drop[a] && memcmp(v + (size_t)a * dim,
			    v + (size_t)b * dim, dim * sizeof(float)) == 0) {
				o->drop[b] = 1;
				break;
			}
		}
	}
}

/*
 * Normalize the members into the columns of o->u, leaving out zero
 * members and (if dedup) repeated ones.  @return the number of columns,
 * or a negative code; zerook = 0 refuses a zero member with EMB_EZERO.
 * lazy = 1 writes nothing to o->u: the kept members' indices go to o->idx
 * and their 1 / norm to o->sc, for the caller to scale in its own pass.
 */
static long
prepare(struct emb_ose *o, const float *v, size_t n, int dedup, int zerook,
    int lazy, struct emb_ose_info *info)
{
	uint32_t dim = o->dim;
	size_t m = 0;
	int rc;

	memset(info, 0, sizeof(*info));
	if (n == 0)
		return 0;
	if ((rc = grow(o, n)) < 0)
		return rc;
	if (dedup)
		markrepeats(o, v, n);
	else
		memset(o->drop, 0, n);
	for (size_t i = 0; i < n; i++) {
		const float *r = v + i * dim;
		double *u = o->u + m * dim, s;

		if (o->drop[i]) {
			info->ndup++;
			continue;
		}
		s = sumsqf(r, dim);
		if (s == 0) {
			if (!zerook)
				return EMB_EZERO;
			info->nzero++;
			continue;
		}
		if (lazy) {
			o->idx[m] = (uint32_t)i;
			o->sc[m] = 1 / sqrt(s);
		} else
			scalef(r, 1 / sqrt(s), u, dim);
		m++;
	}
	info->nuse = (uint32_t)m;
	return (long)m;
}

/*
 * Factor the dim x m matrix in o->a; @return its numerical rank.  A small
 * matrix may carry extra columns after the m (at most one), which are
 * multiplied by Q^t along the way and never pivoted.
 */
static long
factor(struct emb_ose *o, size_t m, size_t extra, const double *cn)
{
	int nn = (int)o->dim, mm = (int)m, info;
	size_t k = m < o->dim ? m : o->dim, r;
	double r0;

	if (m <= SMALLQR)
		qrcp_small(o->a, o->dim, m, extra, cn, o->jpvt, o->tau);
	else {
		memset(o->jpvt, 0, m * sizeof(int));
		dgeqp3_(&nn, &mm, o->a, &nn, o->jpvt, o->tau, o->work,
		    &o->lwork, &info);
		if (info != 0)
			return EMB_EINVAL;
	}
	r0 = fabs(o->a[0]) * EMB_OSE_RTOL;
	r0 = r0 > EMB_OSE_ATOL ? r0 : EMB_OSE_ATOL;
	for (r = 0; r < k; r++)
		if (!(fabs(o->a[r + r * o->dim]) > r0))
			break;
	return (long)r;
}

/* b <- H_k b for the reflector k stored in column k of a (lda n). */
static void
reflect_at(const double *a, size_t n, const double *tau, size_t k, double *b)
{
	const double *v = a + k * n;
	double s;

	if (tau[k] == 0)
		return;
	s = tau[k] * (b[k] + dot1(v + k + 1, b + k + 1, n - k - 1));
	b[k] -= s;
	axpy1(v + k + 1, b + k + 1, n - k - 1, s);
}

/* b <- H_k b for the reflector k stored in column k of o->a. */
static void
reflect(const struct emb_ose *o, size_t k, double *b)
{
	reflect_at(o->a, o->dim, o->tau, k, b);
}

/* b <- (I - Q_r Q_r^t) b: the part of b outside the first r columns. */
static void
complement(const struct emb_ose *o, size_t r, double *b)
{
	for (size_t k = 0; k < r; k++)
		reflect(o, k, b);
	memset(b, 0, r * sizeof(double));
	for (size_t k = r; k-- > 0;)
		reflect(o, k, b);
}

static double
norm2(const double *b, uint32_t n)
{
	return sqrt(sumsq(b, n));
}

/*
 * The deterministic unit vector orthogonal to Q_r (r < dim): the part
 * outside Q_r of the first coordinate axis e_k whose squared part outside
 * is at least (dim - r) / (2 dim), half the average over the axes (so one
 * exists), normalized.  Written to x (dim doubles).
 */
static void
perp(struct emb_ose *o, size_t r, double *x)
{
	uint32_t dim = o->dim;
	double thr = (double)(dim - r) / (2.0 * dim), best = -1;
	uint32_t kbest = 0;

	for (uint32_t k = 0; k < dim; k++) {
		double s;

		memset(x, 0, dim * sizeof(double));
		x[k] = 1;
		complement(o, r, x);
		s = norm2(x, dim);
		if (s * s >= thr)
			break;
		if (s > best) {
			best = s;
			kbest = k;
		}
		if (k == dim - 1) {	/* rounding only: take the largest */
			memset(x, 0, dim * sizeof(double));
			x[kbest] = 1;
			complement(o, r, x);
		}
	}
	best = norm2(x, dim);
	for (uint32_t i = 0; i < dim; i++)
		x[i] /= best;
}

static void
todouble_unit(double *x, uint32_t dim, float *out)
{
	double s = norm2(x, dim);

	for (uint32_t i = 0; i < dim; i++)
		out[i] = (float)(x[i] / s);
}

/*
 * z = R^-t c for the m x m upper triangular R in a (lda n) and c > 0, by
 * forward substitution; @return a bound on ||(R C^-1)^-1||_2, C =
 * diag(c), from the comparison matrix M(R C^-1) (|r_ii| / c_i on the
 * diagonal, -|r_ij| / c_j off it): |X^-1| <= M(X)^-1 entrywise for a
 * triangular X, so ||X^-1||_2 <= sqrt(m) ||X^-1||_1 <= sqrt(m)
 * max(M(X)^-t 1), found by the same substitution, as M(R)^-t c (Higham,
 * Accuracy and Stability of Numerical Algorithms, 8.3).  Infinite or NaN
 * when R is singular.
 */
KERN static double
certsolve(const double *a, size_t n, size_t m, const double *c, double *z)
{
	double w[SMALLQR], wmax = 0;

	for (size_t i = 0; i < m; i++) {
		const double *ri = a + i * n;
		double t = c[i], s = c[i], d = 1 / ri[i];

		for (size_t k = 0; k < i; k++) {
			t -= ri[k] * z[k];
			s += fabs(ri[k]) * w[k];
		}
		z[i] = t * d;
		w[i] = s * fabs(d);
		wmax = w[i] > wmax || w[i] != w[i] ? w[i] : wmax;
	}
	return sqrt((double)m) * wmax;
}

/*
 * The fast route (see qr_blocked) for the n members v, 2 <= n <= SMALLQR,
 * n + QRNB <= dim.  The members are factored as they are, V = Q R', and
 * U = V S with S = diag(1 / |v_i|), so R = R' S: R^t z = 1 is
 * R'^t z = (|v_i|), and the certificate is taken on R' S.  The members
 * go to double in the first panel's pass.  A certified U has no zero and
 * no repeated member (either makes U singular): a group with one takes the
 * general route, which counts them.  @return EMB_OSE_OK
 * with x and info set, or 1: the general route must decide.
 */
static int
ose_fast(struct emb_ose *o, const float *v, size_t n, float *x,
    struct emb_ose_info *info)
{
	size_t dim = o->dim;
	double *a, *b = o->b, *c, zn;

	if (grow(o, n) < 0)
		return 1;
	a = o->a;
	c = o->cn;
	qr_blocked(a, dim, n, v, o->tau, o->t);
	/* |v_j| = |R' e_j|, Q being orthogonal. */
	for (size_t j = 0; j < n; j++)
		c[j] = sqrt(sumsq(a + j * dim, j + 1));
	if (!(certsolve(a, dim, n, c, b) < 1 / FASTTOL))
		return 1;
	memset(b + n, 0, (dim - n) * sizeof(double));
	zn = norm2(b, (uint32_t)n);
	qr_apply(a, dim, n, o->tau, o->t, b);
	tofloat(b, 1 / zn, x, dim);
	memset(info, 0, sizeof(*info));
	info->nuse = (uint32_t)n;
	info->rank = (uint32_t)(n - 1);
	info->alpha = 1 - 1 / zn;
	return EMB_OSE_OK;
}

int
emb_ose(struct emb_ose *o, const float *v, size_t n, float *x,
    struct emb_ose_info *info)
{
	uint32_t dim = o->dim;
	const double *ref;
	long m, r;
	double pn;
	int small;

	if (n >= 2 && n <= SMALLQR && n + QRNB <= dim &&
	    ose_fast(o, v, n, x, info) == EMB_OSE_OK)
		return EMB_OSE_OK;
	if ((m = prepare(o, v, n, 1, 1, 1, info)) < 0)
		return (int)m;
	if (m == 0)
		return EMB_EEMPTY;
	ref = o->u;
	scalef(v + (size_t)o->idx[m - 1] * dim, o->sc[m - 1], o->u, dim);
	if (m == 1) {
		for (uint32_t i = 0; i < dim; i++)
			x[i] = (float)ref[i];
		info->alpha = 0;
		return EMB_OSE_OK;
	}
	/* The differences u_N - u_j and their norms, in one pass. */
	for (long j = 0; j < m - 1; j++)
		o->cn[j] = sqrt(subscalef(ref, v + (size_t)o->idx[j] * dim,
		    o->sc[j], o->a + (size_t)j * dim, dim));
	/* A small factorization takes u_N along as its last column. */
	small = m - 1 <= SMALLQR;
	if (small)
		memcpy(o->a + (size_t)(m - 1) * dim, ref, dim * sizeof(double));
	if ((r = factor(o, (size_t)m - 1, small, o->cn)) < 0)
		return (int)r;
	info->rank = (uint32_t)r;
	if ((size_t)r >= dim)
		return EMB_ENOSOL;
	if (small && r == m - 1) {
		/* Q^t u_N is there: drop its first r entries, map back. */
		memcpy(o->b, o->a + (size_t)(m - 1) * dim, dim * sizeof(double));
		memset(o->b, 0, (size_t)r * sizeof(double));
		for (long k = r; k-- > 0;)
			reflect(o, (size_t)k, o->b);
	} else {
		memcpy(o->b, ref, dim * sizeof(double));
		complement(o, (size_t)r, o->b);
	}
	pn = norm2(o->b, dim);
	if (pn <= EMB_OSE_PTOL) {
		perp(o, (size_t)r, o->b);
		todouble_unit(o->b, dim, x);
		info->alpha = 1;
		return EMB_OSE_ORTH;
	}
	for (uint32_t i = 0; i < dim; i++)
		x[i] = (float)(o->b[i] / pn);
	info->alpha = 1 - pn;
	return EMB_OSE_OK;
}

/*
 * Min-norm solution z (in o->b) of V x = w for the m unit columns of o->u,
 * w given per column; factors V^t into o->a.  @return the rank; sets
 * info->znorm and info->resid.
 */
static long
minnorm(struct emb_ose *o, size_t m, const double *w,
    struct emb_ose_info *info)
{
	uint32_t dim = o->dim;
	double *y = o->c, *a, res = 0;
	long r;

	memcpy(o->a, o->u, m * dim * sizeof(double));
	if ((r = factor(o, m, 0, NULL)) < 0)
		return r;
	a = o->a;
	/* R11^t y = (P^t w)[0:r], forward substitution. */
	for (long i = 0; i < r; i++) {
		double s = w[o->jpvt[i] - 1];

		for (long k = 0; k < i; k++)
			s -= a[k + i * dim] * y[k];
		y[i] = s / a[i + i * dim];
	}
	/* The remaining equations must hold too. */
	for (size_t j = (size_t)r; j < m; j++) {
		double s = -w[o->jpvt[j] - 1];

		for (long k = 0; k < r; k++)
			s += a[k + j * dim] * y[k];
		if (fabs(s) > res)
			res = fabs(s);
	}
	info->resid = res > CTOL ? res : 0;
	info->rank = (uint32_t)r;
	info->znorm = norm2(y, (uint32_t)r);
	memset(o->b, 0, dim * sizeof(double));
	memcpy(o->b, y, (size_t)r * sizeof(double));
	for (long k = r; k-- > 0;)
		reflect(o, (size_t)k, o->b);
	return r;
}

int
emb_p2(struct emb_ose *o, const float *v, size_t n, const double *alpha,
    float *x, struct emb_ose_info *info)
{
	uint32_t dim = o->dim;
	double *w, t;
	long m, r;

	if (n == 0) {
		memset(info, 0, sizeof(*info));
		return EMB_EEMPTY;
	}
	for (size_t i = 0; i < n; i++)
		if (!(alpha[i] >= 0 && alpha[i] <= 2))
			return EMB_EINVAL;
	if ((m = prepare(o, v, n, 0, 0, 0, info)) < 0)
		return (int)m;
	if ((w = malloc(n * sizeof(double))) == NULL)
		return EMB_ENOMEM;
	for (size_t i = 0; i < n; i++)
		w[i] = 1 - alpha[i];
	r = minnorm(o, (size_t)m, w, info);
	free(w);
	if (r < 0)
		return (int)r;
	if (info->resid > 0 || info->znorm > 1 + ZTOL)
		return EMB_ENOSOL;
	if ((size_t)r >= dim) {
		if (fabs(info->znorm - 1) > ZTOL)
			return EMB_ENOSOL;
		t = 0;
	} else
		t = info->znorm < 1 ? sqrt(1 - info->znorm * info->znorm) : 0;
	if (t > 0) {
		double *z = o->c;	/* y is no longer needed */

		memcpy(z, o->b, dim * sizeof(double));
		perp(o, (size_t)r, o->b);
		for (uint32_t i = 0; i < dim; i++)
			o->b[i] = z[i] + t * o->b[i];
	}
	todouble_unit(o->b, dim, x);
	info->alpha = alpha[0];
	return 0;
}

int
emb_ose_interval(struct emb_ose *o, const float *v, size_t n, double *lo,
    double *hi, struct emb_ose_info *info)
{
	double *e, zn;
	long m, r;

	if ((m = prepare(o, v, n, 1, 1, 0, info)) < 0)
		return (int)m;
	if (m == 0)
		return EMB_EEMPTY;
	if ((e = malloc((size_t)m * sizeof(double))) == NULL)
		return EMB_ENOMEM;
	for (long i = 0; i < m; i++)
		e[i] = 1;
	r = minnorm(o, (size_t)m, e, info);
	free(e);
	if (r < 0)
		return (int)r;
	zn = info->znorm;
	if (info->resid > 0) {
		*lo = *hi = 1;
		return (size_t)r < o->dim ? EMB_IV_ONE : EMB_IV_NONE;
	}
	if ((size_t)r >= o->dim) {
		if (zn < 1 - ZTOL)
			return EMB_IV_NONE;
		*lo = 1 - 1 / zn;
		*hi = 1 + 1 / zn;
		return EMB_IV_POINTS;
	}
	*lo = zn > 1 ? 1 - 1 / zn : 0;
	*hi = zn > 1 ? 1 + 1 / zn : 2;
	return EMB_IV_RANGE;
}

/*
 * The reference twin.
 */

int
emb_ose_ref(const float *v, size_t n, uint32_t dim, double *x,
    struct emb_ose_info *info)
{
	double *u, *q, *p, r0 = 0;
	size_t m = 0, r = 0, nd;
	int rc = EMB_OSE_OK;

	memset(info, 0, sizeof(*info));
	if (n == 0)
		return EMB_EEMPTY;
	u = malloc(n * dim * sizeof(double));
	q = malloc(n * dim * sizeof(double));
	p = malloc(dim * sizeof(double));
	if (u == NULL || q == NULL || p == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const float *vi = v + i * dim;
		double s = 0;
		size_t j;

		for (j = 0; j < i; j++)
			if (memcmp(v + j * dim, vi, dim * sizeof(float)) == 0)
				break;
		if (j < i) {
			info->ndup++;
			continue;
		}
		for (uint32_t k = 0; k < dim; k++)
			s += (double)vi[k] * vi[k];
		if (s == 0) {
			info->nzero++;
			continue;
		}
		for (uint32_t k = 0; k < dim; k++)
			u[m * dim + k] = vi[k] / sqrt(s);
		m++;
	}
	info->nuse = (uint32_t)m;
	if (m == 0) {
		rc = EMB_EEMPTY;
		goto out;
	}
	/* Differences into q, then pivoted MGS in place. */
	nd = m - 1;
	for (size_t j = 0; j < nd; j++)
		for (uint32_t k = 0; k < dim; k++)
			q[j * dim + k] = u[nd * dim + k] - u[j * dim + k];
	for (r = 0; r < nd && r < dim; r++) {
		size_t piv = r;
		double best = -1;

		for (size_t j = r; j < nd; j++) {
			double s = 0;

			for (uint32_t k = 0; k < dim; k++)
				s += q[j * dim + k] * q[j * dim + k];
			if (s > best) {
				best = s;
				piv = j;
			}
		}
		best = sqrt(best);
		if (r == 0)
			r0 = best * EMB_OSE_RTOL > EMB_OSE_ATOL ?
			    best * EMB_OSE_RTOL : EMB_OSE_ATOL;
		if (!(best > r0))
			break;
		for (uint32_t k = 0; k < dim; k++) {
			double t = q[r * dim + k];

			q[r * dim + k] = q[piv * dim + k];
			q[piv * dim + k] = t;
		}
		for (int pass = 0; pass < 2; pass++)
			for (size_t j = 0; j < r; j++) {
				double s = 0;

				for (uint32_t k = 0; k < dim; k++)
					s += q[j * dim + k] * q[r * dim + k];
				for (uint32_t k = 0; k < dim; k++)
					q[r * dim + k] -= s * q[j * dim + k];
			}
		best = 0;
		for (uint32_t k = 0; k < dim; k++)
			best += q[r * dim + k] * q[r * dim + k];
		best = sqrt(best);
		for (uint32_t k = 0; k < dim; k++)
			q[r * dim + k] /= best;
		for (size_t j = r + 1; j < nd; j++) {
			double s = 0;

			for (uint32_t k = 0; k < dim; k++)
				s += q[r * dim + k] * q[j * dim + k];
			for (uint32_t k = 0; k < dim; k++)
				q[j * dim + k] -= s * q[r * dim + k];
		}
	}
	info->rank = (uint32_t)r;
	if (r >= dim) {
		rc = EMB_ENOSOL;
		goto out;
	}
	for (uint32_t k = 0; k < dim; k++)
		p[k] = u[nd * dim + k];
	for (int pass = 0; pass < 2; pass++)
		for (size_t j = 0; j < r; j++) {
			double s = 0;

			for (uint32_t k = 0; k < dim; k++)
				s += q[j * dim + k] * p[k];
			for (uint32_t k = 0; k < dim; k++)
				p[k] -= s * q[j * dim + k];
		}
	{
		double pn = 0, thr = (double)(dim - r) / (2.0 * dim);

		for (uint32_t k = 0; k < dim; k++)
			pn += p[k] * p[k];
		pn = sqrt(pn);
		if (pn > EMB_OSE_PTOL) {
			for (uint32_t k = 0; k < dim; k++)
				x[k] = p[k] / pn;
			info->alpha = 1 - pn;
			goto out;
		}
		rc = EMB_OSE_ORTH;
		info->alpha = 1;
		for (uint32_t e = 0; e < dim; e++) {
			memset(p, 0, dim * sizeof(double));
			p[e] = 1;
			for (int pass = 0; pass < 2; pass++)
				for (size_t j = 0; j < r; j++) {
					double t = 0;

					for (uint32_t k = 0; k < dim; k++)
						t += q[j * dim + k] * p[k];
					for (uint32_t k = 0; k < dim; k++)
						p[k] -= t * q[j * dim + k];
				}
			pn = 0;
			for (uint32_t k = 0; k < dim; k++)
				pn += p[k] * p[k];
			if (pn >= thr || e == dim - 1)
				break;
		}
		pn = sqrt(pn);
		for (uint32_t k = 0; k < dim; k++)
			x[k] = p[k] / pn;
	}
out:
	free(u);
	free(q);
	free(p);
	return rc;
}
