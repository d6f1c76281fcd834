/*
 * test_crc.c - emb_crc32 against zlib's crc32 over every length up to 600
 * at each alignment, long buffers, chunked calls (on each path the
 * processor allows), and the folding constants recomputed from the
 * polynomial.
 */
#include <check.h>
#include <stdlib.h>
#include <zlib.h>

#include "check_main.h"
#include "emb.h"
#include "base/crc.h"
#include "base/cpu.h"

static unsigned char *
randbuf(size_t n, unsigned seed)
{
	unsigned char *b = malloc(n + 64);

	for (size_t i = 0; i < n + 64; i++) {
		seed = seed * 1103515245u + 12345u;
		b[i] = (unsigned char)(seed >> 16);
	}
	return b;
}

/*
 * Each test runs on each path: _i 0 the processor's best, 1 without
 * AVX-512 (VPCLMULQDQ on 256 bits), 2 without VPCLMULQDQ (the 128-bit
 * folding), 3 without PCLMULQDQ (zlib alone).
 */
static const unsigned paths[] = { EMB_CPU_ALL,
    EMB_CPU_ALL & ~EMB_CPU_AVX512F, EMB_CPU_ALL & ~EMB_CPU_VPCLMUL,
    EMB_CPU_ALL & ~EMB_CPU_PCLMUL };

START_TEST(lengths_and_alignments)
{
	unsigned char *b = randbuf(600, 1);

	emb_cpu_force(paths[_i]);
	for (size_t off = 0; off < 16; off++)
		for (size_t n = 0; n <= 600 - 16; n++) {
			uint32_t want = (uint32_t)crc32(0, b + off, (uInt)n);

			ck_assert_uint_eq(emb_crc32(0, b + off, n), want);
			want = (uint32_t)crc32(0x12345678, b + off, (uInt)n);
			ck_assert_uint_eq(emb_crc32(0x12345678, b + off, n),
			    want);
		}
	free(b);
	emb_cpu_force(EMB_CPU_ALL);
}
END_TEST

START_TEST(long_and_chunked)
{
	size_t n = (3u << 20) + 13;
	unsigned char *b = randbuf(n, 7);
	uint32_t want = (uint32_t)crc32(0, b, (uInt)n), got = 0;
	size_t step[] = { 1, 63, 64, 65, 255, 256, 257, 4096, 100003 };

	emb_cpu_force(paths[_i]);
	ck_assert_uint_eq(emb_crc32(0, b, n), want);
	for (size_t i = 0, p = 0; p < n; i++) {
		size_t m = step[i % 9];

		if (m > n - p)
			m = n - p;
		got = emb_crc32(got, b + p, m);
		p += m;
	}
	ck_assert_uint_eq(got, want);
	free(b);
	emb_cpu_force(EMB_CPU_ALL);
}
END_TEST

/* (x^e mod P), bit-reflected to 32 bits, shifted left once. */
static unsigned long long
fconst(int e)
{
	unsigned long long r = 1, o = 0;

	for (int i = 0; i < e; i++) {
		r <<= 1;
		if (r >> 32 & 1)
			r ^= 0x104c11db7ull;
	}
	for (int i = 0; i < 32; i++)
		if (r >> i & 1)
			o |= 1ull << (31 - i);
	return o << 1;
}

START_TEST(constants)
{
	ck_assert_uint_eq(fconst(1056), 0x1e88ef372ull);
	ck_assert_uint_eq(fconst(992), 0x14a7fe880ull);
	ck_assert_uint_eq(fconst(544), 0x154442bd4ull);
	ck_assert_uint_eq(fconst(480), 0x1c6e41596ull);
	ck_assert_uint_eq(fconst(160), 0x1751997d0ull);
	ck_assert_uint_eq(fconst(96), 0x0ccaa009eull);
	/* crc.h's, for four 512-bit registers 2048 bits ahead. */
	ck_assert_uint_eq(fconst(2080), EMB_CRC_K2080);
	ck_assert_uint_eq(fconst(2016), EMB_CRC_K2016);
}
END_TEST

static Suite *
crc_suite(void)
{
	Suite *s = suite_create("crc");
	TCase *tc = tcase_create("crc");

	tcase_add_loop_test(tc, lengths_and_alignments, 0, 4);
	tcase_add_loop_test(tc, long_and_chunked, 0, 4);
	tcase_add_test(tc, constants);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(crc_suite)
