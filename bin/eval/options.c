/*
 * options.c - emb-eval's options: the table, and each option into the
 * context of the run (struct eval) or the task's arguments (struct args).
 */
#include <err.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../opt.h"
#include "eval.h"

/*
 * The long-only options: the numeric ones share OPT_NUM (setnum finds
 * each by its name), the others have a code each.
 */
enum { OPT_NUM = 256, OPT_SHRINK, OPT_PRED, OPT_CSLS, OPT_VERSUS, OPT_VERSUS2,
    OPT_NAMES, OPT_PROTO, OPT_PNOTE, OPT_PERQ };

static const struct opt opts[] = {
	{ 'c', "classifiers", "list", "comma-separated: knn, centroid, lda, "
	    "ridge, logreg, mlp or all",
	    OPT_LIST "knn centroid lda ridge logreg mlp all" },
	{ 'f', "word-field", "field", "with -w: the word's key field "
	    "(default 1)", NULL },
	{ 'g', "gold", "gold", "with -p: the STS gold scores", OPT_FILE },
	{ 'I', "case-sensitive", NULL, "with -w: compare words as they are",
	    NULL },
	{ 'i', "id-field", "field", "with -p: check the pairs' alignment on "
	    "this key field; with -r: the ids' field (default 1)", NULL },
	OPT_THREADS,
	{ 'k', "folds", "folds", "cross-validation folds (default 5)", NULL },
	{ 'K', "cutoffs", "list", "with -r: the cutoffs of the figures, "
	    "comma-separated (default 1,10,100)", NULL },
	{ 'L', "lexicon", "dict", "bilingual lexicon induction: the test "
	    "dictionary, source TAB target", OPT_FILE },
	{ 'l', "label-field", "field", "the label's key field (default 1)",
	    NULL },
	{ 'n', "limit", "count", "with -w: the first count words only "
	    "(default 300000)", NULL },
	{ 'p', "second", "second", "STS: the stream of second sentences",
	    OPT_FILE },
	{ 'R', "target", "target", "with -L: the target space's stream",
	    OPT_FILE },
	{ 'r', "qrels", "qrels", "retrieval: the relevance judgments, TREC's "
	    "qrels", OPT_FILE },
	{ 's', "split-field", "field", "one stream, its split (train, dev, "
	    "test) in this key field", NULL },
	{ 'T', "task", "task", "the task name printed first on every line",
	    NULL },
	{ 't', "test", "test", "the test stream", OPT_FILE },
	{ 'u', "subset-field", "field", "with -p: the STS subset's key field",
	    NULL },
	{ 'w', "pairs", "pairs", "word similarity: the scored word pairs",
	    OPT_FILE },
	OPT_QUIET("only errors and warnings on standard error (default)"),
	OPT_VERBOSE("a summary, and the progress even off a terminal"),
	{ OPT_NUM, "neighbours", "k", "knn: neighbours (default 5)", NULL },
	{ OPT_NUM, "alpha", "a", "ridge: the penalty", NULL },
	{ OPT_SHRINK, "shrinkage", "s", "lda: a shrinkage in [0, 1], auto or "
	    "none", "auto none" },
	{ OPT_NUM, "C", "c", "logreg: the inverse penalty", NULL },
	{ OPT_NUM, "max-iter", "n", "logreg: iterations at most", NULL },
	{ OPT_NUM, "tol", "t", "logreg: the tolerance", NULL },
	{ OPT_NUM, "nhid", "h", "mlp: hidden units (0: none)", NULL },
	{ OPT_NUM, "l2", "w", "mlp: the weight decay (else searched)", NULL },
	{ OPT_NUM, "dropout", "p", "mlp: the dropout", NULL },
	{ OPT_NUM, "batch", "b", "mlp: rows per batch", NULL },
	{ OPT_NUM, "tenacity", "t", "mlp: epochs without progress before it "
	    "stops", NULL },
	{ OPT_NUM, "epoch-size", "e", "mlp: passes per epoch", NULL },
	{ OPT_NUM, "max-epoch", "n", "mlp: epochs at most", NULL },
	{ OPT_NUM, "inner-folds", "k", "mlp: folds of the weight decay search",
	    NULL },
	{ OPT_NUM, "dev-share", "p", "mlp: the share of a training set kept "
	    "for its search", NULL },
	{ OPT_NUM, "seed", "n", "the seed of the folds and the MLP "
	    "(default 1111)", NULL },
	{ OPT_PRED, "predictions", "file", "write every prediction to file",
	    OPT_FILE },
	{ OPT_CSLS, "csls-k", "n", "with -L: CSLS's neighbours (default 10)",
	    NULL },
	{ OPT_PERQ, "per-query", "file", "with -r: write each query's figures "
	    "to file", OPT_FILE },
	{ OPT_VERSUS, "versus", "other", "compare a second representation of "
	    "the same items", OPT_FILE },
	{ OPT_VERSUS2, "versus-second", "file", "with --versus: the second's "
	    "stream for -t or -p", OPT_FILE },
	{ OPT_NAMES, "names", "first,second", "with --versus: the two names "
	    "(default a,b)", NULL },
	{ OPT_NUM, "resamples", "n", "bootstrap samples and permutations "
	    "(default 2000)", NULL },
	{ OPT_NUM, "level", "p", "the intervals' level (default 0.95)", NULL },
	{ OPT_NUM, "seeds", "n", "mlp: run over n seeds from --seed", NULL },
	{ OPT_PROTO, "protocol", NULL, "a protocol line beside the figures",
	    NULL },
	{ OPT_PNOTE, "protocol-note", "note", "append note to the protocol "
	    "line", NULL },
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-eval",
	    "usage: emb-eval [-v] [-c list] [-j threads] [-k folds] "
	    "[-l field] [-s field]\n"
	    "                [-T task] [-t test] [--name=value ...] [train]\n"
	    "       emb-eval -p second -g gold [-v] [-i field] [-T task] "
	    "[-u field] [first]\n"
	    "       emb-eval -w pairs [-Iv] [-f field] [-n count] [-T task] "
	    "[words]\n"
	    "       emb-eval -L dict -R target [-v] [-f field] [-j threads] "
	    "[-T task]\n"
	    "                [--csls-k n] [mapped]\n"
	    "       emb-eval -r qrels [-v] [-i field] [-j threads] [-K list] "
	    "[-T task]\n"
	    "                [--per-query file] corpus [queries]\n", opts };

