/*
 * util.c - small helpers: aligned memory, growing anonymous mappings,
 * overflow-checked sizes, finite checks and complete writes.
 */
#include "base/emb-base.h"
#include "base/io.h"
#include "base/le.h"
#include "base/vec.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>
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

int
emb_growmap(void **p, size_t *maplen, size_t len, int populate)
{
	void *q;

	if (*p == NULL)
		q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0), -1, 0);
	else
		q = mremap(*p, *maplen, len, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		return EMB_ENOMEM;
	*p = q;
	*maplen = len;
	return 0;
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

/*
 * The finite tests: an exponent of all ones is NaN or Inf, that is
 * ~x & mask == 0.  Eight lanes at a time and no branch, on float bits
 * read through memcpy (any alignment, no aliasing trouble).
 */
typedef uint32_t v8u __attribute__((vector_size(32)));

static inline __attribute__((always_inline)) v8u
notfinite8(v8u x)
{
	const v8u mask = { 0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u,
	    0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u };

	return (v8u)((~x & mask) == 0);
}

/* The tail: n < 8 values at s.  @return 1 if all are finite. */
static inline int
finitetail(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((~emb_le32(s + 4 * i) & 0x7f800000u) == 0)
			return 0;
	return 1;
}

static inline int
anyset(v8u a)
{
	return (a[0] | a[1] | a[2] | a[3] | a[4] | a[5] | a[6] | a[7]) != 0;
}

KERN int
emb_allfinite_le(const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v8u acc = { 0 };

	for (; i + 8 <= n; i += 8) {
		v8u x;

		memcpy(&x, s + 4 * i, sizeof(x));
		acc |= notfinite8(x);
	}
	if (anyset(acc))
		return 0;
#endif
	return finitetail(s + 4 * i, n - i);
}

KERN int
emb_copyf32_finite(void *dst, const void *src, size_t n)
{
	const unsigned char *s = src;
	unsigned char *d = dst;
	v8u acc = { 0 };
	size_t i = 0;

	/* One pass: copy the bits and test them. */
	for (; i + 8 <= n; i += 8) {
		v8u x;

		memcpy(&x, s + 4 * i, sizeof(x));
		memcpy(d + 4 * i, &x, sizeof(x));
		acc |= notfinite8(x);
	}
	memcpy(d + 4 * i, s + 4 * i, 4 * (n - i));
	return !anyset(acc) && finitetail(s + 4 * i, n - i);
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
