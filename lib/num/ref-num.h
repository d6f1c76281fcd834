/*
 * ref-num.h - what only the tests and fuzzers need of floor num: the plain
 * reference twins of its optimized functions and internals no other
 * module uses (ref.h holds every floor's, for the tests).  The files that
 * define them include it too.
 */
#ifndef EMB_REF_NUM_H
#define EMB_REF_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "num/emb-num.h"

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
 * emb_unit_to - emb_unit() (emb.h) from x into y (y may be x; x is left
 * as is; vec.c).
 */
int emb_unit_to(const float *x, float *y, uint32_t dim);

#endif /* EMB_REF_NUM_H */
