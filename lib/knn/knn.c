/*
 * knn.c - the reference set of the nearest-neighbour search: each
 * vector as it was given, its norm, its int8 codes (codes.h), and its
 * key; the word index of exclusions and analogies.  The search itself is
 * in knn-search.c, its kernels in knn-kern.c.
 */
#include "knn/emb-knn.h"
#include "base/crc.h"
#include "io/fmt.h"
#include "store/access.h"
#include "base/hash.h"
#include "base/io.h"
#include "knn/knn.h"
#include "base/le.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
	k->rowfd = -1;
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
	if (k->mat != NULL && k->store == NULL)
		munmap(k->mat, k->maplen);
	if (k->store == NULL || k->ownterms) {
		if (k->codes != NULL)
			munmap(k->codes, k->codelen);
		free(k->nrm);
		free(k->cs);
		free(k->ce);
	}
	emb_store_close(k->store);
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
	k->storeidx = 0;
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
	if (k->store != NULL)
		return EMB_EINVAL;	/* a store's rows are its own */
	/* Whole strips, so that the scales of a strip's lanes exist. */
	ns = (n + KNN_STRIP - 1) / KNN_STRIP * KNN_STRIP;
	if (emb_mul(ns, k->ld * sizeof(float), &len) < 0 ||
	    emb_mul(ns, k->dp, &clen) < 0)
		return EMB_ELIMIT;
	p = k->mat;
	if ((rc = emb_growmap(&p, &k->maplen, len, 0)) < 0)
		return rc;
	k->mat = p;
	if (k->dim <= KNN_CODEDIM) {
		p = k->codes;
		if ((rc = emb_growmap(&p, &k->codelen, clen, 0)) < 0)
			return rc;
		k->codes = p;
	}
	if ((rc = knn_growterms(&k->nrm, &k->cs, &k->ce, k->cap, ns)) < 0)
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

int
emb_knn_add(struct emb_knn *k, const char *key, size_t keylen,
    const float *vec)
{
	float *row;
	int rc;

	if (k->n >= MAXREF)
		return EMB_ELIMIT;
	if (k->store != NULL)
		return EMB_EINVAL;
	/* The first rows: 1024, or 4 MiB of them at a large dimension. */
	if (k->n == k->cap && (rc = emb_knn_reserve(k, k->cap > 0 ?
	    k->cap + k->cap / 2 + 1 : firstrows(k->ld))) < 0)
		return rc;
	if ((rc = emb_grow(&k->koff, &k->koffcap, k->n + 2,
	    sizeof(*k->koff))) < 0 ||
	    (rc = emb_grow(&k->keys, &k->keycap, k->keylen + keylen + 1,
	    1)) < 0)
		return rc;
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
	knn_code(row, k->dim, k->dp, k->n, k->scratch, k->codes, k->nrm,
	    k->cs, k->ce);
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
	if (k->rawkeys)
		return emb_store_word(k->store, i, len);
	*len = k->koff[i + 1] - k->koff[i] - 1;
	return k->keys + k->koff[i];
}

const float *
emb_knn_vec(const struct emb_knn *k, size_t i)
{
	return k->mat + i * k->ld;
}

int
emb_knn_check(const struct emb_knn *k, size_t i)
{
	return knn_rowok(k, (uint32_t)i, emb_knn_vec(k, i)) ? 0 :
	    knn_rowfail(k, (uint32_t)i);
}

const char *
emb_knn_msg(const struct emb_knn *k)
{
	return k->store != NULL ? emb_store_msg(k->store) : "";
}

const float *
knn_row(const struct emb_knn *k, uint32_t r, float *buf)
{
	size_t len = (size_t)k->dim * sizeof(float);

	const float *v = k->mat + (size_t)r * k->ld;

	/* A short read (a signal) reads the map instead: the same bytes. */
	if (k->rowfd >= 0 && pread(k->rowfd, buf, len, (off_t)(k->rowoff +
	    (uint64_t)r * k->ld * sizeof(float))) == (ssize_t)len)
		v = buf;
	return knn_rowok(k, r, v) ? v : NULL;
}

int
knn_rowok(const struct emb_knn *k, uint32_t r, const float *v)
{
	return k->rowcrc == NULL || emb_crc32(0, v, (size_t)k->dim * 4) ==
	    emb_le32(k->rowcrc + 4 * (size_t)r);
}

int
knn_rowfail(const struct emb_knn *k, uint32_t r)
{
	/* Checked again where it lies, for the message naming the word. */
	if (emb_store_check(k->store, r) == 0)
		emb_store_fail(k->store, "a vector's checksum mismatch (store "
		    "modified or damaged)");
	return EMB_ESTORE;
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
	/*
	 * A store's words are distinct and hashed already: where they are
	 * the keys as they are, its buckets are the index of field 0.
	 */
	if (k->rawkeys && field == 0) {
		k->indexed = k->storeidx = 1;
		return 0;
	}
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
	/* No word of such a store needs a backslash in its key. */
	if (k->storeidx)
		return memchr(word, '\\', len) != NULL ? -1 :
		    emb_store_lookup(k->store, word, len);
	return emb_index_find(&k->idx, word, len);
}

