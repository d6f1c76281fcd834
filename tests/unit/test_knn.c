/*
 * test_knn.c - the nearest-neighbour search against its plain-loop twin
 * (long double), on every kernel the CPU has, and its promises: the exact
 * cosine, ties to the earlier reference, exclusions, results independent
 * of batch size, thread count and kernel; the bounds that let it skip
 * pairs hold on random and adversarial vectors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "emb.h"
#include "ref.h"
#include "knn/knn.h"
#include "base/cpu.h"
#include "base/crc.h"

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
		CHECK(fabs(a[i].dist - b[i].dist) <= tol);
		if (a[i].ref != b[i].ref) {
			/* A near tie: the other list holds it close by. */
			int found = 0;

			for (size_t j = i / k * k; j < i / k * k + k; j++)
				found |= b[j].ref == a[i].ref &&
				    fabs(b[j].dist - a[i].dist) <= tol;
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

	for (int p = 0; p <= EMB_KNN_AVX512; p++)
	for (size_t a = 0; a < sizeof(nrefs) / sizeof(*nrefs); a++)
	for (size_t b = 0; b < sizeof(nqs) / sizeof(*nqs); b++)
	for (size_t c = 0; c < sizeof(ks) / sizeof(*ks); c++) {
		uint32_t dim = dims[(a + b + c) % 3];

		if (!knn_path_ok(p))
			continue;
		emb_knn_path_set(p);
		size_t ld = dim + 3, nq = nqs[b];
		unsigned k = ks[c];
		struct emb_knn *kn = randset(nrefs[a], dim);
		float *q = randq(nq, dim, ld);
		struct emb_hit *h1 = malloc(nq * k * sizeof(*h1));
		struct emb_hit *h2 = malloc(nq * k * sizeof(*h2));

		ck_assert_int_eq(emb_knn_search(kn, q, nq, ld, k, NULL, NULL,
		    2, h1, NULL), 0);
		ck_assert_int_eq(emb_knn_search_ref(kn, q, nq, ld, k, NULL,
		    NULL, h2), 0);
		samelists(h1, h2, nq, k, 1e-13);
		/* Sorted, best first. */
		for (size_t i = 0; i < nq; i++)
			for (unsigned j = 1; j < k; j++)
				if (h1[i * k + j].ref != EMB_KNN_NONE)
					CHECK(h1[i * k + j - 1].dist <=
					    h1[i * k + j].dist);
		free(h1);
		free(h2);
		emb_free(q);
		emb_knn_free(kn);
	}
	emb_knn_path_set(-1);
}
END_TEST

