/*
 * codes.c - the int8 codes of the nearest-neighbour search (codes.h): the
 * exact dot product in double, a vector's codes, scale and error terms,
 * and their place in the strips, in the portable version and in the
 * vector versions the processor allows (cpu.h), each giving the same
 * codes; kept by the reference set (knn.c) and by the store's search
 * section (store-build.c) alike.  The path emb_knn_path_set forced is
 * kept here too, since forcing the portable kernel makes the codes
 * portable.
 */
#include "num/emb-num.h"
#include "num/codes.h"
#include "base/cpu.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define KNN_X86	1
#endif

/* The features each vector version needs. */
#define DOT_AVX512	(EMB_CPU_AVX512F | EMB_CPU_AVX512VL)
#define DOT_AVX2	(EMB_CPU_AVX2 | EMB_CPU_FMA)
#define QUANT_AVX512	(EMB_CPU_AVX512F | EMB_CPU_AVX512BW | EMB_CPU_AVX512VL)

static _Atomic int forced = -1;	/* emb_knn_path_set's path, or -1 */
static _Atomic int portone;	/* ... and whether it is the portable one */

int
knn_forced(void)
{
	return atomic_load_explicit(&forced, memory_order_relaxed);
}

void
knn_force(int path, int port)
{
	atomic_store_explicit(&portone, port, memory_order_relaxed);
	atomic_store_explicit(&forced, path, memory_order_relaxed);
}

/*
 * Forcing the portable kernel makes the dot product and the codes
 * portable too.
 */
static inline int
portable(void)
{
	return atomic_load_explicit(&portone, memory_order_relaxed);
}

/*
 * The portable sum; the vector ones below keep its lanes (a zmm of eight
 * doubles, or two ymm of four) and its final tree, and add the tail
 * through a zero-filled load: +0 added to a lane, which is never -0,
 * changes nothing.
 */
static double
dot_ref(const float *v, const float *w, uint32_t dim)
{
	double l[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	uint32_t i = 0;

	for (; i + 8 <= dim; i += 8)
		for (int j = 0; j < 8; j++)
			l[j] += (double)v[i + j] * w[i + j];
	for (int j = 0; i < dim; i++, j++)
		l[j] += (double)v[i] * w[i];
	return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] +
	    l[7]));
}

#ifdef KNN_X86
__attribute__((target("avx512f,avx512vl")))
static double
dot_avx512(const float *v, const float *w, uint32_t dim)
{
	__m512d acc = _mm512_setzero_pd();
	double l[8];
	uint32_t i = 0;

	for (; i + 8 <= dim; i += 8)
		acc = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_loadu_ps(v + i)),
		    _mm512_cvtps_pd(_mm256_loadu_ps(w + i)), acc);
	if (i < dim) {
		__mmask8 m = (__mmask8)((1u << (dim - i)) - 1);

		acc = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_maskz_loadu_ps(m,
		    v + i)), _mm512_cvtps_pd(_mm256_maskz_loadu_ps(m, w + i)),
		    acc);
	}
	_mm512_storeu_pd(l, acc);
	return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] +
	    l[7]));
}

__attribute__((target("avx2,fma")))
static double
dot_avx2(const float *v, const float *w, uint32_t dim)
{
	__m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
	double l[8];
	uint32_t i = 0;

	for (; i + 8 <= dim; i += 8) {
		__m256 a = _mm256_loadu_ps(v + i), b = _mm256_loadu_ps(w + i);

		lo = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(a)),
		    _mm256_cvtps_pd(_mm256_castps256_ps128(b)), lo);
		hi = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(a,
		    1)), _mm256_cvtps_pd(_mm256_extractf128_ps(b, 1)), hi);
	}
	_mm256_storeu_pd(l, lo);
	_mm256_storeu_pd(l + 4, hi);
	for (int j = 0; i < dim; i++, j++)
		l[j] += (double)v[i] * w[i];
	return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] +
	    l[7]));
}
#endif

double
knn_dot(const float *v, const float *w, uint32_t dim)
{
#ifdef KNN_X86
	if (!portable()) {
		if (emb_cpu_has(DOT_AVX512))
			return dot_avx512(v, w, dim);
		if (emb_cpu_has(DOT_AVX2))
			return dot_avx2(v, w, dim);
	}
#endif
	return dot_ref(v, w, dim);
}

/* The next float above x (x finite and non-negative). */
static float
up(double x)
{
	float f = (float)x;

	return (double)f >= x ? nextafterf(f, INFINITY) : nextafterf(
	    nextafterf(f, INFINITY), INFINITY);
}

/*
 * The codes of v: x = v times 1 / |v| (within 2^-52 of the quotient, which
 * the slack of the bound covers: knn-search.c), c = x / s rounded, and E
 * and A from the x and c actually used, rounded up.  The vector version
 * sums E^2 and A^2 in another order, so its E and A may differ from the
 * portable one's in the last bits: both bound the same codes.
 */
static void
quant_ref(const float *v, uint32_t dim, double inv, double sd, int8_t *c,
    double *e2p, double *a2p)
{
	double e2 = 0, a2 = 0, isd = 1 / sd;

	for (uint32_t i = 0; i < dim; i++) {
		double x = v[i] * inv, q = rint(x * isd), r;

		q = q > 127 ? 127 : q < -127 ? -127 : q;
		c[i] = (int8_t)q;
		r = x - sd * q;
		e2 += r * r;
		a2 += sd * q * (sd * q);
	}
	*e2p = e2;
	*a2p = a2;
}

