/*
 * eval.h - what the parts of emb-eval share: the context of a run, the
 * lines it prints, and each evaluation's entry.
 *
 *   options.c    the options into the context
 *   output.c     the figures' lines
 *   rows.c       classification: the rows, their classes and parts
 *   fit.c        classification: one classifier, fold by fold
 *   classify.c   classification: over seeds, --versus, the figures
 *   corr.c       STS and word similarity
 *   bli.c        bilingual lexicon induction
 *   qrels.c      retrieval: the relevance judgments (qrels)
 *   retrieval.c  retrieval: the ranking and its figures
 *   paired.c     the spread over seeds, two representations compared
 *
 * Only emb-eval links them (bin/emb-eval.c holds its main).
 */
#ifndef EVAL_H
#define EVAL_H

#include <stdio.h>

#include "../util.h"

/*
 * Whole ungrouped streams in memory (struct flat, util.h): what a
 * classifier needs.  Key of row i:
 */
#define KEY(D, i)	((D)->keys.p + (D)->keyoff[i])

/* A stream of vector records only: the message for a group record. */
#define GROUPED	"group record: emb-eval reads composed streams (pass it " \
		"through emb-ose or emb-bov first)"

#define MAXFOLDS 1000	/* -k, --inner-folds at most */
#define MAXCUTS	32	/* -K: cutoffs at most */
#define MAXCUT	1000000	/* -K: the largest cutoff */

/* A classifier as named on the command line (-c), in the order run. */
struct clfname {
	const char	*name;
	enum emb_clf_kind kind;
};
#define NCLF	6
extern const struct clfname clfnames[NCLF];

/*
 * The context of a run: what the options set, read only once they are
 * read, and passed to every part.  The task column is the one field that
 * differs between the parts of a comparison: evalside() gives each its
 * own copy.
 */
struct eval {
	const char	*task;		/* -T: the first column of every line */
	int		 verbose;	/* -v */
	int		 protocol;	/* --protocol */
	const char	*protonote;	/* --protocol-note, or NULL */
	FILE		*predfp;	/* --predictions, or NULL */
	FILE		*perqfp;	/* --per-query, or NULL */
	/* Classification. */
	struct emb_clf_opts base;	/* numeric options for every kind */
	int		 l2fixed;	/* --l2 given */
	int		 innerk;	/* --inner-folds, 0: same as -k */
	double		 devshare;	/* --dev-share */
	int		 nseeds;	/* --seeds */
	/*
	 * Two representations of the same items (--versus): the second's
	 * streams, their names (--names), the task column of each one's
	 * figures and of the comparison, the resamples and the interval's
	 * level.  The resampling seed is --seed (base.seed) and the
	 * bootstrap of correlations runs on -j threads (base.threads).
	 */
	const char	*versus;	/* --versus, or NULL */
	const char	*versus2;	/* --versus-second */
	const char	*vnames[2];
	const char	*taskv[3];	/* task/first, task/second, task */
	long		 nres;		/* --resamples */
	double		 level;		/* --level */
};

/* The options that choose and feed a task, besides the context. */
struct args {
	const char	*test, *second, *gold, *pairs;	/* -t -p -g -w */
	const char	*lexicon, *target, *names;	/* -L -R --names */
	const char	*predpath;			/* --predictions */
	const char	*qrels, *perqpath;		/* -r --per-query */
	unsigned	 cut[MAXCUTS];			/* -K, ascending */
	int		 ncut;
	unsigned	 cslsk;				/* --csls-k */
	unsigned	 labf, splitf, idf, subf, wf;	/* -l -s -i -u -f */
	int		 kfold, caseful;		/* -k -I */
	int		 use[NCLF];			/* -c */
	size_t		 nvocab;			/* -n */
	char		 nbuf[2][256];			/* --names' two */
	char		 tbuf[256], vtask[2][600];	/* the task names */
};

/*
 * The options of argv into E and a (both set to their defaults first),
 * and their misuses refused: @return the operands' index in argv.
 */
int	 options(struct eval *E, struct args *a, int argc, char *argv[]);
/*
 * --versus: the second representation's streams checked against the
 * first's (in: the operand) and the names set.
 */
void	 checkversus(struct eval *E, struct args *a, const char *in);
/* The task column: -T or the operand in's name, and --versus' three. */
void	 tasknames(struct eval *E, struct args *a, const char *in);

