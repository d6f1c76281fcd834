/*
 * clf-common.h - the classifier object and what the classifier files of
 * libemb share (clf-common.c): threads, lanes, a double copy of the rows,
 * class means, a linear model's allocation, the arg max.  It uses no
 * other classifier file; lapack.h is the door to BLIS and LAPACK.
 */
#ifndef EMB_CLF_COMMON_H
#define EMB_CLF_COMMON_H

#include <stddef.h>

#include "eval/emb-eval.h"

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

#define MAXTHR	EMB_MAXTHREADS

/* Threads for a step of work multiply-adds: 1 or o->threads. */
int emb_clf_threads(const struct emb_clf_opts *o, double work);
/* Lanes for n rows: one per `per' rows, at least one, at most max. */
size_t emb_clf_lanes(size_t n, size_t per, size_t max);
/* A double copy of X (n x d, emb_free it), or NULL; on nt threads. */
double *emb_todouble(const float *X, size_t n, size_t d, int nt);
/* Per-class counts and means (ncls x d) in double. */
void emb_classmeans(const float *X, size_t n, size_t d, const int *y,
    int ncls, size_t *cnt, double *mean);
/* Index of the largest of n scores, the first on ties. */
int emb_argmax(const double *s, int n);
/* Allocate c->W (d x nout) and c->b (nout), zeroed: 0 or EMB_ENOMEM. */
int emb_clf_linalloc(struct emb_clf *c, int nout);

#endif /* EMB_CLF_COMMON_H */
