/*
 * text.c - the text view of a stream: float32 to shortest round-trip text
 * and back, and the one-line-per-record form that emb-cat prints and reads.
 */
#include "emb.h"
#include "int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
emb_ftoa(char *buf, float f)
{
	int n = 0;

	if (isnan(f))
		return (int)(memcpy(buf, "nan", 4), 3);
	if (isinf(f)) {
		if (f < 0)
			return (int)(memcpy(buf, "-inf", 5), 4);
		return (int)(memcpy(buf, "inf", 4), 3);
	}
	/*
	 * A float32 is pinned down by at most 9 significant digits.  Start at
	 * 6: if a shorter text reads back as f, so does f printed with 6
	 * digits, and %g drops the trailing zeros.
	 */
	for (int prec = 6; prec <= 9; prec++) {
		n = snprintf(buf, EMB_FTOA_MAX, "%.*g", prec, (double)f);
		if (strtof(buf, NULL) == f)
			break;
	}
	return n;
}

int
emb_atof(const char *s, size_t len, float *f, size_t *used)
{
	char tmp[64], *end;
	size_t n = 0;
	float v;

	/* A number is a run of these bytes; strtof decides the rest. */
	while (n < len && n < sizeof(tmp) - 1 &&
	    strchr("0123456789+-.eEnaifNAIFtyTY", s[n]) != NULL && s[n] != '\0')
		n++;
	if (n == 0)
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
	for (;;) {
		size_t used;
		float f;

		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		if ((rc = emb_atof(p, (size_t)(end - p), &f, &used)) < 0)
			return rc;
		p += used;
		if (p < end && *p != ' ')
			return EMB_ESYNTAX;
		if (!allow_nonfinite && !isfinite(f))
			return EMB_ENONFINITE;
		if (n == cap || (dim != 0 && n == dim)) {
			out->dim = n + 1;	/* more than allowed */
			return EMB_EDIM;
		}
		vec[n++] = f;
	}
	if (n == 0)
		return EMB_ESYNTAX;
	if (dim != 0 && n != dim) {
		out->dim = n;
		return EMB_EDIM;
	}
	out->type = EMB_REC_VEC;
	out->nmemb = 0;
	out->dim = n;
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
