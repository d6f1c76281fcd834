/*
 * ref-base.h - what only the tests and fuzzers need of floor base: the plain
 * reference twins of its optimized functions and internals no other
 * module uses (ref.h holds every floor's, for the tests).  The files that
 * define them include it too.
 */
#ifndef EMB_REF_BASE_H
#define EMB_REF_BASE_H

#include <stddef.h>
#include <stdint.h>

#include "base/emb-base.h"

/*
 * The plain-loop twin of lapack.h's emb_dgemm_blis (lapack.c).
 */
void emb_dgemm_ref(int ta, int tb, size_t m, size_t n, size_t k,
    double alpha, const double *A, size_t lda, const double *B, size_t ldb,
    double beta, double *C, size_t ldc);

#endif /* EMB_REF_BASE_H */
