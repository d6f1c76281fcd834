/*
 * clf-knn.c - the k-nearest-neighbour classifier: cosine neighbours, a
 * uniform vote, a tie going to the smallest class.
 */
#include "emb.h"
#include "int.h"
#include "clf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * k nearest neighbours by cosine similarity: unit copies of the
 * references, blocked sgemm against unit queries, a running top-k per
 * query (ties to the earlier reference), then a vote.
 */
static void
unitrows(float *dst, const float *src, size_t n, size_t d)
{
	for (size_t i = 0; i < n; i++) {
		double s = 0;

		for (size_t j = 0; j < d; j++)
			s += (double)src[i * d + j] * src[i * d + j];
		s = s > 0 ? 1 / sqrt(s) : 0;	/* a zero row stays zero */
		for (size_t j = 0; j < d; j++)
			dst[i * d + j] = (float)(src[i * d + j] * s);
	}
}

/* Single-precision C = A B' for the cosine scores of kNN. */
static void
sgemm_nt(size_t m, size_t n, size_t k, const float *A, const float *B,
    float *C)
{
	float one_ = 1, zero = 0;
	rntm_t rt;

	bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_TRANSPOSE, (dim_t)m, (dim_t)n,
	    (dim_t)k, &one_, (float *)A, (inc_t)k, 1, (float *)B, (inc_t)k, 1,
	    &zero, C, (inc_t)n, 1, NULL, emb_blis1(&rt));
}

int
emb_clf_fit_knn(struct emb_clf *c, const float *X, size_t n, const int *y)
{
	size_t sz;

	if (emb_mul(n, c->d * sizeof(float), &sz) < 0)
		return EMB_ELIMIT;
	c->ref = emb_alloc(sz);
	c->yref = malloc(n * sizeof(int));
	if (c->ref == NULL || c->yref == NULL)
		return EMB_ENOMEM;
	unitrows(c->ref, X, n, c->d);
	memcpy(c->yref, y, n * sizeof(int));
	c->nref = n;
	return 0;
}

/* Rows per sgemm block: the score block stays near 32 MiB. */
static size_t
knnblock(size_t nref)
{
	size_t q = ((size_t)8 << 20) / (nref ? nref : 1);

	return q < 16 ? 16 : q > 1024 ? 1024 : q;
}

/* kNN predictions, a block of queries per lane. */
struct knnjob {
	const struct emb_clf *c;
	const float	*X;
	int		*pred;
	int		 k;		/* neighbours, at most nref */
	struct knnw {
		float	*Q;		/* unit queries */
		float	*S;		/* their similarities, rows x nref */
		float	*bs;		/* the best k similarities */
		size_t	*bi;		/* and their references */
		int	*votes;		/* per class */
	}		 w[MAXTHR];
};

static void
knnlane(void *arg, int wi, size_t lane, size_t q0, size_t q1)
{
	struct knnjob *jb = arg;
	struct knnw *w = &jb->w[wi];
	const struct emb_clf *c = jb->c;
	size_t d = c->d, nr = c->nref, r = q1 - q0;
	int k = jb->k, K = c->ncls;
	float *bs = w->bs;
	size_t *bi = w->bi;

	(void)lane;
	unitrows(w->Q, jb->X + q0 * d, r, d);
	sgemm_nt(r, nr, d, w->Q, c->ref, w->S);
	for (size_t i = 0; i < r; i++) {
		const float *s = w->S + i * nr;
		int have = 0, best = 0;

		/* Sorted insertion; strict > keeps earlier refs. */
		for (size_t j = 0; j < nr; j++) {
			int p;

			if (have == k && !(s[j] > bs[k - 1]))
				continue;
			p = have < k ? have++ : k - 1;
			while (p > 0 && s[j] > bs[p - 1]) {
				bs[p] = bs[p - 1];
				bi[p] = bi[p - 1];
				p--;
			}
			bs[p] = s[j];
			bi[p] = j;
		}
		memset(w->votes, 0, (size_t)K * sizeof(int));
		for (int t = 0; t < have; t++)
			w->votes[c->yref[bi[t]]]++;
		for (int t = 1; t < K; t++)
			if (w->votes[t] > w->votes[best])
				best = t;
		jb->pred[q0 + i] = best;
	}
}

int
emb_clf_predict_knn(const struct emb_clf *c, const float *X, size_t n, int *pred)
{
	size_t d = c->d, nr = c->nref, qb = knnblock(nr), nl, rows;
	struct knnjob *jb;
	int nt, nw, rc = 0;

	if ((jb = calloc(1, sizeof(*jb))) == NULL)
		return EMB_ENOMEM;
	jb->c = c;
	jb->X = X;
	jb->pred = pred;
	jb->k = c->o.k < (int)nr ? c->o.k : (int)nr;
	nl = (n + qb - 1) / qb;
	rows = n < qb ? n : qb;
	nt = emb_clf_threads(&c->o, (double)n * nr * d);
	nw = emb_par_workers(nt, nl);
	for (int t = 0; t < nw; t++) {
		struct knnw *w = &jb->w[t];

		w->Q = emb_alloc(rows * d * sizeof(float));
		w->S = emb_alloc(rows * (nr ? nr : 1) * sizeof(float));
		w->bs = malloc((size_t)(jb->k ? jb->k : 1) * sizeof(float));
		w->bi = malloc((size_t)(jb->k ? jb->k : 1) * sizeof(size_t));
		w->votes = malloc((size_t)c->ncls * sizeof(int));
		if (!w->Q || !w->S || !w->bs || !w->bi || !w->votes)
			rc = EMB_ENOMEM;
	}
	if (rc == 0)
		emb_par_run(nt, n, nl, knnlane, jb);
	for (int t = 0; t < nw; t++) {
		emb_free(jb->w[t].Q);
		emb_free(jb->w[t].S);
		free(jb->w[t].bs);
		free(jb->w[t].bi);
		free(jb->w[t].votes);
	}
	free(jb);
	return rc;
}
