/*
 * crc.c - crc32 as zlib defines it (IEEE 802.3, reflected, pre- and
 * post-inverted), fast.
 *
 * The stream's trailer carries the crc32 of every record byte, so both ends
 * of every pipe stage checksum all their data; zlib's table code runs at
 * about 3 GB/s, slower than a pipe.  On x86-64 with PCLMULQDQ the data is
 * folded 64 bytes at a time by carry-less multiplication (the method of
 * Gopal et al., "Fast CRC Computation for Generic Polynomials Using
 * PCLMULQDQ Instruction", Intel, 2009), or 128 bytes at a time on 256-bit
 * registers where VPCLMULQDQ is there, or on two 512-bit registers where
 * AVX-512 is there too: half the instructions a byte, about 2.5 times
 * the 256-bit path's speed on data in cache, which is where emb-knn checks
 * a store's codes.  Folding keeps a 128-bit value
 * congruent, modulo the CRC polynomial, to all the data so far; instead of
 * a Barrett reduction, those 16 bytes are then fed to zlib, which yields
 * the same crc as the whole prefix.  Short inputs, the tail and other
 * machines use zlib directly: the portable path.
 */
#include "base/emb-base.h"
#include "base/crc.h"
#include "base/cpu.h"

#include <zlib.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/*
 * Folding constants: (x^e mod P) bit-reflected to 32 bits and shifted left
 * once, for P = 0x104c11db7.  Folding a 128-bit lane forward by D bits
 * multiplies its low (earlier) half by x^(D+32) and its high half by
 * x^(D-32).  tests/unit/test_crc.c recomputes them.
 */
#define K544	0x154442bd4ull	/* D = 512: four lanes at a time */
#define K480	0x1c6e41596ull
#define K1056	0x1e88ef372ull	/* D = 1024: eight lanes at a time */
#define K992	0x14a7fe880ull
#define K160	0x1751997d0ull	/* D = 128: one lane */
#define K96	0x0ccaa009eull

__attribute__((target("pclmul,sse4.1")))
static inline __m128i
fold(__m128i x, __m128i k, __m128i next)
{
	__m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
	__m128i hi = _mm_clmulepi64_si128(x, k, 0x11);

	return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

/*
 * crc of buf (n >= 64 bytes, n a multiple of 16) continuing crc, in zlib's
 * convention.
 */
__attribute__((target("pclmul,sse4.1")))
static uint32_t
crc_pclmul(uint32_t crc, const unsigned char *buf, size_t n)
{
	const __m128i k4 = _mm_set_epi64x((long long)K480, (long long)K544);
	const __m128i k1 = _mm_set_epi64x((long long)K96, (long long)K160);
	__m128i x0, x1, x2, x3;
	unsigned char out[16];

	x0 = _mm_loadu_si128((const __m128i *)buf);
	x1 = _mm_loadu_si128((const __m128i *)(buf + 16));
	x2 = _mm_loadu_si128((const __m128i *)(buf + 32));
	x3 = _mm_loadu_si128((const __m128i *)(buf + 48));
	/* zlib's pre-inversion enters as the first four data bytes. */
	x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)~crc));
	buf += 64;
	n -= 64;
	for (; n >= 64; buf += 64, n -= 64) {
		x0 = fold(x0, k4, _mm_loadu_si128((const __m128i *)buf));
		x1 = fold(x1, k4, _mm_loadu_si128((const __m128i *)(buf + 16)));
		x2 = fold(x2, k4, _mm_loadu_si128((const __m128i *)(buf + 32)));
		x3 = fold(x3, k4, _mm_loadu_si128((const __m128i *)(buf + 48)));
	}
	x0 = fold(x0, k1, x1);
	x0 = fold(x0, k1, x2);
	x0 = fold(x0, k1, x3);
	for (; n >= 16; buf += 16, n -= 16)
		x0 = fold(x0, k1, _mm_loadu_si128((const __m128i *)buf));
	/*
	 * x0 is congruent to the data as if it were its last 16 bytes after
	 * zeros; a zero-initialized crc ignores leading zeros, and zlib's
	 * initial value 0xffffffff inverts to exactly that.
	 */
	_mm_storeu_si128((__m128i *)out, x0);
	return (uint32_t)crc32(0xffffffffUL, out, 16);
}

