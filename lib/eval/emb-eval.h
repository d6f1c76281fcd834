/*
 * emb-eval.h - the public declarations of libemb's floor eval, evaluation: metrics and classifiers, association tests, paired
 * comparisons.
 * Programs include emb.h, which holds every floor; a file of the library
 * includes the header of its own floor, which holds the floors below.
 */
#ifndef EMB_FLOOR_EVAL_H
#define EMB_FLOOR_EVAL_H

#include "knn/emb-knn.h"

/* ---- metrics and classifiers ---- */

/*
 * Metrics.  Classes are 0-based indices below ncls; a confusion matrix is
 * ncls x ncls, row-major, rows the true class and columns the predicted one.
 */

/*
 * emb_confusion - count (truth[i], pred[i]) pairs into conf, which the
 * caller zeroes.  @return 0, or EMB_EINVAL if a class is out of range.
 */
int emb_confusion(const int *truth, const int *pred, size_t n, int ncls,
    uint64_t *conf);

/* @return the fraction of the diagonal in conf (0 for an empty matrix). */
double emb_accuracy(const uint64_t *conf, int ncls);

/*
 * emb_macro_f1 - the unweighted mean of the per-class F1 scores over the
 * classes present in the truth or the predictions (a class with neither
 * counts nowhere), F1 = 0 where precision + recall = 0: scikit-learn's
 * f1_score(average="macro").  @return the score (0 for an empty matrix).
 */
double emb_macro_f1(const uint64_t *conf, int ncls);

/*
 * emb_pearson - Pearson's correlation of x and y (n pairs), two-pass in
 * double on each side scaled by a power of two (values up to DBL_MAX
 * neither overflow nor change r).  @return 0 and *r; EMB_EEMPTY for n < 2; EMB_EZERO when either
 * side is constant (the coefficient is undefined).
 */
int emb_pearson(const double *x, const double *y, size_t n, double *r);

/*
 * emb_spearman - Spearman's rho: Pearson's correlation of the average
 * ranks.  @return as emb_pearson, or EMB_ENOMEM.
 */
int emb_spearman(const double *x, const double *y, size_t n, double *rho);

/*
 * emb_interval - the central interval holding level (0 < level < 1) of
 * the n values v (sorted here), in one of two senses, each kept because
 * a program's figures have been published with it; NAN, NAN when n = 0:
 *   EMB_IVL_ORDER   order statistics, k = floor((1 - level) / 2 n)
 *		     (at most n - 1): [v_k, v_(n-1-k)], 0-based (the
 *		     percentile bootstrap of emb_paired_clf, emb_paired_corr);
 *   EMB_IVL_LINEAR  the quantiles at (1 - level) / 2 and (1 + level) / 2,
 *		     each linear between the order statistics around
 *		     h = (n - 1) q, numpy's default (emb-bias's intervals).
 */
enum { EMB_IVL_ORDER, EMB_IVL_LINEAR };
void emb_interval(double *v, size_t n, double level, int method,
    double *lo, double *hi);

/*
 * emb_folds - stratified assignment of n labelled records to k folds.
 * For each class c = 0, 1, ... in turn, the records of class c in input
 * order are shuffled by emb_rng_perm (one generator seeded once with seed,
 * shared by all classes), and the j-th of the shuffled list goes to fold
 * (o + j) mod k, where o is the number of records of the classes before c.
 * Fold sizes therefore differ by at most one and every class is spread
 * evenly.  @return 0, EMB_EINVAL (k < 2 or a class out of range) or
 * EMB_ENOMEM.
 */
int emb_folds(const int *y, size_t n, int ncls, int k, uint64_t seed,
    int *fold);

/*
 * Classifiers.  A classifier is fitted on n training rows X (n x d floats,
 * row-major) with classes y in [0, ncls) and predicts a class per row.
 * Only classes that occur in y are predicted (a class with no examples
 * scores -inf); when y holds one class alone, every kind fits the
 * constant model that predicts it.
 */
