/*
 * clf.c - the classifier object of emb-eval: options, fit and predict
 * dispatched by kind, the stratified folds and the scores of the linear
 * models.  It stands on the kinds; they and it stand on clf-common.c
 * (threads, lanes, class means, allocation) and on lapack.c (BLIS and
 * LAPACK), and none of them calls back into this file.
 *
 * Each closed-form classifier computes what scikit-learn computes, so that
 * predictions agree up to rounding:
 *   centroid  NearestCentroid(): class means, smallest Euclidean distance;
 *   lda       LinearDiscriminantAnalysis(solver="lsqr", shrinkage=s):
 *             priors n_c / n, covariance sum_c prior_c cov_c, where cov_c is
 *             the class's empirical covariance, shrunk by s toward
 *             mu I (mu = trace / d), or by the Ledoit-Wolf s_c of the
 *             standardized class data ("auto"); coef = cov^-1 mean_c,
 *             intercept = -mean_c . coef_c / 2 + log prior_c;
 *   ridge     RidgeClassifier(alpha): targets +1/-1 (one column for two
 *             classes), centred data, (Xc'Xc + alpha I) W = Xc'Y;
 *   knn       KNeighborsClassifier(k, metric="cosine"): uniform vote, a
 *             tie going to the smallest class.
 * The iterative ones minimize the same objective as their model:
 *   logreg    LogisticRegression(C): multinomial for three classes or more,
 *             binary for two, penalty |W|^2 / (2C) on the weights only;
 *   mlp       SentEval's MLP: Linear, Dropout, Sigmoid, Linear; mean
 *             cross-entropy of each batch, Adam (lr 1e-3), weight decay on every
 *             parameter, early stopping on a dev set with SentEval's
 *             tenacity rule.
 * The kinds live in clf-linear.c (centroid, lda, ridge), clf-logreg.c,
 * clf-mlp.c and clf-knn.c; the solvers in clf-solve.c (see clf.h).
 *
 * Level-3 work (Gram matrices, scores, distances, the Cholesky solves)
 * goes through BLIS, one thread per call, the large steps spread over
 * o.threads threads of our own (see "Threads" in clf-common.c); the
 * least-squares fallback (dgelsd) through LAPACK.  Each BLIS kernel has a
 * plain-loop twin used by the unit tests.
 */
#include "eval/emb-eval.h"
#include "base/rng.h"
#include "eval/clf.h"
#include "base/lapack.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Folds.
 */

int
emb_folds(const int *y, size_t n, int ncls, int k, uint64_t seed, int *fold)
{
	struct emb_rng g;
	size_t *idx, off = 0;

	if (k < 2 || ncls < 1)
		return EMB_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (y[i] < 0 || y[i] >= ncls)
			return EMB_EINVAL;
	if ((idx = malloc((n ? n : 1) * sizeof(*idx))) == NULL)
		return EMB_ENOMEM;
	emb_rng_seed(&g, seed);
	for (int c = 0; c < ncls; c++) {
		size_t m = 0;

		for (size_t i = 0; i < n; i++)
			if (y[i] == c)
				idx[m++] = i;
		emb_rng_perm(&g, idx, m);
		for (size_t j = 0; j < m; j++)
			fold[idx[j]] = (int)((off + j) % (size_t)k);
		off += m;
	}
	free(idx);
	return 0;
}

static struct emb_clf *
newclf(const struct emb_clf_opts *o, size_t d, int ncls)
{
	struct emb_clf *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->o = *o;
	c->d = d;
	c->ncls = ncls;
	c->only = -1;
	return c;
}

#define SBLK	256	/* rows per block (and lane) of a linear model's scores */

/* Scores X W + b of r <= SBLK rows X into S; Xb holds r x d doubles. */
static void
linscores(const struct emb_clf *c, const float *X, size_t r, double *Xb,
    double *S)
{
	size_t d = c->d;
	int no = c->nout;

	for (size_t j = 0; j < r * d; j++)
		Xb[j] = X[j];
	emb_dgemm_blis(0, 0, r, no, d, 1, Xb, d, c->W, no, 0, S, no);
	for (size_t i = 0; i < r; i++)
		for (int k = 0; k < no; k++)
			S[i * no + k] += c->b[k];
}

