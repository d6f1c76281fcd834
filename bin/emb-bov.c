/*
 * emb-bov - compose each group of an emb(5) stream into one vector by
 * pooling its members: the arithmetic mean (bag of vectors, BOV), the mean
 * of unit vectors, a SIF-weighted mean, or max/min pooling.
 *
 * SIF weights a / (a + p(w)) come from a word-frequency file held in an
 * emb_index; everything else streams.
 */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"
#include "compose.h"

static const char *const methods[] = { "mean", "unit", "max", "min" };

/* The distinct words of the frequency file; word i has count wcount[i]. */
static struct strs words;
static double	*wcount;
static size_t	 wcap;
static struct emb_index wtab;	/* word -> its number */
static double total;		/* sum of the counts */

static const struct opt opts[] = {
	{ 'A', "sif-a", "a", "the SIF parameter a (default 0.001)", NULL },
	{ 'e', "empty", "policy", "an empty group: error, skip or zero",
	    "error skip zero" },
	{ 'k', "word-field", "field", "a member's word is this key field "
	    "(default 1)", NULL },
	{ 'm', "method", "method", "mean (default), unit, max or min",
	    "mean unit max min" },
	{ 's', "append-count", NULL, "append the group's member count to its "
	    "key", NULL },
	{ 'w', "frequencies", "freqfile", "SIF weights from word counts",
	    OPT_FILE },
	{ 'W', "append-words", NULL, "append the members' words (-k) to its "
	    "key, for emb-knn -x", NULL },
	OPT_QUIET("no summary"),
	OPT_VERBOSE("the summary (default)"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-bov",
	    "usage: emb-bov [-qsW] [-e policy] "
	    "[-k field] [-m method] [-w freqfile [-A a]]\n"
	    "               [file]\n", opts };

/*
 * @return 1 if s is a count as decimal digits, with at most a point and an
 * exponent (no sign, no hexadecimal, no inf or nan).
 */
static int
decimal(const char *s)
{
	const char *p = s;

	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.')
		while (isdigit((unsigned char)*++p))
			;
	if (p == s || (p == s + 1 && *s == '.'))
		return 0;
	if (*p == 'e' || *p == 'E') {
		const char *e;

		if (*++p == '+' || *p == '-')
			p++;
		for (e = p; isdigit((unsigned char)*p); p++)
			;
		if (p == e)
			return 0;
	}
	return *p == '\0';
}

/*
 * Read "word count" lines (one or more blanks or a TAB between; a word
 * seen twice has its counts added).
 */
static void
loadfreq(const char *path)
{
	struct textin in;
	char *line;
	unsigned long long lno = 0;
	ssize_t len;

	textopen(&in, openside(path), path);
	emb_index_init(&wtab, strskey, &words);
	while ((len = textline(&in, &line, lno + 1)) != -1) {
		char *sep, *end;
		size_t had;
		double c;
		int rc;

		lno++;
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0)
			continue;
		sep = line + len;
		while (sep > line && sep[-1] != ' ' && sep[-1] != '\t')
			sep--;
		errno = 0;
		c = strtod(sep, &end);
		if (sep == line)
			errx(1, "%s: line %llu: expected a word and a count",
			    path, lno);
		if (!decimal(sep) || *end != '\0' || errno || !isfinite(c)) {
			char q[EMB_QUOTE_BUF];

			errx(1, "%s: line %llu: '%s' is not a count (a decimal "
			    "number)", path, lno, emb_quotes(q, sep));
		}
		end = sep;
		while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (end == line)
			errx(1, "%s: line %llu: no word", path, lno);
		xgrow(&wcount, &wcap, words.n + 1, sizeof(*wcount));
		xbufadd(&words.b, line, (size_t)(end - line));
		if ((rc = emb_index_add(&wtab, strsend(&words), &had)) < 0)
			errx(1, "%s: %s", path, emb_strerror(rc));
		if (rc == 0) {
			had = words.n - 1;
			wcount[had] = 0;
		} else
			strspop(&words);
		wcount[had] += c;
		total += c;
		if (!isfinite(total))
			errx(1, "%s: line %llu: the counts add up to more "
			    "than %g", path, lno, DBL_MAX);
	}
	textclose(&in);
	if (!(total > 0))
		errx(1, "%s: no positive count", path);
}

/* The options, and the counts the summary tells. */
struct bov {
	enum policy	 pempty;	/* -e */
	const char	*freqfile;	/* -w */
	double		 a;		/* -A */
	long		 field;		/* -k */
	int		 how;		/* -m, EMB_POOL_* */
	int		 appsize;	/* -s */
	int		 appwords;	/* -W */
	uint64_t	 ngroups, nwritten, nempty, nzero, nknown, nwords;
};

/* The weight of member rec: a / (a + its frequency), 1 when unknown. */
static double
weight(struct bov *b, const struct emb_rec *rec)
{
	const char *wd;
	size_t flen;
	int64_t e;

	b->nwords++;
	wd = keyfield(rec->key, rec->keylen, (unsigned)b->field, &flen);
	if (wd != NULL && (e = emb_index_find(&wtab, wd, flen)) >= 0) {
		b->nknown++;
		return b->a / (b->a + wcount[e] / total);
	}
	return 1;
}

