/*
 * text.h - numbers as text (text.c): the float32 parser under every text
 * reader (the text view, the embedding files' text formats) and the
 * shortest float32 printer.
 */
#ifndef EMB_TEXT_H
#define EMB_TEXT_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Float32 from decimal text, the fast path: inline, since a 1 GB
 * GloVe file is mostly numbers and parsing them is most of its load time.
 * The careful paths (strtof on a copy of the number) are in text.c, with
 * emb_parse_f32() (below), the fast path and the careful one together.
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
 * emb_parse_f32 - parse one number (len bytes at s, not NUL-terminated)
 * ending at a blank or at s + len.  The value is always the one strtof()
 * gives for the same text; common decimal spellings take a fast path.
 * @return 0 with *f and *used, EMB_ESYNTAX (not a number, or junk right
 * after it), EMB_ERANGE (beyond float32).
 */
int emb_parse_f32(const char *s, size_t len, float *f, size_t *used);

/*
 * emb_ftoa - write the shortest decimal text that reads back as exactly f
 * (strtof round trip); "nan", "inf" and "-inf" for non-finite values.
 * @return the length written (without the NUL) to buf[EMB_FTOA_MAX].
 */
int emb_ftoa(char *buf, float f);

#endif /* EMB_TEXT_H */
