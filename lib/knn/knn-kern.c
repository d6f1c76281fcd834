/*
 * knn-kern.c - the nearest-neighbour search's kernels: the code scores of
 * a strip of references against four queries, bounded and filtered, in
 * three versions (AVX-512 VNNI, AVX-VNNI, portable), each giving the same
 * integer sums; and the choice of a search's kernel (knn_path), from the
 * processor's features (cpu.h) or as emb_knn_path_set forced it.  The
 * exact score in double and the codes themselves are codes.c's.
 */
#include "knn/emb-knn.h"
#include "knn/knn.h"
#include "base/cpu.h"
#include "base/crc.h"

#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define KNN_X86	1
#endif

/* The features each vector version needs. */
#define KERN_AVXVNNI	(EMB_CPU_AVX2 | EMB_CPU_FMA | EMB_CPU_AVXVNNI)
#define KERN_AVX512	(EMB_CPU_AVX512F | EMB_CPU_AVX512BW | \
    EMB_CPU_AVX512VL | EMB_CPU_AVX512VNNI)

/* Append the references of the set bits of m (from lane base). */
static inline void
keep(struct knn_list *l, uint32_t m, uint32_t base, const float *ub)
{
	while (m) {
		int b = __builtin_ctz(m);

		l->ref[l->n] = base + (uint32_t)b;
		l->ub[l->n++] = ub[b];
		m &= m - 1;
	}
}

unsigned
knn_kern_ref(const uint8_t *strip, const int8_t *qc, uint32_t dp,
    const struct knn_qb *qb, const float *cs, const float *ce, uint64_t live,
    uint32_t base, struct knn_list *l)
{
	int32_t acc[4][KNN_STRIP];
	unsigned kept = 0;

	memset(acc, 0, sizeof(acc));
	for (uint32_t g = 0; g < dp / 4; g++) {
		const uint8_t *p = strip + (size_t)g * 4 * KNN_STRIP;

		for (int i = 0; i < 4; i++) {
			const int8_t *q = qc + (size_t)i * dp + 4 * g;

			for (int r = 0; r < KNN_STRIP; r++)
				acc[i][r] += p[4 * r] * q[0] +
				    p[4 * r + 1] * q[1] + p[4 * r + 2] * q[2] +
				    p[4 * r + 3] * q[3];
		}
	}
	for (int i = 0; i < 4; i++) {
		float ub[32];

		for (int h = 0; h < 2; h++) {
			uint32_t m = 0;

			for (int r = 0; r < 32; r++) {
				int j = 32 * h + r;
				float f = (float)(acc[i][j] - qb[i].corr);

				ub[r] = f * cs[j] * qb[i].s +
				    (ce[j] * qb[i].a + qb[i].eps);
				if (ub[r] >= qb[i].tau && (live >> j & 1))
					m |= 1u << r;
			}
			keep(&l[i], m, base + 32 * (uint32_t)h, ub);
			kept += (unsigned)__builtin_popcount(m);
		}
	}
	return kept;
}

#ifdef KNN_X86
__attribute__((target("avx2,fma,avxvnni")))
unsigned
knn_kern_avxvnni(const uint8_t *strip, const int8_t *qc, uint32_t dp,
    const struct knn_qb *qb, const float *cs, const float *ce, uint64_t live,
    uint32_t base, struct knn_list *l)
{
	unsigned kept = 0;

	/* A quarter of the strip at a time: 4 queries x 16 references. */
	for (int j = 0; j < 4; j++) {
		__m256i acc[4][2];
		const uint8_t *p = strip + 64 * j;

		for (int i = 0; i < 4; i++)
			acc[i][0] = acc[i][1] = _mm256_setzero_si256();
		for (uint32_t g = 0; g < dp / 4; g++, p += 4 * KNN_STRIP) {
			__m256i r0 = _mm256_load_si256((const void *)p);
			__m256i r1 = _mm256_load_si256((const void *)(p + 32));

			for (int i = 0; i < 4; i++) {
				int32_t w;
				__m256i b;

				memcpy(&w, qc + (size_t)i * dp + 4 * g, 4);
				b = _mm256_set1_epi32(w);
				acc[i][0] = _mm256_dpbusd_avx_epi32(acc[i][0],
				    r0, b);
				acc[i][1] = _mm256_dpbusd_avx_epi32(acc[i][1],
				    r1, b);
			}
		}
		for (int i = 0; i < 4; i++)
			for (int h = 0; h < 2; h++) {
				int o = 16 * j + 8 * h;
				float ub[8];
				__m256 f = _mm256_cvtepi32_ps(_mm256_sub_epi32(
				    acc[i][h], _mm256_set1_epi32(qb[i].corr)));
				__m256 u = _mm256_fmadd_ps(_mm256_mul_ps(f,
				    _mm256_loadu_ps(cs + o)),
				    _mm256_set1_ps(qb[i].s), _mm256_fmadd_ps(
				    _mm256_loadu_ps(ce + o),
				    _mm256_set1_ps(qb[i].a),
				    _mm256_set1_ps(qb[i].eps)));
				uint32_t m = (uint32_t)_mm256_movemask_ps(
				    _mm256_cmp_ps(u, _mm256_set1_ps(qb[i].tau),
				    _CMP_GE_OQ)) & (uint32_t)(live >> o & 0xff);

				if (m == 0)
					continue;
				_mm256_storeu_ps(ub, u);
				keep(&l[i], m, base + (uint32_t)o, ub);
				kept += (unsigned)__builtin_popcount(m);
			}
	}
	return kept;
}

