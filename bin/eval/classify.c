/*
 * classify.c - emb-eval's classification: each classifier of -c on the
 * rows, over the MLP's seeds, on one representation or two (--versus),
 * and its figures: the lines, the summary (-v), the protocol line and
 * the predictions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "classify.h"


const struct clfname clfnames[NCLF] = {
	{ "knn",	EMB_CLF_KNN },
	{ "centroid",	EMB_CLF_CENTROID },
	{ "lda",	EMB_CLF_LDA },
	{ "ridge",	EMB_CLF_RIDGE },
	{ "logreg",	EMB_CLF_LOGREG },
	{ "mlp",	EMB_CLF_MLP },
};

/* CPU seconds of the process: a loaded machine stretches wall time. */
static double
cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Print the figures of one classifier. */
static void
report(const struct eval *E, const char *clf, const struct labels *L,
    const uint64_t *conf,
    double acc, double f1, double ntr, double nte, double l2, int iters,
    double secs, double cpusecs)
{
	int K = L->n;

	out(E, clf, "accuracy", "%.6f", acc);
	out(E, clf, "macro_f1", "%.6f", f1);
	out(E, clf, "n_train", "%.6g", ntr);
	out(E, clf, "n_test", "%.6g", nte);
	if (l2 >= 0)
		out(E, clf, "l2", "%g", l2);
	for (int i = 0; i < K; i++)
		out(E, clf, "class", "%d:%s", i, L->name[i]);
	for (int i = 0; i < K; i++)
		for (int j = 0; j < K; j++)
			if (conf[(size_t)i * K + j])
				out(E, clf, "confusion", "%d:%d:%llu", i, j,
				    (unsigned long long)conf[(size_t)i * K +
				    j]);
	if (!E->verbose)
		return;
	fprintf(stderr, "%s: %s: accuracy %.4f, macro-F1 %.4f (%.6g train, "
	    "%.6g test", E->task, clf, acc, f1, ntr, nte);
	if (l2 >= 0)
		fprintf(stderr, ", l2 %g", l2);
	if (iters > 0)
		fprintf(stderr, ", %d iterations", iters);
	fprintf(stderr, ", %.4f s, %.4f s CPU)\n", secs, cpusecs);
	if (K <= 12) {
		fprintf(stderr, "  true \\ predicted");
		for (int j = 0; j < K; j++)
			fprintf(stderr, "\t%s", L->name[j]);
		fputc('\n', stderr);
		for (int i = 0; i < K; i++) {
			fprintf(stderr, "  %s", L->name[i]);
			for (int j = 0; j < K; j++)
				fprintf(stderr, "\t%llu", (unsigned long long)
				    conf[(size_t)i * K + j]);
			fputc('\n', stderr);
		}
	}
}

/*
 * The predictions of classifier cn, one line per test row, in the order
 * of the folds (the rows of each in input order); prefixed by the
 * representation's name when two are compared.
 */
static void
writepred(FILE *predfp, const struct cdata *C, const char *cn,
    const char *name, const int *rowpred)
{
	int nf = C->fold ? C->kfold : 1;

	for (int f = 0; f < nf; f++)
		for (size_t i = 0; i < C->n; i++) {
			if (C->fold ? C->fold[i] != f : C->part[i] != TEST)
				continue;
			if (name != NULL)
				fprintf(predfp, "%s\t", name);
			fprintf(predfp, "%s\t%s\t%s\t%s\n", cn,
			    C->L->name[rowpred[i]], C->L->name[C->y[i]],
			    KEY(&C->D, i));
		}
}

/*
 * --protocol: one line "protocol" after a classifier's figures, holding
 * what fixes them: the split, the classifier and its settings, the seeds,
 * the summary of each figure, and the rows that are zero vectors (a
 * composed sentence with no known word: the OOV that reached emb-eval).
 */
