/*
 * bli.c - bilingual lexicon induction (emb-eval -L): for each source
 * word of a dictionary, the target words nearest to its mapped vector,
 * by cosine (NN) and by CSLS, and the share of source words with a gold
 * translation among the first 1, 5 and 10, as MUSE reports them; words
 * missing on either side are counted, in-vocabulary and against all.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dict.h"
#include "../knn-cross.h"
#include "eval.h"

/* The first row of word w (plain, escaped here), or -1. */
static int64_t
wfind(const struct words *W, const char *w, struct emb_buf *tmp)
{
	size_t n = strlen(w);

	xbufreserve(tmp, 2 * n);
	tmp->len = emb_key_escape(tmp->p, w, n);
	return emb_index_find(&W->ix, tmp->p, tmp->len);
}

/* A query: its source row and its gold target rows (goff..goff+ngold). */
struct query {
	int64_t		 src;		/* row of the mapped stream, or -1 */
	size_t		 goff, ngold;
	char		*word;		/* the source word */
	size_t		 wlen;		/* its length */
};

/* The canonical row of a retrieved target: the first row of its word. */
static int64_t
canon(const struct words *W, size_t r)
{
	size_t len;
	const char *w = wkey(W, r, &len);

	return emb_index_find(&W->ix, w, len);
}

/* Count hits: the rank (0-based) of the first gold, or k if none. */
static void
score(const struct words *TW, const struct query *qs, const size_t *qi,
    size_t nq, const int64_t *gold, const struct emb_hit *h, unsigned k,
    size_t *at)
{
	for (size_t i = 0; i < nq; i++) {
		const struct query *q = &qs[qi[i]];
		unsigned r;

		for (r = 0; r < k; r++) {
			int64_t c;

			if (h[i * k + r].ref == EMB_KNN_NONE)
				continue;
			c = canon(TW, h[i * k + r].ref);
			for (size_t g = 0; g < q->ngold; g++)
				if (gold[q->goff + g] == c)
					goto found;
		}
found:
		if (r < k)
			for (unsigned j = r; j < k; j++)
				at[j]++;
	}
}

static void
report(const struct eval *E, const char *clf, const size_t *at, size_t nq,
    size_t nall)
{
	static const unsigned ks[] = { 1, 5, 10 };

	for (size_t i = 0; i < 3; i++) {
		char m[16];

		snprintf(m, sizeof(m), "P@%u", ks[i]);
		out(E, clf, m, "%.4f", nq ? (double)at[ks[i] - 1] / nq : 0.0);
	}
	for (size_t i = 0; i < 3; i++) {
		char m[16];

		snprintf(m, sizeof(m), "P@%u-all", ks[i]);
		out(E, clf, m, "%.4f", nall ? (double)at[ks[i] - 1] / nall : 0.0);
	}
}

/* --predictions: "method TAB source word TAB the 10 target keys". */
static void
predict(FILE *fp, const char *method, const struct query *qs,
    const size_t *qi, size_t nq, const struct flat *T,
    const struct emb_hit *h)
{
	for (size_t i = 0; fp != NULL && i < nq; i++) {
		fprintf(fp, "%s\t%s\t", method, qs[qi[i]].word);
		for (unsigned r = 0; r < 10; r++)
			if (h[i * 10 + r].ref != EMB_KNN_NONE)
				fprintf(fp, "%s%s", r ? " " : "",
				    KEY(T, h[i * 10 + r].ref));
		putc('\n', fp);
	}
}

/* A query's source word, the key of the index on queries (ctx: &qs). */
static const char *
qkey(const void *ctx, size_t i, size_t *len)
{
	const struct query *qs = *(struct query *const *)ctx;

	*len = qs[i].wlen;
	return qs[i].word;
}

