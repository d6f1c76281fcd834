/*
 * qrels.c - relevance judgments for emb-eval -r, in TREC's qrels format:
 * lines "query iteration doc grade" as trec_eval reads them (the
 * iteration ignored), or "query doc grade", one form a file, fields
 * separated by blanks or tabs, the grade an integer; blank lines and
 * lines starting with '#' are skipped.  A query and document judged
 * twice are an error, as in trec_eval.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"

#define BLANKS	" \t\v\f\r"

/* One line's judgment, before the lines are grouped by query. */
struct line {
	uint32_t	 q, d;		/* query and document entries */
	int		 grade;
	unsigned long	 lno;
};

/*
 * The grade s (line lno of path, its first judgment when first): an
 * integer that fits an int.
 */
static int
grade(const char *s, const char *path, unsigned long lno, int first)
{
	char *end, q[EMB_QUOTE_BUF];
	long g;

	errno = 0;
	g = strtol(s, &end, 10);
	if (end == s || *end != '\0')
		errx(1, "%s: line %lu: grade '%s' is not an integer%s", path,
		    lno, emb_quotes(q, s), first && strpbrk(s, "0123456789") ==
		    NULL ? " (a header line? drop it: tail -n +2)" : "");
	if (errno == ERANGE || g < INT_MIN || g > INT_MAX)
		errx(1, "%s: line %lu: grade '%s' is out of range", path, lno,
		    emb_quotes(q, s));
	return (int)g;
}

/*
 * The id tok as an entry of S (escaped as a key field, as the streams'
 * ids are), entered at line lno unless there.  @return its entry.
 */
static uint32_t
intern(struct strs *S, struct emb_index *x, unsigned long **line,
    size_t *lcap, const char *tok, unsigned long lno, const char *path)
{
	size_t n = strlen(tok), had;
	int rc;

	xbufreserve(&S->b, 2 * n);
	S->b.len += emb_key_escape(S->b.p + S->b.len, tok, n);
	if ((rc = emb_index_add(x, strsend(S), &had)) < 0)
		errx(1, "%s: line %lu: %s", path, lno, emb_strerror(rc));
	if (rc == 1) {
		strspop(S);
		return (uint32_t)had;
	}
	xgrow(line, lcap, S->n, sizeof(**line));
	(*line)[S->n - 1] = lno;
	return (uint32_t)(S->n - 1);
}

/*
 * The fields of line l (len bytes, line lno): 3 or 4, as many as the
 * first line's (*cols, 0 before it, at line *first).  @return the query,
 * document and grade fields in f[0..2].
 */
static void
fields(char *l, size_t len, unsigned long lno, const char *path, int *cols,
    unsigned long *first, char *f[3])
{
	char *tok[5], *save = NULL, q[EMB_QUOTE_BUF];
	int n = 0;

	emb_quote(q, l, len);
	while (n < 5 && (tok[n] = strtok_r(n ? NULL : l, BLANKS, &save)) !=
	    NULL)
		n++;
	if (n != 3 && n != 4)
		errx(1, "%s: line %lu: '%s': %s%d fields, expected 'query 0 "
		    "doc grade' or 'query doc grade'", path, lno, q, n == 5 ?
		    "more than " : "", n == 5 ? 4 : n);
	if (*cols == 0) {
		*cols = n;
		*first = lno;
	} else if (n != *cols)
		errx(1, "%s: line %lu: '%s': %d fields, but line %lu has %d: "
		    "one form a file", path, lno, q, n, *first, *cols);
	f[0] = tok[0];
	f[1] = tok[n - 2];
	f[2] = tok[n - 1];
}

/*
 * The lines L (n, in file order) grouped by query into R, each query's
 * in the order of its lines (a counting sort); exit 1 naming the first
 * line that judges a query's document again.
 */
