/*
 * knn.c - exact cosine nearest neighbours.
 *
 * A reference set holds unit-length copies of its vectors in one 64-byte
 * aligned row-major matrix, and their keys.  A search takes a batch of unit
 * query vectors and returns, for each, the k references of largest cosine
 * similarity (smallest cosine distance), best first.
 *
 * The similarities are computed tile by tile as single-precision GEMM
 * through BLIS (a tile of queries times a block of references), and each
 * tile is scanned at once, while it is in cache, against a small heap per
 * query.  Work is split into (query tile, reference block) items that
 * threads take in turn; every thread keeps its own heaps, and the heaps are
 * merged at the end.
 *
 * Results do not depend on the batch size, the tiling or the number of
 * threads:
 *  - every similarity is computed by the same arithmetic whatever the shape
 *    of the product it belongs to.  BLIS's conventional GEMM path
 *    accumulates each element of C in its own register lane, in the order of
 *    k, with a block size along k that depends only on the machine; its
 *    "small/unpacked" path (sup) chooses kernels by shape and may reduce in
 *    another order, so it is disabled for every call here;
 *  - neighbours are ordered by similarity, then by reference index (the
 *    earlier reference wins a tie), a total order, so that the merge of the
 *    per-thread heaps gives the same list whichever thread saw what.
 *
 * emb_knn_search_ref is the plain-loop twin (double accumulation, a full
 * sort) that the tests compare the fast path with.
 */
#include "emb.h"
#include "int.h"

#include <blis.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#ifndef QTILE
#define QTILE	384	/* queries per GEMM tile */
#endif
#ifndef RBLOCK
#define RBLOCK	2048	/* references per GEMM tile */
#endif
#define LDALIGN	16	/* row stride: a multiple of 16 floats, 64 bytes */
#define MAXREF	((size_t)UINT32_MAX - 1)

struct emb_knn {
	uint32_t	 dim;		/* components per vector */
	size_t		 ld;		/* row stride of mat, in floats */
	size_t		 n;		/* references held */
	size_t		 cap;		/* rows mapped */
	float		*mat;		/* n x ld unit rows (anonymous mmap) */
	size_t		 maplen;	/* bytes mapped at mat */
	char		*keys;		/* all keys, each NUL-terminated */
	size_t		 keylen;	/* bytes used in keys */
	size_t		 keycap;	/* bytes allocated */
	size_t		*koff;		/* n + 1 offsets into keys */
	size_t		 koffcap;	/* entries allocated in koff */
	int		 indexed;	/* a word index is built */
	unsigned	 wfield;	/* its key field, 0-based */
	struct emb_index idx;		/* word -> its first reference */
	uint32_t	*next;		/* reference -> next of same word + 1 */
};

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

