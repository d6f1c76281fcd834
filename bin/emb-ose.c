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
 * is the same whatever the number of threads.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "compose.h"

#define BATCH	64		/* groups per batch */

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
};

static size_t batchn = BATCH;	/* groups per batch, by the dimension */
static enum mode mode = M_OSE;
static enum policy pempty = P_ZERO, pnosol = P_BOV;
static int appalpha, appsize, quiet;
static long nthreads = -1;	/* -j; default: online CPUs */
static long dfield;		/* -D: 1-based member key field */
static const char *sidefile;	/* -F */
static double calpha = -1;	/* -c */
static uint32_t dim;
static const char *name;

/*
 * Batches: slots[seq % nslot] holds batch seq from its reading to its
 * writing.  rmu guards the input (rd, side, sline, eof); mu and cv the
 * counts below and each slot's done.
 */
static struct slot *slots;
static size_t nslot;
static uint64_t nfilled, nout;
static uint64_t nread;		/* groups read (under rmu) */
static long nexited;		/* workers that met the end */
static struct emb_reader *rd;
static FILE *side;
static unsigned long long sline;
static int eof;
static pthread_mutex_t rmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

/* Counts for the summary. */
static uint64_t ngroups, nwritten, nok, northo, nempty, nnosol, nzeromemb,
    nrepeat;

static void
usage(int help)
{
	fprintf(help ? stdout : stderr,
	    "usage: emb-ose [-aqs] [-e policy] [-j threads] [-n policy] "
	    "[file]\n"
	    "       emb-ose -p [-aqs] [-c alpha | -D field | -F distfile] "
	    "[-e policy]\n"
	    "               [-j threads] [-n policy] [file]\n"
	    "       emb-ose -i [-q] [-j threads] [file]\n");
	exit(help ? 0 : 2);
}