/*
 * The same with VPCLMULQDQ on 256-bit registers: eight lanes, 128 bytes a
 * step, so that more multiplications are in flight (n >= 128).
 */
__attribute__((target("vpclmulqdq,avx2,pclmul,sse4.1")))
static uint32_t
crc_vpclmul(uint32_t crc, const unsigned char *buf, size_t n)
{
	const __m256i k8 = _mm256_set_epi64x((long long)K992,
	    (long long)K1056, (long long)K992, (long long)K1056);
	const __m128i k1 = _mm_set_epi64x((long long)K96, (long long)K160);
	__m256i y[4];
	__m128i x;
	unsigned char out[16];
	int i;

	for (i = 0; i < 4; i++)
		y[i] = _mm256_loadu_si256((const __m256i *)(buf + 32 * i));
	y[0] = _mm256_xor_si256(y[0], _mm256_zextsi128_si256(
	    _mm_cvtsi32_si128((int)~crc)));
	buf += 128;
	n -= 128;
	for (; n >= 128; buf += 128, n -= 128)
		for (i = 0; i < 4; i++)
			y[i] = _mm256_xor_si256(_mm256_xor_si256(
			    _mm256_clmulepi64_epi128(y[i], k8, 0x00),
			    _mm256_clmulepi64_epi128(y[i], k8, 0x11)),
			    _mm256_loadu_si256((const __m256i *)(buf +
			    32 * i)));
	/* The eight lanes, in data order, into one. */
	x = _mm256_castsi256_si128(y[0]);
	x = fold(x, k1, _mm256_extracti128_si256(y[0], 1));
	for (i = 1; i < 4; i++) {
		x = fold(x, k1, _mm256_castsi256_si128(y[i]));
		x = fold(x, k1, _mm256_extracti128_si256(y[i], 1));
	}
	for (; n >= 16; buf += 16, n -= 16)
		x = fold(x, k1, _mm_loadu_si128((const __m128i *)buf));
	_mm_storeu_si128((__m128i *)out, x);
	return (uint32_t)crc32(0xffffffffUL, out, 16);
}

/*
 * The same on two 512-bit registers: eight lanes, 128 bytes a step, and
 * the two products and the data joined by one three-way XOR (vpternlogq).
 * More registers are slower here: two chains already keep the multiplier
 * busy.
 */
__attribute__((target("vpclmulqdq,avx512f,avx512vl,pclmul,sse4.1")))
static uint32_t
crc_vpclmul512(uint32_t crc, const unsigned char *buf, size_t n)
{
	const __m512i k8 = _mm512_set_epi64((long long)K992,
	    (long long)K1056, (long long)K992, (long long)K1056,
	    (long long)K992, (long long)K1056, (long long)K992,
	    (long long)K1056);
	const __m128i k1 = _mm_set_epi64x((long long)K96, (long long)K160);
	__m512i z0, z1;
	__m128i x;
	unsigned char out[16];

	z0 = _mm512_loadu_si512(buf);
	z1 = _mm512_loadu_si512(buf + 64);
	z0 = _mm512_xor_si512(z0, _mm512_zextsi128_si512(
	    _mm_cvtsi32_si128((int)~crc)));
	buf += 128;
	n -= 128;
	for (; n >= 128; buf += 128, n -= 128) {
		z0 = _mm512_ternarylogic_epi64(
		    _mm512_clmulepi64_epi128(z0, k8, 0x00),
		    _mm512_clmulepi64_epi128(z0, k8, 0x11),
		    _mm512_loadu_si512(buf), 0x96);
		z1 = _mm512_ternarylogic_epi64(
		    _mm512_clmulepi64_epi128(z1, k8, 0x00),
		    _mm512_clmulepi64_epi128(z1, k8, 0x11),
		    _mm512_loadu_si512(buf + 64), 0x96);
	}
	/* The eight lanes, in data order, into one. */
	x = _mm512_castsi512_si128(z0);
	x = fold(x, k1, _mm512_extracti32x4_epi32(z0, 1));
	x = fold(x, k1, _mm512_extracti32x4_epi32(z0, 2));
	x = fold(x, k1, _mm512_extracti32x4_epi32(z0, 3));
	x = fold(x, k1, _mm512_castsi512_si128(z1));
	x = fold(x, k1, _mm512_extracti32x4_epi32(z1, 1));
	x = fold(x, k1, _mm512_extracti32x4_epi32(z1, 2));
	x = fold(x, k1, _mm512_extracti32x4_epi32(z1, 3));
	for (; n >= 16; buf += 16, n -= 16)
		x = fold(x, k1, _mm_loadu_si128((const __m128i *)buf));
	_mm_storeu_si128((__m128i *)out, x);
	return (uint32_t)crc32(0xffffffffUL, out, 16);
}