int
emb_knn_reserve(struct emb_knn *k, size_t n)
{
	size_t len;
	void *p;

	if (n <= k->cap)
		return 0;
	if (n > MAXREF)
		return EMB_ELIMIT;
	if (emb_mul(n, k->ld * sizeof(float), &len) < 0)
		return EMB_ELIMIT;
	/*
	 * An anonymous mapping grows by mremap without a copy and without a
	 * transient second matrix; pages not yet written cost nothing.
	 */
	if (k->mat == NULL)
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	else
		p = mremap(k->mat, k->maplen, len, MREMAP_MAYMOVE);
	if (p == MAP_FAILED)
		return EMB_ENOMEM;
	k->mat = p;
	k->maplen = len;
	k->cap = n;
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
	memcpy(k->keys + k->keylen, key, keylen);
	k->keys[k->keylen + keylen] = '\0';
	k->keylen += keylen + 1;
	k->koff[k->n + 1] = k->keylen;
	memcpy(k->mat + k->n * k->ld, vec, k->dim * sizeof(float));
	emb_unit(k->mat + k->n * k->ld, k->dim);
	/* Keep the padding defined: BLIS never reads it, memcheck may. */
	memset(k->mat + k->n * k->ld + k->dim, 0,
	    (k->ld - k->dim) * sizeof(float));
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

/*
 * Selection.  A query's heap holds at most k hits with the worst at the
 * root; "worse" is the total order: lower similarity, or equal similarity
 * and a later reference.
 */
static inline int
worse(const struct emb_hit *a, const struct emb_hit *b)
{
	return a->sim < b->sim || (a->sim == b->sim && a->ref > b->ref);
}

static void
siftdown(struct emb_hit *h, unsigned n, unsigned i)
{
	struct emb_hit x = h[i];

	for (;;) {
		unsigned c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && worse(&h[c + 1], &h[c]))
			c++;
		if (!worse(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

static void
offer(struct emb_hit *h, unsigned *hn, unsigned k, float sim, uint32_t ref)
{
	struct emb_hit x = { sim, ref };
	unsigned i;

	if (*hn < k) {
		for (i = (*hn)++; i > 0; i = (i - 1) / 2) {
			if (!worse(&x, &h[(i - 1) / 2]))
				break;
			h[i] = h[(i - 1) / 2];
		}
		h[i] = x;
	} else if (worse(&h[0], &x)) {
		h[0] = x;
		siftdown(h, k, 0);
	}
}

static inline int
excluded(uint32_t ref, const uint32_t *x, size_t nx)
{
	for (size_t i = 0; i < nx; i++)
		if (x[i] == ref)
			return 1;
	return 0;
}

/*
 * Offer the nc similarities s (references base, base + 1, ...) to one
 * query's heap.  Nearly all of them fall below the heap's worst once it is
 * full, so they are compared 16 at a time first.
 */
static void
scan(const float *s, size_t nc, uint32_t base, struct emb_hit *h,
    unsigned *hn, unsigned k, const uint32_t *x, size_t nx)
{
	float thr = *hn < k ? -INFINITY : h[0].sim;
	size_t j = 0;

#ifdef __SSE2__
	__m128 t = _mm_set1_ps(thr);

	for (; j + 16 <= nc; j += 16) {
		__m128 m = _mm_or_ps(
		    _mm_or_ps(_mm_cmpge_ps(_mm_loadu_ps(s + j), t),
		    _mm_cmpge_ps(_mm_loadu_ps(s + j + 4), t)),
		    _mm_or_ps(_mm_cmpge_ps(_mm_loadu_ps(s + j + 8), t),
		    _mm_cmpge_ps(_mm_loadu_ps(s + j + 12), t)));

		if (_mm_movemask_ps(m) == 0)
			continue;
		for (size_t i = j; i < j + 16; i++) {
			if (s[i] < thr || excluded(base + (uint32_t)i, x, nx))
				continue;
			offer(h, hn, k, s[i], base + (uint32_t)i);
			if (*hn == k)
				thr = h[0].sim;
		}
		t = _mm_set1_ps(thr);
	}
#endif
	for (; j < nc; j++) {
		if (s[j] < thr || excluded(base + (uint32_t)j, x, nx))
			continue;
		offer(h, hn, k, s[j], base + (uint32_t)j);
		if (*hn == k)
			thr = h[0].sim;
	}
}

/* Order for the final lists: best first. */
static int
hitcmp(const void *a, const void *b)
{
	const struct emb_hit *x = a, *y = b;

	if (worse(x, y))
		return 1;
	if (worse(y, x))
		return -1;
	return 0;
}

/* What a search shares with its threads. */
struct job {
	const struct emb_knn *kn;
	const float	*q;		/* queries, nq x ldq */
	size_t		 nq, ldq;
	unsigned	 k;
	const size_t	*xoff;		/* exclusions, or NULL */
	const uint32_t	*xref;
	size_t		 nqt, nrb;	/* query tiles, reference blocks */
	atomic_size_t	 item;		/* next work item */
};

/* One worker's own state. */
struct worker {
	struct job	*job;
	float		*c;		/* QTILE x RBLOCK similarities */
	struct emb_hit	*h;		/* nq x k heaps */
	unsigned	*hn;		/* nq heap sizes */
	pthread_t	 tid;
	int		 started;
};

static void *
work(void *arg)
{
	struct worker *w = arg;
	struct job *jb = w->job;
	const struct emb_knn *kn = jb->kn;
	size_t items = jb->nqt * jb->nrb, it;
	float one = 1, zero = 0;
	rntm_t rntm = BLIS_RNTM_INITIALIZER;

	/* One BLIS thread per worker, and never the shape-dependent path. */
	bli_rntm_set_num_threads(1, &rntm);
	bli_rntm_disable_l3_sup(&rntm);
	while ((it = atomic_fetch_add(&jb->item, 1)) < items) {
		/* Consecutive items share a reference block, still in cache. */
		size_t r0 = it / jb->nqt * RBLOCK, q0 = it % jb->nqt * QTILE;
		size_t nr = kn->n - r0 < RBLOCK ? kn->n - r0 : RBLOCK;
		size_t mq = jb->nq - q0 < QTILE ? jb->nq - q0 : QTILE;

		bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_TRANSPOSE, (dim_t)mq,
		    (dim_t)nr, (dim_t)kn->dim, &one,
		    (float *)jb->q + q0 * jb->ldq, (inc_t)jb->ldq, 1,
		    kn->mat + r0 * kn->ld, (inc_t)kn->ld, 1, &zero,
		    w->c, (inc_t)nr, 1, NULL, &rntm);
		for (size_t i = 0; i < mq; i++) {
			size_t qi = q0 + i, nx = 0;
			const uint32_t *x = NULL;

			if (jb->xoff != NULL) {
				x = jb->xref + jb->xoff[qi];
				nx = jb->xoff[qi + 1] - jb->xoff[qi];
			}
			scan(w->c + i * nr, nr, (uint32_t)r0,
			    w->h + qi * jb->k, &w->hn[qi], jb->k, x, nx);
		}
	}
	return NULL;
}

int
emb_knn_search(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, const size_t *xoff, const uint32_t *xref,
    unsigned nthreads, struct emb_hit *hits)
{
	struct job jb;
	struct worker *w;
	struct emb_hit *all = NULL;
	size_t items, nall;
	unsigned nw;
	int rc = 0;

	if (k == 0 || ldq < kn->dim || nthreads == 0)
		return EMB_EINVAL;
	for (size_t i = 0; i < nq * k; i++) {
		hits[i].sim = -INFINITY;
		hits[i].ref = EMB_KNN_NONE;
	}
	if (nq == 0 || kn->n == 0)
		return 0;
	memset(&jb, 0, sizeof(jb));
	jb.kn = kn;
	jb.q = q;
	jb.nq = nq;
	jb.ldq = ldq;
	jb.k = k;
	jb.xoff = xoff;
	jb.xref = xref;
	jb.nqt = (nq + QTILE - 1) / QTILE;
	jb.nrb = (kn->n + RBLOCK - 1) / RBLOCK;
	atomic_init(&jb.item, 0);
	items = jb.nqt * jb.nrb;
	nw = nthreads < items ? nthreads : (unsigned)items;
	if (emb_mul(nq, k, &nall) < 0 || emb_mul(nall, nw, &nall) < 0)
		return EMB_ELIMIT;
	if ((w = calloc(nw, sizeof(*w))) == NULL)
		return EMB_ENOMEM;
	for (unsigned t = 0; t < nw; t++) {
		w[t].job = &jb;
		w[t].c = emb_alloc((size_t)QTILE * RBLOCK * sizeof(float));
		w[t].h = malloc(nq * k * sizeof(*w[t].h));
		w[t].hn = calloc(nq, sizeof(*w[t].hn));
		if (w[t].c == NULL || w[t].h == NULL || w[t].hn == NULL) {
			rc = EMB_ENOMEM;
			goto out;
		}
	}
	/*
	 * Worker 0 is this thread.  If a thread cannot be started, the others
	 * take its share: the result is the same.
	 */
	for (unsigned t = 1; t < nw; t++)
		if (pthread_create(&w[t].tid, NULL, work, &w[t]) == 0)
			w[t].started = 1;
	work(&w[0]);
	for (unsigned t = 1; t < nw; t++)
		if (w[t].started)
			pthread_join(w[t].tid, NULL);
	/* Merge: each query's candidates from every worker, best k first. */
	if ((all = malloc((size_t)nw * k * sizeof(*all))) == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nq; i++) {
		size_t n = 0;

		for (unsigned t = 0; t < nw; t++) {
			memcpy(all + n, w[t].h + i * k,
			    w[t].hn[i] * sizeof(*all));
			n += w[t].hn[i];
		}
		qsort(all, n, sizeof(*all), hitcmp);
		memcpy(hits + i * k, all, (n < k ? n : k) * sizeof(*all));
	}
out:
	for (unsigned t = 0; t < nw; t++) {
		emb_free(w[t].c);
		free(w[t].h);
		free(w[t].hn);
	}
	free(all);
	free(w);
	return rc;
}

int
emb_knn_search_ref(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, const size_t *xoff, const uint32_t *xref,
    struct emb_hit *hits)
{
	struct emb_hit *all;

	if (k == 0 || ldq < kn->dim)
		return EMB_EINVAL;
	for (size_t i = 0; i < nq * k; i++) {
		hits[i].sim = -INFINITY;
		hits[i].ref = EMB_KNN_NONE;
	}
	if ((all = malloc((kn->n ? kn->n : 1) * sizeof(*all))) == NULL)
		return EMB_ENOMEM;
	for (size_t i = 0; i < nq; i++) {
		size_t n = 0;

		for (size_t j = 0; j < kn->n; j++) {
			const float *r = kn->mat + j * kn->ld;
			double s = 0;

			if (xoff != NULL && excluded((uint32_t)j,
			    xref + xoff[i], xoff[i + 1] - xoff[i]))
				continue;
			for (uint32_t d = 0; d < kn->dim; d++)
				s += (double)q[i * ldq + d] * r[d];
			all[n].sim = (float)s;
			all[n++].ref = (uint32_t)j;
		}
		qsort(all, n, sizeof(*all), hitcmp);
		memcpy(hits + i * k, all, (n < k ? n : k) * sizeof(*all));
	}
	free(all);
	return 0;
}
