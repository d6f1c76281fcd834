/*
 * emb-augment - make augmented examples from a labelled word stream: for
 * each class, groups of k distinct words of that class drawn at random,
 * never the same k-set twice (the paper's data augmentation).  Piped into
 * emb-ose or emb-bov, each group becomes one new example of its class.
 *
 * The whole input is held in memory (a class's words must all be known
 * before any set is drawn).  The draws are a pure function of the seed, the
 * class label and the class's words in input order, by a procedure simple
 * enough to redo by hand (see the man page and tests/data/augment-ref.py):
 * SplitMix64 seeded per class, unbiased integers by rejection, a partial
 * Fisher-Yates shuffle restarted from the identity for every draw, and a
 * redraw when a set comes out a second time.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"

#define KMAX	(1u << 20)	/* largest set size accepted */
#define NMAX	(1ull << 31)	/* largest count of sets per class */

/* A class: its label and its distinct words (indices of records). */
struct class {
	size_t		 label;	/* escaped label field: offset in R.keys */
	size_t		 labellen;
	size_t		*word;	/* record indices, input order */
	size_t		 n, cap;
};

static unsigned	 lfield = 2;	/* -l: 1-based label field */
static unsigned	 wfield = 1;	/* -w: 1-based word field */
static uint64_t	 seed = 1;	/* -s */
static size_t	 ksize;		/* -k */
static size_t	 nsets;		/* -K */
static int	 verbose;	/* -v */

/* All records: keys and vectors (util.h); record i is row i. */
static struct flat	 R;
#define KEY(i)		(R.keys.p + R.keyoff[i])

static struct class	*classes;
static size_t		 nclass, classcap;

static const char	*iname;	/* the input, for messages */

/*
 * Live only while the input is read or a class written; freed at exit.
 * Indexes (emb_index) of the classes by label, of the distinct pairs
 * "label TAB word" and of the k-sets drawn for a class (set j is
 * drawnset[j k .. j k + k]).
 */
static struct emb_writer	*wr;
static struct emb_index	 bylabel, seen, drawn;
static struct strs	 pairs;
static size_t		*drawnset, drawncap;
static size_t		*set, *swap, *perm;
static struct emb_buf	 gkey;	/* the key of the group being written */

