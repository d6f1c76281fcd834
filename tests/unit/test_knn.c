/*
 * test_knn.c - the nearest-neighbour search against its plain-loop twin,
 * and its promises: ties to the earlier reference, exclusions, results
 * independent of batch size and thread count.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "emb.h"
#include "int.h"

/*
 * Assertions inside long loops: libcheck records every ck_assert, which
 * costs a write(2) each; this one costs nothing until it fails.
 */
#define CHECK(c) do {							\
	if (!(c))							\
		ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #c);	\
} while (0)

/* Deterministic pseudo-random numbers in [-1, 1). */
static uint64_t seed = 42;

static float
rnd(void)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return (float)((seed >> 40) / (double)(1ull << 24) * 2 - 1);
}

/* A reference set of n random vectors keyed "w<i>". */
static struct emb_knn *
randset(size_t n, uint32_t dim)
{
	struct emb_knn *kn;
	float *v = malloc(dim * sizeof(*v));
	char key[32];

	ck_assert_int_eq(emb_knn_create(&kn, dim), 0);
	for (size_t i = 0; i < n; i++) {
		int len = snprintf(key, sizeof(key), "w%zu", i);

		for (uint32_t d = 0; d < dim; d++)
			v[d] = rnd();
		CHECK(emb_knn_add(kn, key, (size_t)len, v) == 0);
	}
	free(v);
	return kn;
}

/* nq random unit queries, row stride ld. */
static float *
randq(size_t nq, uint32_t dim, size_t ld)
{
	float *q = emb_alloc(nq * ld * sizeof(*q) + 1);

	for (size_t i = 0; i < nq; i++) {
		for (uint32_t d = 0; d < dim; d++)
			q[i * ld + d] = rnd();
		emb_unit(q + i * ld, dim);
	}
	return q;
}

/*
 * The fast list equals the reference list, except that two references
 * whose similarities are within tol may trade places.
 */
static void
samelists(const struct emb_hit *a, const struct emb_hit *b, size_t nq,
    unsigned k, double tol)
{
	for (size_t i = 0; i < nq * k; i++) {
		if (a[i].ref == EMB_KNN_NONE || b[i].ref == EMB_KNN_NONE) {
			CHECK(a[i].ref == b[i].ref);
			continue;
		}
		CHECK(fabs((double)a[i].sim - b[i].sim) <= tol);
		if (a[i].ref != b[i].ref) {
			/* A near tie: the other list holds it close by. */
			int found = 0;

			for (size_t j = i / k * k; j < i / k * k + k; j++)
				found |= b[j].ref == a[i].ref &&
				    fabs((double)b[j].sim - a[i].sim) <= tol;
			CHECK(found);
		}
	}
}

START_TEST(test_sizes)
{
	static const size_t nrefs[] = { 1, 2, 7, 8, 255, 256, 257, 2049,
	    2100 };
	static const size_t nqs[] = { 1, 7, 385 };
	static const unsigned ks[] = { 1, 5, 300 };
	static const uint32_t dims[] = { 1, 7, 100 };

	for (size_t a = 0; a < sizeof(nrefs) / sizeof(*nrefs); a++)
	for (size_t b = 0; b < sizeof(nqs) / sizeof(*nqs); b++)
	for (size_t c = 0; c < sizeof(ks) / sizeof(*ks); c++) {
		uint32_t dim = dims[(a + b + c) % 3];
		size_t ld = dim + 3, nq = nqs[b];
		unsigned k = ks[c];
		struct emb_knn *kn = randset(nrefs[a], dim);
		float *q = randq(nq, dim, ld);
		struct emb_hit *h1 = malloc(nq * k * sizeof(*h1));
		struct emb_hit *h2 = malloc(nq * k * sizeof(*h2));

		ck_assert_int_eq(emb_knn_search(kn, q, nq, ld, k, NULL, NULL,
		    2, h1), 0);
		ck_assert_int_eq(emb_knn_search_ref(kn, q, nq, ld, k, NULL,
		    NULL, h2), 0);
		samelists(h1, h2, nq, k, 1e-5);
		/* Sorted, best first. */
		for (size_t i = 0; i < nq; i++)
			for (unsigned j = 1; j < k; j++)
				if (h1[i * k + j].ref != EMB_KNN_NONE)
					CHECK(h1[i * k + j - 1].sim >=
					    h1[i * k + j].sim);
		free(h1);
		free(h2);
		emb_free(q);
		emb_knn_free(kn);
	}
}
END_TEST

