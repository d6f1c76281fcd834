/*
 * retrieval.c - emb-eval -r: each judged query of a query stream ranks
 * the documents of a corpus stream by cosine, exactly (the search of
 * emb-knn: 1 - cos of the float32 vectors rounded once to double, ties
 * to the earlier corpus record), and the ranking is scored against the
 * relevance judgments (qrels.c) at each cutoff k as trec_eval scores a
 * run cut at k: recall_k, P_k, the reciprocal rank of the first relevant
 * document within k, map_cut_k and ndcg_cut_k, each query's figure in
 * trec_eval's order of operations, then their mean over the queries.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../knn-cross.h"
#include "eval.h"

/* The figures, in the order printed. */
enum { RECALL, PREC, MRR, MAP, NDCG, NFIG };
static const char *const figname[NFIG] = {
	"recall", "P", "MRR", "MAP", "nDCG"
};

/* Hits searched at once, at most: the block of queries follows k. */
#define HITBUDGET	((size_t)1 << 22)

/* A run: the two streams, their ids, the judgments and how they meet. */
struct run {
	struct flat	 C, Q;		/* corpus and queries */
	struct words	 CI, QI;		/* their ids, each once */
	struct qrels	 R;
	int64_t		*drow;		/* R.did.n: a judged document's row */
	int64_t		*qent;		/* Q.n: a query row's judged query */
	size_t		*ev, nev;	/* the rows judged, in stream order */
	size_t		 uq, ud;	/* judged ids the streams lack */
	size_t		 uq1, ud1;	/* the first of each (entry + 1) */
};

/* Id e of S, quoted for a message. */
static const char *
idquote(char *q, const struct strs *S, size_t e)
{
	size_t len;
	const char *s = strskey(S, e, &len);

	return emb_quote(q, s, len);
}

/*
 * The judged ids in the streams: drow, qent and the queries judged; the
 * ids the streams lack, counted, in one line on standard error.
 */
static void
meet(struct run *U)
{
	struct qrels *R = &U->R;
	char msg[2][400], q[EMB_QUOTE_BUF];

	U->drow = xcalloc(R->did.n + 1, sizeof(*U->drow));
	for (size_t d = 0; d < R->did.n; d++) {
		size_t len;
		const char *s = strskey(&R->did, d, &len);

		if ((U->drow[d] = emb_index_find(&U->CI.ix, s, len)) < 0 &&
		    U->ud++ == 0)
			U->ud1 = d + 1;
	}
	U->qent = xcalloc(U->Q.n + 1, sizeof(*U->qent));
	for (size_t i = 0; i < U->Q.n; i++)
		U->qent[i] = -1;
	for (size_t e = 0; e < R->qid.n; e++) {
		size_t len;
		const char *s = strskey(&R->qid, e, &len);
		int64_t r = emb_index_find(&U->QI.ix, s, len);

		if (r >= 0)
			U->qent[r] = (int64_t)e;
		else if (U->uq++ == 0)
			U->uq1 = e + 1;
	}
	U->ev = xcalloc(U->Q.n + 1, sizeof(*U->ev));
	for (size_t i = 0; i < U->Q.n; i++)
		if (U->qent[i] >= 0)
			U->ev[U->nev++] = i;
	msg[0][0] = msg[1][0] = '\0';
	if (U->uq > 0)
		snprintf(msg[0], sizeof(msg[0]), "%zu query id%s not in %s "
		    "(the first '%s', line %lu): not scored", U->uq,
		    U->uq == 1 ? "" : "s", U->Q.name, idquote(q, &R->qid,
		    U->uq1 - 1), R->qline[U->uq1 - 1]);
	if (U->ud > 0)
		snprintf(msg[1], sizeof(msg[1]), "%zu document id%s not in %s "
		    "(the first '%s', line %lu): judged, never retrieved",
		    U->ud, U->ud == 1 ? "" : "s", U->C.name, idquote(q,
		    &R->did, U->ud1 - 1), R->dline[U->ud1 - 1]);
	if (U->uq > 0 || U->ud > 0) {
		progdone();
		warnx("%s: %s%s%s", R->name, msg[0], U->uq > 0 && U->ud > 0 ?
		    "; " : "", msg[1]);
	}
}