static const struct opt opts[] = {
	{ 'K', "groups", "count", "groups to write per class", NULL },
	{ 'k', "group-size", "size", "distinct words in each group", NULL },
	{ 'l', "label-field", "field", "the label is this key field (default 2)",
	    NULL },
	{ 's', "seed", "seed", "seed of the draws (default 1)", NULL },
	{ 'w', "word-field", "field", "the word is this key field (default 1)",
	    NULL },
	OPT_QUIET("only errors and warnings on standard error (default)"),
	OPT_VERBOSE("per class its words and groups, on standard error"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-augment",
	    "usage: emb-augment -k size -K count "
	    "[-v] [-l field] [-s seed] [-w field] [file]\n", opts };

static const char *
labelkey(const void *ctx, size_t c, size_t *len)
{
	(void)ctx;
	*len = classes[c].labellen;
	return R.keys.p + classes[c].label;
}

static const char *
setkey(const void *ctx, size_t j, size_t *len)
{
	(void)ctx;
	*len = ksize * sizeof(*drawnset);
	return (const char *)(drawnset + j * ksize);
}

/*
 * Enter entry e into x unless its key is there: @return 1 and the entry
 * found in *had (unless NULL), or 0.
 */
static int
enter(struct emb_index *x, size_t e, size_t *had)
{
	int rc = emb_index_add(x, e, had);

	if (rc < 0)
		errx(1, "%s: %s", iname, emb_strerror(rc));
	return rc;
}

/* The label of class cl as a message shows it. */
static const char *
qlabel(const struct class *cl, char *q)
{
	return emb_quote(q, R.keys.p + cl->label, cl->labellen);
}

/* Field f (1-based) of record i, or exit naming the record. */
static const char *
field(size_t i, unsigned f, size_t *len, uint64_t recno)
{
	const char *s;
	unsigned nf;

	if ((s = keyfield(KEY(i), R.keylen[i], f, len)) == NULL) {
		nf = emb_key_nfields(KEY(i), R.keylen[i]);
		errx(1, "%s: record %llu: key has %u field%s, no field %u",
		    iname, (unsigned long long)recno, nf, nf == 1 ? "" : "s",
		    f);
	}
	return s;
}

/* Sort the record just read (row R.n - 1) into its class. */
static void
sortin(void *arg, struct flat *F, const struct emb_rec *rec)
{
	size_t *ndup = arg, i = F->n - 1, llen, wlen, c;
	const char *lab, *word;
	struct class *cl;

	lab = field(i, lfield, &llen, rec->recno);
	word = field(i, wfield, &wlen, rec->recno);
	/* Escaped fields hold no raw TAB: "label TAB word" is unique. */
	xbufadd(&pairs.b, lab, llen);
	xbufadd(&pairs.b, "\t", 1);
	xbufadd(&pairs.b, word, wlen);
	if (enter(&seen, strsend(&pairs), NULL)) {
		strspop(&pairs);
		(*ndup)++;
		return;
	}
	xgrow(&classes, &classcap, nclass + 1, sizeof(*classes));
	/* A candidate class; an offset: the keys move as they grow. */
	memset(&classes[nclass], 0, sizeof(*classes));
	classes[nclass].label = (size_t)(lab - F->keys.p);
	classes[nclass].labellen = llen;
	if (!enter(&bylabel, nclass, &c))
		c = nclass++;
	cl = &classes[c];
	xgrow(&cl->word, &cl->cap, cl->n + 1, sizeof(*cl->word));
	cl->word[cl->n++] = i;
}

/* Read every record of the input, sorting the words into classes. */
static void
readall(const char *path)
{
	size_t ndup = 0;

	emb_index_init(&bylabel, labelkey, NULL);
	emb_index_init(&seen, strskey, &pairs);
	flatload(&R, path, "a group; expected ungrouped word records", sortin,
	    &ndup);
	if (ndup > 0)
		warnx("%s: %zu repeated word%s in a class ignored", iname,
		    ndup, ndup == 1 ? "" : "s");
	strsfree(&pairs);
	emb_index_free(&bylabel);
	emb_index_free(&seen);
}

/* C(n, k), or UINT64_MAX when it exceeds that. */
static uint64_t
binom(uint64_t n, uint64_t k)
{
	unsigned __int128 c = 1;

	if (k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (uint64_t i = 1; i <= k; i++) {
		/* c * (n - k + i) / i is exact: c = C(n - k + i - 1, i - 1). */
		c = c * (n - k + i) / i;
		if (c > UINT64_MAX)
			return UINT64_MAX;
	}
	return (uint64_t)c;
}

/*
 * One warning for the classes too small for -K sets of -k words (some 0:
 * those with fewer than k words, which get no set; 1: those with fewer
 * distinct sets than -K, which get them all): how many, and the first
 * few labels.  -v says how many sets each class got.
 */
static int
isshort(const struct class *cl, int some)
{
	uint64_t all = binom(cl->n, ksize);

	return nsets > 0 && (some ? all > 0 && all < nsets : all == 0);
}

static void
shortclasses(const char *name, int some)
{
	struct names nl = { 0 };
	size_t n = 0;

	for (size_t c = 0; c < nclass; c++)
		n += isshort(&classes[c], some);
	if (n == 0)
		return;
	if (some)
		fprintf(stderr, "emb-augment: %s: %zu class%s with fewer than "
		    "%zu distinct %zu-sets, each given all it has", name, n,
		    n == 1 ? "" : "es", nsets, ksize);
	else
		fprintf(stderr, "emb-augment: %s: %zu class%s of fewer than "
		    "%zu words, no %zu-set", name, n, n == 1 ? "" : "es",
		    ksize, ksize);
	for (size_t c = 0; c < nclass; c++)
		if (isshort(&classes[c], some))
			namesadd(&nl, stderr, R.keys.p + classes[c].label,
			    classes[c].labellen);
	namesend(&nl, stderr);
	fputc('\n', stderr);
}

static int
cmpsize(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Write group j of class c: its k members are the class's words set[]. */
static void
emit(struct emb_writer *w, size_t c, size_t j, const size_t *s)
{
	const struct class *cl = &classes[c];
	size_t first = cl->word[s[0]];
	const char *k0 = KEY(first), *wd;
	size_t off, flen, klen = R.keylen[first];
	char id[64];
	int idlen, rc;

	/* The group's key: its first member's, the word field made an id. */
	idlen = snprintf(id, sizeof(id), "aug.%zu.%zu", c + 1, j + 1);
	wd = keyfield(k0, klen, wfield, &flen);
	off = (size_t)(wd - k0);
	keyfits(klen - flen + (size_t)idlen, iname, "record",
	    (unsigned long long)first + 1);
	gkey.len = 0;
	xbufadd(&gkey, k0, off);
	xbufadd(&gkey, id, (size_t)idlen);
	xbufadd(&gkey, wd + flen, klen - off - flen);
	if ((rc = emb_write_group(w, gkey.p, gkey.len, (uint32_t)ksize)) < 0)
		wdie(rc);
	for (size_t i = 0; i < ksize; i++) {
		size_t r = cl->word[s[i]];

		if ((rc = emb_write_vec(w, KEY(r), R.keylen[r],
		    R.X + r * R.dim)) < 0)
			wdie(rc);
	}
}

/*
 * Every k-set of the class, in lexicographic order of word positions.
 * @return how many were written.
 */
static size_t
emitall(struct emb_writer *w, size_t c)
{
	size_t n = classes[c].n, j = 0;

	set = xcalloc(ksize, sizeof(*set));

	for (size_t i = 0; i < ksize; i++)
		set[i] = i;
	for (;;) {
		size_t i;

		emit(w, c, j++, set);
		for (i = ksize; i-- > 0; )
			if (set[i] < n - ksize + i)
				break;
		if (i == SIZE_MAX)
			break;
		set[i]++;
		for (size_t m = i + 1; m < ksize; m++)
			set[m] = set[m - 1] + 1;
	}
	free(set);
	set = NULL;
	return j;
}

/*
 * nsets distinct random k-sets of class c (more than nsets exist).  The
 * permutation is brought back to the identity after each draw by undoing
 * its k swaps in reverse order: the same as starting afresh, in O(k).
 */
static void
emitrandom(struct emb_writer *w, size_t c)
{
	const struct class *cl = &classes[c];
	size_t n = cl->n;
	struct emb_rng g;

	emb_rng_seed(&g, seed ^ emb_hash(R.keys.p + cl->label, cl->labellen));
	emb_index_init(&drawn, setkey, NULL);
	perm = xcalloc(n, sizeof(*perm));
	swap = xcalloc(ksize, sizeof(*swap));

	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t j = 0; j < nsets; j++) {
		size_t *ds;

		xgrow(&drawnset, &drawncap, j + 1, ksize * sizeof(*drawnset));
		ds = drawnset + j * ksize;
		do {
			for (size_t i = 0; i < ksize; i++) {
				size_t r = i + (size_t)emb_rng_below(&g, n - i);
				size_t t = perm[i];

				perm[i] = perm[r];
				perm[r] = t;
				swap[i] = r;
			}
			memcpy(ds, perm, ksize * sizeof(*ds));
			for (size_t i = ksize; i-- > 0; ) {
				size_t t = perm[i];

				perm[i] = perm[swap[i]];
				perm[swap[i]] = t;
			}
			qsort(ds, ksize, sizeof(*ds), cmpsize);
		} while (enter(&drawn, j, NULL));
		emit(w, c, j, ds);
	}
	emb_index_free(&drawn);
	free(drawnset);
	free(swap);
	free(perm);
	drawnset = swap = perm = NULL;
	drawncap = 0;
}

static void
cleanup(void)
{
	emb_writer_free(wr);
	emb_index_free(&bylabel);
	emb_index_free(&seen);
	emb_index_free(&drawn);
	strsfree(&pairs);
	free(drawnset);
	free(set);
	free(swap);
	free(perm);
	for (size_t c = 0; c < nclass; c++)
		free(classes[c].word);
	free(classes);
	emb_buf_free(&gkey);
	flatfree(&R);
}

int
main(int argc, char *argv[])
{
	struct emb_writer *w;
	const char *name;
	int ch, kset = 0, Kset = 0;

	while ((ch = optget(argc, argv, &prog, NULL)) != -1) {
		switch (ch) {
		case 'k':
			ksize = (size_t)parsenum(optarg, 1, KMAX, "-k");
			kset = 1;
			break;
		case 'K':
			nsets = (size_t)parsenum(optarg, 0, NMAX, "-K");
			Kset = 1;
			break;
		case 'l':
			lfield = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-l");
			break;
		case 'q':
			verbose = 0;
			break;
		case 's':
			seed = (uint64_t)parsenum(optarg, 0, INT64_MAX, "-s");
			break;
		case 'v':
			verbose = 1;
			break;
		case 'w':
			wfield = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-w");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		misuse("one input file at most");
	if (!kset || !Kset)
		misuse("no %s: the group size -k and the groups per class -K "
		    "are both needed", !kset ? "-k" : "-K");
	if (lfield == wfield)
		misuse("-l and -w name the same field %u", lfield);
	notty(STDOUT_FILENO);
	name = iname = inname(argv[0]);
	atexit(cleanup);
	readall(argv[0]);
	w = wr = xwriter(R.dim);
	for (size_t c = 0; c < nclass; c++) {
		const struct class *cl = &classes[c];
		uint64_t all = binom(cl->n, ksize);
		char q[EMB_QUOTE_BUF];
		size_t made;

		if (nsets == 0 || all == 0)
			made = 0;
		else if (all <= nsets)
			made = emitall(w, c);
		else {
			emitrandom(w, c);
			made = nsets;
		}
		if (verbose)
			fprintf(stderr, "emb-augment: %s: class %s: %zu "
			    "word%s, %zu set%s of %zu\n", name,
			    qlabel(cl, q), cl->n,
			    cl->n == 1 ? "" : "s", made, made == 1 ? "" : "s",
			    ksize);
	}
	wclose(w);
	wr = NULL;
	shortclasses(name, 0);
	shortclasses(name, 1);
	return 0;
}