static void
protoclf(const struct eval *E, const struct cdata *C, const char *cn,
    const struct emb_clf_opts *o, int ns)
{
	char buf[1024], s[64];
	size_t z = zerocount(&C->D, C->n), len = 0;

#define ADD(...) do { int w_ = snprintf(buf + len, sizeof(buf) - len, \
	__VA_ARGS__); if (w_ > 0) len += (size_t)w_; if (len >= sizeof(buf)) \
	len = sizeof(buf) - 1; } while (0)
	ADD("split=%s", C->split);
	switch (o->kind) {
	case EMB_CLF_KNN:
		ADD(" clf=knn neighbours=%d similarity=cosine", o->k);
		break;
	case EMB_CLF_CENTROID:
		ADD(" clf=centroid distance=euclidean");
		break;
	case EMB_CLF_LDA:
		if (o->shrinkage == EMB_SHRINK_AUTO)
			snprintf(s, sizeof(s), "auto");
		else if (o->shrinkage == EMB_SHRINK_NONE)
			snprintf(s, sizeof(s), "none");
		else
			snprintf(s, sizeof(s), "%g", o->shrinkage);
		ADD(" clf=lda shrinkage=%s", s);
		break;
	case EMB_CLF_RIDGE:
		ADD(" clf=ridge alpha=%g", o->alpha);
		break;
	case EMB_CLF_LOGREG:
		ADD(" clf=logreg C=%g tol=%g max_iter=%d", o->C, o->tol,
		    o->maxiter);
		break;
	case EMB_CLF_MLP:
		ADD(" clf=mlp nhid=%d dropout=%g batch=%d epoch_size=%d "
		    "tenacity=%d max_epoch=%d", o->nhid, o->dropout, o->batch,
		    o->epoch_size, o->tenacity, o->max_epoch);
		if (E->l2fixed)
			ADD(" l2=%g", o->l2);
		else if (C->hasdev || (E->devshare > 0 && !C->fold))
			ADD(" l2=search:1e-5,1e-4,1e-3,1e-2:dev");
		else
			ADD(" l2=search:1e-5,1e-4,1e-3,1e-2:inner_folds=%d",
			    E->innerk ? E->innerk : C->kfold);
		if (C->hasdev)
			ADD(" early_stop=dev");
		else if (E->devshare > 0 && !C->fold)
			ADD(" early_stop=dev_share:%g", E->devshare);
		else
			ADD(" early_stop=5%%_of_train");
		break;
	}
	if (ns > 1)
		ADD(" seeds=%llu..%llu vote=majority", (unsigned long long)
		    E->base.seed, (unsigned long long)(E->base.seed + ns - 1));
	else
		ADD(" seed=%llu", (unsigned long long)E->base.seed);
	ADD(" accuracy=%s macro_f1=%s", C->fold ? "mean_of_folds" : "test",
	    C->fold ? "pooled_out_of_fold" : "test");
	ADD(" rows=%zu zero_vectors=%zu", C->n, z);
	if (E->protonote != NULL)
		ADD(" %s", E->protonote);
#undef ADD
	out(E, cn, "protocol", "%s", buf);
}

/*
 * One representation, one classifier: over --seeds seeds for the MLP
 * (the folds stay those of --seed), else once.  rowpred gets the
 * predictions (with seeds, each test row's most frequent class over the
 * seeds, on a tie the first seed's class if it is among the tied, else
 * the smallest); the figures are printed: accuracy and macro-F1 the means
 * over the seeds, the confusion matrix the vote's.
 */
/* The runs of one classifier over its seeds, and their figures. */
struct seeds {
	const struct eval *E;
	const struct cdata *C;
	struct emb_clf_opts o;
	const char	*cn;
	int		 K;
	int		*pred;		/* with parallel seeds: ns x n */
	struct crun	*R;		/* and ns runs */
	double		*acc, *f1, *l2s;	/* per seed */
};

/* Seed s: its run into pred and R, its figures into S. */
static void
runseed(const struct seeds *S, int s, int *pred, struct crun *R)
{
	struct emb_clf_opts o = S->o;

	o.seed = S->E->base.seed + (uint64_t)s;
	memset(R->conf, 0, (size_t)S->K * S->K * sizeof(uint64_t));
	runclf(S->E, S->C, o, S->cn, pred, R);
	S->acc[s] = R->acc;
	S->f1[s] = emb_macro_f1(R->conf, S->K);
	S->l2s[s] = R->l2;
}

