/*
 * emb-sim - the similarities inside each group of an emb(5) stream: the
 * cosine of every pair of members (gensim's similarity, for a line of two
 * words), or the member that does not match the others (gensim's
 * doesnt_match): the one least similar to the mean of the members' unit
 * vectors.  A group is held while it is read; nothing else grows.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"

static const struct opt opts[] = {
	{ 'k', "word-field", "field", "a member's word is this key field "
	    "(default 1)", NULL },
	{ 'o', "odd", NULL, "the member that does not match, not the pairs",
	    NULL },
	OPT_QUIET("no summary (default)"),
	OPT_VERBOSE("a summary"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-sim",
	    "usage: emb-sim [-oqv] [-k field] [file]\n", opts };

/* One group as read: its key, its members' words and vectors. */
struct group {
	struct emb_buf	 key, words;
	struct wref {
		size_t	 off, len;
	}		*w;
	size_t		 wcap;
	float		*vec;
	size_t		 vcap, n;
	uint64_t	 recno;
};

/* The options and the counts of the summary. */
struct sim {
	unsigned	 field;		/* -k */
	int		 odd;		/* -o */
	uint32_t	 dim;
	uint64_t	 ngroups, nlines, nfew, nzero;
};

static void
putfield(const char *s, size_t n)
{
	fwrite(s, 1, n, stdout);
}

static void
putnum(double d)
{
	char num[32];

	putchar('\t');
	putfield(num, dtoa(num, d));
}

/* The word of member i: key field -k, or its whole key. */
static void
word(const struct group *g, size_t i)
{
	putfield((const char *)g->words.p + g->w[i].off, g->w[i].len);
}

/* Every pair i < j: key TAB word i TAB word j TAB cosine. */
static void
pairs(struct sim *s, const struct group *g)
{
	for (size_t i = 0; i < g->n; i++)
		for (size_t j = i + 1; j < g->n; j++) {
			putfield((const char *)g->key.p, g->key.len);
			putchar('\t');
			word(g, i);
			putchar('\t');
			word(g, j);
			putnum(1 - emb_knn_distance(g->vec + i * s->dim,
			    g->vec + j * s->dim, s->dim));
			putchar('\n');
			s->nlines++;
		}
}

/* Byte order of two words, then length, as Python orders str. */
static int
wordcmp(const struct group *g, size_t a, size_t b)
{
	size_t la = g->w[a].len, lb = g->w[b].len;
	int c = memcmp((const char *)g->words.p + g->w[a].off,
	    (const char *)g->words.p + g->w[b].off, la < lb ? la : lb);

	return c != 0 ? c : (la > lb) - (la < lb);
}

/*
 * The odd one: the members as unit vectors (a zero one left out, as an
 * unknown word is by gensim), their mean made a unit vector, and the
 * member of the lowest cosine to it, in double; cosines within TIE of
 * each other count as equal, and the first word in byte order wins
 * (gensim sorts (cosine, word) pairs; two members are always such a tie).
 * key TAB word TAB its cosine to the mean (at most 1).
 */
#define TIE	0x1p-40
static void
odd(struct sim *s, const struct group *g, double *mean, double *cosv)
{
	size_t best = SIZE_MAX, used = 0;
	double mn = 0;

	memset(mean, 0, s->dim * sizeof(*mean));
	for (size_t i = 0; i < g->n; i++) {
		const float *v = g->vec + i * s->dim;
		double nn = 0;

		for (uint32_t d = 0; d < s->dim; d++)
			nn += (double)v[d] * v[d];
		cosv[i] = nn > 0 ? 1 / sqrt(nn) : 0;
		if (nn > 0) {
			used++;
			for (uint32_t d = 0; d < s->dim; d++)
				mean[d] += v[d] * cosv[i];
		}
	}
	for (uint32_t d = 0; d < s->dim; d++)
		mn += mean[d] * mean[d];
	if (used == 0 || !(mn > 0)) {
		s->nzero++;
		return;
	}
	mn = sqrt(mn);
	for (size_t i = 0; i < g->n; i++) {
		const float *v = g->vec + i * s->dim;
		double dot = 0;

		if (cosv[i] == 0)
			continue;
		for (uint32_t d = 0; d < s->dim; d++)
			dot += v[d] * mean[d];
		cosv[i] *= dot / mn;
		if (cosv[i] > 1)
			cosv[i] = 1;
		if (best == SIZE_MAX || cosv[i] < cosv[best] - TIE ||
		    (fabs(cosv[i] - cosv[best]) <= TIE &&
		    wordcmp(g, i, best) < 0))
			best = i;
	}
	putfield((const char *)g->key.p, g->key.len);
	putchar('\t');
	word(g, best);
	putnum(cosv[best]);
	putchar('\n');
	s->nlines++;
}

