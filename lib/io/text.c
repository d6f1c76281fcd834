/*
 * text.c - the text view of a stream: float32 to shortest round-trip text
 * and back, and the one-line-per-record form that emb-cat prints and reads.
 */
#include "io/emb-io.h"
#include "io/key.h"
#include "io/ref-io.h"
#include "io/text.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Powers of ten as correctly rounded doubles, 1e-50 .. 1e55. */
static const double p10tab[] = {
	1e-50, 1e-49, 1e-48, 1e-47, 1e-46, 1e-45,
	1e-44, 1e-43, 1e-42, 1e-41, 1e-40, 1e-39,
	1e-38, 1e-37, 1e-36, 1e-35, 1e-34, 1e-33,
	1e-32, 1e-31, 1e-30, 1e-29, 1e-28, 1e-27,
	1e-26, 1e-25, 1e-24, 1e-23, 1e-22, 1e-21,
	1e-20, 1e-19, 1e-18, 1e-17, 1e-16, 1e-15,
	1e-14, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9,
	1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3,
	1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3,
	1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
	1e22, 1e23, 1e24, 1e25, 1e26, 1e27,
	1e28, 1e29, 1e30, 1e31, 1e32, 1e33,
	1e34, 1e35, 1e36, 1e37, 1e38, 1e39,
	1e40, 1e41, 1e42, 1e43, 1e44, 1e45,
	1e46, 1e47, 1e48, 1e49, 1e50, 1e51,
	1e52, 1e53, 1e54, 1e55
};
#define P10(e)	(p10tab[(e) + 50])

/* Does the decimal d (computed in double, possibly 1 ulp off) read back as
 * the float between the midpoints lo and hi?  1 yes, 0 no, -1 too close
 * to tell. */
static int
inside(double d, double lo, double hi)
{
	const double m = 0x1p-50;

	if (d > lo * (1 + m) && d < hi * (1 - m))
		return 1;
	if (d < lo * (1 - m) || d > hi * (1 + m))
		return 0;
	return -1;
}

/*
 * Format the p significant digits of m (10^(p-1) <= m < 10^p) with decimal
 * exponent x as printf's %.{p}g does: fixed when -4 <= x < p, else
 * d.ddde[+-]XX; trailing zeros dropped.
 */
static int
gfmt(char *buf, int neg, uint64_t m, int p, int x)
{
	char dig[10];
	int nd = p, n = 0;

	for (int i = p - 1; i >= 0; i--) {
		dig[i] = (char)('0' + m % 10);
		m /= 10;
	}
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	if (neg)
		buf[n++] = '-';
	if (x >= -4 && x < p) {
		if (x < 0) {
			buf[n++] = '0';
			buf[n++] = '.';
			for (int i = 0; i < -x - 1; i++)
				buf[n++] = '0';
			for (int i = 0; i < nd; i++)
				buf[n++] = dig[i];
		} else {
			for (int i = 0; i <= x; i++)
				buf[n++] = i < nd ? dig[i] : '0';
			if (nd > x + 1) {
				buf[n++] = '.';
				for (int i = x + 1; i < nd; i++)
					buf[n++] = dig[i];
			}
		}
	} else {
		buf[n++] = dig[0];
		if (nd > 1) {
			buf[n++] = '.';
			for (int i = 1; i < nd; i++)
				buf[n++] = dig[i];
		}
		buf[n++] = 'e';
		buf[n++] = x < 0 ? '-' : '+';
		if (x < 0)
			x = -x;
		if (x >= 10) {
			buf[n++] = (char)('0' + x / 10);
			buf[n++] = (char)('0' + x % 10);
		} else {
			buf[n++] = '0';
			buf[n++] = (char)('0' + x);
		}
	}
	buf[n] = '\0';
	return n;
}

int
emb_ftoa(char *buf, float f)
{
	double x, lo, hi;
	int e, neg;

	if (isnan(f))
		return (int)(memcpy(buf, "nan", 4), 3);
	if (isinf(f)) {
		if (f < 0)
			return (int)(memcpy(buf, "-inf", 5), 4);
		return (int)(memcpy(buf, "inf", 4), 3);
	}
	if (f == 0) {
		if (signbit(f))
			return (int)(memcpy(buf, "-0", 3), 2);
		return (int)(memcpy(buf, "0", 2), 1);
	}
	neg = f < 0;
	x = fabs((double)f);
	/* Midpoints to the neighbouring floats: exact in double. */
	lo = (x + (double)nextafterf(fabsf(f), 0)) / 2;
	if (fabsf(f) == FLT_MAX)
		hi = x + (x - (double)nextafterf(FLT_MAX, 0)) / 2;
	else
		hi = (x + (double)nextafterf(fabsf(f), INFINITY)) / 2;
	e = (int)floor(log10(x));
	if (e < -50)
		e = -50;
	while (e > -50 && x < P10(e))
		e--;
	while (e < 39 && x >= P10(e + 1))
		e++;
	/*
	 * A float32 is pinned down by at most 9 significant digits.  Start at
	 * 6 (FLT_DIG): if a shorter text reads back as f, so does the 6-digit
	 * one, and dropping trailing zeros makes it that text.  A subnormal
	 * has fewer bits and may need fewer digits, so it starts at 1.  For
	 * each p try the two p-digit decimals around x, the nearer first (ties
	 * to even, as printf rounds).
	 */
	for (int p = x < FLT_MIN ? 1 : 6; p <= 9; p++) {
		int s = p - 1 - e;
		double y = s >= 0 ? x * P10(s) : x / P10(-s);
		double fl = floor(y);
		uint64_t c[2];
		int first = y - fl > 0.5 || (y - fl == 0.5 &&
		    ((uint64_t)fl & 1));

		c[first] = (uint64_t)fl;
		c[!first] = (uint64_t)fl + 1;
		for (int i = 0; i < 2; i++) {
			uint64_t m = c[i];
			int xe = e, ok;
			double d;

			if (m < (uint64_t)P10(p - 1))
				continue;
			d = s >= 0 ? (double)m / P10(s) : (double)m * P10(-s);
			if (m >= (uint64_t)P10(p)) {
				m /= 10;
				xe++;
			}
			ok = inside(d, lo, hi);
			if (ok < 0) {
				int n = gfmt(buf, neg, m, p, xe);

				ok = fabsf(strtof(buf, NULL)) == fabsf(f);
				if (ok)
					return n;
				continue;
			}
			if (ok)
				return gfmt(buf, neg, m, p, xe);
		}
	}
	/* Not reached for finite floats; keep the old answer to be safe. */
	return snprintf(buf, EMB_FTOA_MAX, "%.9g", (double)f);
}

