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
	struct emb_knn	*kn;		/* the training rows */
	int		*yref;		/* their classes */
	/* linear models: scores = X W + b, W d x nout */
	double		*W;
	double		*b;
	int		 nout;		/* ncls, or 1 for a binary rule */
	/* mlp: all parameters (W1, b1, W2, b2) as one block */
	float		*W1;
};

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
 * emb_dgemm_blis - C = alpha op(A) op(B) + beta C, row-major, op(A) m x k,
 * op(B) k x n; ta, tb nonzero transpose.  The classifiers' level-3 kernel,
 * through BLIS; emb_dgemm_ref (ref.h) is its plain-loop twin for the
 * tests.
 */
void emb_dgemm_blis(int ta, int tb, size_t m, size_t n, size_t k,
    double alpha, const double *A, size_t lda, const double *B, size_t ldb,
    double beta, double *C, size_t ldc);

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

#define MAXTHR	EMB_MAXTHREADS

/*
 * emb_sgemm_blis - emb_dgemm_blis in single precision, for the perceptron
 * (float, as PyTorch trains it).
 */
void emb_sgemm_blis(int ta, int tb, size_t m, size_t n, size_t k,
    float alpha, const float *A, size_t lda, const float *B, size_t ldb,
    float beta, float *C, size_t ldc);

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