static void
group(struct qrels *R, const struct line *L, size_t n)
{
	size_t nq = R->qid.n, nd = R->did.n, *fill, *seen;
	unsigned long *jline, *at, dup = 0, dupof = 0;
	size_t dupq = 0, dupd = 0;

	R->off = xcalloc(nq + 1, sizeof(*R->off));
	for (size_t i = 0; i < n; i++)
		R->off[L[i].q + 1]++;
	for (size_t q = 0; q < nq; q++)
		R->off[q + 1] += R->off[q];
	fill = xcalloc(nq + 1, sizeof(*fill));
	memcpy(fill, R->off, nq * sizeof(*fill));
	R->jdoc = xcalloc(n + 1, sizeof(*R->jdoc));
	R->jgrade = xcalloc(n + 1, sizeof(*R->jgrade));
	jline = xcalloc(n + 1, sizeof(*jline));
	for (size_t i = 0; i < n; i++) {
		size_t j = fill[L[i].q]++;

		R->jdoc[j] = L[i].d;
		R->jgrade[j] = L[i].grade;
		jline[j] = L[i].lno;
	}
	R->nj = n;
	/* seen[d]: the query (+ 1) that last judged d, at line at[d]. */
	seen = xcalloc(nd + 1, sizeof(*seen));
	at = xcalloc(nd + 1, sizeof(*at));
	for (size_t q = 0; q < nq; q++)
		for (size_t j = R->off[q]; j < R->off[q + 1]; j++) {
			uint32_t d = R->jdoc[j];

			if (seen[d] == q + 1) {
				if (dup == 0 || jline[j] < dup) {
					dup = jline[j];
					dupof = at[d];
					dupq = q;
					dupd = d;
				}
				continue;
			}
			seen[d] = q + 1;
			at[d] = jline[j];
		}
	free(fill);
	free(seen);
	free(at);
	free(jline);
	if (dup != 0) {
		char qq[EMB_QUOTE_BUF], qd[EMB_QUOTE_BUF];
		const char *ps;
		size_t len;

		ps = strskey(&R->qid, dupq, &len);
		emb_quote(qq, ps, len);
		ps = strskey(&R->did, dupd, &len);
		errx(1, "%s: line %lu: query '%s' judges document '%s' again "
		    "(line %lu)", R->name, dup, qq, emb_quote(qd, ps, len),
		    dupof);
	}
}

void
qrelsread(struct qrels *R, const char *path)
{
	struct emb_index qx, dx;
	struct textin in;
	struct line *L = NULL;
	size_t n = 0, cap = 0, qcap = 0, dcap = 0, len;
	unsigned long lno = 0, first = 0;
	char *l;
	int rc;

	memset(R, 0, sizeof(*R));
	R->name = inname(path);
	emb_index_init(&qx, strskey, &R->qid);
	emb_index_init(&dx, strskey, &R->did);
	textopen(&in, openside(path), R->name);
	while ((rc = textnext(&in, &l, &len)) > 0) {
		char *f[3];

		lno++;
		if (rc == 2)
			errx(1, "%s: line %lu: truncated: no LF at the end "
			    "of the text", R->name, lno);
		if (l[0] == '#' || strspn(l, BLANKS) == len)
			continue;
		fields(l, len, lno, R->name, &R->cols, &first, f);
		xgrow(&L, &cap, n + 1, sizeof(*L));
		L[n].q = intern(&R->qid, &qx, &R->qline, &qcap, f[0], lno,
		    R->name);
		L[n].d = intern(&R->did, &dx, &R->dline, &dcap, f[1], lno,
		    R->name);
		L[n].grade = grade(f[2], R->name, lno, n == 0);
		L[n++].lno = lno;
	}
	textclose(&in);
	emb_index_free(&qx);
	emb_index_free(&dx);
	if (n == 0)
		errx(1, "%s: no judgment", R->name);
	group(R, L, n);
	free(L);
}

void
qrelsfree(struct qrels *R)
{
	strsfree(&R->qid);
	strsfree(&R->did);
	free(R->qline);
	free(R->dline);
	free(R->off);
	free(R->jdoc);
	free(R->jgrade);
	memset(R, 0, sizeof(*R));
}
