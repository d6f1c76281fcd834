/*
 * csls.c - neighbours by scores other than the cosine, over the exact
 * search of knn-search.c: cross-domain similarity local scaling
 * (Conneau et al. 2018, MUSE) and 3CosMul analogies (Levy and Goldberg
 * 2014, as gensim's most_similar_cosmul computes them).
 *
 * The mean cosine of a vector to its k nearest neighbours in the other
 * space, r(x), is taken from emb_knn_search, so it is exact; CSLS(x, y) =
 * 2 cos(x, y) - r_T(x) - r_S(y), and the neighbours of x by CSLS are
 * ranked on every reference's exact cosine, searched in batches of
 * queries.
 */
#include "emb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Queries searched against every reference at once: hits held at most. */
#define ALLHITS	((size_t)1 << 22)

/* Queries per search when each holds per hits: 1 .. nq. */
static size_t
perbatch(size_t per, size_t nq)
{
	size_t b = ALLHITS / per;

	return b == 0 ? 1 : b > nq ? nq : b;
}

/*
 * Every slot of nq x k hits empty ({ INFINITY, EMB_KNN_NONE }).  @return
 * EMB_EINVAL for k = 0, 1 when there is nothing to search, else 0.
 */
static int
nohits(struct emb_hit *hits, size_t nq, unsigned k, size_t nref)
{
	if (k == 0)
		return EMB_EINVAL;
	for (size_t i = 0; i < nq * k; i++) {
		hits[i].dist = INFINITY;
		hits[i].ref = EMB_KNN_NONE;
	}
	return nq == 0 || nref == 0;
}

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
	b = perbatch(k, nq);
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

/* Hits by score: larger first, then by reference (dist holds -score). */
static int
byscore(const void *a, const void *b)
{
	const struct emb_hit *x = a, *y = b;

	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	return x->ref < y->ref ? -1 : x->ref > y->ref;
}

/*
 * CSLS ranks by 2 cos(x, y) - r_Q(y) for a query x; a reference outside
 * x's m nearest by cosine has a cosine of at most the m-th one's, so a
 * score of at most 2 cos_m - min r_Q: when the k-th best score among the
 * m nearest is above that bound, nothing outside them can reach it, and
 * the k best are exact.  Otherwise m doubles, up to every reference.
 */
static int
cslsone(const struct emb_hit *hi, size_t m, size_t nref, unsigned k,
    double rq, const double *rref, double rmin, struct emb_hit *cand,
    struct emb_hit *out)
{
	size_t n = 0;
	double bound;

	for (size_t j = 0; j < m; j++) {
		if (hi[j].ref == EMB_KNN_NONE)
			continue;
		cand[n].ref = hi[j].ref;
		cand[n].dist = -(2 * (1 - hi[j].dist) - rq - rref[hi[j].ref]);
		n++;
	}
	qsort(cand, n, sizeof(*cand), byscore);
	/* All of them seen, or the k-th strictly above what others reach. */
	if (n < m || m >= nref)
		goto done;
	bound = 2 * (1 - hi[m - 1].dist) - rq - rmin;
	if (n < k || !(-cand[k - 1].dist > bound))
		return 0;
done:
	for (size_t j = 0; j < k && j < n; j++)
		out[j] = cand[j];
	return 1;
}