enum emb_clf_kind {
	EMB_CLF_KNN,		/* k nearest neighbours, cosine, majority vote */
	EMB_CLF_CENTROID,	/* nearest class mean, Euclidean */
	EMB_CLF_LDA,		/* linear discriminant analysis, lsqr solver */
	EMB_CLF_RIDGE,		/* ridge regression on +-1 targets */
	EMB_CLF_LOGREG,		/* L2 logistic regression, L-BFGS */
	EMB_CLF_MLP		/* one hidden layer, Adam, early stopping */
};

/* LDA shrinkage values that are not a number in [0, 1]. */
#define EMB_SHRINK_NONE	(-1.0)	/* empirical covariance */
#define EMB_SHRINK_AUTO	(-2.0)	/* Ledoit-Wolf on standardized features */

struct emb_clf_opts {
	enum emb_clf_kind kind;
	int		 k;		/* knn: neighbours (5) */
	double		 alpha;		/* ridge: penalty (1.0) */
	double		 shrinkage;	/* lda: [0, 1] or EMB_SHRINK_* */
	double		 C;		/* logreg: inverse penalty (1.0) */
	int		 maxiter;	/* logreg: L-BFGS iterations (1000) */
	double		 tol;		/* logreg: gradient max-norm (1e-4) */
	int		 nhid;		/* mlp: hidden units, 0 = linear (50) */
	double		 l2;		/* mlp: weight decay (1e-4) */
	double		 dropout;	/* mlp: dropout before the sigmoid (0) */
	int		 batch;		/* mlp: batch size (64) */
	int		 tenacity;	/* mlp: epochs without gain before stop (5) */
	int		 epoch_size;	/* mlp: passes per epoch (4) */
	int		 max_epoch;	/* mlp: most passes (200) */
	double		 valfrac;	/* mlp: held-out share without dev (0.05) */
	uint64_t	 seed;		/* mlp: initial weights, batches (1111) */
	int		 dual;		/* lda, ridge: solve in the n x n dual
					   when n < d (0), always (1), never
					   (-1) */
	int		 threads;	/* threads for the large steps (1) */
	double		 parmin;	/* multiply-adds a step needs to take
					   them (2^27) */
};

/* Fill o with the defaults above for the classifier kind. */
void emb_clf_defaults(struct emb_clf_opts *o, enum emb_clf_kind kind);

struct emb_clf;

/*
 * emb_clf_fit - fit a classifier.  X (n x d) and y are only read; a kNN
 * model keeps a normalized copy.  dev (ndev rows, classes ydev) is the
 * early-stopping set of the MLP; NULL draws it from the training rows
 * (valfrac of them, by the seeded generator).  Other kinds ignore it.
 * @return 0 and *cp (free with emb_clf_free), or EMB_EINVAL, EMB_EEMPTY,
 * EMB_ENOMEM, EMB_ENOSOL (LDA or ridge system singular), EMB_ELIMIT (kNN:
 * n x d floats beyond the address space).
 */
int emb_clf_fit(struct emb_clf **cp, const struct emb_clf_opts *o,
    const float *X, size_t n, size_t d, const int *y, int ncls,
    const float *dev, size_t ndev, const int *ydev);

/*
 * emb_clf_predict - classes of the n rows X (n x d, d as fitted) into pred.
 * @return 0 or EMB_ENOMEM.
 */
int emb_clf_predict(const struct emb_clf *c, const float *X, size_t n,
    int *pred);

/* Iterations the fit took (logreg: L-BFGS steps; mlp: passes), else 0. */
int emb_clf_iters(const struct emb_clf *c);

/* Free a classifier; NULL is a no-op. */
void emb_clf_free(struct emb_clf *c);

/* ---- end of metrics and classifiers ---- */

/* ---- association tests ---- */