/* One line "task<TAB>clf<TAB>metric<TAB>value" on stdout. */
void	 out(const struct eval *E, const char *clf, const char *metric,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* E with the task column of representation i (0, 1; 2: the comparison). */
struct eval evalside(const struct eval *E, int i);

/*
 * A stream's words or ids: key field wf of its records, indexed
 * (output.c).  windex: every record of D has the field (exit 1
 * otherwise); the first record of a word stands for it, or, unique, a
 * word twice exits 1.  wkey: record i's word, the index's key.
 */
struct words {
	const struct flat *D;
	unsigned	 wf;
	struct emb_index ix;
};
void	 windex(struct words *W, const struct flat *D, unsigned wf,
    int unique);
const char	*wkey(const void *ctx, size_t i, size_t *len);

/* Field f (1-based) of record i's key as a new string; exit if missing. */
char	*field(const struct flat *D, size_t i, unsigned f);

/*
 * classify - the classifiers of use on the training stream trainpath
 * and the test one (testpath, or none: by the split field splitf, else
 * kfold folds), the labels in key field labf.
 */
void	 classify(const struct eval *E, const char *trainpath,
    const char *testpath, unsigned labf, unsigned splitf, int kfold,
    const int *use);

/*
 * sts - the cosine of each aligned pair of the streams apath and bpath
 * against the gold scores, per subset (key field subf) and pooled.
 * wordsim - word-pair similarities against a word-keyed stream.
 */
void	 sts(const struct eval *E, const char *apath, const char *bpath,
    const char *goldpath, unsigned idf, unsigned subf);
void	 wordsim(const struct eval *E, const char *streampath,
    const char *pairspath, unsigned wf, size_t nvocab, int caseful);

/* Rows of D's first n that are zero vectors. */
size_t	 zerocount(const struct flat *D, size_t n);

/* The mean of v[0..n-1]. */
double	 meanof(const double *v, int n);

/* The figures of an MLP over ns seeds from seed0: spread and vote. */
void	 reportseeds(const struct eval *E, const char *clf, uint64_t seed0,
    const double *acc, const double *f1, const double *l2, int ns,
    double vacc, double vf1);

/* Predictions pa, pb of the same n test rows (true classes truth). */
void	 comparepred(const struct eval *E, const char *clf, const int *truth,
    const int *pa, const int *pb, size_t n, int ncls);

/*
 * Similarities sa, sb of the same n scored items against gold, in
 * subsets sub (0..nsub-1); pooledonly: word similarity's two figures.
 */
void	 comparecorr(const struct eval *E, const double *gold,
    const double *sa, const double *sb, const int *sub, size_t n, int nsub,
    int pooledonly);

/*
 * bli - bilingual lexicon induction: P@1, 5, 10 of the mapped source
 * stream mpath against the target tpath for the word pairs of dpath, by
 * cosine and by CSLS over ck neighbours; the 10 target words of each
 * query to E->predfp (--predictions) unless NULL.
 */
void	 bli(const struct eval *E, const char *mpath, const char *tpath,
    const char *dpath, unsigned wf, unsigned ck);

/*
 * Relevance judgments in TREC's qrels format (qrels.c): the distinct
 * query and document ids of the file (escaped as key fields, in the order
 * of their first lines) and each query's judgments, j[off[q] ..
 * off[q + 1]) in the order of their lines.
 */
struct qrels {
	const char	*name;
	int		 cols;		/* 4: query 0 doc grade; 3: query doc grade */
	struct strs	 qid, did;	/* the ids */
	unsigned long	*qline, *dline;	/* the first line of each */
	size_t		*off;		/* qid.n + 1 */
	uint32_t	*jdoc;		/* a judgment's document */
	int		*jgrade;	/* and its grade */
	size_t		 nj;		/* judgments */
};

/* The file path into R, or exit 1 naming the line that is wrong. */
void	 qrelsread(struct qrels *R, const char *path);
void	 qrelsfree(struct qrels *R);

/*
 * retrieval - the query stream qpath ranked against the corpus stream
 * cpath by cosine, scored against the judgments of qrels at the cutoffs
 * cut[0 .. ncut - 1] (ascending): recall, precision, MRR, MAP and nDCG
 * as trec_eval computes them, ids in key field idf; each query's figures
 * to E->perqfp and its ranking to E->predfp unless NULL.
 */
void	 retrieval(const struct eval *E, const char *cpath, const char *qpath,
    const char *qrels, unsigned idf, const unsigned *cut, int ncut);

#endif /* EVAL_H */
