/*
 * test_metrics.c - confusion, accuracy, macro-F1, ranks, Pearson and
 * Spearman against values computed independently (by hand and by
 * scikit-learn 1.2.1 / scipy 1.10.1, as each test says), and the folds.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "emb.h"
#include "ref.h"
#include "base/rng.h"

/*
 * Ten predictions over six classes; class 5 occurs nowhere, class 4 only
 * among the predictions.  By hand: 6 of 10 right; per-class F1 = 2 tp /
 * (row + col): class 0 2/(3+2), 1 6/(3+5), 2 2/(3+1), 3 2/(1+1), 4 0.
 * sklearn.metrics.f1_score(t, p, average="macro") = 0.53 (classes 0..4).
 */
static const int T10[] = { 0, 0, 1, 1, 2, 2, 2, 3, 0, 1 };
static const int P10[] = { 0, 1, 1, 1, 2, 0, 1, 3, 4, 1 };

START_TEST(test_confusion)
{
	uint64_t conf[36] = { 0 };

	ck_assert_int_eq(emb_confusion(T10, P10, 10, 6, conf), 0);
	ck_assert_uint_eq(conf[0 * 6 + 0], 1);
	ck_assert_uint_eq(conf[0 * 6 + 1], 1);
	ck_assert_uint_eq(conf[0 * 6 + 4], 1);
	ck_assert_uint_eq(conf[1 * 6 + 1], 3);
	ck_assert_uint_eq(conf[2 * 6 + 0], 1);
	ck_assert_uint_eq(conf[2 * 6 + 1], 1);
	ck_assert_uint_eq(conf[2 * 6 + 2], 1);
	ck_assert_uint_eq(conf[3 * 6 + 3], 1);
	ck_assert(fabs(emb_accuracy(conf, 6) - 0.6) < 1e-15);
	ck_assert(fabs(emb_macro_f1(conf, 6) - 0.53) < 1e-12);
	/* By hand, the same from the per-class values above. */
	ck_assert(fabs(emb_macro_f1(conf, 6) - (0.4 + 0.75 + 0.5 + 1 + 0) /
	    5) < 1e-12);
}
END_TEST

START_TEST(test_confusion_range)
{
	uint64_t conf[4] = { 0 };
	int t[] = { 0, 2 }, p[] = { 0, 1 }, q[] = { -1, 0 };

	ck_assert_int_eq(emb_confusion(t, p, 2, 2, conf), EMB_EINVAL);
	ck_assert_int_eq(emb_confusion(p, q, 2, 2, conf), EMB_EINVAL);
	memset(conf, 0, sizeof(conf));
	ck_assert(emb_accuracy(conf, 2) == 0);
	ck_assert(emb_macro_f1(conf, 2) == 0);
}
END_TEST

/*
 * x has ties; scipy.stats.rankdata(x) = [2, 3.5, 3.5, 5, 7, 7, 7, 1],
 * pearsonr(x, y)[0] = 0.6637171930074424,
 * spearmanr(x, y)[0] = 0.6522871628049347.
 */
static const double XC[] = { 1, 2, 2, 3, 5, 5, 5, 0.5 };
static const double YC[] = { 2, 1, 4, 4, 9, 3, 3, -1 };

START_TEST(test_rank)
{
	static const double want[] = { 2, 3.5, 3.5, 5, 7, 7, 7, 1 };
	double r[8];

	ck_assert_int_eq(emb_rank(XC, 8, r), 0);
	for (int i = 0; i < 8; i++)
		ck_assert(r[i] == want[i]);
	ck_assert_int_eq(emb_rank(XC, 0, r), 0);
}
END_TEST

START_TEST(test_correlations)
{
	double r;

	ck_assert_int_eq(emb_pearson(XC, YC, 8, &r), 0);
	ck_assert(fabs(r - 0.6637171930074424) < 1e-13);
	ck_assert_int_eq(emb_spearman(XC, YC, 8, &r), 0);
	ck_assert(fabs(r - 0.6522871628049347) < 1e-13);
	/* Exact cases by hand: a line, a reversed monotone curve. */
	{
		double a[] = { 1, 2, 3, 4 }, b[] = { 3, 5, 7, 9 };
		double c[] = { 100, 10, 1, 0.1 };

		ck_assert_int_eq(emb_pearson(a, b, 4, &r), 0);
		ck_assert(fabs(r - 1) < 1e-15);
		ck_assert_int_eq(emb_spearman(a, c, 4, &r), 0);
		ck_assert(fabs(r + 1) < 1e-15);
	}
}
END_TEST

START_TEST(test_correlations_undefined)
{
	double a[] = { 1, 2, 3 }, k[] = { 2, 2, 2 }, r;

	ck_assert_int_eq(emb_pearson(a, k, 3, &r), EMB_EZERO);
	ck_assert_int_eq(emb_spearman(k, a, 3, &r), EMB_EZERO);
	ck_assert_int_eq(emb_pearson(a, a, 1, &r), EMB_EEMPTY);
	ck_assert_int_eq(emb_spearman(a, a, 0, &r), EMB_EEMPTY);
}
END_TEST

