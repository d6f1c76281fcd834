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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define KMAX	(1u << 20)	/* largest set size accepted */
#define NMAX	(1ull << 31)	/* largest count of sets per class */

/* A string (escaped key bytes) -> number hash table, open addressing. */
struct htab {
	struct hent	*v;	/* cap slots, s == NULL when free */
	size_t		 cap;	/* a power of two */
	size_t		 n;	/* slots in use */
};

struct hent {
	char		*s;	/* a copy of the key bytes */
	size_t		 len;
	uint64_t	 h;	/* fnv1a(s) */
	size_t		 val;
};

/* A class: its label and its distinct words (indices of records). */
struct class {
	size_t		 label;	/* escaped label field: offset in the arena */
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

/* All records: keys in one arena, vectors in one array. */
static char	*arena;
static size_t	 arenalen, arenacap;
static size_t	*keyoff, *keylen;
static float	*vecs;
static size_t	 nrec, reccap;
static uint32_t	 dim;

static struct class	*classes;
static size_t		 nclass;

static const char	*iname;	/* the input, for messages */

/* Live only while the input is read or a class written; freed at exit. */
static struct emb_reader	*rd;
static struct emb_writer	*wr;
static struct htab	 bylabel, seen, drawn;
static char		*pair;
static size_t		*set, *swap, *perm;
static char	*gkey;		/* the key of the group being written */
static size_t	 gkeycap;

/* The usage: on request (-h) to stdout with exit 0, else a misuse. */
static void
usage(int help)
{
	fprintf(help ? stdout : stderr, "usage: emb-augment -k size -K count "
	    "[-v] [-l field] [-s seed] [-w field] [file]\n");
	exit(help ? 0 : 2);
}

/* FNV-1a, 64 bits. */
static uint64_t
fnv1a(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ull;

	while (n-- > 0) {
		h ^= *s++;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* SplitMix64 (Steele, Lea and Flood, 2014). */
static uint64_t
splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * A uniform integer in [0, n), n >= 1: draw x, reject it while
 * x >= 2^64 - (2^64 mod n), then return x mod n.
 */
static uint64_t
uniform(uint64_t *state, uint64_t n)
{
	uint64_t rem = (0 - n) % n;	/* 2^64 mod n */
	uint64_t x;

	do
		x = splitmix(state);
	while (rem != 0 && x >= 0 - rem);
	return x % n;
}

/*
 * Look s up in t; insert it with value val when absent.
 * @return the slot's value and whether it was there (*found).
 */
static size_t
hput(struct htab *t, const void *s, size_t len, size_t val, int *found)
{
	uint64_t h = fnv1a(s, len);
	size_t i;

	if (2 * (t->n + 1) > t->cap) {
		struct htab nt;

		nt.cap = t->cap ? 2 * t->cap : 64;
		nt.n = t->n;
		nt.v = xcalloc(nt.cap, sizeof(*nt.v));
		for (size_t j = 0; j < t->cap; j++) {
			if (t->v[j].s == NULL)
				continue;
			i = t->v[j].h & (nt.cap - 1);
			while (nt.v[i].s != NULL)
				i = (i + 1) & (nt.cap - 1);
			nt.v[i] = t->v[j];
		}
		free(t->v);
		*t = nt;
	}
	for (i = h & (t->cap - 1); t->v[i].s != NULL; i = (i + 1) & (t->cap - 1))
		if (t->v[i].h == h && t->v[i].len == len &&
		    memcmp(t->v[i].s, s, len) == 0) {
			*found = 1;
			return t->v[i].val;
		}
	t->v[i].s = xmalloc(len ? len : 1);
	memcpy(t->v[i].s, s, len);
	t->v[i].len = len;
	t->v[i].h = h;
	t->v[i].val = val;
	t->n++;
	*found = 0;
	return val;
}

static void
hfree(struct htab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->v[i].s);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* The label of class cl as a message shows it. */
static const char *
qlabel(const struct class *cl, char *q)
{
	return emb_quote(q, arena + cl->label, cl->labellen);
}

/* Field f (1-based) of record i, or exit naming the record. */
static const char *
field(size_t i, unsigned f, size_t *len, const char *name, uint64_t recno)
{
	size_t off;

	if (emb_key_field(arena + keyoff[i], keylen[i], f - 1, &off, len) < 0)
		errx(1, "%s: record %llu: key has %u field%s, no field %u",
		    name, (unsigned long long)recno,
		    emb_key_nfields(arena + keyoff[i], keylen[i]),
		    emb_key_nfields(arena + keyoff[i], keylen[i]) == 1 ?
		    "" : "s", f);
	return arena + keyoff[i] + off;
}

/* Read every record of the input, sorting the words into classes. */
static void
readall(int fd, const char *name)
{
	struct emb_rec rec;
	size_t paircap = 0, ndup = 0;
	int rc;

	rd = xreader(fd, name);
	dim = emb_reader_dim(rd);
	while ((rc = emb_reader_next(rd, &rec)) > 0) {
		const char *lab, *word;
		size_t llen, wlen, c, need;
		struct class *cl;
		int found;

		if (rec.type == EMB_REC_GROUP)
			errx(1, "%s: record %llu: a group; expected ungrouped "
			    "word records", name,
			    (unsigned long long)rec.recno);
		if (nrec == reccap) {
			/* 1024 rows first, or 4 MiB of them: no more than
			 * the records read can fill. */
			reccap = reccap ? 2 * reccap : ((size_t)4 << 20) /
			    ((size_t)dim * sizeof(*vecs));
			if (reccap > 1024 && nrec == 0)
				reccap = 1024;
			if (reccap == 0)
				reccap = 1;
			keyoff = xreallocarray(keyoff, reccap, sizeof(*keyoff));
			keylen = xreallocarray(keylen, reccap, sizeof(*keylen));
			vecs = xreallocarray(vecs, reccap, (size_t)dim *
			    sizeof(*vecs));
		}
		if (arenalen + rec.keylen + 1 > arenacap) {
			arenacap = 2 * (arenalen + rec.keylen + 1);
			arena = xreallocarray(arena, arenacap, 1);
		}
		memcpy(arena + arenalen, rec.key, rec.keylen);
		arena[arenalen + rec.keylen] = '\0';
		keyoff[nrec] = arenalen;
		keylen[nrec] = rec.keylen;
		arenalen += rec.keylen + 1;
		memcpy(vecs + nrec * dim, rec.vec, (size_t)dim * sizeof(*vecs));

		lab = field(nrec, lfield, &llen, name, rec.recno);
		word = field(nrec, wfield, &wlen, name, rec.recno);
		/* Escaped fields hold no raw TAB: "label TAB word" is unique. */
		need = llen + 1 + wlen;
		if (need > paircap) {
			paircap = 2 * need;
			pair = xreallocarray(pair, paircap, 1);
		}
		memcpy(pair, lab, llen);
		pair[llen] = '\t';
		memcpy(pair + llen + 1, word, wlen);
		hput(&seen, pair, need, 0, &found);
		if (found) {
			ndup++;
			nrec++;
			continue;
		}
		c = hput(&bylabel, lab, llen, nclass, &found);
		if (!found) {
			classes = xreallocarray(classes, nclass + 1,
			    sizeof(*classes));
			memset(&classes[nclass], 0, sizeof(*classes));
			/* An offset: the arena moves as it grows. */
			classes[nclass].label = (size_t)(lab - arena);
			classes[nclass].labellen = llen;
			nclass++;
		}
		cl = &classes[c];
		if (cl->n == cl->cap) {
			cl->cap = cl->cap ? 2 * cl->cap : 16;
			cl->word = xreallocarray(cl->word, cl->cap,
			    sizeof(*cl->word));
		}
		cl->word[cl->n++] = nrec;
		nrec++;
	}
	if (rc < 0)
		rdie(rd, name, rc);
	if (ndup > 0)
		warnx("%s: %zu repeated word%s in a class ignored", name, ndup,
		    ndup == 1 ? "" : "s");
	free(pair);
	pair = NULL;
	hfree(&bylabel);
	hfree(&seen);
	emb_reader_free(rd);
	rd = NULL;
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
	const char *k0 = arena + keyoff[first];
	size_t off, flen, n, need;
	char id[64];
	int idlen, rc;

	/* The group's key: its first member's, the word field made an id. */
	idlen = snprintf(id, sizeof(id), "aug.%zu.%zu", c + 1, j + 1);
	emb_key_field(k0, keylen[first], wfield - 1, &off, &flen);
	need = keylen[first] - flen + (size_t)idlen;
	keyfits(need, iname, "record", (unsigned long long)first + 1);
	if (need > gkeycap) {
		gkeycap = need;
		gkey = xreallocarray(gkey, gkeycap, 1);
	}
	memcpy(gkey, k0, off);
	memcpy(gkey + off, id, (size_t)idlen);
	n = off + (size_t)idlen;
	memcpy(gkey + n, k0 + off + flen, keylen[first] - off - flen);
	n += keylen[first] - off - flen;
	if ((rc = emb_write_group(w, gkey, n, (uint32_t)ksize)) < 0)
		wdie(rc);
	for (size_t i = 0; i < ksize; i++) {
		size_t r = cl->word[s[i]];

		if ((rc = emb_write_vec(w, arena + keyoff[r], keylen[r],
		    vecs + r * dim)) < 0)
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
	uint64_t state = seed ^ fnv1a(arena + cl->label, cl->labellen);

	perm = xcalloc(n, sizeof(*perm));
	swap = xcalloc(ksize, sizeof(*swap));
	set = xcalloc(ksize, sizeof(*set));

	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t j = 0; j < nsets; j++) {
		int found;

		do {
			for (size_t i = 0; i < ksize; i++) {
				size_t r = i + (size_t)uniform(&state, n - i);
				size_t t = perm[i];

				perm[i] = perm[r];
				perm[r] = t;
				swap[i] = r;
			}
			memcpy(set, perm, ksize * sizeof(*set));
			for (size_t i = ksize; i-- > 0; ) {
				size_t t = perm[i];

				perm[i] = perm[swap[i]];
				perm[swap[i]] = t;
			}
			qsort(set, ksize, sizeof(*set), cmpsize);
			hput(&drawn, set, ksize * sizeof(*set), 0, &found);
		} while (found);
		emit(w, c, j, set);
	}
	hfree(&drawn);
	free(set);
	free(swap);
	free(perm);
	set = swap = perm = NULL;
}

static void
cleanup(void)
{
	emb_reader_free(rd);
	emb_writer_free(wr);
	hfree(&bylabel);
	hfree(&seen);
	hfree(&drawn);
	free(pair);
	free(set);
	free(swap);
	free(perm);
	for (size_t c = 0; c < nclass; c++)
		free(classes[c].word);
	free(classes);
	free(gkey);
	free(arena);
	free(keyoff);
	free(keylen);
	free(vecs);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help",	no_argument,	NULL, 'h' },
		{ "version",	no_argument,	NULL, 'V' },
		{ NULL,		0,		NULL, 0 }
	};
	struct emb_writer *w;
	const char *name;
	int ch, fd, kset = 0, Kset = 0;

	while ((ch = getopt_long(argc, argv, "hk:K:l:s:vw:", longopts,
	    NULL)) != -1) {
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
			lfield = (unsigned)parsenum(optarg, 1, 1000, "-l");
			break;
		case 's':
			seed = (uint64_t)parsenum(optarg, 0, INT64_MAX, "-s");
			break;
		case 'v':
			verbose = 1;
			break;
		case 'w':
			wfield = (unsigned)parsenum(optarg, 1, 1000, "-w");
			break;
		case 'V':
			puts("emb-augment " EMB_VERSION);
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
	if (argc > 1 || !kset || !Kset)
		usage(0);
	if (lfield == wfield) {
		warnx("-l and -w name the same field %u", lfield);
		usage(0);
	}
	notty(STDOUT_FILENO);
	name = iname = inname(argv[0]);
	fd = openin(argv[0]);
	atexit(cleanup);
	readall(fd, name);
	w = wr = xwriter(dim);
	for (size_t c = 0; c < nclass; c++) {
		const struct class *cl = &classes[c];
		uint64_t all = binom(cl->n, ksize);
		char q[EMB_QUOTE_BUF];
		size_t made;

		if (nsets == 0)
			made = 0;
		else if (all == 0) {
			made = 0;
			warnx("%s: class %s: %zu word%s, no %zu-set", name,
			    qlabel(cl, q), cl->n,
			    cl->n == 1 ? "" : "s", ksize);
		} else if (all <= nsets) {
			made = emitall(w, c);
			if (all < nsets)
				warnx("%s: class %s: %zu word%s make%s only "
				    "%zu distinct %zu-set%s, not %zu: all "
				    "written", name, qlabel(cl, q), cl->n,
				    cl->n == 1 ? "" : "s", cl->n == 1 ? "s" : "",
				    made, ksize, made == 1 ? "" : "s", nsets);
		} else {
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
	if (fd != STDIN_FILENO)
		close(fd);
	return 0;
}
