/*
 * ref.h - the declarations only the tests and fuzzers need: the plain
 * reference twins of optimized functions, against which the tests check
 * them (a module may call its own twin too), and internals of a module
 * that no other module uses.  The library files that define them
 * include it too.
 */
#ifndef EMB_REF_H
#define EMB_REF_H

#include <stddef.h>
#include <stdint.h>

#include "emb.h"

/* Plain reference twin of emb_pool (no scratch; used by the tests; pool.c). */
long emb_pool_ref(int how, const float *v, size_t n, uint32_t dim,
    const double *wt, float *out);

/*
 * emb_ose_ref - the plain-loop twin of emb_ose in double: modified
 * Gram-Schmidt with column pivoting and reorthogonalization instead of
 * Householder QR, same tolerances and outcomes.  x has dim doubles
 * (ose.c).
 */
int emb_ose_ref(const float *v, size_t n, uint32_t dim, double *x,
    struct emb_ose_info *info);

/*
 * The plain-loop twin of emb_knn_search (long double sums, a full sort,
 * the exact distance of those near the k-th), for tests (knn-search.c).
 */
int emb_knn_search_ref(const struct emb_knn *kn, const float *q,
    size_t nq, size_t ldq, unsigned k, const size_t *xoff, const uint32_t *xref,
    struct emb_hit *hits);

/*
 * The plain-loop twins of lapack.h's emb_dgemm_blis (lapack.c), emb_dchol_blis
 * (clf-solve.c, which also takes its small blocks with emb_dchol_ref) and
 * emb_adam (clf-mlp.c, which also takes its tail with emb_adam_ref).
 */
struct emb_adam;
void emb_dgemm_ref(int ta, int tb, size_t m, size_t n, size_t k,
    double alpha, const double *A, size_t lda, const double *B, size_t ldb,
    double beta, double *C, size_t ldc);
int emb_dchol_ref(size_t n, double *A, size_t lda);
void emb_adam_ref(float *P, const float *G, float *M, float *V, size_t n,
    const struct emb_adam *a);

/*
 * emb_rank - average ranks (1-based, ties get the mean of the ranks they
 * span, as scipy.stats.rankdata) of the n values x into rank.
 * @return 0 or EMB_ENOMEM (metrics.c).
 */
int emb_rank(const double *x, size_t n, double *rank);

/* emb_writer_count - records w wrote so far (VEC and GROUP; stream.c). */
uint64_t emb_writer_count(const struct emb_writer *w);

/*
 * emb_unit_to - emb_unit() (emb.h) from x into y (y may be x; x is left
 * as is; vec.c).
 */
int emb_unit_to(const float *x, float *y, uint32_t dim);

/*
 * emb_text_f32 - a number under the text view's rule (emb_text_parse):
 * the longest prefix strtof() takes of the run of number characters
 * "0123456789+-.eEnaifNAIFtyTY" at s, a run of at most 63 bytes; the
 * caller looks at what follows.  So "0x10" there is 0 and then junk, and
 * "1e39x" is out of range.  Stores the value and the bytes used.
 * @return 0, EMB_ESYNTAX when no number starts at s (or its run is
 * longer), EMB_ERANGE when it overflows float32 (text.c).
 */
int emb_text_f32(const char *s, size_t len, float *f, size_t *used);

#endif /* EMB_REF_H */