/* Bit-identical answers whatever the threads and the batch split. */
START_TEST(test_deterministic)
{
	const uint32_t dim = 300;
	const size_t nq = 400, ld = 304;	/* two query tiles */
	const unsigned k = 10;
	struct emb_knn *kn = randset(2500, dim);	/* two blocks */
	float *q = randq(nq, dim, ld);
	struct emb_hit *h0 = malloc(nq * k * sizeof(*h0));
	struct emb_hit *h = malloc(nq * k * sizeof(*h));
	static const unsigned threads[] = { 1, 2, 3, 7 };
	static const size_t batches[] = { 1, 3, 100, 399 };

	ck_assert_int_eq(emb_knn_search(kn, q, nq, ld, k, NULL, NULL, 1, h0),
	    0);
	for (size_t t = 0; t < 4; t++)
	for (size_t b = 0; b < 4; b++) {
		for (size_t i = 0; i < nq; i += batches[b]) {
			size_t m = nq - i < batches[b] ? nq - i : batches[b];

			/* Single queries only for a slice: they are slow. */
			if (batches[b] == 1 && i >= 50)
				break;
			CHECK(emb_knn_search(kn, q + i * ld, m, ld, k, NULL,
			    NULL, threads[t], h + i * k) == 0);
		}
		for (size_t i = 0; i < (batches[b] == 1 ? 50 : nq) * k; i++) {
			CHECK(h[i].ref == h0[i].ref);
			CHECK(memcmp(&h[i].sim, &h0[i].sim, 4) == 0);
		}
	}
	emb_knn_free(kn);
	/* A last block of one reference, and single queries. */
	kn = randset(2049, dim);
	ck_assert_int_eq(emb_knn_search(kn, q, nq, ld, k, NULL, NULL, 2, h0),
	    0);
	for (size_t i = 0; i < 20; i++)
		CHECK(emb_knn_search(kn, q + i * ld, 1, ld, k, NULL, NULL, 1,
		    h + i * k) == 0);
	for (size_t i = 0; i < 20 * k; i++) {
		CHECK(h[i].ref == h0[i].ref);
		CHECK(memcmp(&h[i].sim, &h0[i].sim, 4) == 0);
	}
	free(h0);
	free(h);
	emb_free(q);
	emb_knn_free(kn);
}
END_TEST

/* Equal similarities: the earlier reference first, in both twins. */
START_TEST(test_ties)
{
	struct emb_knn *kn;
	float v[4] = { 1, 2, 3, 4 }, w[4] = { -1, 0, 0, 0 }, q[4];
	struct emb_hit h[6];

	ck_assert_int_eq(emb_knn_create(&kn, 4), 0);
	for (int i = 0; i < 10; i++) {
		float s[4] = { v[0] * (i + 1), v[1] * (i + 1), v[2] * (i + 1),
		    v[3] * (i + 1) };

		/* Every other reference is the same direction, scaled. */
		ck_assert_int_eq(emb_knn_add(kn, "k", 1, i % 2 ? w : s), 0);
	}
	memcpy(q, v, sizeof(q));
	emb_unit(q, 4);
	for (int twin = 0; twin < 2; twin++) {
		if (twin == 0)
			ck_assert_int_eq(emb_knn_search(kn, q, 1, 4, 6, NULL,
			    NULL, 3, h), 0);
		else
			ck_assert_int_eq(emb_knn_search_ref(kn, q, 1, 4, 6,
			    NULL, NULL, h), 0);
		/* Scaled copies of v give (nearly) the same unit vector. */
		for (int i = 0; i < 5; i++)
			ck_assert_uint_eq(h[i].ref, 2 * i);
		ck_assert_uint_eq(h[5].ref, 1);
	}
	emb_knn_free(kn);
}
END_TEST

