/*
 * clf-common.c - what the classifier files share (clf-common.h): the
 * threads and lanes of row-parallel work, a double copy of the rows,
 * class means, the linear models' allocation and the arg max.  Below
 * every kind (clf-*.c) and clf.c, which dispatches to them.
 */
#include "eval/emb-eval.h"
#include "eval/clf-common.h"

#include <string.h>

/*
 * Threads.  Row-parallel work is cut into lanes, a number that depends on
 * the problem only, never on the thread count: lane l holds rows
 * [n l / nlane, n (l + 1) / nlane) and owns its partial results, which
 * are summed in lane order afterwards, so that every thread count gives
 * the same bits.  Workers (the calling thread and up to o.threads - 1
 * others) take lanes in turn from an atomic counter: a worker that a busy
 * machine deschedules just takes fewer, and the only wait is the final
 * join (BLIS's own threads spin at barriers, which a descheduled thread
 * turns into lost time slices).  Every BLIS call runs on one thread.
 */

/*
 * Threads for a step of work multiply-adds: below o.parmin (2^27 by
 * default, a few milliseconds on one core) starting threads and faulting
 * in their buffers costs more than it saves, so one.  The lanes, and
 * therefore the results, do not depend on it.
 */
int
emb_clf_threads(const struct emb_clf_opts *o, double work)
{
	return work < o->parmin ? 1 : o->threads;
}

/* Lanes for n rows: one per `per' rows, at least one, at most max. */
size_t
emb_clf_lanes(size_t n, size_t per, size_t max)
{
	size_t l = n / per;

	return l < 1 ? 1 : l > max ? max : l;
}

/* Converting floats to doubles, a lane at a time. */
struct conv {
	const float	*X;
	double		*D;
	size_t		 d;
};

static void
convlane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct conv *cv = arg;

	(void)w;
	(void)lane;
	for (size_t i = r0 * cv->d; i < r1 * cv->d; i++)
		cv->D[i] = cv->X[i];
}

/*
 * A double copy of the float matrix X (n x d), or NULL; on nt threads
 * when it is large (the fresh pages cost more than the conversion).
 */
double *
emb_todouble(const float *X, size_t n, size_t d, int nt)
{
	struct conv cv;
	size_t sz;

	if (emb_mul(n ? n : 1, d, &sz) < 0 || emb_mul(sz, sizeof(double),
	    &sz) < 0 || (cv.D = emb_alloc(sz)) == NULL)
		return NULL;
	cv.X = X;
	cv.d = d;
	emb_par_run(nt, n, emb_clf_lanes(n, 1024, 64), convlane, &cv);
	return cv.D;
}

/* Per-class counts and means (ncls x d) in double. */
void
emb_classmeans(const float *X, size_t n, size_t d, const int *y, int ncls,
    size_t *cnt, double *mean)
{
	memset(cnt, 0, ncls * sizeof(*cnt));
	memset(mean, 0, (size_t)ncls * d * sizeof(*mean));
	for (size_t i = 0; i < n; i++) {
		double *m = mean + (size_t)y[i] * d;

		cnt[y[i]]++;
		for (size_t j = 0; j < d; j++)
			m[j] += X[i * d + j];
	}
	for (int c = 0; c < ncls; c++)
		if (cnt[c] > 0)
			for (size_t j = 0; j < d; j++)
				mean[(size_t)c * d + j] /= (double)cnt[c];
}

/* Allocate c->W (d x nout) and c->b (nout), zeroed. */
int
emb_clf_linalloc(struct emb_clf *c, int nout)
{
	c->nout = nout;
	c->W = emb_alloc(c->d * nout * sizeof(double));
	c->b = emb_alloc(nout * sizeof(double));
	if (c->W == NULL || c->b == NULL)
		return EMB_ENOMEM;
	memset(c->W, 0, c->d * nout * sizeof(double));
	memset(c->b, 0, nout * sizeof(double));
	return 0;
}

/* Index of the largest of n scores, the first on ties. */
int
emb_argmax(const double *s, int n)
{
	int best = 0;

	for (int k = 1; k < n; k++)
		if (s[k] > s[best])
			best = k;
	return best;
}
