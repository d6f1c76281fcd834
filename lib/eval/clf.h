/*
 * clf.h - declarations shared by the classifier files of libemb only:
 * the symmetric solvers, the perceptron's Adam step, and each kind's fit
 * and predict; the object and the helpers they have in common are in
 * clf-common.h, the BLIS and LAPACK calls in lapack.h.
 *
 *   clf.c         the object's life, dispatch, folds, linear scoring
 *   clf-common.c  threads, lanes, class means, allocation, arg max
 *   clf-solve.c   Cholesky, positive (semi)definite solves
 *   clf-linear.c  nearest centroid, LDA with shrinkage, ridge
 *   clf-logreg.c  L2 logistic regression by L-BFGS
 *   clf-mlp.c     the one-hidden-layer perceptron
 *   clf-knn.c     k nearest neighbours through emb_knn_search
 */
#ifndef EMB_CLF_H
#define EMB_CLF_H

#include <stddef.h>

#include "eval/emb-eval.h"
#include "eval/clf-common.h"

/* Test twins and the decision values, once in emb.h. */

/*
 * emb_clf_scores - the decision values of a linear model (centroid: 2 x.m
 * - |m|^2; lda, ridge, logreg: scikit-learn's decision_function) of the n
 * rows X into S, n x emb_clf_nscores(c).  Two-class ridge, lda and logreg
 * have one column, positive for class 1 (lda's is the difference of its
 * two discriminants, as scikit-learn's); mlp: its output scores (logits),
 * one column per class.
 * @return 0, EMB_EINVAL (knn, or a constant model) or EMB_ENOMEM.
 */
int emb_clf_scores(const struct emb_clf *c, const float *X, size_t n,
    double *S);

/* @return the columns of emb_clf_scores, 0 for knn or a constant model. */
int emb_clf_nscores(const struct emb_clf *c);

/*
 * emb_dchol_blis - Cholesky factorization A = L L' of the symmetric
 * positive definite n x n matrix A (row-major, leading dimension lda): the
 * lower triangle is read and overwritten by L, the strict upper triangle
 * left as it was.  Recursive halving through BLIS trsm and syrk, 1.3 to
 * 25 times as fast as LAPACK's dpotrf over the same BLIS for n = 4000
 * down to 50 (tests/bench/09-chol.sh); emb_dchol_ref (ref.h) is its
 * plain-loop twin.
 * @return 0, or EMB_ENOSOL when a pivot is not positive (A is then partly
 * overwritten).
 */
int emb_dchol_blis(size_t n, double *A, size_t lda);

/*
 * emb_adam - one step of Adam with L2 weight decay on n parameters P
 * (gradients G, moments M and V), as torch.optim.Adam takes it in float
 * (clf-mlp.c); emb_adam_ref (ref.h) is its plain-loop twin, with the
 * same bits.
 */
struct emb_adam {
	float		 l2;		/* weight decay */
	float		 b1, c1;	/* beta1 and 1 - beta1 */
	float		 b2, c2;	/* beta2 and 1 - beta2 */
	float		 sq2;		/* sqrt(1 - beta2^t) */
	float		 eps;
	float		 step;		/* lr / (1 - beta1^t) */
};
void emb_adam(float *P, const float *G, float *M, float *V, size_t n,
    const struct emb_adam *a);

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
