/*
 * emb-knnmerge - merge the nearest-neighbour lists that emb-knn wrote for
 * the shards of a reference set into the lists of the whole set.
 *
 * Each shard's output answers the same queries in the same order, with
 * lines "query key, rank, reference key, distance" and ranks 1, 2, ... per
 * query.  For every query the lines of all shards are ordered by distance,
 * then shard, then rank, and the first k are printed with their ranks
 * renumbered.  When the shards are contiguous ranges of the reference set
 * in order (emb-split -n), shard and rank order equal reference order, so
 * ties come out as emb-knn orders them on the whole set.
 *
 * The shards' lines come from files named on the command line, in shard
 * order, or from standard input as parallel(1) --tag writes them: each line
 * prefixed by its shard number and a TAB.  Tagged lines are kept in one
 * temporary file, each shard's as runs of consecutive lines found through
 * a hash table of the tags, then all shards are read in step from the file
 * mapped into memory: time and space linear in the input, whatever the
 * number of shards.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"

#define OBUFSZ	(1u << 20)

/* Bytes of the tagged input's temporary file: whole lines of one shard. */
struct run {
	size_t		 off, len;
};

/* One shard's output, read a query at a time. */
struct shard {
	struct textin	*in;		/* a file operand, or NULL */
	struct run	*runs;		/* tagged input: its lines in the map */
	size_t		 nruns, runcap, ri, pos;
	char		*name;		/* for messages */
	unsigned long long tag;		/* shard number (tagged input) */
	unsigned long long lineno;
	char		*line;		/* the line read ahead, or NULL at EOF */
	size_t		 cap;		/* a tagged shard's: line's size */
	ssize_t		 len;
	int		 empty;		/* no line at all: a shard without references */
};

/* A candidate neighbour: one line of one shard. */
struct cand {
	size_t		 off;		/* line in the arena */
	size_t		 len;
	size_t		 rest;		/* offset of the field after the rank */
	double		 dist;
	unsigned	 shard;
	unsigned long	 rank;
};

static unsigned	 nfields = 1;	/* -f: fields of the query keys */
static unsigned long kopt = 10;	/* -k */

static struct shard *sh;
static unsigned	 nsh;
static size_t	 shcap;		/* tagged input: room in sh */

static char	*map;		/* the tagged input's temporary file */
static size_t	 maplen;

static char	*arena;		/* this query's lines */
static size_t	 arlen, arcap;
static struct cand *cand;
static size_t	 ncand, candcap;

