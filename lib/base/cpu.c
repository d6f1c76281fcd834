/*
 * cpu.c - the one probe of the processor's features (cpu.h), in the
 * manner of zstd's lib/common/cpu.h: libgcc's (or compiler-rt's) reading
 * of CPUID, which checks that the system saves the vector registers, and
 * CPUID itself for AVX-VNNI, which not every compiler's
 * __builtin_cpu_supports knows (clang 14's does not).
 */
#include "base/cpu.h"

#include <stdatomic.h>
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <cpuid.h>
#define CPU_X86	1
#endif

#define PROBED	(1u << 31)	/* have holds the probe's result */

static _Atomic unsigned have;		/* the processor's, and PROBED */
static _Atomic unsigned allow = EMB_CPU_ALL;	/* emb_cpu_force's mask */

#ifdef CPU_X86
/*
 * AVX-VNNI: CPUID leaf 7, subleaf 1, EAX bit 4.  Its registers are
 * AVX's, whose state the test for AVX2 has found enabled.
 */
static unsigned
avxvnni(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid_count(7, 1, &a, &b, &c, &d))
		return 0;
	return (a >> 4) & 1 ? EMB_CPU_AVXVNNI : 0;
}
#endif

static unsigned
probe(void)
{
	unsigned f = 0;

#ifdef CPU_X86
	/* libgcc reads the features before any constructor runs. */
	__builtin_cpu_init();
	f |= __builtin_cpu_supports("sse4.1") ? EMB_CPU_SSE41 : 0;
	f |= __builtin_cpu_supports("pclmul") ? EMB_CPU_PCLMUL : 0;
	f |= __builtin_cpu_supports("avx") ? EMB_CPU_AVX : 0;
	f |= __builtin_cpu_supports("avx2") ? EMB_CPU_AVX2 : 0;
	f |= __builtin_cpu_supports("fma") ? EMB_CPU_FMA : 0;
#ifndef __clang__
	/* Only GCC builds the _v3 kernels (target("arch=x86-64-v3")). */
	f |= __builtin_cpu_supports("x86-64-v3") ? EMB_CPU_V3 : 0;
#endif
	f |= __builtin_cpu_supports("vpclmulqdq") ? EMB_CPU_VPCLMUL : 0;
	f |= __builtin_cpu_supports("avx512f") ? EMB_CPU_AVX512F : 0;
	f |= __builtin_cpu_supports("avx512bw") ? EMB_CPU_AVX512BW : 0;
	f |= __builtin_cpu_supports("avx512vl") ? EMB_CPU_AVX512VL : 0;
	f |= __builtin_cpu_supports("avx512vnni") ? EMB_CPU_AVX512VNNI : 0;
	if (f & EMB_CPU_AVX2)
		f |= avxvnni();
#endif
	return f | PROBED;
}

/*
 * Threads that find the probe not yet done each make it and store the
 * same value: no lock is needed.
 */
unsigned
emb_cpu(void)
{
	unsigned f = atomic_load_explicit(&have, memory_order_relaxed);

	if (f == 0) {
		f = probe();
		atomic_store_explicit(&have, f, memory_order_relaxed);
	}
	return f & atomic_load_explicit(&allow, memory_order_relaxed);
}

void
emb_cpu_force(unsigned mask)
{
	atomic_store_explicit(&allow, mask & EMB_CPU_ALL,
	    memory_order_relaxed);
}