/*
 * Bit-identical answers whatever the threads, the batch split and the
 * kernel.
 */
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

	ck_assert_int_eq(emb_knn_search(kn, q, nq, ld, k, NULL, NULL, 1, h0,
	    NULL), 0);
	for (int p = 0; p <= EMB_KNN_AVX512; p++)
	for (size_t t = 0; t < 4; t++)
	for (size_t b = 0; b < 4; b++) {
		if (!knn_path_ok(p))
			continue;
		emb_knn_path_set(p);
		for (size_t i = 0; i < nq; i += batches[b]) {
			size_t m = nq - i < batches[b] ? nq - i : batches[b];

			/* Single queries only for a slice: they are slow. */
			if (batches[b] == 1 && i >= 50)
				break;
			CHECK(emb_knn_search(kn, q + i * ld, m, ld, k, NULL,
			    NULL, threads[t], h + i * k, NULL) == 0);
		}
		for (size_t i = 0; i < (batches[b] == 1 ? 50 : nq) * k; i++) {
			CHECK(h[i].ref == h0[i].ref);
			CHECK(memcmp(&h[i].dist, &h0[i].dist, 8) == 0);
		}
	}
	emb_knn_path_set(-1);
	emb_knn_free(kn);
	/* A last block of one reference, and single queries. */
	kn = randset(2049, dim);
	ck_assert_int_eq(emb_knn_search(kn, q, nq, ld, k, NULL, NULL, 2, h0,
	    NULL), 0);
	for (size_t i = 0; i < 20; i++)
		CHECK(emb_knn_search(kn, q + i * ld, 1, ld, k, NULL, NULL, 1,
		    h + i * k, NULL) == 0);
	for (size_t i = 0; i < 20 * k; i++) {
		CHECK(h[i].ref == h0[i].ref);
		CHECK(memcmp(&h[i].dist, &h0[i].dist, 8) == 0);
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
		float f = (float)(1 << i), s[4] = { v[0] * f, v[1] * f,
		    v[2] * f, v[3] * f };

		/* Every other reference is the same direction, scaled. */
		ck_assert_int_eq(emb_knn_add(kn, "k", 1, i % 2 ? w : s), 0);
	}
	memcpy(q, v, sizeof(q));
	for (int twin = 0; twin < 2; twin++) {
		if (twin == 0)
			ck_assert_int_eq(emb_knn_search(kn, q, 1, 4, 6, NULL,
			    NULL, 3, h, NULL), 0);
		else
			ck_assert_int_eq(emb_knn_search_ref(kn, q, 1, 4, 6,
			    NULL, NULL, h), 0);
		/* Copies of v scaled by 2^i: a tie, the exact cosine 1. */
		for (int i = 0; i < 5; i++) {
			ck_assert_uint_eq(h[i].ref, 2 * i);
			ck_assert(h[i].dist == 0);
		}
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
	ck_assert_int_eq(emb_knn_search(kn, q, 3, 5, 25, xoff, xref, 2, h,
	    NULL), 0);
	ck_assert_int_eq(emb_knn_search_ref(kn, q, 3, 5, 25, xoff, xref, r),
	    0);
	samelists(h, r, 3, 25, 1e-13);
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
		ck_assert(isinf(h[25 + j].dist));
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
	ck_assert_int_eq(emb_knn_search(kn, zero, 1, 3, 3, NULL, NULL, 1, h,
	    NULL), 0);
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(h[i].ref, (unsigned)i);
		ck_assert(h[i].dist == 1);
	}
	/* A zero reference is at similarity 0 from any query. */
	ck_assert_int_eq(emb_knn_search(kn, u, 1, 3, 3, NULL, NULL, 1, h,
	    NULL), 0);
	ck_assert_uint_eq(h[0].ref, 1);
	ck_assert_uint_eq(h[1].ref, 0);
	ck_assert_uint_eq(h[2].ref, 2);
	ck_assert(h[1].dist == 1);
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
	/* The vectors as given. */
	for (int i = 0; i < 5000; i += 997) {
		v[0] = (float)i;
		memcpy(u, v, sizeof(u));
		ck_assert(memcmp(emb_knn_vec(kn, (size_t)i), u, sizeof(u)) ==
		    0);
	}
	ck_assert_int_eq(emb_knn_reserve(kn, SIZE_MAX), EMB_ELIMIT);
	ck_assert_int_eq(emb_knn_reserve(kn, 10), 0);
	ck_assert_int_eq(emb_knn_search(kn, u, 1, 3, 0, NULL, NULL, 1, h,
	    NULL), EMB_EINVAL);
	ck_assert_int_eq(emb_knn_search(kn, u, 1, 2, 1, NULL, NULL, 1, h,
	    NULL), EMB_EINVAL);
	ck_assert_int_eq(emb_knn_search(kn, u, 1, 3, 1, NULL, NULL, 0, h,
	    NULL), EMB_EINVAL);
	ck_assert_int_eq(emb_knn_search_ref(kn, u, 1, 2, 1, NULL, NULL, h),
	    EMB_EINVAL);
	emb_knn_free(kn);
	emb_knn_free(NULL);
}
END_TEST


/* The exact cosine of two float vectors, in long double. */
static double
lcos(const float *a, const float *b, uint32_t dim)
{
	long double ab = 0, aa = 0, bb = 0;

	for (uint32_t d = 0; d < dim; d++) {
		ab += (long double)a[d] * b[d];
		aa += (long double)a[d] * a[d];
		bb += (long double)b[d] * b[d];
	}
	return aa > 0 && bb > 0 ? (double)(ab / sqrtl(aa) / sqrtl(bb)) : 0;
}

