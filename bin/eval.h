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
 * bli - bilingual lexicon induction: P@1, 5, 10 of the mapped source
 * stream mpath against the target tpath for the word pairs of dpath, by
 * cosine and by CSLS over ck neighbours; the 10 target words of each
 * query to pred (--predictions) unless NULL.
 */
void	 bli(const char *mpath, const char *tpath, const char *dpath,
    unsigned wf, unsigned ck, unsigned nthreads, FILE *pred);

#endif /* EVAL_H */