/* The careful path: strtof on a NUL-terminated copy of the token. */
int
emb_f32_slow(const char *s, size_t len, float *out, size_t *used)
{
	char tmp[EMB_F32_TOKMAX + 1], *end;
	size_t n = 0;
	float v;

	while (n < len && !emb_isnumsep((unsigned char)s[n]))
		n++;
	if (n == 0 || n > EMB_F32_TOKMAX)
		return EMB_ESYNTAX;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	v = strtof(tmp, &end);
	if (end != tmp + n)
		return EMB_ESYNTAX;
	if (errno == ERANGE && (v > FLT_MAX || v < -FLT_MAX))
		return EMB_ERANGE;
	*out = v;
	*used = n;
	return 0;
}

int
emb_parse_f32(const char *s, size_t len, float *f, size_t *used)
{
	if (emb_f32_fast(s, s + len, f, used) == 0)
		return 0;
	return emb_f32_slow(s, len, f, used);
}

int
emb_text_f32(const char *s, size_t len, float *f, size_t *used)
{
	char tmp[64], *end;
	size_t n = 0;
	float v;

	if (emb_f32_fast(s, s + len, f, used) == 0)
		return 0;
	/* A number is a run of these bytes; strtof decides the rest. */
	while (n < len && n < sizeof(tmp) - 1 &&
	    strchr("0123456789+-.eEnaifNAIFtyTY", s[n]) != NULL && s[n] != '\0')
		n++;
	if (n == 0)
		return EMB_ESYNTAX;
	/*
	 * A run longer than the copy is no float anyone writes; parsing its
	 * prefix could turn 1e10 written with 70 digits into an overflow.
	 */
	if (n == sizeof(tmp) - 1 && n < len && s[n] != '\0' &&
	    strchr("0123456789+-.eEnaifNAIFtyTY", s[n]) != NULL)
		return EMB_ESYNTAX;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	v = strtof(tmp, &end);
	if (end == tmp)
		return EMB_ESYNTAX;
	if (errno == ERANGE && isinf(v))
		return EMB_ERANGE;
	*f = v;
	*used = (size_t)(end - tmp);
	return 0;
}

int
emb_text_parse(const char *line, size_t len, float *vec, uint32_t cap,
    uint32_t dim, int allow_nonfinite, struct emb_textrec *out)
{
	const char *tab = NULL, *p, *end = line + len;
	uint32_t n = 0;
	int rc;

	for (p = line; (p = memchr(p, '\t', (size_t)(end - p))) != NULL; p++)
		tab = p;
	if (tab == NULL)
		return EMB_ESYNTAX;
	out->key = line;
	out->keylen = (size_t)(tab - line);
	if (out->keylen > EMB_KEY_MAX)
		return EMB_ELIMIT;
	if ((rc = emb_key_check(line, out->keylen)) < 0)
		return rc;
	p = tab + 1;
	if (p < end && *p == '#') {
		uint64_t m = 0;

		if (++p == end)
			return EMB_ESYNTAX;
		for (; p < end; p++) {
			if (*p < '0' || *p > '9')
				return EMB_ESYNTAX;
			m = m * 10 + (uint64_t)(*p - '0');
			if (m > EMB_GROUP_MAX)
				return EMB_ELIMIT;
		}
		out->type = EMB_REC_GROUP;
		out->nmemb = (uint32_t)m;
		out->dim = 0;
		return 0;
	}
	if (dim != 0 && dim < cap)
		cap = dim;
	for (;;) {
		size_t used;
		float f;

		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		if ((rc = emb_text_f32(p, (size_t)(end - p), &f, &used)) < 0)
			return rc;
		p += used;
		if (p < end && *p != ' ')
			return EMB_ESYNTAX;
		if (!allow_nonfinite && !isfinite(f))
			return EMB_ENONFINITE;
		/* Past the room, go on counting so that the error can say. */
		if (n < cap)
			vec[n] = f;
		if (n < UINT32_MAX)
			n++;
	}
	out->dim = n;
	if (n == 0)
		return EMB_ESYNTAX;
	if (n > cap || (dim != 0 && n != dim))
		return EMB_EDIM;
	out->type = EMB_REC_VEC;
	out->nmemb = 0;
	return 0;
}

size_t
emb_text_vec(char *buf, const char *key, size_t keylen, const float *vec,
    uint32_t dim)
{
	char *p = buf;

	memcpy(p, key, keylen);
	p += keylen;
	*p++ = '\t';
	for (uint32_t i = 0; i < dim; i++) {
		if (i > 0)
			*p++ = ' ';
		p += emb_ftoa(p, vec[i]);
	}
	*p++ = '\n';
	return (size_t)(p - buf);
}
