/*
 * emb-ose - compose each group of an emb(5) stream into its Optimal
 * Synthesis Embedding: the unit vector at the same cosine distance from
 * every member and, among those, the closest to them.  Also Problem 2 (a
 * vector at given distances from the members) and the interval of common
 * distances a group admits.
 *
 * Worker threads (-j) take turns reading a batch of groups and compute
 * it, so that a batch is solved on the core that read it, while its data
 * is in that core's cache; the main thread writes the results in input
 * order.  Each group's result depends on that group alone, so the output
 * is the same whatever the number of threads.  A worker never exits: an
 * error it meets while reading a batch is kept with the batch, and the
 * main thread reports it when that batch's turn to be written comes, after
 * every batch before it, as with no worker thread (-j 0).
 */
#include <err.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"
#include "compose.h"

#define BATCH	64		/* groups per batch */
#define MAXJOBS	64		/* -j at most */

enum mode { M_OSE, M_P2, M_IV };

/* One batch of groups and their results. */
struct slot {
	struct emb_group	 g[BATCH];
	double			*alpha[BATCH];	/* -p: distance per member */
	size_t			 acap[BATCH];
	int			 rc[BATCH];	/* solver result per group */
	struct emb_ose_info	 info[BATCH];
	double			 lo[BATCH], hi[BATCH];	/* -i */
	float			*x;		/* xcap x dim results */
	size_t			 xcap;		/* rows of x, grown as read */
	size_t			 n;		/* groups in the batch */
	int			 done;		/* computed */
	int			 failed;	/* reading it met p->err */
};

/*
 * The pipeline: the options, the input, the batches in flight and the
 * counts.  Batches: slots[seq % nslot] holds batch seq from its reading
 * to its writing.  rmu guards the input (rd, side, sline, line, nread,
 * eof, err); mu and cv the counts nfilled, nout, nexited and each slot's
 * done.
 */
struct pipe {
	/* Options. */
	enum mode		 mode;
	enum policy		 pempty, pnosol;
	int			 appalpha, appsize, appwords, quiet;
	long			 nthreads;	/* -j, default: emb_ncpu() */
	long			 dfield;	/* -D: member key field, 1-based */
	const char		*sidefile;	/* -F */
	double			 calpha;	/* -c */
	struct okey		 words;		/* -W: the members' words */
	struct okey		 rkey, rwords;	/* the same as read, under rmu */

	/* The input. */
	const char		*name;
	struct emb_reader	*rd;
	uint32_t		 dim;
	struct textin		 side;		/* -F */
	unsigned long long	 sline;		/* its lines read */
	char			*line;		/* its line, in side's buffer */
	uint64_t		 nread;		/* groups read */
	int			 eof;		/* no more batches */

	/*
	 * The error met reading a batch (that slot's failed is set): a
	 * reader's code for rdie(), or 0 and the message in emsg (NULL: no
	 * memory for it), with the errno to append (0: none).
	 */
	int			 err;
	char			*emsg;
	int			 eno;

	/* Batches. */
	size_t			 batchn;	/* groups a batch holds */
	struct slot		*slots;
	size_t			 nslot;
	uint64_t		 nfilled, nout;	/* batches read, written */
	long			 nexited;	/* workers ended */
	pthread_mutex_t		 rmu, mu;
	pthread_cond_t		 cv;

	/* Counts for the summary. */
	uint64_t		 ngroups, nwritten, nok, northo, nempty,
				 nnosol, nzeromemb, nrepeat;
};

/* A worker thread and its solver. */
struct worker {
	struct pipe		*p;
	struct emb_ose		*o;
	double			*acc;		/* dim scratch */
	pthread_t		 tid;
};

