/*
 * test_hash.c - the string index, the hash, the generator, the byte
 * buffer and the thread runner against plain references.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "emb.h"
#include "base/hash.h"
#include "base/rng.h"

struct keys {
	char	**s;
	size_t	 *len;
};

static const char *
keyof(const void *ctx, size_t i, size_t *len)
{
	const struct keys *k = ctx;

	*len = k->len[i];
	return k->s[i];
}

START_TEST(fnv_vectors)
{
	/* The published FNV-1a 64 test values. */
	ck_assert_uint_eq(emb_hash("", 0), 0xcbf29ce484222325ull);
	ck_assert_uint_eq(emb_hash("a", 1), 0xaf63dc4c8601ec8cull);
	ck_assert_uint_eq(emb_hash("foobar", 6), 0x85944171f73967e8ull);
}
END_TEST

START_TEST(index_against_scan)
{
	enum { N = 20000 };
	struct keys k;
	struct emb_index x;
	struct emb_rng g;
	size_t had, nnew = 0;

	k.s = malloc(N * sizeof(*k.s));
	k.len = malloc(N * sizeof(*k.len));
	emb_rng_seed(&g, 7);
	emb_index_init(&x, keyof, &k);
	for (size_t i = 0; i < N; i++) {
		/* Short keys over a small alphabet: many repeats, NUL bytes. */
		size_t len = emb_rng_below(&g, 4);

		k.s[i] = malloc(len + 1);
		for (size_t j = 0; j < len; j++)
			k.s[i][j] = "ab\0c"[emb_rng_below(&g, 4)];
		k.len[i] = len;
		int rc = emb_index_add(&x, i, &had);
		ck_assert_int_ge(rc, 0);
		/* The reference: the first earlier equal key. */
		size_t first = i;
		for (size_t j = 0; j < i; j++)
			if (k.len[j] == len && memcmp(k.s[j], k.s[i], len) == 0) {
				first = j;
				break;
			}
		if (first == i) {
			ck_assert_int_eq(rc, 0);
			nnew++;
		} else {
			ck_assert_int_eq(rc, 1);
			ck_assert_uint_eq(had, first);
		}
		if (i == 200)
			break;
	}
	ck_assert_uint_eq(x.n, nnew);
	ck_assert_int_eq(emb_index_find(&x, "zz", 2), -1);
	/* Growth keeps every entry findable. */
	emb_index_free(&x);
	emb_index_init(&x, keyof, &k);
	for (size_t i = 0; i <= 200; i++)
		free(k.s[i]);
	for (size_t i = 0; i < N; i++) {
		k.s[i] = malloc(24);
		k.len[i] = (size_t)snprintf(k.s[i], 24, "w%zu", i * 7919);
	}
	for (size_t i = 0; i < N; i++)
		ck_assert_int_eq(emb_index_add(&x, i, NULL), 0);
	ck_assert_uint_le(2 * x.n, x.cap);
	for (size_t i = 0; i < N; i++)
		ck_assert_int_eq(emb_index_find(&x, k.s[i], k.len[i]),
		    (int64_t)i);
	ck_assert_int_eq(emb_index_find(&x, "w1", 2), -1);
	/* The probe alone, without tags, as over a store's buckets. */
	for (size_t i = 0; i < N; i += 97) {
		int64_t e;

		emb_index_probe(x.slot, NULL, x.cap,
		    emb_hash(k.s[i], k.len[i]), k.s[i], k.len[i], keyof, &k,
		    &e);
		ck_assert_int_eq(e, (int64_t)i);
	}
	for (size_t i = 0; i < N; i++)
		free(k.s[i]);
	free(k.s);
	free(k.len);
	emb_index_free(&x);
}
END_TEST

START_TEST(rng_reference)
{
	struct emb_rng g;
	size_t idx[5] = { 0, 1, 2, 3, 4 }, seen = 0;

	/* splitmix64 from state 0: its published first outputs. */
	emb_rng_seed(&g, 0);
	ck_assert_uint_eq(emb_rng_next(&g), 0xe220a8397b1dcdafull);
	ck_assert_uint_eq(emb_rng_next(&g), 0x6e789e6aa1b965f4ull);
	emb_rng_seed(&g, 3);
	for (int i = 0; i < 1000; i++) {
		uint64_t v = emb_rng_below(&g, 3);

		ck_assert_uint_lt(v, 3);
		ck_assert_uint_lt(emb_rng_below(&g, 1), 1);
		double u = emb_rng_unif(&g);
		ck_assert(u >= 0 && u < 1);
	}
	emb_rng_perm(&g, idx, 5);
	for (int i = 0; i < 5; i++)
		seen |= (size_t)1 << idx[i];
	ck_assert_uint_eq(seen, 31);
}
END_TEST

