/*
 * qr.c - Householder QR of small matrices with column pivoting, the
 * level-1 kernels it and the OSE solvers (ose.c) are made of, and the
 * plain-loop twins of every QR kernel (this file's and qrb.c's).
 *
 * Groups of a few dozen members are the common case of the OSE solvers
 * (sentences, word sets); for them LAPACK's blocked code spends its time
 * in call overhead, so an unblocked Householder QR with column pivoting
 * (the algorithm of LAPACK dgeqp2/dlaqp2, same storage: R on and above
 * the diagonal, reflectors below, tau, 1-based jpvt) is written here on
 * 4-wide vectors, compiled twice (AVX2+FMA and baseline) and chosen at
 * load time.  Wider matrices go to LAPACK dgeqp3 (ose.c).
 *
 * Three routes factor a group in ose.c: this kernel (pivoted, m <= 64),
 * qrb.c's blocked kernel (unpivoted, the certified fast route) and LAPACK
 * dgeqp3 (wider groups).  Each stays because it earns its lines and
 * because it makes the bits emb-ose writes.  tests/bench/09-qr.sh,
 * n = 300, one thread, medians of 9 runs, microseconds per factorization
 * (Debian 12 BLIS/LAPACK, shared 2-core machine):
 *
 *	m	qrcp_vec  dgeqp3   qrb_vec+apply  dgeqrf+dormqr
 *	2	  0.42      2.04      0.41           1.69
 *	8	  3.01     10.13      1.77           8.45
 *	20	 14.44     33.43      7.19          28.00
 *	64	120.66    224.90     52.94         232.26
 *
 * so dgeqp3 in place of emb_dqrcp_vec would cost 1.8x to 4.8x (m = 2 to
 * 64), LAPACK's unpivoted QR in place of the blocked kernel 3.6x to 5.1x,
 * and the pivoted kernel in place of the blocked one 1.7x to 2.3x from
 * m = 8 on.  Nor can any of them go for another reason: dgeqp3 sums in
 * other orders (dnrm2, its own dot products), and the fast route computes
 * the OSE by another formula (x = Q z, R^t z = 1, see ose.c), so folding
 * one route into another changes the last bits of emb-ose's output for
 * the groups it takes (tried: dgeqp3 for every group changes the output
 * of emb-ose, -p and -i on generated groups of 300, 50 and 6 dimensions,
 * though not on the program tests' fixtures).  The rank and orthogonality
 * decisions stay with the general route (this kernel or dgeqp3); the fast
 * route only takes groups certified far from them.
 */
#include "num/emb-num.h"
#include "num/qr.h"
#include "base/vec.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Summed in four 4-wide partial sums, then the tail. */
KERN double
emb_dsumsq(const double *x, size_t n)
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

/* y = s x, floats to doubles. */
KERN void
emb_dscalf(const float *x, double s, double *y, size_t n)
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
 * squares of y (summed as emb_dsumsq does).
 */
KERN double
emb_dsubscalf(const double *x, const float *z, double s, double *y, size_t n)
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
KERN void
emb_dtofloat(const double *x, double s, float *y, size_t n)
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

KERN void
emb_dscal(double *x, size_t n, double s)
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
 * x and z are loaded once for the four columns.  Written out column by
 * column, as dot4 is: the same body as a loop over the columns (GCC
 * unroll 4) took 3 to 5% longer for m = 20 to 64 (09-qr.sh, pivoted).
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

	sigma = k + 1 < n ? emb_dsumsq(ak + k + 1, n - k - 1) : 0;
	if (sigma == 0) {
		tau[k] = 0;
		return;
	}
	beta = -copysign(sqrt(alpha * alpha + sigma), alpha);
	tau[k] = (beta - alpha) / beta;
	emb_dscal(ak + k + 1, n - k - 1, 1 / (alpha - beta));
	ak[k] = beta;
}

/*
 * The algorithm of LAPACK dgeqp2 (norms downdated, recomputed when they
 * cancel), with the update of the trailing columns by
 * reflector k and their dot products with reflector k + 1 fused into one
 * pass over the matrix: the pivot column is updated first, which is all
 * the next reflector needs.  The pass takes four columns at a time.
 * extra columns (at most one) after the m are carried along: multiplied
 * by every reflector, never pivoted, their norms never kept.  cn, if not
 * NULL, holds the m column norms already computed.
 */