/* The groups of r (name), each pooled into a vector written to stdout. */
static void
bov(struct bov *b, struct emb_reader *r, const char *name)
{
	struct emb_rec rec;
	struct emb_writer *w;
	struct okey k = { 0 }, ws = { 0 };
	double *acc;
	long used = 0;
	uint64_t grecno = 0;
	uint32_t dim = emb_reader_dim(r), nmemb = 0;
	float *out, *zero;
	int rc;

	w = xwriter(dim);
	acc = xcalloc(dim, sizeof(double));
	out = xcalloc(dim, sizeof(float));
	zero = xcalloc(dim, sizeof(float));
	/*
	 * Members are pooled as they arrive; a group ends after its last
	 * member (at once for an empty group, or a lone record).
	 */
	while ((rc = emb_reader_next(r, &rec)) > 0) {
		if (rec.type == EMB_REC_GROUP || rec.group == 0) {
			okey_set(&k, rec.key, rec.keylen);
			ws.len = 0;
			grecno = rec.recno;
			nmemb = rec.type == EMB_REC_GROUP ? rec.nmemb : 1;
			used = 0;
			b->ngroups++;
		}
		if (rec.type == EMB_REC_VEC) {
			/* unknown words: weight 1 */
			double wt = b->freqfile != NULL ? weight(b, &rec) : 1;

			if (b->appwords)
				okey_word(&ws, rec.key, rec.keylen,
				    (unsigned)b->field);
			used += emb_pool_add(b->how, rec.vec, dim, wt, acc,
			    used);
			if (rec.group != 0 && rec.member < nmemb)
				continue;
		} else if (nmemb > 0)
			continue;
		/* The group is complete; an empty one costs no O(dim) work
		 * but a zero vector written (-e zero). */
		if (used > 0)
			emb_pool_end(b->how, acc, dim, used, out);
		b->nzero += nmemb - (uint32_t)used;
		if (used == 0) {
			b->nempty++;
			if (b->pempty == P_ERROR)
				errx(1, "%s: record %llu: %s", name,
				    (unsigned long long)grecno, nmemb == 0 ?
				    "empty group" : "group of zero vectors "
				    "only");
			if (b->pempty == P_SKIP)
				continue;
		}
		if (b->appsize)
			okey_add(&k, "%u", nmemb);
		if (b->appwords) {
			okey_put(&k, "\t", 1);
			if (ws.len > 0)
				okey_put(&k, ws.buf, ws.len);
		}
		keyfits(k.len, name, "record", grecno);
		if ((rc = emb_write_vec(w, k.buf, k.len, used > 0 ? out :
		    zero)) < 0)
			wdie(rc);
		b->nwritten++;
	}
	if (rc < 0)
		rdie(r, name, rc);
	wclose(w);
	free(acc);
	free(out);
	free(zero);
	free(k.buf);
	free(ws.buf);
}

static void
summary(const struct bov *b, const char *name)
{
	fprintf(stderr, "emb-bov: %s: %llu groups, %llu written, "
	    "%llu empty (%s)", name, (unsigned long long)b->ngroups,
	    (unsigned long long)b->nwritten, (unsigned long long)b->nempty,
	    policyname[b->pempty]);
	if (b->how == EMB_POOL_UNIT)
		fprintf(stderr, ", %llu zero members left out",
		    (unsigned long long)b->nzero);
	if (b->freqfile != NULL)
		fprintf(stderr, "; %llu of %llu members weighted from "
		    "%s", (unsigned long long)b->nknown,
		    (unsigned long long)b->nwords, b->freqfile);
	fputc('\n', stderr);
}

int
main(int argc, char *argv[])
{
	struct bov b = { .pempty = P_ZERO, .a = 1e-3, .field = 1,
	    .how = EMB_POOL_MEAN };
	struct emb_reader *r;
	const char *name;
	int quiet = 0, c, fd;

	while ((c = optget(argc, argv, &prog, NULL)) != -1) {
		switch (c) {
		case 'A':
			b.a = parsedbl(optarg, 1e-300, 1e300, "-A");
			break;
		case 'e':
			b.pempty = parsepolicy(optarg, 0, "-e");
			break;
		case 'k':
			b.field = (long)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-k");
			break;
		case 'm':
			for (b.how = 0; b.how < 4; b.how++)
				if (strcmp(optarg, methods[b.how]) == 0)
					break;
			if (b.how == 4) {
				char q[EMB_QUOTE_BUF];

				misuse("-m: '%s' is not one of mean, unit, max,"
				    " min", emb_quotes(q, optarg));
			}
			break;
		case 'q':
			quiet = 1;
			break;
		case 's':
			b.appsize = 1;
			break;
		case 'v':
			quiet = 0;
			break;
		case 'w':
			b.freqfile = optarg;
			break;
		case 'W':
			b.appwords = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		misuse("one input file at most");
	if (b.freqfile != NULL && b.how != EMB_POOL_MEAN &&
	    b.how != EMB_POOL_UNIT)
		misuse("-w weights the mean and unit methods only");
	if (b.freqfile != NULL)
		loadfreq(b.freqfile);

	name = inname(argv[0]);
	fd = openin(argv[0]);
	bigpipe(fd);
	r = xreader(fd, name);
	bov(&b, r, name);
	if (!quiet)
		summary(&b, name);
	emb_index_free(&wtab);
	strsfree(&words);
	free(wcount);
	emb_reader_free(r);
	if (fd != 0)
		close(fd);
	return 0;
}
