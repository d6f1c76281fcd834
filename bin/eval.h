/*
 * eval.h - what emb-eval's classification (emb-eval.c) and its
 * correlation tasks (eval-corr.c: STS, word similarity) share.
 */
#ifndef EVAL_H
#define EVAL_H

#include "util.h"

/*
 * Whole ungrouped streams in memory (struct flat, util.h): what a
 * classifier needs.  Key of row i:
 */
#define KEY(D, i)	((D)->keys.p + (D)->keyoff[i])

/* A stream of vector records only: the message for a group record. */
#define GROUPED	"group record: emb-eval reads composed streams (pass it " \
		"through emb-ose or emb-bov first)"

extern const char *task;	/* -T: the first column of every line */
extern int	 verbose;	/* -v */

/* One line "task<TAB>clf<TAB>metric<TAB>value" on stdout. */
void	 out(const char *clf, const char *metric, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Field f (1-based) of record i's key as a new string; exit if missing. */
char	*field(const struct flat *D, size_t i, unsigned f);

/*
 * sts - the cosine of each aligned pair of the streams apath and bpath
 * against the gold scores, per subset (key field subf) and pooled.
 * wordsim - word-pair similarities against a word-keyed stream.
 */
void	 sts(const char *apath, const char *bpath, const char *goldpath,
    unsigned idf, unsigned subf);
void	 wordsim(const char *streampath, const char *pairspath, unsigned wf,
    size_t nvocab, int caseful);

/*
 * Two representations of the same items (--versus, eval-paired.c): their
 * names (--names), the task column of each one's figures and of the
 * comparison, the resamples, the interval's level and the seed.
 */
extern const char *versus, *versus2, *vnames[2], *taskv[3];
extern long	 nres;
extern int	 protocol;	/* --protocol */
extern const char *protonote;	/* --protocol-note */
extern double	 level;
extern uint64_t	 resseed;
extern int	 pairthreads;	/* -j, for the bootstrap of correlations */

/* Rows of D's first n that are zero vectors. */
size_t	 zerocount(const struct flat *D, size_t n);

/* The mean of v[0..n-1]. */
double	 meanof(const double *v, int n);

/* The figures of an MLP over ns seeds from seed0: spread and vote. */
void	 reportseeds(const char *clf, uint64_t seed0, const double *acc,
    const double *f1, const double *l2, int ns, double vacc, double vf1);

/* Predictions pa, pb of the same n test rows (true classes truth). */
void	 comparepred(const char *clf, const int *truth, const int *pa,
    const int *pb, size_t n, int ncls);

/*
 * Similarities sa, sb of the same n scored items against gold, in
 * subsets sub (0..nsub-1); pooledonly: word similarity's two figures.
 */
void	 comparecorr(const double *gold, const double *sa, const double *sb,
    const int *sub, size_t n, int nsub, int pooledonly);

/*
 * bli - bilingual lexicon induction: P@1, 5, 10 of the mapped source
 * stream mpath against the target tpath for the word pairs of dpath, by
 * cosine and by CSLS over ck neighbours; the 10 target words of each
 * query to pred (--predictions) unless NULL.
 */
void	 bli(const char *mpath, const char *tpath, const char *dpath,
    unsigned wf, unsigned ck, unsigned nthreads, FILE *pred);

#endif /* EVAL_H */