void
emb_dqrcp_vec(double *a, size_t n, size_t m, size_t extra,
    const double *cn, int *jpvt, double *tau)
{
	double nrm[EMB_QR_SMALL], nrm0[EMB_QR_SMALL];
	double dot[EMB_QR_SMALL + 1], sv[EMB_QR_SMALL + 1];
	unsigned char fresh[EMB_QR_SMALL + 1]; /* updated by reflector k */
	size_t jf[EMB_QR_SMALL + 1], ju[EMB_QR_SMALL + 1], nf, nu, i, c;
	size_t k, j, p, kmax = m < n ? m : n, mt = m + extra;
	const double tol3z = sqrt(DBL_EPSILON);

	for (j = 0; j < m; j++) {
		nrm[j] = nrm0[j] = cn != NULL ? cn[j] :
		    sqrt(emb_dsumsq(a + j * n, n));
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
				nrm[j] = k + 1 < n ? sqrt(emb_dsumsq(aj + k + 1,
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

void
emb_dlarf1(const double *a, size_t n, const double *tau, size_t k,
    double *b)
{
	const double *v = a + k * n;
	double s;

	if (tau[k] == 0)
		return;
	s = tau[k] * (b[k] + dot1(v + k + 1, b + k + 1, n - k - 1));
	b[k] -= s;
	axpy1(v + k + 1, b + k + 1, n - k - 1, s);
}

/*
 * The plain-loop twins.
 */

/* The reflector of x (n entries, x[0] the diagonal): LAPACK dlarfg. */
static double
house_ref(double *x, size_t n)
{
	double alpha = x[0], beta, sigma = 0;

	for (size_t i = 1; i < n; i++)
		sigma += x[i] * x[i];
	if (sigma == 0)
		return 0;
	beta = -copysign(sqrt(alpha * alpha + sigma), alpha);
	for (size_t i = 1; i < n; i++)
		x[i] /= alpha - beta;
	x[0] = beta;
	return (beta - alpha) / beta;
}

/* y <- (I - tau v v^t) y, v = (1, x[1..n-1]). */
static void
reflect_ref(const double *x, double tau, double *y, size_t n)
{
	double s = y[0];

	for (size_t i = 1; i < n; i++)
		s += x[i] * y[i];
	s *= tau;
	y[0] -= s;
	for (size_t i = 1; i < n; i++)
		y[i] -= s * x[i];
}

void
emb_dqrcp_ref(double *a, size_t n, size_t m, int *jpvt, double *tau)
{
	size_t kmax = m < n ? m : n;

	for (size_t j = 0; j < m; j++)
		jpvt[j] = (int)j + 1;
	for (size_t k = 0; k < kmax; k++) {
		size_t p = k;
		double best = -1;

		/* The column of largest norm below row k, recomputed. */
		for (size_t j = k; j < m; j++) {
			double s = 0;

			for (size_t i = k; i < n; i++)
				s += a[i + j * n] * a[i + j * n];
			if (s > best) {
				best = s;
				p = j;
			}
		}
		if (p != k) {
			int t = jpvt[p];

			for (size_t i = 0; i < n; i++) {
				double x = a[i + p * n];

				a[i + p * n] = a[i + k * n];
				a[i + k * n] = x;
			}
			jpvt[p] = jpvt[k];
			jpvt[k] = t;
		}
		tau[k] = house_ref(a + k + k * n, n - k);
		for (size_t j = k + 1; j < m; j++)
			reflect_ref(a + k + k * n, tau[k], a + k + j * n,
			    n - k);
	}
}

void
emb_dqrb_ref(double *a, size_t n, size_t m, const float *f, double *tau,
    double *t)
{
	if (f != NULL)
		for (size_t i = 0; i < n * m; i++)
			a[i] = f[i];
	for (size_t k = 0; k < m; k++) {
		tau[k] = house_ref(a + k + k * n, n - k);
		for (size_t j = k + 1; j < m; j++)
			reflect_ref(a + k + k * n, tau[k], a + k + j * n,
			    n - k);
	}
	/* T of each panel: T[0:l, l] = -tau_l T[0:l, 0:l] V^t v_l. */
	for (size_t j0 = 0; j0 < m; j0 += EMB_QR_NB) {
		double *tp = t + (j0 / EMB_QR_NB) * EMB_QR_NB * EMB_QR_NB;
		size_t nb = m - j0 < EMB_QR_NB ? m - j0 : EMB_QR_NB;

		for (size_t l = 0; l < nb; l++) {
			size_t k = j0 + l;
			double g[EMB_QR_NB];

			for (size_t q = 0; q < l; q++) {
				/* v_q . v_k: v_k is 1 at row k, 0 above. */
				double s = a[k + (j0 + q) * n];

				for (size_t i = k + 1; i < n; i++)
					s += a[i + (j0 + q) * n] * a[i + k * n];
				g[q] = s;
			}
			for (size_t q = 0; q < l; q++) {
				double s = 0;

				for (size_t c = q; c < l; c++)
					s += tp[q + c * EMB_QR_NB] * g[c];
				tp[q + l * EMB_QR_NB] = -tau[k] * s;
			}
			tp[l + l * EMB_QR_NB] = tau[k];
		}
	}
}

void
emb_dqrb_apply_ref(const double *a, size_t n, size_t m, const double *tau,
    double *b)
{
	for (size_t k = m < n ? m : n; k-- > 0;)
		reflect_ref(a + k + k * n, tau[k], b + k, n - k);
}
