/*
 * knn.c - the reference set of the nearest-neighbour search: each
 * vector as it was given, its norm, its int8 codes (knn.h), and its key;
 * the word index of exclusions and analogies.  The search itself is in
 * knn-search.c, its kernels in knn-kern.c.
 */
#include "emb.h"
#include "int.h"
#include "knn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define LDALIGN	16	/* row stride: a multiple of 16 floats, 64 bytes */
#define MAXREF	((size_t)UINT32_MAX - 1)

int
emb_knn_create(struct emb_knn **kp, uint32_t dim)
{
	struct emb_knn *k;

	*kp = NULL;
	if (dim == 0 || dim > EMB_DIM_MAX)
		return EMB_EDIM;
	if ((k = calloc(1, sizeof(*k))) == NULL)
		return EMB_ENOMEM;
	k->dim = dim;
	k->ld = ((size_t)dim + LDALIGN - 1) / LDALIGN * LDALIGN;
	k->dp = (dim + 3) / 4 * 4;
	k->keycap = 4096;
	k->koffcap = 1024;
	if ((k->keys = malloc(k->keycap)) == NULL ||
	    (k->koff = malloc(k->koffcap * sizeof(*k->koff))) == NULL) {
		emb_knn_free(k);
		return EMB_ENOMEM;
	}
	k->koff[0] = 0;
	*kp = k;
	return 0;
}

void
emb_knn_free(struct emb_knn *k)
{
	if (k == NULL)
		return;
	if (k->mat != NULL)
		munmap(k->mat, k->maplen);
	if (k->codes != NULL)
		munmap(k->codes, k->codelen);
	free(k->nrm);
	free(k->cs);
	free(k->ce);
	free(k->scratch);
	free(k->keys);
	free(k->koff);
	emb_index_free(&k->idx);
	free(k->next);
	free(k);
}

/* Drop the word index: adding a reference makes it stale. */
static void
unindex(struct emb_knn *k)
{
	emb_index_free(&k->idx);
	free(k->next);
	k->next = NULL;
	k->indexed = 0;
}

/*
 * Grow an anonymous mapping to len bytes: by mremap without a copy and
 * without a transient second matrix; pages not yet written cost nothing.
 */
