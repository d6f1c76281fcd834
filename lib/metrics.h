/*
 * metrics.h - the metrics' helpers shared inside libemb (metrics.c),
 * with the paired comparisons (paired.c).
 */
#ifndef EMB_METRICS_H
#define EMB_METRICS_H

#include <stddef.h>

/*
 * emb_rank - average ranks (1-based, ties get the mean of the ranks they
 * span, as scipy.stats.rankdata) of the n values x into rank.
 * @return 0 or EMB_ENOMEM.
 */
int emb_rank(const double *x, size_t n, double *rank);

#endif /* EMB_METRICS_H */
