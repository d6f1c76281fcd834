/*
 * test_qr.c - the small-matrix QR kernels (qr.c, qrb.c) and their
 * plain-loop twins, checked the BLIS way: by residuals against
 * thresholds scaled by the size and the unit roundoff, never by bit
 * equality.  For each kernel: the backward error |A P - Q R| / |A|, the
 * orthogonality |Q^t Q - I| of the Q its reflectors make, and the
 * agreement of R (and pivots, T, Q b) with the twin, over awkward sizes,
 * with the _v3 kernels where the processor has them and without.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "emb.h"
#include "base/rng.h"
#include "num/qr.h"
#include "base/cpu.h"

/* Residuals up to this many units of roundoff times the size pass. */
#define THRESH	30.0

/* The library's seeded generator: the same matrices every run. */
static struct emb_rng rng = { 0x2545f4914f6cdd1dull };

/* Uniform in [-1, 1). */
static double
urand(void)
{
	return 2 * emb_rng_unif(&rng) - 1;
}

/*
 * A random n x m matrix; with dep, column 2 (if there) is the sum of
 * columns 0 and 1 and the last a copy of column 0: rank deficient.
 */
static double *
randmat(size_t n, size_t m, int dep)
{
	double *a = emb_alloc(n * m * sizeof(double));

	for (size_t i = 0; i < n * m; i++)
		a[i] = urand();
	if (dep && m >= 3) {
		for (size_t i = 0; i < n; i++)
			a[i + 2 * n] = a[i] + a[i + n];
		memcpy(a + (m - 1) * n, a, n * sizeof(double));
	}
	return a;
}

static double
fnorm(const double *a, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += a[i] * a[i];
	return sqrt(s);
}

/* Q (n x n) of the k reflectors in f (lda n): Q e_j, reflectors k-1..0. */
static double *
formq(const double *f, size_t n, size_t k, const double *tau)
{
	double *q = calloc(n * n, sizeof(double));

	for (size_t j = 0; j < n; j++) {
		q[j + j * n] = 1;
		for (size_t r = k; r-- > 0;)
			emb_dlarf1(f, n, tau, r, q + j * n);
	}
	return q;
}

/*
 * |A P - Q R|_F / (|A|_F eps max(n, m)) and |Q^t Q - I|_F / (eps n) for
 * the factorization f, tau, jpvt (1-based; NULL: no pivoting) of a.
 */
static void
residuals(const double *a, const double *f, size_t n, size_t m,
    const int *jpvt, const double *tau, double *res, double *orth)
{
	size_t k = m < n ? m : n;
	double *q = formq(f, n, k, tau), d = 0, o = 0;

	for (size_t j = 0; j < m; j++) {
		size_t pj = jpvt != NULL ? (size_t)jpvt[j] - 1 : j;
		const double *aj = a + pj * n;

		for (size_t i = 0; i < n; i++) {
			double s = aj[i];

			for (size_t r = 0; r <= j && r < k; r++)
				s -= q[i + r * n] * f[r + j * n];
			d += s * s;
		}
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double s = -(double)(i == j);

			for (size_t r = 0; r < n; r++)
				s += q[r + i * n] * q[r + j * n];
			o += s * s;
		}
	*res = sqrt(d) / (fnorm(a, n * m) * DBL_EPSILON *
	    (double)(n > m ? n : m));
	*orth = sqrt(o) / (DBL_EPSILON * (double)n);
	free(q);
}

/* |R1 - R2|_F / (|R1|_F eps max(n, m)) over the upper triangles. */
static double
rdiff(const double *r1, const double *r2, size_t n, size_t m)
{
	double d = 0, s = 0;

	for (size_t j = 0; j < m; j++)
		for (size_t i = 0; i <= j && i < n; i++) {
			double x = r1[i + j * n] - r2[i + j * n];

			d += x * x;
			s += r1[i + j * n] * r1[i + j * n];
		}
	return s == 0 ? sqrt(d) : sqrt(d / s) / (DBL_EPSILON *
	    (double)(n > m ? n : m));
}

static const size_t rows[] = { 1, 2, 7, 8, 9, 68, 255, 256, 257 };
static const size_t cols[] = { 1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 63, 64 };
#define NROWS	(sizeof(rows) / sizeof(rows[0]))
#define NCOLS	(sizeof(cols) / sizeof(cols[0]))

START_TEST(pivoted)
{
	for (size_t ri = 0; ri < NROWS; ri++)
		for (size_t ci = 0; ci < NCOLS; ci++)
			for (int dep = 0; dep < 2; dep++) {
				size_t n = rows[ri], m = cols[ci], sz = n * m;
				double *a = randmat(n, m, dep);
				double *f = emb_alloc(sz * sizeof(double));
				double *g = emb_alloc(sz * sizeof(double));
				double tau[64], taur[64], res, orth;
				int jp[64], jpr[64];

				memcpy(f, a, sz * sizeof(double));
				memcpy(g, a, sz * sizeof(double));
				emb_dqrcp_vec(f, n, m, 0, NULL, jp, tau);
				emb_dqrcp_ref(g, n, m, jpr, taur);
				residuals(a, f, n, m, jp, tau, &res, &orth);
				ck_assert_msg(res < THRESH && orth < THRESH,
				    "vec %zux%zu dep %d: res %g orth %g", n, m,
				    dep, res, orth);
				residuals(a, g, n, m, jpr, taur, &res, &orth);
				ck_assert_msg(res < THRESH && orth < THRESH,
				    "ref %zux%zu dep %d: res %g orth %g", n, m,
				    dep, res, orth);
				/*
				 * Random columns: the pivots agree where the
				 * remaining norms are far apart (no ties),
				 * which a dependent set of columns is not.
				 */
				if (!dep) {
					double d = rdiff(g, f, n, m);

					for (size_t j = 0; j < m && j < n; j++)
						ck_assert_int_eq(jp[j], jpr[j]);
					ck_assert_msg(d < THRESH, "%zux%zu: "
					    "R differs by %g", n, m, d);
				}
				emb_free(a);
				emb_free(f);
				emb_free(g);
			}
}
END_TEST