/* -c: a comma-separated list of classifier names, or "all". */
static void
parseclfs(const char *arg, int *use)
{
	char *s = xstrdup(arg), *tok, *save = NULL;
	int any = 0;

	memset(use, 0, NCLF * sizeof(*use));
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",",
	    &save)) {
		size_t i;

		if (strcmp(tok, "all") == 0) {
			for (i = 0; i < NCLF; i++)
				use[i] = 1;
			any = 1;
			continue;
		}
		for (i = 0; i < NCLF; i++)
			if (strcmp(tok, clfnames[i].name) == 0)
				break;
		if (i == NCLF) {
			char q[EMB_QUOTE_BUF];

			warnx("-c: unknown classifier '%s' (knn, centroid, "
			    "lda, ridge, logreg, mlp, all)", emb_quotes(q, tok));
			exit(2);
		}
		use[i] = 1;
		any = 1;
	}
	free(s);
	if (!any) {
		warnx("-c: no classifier named");
		exit(2);
	}
}

/* -K: ranks from 1 to MAXCUT, comma-separated, into a ascending, once. */
static void
parsecuts(const char *arg, struct args *a)
{
	char *s = xstrdup(arg), *tok, *save = NULL;

	a->ncut = 0;
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",",
	    &save)) {
		unsigned k = (unsigned)parsenum(tok, 1, MAXCUT, "-K");
		int i = a->ncut;

		while (i > 0 && a->cut[i - 1] > k)
			i--;
		if (i > 0 && a->cut[i - 1] == k)
			continue;
		if (a->ncut == MAXCUTS) {
			warnx("-K: more than %d ranks", MAXCUTS);
			exit(2);
		}
		memmove(a->cut + i + 1, a->cut + i, (size_t)(a->ncut - i) *
		    sizeof(a->cut[0]));
		a->cut[i] = k;
		a->ncut++;
	}
	free(s);
	if (a->ncut == 0) {
		warnx("-K: no rank named");
		exit(2);
	}
}

/*
 * The numeric long options: the field of the context each sets (at its
 * offset in struct eval) and its range.  All share one case of the
 * getopt loop.
 */