#ifdef KNN_X86
__attribute__((target("avx512f,avx512bw,avx512vl")))
static float
maxabs_avx512(const float *v, uint32_t dim)
{
	__m512 m = _mm512_setzero_ps();
	uint32_t i = 0;

	for (; i + 16 <= dim; i += 16)
		m = _mm512_max_ps(m, _mm512_abs_ps(_mm512_loadu_ps(v + i)));
	if (i < dim)
		m = _mm512_max_ps(m, _mm512_abs_ps(_mm512_maskz_loadu_ps(
		    (__mmask16)((1u << (dim - i)) - 1), v + i)));
	return _mm512_reduce_max_ps(m);
}

__attribute__((target("avx512f,avx512bw,avx512vl")))
static void
quant_avx512(const float *v, uint32_t dim, double inv, double sd,
    int8_t *c, double *e2p, double *a2p)
{
	__m512d e2 = _mm512_setzero_pd(), a2 = _mm512_setzero_pd();
	__m512d vi = _mm512_set1_pd(inv), vs = _mm512_set1_pd(sd);
	__m512d visd = _mm512_set1_pd(1 / sd);
	__m512d hi = _mm512_set1_pd(127), lo = _mm512_set1_pd(-127);

	for (uint32_t i = 0; i < dim; i += 8) {
		__mmask8 m = dim - i >= 8 ? 0xff :
		    (__mmask8)((1u << (dim - i)) - 1);
		__m512d x = _mm512_mul_pd(_mm512_cvtps_pd(
		    _mm256_maskz_loadu_ps(m, v + i)), vi);
		__m512d q = _mm512_roundscale_pd(_mm512_mul_pd(x, visd),
		    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
		__m512d sq, r;

		q = _mm512_min_pd(_mm512_max_pd(q, lo), hi);
		sq = _mm512_mul_pd(vs, q);
		r = _mm512_sub_pd(x, sq);
		e2 = _mm512_fmadd_pd(r, r, e2);
		a2 = _mm512_fmadd_pd(sq, sq, a2);
		_mm_mask_storeu_epi8(c + i, m, _mm256_cvtepi32_epi8(
		    _mm512_cvtpd_epi32(q)));
	}
	*e2p = _mm512_reduce_add_pd(e2);
	*a2p = _mm512_reduce_add_pd(a2);
}
#endif

void
knn_quant(const float *v, uint32_t dim, uint32_t dp, double nrm, int8_t *c,
    float *s, float *e, float *a)
{
	double e2, a2, inv;
	float mx = 0;
	int vec = 0;

	memset(c, 0, dp);
	*s = *e = *a = 0;
	if (!(nrm > 0)) {
		if (nrm != 0)		/* NaN: no bound at all */
			*e = INFINITY;
		return;
	}
	inv = 1 / nrm;
#ifdef KNN_X86
	vec = !portable() && emb_cpu_has(QUANT_AVX512);
	if (vec)
		mx = maxabs_avx512(v, dim);
#endif
	if (!vec)
		for (uint32_t i = 0; i < dim; i++)
			if (fabsf(v[i]) > mx)
				mx = fabsf(v[i]);
	/* max |x_i| >= 1 / sqrt(dim): s is a normal float. */
	*s = (float)(mx * inv / 127);
#ifdef KNN_X86
	if (vec)
		quant_avx512(v, dim, inv, *s, c, &e2, &a2);
	else
#endif
		quant_ref(v, dim, inv, *s, c, &e2, &a2);
	*e = up(sqrt(e2) * (1 + 1e-12));
	*a = up(sqrt(a2) * (1 + 1e-12));
}

int
knn_growterms(double **nrm, float **cs, float **ce, size_t has, size_t n)
{
	size_t c[3] = { has, has, has };

	if (emb_grow_max(nrm, &c[0], n, n, sizeof(**nrm)) < 0 ||
	    emb_grow_max(cs, &c[1], n, n, sizeof(**cs)) < 0 ||
	    emb_grow_max(ce, &c[2], n, n, sizeof(**ce)) < 0)
		return EMB_ENOMEM;
	return 0;
}

/* Store the codes of reference i into its strip's lane. */
static void
putcodes(uint8_t *codes, uint32_t dp, size_t i, const int8_t *c)
{
	uint8_t *p = codes + i / KNN_STRIP * KNN_STRIP * dp + i % KNN_STRIP * 4;

	for (uint32_t g = 0; g < dp / 4; g++, p += 4 * KNN_STRIP)
		for (int j = 0; j < 4; j++)
			p[j] = (uint8_t)(c[4 * g + j] + 128);
}

void
knn_code(const float *v, uint32_t dim, uint32_t dp, size_t i,
    int8_t *scratch, uint8_t *codes, double *nrm, float *cs, float *ce)
{
	float a;

	nrm[i] = knn_dot(v, v, dim);
	if (codes == NULL)
		return;
	knn_quant(v, dim, dp, sqrt(nrm[i]), scratch, &cs[i], &ce[i], &a);
	putcodes(codes, dp, i, scratch);
}
