/*
 * ref-knn.h - what only the tests and fuzzers need of floor knn: the plain
 * reference twins of its optimized functions and internals no other
 * module uses (ref.h holds every floor's, for the tests).  The files that
 * define them include it too.
 */
#ifndef EMB_REF_KNN_H
#define EMB_REF_KNN_H

#include <stddef.h>
#include <stdint.h>

#include "knn/emb-knn.h"

/*
 * The plain-loop twin of emb_knn_search (long double sums, a full sort,
 * the exact distance of those near the k-th), for tests (knn-search.c).
 */
int emb_knn_search_ref(const struct emb_knn *kn, const float *q,
    size_t nq, size_t ldq, unsigned k, const size_t *xoff, const uint32_t *xref,
    struct emb_hit *hits);

#endif /* EMB_REF_KNN_H */
