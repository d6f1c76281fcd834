/*
 * cpu.h - the processor's features, probed once (cpu.c), from which each
 * family of kernels picks its path: crc.c (PCLMULQDQ, VPCLMULQDQ),
 * codes.c (AVX2, AVX-512), knn-kern.c (AVX-512, the VNNIs), qrb.c
 * (x86-64-v3) and clf-mlp.c (AVX).  Each optimized kernel has a portable twin, named
 * _ref; the others are named for their instruction set (_pclmul,
 * _avx2, _avx512, _avxvnni, _v3).  The kernels marked KERN (vec.h) are
 * cloned by the compiler and chosen by the loader, not here.
 */
#ifndef EMB_CPU_H
#define EMB_CPU_H

/* The features, as bits. */
enum {
	EMB_CPU_SSE41		= 1u << 0,
	EMB_CPU_PCLMUL		= 1u << 1,	/* PCLMULQDQ */
	EMB_CPU_AVX		= 1u << 2,
	EMB_CPU_AVX2		= 1u << 3,
	EMB_CPU_FMA		= 1u << 4,
	EMB_CPU_V3		= 1u << 5,	/* all of x86-64-v3 */
	EMB_CPU_VPCLMUL		= 1u << 6,	/* VPCLMULQDQ */
	EMB_CPU_AVX512F		= 1u << 7,
	EMB_CPU_AVX512BW	= 1u << 8,
	EMB_CPU_AVX512VL	= 1u << 9,
	EMB_CPU_AVX512VNNI	= 1u << 10,
	EMB_CPU_AVXVNNI		= 1u << 11,	/* AVX-VNNI, on 256 bits */
	EMB_CPU_ALL		= (1u << 12) - 1
};

/*
 * emb_cpu - the features the kernels may use: the processor's (read
 * once), less those emb_cpu_force took away.  Any thread may call it.
 */
unsigned emb_cpu(void);

/* @return whether the kernels may use every feature of set f. */
static inline int
emb_cpu_has(unsigned f)
{
	return (emb_cpu() & f) == f;
}

/*
 * emb_cpu_force - let the kernels use only the features in mask (those
 * the processor has), from the next call on: 0 sends every family to
 * its portable twin, EMB_CPU_ALL restores the processor's best.  For the
 * tests, which run each path the processor allows; not to be called
 * while kernels run in other threads.
 */
void emb_cpu_force(unsigned mask);

#endif /* EMB_CPU_H */
