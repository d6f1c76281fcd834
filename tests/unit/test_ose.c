/*
 * test_ose.c - the OSE and Problem 2 solvers against the paper's example,
 * the plain-loop twin, and an independent float64 reference: the min-norm
 * solution z = V^t (V V^t)^-1 e of the paper's Remark, computed here by
 * Gaussian elimination with partial pivoting in long double (a route that
 * shares nothing with the solvers), whose normalization is the OSE.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check_main.h"
#include "emb.h"
#include "ref.h"
#include "urand.h"

#define WORDS	"examples/data/word2vec-googlenews-300d-13k.vec.gz"

static float *
randgroup(size_t n, uint32_t dim)
{
	float *v = emb_alloc(n * dim * sizeof(float));

	for (size_t i = 0; i < n * dim; i++)
		v[i] = (float)(2 * urand() - 1);
	return v;
}

/* Spread (max - min) of the cosine distances of x to the members. */
static double
spread(const float *v, size_t n, uint32_t dim, const float *x, double *mean)
{
	double lo = 3, hi = -1, xx = 0;

	for (uint32_t k = 0; k < dim; k++)
		xx += (double)x[k] * x[k];
	for (size_t i = 0; i < n; i++) {
		double d = 0, vv = 0;

		for (uint32_t k = 0; k < dim; k++) {
			d += (double)x[k] * v[i * dim + k];
			vv += (double)v[i * dim + k] * v[i * dim + k];
		}
		if (vv == 0)
			continue;
		d = 1 - d / sqrt(xx * vv);
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	if (mean != NULL)
		*mean = lo;
	return hi - lo;
}

/*
 * The independent reference: z = V^t y with (V V^t) y = e, solved by
 * Gaussian elimination in long double on the distinct unit members.
 * @return 0, or -1 if the system is singular.
 */
static int
minnorm_ref(const float *v, size_t n, uint32_t dim, double *x)
{
	long double *u = calloc(n * dim, sizeof(long double));
	long double *g = calloc(n * (n + 1), sizeof(long double)), s;
	size_t m = 0, np1;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		s = 0;
		for (uint32_t k = 0; k < dim; k++)
			s += (long double)v[i * dim + k] * v[i * dim + k];
		for (uint32_t k = 0; k < dim; k++)
			u[m * dim + k] = v[i * dim + k] / sqrtl(s);
		m++;
	}
	np1 = m + 1;
	for (size_t i = 0; i < m; i++) {
		for (size_t j = 0; j < m; j++) {
			s = 0;
			for (uint32_t k = 0; k < dim; k++)
				s += u[i * dim + k] * u[j * dim + k];
			g[i * np1 + j] = s;
		}
		g[i * np1 + m] = 1;
	}
	for (size_t c = 0; c < m; c++) {
		size_t p = c;

		for (size_t i = c + 1; i < m; i++)
			if (fabsl(g[i * np1 + c]) > fabsl(g[p * np1 + c]))
				p = i;
		if (g[p * np1 + c] == 0) {
			rc = -1;
			goto out;
		}
		for (size_t j = 0; j < np1; j++) {
			s = g[c * np1 + j];
			g[c * np1 + j] = g[p * np1 + j];
			g[p * np1 + j] = s;
		}
		for (size_t i = c + 1; i < m; i++) {
			long double f = g[i * np1 + c] / g[c * np1 + c];

			for (size_t j = c; j < np1; j++)
				g[i * np1 + j] -= f * g[c * np1 + j];
		}
	}
	for (size_t c = m; c-- > 0;) {
		s = g[c * np1 + m];
		for (size_t j = c + 1; j < m; j++)
			s -= g[c * np1 + j] * g[j * np1 + m];
		g[c * np1 + m] = s / g[c * np1 + c];
	}
	for (uint32_t k = 0; k < dim; k++) {
		s = 0;
		for (size_t i = 0; i < m; i++)
			s += u[i * dim + k] * g[i * np1 + m];
		x[k] = (double)s;
	}
out:
	free(u);
	free(g);
	return rc;
}

