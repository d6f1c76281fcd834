/*
 * test_pca.c - the PCA model against a plain power-iteration reference,
 * its application, and the model file (exact round trip, malformed
 * files refused with their line).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "emb.h"
#define URAND_SEED	0x853c49e6748fea9bull
#include "urand.h"

#define N	2000
#define D	20

/* Data with a clear leading direction and a large offset. */
static float *
data(void)
{
	float *x = malloc(N * D * sizeof(float));

	for (int i = 0; i < N; i++) {
		double t = 4 * (urand() - 0.5);

		for (int k = 0; k < D; k++)
			x[i * D + k] = (float)(10 + t * (k + 1) / D +
			    0.1 * (urand() - 0.5));
	}
	return x;
}

/* Leading eigenvector of the (centered) second moments, by power steps. */
static void
power_ref(const float *x, int center, double *c)
{
	double mean[D] = { 0 }, m[D][D] = { { 0 } }, y[D];

	for (int i = 0; i < N; i++)
		for (int k = 0; k < D; k++)
			mean[k] += x[i * D + k] / (double)N;
	for (int i = 0; i < N; i++)
		for (int a = 0; a < D; a++)
			for (int b = 0; b < D; b++)
				m[a][b] += (x[i * D + a] - (center ?
				    mean[a] : 0)) * (x[i * D + b] - (center ?
				    mean[b] : 0)) / N;
	for (int k = 0; k < D; k++)
		c[k] = 1;
	for (int it = 0; it < 500; it++) {
		double s = 0;

		for (int a = 0; a < D; a++) {
			y[a] = 0;
			for (int b = 0; b < D; b++)
				y[a] += m[a][b] * c[b];
			s += y[a] * y[a];
		}
		for (int a = 0; a < D; a++)
			c[a] = y[a] / sqrt(s);
	}
}

START_TEST(fit_apply)
{
	float *x = data(), out[D];
	struct emb_pcafit *f;
	struct emb_pca *p;
	double c[D], dot;

	for (int center = 0; center < 2; center++) {
		ck_assert_int_eq(emb_pcafit_create(&f, D), 0);
		for (int i = 0; i < N; i++)
			emb_pcafit_add(f, x + i * D);
		ck_assert_int_eq(emb_pcafit_done(f, 2, center, &p), 0);
		power_ref(x, center, c);
		dot = 0;
		for (int k = 0; k < D; k++)
			dot += c[k] * p->comp[k];
		ck_assert_msg(fabs(dot) >= 1 - 1e-9, "center %d: %.17g",
		    center, dot);
		ck_assert_uint_eq(p->count, N);
		/* Applied: no part left along the components. */
		for (int i = 0; i < N; i += 97) {
			emb_pca_apply(p, x + i * D, out);
			for (uint32_t j = 0; j < 2; j++) {
				dot = 0;
				for (int k = 0; k < D; k++)
					dot += out[k] * p->comp[j * D + k];
				ck_assert(fabs(dot) < 1e-4);
			}
		}
		emb_pca_free(p);
		emb_pcafit_free(f);
	}
	free(x);
}
END_TEST

/*
 * A model reads back exactly: 3 components, and all D (past the first
 * rooms the reader doubles its components' memory through).
 */
START_TEST(file)
{
	float *x = data();
	struct emb_pcafit *f;
	struct emb_pca *p, *q;
	unsigned long line;
	uint32_t nc[] = { 3, D };

	for (int t = 0; t < 2; t++) {
		FILE *tmp = tmpfile();

		emb_pcafit_create(&f, D);
		for (int i = 0; i < N; i++)
			emb_pcafit_add(f, x + i * D);
		ck_assert_int_eq(emb_pcafit_done(f, nc[t], !t, &p), 0);
		ck_assert_int_eq(emb_pca_save(p, fileno(tmp)), 0);
		lseek(fileno(tmp), 0, SEEK_SET);
		ck_assert_int_eq(emb_pca_load(&q, fileno(tmp), &line), 0);
		ck_assert(q->dim == D && q->ncomp == nc[t] && q->center == !t);
		/* %.17g text reads back to the same doubles. */
		ck_assert(memcmp(q->mean, p->mean, D * sizeof(double)) == 0);
		ck_assert(memcmp(q->comp, p->comp, nc[t] * D *
		    sizeof(double)) == 0);
		emb_pca_free(p);
		emb_pca_free(q);
		emb_pcafit_free(f);
		fclose(tmp);
	}
	emb_pca_free(NULL);
	free(x);
}
END_TEST

/* Load the text s as a model. */
static int
loadtext(const char *s, unsigned long *line)
{
	FILE *tmp = tmpfile();
	struct emb_pca *p;
	int rc;

	fputs(s, tmp);
	fflush(tmp);
	lseek(fileno(tmp), 0, SEEK_SET);
	rc = emb_pca_load(&p, fileno(tmp), line);
	emb_pca_free(p);
	fclose(tmp);
	return rc;
}

