/*
 * ref-eval.h - what only the tests and fuzzers need of floor eval: the plain
 * reference twins of its optimized functions and internals no other
 * module uses (ref.h holds every floor's, for the tests).  The files that
 * define them include it too.
 */
#ifndef EMB_REF_EVAL_H
#define EMB_REF_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "eval/emb-eval.h"

/*
 * The plain-loop twins of lapack.h's emb_dchol_blis (clf-solve.c, which
 * also takes its small blocks with emb_dchol_ref) and emb_adam (clf-mlp.c,
 * which also takes its tail with emb_adam_ref).
 */
struct emb_adam;
int emb_dchol_ref(size_t n, double *A, size_t lda);
void emb_adam_ref(float *P, const float *G, float *M, float *V, size_t n,
    const struct emb_adam *a);

/*
 * emb_rank - average ranks (1-based, ties get the mean of the ranks they
 * span, as scipy.stats.rankdata) of the n values x into rank.
 * @return 0 or EMB_ENOMEM (metrics.c).
 */
int emb_rank(const double *x, size_t n, double *rank);

#endif /* EMB_REF_EVAL_H */
