/*
 * test_bias.c - the association tests' numbers (bias.c) against what
 * they must be by hand: the permutation count against an enumeration of
 * bit masks, the pair direction of differences along one line, WEAT's
 * associations and MAC on orthogonal vectors.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "emb.h"

/* Every k-subset of n as a bit mask: those whose sum >= obs - tol. */
static uint64_t
bymask(const double *s, size_t n, size_t k, double obs, double tol)
{
	uint64_t hit = 0;

	for (uint32_t m = 0; m < 1u << n; m++) {
		double sum = 0;

		if ((size_t)__builtin_popcount(m) != k)
			continue;
		for (size_t i = 0; i < n; i++)
			if (m & 1u << i)
				sum += s[i];
		hit += sum >= obs - tol;
	}
	return hit;
}

START_TEST(test_weat_p)
{
	double s[9] = { 0.3, -0.1, 0.25, 0.05, -0.2, 0.1, 0.0, -0.05, 0.15 };
	struct emb_weat_p r;

	ck_assert_int_eq(emb_weat_p(s, 4, 5, 1000, 10, 1, &r), 0);
	ck_assert(r.exact && r.parts == 126 && r.count == 126);
	ck_assert_uint_eq(r.hit, bymask(s, 9, 4, s[0] + s[1] + s[2] + s[3],
	    1e-12));
	/* Sampled: nperm draws, a share near the exact one. */
	ck_assert_int_eq(emb_weat_p(s, 4, 5, 100, 20000, 1, &r), 0);
	ck_assert(!r.exact && r.parts == 126 && r.count == 20000);
	ck_assert(fabs((double)r.hit / 20000 - bymask(s, 9, 4, s[0] + s[1] +
	    s[2] + s[3], 1e-12) / 126.0) < 0.02);
}
END_TEST

/* Differences along one line, one of them reversed: that line, signed. */
START_TEST(test_pairdir)
{
	double D[3 * 4], u[4], e[4] = { 1, -2, 0, 2 };
	double f[3] = { 0.5, -0.2, 1.5 };

	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 4; j++)
			D[i * 4 + j] = f[i] * e[j];
	ck_assert_int_eq(emb_pairdir(D, 3, 4, u), 0);
	for (int j = 0; j < 4; j++)
		ck_assert_double_eq_tol(u[j], e[j] / 3, 1e-12);
	memset(D, 0, sizeof(D));
	ck_assert_int_eq(emb_pairdir(D, 3, 4, u), EMB_EZERO);
	ck_assert_int_eq(emb_pairdir(D, 0, 4, u), EMB_EEMPTY);
}
END_TEST

/*
 * X = {e0}, Y = {e1}, A = {e0, e2}, B = {e1}: s(e0) = 1/2 - 0, s(e1) =
 * 0 - 1; MAC over X, Y and A, B: (1/2 + 1 + 1 + 0) / 4.
 */
START_TEST(test_assoc_mac)
{
	float V[3 * 3] = { 2, 0, 0, 0, 3, 0, 0, 0, 1 };
	size_t x = 0, y = 1, a[2] = { 0, 2 }, b = 1;
	struct emb_wsets w = { V, 3, { &x, &y, a, &b }, { 1, 1, 2, 1 }, 0 };
	double C[2 * 4], s[2], stat;

	ck_assert_int_eq(emb_weat_assoc(&w, C, s), 0);
	ck_assert_double_eq_tol(s[0], 0.5, 1e-15);
	ck_assert_double_eq_tol(s[1], -1, 1e-15);
	ck_assert(isnan(emb_weat_effect(s, 1, 1, 0, &stat)) == 0);
	ck_assert_double_eq_tol(stat, 1.5, 1e-15);
	ck_assert_double_eq_tol(emb_mac(&w), 2.5 / 4, 1e-15);
	/* A = B: every association is 0. */
	w.row[EMB_SET_B] = a;
	w.n[EMB_SET_B] = 2;
	ck_assert_int_eq(emb_weat_assoc(&w, C, s), 1);
	ck_assert(s[0] == 0 && s[1] == 0);
}
END_TEST

/*
 * One vector up to length: rows 0 and 1 (2 e0 and 3 e0); not so with
 * row 2 (e1), nor for one row named twice, nor for one row.
 */
START_TEST(test_onevector)
{
	float V[3 * 2] = { 2, 0, 3, 0, 0, 1 };
	size_t two[2] = { 0, 1 }, three[3] = { 0, 1, 2 }, same[2] = { 0, 0 };
	struct emb_wsets w = { V, 2, { two, three, same, two },
	    { 2, 3, 2, 1 }, 0 };

	ck_assert_int_eq(emb_onevector(&w, EMB_SET_X), 1);
	ck_assert_int_eq(emb_onevector(&w, EMB_SET_Y), 0);
	ck_assert_int_eq(emb_onevector(&w, EMB_SET_A), 0);
	ck_assert_int_eq(emb_onevector(&w, EMB_SET_B), 0);
}
END_TEST

static Suite *
bias_suite(void)
{
	Suite *s = suite_create("bias");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_weat_p);
	tcase_add_test(tc, test_pairdir);
	tcase_add_test(tc, test_assoc_mac);
	tcase_add_test(tc, test_onevector);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(bias_suite)
