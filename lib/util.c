/*
 * util.c - small helpers: aligned memory, overflow-checked sizes, finite
 * checks and complete writes.
 */
#include "emb.h"
#include "int.h"
#include "vec.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

void *
emb_alloc(size_t size)
{
	void *p;

	if (size == 0)
		size = 64;
	size = (size + 63) & ~(size_t)63;
	if (posix_memalign(&p, 64, size) != 0)
		return NULL;
	return p;
}

void
emb_free(void *p)
{
	free(p);
}

int
emb_mul(size_t a, size_t b, size_t *res)
{
	if (a != 0 && b > SIZE_MAX / a)
		return EMB_ELIMIT;
	*res = a * b;
	return 0;
}

/* Float bits read at any alignment without breaking aliasing rules. */
typedef uint32_t __attribute__((may_alias, aligned(1))) u32unaligned;

KERN int
emb_allfinite_le(const void *p, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const u32unaligned *u = p;
	uint32_t acc[8] = { 0 };
	size_t i = 0;

	/*
	 * An exponent of all ones is NaN or Inf: x & mask == mask.  Eight
	 * independent lanes and no branch let the compiler vectorize it.
	 */
	for (; i + 8 <= n; i += 8)
		for (int j = 0; j < 8; j++)
			acc[j] |= ~u[i + j] & 0x7f800000u ? 0 : 1;
	for (; i < n; i++)
		acc[0] |= ~u[i] & 0x7f800000u ? 0 : 1;
	return (acc[0] | acc[1] | acc[2] | acc[3] | acc[4] | acc[5] | acc[6] |
	    acc[7]) == 0;
#else
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if ((~emb_le32(b + 4 * i) & 0x7f800000u) == 0)
			return 0;
	return 1;
#endif
}

typedef uint32_t v8u __attribute__((vector_size(32)));

KERN int
emb_copyf32_finite(void *dst, const void *src, size_t n)
{
	const unsigned char *s = src;
	unsigned char *d = dst;
	const v8u mask = { 0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u,
	    0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u };
	v8u acc = { 0 };
	size_t i = 0;

	/* One pass: copy the bits and test the exponents (see above). */
	for (; i + 8 <= n; i += 8) {
		v8u x;

		memcpy(&x, s + 4 * i, sizeof(x));
		memcpy(d + 4 * i, &x, sizeof(x));
		acc |= (~x & mask) == 0;
	}
	memcpy(d + 4 * i, s + 4 * i, 4 * (n - i));
	if (acc[0] | acc[1] | acc[2] | acc[3] | acc[4] | acc[5] | acc[6] |
	    acc[7])
		return 0;
	return emb_allfinite_le(s + 4 * i, n - i);
}

int
emb_allfinite(const float *v, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return emb_allfinite_le(v, n);
#else
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
#endif
}

int
emb_writeall(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return EMB_EIO;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