#define EV(f)	offsetof(struct eval, f)
static const struct numopt {
	const char	*name;
	int		 isint;		/* parsenum (2: a long), else parsedbl */
	double		 min, max;
	size_t		 off;		/* int or double; the seed a uint64_t */
} numopts[] = {
	{ "neighbours",	1, 1, 100000,	EV(base.k) },
	{ "alpha",	0, 0, 1e300,	EV(base.alpha) },
	{ "C",		0, 1e-300, 1e300, EV(base.C) },
	{ "max-iter",	1, 1, 1000000,	EV(base.maxiter) },
	{ "tol",	0, 0, 1,	EV(base.tol) },
	{ "nhid",	1, 0, 100000,	EV(base.nhid) },
	{ "l2",		0, 0, 1e6,	EV(base.l2) },
	{ "dropout",	0, 0, 0.99,	EV(base.dropout) },
	{ "batch",	1, 1, 1000000,	EV(base.batch) },
	{ "tenacity",	1, 0, 100000,	EV(base.tenacity) },
	{ "epoch-size",	1, 1, 100000,	EV(base.epoch_size) },
	{ "max-epoch",	1, 0, 1000000,	EV(base.max_epoch) },
	{ "seed",	1, 0, 9.2e18,	EV(base.seed) },
	{ "inner-folds", 1, 2, MAXFOLDS, EV(innerk) },
	{ "dev-share",	0, 0, 0.9,	EV(devshare) },
	{ "seeds",	1, 1, 1000,	EV(nseeds) },
	{ "resamples",	2, 1, 1e8,	EV(nres) },
	{ "level",	0, 0.5, 0.9999,	EV(level) },
};

static void
setnum(struct eval *E, const char *name, const char *arg)
{
	char opt[64];

	snprintf(opt, sizeof(opt), "--%s", name);
	for (size_t i = 0; i < sizeof(numopts) / sizeof(numopts[0]); i++) {
		const struct numopt *n = &numopts[i];
		void *dst = (char *)E + n->off;

		if (strcmp(n->name, name) != 0)
			continue;
		if (n->off == EV(base.seed))
			E->base.seed = (uint64_t)parsenum(arg, 0, LLONG_MAX,
			    opt);
		else if (n->isint == 2)
			*(long *)dst = (long)parsenum(arg, (long long)n->min,
			    (long long)n->max, opt);
		else if (n->isint)
			*(int *)dst = (int)parsenum(arg, (long long)n->min,
			    (long long)n->max, opt);
		else
			*(double *)dst = parsedbl(arg, n->min, n->max, opt);
		if (n->off == EV(base.l2))
			E->l2fixed = 1;
		return;
	}
}
#undef EV

/*
 * --versus: the second representation's streams, one for each of the
 * first's (the operand in, and -t or -p), never standard input twice;
 * the names of the two (--names first,second, default a,b).
 */
void
checkversus(struct eval *E, struct args *a, const char *in)
{
	const char *two = a->test ? a->test : a->second, *c;
	const char *names = a->names;

	if (E->versus != NULL && a->qrels != NULL) {
		warnx("--versus: not with -r");
		exit(2);
	}
	if (E->versus == NULL) {
		if (E->versus2 != NULL || names != NULL) {
			warnx("%s: without --versus", E->versus2 ?
			    "--versus-second" : "--names");
			exit(2);
		}
		return;
	}
	if ((two != NULL) != (E->versus2 != NULL)) {
		warnx(two ? "--versus: %s needs --versus-second" :
		    "--versus-second: %s has no second stream", a->test ?
		    "-t" : a->second ? "-p" : "this mode");
		exit(2);
	}
	{
		const char *ins[] = { in, a->test, a->second, a->gold,
		    a->pairs, E->versus, E->versus2 };
		int nstd = 0;

		for (size_t i = 0; i < sizeof(ins) / sizeof(ins[0]); i++)
			nstd += ins[i] != NULL && strcmp(ins[i], "-") == 0;
		if (nstd > 1) {
			warnx("--versus: standard input can be read once");
			exit(2);
		}
		if ((a->gold != NULL && strcmp(a->gold, "-") == 0) ||
		    (a->pairs != NULL && strcmp(a->pairs, "-") == 0)) {
			warnx("--versus: %s is read twice: not standard "
			    "input", a->gold ? "-g" : "-w");
			exit(2);
		}
	}
	E->vnames[0] = "a";
	E->vnames[1] = "b";
	if (names != NULL) {
		if ((c = strchr(names, ',')) == NULL || c == names ||
		    c[1] == '\0' || strchr(c + 1, ',') != NULL ||
		    (size_t)(c - names) >= sizeof(a->nbuf[0]) ||
		    strlen(c + 1) >= sizeof(a->nbuf[1]) ||
		    strpbrk(names, "\t\n/") != NULL) {
			warnx("--names: expected two names 'first,second' "
			    "(no tab, newline or slash)");
			exit(2);
		}
		memcpy(a->nbuf[0], names, (size_t)(c - names));
		a->nbuf[0][c - names] = '\0';
		snprintf(a->nbuf[1], sizeof(a->nbuf[1]), "%s", c + 1);
		E->vnames[0] = a->nbuf[0];
		E->vnames[1] = a->nbuf[1];
	}
}