static int
growmap(void **p, size_t *maplen, size_t len)
{
	void *q;

	if (*p == NULL)
		q = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	else
		q = mremap(*p, *maplen, len, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		return EMB_ENOMEM;
	*p = q;
	*maplen = len;
	return 0;
}

static int
growarr(void *pp, size_t n, size_t size)
{
	void *q = realloc(*(void **)pp, n * size);

	if (q == NULL)
		return EMB_ENOMEM;
	*(void **)pp = q;
	return 0;
}

int
emb_knn_reserve(struct emb_knn *k, size_t n)
{
	size_t len, clen, ns;
	void *p;
	int rc;

	if (n <= k->cap)
		return 0;
	if (n > MAXREF)
		return EMB_ELIMIT;
	/* Whole strips, so that the scales of a strip's lanes exist. */
	ns = (n + KNN_STRIP - 1) / KNN_STRIP * KNN_STRIP;
	if (emb_mul(ns, k->ld * sizeof(float), &len) < 0 ||
	    emb_mul(ns, k->dp, &clen) < 0)
		return EMB_ELIMIT;
	p = k->mat;
	if ((rc = growmap(&p, &k->maplen, len)) < 0)
		return rc;
	k->mat = p;
	if (k->dim <= KNN_CODEDIM) {
		p = k->codes;
		if ((rc = growmap(&p, &k->codelen, clen)) < 0)
			return rc;
		k->codes = p;
	}
	if ((rc = growarr(&k->nrm, ns, sizeof(double))) < 0 ||
	    (rc = growarr(&k->cs, ns, sizeof(float))) < 0 ||
	    (rc = growarr(&k->ce, ns, sizeof(float))) < 0)
		return rc;
	/* A strip's unused lanes are read, never kept: keep them defined. */
	memset(k->cs + k->cap, 0, (ns - k->cap) * sizeof(float));
	memset(k->ce + k->cap, 0, (ns - k->cap) * sizeof(float));
	k->cap = ns;
	return 0;
}

/* How many rows of ld floats to reserve first: 1024, at most 4 MiB. */
static size_t
firstrows(size_t ld)
{
	size_t n = ((size_t)4 << 20) / (ld * sizeof(float));

	return n > 1024 ? 1024 : n > 0 ? n : 1;
}

/* Store the codes of reference i into its strip's lane. */
static void
putcodes(struct emb_knn *k, size_t i, const int8_t *c)
{
	uint8_t *p = k->codes + i / KNN_STRIP * KNN_STRIP * k->dp +
	    i % KNN_STRIP * 4;

	for (uint32_t g = 0; g < k->dp / 4; g++, p += 4 * KNN_STRIP)
		for (int j = 0; j < 4; j++)
			p[j] = (uint8_t)(c[4 * g + j] + 128);
}

int
emb_knn_add(struct emb_knn *k, const char *key, size_t keylen,
    const float *vec)
{
	float *row, a;
	int rc;

	if (k->n >= MAXREF)
		return EMB_ELIMIT;
	/* The first rows: 1024, or 4 MiB of them at a large dimension. */
	if (k->n == k->cap && (rc = emb_knn_reserve(k, k->cap > 0 ?
	    k->cap + k->cap / 2 + 1 : firstrows(k->ld))) < 0)
		return rc;
	if (k->n + 2 > k->koffcap) {
		size_t cap = k->koffcap * 2;
		size_t *p = realloc(k->koff, cap * sizeof(*p));

		if (p == NULL)
			return EMB_ENOMEM;
		k->koff = p;
		k->koffcap = cap;
	}
	if (k->keylen + keylen + 1 > k->keycap) {
		size_t cap = k->keycap;
		char *p;

		while (cap < k->keylen + keylen + 1)
			cap *= 2;
		if ((p = realloc(k->keys, cap)) == NULL)
			return EMB_ENOMEM;
		k->keys = p;
		k->keycap = cap;
	}
	if (k->codes != NULL && k->scratch == NULL &&
	    (k->scratch = malloc(k->dp)) == NULL)
		return EMB_ENOMEM;
	memcpy(k->keys + k->keylen, key, keylen);
	k->keys[k->keylen + keylen] = '\0';
	k->keylen += keylen + 1;
	k->koff[k->n + 1] = k->keylen;
	row = k->mat + k->n * k->ld;
	memcpy(row, vec, k->dim * sizeof(float));
	/* Keep the padding defined: BLIS never reads it, memcheck may. */
	memset(row + k->dim, 0, (k->ld - k->dim) * sizeof(float));
	k->nrm[k->n] = knn_dot(row, row, k->dim);
	if (k->codes != NULL) {
		knn_quant(row, k->dim, k->dp, sqrt(k->nrm[k->n]), k->scratch,
		    &k->cs[k->n], &k->ce[k->n], &a);
		putcodes(k, k->n, k->scratch);
	}
	k->n++;
	if (k->indexed)
		unindex(k);
	return 0;
}

size_t
emb_knn_count(const struct emb_knn *k)
{
	return k->n;
}

uint32_t
emb_knn_dim(const struct emb_knn *k)
{
	return k->dim;
}

const char *
emb_knn_key(const struct emb_knn *k, size_t i, size_t *len)
{
	*len = k->koff[i + 1] - k->koff[i] - 1;
	return k->keys + k->koff[i];
}

const float *
emb_knn_vec(const struct emb_knn *k, size_t i)
{
	return k->mat + i * k->ld;
}

/* The word of reference i: its key field wfield; 0 if it has none. */
static int
refword(const struct emb_knn *k, size_t i, const char **w, size_t *wlen)
{
	size_t len, off;
	const char *key = emb_knn_key(k, i, &len);

	if (emb_key_field(key, len, k->wfield, &off, wlen) < 0)
		return 0;
	*w = key + off;
	return 1;
}

/* The index's key: the word of a reference that has one. */
static const char *
idxword(const void *ctx, size_t i, size_t *len)
{
	const char *w = NULL;

	refword(ctx, i, &w, len);
	return w;
}

/*
 * The index holds each distinct word once, with its first reference;
 * next[] chains the references of the same word in reference order.
 */
int
emb_knn_index(struct emb_knn *k, unsigned field)
{
	int rc;

	if (k->indexed && k->wfield == field)
		return 0;
	unindex(k);
	k->wfield = field;
	emb_index_init(&k->idx, idxword, k);
	if ((k->next = calloc(k->n ? k->n : 1, sizeof(*k->next))) == NULL)
		return EMB_ENOMEM;
	if ((rc = emb_index_reserve(&k->idx, k->n)) < 0) {
		unindex(k);
		return rc;
	}
	/*
	 * Backwards, so that a word seen again is an earlier reference: it
	 * takes the word's slot and heads the chain.
	 */
	for (size_t i = k->n; i-- > 0;) {
		const char *w;
		size_t wlen, had;
		int64_t e;
		uint32_t at;

		if (!refword(k, i, &w, &wlen))
			continue;
		if ((rc = emb_index_add(&k->idx, i, &had)) < 0) {
			unindex(k);
			return rc;
		}
		if (rc == 0)
			continue;
		at = emb_index_probe(k->idx.slot, k->idx.tag, k->idx.cap,
		    emb_hash(w, wlen), w, wlen, idxword, k, &e);
		k->idx.slot[at] = (uint32_t)i + 1;
		k->next[i] = (uint32_t)had + 1;
	}
	k->indexed = 1;
	return 0;
}

int64_t
emb_knn_find(const struct emb_knn *k, const char *word, size_t len)
{
	if (!k->indexed)
		return -1;
	return emb_index_find(&k->idx, word, len);
}

int64_t
emb_knn_find_next(const struct emb_knn *k, size_t i)
{
	if (!k->indexed || i >= k->n)
		return -1;
	return (int64_t)k->next[i] - 1;
}