START_TEST(buf_grows)
{
	struct emb_buf b = { 0 };

	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(emb_buf_add(&b, "abc", 3), 0);
	ck_assert_uint_eq(b.len, 3000);
	ck_assert_int_eq(b.p[3000], '\0');
	ck_assert_int_eq(memcmp(b.p + 2997, "abc", 3), 0);
	ck_assert_int_eq(emb_buf_add(&b, NULL, 0), 0);
	/* Room reserved is written in place, with its NUL. */
	for (size_t n = 1; n <= 257; n = 2 * n + 1) {
		size_t len = b.len;

		ck_assert_int_eq(emb_buf_reserve(&b, n), 0);
		ck_assert_uint_ge(b.cap, len + n + 1);
		memset(b.p + len, 'x', n);
		b.len += n;
		b.p[b.len] = '\0';
	}
	ck_assert_uint_eq(b.len, 3000 + 1 + 3 + 7 + 15 + 31 + 63 + 127 + 255);
	ck_assert_int_eq(emb_buf_add(&b, "z", 1), 0);
	ck_assert_int_eq(b.p[b.len - 2], 'x');
	ck_assert_int_eq(b.p[b.len - 1], 'z');
	emb_buf_free(&b);
	ck_assert_ptr_null(b.p);
}
END_TEST

/* Doubling from 16, stopped at the cap; exact when need is the cap. */
START_TEST(grow_capped)
{
	static const struct {
		size_t	 need, max, cap;
		int	 rc;
	} step[] = {
		{ 3, 5, 5, 0 },			/* a first 16 above the cap */
		{ 6, 5, 5, EMB_ELIMIT },	/* nothing changed */
		{ 6, 100, 10, 0 },
		{ 11, 100, 20, 0 },
		{ 41, 100, 80, 0 },
		{ 81, 100, 100, 0 },
		{ 100, 100, 100, 0 },
		{ 1000, 1000, 1000, 0 },	/* exact */
		{ 1001, SIZE_MAX, 2000, 0 },	/* emb_grow */
		{ SIZE_MAX / 2, SIZE_MAX, 2000, EMB_ENOMEM },
	};
	int *a = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		ck_assert_int_eq(emb_grow_max(&a, &cap, step[i].need,
		    step[i].max, sizeof(*a)), step[i].rc);
		ck_assert_uint_eq(cap, step[i].cap);
		a[cap - 1] = (int)i;
	}
	ck_assert_int_eq(a[999], 7);
	free(a);
	a = NULL;
	cap = 0;
	ck_assert_int_eq(emb_grow(&a, &cap, 17, sizeof(*a)), 0);
	ck_assert_uint_eq(cap, 32);
	free(a);
}
END_TEST

struct sums {
	size_t	 lane[64];
};

static void
sumlane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct sums *s = arg;

	(void)w;
	for (size_t r = r0; r < r1; r++)
		s->lane[lane] += r;
}

START_TEST(par_lanes)
{
	for (int nt = 1; nt <= 5; nt++) {
		struct sums s;
		size_t tot = 0;

		memset(&s, 0, sizeof(s));
		emb_par_run(nt, 1000, 64, sumlane, &s);
		for (int l = 0; l < 64; l++)
			tot += s.lane[l];
		ck_assert_uint_eq(tot, 999 * 1000 / 2);
		/* Lane l is rows [n l / 64, n (l + 1) / 64), whatever nt. */
		ck_assert_uint_eq(s.lane[1], (15 + 30) * 16 / 2);
	}
	ck_assert_int_eq(emb_par_workers(4, 2), 2);
	ck_assert_int_eq(emb_par_workers(0, 2), 1);
	ck_assert_int_ge(emb_ncpu(), 1);
	ck_assert(emb_now() > 0);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("hash");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, fnv_vectors);
	tcase_add_test(tc, index_against_scan);
	tcase_add_test(tc, rng_reference);
	tcase_add_test(tc, buf_grows);
	tcase_add_test(tc, grow_capped);
	tcase_add_test(tc, par_lanes);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(suite)
