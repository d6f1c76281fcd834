/*
 * key.c - keys: TAB-separated fields with five two-byte escapes.
 *
 * The escaping lets any raw word (GoogleNews holds invalid UTF-8 and odd
 * bytes) travel as exactly one field while a key stays one printable line.
 */
#include "io/emb-io.h"
#include "io/key.h"

#include <string.h>

int
emb_key_check(const char *key, size_t len)
{
	if (len > EMB_KEY_MAX)
		return EMB_EKEY;
	for (size_t i = 0; i < len; i++) {
		switch (key[i]) {
		case '\n':
		case '\r':
		case '\0':
			return EMB_EKEY;
		case '\\':
			if (++i == len)
				return EMB_EKEY;
			if (strchr("\\tnr0", key[i]) == NULL || key[i] == '\0')
				return EMB_EKEY;
			break;
		}
	}
	return 0;
}

size_t
emb_key_escape(char *dst, const void *src, size_t n)
{
	const unsigned char *s = src;
	char *d = dst;

	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '\\': *d++ = '\\'; *d++ = '\\'; break;
		case '\t': *d++ = '\\'; *d++ = 't'; break;
		case '\n': *d++ = '\\'; *d++ = 'n'; break;
		case '\r': *d++ = '\\'; *d++ = 'r'; break;
		case '\0': *d++ = '\\'; *d++ = '0'; break;
		default: *d++ = (char)s[i]; break;
		}
	}
	return (size_t)(d - dst);
}

long
emb_key_unescape(void *dst, const char *src, size_t n)
{
	unsigned char *d = dst;

	for (size_t i = 0; i < n; i++) {
		if (src[i] != '\\') {
			*d++ = (unsigned char)src[i];
			continue;
		}
		if (++i == n)
			return EMB_EKEY;
		switch (src[i]) {
		case '\\': *d++ = '\\'; break;
		case 't': *d++ = '\t'; break;
		case 'n': *d++ = '\n'; break;
		case 'r': *d++ = '\r'; break;
		case '0': *d++ = '\0'; break;
		default: return EMB_EKEY;
		}
	}
	return (long)(d - (unsigned char *)dst);
}

int
emb_key_field(const char *key, size_t len, unsigned i, size_t *off,
    size_t *flen)
{
	size_t start = 0;

	for (size_t p = 0; p <= len; p++) {
		if (p < len && key[p] != '\t')
			continue;
		if (i == 0) {
			*off = start;
			*flen = p - start;
			return 0;
		}
		i--;
		start = p + 1;
	}
	return EMB_EINVAL;
}

unsigned
emb_key_nfields(const char *key, size_t len)
{
	unsigned n = 1;

	for (const char *p = key; (p = memchr(p, '\t',
	    len - (size_t)(p - key))) != NULL; p++)
		n++;
	return n;
}
