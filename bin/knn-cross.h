/*
 * knn-cross.h - emb-knn's neighbours across two whole spaces: CSLS and
 * mutual nearest neighbours (knn-cross.c).
 */
#ifndef KNN_CROSS_H
#define KNN_CROSS_H

#include "util.h"

/*
 * knnrows - a reference set of the n rows of X (dimension dim), keyed by
 * the keys of K (a struct flat of those rows) or by empty keys when K is
 * NULL; exit 1 naming name on failure.
 */
struct emb_knn	*knnrows(const float *X, size_t n, uint32_t dim,
		    const struct flat *K, const char *name);

/*
 * knncross - the queries of path (read whole, ungrouped) against the
 * reference set kn: with cslsk, the k neighbours of each by CSLS over
 * cslsk neighbours each way, "query TAB rank TAB reference TAB score";
 * otherwise (mutual) the pairs among each query's k nearest whose query
 * is also among the reference's k nearest queries, with their distance.
 * *nq: the queries searched, *secs: the seconds their searches took (for
 * -v).
 */
void	 knncross(const struct emb_knn *kn, const char *ref,
	    const char *path, unsigned k, unsigned cslsk, unsigned nthreads,
	    size_t *nq, double *secs);

/*
 * knndie - exit 1 for a search of kn (read from ref) that returned rc:
 * a damaged store named with what was found, else the error.
 */
void	 knndie(const struct emb_knn *kn, const char *ref, int rc);

#endif /* KNN_CROSS_H */
