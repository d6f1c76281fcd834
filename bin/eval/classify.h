/*
 * classify.h - what emb-eval's classification shares between its files:
 * the rows and their classes (rows.c), one classifier's run fold by fold
 * (fit.c), and the runs over seeds and representations (classify.c).
 */
#ifndef CLASSIFY_H
#define CLASSIFY_H

#include "eval.h"

/*
 * Rows are training, dev or test by the split field (-s), by the stream
 * they come from (-t), or by fold (neither).
 */
enum { TRAIN, DEV, TEST };

/*
 * Labels to classes.  The training labels, sorted bytewise and made
 * unique, are classes 0..ntrain-1 (scikit-learn's classes_); labels seen
 * only in the test rows follow, sorted, so they appear in the confusion
 * matrix although no classifier can predict them.
 */
struct labels {
	char		**name;		/* class names */
	int		 n;		/* classes in all */
	int		 ntrain;	/* classes seen in training */
};

/* What is shared by every run of a classification: rows and classes. */
struct cdata {
	struct flat	 D;		/* all rows (T is a view into D) */
	struct flat	 T;
	size_t		 n;		/* rows */
	const struct labels *L;
	const int	*y, *part, *fold;	/* class, part, fold of a row */
	int		 kfold;
	const char	*split;		/* how, for the protocol line */
	int		 hasdev;	/* dev rows in the split */
};

/* One classifier's run: its figures summed over the folds. */
struct crun {
	uint64_t	*conf;		/* L->n x L->n, pooled */
	double		 acc;		/* mean of the fold accuracies */
	double		 ntr, nte;	/* rows fitted and predicted: with
					   folds, the mean over the folds */
	double		 l2;		/* mlp: the last weight decay, else -1 */
	int		 iters;
};

/* The labels, parts and classes of the rows of a classification. */
struct rowinfo {
	char		**lab;		/* each row's label */
	int		 *part;		/* TRAIN, DEV or TEST */
	char		 *intrain;	/* its label makes a class */
	int		 *y;		/* its class */
	int		 *fold;		/* cross-validation: its fold, else NULL */
	struct labels	  L;
	char		  split[128];	/* how, for the protocol line */
};

/*
 * The rows of one representation into C: the train stream and the test
 * one (testpath, or none), read side by side on threads > 1.
 */
void	 loadcdata(struct cdata *C, const char *trainpath,
    const char *testpath, int threads);
/* The second representation's rows: the same keys, in the same order. */
void	 samekeys(const struct cdata *A, const struct cdata *B);
/*
 * The label (key field labf) and part of each row of C: by the split
 * field splitf, else training for the rows of the training stream and
 * test for those of the test stream.
 */
void	 rowparts(struct rowinfo *I, const struct cdata *C, unsigned labf,
    unsigned splitf, int cv);
/*
 * The classes of the rows' labels, and in cross-validation (cv) the kfold
 * folds drawn with seed; the split told as the protocol line tells it.
 */
void	 rowclasses(struct rowinfo *I, const struct cdata *C, unsigned splitf,
    int kfold, int cv, uint64_t seed);
void	 rowinfofree(struct rowinfo *I, size_t n);

/* Rows idx[0..m-1] of D into a new matrix. */
float	*rows(const struct flat *D, const size_t *idx, size_t m);
/*
 * Rows idx (increasing) of D: a view when they are contiguous, else a
 * copy (*copied set; free it).
 */
float	*rowsview(const struct flat *D, const size_t *idx, size_t m,
    int *copied);

/*
 * Every fold of C has training and test rows, else the run ends here,
 * once, before any seed's fit (seeds run side by side would each say
 * so).
 */
void	 foldscheck(const struct cdata *C);
/*
 * Classifier cn (options o) on the rows of C, fold by fold: the class it
 * predicts for each test row goes to rowpred (other rows untouched), its
 * figures to R (conf zeroed by the caller).
 */
void	 runclf(const struct eval *E, const struct cdata *C,
    struct emb_clf_opts o, const char *cn, int *rowpred, struct crun *R);

#endif /* CLASSIFY_H */
