/*
 * qrb.c - Householder QR without pivoting of a small matrix, blocked:
 * the OSE's fast route (ose.c) factors the members of a group with it.
 *
 * The matrix is factored in panels of QRNB columns: each panel
 * left-looking (panel), its trailing columns updated by the panel's
 * reflectors as one block reflector I - V T V^t (LAPACK dgeqrt's storage,
 * dlarft's T), which holds the bulk of the flops as small matrix products
 * kept in registers.  The kernels are 4-wide (vec.h), the two widest
 * compiled for AVX2+FMA and for the baseline and chosen at run time.
 * The plain-loop twins are in qr.c.
 */
#include "num/emb-num.h"
#include "base/cpu.h"
#include "num/qr.h"
#include "base/vec.h"

#include <math.h>
#include <string.h>

#define QRNB	EMB_QR_NB	/* the panel width, short */
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

/* The body above as name_v3, name_ref and name, the dispatcher. */
#ifdef KERN_V3
#define GEMTN42(name, T, fl)						\
KERN_V3 static void							\
name##_v3(const double *v, size_t ldv, const T *y0, const T *y1,	\
    size_t n, double w[8])						\
{									\
	gemtn42_k(v, ldv, y0, y1, n, w, 1, fl);				\
}									\
static void								\
name##_ref(const double *v, size_t ldv, const T *y0, const T *y1,	\
    size_t n, double w[8])						\
{									\
	gemtn42_k(v, ldv, y0, y1, n, w, 0, fl);				\
}									\
static void								\
name(const double *v, size_t ldv, const T *y0, const T *y1, size_t n,	\
    double w[8])							\
{									\
	if (emb_cpu_has(EMB_CPU_V3))					\
		name##_v3(v, ldv, y0, y1, n, w);			\
	else								\
		name##_ref(v, ldv, y0, y1, n, w);			\
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

/*
 * y_c = s_c - sum_l w[2l + c] v_l for the two columns y_c, from the two
 * columns s_c in double (the y_c themselves) or (fl) in float.
 */
static inline __attribute__((always_inline)) void
gemnn42_k(const double *v, size_t ldv, const void *s0, const void *s1,
    double *y0, double *y1, size_t n, const double w[8], const int fl)
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

		st4(y0 + i, ldy(s0, i, fl) - x0 * w00 - x1 * w10 - x2 * w20 -
		    x3 * w30);
		st4(y1 + i, ldy(s1, i, fl) - x0 * w01 - x1 * w11 - x2 * w21 -
		    x3 * w31);
	}
	for (; i < n; i++) {
		double a0 = ldy1(s0, i, fl), a1 = ldy1(s1, i, fl);

		y0[i] = a0 - (v0[i] * w[0] + v1[i] * w[2] + v2[i] * w[4] +
		    v3[i] * w[6]);
		y1[i] = a1 - (v0[i] * w[1] + v1[i] * w[3] + v2[i] * w[5] +
		    v3[i] * w[7]);
	}
}

/* y_c -= sum_l w[2l + c] v_l for the two columns y_c. */
KERN static void
gemnn42(const double *v, size_t ldv, double *y0, double *y1, size_t n,
    const double w[8])
{
	gemnn42_k(v, ldv, y0, y1, y0, y1, n, w, 0);
}

/* y_c = f_c - sum_l w[2l + c] v_l for the two float columns f_c. */
KERN static void
gemnn42f(const double *v, size_t ldv, const float *f0, const float *f1,
    double *y0, double *y1, size_t n, const double w[8])
{
	gemnn42_k(v, ldv, f0, f1, y0, y1, n, w, 1);
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
				emb_dscal(ak + k + 1, n - k - 1, sc);
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
 * T is dlarft's (forward, columnwise); emb_dqrb_apply_vec takes a narrow
 * last panel's reflectors one by one instead.
 */
void
emb_dqrb_vec(double *a, size_t n, size_t m, const float *f, double *tau,
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

void
emb_dqrb_apply_vec(double *a, size_t n, size_t m, const double *tau,
    const double *t, double *b)
{
	size_t np = (m + QRNB - 1) / QRNB;

	for (size_t p = np; p-- > 0;) {
		size_t j0 = p * QRNB, nb = m - j0 < QRNB ? m - j0 : QRNB;
		const double *v = a + j0 * n, *tp = t + p * QRNB * QRNB;
		double w[QRNB], wt[QRNB], w4[QRNB * QRNB];

		if (nb < QRNB) {	/* a narrow last panel */
			for (size_t k = j0 + nb; k-- > j0;)
				emb_dlarf1(a, n, tau, k, b);
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
