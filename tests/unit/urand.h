/*
 * urand.h - the unit suites' random numbers: Marsaglia's xorshift64 (13,
 * 7, 17), the same sequence on every run and machine.  Each suite has a
 * stream of its own, from URAND_SEED (nonzero), which it may define
 * before including this.
 */
#ifndef EMB_URAND_H
#define EMB_URAND_H

#include <stdint.h>

#ifndef URAND_SEED
#define URAND_SEED	0x9e3779b97f4a7c15ull
#endif

static uint64_t	 urandstate = URAND_SEED;

/* The next 64 bits. */
static inline uint64_t
urand64(void)
{
	urandstate ^= urandstate << 13;
	urandstate ^= urandstate >> 7;
	urandstate ^= urandstate << 17;
	return urandstate;
}

/* The top 32 bits of the next 64. */
static inline uint32_t
urand32(void)
{
	return (uint32_t)(urand64() >> 32);
}

/* A double in [0, 1): the top 53 bits of the next 64. */
static inline double
urand(void)
{
	return (double)(urand64() >> 11) / 9007199254740992.0;
}

/* A double in [-0.5, 0.5): urand() - 0.5. */
static inline double
urandc(void)
{
	return urand() - 0.5;
}

#endif /* EMB_URAND_H */
