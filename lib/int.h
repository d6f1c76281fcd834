/*
 * int.h - declarations shared inside libemb only.
 *
 * Little-endian load and store helpers (the wire is little-endian whatever
 * the host), and small utilities the modules have in common.
 */
#ifndef EMB_INT_H
#define EMB_INT_H

#include <float.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <stdint.h>
#include <string.h>

#include "emb.h"

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
 * emb_growmap - grow the anonymous mapping *p (NULL: none yet) of *maplen
 * bytes to len, by mremap(2): without a copy and without a transient
 * second one; pages not yet written cost nothing.  populate asks for all
 * the pages of a new mapping at once (MAP_POPULATE): for a size the
 * input can back only.  @return 0 or EMB_ENOMEM.
 */
int emb_growmap(void **p, size_t *maplen, size_t len, int populate);

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

/*
 * Float32 from decimal text, the fast path: inline, since a 1 GB
 * GloVe file is mostly numbers and parsing them is most of its load time.
 * The careful paths (strtof on a copy of the number) are in text.c, with
 * emb_parse_f32() (emb.h), the fast path and the careful one together.
 *
 * A decimal m * 10^e with m < 2^24 and |e| <= 10 is one float operation
 * on exact operands, hence correctly rounded: strtof's answer, unless it
 * lands outside the normal range.  Otherwise, with m < 2^53 and |e| <=
 * 22, it becomes the correctly rounded double d by one multiplication or
 * division of exact doubles (Clinger).  Rounding d to float gives
 * strtof's answer unless the exact value and d lie on different sides of
 * a float rounding boundary; since |d - exact| <= half a double ulp, that
 * can only happen when the 29 bits d drops are within one unit of the
 * halfway pattern, and then (as for subnormal or overflowing results and
 * every unusual spelling) we ask strtof itself.
 */
