/*
 * emb-cat - print an emb(5) stream as text, read the text back, write
 * the vectors as a NumPy .npy matrix or an embedding file (-f), or read a
 * .npy matrix with its keys (-n).
 *
 * The text view has one line per record: the key, a TAB, then the
 * components (shortest text that reads back as the same float32) or, for a
 * group record, '#' and its member count.  Keys are already escaped one-line
 * text (see emb(5)), so the view needs no escaping of its own and
 * `emb-cat x.emb | emb-cat -r | cmp - x.emb` holds.
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"

#define OBUFSZ	(1u << 20)

static int	 allow;		/* -a: accept NaN and Inf */
static int	 keysonly;	/* -k: keys, no components */
static uint32_t	 dimopt;	/* -d: dimension for -r */
static unsigned	 gfield;	/* -g: the field naming a row's group */
static unsigned	 gkey[64];	/* -G: the fields of a group's key */
static unsigned	 ngkey;
static int	 wfmt;		/* -f: embedding file format */
static int	 gzflag;	/* -z: gzip it */
static unsigned	 wfield = 1;	/* -w: the key field holding the word */
static int	 subst = -1;	/* -S: byte replacing what -f cannot carry */
/* -f's names, by EMB_WO_* format. */
static const char *const fmtnames[] = {
	[EMB_WO_W2VBIN] = "w2vbin", [EMB_WO_W2VTEXT] = "w2vtext",
	[EMB_WO_GLOVE] = "glove", [EMB_WO_VEC] = "vec"
};

