/*
 * emb-knn.h - the public declarations of libemb's floor knn, nearest neighbours: the exact search, CSLS, 3CosMul.
 * Programs include emb.h, which holds every floor; a file of the library
 * includes the header of its own floor, which holds the floors below.
 */
#ifndef EMB_FLOOR_KNN_H
#define EMB_FLOOR_KNN_H

#include "store/emb-store.h"

/* ---- nearest neighbours ---- */

/*
 * Exact cosine nearest neighbours.
 *
 * A reference set keeps its vectors as they were given, with their norms,
 * int8 codes of their directions and their keys.  A search returns for each
 * query the k references of smallest cosine distance, best first; the
 * distance is the true 1 - cos of the two float32 vectors rounded once to
 * double (1 when either is a zero vector), and equal distances are
 * ordered by reference index: the result depends on the data alone, not
 * on batch size, thread count, BLIS or the CPU's kernel.
 */
struct emb_knn;

/*
 * One neighbour: its cosine distance, 1 - cos rounded once to double and
 * kept within [0, 2], and its reference index.  Neighbours are ordered by
 * that distance, then by reference: two cosines that round to the same
 * distance tie.
 */
struct emb_hit {
	double		 dist;		/* cosine distance */
	uint32_t	 ref;		/* reference index, or EMB_KNN_NONE */
};
#define EMB_KNN_NONE	UINT32_MAX	/* no neighbour in this slot */

/*
 * The search's kernels, which decide how fast, never what: EMB_KNN_FLOAT
 * bounds every pair through float32 GEMM, the others from int8 codes
 * scored in portable C (EMB_KNN_REF), with AVX-VNNI (EMB_KNN_AVXVNNI) or
 * with AVX-512 VNNI (EMB_KNN_AVX512).
 */
enum { EMB_KNN_FLOAT, EMB_KNN_REF, EMB_KNN_AVXVNNI, EMB_KNN_AVX512 };

/* What a search did: pairs in all, bounded from int8 codes or float32
 * GEMM, rescored exactly; the kernel it chose (emb_knn_pathname). */
struct emb_knn_stats {
	uint64_t	 pairs, coded, flt, rescored;
	int		 path;
};

/*
 * emb_knn_create - an empty reference set of dimension dim.
 * @return 0 and *kp (free with emb_knn_free), EMB_EDIM or EMB_ENOMEM.
 */
int emb_knn_create(struct emb_knn **kp, uint32_t dim);

/*
 * emb_knn_store - the reference set of store s, which it takes over
 * (emb_knn_free closes it): every word, keyed by itself escaped as a key
 * field (emb_key_escape), in store order.  Vectors and the search's
 * terms are read where they lie in the map; a store without its search
 * section (built before it existed) has its terms computed now, *quantized
 * then set, with progress(arg, NULL, rows done) now and then.  References
 * cannot be added.  @return 0 and *kp, EMB_ENOMEM, EMB_ELIMIT or
 * EMB_EINVAL (not a mapped store file); s is closed on failure.
 */
int emb_knn_store(struct emb_knn **kp, struct emb_store *s,
    emb_progress_fn *progress, void *arg, int *quantized);

/* Free a reference set; NULL is a no-op. */
void emb_knn_free(struct emb_knn *k);

/*
 * emb_knn_reserve - make room for n references in all (a hint: adding
 * grows the set anyway).  @return 0, EMB_ELIMIT or EMB_ENOMEM.
 */
int emb_knn_reserve(struct emb_knn *k, size_t n);

/*
 * emb_knn_add - append a reference: the key (copied) and the vector
 * (copied as it is, finite).  @return 0, EMB_ELIMIT (more than 2^32 - 2
 * references) or EMB_ENOMEM.
 */
int emb_knn_add(struct emb_knn *k, const char *key, size_t keylen,
    const float *vec);

/* Number of references, and their dimension. */
size_t emb_knn_count(const struct emb_knn *k);
uint32_t emb_knn_dim(const struct emb_knn *k);

/* Key of reference i (NUL-terminated, owned by the set) and its length. */
const char *emb_knn_key(const struct emb_knn *k, size_t i, size_t *len);

/* Vector of reference i as added (dim floats, owned by the set). */
const float *emb_knn_vec(const struct emb_knn *k, size_t i);

/*
 * emb_knn_check - check reference i's vector against its store's
 * checksum of it (emb-store(5)); a set that is no store has none.
 * @return 0, or EMB_ESTORE (emb_knn_msg says which row).
 */
int emb_knn_check(const struct emb_knn *k, size_t i);

/*
 * emb_knn_msg - after a search or check of a store's set returned
 * EMB_ESTORE: the damage it found, "search section checksum mismatch
 * ..." and the like; else "".
 */