static double
cosine(const float *x, const double *y, uint32_t dim)
{
	double d = 0, a = 0, b = 0;

	for (uint32_t k = 0; k < dim; k++) {
		d += x[k] * y[k];
		a += (double)x[k] * x[k];
		b += y[k] * y[k];
	}
	return d / sqrt(a * b);
}

/* Check emb_ose on v against the twin and the min-norm reference. */
static void
checkgroup(struct emb_ose *o, const float *v, size_t n, uint32_t dim,
    const char *what)
{
	struct emb_ose_info in, rin;
	float *x = malloc(dim * sizeof(float));
	double *xr = malloc(dim * sizeof(double));
	double *z = malloc(dim * sizeof(double)), alpha, c, sp;
	int rc;

	rc = emb_ose(o, v, n, x, &in);
	ck_assert_msg(rc == EMB_OSE_OK, "%s: emb_ose %d", what, rc);
	sp = spread(v, n, dim, x, &alpha);
	ck_assert_msg(sp <= 1e-6, "%s: spread %g", what, sp);
	ck_assert_msg(fabs(alpha - in.alpha) <= 1e-6, "%s: alpha %g vs %g",
	    what, alpha, in.alpha);
	ck_assert_int_eq(emb_ose_ref(v, n, dim, xr, &rin), EMB_OSE_OK);
	ck_assert_uint_eq(rin.rank, in.rank);
	c = cosine(x, xr, dim);
	ck_assert_msg(c >= 1 - 1e-6, "%s: cos to twin %.17g", what, c);
	if (minnorm_ref(v, n, dim, z) == 0) {
		c = cosine(x, z, dim);
		ck_assert_msg(c >= 1 - 1e-6, "%s: cos to min-norm %.17g",
		    what, c);
	}
	free(x);
	free(xr);
	free(z);
}

START_TEST(paper_example)
{
	/*
	 * Remark rm:prop.1: the mean m of the unit members is not
	 * equidistant, the OSE is.  The Remark prints 1/3 + 1/(3 sqrt 3) for
	 * <m, u3 - u1>; that value is <m, u1>, and the difference itself is
	 * 1/(3 sqrt 3): nonzero either way, which is the Remark's point.
	 */
	const float v[] = { 1, 0, 0, 0, 1, 0, 1, 1, 1 };
	double u3[3], mean[3], ip = 0;
	struct emb_ose *o;
	struct emb_ose_info in;
	float x[3], xm[3];

	for (int k = 0; k < 3; k++)
		u3[k] = v[6 + k] / sqrt(3.0);
	for (int k = 0; k < 3; k++)
		mean[k] = (v[k] + v[3 + k] + u3[k]) / 3;
	for (int k = 0; k < 3; k++)
		ip += mean[k] * (u3[k] - v[k]);
	ck_assert(fabs(ip - 1 / (3 * sqrt(3.0))) < 1e-12);
	ip = 0;
	for (int k = 0; k < 3; k++)
		ip += mean[k] * v[k];
	ck_assert(fabs(ip - (1.0 / 3 + 1 / (3 * sqrt(3.0)))) < 1e-12);
	for (int k = 0; k < 3; k++)
		xm[k] = (float)mean[k];
	ck_assert(spread(v, 3, 3, xm, NULL) > 0.1);

	ck_assert_int_eq(emb_ose_create(&o, 3), 0);
	ck_assert_int_eq(emb_ose(o, v, 3, x, &in), EMB_OSE_OK);
	ck_assert(spread(v, 3, 3, x, NULL) <= 1e-7);
	ck_assert_uint_eq(in.rank, 2);
	ck_assert_uint_eq(in.nuse, 3);
	checkgroup(o, v, 3, 3, "paper");
	emb_ose_free(o);
}
END_TEST

START_TEST(two_vectors)
{
	/* Remark: for N = 2 the OSE is the normalized sum of unit vectors. */
	const float v[] = { 3, 0, 4, 0, 2, 0 };
	struct emb_ose *o;
	struct emb_ose_info in;
	float x[3];
	double s[3] = { 0.6, 1, 0.8 }, c;

	emb_ose_create(&o, 3);
	ck_assert_int_eq(emb_ose(o, v, 2, x, &in), EMB_OSE_OK);
	c = cosine(x, s, 3);
	ck_assert(c >= 1 - 1e-12);
	emb_ose_free(o);
}
END_TEST