/*
 * The queries of dictionary dpath into *qsp: one per distinct source word,
 * in the order of its first line, with its index in MW (or -1) and every
 * translation its lines give, wherever they stand, that TW holds, each
 * once (indices into *goldp), as MUSE gathers them.  Memory and time
 * follow the dictionary and the target space: an index on the source
 * words, the pairs sorted by query, a mark per target row.  @return the
 * number of queries.
 */
static size_t
readdict(const char *dpath, const struct words *MW, const struct words *TW,
    struct query **qsp, int64_t **goldp)
{
	struct query *qs = NULL;
	struct emb_index qx;
	int64_t *gold, *pg = NULL;
	size_t *pq = NULL, nqs = 0, qcap = 0, np = 0, pqcap = 0, pgcap = 0;
	size_t *seen, off, w;
	unsigned long lno = 0;
	struct emb_buf tmp = { 0 };
	char *a, *b;
	struct textin in;

	emb_index_init(&qx, qkey, &qs);
	textopen(&in, openside(dpath), dpath);
	while (dictpair(&in, &lno, &a, &b)) {
		size_t e;
		int64_t g;
		int rc;

		xgrow(&qs, &qcap, nqs + 1, sizeof(*qs));
		qs[nqs].wlen = strlen(a);
		qs[nqs].word = a;
		if ((rc = emb_index_add(&qx, nqs, &e)) < 0)
			errx(1, "%s: line %lu: %s", dpath, lno,
			    emb_strerror(rc));
		if (rc == 0) {
			e = nqs++;
			qs[e].word = xstrdup(a);
			qs[e].src = wfind(MW, a, &tmp);
			qs[e].ngold = 0;
		}
		if ((g = wfind(TW, b, &tmp)) < 0)
			continue;
		xgrow(&pq, &pqcap, np + 1, sizeof(*pq));
		xgrow(&pg, &pgcap, np + 1, sizeof(*pg));
		pq[np] = e;
		pg[np++] = g;
		qs[e].ngold++;
	}
	textclose(&in);
	emb_index_free(&qx);
	emb_buf_free(&tmp);
	/* The pairs by query (a counting sort), then each gold once. */
	off = 0;
	for (size_t e = 0; e < nqs; e++) {
		qs[e].goff = off;
		off += qs[e].ngold;
		qs[e].ngold = 0;
	}
	gold = xcalloc(np + 1, sizeof(*gold));
	for (size_t i = 0; i < np; i++) {
		struct query *q = &qs[pq[i]];

		gold[q->goff + q->ngold++] = pg[i];
	}
	free(pq);
	free(pg);
	/* seen[g]: the last query (+ 1) that kept target row g. */
	seen = xcalloc(TW->D->n + 1, sizeof(*seen));
	w = 0;
	for (size_t e = 0; e < nqs; e++) {
		const int64_t *s = gold + qs[e].goff;
		size_t n = qs[e].ngold, k = 0;

		for (size_t i = 0; i < n; i++)
			if (seen[s[i]] != e + 1) {
				seen[s[i]] = e + 1;
				gold[w + k++] = s[i];
			}
		qs[e].goff = w;
		qs[e].ngold = k;
		w += k;
	}
	free(seen);
	*qsp = qs;
	*goldp = gold;
	return nqs;
}

static void
dictfree(struct query *qs, size_t nqs, int64_t *gold)
{
	for (size_t e = 0; e < nqs; e++)
		free(qs[e].word);
	free(qs);
	free(gold);
}