const char *emb_knn_msg(const struct emb_knn *k);

/*
 * emb_knn_index - index the references by key field (0-based) for
 * emb_knn_find; references without that field are left out.  Adding a
 * reference drops the index.  @return 0 or EMB_ENOMEM.
 */
int emb_knn_index(struct emb_knn *k, unsigned field);

/*
 * emb_knn_find - the first reference whose indexed field equals word (len
 * bytes, escaped as in keys); emb_knn_find_next - the next one after
 * reference i with the same field.  @return an index, or -1.
 */
int64_t emb_knn_find(const struct emb_knn *k, const char *word, size_t len);
int64_t emb_knn_find_next(const struct emb_knn *k, size_t i);

/*
 * emb_knn_search - the k nearest references of each of nq queries (row i
 * at q + i * ldq, ldq >= dim, any length, finite) into hits[i * k ...],
 * best first; slots beyond the references available hold { INFINITY,
 * EMB_KNN_NONE }.  Optional exclusions: references xref[xoff[i] ..
 * xoff[i + 1]) are never neighbours of query i (xoff NULL: none).  Uses
 * up to nthreads threads; the result does not depend on it.  st (or
 * NULL) receives what the search did.
 * @return 0, EMB_EINVAL or EMB_ENOMEM.
 */
int emb_knn_search(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, const size_t *xoff, const uint32_t *xref,
    unsigned nthreads, struct emb_hit *hits, struct emb_knn_stats *st);

/* The name of a search's kernel (struct emb_knn_stats' path). */
const char *emb_knn_pathname(int path);

/*
 * emb_knn_distance - the distance of a and b (dim floats each) as every
 * search gives it: the true 1 - cos of the vectors as given, rounded once
 * to double; 1 when either is zero.
 */
double emb_knn_distance(const float *a, const float *b, uint32_t dim);

/*
 * emb_knn_path_set - the kernel of the searches from now on: path
 * (EMB_KNN_*), or -1 for the processor's best (AVX-512 VNNI, else
 * AVX-VNNI, else float32 GEMM; the portable kernel only when asked).  A
 * kernel the processor lacks means EMB_KNN_FLOAT.  For tests and
 * comparisons: the answers do not depend on it.  Not to be called while
 * a search runs.  @return 0 or EMB_EINVAL (no such kernel).
 */
int emb_knn_path_set(int path);

/*
 * emb_knn_path_byname - the kernel named "float", "ref", "avxvnni" or
 * "avx512" ("c" and "avx2" are older names of "ref" and "avxvnni"), as
 * EMB_KNN_PATH names it (emb-knn(1)).  @return EMB_KNN_*, or -1.
 */
int emb_knn_path_byname(const char *name);

/*
 * emb_knn_meansim - r[i], the mean cosine (1 - distance) of query i to
 * its k nearest references by emb_knn_search (all of them when fewer):
 * CSLS's r_T(x) and r_S(y).  @return 0, EMB_EINVAL (k = 0), EMB_ENOMEM.
 */
int emb_knn_meansim(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, unsigned nthreads, double *r);

/*
 * emb_knn_csls - the k references of largest CSLS(x, y) = 2 cos(x, y) -
 * rq[i] - rref[y] for each query x (row i), best first, ties by reference
 * index, the cosines those of emb_knn_search; hit.dist holds -CSLS.
 * Slots beyond the references hold { INFINITY, EMB_KNN_NONE }.
 * @return 0, EMB_EINVAL or EMB_ENOMEM.
 */
int emb_knn_csls(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, const double *rq, const double *rref,
    unsigned nthreads, struct emb_hit *hits);

/*
 * emb_knn_cosmul - 3CosMul analogies ("a is to b as c is to ?"): for each
 * query i (rows i of a, b and c, stride ldq) the k references y of
 * largest (1 + cos(y, b)) (1 + cos(y, c)) / 4 / ((1 + cos(y, a)) / 2 +
 * 1e-6), gensim's most_similar_cosmul(positive=[b, c], negative=[a]),
 * the cosines those of the vectors as given, exact (1 - the distance
 * emb_knn_search gives), the score in double, ties by reference index;
 * references xref[xoff[i] .. xoff[i + 1]) left out (xoff NULL: none).
 * hit.dist holds -score.  @return 0, EMB_EINVAL or EMB_ENOMEM.
 */
int emb_knn_cosmul(const struct emb_knn *kn, const float *a, const float *b,
    const float *c, size_t nq, size_t ldq, unsigned k, const size_t *xoff,
    const uint32_t *xref, unsigned nthreads, struct emb_hit *hits);

/* ---- end of nearest neighbours ---- */

#endif /* EMB_FLOOR_KNN_H */
