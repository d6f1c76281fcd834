/*
 * compose.h - what the composition filters (emb-ose, emb-bov, and for its
 * input pipe emb-normalize) share: the policy for groups without a result,
 * the output key with its appended fields, and a larger input pipe.
 * The functions are in compose.c, part of libutil.a.
 */
#ifndef EMB_COMPOSE_H
#define EMB_COMPOSE_H

#include <stddef.h>

/* What to do with a group that has no defined result. */
enum policy { P_ERROR, P_SKIP, P_BOV, P_ZERO };

/* The policies' names, indexed by enum policy. */
extern const char *const policyname[];

/*
 * Parse a policy name for option opt; bovok allows "bov".  Exit 2 if s
 * names none (or "bov" when not allowed).
 */
enum policy	 parsepolicy(const char *s, int bovok, const char *opt);

/*
 * Grow the pipe fd reads from (if it is one) to 1 MiB: a filter that reads
 * a fast stream then wakes once per MiB instead of once per 64 KiB.
 */
void	 bigpipe(int fd);

/*
 * A growing output key: the bytes of an emb_buf (and its NUL), under the
 * names the filters use; buf is the caller's to free.
 */
struct okey {
	char	*buf;
	size_t	 len, cap;
};

/* Append n bytes to k (emb_buf_add); exit 1 when out of memory. */
void	 okey_put(struct okey *k, const void *s, size_t n);
/* Set k to the n bytes at s. */
void	 okey_set(struct okey *k, const char *s, size_t n);
/* Append a TAB and a field given as printf arguments (short fields). */
void	 okey_add(struct okey *k, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * Append to the word list ws field f (1-based) of the member key at key (n
 * bytes), after a space unless ws is empty; nothing for a key without that
 * field or with it empty.
 */
void	 okey_word(struct okey *ws, const char *key, size_t n, unsigned f);

#endif /* EMB_COMPOSE_H */
