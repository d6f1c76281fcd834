/*
 * fit.c - one classifier of emb-eval on the rows of a classification,
 * fold by fold: each fold's parts, the MLP's weight decay search (with
 * its dev rows drawn when the split has none), the fit and its figures.
 */
#include <err.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"

/* SentEval's search grid for the MLP's weight decay. */
static const double l2grid[] = { 1e-5, 1e-4, 1e-3, 1e-2 };
#define NL2	(sizeof(l2grid) / sizeof(l2grid[0]))

/*
 * A fit's failure, told with where it happened (the input, and the
 * fold: runclf's words).
 */
static void
fitdie(const char *where, const char *clf, int rc)
{
	errx(1, "%s: %s: %s", where, clf, emb_strerror(rc));
}

/* Fit o on (X, y), optionally with an early-stopping dev set; predict. */
static void
fitpredict(const char *where, const struct emb_clf_opts *o, const char *clf,
    const float *X, size_t n, size_t d, const int *y, int ncls,
    const float *dev, size_t ndev, const int *ydev, const float *T,
    size_t nt, int *pred, int *iters)
{
	struct emb_clf *c;
	int rc;

	if ((rc = emb_clf_fit(&c, o, X, n, d, y, ncls, dev, ndev, ydev)) < 0)
		fitdie(where, clf, rc);
	if ((rc = emb_clf_predict(c, T, nt, pred)) < 0)
		fitdie(where, clf, rc);
	if (iters)
		*iters = emb_clf_iters(c);
	emb_clf_free(c);
}

static double
accof(const int *pred, const int *y, size_t n)
{
	size_t ok = 0;

	for (size_t i = 0; i < n; i++)
		ok += pred[i] == y[i];
	return n ? (double)ok / (double)n : 0;
}

/*
 * The MLP's weight-decay search: one job per grid value (with a dev set)
 * or per grid value and inner fold (without), each an independent fit on
 * one thread, taken in turn by -j workers; each job writes only its own
 * slot, and the slots are combined in grid and fold order, so that every
 * thread count gives the same bits.
 */
struct l2search {
	struct emb_clf_opts o;		/* the options, l2 set per job */
	const float	*X, *dev, *T;	/* training, dev, test rows */
	size_t		 n, d, ndev, nt;
	const int	*y, *ydev, *fold;
	int		 ncls, kfold, njob;
	double		 acc[NL2 * MAXFOLDS];	/* per job */
	int		*tpred[NL2];	/* with dev: each model's test classes */
	int		 titers[NL2];	/* and its passes */
	const struct eval *E;		/* the run's context */
	const char	*where;		/* the caller's, for messages */
	int		 ndone;		/* jobs done, for the progress */
	pthread_mutex_t	 lock;		/* over ndone and its line */
};

/* Job j of s: fit, score on its early-stopping rows. */
static void
l2job(struct l2search *s, int j)
{
	struct emb_clf_opts o = s->o;
	int g = s->dev ? j : j / s->kfold, f = s->dev ? 0 : j % s->kfold;
	int *pred;

	o.l2 = l2grid[g];
	o.threads = 1;
	if (s->dev) {
		struct emb_clf *c;
		int rc;

		/* Dev accuracy, and the test classes: refitting the chosen
		 * value would give the same model. */
		pred = xreallocarray(NULL, s->ndev + 1, sizeof(int));
		s->tpred[g] = xreallocarray(NULL, s->nt + 1, sizeof(int));
		if ((rc = emb_clf_fit(&c, &o, s->X, s->n, s->d, s->y, s->ncls,
		    s->dev, s->ndev, s->ydev)) < 0 ||
		    (rc = emb_clf_predict(c, s->dev, s->ndev, pred)) < 0 ||
		    (rc = emb_clf_predict(c, s->T, s->nt, s->tpred[g])) < 0)
			fitdie(s->where, "mlp", rc);
		s->titers[g] = emb_clf_iters(c);
		emb_clf_free(c);
		s->acc[j] = accof(pred, s->ydev, s->ndev);
		free(pred);
	} else {
		struct flat tmp = { .X = (float *)s->X, .dim = (uint32_t)s->d };
		size_t ntr = 0, nte = 0, *tr, *te;
		float *Xtr, *Xte;
		int *ytr, *yte;

		tr = xreallocarray(NULL, s->n + 1, sizeof(size_t));
		te = xreallocarray(NULL, s->n + 1, sizeof(size_t));
		for (size_t i = 0; i < s->n; i++)
			if (s->fold[i] == f)
				te[nte++] = i;
			else
				tr[ntr++] = i;
		if (ntr == 0)
			errx(1, "%s: mlp: inner fold %d of %d has no "
			    "training rows", s->where, f + 1, s->kfold);
		Xtr = rows(&tmp, tr, ntr);
		Xte = rows(&tmp, te, nte);
		ytr = xreallocarray(NULL, ntr + 1, sizeof(int));
		yte = xreallocarray(NULL, nte + 1, sizeof(int));
		pred = xreallocarray(NULL, nte + 1, sizeof(int));
		for (size_t i = 0; i < ntr; i++)
			ytr[i] = s->y[tr[i]];
		for (size_t i = 0; i < nte; i++)
			yte[i] = s->y[te[i]];
		fitpredict(s->where, &o, "mlp", Xtr, ntr, s->d, ytr, s->ncls,
		    Xte, nte, yte, Xte, nte, pred, NULL);
		s->acc[j] = accof(pred, yte, nte);
		free(Xtr);
		free(Xte);
		free(ytr);
		free(yte);
		free(pred);
		free(tr);
		free(te);
	}
}