int
emb_knn_csls(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, const double *rq, const double *rref,
    unsigned nthreads, struct emb_hit *hits)
{
	size_t nref = emb_knn_count(kn), m, nleft, *left = NULL;
	struct emb_hit *h = NULL, *cand = NULL;
	float *sub = NULL;
	double rmin = INFINITY;
	int rc = 0;

	if ((rc = nohits(hits, nq, k, nref)) != 0)
		return rc < 0 ? rc : 0;
	for (size_t j = 0; j < nref; j++)
		if (rref[j] < rmin)
			rmin = rref[j];
	left = malloc(nq * sizeof(*left));
	sub = malloc(nq * emb_knn_dim(kn) * sizeof(*sub));
	if (left == NULL || sub == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nq; i++)
		left[i] = i;
	nleft = nq;
	for (m = (size_t)4 * k < nref ? (size_t)4 * k : nref; nleft > 0 &&
	    rc == 0; m = 2 * m < nref ? 2 * m : nref) {
		size_t b = perbatch(m, nleft), kept = 0;
		uint32_t dim = emb_knn_dim(kn);

		free(h);
		free(cand);
		h = malloc(b * m * sizeof(*h));
		cand = malloc(m * sizeof(*cand));
		if (h == NULL || cand == NULL) {
			rc = EMB_ENOMEM;
			break;
		}
		for (size_t i0 = 0; i0 < nleft && rc == 0; i0 += b) {
			size_t n = nleft - i0 < b ? nleft - i0 : b;

			for (size_t i = 0; i < n; i++)
				memcpy(sub + i * dim, q + left[i0 + i] * ldq,
				    dim * sizeof(*sub));
			rc = emb_knn_search(kn, sub, n, dim, (unsigned)m, NULL,
			    NULL, nthreads, h, NULL);
			for (size_t i = 0; i < n && rc == 0; i++) {
				size_t qi = left[i0 + i];

				if (!cslsone(h + i * m, m, nref, k, rq[qi],
				    rref, rmin, cand, hits + qi * k))
					left[kept++] = qi;
			}
		}
		nleft = kept;
	}
out:
	free(left);
	free(sub);
	free(h);
	free(cand);
	return rc;
}

int
emb_knn_cosmul(const struct emb_knn *kn, const float *a, const float *b,
    const float *c, size_t nq, size_t ldq, unsigned k, const size_t *xoff,
    const uint32_t *xref, unsigned nthreads, struct emb_hit *hits)
{
	size_t nref = emb_knn_count(kn), bq;
	const float *v[3] = { a, b, c };
	struct emb_hit *h[3] = { NULL, NULL, NULL }, *cand = NULL;
	double *cs = NULL;
	unsigned char *out = NULL;
	int rc = 0;

	if ((rc = nohits(hits, nq, k, nref)) != 0)
		return rc < 0 ? rc : 0;
	bq = perbatch(nref, nq);
	for (int t = 0; t < 3; t++)
		if ((h[t] = malloc(bq * nref * sizeof(**h))) == NULL)
			rc = EMB_ENOMEM;
	cs = malloc(3 * nref * sizeof(*cs));
	cand = malloc(nref * sizeof(*cand));
	out = malloc(nref);
	if (cs == NULL || cand == NULL || out == NULL)
		rc = EMB_ENOMEM;
	for (size_t i0 = 0; i0 < nq && rc == 0; i0 += bq) {
		size_t n = nq - i0 < bq ? nq - i0 : bq;

		for (int t = 0; t < 3 && rc == 0; t++)
			rc = emb_knn_search(kn, v[t] + i0 * ldq, n, ldq,
			    (unsigned)nref, NULL, NULL, nthreads, h[t], NULL);
		for (size_t i = 0; i < n && rc == 0; i++) {
			size_t q = i0 + i, m = 0;

			/* Every reference's cosine to a, b and c. */
			for (int t = 0; t < 3; t++)
				for (size_t j = 0; j < nref; j++) {
					const struct emb_hit *x =
					    &h[t][i * nref + j];

					if (x->ref != EMB_KNN_NONE)
						cs[t * nref + x->ref] =
						    1 - x->dist;
				}
			memset(out, 0, nref);
			if (xoff != NULL)
				for (size_t x = xoff[q]; x < xoff[q + 1]; x++)
					out[xref[x]] = 1;
			for (size_t r = 0; r < nref; r++) {
				double pa = (1 + cs[r]) / 2;
				double pb = (1 + cs[nref + r]) / 2;
				double pc = (1 + cs[2 * nref + r]) / 2;

				if (out[r])
					continue;
				cand[m].ref = (uint32_t)r;
				cand[m].dist = -(pb * pc / (pa + 1e-6));
				m++;
			}
			qsort(cand, m, sizeof(*cand), byscore);
			for (size_t j = 0; j < k && j < m; j++)
				hits[q * k + j] = cand[j];
		}
	}
	for (int t = 0; t < 3; t++)
		free(h[t]);
	free(cs);
	free(cand);
	free(out);
	return rc;
}
