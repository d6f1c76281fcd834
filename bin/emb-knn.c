/*
 * emb-knn - exact cosine nearest neighbours of query vectors among a
 * reference set.
 *
 * The reference set is read once: the vectors of an emb(5) stream file
 * as they are, or a store (emb-store(5)) searched where it lies in the
 * map.  The queries (a stream on stdin or in a file) are read in batches
 * of bounded size, searched by libemb's exact search (every distance the
 * true 1 - cos rounded once; lib/knn/knn-search.c), and answered in input
 * order: as text lines (query key, rank, reference key, distance), as a
 * stream of the neighbours' vectors, as a predicted label (majority
 * vote), or, for word analogies (3CosAdd, 3CosMul), as an accuracy report
 * in the manner of word2vec's compute-accuracy.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"
#include "knn-cross.h"

#define OBUFSZ		(1u << 20)
#define HEAPMAX		((size_t)1 << 24)	/* hits held per batch */
#define QBYTES		((size_t)32 << 20)	/* query vectors per batch */

static unsigned	 kopt = 10;	/* -k: neighbours */
static unsigned	 nthreads;	/* -j (or -t) */
static size_t	 batch = 4096;	/* -B: queries per batch */
static int	 bflag;		/* -b: neighbours' vectors as a stream */
static unsigned	 cfield;	/* -c: label field of references, 1-based */
static int	 weighted;	/* -W: distance-weighted vote */
static int	 sflag;		/* -s: exclude self */
static unsigned	 qfield;	/* -q: query word field (0: the last) */
static unsigned	 wfield = 1;	/* -w: reference word field */
static unsigned	 xfield;	/* -x: field of words to exclude */
static int	 aflag;		/* -A: analogy queries */
static int	 rflag;		/* -R: analogy accuracy report */
static unsigned	 efield;	/* -e: expected answer field */
static unsigned	 gfield;	/* -g: section field */
static int	 vflag;		/* -v: timings on stderr */
static int	 simcol;	/* --similarity: a column of 1 - distance */
static int	 cosmul;	/* --cosmul: -A by 3CosMul */
static unsigned	 cslsk;		/* --csls: CSLS over that many */
static int	 mutual;	/* --mutual: mutual neighbours only */

static const char *qname;	/* queries, for messages */

/* -q is the query's field: quiet is --quiet alone. */
enum { OPT_QUIETL = 256, OPT_COSMUL, OPT_CSLS, OPT_MUTUAL, OPT_SIM };