static const struct opt opts[] = {
	{ 'a', "append-alpha", NULL, "append the common distance alpha to the "
	    "key", NULL },
	{ 'c', "distance", "alpha", "Problem 2, the same distance alpha to "
	    "every member", NULL },
	{ 'D', "distance-field", "field", "Problem 2, each member's distance "
	    "from this key field", NULL },
	{ 'e', "empty", "policy", "an empty group: error, skip or zero",
	    "error skip zero" },
	{ 'F', "distance-file", "distfile", "Problem 2, the distances from "
	    "distfile, a line a group", OPT_FILE },
	{ 'i', "interval", NULL, "print each group's interval of common "
	    "distances", NULL },
	{ 'j', "threads", "threads", "worker threads, 0 to 64 (default: the "
	    "processors online; 0: none)", NULL },
	{ 'n', "no-solution", "policy", "a group without a solution: error, "
	    "skip, bov (default) or zero", "error skip bov zero" },
	{ 'p', "problem2", NULL, "solve Problem 2 (with -c, -D or -F)", NULL },
	{ 's', "append-count", NULL, "append the group's member count to its "
	    "key", NULL },
	{ 'W', "append-words", NULL, "append the members' words (key field 1) "
	    "to its key, for emb-knn -x", NULL },
	OPT_QUIET("no summary"),
	OPT_VERBOSE("the summary (default)"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-ose",
	    "usage: emb-ose [-aqsW] [-e policy] [-j threads] [-n policy] "
	    "[file]\n"
	    "       emb-ose -p [-aqsW] [-c alpha | -D field | -F distfile] "
	    "[-e policy]\n"
	    "               [-j threads] [-n policy] [file]\n"
	    "       emb-ose -i [-q] [-j threads] [file]\n", opts };

/* Unit-length arithmetic mean of the members: the -n bov fallback. */
static void
bovunit(const struct emb_group *g, uint32_t dim, float *x, double *acc)
{
	double s = 0;

	emb_pool(EMB_POOL_MEAN, g->v, g->nmemb, dim, NULL, x, acc);
	for (uint32_t k = 0; k < dim; k++)
		s += acc[k] * acc[k];
	s = sqrt(s);
	for (uint32_t k = 0; k < dim; k++)
		x[k] = s > 0 ? (float)(acc[k] / s) : 0;
}

/* Solve every group of a batch. */
static void
compute(const struct pipe *p, struct emb_ose *o, struct slot *sl,
    double *acc)
{
	uint32_t dim = p->dim;

	for (size_t i = 0; i < sl->n; i++) {
		struct emb_group *g = &sl->g[i];
		float *x = sl->x + i * dim;
		int rc;

		switch (p->mode) {
		case M_OSE:
			rc = emb_ose(o, g->v, g->nmemb, x, &sl->info[i]);
			break;
		case M_P2:
			rc = emb_p2(o, g->v, g->nmemb, sl->alpha[i], x,
			    &sl->info[i]);
			break;
		default:
			rc = emb_ose_interval(o, g->v, g->nmemb, &sl->lo[i],
			    &sl->hi[i], &sl->info[i]);
			break;
		}
		if ((rc == EMB_ENOSOL || rc == EMB_EZERO) &&
		    p->pnosol == P_BOV)
			bovunit(g, dim, x, acc);
		/*
		 * A component that is zero may come out as -0 or +0 depending
		 * on the kernel the CPU selects; write +0 so that the output
		 * does not depend on the machine (-0 + 0 is +0).
		 */
		if (p->mode != M_IV && g->nmemb > 0)
			for (uint32_t j = 0; j < dim; j++)
				x[j] += 0.0f;
		sl->rc[i] = rc;
	}
}

/*
 * Keep the error met reading a batch for readfail(), with errno if
 * syserr (as err(3) words it, else as errx(3)); @return -1.  Called with
 * rmu held.
 */
static int __attribute__((format(printf, 3, 4)))
pfail(struct pipe *p, int syserr, const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	free(p->emsg);
	va_start(ap, fmt);
	if (vasprintf(&p->emsg, fmt, ap) < 0)
		p->emsg = NULL;
	va_end(ap);
	p->eno = syserr ? e : 0;
	p->err = 0;
	return -1;
}

/* *pp = reallocarray(*pp, n, sz), or pfail() as xreallocarray words it. */
static int
grow(struct pipe *p, void *pp, size_t n, size_t sz)
{
	void *q, **vp = pp;
	size_t tot;

	if (emb_mul(n, sz, &tot) < 0)
		return pfail(p, 0, "allocation of %zu x %zu bytes overflows",
		    n, sz);
	if ((q = realloc(*vp, tot ? tot : 1)) == NULL)
		return pfail(p, 1, "realloc %zu bytes", tot);
	*vp = q;
	return 0;
}

/*
 * Parse the distance in text s (NUL-terminated) into *a; @return 0, or
 * pfail() naming where.
 */
static int
distance(struct pipe *p, const char *s, const char *where,
    unsigned long long n, double *a)
{
	char *end, q[EMB_QUOTE_BUF];

	errno = 0;
	*a = strtod(s, &end);
	if (end == s || errno == ERANGE || !(*a >= 0 && *a <= 2))
		return pfail(p, 0, "%s %llu: '%s' is not a distance in [0, 2]",
		    where, n, emb_quotes(q, s));
	return 0;
}

/* The distances of group i of sl (Problem 2) into sl->alpha[i]. */
static int
distances(struct pipe *p, struct slot *sl, size_t i)
{
	struct emb_group *g = &sl->g[i];
	char where[512];
	double *a;
	char *s, *tok;
	uint32_t j = 0;

	if (g->nmemb > sl->acap[i]) {
		if (grow(p, &sl->alpha[i], g->nmemb, sizeof(double)) < 0)
			return -1;
		sl->acap[i] = g->nmemb;
	}
	a = sl->alpha[i];
	if (p->calpha >= 0) {
		for (j = 0; j < g->nmemb; j++)
			a[j] = p->calpha;
		return 0;
	}
	if (p->dfield > 0) {
		snprintf(where, sizeof(where), "%s: record", p->name);
		for (j = 0; j < g->nmemb; j++) {
			size_t len, flen;
			const char *k = emb_group_mkey(g, j, &len), *d;
			unsigned long long rn = g->recno +
			    (g->lone ? 0 : j + 1);
			char buf[64];

			if ((d = keyfield(k, len, (unsigned)p->dfield,
			    &flen)) == NULL || flen == 0 || flen >= sizeof(buf))
				return pfail(p, 0, "%s: record %llu: no "
				    "distance in key field %ld", p->name, rn,
				    p->dfield);
			memcpy(buf, d, flen);
			buf[flen] = '\0';
			if (distance(p, buf, where, rn, &a[j]) < 0)
				return -1;
		}
		return 0;
	}
	if (textline(&p->side, &p->line, p->sline + 1) < 0)
		return pfail(p, 0, "%s: ends before group %llu", p->sidefile,
		    (unsigned long long)p->nread + 1);
	++p->sline;
	snprintf(where, sizeof(where), "%s: line", p->sidefile);
	for (s = p->line; (tok = strtok(s, " \t\r\n")) != NULL; s = NULL) {
		if (j == g->nmemb)
			break;
		if (distance(p, tok, where, p->sline, &a[j++]) < 0)
			return -1;
	}
	if (j != g->nmemb || tok != NULL)
		return pfail(p, 0, "%s: line %llu: %s distances for a group "
		    "of %u members", p->sidefile, p->sline,
		    tok != NULL ? "more" : "fewer", g->nmemb);
	return 0;
}

/*
 * The output key of group g into k (ws: scratch for the words of -W):
 * its key, then the fields -a, -s and -W append; the distance of -a from
 * in, "-" when in is NULL (no result).
 */
static void
outkey(const struct pipe *p, const struct emb_group *g,
    const struct emb_ose_info *in, struct okey *k, struct okey *ws)
{
	okey_set(k, g->key, g->keylen);
	if (p->appalpha) {
		if (in == NULL)
			okey_add(k, "-");
		else if (p->mode == M_P2)
			okey_add(k, "%.9g", in->znorm);
		else
			okey_add(k, "%.9g", in->alpha);
	}
	if (p->appsize)
		okey_add(k, "%u", g->nmemb);
	if (p->appwords) {
		ws->len = 0;
		for (uint32_t j = 0; j < g->nmemb; j++) {
			size_t n;
			const char *mk = emb_group_mkey(g, j, &n);

			okey_word(ws, mk, n, 1);
		}
		okey_put(k, "\t", 1);
		if (ws->len > 0)
			okey_put(k, ws->buf, ws->len);
	}
}

/*
 * Read a group into slot sl (the distances of -p, a row for the result);
 * @return 1, 0 at the end, or -1 with p->err or p->emsg set.
 */
static int
readgroup(struct pipe *p, struct slot *sl)
{
	struct emb_group *g = &sl->g[sl->n];
	int rc;

	if ((rc = emb_group_read(p->rd, g, p->dfield > 0 ||
	    p->appwords)) < 0) {
		p->err = rc;
		return -1;
	}
	if (rc == 0)
		return 0;
	/*
	 * An output key over the limit is refused before the group is
	 * solved, as emb-bov refuses it once the group is read: with -a
	 * its distance counted as its shortest, "-".
	 */
	if (p->appwords) {
		outkey(p, g, NULL, &p->rkey, &p->rwords);
		if (p->rkey.len > EMB_KEY_MAX)
			return pfail(p, 0, "%s: record %llu: the output key "
			    "would be %s%zu bytes, over the limit of %u",
			    p->name, (unsigned long long)g->recno,
			    p->appalpha ? "at least " : "", p->rkey.len,
			    EMB_KEY_MAX);
	}
	if (p->mode == M_P2 && distances(p, sl, sl->n) < 0)
		return -1;
	/* Result rows for the groups read, not for a whole batch of the
	 * dimension the header declares. */
	if (sl->n >= sl->xcap) {
		size_t cap = sl->xcap ? 2 * sl->xcap : 1;

		if (grow(p, &sl->x, cap * p->dim, sizeof(float)) < 0)
			return -1;
		sl->xcap = cap;
	}
	return 1;
}

/*
 * Read the next batch into its slot, once the slot's previous batch is
 * written; called with rmu held.  @return the slot, or NULL at the end.
 * A batch whose reading fails comes back with failed set, and is the
 * last.
 */
static struct slot *
readbatch(struct pipe *p)
{
	uint64_t seq = p->nfilled;
	struct slot *sl = &p->slots[seq % p->nslot];
	int rc = 1;

	if (p->eof)
		return NULL;
	pthread_mutex_lock(&p->mu);
	while (p->nout + p->nslot <= seq)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
	sl->n = 0;
	sl->done = 0;
	while (sl->n < p->batchn) {
		if ((rc = readgroup(p, sl)) <= 0) {
			p->eof = 1;
			break;
		}
		sl->n++;
		p->nread++;
	}
	sl->failed = rc < 0;
	if (sl->n == 0 && !sl->failed)
		return NULL;
	pthread_mutex_lock(&p->mu);
	p->nfilled++;
	pthread_mutex_unlock(&p->mu);
	return sl;
}

static void *
work(void *arg)
{
	struct worker *wk = arg;
	struct pipe *p = wk->p;
	struct slot *sl;

	for (;;) {
		pthread_mutex_lock(&p->rmu);
		sl = readbatch(p);
		pthread_mutex_unlock(&p->rmu);
		if (sl == NULL)
			break;
		if (!sl->failed)
			compute(p, wk->o, sl, wk->acc);
		pthread_mutex_lock(&p->mu);
		sl->done = 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	pthread_mutex_lock(&p->mu);
	p->nexited++;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Report the error met reading a batch, and exit 1. */
static void __attribute__((noreturn))
readfail(const struct pipe *p)
{
	if (p->err < 0)
		rdie(p->rd, p->name, p->err);
	if (p->emsg == NULL)
		errx(1, "%s", strerror(ENOMEM));
	if (p->eno != 0) {
		errno = p->eno;
		err(1, "%s", p->emsg);
	}
	errx(1, "%s", p->emsg);
}

/* Report a group the policy says is an error, and exit 1. */
static void
fail(const struct pipe *p, const struct emb_group *g, int rc,
    const struct emb_ose_info *in)
{
	const char *what;

	switch (rc) {
	case EMB_EEMPTY:
		what = g->nmemb == 0 ? "empty group" :
		    "group of zero vectors only";
		break;
	case EMB_EZERO:
		what = "zero member: its distance is undefined";
		break;
	case EMB_ENOSOL:
		if (p->mode == M_OSE)
			errx(1, "%s: record %llu: no equidistant vector: the "
			    "%u distinct members span all %u dimensions",
			    p->name, (unsigned long long)g->recno, in->nuse,
			    p->dim);
		if (in->resid > 0)
			errx(1, "%s: record %llu: no vector at these "
			    "distances: dependent members, inconsistent "
			    "distances (residual %.3g)", p->name,
			    (unsigned long long)g->recno, in->resid);
		errx(1, "%s: record %llu: no vector at these distances: "
		    "||V^t (V V^t)^-1 w|| = %.9g > 1", p->name,
		    (unsigned long long)g->recno, in->znorm);
	default:
		what = emb_strerror(rc);
	}
	errx(1, "%s: record %llu: %s", p->name, (unsigned long long)g->recno,
	    what);
}

static const char *const ivkind[] = { "range", "points", "one", "none" };

/* Write the results of a batch, in order. */
static void
emit(struct pipe *p, struct emb_writer *w, struct slot *sl, struct okey *k,
    float *zero)
{
	if (sl->failed)
		readfail(p);
	for (size_t i = 0; i < sl->n; i++) {
		struct emb_group *g = &sl->g[i];
		struct emb_ose_info *in = &sl->info[i];
		const float *x = sl->x + i * p->dim;
		int rc = sl->rc[i], known = 1;
		enum policy pol;

		p->ngroups++;
		p->nzeromemb += in->nzero;
		p->nrepeat += in->ndup;
		if (rc == EMB_ENOMEM || rc == EMB_ELIMIT || rc == EMB_EINVAL)
			errx(1, "%s: record %llu: %s", p->name,
			    (unsigned long long)g->recno, emb_strerror(rc));
		if (p->mode == M_IV) {
			if (rc == EMB_EEMPTY) {
				p->nempty++;
				printf("%s\t-\t-\tempty\n", g->key);
			} else {
				p->nok++;
				printf("%s\t%.9g\t%.9g\t%s\n", g->key,
				    rc == EMB_IV_NONE ? 0 : sl->lo[i],
				    rc == EMB_IV_NONE ? 0 : sl->hi[i],
				    ivkind[rc]);
			}
			p->nwritten++;
			continue;
		}
		if (rc >= 0) {
			if (rc == EMB_OSE_ORTH)
				p->northo++;
			else
				p->nok++;
		} else {
			if (rc == EMB_EEMPTY) {
				p->nempty++;
				pol = p->pempty;
			} else {
				p->nnosol++;
				pol = p->pnosol;
			}
			if (pol == P_ERROR)
				fail(p, g, rc, in);
			if (pol == P_SKIP)
				continue;
			if (pol == P_ZERO || rc == EMB_EEMPTY)
				x = zero;
			known = 0;
		}
		outkey(p, g, known ? in : NULL, k, &p->words);
		keyfits(k->len, p->name, "record", g->recno);
		if ((rc = emb_write_vec(w, k->buf, k->len, x)) < 0)
			wdie(rc);
		p->nwritten++;
	}
}

static void
summary(const struct pipe *p)
{
	if (p->quiet)
		return;
	if (p->mode == M_IV) {
		fprintf(stderr, "emb-ose: %s: %llu groups: %llu intervals, "
		    "%llu empty; %llu zero and %llu repeated members left "
		    "out\n", p->name, (unsigned long long)p->ngroups,
		    (unsigned long long)p->nok, (unsigned long long)p->nempty,
		    (unsigned long long)p->nzeromemb,
		    (unsigned long long)p->nrepeat);
		return;
	}
	fprintf(stderr, "emb-ose: %s: %llu groups, %llu written: %llu %s, "
	    "%llu orthogonal, %llu empty (%s), %llu without solution (%s); "
	    "%llu zero and %llu repeated members left out\n", p->name,
	    (unsigned long long)p->ngroups, (unsigned long long)p->nwritten,
	    (unsigned long long)p->nok, p->mode == M_P2 ? "solved" : "ose",
	    (unsigned long long)p->northo, (unsigned long long)p->nempty,
	    policyname[p->pempty], (unsigned long long)p->nnosol,
	    policyname[p->pnosol], (unsigned long long)p->nzeromemb,
	    (unsigned long long)p->nrepeat);
}

/*
 * Run the batches: with no worker thread, read, solve and write each in
 * turn; else write them in order as the workers finish them.
 */
static void
run(struct pipe *p, struct emb_writer *w, struct worker *wk)
{
	struct okey k = { 0 };
	float *zero = xcalloc(p->dim, sizeof(float));
	struct slot *sl;

	if (p->nthreads == 0)
		while ((sl = readbatch(p)) != NULL) {
			if (!sl->failed)
				compute(p, wk[0].o, sl, wk[0].acc);
			emit(p, w, sl, &k, zero);
			p->nout++;
		}
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->nout == p->nfilled && p->nexited < p->nthreads)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->nout == p->nfilled)
			break;
		sl = &p->slots[p->nout % p->nslot];
		while (!sl->done)
			pthread_cond_wait(&p->cv, &p->mu);
		pthread_mutex_unlock(&p->mu);
		emit(p, w, sl, &k, zero);
		pthread_mutex_lock(&p->mu);
		p->nout++;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	free(zero);
	free(k.buf);
}

/* The options into p; @return the operands' index in argv. */
static int
options(struct pipe *p, int argc, char *argv[])
{
	int c, nsrc;

	while ((c = optget(argc, argv, &prog, NULL)) != -1) {
		switch (c) {
		case 'a':
			p->appalpha = 1;
			break;
		case 'c':
			p->calpha = parsedbl(optarg, 0, 2, "-c");
			break;
		case 'D':
			p->dfield = (long)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-D");
			break;
		case 'e':
			p->pempty = parsepolicy(optarg, 0, "-e");
			break;
		case 'F':
			p->sidefile = optarg;
			break;
		case 'i':
			p->mode = M_IV;
			break;
		case 'j':
			p->nthreads = (long)parsenum(optarg, 0, MAXJOBS, "-j");
			break;
		case 'n':
			p->pnosol = parsepolicy(optarg, 1, "-n");
			break;
		case 'p':
			p->mode = M_P2;
			break;
		case 'q':
			p->quiet = 1;
			break;
		case 's':
			p->appsize = 1;
			break;
		case 'W':
			p->appwords = 1;
			break;
		case 'v':
			p->quiet = 0;
			break;
		default:
			usage();
		}
	}
	if (argc - optind > 1)
		misuse("one input file at most");
	nsrc = (p->calpha >= 0) + (p->dfield > 0) + (p->sidefile != NULL);
	if (p->mode == M_P2 ? nsrc != 1 : nsrc != 0)
		misuse("-p needs exactly one of -c, -D, -F, and they need -p");
	if (p->mode == M_IV && (p->appalpha || p->appsize || p->appwords))
		misuse("-i prints text: no -a, -s or -W with it");
	if (p->nthreads < 0)	/* the processors, within -j's range */
		p->nthreads = emb_ncpu() < MAXJOBS ? emb_ncpu() : MAXJOBS;
	return optind;
}

/*
 * The batches in flight and nw solvers, one for each worker or for the
 * main thread (-j 0); the workers started.
 */
static struct worker *
start(struct pipe *p, size_t nw)
{
	struct worker *wk;
	int rc;

	/* Groups per batch: BATCH, or as many result rows as fit 8 MiB. */
	p->batchn = ((size_t)8 << 20) / ((size_t)p->dim * sizeof(float));
	p->batchn = p->batchn > BATCH ? BATCH : p->batchn > 0 ? p->batchn : 1;
	p->nslot = p->nthreads > 0 ? 2 * (size_t)p->nthreads + 2 : 1;
	p->slots = xcalloc(p->nslot, sizeof(*p->slots));
	wk = xcalloc(nw, sizeof(*wk));
	for (size_t t = 0; t < nw; t++) {
		wk[t].p = p;
		wk[t].acc = xcalloc(p->dim, sizeof(double));
		if ((rc = emb_ose_create(&wk[t].o, p->dim)) < 0)
			errx(1, "%s", emb_strerror(rc));
	}
	for (long t = 0; t < p->nthreads; t++)
		if ((errno = pthread_create(&wk[t].tid, NULL, work,
		    &wk[t])) != 0)
			err(1, "pthread_create");
	return wk;
}

/* The batches and the nw solvers of wk freed. */
static void
freeall(struct pipe *p, struct worker *wk, size_t nw)
{
	for (size_t i = 0; i < p->nslot; i++) {
		for (size_t j = 0; j < BATCH; j++) {
			emb_group_free(&p->slots[i].g[j]);
			free(p->slots[i].alpha[j]);
		}
		free(p->slots[i].x);
	}
	for (size_t t = 0; t < nw; t++) {
		emb_ose_free(wk[t].o);
		free(wk[t].acc);
	}
	free(wk);
	free(p->slots);
	free(p->words.buf);
	free(p->rkey.buf);
	free(p->rwords.buf);
}

int
main(int argc, char *argv[])
{
	struct pipe pp = {
		.mode = M_OSE, .pempty = P_ZERO, .pnosol = P_BOV,
		.nthreads = -1, .calpha = -1, .batchn = BATCH,
		.rmu = PTHREAD_MUTEX_INITIALIZER,
		.mu = PTHREAD_MUTEX_INITIALIZER,
		.cv = PTHREAD_COND_INITIALIZER
	};
	struct pipe *p = &pp;
	struct emb_writer *w = NULL;
	struct worker *wk;
	size_t nw;
	int fd;

	argv += options(p, argc, argv);
	if (p->sidefile != NULL)
		textopen(&p->side, openside(p->sidefile), p->sidefile);

	p->name = inname(argv[0]);
	fd = openin(argv[0]);
	bigpipe(fd);
	p->rd = xreader(fd, p->name);
	p->dim = emb_reader_dim(p->rd);
	if (p->mode == M_IV) {
		static char obuf[1 << 18];

		setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	} else
		w = xwriter(p->dim);
	nw = p->nthreads > 0 ? (size_t)p->nthreads : 1;
	wk = start(p, nw);
	run(p, w, wk);
	for (long t = 0; t < p->nthreads; t++)
		pthread_join(wk[t].tid, NULL);
	if (p->sidefile != NULL) {
		if (textline(&p->side, &p->line, p->sline + 1) >= 0)
			errx(1, "%s: more lines than groups", p->sidefile);
		textclose(&p->side);
	}
	if (w != NULL)
		wclose(w);
	else
		fshut(stdout, "stdout");
	summary(p);
	freeall(p, wk, nw);
	emb_reader_free(p->rd);
	if (fd != 0)
		close(fd);
	return 0;
}