static void
seedlane(void *arg, int worker, size_t lane, size_t r0, size_t r1)
{
	const struct seeds *S = arg;

	(void)worker;
	(void)lane;
	for (size_t s = r0; s < r1; s++)
		runseed(S, (int)s, S->pred + s * S->C->n, &S->R[s]);
}

/*
 * The seeds' vote on each test row of C (votes: its count of each of the
 * K classes, first: the first seed's class) into rowpred, and the vote's
 * confusion matrix into conf.
 */
static void
seedvote(const struct cdata *C, int K, const int *votes, const int *first,
    int *rowpred, uint64_t *conf)
{
	memset(conf, 0, (size_t)K * K * sizeof(uint64_t));
	for (size_t i = 0; i < C->n; i++) {
		int best = 0;

		if (!(C->fold || C->part[i] == TEST))
			continue;
		/* A tie: the first seed's class, if tied. */
		for (int k = 1; k < K; k++)
			if (votes[i * K + k] > votes[i * K + best])
				best = k;
		if (votes[i * K + first[i]] == votes[i * K + best])
			best = first[i];
		rowpred[i] = best;
		conf[(size_t)C->y[i] * K + best]++;
	}
}

static void
evalclf(const struct eval *E, const struct cdata *C, size_t ci, int *rowpred)
{
	const char *cn = clfnames[ci].name;
	const struct labels *L = C->L;
	int ns = clfnames[ci].kind == EMB_CLF_MLP ? E->nseeds : 1, K = L->n;
	int *sp = NULL, *votes = NULL, *first = NULL, par;
	double t0 = emb_now(), c0 = cpu();
	struct crun R = { 0 };
	struct seeds S = { E, C, E->base, cn, K, NULL, NULL, NULL, NULL,
	    NULL };

	foldscheck(C);
	S.o.kind = clfnames[ci].kind;
	S.acc = xreallocarray(NULL, (size_t)ns, sizeof(double));
	S.f1 = xreallocarray(NULL, (size_t)ns, sizeof(double));
	S.l2s = xreallocarray(NULL, (size_t)ns, sizeof(double));
	R.conf = xcalloc((size_t)K * K, sizeof(uint64_t));
	if (ns > 1) {
		sp = xreallocarray(NULL, C->n + 1, sizeof(int));
		votes = xcalloc(C->n * (size_t)K + 1, sizeof(int));
		first = xreallocarray(NULL, C->n + 1, sizeof(int));
	}
	/*
	 * With a fixed weight decay a seed's run is one fit at a time, on
	 * one thread: the seeds then run side by side, a thread each (else
	 * each seed's search fills the threads).  Each seed's figures are
	 * its own either way, and combined in seed order.
	 */
	par = ns > 1 && E->l2fixed && E->base.threads > 1;
	if (par) {
		S.o.threads = 1;
		S.pred = xreallocarray(NULL, (size_t)ns * C->n + 1,
		    sizeof(int));
		S.R = xcalloc((size_t)ns, sizeof(struct crun));
		for (int s = 0; s < ns; s++)
			S.R[s].conf = xcalloc((size_t)K * K,
			    sizeof(uint64_t));
		emb_par_run(E->base.threads, (size_t)ns, (size_t)ns, seedlane,
		    &S);
		progdone();
	}
	for (int s = 0; s < ns; s++) {
		if (par) {
			memcpy(sp, S.pred + (size_t)s * C->n,
			    C->n * sizeof(int));
			free(R.conf);
			R = S.R[s];
			S.R[s].conf = NULL;
		} else
			runseed(&S, s, ns > 1 ? sp : rowpred, &R);
		for (size_t i = 0; ns > 1 && i < C->n; i++)
			if (C->fold || C->part[i] == TEST) {
				votes[i * K + sp[i]]++;
				if (s == 0)
					first[i] = sp[i];
			}
	}
	if (ns > 1)
		seedvote(C, K, votes, first, rowpred, R.conf);
	report(E, cn, L, R.conf, meanof(S.acc, ns), meanof(S.f1, ns), R.ntr,
	    R.nte, ns > 1 ? -1 : R.l2, R.iters, emb_now() - t0,
	    cpu() - c0);
	if (C->fold)
		out(E, cn, "folds", "%d", C->kfold);
	if (ns > 1)
		reportseeds(E, cn, E->base.seed, S.acc, S.f1, S.l2s, ns,
		    emb_accuracy(R.conf, K), emb_macro_f1(R.conf, K));
	if (E->protocol)
		protoclf(E, C, cn, &S.o, ns);
	free(S.acc);
	free(S.f1);
	free(S.l2s);
	free(S.pred);
	free(S.R);
	free(sp);
	free(votes);
	free(first);
	free(R.conf);
}

