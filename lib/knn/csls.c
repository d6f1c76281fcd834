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
#include "knn/emb-knn.h"
#include "knn/knn.h"

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

/*
 * 3CosMul.  Every reference's three cosines come first from knn_dot in
 * double: a product of two float32 is exact in double, each of knn_dot's
 * eight lanes adds at most m = ceil(dim / 8) of them and three additions
 * join the lanes, so the sum is off by at most gamma(m + 3) sum |v_i w_i|
 * <= gamma(m + 3) |v| |w| (gamma(n) = n u / (1 - n u), u = 2^-53); the
 * norms the same way, and the root and the quotient a rounding each:
 * the cosine is within COSTOL of the true one.  A score from cosines so
 * bounded is bounded in turn (it grows with cos(y, b) and cos(y, c) and
 * falls with cos(y, a), all of (1 + cos) / 2 >= 0), its own roundings
 * covered by a relative 2^-48.  The references whose upper bound reaches
 * the k-th largest lower bound are then scored from the exact cosines
 * (knn_exact, as emb_knn_search gives them), and only they: nothing
 * left out can score as high as k of them.
 */
#define COSTOL(dim)	((double)((dim) / 8 + 16) * 0x1p-51)
#define SCORESLACK	0x1p-48

/* The score of gensim's most_similar_cosmul from three cosines. */
static double
cosmulscore(double ca, double cb, double cc)
{
	return (1 + cb) / 2 * ((1 + cc) / 2) / ((1 + ca) / 2 + 1e-6);
}

/* A cosine's interval [c - t, c + t] within [-1, 1]. */
static void
cosiv(double c, double t, double *lo, double *hi)
{
	*lo = c - t < -1 ? -1 : c - t;
	*hi = c + t > 1 ? 1 : c + t;
}

/* The bounds of one reference's score for one query. */
struct cmbound {
	double	lo, hi;
};

/* A batch of 3CosMul queries and what the lanes of references share. */
struct cmjob {
	const struct emb_knn	*kn;
	const float		*v[3];		/* a, b, c of the batch */
	size_t			 n, ldq;	/* queries, their stride */
	const double		*qn;		/* n x 3 |v|^2 */
	struct cmbound		*bd;		/* n x nref */
	double			 tol;
	uint64_t		*bad;		/* a lane's first row failing
						 * its checksum, + 1, or 0 */
};

/* Lane: references r0 .. r1 bounded against every query of the batch. */
static void
cmlane(void *arg, int worker, size_t lane, size_t r0, size_t r1)
{
	const struct cmjob *jb = arg;
	uint32_t dim = emb_knn_dim(jb->kn);
	size_t nref = emb_knn_count(jb->kn);

	(void)worker;
	for (size_t r = r0; r < r1; r++) {
		const float *y = emb_knn_vec(jb->kn, r);
		double yn = knn_dot(y, y, dim);

		if (jb->bad[lane] == 0 && !knn_rowok(jb->kn, (uint32_t)r, y))
			jb->bad[lane] = r + 1;

		for (size_t i = 0; i < jb->n; i++) {
			double lo[3], hi[3];

			for (int t = 0; t < 3; t++) {
				const float *x = jb->v[t] + i * jb->ldq;
				double xn = jb->qn[i * 3 + t];

				/* A zero vector: distance 1, cosine 0. */
				if (xn == 0 || yn == 0)
					lo[t] = hi[t] = 0;
				else
					cosiv(knn_dot(x, y, dim) / sqrt(xn * yn),
					    jb->tol, &lo[t], &hi[t]);
			}
			jb->bd[i * nref + r].lo = cosmulscore(hi[0], lo[1],
			    lo[2]) * (1 - SCORESLACK);
			jb->bd[i * nref + r].hi = cosmulscore(lo[0], hi[1],
			    hi[2]) * (1 + SCORESLACK);
		}
	}
}

/* Doubles by value, larger first. */
static int
bydesc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x > y ? -1 : x < y;
}

/*
 * Query q of the batch, its bounds bd: the k best by the exact score
 * into out; out[] marks the references left out, lo and cand nref
 * scratch each.
 */