/* Job j, a lane of emb_par_run. */
static void
l2lane(void *arg, int worker, size_t j, size_t r0, size_t r1)
{
	struct l2search *s = arg;

	(void)worker;
	(void)r0;
	(void)r1;
	l2job(s, (int)j);
	/* The count, not the job: the same lines in any order. */
	pthread_mutex_lock(&s->lock);
	progress("%s: mlp: %s: weight decay search, fit %d of %d done",
	    s->E->task, s->where, ++s->ndone, s->njob);
	pthread_mutex_unlock(&s->lock);
}

/*
 * The MLP's weight decay, as SentEval chooses it: with a dev set, the grid
 * value whose model (early-stopped on dev) scores best on dev; without,
 * the value with the best mean accuracy over inner stratified folds of the
 * training rows (each model early-stopped on its inner test fold).
 * Accuracies are rounded to 0.01 % before comparing, ties going to the
 * smaller value.  With a dev set, the chosen model's classes of the nt
 * test rows T go to tpred and its passes to *iters, and 1 is returned in
 * *done: refitting it would give the same model.
 */
static double
choosel2(const struct eval *E, const char *where, struct emb_clf_opts *o,
    const float *X, size_t n, size_t d, const int *y, int ncls,
    const float *dev, size_t ndev, const int *ydev, int kfold,
    const float *T, size_t nt, int *tpred, int *iters, int *done)
{
	struct l2search *s;
	double best = -1, bestl2 = l2grid[0];
	int *fold = NULL, gbest = 0;

	*done = 0;
	if (E->l2fixed)
		return o->l2;
	if (dev == NULL && emb_folds(y, n, ncls, kfold, o->seed,
	    fold = xreallocarray(NULL, n + 1, sizeof(int))) < 0)
		errx(1, "%s: mlp: cannot make %d inner folds", where, kfold);
	/* Told here, once, and not by each worker that meets it. */
	for (int f = 0; fold != NULL && f < kfold; f++) {
		size_t ntr = 0;

		for (size_t i = 0; i < n; i++)
			ntr += fold[i] != f;
		if (ntr == 0)
			errx(1, "%s: mlp: inner fold %d of %d has no training "
			    "rows", where, f + 1, kfold);
	}
	s = xcalloc(1, sizeof(*s));
	s->o = *o;
	s->X = X, s->n = n, s->d = d, s->y = y, s->ncls = ncls;
	s->dev = dev, s->ndev = ndev, s->ydev = ydev;
	s->T = T, s->nt = nt, s->fold = fold, s->kfold = kfold;
	s->njob = dev ? (int)NL2 : (int)NL2 * kfold;
	s->E = E;
	s->where = where;
	pthread_mutex_init(&s->lock, NULL);
	emb_par_run(o->threads, (size_t)s->njob, (size_t)s->njob, l2lane, s);
	pthread_mutex_destroy(&s->lock);
	progdone();
	for (size_t g = 0; g < NL2; g++) {
		double score = 0;

		if (dev != NULL)
			score = s->acc[g];
		else {
			for (int f = 0; f < kfold; f++)
				score += s->acc[g * kfold + f];
			score /= kfold;
		}
		score = round(10000 * score) / 10000;
		if (E->verbose)
			fprintf(stderr, "emb-eval: %s: mlp: l2 %g: dev "
			    "accuracy %.4f\n", E->task, l2grid[g], score);
		if (score > best) {
			best = score;
			bestl2 = l2grid[g];
			gbest = (int)g;
		}
	}
	if (dev != NULL) {
		memcpy(tpred, s->tpred[gbest], nt * sizeof(int));
		*iters = s->titers[gbest];
		*done = 1;
	}
	for (size_t g = 0; g < NL2; g++)
		free(s->tpred[g]);
	free(s);
	free(fold);
	return bestl2;
}