START_TEST(random_groups)
{
	static const size_t sizes[] = { 2, 3, 7, 8, 20, 63, 64, 65, 150, 255,
	    256, 257, 299, 300 };
	struct emb_ose *o;

	ck_assert_int_eq(emb_ose_create(&o, 300), 0);
	for (size_t t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++) {
		float *v = randgroup(sizes[t], 300);
		char what[32];

		snprintf(what, sizeof(what), "random %zu", sizes[t]);
		checkgroup(o, v, sizes[t], 300, what);
		emb_free(v);
	}
	/* Awkward dimensions. */
	for (uint32_t dim = 1; dim <= 9; dim++) {
		struct emb_ose *od;

		emb_ose_create(&od, dim);
		for (size_t n = 1; n <= dim; n++) {
			float *v = randgroup(n, dim);

			checkgroup(od, v, n, dim, "small");
			emb_free(v);
		}
		emb_ose_free(od);
	}
	/*
	 * Dimensions that leave tails in the blocked kernels of the fast
	 * route (groups of up to 64 members, 4 fewer than dim), and groups
	 * of every width around its panels.
	 */
	static const uint32_t dims[] = { 10, 13, 37, 77, 301, 303 };
	for (size_t d = 0; d < sizeof(dims) / sizeof(dims[0]); d++) {
		struct emb_ose *od;
		uint32_t dim = dims[d];

		emb_ose_create(&od, dim);
		for (size_t n = 2; n <= 66 && n <= dim; n++) {
			float *v = randgroup(n, dim);

			checkgroup(od, v, n, dim, "tails");
			emb_free(v);
		}
		emb_ose_free(od);
	}
	emb_ose_free(o);
}
END_TEST

/* Read the first n vectors of the bundled word2vec subset. */
static float *
words(size_t n)
{
	gzFile gz = gzopen(WORDS, "rb");
	char line[16384];
	float *v;

	if (gz == NULL)
		return NULL;
	v = emb_alloc(n * 300 * sizeof(float));
	gzgets(gz, line, sizeof(line));
	for (size_t i = 0; i < n; i++) {
		char *p, *end;

		ck_assert(gzgets(gz, line, sizeof(line)) != NULL);
		p = strchr(line, ' ');
		for (int k = 0; k < 300; k++) {
			v[i * 300 + k] = strtof(p, &end);
			ck_assert(end != p);
			p = end;
		}
	}
	gzclose(gz);
	return v;
}

START_TEST(real_groups)
{
	static const size_t sizes[] = { 2, 3, 5, 10, 20, 50, 64, 65, 100, 200,
	    299, 300 };
	struct emb_ose *o;
	float *v = words(1000);
	size_t at = 0;

	if (v == NULL) {
		fprintf(stderr, "test_ose: %s missing, real groups skipped\n",
		    WORDS);
		return;
	}
	emb_ose_create(&o, 300);
	for (size_t t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++) {
		char what[32];

		if (at + sizes[t] > 1000)
			at = 0;
		snprintf(what, sizeof(what), "words %zu", sizes[t]);
		checkgroup(o, v + at * 300, sizes[t], 300, what);
		at += sizes[t];
	}
	emb_ose_free(o);
	emb_free(v);
}
END_TEST