/* Folds over awkward sizes: balanced, stratified, reproducible. */
START_TEST(test_folds)
{
	static const size_t sizes[] = { 1, 2, 7, 8, 255, 256, 257 };

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		int *y = malloc(n * sizeof(int)), *f = malloc(n * sizeof(int));
		int *g = malloc(n * sizeof(int)), k = 5, ncls = 3;
		size_t cnt[5] = { 0 }, lo = n, hi = 0;

		for (size_t i = 0; i < n; i++)
			y[i] = (int)(i * 7 % 3);
		ck_assert_int_eq(emb_folds(y, n, ncls, k, 1111, f), 0);
		ck_assert_int_eq(emb_folds(y, n, ncls, k, 1111, g), 0);
		ck_assert(memcmp(f, g, n * sizeof(int)) == 0);
		for (size_t i = 0; i < n; i++) {
			ck_assert(f[i] >= 0 && f[i] < k);
			cnt[f[i]]++;
		}
		for (int j = 0; j < k; j++) {
			lo = cnt[j] < lo ? cnt[j] : lo;
			hi = cnt[j] > hi ? cnt[j] : hi;
		}
		ck_assert(hi - lo <= 1);
		/* Within a class, fold counts differ by at most one too. */
		for (int c = 0; c < ncls; c++) {
			size_t cc[5] = { 0 }, l = n, h = 0;

			for (size_t i = 0; i < n; i++)
				if (y[i] == c)
					cc[f[i]]++;
			for (int j = 0; j < k; j++) {
				l = cc[j] < l ? cc[j] : l;
				h = cc[j] > h ? cc[j] : h;
			}
			ck_assert(h - l <= 1);
		}
		free(y);
		free(f);
		free(g);
	}
}
END_TEST

/*
 * The documented assignment, worked by hand: splitmix64 seeded with 0
 * draws 0xe220a8397b1dcdaf first (the generator's published first output),
 * two records of one class are shuffled with j = draw mod 2.
 */
START_TEST(test_rng)
{
	struct emb_rng g;
	size_t idx[2] = { 0, 1 };
	int y[4] = { 0, 0, 1, 1 }, f[4];

	emb_rng_seed(&g, 0);
	ck_assert_uint_eq(emb_rng_next(&g), 0xe220a8397b1dcdafull);
	emb_rng_seed(&g, 0);
	/* 0xe220a8397b1dcdaf is odd: j = 1, the pair stays in place. */
	emb_rng_perm(&g, idx, 2);
	ck_assert_uint_eq(idx[0], 0);
	ck_assert_uint_eq(idx[1], 1);
	ck_assert_int_eq(emb_folds(y, 4, 2, 2, 0, f), 0);
	ck_assert_int_eq(f[0], 0);
	ck_assert_int_eq(f[1], 1);
	ck_assert_int_eq(f[2] + f[3], 1);
	ck_assert_int_eq(emb_folds(y, 4, 2, 1, 0, f), EMB_EINVAL);
	y[3] = 2;
	ck_assert_int_eq(emb_folds(y, 4, 2, 2, 0, f), EMB_EINVAL);
	emb_rng_seed(&g, 42);
	for (int i = 0; i < 1000; i++) {
		double u = emb_rng_unif(&g);

		ck_assert(u >= 0 && u < 1);
	}
}
END_TEST

/*
 * The two intervals on 1..10 at level 0.5: order statistics k = 2, [3, 8];
 * numpy's linear quantiles at 0.25 and 0.75, [3.25, 7.75]; NAN when
 * empty.
 */
START_TEST(test_interval)
{
	double v[10], lo, hi;

	for (int i = 0; i < 10; i++)
		v[i] = 10 - i;
	emb_interval(v, 10, 0.5, EMB_IVL_ORDER, &lo, &hi);
	ck_assert(lo == 3 && hi == 8);
	for (int i = 0; i < 10; i++)
		v[i] = 10 - i;
	emb_interval(v, 10, 0.5, EMB_IVL_LINEAR, &lo, &hi);
	ck_assert(lo == 3.25 && hi == 7.75);
	emb_interval(v, 1, 0.95, EMB_IVL_LINEAR, &lo, &hi);
	ck_assert(lo == 1 && hi == 1);
	emb_interval(v, 0, 0.95, EMB_IVL_ORDER, &lo, &hi);
	ck_assert(isnan(lo) && isnan(hi));
}
END_TEST

static Suite *
metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_confusion);
	tcase_add_test(tc, test_confusion_range);
	tcase_add_test(tc, test_rank);
	tcase_add_test(tc, test_correlations);
	tcase_add_test(tc, test_correlations_undefined);
	tcase_add_test(tc, test_folds);
	tcase_add_test(tc, test_rng);
	tcase_add_test(tc, test_interval);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(metrics_suite)
