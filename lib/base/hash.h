/*
 * hash.h - the string index's probe (hash.c), for the modules that
 * search an index of their own layout: a store's buckets (store.c,
 * store-build.c), the kNN references' key fields (knn.c).
 */
#ifndef EMB_HASH_H
#define EMB_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/emb-base.h"

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
 * emb_index_probe - the search itself over any slot array of that layout
 * (tag may be NULL: a store's mapped buckets), key hashed to h.
 * @return the slot where the key is, or the free slot where it would go;
 * *entry is its entry or -1.
 */
uint32_t emb_index_probe(const uint32_t *slot, const uint32_t *tag,
    size_t cap, uint64_t h, const void *s, size_t len, emb_keyfn *key,
    const void *ctx, int64_t *entry);

#endif /* EMB_HASH_H */