/* Classifier ci on the one representation C, and its predictions. */
static void
clfone(const struct eval *E, const struct cdata *C, size_t ci)
{
	int *pa = xreallocarray(NULL, C->n + 1, sizeof(int));

	evalclf(E, C, ci, pa);
	if (E->predfp)
		writepred(E->predfp, C, clfnames[ci].name, NULL, pa);
	free(pa);
}

/*
 * --versus: classifier ci on both representations, C's figures under
 * the first's task name and V's under the second's, then the two
 * compared on the test rows under the task's.
 */
static void
clfversus(const struct eval *E, const struct cdata *C, const struct cdata *V,
    size_t ci)
{
	const char *cn = clfnames[ci].name;
	size_t n = C->n, m = 0;
	int *pa, *pb, *t;
	struct eval Ea, Eb;

	pa = xreallocarray(NULL, n + 1, sizeof(int));
	pb = xreallocarray(NULL, n + 1, sizeof(int));
	Ea = evalside(E, 0);
	evalclf(&Ea, C, ci, pa);
	Eb = evalside(E, 1);
	evalclf(&Eb, V, ci, pb);
	if (E->predfp) {
		writepred(E->predfp, C, cn, E->vnames[0], pa);
		writepred(E->predfp, V, cn, E->vnames[1], pb);
	}
	t = xreallocarray(NULL, n + 1, sizeof(int));
	/* The test rows, in pa and pb's place. */
	for (size_t i = 0; i < n; i++)
		if (C->fold || C->part[i] == TEST) {
			t[m] = C->y[i];
			pa[m] = pa[i];
			pb[m++] = pb[i];
		}
	comparepred(E, cn, t, pa, pb, m, C->L->n);
	free(t);
	free(pa);
	free(pb);
}

/*
 * Classification: the rows of the training stream and the test one
 * (testpath, or none), those of --versus beside them; each classifier of
 * use run on them.
 */
void
classify(const struct eval *E, const char *trainpath, const char *testpath,
    unsigned labf, unsigned splitf, int kfold, const int *use)
{
	struct cdata C, V;
	struct rowinfo I;
	int cv = !splitf && !testpath;

	memset(&C, 0, sizeof(C));
	memset(&V, 0, sizeof(V));
	memset(&I, 0, sizeof(I));
	loadcdata(&C, trainpath, testpath, E->base.threads);
	if (E->versus != NULL) {
		loadcdata(&V, E->versus, testpath ? E->versus2 : NULL,
		    E->base.threads);
		samekeys(&C, &V);
	}
	rowparts(&I, &C, labf, splitf, cv);
	rowclasses(&I, &C, splitf, kfold, cv, E->base.seed);
	for (size_t i = 0; i < C.n; i++)
		C.hasdev |= I.part[i] == DEV;
	V.hasdev = C.hasdev;
	C.split = V.split = I.split;
	C.L = V.L = &I.L;
	C.y = V.y = I.y;
	C.part = V.part = I.part;
	C.fold = V.fold = I.fold;
	C.kfold = V.kfold = kfold;
	for (size_t ci = 0; ci < NCLF; ci++) {
		if (!use[ci])
			continue;
		if (E->versus == NULL)
			clfone(E, &C, ci);
		else
			clfversus(E, &C, &V, ci);
	}
	rowinfofree(&I, C.n);
	flatfree(&C.D);	/* T is a view into D */
	if (E->versus != NULL)
		flatfree(&V.D);
}