int64_t
emb_knn_find_next(const struct emb_knn *k, size_t i)
{
	if (!k->indexed || k->storeidx || i >= k->n)
		return -1;
	return (int64_t)k->next[i] - 1;
}


/* Whether a word is its own key: nothing in it that keys escape. */
static int
rawword(const char *w, size_t len)
{
	for (size_t i = 0; i < len; i++)
		switch (w[i]) {
		case '\\': case '\t': case '\n': case '\r': case '\0':
			return 0;
		}
	return 1;
}

/*
 * The terms of a store without a search section, computed here as
 * emb_knn_add does (the rows stay where they are).
 */
static int
storeterms(struct emb_knn *k, emb_progress_fn *progress, void *arg)
{
	size_t ns = (k->n + KNN_STRIP - 1) / KNN_STRIP * KNN_STRIP, clen;
	void *p = NULL;
	int rc;

	k->ownterms = 1;
	if (emb_mul(ns, k->dp, &clen) < 0)
		return EMB_ELIMIT;
	if (k->dim <= KNN_CODEDIM && ns > 0) {
		if ((rc = emb_growmap(&p, &k->codelen, clen, 0)) < 0)
			return rc;
		k->codes = p;
	}
	if ((k->nrm = calloc(ns ? ns : 1, sizeof(double))) == NULL ||
	    (k->cs = calloc(ns ? ns : 1, sizeof(float))) == NULL ||
	    (k->ce = calloc(ns ? ns : 1, sizeof(float))) == NULL ||
	    (k->scratch = malloc(k->dp)) == NULL)
		return EMB_ENOMEM;
	for (size_t i = 0; i < k->n; i++) {
		knn_code(k->mat + i * k->ld, k->dim, k->dp, i, k->scratch,
		    k->codes, k->nrm, k->cs, k->ce);
		if (progress != NULL && (i + 1) % 65536 == 0)
			progress(arg, NULL, i + 1);
	}
	return 0;
}

/* madvise(2) the whole pages of len bytes at p; a hint only. */
static void
advise(const void *p, size_t len, int advice)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p / pg * pg;

	if (p != NULL && len > 0)
		(void)madvise((void *)a, (uintptr_t)p + len - a, advice);
}

int
emb_knn_store(struct emb_knn **kp, struct emb_store *s,
    emb_progress_fn *progress, void *arg, int *quantized)
{
	struct emb_knn *k;
	struct knn_sect ks;
	uint64_t n = emb_store_count(s);
	int rc;

	*kp = NULL;
	*quantized = 0;
	if ((rc = emb_knn_create(&k, emb_store_dim(s))) < 0) {
		emb_store_close(s);
		return rc;
	}
	k->store = s;
	if (n > MAXREF || (n > 0 && emb_store_vector(s, 0) == NULL)) {
		emb_knn_free(k);
		return n > MAXREF ? EMB_ELIMIT : EMB_EINVAL;
	}
	k->mat = n > 0 ? (float *)emb_store_vector(s, 0) : NULL;
	k->ld = emb_store_stride(s);
	k->n = k->cap = (size_t)n;
	k->rowfd = emb_store_file(s, &k->rowoff);
	k->rowcrc = emb_store_rowcrc(s);
	/*
	 * A search reads the rows of a few references only: no readahead
	 * and no mapping of the pages around them (MADV_RANDOM), so that
	 * memory is the pages it touches.
	 */
	advise(k->mat, k->n * k->ld * sizeof(float), MADV_RANDOM);
	if (emb_store_sect(s, &ks) == 0) {
		advise(ks.codes, (size_t)ks.rows * ks.dp, MADV_SEQUENTIAL);
		k->codes = (uint8_t *)ks.codes;
		k->nrm = (double *)ks.nrm;
		k->cs = (float *)ks.cs;
		k->ce = (float *)ks.ce;
		k->sectchk = 1;
		k->ccrc = ks.ccrc;
		k->tcrc = ks.tcrc;
		k->secrc = ks.secrc;
		k->hassecrc = ks.hassecrc;
	} else {
		*quantized = 1;
		if ((rc = storeterms(k, progress, arg)) < 0) {
			emb_knn_free(k);
			return rc;
		}
	}
	/* Keys: the store's words where none needs escaping, else copies. */
	k->rawkeys = 1;
	for (size_t i = 0; i < k->n && k->rawkeys; i++) {
		size_t len;
		const char *w = emb_store_word(s, i, &len);

		k->rawkeys = rawword(w, len);
	}
	/* Copies: all their offsets at once, their count is known. */
	if (!k->rawkeys && emb_grow_max(&k->koff, &k->koffcap, k->n + 1,
	    k->n + 1, sizeof(*k->koff)) < 0)
		goto nomem;
	for (size_t i = 0; !k->rawkeys && i < k->n; i++) {
		size_t len;
		const char *w = emb_store_word(s, i, &len);

		if (emb_grow(&k->keys, &k->keycap, k->keylen + 2 * len + 1,
		    1) < 0)
			goto nomem;
		k->keylen += emb_key_escape(k->keys + k->keylen, w, len);
		k->keys[k->keylen++] = '\0';
		k->koff[i + 1] = k->keylen;
	}
	*kp = k;
	return 0;
nomem:
	emb_knn_free(k);
	return EMB_ENOMEM;
}