START_TEST(degenerate)
{
	struct emb_ose *o;
	struct emb_ose_info in;
	float x[3], x2[3];
	double xr[3];

	ck_assert_int_eq(emb_ose_create(&o, 0), EMB_EDIM);
	emb_ose_create(&o, 3);
	/* One vector: itself, normalized. */
	{
		const float v[] = { 0, 3, 4 };

		ck_assert_int_eq(emb_ose(o, v, 1, x, &in), EMB_OSE_OK);
		ck_assert(fabsf(x[1] - 0.6f) < 1e-7 &&
		    fabsf(x[2] - 0.8f) < 1e-7 && in.alpha == 0);
	}
	/* Repeats add nothing; a zero member is left out. */
	{
		const float v[] = { 1, 0, 0, 0, 1, 0, 1, 1, 1 };
		const float w[] = { 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 1,
		    1, 0, 1, 0 };

		emb_ose(o, v, 3, x, &in);
		ck_assert_int_eq(emb_ose(o, w, 6, x2, &in), EMB_OSE_OK);
		ck_assert_uint_eq(in.ndup, 2);
		ck_assert_uint_eq(in.nzero, 1);
		ck_assert_uint_eq(in.nuse, 3);
		ck_assert(cosine(x, (double[]){ x2[0], x2[1], x2[2] }, 3) >=
		    1 - 1e-7);
	}
	/* Linearly dependent members (2 v1): one direction. */
	{
		const float v[] = { 1, 0, 0, 2, 0, 0, 0, 1, 0 };

		ck_assert_int_eq(emb_ose(o, v, 3, x, &in), EMB_OSE_OK);
		ck_assert_uint_eq(in.rank, 1);
		ck_assert(fabsf(x[0] - x[1]) < 1e-7 && x[2] == 0);
	}
	/* Projection zero: all equidistant vectors at distance 1. */
	{
		const float v[] = { 1, 0, 0, 0, 1, 0, 1, 1, 0 };

		ck_assert_int_eq(emb_ose(o, v, 3, x, &in), EMB_OSE_ORTH);
		ck_assert(in.alpha == 1);
		ck_assert(fabsf(x[2]) == 1 && x[2] > 0);
		ck_assert_int_eq(emb_ose_ref(v, 3, 3, xr, &in), EMB_OSE_ORTH);
		ck_assert(xr[2] > 1 - 1e-12);
	}
	/* More distinct directions than dimensions: no solution. */
	{
		const float v[] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1 };

		ck_assert_int_eq(emb_ose(o, v, 4, x, &in), EMB_ENOSOL);
		ck_assert_int_eq(emb_ose_ref(v, 4, 3, xr, &in), EMB_ENOSOL);
	}
	/* Empty, or zero members only. */
	{
		const float v[] = { 0, 0, 0, 0, 0, 0 };

		ck_assert_int_eq(emb_ose(o, v, 0, x, &in), EMB_EEMPTY);
		ck_assert_int_eq(emb_ose(o, v, 2, x, &in), EMB_EEMPTY);
		ck_assert_uint_eq(in.nzero, 1);	/* the repeat is one */
		ck_assert_int_eq(emb_ose_ref(v, 0, 3, xr, &in), EMB_EEMPTY);
	}
	emb_ose_free(o);
}
END_TEST