/* Scores of a linear model, a block of rows per lane. */
struct scoring {
	const struct emb_clf *c;
	const float	*X;
	double		*S;		/* all scores, or NULL: only pred */
	int		*pred;		/* classes, or NULL */
	double		*Xb[MAXTHR];	/* per worker: SBLK x d */
	double		*Sb[MAXTHR];	/* per worker: SBLK x nout */
};

static void
scorelane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct scoring *sc = arg;
	int no = sc->c->nout;
	double *S = sc->S ? sc->S + r0 * no : sc->Sb[w];

	(void)lane;
	linscores(sc->c, sc->X + r0 * sc->c->d, r1 - r0, sc->Xb[w], S);
	/* One column: the binary rule, class 1 when > 0. */
	for (size_t i = 0; sc->pred && i < r1 - r0; i++)
		sc->pred[r0 + i] = no == 1 ? S[i] > 0 : emb_argmax(S + i * no, no);
}

/* Scores into S (n x nout) or classes into pred. */
static int
linear(const struct emb_clf *c, const float *X, size_t n, double *S,
    int *pred)
{
	size_t nl = (n + SBLK - 1) / SBLK, rows = n < SBLK ? n : SBLK;
	struct scoring *sc;
	int nt = emb_clf_threads(&c->o, (double)n * c->d * c->nout);
	int nw = emb_par_workers(nt, nl), rc = 0;

	if ((sc = calloc(1, sizeof(*sc))) == NULL)
		return EMB_ENOMEM;
	sc->c = c;
	sc->X = X;
	sc->S = S;
	sc->pred = pred;
	for (int t = 0; t < nw; t++) {
		sc->Xb[t] = emb_alloc(rows * c->d * sizeof(double));
		sc->Sb[t] = S ? NULL : emb_alloc(rows * c->nout *
		    sizeof(double));
		if (sc->Xb[t] == NULL || (S == NULL && sc->Sb[t] == NULL))
			rc = EMB_ENOMEM;
	}
	if (rc == 0)
		emb_par_run(nt, n, nl, scorelane, sc);
	for (int t = 0; t < nw; t++) {
		emb_free(sc->Xb[t]);
		emb_free(sc->Sb[t]);
	}
	free(sc);
	return rc;
}

int
emb_clf_scores(const struct emb_clf *c, const float *X, size_t n, double *S)
{
	if (c->only >= 0)
		return EMB_EINVAL;
	if (c->o.kind == EMB_CLF_MLP)
		return emb_clf_scores_mlp(c, X, n, S);
	if (c->W == NULL)
		return EMB_EINVAL;
	return n ? linear(c, X, n, S, NULL) : 0;
}

int
emb_clf_nscores(const struct emb_clf *c)
{
	if (c->only >= 0)
		return 0;
	if (c->o.kind == EMB_CLF_MLP)
		return c->ncls;
	return c->W ? c->nout : 0;
}

/* Scores X W + b in blocks, then the class rule. */
static int
predict_linear(const struct emb_clf *c, const float *X, size_t n, int *pred)
{
	return linear(c, X, n, NULL, pred);
}


/*
 * Classes with no training row never win: their scores become -inf (the
 * binary rule of one column needs no change, since two classes were seen).
 * Centroid and LDA already score them so; kNN never votes for them.
 */
static void
unseen(struct emb_clf *c, const unsigned char *seen)
{
	int K = c->ncls;
	float *b2;

	for (int k = 0; k < K; k++) {
		if (seen[k])
			continue;
		if (c->o.kind == EMB_CLF_MLP) {
			b2 = c->W1 + (c->o.nhid ? c->d * c->o.nhid +
			    c->o.nhid + (size_t)c->o.nhid * K : c->d * K);
			b2[k] = -INFINITY;
		} else if (c->W != NULL && c->nout == K) {
			for (size_t j = 0; j < c->d; j++)
				c->W[j * K + k] = 0;
			c->b[k] = -INFINITY;
		}
	}
}

/*
 * The public face.
 */