static const struct opt opts[] = {
	{ 'a', "allow-nonfinite", NULL, "allow NaN and infinite components",
	    NULL },
	{ 'd', "dim", "dim", "with -r: the dimension of the stream", NULL },
	{ 'f', "format", "format", "write an embedding file: w2vbin, w2vtext, "
	    "glove or vec", "w2vbin w2vtext glove vec" },
	{ 'G', "group-key", "fields", "with -g: the fields of a group's key",
	    NULL },
	{ 'g', "group-field", "field", "with -n: group the rows whose key has "
	    "this field in common", NULL },
	{ 'K', "key-file", "keys", "with -n: the keys, one a line", OPT_FILE },
	{ 'k', "keys", NULL, "print the keys only", NULL },
	{ 'N', "to-npy", "file.npy", "write the vectors to a NumPy array",
	    OPT_FILE },
	{ 'n', "from-npy", "file.npy", "read a NumPy array (with -K)",
	    OPT_FILE },
	{ 'o', "output", "out", "with -f: write to out, whole or not at all",
	    OPT_FILE },
	{ 'r', "from-text", NULL, "read the text view, write a stream", NULL },
	{ 'S', "substitute", "c", "with -f: the byte put for one a format "
	    "cannot carry", NULL },
	{ 'w', "word-field", "field", "with -f: the word is this key field "
	    "(default 1)", NULL },
	{ 'z', "gzip", NULL, "with -f: compress with gzip", NULL },
	OPT_QUIET("accepted; changes nothing"),
	OPT_VERBOSE("accepted; changes nothing"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-cat",
	    "usage: emb-cat [-ak] [-N file.npy] [file]\n"
	    "       emb-cat -r [-a] [-d dim] [file]\n"
	    "       emb-cat -n file.npy -K keys [-a] [-g field [-G fields]]\n"
	    "       emb-cat -f w2vbin|w2vtext|glove|vec [-z] [-o out] "
	    "[-S c] [-w field]\n"
	    "               [file]\n", opts };

/* Binary stream to text on stdout. */
static void
totext(int fd, const char *name)
{
	struct emb_reader *r = xreader(fd, name);
	struct emb_rec rec;
	uint32_t dim = emb_reader_dim(r);
	char *line = NULL;
	size_t cap = 0;
	int rc;

	emb_reader_allow_nonfinite(r, allow);
	while ((rc = emb_reader_next(r, &rec)) > 0) {
		size_t need = rec.keylen + (size_t)dim * EMB_FTOA_MAX + 16;
		size_t n;

		if (need > cap) {
			cap = need;
			line = xreallocarray(line, cap, 1);
		}
		if (rec.type == EMB_REC_GROUP) {
			memcpy(line, rec.key, rec.keylen);
			n = rec.keylen;
			n += (size_t)sprintf(line + n, "\t#%u\n", rec.nmemb);
		} else if (keysonly) {
			memcpy(line, rec.key, rec.keylen);
			n = rec.keylen;
			line[n++] = '\n';
		} else
			n = emb_text_vec(line, rec.key, rec.keylen, rec.vec,
			    dim);
		if (fwrite(line, 1, n, stdout) != n)
			break;
	}
	if (rc < 0)
		rdie(r, name, rc);
	fshut(stdout, "stdout");
	free(line);
	emb_reader_free(r);
}

/* A group line seen before the first vector line fixed the dimension. */
struct early {
	char		*key;
	size_t		 keylen;
	uint32_t	 nmemb;
	unsigned long long lineno;
};

struct grp;

/*
 * What a mode holds while it runs.  An error frees all of it before it
 * exits (catdie), so that nothing is left allocated at any exit.
 */
struct held {
	struct emb_reader *r;
	struct emb_writer *w;
	struct emb_wout	*wo;
	struct emb_npy	*n;
	struct grp	*g;		/* -n -g: the group being gathered */
	struct textin	*in;		/* -r: the text */
	struct early	*early;		/* -r: groups before the dimension */
	size_t		 nearly;
	float		*vec;
	char		*word;		/* -f: a word being written */
};

static void	release(struct held *h);

/*
 * Free what h holds, then exit 1 with the message (and, if witherr, the
 * text of errno as it was when called), as errx and err would.
 */
static void __attribute__((noreturn, format(printf, 3, 4)))
catdie(struct held *h, int witherr, const char *fmt, ...)
{
	static char m[8192];
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	release(h);
	if (!witherr)
		errx(1, "%s", m);
	errno = e;
	err(1, "%s", m);
}

/* wdie(rc), h freed first. */
static void __attribute__((noreturn))
hwdie(struct held *h, int rc)
{
	if (rc == EMB_EIO)
		catdie(h, 1, "stdout");
	catdie(h, 0, "stdout: %s", emb_strerror(rc));
}

/* Close h's writer and free it, or exit 1 as wclose does. */
static void
hwclose(struct held *h)
{
	int rc;

	if ((rc = emb_writer_close(h->w)) < 0)
		hwdie(h, rc);
	emb_writer_free(h->w);
	h->w = NULL;
}

/* What is wrong with a text line, for emb_text_parse's code rc. */
static const char *
textmsg(int rc)
{
	switch (rc) {
	case EMB_ESYNTAX:
		return "syntax error (want KEY TAB components, or KEY TAB "
		    "#members)";
	case EMB_EKEY:
		return "badly escaped key (see emb(5))";
	case EMB_ELIMIT:
		return "key or member count over the limit";
	case EMB_ENONFINITE:
		return "non-finite component (-a allows it)";
	case EMB_ERANGE:
		return "number out of float32 range";
	default:
		return emb_strerror(rc);
	}
}

/* A write refused at line lineno of the text: exit 1 saying why. */
static void __attribute__((noreturn))
grouperr(struct held *h, unsigned long long lineno, int rc)
{
	if (rc == EMB_EGROUP)
		catdie(h, 0, "%s: line %llu: group starts before the previous "
		    "one has all its members", h->in->name, lineno);
	hwdie(h, rc);
}

/* The writer, once the dimension is known: the early groups go first. */
static void
ftwriter(struct held *h, uint32_t dim)
{
	int rc;

	h->w = xwriter(dim);
	emb_writer_allow_nonfinite(h->w, allow);
	for (size_t i = 0; i < h->nearly; i++)
		if ((rc = emb_write_group(h->w, h->early[i].key,
		    h->early[i].keylen, h->early[i].nmemb)) < 0)
			grouperr(h, h->early[i].lineno, rc);
}

/* A group line before the first vector line: kept for ftwriter. */
static void
ftearly(struct held *h, const struct emb_textrec *t,
    unsigned long long lineno)
{
	struct early *e;

	h->early = xreallocarray(h->early, h->nearly + 1, sizeof(*h->early));
	e = &h->early[h->nearly++];
	e->key = xmalloc(t->keylen + 1);
	memcpy(e->key, t->key, t->keylen);
	e->keylen = t->keylen;
	e->lineno = lineno;
	e->nmemb = t->nmemb;
}

/* Text on in to a binary stream on stdout. */
static void
fromtext(struct textin *in)
{
	struct held h = { .in = in };
	const char *name = in->name;
	char *line;
	unsigned long long lineno = 0;
	uint32_t dim = dimopt;
	size_t len;
	int rc;

	notty(STDOUT_FILENO);
	h.vec = xreallocarray(NULL, dim ? dim : EMB_DIM_MAX, sizeof(*h.vec));
	if (dim)
		ftwriter(&h, dim);
	while ((rc = textnext(in, &line, &len)) > 0) {
		struct emb_textrec t;

		lineno++;
		/*
		 * A last line without LF from a pipe was cut (a regular
		 * file's needs none).
		 */
		if (rc == 2)
			catdie(&h, 0, "%s: line %llu: truncated: no LF at the "
			    "end of the text", name, lineno);
		rc = emb_text_parse(line, len, h.vec, dim ? dim : EMB_DIM_MAX,
		    dim, allow, &t);
		if (rc == EMB_EDIM && dim == 0)
			catdie(&h, 0, "%s: line %llu: %u components, limit %u",
			    name, lineno, t.dim, EMB_DIM_MAX);
		if (rc == EMB_EDIM)
			catdie(&h, 0, "%s: line %llu: %u component%s, expected "
			    "%u", name, lineno, t.dim, t.dim == 1 ? "" : "s",
			    dim);
		if (rc < 0)
			catdie(&h, 0, "%s: line %llu: %s", name, lineno,
			    textmsg(rc));
		if (h.w == NULL && t.type == EMB_REC_GROUP) {
			ftearly(&h, &t, lineno);
			continue;
		}
		if (h.w == NULL)
			ftwriter(&h, dim = t.dim);
		if (t.type == EMB_REC_GROUP)
			rc = emb_write_group(h.w, t.key, t.keylen, t.nmemb);
		else
			rc = emb_write_vec(h.w, t.key, t.keylen, h.vec);
		if (rc < 0)
			grouperr(&h, lineno, rc);
	}
	if (h.w == NULL)
		catdie(&h, 0, "%s: no vector line to tell the dimension; give "
		    "it with -d", name);
	if ((rc = emb_writer_close(h.w)) == EMB_EGROUP)
		catdie(&h, 0, "%s: line %llu: input ends inside a group", name,
		    lineno);
	else if (rc < 0)
		hwdie(&h, rc);
	release(&h);
}

/*
 * Vectors to a .npy file (version 1.0, float32 in the host's byte order,
 * which its header says, C order) and their keys, one per line, on stdout.  The row count is
 * known only at the end, and a failed run must leave nothing that reads
 * as a whole array.  The file (for a FIFO or a device, a spool copied to
 * it at the end) has room for the header, which is filled in at the end
 * before it is given its name (see outopen), so that a failure writes
 * nothing there.
 */
static void
tonpy(int fd, const char *name, const char *npy, const char *in)
{
	struct emb_reader *r = xreader(fd, name);
	struct emb_rec rec;
	uint32_t dim = emb_reader_dim(r);
	unsigned long long rows = 0;
	char hdr[EMB_NPY_HDR];
	FILE *out;
	int rc;

	emb_reader_allow_nonfinite(r, allow);
	out = outopen(npy, &in, 1, 0666);
	memset(hdr, 0, sizeof(hdr));
	if (fwrite(hdr, 1, sizeof(hdr), out) != sizeof(hdr))
		err(1, "%s", npy);
	while ((rc = emb_reader_next(r, &rec)) > 0) {
		if (rec.type != EMB_REC_VEC)
			continue;
		if (fwrite(rec.vec, 4, dim, out) != dim)
			err(1, "%s", npy);
		fwrite(rec.key, 1, rec.keylen, stdout);
		putchar('\n');
		rows++;
	}
	if (rc < 0)
		rdie(r, name, rc);
	fshut(stdout, "stdout");
	emb_npy_header(hdr, rows, dim);
	if (fflush(out) != 0 || fseek(out, 0, SEEK_SET) != 0 ||
	    fwrite(hdr, 1, sizeof(hdr), out) != sizeof(hdr))
		err(1, "%s", npy);
	outcommit(out, npy);
	emb_reader_free(r);
}

/* A group of .npy rows being gathered: its members' keys and vectors. */
struct grp {
	char		*val;		/* the grouping field */
	size_t		 vlen, vcap;
	char		*key;		/* the group's key */
	size_t		 klen, kcap;
	char		*keys;		/* the members' keys, one after another */
	size_t		 kused, keyscap;
	size_t		*klens;		/* their lengths */
	size_t		 cap;
	float		*vecs;		/* their vectors */
	size_t		 vecscap;
	size_t		 nmemb;
	uint32_t	 dim;
	char		*mk;		/* a member's key, being made */
	size_t		 mcap;
	float		*row;		/* the row being read */
};

static void
release(struct held *h)
{
	struct grp *g = h->g;

	emb_reader_free(h->r);
	emb_writer_free(h->w);
	emb_wout_free(h->wo);
	emb_npy_free(h->n);
	if (g != NULL) {
		free(g->row);
		free(g->val);
		free(g->key);
		free(g->keys);
		free(g->klens);
		free(g->vecs);
		free(g->mk);
	}
	if (h->in != NULL)
		textclose(h->in);
	for (size_t i = 0; i < h->nearly; i++)
		free(h->early[i].key);
	free(h->early);
	free(h->vec);
	free(h->word);
	memset(h, 0, sizeof(*h));
}

/* Write out h's group, if it has members. */
static void
flushgrp(struct held *h)
{
	struct grp *g = h->g;
	size_t off = 0;
	int rc;

	if (g->nmemb == 0)
		return;
	if ((rc = emb_write_group(h->w, g->key, g->klen,
	    (uint32_t)g->nmemb)) < 0)
		hwdie(h, rc);
	for (size_t i = 0; i < g->nmemb; i++) {
		if ((rc = emb_write_vec(h->w, g->keys + off, g->klens[i],
		    g->vecs + i * (size_t)g->dim)) < 0)
			hwdie(h, rc);
		off += g->klens[i];
	}
	g->nmemb = 0;
	g->kused = 0;
}

/* Is field f the grouping field (-g) or one of the group key's (-G)? */
static int
ingroupkey(unsigned f)
{
	if (f == gfield)
		return 1;
	for (unsigned i = 0; i < ngkey; i++)
		if (gkey[i] == f)
			return 1;
	return 0;
}

/*
 * The fields of key numbered in list (1-based, in its order) or, with
 * list NULL, those not in -g and -G, joined by TAB into *dst (grown as
 * needed): @return its length, or -1 when a field is missing.
 */
static long
pick(const char *key, size_t len, const unsigned *list, unsigned nlist,
    char **dst, size_t *cap)
{
	unsigned nf = emb_key_nfields(key, len), m = list ? nlist : nf;
	size_t out = 0, off, flen;

	xgrow(dst, cap, (list ? nlist : 1) * (len + 1), 1);
	for (unsigned i = 0, first = 1; i < m; i++) {
		unsigned f = list ? list[i] : i + 1;

		if (!list && ingroupkey(f))
			continue;
		if (f < 1 || emb_key_field(key, len, f - 1, &off, &flen) < 0)
			return -1;
		if (!first)
			(*dst)[out++] = '\t';
		first = 0;
		memcpy(*dst + out, key + off, flen);
		out += flen;
	}
	return (long)out;
}

/*
 * Row vec with its key (klen bytes, line lno of kname) into the group of
 * its -g field, g's members written out first when the field changes: the
 * group keyed by the -G fields (-g alone without -G) of its first key,
 * each member by the fields of its key outside -g and -G.
 */
static void
addrow(struct held *h, const float *vec, const char *key, size_t klen,
    unsigned long long lno, const char *kname)
{
	struct grp *g = h->g;
	size_t off, flen;
	long len;

	if (emb_key_field(key, klen, gfield - 1, &off, &flen) < 0)
		catdie(h, 0, "%s: line %llu: no field %u", kname, lno, gfield);
	if (g->nmemb == 0 || flen != g->vlen ||
	    memcmp(key + off, g->val, flen) != 0) {
		flushgrp(h);
		if ((len = pick(key, klen, ngkey ? gkey : &gfield,
		    ngkey ? ngkey : 1, &g->key, &g->kcap)) < 0)
			catdie(h, 0, "%s: line %llu: no field for the group's "
			    "key", kname, lno);
		g->klen = (size_t)len;
		xgrow(&g->val, &g->vcap, flen + 1, 1);
		memcpy(g->val, key + off, flen);
		g->vlen = flen;
	}
	if (g->nmemb == EMB_GROUP_MAX)
		catdie(h, 0, "%s: line %llu: group over the limit of %u "
		    "members", kname, lno, EMB_GROUP_MAX);
	xgrow(&g->keys, &g->keyscap, g->kused + klen, 1);
	xgrow(&g->klens, &g->cap, g->nmemb + 1, sizeof(*g->klens));
	xgrow(&g->vecs, &g->vecscap, (g->nmemb + 1) * g->dim,
	    sizeof(*g->vecs));
	len = pick(key, klen, NULL, 0, &g->mk, &g->mcap);
	memcpy(g->keys + g->kused, g->mk, (size_t)len);
	g->kused += (size_t)len;
	g->klens[g->nmemb] = (size_t)len;
	memcpy(g->vecs + g->nmemb * (size_t)g->dim, vec,
	    (size_t)g->dim * sizeof(*vec));
	g->nmemb++;
}

/* The .npy reader's message, or the writer's failure. */
static void __attribute__((noreturn))
npydie(struct held *h, int rc)
{
	if (*emb_npy_msg(h->n))
		catdie(h, 0, "%s", emb_npy_msg(h->n));
	hwdie(h, rc);
}

/*
 * A .npy array and its keys (-n, -K) to a stream on stdout: each row
 * keyed by its line of the keys file or, with -g, gathered into groups.
 */
static void
fromnpy(const char *npy, const char *keys)
{
	struct grp g = { 0 };
	struct held h = { .g = &g };
	const char *nname = inname(npy), *kname = inname(keys), *key;
	unsigned long long lno;
	size_t klen;
	int fd, kfd, rc;

	if (strcmp(nname, kname) == 0 && strcmp(nname, "stdin") == 0)
		misuse("-n and -K cannot both be the standard input");
	fd = openin(npy);
	kfd = openin(keys);
	notty(STDOUT_FILENO);
	if ((rc = emb_npy_open(&h.n, fd, nname)) < 0) {
		if (h.n == NULL)
			errx(1, "%s: %s", nname, emb_strerror(rc));
		catdie(&h, 0, "%s", emb_npy_msg(h.n));
	}
	emb_npy_allow_nonfinite(h.n, allow);
	g.dim = emb_npy_dim(h.n);
	h.w = xwriter(g.dim);
	emb_writer_allow_nonfinite(h.w, allow);
	if ((rc = emb_npy_keys(h.n, kfd, kname)) < 0)
		npydie(&h, rc);
	g.row = xreallocarray(NULL, g.dim, sizeof(*g.row));
	while ((rc = emb_npy_nextkey(h.n, g.row, &key, &klen, &lno)) > 0)
		if (gfield == 0) {
			if ((rc = emb_write_vec(h.w, key, klen, g.row)) < 0)
				hwdie(&h, rc);
		} else
			addrow(&h, g.row, key, klen, lno, kname);
	if (rc < 0)
		npydie(&h, rc);
	flushgrp(&h);
	if ((rc = emb_npy_keysdone(h.n)) < 0)
		npydie(&h, rc);
	hwclose(&h);
	release(&h);
}

/* -G: field numbers separated by commas. */
static void
fieldlist(char *s)
{
	char *f;

	ngkey = 0;
	while ((f = strsep(&s, ",")) != NULL) {
		if (ngkey == sizeof(gkey) / sizeof(gkey[0]))
			errx(2, "-G: more than %zu fields",
			    sizeof(gkey) / sizeof(gkey[0]));
		gkey[ngkey++] = (unsigned)parsenum(f, 1, EMB_FIELD_MAX, "-G");
	}
}

/* h->r on fd, or exit 1 (h freed) with the reader's message. */
static void
hreader(struct held *h, int fd, const char *name)
{
	int rc;

	if ((rc = emb_reader_open(&h->r, fd, name)) < 0)
		catdie(h, 0, "%s", rmsg(h->r, name, rc));
}

/*
 * The records of h->r to h->wo, each word field wfield of its key,
 * unescaped into h->word; repeated words warned about if warn; a write
 * error blamed on wname.  @return the records read.
 */
static unsigned long long
wpass(struct held *h, const char *name, const char *wname, int warn)
{
	struct emb_rec rec;
	char q[EMB_QUOTE_BUF];
	unsigned long long ndup = 0;
	int rc;

	while ((rc = emb_reader_next(h->r, &rec)) > 0) {
		unsigned long long n = emb_reader_count(h->r);
		const char *wd;
		char *word;
		size_t len;
		int64_t dup;
		long bad;

		if (rec.type == EMB_REC_GROUP)
			catdie(h, 0, "%s: record %llu: a group record (only "
			    "ungrouped records make an embedding file)", name,
			    n);
		if ((wd = keyfield(rec.key, rec.keylen, wfield, &len)) == NULL)
			catdie(h, 0, "%s: record %llu: key has no field %u",
			    name, n, wfield);
		h->word = word = xreallocarray(h->word, len + 1, 1);
		len = (size_t)emb_key_unescape(word, wd, len);
		if (len == 0)
			catdie(h, 0, "%s: record %llu: empty word, which no "
			    "format can carry", name, n);
		if (len > EMB_WORD_MAX)
			catdie(h, 0, "%s: record %llu: word of %zu bytes, over "
			    "the limit %u", name, n, len, EMB_WORD_MAX);
		while ((bad = emb_wword_bad(word, len)) >= 0) {
			if (subst < 0)
				catdie(h, 0, "%s: record %llu: word '%s': byte "
				    "%ld is 0x%02x, which -f %s cannot carry "
				    "(-S replaces it)", name, n, emb_quote(q,
				    word, len), bad + 1,
				    (unsigned char)word[bad], fmtnames[wfmt]);
			word[bad] = (char)subst;
		}
		/* A GloVe file starts with its first word, and its readers
		 * strip a byte order mark there. */
		if (wfmt == EMB_WO_GLOVE && emb_wout_count(h->wo) == 0 &&
		    emb_wword_bom(word, len)) {
			if (subst < 0)
				catdie(h, 0, "%s: record %llu: word '%s' "
				    "starts with a UTF-8 byte order mark, which "
				    "readers strip at the start of a -f glove "
				    "file (-S replaces it)", name, n,
				    emb_quote(q, word, len));
			memset(word, subst, 3);
		}
		if ((rc = emb_wout_add(h->wo, word, len, rec.vec, &dup)) ==
		    EMB_EIO)
			catdie(h, 1, "%s", wname);
		else if (rc == EMB_EFORMAT)
			catdie(h, 0, "%s: record %llu: word '%s' and its one "
			    "number would read as a word2vec header", name, n,
			    emb_quote(q, word, len));
		else if (rc == EMB_EINVAL)
			catdie(h, 0, "%s: record %llu: changed while read",
			    name, n);
		else if (rc < 0)
			hwdie(h, rc);
		if (warn && dup >= 0 && ndup++ < 10)
			warnx("%s: record %llu: word '%s' again, first at record "
			    "%lld (readers keep the first)", name, n,
			    emb_quote(q, word, len), (long long)dup + 1);
	}
	if (rc < 0)
		catdie(h, 0, "%s", rmsg(h->r, name, rc));
	if (ndup > 10)
		warnx("%s: %llu words in all seen again", name, ndup);
	return emb_reader_count(h->r);
}

/*
 * Ungrouped records to the embedding file of format wfmt, on out or
 * stdout.  The header's count comes first: a regular file is read twice,
 * checked and counted, then written; anything else is spooled to an
 * unlinked temporary (see emb_wout_open).  Either way the whole input is
 * checked before a byte is written.
 */
static void
toformat(int fd, const char *name, const char *out, const char *in)
{
	struct held h = { 0 };
	struct stat sb;
	FILE *fp = NULL;
	const char *oname = out ? out : "stdout";
	off_t start = lseek(fd, 0, SEEK_CUR);
	int ofd = STDOUT_FILENO, twice, rc;

	twice = start >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
	hreader(&h, fd, name);
	if (out != NULL) {
		fp = outopen(out, &in, 1, 0666);
		ofd = fileno(fp);
	} else if (wfmt == EMB_WO_W2VBIN || gzflag)
		notty(STDOUT_FILENO);
	if ((rc = emb_wout_open(&h.wo, wfmt, emb_reader_dim(h.r),
	    twice ? -1 : xtmpfd())) < 0)
		hwdie(&h, rc);
	if (twice) {
		unsigned long long n = wpass(&h, name, oname, 1);

		emb_wout_free(h.wo);
		emb_reader_free(h.r);
		h.wo = NULL;
		h.r = NULL;
		if (lseek(fd, start, SEEK_SET) != start)
			catdie(&h, 1, "%s", name);
		hreader(&h, fd, name);
		if ((rc = emb_wout_open(&h.wo, wfmt, emb_reader_dim(h.r),
		    -1)) < 0)
			hwdie(&h, rc);
		if ((rc = emb_wout_direct(h.wo, ofd, gzflag, n)) == EMB_EIO)
			catdie(&h, 1, "%s", oname);
		else if (rc < 0)
			hwdie(&h, rc);
		if (wpass(&h, name, oname, 0) != n)
			catdie(&h, 0, "%s: changed while read", name);
	} else
		wpass(&h, name, "temporary file", 1);
	/* Every file written must read back: GloVe's dimension is its lines'. */
	if (wfmt == EMB_WO_GLOVE && emb_wout_count(h.wo) == 0)
		catdie(&h, 0, "%s: no vectors: an empty GloVe file cannot be "
		    "read back (it has no header to hold the dimension); write "
		    "-f w2vtext or -f vec", name);
	if ((rc = emb_wout_finish(h.wo, ofd, gzflag)) == EMB_EINVAL)
		catdie(&h, 0, "%s: changed while read", name);
	else if (rc < 0)
		catdie(&h, 1, "%s", oname);
	if (fp != NULL)
		outcommit(fp, out);
	release(&h);
}

/* -f: a format's name, its EMB_WO_* number. */
static int
fmtnum(const char *name)
{
	int f;

	for (f = EMB_WO_VEC; f > 0; f--)
		if (fmtnames[f] != NULL && strcmp(name, fmtnames[f]) == 0)
			return f;
	errx(2, "-f: unknown format '%s' (w2vbin, w2vtext, glove, vec)",
	    name);
}

/* -S: one byte that a word can hold. */
static int
substbyte(const char *arg)
{
	if (strlen(arg) != 1 || emb_wword_bad(arg, 1) >= 0)
		errx(2, "-S: one byte that a word can hold, not '%s'", arg);
	return (unsigned char)arg[0];
}

/*
 * The modes, by the option that chooses them (-n before -r before -f
 * before -N), the options each takes and the misuses, in the order they
 * are told.
 */
enum { TOTEXT, TONPY, FROMTEXT, TOFORMAT, FROMNPY };
static const char *const takes[] = {
	[TOTEXT] = "ak@", [TONPY] = "akN@", [FROMTEXT] = "adr@",
	[TOFORMAT] = "foSwz@", [FROMNPY] = "aGgKn"
};
#define NOTNPY	(~(1u << FROMNPY))
static const struct optrule rules[] = {
	{ NOTNPY, "KgG", "-K, -g and -G go with -n only" },
	{ NOTNPY, "+", "one input file at most" },
	{ 1u << FROMTEXT, "Nk", "-r writes a stream: no -N or -k with it" },
	{ NOTNPY, "d", "-d goes with -r only" },
	{ 1u << TOFORMAT | 1u << FROMTEXT, "akNf",
	    "-f takes no -a, -k, -N or -r" },
	{ NOTNPY, "oSwz", "-o, -S, -w and -z go with -f only" },
	{ 1u << FROMNPY, "@rNkdfzoSw", "-n takes no input file and no other "
	    "option but -a, -K, -g and -G" },
	OPTRULEEND
};

int
main(int argc, char *argv[])
{
	const char *npy = NULL, *npyin = NULL, *keys = NULL, *out = NULL;
	const char *name;
	char given[256] = { 0 };
	int ch, fd, mode;

	while ((ch = optget(argc, argv, &prog, NULL)) != -1) {
		if (ch > 0 && ch < 256)
			given[ch] = 1;
		switch (ch) {
		case 'a':
			allow = 1;
			break;
		case 'd':
			dimopt = (uint32_t)parsenum(optarg, 1, EMB_DIM_MAX,
			    "-d");
			break;
		case 'G':
			fieldlist(optarg);
			break;
		case 'g':
			gfield = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-g");
			break;
		case 'K':
			keys = optarg;
			break;
		case 'f':
			wfmt = fmtnum(optarg);
			break;
		case 'k':
			keysonly = 1;
			break;
		case 'n':
			npyin = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'S':
			subst = substbyte(optarg);
			break;
		case 'w':
			wfield = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-w");
			break;
		case 'z':
			gzflag = 1;
			break;
		case 'N':
			npy = optarg;
			break;
		case 'r':
		case 'q':	/* no summary to silence or add */
		case 'v':
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	given['q'] = given['v'] = 0;
	given['@'] = argc > 0;
	given['+'] = argc > 1;
	given['w'] = wfield != 1;	/* -w 1, the default, goes anywhere */
	mode = given['n'] ? FROMNPY : given['r'] ? FROMTEXT : wfmt ? TOFORMAT :
	    npy ? TONPY : TOTEXT;
	if (mode == FROMNPY && !keys)
		misuse("-n needs -K keys, the keys of its rows");
	if (mode == FROMNPY && ngkey && !gfield)
		misuse("-G goes with -g only");
	optmodes(given, mode, takes, rules);
	if (mode == FROMNPY) {
		fromnpy(npyin, keys);
		return 0;
	}
	name = inname(argv[0]);
	fd = openin(argv[0]);
	if (mode == FROMTEXT) {
		struct textin in;

		textopen(&in, fd, name);
		fromtext(&in);
	} else if (mode == TOFORMAT)
		toformat(fd, name, out, argv[0] ? argv[0] : "-");
	else if (mode == TONPY)
		tonpy(fd, name, npy, argv[0] ? argv[0] : "-");
	else {
		static char obuf[OBUFSZ];

		setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
		totext(fd, name);
	}
	return 0;
}