START_TEST(problem2)
{
	struct emb_ose *o;
	struct emb_ose_info in;
	uint32_t dim = 10;
	float *v = randgroup(5, dim), x[10], xt[10];
	double alpha[5], nx = 0;

	emb_ose_create(&o, dim);
	/* Distances of a known unit vector are reachable. */
	for (uint32_t k = 0; k < dim; k++) {
		xt[k] = (float)(2 * urand() - 1);
		nx += (double)xt[k] * xt[k];
	}
	for (uint32_t k = 0; k < dim; k++)
		xt[k] /= (float)sqrt(nx);
	for (int i = 0; i < 5; i++) {
		double d = 0, vv = 0;

		for (uint32_t k = 0; k < dim; k++) {
			d += (double)xt[k] * v[i * dim + k];
			vv += (double)v[i * dim + k] * v[i * dim + k];
		}
		alpha[i] = 1 - d / sqrt(vv);
	}
	ck_assert_int_eq(emb_p2(o, v, 5, alpha, x, &in), 0);
	ck_assert(in.znorm <= 1);
	for (int i = 0; i < 5; i++) {
		double d = 0, vv = 0;

		for (uint32_t k = 0; k < dim; k++) {
			d += (double)x[k] * v[i * dim + k];
			vv += (double)v[i * dim + k] * v[i * dim + k];
		}
		ck_assert(fabs(1 - d / sqrt(vv) - alpha[i]) <= 1e-6);
	}
	/* The existence test: distance 0 to two directions is impossible. */
	{
		const float w[] = { 1, 0, 0, 0, 1, 0 };
		double a0[2] = { 0, 0 };
		float y[3];
		struct emb_ose *o3;

		emb_ose_create(&o3, 3);
		ck_assert_int_eq(emb_p2(o3, w, 2, a0, y, &in), EMB_ENOSOL);
		ck_assert(fabs(in.znorm - sqrt(2.0)) < 1e-12);
		/* Repeated member, other distance: inconsistent. */
		{
			const float d[] = { 1, 0, 0, 1, 0, 0 };
			double a1[2] = { 0.5, 0.7 }, a2[2] = { 0.5, 0.5 };

			ck_assert_int_eq(emb_p2(o3, d, 2, a1, y, &in),
			    EMB_ENOSOL);
			ck_assert(in.resid > 0);
			ck_assert_int_eq(emb_p2(o3, d, 2, a2, y, &in), 0);
			ck_assert(fabs(y[0] - 0.5) < 1e-7);
		}
		/* Zero member, bad distance, nothing. */
		{
			const float z[] = { 1, 0, 0, 0, 0, 0 };
			double a1[2] = { 0.5, 0.5 }, a3[1] = { 2.5 };

			ck_assert_int_eq(emb_p2(o3, z, 2, a1, y, &in),
			    EMB_EZERO);
			ck_assert_int_eq(emb_p2(o3, z, 1, a3, y, &in),
			    EMB_EINVAL);
			ck_assert_int_eq(emb_p2(o3, z, 0, a3, y, &in),
			    EMB_EEMPTY);
		}
		/* Full rank: only ||z|| = 1 works. */
		{
			const float f[] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
			double a1[3] = { 1 - 0.6, 1 - 0.8, 1 }, a2[3] =
			    { 0.5, 0.5, 0.5 };

			ck_assert_int_eq(emb_p2(o3, f, 3, a1, y, &in), 0);
			ck_assert(fabs(y[0] - 0.6) < 1e-7 &&
			    fabs(y[1] - 0.8) < 1e-7);
			ck_assert_int_eq(emb_p2(o3, f, 3, a2, y, &in),
			    EMB_ENOSOL);
		}
		emb_ose_free(o3);
	}
	emb_ose_free(o);
	emb_free(v);
}
END_TEST

START_TEST(interval)
{
	struct emb_ose *o;
	struct emb_ose_info in;
	double lo, hi;
	float x[300];

	emb_ose_create(&o, 300);
	for (size_t n = 2; n <= 40; n += 19) {
		float *v = randgroup(n, 300);

		ck_assert_int_eq(emb_ose_interval(o, v, n, &lo, &hi, &in),
		    EMB_IV_RANGE);
		emb_ose(o, v, n, x, &in);
		/* The OSE sits at the low end (Remark rm:decrea.dist). */
		ck_assert(fabs(lo - in.alpha) <= 1e-9);
		ck_assert(hi > 1 && hi <= 2);
		emb_free(v);
	}
	{
		const float v[] = { 1, 0, 0, 0, 1, 0, 1, 1, 0 };
		const float p[] = { 1, 0, 0, 0, 1, 0, 1, 1, 1 };
		struct emb_ose *o3;

		emb_ose_create(&o3, 3);
		ck_assert_int_eq(emb_ose_interval(o3, v, 3, &lo, &hi, &in),
		    EMB_IV_ONE);
		ck_assert(lo == 1 && hi == 1);
		ck_assert_int_eq(emb_ose_interval(o3, p, 3, &lo, &hi, &in),
		    EMB_IV_POINTS);
		ck_assert_int_eq(emb_ose_interval(o3, v, 1, &lo, &hi, &in),
		    EMB_IV_RANGE);
		ck_assert(lo == 0 && hi == 2);
		ck_assert_int_eq(emb_ose_interval(o3, v, 0, &lo, &hi, &in),
		    EMB_EEMPTY);
		emb_ose_free(o3);
	}
	emb_ose_free(o);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("ose");
	TCase *tc = tcase_create("ose");

	tcase_add_test(tc, paper_example);
	tcase_add_test(tc, two_vectors);
	tcase_add_test(tc, random_groups);
	tcase_add_test(tc, real_groups);
	tcase_add_test(tc, degenerate);
	tcase_add_test(tc, problem2);
	tcase_add_test(tc, interval);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(suite)