static void
cmone(const struct emb_knn *kn, const float *v[3], const struct cmbound *bd,
    const unsigned char *out, unsigned k, double *lo, struct emb_hit *cand,
    struct emb_hit *hits)
{
	size_t nref = emb_knn_count(kn), m = 0, n = 0;
	uint32_t dim = emb_knn_dim(kn);
	double kth = -INFINITY;

	for (size_t r = 0; r < nref; r++)
		if (!out[r])
			lo[m++] = bd[r].lo;
	if (m > k) {
		qsort(lo, m, sizeof(*lo), bydesc);
		kth = lo[k - 1];
	}
	for (size_t r = 0; r < nref; r++) {
		const float *y;
		double c[3];

		if (out[r] || !(bd[r].hi >= kth))
			continue;
		y = emb_knn_vec(kn, r);
		for (int t = 0; t < 3; t++)
			c[t] = 1 - knn_exact(v[t], y, dim);
		cand[n].ref = (uint32_t)r;
		cand[n].dist = -cosmulscore(c[0], c[1], c[2]);
		n++;
	}
	qsort(cand, n, sizeof(*cand), byscore);
	for (size_t j = 0; j < k && j < n; j++)
		hits[j] = cand[j];
}

int
emb_knn_cosmul(const struct emb_knn *kn, const float *a, const float *b,
    const float *c, size_t nq, size_t ldq, unsigned k, const size_t *xoff,
    const uint32_t *xref, unsigned nthreads, struct emb_hit *hits)
{
	size_t nref = emb_knn_count(kn), bq;
	uint32_t dim = emb_knn_dim(kn);
	struct cmjob jb;
	struct emb_hit *cand = NULL;
	struct cmbound *bd = NULL;
	double *qn = NULL, *lo = NULL;
	unsigned char *out = NULL;
	int rc = 0;

	if ((rc = nohits(hits, nq, k, nref)) != 0)
		return rc < 0 ? rc : 0;
	bq = perbatch(nref, nq);
	bd = malloc(bq * nref * sizeof(*bd));
	qn = malloc(bq * 3 * sizeof(*qn));
	lo = malloc(nref * sizeof(*lo));
	cand = malloc(nref * sizeof(*cand));
	out = malloc(nref);
	jb.bad = calloc((nref + 63) / 64, sizeof(*jb.bad));
	if (bd == NULL || qn == NULL || lo == NULL || cand == NULL ||
	    out == NULL || jb.bad == NULL) {
		rc = EMB_ENOMEM;
		goto done;
	}
	jb.kn = kn;
	jb.ldq = ldq;
	jb.qn = qn;
	jb.bd = bd;
	jb.tol = COSTOL(dim);
	for (size_t i0 = 0; i0 < nq; i0 += bq) {
		size_t n = nq - i0 < bq ? nq - i0 : bq;

		jb.v[0] = a + i0 * ldq;
		jb.v[1] = b + i0 * ldq;
		jb.v[2] = c + i0 * ldq;
		jb.n = n;
		for (size_t i = 0; i < n; i++)
			for (int t = 0; t < 3; t++)
				qn[i * 3 + t] = knn_dot(jb.v[t] + i * ldq,
				    jb.v[t] + i * ldq, dim);
		/* Lanes of 64 references: as many whatever the threads. */
		emb_par_run((int)nthreads, nref, (nref + 63) / 64, cmlane,
		    &jb);
		/* Every row was read: any that failed its checksum fails all. */
		for (size_t l = 0; l < (nref + 63) / 64; l++)
			if (jb.bad[l] != 0) {
				rc = knn_rowfail(kn, (uint32_t)(jb.bad[l] - 1));
				goto done;
			}
		for (size_t i = 0; i < n; i++) {
			size_t q = i0 + i;
			const float *v[3] = { jb.v[0] + i * ldq,
			    jb.v[1] + i * ldq, jb.v[2] + i * ldq };

			memset(out, 0, nref);
			if (xoff != NULL)
				for (size_t x = xoff[q]; x < xoff[q + 1]; x++)
					out[xref[x]] = 1;
			cmone(kn, v, bd + i * nref, out, k, lo, cand,
			    hits + q * k);
		}
	}
done:
	free(bd);
	free(qn);
	free(lo);
	free(cand);
	free(out);
	free(jb.bad);
	return rc;
}
