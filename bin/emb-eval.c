/*
 * emb-eval - evaluate precomputed vectors as the paper does: classifiers
 * (kNN, nearest centroid, LDA, ridge, logistic regression, SentEval's MLP)
 * on labelled streams, STS correlations of sentence pairs, word
 * similarity against a word-keyed stream, bilingual lexicon induction,
 * and retrieval of a corpus by queries against relevance judgments.
 *
 * Every figure is one line "task<TAB>classifier<TAB>metric<TAB>value" on
 * stdout, for sort and awk; -v adds a human summary on stderr.  The
 * protocol (class order, folds, the MLP's regularization search) is
 * written out in emb-eval(1) precisely enough to redo a figure by hand.
 *
 * The parts are in bin/eval/ (eval.h says which file holds which); each
 * takes the context of the run, struct eval, which the options fill.
 */
#include <malloc.h>
#include <stdio.h>

#include "eval/eval.h"

int
main(int argc, char *argv[])
{
	struct eval E;
	struct args a;
	const char *in, *queries;
	int n;

	/*
	 * Keep freed blocks up to 32 MiB in the heap: the classifiers'
	 * buffers then reuse the pages the readers used, where fresh mappings
	 * would be faulted in page by page (a fault costs more than copying
	 * the page).
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	knnenv();
	n = options(&E, &a, argc, argv);
	argc -= n;
	argv += n;
	in = argc ? argv[0] : NULL;
	/* Retrieval: the corpus, then the queries (standard input). */
	queries = a.qrels == NULL ? NULL : argc > 1 ? argv[1] : "-";
	checkversus(&E, &a, in ? in : "-");
	{
		const char *ins[] = { in ? in : "-", a.test, a.second, a.gold,
		    a.pairs, a.lexicon, a.target, E.versus, E.versus2,
		    a.qrels, queries };
		size_t nin = sizeof(ins) / sizeof(ins[0]);

		/* Written whole or not at all, as every named output. */
		if (a.predpath != NULL)
			E.predfp = outopen(a.predpath, ins, nin, 0666);
		if (a.perqpath != NULL)
			E.perqfp = outopen(a.perqpath, ins, nin, 0666);
	}
	tasknames(&E, &a, in);
	if (a.qrels != NULL)
		retrieval(&E, in, queries, a.qrels, a.idf ? a.idf : 1, a.cut,
		    a.ncut);
	else if (a.lexicon != NULL)
		bli(&E, in, a.target, a.lexicon, a.wf, a.cslsk);
	else if (a.second != NULL)
		sts(&E, in, a.second, a.gold, a.idf, a.subf);
	else if (a.pairs != NULL)
		wordsim(&E, in, a.pairs, a.wf, a.nvocab, a.caseful);
	else
		classify(&E, in, a.test, a.labf, a.splitf, a.kfold, a.use);
	if (E.predfp != NULL)
		outcommit(E.predfp, a.predpath);
	if (E.perqfp != NULL)
		outcommit(E.perqfp, a.perqpath);
	fshut(stdout, "stdout");
	return 0;
}
