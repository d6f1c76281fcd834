/*
 * emb-lookup - turn text into vectors: each input line becomes one group
 * of word vectors, keyed by the line's own fields; or a word list becomes
 * labelled word vectors; or a whole vocabulary becomes a stream.
 *
 * The vectors come from any embedding file emb_wfile_open() recognises
 * (word2vec binary or text, fastText .vec, GloVe, emb(5); plain or gzip),
 * parsed into memory, or from a store built once with -B, which opens with
 * one mmap(2) so that a pipeline over a large vocabulary starts at once.
 * A fastText model (.bin), or a store built from one (which keeps its
 * n-gram buckets), also gives unknown words vectors built from their
 * character n-grams (-o subword).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"

enum { OOV_SKIP, OOV_ZERO, OOV_FAIL, OOV_UNK, OOV_SUBWORD };

static int	 quiet;		/* -q */
static int	 fold;		/* -c: look words up in lower case */
static int	 lower;		/* -l: lower case when the word is missing */
static int	 numlines;	/* -N: line number as first key field */
static unsigned	 nfields;	/* -f */
static uint64_t	 limit;		/* -n: first N words only */
static int	 oov = OOV_SKIP;/* -o */
static const char *unkword;	/* -u */

static struct emb_store *st;	/* the vocabulary */
static uint64_t	 nvocab;	/* words usable: count, or limit */
static const void *unkvec;	/* -o unk */
static float	*zerovec;	/* -o zero */
static struct emb_writer *w;	/* the output, reachable until exit */
static struct emb_ft *ft;	/* -o subword: the fastText model, */
static struct emb_subword sw;	/* its n-grams or the store's */
static int	 hassw;
static float	*subv;		/* the vector for the current token */
static const char subtag[1];	/* "build this token's vector from n-grams" */

/* Counters for the summary. */
static unsigned long long nlines, ntokens, noov, nempty, nsub, nsubzero;
/* The file mapped now (a store, or a plain word2vec binary being read). */
static const char *volatile mapped;
static const char *vname;	/* the vectors, for messages */

/*
 * A mapped file cut short under us faults (SIGBUS) on the first page
 * past its new end: say which file instead of dying of the signal.
 */
static void
onbus(int sig)
{
	static const char pre[] = "emb-lookup: ", post[] = ": file truncated "
	    "or unreadable while in use\n";
	const char *name = mapped;
	ssize_t r;

	(void)sig;
	outabort();
	r = write(STDERR_FILENO, pre, sizeof(pre) - 1);
	if (name != NULL)
		r = write(STDERR_FILENO, name, strlen(name));
	r = write(STDERR_FILENO, post, sizeof(post) - 1);
	(void)r;
	_exit(1);
}

/*
 * A vector's write failed.  A non-finite component comes from the vectors
 * (a store's rows are checked as they are read where it keeps row
 * checksums, an older store's by -C only): name them and the word; any
 * other failure is the output's.
 */
static void
vdie(int rc, const char *word, size_t n)
{
	char q[EMB_QUOTE_BUF];

	if (rc == EMB_ENONFINITE)
		errx(1, "%s: word '%s': non-finite component (damaged? "
		    "emb-lookup -C checks a store)", vname,
		    emb_quote(q, word, n));
	wdie(rc);
}