/*
 * Adversarial vectors, by kind: random; near copies of one direction
 * (near-ties); huge and tiny scales; subnormal components; zero vectors;
 * one dominant component; a few distinct values (exact ties).
 */
static void
advvec(float *v, uint32_t dim, int kind, const float *base)
{
	for (uint32_t d = 0; d < dim; d++)
		v[d] = rnd();
	switch (kind % 8) {
	case 1:		/* near a common direction */
		for (uint32_t d = 0; d < dim; d++)
			v[d] = base[d] + 1e-4f * v[d];
		break;
	case 2:		/* huge */
		for (uint32_t d = 0; d < dim; d++)
			v[d] *= 1e37f;
		break;
	case 3:		/* tiny, partly subnormal */
		for (uint32_t d = 0; d < dim; d++)
			v[d] *= 1e-40f;
		break;
	case 4:		/* zero */
		memset(v, 0, dim * sizeof(*v));
		break;
	case 5:		/* one component dominates, the rest subnormal */
		for (uint32_t d = 0; d < dim; d++)
			v[d] *= 1e-42f;
		v[0] = 3e38f;
		break;
	case 6:		/* a few values: many exact ties */
		for (uint32_t d = 0; d < dim; d++)
			v[d] = (float)((int)(v[d] * 2.5f));
		break;
	default:
		break;
	}
}

/*
 * The bounds the search drops pairs by: every int8 bound (each kernel,
 * from codes made by the portable and the vector code) and every float
 * bound is at least the exact cosine, on adversarial vectors of every
 * dimension from 1.
 */
