/*
 * hash.c - the library's one hash function, one string index, one
 * seeded generator and one growable array (emb_grow, under emb_buf).
 *
 * emb_hash is FNV-1a, 64 bits.  An emb_index maps byte strings to entry
 * numbers with open addressing and linear probing; the strings stay with
 * the caller, who hands the index a function that returns entry i's bytes.
 * A slot holds entry + 1 (0 is free) at position hash & (cap - 1), the
 * same layout as a store's buckets (emb-store(5)), so that
 * emb_index_find() also searches a mapped store.  Beside the slots the
 * index keeps the low 32 bits of each entry's hash, to compare most
 * strings without fetching them and to grow without hashing again.
 */
#include <stdlib.h>
#include <string.h>

#include "base/emb-base.h"
#include "base/hash.h"
#include "base/rng.h"

uint64_t
emb_hash(const void *p, size_t n)
{
	return emb_hash_inline(p, n);
}

void
emb_index_init(struct emb_index *x, emb_keyfn *key, const void *ctx)
{
	memset(x, 0, sizeof(*x));
	x->key = key;
	x->ctx = ctx;
}

void
emb_index_free(struct emb_index *x)
{
	free(x->slot);
	free(x->tag);
	x->slot = x->tag = NULL;
	x->cap = x->n = 0;
}

uint32_t
emb_index_probe(const uint32_t *slot, const uint32_t *tag, size_t cap,
    uint64_t h, const void *s, size_t len, emb_keyfn *key,
    const void *ctx, int64_t *entry)
{
	return emb_index_probe_inline(slot, tag, cap, h, s, len, key, ctx,
	    entry);
}

int64_t
emb_index_find(const struct emb_index *x, const void *s, size_t len)
{
	int64_t e = -1;

	if (x->n > 0)
		emb_index_probe(x->slot, x->tag, x->cap, emb_hash(s, len), s,
		    len, x->key, x->ctx, &e);
	return e;
}

int
emb_index_reserve(struct emb_index *x, size_t n)
{
	size_t cap = x->cap ? x->cap : 16;
	uint32_t *slot, *tag;

	if (n > UINT32_MAX - 1)
		return EMB_ELIMIT;
	while (cap / 2 < n)
		cap *= 2;
	if (cap == x->cap)
		return 0;
	slot = calloc(cap, sizeof(*slot));
	tag = malloc(cap * sizeof(*tag));
	if (slot == NULL || tag == NULL) {
		free(slot);
		free(tag);
		return EMB_ENOMEM;
	}
	for (size_t j = 0; j < x->cap; j++) {
		size_t i;

		if (x->slot[j] == 0)
			continue;
		for (i = x->tag[j] & (cap - 1); slot[i] != 0;
		    i = (i + 1) & (cap - 1))
			;
		slot[i] = x->slot[j];
		tag[i] = x->tag[j];
	}
	free(x->slot);
	free(x->tag);
	x->slot = slot;
	x->tag = tag;
	x->cap = cap;
	return 0;
}

int
emb_index_add(struct emb_index *x, size_t e, size_t *had)
{
	const char *k;
	size_t len;
	uint64_t h;
	uint32_t i;
	int64_t f;
	int rc;

	if (e > UINT32_MAX - 2)
		return EMB_ELIMIT;
	if ((rc = emb_index_reserve(x, x->n + 1)) < 0)
		return rc;
	k = x->key(x->ctx, e, &len);
	h = emb_hash(k, len);
	i = emb_index_probe(x->slot, x->tag, x->cap, h, k, len, x->key,
	    x->ctx, &f);
	if (f >= 0) {
		if (had != NULL)
			*had = (size_t)f;
		return 1;
	}
	x->slot[i] = (uint32_t)e + 1;
	x->tag[i] = (uint32_t)h;
	x->n++;
	return 0;
}

/*
 * Seeded randomness: splitmix64 (Steele, Lea and Flood, 2014).
 */

void
emb_rng_seed(struct emb_rng *g, uint64_t seed)
{
	g->s = seed;
}

uint64_t
emb_rng_next(struct emb_rng *g)
{
	uint64_t z = (g->s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

double
emb_rng_unif(struct emb_rng *g)
{
	return (double)(emb_rng_next(g) >> 11) * 0x1p-53;
}

uint64_t
emb_rng_below(struct emb_rng *g, uint64_t n)
{
	uint64_t rem = (0 - n) % n;	/* 2^64 mod n */
	uint64_t x;

	do
		x = emb_rng_next(g);
	while (rem != 0 && x >= 0 - rem);
	return x % n;
}

void
emb_rng_perm(struct emb_rng *g, size_t *idx, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(emb_rng_next(g) % i), t = idx[i - 1];

		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

/*
 * Growable arrays: the one way of the suite to make room, doubling from
 * 16 elements, with the overflow checked, up to a cap where the caller
 * has one; a byte buffer on top.
 */

int
emb_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	return emb_grow_max(pp, cap, need, SIZE_MAX, size);
}

int
emb_grow_max(void *pp, size_t *cap, size_t need, size_t max, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *np;

	if (need <= *cap)
		return 0;
	if (need > max)
		return EMB_ELIMIT;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return EMB_ENOMEM;
		c *= 2;
	}
	if (c > max)
		c = max;
	if (size > 0 && c > SIZE_MAX / size)
		return EMB_ENOMEM;
	if ((np = realloc(*(void **)pp, c * size)) == NULL)
		return EMB_ENOMEM;
	*(void **)pp = np;
	*cap = c;
	return 0;
}

int
emb_buf_reserve(struct emb_buf *b, size_t n)
{
	if (b->cap - b->len > n)
		return 0;
	if (n >= SIZE_MAX - b->len)
		return EMB_ENOMEM;
	return emb_grow(&b->p, &b->cap, b->len + n + 1, 1);
}

int
emb_buf_add(struct emb_buf *b, const void *p, size_t n)
{
	int rc;

	if ((rc = emb_buf_reserve(b, n)) < 0)
		return rc;
	if (n > 0)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

void
emb_buf_free(struct emb_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