static const double emb_p10d[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* Powers of ten exact in float32 (5^10 < 2^24). */
static const float emb_p10f[11] = {
	1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f
};

/* The bytes that end a number in an embedding file. */
static inline int
emb_isnumsep(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	    c == '\f';
}

/*
 * The fast path: @return 0 with *out and *used, or 1 when strtof() must
 * decide.  Up to 19 digits in all cannot overflow m.
 */
static inline int
emb_f32_fast(const char *s, const char *end, float *out, size_t *used)
{
	const char *p = s, *q;
	uint64_t m = 0, bits;
	int neg = 0, nd, e10 = 0;
	double d;
	float v;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (q = p; p < end && (unsigned)(*p - '0') < 10; p++)
		m = m * 10 + (uint64_t)(*p - '0');
	nd = (int)(p - q);
	if (p < end && *p == '.') {
		for (q = ++p; p < end && (unsigned)(*p - '0') < 10; p++)
			m = m * 10 + (uint64_t)(*p - '0');
		e10 = -(int)(p - q);
		nd -= e10;
	}
	if (nd == 0 || nd > 19)
		return 1;
	if (p < end && (*p == 'e' || *p == 'E')) {
		int eneg = 0, ex = 0;

		p++;
		if (p < end && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		for (q = p; p < end && (unsigned)(*p - '0') < 10; p++)
			if (ex < 10000)
				ex = ex * 10 + (*p - '0');
		if (p == q)
			return 1;
		e10 += eneg ? -ex : ex;
	}
	if (p < end && !emb_isnumsep((unsigned char)*p))
		return 1;
	if (m == 0) {
		*out = neg ? -0.0f : 0.0f;
		*used = (size_t)(p - s);
		return 0;
	}
#if FLT_EVAL_METHOD == 0	/* float operations round to float */
	if (m < (1u << 24) && e10 >= -10 && e10 <= 10) {
		/* Exact operands, one correctly rounded float operation. */
		v = e10 < 0 ? (float)m / emb_p10f[-e10] :
		    (float)m * emb_p10f[e10];
		if (v >= FLT_MIN && v <= FLT_MAX) {
			*out = neg ? -v : v;
			*used = (size_t)(p - s);
			return 0;
		}
	}
#endif
	if (m >= (UINT64_C(1) << 53) || e10 < -22 || e10 > 22)
		return 1;
	d = (double)m;
	if (e10 < 0)
		d /= emb_p10d[-e10];
	else
		d *= emb_p10d[e10];
	if (d < FLT_MIN || d >= FLT_MAX)
		return 1;
	memcpy(&bits, &d, 8);
	bits &= (UINT64_C(1) << 29) - 1;
	if (bits + 1 >= (UINT64_C(1) << 28) && bits <= (UINT64_C(1) << 28) + 1)
		return 1;
	v = (float)d;
	*out = neg ? -v : v;
	*used = (size_t)(p - s);
	return 0;
}

/*
 * emb_f32_slow - emb_parse_f32's careful path: strtof() on the number,
 * which ends at a blank (emb_isnumsep) or at s + len and is at most
 * EMB_F32_TOKMAX bytes.  @return as emb_parse_f32.
 */
#define EMB_F32_TOKMAX	128
int emb_f32_slow(const char *s, size_t len, float *out, size_t *used);

/*
 * emb_text_f32 - a number under the text view's rule (emb_text_parse):
 * the longest prefix strtof() takes of the run of number characters
 * "0123456789+-.eEnaifNAIFtyTY" at s, a run of at most 63 bytes; the
 * caller looks at what follows.  So "0x10" there is 0 and then junk, and
 * "1e39x" is out of range.  Stores the value and the bytes used.
 * @return 0, EMB_ESYNTAX when no number starts at s (or its run is
 * longer), EMB_ERANGE when it overflows float32.
 */
int emb_text_f32(const char *s, size_t len, float *f, size_t *used);

/*
 * Library internals once in emb.h: used by the library and its tests, by
 * no program.
 */

/*
 * emb_key_check - validate a key: no raw LF, CR or NUL, every backslash
 * starts one of the five escapes, length <= EMB_KEY_MAX.
 * @return 0 or EMB_EKEY.
 */
int emb_key_check(const char *key, size_t len);

/*
 * emb_ftoa - write the shortest decimal text that reads back as exactly f
 * (strtof round trip); "nan", "inf" and "-inf" for non-finite values.
 * @return the length written (without the NUL) to buf[EMB_FTOA_MAX].
 */
int emb_ftoa(char *buf, float f);

/* Records written so far (VEC and GROUP). */
uint64_t emb_writer_count(const struct emb_writer *w);

/*
 * emb_crc32 - continue crc over n bytes, with zlib's crc32() definition and
 * result (start from 0); faster where the CPU allows.
 */
uint32_t emb_crc32(uint32_t crc, const void *buf, size_t n);

/*
 * emb_parse_f32 - parse one number (len bytes at s, not NUL-terminated)
 * ending at a blank or at s + len.  The value is always the one strtof()
 * gives for the same text; common decimal spellings take a fast path.
 * @return 0 with *f and *used, EMB_ESYNTAX (not a number, or junk right
 * after it), EMB_ERANGE (beyond float32).
 */
int emb_parse_f32(const char *s, size_t len, float *f, size_t *used);

/* emb_unit_to - the same from x into y (y may be x; x is left as is). */
int emb_unit_to(const float *x, float *y, uint32_t dim);

/* Plain reference twin of emb_pool (no scratch; used by the tests). */
long emb_pool_ref(int how, const float *v, size_t n, uint32_t dim,
    const double *wt, float *out);

/*
 * emb_ose_ref - the plain-loop twin of emb_ose in double: modified
 * Gram-Schmidt with column pivoting and reorthogonalization instead of
 * Householder QR, same tolerances and outcomes.  x has dim doubles.
 */
int emb_ose_ref(const float *v, size_t n, uint32_t dim, double *x,
    struct emb_ose_info *info);

/*
 * The plain-loop twin of emb_knn_search (long double sums, a full sort,
 * the exact distance of those near the k-th), for tests.
 */
int emb_knn_search_ref(const struct emb_knn *kn, const float *q,
    size_t nq, size_t ldq, unsigned k, const size_t *xoff, const uint32_t *xref,
    struct emb_hit *hits);

/*
 * emb_rank - average ranks (1-based, ties get the mean of the ranks they
 * span, as scipy.stats.rankdata) of the n values x into rank.
 * @return 0 or EMB_ENOMEM.
 */
int emb_rank(const double *x, size_t n, double *rank);

/*
 * emb_index_probe - the search itself over any slot array of that layout
 * (tag may be NULL: a store's mapped buckets), key hashed to h.
 * @return the slot where the key is, or the free slot where it would go;
 * *entry is its entry or -1.
 */
uint32_t emb_index_probe(const uint32_t *slot, const uint32_t *tag,
    size_t cap, uint64_t h, const void *s, size_t len, emb_keyfn *key,
    const void *ctx, int64_t *entry);

/* @return a uniform double in [0, 1): the top 53 bits of a draw / 2^53. */
double emb_rng_unif(struct emb_rng *g);

/*
 * emb_rng_perm - shuffle idx[0..n-1] in place (Fisher-Yates from the end:
 * for i = n - 1 down to 1, swap idx[i] and idx[draw mod (i + 1)]).
 */
void emb_rng_perm(struct emb_rng *g, size_t *idx, size_t n);

/*
 * Text model files (tmodel.c; emb-normalize(1) and emb-align(1), FILES).
 * emb_tm_putrow prints "label v_1 ... v_n" (%.17g) and a LF: 0 or -1.
 * emb_tm_getl reads a line into *line, LF removed, counting *lno:
 * @return its length, -1 at the end, -2 for a last line without its LF.
 * emb_tm_getnum reads "label N", N <= max; emb_tm_getrow "label x_1 ...
 * x_n", finite: 0 or EMB_EFORMAT.
 */
int emb_tm_putrow(FILE *fp, const char *label, const double *v, uint32_t n);
ssize_t emb_tm_getl(FILE *fp, char **line, size_t *cap, unsigned long *lno);
int emb_tm_getnum(FILE *fp, char **line, size_t *cap, unsigned long *lno,
    const char *label, unsigned long long max, unsigned long long *v);
int emb_tm_getrow(FILE *fp, char **line, size_t *cap, unsigned long *lno,
    const char *label, double *v, uint32_t n);
/*
 * emb_tm_write_crc - write len bytes of buf to fd, then the line "crc32
 * XXXXXXXX" of their crc32: 0 or EMB_EIO.  emb_tm_read_crc - read all of
 * fd into *bufp (free it) and check that last line against the bytes
 * before it, which are *lenp: 0, EMB_EIO, EMB_ENOMEM, EMB_ETRUNC (no such
 * last line: cut short) or EMB_ECRC.
 */
int emb_tm_write_crc(int fd, const char *buf, size_t len);
int emb_tm_read_crc(int fd, char **bufp, size_t *lenp);

#endif /* EMB_INT_H */