/* A group complete: its pairs or its odd member. */
static void
done(struct sim *s, struct group *g, double *mean, double **cosv,
    size_t *ccap)
{
	s->ngroups++;
	if (g->n < (s->odd ? 1u : 2u)) {
		s->nfew++;
		return;
	}
	if (s->odd) {
		xgrow(cosv, ccap, g->n, sizeof(**cosv));
		odd(s, g, mean, *cosv);
	} else
		pairs(s, g);
}

static void
run(struct sim *s, struct emb_reader *r, const char *name)
{
	struct group g;
	struct emb_rec rec;
	double *mean, *cosv = NULL;
	size_t ccap = 0;
	uint32_t nmemb = 0;
	int rc, open = 0;

	memset(&g, 0, sizeof(g));
	s->dim = emb_reader_dim(r);
	mean = xcalloc(s->dim, sizeof(*mean));
	while ((rc = emb_reader_next(r, &rec)) > 0) {
		if (rec.type == EMB_REC_GROUP || rec.group == 0) {
			if (open)
				done(s, &g, mean, &cosv, &ccap);
			g.key.len = 0;
			xbufadd(&g.key, rec.key, rec.keylen);
			g.words.len = 0;
			g.n = 0;
			g.recno = rec.recno;
			nmemb = rec.type == EMB_REC_GROUP ? rec.nmemb : 1;
			open = 1;
		}
		if (rec.type == EMB_REC_VEC) {
			size_t flen;
			const char *w = keyfield(rec.key, rec.keylen,
			    s->field, &flen);

			if (w == NULL) {
				w = rec.key;
				flen = rec.keylen;
			}
			xgrow(&g.w, &g.wcap, g.n + 1, sizeof(*g.w));
			xgrow(&g.vec, &g.vcap, (g.n + 1) * s->dim,
			    sizeof(*g.vec));
			g.w[g.n].off = g.words.len;
			g.w[g.n].len = flen;
			xbufadd(&g.words, w, flen);
			memcpy(g.vec + g.n * s->dim, rec.vec, s->dim *
			    sizeof(float));
			g.n++;
			if (rec.group == 0 || rec.member >= nmemb) {
				done(s, &g, mean, &cosv, &ccap);
				open = 0;
			}
		} else if (nmemb == 0) {
			done(s, &g, mean, &cosv, &ccap);
			open = 0;
		}
	}
	if (rc < 0)
		rdie(r, name, rc);
	if (open)
		done(s, &g, mean, &cosv, &ccap);
	fshut(stdout, "stdout");
	free(mean);
	free(cosv);
	free(g.key.p);
	free(g.words.p);
	free(g.w);
	free(g.vec);
}

int
main(int argc, char *argv[])
{
	struct sim s = { .field = 1 };
	struct emb_reader *r;
	const char *name;
	int verbose = 0, c, fd;

	while ((c = optget(argc, argv, &prog, NULL)) != -1) {
		switch (c) {
		case 'k':
			s.field = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-k");
			break;
		case 'o':
			s.odd = 1;
			break;
		case 'q':
			verbose = 0;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		misuse("one input file at most");
	name = inname(argv[0]);
	fd = openin(argv[0]);
	r = xreader(fd, name);
	run(&s, r, name);
	if (s.nfew > 0)
		warnx("%s: groups of fewer than %d members: %llu, no line for "
		    "them", name, s.odd ? 1 : 2, (unsigned long long)s.nfew);
	if (s.nzero > 0)
		warnx("%s: groups of zero vectors only: %llu, no line for "
		    "them", name, (unsigned long long)s.nzero);
	if (verbose)
		fprintf(stderr, "emb-sim: %s: %llu groups, %llu lines\n", name,
		    (unsigned long long)s.ngroups,
		    (unsigned long long)s.nlines);
	emb_reader_free(r);
	if (fd != 0)
		close(fd);
	return 0;
}