/* Unit-length arithmetic mean of the members: the -n bov fallback. */
static void
bovunit(const struct emb_group *g, float *x, double *acc)
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
compute(struct emb_ose *o, struct slot *sl, double *acc)
{
	for (size_t i = 0; i < sl->n; i++) {
		struct emb_group *g = &sl->g[i];
		float *x = sl->x + i * dim;
		int rc;

		switch (mode) {
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
		if ((rc == EMB_ENOSOL || rc == EMB_EZERO) && pnosol == P_BOV)
			bovunit(g, x, acc);
		/*
		 * A component that is zero may come out as -0 or +0 depending
		 * on the kernel the CPU selects; write +0 so that the output
		 * does not depend on the machine (-0 + 0 is +0).
		 */
		if (mode != M_IV && g->nmemb > 0)
			for (uint32_t j = 0; j < dim; j++)
				x[j] += 0.0f;
		sl->rc[i] = rc;
	}
}

static void distances(struct slot *, size_t);

/*
 * Read the next batch into its slot, once the slot's previous batch is
 * written; called with rmu held.  @return the slot, or NULL at the end.
 */
static struct slot *
readbatch(void)
{
	uint64_t seq = nfilled;
	struct slot *sl = &slots[seq % nslot];
	int rc;

	if (eof)
		return NULL;
	pthread_mutex_lock(&mu);
	while (nout + nslot <= seq)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	sl->n = 0;
	sl->done = 0;
	while (sl->n < batchn) {
		struct emb_group *g = &sl->g[sl->n];

		if ((rc = emb_group_read(rd, g, dfield > 0)) < 0)
			rdie(rd, name, rc);
		if (rc == 0) {
			eof = 1;
			break;
		}
		if (mode == M_P2)
			distances(sl, sl->n);
		/* Result rows for the groups read, not for a whole batch of
		 * the dimension the header declares. */
		if (sl->n >= sl->xcap) {
			sl->xcap = sl->xcap ? 2 * sl->xcap : 1;
			sl->x = xreallocarray(sl->x, sl->xcap * dim,
			    sizeof(float));
		}
		sl->n++;
		nread++;
	}
	if (sl->n == 0)
		return NULL;
	pthread_mutex_lock(&mu);
	nfilled++;
	pthread_mutex_unlock(&mu);
	return sl;
}

static void *
worker(void *arg)
{
	struct emb_ose *o;
	struct slot *sl;
	double *acc = xcalloc(dim, sizeof(double));
	int rc;

	(void)arg;
	if ((rc = emb_ose_create(&o, dim)) < 0)
		errx(1, "%s", emb_strerror(rc));
	for (;;) {
		pthread_mutex_lock(&rmu);
		sl = readbatch();
		pthread_mutex_unlock(&rmu);
		if (sl == NULL)
			break;
		compute(o, sl, acc);
		pthread_mutex_lock(&mu);
		sl->done = 1;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
	}
	pthread_mutex_lock(&mu);
	nexited++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	emb_ose_free(o);
	free(acc);
	return NULL;
}

/* Parse the distance in text s (NUL-terminated); exit 1 naming where. */
static double
distance(const char *s, const char *where, unsigned long long n)
{
	char *end, q[EMB_QUOTE_BUF];
	double a;

	errno = 0;
	a = strtod(s, &end);
	if (end == s || errno == ERANGE || !(a >= 0 && a <= 2))
		errx(1, "%s %llu: '%s' is not a distance in [0, 2]", where, n,
		    emb_quotes(q, s));
	return a;
}

/* The distances of group g (Problem 2) into sl->alpha[i]. */
static void
distances(struct slot *sl, size_t i)
{
	struct emb_group *g = &sl->g[i];
	char where[512];
	double *a;

	if (g->nmemb > sl->acap[i]) {
		sl->alpha[i] = xreallocarray(sl->alpha[i], g->nmemb,
		    sizeof(double));
		sl->acap[i] = g->nmemb;
	}
	a = sl->alpha[i];
	if (calpha >= 0) {
		for (uint32_t j = 0; j < g->nmemb; j++)
			a[j] = calpha;
	} else if (dfield > 0) {
		for (uint32_t j = 0; j < g->nmemb; j++) {
			size_t len, flen;
			const char *k = emb_group_mkey(g, j, &len), *d;
			unsigned long long rn = g->recno + (g->lone ? 0 : j + 1);
			char buf[64];

			if ((d = keyfield(k, len, (unsigned)dfield,
			    &flen)) == NULL || flen == 0 || flen >= sizeof(buf))
				errx(1, "%s: record %llu: no distance in key "
				    "field %ld", name, rn, dfield);
			memcpy(buf, d, flen);
			buf[flen] = '\0';
			snprintf(where, sizeof(where), "%s: record", name);
			a[j] = distance(buf, where, rn);
		}
	} else {
		static char *line;
		static size_t cap;
		char *p, *tok;
		uint32_t j = 0;

		if (getline(&line, &cap, side) < 0)
			errx(1, "%s: ends before group %llu", sidefile,
			    (unsigned long long)nread + 1);
		++sline;
		snprintf(where, sizeof(where), "%s: line", sidefile);
		for (p = line; (tok = strtok(p, " \t\r\n")) != NULL; p = NULL) {
			if (j == g->nmemb)
				break;
			a[j++] = distance(tok, where, sline);
		}
		if (j != g->nmemb || tok != NULL)
			errx(1, "%s: line %llu: %s distances for a group of "
			    "%u members", sidefile, sline,
			    tok != NULL ? "more" : "fewer", g->nmemb);
	}
}

/* Report a group the policy says is an error, and exit 1. */
static void
fail(const struct emb_group *g, int rc, const struct emb_ose_info *in)
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
		if (mode == M_OSE)
			errx(1, "%s: record %llu: no equidistant vector: the "
			    "%u distinct members span all %u dimensions",
			    name, (unsigned long long)g->recno, in->nuse,
			    dim);
		if (in->resid > 0)
			errx(1, "%s: record %llu: no vector at these "
			    "distances: dependent members, inconsistent "
			    "distances (residual %.3g)", name,
			    (unsigned long long)g->recno, in->resid);
		errx(1, "%s: record %llu: no vector at these distances: "
		    "||V^t (V V^t)^-1 w|| = %.9g > 1", name,
		    (unsigned long long)g->recno, in->znorm);
	default:
		what = emb_strerror(rc);
	}
	errx(1, "%s: record %llu: %s", name, (unsigned long long)g->recno,
	    what);
}

