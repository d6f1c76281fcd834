/*
 * test_pool.c - pooling against its plain-loop twin, and the group reader
 * on streams with groups, lone vectors and empty groups.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "emb.h"
#include "ref.h"
#define URAND_SEED	0x2545f4914f6cdd1dull
#include "urand.h"

START_TEST(pool_vs_ref)
{
	static const size_t ns[] = { 0, 1, 2, 7, 8, 255, 256, 257 };
	static const uint32_t dims[] = { 1, 2, 7, 8, 300 };

	for (size_t a = 0; a < sizeof(ns) / sizeof(ns[0]); a++)
	for (size_t b = 0; b < sizeof(dims) / sizeof(dims[0]); b++)
	for (int how = EMB_POOL_MEAN; how <= EMB_POOL_MIN; how++)
	for (int weighted = 0; weighted < 2; weighted++) {
		size_t n = ns[a];
		uint32_t dim = dims[b];
		float *v = malloc((n * dim + 1) * sizeof(float));
		float *o1 = malloc(dim * sizeof(float));
		float *o2 = malloc(dim * sizeof(float));
		double *acc = malloc(dim * sizeof(double));
		double *wt = malloc((n + 1) * sizeof(double));
		long u1, u2;

		for (size_t i = 0; i < n * dim; i++)
			v[i] = (float)(2 * urand() - 1);
		if (n > 2)	/* a zero row */
			memset(v + dim, 0, dim * sizeof(float));
		for (size_t i = 0; i < n; i++)
			wt[i] = urand();
		u1 = emb_pool(how, v, n, dim, weighted ? wt : NULL, o1, acc);
		u2 = emb_pool_ref(how, v, n, dim, weighted ? wt : NULL, o2);
		ck_assert_int_eq(u1, u2);
		if (how == EMB_POOL_UNIT && n > 2)
			ck_assert_int_eq(u1, (long)n - 1);
		for (uint32_t k = 0; k < dim; k++) {
			ck_assert(fabsf(o1[k] - o2[k]) <= 1e-6f *
			    (1 + fabsf(o2[k])));
			if (n == 0)
				ck_assert(o1[k] == 0);
		}
		free(v);
		free(o1);
		free(o2);
		free(acc);
		free(wt);
	}
	ck_assert_int_eq(emb_pool(9, NULL, 0, 1, NULL, NULL, NULL),
	    EMB_EINVAL);
	ck_assert_int_eq(emb_pool_ref(9, NULL, 0, 1, NULL, NULL), EMB_EINVAL);
}
END_TEST

START_TEST(mean_values)
{
	const float v[] = { 3, 4, 0, 2 };
	float out[2];
	double acc[2];

	emb_pool(EMB_POOL_MEAN, v, 2, 2, NULL, out, acc);
	ck_assert(out[0] == 1.5f && out[1] == 3);
	emb_pool(EMB_POOL_UNIT, v, 2, 2, NULL, out, acc);
	ck_assert(fabsf(out[0] - 0.3f) < 1e-7f && fabsf(out[1] - 0.9f) <
	    1e-7f);
	emb_pool(EMB_POOL_MAX, v, 2, 2, NULL, out, acc);
	ck_assert(out[0] == 3 && out[1] == 4);
	emb_pool(EMB_POOL_MIN, v, 2, 2, NULL, out, acc);
	ck_assert(out[0] == 0 && out[1] == 2);
}
END_TEST

START_TEST(unit)
{
	for (uint32_t dim = 1; dim <= 300; dim += dim < 9 ? 1 : 97) {
		float *v = malloc(dim * sizeof(float));
		float *w = malloc(dim * sizeof(float));
		double q = 0;

		for (uint32_t k = 0; k < dim; k++) {
			v[k] = w[k] = (float)(10 * urand() - 5);
			q += (double)v[k] * v[k];
		}
		ck_assert_int_eq(emb_unit(v, dim), 1);
		for (uint32_t k = 0; k < dim; k++)
			ck_assert(fabs(v[k] - w[k] / sqrt(q)) <= 1e-7);
		memset(v, 0, dim * sizeof(float));
		ck_assert_int_eq(emb_unit(v, dim), 0);
		ck_assert(v[0] == 0);
		free(v);
		free(w);
	}
}
END_TEST

START_TEST(groups)
{
	FILE *tmp = tmpfile();
	struct emb_writer *w;
	struct emb_reader *r;
	struct emb_group g = { 0 };
	float a[2] = { 1, 2 }, b[2] = { 3, 4 };
	size_t len;
	const char *k;

	ck_assert_int_eq(emb_writer_open(&w, fileno(tmp), 2), 0);
	emb_write_group(w, "s1\tpos", 6, 2);
	emb_write_vec(w, "good", 4, a);
	emb_write_vec(w, "film", 4, b);
	emb_write_group(w, "s2", 2, 0);
	emb_write_vec(w, "lone", 4, b);
	ck_assert_int_eq(emb_writer_close(w), 0);
	emb_writer_free(w);
	lseek(fileno(tmp), 0, SEEK_SET);
	ck_assert_int_eq(emb_reader_open(&r, fileno(tmp), "tmp"), 0);

	ck_assert_int_eq(emb_group_read(r, &g, 1), 1);
	ck_assert_str_eq(g.key, "s1\tpos");
	ck_assert_uint_eq(g.nmemb, 2);
	ck_assert(g.lone == 0 && g.recno == 1);
	ck_assert(g.v[2] == 3 && g.v[3] == 4);
	k = emb_group_mkey(&g, 1, &len);
	ck_assert(len == 4 && memcmp(k, "film", 4) == 0);

	ck_assert_int_eq(emb_group_read(r, &g, 1), 1);
	ck_assert_str_eq(g.key, "s2");
	ck_assert_uint_eq(g.nmemb, 0);

	ck_assert_int_eq(emb_group_read(r, &g, 0), 1);
	ck_assert_str_eq(g.key, "lone");
	ck_assert(g.lone == 1 && g.nmemb == 1 && g.v[0] == 3);

	ck_assert_int_eq(emb_group_read(r, &g, 0), 0);
	emb_group_free(&g);
	emb_group_free(NULL);
	emb_reader_free(r);
	fclose(tmp);
}
END_TEST

START_TEST(big_group)
{
	FILE *tmp = tmpfile();
	struct emb_writer *w;
	struct emb_reader *r;
	struct emb_group g = { 0 };
	float v[3];

	emb_writer_open(&w, fileno(tmp), 3);
	emb_write_group(w, "big", 3, 1000);
	for (int i = 0; i < 1000; i++) {
		v[0] = (float)i;
		v[1] = v[2] = 1;
		emb_write_vec(w, "w", 1, v);
	}
	emb_writer_close(w);
	emb_writer_free(w);
	lseek(fileno(tmp), 0, SEEK_SET);
	emb_reader_open(&r, fileno(tmp), "tmp");
	ck_assert_int_eq(emb_group_read(r, &g, 1), 1);
	ck_assert_uint_eq(g.nmemb, 1000);
	ck_assert(g.v[999 * 3] == 999);
	emb_group_free(&g);
	emb_reader_free(r);
	fclose(tmp);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("pool");
	TCase *tc = tcase_create("pool");

	tcase_add_test(tc, pool_vs_ref);
	tcase_add_test(tc, mean_values);
	tcase_add_test(tc, unit);
	tcase_add_test(tc, groups);
	tcase_add_test(tc, big_group);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(suite)