/*
 * The AVX-512 kernel, and with f the crc32 fold of the strip beside the
 * scores: each 256 bytes the loop reads go to the four registers of f,
 * which carry 2048 bits ahead (always inlined: without f no fold is left).
 */
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,vpclmulqdq"),
    always_inline))
static inline unsigned
kern512(const uint8_t *strip, const int8_t *qc, uint32_t dp,
    const struct knn_qb *qb, const float *cs, const float *ce, uint64_t live,
    uint32_t base, struct knn_list *l, struct knn_fold *fo)
{
	const __m512i kf = _mm512_set_epi64((long long)EMB_CRC_K2016,
	    (long long)EMB_CRC_K2080, (long long)EMB_CRC_K2016,
	    (long long)EMB_CRC_K2080, (long long)EMB_CRC_K2016,
	    (long long)EMB_CRC_K2080, (long long)EMB_CRC_K2016,
	    (long long)EMB_CRC_K2080);
	__m512i z0 = _mm512_setzero_si512(), z1 = z0, z2 = z0, z3 = z0;
	__m512i a00, a01, a02, a03, a10, a11, a12, a13;
	__m512i a20, a21, a22, a23, a30, a31, a32, a33;
	const uint8_t *p = strip;
	const int8_t *q0 = qc, *q1 = qc + dp, *q2 = qc + 2 * (size_t)dp,
	    *q3 = qc + 3 * (size_t)dp;
	unsigned kept = 0;

	if (fo != NULL) {
		z0 = _mm512_loadu_si512(fo->z);
		z1 = _mm512_loadu_si512(fo->z + 64);
		z2 = _mm512_loadu_si512(fo->z + 128);
		z3 = _mm512_loadu_si512(fo->z + 192);
	}
	a00 = a01 = a02 = a03 = a10 = a11 = a12 = a13 = _mm512_setzero_si512();
	a20 = a21 = a22 = a23 = a30 = a31 = a32 = a33 = _mm512_setzero_si512();
	for (uint32_t g = 0; g < dp / 4; g++, p += 4 * KNN_STRIP) {
		__m512i r0 = _mm512_load_si512((const void *)p);
		__m512i r1 = _mm512_load_si512((const void *)(p + 64));
		__m512i r2 = _mm512_load_si512((const void *)(p + 128));
		__m512i r3 = _mm512_load_si512((const void *)(p + 192));
		int32_t w;
		__m512i b;

#define ROW(q, x0, x1, x2, x3) do {					\
		memcpy(&w, (q) + 4 * g, 4);				\
		b = _mm512_set1_epi32(w);				\
		x0 = _mm512_dpbusd_epi32(x0, r0, b);			\
		x1 = _mm512_dpbusd_epi32(x1, r1, b);			\
		x2 = _mm512_dpbusd_epi32(x2, r2, b);			\
		x3 = _mm512_dpbusd_epi32(x3, r3, b);			\
} while (0)
		ROW(q0, a00, a01, a02, a03);
		ROW(q1, a10, a11, a12, a13);
		ROW(q2, a20, a21, a22, a23);
		ROW(q3, a30, a31, a32, a33);
#undef ROW
		if (fo != NULL) {
#define FOLD(z, r) z = _mm512_ternarylogic_epi64(			\
		    _mm512_clmulepi64_epi128(z, kf, 0x00),		\
		    _mm512_clmulepi64_epi128(z, kf, 0x11), r, 0x96)
			FOLD(z0, r0);
			FOLD(z1, r1);
			FOLD(z2, r2);
			FOLD(z3, r3);
#undef FOLD
		}
	}
	if (fo != NULL) {
		_mm512_storeu_si512(fo->z, z0);
		_mm512_storeu_si512(fo->z + 64, z1);
		_mm512_storeu_si512(fo->z + 128, z2);
		_mm512_storeu_si512(fo->z + 192, z3);
	}
	{
		__m512i acc[4][4] = { { a00, a01, a02, a03 },
		    { a10, a11, a12, a13 }, { a20, a21, a22, a23 },
		    { a30, a31, a32, a33 } };
		const __m512i iota = _mm512_set_epi32(15, 14, 13, 12, 11, 10,
		    9, 8, 7, 6, 5, 4, 3, 2, 1, 0);

		for (int j = 0; j < 4; j++) {
			__m512 vs = _mm512_loadu_ps(cs + 16 * j);
			__m512 ve = _mm512_loadu_ps(ce + 16 * j);
			__mmask16 lm = (__mmask16)(live >> (16 * j));
			__m512i id = _mm512_add_epi32(iota, _mm512_set1_epi32(
			    (int)(base + 16 * (uint32_t)j)));

			for (int i = 0; i < 4; i++) {
				__m512 f = _mm512_cvtepi32_ps(_mm512_sub_epi32(
				    acc[i][j], _mm512_set1_epi32(qb[i].corr)));
				__m512 u = _mm512_fmadd_ps(_mm512_mul_ps(f, vs),
				    _mm512_set1_ps(qb[i].s), _mm512_fmadd_ps(ve,
				    _mm512_set1_ps(qb[i].a),
				    _mm512_set1_ps(qb[i].eps)));
				__mmask16 m = _mm512_mask_cmp_ps_mask(lm, u,
				    _mm512_set1_ps(qb[i].tau), _CMP_GE_OQ);

				if (m == 0)
					continue;
				_mm512_mask_compressstoreu_epi32(l[i].ref +
				    l[i].n, m, id);
				_mm512_mask_compressstoreu_ps(l[i].ub + l[i].n,
				    m, u);
				l[i].n += (unsigned)__builtin_popcount(m);
				kept += (unsigned)__builtin_popcount(m);
			}
		}
	}
	return kept;
}
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,vpclmulqdq")))
unsigned
knn_kern_avx512(const uint8_t *strip, const int8_t *qc, uint32_t dp,
    const struct knn_qb *qb, const float *cs, const float *ce, uint64_t live,
    uint32_t base, struct knn_list *l)
{
	return kern512(strip, qc, dp, qb, cs, ce, live, base, l, NULL);
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,vpclmulqdq")))
unsigned
knn_kern_avx512f(const uint8_t *strip, const int8_t *qc, uint32_t dp,
    const struct knn_qb *qb, const float *cs, const float *ce, uint64_t live,
    uint32_t base, struct knn_list *l, struct knn_fold *f)
{
	return kern512(strip, qc, dp, qb, cs, ce, live, base, l, f);
}

#else
unsigned
knn_kern_avx512f(const uint8_t *strip, const int8_t *qc, uint32_t dp,
    const struct knn_qb *qb, const float *cs, const float *ce, uint64_t live,
    uint32_t base, struct knn_list *l, struct knn_fold *f)
{
	(void)f;
	return knn_kern_ref(strip, qc, dp, qb, cs, ce, live, base, l);
}

unsigned
knn_kern_avxvnni(const uint8_t *strip, const int8_t *qc, uint32_t dp,
    const struct knn_qb *qb, const float *cs, const float *ce, uint64_t live,
    uint32_t base, struct knn_list *l)
{
	return knn_kern_ref(strip, qc, dp, qb, cs, ce, live, base, l);
}

unsigned
knn_kern_avx512(const uint8_t *strip, const int8_t *qc, uint32_t dp,
    const struct knn_qb *qb, const float *cs, const float *ce, uint64_t live,
    uint32_t base, struct knn_list *l)
{
	return knn_kern_ref(strip, qc, dp, qb, cs, ce, live, base, l);
}
#endif

/* The fold's crc32 and its processor: crc.c's (emb_crc32_lanes). */
uint32_t
knn_fold_crc(const struct knn_fold *f, uint64_t n)
{
	return emb_crc32_lanes(f->z, n);
}

int
knn_fold_ok(void)
{
	return knn_path_ok(EMB_KNN_AVX512) && emb_crc32_lanes_ok();
}

int
knn_path_ok(int p)
{
	switch (p) {
	case EMB_KNN_FLOAT:
	case EMB_KNN_REF:
		return 1;
#ifdef KNN_X86
	case EMB_KNN_AVXVNNI:
		return emb_cpu_has(KERN_AVXVNNI);
	case EMB_KNN_AVX512:
		return emb_cpu_has(KERN_AVX512);
#endif
	default:
		return 0;
	}
}

/*
 * Without VNNI the int8 scores cost about what float32 GEMM does, so the
 * float path (GEMM and its tighter bound) is the default there; the
 * portable kernel is for the tests and for forcing.
 */
int
knn_path(void)
{
	int p = knn_forced();

	if (p >= 0)
		return knn_path_ok(p) ? p : EMB_KNN_FLOAT;
	if (knn_path_ok(EMB_KNN_AVX512))
		return EMB_KNN_AVX512;
	if (knn_path_ok(EMB_KNN_AVXVNNI))
		return EMB_KNN_AVXVNNI;
	return EMB_KNN_FLOAT;
}

int
emb_knn_path_set(int path)
{
	if (path < -1 || path > EMB_KNN_AVX512)
		return EMB_EINVAL;
	knn_force(path, path == EMB_KNN_REF);
	return 0;
}

int
emb_knn_path_byname(const char *name)
{
	static const struct {
		const char	*name;
		int		 path;
	} names[] = {
		{ "float", EMB_KNN_FLOAT }, { "ref", EMB_KNN_REF },
		{ "avxvnni", EMB_KNN_AVXVNNI }, { "avx512", EMB_KNN_AVX512 },
		/* The older spellings. */
		{ "c", EMB_KNN_REF }, { "avx2", EMB_KNN_AVXVNNI },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i].name) == 0)
			return names[i].path;
	return -1;
}
