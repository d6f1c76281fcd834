/*
 * knn-cross.c - emb-knn --csls and --mutual: neighbours that need the
 * query set whole as a space of its own, beside the reference set.
 *
 * CSLS (Conneau et al. 2018) ranks reference y for query x by 2 cos(x, y)
 * - r_R(x) - r_Q(y), r_R(x) the mean cosine of x to its n nearest
 * references and r_Q(y) that of y to its n nearest queries, all by the
 * exact search (libemb's emb_knn_meansim and emb_knn_csls).  Mutual
 * neighbours keep the pairs (x, y) with y among x's k nearest references
 * and x among y's k nearest queries.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knn-cross.h"

#define GROUPED	"a group; --csls and --mutual take ungrouped queries"

struct emb_knn *
knnrows(const float *X, size_t n, uint32_t dim, const struct flat *K,
    const char *name)
{
	struct emb_knn *kn;
	int rc;

	if ((rc = emb_knn_create(&kn, dim)) < 0 ||
	    (rc = emb_knn_reserve(kn, n)) < 0)
		errx(1, "%s: %s", name, emb_strerror(rc));
	for (size_t i = 0; i < n; i++)
		if ((rc = emb_knn_add(kn, K ? K->keys.p + K->keyoff[i] : "",
		    K ? K->keylen[i] : 0, X + i * dim)) < 0)
			errx(1, "%s: %s", name, emb_strerror(rc));
	return kn;
}

static void
line(const struct flat *Q, size_t i, unsigned rank, const struct emb_knn *kn,
    uint32_t ref, double v)
{
	size_t rlen;
	const char *rkey = emb_knn_key(kn, ref, &rlen);

	fwrite(Q->keys.p + Q->keyoff[i], 1, Q->keylen[i], stdout);
	printf("\t%u\t", rank);
	fwrite(rkey, 1, rlen, stdout);
	printf("\t%.17g\n", v);
}

void
knndie(const struct emb_knn *kn, const char *ref, int rc)
{
	if (rc == EMB_ESTORE)
		errx(1, "%s: %s", ref, emb_knn_msg(kn));
	errx(1, "search: %s", emb_strerror(rc));
}

void
knncross(const struct emb_knn *kn, const char *ref, const char *path,
    unsigned k,
    unsigned cslsk, unsigned nthreads)
{
	struct flat Q;
	struct emb_knn *kq;
	struct emb_hit *h, *hr = NULL;
	size_t nref = emb_knn_count(kn);
	double *rq = NULL, *rr = NULL;
	float *rv = NULL;
	unsigned char *zq, *zr = NULL;
	unsigned long long nzero = 0;
	int rc;

	flatload(&Q, path, GROUPED, NULL, NULL);
	if (Q.dim != emb_knn_dim(kn))
		errx(1, "%s: dimension %u, expected %u as the reference set",
		    Q.name, Q.dim, emb_knn_dim(kn));
	kq = knnrows(Q.X, Q.n, Q.dim, NULL, Q.name);
	h = xcalloc(Q.n ? Q.n : 1, (size_t)k * sizeof(*h));
	/*
	 * As in the plain search, a zero query has no neighbour: no line for
	 * it, and a count.  Nor has a zero reference any nearest query, so
	 * that it is nobody's mutual neighbour.
	 */
	zq = xcalloc(Q.n ? Q.n : 1, 1);
	for (size_t i = 0; i < Q.n; i++)
		nzero += zq[i] = (unsigned char)allzero(Q.X + i * Q.dim, Q.dim);
	/* The references' vectors, rows for the search the other way. */
	rv = xcalloc(nref ? nref : 1, (size_t)Q.dim * sizeof(float));
	for (size_t j = 0; j < nref; j++) {
		if ((rc = emb_knn_check(kn, j)) < 0)
			goto fail;
		memcpy(rv + j * Q.dim, emb_knn_vec(kn, j), Q.dim *
		    sizeof(float));
	}
	if (cslsk) {
		rq = xcalloc(Q.n + 1, sizeof(double));
		rr = xcalloc(nref + 1, sizeof(double));
		if ((rc = emb_knn_meansim(kn, Q.X, Q.n, Q.dim, cslsk,
		    nthreads, rq)) < 0 ||
		    (rc = emb_knn_meansim(kq, rv, nref, Q.dim, cslsk,
		    nthreads, rr)) < 0 ||
		    (rc = emb_knn_csls(kn, Q.X, Q.n, Q.dim, k, rq, rr,
		    nthreads, h)) < 0)
			goto fail;
		for (size_t i = 0; i < Q.n; i++)
			for (unsigned r = 0; r < k && !zq[i]; r++)
				if (h[i * k + r].ref != EMB_KNN_NONE)
					line(&Q, i, r + 1, kn, h[i * k + r].ref,
					    -h[i * k + r].dist);
	} else {
		hr = xcalloc(nref ? nref : 1, (size_t)k * sizeof(*hr));
		zr = xcalloc(nref ? nref : 1, 1);
		for (size_t j = 0; j < nref; j++)
			zr[j] = (unsigned char)allzero(rv + j * Q.dim, Q.dim);
		if ((rc = emb_knn_search(kn, Q.X, Q.n, Q.dim, k, NULL, NULL,
		    nthreads, h, NULL)) < 0 ||
		    (rc = emb_knn_search(kq, rv, nref, Q.dim, k, NULL, NULL,
		    nthreads, hr, NULL)) < 0)
			goto fail;
		for (size_t i = 0; i < Q.n; i++)
			for (unsigned r = 0; r < k && !zq[i]; r++) {
				uint32_t y = h[i * k + r].ref;
				unsigned s;

				if (y == EMB_KNN_NONE || zr[y])
					continue;
				for (s = 0; s < k; s++)
					if (hr[(size_t)y * k + s].ref == i)
						break;
				if (s < k)
					line(&Q, i, r + 1, kn, y,
					    h[i * k + r].dist);
			}
	}
	fshut(stdout, "stdout");
	if (nzero)
		warnx("%s: zero query vectors (no known word?): %llu, no "
		    "neighbours listed", Q.name, nzero);
	rc = 0;
fail:
	emb_knn_free(kq);
	free(zq);
	free(zr);
	free(h);
	free(hr);
	free(rq);
	free(rr);
	free(rv);
	flatfree(&Q);
	if (rc < 0)
		knndie(kn, ref, rc);
}