static const char *const ivkind[] = { "range", "points", "one", "none" };

/* Write the results of a batch, in order. */
static void
emit(struct emb_writer *w, struct slot *sl, struct okey *k, float *zero)
{
	for (size_t i = 0; i < sl->n; i++) {
		struct emb_group *g = &sl->g[i];
		struct emb_ose_info *in = &sl->info[i];
		const float *x = sl->x + i * dim;
		int rc = sl->rc[i], known = 1;
		enum policy p;

		ngroups++;
		nzeromemb += in->nzero;
		nrepeat += in->ndup;
		if (rc == EMB_ENOMEM || rc == EMB_ELIMIT || rc == EMB_EINVAL)
			errx(1, "%s: record %llu: %s", name,
			    (unsigned long long)g->recno, emb_strerror(rc));
		if (mode == M_IV) {
			if (rc == EMB_EEMPTY) {
				nempty++;
				printf("%s\t-\t-\tempty\n", g->key);
			} else {
				nok++;
				printf("%s\t%.9g\t%.9g\t%s\n", g->key,
				    rc == EMB_IV_NONE ? 0 : sl->lo[i],
				    rc == EMB_IV_NONE ? 0 : sl->hi[i],
				    ivkind[rc]);
			}
			nwritten++;
			continue;
		}
		if (rc >= 0) {
			if (rc == EMB_OSE_ORTH)
				northo++;
			else
				nok++;
		} else {
			if (rc == EMB_EEMPTY) {
				nempty++;
				p = pempty;
			} else {
				nnosol++;
				p = pnosol;
			}
			if (p == P_ERROR)
				fail(g, rc, in);
			if (p == P_SKIP)
				continue;
			if (p == P_ZERO || rc == EMB_EEMPTY)
				x = zero;
			known = 0;
		}
		okey_set(k, g->key, g->keylen);
		if (appalpha) {
			if (!known)
				okey_add(k, "-");
			else if (mode == M_P2)
				okey_add(k, "%.9g", in->znorm);
			else
				okey_add(k, "%.9g", in->alpha);
		}
		if (appsize)
			okey_add(k, "%u", g->nmemb);
		keyfits(k->len, name, "record", g->recno);
		if ((rc = emb_write_vec(w, k->buf, k->len, x)) < 0)
			wdie(rc);
		nwritten++;
	}
}

static void
summary(void)
{
	if (quiet)
		return;
	if (mode == M_IV) {
		fprintf(stderr, "emb-ose: %s: %llu groups: %llu intervals, "
		    "%llu empty; %llu zero and %llu repeated members left "
		    "out\n", name, (unsigned long long)ngroups,
		    (unsigned long long)nok, (unsigned long long)nempty,
		    (unsigned long long)nzeromemb,
		    (unsigned long long)nrepeat);
		return;
	}
	fprintf(stderr, "emb-ose: %s: %llu groups, %llu written: %llu %s, "
	    "%llu orthogonal, %llu empty (%s), %llu without solution (%s); "
	    "%llu zero and %llu repeated members left out\n", name,
	    (unsigned long long)ngroups, (unsigned long long)nwritten,
	    (unsigned long long)nok, mode == M_P2 ? "solved" : "ose",
	    (unsigned long long)northo, (unsigned long long)nempty,
	    policyname[pempty], (unsigned long long)nnosol,
	    policyname[pnosol], (unsigned long long)nzeromemb,
	    (unsigned long long)nrepeat);
}