/* What scoring the queries needs beside the run. */
struct scorer {
	const unsigned	*cut;
	int		 ncut;
	size_t		*mark;		/* C.n: the query (+ 1) that judged a row */
	int		*grade;		/* C.n: and its grade */
	double		*gains;		/* the positive grades of a query */
	double		 sum[NFIG][MAXCUTS];
	size_t		 norel, zero;	/* queries without a relevant document,
					 * and with a zero vector */
};

static int
bygain(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/*
 * The ideal DCG of judged query e at each cutoff, its positive grades
 * largest first, each over log2(rank + 1), summed in that order as
 * trec_eval's ndcg_cut does; @return its relevant documents (a grade of
 * 1 or more), retrieved or not, in the streams or not.
 */
static size_t
ideal(struct scorer *S, const struct qrels *R, size_t e, double *idcg)
{
	size_t n = 0, i;
	double sum = 0;
	int c = 0;

	for (size_t j = R->off[e]; j < R->off[e + 1]; j++)
		if (R->jgrade[j] > 0)
			S->gains[n++] = R->jgrade[j];
	qsort(S->gains, n, sizeof(*S->gains), bygain);
	for (i = 0; i < n; i++) {
		while (c < S->ncut && S->cut[c] == i)
			idcg[c++] = sum;
		if (c == S->ncut)
			break;
		sum += S->gains[i] / log2((double)(i + 2));
	}
	while (c < S->ncut)
		idcg[c++] = sum;
	return n;
}

/*
 * The figures at cutoff k of a ranking whose first k hold rel relevant
 * documents, the first at rank first (0: none), the sum ap of the
 * precisions at each relevant rank and dcg, for a query of nrel
 * relevant documents and the ideal idcg: trec_eval's expressions.
 */
static void
figures(double *v, unsigned k, size_t rel, size_t first, double ap,
    double dcg, size_t nrel, double idcg)
{
	v[RECALL] = nrel ? (double)rel / (double)nrel : 0;
	v[PREC] = (double)rel / (double)k;
	v[MRR] = first > 0 && first <= k ? 1.0 / (double)first : 0;
	v[MAP] = nrel ? ap / (double)nrel : 0;
	v[NDCG] = idcg > 0 ? dcg / idcg : 0;
}

/*
 * Score one query: judged query e of R, its ranking h (nh hits, fewer
 * where the corpus is smaller; none for a zero vector) into
 * v[c * NFIG + f] for cutoff c and figure f.
 */
static void
score(struct scorer *S, const struct run *U, size_t e,
    const struct emb_hit *h, size_t nh, double *v)
{
	const struct qrels *R = &U->R;
	double idcg[MAXCUTS], ap = 0, dcg = 0;
	size_t nrel, rel = 0, first = 0, i;
	int c = 0;

	nrel = ideal(S, R, e, idcg);
	S->norel += nrel == 0;
	for (size_t j = R->off[e]; j < R->off[e + 1]; j++) {
		int64_t r = U->drow[R->jdoc[j]];

		if (r >= 0) {
			S->mark[r] = e + 1;
			S->grade[r] = R->jgrade[j];
		}
	}
	for (i = 0; i < nh && h[i].ref != EMB_KNN_NONE; i++) {
		int g = S->mark[h[i].ref] == e + 1 ? S->grade[h[i].ref] : 0;

		while (c < S->ncut && S->cut[c] == i) {
			figures(v + c * NFIG, S->cut[c], rel, first, ap, dcg,
			    nrel, idcg[c]);
			c++;
		}
		if (c == S->ncut)
			break;
		if (g >= 1) {
			rel++;
			ap += (double)rel / (double)(i + 1);
			if (first == 0)
				first = i + 1;
		}
		if (g > 0)
			dcg += (double)g / log2((double)(i + 2));
	}
	for (; c < S->ncut; c++)
		figures(v + c * NFIG, S->cut[c], rel, first, ap, dcg, nrel,
		    idcg[c]);
}

/* --per-query: "query TAB metric@k TAB value", the value exact. */
static void
perquery(FILE *fp, const struct scorer *S, const struct strs *qid, size_t e,
    const double *v)
{
	size_t len;
	const char *id = strskey(qid, e, &len);

	for (int f = 0; fp != NULL && f < NFIG; f++)
		for (int c = 0; c < S->ncut; c++) {
			char num[32];

			dtoa(num, v[c * NFIG + f]);
			fprintf(fp, "%.*s\t%s@%u\t%s\n", (int)len, id,
			    figname[f], S->cut[c], num);
		}
}

/*
 * --predictions: the ranking as a TREC run, "query Q0 doc rank score
 * emb-eval" (TAB-separated), the score the cosine, 1 - the distance.
 */
static void
runlines(FILE *fp, const struct run *U, size_t e, const struct emb_hit *h,
    size_t nh)
{
	size_t qlen;
	const char *qs = strskey(&U->R.qid, e, &qlen);

	for (size_t i = 0; fp != NULL && i < nh && h[i].ref != EMB_KNN_NONE;
	    i++) {
		size_t dlen;
		const char *d = wkey(&U->CI, h[i].ref, &dlen);
		char num[32];

		dtoa(num, 1 - h[i].dist);
		fprintf(fp, "%.*s\tQ0\t%.*s\t%zu\t%s\temb-eval\n", (int)qlen,
		    qs, (int)dlen, d, i + 1, num);
	}
}

/*
 * Rank and score the judged queries, a block at a time: each block's
 * vectors copied together and searched for its first k (the largest
 * cutoff, or the corpus) on the threads.
 */
static void
rankall(const struct eval *E, struct run *U, struct scorer *S)
{
	uint32_t dim = U->C.dim;
	size_t k = S->cut[S->ncut - 1] < U->C.n ? S->cut[S->ncut - 1] :
	    U->C.n, nb = HITBUDGET / k ? HITBUDGET / k : 1, maxj = 0;
	struct emb_knn *kn = knnrows(U->C.X, U->C.n, dim, NULL, U->C.name);
	struct emb_hit *h;
	double v[MAXCUTS * NFIG];
	float *Qb;

	nb = nb < U->nev ? nb : U->nev;
	for (size_t q = 0; q < U->R.qid.n; q++)
		if (U->R.off[q + 1] - U->R.off[q] > maxj)
			maxj = U->R.off[q + 1] - U->R.off[q];
	S->mark = xcalloc(U->C.n, sizeof(*S->mark));
	S->grade = xcalloc(U->C.n, sizeof(*S->grade));
	S->gains = xcalloc(maxj + 1, sizeof(*S->gains));
	h = xcalloc(nb, k * sizeof(*h));
	Qb = xcalloc(nb, (size_t)dim * sizeof(*Qb));
	for (size_t b = 0; b < U->nev; b += nb) {
		size_t n = U->nev - b < nb ? U->nev - b : nb;
		int rc;

		for (size_t i = 0; i < n; i++)
			memcpy(Qb + i * dim, U->Q.X + U->ev[b + i] * dim,
			    dim * sizeof(*Qb));
		if ((rc = emb_knn_search(kn, Qb, n, dim, (unsigned)k, NULL,
		    NULL, (unsigned)E->base.threads, h, NULL)) < 0)
			knndie(kn, U->C.name, rc);
		for (size_t i = 0; i < n; i++) {
			size_t e = (size_t)U->qent[U->ev[b + i]];
			int z = zerorow(Qb + i * dim, dim);

			S->zero += z;
			score(S, U, e, h + i * k, z ? 0 : k, v);
			for (int c = 0; c < S->ncut; c++)
				for (int f = 0; f < NFIG; f++)
					S->sum[f][c] += v[c * NFIG + f];
			perquery(E->perqfp, S, &U->R.qid, e, v);
			runlines(E->predfp, U, e, h + i * k, z ? 0 : k);
		}
		progress("%s: ranked %zu of %zu queries", E->task, b + n,
		    U->nev);
	}
	emb_knn_free(kn);
	free(h);
	free(Qb);
	free(S->mark);
	free(S->grade);
	free(S->gains);
}

/* The cutoffs as a list, "1,10,100", for the protocol line. */
static const char *
cutlist(char *buf, size_t sz, const unsigned *cut, int ncut)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int c = 0; c < ncut && len < sz; c++)
		len += (size_t)snprintf(buf + len, sz - len, "%s%u", c ? "," :
		    "", cut[c]);
	return buf;
}