START_TEST(bad)
{
	struct emb_pcafit *f;
	struct emb_pca *p;
	unsigned long line;
	float v[2] = { 1, 2 };

	ck_assert_int_eq(loadtext("emb-pca 1\ndim 2\ncenter 0\ncount 1\n"
	    "ncomp 0\nmean 0 0\n", &line), 0);
	ck_assert_int_eq(loadtext("emb-pca 2\n", &line), EMB_EFORMAT);
	ck_assert_uint_eq(line, 1);
	ck_assert_int_eq(loadtext("emb-pca 1\ndim 2\ncenter 0\ncount 1\n"
	    "ncomp 3\n", &line), EMB_EFORMAT);
	ck_assert_uint_eq(line, 5);
	ck_assert_int_eq(loadtext("emb-pca 1\ndim 2\ncenter 0\ncount 1\n"
	    "ncomp 0\nmean 0 nan\n", &line), EMB_EFORMAT);
	ck_assert_uint_eq(line, 6);
	ck_assert_int_eq(loadtext("emb-pca 1\ndim 2\ncenter 0\ncount 1\n"
	    "ncomp 0\nmean 0 0 0\n", &line), EMB_EFORMAT);
	ck_assert_int_eq(loadtext("emb-pca 1\ndim 2\ncenter 0\ncount 1\n"
	    "ncomp 0\nmean 0 0\nextra\n", &line), EMB_EFORMAT);
	ck_assert_uint_eq(line, 7);

	ck_assert_int_eq(emb_pcafit_create(&f, 0), EMB_EDIM);
	ck_assert_int_eq(emb_pcafit_create(&f, 2), 0);
	ck_assert_int_eq(emb_pcafit_done(f, 1, 1, &p), EMB_EEMPTY);
	emb_pcafit_add(f, v);
	ck_assert_int_eq(emb_pcafit_done(f, 3, 1, &p), EMB_EINVAL);
	emb_pcafit_free(f);
	emb_pcafit_free(NULL);
}
END_TEST

/*
 * Fewer vectors than dimensions take the Gram route; the same vectors
 * each given twice (same mean, same second moments) take the scatter
 * route.  The components agree, signs included, centered or not.
 */
START_TEST(gram_scatter)
{
	enum { GN = 12, GD = 40, GK = 5 };
	static float x[GN * GD];
	struct emb_pcafit *f, *g;
	struct emb_pca *p, *q;

	for (int i = 0; i < GN; i++) {
		double a = 4 * (urand() - 0.5), b = 2 * (urand() - 0.5);

		for (int k = 0; k < GD; k++)
			x[i * GD + k] = (float)(3 + a * sin(k + 1) +
			    b * cos(2 * k) + 0.05 * (urand() - 0.5));
	}
	for (int center = 0; center < 2; center++) {
		ck_assert_int_eq(emb_pcafit_create(&f, GD), 0);
		ck_assert_int_eq(emb_pcafit_create(&g, GD), 0);
		for (int i = 0; i < GN; i++) {
			ck_assert_int_eq(emb_pcafit_add(f, x + i * GD), 0);
			for (int t = 0; t < 4; t++)
				ck_assert_int_eq(emb_pcafit_add(g,
				    x + i * GD), 0);
		}
		ck_assert_int_eq(emb_pcafit_done(f, GK, center, &p), 0);
		ck_assert_int_eq(emb_pcafit_done(g, GK, center, &q), 0);
		for (int k = 0; k < GD; k++)
			ck_assert(fabs(p->mean[k] - q->mean[k]) < 1e-12);
		for (int k = 0; k < GK * GD; k++)
			ck_assert_msg(fabs(p->comp[k] - q->comp[k]) < 1e-8,
			    "center %d: entry %d: %.17g %.17g", center, k,
			    p->comp[k], q->comp[k]);
		emb_pca_free(p);
		emb_pca_free(q);
		emb_pcafit_free(f);
		emb_pcafit_free(g);
	}
}
END_TEST

/*
 * More components than the data span (2 vectors, dimension 50): the
 * rest are unit vectors made orthogonal, the whole set orthonormal.
 */
START_TEST(gram_complete)
{
	enum { CD = 50, CK = 6 };
	float v[2][CD];
	struct emb_pcafit *f;
	struct emb_pca *p;

	for (int k = 0; k < CD; k++) {
		v[0][k] = (float)(k % 7) - 3;
		v[1][k] = (float)(k % 5) - 2;
	}
	for (int center = 0; center < 2; center++) {
		ck_assert_int_eq(emb_pcafit_create(&f, CD), 0);
		emb_pcafit_add(f, v[0]);
		emb_pcafit_add(f, v[1]);
		ck_assert_int_eq(emb_pcafit_done(f, CK, center, &p), 0);
		for (int a = 0; a < CK; a++)
			for (int b = 0; b < CK; b++) {
				double s = 0;

				for (int k = 0; k < CD; k++)
					s += p->comp[a * CD + k] *
					    p->comp[b * CD + k];
				ck_assert_msg(fabs(s - (a == b)) < 1e-12,
				    "center %d: %d.%d = %g", center, a, b, s);
			}
		emb_pca_free(p);
		emb_pcafit_free(f);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("pca");
	TCase *tc = tcase_create("pca");

	tcase_add_test(tc, fit_apply);
	tcase_add_test(tc, file);
	tcase_add_test(tc, bad);
	tcase_add_test(tc, gram_scatter);
	tcase_add_test(tc, gram_complete);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(suite)