int
main(int argc, char *argv[])
{
	static const struct option lopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "threads", required_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct emb_writer *w = NULL;
	struct emb_ose *o = NULL;
	struct okey k = { 0 };
	struct slot *sl;
	pthread_t *tid;
	float *zero;
	double *acc;
	int c, rc, fd, nsrc;

	while ((c = getopt_long(argc, argv, "ac:D:e:F:hij:n:pqsv", lopts,
	    NULL)) != -1) {
		switch (c) {
		case 'a':
			appalpha = 1;
			break;
		case 'c':
			calpha = parsedbl(optarg, 0, 2, "-c");
			break;
		case 'D':
			dfield = (long)parsenum(optarg, 1, EMB_FIELD_MAX, "-D");
			break;
		case 'e':
			pempty = parsepolicy(optarg, 0, "-e");
			break;
		case 'F':
			sidefile = optarg;
			break;
		case 'i':
			mode = M_IV;
			break;
		case 'j':
			nthreads = (long)parsenum(optarg, 0, 64, "-j");
			break;
		case 'n':
			pnosol = parsepolicy(optarg, 1, "-n");
			break;
		case 'p':
			mode = M_P2;
			break;
		case 'q':
			quiet = 1;
			break;
		case 's':
			appsize = 1;
			break;
		case 'v':
			quiet = 0;
			break;
		case 'V':
			puts("emb-ose " EMB_VERSION);
			return 0;
		case 'h':
			usage(1);
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(0);
	nsrc = (calpha >= 0) + (dfield > 0) + (sidefile != NULL);
	if (mode == M_P2 ? nsrc != 1 : nsrc != 0) {
		warnx("-p needs exactly one of -c, -D, -F, and they need -p");
		usage(0);
	}
	if (mode == M_IV && (appalpha || appsize))
		usage(0);
	if (nthreads < 0) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		nthreads = ncpu < 1 ? 1 : ncpu > 64 ? 64 : ncpu;
	}
	if (sidefile != NULL)
		side = fopenside(sidefile);

	name = inname(argv[0]);
	fd = openin(argv[0]);
	bigpipe(fd);
	rd = xreader(fd, name);
	dim = emb_reader_dim(rd);
	if (mode == M_IV) {
		static char obuf[1 << 18];

		setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	} else
		w = xwriter(dim);
	zero = xcalloc(dim, sizeof(float));
	acc = xcalloc(dim, sizeof(double));

	/* Groups per batch: BATCH, or as many result rows as fit 8 MiB. */
	batchn = ((size_t)8 << 20) / ((size_t)dim * sizeof(float));
	batchn = batchn > BATCH ? BATCH : batchn > 0 ? batchn : 1;
	nslot = nthreads > 0 ? 2 * (size_t)nthreads + 2 : 1;
	slots = xcalloc(nslot, sizeof(*slots));
	if (nthreads == 0 && (rc = emb_ose_create(&o, dim)) < 0)
		errx(1, "%s", emb_strerror(rc));
	tid = xcalloc(nthreads ? (size_t)nthreads : 1, sizeof(*tid));
	for (long t = 0; t < nthreads; t++)
		if ((errno = pthread_create(&tid[t], NULL, worker, NULL)) != 0)
			err(1, "pthread_create");

	if (nthreads == 0)
		while ((sl = readbatch()) != NULL) {
			compute(o, sl, acc);
			emit(w, sl, &k, zero);
			nout++;
		}
	/* Write the batches in order as the workers finish them. */
	pthread_mutex_lock(&mu);
	for (;;) {
		while (nout == nfilled && nexited < nthreads)
			pthread_cond_wait(&cv, &mu);
		if (nout == nfilled)
			break;
		sl = &slots[nout % nslot];
		while (!sl->done)
			pthread_cond_wait(&cv, &mu);
		pthread_mutex_unlock(&mu);
		emit(w, sl, &k, zero);
		pthread_mutex_lock(&mu);
		nout++;
		pthread_cond_broadcast(&cv);
	}
	pthread_mutex_unlock(&mu);
	for (long t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	if (side != NULL) {
		char *line = NULL;
		size_t cap = 0;

		if (getline(&line, &cap, side) >= 0)
			errx(1, "%s: more lines than groups", sidefile);
		free(line);
		fclose(side);
	}
	if (w != NULL)
		wclose(w);
	else
		fshut(stdout, "stdout");
	summary();

	for (size_t i = 0; i < nslot; i++) {
		for (size_t j = 0; j < BATCH; j++) {
			emb_group_free(&slots[i].g[j]);
			free(slots[i].alpha[j]);
		}
		free(slots[i].x);
	}
	free(slots);
	free(tid);
	free(zero);
	free(acc);
	free(k.buf);
	emb_ose_free(o);
	emb_reader_free(rd);
	if (fd != 0)
		close(fd);
	return 0;
}