static const struct opt opts[] = {
	{ 'A', "analogy", NULL, "analogy mode: a group a, b, c [, d] is the "
	    "query b - a + c", NULL },
	{ 'B', "batch", "batch", "queries per batch (default 4096)", NULL },
	{ 'b', "stream", NULL, "write the neighbours as an emb(5) stream",
	    NULL },
	{ 'c', "label-field", "field", "classify: the majority label, this key "
	    "field of the references", NULL },
	{ 'e', "answer-field", "field", "with -R: the expected answer is this "
	    "field of the group key", NULL },
	{ 'g', "section-field", "field", "with -R: the section is this field of "
	    "the group key", NULL },
	OPT_THREADS,
	{ 'k', "neighbours", "n", "neighbours per query (default 10)", NULL },
	{ 'q', "query-field", "field", "with -s: the query's word is this key "
	    "field (default: a member's key, else field 1 or the last)", NULL },
	{ 'R', "report", NULL, "print the analogy accuracy report (implies -A)",
	    NULL },
	{ 's', "exclude-self", NULL, "references with the query's word are not "
	    "its neighbours", NULL },
	{ 't', NULL, "threads", "the old spelling of -j", NULL },
	{ 'W', "weighted", NULL, "with -c: votes weighted by 1/distance",
	    NULL },
	{ 'w', "word-field", "field", "a reference's word is this key field "
	    "(default 1)", NULL },
	{ 'x', "exclude-field", "field", "the words in this field of a query's "
	    "key are not its neighbours", NULL },
	{ OPT_COSMUL, "cosmul", NULL, "with -A: analogies by 3CosMul instead "
	    "of 3CosAdd", NULL },
	{ OPT_CSLS, "csls", "n", "rank by CSLS, each side's mean similarity to "
	    "its n nearest in the other", NULL },
	{ OPT_MUTUAL, "mutual", NULL, "only mutual nearest neighbours",
	    NULL },
	{ OPT_SIM, "similarity", NULL, "a fifth column: the cosine similarity, "
	    "1 - the distance", NULL },
	{ OPT_QUIETL, "quiet", NULL, "only errors and warnings on standard error "
	    "(default)", NULL },
	OPT_VERBOSE("the sizes, times and kernels, on standard error"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-knn",
	    "usage: emb-knn [-bsvW] [-B batch] [-c field] [-k n] [-q field] "
	    "[-j threads]\n"
	    "               [-w field] [-x field] [--similarity] reference "
	    "[file]\n"
	    "       emb-knn -A [-bRv] [-B batch] [-e field] [-g field] [-k n] "
	    "[-j threads]\n"
	    "               [-w field] [--cosmul] reference [file]\n"
	    "       emb-knn --csls n | --mutual [-v] [-k n] [-j threads] "
	    "reference [file]\n", opts };

/* Add one reference, checking that it has the label field of -c. */
static void
addref(struct emb_knn *kn, const char *name, unsigned long long recno,
    const char *key, size_t keylen, const float *vec)
{
	size_t flen;
	int rc;

	if (cfield && keyfield(key, keylen, cfield, &flen) == NULL)
		errx(1, "%s: record %llu: key has no field %u for -c", name,
		    recno, cfield);
	if ((rc = emb_knn_add(kn, key, keylen, vec)) < 0)
		errx(1, "%s: record %llu: %s", name, recno, emb_strerror(rc));
}

/* Quantizing a store at load. */
struct qprog {
	const char	*name;
	uint64_t	 total;
	double		 t0, last;
	int		 shown;
};

/*
 * Rows quantized so far, on a terminal, once loading has taken a second,
 * at most four times a second.
 */
static void
qprogress(void *arg, const struct emb_wfile *f, uint64_t n)
{
	struct qprog *p = arg;
	double now = emb_now();

	(void)f;
	if (now - p->t0 < 1 || now - p->last < 0.25)
		return;
	p->last = now;
	p->shown = 1;
	fprintf(stderr, "\remb-knn: %s: %3d%% of %llu references quantized",
	    p->name, (int)(100.0 * (double)n / (double)p->total),
	    (unsigned long long)p->total);
}

/*
 * The reference set from an emb-lookup store: every word, keyed by the
 * word (escaped as a key field), in store order, searched where it lies
 * in the map.  A store built before stores kept the search's codes is
 * quantized now, and says so.
 */
static struct emb_knn *
loadstore(int fd, const char *path)
{
	struct emb_store *s;
	struct emb_knn *kn;
	struct qprog pr = { path, 0, 0, 0, 0 };
	int rc, quantized;

	if ((rc = emb_store_fdopen(&s, fd)) < 0) {
		if (rc == EMB_EIO)
			err(1, "%s", path);
		errx(1, "%s: %s", path, s != NULL ? emb_store_msg(s) :
		    emb_strerror(rc));
	}
	/* Each key is a word: one field (a tab in a word is escaped). */
	if (cfield > 1 && emb_store_count(s) > 0)
		errx(1, "%s: record 1: key has no field %u for -c", path,
		    cfield);
	pr.total = emb_store_count(s);
	pr.t0 = emb_now();
	if ((rc = emb_knn_store(&kn, s, isatty(STDERR_FILENO) ? qprogress :
	    NULL, &pr, &quantized)) < 0)
		errx(1, "%s: %s", path, emb_strerror(rc));
	if (pr.shown)
		fprintf(stderr, "\r%70s\r", "");
	if (quantized)
		warnx("%s: a store without its search section: quantized at "
		    "every start (build it again with emb-lookup -B to start "
		    "at once)", path);
	return kn;
}

/*
 * The reference set: a store, or every VEC record of a stream file, in
 * order (members of groups too, keyed by their own keys).
 */
static struct emb_knn *
loadref(const char *path)
{
	const char *name = inname(path);
	int fd;
	struct emb_reader *r;
	struct emb_rec rec;
	struct emb_knn *kn;
	uint32_t dim;
	struct stat st;
	int rc;

	fd = openin(path);
	/*
	 * A store is a regular file, told by its magic read from the one
	 * descriptor: a FIFO or <(...) can be read only once.
	 */
	if (fdstore(fd)) {
		kn = loadstore(fd, name);
		if (fd != STDIN_FILENO)
			close(fd);
		goto index;
	}
	if ((rc = emb_reader_open(&r, fd, name)) < 0) {
		/* A store is mapped: through a pipe it cannot be used. */
		if (rc == EMB_EMAGIC && r != NULL &&
		    emb_reader_kind(r) == EMB_KIND_STORE) {
			emb_reader_free(r);
			errx(1, "%s: an emb-lookup store, but not a regular "
			    "file: a store is mapped, name the file itself",
			    name);
		}
		rdie(r, name, rc);
	}
	dim = emb_reader_dim(r);
	if ((rc = emb_knn_create(&kn, dim)) < 0)
		errx(1, "%s: %s", name, emb_strerror(rc));
	/* A file's size bounds its record count; untouched rows cost nothing. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		(void)emb_knn_reserve(kn, recmax(&st, dim));
	while ((rc = emb_reader_next(r, &rec)) > 0)
		if (rec.type == EMB_REC_VEC)
			addref(kn, name, (unsigned long long)rec.recno,
			    rec.key, rec.keylen, rec.vec);
	if (rc < 0)
		rdie(r, name, rc);
	emb_reader_free(r);
	if (fd != STDIN_FILENO)
		close(fd);
index:
	if ((sflag || xfield || aflag) &&
	    (rc = emb_knn_index(kn, wfield - 1)) < 0)
		errx(1, "%s: %s", name, emb_strerror(rc));
	return kn;
}

/* Room for the vote of k neighbours (-c). */
struct vote {
	const char	**lab;		/* labels */
	size_t		 *len;		/* their lengths */
	double		 *wt;		/* weights */
	double		 *tot;		/* sums per label */
};

/* One question of the analogy report. */
struct quest {
	int	 seen;		/* all four words among the references */
	size_t	 sect;		/* section: offset in the batch's text */
	size_t	 sectlen;
	size_t	 want;		/* expected word: offset in the batch's text */
	size_t	 wantlen;
};

/* A batch of queries and what their answers need. */
struct batch {
	size_t		 n, cap;	/* queries held, and room */
	size_t		 ld;		/* row stride of q */
	float		*q;		/* cap x ld unit queries */
	struct emb_buf	 text;		/* keys, words: NUL-separated */
	size_t		*koff;		/* cap + 1 key offsets in text */
	size_t		*xoff;		/* cap + 1 exclusion offsets */
	uint32_t	*xref;		/* excluded references */
	size_t		 nx, xcap;
	struct quest	*qs;		/* -R: per query */
	unsigned char	*zero;		/* per query: a zero vector */
	struct emb_hit	*hits;		/* cap x k */
	struct vote	 vt;		/* -c: the vote of a query's hits */
};

/* Report state for -R, carried across batches. */
struct report {
	struct emb_buf	 sect;		/* current section name */
	int		 insect;	/* a section is open */
	unsigned long long scorrect, sseen;	/* in the current section */
	unsigned long long correct, seen, total;
};

static unsigned long long nzero;	/* queries of zero length */
static unsigned long long nshort;	/* -A: groups too small to ask */
static unsigned long long nquery;	/* queries searched */
static unsigned long long sfound;	/* -s: queries whose word is known */
static const char *refname;		/* the reference set, for messages */
static double tsearch;			/* seconds in emb_knn_search */
static struct emb_knn_stats done;	/* what the searches did */

/* Exclude every reference whose word is w (len bytes) from this query. */
static void
exclude(struct batch *b, const struct emb_knn *kn, const char *w, size_t len)
{
	for (int64_t i = emb_knn_find(kn, w, len); i >= 0;
	    i = emb_knn_find_next(kn, (size_t)i)) {
		xgrow(&b->xref, &b->xcap, b->nx + 1, sizeof(*b->xref));
		b->xref[b->nx++] = (uint32_t)i;
	}
}

/* Start query b->n: its key; its vector is filled in by the caller. */
static float *
newquery(struct batch *b, const char *key, size_t keylen, const char *key2,
    size_t key2len)
{
	b->koff[b->n] = b->text.len;
	xbufadd(&b->text, key, keylen);
	if (key2 != NULL) {
		xbufadd(&b->text, "\t", 1);
		xbufadd(&b->text, key2, key2len);
	}
	xbufadd(&b->text, "", 1);
	b->xoff[b->n] = b->nx;
	return b->q + b->n * b->ld;
}

/*
 * -s: the references with the query's word are excluded.  Its word is
 * field -q of its key; else, for a member of a group (emb-lookup's line
 * mode), its own key, the last field; for a record of its own, the first
 * field (emb-lookup -w keys "word TAB label", -D the word alone), or the
 * last when no reference has the first (a key "id TAB word").
 */
static void
selfword(struct batch *b, const struct emb_knn *kn, const char *key,
    size_t keylen, int member)
{
	unsigned nf = emb_key_nfields(key, keylen);
	size_t wlen;
	const char *w = keyfield(key, keylen, qfield ? qfield : member ? nf :
	    1, &wlen);

	if (w != NULL && !qfield && !member && nf > 1 &&
	    emb_knn_find(kn, w, wlen) < 0)
		w = keyfield(key, keylen, nf, &wlen);
	if (w == NULL)
		return;
	sfound += emb_knn_find(kn, w, wlen) >= 0;
	exclude(b, kn, w, wlen);
}

/* Finish query b->n: exclusions from its key, then count it. */
static void
endquery(struct batch *b, const struct emb_knn *kn, uint32_t dim, int member)
{
	const char *key = b->text.p + b->koff[b->n];
	size_t keylen = strlen(key), wlen;
	const char *w;
	float *q = b->q + b->n * b->ld;
	uint32_t d = 0;

	/* The query as it is: the search takes the cosine of any length. */
	while (d < dim && q[d] == 0)
		d++;
	nzero += d == dim;
	b->zero[b->n] = d == dim;
	if (sflag)
		selfword(b, kn, key, keylen, member);
	if (xfield && (w = keyfield(key, keylen, xfield, &wlen)) != NULL) {
		const char *end = w + wlen;

		while (w < end) {
			const char *sp = memchr(w, ' ', (size_t)(end - w));

			if (sp == NULL)
				sp = end;
			if (sp > w)
				exclude(b, kn, w, (size_t)(sp - w));
			w = sp + 1;
		}
	}
	b->n++;
	b->xoff[b->n] = b->nx;
}

static void
printfield(const char *s, size_t n)
{
	fwrite(s, 1, n, stdout);
}

/*
 * Majority vote of the neighbours' labels (in the room vt); the label
 * goes to stdout.
 */
static void
vote(const struct vote *vt, const struct emb_knn *kn, const struct emb_hit *h,
    unsigned k)
{
	const char **lab = vt->lab;
	size_t *len = vt->len;
	double *wt = vt->wt, *tot = vt->tot;
	unsigned n = 0, best = 0, exact = 0;

	for (unsigned i = 0; i < k && h[i].ref != EMB_KNN_NONE; i++) {
		size_t keylen;
		const char *key = emb_knn_key(kn, h[i].ref, &keylen);
		double d = h[i].dist;

		lab[n] = keyfield(key, keylen, cfield, &len[n]);
		wt[n] = weighted ? (d > 0 ? 1 / d : INFINITY) : 1;
		exact += d == 0;
		n++;
	}
	if (n == 0)
		return;
	/*
	 * As scikit-learn weights by 1/d: a neighbour at distance 0 outweighs
	 * all others, so only those at distance 0 vote then.
	 */
	if (weighted && exact)
		for (unsigned i = 0; i < n; i++)
			wt[i] = isinf(wt[i]) ? 1 : 0;
	/* Sum per label at its first occurrence; ties go to the smallest. */
	for (unsigned i = 0; i < n; i++) {
		unsigned j;

		tot[i] = 0;
		for (j = 0; j < i; j++)
			if (len[j] == len[i] && memcmp(lab[j], lab[i],
			    len[i]) == 0)
				break;
		tot[j] += wt[i];
	}
	for (unsigned i = 1; i < n; i++) {
		int c;

		if (tot[i] < tot[best])
			continue;
		c = memcmp(lab[i], lab[best], len[i] < len[best] ? len[i] :
		    len[best]);
		if (tot[i] > tot[best] || c < 0 || (c == 0 &&
		    len[i] < len[best]))
			best = i;
	}
	printfield(lab[best], len[best]);
}

static void
endsection(struct report *rp)
{
	if (!rp->insect)
		return;
	printf("ACCURACY TOP1: %.2f %%  (%llu / %llu)\n",
	    rp->sseen ? 100.0 * rp->scorrect / rp->sseen : 0.0,
	    rp->scorrect, rp->sseen);
	printf("Total accuracy: %.2f %%\n",
	    rp->seen ? 100.0 * rp->correct / rp->seen : 0.0);
	rp->insect = 0;
}

/* Search the batch: its hits into b->hits, the figures of -v summed. */
static void
search(struct batch *b, const struct emb_knn *kn, unsigned k)
{
	struct emb_knn_stats st;
	double t0;
	int rc;

	t0 = emb_now();
	memset(&st, 0, sizeof(st));
	if (cosmul)
		rc = emb_knn_cosmul(kn, b->q, b->q + b->cap * b->ld,
		    b->q + 2 * b->cap * b->ld, b->n, b->ld, k, b->xoff,
		    b->xref, nthreads, b->hits);
	else
		rc = emb_knn_search(kn, b->q, b->n, b->ld, k, b->xoff,
		    b->xref, nthreads, b->hits, &st);
	tsearch += emb_now() - t0;
	done.pairs += st.pairs;
	done.coded += st.coded;
	done.flt += st.flt;
	done.rescored += st.rescored;
	done.path = st.path;
	nquery += b->n;
	if (rc < 0)
		knndie(kn, refname, rc);
}

/*
 * -R: query i of the batch, answered by its nh hits h, tallied in its
 * section (a new section closes the one before).
 */
static void
tally(const struct batch *b, size_t i, const struct emb_knn *kn,
    const struct emb_hit *h, unsigned nh, struct report *rp)
{
	const struct quest *qs = &b->qs[i];
	const char *sect = b->text.p + qs->sect;
	size_t rlen, wlen;
	const char *rkey, *rw;

	if (!rp->insect || rp->sect.len != qs->sectlen ||
	    memcmp(rp->sect.p, sect, qs->sectlen) != 0) {
		endsection(rp);
		rp->sect.len = 0;
		xbufadd(&rp->sect, sect, qs->sectlen);
		if (gfield)
			printf("%s:\n", rp->sect.p);
		rp->insect = 1;
		rp->scorrect = rp->sseen = 0;
	}
	rp->total++;
	if (!qs->seen)
		return;
	rp->seen++;
	rp->sseen++;
	if (nh == 0)
		return;
	rkey = emb_knn_key(kn, h[0].ref, &rlen);
	rw = keyfield(rkey, rlen, wfield, &wlen);
	if (rw != NULL && wlen == qs->wantlen && memcmp(rw,
	    b->text.p + qs->want, wlen) == 0) {
		rp->correct++;
		rp->scorrect++;
	}
}

/* -b: the query's nh hits h as a group of their unit vectors. */
static void
writehits(struct emb_writer *w, const char *qkey, size_t qlen,
    const struct emb_knn *kn, const struct emb_hit *h, unsigned nh)
{
	int rc;

	if ((rc = emb_write_group(w, qkey, qlen, nh)) < 0)
		wdie(rc);
	for (unsigned j = 0; j < nh; j++) {
		size_t rlen;
		const char *rkey = emb_knn_key(kn, h[j].ref, &rlen);
		int zero;

		if ((rc = emb_write_vec_unit(w, rkey, rlen,
		    emb_knn_vec(kn, h[j].ref), &zero)) < 0)
			wdie(rc);
	}
}

/*
 * The query's nh hits h, a line each: query key, rank, reference key,
 * distance (--similarity: and 1 - the distance).
 */
static void
printhits(const char *qkey, size_t qlen, const struct emb_knn *kn,
    const struct emb_hit *h, unsigned nh)
{
	for (unsigned j = 0; j < nh; j++) {
		char num[32];
		size_t rlen;
		const char *rkey = emb_knn_key(kn, h[j].ref, &rlen);

		printfield(qkey, qlen);
		printf("\t%u\t", j + 1);
		printfield(rkey, rlen);
		putchar('\t');
		/* 3CosMul: the score, larger first. */
		printfield(num, dtoa(num, cosmul ? -h[j].dist :
		    h[j].dist));
		if (simcol && !cosmul) {
			putchar('\t');
			printfield(num, dtoa(num, 1 - h[j].dist));
		}
		putchar('\n');
	}
}

/* Search the batch and write its answers, in input order. */
static void
flush(struct batch *b, const struct emb_knn *kn, unsigned k,
    struct emb_writer *w, struct report *rp)
{
	if (b->n == 0)
		return;
	search(b, kn, k);
	for (size_t i = 0; i < b->n; i++) {
		const char *qkey = b->text.p + b->koff[i];
		size_t qlen = strlen(qkey);
		const struct emb_hit *h = b->hits + i * k;
		unsigned nh = 0;

		while (nh < k && h[nh].ref != EMB_KNN_NONE)
			nh++;
		/* A zero vector (no known word) has no nearest: none listed. */
		if (b->zero[i] && !cfield)
			nh = 0;
		if (rflag)
			tally(b, i, kn, h, nh, rp);
		else if (cfield) {
			printfield(qkey, qlen);
			putchar('\t');
			vote(&b->vt, kn, h, nh);
			putchar('\n');
		} else if (bflag)
			writehits(w, qkey, qlen, kn, h, nh);
		else
			printhits(qkey, qlen, kn, h, nh);
	}
	if (ferror(stdout))
		fshut(stdout, "stdout");
	b->n = 0;
	b->nx = 0;
	b->text.len = 0;
	b->xoff[0] = 0;
}

/* An analogy group being read: its key and members a, b, c, d. */
struct agroup {
	struct emb_buf	 key;
	uint32_t	 nmemb, got;
	uint64_t	 recno;
	struct emb_buf	 word[4];
	float		*vec[3];	/* a, b, c: unit vectors but for 3CosMul */
};

/*
 * The group is complete: make the query b - a + c (unit vectors), with a,
 * b and c excluded, or count it as too small to ask.
 */
static void
analogy(struct batch *b, const struct emb_knn *kn, struct agroup *g,
    uint32_t dim)
{
	const char *want = NULL, *sect = "";
	size_t wantlen = 0, sectlen = 0;
	int seen;
	float *q;

	if (g->nmemb > 4)
		errx(1, "%s: record %llu: analogy group of %u members, "
		    "expected 3 (a b c) or 4 (a b c d)", qname,
		    (unsigned long long)g->recno, g->nmemb);
	if (efield) {
		want = keyfield(g->key.p, g->key.len, efield, &wantlen);
		if (want == NULL)
			errx(1, "%s: record %llu: group key has no field %u "
			    "for -e", qname, (unsigned long long)g->recno,
			    efield);
	} else if (g->nmemb == 4) {
		want = g->word[3].p;
		wantlen = g->word[3].len;
	}
	if (gfield && (sect = keyfield(g->key.p, g->key.len, gfield,
	    &sectlen)) == NULL)
		errx(1, "%s: record %llu: group key has no field %u for -g",
		    qname, (unsigned long long)g->recno, gfield);
	/* As compute-accuracy: asked only if all four words are known. */
	seen = g->nmemb >= 3 && want != NULL &&
	    emb_knn_find(kn, want, wantlen) >= 0;
	for (unsigned i = 0; seen && i < 3; i++)
		seen = emb_knn_find(kn, g->word[i].p, g->word[i].len) >= 0;
	if (g->nmemb < 3) {
		nshort++;
		if (!rflag)
			return;
	}
	q = newquery(b, g->key.p, g->key.len, NULL, 0);
	if (cosmul) {
		/* a, b and c, each in its plane of the batch. */
		for (unsigned i = 0; i < 3; i++)
			if (i < g->nmemb)
				memcpy(q + i * b->cap * b->ld, g->vec[i],
				    (size_t)dim * sizeof(*q));
			else
				memset(q + i * b->cap * b->ld, 0,
				    (size_t)dim * sizeof(*q));
	} else if (g->nmemb >= 3)
		for (uint32_t d = 0; d < dim; d++)
			q[d] = (float)((double)g->vec[1][d] - g->vec[0][d] +
			    g->vec[2][d]);
	else
		memset(q, 0, (size_t)dim * sizeof(*q));
	for (unsigned i = 0; i < 3 && i < g->nmemb; i++)
		exclude(b, kn, g->word[i].p, g->word[i].len);
	if (rflag) {
		struct quest *qs = &b->qs[b->n];

		qs->seen = seen;
		qs->sect = b->text.len;
		qs->sectlen = sectlen;
		xbufadd(&b->text, sect, sectlen);
		xbufadd(&b->text, "", 1);
		qs->want = b->text.len;
		qs->wantlen = wantlen;
		if (want != NULL)
			xbufadd(&b->text, want, wantlen);
		xbufadd(&b->text, "", 1);
	}
	if (!cosmul && !emb_unit(q, dim) && g->nmemb >= 3)
		nzero++;
	b->n++;
	b->xoff[b->n] = b->nx;
}

/*
 * The batch for queries of dimension dim, k hits each: as many queries
 * as -B asks, but the heaps of a batch (k hits per query and thread) kept
 * under HEAPMAX and its queries under QBYTES whatever dimension the
 * header says; its arrays allocated.
 */
static void
batchinit(struct batch *b, uint32_t dim, unsigned k)
{
	size_t nhits;

	memset(b, 0, sizeof(*b));
	if (batch > HEAPMAX / k / nthreads)
		batch = HEAPMAX / k / nthreads ? HEAPMAX / k / nthreads : 1;
	b->ld = (dim + 15) / 16 * 16;
	if (batch > QBYTES / (b->ld * sizeof(float)))
		batch = QBYTES / (b->ld * sizeof(float)) ? QBYTES / (b->ld *
		    sizeof(float)) : 1;
	b->cap = batch;
	if (emb_mul(b->cap, k, &nhits) < 0)
		errx(1, "batch too large");
	b->q = emb_alloc((cosmul ? 3 : 1) * b->cap * b->ld * sizeof(float));
	if (b->q == NULL)
		err(1, "batch of %zu queries", b->cap);
	b->koff = xreallocarray(NULL, b->cap + 1, sizeof(*b->koff));
	b->xoff = xreallocarray(NULL, b->cap + 1, sizeof(*b->xoff));
	b->hits = xreallocarray(NULL, nhits, sizeof(*b->hits));
	if (rflag)
		b->qs = xreallocarray(NULL, b->cap, sizeof(*b->qs));
	b->zero = xcalloc(b->cap, 1);
	b->xoff[0] = 0;
	if (cfield) {
		b->vt.lab = xreallocarray(NULL, k, sizeof(*b->vt.lab));
		b->vt.len = xreallocarray(NULL, k, sizeof(*b->vt.len));
		b->vt.wt = xreallocarray(NULL, k, sizeof(*b->vt.wt));
		b->vt.tot = xreallocarray(NULL, k, sizeof(*b->vt.tot));
	}
}

static void
batchfree(struct batch *b)
{
	emb_free(b->q);
	free(b->text.p);
	free(b->koff);
	free(b->xoff);
	free(b->xref);
	free(b->qs);
	free(b->zero);
	free(b->hits);
	free(b->vt.lab);
	free(b->vt.len);
	free(b->vt.wt);
	free(b->vt.tot);
}

/*
 * -A: record rec of the query stream into the analogy group g (its key
 * or one of its members: a, b and c as unit vectors, or as they are for
 * 3CosMul); @return 1 when the group is complete.
 */
static int
member(struct agroup *g, const struct emb_rec *rec, uint32_t dim)
{
	size_t wlen;
	const char *wd;

	if (rec->type == EMB_REC_GROUP) {
		g->key.len = 0;
		xbufadd(&g->key, rec->key, rec->keylen);
		g->nmemb = rec->nmemb;
		g->got = 0;
		g->recno = rec->recno;
		return g->nmemb == 0;
	}
	if (rec->group == 0)
		errx(1, "%s: record %llu: with -A, queries are groups (a b c "
		    "[d]); this vector is outside any group", qname,
		    (unsigned long long)rec->recno);
	if (g->got < 4) {
		wd = keyfield(rec->key, rec->keylen, 1, &wlen);
		g->word[g->got].len = 0;
		xbufadd(&g->word[g->got], wd, wlen);
	}
	if (g->got < 3) {
		memcpy(g->vec[g->got], rec->vec, (size_t)dim * sizeof(float));
		/* 3CosMul takes the cosines of the vectors as they are. */
		if (!cosmul)
			emb_unit(g->vec[g->got], dim);
	}
	return ++g->got >= g->nmemb;
}

/*
 * A vector of the query stream as a query: keyed by its own key, or, in
 * a group (whose key is gkey), by the group's key and its own.
 */
static void
plainquery(struct batch *b, const struct emb_knn *kn,
    const struct emb_buf *gkey, const struct emb_rec *rec, uint32_t dim)
{
	float *q;

	if (bflag && rec->group)
		keyfits(gkey->len + 1 + rec->keylen, qname, "record",
		    rec->recno);
	q = newquery(b, rec->group ? gkey->p : rec->key,
	    rec->group ? gkey->len : rec->keylen,
	    rec->group ? rec->key : NULL, rec->keylen);
	memcpy(q, rec->vec, (size_t)dim * sizeof(*q));
	endquery(b, kn, dim, rec->group);
}

/*
 * The queries of r into batches, each searched and answered when full;
 * the last, partly full, is left to the caller.  g holds an analogy
 * group being read (-A), gkey the key of a group of plain queries.
 */
static void
queries(struct emb_reader *r, const struct emb_knn *kn, struct batch *b,
    struct agroup *g, struct emb_buf *gkey, unsigned k, struct emb_writer *w,
    struct report *rp)
{
	struct emb_rec rec;
	uint32_t dim = emb_knn_dim(kn);
	int rc;

	while ((rc = emb_reader_next(r, &rec)) > 0) {
		if (aflag) {
			if (!member(g, &rec, dim))
				continue;
			analogy(b, kn, g, dim);
		} else if (rec.type == EMB_REC_GROUP) {
			gkey->len = 0;
			xbufadd(gkey, rec.key, rec.keylen);
			continue;
		} else
			plainquery(b, kn, gkey, &rec, dim);
		if (b->n == b->cap)
			flush(b, kn, k, w, rp);
	}
	if (rc < 0)
		rdie(r, qname, rc);
}

/* What the queries lacked, once they are all answered. */
static void
warnings(void)
{
	if (nzero)
		warnx("%s: zero query vectors (no known word?): %llu, %s",
		    qname, nzero, aflag ? "every reference at distance 1" :
		    cfield ? "labelled from the first references, all at "
		    "distance 1" : "no neighbours listed");
	if (nshort && !rflag)
		warnx("%s: groups of fewer than 3 members skipped: %llu",
		    qname, nshort);
	if (sflag && nquery > 0 && sfound == 0)
		warnx("%s: -s excluded nothing: no query's word (%s) is a "
		    "reference%s", qname, qfield ? "the field of -q" :
		    "its own key in a group, else its key's first or last "
		    "field", qfield ? "" : "; -q names its field");
}

/*
 * A batch is searched when full; but when the query stream is not a file
 * and nothing more comes for IDLEMS milliseconds (a word typed, a slow
 * pipe), the queries read so far are searched and answered at once, not
 * kept until the batch fills.  A file or a pipe that keeps up never waits
 * that long, and so keeps its full batches; the answers are the same
 * whatever the batches.
 */
#define IDLEMS	50
struct pending {
	struct batch		*b;
	const struct emb_knn	*kn;
	unsigned		 k;
	struct emb_writer	*w;
	struct report		*rp;
};

static void
answer(void *p)
{
	struct pending *a = p;

	if (a->b->n == 0)
		return;
	flush(a->b, a->kn, a->k, a->w, a->rp);
	if (a->w != NULL)
		(void)emb_writer_flush(a->w);
	fflush(stdout);
}

static void
run(const struct emb_knn *kn, const char *path)
{
	int fd = openin(path);
	struct emb_reader *r;
	struct emb_writer *w = NULL;
	struct batch b;
	struct report rp;
	struct agroup g;
	struct emb_buf gkey = { 0 };
	uint32_t dim = emb_knn_dim(kn);
	unsigned k = rflag ? 1 : kopt;
	struct pending idle = { &b, kn, k, NULL, &rp };

	qname = inname(path);
	r = xreader(fd, qname);
	if (emb_reader_dim(r) != dim)
		errx(1, "%s: dimension %u, expected %u as the reference set",
		    qname, emb_reader_dim(r), dim);
	if (bflag)
		w = xwriter(dim);
	memset(&rp, 0, sizeof(rp));
	memset(&g, 0, sizeof(g));
	batchinit(&b, dim, k);
	idle.w = w;
	emb_reader_idle(r, IDLEMS, answer, &idle);
	for (unsigned i = 0; i < 3; i++)
		if ((g.vec[i] = emb_alloc((size_t)dim * sizeof(float))) == NULL)
			err(1, "malloc");
	queries(r, kn, &b, &g, &gkey, k, w, &rp);
	flush(&b, kn, k, w, &rp);
	if (rflag) {
		endsection(&rp);
		printf("Questions seen / total: %llu %llu   %.2f %%\n",
		    rp.seen, rp.total,
		    rp.total ? 100.0 * rp.seen / rp.total : 0.0);
	}
	if (w != NULL)
		wclose(w);
	fshut(stdout, "stdout");
	warnings();
	emb_reader_free(r);
	if (fd != STDIN_FILENO)
		close(fd);
	batchfree(&b);
	free(rp.sect.p);
	free(g.key.p);
	free(gkey.p);
	for (unsigned i = 0; i < 4; i++)
		free(g.word[i].p);
	for (unsigned i = 0; i < 3; i++)
		emb_free(g.vec[i]);
}

/* The options; @return the operands' index in argv. */
static int
options(int argc, char *argv[])
{
	int ch;

	while ((ch = optget(argc, argv, &prog, NULL)) != -1) {
		switch (ch) {
		case 'A':
			aflag = 1;
			break;
		case 'b':
			bflag = 1;
			break;
		case 'B':
			batch = (size_t)parsenum(optarg, 1, 1 << 20, "-B");
			break;
		case 'c':
			cfield = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-c");
			break;
		case 'e':
			efield = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-e");
			break;
		case 'g':
			gfield = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-g");
			break;
		case 'k':
			kopt = (unsigned)parsenum(optarg, 1, 1 << 20, "-k");
			break;
		case 'q':
			qfield = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-q");
			break;
		case 'R':
			rflag = aflag = 1;
			break;
		case 's':
			sflag = 1;
			break;
		case 'j':
		case 't':	/* the old spelling of -j */
			nthreads = (unsigned)parsenum(optarg, 1, EMB_MAXTHREADS,
			    ch == 'j' ? "-j" : "-t");
			break;
		case 'v':
			vflag = 1;
			break;
		case OPT_QUIETL:
			vflag = 0;
			break;
		case OPT_SIM:
			simcol = 1;
			break;
		case OPT_COSMUL:
			cosmul = 1;
			break;
		case OPT_CSLS:
			cslsk = (unsigned)parsenum(optarg, 1, 1 << 20,
			    "--csls");
			break;
		case OPT_MUTUAL:
			mutual = 1;
			break;
		case 'W':
			weighted = 1;
			break;
		case 'w':
			wfield = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-w");
			break;
		case 'x':
			xfield = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-x");
			break;
		default:
			usage();
		}
	}
	return optind;
}

/* The options that do not go together, and the operands (argc of argv). */
static void
misuses(int argc, char *argv[])
{
	if (argc < 1)
		misuse("no reference: name the reference set first");
	if (argc > 2)
		misuse("a reference set and one query file at most");
	if (weighted && !cfield)
		misuse("-W goes with -c only");
	if (aflag && (cfield || sflag || xfield || qfield))
		misuse("-A and -R take no -c, -s, -x or -q");
	if (!aflag && (efield || gfield))
		misuse("-e and -g go with -A or -R only");
	if (bflag && (cfield || rflag))
		misuse("-b takes no -c or -R");
	if (cosmul && !aflag)
		misuse("--cosmul goes with -A or -R only");
	if (cslsk && mutual)
		misuse("--csls and --mutual are two ways: choose one");
	if ((cslsk || mutual) && (aflag || bflag || cfield || sflag ||
	    xfield || qfield))
		misuse("--csls and --mutual take no -A, -b, -c, -s, -x or -q");
	if (strcmp(argv[0], "-") == 0 && (argc == 1 ||
	    strcmp(argv[1], "-") == 0))
		misuse("the reference set and the queries cannot both be "
		    "standard input");
}

/* -v: the sizes, the times and what the searches did. */
static void
timings(const struct emb_knn *kn, double tload)
{
	fprintf(stderr, "emb-knn: %zu references x %u read in %.3f s; "
	    "%llu queries searched in %.3f s: %.0f queries/s, "
	    "%.1f GFLOP/s, %u threads\n", emb_knn_count(kn),
	    emb_knn_dim(kn), tload, nquery, tsearch,
	    tsearch > 0 ? nquery / tsearch : 0.0, tsearch > 0 ? 2.0 *
	    nquery * emb_knn_count(kn) * emb_knn_dim(kn) / tsearch /
	    1e9 : 0.0, nthreads);
	if (done.pairs > 0)
		fprintf(stderr, "emb-knn: %s bounds: %llu pairs scored from "
		    "codes, %llu through float32 GEMM, %llu of %llu rescored "
		    "exactly (%.4f %%)\n", emb_knn_pathname(done.path),
		    (unsigned long long)done.coded,
		    (unsigned long long)done.flt,
		    (unsigned long long)done.rescored,
		    (unsigned long long)done.pairs,
		    100.0 * (double)done.rescored / (double)done.pairs);
}

int
main(int argc, char *argv[])
{
	static char obuf[OBUFSZ];
	struct emb_knn *kn;
	double t0, tload;
	int n;

	knnenv();
	n = options(argc, argv);
	argc -= n;
	argv += n;
	misuses(argc, argv);
	if (nthreads == 0)
		nthreads = (unsigned)emb_ncpu();
	if (!bflag)
		setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	t0 = emb_now();
	refname = inname(argv[0]);
	kn = loadref(argv[0]);
	tload = emb_now() - t0;
	if (cslsk || mutual) {
		size_t nq;

		knncross(kn, inname(argv[0]), argc > 1 ? argv[1] : NULL, kopt,
		    cslsk, nthreads, &nq, &tsearch);
		nquery = nq;
	} else
		run(kn, argc > 1 ? argv[1] : NULL);
	if (vflag)
		timings(kn, tload);
	emb_knn_free(kn);
	return 0;
}