/* --shrinkage: auto, none or a number in [0, 1]. */
static double
parseshrink(const char *arg)
{
	if (strcmp(arg, "auto") == 0)
		return EMB_SHRINK_AUTO;
	if (strcmp(arg, "none") == 0)
		return EMB_SHRINK_NONE;
	return parsedbl(arg, 0, 1, "--shrinkage");
}

/*
 * The long-only option ch (opts[li]) into a or the context E; any other
 * is a misuse.
 */
static void
longopt(struct eval *E, struct args *a, int ch, int li)
{
	switch (ch) {
	case OPT_CSLS:
		a->cslsk = (unsigned)parsenum(optarg, 1, 100000, "--csls-k");
		break;
	case OPT_NUM:
		setnum(E, opts[li].name, optarg);
		break;
	case OPT_SHRINK:
		E->base.shrinkage = parseshrink(optarg);
		break;
	case OPT_PRED:
		a->predpath = optarg;
		break;
	case OPT_PERQ:
		a->perqpath = optarg;
		break;
	case OPT_VERSUS:
		E->versus = optarg;
		break;
	case OPT_VERSUS2:
		E->versus2 = optarg;
		break;
	case OPT_NAMES:
		a->names = optarg;
		break;
	case OPT_PROTO:
		E->protocol = 1;
		break;
	case OPT_PNOTE:
		E->protocol = 1;
		E->protonote = optarg;
		break;
	default:
		usage();
	}
}

/* The options into a and E; @return the operands' index in argv. */
static int
parse(struct eval *E, struct args *a, int argc, char *argv[])
{
	int ch, li = 0;

	while ((ch = optget(argc, argv, &prog, &li)) != -1) {
		switch (ch) {
		case 'c':
			parseclfs(optarg, a->use);
			break;
		case 'f':
			a->wf = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-f");
			break;
		case 'g':
			a->gold = optarg;
			break;
		case 'I':
			a->caseful = 1;
			break;
		case 'i':
			a->idf = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-i");
			break;
		case 'j':
			E->base.threads = (int)parsenum(optarg, 1,
			    EMB_MAXTHREADS, "-j");
			break;
		case 'k':
			a->kfold = (int)parsenum(optarg, 2, MAXFOLDS, "-k");
			break;
		case 'K':
			parsecuts(optarg, a);
			break;
		case 'L':
			a->lexicon = optarg;
			break;
		case 'R':
			a->target = optarg;
			break;
		case 'r':
			a->qrels = optarg;
			break;
		case 'l':
			a->labf = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-l");
			break;
		case 'n':
			a->nvocab = (size_t)parsenum(optarg, 1, LLONG_MAX,
			    "-n");
			break;
		case 'p':
			a->second = optarg;
			break;
		case 's':
			a->splitf = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-s");
			break;
		case 'T':
			E->task = optarg;
			break;
		case 't':
			a->test = optarg;
			break;
		case 'u':
			a->subf = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-u");
			break;
		case 'q':
			E->verbose = 0;
			progmode = PROG_OFF;
			break;
		case 'v':
			E->verbose = 1;
			progmode = PROG_ON;
			break;
		case 'w':
			a->pairs = optarg;
			break;
		default:
			longopt(E, a, ch, li);
		}
	}
	return optind;
}

/* Is path standard input ("-", or NULL: an operand not given)? */
static int
isstdin(const char *path)
{
	return path == NULL || strcmp(path, "-") == 0;
}

/*
 * Retrieval's misuses: -r with another mode, its options without it, its
 * operands (corpus, then queries: one or two), standard input twice.
 */
