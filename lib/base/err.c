/*
 * err.c - error codes to text, input quoted for messages, and the one way
 * the library's objects record an error message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/emb-base.h"
#include "base/fail.h"

static const char *const msgs[] = {
	[-EMB_OK]	= "success",
	[-EMB_EIO]	= "input/output error",
	[-EMB_ENOMEM]	= "out of memory",
	[-EMB_EINVAL]	= "invalid argument",
	[-EMB_ELIMIT]	= "size exceeds limit",
	[-EMB_EMAGIC]	= "not an emb stream (bad magic)",
	[-EMB_EVERSION]	= "unsupported stream version",
	[-EMB_EDIM]	= "bad dimension",
	[-EMB_ETRUNC]	= "truncated stream",
	[-EMB_ETYPE]	= "unknown record type",
	[-EMB_EKEY]	= "bad key",
	[-EMB_ENONFINITE] = "non-finite component",
	[-EMB_EGROUP]	= "broken group framing",
	[-EMB_ECOUNT]	= "record count mismatch",
	[-EMB_ECRC]	= "checksum mismatch",
	[-EMB_ESYNTAX]	= "syntax error",
	[-EMB_ERANGE]	= "number out of range",
	[-EMB_EFORMAT]	= "malformed embedding file",
	[-EMB_EGZIP]	= "corrupt gzip data",
	[-EMB_ESTORE]	= "corrupt store",
	[-EMB_EZERO]	= "zero vector",
	[-EMB_ENOSOL]	= "no solution",
	[-EMB_EEMPTY]	= "empty input",
	[-EMB_ECONVERGE] = "no convergence",
};

const char *
emb_strerror(int code)
{
	if (code > 0 || code < EMB_ELAST || msgs[-code] == NULL)
		return "unknown error";
	return msgs[-code];
}

const char *
emb_quote(char *dst, const void *src, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = src;
	size_t m = n < EMB_QUOTE_IN ? n : EMB_QUOTE_IN, j = 0;

	for (size_t i = 0; i < m; i++) {
		unsigned char c = p[i];

		if (c == '\\' || c == '\'') {
			dst[j++] = '\\';
			dst[j++] = (char)c;
		} else if (c == '\t' || c == '\n' || c == '\r') {
			dst[j++] = '\\';
			dst[j++] = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
		} else if (c >= 0x20 && c < 0x7f) {
			dst[j++] = (char)c;
		} else {
			dst[j++] = '\\';
			dst[j++] = 'x';
			dst[j++] = hex[c >> 4];
			dst[j++] = hex[c & 15];
		}
	}
	if (n > m) {
		memcpy(dst + j, "...", 3);
		j += 3;
	}
	dst[j] = '\0';
	return dst;
}

const char *
emb_quotes(char *dst, const char *s)
{
	return emb_quote(dst, s, strnlen(s, EMB_QUOTE_IN + 1));
}

int
emb_vfail(char *msg, size_t sz, int code, const char *fmt, va_list ap)
{
	vsnprintf(msg, sz, fmt, ap);
	return code;
}

int
emb_fail(char *msg, size_t sz, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emb_vfail(msg, sz, code, fmt, ap);
	va_end(ap);
	return code;
}