/* Exclusions, and fewer references than k. */
START_TEST(test_exclude)
{
	struct emb_knn *kn = randset(20, 5);
	float *q = randq(3, 5, 5);
	size_t xoff[4] = { 0, 2, 2, 22 };
	uint32_t xref[22] = { 0, 3 };
	struct emb_hit h[3 * 25], r[3 * 25];

	for (uint32_t i = 0; i < 20; i++)
		xref[2 + i] = i;
	ck_assert_int_eq(emb_knn_search(kn, q, 3, 5, 25, xoff, xref, 2, h),
	    0);
	ck_assert_int_eq(emb_knn_search_ref(kn, q, 3, 5, 25, xoff, xref, r),
	    0);
	samelists(h, r, 3, 25, 1e-6);
	for (int j = 0; j < 18; j++) {
		ck_assert(h[j].ref != 0 && h[j].ref != 3);
		ck_assert(h[j].ref != EMB_KNN_NONE);
	}
	for (int j = 18; j < 25; j++)
		ck_assert_uint_eq(h[j].ref, EMB_KNN_NONE);
	for (int j = 0; j < 20; j++)
		ck_assert(h[25 + j].ref != EMB_KNN_NONE);
	for (int j = 20; j < 25; j++) {
		ck_assert_uint_eq(h[25 + j].ref, EMB_KNN_NONE);
		ck_assert(isinf(h[25 + j].sim));
	}
	/* Everything excluded: no neighbour at all. */
	for (int j = 0; j < 25; j++)
		ck_assert_uint_eq(h[50 + j].ref, EMB_KNN_NONE);
	emb_free(q);
	emb_knn_free(kn);
}
END_TEST

START_TEST(test_zero)
{
	struct emb_knn *kn;
	float zero[3] = { 0, 0, 0 }, v[3] = { 3, 0, 4 }, u[3];
	struct emb_hit h[3];

	memcpy(u, v, sizeof(u));
	ck_assert_int_eq(emb_unit(u, 3), 1);
	ck_assert(fabsf(u[0] - 0.6f) < 1e-7 && u[1] == 0 &&
	    fabsf(u[2] - 0.8f) < 1e-7);
	ck_assert_int_eq(emb_knn_create(&kn, 3), 0);
	ck_assert_int_eq(emb_knn_add(kn, "z", 1, zero), 0);
	ck_assert_int_eq(emb_knn_add(kn, "v", 1, v), 0);
	ck_assert_int_eq(emb_knn_add(kn, "y", 1, zero), 0);
	/* A zero query: everything at similarity 0, in reference order. */
	ck_assert_int_eq(emb_knn_search(kn, zero, 1, 3, 3, NULL, NULL, 1, h),
	    0);
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(h[i].ref, (unsigned)i);
		ck_assert(h[i].sim == 0);
	}
	/* A zero reference is at similarity 0 from any query. */
	ck_assert_int_eq(emb_knn_search(kn, u, 1, 3, 3, NULL, NULL, 1, h), 0);
	ck_assert_uint_eq(h[0].ref, 1);
	ck_assert_uint_eq(h[1].ref, 0);
	ck_assert_uint_eq(h[2].ref, 2);
	ck_assert(h[1].sim == 0);
	emb_knn_free(kn);
}
END_TEST