/*
 * The numbers of emb-bias(1)'s tests (bias.c), whose page gives every
 * formula and the order of every random draw: WEAT (Caliskan et al.
 * 2017), RND (Garg et al. 2018), ECT (Dev and Phillips 2019), MAC
 * (Manzini et al. 2019) and the direction of pairs that RIPA projects on
 * (Ethayarajh et al. 2019).  Each sum is taken in double in the order
 * the page writes it, so that a figure can be redone by hand.
 *
 * The word sets are lists of rows of one float matrix V of dim columns:
 * X and Y the targets, A and B the attributes, a set absent when it has
 * no rows.
 */
enum { EMB_SET_X, EMB_SET_Y, EMB_SET_A, EMB_SET_B, EMB_NSET };
struct emb_wsets {
	const float	*V;		/* the vectors, dim floats a row */
	size_t		 dim;
	const size_t	*row[EMB_NSET];	/* each set's rows of V */
	size_t		 n[EMB_NSET];	/* their counts, 0: absent */
	int		 asis;		/* RND, ECT: the vectors as they are,
					   not of unit length */
};

/* emb_cosf - the cosine of a and b (dim floats); 0 when either is zero. */
double emb_cosf(const float *a, const float *b, size_t dim);

/*
 * emb_onevector - whether set r holds two rows or more (two words, not
 * one named twice) that are all one vector up to length (a cosine of 1
 * within 1e-9): a set whose words were dropped upstream, leaving each
 * sentence its template alone.
 */
int emb_onevector(const struct emb_wsets *w, int r);

/*
 * emb_weat_assoc - the cosines C (n x m) of the n = |X| + |Y| target
 * words (X, then Y) with the m = |A| + |B| attribute words (A, then B),
 * and each target word's association s(w, A, B), the mean of its row
 * over A less its mean over B, into s (n); 0 when A and B hold the same
 * rows (in any order), not the rounding of sums in two orders.
 * @return 1 when they do, 0 when not, or EMB_ENOMEM.
 */
int emb_weat_assoc(const struct emb_wsets *w, double *C, double *s);

/*
 * emb_weat_effect - WEAT's statistic *stat = sum_X s - sum_Y s of the
 * associations s (X's nx, then Y's ny), and @return its effect size, the
 * difference of the means over the standard deviation of all n (sample:
 * over n - 1, else over n); NAN when that deviation is 0.
 */
double emb_weat_effect(const double *s, size_t nx, size_t ny, int sample,
    double *stat);

/*
 * emb_weat_p - WEAT's one-sided permutation test of the associations s
 * (nx of X, then ny of Y): the partitions (X', Y') of the same sizes
 * whose X'-sum is at least X's, less 8 n eps sum |s| for rounding; all
 * of them, in lexicographic order, when they are at most exactmax, else
 * nperm random ones on a generator seeded with seed.
 */
struct emb_weat_p {
	uint64_t	 parts;		/* C(n, nx), UINT64_MAX above 2^63 */
	int		 exact;		/* all parts were counted */
	uint64_t	 count;		/* partitions counted: parts or nperm */
	uint64_t	 hit;		/* of those, at least the observed */
};
/* @return 0 or EMB_ENOMEM. */
int emb_weat_p(const double *s, size_t nx, size_t ny, uint64_t exactmax,
    uint64_t nperm, uint64_t seed, struct emb_weat_p *r);

/*
 * emb_weat_boot - WEAT's bootstrap over words, from the cosines C of
 * emb_weat_assoc: nboot resamples on a generator seeded with seed, each
 * drawing X, Y, A and B with replacement, in that order; each resample's
 * statistic into bs (nboot), its effect size (as emb_weat_effect with
 * sample) into bd when defined, *nd of them.  @return 0 or EMB_ENOMEM.
 */
int emb_weat_boot(const double *C, size_t nx, size_t ny, size_t na,
    size_t nb, uint64_t nboot, int sample, uint64_t seed, double *bd,
    size_t *nd, double *bs);

/*
 * emb_rnd - RND, the sum over the attribute words a (A, then B) of
 * |a - mean X| - |a - mean Y|, each vector of unit length unless asis.
 * @return 0 and *rnd, or EMB_ENOMEM.
 */
int emb_rnd(const struct emb_wsets *w, double *rnd);

