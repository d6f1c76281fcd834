/*
 * int.h - declarations shared inside libemb only.
 *
 * Little-endian load and store helpers (the wire is little-endian whatever
 * the host), and small utilities the modules have in common.
 */
#ifndef EMB_INT_H
#define EMB_INT_H

#include <stdarg.h>
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

/* Tests: nonzero keeps emb_crc32 off its 256-bit (VPCLMULQDQ) path. */
extern int emb_crc_narrow;

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

/*
 * emb_fail - record an error: the message (printf's fmt and arguments)
 * into msg[sz], truncated if need be.  @return code, for
 * "return emb_fail(...)".  emb_vfail - the same with a va_list.
 */
int emb_fail(char *msg, size_t sz, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int emb_vfail(char *msg, size_t sz, int code, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* write(2) all n bytes, retrying on EINTR and short writes: 0 or EMB_EIO. */
int emb_writeall(int fd, const void *buf, size_t n);

/*
 * The bodies of emb_hash and emb_index_probe (hash.c), for a caller whose
 * probe is its hot path (a store's lookup): inlined there, with its key
 * function known, the probe costs what a hand-written one does.
 */
static inline uint64_t
emb_hash_inline(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

static inline uint32_t
emb_index_probe_inline(const uint32_t *slot, const uint32_t *tag,
    size_t cap, uint64_t h, const void *s, size_t len,
    const char *(*key)(const void *, size_t, size_t *), const void *ctx,
    int64_t *entry)
{
	size_t i = (size_t)h & (cap - 1);
	uint32_t t = (uint32_t)h;

	for (;; i = (i + 1) & (cap - 1)) {
		uint32_t v = slot[i];
		size_t elen;
		const char *k;

		if (v == 0) {
			*entry = -1;
			return (uint32_t)i;
		}
		if (tag != NULL && tag[i] != t)
			continue;
		k = key(ctx, v - 1, &elen);
		if (elen == len && memcmp(k, s, len) == 0) {
			*entry = v - 1;
			return (uint32_t)i;
		}
	}
}

#endif /* EMB_INT_H */