static void
retrmisuses(const struct args *a, int argc, char *argv[])
{
	if (a->qrels == NULL) {
		if (a->ncut > 0 || a->perqpath != NULL)
			misuse("%s goes with -r only", a->ncut > 0 ? "-K" :
			    "--per-query");
		return;
	}
	if (a->second != NULL || a->gold != NULL || a->pairs != NULL ||
	    a->test != NULL || a->splitf != 0 || a->lexicon != NULL ||
	    a->target != NULL || a->subf != 0)
		misuse("-r takes no -p, -g, -w, -t, -s, -u, -L or -R");
	if (a->perqpath != NULL && a->predpath != NULL &&
	    strcmp(a->perqpath, a->predpath) == 0)
		misuse("--per-query and --predictions name one file");
	if (argc == 0)
		misuse("-r needs the corpus: emb-eval -r qrels corpus "
		    "[queries]");
	if (argc > 2)
		misuse("-r: two input files at most, the corpus and the "
		    "queries");
	if (isstdin(argv[0]) && isstdin(argc > 1 ? argv[1] : NULL)) {
		warnx("-r: standard input cannot be both the corpus and the "
		    "queries");
		exit(2);
	}
	if (strcmp(a->qrels, "-") == 0 && (isstdin(argv[0]) ||
	    isstdin(argc > 1 ? argv[1] : NULL))) {
		warnx("-r: standard input cannot be both the qrels and a "
		    "stream");
		exit(2);
	}
}

/* The misuses of the options a and the operands (argc of argv). */
static void
misuses(const struct args *a, int argc, char *argv[])
{
	int split = a->splitf != 0;

	retrmisuses(a, argc, argv);
	if (argc > 1 && a->qrels == NULL)
		misuse("one input file at most");
	if (a->second != NULL && a->gold == NULL)
		misuse("-p needs -g gold, the STS gold scores");
	if (a->second == NULL && a->gold != NULL)
		misuse("-g goes with -p only");
	if (a->second != NULL && (a->pairs != NULL || a->test != NULL ||
	    split))
		misuse("-p takes no -w, -t or -s");
	if (a->pairs != NULL && (a->test != NULL || split))
		misuse("-w takes no -t or -s");
	if (a->test != NULL && split)
		misuse("-t and -s exclude each other");
	if (a->lexicon != NULL && a->target == NULL)
		misuse("-L needs -R target, the space mapped onto");
	if (a->lexicon == NULL && a->target != NULL)
		misuse("-R goes with -L only");
	if (a->lexicon != NULL && (a->second != NULL || a->pairs != NULL ||
	    a->test != NULL || split))
		misuse("-L takes no -p, -w, -t or -s");
	/* Standard input can be read once. */
	if ((argc == 0 || strcmp(argv[0], "-") == 0) &&
	    ((a->test != NULL && strcmp(a->test, "-") == 0) ||
	    (a->second != NULL && strcmp(a->second, "-") == 0))) {
		warnx("%s: standard input cannot be both streams",
		    a->test != NULL ? "-t" : "-p");
		exit(2);
	}
}

int
options(struct eval *E, struct args *a, int argc, char *argv[])
{
	int n;

	memset(E, 0, sizeof(*E));
	memset(a, 0, sizeof(*a));
	emb_clf_defaults(&E->base, EMB_CLF_KNN);
	E->base.threads = emb_ncpu();
	E->nseeds = 1;
	E->nres = 2000;
	E->level = 0.95;
	a->cslsk = 10;
	a->labf = a->wf = 1;
	a->kfold = 5;
	for (size_t i = 0; i < NCLF; i++)
		a->use[i] = clfnames[i].kind != EMB_CLF_MLP;
	a->nvocab = 300000;
	n = parse(E, a, argc, argv);
	misuses(a, argc - n, argv + n);
	if (a->ncut == 0) {
		static const unsigned defcut[] = { 1, 10, 100 };

		a->ncut = 3;
		memcpy(a->cut, defcut, sizeof(defcut));
	}
	return n;
}

/* The task's default name: the input's base name without extension. */
static const char *
taskname(const char *path, char *buf, size_t sz)
{
	const char *b;
	char *dot;

	if (path == NULL || strcmp(path, "-") == 0)
		return "stdin";
	b = strrchr(path, '/');
	snprintf(buf, sz, "%s", b ? b + 1 : path);
	if ((dot = strchr(buf, '.')) != NULL && dot != buf)
		*dot = '\0';
	return buf;
}

void
tasknames(struct eval *E, struct args *a, const char *in)
{
	if (E->task == NULL)
		E->task = taskname(in, a->tbuf, sizeof(a->tbuf));
	if (E->versus == NULL)
		return;
	snprintf(a->vtask[0], sizeof(a->vtask[0]), "%s/%s", E->task,
	    E->vnames[0]);
	snprintf(a->vtask[1], sizeof(a->vtask[1]), "%s/%s", E->task,
	    E->vnames[1]);
	E->taskv[0] = a->vtask[0];
	E->taskv[1] = a->vtask[1];
	E->taskv[2] = E->task;
}