/*
 * emb_ect - ECT, Spearman's rho (emb_spearman) of cos(mean X, a) and
 * cos(mean Y, a) over the attribute words a (A, then B), the means of
 * unit vectors unless asis.  @return as emb_spearman.
 */
int emb_ect(const struct emb_wsets *w, double *rho);

/*
 * emb_mac - MAC, the mean over target words t (X, then Y) and attribute
 * sets S (A, and B if present) of the mean cosine distance 1 - cos(t, a)
 * over a in S.
 */
double emb_mac(const struct emb_wsets *w);

/*
 * emb_unitdiff - the difference a^ - b^ of the unit vectors of a and b
 * (a zero vector staying zero) into d (dim doubles): a pair's difference,
 * whose direction emb_pairdir finds.
 */
void emb_unitdiff(const float *a, const float *b, size_t dim, double *d);

/*
 * emb_ripa - RIPA's projections <x, u> of the words x of set r (as they
 * are) on the direction u into v; @return their mean.
 */
double emb_ripa(const struct emb_wsets *w, int r, const double *u,
    double *v);

/*
 * emb_boot_means - nboot means of n values v drawn with replacement,
 * each index emb_rng_below(g, n), into bm (the bootstrap of a mean).
 */
void emb_boot_means(const double *v, size_t n, uint64_t nboot,
    struct emb_rng *g, double *bm);

/*
 * emb_pairdir - the direction of k pair differences D (k x dim, row i
 * the difference of pair i): their first principal component, not
 * centered, through the eigenvector of the largest eigenvalue of their
 * k x k Gram matrix (LAPACK dsyev), scaled to unit length and signed so
 * that the differences' projections sum to >= 0, into u (dim).
 * @return 0, EMB_EEMPTY (k = 0), EMB_ENOSOL (the eigenvectors did not
 * converge), EMB_EZERO (the differences are all zero) or EMB_ENOMEM.
 */
int emb_pairdir(const double *D, size_t k, size_t dim, double *u);

/* ---- end of association tests ---- */

/* ---- paired comparisons ---- */

/*
 * emb_mcnemar - the exact McNemar test of two classifiers on the same
 * items: b items only the first gets right, c only the second.
 * @return the two-sided p-value min(1, 2 P(X <= min(b, c))), X ~
 * Binomial(b + c, 1/2) (scipy.stats.binomtest(b, b + c).pvalue); 1 when
 * b = c.
 */
double emb_mcnemar(uint64_t b, uint64_t c);

/* emb_student_sf - P(T > t) for Student's t with df degrees of freedom. */
double emb_student_sf(double t, double df);

/*
 * emb_williams - Williams' test (Steiger 1980, eq. 11) that two
 * correlations sharing a variable are equal: r12 (first score against
 * gold), r13 (second against gold), r23 (the two scores), n items.
 * t = (r12 - r13) sqrt((n-1)(1+r23) / (2 (n-1)/(n-3) |R| + rbar^2
 * (1-r23)^3)), |R| = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23, rbar =
 * (r12 + r13)/2, Student's t with n - 3 degrees of freedom.  It assumes
 * normally distributed scores (Pearson's coefficients).
 * @return 0, *t and the two-sided *p; EMB_EINVAL for n < 4, |r23| = 1 or
 * a degenerate matrix.
 */
int emb_williams(double r12, double r13, double r23, size_t n, double *t,
    double *p);

/* What emb_paired_clf finds; differences are first minus second. */
struct emb_paired_clf {
	size_t		 n;		/* items */
	double		 acc_a, acc_b, acc_diff;	/* accuracies */
	double		 acc_lo, acc_hi;	/* bootstrap interval of diff */
	uint64_t	 b, c;		/* only first right, only second */
	double		 mcnemar_p;	/* emb_mcnemar(b, c) */
	double		 f1_a, f1_b, f1_diff;	/* macro-F1, as emb_macro_f1 */
	double		 f1_lo, f1_hi;	/* bootstrap interval of f1_diff */
	double		 f1_p;		/* permutation p-value */
	size_t		 discordant;	/* items the two predict differently */
	uint64_t	 perms;		/* permutations counted */
	int		 exact;		/* all 2^discordant of them */
	uint64_t	 resamples;	/* bootstrap samples */
};