/* An extra column rides along: it comes out as Q^t b. */
START_TEST(pivoted_extra)
{
	size_t n = 300, m = 20;
	double *a = randmat(n, m + 1, 0), *f, b[300], tau[21], cn[20];
	int jp[21];

	f = emb_alloc(n * (m + 1) * sizeof(double));
	memcpy(f, a, n * (m + 1) * sizeof(double));
	memcpy(b, a + m * n, sizeof(b));
	for (size_t j = 0; j < m; j++)
		cn[j] = fnorm(a + j * n, n);
	emb_dqrcp_vec(f, n, m, 1, cn, jp, tau);
	for (size_t k = 0; k < m; k++)
		emb_dlarf1(f, n, tau, k, b);
	for (size_t i = 0; i < n; i++)
		ck_assert(fabs(b[i] - f[i + m * n]) <=
		    THRESH * DBL_EPSILON * n * fnorm(b, n));
	emb_free(a);
	emb_free(f);
}
END_TEST

/*
 * Run twice: _i 0 on the processor's best kernels, 1 on the portable
 * twins of the _v3 ones (emb_cpu_force).
 */
START_TEST(blocked)
{
	emb_cpu_force(_i == 0 ? EMB_CPU_ALL : 0);
	for (size_t ri = 0; ri < NROWS; ri++)
		for (size_t ci = 0; ci < NCOLS; ci++) {
			size_t n = rows[ri], m = cols[ci], sz = n * m;
			double *a, *f, *g, *h, *b, *c, *e;
			double tau[64], taur[64], tauh[64], res, orth;
			double t[256], tr[256], th[256];
			float *fl;

			if (m + EMB_QR_NB > n)
				continue;
			a = randmat(n, m, 0);
			f = emb_alloc(sz * sizeof(double));
			g = emb_alloc(sz * sizeof(double));
			h = emb_alloc(sz * sizeof(double));
			fl = emb_alloc(sz * sizeof(float));
			b = calloc(n, sizeof(double));
			c = calloc(n, sizeof(double));
			e = calloc(n, sizeof(double));
			/* Values a float holds, for the float input. */
			for (size_t i = 0; i < sz; i++)
				a[i] = fl[i] = (float)a[i];
			memcpy(f, a, sz * sizeof(double));
			emb_dqrb_vec(f, n, m, NULL, tau, t);
			emb_dqrb_vec(h, n, m, fl, tauh, th);
			emb_dqrb_ref(g, n, m, fl, taur, tr);
			residuals(a, f, n, m, NULL, tau, &res, &orth);
			ck_assert_msg(res < THRESH && orth < THRESH,
			    "vec %zux%zu: res %g orth %g", n, m, res, orth);
			residuals(a, h, n, m, NULL, tauh, &res, &orth);
			ck_assert_msg(res < THRESH && orth < THRESH,
			    "vec float %zux%zu: res %g orth %g", n, m, res,
			    orth);
			residuals(a, g, n, m, NULL, taur, &res, &orth);
			ck_assert_msg(res < THRESH && orth < THRESH,
			    "ref %zux%zu: res %g orth %g", n, m, res, orth);
			/* Agreement with the twin: R, tau, T. */
			ck_assert_msg(rdiff(g, f, n, m) < THRESH,
			    "%zux%zu: R differs by %g", n, m,
			    rdiff(g, f, n, m));
			ck_assert_msg(rdiff(g, h, n, m) < THRESH,
			    "%zux%zu: float input: R differs by %g", n, m,
			    rdiff(g, h, n, m));
			for (size_t k = 0; k < m; k++)
				ck_assert(fabs(tau[k] - taur[k]) <=
				    THRESH * DBL_EPSILON * n);
			for (size_t p = 0; p < m / EMB_QR_NB; p++)
				for (size_t l = 0; l < EMB_QR_NB; l++)
					for (size_t q = 0; q <= l; q++) {
						size_t x = (p * EMB_QR_NB + l) *
						    EMB_QR_NB + q;

						ck_assert(fabs(t[x] - tr[x]) <=
						    THRESH * DBL_EPSILON * n *
						    (1 + fabs(tr[x])));
					}
			/* Q b by blocks and one reflector at a time. */
			for (size_t i = 0; i < n; i++)
				b[i] = c[i] = urand();
			emb_dqrb_apply_vec(f, n, m, tau, t, b);
			emb_dqrb_apply_ref(g, n, m, taur, c);
			for (size_t i = 0; i < n; i++)
				e[i] = b[i] - c[i];
			ck_assert_msg(fnorm(e, n) <= THRESH * DBL_EPSILON * n *
			    fnorm(c, n), "%zux%zu: Q b differs", n, m);
			emb_free(a);
			emb_free(f);
			emb_free(g);
			emb_free(h);
			emb_free(fl);
			free(b);
			free(c);
			free(e);
		}
	emb_cpu_force(EMB_CPU_ALL);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("qr");
	TCase *tc = tcase_create("qr");

	tcase_add_test(tc, pivoted);
	tcase_add_test(tc, pivoted_extra);
	tcase_add_loop_test(tc, blocked, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(suite)