/*
 * --dev-share: the MLP's dev rows, when the split has none, drawn from
 * the ntr training rows tr (increasing): a Fisher-Yates shuffle of their
 * positions (for i from ntr - 1 down to 1, swap i and a draw below i + 1,
 * emb_rng_below on a generator seeded with seed), the first floor(share
 * ntr) of it held out.  Both lists stay in increasing order.
 */
static void
carvedev(size_t *tr, size_t *ntr, size_t *dv, size_t *ndv, double share,
    uint64_t seed)
{
	struct emb_rng g;
	size_t n = *ntr, m = (size_t)(share * (double)n), *pos, k = 0;
	char *out;

	if (m == 0 || m >= n)
		return;
	pos = xreallocarray(NULL, n, sizeof(size_t));
	out = xcalloc(n, 1);
	for (size_t i = 0; i < n; i++)
		pos[i] = i;
	emb_rng_seed(&g, seed);
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)emb_rng_below(&g, i + 1), t = pos[i];

		pos[i] = pos[j];
		pos[j] = t;
	}
	for (size_t i = 0; i < m; i++)
		out[pos[i]] = 1;
	*ndv = 0;
	for (size_t i = 0; i < n; i++)
		if (out[i])
			dv[(*ndv)++] = tr[i];
		else
			tr[k++] = tr[i];
	*ntr = k;
	free(pos);
	free(out);
}


/* One fold of a run: its rows in each part, their vectors and classes. */
struct foldrows {
	size_t		*tr, *dv, *te;	/* rows, increasing (room for all) */
	size_t		 ntr, ndv, nte;
	float		*Xtr, *Xdv, *Xte;	/* their vectors */
	int		 ctr, cte;	/* Xtr, Xte copies, not views of D */
	int		*ytr, *ydv, *yte;	/* their classes */
};

/* The part row i of C plays in fold f (the split without folds). */
static int
rowpart(const struct cdata *C, size_t i, int f)
{
	return C->fold ? (C->fold[i] == f ? TEST : TRAIN) : C->part[i];
}

/*
 * Every fold of C has training and test rows, else the run ends here,
 * once, before any seed's fit (seeds run side by side would each say
 * so).
 */
void
foldscheck(const struct cdata *C)
{
	int nf = C->fold ? C->kfold : 1;

	for (int f = 0; f < nf; f++) {
		size_t ntr = 0, nte = 0;

		for (size_t i = 0; i < C->n; i++) {
			int pt = rowpart(C, i, f);

			ntr += pt == TRAIN;
			nte += pt != TRAIN && pt != DEV;
		}
		if (ntr == 0)
			errx(1, "%s: no training rows", C->D.name);
		if (nte == 0)
			errx(1, "%s: no test rows", C->D.name);
	}
}

/*
 * Fold f of C (the split itself when there are no folds): its rows into
 * the parts of F, and for the MLP without dev rows, dev rows drawn from
 * the training rows (--dev-share); @return what the fold lacks, or NULL.
 */
static const char *
foldparts(const struct cdata *C, int f, const struct emb_clf_opts *o,
    double devshare, struct foldrows *F)
{
	F->ntr = F->ndv = F->nte = 0;
	for (size_t i = 0; i < C->n; i++) {
		int pt = rowpart(C, i, f);

		if (pt == TRAIN)
			F->tr[F->ntr++] = i;
		else if (pt == DEV)
			F->dv[F->ndv++] = i;
		else
			F->te[F->nte++] = i;
	}
	if (F->ntr == 0)
		return "no training rows";
	if (F->nte == 0)
		return "no test rows";
	if (o->kind == EMB_CLF_MLP && F->ndv == 0 && !C->fold &&
	    devshare > 0)
		carvedev(F->tr, &F->ntr, F->dv, &F->ndv, devshare, o->seed);
	return NULL;
}

/*
 * The vectors and classes of the rows of F: training and test rows a
 * view of C's matrix where they lie together, else copied, as the dev
 * rows are.
 */