START_TEST(test_bound)
{
	static const uint32_t dims[] = { 1, 2, 3, 5, 8, 31, 64, 300, 1000 };
	enum { NR = 130, NQ = 8 };

	for (int qp = 0; qp < 2; qp++)
	for (size_t a = 0; a < sizeof(dims) / sizeof(*dims); a++) {
		uint32_t dim = dims[a], dp = (dim + 3) / 4 * 4;
		struct emb_knn *kn;
		float *v = calloc(dim, sizeof(*v)), *base = calloc(dim, 4);
		float *Q = calloc((size_t)NQ * dim, sizeof(*Q));
		int8_t *qc = calloc((size_t)NQ * dp, 1);
		struct knn_qb qb[NQ];
		uint32_t refs[3][4][KNN_STRIP];
		float ubs[3][4][KNN_STRIP];

		/* Codes by the portable code (qp 0), then the vector one. */
		emb_knn_path_set(qp == 0 ? EMB_KNN_REF : -1);
		for (uint32_t d = 0; d < dim; d++)
			base[d] = rnd();
		ck_assert_int_eq(emb_knn_create(&kn, dim), 0);
		for (int i = 0; i < NR; i++) {
			advvec(v, dim, i, base);
			CHECK(emb_knn_add(kn, "", 0, v) == 0);
		}
		emb_knn_path_set(-1);
		for (int i = 0; i < NQ; i++) {
			float e;
			int32_t sum = 0;
			double n;

			advvec(Q + (size_t)i * dim, dim, i, base);
			n = sqrt(knn_dot(Q + (size_t)i * dim, Q + (size_t)i *
			    dim, dim));
			knn_quant(Q + (size_t)i * dim, dim, dp, n, qc +
			    (size_t)i * dp, &qb[i].s, &e, &qb[i].a);
			for (uint32_t d = 0; d < dim; d++)
				sum += qc[(size_t)i * dp + d];
			qb[i].corr = 128 * sum;
			qb[i].eps = e + 0x1p-20f;
			qb[i].tau = -INFINITY;
		}
		for (size_t s = 0; s < (NR + KNN_STRIP - 1) / KNN_STRIP; s++)
		for (int g = 0; g < NQ; g += 4) {
			size_t live = NR - s * KNN_STRIP;
			uint64_t m = live >= 64 ? ~(uint64_t)0 :
			    ((uint64_t)1 << live) - 1;
			int np = 0;

			for (int p = EMB_KNN_REF; p <= EMB_KNN_AVX512; p++) {
				struct knn_list l[4];
				knn_kernfn *f = p == EMB_KNN_REF ?
				    knn_kern_ref : p == EMB_KNN_AVXVNNI ?
				    knn_kern_avxvnni : knn_kern_avx512;

				if (!knn_path_ok(p))
					continue;
				for (int i = 0; i < 4; i++) {
					l[i].ref = refs[np][i];
					l[i].ub = ubs[np][i];
					l[i].n = 0;
				}
				f(kn->codes + s * KNN_STRIP * dp, qc +
				    (size_t)g * dp, dp, qb + g, kn->cs + s *
				    KNN_STRIP, kn->ce + s * KNN_STRIP, m,
				    (uint32_t)(s * KNN_STRIP), l);
				for (int i = 0; i < 4; i++) {
					/* tau = -inf: every live lane. */
					CHECK(l[i].n == (live < 64 ? live :
					    64));
					for (unsigned j = 0; j < l[i].n; j++) {
						uint32_t r = l[i].ref[j];
						double c = lcos(Q + (size_t)(g +
						    i) * dim, emb_knn_vec(kn,
						    r), dim);

						CHECK(l[i].ub[j] >= c);
						/* Kernels: the same sums. */
						CHECK(r == refs[0][i][j]);
						CHECK(fabsf(l[i].ub[j] -
						    ubs[0][i][j]) <= 1e-6f);
					}
				}
				np++;
			}
		}
		/* The float bound, summed in two orders. */
		for (int i = 0; i < NQ; i++)
			for (int r = 0; r < NR; r++) {
				const float *x = Q + (size_t)i * dim;
				const float *y = emb_knn_vec(kn, (size_t)r);
				double nx = sqrt(knn_dot(x, x, dim));
				double ny = sqrt(knn_dot(y, y, dim));
				double u = 0x1p-24, gam = dim * u / (1 - dim *
				    u), beta = 1.01 * gam + 2.01 * u + dim *
				    0x1p-148 + 0x1p-20;
				float f = 0, b = 0;

				for (uint32_t d = 0; d < dim; d++) {
					float xs = nx > 0 ? (float)(x[d] / nx) :
					    0, ys = ny > 0 ? (float)(y[d] /
					    ny) : 0;

					f += xs * ys;
				}
				for (uint32_t d = dim; d-- > 0;) {
					float xs = nx > 0 ? (float)(x[d] / nx) :
					    0, ys = ny > 0 ? (float)(y[d] /
					    ny) : 0;

					b += xs * ys;
				}
				CHECK(f + beta >= lcos(x, y, dim));
				CHECK(b + beta >= lcos(x, y, dim));
			}
		emb_knn_free(kn);
		free(v);
		free(base);
		free(Q);
		free(qc);
	}
}
END_TEST

/*
 * Adversarial sets through the whole search, on every kernel: the lists
 * of the long double twin (to its rounding), and a set whose references
 * are all nearly equidistant from the queries: the search leaves the
 * int8 bounds for the float ones and is still exact.
 */
