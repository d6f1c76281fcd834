/*
 * rng.h - draws of the seeded generator (hash.c; emb_rng in emb.h) that
 * the library's own shuffles and initializations use.
 */
#ifndef EMB_RNG_H
#define EMB_RNG_H

#include <stddef.h>

#include "base/emb-base.h"

/* @return a uniform double in [0, 1): the top 53 bits of a draw / 2^53. */
double emb_rng_unif(struct emb_rng *g);

/*
 * emb_rng_perm - shuffle idx[0..n-1] in place (Fisher-Yates from the end:
 * for i = n - 1 down to 1, swap idx[i] and idx[draw mod (i + 1)]).
 */
void emb_rng_perm(struct emb_rng *g, size_t *idx, size_t n);

#endif /* EMB_RNG_H */