static const struct opt opts[] = {
	{ 'B', "build", "store", "build a store from vectors and exit",
	    OPT_FILE },
	{ 'C', "check", NULL, "check the store named by -e and print its size",
	    NULL },
	{ 'c', "fold", NULL, "look tokens up in lower case (uncased vectors)",
	    NULL },
	{ 'D', "dump", NULL, "write the vocabulary as a stream", NULL },
	{ 'e', "vectors", "vectors", "the embedding file or store (required)",
	    OPT_FILE },
	{ 'f', "fields", "nfields", "leading TAB fields of a line kept in the "
	    "key (default 0)", NULL },
	{ 'L', "label", "label", "with -w, the label appended to each key",
	    NULL },
	{ 'l', "lower", NULL, "try an unknown token in lower case", NULL },
	{ 'N', "number", NULL, "the line number first in the key even with -f",
	    NULL },
	{ 'n', "limit", "limit", "use the first limit words only", NULL },
	{ 'o', "oov", "policy", "unknown tokens: skip (default), zero, fail, "
	    "unk or subword", "skip zero fail unk subword" },
	{ 'u', "unknown", "word", "the word whose vector unknown tokens get "
	    "(-o unk)", NULL },
	{ 'w', "words", NULL, "word mode: one word a line, word TAB label keys",
	    NULL },
	OPT_QUIET("no summary, no warning of duplicates, no progress"),
	OPT_VERBOSE("the summary (default), and the progress even off a "
	    "terminal"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-lookup",
	    "usage: emb-lookup -e vectors [-clNq] [-f nfields] [-n limit] "
	    "[-o policy]\n"
	    "                  [-u word] [file]\n"
	    "       emb-lookup -e vectors -w [-clq] [-L label] [-n limit] "
	    "[-o policy]\n"
	    "                  [-u word] [file]\n"
	    "       emb-lookup -e vectors -D [-n limit]\n"
	    "       emb-lookup -e vectors -B store [-q] [-n limit]\n"
	    "       emb-lookup -C -e store\n", opts };

/*
 * Building progress (progress()): on a terminal at most four times a
 * second; off one (-v), at each tenth of the file, or each million
 * words when its size is unknown.
 */
static void
buildprog(void *arg, const struct emb_wfile *f, uint64_t n)
{
	static double last;
	static uint64_t step;
	const char *name = arg;
	uint64_t done, total, at;

	emb_wfile_progress(f, &done, &total);
	if (progshown() == 2) {
		double now = emb_now();

		if (now - last < 0.25)
			return;
		last = now;
	} else {
		at = total > 0 ? 10 * done / total : n / 1000000;
		if (at <= step)
			return;
		step = at;
	}
	if (total > 0)
		progress("%s: %3d%% %llu words", name,
		    (int)(100.0 * (double)done / (double)total),
		    (unsigned long long)n);
	else
		progress("%s: %llu words", name, (unsigned long long)n);
}

/* Warn once about the duplicates a build dropped. */
static void
dupwarn(const char *name, const struct emb_wfile *f,
    const struct emb_store_stats *ss)
{
	int fmt = emb_wfile_format(f);
	char q[EMB_QUOTE_BUF];

	if (ss->dups == 0)
		return;
	warnx("%s: %llu duplicate word%s ignored, the first kept (first at "
	    "%s %llu: '%s')", name, (unsigned long long)ss->dups,
	    ss->dups == 1 ? "" : "s", fmt == EMB_WF_FTBIN ? "word" :
	    fmt == EMB_WF_W2VBIN || fmt == EMB_WF_EMB ? "record" : "line", (unsigned long long)ss->dupwhere,
	    emb_quotes(q, ss->dupword));
}

/*
 * Open an embedding file for parsing, or exit naming the problem; *fdp
 * is the file when open already (-1: open it now).
 */
static struct emb_wfile *
xwfile(const char *path, int *fdp)
{
	struct emb_wfile *f;
	int rc;

	if (*fdp < 0)
		*fdp = openin(path);
	mapped = inname(path);
	if ((rc = emb_wfile_open(&f, *fdp, inname(path))) < 0)
		errx(1, "%s: %s", inname(path), f ? emb_wfile_msg(f) :
		    emb_strerror(rc));
	return f;
}

/* The vocabulary: a store file, or any embedding file parsed now. */
static void
openvocab(const char *path)
{
	struct emb_store_stats ss;
	struct emb_wfile *f = NULL;
	int rc, fd;

	/* Opened once, so that a FIFO or <(...) is read as it comes. */
	vname = inname(path);
	fd = openin(path);
	mapped = inname(path);
	rc = emb_store_fdopen(&st, fd);
	if (rc == 0) {
		if (fd != STDIN_FILENO)
			close(fd);
		if (oov == OOV_SUBWORD)
			hassw = emb_store_subword(st, &sw) == 0;
		goto done;
	}
	if (rc != EMB_EMAGIC)
		errx(1, "%s: %s", inname(path), st ? emb_store_msg(st) :
		    emb_strerror(rc));
	emb_store_close(st);
	st = NULL;
	f = xwfile(path, &fd);
	rc = emb_store_load_inplace(&st, f, limit, progshown() ? buildprog :
	    NULL, (void *)inname(path), &ss);
	progdone();
	if (rc < 0)
		errx(1, "%s: %s", inname(path), emb_wfile_error(f) < 0 ?
		    emb_wfile_msg(f) : emb_strerror(rc));
	if (!quiet)
		dupwarn(inname(path), f, &ss);
	if (oov == OOV_SUBWORD) {
		if ((ft = emb_wfile_takeft(f)) != NULL) {
			emb_ft_subword(ft, &sw);
			hassw = 1;
		}
	}
	emb_wfile_free(f);
	if (fd != STDIN_FILENO)
		close(fd);
done:
	if (oov == OOV_SUBWORD && !hassw && f == NULL)
		errx(1, "%s: -o subword: the store has no n-gram buckets "
		    "(build it with -B from the fastText model, .bin)",
		    inname(path));
	if (oov == OOV_SUBWORD && !hassw)
		errx(1, "%s: -o subword needs a fastText model (.bin) or a "
		    "store built from one, not a vectors file", inname(path));
	if (oov == OOV_SUBWORD)
		subv = xreallocarray(NULL, emb_store_dim(st), sizeof(float));
	nvocab = emb_store_count(st);
	if (limit && limit < nvocab)
		nvocab = limit;
}

/* Word i's vector, checked against the store's checksum of it. */
static const void *
row(uint64_t i)
{
	if (emb_store_check(st, i) < 0)
		errx(1, "%s: %s", vname, emb_store_msg(st));
	return emb_store_row(st, i);
}

/* @return the word's index among the usable words, or -1. */
static int64_t
find(const char *word, size_t n)
{
	int64_t i = emb_store_lookup(st, word, n);

	return i >= 0 && (uint64_t)i < nvocab ? i : -1;
}

/*
 * Look a token up with the case options.  @return its vector, or NULL
 * when it is out of the vocabulary.  Vectors are little-endian floats
 * at any alignment (a store's rows, or a mapped file's bytes).
 */
static const void *
lookup(const char *tok, size_t n)
{
	static struct emb_buf lcb;	/* the token in lower case */
	int64_t i = -1;
	int differs = 0;

	if (!fold)
		i = find(tok, n);
	if (i < 0 && (fold || lower)) {
		char *lc;

		xbufreserve(&lcb, n);
		lc = lcb.p;
		for (size_t k = 0; k < n; k++) {
			lc[k] = tok[k] >= 'A' && tok[k] <= 'Z' ?
			    (char)(tok[k] + 32) : tok[k];
			differs |= lc[k] != tok[k];
		}
		if (fold || differs)
			i = find(lc, n);
	}
	return i >= 0 ? row((uint64_t)i) : NULL;
}

/* The vector for an OOV token under the policy, or NULL to skip it. */
static const void *
oovvec(const char *name, const char *tok, size_t n)
{
	char q[EMB_QUOTE_BUF];

	noov++;
	switch (oov) {
	case OOV_ZERO:
		return zerovec;
	case OOV_UNK:
		return unkvec;
	case OOV_SUBWORD:
		return subtag;
	case OOV_FAIL:
		errx(1, "%s: line %llu: '%s' is not in the vocabulary", name,
		    nlines, emb_quote(q, tok, n));
	}
	return NULL;
}

/*
 * A vector to write: an OOV token's built from its n-grams now (the zero
 * vector when it has none, as fastText gives it).
 */
static const void *
resolve(const void *v, const char *name, const char *tok, size_t n)
{
	char q[EMB_QUOTE_BUF];
	int rc;

	if (v != subtag)
		return v;
	rc = emb_subvec(&sw, tok, n, subv);
	if (st != NULL && emb_store_damaged(st))
		errx(1, "%s: %s", vname, emb_store_msg(st));
	if (rc < 0)
		errx(1, "%s: line %llu: '%s': its subword vector is not "
		    "finite", name, nlines, emb_quote(q, tok, n));
	nsub++;
	nsubzero += rc == 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	for (uint32_t i = 0; i < emb_store_dim(st); i++) {
		uint32_t u;

		memcpy(&u, &subv[i], 4);
		u = __builtin_bswap32(u);
		memcpy(&subv[i], &u, 4);
	}
#endif
	return subv;
}

/* Append a raw field to a key, escaped; sep puts a TAB before it. */
static void
bfield(struct emb_buf *b, const char *s, size_t n, int sep)
{
	xbufreserve(b, 2 * n + 1);
	if (sep)
		b->p[b->len++] = '\t';
	b->len += emb_key_escape(b->p + b->len, s, n);
	b->p[b->len] = '\0';
}

/* One member of the line being looked up. */
struct memb {
	const char	*tok;
	size_t		 len;
	const void	*vec;
};

static int
isblank_(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Query mode: one group per line. */
static void
queries(struct textin *in, const char *name)
{
	struct emb_buf key = { 0 }, mk = { 0 };
	struct memb *m = NULL;
	size_t mcap = 0;
	char *line;
	ssize_t len;
	int rc;

	while ((len = textline(in, &line, nlines + 1)) != -1) {
		char *p = line, *end = line + len;
		size_t nm = 0;

		nlines++;
		if (end > p && end[-1] == '\r')
			end--;
		key.len = 0;
		if (numlines || nfields == 0) {
			char num[24];

			bfield(&key, num, (size_t)snprintf(num, sizeof(num),
			    "%llu", nlines), 0);
		}
		for (unsigned i = 0; i < nfields; i++) {
			char *tab = memchr(p, '\t', (size_t)(end - p));

			if (tab == NULL && i + 1 < nfields)
				errx(1, "%s: line %llu: %u field%s, -f %u "
				    "wants at least %u", name, nlines, i + 1,
				    i ? "s" : "", nfields, nfields);
			if (tab == NULL)
				tab = end;
			bfield(&key, p, (size_t)(tab - p), key.len > 0 || i);
			p = tab < end ? tab + 1 : end;
		}
		while (p < end) {
			char *t;
			const void *v;

			while (p < end && isblank_((unsigned char)*p))
				p++;
			if (p == end)
				break;
			for (t = p; t < end && !isblank_((unsigned char)*t);
			    t++)
				;
			ntokens++;
			if ((v = lookup(p, (size_t)(t - p))) == NULL)
				v = oovvec(name, p, (size_t)(t - p));
			if (v != NULL) {
				xgrow(&m, &mcap, nm + 1, sizeof(*m));
				m[nm].tok = p;
				m[nm].len = (size_t)(t - p);
				m[nm++].vec = v;
			}
			p = t;
		}
		if (nm == 0)
			nempty++;
		keyfits(key.len, name, "line", nlines);
		if ((rc = emb_write_group(w, key.p, key.len, (uint32_t)nm)) < 0)
			wdie(rc);
		for (size_t i = 0; i < nm; i++) {
			mk.len = 0;
			bfield(&mk, m[i].tok, m[i].len, 0);
			keyfits(mk.len, name, "line", nlines);
			if ((rc = emb_write_vecle(w, mk.p, mk.len, resolve(
			    m[i].vec, name, m[i].tok, m[i].len))) < 0)
				vdie(rc, m[i].tok, m[i].len);
		}
	}
	free(m);
	emb_buf_free(&key);
	emb_buf_free(&mk);
}

/*
 * The label of a word list named by its file: the base name without its
 * extension and without a SEMCAT-style "-<count>" ending.
 */
static char *
filelabel(const char *path)
{
	char *copy = xstrdup(path), *b = xstrdup(basename(copy)), *dot, *dash;

	free(copy);
	if ((dot = strrchr(b, '.')) != NULL && dot != b)
		*dot = '\0';
	if ((dash = strrchr(b, '-')) != NULL && dash != b &&
	    dash[1] != '\0' && strspn(dash + 1, "0123456789") ==
	    strlen(dash + 1))
		*dash = '\0';
	return b;
}

/* Word mode: one word per line, ungrouped records keyed word<TAB>label. */
static void
words(struct textin *in, const char *name, const char *label)
{
	struct emb_buf key = { 0 };
	char *line;
	ssize_t len;
	int rc;

	while ((len = textline(in, &line, nlines + 1)) != -1) {
		char *p = line, *end = line + len, *tab, *we, *p0;
		const void *v;
		size_t wlen;

		nlines++;
		if (end > p && end[-1] == '\r')
			end--;
		if ((tab = memchr(p, '\t', (size_t)(end - p))) == NULL)
			tab = end;
		while (p < tab && *p == ' ')
			p++;
		for (we = tab; we > p && we[-1] == ' '; we--)
			;
		if (we == p)
			continue;	/* a blank line holds no word */
		ntokens++;
		if ((v = lookup(p, (size_t)(we - p))) == NULL &&
		    (v = oovvec(name, p, (size_t)(we - p))) == NULL)
			continue;
		v = resolve(v, name, p, (size_t)(we - p));
		p0 = p;
		wlen = (size_t)(we - p);
		key.len = 0;
		bfield(&key, p, wlen, 0);
		if (tab < end) {
			/* The line's own fields follow the word. */
			for (p = tab + 1;; p = tab + 1) {
				if ((tab = memchr(p, '\t', (size_t)(end - p)))
				    == NULL)
					tab = end;
				bfield(&key, p, (size_t)(tab - p), 1);
				if (tab == end)
					break;
			}
		} else if (label != NULL)
			bfield(&key, label, strlen(label), 1);
		keyfits(key.len, name, "line", nlines);
		if ((rc = emb_write_vecle(w, key.p, key.len, v)) < 0)
			vdie(rc, p0, wlen);
	}
	emb_buf_free(&key);
}

/* The whole vocabulary, in file order. */
static void
dump(void)
{
	struct emb_buf key = { 0 };
	int rc;

	for (uint64_t i = 0; i < nvocab; i++) {
		size_t n;
		const char *word = emb_store_word(st, i, &n);

		key.len = 0;
		bfield(&key, word, n, 0);
		if ((rc = emb_write_vecle(w, key.p, key.len, row(i))) < 0)
			vdie(rc, word, n);
	}
	emb_buf_free(&key);
}

/* -B: build a store file from an embedding file, atomically. */
static void
build(const char *src, const char *dst)
{
	struct emb_store_stats ss;
	struct emb_wfile *f;
	FILE *out;
	int rc, fd = -1;

	f = xwfile(src, &fd);
	out = outopenfile(dst, &src, 1, 0644);
	rc = emb_store_build(fileno(out), f, limit, progshown() ? buildprog :
	    NULL, (void *)inname(src), &ss);
	progdone();
	if (rc < 0) {
		int e = errno;

		if (emb_wfile_error(f) < 0)
			errx(1, "%s: %s", inname(src), emb_wfile_msg(f));
		if (rc == EMB_EIO)
			errx(1, "%s: %s", dst, strerror(e));
		errx(1, "%s: %s", inname(src), emb_strerror(rc));
	}
	outcommit(out, dst);
	if (!quiet) {
		dupwarn(inname(src), f, &ss);
		fprintf(stderr, "emb-lookup: %s: %llu words, dimension %u, %s%s"
		    " -> %s\n", inname(src), (unsigned long long)ss.words,
		    emb_wfile_dim(f), emb_wfile_fmtname(emb_wfile_format(f)),
		    emb_wfile_gzip(f) ? " (gzip)" : "", dst);
	}
	emb_wfile_free(f);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* -C: open a store with every check, including the vectors' crc32. */
static void
check(const char *path)
{
	int rc;

	mapped = path;
	if ((rc = emb_store_open(&st, path)) == EMB_EMAGIC &&
	    kindmsg(pathkind(path), path, "a store") != NULL)
		errx(1, "%s: %s", path, kindmsg(pathkind(path), path,
		    "a store"));
	if (rc < 0 || (rc = emb_store_verify(st)) < 0)
		errx(1, "%s: %s", path, st ? emb_store_msg(st) :
		    emb_strerror(rc));
	printf("%s: %llu words, dimension %u", path,
	    (unsigned long long)emb_store_count(st), emb_store_dim(st));
	if (emb_store_subword(st, &sw) == 0)
		printf(", n-grams of %ld to %ld characters in %lu buckets",
		    (long)sw.minn, (long)sw.maxn, (unsigned long)sw.bucket);
	printf(", ok\n");
	fshut(stdout, "stdout");
}

static void
summary(const char *name, int wmode)
{
	double rate = ntokens ? 100.0 * (double)noov / (double)ntokens : 0;

	if (quiet)
		return;
	if (oov == OOV_SUBWORD)
		fprintf(stderr, "emb-lookup: %s: %llu OOV built from subwords"
		    ", %llu of them with no n-gram (zero)\n", name, nsub,
		    nsubzero);
	if (wmode)
		fprintf(stderr, "emb-lookup: %s: %llu words, %llu OOV (%.2f%%)"
		    "\n", name, ntokens, noov, rate);
	else
		fprintf(stderr, "emb-lookup: %s: %llu lines, %llu tokens, %llu "
		    "OOV (%.2f%%), %llu empty groups\n", name, nlines, ntokens,
		    noov, rate, nempty);
}

/* -o: a policy's name, its OOV_* number. */
static int
oovnum(const char *name)
{
	static const char *const names[] = {
		[OOV_SKIP] = "skip", [OOV_ZERO] = "zero", [OOV_FAIL] = "fail",
		[OOV_UNK] = "unk", [OOV_SUBWORD] = "subword"
	};
	char q[EMB_QUOTE_BUF];

	for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	misuse("-o: '%s' is not skip, zero, fail, unk or subword",
	    emb_quotes(q, name));
}

/*
 * The input would wait (a terminal, a slow pipe): what its lines made
 * goes out now, so that words typed one at a time are answered at once.
 */
static void
flushout(void *unused)
{
	(void)unused;
	(void)emb_writer_flush(w);
}

/*
 * The vectors of the tokens of in (NULL or "-": stdin) or, in words mode,
 * of its words under label (the file's name without its suffix when
 * NULL), on stdout; then the summary.  Before the input would wait, the
 * output is flushed.
 */
static void
lookupfile(const char *in, const char *vectors, int wmode, const char *label)
{
	const char *name = inname(in);
	char *flabel = NULL;
	struct textin tin;
	int fd;

	if (oov == OOV_UNK) {
		int64_t i = find(unkword, strlen(unkword));
		char q[EMB_QUOTE_BUF];

		if (i < 0)
			errx(1, "%s: unknown token '%s' is not in the "
			    "vocabulary", vectors, emb_quotes(q, unkword));
		unkvec = row((uint64_t)i);
	}
	zerovec = emb_alloc(emb_store_dim(st) * sizeof(float));
	if (zerovec == NULL)
		err(1, NULL);
	memset(zerovec, 0, emb_store_dim(st) * sizeof(float));
	if (in == NULL || strcmp(in, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(in, O_RDONLY)) < 0)
		err(1, "%s", in);
	textopen(&tin, fd, name);
	w = xwriter(emb_store_dim(st));
	emb_lines_idle(tin.l, 0, flushout, NULL);
	if (wmode) {
		if (label == NULL && fd != STDIN_FILENO)
			label = flabel = filelabel(in);
		words(&tin, name, label);
	} else
		queries(&tin, name);
	wclose(w);
	summary(name, wmode);
	textclose(&tin);
	free(flabel);
	emb_free(zerovec);
}

/*
 * The modes, by the option that chooses them, the options each takes
 * ('@' an input file, '+' a second one, '!' -o unk without -u, '?' -u
 * without -o unk) and the misuses, in the order they are told.
 */
enum { QUERIES, WORDS, DUMP, CHECK, BUILD };
#define COMMON	"celnoquv"
static const char *const takes[] = {
	[QUERIES] = COMMON "fN@", [WORDS] = COMMON "wL@",
	[DUMP] = COMMON "DfN", [CHECK] = COMMON "CfN", [BUILD] = COMMON "BfN"
};
static const struct optrule rules[] = {
	{ ~0u, "+", "one input file at most" },
	{ ~0u, "BCDw", "-B, -C, -D and -w exclude each other" },
	{ ~0u, "!", "-o unk needs the word -u names" },
	{ ~0u, "?", "-u goes with -o unk only" },
	{ 1u << DUMP | 1u << CHECK | 1u << BUILD, "@",
	    "-B, -C and -D read no input file" },
	{ 1u << WORDS, "fN", "-w takes no -f or -N" },
	{ ~0u, "L", "-L goes with -w only" },
	OPTRULEEND
};

int
main(int argc, char *argv[])
{
	const char *vectors = NULL, *label = NULL, *store = NULL;
	struct sigaction sa;
	char given[256] = { 0 };
	int ch, mode;

	sa.sa_handler = onbus;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGBUS, &sa, NULL);
	while ((ch = optget(argc, argv, &prog, NULL)) != -1) {
		if (ch > 0 && ch < 256)
			given[ch] = 1;
		switch (ch) {
		case 'B':
			store = optarg;
			break;
		case 'c':
			fold = 1;
			break;
		case 'e':
			vectors = optarg;
			break;
		case 'f':
			nfields = (unsigned)parsenum(optarg, 0, EMB_FIELD_MAX,
			    "-f");
			break;
		case 'L':
			label = optarg;
			break;
		case 'l':
			lower = 1;
			break;
		case 'N':
			numlines = 1;
			break;
		case 'n':
			limit = (uint64_t)parsenum(optarg, 1, INT64_MAX, "-n");
			break;
		case 'o':
			oov = oovnum(optarg);
			break;
		case 'q':
			quiet = 1;
			progmode = PROG_OFF;
			break;
		case 'u':
			unkword = optarg;
			break;
		case 'v':
			quiet = 0;
			progmode = PROG_ON;
			break;
		case 'C':
		case 'D':
		case 'w':
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (unkword != NULL && !given['o'])
		oov = OOV_UNK;
	if (vectors == NULL)
		misuse("no -e: name the embedding file or store to read");
	given['@'] = argc > 0;
	given['+'] = argc > 1;
	given['!'] = oov == OOV_UNK && unkword == NULL;
	given['?'] = oov != OOV_UNK && unkword != NULL;
	mode = given['C'] ? CHECK : store ? BUILD : given['D'] ? DUMP :
	    given['w'] ? WORDS : QUERIES;
	optmodes(given, mode, takes, rules);
	if (mode == CHECK) {
		check(vectors);
		emb_store_close(st);
		return 0;
	}
	if (mode == BUILD) {
		build(vectors, store);
		return 0;
	}
	openvocab(vectors);
	if (mode == DUMP) {
		w = xwriter(emb_store_dim(st));
		dump();
		wclose(w);
	} else
		lookupfile(argv[0], vectors, mode == WORDS, label);
	emb_ft_free(ft);
	free(subv);
	emb_store_close(st);
	return 0;
}
