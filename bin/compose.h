/*
 * compose.h - what the composition filters (emb-ose, emb-bov, and for its
 * input pipe emb-normalize) share: the policy for groups without a result,
 * the output key with its appended fields, and a larger input pipe.
 * Header-only: each filter is one program file plus util.o.
 */
#ifndef EMB_COMPOSE_H
#define EMB_COMPOSE_H

#include <sys/stat.h>

#include <err.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* What to do with a group that has no defined result. */
enum policy { P_ERROR, P_SKIP, P_BOV, P_ZERO };

static const char *const policyname[] = { "error", "skip", "bov", "zero" };

/* Parse a policy name for option opt; bovok allows "bov". */
static inline enum policy
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

/*
 * Grow the pipe fd reads from (if it is one) to 1 MiB: a filter that reads
 * a fast stream then wakes once per MiB instead of once per 64 KiB.
 */
static inline void
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

/*
 * A growing output key: the bytes of an emb_buf (and its NUL), under the
 * names the filters use.
 */
struct okey {
	char	*buf;
	size_t	 len, cap;
};

/* Append n bytes to k (emb_buf_add). */
static inline void
okey_put(struct okey *k, const void *s, size_t n)
{
	struct emb_buf b = { k->buf, k->len, k->cap };

	xbufadd(&b, s, n);
	k->buf = b.p;
	k->len = b.len;
	k->cap = b.cap;
}

static inline void
okey_set(struct okey *k, const char *s, size_t n)
{
	k->len = 0;
	okey_put(k, s, n);
}

/* Append a TAB and a field given as printf arguments (short fields). */
static inline void
okey_add(struct okey *k, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static inline void
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

#endif /* EMB_COMPOSE_H */