START_TEST(test_index)
{
	struct emb_knn *kn;
	static const char *keys[] = { "a\tx", "b\ty", "a\tz", "c", "b\ty" };
	float v[2] = { 1, 0 };
	size_t len;

	ck_assert_int_eq(emb_knn_create(&kn, 2), 0);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(emb_knn_add(kn, keys[i], strlen(keys[i]), v),
		    0);
	ck_assert_uint_eq(emb_knn_count(kn), 5);
	ck_assert_uint_eq(emb_knn_dim(kn), 2);
	ck_assert_str_eq(emb_knn_key(kn, 2, &len), "a\tz");
	ck_assert_uint_eq(len, 3);
	ck_assert(emb_knn_find(kn, "a", 1) == -1);	/* not indexed yet */
	ck_assert_int_eq(emb_knn_index(kn, 0), 0);
	ck_assert(emb_knn_find(kn, "a", 1) == 0);
	ck_assert(emb_knn_find_next(kn, 0) == 2);
	ck_assert(emb_knn_find_next(kn, 2) == -1);
	ck_assert(emb_knn_find(kn, "c", 1) == 3);
	ck_assert(emb_knn_find(kn, "d", 1) == -1);
	ck_assert(emb_knn_find(kn, "", 0) == -1);
	ck_assert_int_eq(emb_knn_index(kn, 1), 0);
	ck_assert(emb_knn_find(kn, "y", 1) == 1);
	ck_assert(emb_knn_find_next(kn, 1) == 4);
	ck_assert(emb_knn_find_next(kn, 3) == -1);	/* "c" has no field 2 */
	ck_assert(emb_knn_find(kn, "c", 1) == -1);
	/* Adding drops the index. */
	ck_assert_int_eq(emb_knn_add(kn, "y", 1, v), 0);
	ck_assert(emb_knn_find(kn, "y", 1) == -1);
	emb_knn_free(kn);
}
END_TEST

/* Growth keeps the vectors; errors. */
START_TEST(test_grow)
{
	struct emb_knn *kn;
	float v[3], u[3];
	struct emb_hit h[1];

	ck_assert_int_eq(emb_knn_create(&kn, 0), EMB_EDIM);
	ck_assert_ptr_null(kn);
	ck_assert_int_eq(emb_knn_create(&kn, EMB_DIM_MAX + 1), EMB_EDIM);
	ck_assert_int_eq(emb_knn_create(&kn, 3), 0);
	for (int i = 0; i < 5000; i++) {
		v[0] = (float)i;
		v[1] = 1;
		v[2] = 0;
		CHECK(emb_knn_add(kn, "w", 1, v) == 0);
	}
	for (int i = 0; i < 5000; i += 997) {
		v[0] = (float)i;
		memcpy(u, v, sizeof(u));
		emb_unit(u, 3);
		ck_assert(memcmp(emb_knn_vec(kn, (size_t)i), u, sizeof(u)) ==
		    0);
	}
	ck_assert_int_eq(emb_knn_reserve(kn, SIZE_MAX), EMB_ELIMIT);
	ck_assert_int_eq(emb_knn_reserve(kn, 10), 0);
	ck_assert_int_eq(emb_knn_search(kn, u, 1, 3, 0, NULL, NULL, 1, h),
	    EMB_EINVAL);
	ck_assert_int_eq(emb_knn_search(kn, u, 1, 2, 1, NULL, NULL, 1, h),
	    EMB_EINVAL);
	ck_assert_int_eq(emb_knn_search(kn, u, 1, 3, 1, NULL, NULL, 0, h),
	    EMB_EINVAL);
	ck_assert_int_eq(emb_knn_search_ref(kn, u, 1, 2, 1, NULL, NULL, h),
	    EMB_EINVAL);
	emb_knn_free(kn);
	emb_knn_free(NULL);
}
END_TEST

static Suite *
knn_suite(void)
{
	Suite *s = suite_create("knn");
	TCase *tc = tcase_create("knn");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_ties);
	tcase_add_test(tc, test_exclude);
	tcase_add_test(tc, test_zero);
	tcase_add_test(tc, test_index);
	tcase_add_test(tc, test_grow);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(knn_suite)
