/*
 * le.h - numbers as the files hold them, shared inside libemb: the
 * little-endian loads and stores (the wire is little-endian whatever the
 * host), float32 vectors to and from that byte order, and the checks
 * that float32 vectors are finite (util.c).
 */
#ifndef EMB_LE_H
#define EMB_LE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t
emb_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t
emb_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline uint64_t
emb_le64(const unsigned char *p)
{
	return (uint64_t)emb_le32(p) | (uint64_t)emb_le32(p + 4) << 32;
}

static inline void
emb_put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void
emb_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void
emb_put64(unsigned char *p, uint64_t v)
{
	emb_put32(p, (uint32_t)v);
	emb_put32(p + 4, (uint32_t)(v >> 32));
}

/*
 * emb_getf32s - decode n little-endian float32 values from p into dst.
 * On a little-endian host this is one memcpy.
 */
static inline void
emb_getf32s(float *dst, const unsigned char *p, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(dst, p, n * 4);
#else
	for (size_t i = 0; i < n; i++) {
		uint32_t u = emb_le32(p + 4 * i);
		memcpy(&dst[i], &u, 4);
	}
#endif
}

/* emb_putf32s - encode n float32 values from src, little-endian, at p. */
static inline void
emb_putf32s(unsigned char *p, const float *src, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, src, n * 4);
#else
	for (size_t i = 0; i < n; i++) {
		uint32_t u;
		memcpy(&u, &src[i], 4);
		emb_put32(p + 4 * i, u);
	}
#endif
}

/* @return 1 if all n values are finite, else 0. */
int emb_allfinite(const float *v, size_t n);
/* The same on n little-endian float32 values at p, at any alignment. */
int emb_allfinite_le(const void *p, size_t n);

/*
 * emb_copyf32_finite - copy n float32 values of the host's byte order
 * (any alignment either side) and test them as emb_allfinite does, in
 * one pass; on a little-endian host that is emb_getf32s or emb_putf32s
 * and the test.  @return 1 if all are finite.
 */
int emb_copyf32_finite(void *dst, const void *src, size_t n);

#endif /* EMB_LE_H */