/* The means, the counts, the protocol line (--protocol) and the summary. */
static void
report(const struct eval *E, const struct run *U, const struct scorer *S)
{
	size_t n = U->nev;

	for (int f = 0; f < NFIG; f++)
		for (int c = 0; c < S->ncut; c++) {
			char m[32];

			snprintf(m, sizeof(m), "%s@%u", figname[f], S->cut[c]);
			out(E, "cosine", m, "%.6f", S->sum[f][c] / (double)n);
		}
	out(E, "retrieval", "queries", "%zu", n);
	out(E, "retrieval", "queries-no-relevant", "%zu", S->norel);
	out(E, "retrieval", "queries-zero", "%zu", S->zero);
	out(E, "retrieval", "queries-unjudged", "%zu", U->Q.n - n);
	out(E, "retrieval", "unknown-queries", "%zu", U->uq);
	out(E, "retrieval", "unknown-documents", "%zu", U->ud);
	out(E, "retrieval", "judgments", "%zu", U->R.nj);
	out(E, "retrieval", "corpus", "%zu", U->C.n);
	if (E->protocol) {
		char cl[MAXCUTS * 8];

		out(E, "retrieval", "protocol", "similarity=cosine(exact) "
		    "ties=corpus_order cutoffs=%s qrels=%s relevant=grade>=1 "
		    "gain=grade discount=log2(rank+1) ideal=all_judged "
		    "map_denominator=all_relevant no_relevant=scored_0 "
		    "zero_query=nothing_retrieved queries=%zu corpus=%zu "
		    "corpus_zero_vectors=%zu as=trec_eval_cut%s%s",
		    cutlist(cl, sizeof(cl), S->cut, S->ncut), U->R.cols == 4 ?
		    "query,iter,doc,grade" : "query,doc,grade", n, U->C.n,
		    zerocount(&U->C, U->C.n), E->protonote ? " " : "",
		    E->protonote ? E->protonote : "");
	}
	if (!E->verbose)
		return;
	fprintf(stderr, "%s: judged queries: %zu, ranked against %zu "
	    "documents; scored 0: %zu without a relevant document, %zu zero "
	    "vectors; query records not judged: %zu\n", E->task, n, U->C.n,
	    S->norel, S->zero, U->Q.n - n);
	for (int c = 0; c < S->ncut; c++)
		fprintf(stderr, "%s: @%u: nDCG %.4f, MAP %.4f, MRR %.4f, P "
		    "%.4f, recall %.4f\n", E->task, S->cut[c],
		    S->sum[NDCG][c] / (double)n, S->sum[MAP][c] / (double)n,
		    S->sum[MRR][c] / (double)n, S->sum[PREC][c] / (double)n,
		    S->sum[RECALL][c] / (double)n);
}

