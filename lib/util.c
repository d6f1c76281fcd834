/*
 * util.c - small helpers: aligned memory, overflow-checked sizes, finite
 * checks and complete writes.
 */
#include "emb.h"
#include "int.h"

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

int
emb_allfinite(const float *v, size_t n)
{
	/* An exponent of all ones is NaN or Inf; no branch in the loop. */
	uint32_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t u;

		memcpy(&u, &v[i], 4);
		bad |= ((u & 0x7f800000u) == 0x7f800000u);
	}
	return bad == 0;
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