void
bli(const struct eval *E, const char *mpath, const char *tpath,
    const char *dpath, unsigned wf, unsigned ck)
{
	unsigned nthreads = (unsigned)E->base.threads;
	FILE *pred = E->predfp;
	struct flat M, T;
	struct words MW, TW;
	struct query *qs = NULL;
	int64_t *gold = NULL;
	size_t nqs, nin = 0, oovs = 0, oovt = 0, *qi, at[10];
	struct emb_knn *kt, *km;
	struct emb_hit *h;
	double *rq, *rt;
	float *Q;
	int rc;

	flatload(&M, mpath, GROUPED, NULL, NULL);
	flatload(&T, tpath, GROUPED, NULL, NULL);
	if (M.dim != T.dim) {
		uint32_t md = M.dim, td = T.dim;

		flatfree(&M);
		flatfree(&T);
		errx(1, "%s: dimension %u, but %s has %u", M.name, md,
		    T.name, td);
	}
	windex(&MW, &M, wf, 0);
	windex(&TW, &T, wf, 0);
	nqs = readdict(dpath, &MW, &TW, &qs, &gold);
	qi = xcalloc(nqs + 1, sizeof(*qi));
	for (size_t e = 0; e < nqs; e++) {
		if (qs[e].src < 0)
			oovs++;
		else if (qs[e].ngold == 0)
			oovt++;
		else
			qi[nin++] = e;
	}
	if (nin == 0) {
		dictfree(qs, nqs, gold);
		free(qi);
		emb_index_free(&MW.ix);
		emb_index_free(&TW.ix);
		flatfree(&M);
		flatfree(&T);
		errx(1, "%s: no source word with a translation in %s and %s",
		    dpath, M.name, T.name);
	}
	Q = xcalloc(nin, (size_t)M.dim * sizeof(float));
	for (size_t i = 0; i < nin; i++)
		memcpy(Q + i * M.dim, M.X + (size_t)qs[qi[i]].src * M.dim,
		    M.dim * sizeof(float));
	kt = knnrows(T.X, T.n, T.dim, &T, T.name);
	h = xcalloc(nin, 10 * sizeof(*h));
	/* Nearest by cosine. */
	if ((rc = emb_knn_search(kt, Q, nin, M.dim, 10, NULL, NULL, nthreads,
	    h, NULL)) < 0)
		errx(1, "%s: %s", T.name, emb_strerror(rc));
	memset(at, 0, sizeof(at));
	score(&TW, qs, qi, nin, gold, h, 10, at);
	report(E, "nn", at, nin, nqs);
	predict(pred, "nn", qs, qi, nin, &T, h);
	/* CSLS: r_T of each query, r_S of every target word. */
	km = knnrows(M.X, M.n, M.dim, &M, M.name);
	rq = xcalloc(nin, sizeof(double));
	rt = xcalloc(T.n, sizeof(double));
	if ((rc = emb_knn_meansim(kt, Q, nin, M.dim, ck, nthreads, rq)) < 0 ||
	    (rc = emb_knn_meansim(km, T.X, T.n, T.dim, ck, nthreads,
	    rt)) < 0 ||
	    (rc = emb_knn_csls(kt, Q, nin, M.dim, 10, rq, rt, nthreads,
	    h)) < 0)
		errx(1, "%s: %s", T.name, emb_strerror(rc));
	memset(at, 0, sizeof(at));
	score(&TW, qs, qi, nin, gold, h, 10, at);
	report(E, "csls", at, nin, nqs);
	predict(pred, "csls", qs, qi, nin, &T, h);
	out(E, "bli", "queries", "%zu", nqs);
	out(E, "bli", "in-vocabulary", "%zu", nin);
	out(E, "bli", "oov-source", "%zu", oovs);
	out(E, "bli", "oov-target", "%zu", oovt);
	if (E->verbose)
		fprintf(stderr, "emb-eval: %s: %zu source words, %zu with a "
		    "translation in both spaces, %zu source and %zu target "
		    "out of vocabulary; CSLS over %u neighbours\n", dpath, nqs,
		    nin, oovs, oovt, ck);
	emb_knn_free(kt);
	emb_knn_free(km);
	dictfree(qs, nqs, gold);
	free(qi);
	free(Q);
	free(h);
	free(rq);
	free(rt);
	emb_index_free(&MW.ix);
	emb_index_free(&TW.ix);
	flatfree(&M);
	flatfree(&T);
}