void
emb_clf_defaults(struct emb_clf_opts *o, enum emb_clf_kind kind)
{
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->k = 5;
	o->alpha = 1.0;
	o->shrinkage = EMB_SHRINK_NONE;
	o->C = 1.0;
	o->maxiter = 1000;
	o->tol = 1e-4;
	o->nhid = 50;
	o->l2 = 1e-4;
	o->dropout = 0;
	o->batch = 64;
	o->tenacity = 5;
	o->epoch_size = 4;
	o->max_epoch = 200;
	o->valfrac = 0.05;
	o->seed = 1111;
	o->threads = 1;
	o->parmin = 1 << 27;
}

int
emb_clf_fit(struct emb_clf **cp, const struct emb_clf_opts *o,
    const float *X, size_t n, size_t d, const int *y, int ncls,
    const float *dev, size_t ndev, const int *ydev)
{
	struct emb_clf *c;
	unsigned char *seen;
	int rc, nseen = 0;

	*cp = NULL;
	if (d == 0 || ncls < 1 || o->kind < EMB_CLF_KNN ||
	    o->kind > EMB_CLF_MLP || (o->kind == EMB_CLF_KNN && o->k < 1) ||
	    (o->kind == EMB_CLF_LDA && o->shrinkage != EMB_SHRINK_NONE &&
	    o->shrinkage != EMB_SHRINK_AUTO && !(o->shrinkage >= 0 &&
	    o->shrinkage <= 1)) || (o->kind == EMB_CLF_LOGREG && !(o->C > 0)) ||
	    (o->kind == EMB_CLF_MLP && (o->batch < 1 || o->nhid < 0 ||
	    o->epoch_size < 1 || !(o->dropout >= 0 && o->dropout < 1))))
		return EMB_EINVAL;
	if (n == 0)
		return EMB_EEMPTY;
	for (size_t i = 0; i < n; i++)
		if (y[i] < 0 || y[i] >= ncls)
			return EMB_EINVAL;
	if ((c = newclf(o, d, ncls)) == NULL)
		return EMB_ENOMEM;
	if ((seen = calloc(ncls, 1)) == NULL) {
		free(c);
		return EMB_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (!seen[y[i]]) {	/* a flag, not a count: no wrap */
			seen[y[i]] = 1;
			nseen++;
		}
	if (nseen == 1) {
		/* One class: every kind predicts it, as a constant would. */
		c->only = y[0];
		free(seen);
		*cp = c;
		return 0;
	}
	switch (o->kind) {
	case EMB_CLF_KNN:
		rc = emb_clf_fit_knn(c, X, n, y);
		break;
	case EMB_CLF_CENTROID:
		rc = emb_clf_fit_centroid(c, X, n, y);
		break;
	case EMB_CLF_LDA:
		rc = emb_clf_fit_lda(c, X, n, y);
		break;
	case EMB_CLF_RIDGE:
		rc = emb_clf_fit_ridge(c, X, n, y);
		break;
	case EMB_CLF_LOGREG:
		rc = emb_clf_fit_logreg(c, X, n, y);
		break;
	default:
		rc = emb_clf_fit_mlp(c, X, n, y, dev, ndev, ydev);
		break;
	}
	if (rc == 0)
		unseen(c, seen);
	free(seen);
	if (rc < 0) {
		emb_clf_free(c);
		return rc;
	}
	*cp = c;
	return 0;
}

int
emb_clf_predict(const struct emb_clf *c, const float *X, size_t n, int *pred)
{
	if (n == 0)
		return 0;
	if (c->only >= 0) {
		for (size_t i = 0; i < n; i++)
			pred[i] = c->only;
		return 0;
	}
	switch (c->o.kind) {
	case EMB_CLF_KNN:
		return emb_clf_predict_knn(c, X, n, pred);
	case EMB_CLF_MLP:
		return emb_clf_predict_mlp(c, X, n, pred);
	default:
		return predict_linear(c, X, n, pred);
	}
}

int
emb_clf_iters(const struct emb_clf *c)
{
	return c->iters;
}

void
emb_clf_free(struct emb_clf *c)
{
	if (c == NULL)
		return;
	emb_knn_free(c->kn);
	free(c->yref);
	emb_free(c->W);
	emb_free(c->b);
	free(c->W1);
	free(c);
}