/*
 * The four registers, in data order, into one lane: each folded 512 bits
 * ahead onto the next, then the last one's lanes.  The lane is congruent
 * to the bytes folded from a zero state; zlib's crc32 of it from
 * 0xffffffff is their crc with zlib's final inversion, and zlib's initial
 * inversion of the n bytes is added back by crc32_combine: crc32(0, d) =
 * crc32(~0, d) ^ (~0 shifted n bytes).
 */
__attribute__((target("vpclmulqdq,avx512f,avx512vl,pclmul,sse4.1")))
static uint32_t
lanes512(const unsigned char *zb, uint64_t n)
{
	const __m512i k4 = _mm512_set_epi64((long long)K480, (long long)K544,
	    (long long)K480, (long long)K544, (long long)K480,
	    (long long)K544, (long long)K480, (long long)K544);
	const __m128i k1 = _mm_set_epi64x((long long)K96, (long long)K160);
	__m512i z = _mm512_loadu_si512(zb);
	unsigned char out[16];
	__m128i x;

	for (int i = 1; i < 4; i++)
		z = _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(z, k4,
		    0x00), _mm512_clmulepi64_epi128(z, k4, 0x11),
		    _mm512_loadu_si512(zb + 64 * i), 0x96);
	x = _mm512_castsi512_si128(z);
	x = fold(x, k1, _mm512_extracti32x4_epi32(z, 1));
	x = fold(x, k1, _mm512_extracti32x4_epi32(z, 2));
	x = fold(x, k1, _mm512_extracti32x4_epi32(z, 3));
	_mm_storeu_si128((__m128i *)out, x);
	return (uint32_t)crc32(0xffffffffUL, out, 16) ^
	    (uint32_t)crc32_combine(0xffffffffUL, 0, (z_off_t)n);
}

/* The features each path needs. */
#define CRC_PCLMUL	(EMB_CPU_PCLMUL | EMB_CPU_SSE41)
#define CRC_VPCLMUL	(EMB_CPU_VPCLMUL | EMB_CPU_AVX2 | EMB_CPU_PCLMUL)
#define CRC_VPCLMUL512	(CRC_VPCLMUL | EMB_CPU_AVX512F | EMB_CPU_AVX512VL)
#endif

int
emb_crc32_lanes_ok(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	return emb_cpu_has(CRC_VPCLMUL512);
#else
	return 0;
#endif
}

uint32_t
emb_crc32_lanes(const unsigned char *z, uint64_t n)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (n > 0 && emb_cpu_has(CRC_VPCLMUL512))
		return lanes512(z, n);
#endif
	(void)z;
	(void)n;
	return 0;
}

uint32_t
emb_crc32(uint32_t crc, const void *buf, size_t n)
{
	const unsigned char *p = buf;

#if defined(__x86_64__) && defined(__GNUC__)
	if (n >= 128 && emb_cpu_has(CRC_VPCLMUL512)) {
		size_t m = n & ~(size_t)15;

		crc = crc_vpclmul512(crc, p, m);
		p += m;
		n -= m;
	} else if (n >= 128 && emb_cpu_has(CRC_VPCLMUL)) {
		size_t m = n & ~(size_t)15;

		crc = crc_vpclmul(crc, p, m);
		p += m;
		n -= m;
	} else if (n >= 64 && emb_cpu_has(CRC_PCLMUL)) {
		size_t m = n & ~(size_t)15;

		crc = crc_pclmul(crc, p, m);
		p += m;
		n -= m;
	}
#endif
	while (n > 0) {
		/* zlib takes at most a uInt at a time. */
		uInt chunk = n > (1u << 30) ? 1u << 30 : (uInt)n;

		crc = (uint32_t)crc32(crc, p, chunk);
		p += chunk;
		n -= chunk;
	}
	return crc;
}
