/*
 * clf-knn.c - the k-nearest-neighbour classifier: the training rows form
 * a reference set of lib/knn.c, each block of queries is searched there
 * (emb_knn_search: the exact cosine, equal similarities ordered by
 * reference, so the earlier training row wins), and the k neighbours
 * vote, uniformly, a tie going to the smallest class.
 */
#include "eval/emb-eval.h"
#include "eval/clf.h"

#include <stdlib.h>
#include <string.h>

/* Queries per search: a block of at most 16 MiB of rows. */
#define QFLOATS	((size_t)4 << 20)
#define QMIN	384

int
emb_clf_fit_knn(struct emb_clf *c, const float *X, size_t n, const int *y)
{
	int rc;

	if (c->d > EMB_DIM_MAX)
		return EMB_ELIMIT;
	if ((rc = emb_knn_create(&c->kn, (uint32_t)c->d)) < 0 ||
	    (rc = emb_knn_reserve(c->kn, n)) < 0)
		return rc;
	if ((c->yref = malloc(n * sizeof(int))) == NULL)
		return EMB_ENOMEM;
	/* No keys: a reference is its training row. */
	for (size_t i = 0; i < n; i++)
		if ((rc = emb_knn_add(c->kn, "", 0, X + i * c->d)) < 0)
			return rc;
	memcpy(c->yref, y, n * sizeof(int));
	return 0;
}

int
emb_clf_predict_knn(const struct emb_clf *c, const float *X, size_t n,
    int *pred)
{
	size_t d = c->d, nr = emb_knn_count(c->kn), qb;
	unsigned k = (size_t)c->o.k < nr ? (unsigned)c->o.k : (unsigned)nr;
	int K = c->ncls, nt, rc = EMB_ENOMEM, *votes;
	struct emb_hit *hits;

	qb = QFLOATS / d < QMIN ? QMIN : QFLOATS / d;
	if (qb > n)
		qb = n;
	nt = emb_clf_threads(&c->o, (double)n * nr * d);
	hits = malloc(qb * k * sizeof(*hits));
	votes = malloc((size_t)K * sizeof(*votes));
	if (hits == NULL || votes == NULL)
		goto out;
	for (size_t q0 = 0; q0 < n; q0 += qb) {
		size_t r = n - q0 < qb ? n - q0 : qb;

		if ((rc = emb_knn_search(c->kn, X + q0 * d, r, d, k, NULL,
		    NULL, (unsigned)nt, hits, NULL)) < 0)
			goto out;
		for (size_t i = 0; i < r; i++) {
			const struct emb_hit *h = hits + i * k;
			int best = 0;

			memset(votes, 0, (size_t)K * sizeof(*votes));
			for (unsigned t = 0; t < k && h[t].ref != EMB_KNN_NONE;
			    t++)
				votes[c->yref[h[t].ref]]++;
			for (int t = 1; t < K; t++)
				if (votes[t] > votes[best])
					best = t;
			pred[q0 + i] = best;
		}
	}
	rc = 0;
out:
	free(hits);
	free(votes);
	return rc;
}
