/*
 * clf.h - declarations shared by the classifier files of libemb only:
 * the classifier object, the thread and BLIS helpers they have in common,
 * the symmetric solvers, and each kind's fit and predict.
 *
 *   clf.c         the object, dispatch, folds, linear scoring, helpers
 *   clf-solve.c   Cholesky, positive (semi)definite solves
 *   clf-linear.c  nearest centroid, LDA with shrinkage, ridge
 *   clf-logreg.c  L2 logistic regression by L-BFGS
 *   clf-mlp.c     the one-hidden-layer perceptron
 *   clf-knn.c     k nearest neighbours through emb_knn_search
 */
#ifndef EMB_CLF_H
#define EMB_CLF_H

#include <blis.h>
#include <stddef.h>

#include "emb.h"

struct emb_clf {
	struct emb_clf_opts o;		/* options it was fitted with */
	size_t		 d;		/* input dimension */
	int		 ncls;		/* classes */
	int		 iters;		/* iterations or passes taken */
	int		 only;		/* one class in training: it, else -1 */
	/* knn */
	struct emb_knn	*kn;		/* the training rows, unit length */
	int		*yref;		/* their classes */
	/* linear models: scores = X W + b, W d x nout */
	double		*W;
	double		*b;
	int		 nout;		/* ncls, or 1 for a binary rule */
	/* mlp: all parameters (W1, b1, W2, b2) as one block */
	double		*W1;
};

#define MAXTHR	EMB_MAXTHREADS
#define dgemm	emb_dgemm_blis

/* Threads for a step of work multiply-adds: 1 or o->threads. */
int emb_clf_threads(const struct emb_clf_opts *o, double work);
/* Lanes for n rows: one per `per' rows, at least one, at most max. */
size_t emb_clf_lanes(size_t n, size_t per, size_t max);
/* rt set up for one BLIS thread; @return rt. */
rntm_t *emb_blis1(rntm_t *rt);
/* C = alpha A'A + beta C, upper triangle, A m x d (row-major). */
void emb_dsyrk_up(size_t d, size_t m, double alpha, const double *A,
    double beta, double *C);
/* A double copy of X (n x d, emb_free it), or NULL; on nt threads. */
double *emb_todouble(const float *X, size_t n, size_t d, int nt);
/* Per-class counts and means (ncls x d) in double. */
void emb_classmeans(const float *X, size_t n, size_t d, const int *y,
    int ncls, size_t *cnt, double *mean);
/* Index of the largest of n scores, the first on ties. */
int emb_argmax(const double *s, int n);
/* Allocate c->W (d x nout) and c->b (nout), zeroed: 0 or EMB_ENOMEM. */
int emb_clf_linalloc(struct emb_clf *c, int nout);

/* clf-solve.c: A X = B, A d x d SPD (else least squares), B d x m. */
int emb_dspdsolve(double *A, double *B, size_t d, size_t m);
/* B = pinv(G)^p B, G n x n symmetric PSD (overwritten), B n x m. */
int emb_dpsdpinv(double *G, size_t n, double *B, size_t m, int p,
    size_t d);

/* Each kind's fit on n rows X with classes y (two classes at least). */
int emb_clf_fit_centroid(struct emb_clf *c, const float *X, size_t n,
    const int *y);
int emb_clf_fit_lda(struct emb_clf *c, const float *X, size_t n,
    const int *y);
int emb_clf_fit_ridge(struct emb_clf *c, const float *X, size_t n,
    const int *y);
int emb_clf_fit_logreg(struct emb_clf *c, const float *X, size_t n,
    const int *y);
int emb_clf_fit_mlp(struct emb_clf *c, const float *X, size_t n,
    const int *y, const float *dev, size_t ndev, const int *ydev);
int emb_clf_fit_knn(struct emb_clf *c, const float *X, size_t n,
    const int *y);

/* The kinds that do not score through W and b. */
int emb_clf_predict_knn(const struct emb_clf *c, const float *X, size_t n,
    int *pred);
int emb_clf_predict_mlp(const struct emb_clf *c, const float *X, size_t n,
    int *pred);
int emb_clf_scores_mlp(const struct emb_clf *c, const float *X, size_t n,
    double *S);

#endif /* EMB_CLF_H */