static const struct opt opts[] = {
	{ 'f', "fields", "nfields", "the query keys have nfields fields",
	    NULL },
	{ 'k', "neighbours", "n", "keep the n nearest of each query", NULL },
	OPT_QUIET("accepted; changes nothing"),
	OPT_VERBOSE("accepted; changes nothing"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-knnmerge",
	    "usage: emb-knnmerge [-f nfields] [-k n] [file ...]\n", opts };

/* The next line of a tagged shard from the map into s->line. */
static void
advancerun(struct shard *s)
{
	const struct run *r;
	const char *p, *nl;
	size_t n;

	if (s->ri == s->nruns) {
		free(s->line);
		s->line = NULL;
		return;
	}
	r = &s->runs[s->ri];
	p = map + r->off + s->pos;
	nl = memchr(p, '\n', r->len - s->pos);	/* every line ends in one */
	n = (size_t)(nl - p);
	if (n + 1 > s->cap) {
		s->cap = n + 1;
		s->line = xreallocarray(s->line, s->cap, 1);
	}
	memcpy(s->line, p, n);
	s->line[n] = '\0';
	s->len = (ssize_t)n;
	s->lineno++;
	if ((s->pos += n + 1) == r->len) {
		s->ri++;
		s->pos = 0;
	}
}

/* Read the next line of s into s->line (NULL at the end). */
static void
advance(struct shard *s)
{
	size_t n;
	int rc;

	if (s->runs != NULL) {
		advancerun(s);
		return;
	}
	if (s->in == NULL)
		return;
	if ((rc = textnext(s->in, &s->line, &n)) == 0) {
		s->line = NULL;
		return;
	}
	s->lineno++;
	if (rc == 2)
		errx(1, "%s: line %llu: truncated: no LF at the end of the "
		    "list", s->name, (unsigned long long)s->lineno);
	s->len = (ssize_t)n;
}

/*
 * Find the rank field (after nfields fields) and the distance (the last
 * field) of line.  @return 0, or exit 1 naming the shard and line.
 */
static void
parse(const struct shard *s, const char *line, size_t len, unsigned long *rank,
    size_t *rest, double *dist)
{
	const char *p = line, *end = line + len, *last, *q;
	char *e, buf[32], qb[EMB_QUOTE_BUF];
	unsigned i;

	for (i = 0; i < nfields; i++) {
		if ((q = memchr(p, '\t', (size_t)(end - p))) == NULL)
			errx(1, "%s: line %llu: fewer than %u fields", s->name,
			    s->lineno, nfields + 3);
		p = q + 1;
	}
	errno = 0;
	*rank = strtoul(p, &e, 10);
	if (e == p || *e != '\t' || *p == '-' || *rank == 0 || errno)
		errx(1, "%s: line %llu: field %u is not a rank", s->name,
		    s->lineno, nfields + 1);
	*rest = (size_t)(e + 1 - line);
	for (last = end; last > e + 1 && last[-1] != '\t'; last--)
		;
	if (last == e + 1)
		errx(1, "%s: line %llu: no reference key after the rank",
		    s->name, s->lineno);
	errno = 0;
	*dist = strtod(last, &e);
	if (e == last || e != end || errno || !isfinite(*dist))
		errx(1, "%s: line %llu: last field is not a distance", s->name,
		    s->lineno);
	/* Only what emb-knn prints: 0 to 2, in its shortest spelling. */
	if (*dist < 0 || *dist > 2 || dtoa(buf, *dist) != (size_t)(end - last)
	    || memcmp(buf, last, (size_t)(end - last)) != 0)
		errx(1, "%s: line %llu: distance '%s' is not as emb-knn prints "
		    "one (0 to 2, the shortest text that reads back%s%s)",
		    s->name, s->lineno, emb_quote(qb, last, (size_t)(end - last)),
		    *dist >= 0 && *dist <= 2 ? ": " : "",
		    *dist >= 0 && *dist <= 2 ? buf : "");
}

/* Append this shard's lines for its current query to the candidates. */
static void
takequery(unsigned si)
{
	struct shard *s = &sh[si];
	unsigned long want = 1;
	double prev = 0;
	char db[2][32];

	do {
		struct cand *c;
		unsigned long rank;
		size_t rest;
		double dist;

		parse(s, s->line, (size_t)s->len, &rank, &rest, &dist);
		if (rank != want)
			errx(1, "%s: line %llu: rank %lu, expected %lu%s",
			    s->name, s->lineno, rank, want, want > 1 ? " or 1" :
			    "");
		if (want > 1 && dist < prev)
			errx(1, "%s: line %llu: distance %s below the %s of rank "
			    "%lu: the list is not in rank order", s->name,
			    s->lineno, dtoa(db[0], dist) ? db[0] : "",
			    dtoa(db[1], prev) ? db[1] : "", want - 1);
		prev = dist;
		xgrow(&cand, &candcap, ncand + 1, sizeof(*cand));
		xgrow(&arena, &arcap, arlen + (size_t)s->len, 1);
		c = &cand[ncand++];
		c->off = arlen;
		c->len = (size_t)s->len;
		c->rest = rest;
		c->dist = dist;
		c->shard = si;
		c->rank = rank;
		memcpy(arena + arlen, s->line, (size_t)s->len);
		arlen += (size_t)s->len;
		want++;
		advance(s);
		if (s->line != NULL) {
			/* Peek: a rank of 1 starts the next query. */
			parse(s, s->line, (size_t)s->len, &rank, &rest, &dist);
			if (rank == 1)
				break;
		}
	} while (s->line != NULL);
}

/* Distance, then shard, then rank: the whole set's order. */
static int
candcmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	if (x->shard != y->shard)
		return x->shard < y->shard ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static void
merge(void)
{
	unsigned long long nq = 0;

	for (;;) {
		unsigned live = 0, first = nsh;
		size_t qlen = 0;

		for (unsigned i = 0; i < nsh; i++)
			if (!sh[i].empty && sh[i].line != NULL) {
				live++;
				if (first == nsh)
					first = i;
			}
		if (live == 0)
			break;
		nq++;
		ncand = arlen = 0;
		for (unsigned i = 0; i < nsh; i++) {
			if (sh[i].empty)
				continue;
			if (sh[i].line == NULL)
				errx(1, "%s: ends after query %llu, %s has "
				    "more", sh[i].name, nq - 1,
				    sh[first].name);
			takequery(i);
		}
		/* Every shard must be answering the same query. */
		for (size_t j = 0; j < ncand; j++) {
			size_t len = cand[j].rest;

			/* The key is the line up to the rank's TAB. */
			for (len--; len > 0 && arena[cand[j].off + len - 1] !=
			    '\t'; len--)
				;
			if (j == 0)
				qlen = len;
			else if (len != qlen || memcmp(arena + cand[j].off,
			    arena + cand[0].off, len) != 0)
				errx(1, "query %llu: %s and %s disagree on its "
				    "key (each shard must answer every query, "
				    "in the same order)", nq,
				    sh[cand[0].shard].name,
				    sh[cand[j].shard].name);
		}
		qsort(cand, ncand, sizeof(*cand), candcmp);
		for (size_t j = 0; j < ncand && j < kopt; j++) {
			const struct cand *c = &cand[j];

			fwrite(arena + c->off, 1, qlen, stdout);
			printf("%zu\t", j + 1);
			fwrite(arena + c->off + c->rest, 1, c->len - c->rest,
			    stdout);
			putchar('\n');
		}
		if (ferror(stdout))
			fshut(stdout, "stdout");
	}
}

/*
 * Open shard i on in (NULL: its runs); a shard with no line at all has no
 * references.
 */
static void
openshard(unsigned i, struct textin *in, const char *name)
{
	sh[i].in = in;
	sh[i].name = xstrdup(name);
	advance(&sh[i]);
	sh[i].empty = sh[i].line == NULL;
}

static int
tagcmp(const void *a, const void *b)
{
	const struct shard *x = a, *y = b;

	return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* Shard i's tag as bytes, for the index of tags. */
static const char *
tagof(const void *ctx, size_t i, size_t *len)
{
	(void)ctx;
	*len = sizeof(sh[i].tag);
	return (const char *)&sh[i].tag;
}

/* The shard of tag: its index in sh, found in the index x or added. */
static unsigned
shardof(unsigned long long tag, struct emb_index *x)
{
	int64_t e = emb_index_find(x, &tag, sizeof(tag));
	int rc;

	if (e >= 0)
		return (unsigned)e;
	if (nsh == UINT32_MAX - 1)
		errx(1, "stdin: more than %u shards", UINT32_MAX - 2);
	xgrow(&sh, &shcap, nsh + 1, sizeof(*sh));
	memset(&sh[nsh], 0, sizeof(*sh));
	sh[nsh].tag = tag;
	if ((rc = emb_index_add(x, nsh, NULL)) < 0)
		errx(1, "%s", emb_strerror(rc));
	return nsh++;
}

/*
 * Tagged lines on stdin, kept in one temporary file (each ending in a
 * newline), each shard's lines as runs of it.
 */
static void
untag(void)
{
	char *line, *e;
	size_t len, off = 0;
	unsigned long long lineno = 0, tag;
	unsigned cur = 0;
	struct emb_index tags;
	struct textin in;
	FILE *tf;
	int fd = xtmpfd(), rc;

	if ((tf = fdopen(fd, "w+")) == NULL)
		err(1, "temporary file");
	emb_index_init(&tags, tagof, NULL);
	textopen(&in, STDIN_FILENO, "stdin");
	while ((rc = textnext(&in, &line, &len)) > 0) {
		struct shard *s;
		size_t n;

		lineno++;
		errno = 0;
		tag = strtoull(line, &e, 10);
		if (e == line || *e != '\t' || *line == '-' || errno)
			errx(1, "stdin: line %llu: no shard number and TAB in "
			    "front (parallel --tag)", lineno);
		e++;
		if (cur >= nsh || sh[cur].tag != tag)
			cur = shardof(tag, &tags);
		s = &sh[cur];
		n = (size_t)(line + len - e);
		if (rc == 2)
			errx(1, "stdin: line %llu: truncated: no LF at the end "
			    "of the list", lineno);
		if (fwrite(e, 1, n, tf) != n || putc('\n', tf) == EOF)
			err(1, "temporary file");
		if (s->nruns > 0 && s->runs[s->nruns - 1].off +
		    s->runs[s->nruns - 1].len == off)
			s->runs[s->nruns - 1].len += n + 1;
		else {
			xgrow(&s->runs, &s->runcap, s->nruns + 1,
			    sizeof(*s->runs));
			s->runs[s->nruns].off = off;
			s->runs[s->nruns++].len = n + 1;
		}
		off += n + 1;
	}
	textclose(&in);
	emb_index_free(&tags);
	if (fflush(tf) != 0)
		err(1, "temporary file");
	if ((maplen = off) > 0 && (map = mmap(NULL, maplen, PROT_READ,
	    MAP_PRIVATE, fileno(tf), 0)) == MAP_FAILED)
		err(1, "temporary file");
	fclose(tf);
	qsort(sh, nsh, sizeof(*sh), tagcmp);
	for (unsigned i = 0; i < nsh; i++) {
		char name[64];

		snprintf(name, sizeof(name), "stdin, shard %llu", sh[i].tag);
		openshard(i, NULL, name);
	}
}

int
main(int argc, char *argv[])
{
	static char obuf[OBUFSZ];
	int ch, nstdin = 0;

	while ((ch = optget(argc, argv, &prog, NULL)) != -1) {
		switch (ch) {
		case 'f':
			nfields = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-f");
			break;
		case 'k':
			kopt = (unsigned long)parsenum(optarg, 1, 1 << 20, "-k");
			break;
		case 'q':	/* no summary to silence or add */
		case 'v':
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	for (int i = 0; i < argc; i++)
		nstdin += strcmp(argv[i], "-") == 0;
	if (nstdin > 1)
		misuse("'-', the standard input, can be one file only");
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (argc == 0)
		untag();
	else {
		sh = xcalloc((size_t)argc, sizeof(*sh));
		nsh = (unsigned)argc;
		for (int i = 0; i < argc; i++) {
			struct textin *in = xmalloc(sizeof(*in));

			textopen(in, strcmp(argv[i], "-") == 0 ?
			    STDIN_FILENO : openside(argv[i]), inname(argv[i]));
			openshard((unsigned)i, in, inname(argv[i]));
		}
	}
	merge();
	fshut(stdout, "stdout");
	for (unsigned i = 0; i < nsh; i++) {
		if (sh[i].in != NULL) {
			textclose(sh[i].in);
			free(sh[i].in);
		} else
			free(sh[i].line);
		free(sh[i].name);
		free(sh[i].runs);
	}
	if (maplen > 0)
		munmap(map, maplen);
	free(sh);
	free(arena);
	free(cand);
	return 0;
}