/*
 * emb_paired_clf - two classifiers' predictions pa, pb of the same n
 * items with true classes truth (all in [0, ncls)), compared.
 *
 * Accuracy: the exact McNemar test.  Macro-F1: a paired permutation test;
 * each item where pa and pb differ has its two predictions swapped or not;
 * when 2^m <= nres (m such items) all 2^m assignments are counted (an
 * exact test: p = the share whose |difference| >= the observed one, up to
 * 1e-12 relative), else nres random ones, the discordant items in input
 * order, swapped when the top bit of emb_rng_next (seeded with seed) is
 * set, p = (1 + hits) / (1 + nres).  Intervals: the percentile bootstrap
 * at level (e.g. 0.95): nres samples, each n draws emb_rng_below(n) on a
 * generator seeded with seed + 1; sorted differences d, k = floor((1 -
 * level) / 2 nres), the interval [d_k, d_(nres-1-k)] (0-based).
 * @return 0, EMB_EINVAL (a class out of range, n = 0, nres < 1, level
 * outside (0, 1)) or EMB_ENOMEM.
 */
int emb_paired_clf(const int *truth, const int *pa, const int *pb,
    size_t n, int ncls, long nres, double level, uint64_t seed,
    struct emb_paired_clf *r);

/* The correlation figures emb_paired_corr compares. */
enum {
	EMB_CORR_PEARSON,		/* over all items pooled */
	EMB_CORR_SPEARMAN,
	EMB_CORR_PEARSON_MEAN,		/* mean over subsets */
	EMB_CORR_SPEARMAN_MEAN,
	EMB_CORR_PEARSON_WMEAN,		/* weighted by subset size */
	EMB_CORR_SPEARMAN_WMEAN,
	EMB_CORR_NFIG
};

struct emb_paired_corr {
	size_t		 n;		/* items */
	double		 a[EMB_CORR_NFIG], b[EMB_CORR_NFIG];	/* figures */
	double		 diff[EMB_CORR_NFIG];	/* a - b */
	double		 lo[EMB_CORR_NFIG], hi[EMB_CORR_NFIG];	/* interval */
	double		 p[EMB_CORR_NFIG];	/* bootstrap p-value */
	size_t		 valid[EMB_CORR_NFIG];	/* samples where defined */
	uint64_t	 resamples;
};

/*
 * emb_paired_corr - two similarity scores sa, sb of the same n items
 * against gold, each item in subset sub[i] (0..nsub-1): every figure of
 * the enum above for both (a subset whose correlation is undefined is left
 * out of the means, as emb-eval's STS does; NAN where none is defined),
 * and the difference's percentile interval and p-value by a paired
 * bootstrap stratified by subset: nres samples, each drawing for each
 * subset in turn (0 first) as many of its items as it holds, emb_rng_below
 * of its size on a generator seeded with seed, indexing its items in
 * input order.  Spearman's coefficient of a sample is Pearson's of its
 * average ranks, repeated items counted as often as drawn.  A sample where
 * a figure is undefined is left out of that figure (valid counts the
 * rest).  p = (1 + #{|d* - d| >= |d|}) / (1 + valid): the bootstrap
 * distribution shifted to the null (Efron and Tibshirani 1993, 16.4).
 * The interval is taken as emb_paired_clf's.  The samples are scored on
 * nthreads threads; the figures are the same for every count.
 * @return 0, EMB_EINVAL or EMB_ENOMEM.
 */
int emb_paired_corr(const double *gold, const double *sa, const double *sb,
    const int *sub, size_t n, int nsub, long nres, double level,
    uint64_t seed, int nthreads, struct emb_paired_corr *r);

/* ---- end of paired comparisons ---- */

#endif /* EMB_FLOOR_EVAL_H */