static void
foldmats(const struct cdata *C, struct foldrows *F)
{
	const struct flat *D = &C->D;
	const int *y = C->y;

	F->Xtr = rowsview(D, F->tr, F->ntr, &F->ctr);
	F->Xte = rowsview(D, F->te, F->nte, &F->cte);
	F->ytr = xreallocarray(NULL, F->ntr + 1, sizeof(int));
	F->yte = xreallocarray(NULL, F->nte + 1, sizeof(int));
	for (size_t i = 0; i < F->ntr; i++)
		F->ytr[i] = y[F->tr[i]];
	for (size_t i = 0; i < F->nte; i++)
		F->yte[i] = y[F->te[i]];
	if (F->ndv > 0) {
		size_t m = 0;

		/* A dev label unseen in training: no class. */
		F->ydv = xreallocarray(NULL, F->ndv, sizeof(int));
		for (size_t i = 0; i < F->ndv; i++)
			if (y[F->dv[i]] < C->L->ntrain) {
				F->dv[m] = F->dv[i];
				F->ydv[m++] = y[F->dv[i]];
			}
		F->ndv = m;
		F->Xdv = rows(D, F->dv, F->ndv);
	}
}

/* Free what foldmats made: the fold's rows are kept, for the next. */
static void
foldmatsfree(struct foldrows *F)
{
	if (F->ctr)
		free(F->Xtr);
	if (F->cte)
		free(F->Xte);
	free(F->Xdv);
	free(F->ytr);
	free(F->yte);
	free(F->ydv);
	F->Xtr = F->Xdv = F->Xte = NULL;
	F->ctr = F->cte = 0;
	F->ytr = F->ydv = F->yte = NULL;
}

static void
foldfree(struct foldrows *F)
{
	foldmatsfree(F);
	free(F->tr);
	free(F->dv);
	free(F->te);
}

/*
 * Classifier cn (options o) on the rows of C, fold by fold: the class it
 * predicts for each test row goes to rowpred (other rows untouched), its
 * figures to R (conf zeroed by the caller).
 */
void
runclf(const struct eval *E, const struct cdata *C, struct emb_clf_opts o,
    const char *cn, int *rowpred, struct crun *R)
{
	const struct flat *D = &C->D;
	const struct labels *L = C->L;
	struct foldrows F;
	const char *why;
	char where[256];	/* the input, and the fold: for messages */
	int nf = C->fold ? C->kfold : 1;

	memset(&F, 0, sizeof(F));
	F.tr = xreallocarray(NULL, C->n + 1, sizeof(size_t));
	F.te = xreallocarray(NULL, C->n + 1, sizeof(size_t));
	F.dv = xreallocarray(NULL, C->n + 1, sizeof(size_t));
	R->acc = 0;
	R->ntr = R->nte = 0;
	R->l2 = -1;
	R->iters = 0;
	for (int f = 0; f < nf; f++) {
		int *p, done = 0;

		if ((why = foldparts(C, f, &o, E->devshare, &F)) != NULL) {
			foldfree(&F);
			errx(1, "%s: %s", D->name, why);
		}
		if (C->fold) {
			snprintf(where, sizeof(where), "%s: fold %d",
			    D->name, f + 1);
			progress("%s: %s: fold %d of %d", E->task, cn, f + 1,
			    nf);
		} else {
			snprintf(where, sizeof(where), "%s", D->name);
			progress("%s: %s: fitting", E->task, cn);
		}
		foldmats(C, &F);
		p = xreallocarray(NULL, F.nte + 1, sizeof(int));
		if (o.kind == EMB_CLF_MLP) {
			o.l2 = choosel2(E, where, &o, F.Xtr, F.ntr, D->dim,
			    F.ytr, L->ntrain, F.Xdv, F.ndv, F.ydv, E->innerk ?
			    E->innerk : C->kfold, F.Xte, F.nte, p, &R->iters,
			    &done);
			R->l2 = o.l2;
		}
		if (!done)
			fitpredict(where, &o, cn, F.Xtr, F.ntr, D->dim, F.ytr,
			    C->fold ? L->n : L->ntrain, F.Xdv, F.ndv, F.ydv,
			    F.Xte, F.nte, p, &R->iters);
		if (emb_confusion(F.yte, p, F.nte, L->n, R->conf) < 0) {
			free(p);
			foldfree(&F);
			errx(1, "%s: internal error: class out of range", cn);
		}
		R->acc += accof(p, F.yte, F.nte);
		for (size_t i = 0; i < F.nte; i++)
			rowpred[F.te[i]] = p[i];
		R->ntr += (double)F.ntr;
		R->nte += (double)F.nte;
		free(p);
		foldmatsfree(&F);
	}
	/* Cross-validation: the means of the folds, as SentEval's. */
	R->acc /= nf;
	R->ntr /= nf;
	R->nte /= nf;
	foldfree(&F);
}

