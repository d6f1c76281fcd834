/*
 * vec.h - 4-wide double vectors for the numerical kernels inside libemb
 * (GCC/Clang vector extensions).  A kernel marked KERN is compiled twice,
 * for x86-64-v3 (AVX2, FMA) and for the baseline, and the right clone is
 * chosen when the library is loaded.
 */
#ifndef EMB_VEC_H
#define EMB_VEC_H

#include <stddef.h>
#include <string.h>

typedef double v4d __attribute__((vector_size(32)));

/* The 4-wide helpers are always inlined into a clone of their target. */
#pragma GCC diagnostic ignored "-Wpsabi"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_THREAD__)
#define KERN	__attribute__((target_clones("arch=x86-64-v3", "default"), \
	    optimize("fp-contract=fast")))
#define KERN_V3	__attribute__((target("arch=x86-64-v3"), \
	    optimize("fp-contract=fast")))
#else
#define KERN
#endif

/*
 * A kernel that needs more than KERN gives is written once as an inlined
 * body and compiled as name_v3 (KERN_V3) and name_ref (baseline), and the
 * caller picks by emb_cpu_has(EMB_CPU_V3) (cpu.h).  INREG(x) in a _v3
 * body keeps the vector x in a register: it stops the compiler from
 * folding one load of x into each of the several instructions that use
 * it, which makes a kernel bound by loads instead of arithmetic.
 */
#ifdef KERN_V3
#define INREG(x)	__asm__("" : "+x"(x))
#else
#define INREG(x)	((void)0)
#endif

static inline __attribute__((always_inline)) v4d
ld4(const double *p)
{
	v4d r;

	memcpy(&r, p, sizeof(r));
	return r;
}

static inline __attribute__((always_inline)) void
st4(double *p, v4d x)
{
	memcpy(p, &x, sizeof(x));
}

/* The sum of the four lanes. */
static inline __attribute__((always_inline)) double
hsum4(v4d a)
{
	return a[0] + a[1] + a[2] + a[3];
}

typedef float v4f __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) v4d
ldf4(const float *p)
{
	v4f r;

	memcpy(&r, p, sizeof(r));
	return __builtin_convertvector(r, v4d);
}

/* Four floats at byte b + 4 i (any alignment), in double. */
static inline __attribute__((always_inline)) v4d
ldf4b(const unsigned char *b, size_t i)
{
	v4f r;

	memcpy(&r, b + 4 * i, sizeof(r));
	return __builtin_convertvector(r, v4d);
}

static inline __attribute__((always_inline)) float
ldf1b(const unsigned char *b, size_t i)
{
	float r;

	memcpy(&r, b + 4 * i, sizeof(r));
	return r;
}

/*
 * Sum of squares of n floats (in host order at any alignment), in
 * double.
 */
KERN static double __attribute__((unused))
sumsqf(const void *x, size_t n)
{
	const unsigned char *b = x;
	v4d a = { 0 }, c = { 0 };
	double t;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		v4d x0 = ldf4b(b, i), x1 = ldf4b(b, i + 4);

		a += x0 * x0;
		c += x1 * x1;
	}
	a += c;
	t = a[0] + a[1] + a[2] + a[3];
	for (; i < n; i++)
		t += (double)ldf1b(b, i) * ldf1b(b, i);
	return t;
}

/*
 * y = s x in double, rounded back to float; x and y (n floats in host
 * order at any alignment) may be the same.
 */
KERN static void __attribute__((unused))
scalefl(const void *x, void *y, double s, size_t n)
{
	const unsigned char *b = x;
	unsigned char *d = y;
	v4d a = { s, s, s, s };
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		v4f r = __builtin_convertvector(a * ldf4b(b, i), v4f);

		memcpy(d + 4 * i, &r, sizeof(r));
	}
	for (; i < n; i++) {
		float r = (float)(s * ldf1b(b, i));

		memcpy(d + 4 * i, &r, sizeof(r));
	}
}

#endif /* EMB_VEC_H */
