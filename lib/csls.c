/*
 * csls.c - cross-domain similarity local scaling (Conneau et al. 2018,
 * MUSE) over the exact search of knn-search.c.
 *
 * The mean cosine of a vector to its k nearest neighbours in the other
 * space, r(x), is taken from emb_knn_search, so it is exact; CSLS(x, y) =
 * 2 cos(x, y) - r_T(x) - r_S(y), and the neighbours of x by CSLS are
 * ranked on every reference's exact cosine, searched in batches of
 * queries.
 */
#include "emb.h"
#include "int.h"

#include <math.h>
#include <stdlib.h>

/* Queries searched against every reference at once: hits held at most. */
#define ALLHITS	((size_t)1 << 22)

int
emb_knn_meansim(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, unsigned nthreads, double *r)
{
	size_t nref = emb_knn_count(kn), b;
	struct emb_hit *h;
	int rc = 0;

	if (k == 0)
		return EMB_EINVAL;
	if (k > nref)
		k = (unsigned)nref;
	if (nq == 0)
		return 0;
	if (k == 0) {
		for (size_t i = 0; i < nq; i++)
			r[i] = 0;
		return 0;
	}
	b = ALLHITS / k;
	if (b == 0)
		b = 1;
	if (b > nq)
		b = nq;
	if ((h = malloc(b * k * sizeof(*h))) == NULL)
		return EMB_ENOMEM;
	for (size_t i0 = 0; i0 < nq && rc == 0; i0 += b) {
		size_t n = nq - i0 < b ? nq - i0 : b;

		rc = emb_knn_search(kn, q + i0 * ldq, n, ldq, k, NULL, NULL,
		    nthreads, h, NULL);
		for (size_t i = 0; i < n && rc == 0; i++) {
			double s = 0;

			for (unsigned j = 0; j < k; j++)
				s += 1 - h[i * k + j].dist;
			r[i0 + i] = s / k;
		}
	}
	free(h);
	return rc;
}

/* Hits by CSLS: larger first, then by reference (dist holds -CSLS). */
static int
bycsls(const void *a, const void *b)
{
	const struct emb_hit *x = a, *y = b;

	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	return x->ref < y->ref ? -1 : x->ref > y->ref;
}

int
emb_knn_csls(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, const double *rq, const double *rref,
    unsigned nthreads, struct emb_hit *hits)
{
	size_t nref = emb_knn_count(kn), b;
	struct emb_hit *h;
	int rc = 0;

	if (k == 0)
		return EMB_EINVAL;
	for (size_t i = 0; i < nq * k; i++) {
		hits[i].dist = INFINITY;
		hits[i].ref = EMB_KNN_NONE;
	}
	if (nq == 0 || nref == 0)
		return 0;
	b = ALLHITS / nref;
	if (b == 0)
		b = 1;
	if (b > nq)
		b = nq;
	if ((h = malloc(b * nref * sizeof(*h))) == NULL)
		return EMB_ENOMEM;
	for (size_t i0 = 0; i0 < nq && rc == 0; i0 += b) {
		size_t n = nq - i0 < b ? nq - i0 : b;

		rc = emb_knn_search(kn, q + i0 * ldq, n, ldq, (unsigned)nref,
		    NULL, NULL, nthreads, h, NULL);
		for (size_t i = 0; i < n && rc == 0; i++) {
			struct emb_hit *hi = h + i * nref;
			size_t m = 0;

			for (size_t j = 0; j < nref; j++) {
				if (hi[j].ref == EMB_KNN_NONE)
					continue;
				hi[m].ref = hi[j].ref;
				hi[m].dist = -(2 * (1 - hi[j].dist) -
				    rq[i0 + i] - rref[hi[j].ref]);
				m++;
			}
			qsort(hi, m, sizeof(*hi), bycsls);
			for (size_t j = 0; j < k && j < m; j++)
				hits[(i0 + i) * k + j] = hi[j];
		}
	}
	free(h);
	return rc;
}