START_TEST(test_adversarial)
{
	static const uint32_t dims[] = { 1, 3, 300 };

	for (size_t a = 0; a < 3; a++)
	for (int p = 0; p <= EMB_KNN_AVX512; p++) {
		uint32_t dim = dims[a];
		enum { NR = 3000, NQ = 40, K = 7 };
		float *v = calloc(dim, sizeof(*v)), *base = calloc(dim, 4);
		float *Q = calloc((size_t)NQ * dim, sizeof(*Q));
		struct emb_hit h1[NQ * K], h2[NQ * K];
		struct emb_knn_stats st;
		struct emb_knn *kn;

		if (!knn_path_ok(p))
			continue;
		emb_knn_path_set(p);
		seed = 7;
		for (uint32_t d = 0; d < dim; d++)
			base[d] = rnd();
		ck_assert_int_eq(emb_knn_create(&kn, dim), 0);
		for (int i = 0; i < NR; i++) {
			advvec(v, dim, i % 7 == 0 ? i : 1, base);
			CHECK(emb_knn_add(kn, "", 0, v) == 0);
		}
		for (int i = 0; i < NQ; i++)
			advvec(Q + (size_t)i * dim, dim, i, base);
		ck_assert_int_eq(emb_knn_search(kn, Q, NQ, dim, K, NULL, NULL,
		    2, h1, &st), 0);
		ck_assert_int_eq(emb_knn_search_ref(kn, Q, NQ, dim, K, NULL,
		    NULL, h2), 0);
		samelists(h1, h2, NQ, K, 1e-13);
		ck_assert_uint_eq(st.pairs, (uint64_t)NQ * NR);
		ck_assert_uint_eq(st.coded + st.flt, st.pairs);
		if (p != EMB_KNN_FLOAT && dim == 300)
			ck_assert(st.flt > 0);	/* near-equidistant tiles */
		emb_knn_free(kn);
		free(v);
		free(base);
		free(Q);
	}
	emb_knn_path_set(-1);
}
END_TEST

/*
 * The choice of kernel: its names, old and new; a kernel forced, or one
 * whose features are taken away (emb_cpu_force); and the dot product,
 * the same bits on every path.
 */
/*
 * The crc32 the AVX-512 kernel folds as it reads a run of strips is
 * zlib's crc32 of those bytes (every dimension of codes up to 3 x 64,
 * runs of 1 to 5 strips); the scores are the plain kernel's.
 */
START_TEST(test_fold)
{
	uint32_t dps[] = { 4, 8, 100, 192 };
	unsigned rs = 5;

	if (!knn_fold_ok())
		return;
	for (size_t di = 0; di < sizeof(dps) / sizeof(dps[0]); di++)
		for (size_t ns = 1; ns <= 5; ns++) {
			uint32_t dp = dps[di];
			size_t len = ns * KNN_STRIP * dp;
			/* aligned_alloc wants whole multiples of 64. */
			uint8_t *codes = aligned_alloc(64, (len + 63) / 64 * 64);
			int8_t *qc = aligned_alloc(64, (4 * (size_t)dp + 63) /
			    64 * 64);
			struct knn_qb qb[4];
			float cs[5 * KNN_STRIP], ce[5 * KNN_STRIP];
			uint32_t ref[4][2][KNN_STRIP];
			float ub[4][2][KNN_STRIP];
			struct knn_list l[2][4];
			struct knn_fold f;

			ck_assert_ptr_nonnull(codes);
			ck_assert_ptr_nonnull(qc);
			for (size_t i = 0; i < len; i++) {
				rs = rs * 1103515245u + 12345u;
				codes[i] = (uint8_t)(rs >> 16);
			}
			for (size_t i = 0; i < 4 * (size_t)dp; i++)
				qc[i] = (int8_t)(i * 7 % 255 - 127);
			for (size_t i = 0; i < 5 * KNN_STRIP; i++) {
				cs[i] = 0.01f;
				ce[i] = 0.001f;
			}
			for (int i = 0; i < 4; i++) {
				qb[i].s = 0.01f;
				qb[i].a = 1;
				qb[i].eps = 0;
				qb[i].corr = 0;
				qb[i].tau = -1e30f;
			}
			memset(&f, 0, sizeof(f));
			for (size_t s = 0; s < ns; s++) {
				unsigned a, b;

				for (int v = 0; v < 2; v++)
					for (int i = 0; i < 4; i++) {
						l[v][i].ref = ref[i][v];
						l[v][i].ub = ub[i][v];
						l[v][i].n = 0;
					}
				a = knn_kern_avx512(codes + s * KNN_STRIP * dp,
				    qc, dp, qb, cs + s * KNN_STRIP, ce + s *
				    KNN_STRIP, ~(uint64_t)0, 0, l[0]);
				b = knn_kern_avx512f(codes + s * KNN_STRIP * dp,
				    qc, dp, qb, cs + s * KNN_STRIP, ce + s *
				    KNN_STRIP, ~(uint64_t)0, 0, l[1], &f);
				ck_assert_uint_eq(a, b);
				for (int i = 0; i < 4; i++)
					ck_assert_mem_eq(ub[i][0], ub[i][1],
					    l[0][i].n * sizeof(float));
			}
			ck_assert_uint_eq(knn_fold_crc(&f, len),
			    emb_crc32(0, codes, len));
			free(codes);
			free(qc);
		}
}
END_TEST