void
retrieval(const struct eval *E, const char *cpath, const char *qpath,
    const char *qrels, unsigned idf, const unsigned *cut, int ncut)
{
	struct run U;
	struct scorer S;

	memset(&U, 0, sizeof(U));
	memset(&S, 0, sizeof(S));
	S.cut = cut;
	S.ncut = ncut;
	flatload(&U.C, cpath, GROUPED, NULL, NULL);
	flatload(&U.Q, qpath, GROUPED, NULL, NULL);
	if (U.C.n == 0)
		errx(1, "%s: no document", U.C.name);
	if (U.Q.n > 0 && U.Q.dim != U.C.dim)
		errx(1, "%s: dimension %u, but %s has %u", U.Q.name, U.Q.dim,
		    U.C.name, U.C.dim);
	windex(&U.CI, &U.C, idf, 1);
	windex(&U.QI, &U.Q, idf, 1);
	qrelsread(&U.R, qrels);
	meet(&U);
	if (U.nev == 0)
		errx(1, "%s: no judged query in %s", U.R.name, U.Q.name);
	rankall(E, &U, &S);
	report(E, &U, &S);
	emb_index_free(&U.CI.ix);
	emb_index_free(&U.QI.ix);
	qrelsfree(&U.R);
	free(U.drow);
	free(U.qent);
	free(U.ev);
	flatfree(&U.C);
	flatfree(&U.Q);
}
