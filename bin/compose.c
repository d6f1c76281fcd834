/*
 * compose.c - what the composition filters share (see compose.h): the
 * policy for groups without a result, a larger input pipe and the output
 * key with its appended fields.
 */
#include <sys/stat.h>

#include <err.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "compose.h"

const char *const policyname[] = { "error", "skip", "bov", "zero" };

enum policy
parsepolicy(const char *s, int bovok, const char *opt)
{
	char q[EMB_QUOTE_BUF];

	for (int i = 0; i < 4; i++)
		if (strcmp(s, policyname[i]) == 0 && (bovok || i != P_BOV))
			return (enum policy)i;
	warnx("%s: '%s' is not one of error, skip,%s zero", opt,
	    emb_quotes(q, s), bovok ? " bov," : "");
	exit(2);
}

void
bigpipe(int fd)
{
#ifdef F_SETPIPE_SZ
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
	(void)fd;
#endif
}

void
okey_put(struct okey *k, const void *s, size_t n)
{
	struct emb_buf b = { k->buf, k->len, k->cap };

	xbufadd(&b, s, n);
	k->buf = b.p;
	k->len = b.len;
	k->cap = b.cap;
}

void
okey_set(struct okey *k, const char *s, size_t n)
{
	k->len = 0;
	okey_put(k, s, n);
}

void
okey_add(struct okey *k, const char *fmt, ...)
{
	char f[48];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(f, sizeof(f), fmt, ap);
	va_end(ap);
	okey_put(k, "\t", 1);
	okey_put(k, f, (size_t)n < sizeof(f) ? (size_t)n : sizeof(f) - 1);
}

void
okey_word(struct okey *ws, const char *key, size_t n, unsigned f)
{
	const char *w;
	size_t wlen;

	if ((w = keyfield(key, n, f, &wlen)) == NULL || wlen == 0)
		return;
	if (ws->len > 0)
		okey_put(ws, " ", 1);
	okey_put(ws, w, wlen);
}