START_TEST(test_paths)
{
	static const char *const name[] = { "float", "ref", "avxvnni",
	    "avx512", "c", "avx2", "AVX2", "", "avx" };
	static const int path[] = { EMB_KNN_FLOAT, EMB_KNN_REF,
	    EMB_KNN_AVXVNNI, EMB_KNN_AVX512, EMB_KNN_REF, EMB_KNN_AVXVNNI,
	    -1, -1, -1 };
	static const unsigned masks[] = { EMB_CPU_ALL,
	    EMB_CPU_ALL & ~EMB_CPU_AVX512F, 0 };
	static const uint32_t dims[] = { 1, 7, 8, 9, 300, 301 };
	float v[301], w[301];

	for (size_t i = 0; i < sizeof(name) / sizeof(*name); i++)
		ck_assert_int_eq(emb_knn_path_byname(name[i]), path[i]);
	ck_assert_int_eq(emb_knn_path_set(EMB_KNN_AVX512 + 1), EMB_EINVAL);
	ck_assert_int_eq(emb_knn_path_set(-2), EMB_EINVAL);
	for (int i = 0; i < 301; i++) {
		v[i] = rnd();
		w[i] = rnd();
	}
	for (size_t a = 0; a < sizeof(dims) / sizeof(*dims); a++) {
		double d0, d;

		ck_assert_int_eq(emb_knn_path_set(EMB_KNN_REF), 0);
		ck_assert_int_eq(knn_path(), EMB_KNN_REF);
		d0 = knn_dot(v, w, dims[a]);
		ck_assert_int_eq(emb_knn_path_set(-1), 0);
		for (size_t m = 0; m < sizeof(masks) / sizeof(*masks); m++) {
			emb_cpu_force(masks[m]);
			d = knn_dot(v, w, dims[a]);
			ck_assert(memcmp(&d, &d0, sizeof(d)) == 0);
		}
	}
	/* Without the features, no kernel that needs them. */
	emb_cpu_force(0);
	ck_assert(!knn_path_ok(EMB_KNN_AVXVNNI));
	ck_assert(!knn_path_ok(EMB_KNN_AVX512));
	ck_assert_int_eq(knn_path(), EMB_KNN_FLOAT);
	emb_knn_path_set(EMB_KNN_AVX512);
	ck_assert_int_eq(knn_path(), EMB_KNN_FLOAT);
	emb_cpu_force(EMB_CPU_ALL);
	ck_assert_int_eq(knn_path(), knn_path_ok(EMB_KNN_AVX512) ?
	    EMB_KNN_AVX512 : EMB_KNN_FLOAT);
	emb_knn_path_set(-1);
	ck_assert_int_eq(knn_path(), knn_path_ok(EMB_KNN_AVX512) ?
	    EMB_KNN_AVX512 : knn_path_ok(EMB_KNN_AVXVNNI) ?
	    EMB_KNN_AVXVNNI : EMB_KNN_FLOAT);
}
END_TEST

static Suite *
knn_suite(void)
{
	Suite *s = suite_create("knn");
	TCase *tc = tcase_create("knn");

	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_ties);
	tcase_add_test(tc, test_exclude);
	tcase_add_test(tc, test_zero);
	tcase_add_test(tc, test_index);
	tcase_add_test(tc, test_grow);
	tcase_add_test(tc, test_bound);
	tcase_add_test(tc, test_adversarial);
	tcase_add_test(tc, test_paths);
	tcase_add_test(tc, test_fold);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(knn_suite)
