/*
 * formats.c - the embedding files users have: word2vec binary, word2vec
 * and fastText text (.vec), GloVe text (no header) and emb(5) streams of
 * word-keyed records, each plain or gzip-compressed.
 *
 * The format is recognised by content, never by file name: the first bytes
 * say gzip (1f 8b) or not; the decompressed bytes then say emb(5) (its
 * magic), a header line of two integers (word2vec), whose first record is
 * text or binary, or anything else (GloVe).  The bytes come from the
 * input layer (src.c), in large blocks, inflated on the way when gzip,
 * so a pipe works as well as a file.  An emb(5) input is read by the
 * stream reader on that same source, exactly as every other program
 * reads a stream.
 *
 * Text numbers go through emb_parse_f32(), a fast path that returns
 * exactly what strtof() returns (it falls back to strtof() whenever it
 * cannot prove the result), because parsing is most of the time spent
 * loading a 1 GB GloVe file.
 */
#include "io/emb-io.h"
#include "io/fmt.h"
#include "base/fail.h"
#include "base/le.h"
#include "io/sniff.h"
#include "io/text.h"
#include "io/src.h"

#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef EMB_WFILE_INSZ		/* the fuzz build makes these small */
#define EMB_WFILE_INSZ	(1u << 20)
#endif
#ifndef EMB_WFILE_BUFSZ
#define EMB_WFILE_BUFSZ	(4u << 20)
#endif
#define INSZ	EMB_WFILE_INSZ	/* compressed input block */
#define BUFSZ	EMB_WFILE_BUFSZ	/* decompressed block */
#define LINEMAX	(256u << 20)	/* longest text line accepted */

struct emb_wfile {
	int		 fd;
	const char	*name;
	int		 format;	/* EMB_WF_* */
	struct emb_src	 s;		/* the bytes, decompressed; unread
					   ones are s.buf[s.beg, s.end) */
	/* parse state */
	uint32_t	 dim;
	uint64_t	 declared;	/* word count in the header, 0 if none
					   (a GloVe file has none) */
	uint64_t	 nwords;	/* entries returned */
	uint64_t	 lineno;	/* text: lines consumed */
	char		*word;		/* current word, NUL-terminated */
	size_t		 wordlen;	/* its length (it may hold NUL bytes) */
	size_t		 wordcap;
	float		*vec;		/* current vector, aligned */
	float		*out;		/* where this entry's vector goes */
	const unsigned char *raw;	/* mapped: this entry's vector bytes */
	struct emb_ft	*ft;		/* a fastText model, read whole */
	/* emb(5) input */
	struct emb_reader *rd;		/* on s */
	int		 err;		/* sticky error */
	char		 msg[256];
};

/* Record an error and its message; every later call returns it. */
#define wfail(f, code, ...) \
	((f)->err = emb_fail((f)->msg, sizeof((f)->msg), (code), __VA_ARGS__))

/* Where the parser is, for messages: "line N" or "record N". */
static const char *
where(struct emb_wfile *f, char *buf, size_t sz)
{
	if (f->format == EMB_WF_W2VBIN)
		snprintf(buf, sz, "record %llu",
		    (unsigned long long)f->nwords + 1);
	else if (f->format == EMB_WF_FTBIN && f->ft == NULL)
		snprintf(buf, sz, "fastText model");
	else if (f->format == EMB_WF_FTBIN)
		snprintf(buf, sz, "word %llu",
		    (unsigned long long)f->nwords + 1);
	else
		snprintf(buf, sz, "line %llu", (unsigned long long)f->lineno);
	return buf;
}

/* Where a read failed: inside the record or line not yet complete. */
static const char *
wherenext(struct emb_wfile *f, char *buf, size_t sz)
{
	if (f->format == EMB_WF_W2VBIN || f->format == EMB_WF_FTBIN)
		return where(f, buf, sz);
	snprintf(buf, sz, "line %llu", (unsigned long long)f->lineno + 1);
	return buf;
}

/*
 * Make n bytes available at s.buf + s.beg.  @return 0, 1 when the input
 * ends first, or a negative code.
 */
static int
fill(struct emb_wfile *f, size_t n)
{
	return emb_src_fill(&f->s, n);
}

/* fill() failures as the file's error. */
static int
fillerr(struct emb_wfile *f, int rc)
{
	char w[64];

	wherenext(f, w, sizeof(w));
	if (rc == EMB_EIO && f->s.changed)
		return wfail(f, rc, "%s: file changed size while being read",
		    w);
	if (rc == EMB_EIO)
		return wfail(f, rc, "%s: %s", w, strerror(errno));
	if (rc == EMB_EGZIP)
		return wfail(f, rc, "%s: %s", w, f->s.eof ? "gzip data ends "
		    "early (truncated file)" : "corrupt gzip data");
	return wfail(f, rc, "%s: %s", w, emb_strerror(rc));
}

/*
 * Find the next line; on success *len is its length without the newline
 * (and without a CR before it) and the line starts at buf + beg.
 * @return 1, 0 at the end of input, or a negative code.  The caller
 * consumes the line with f->s.beg += *adv.
 */
static int
nextline(struct emb_wfile *f, size_t *len, size_t *adv)
{
	size_t scanned = 0;
	unsigned char *nl;
	int rc;

	for (;;) {
		nl = memchr(f->s.buf + f->s.beg + scanned, '\n',
		    f->s.end - f->s.beg - scanned);
		if (nl != NULL)
			break;
		scanned = f->s.end - f->s.beg;
		if (scanned >= LINEMAX) {
			f->lineno++;
			return wfail(f, EMB_ELIMIT, "line %llu: longer than "
			    "%u bytes", (unsigned long long)f->lineno,
			    LINEMAX);
		}
		rc = fill(f, scanned + 1);
		if (rc < 0)
			return fillerr(f, rc);
		if (rc == 1) {
			if (f->s.end == f->s.beg)
				return 0;
			/*
			 * A last line without its newline: a line in a
			 * regular file or gzip data, cut from a pipe.
			 */
			f->lineno++;
			if (!emb_src_whole(&f->s))
				return wfail(f, EMB_ETRUNC, "line %llu: "
				    "truncated: no LF at the end of the text",
				    (unsigned long long)f->lineno);
			*len = *adv = f->s.end - f->s.beg;
			if (*len > 0 && f->s.buf[f->s.beg + *len - 1] == '\r')
				(*len)--;
			return 1;
		}
	}
	f->lineno++;
	*adv = (size_t)(nl - (f->s.buf + f->s.beg)) + 1;
	*len = *adv - 1;
	if (*len > 0 && f->s.buf[f->s.beg + *len - 1] == '\r')
		(*len)--;
	return 1;
}

/* Copy the word (n raw bytes) into f->word, NUL-terminated. */
/* The current word as a message shows it (emb_quote). */
static const char *
qword(const struct emb_wfile *f, char *q)
{
	return emb_quote(q, f->word, f->wordlen);
}

static int
setword(struct emb_wfile *f, const void *p, size_t n)
{
	char w[64];

	if (n == 0)
		return wfail(f, EMB_EFORMAT, "%s: empty word",
		    where(f, w, sizeof(w)));
	if (n > EMB_WORD_MAX)
		return wfail(f, EMB_EFORMAT, "%s: word longer than %u bytes",
		    where(f, w, sizeof(w)), EMB_WORD_MAX);
	if (n + 1 > f->wordcap &&
	    emb_grow_max(&f->word, &f->wordcap, n + 1, n + 1, 1) < 0)
		return wfail(f, EMB_ENOMEM, "%s: out of memory",
		    where(f, w, sizeof(w)));
	memcpy(f->word, p, n);
	f->word[n] = '\0';
	f->wordlen = n;
	return 0;
}

/*
 * Parse the numbers of a text line (s, len) into vec.  @return the count
 * found (possibly more than dim: counting continues, nothing is stored
 * past dim), or a negative code with *bad at the offending token.
 */
static long
parsenums(const char *s, size_t len, float *vec, uint32_t dim, size_t *bad)
{
	const char *p = s, *end = s + len;
	long n = 0;

	for (;;) {
		float v;
		size_t used;
		int rc;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			return n;
		if (emb_f32_fast(p, end, &v, &used) != 0 &&
		    (rc = emb_f32_slow(p, (size_t)(end - p), &v, &used)) < 0) {
			*bad = (size_t)(p - s);
			return rc;
		}
		if ((uint32_t)n < dim)
			vec[n] = v;
		n++;
		p += used;
	}
}

/*
 * One text entry (word2vec text or GloVe) from a line.  The word runs to
 * the first space or TAB.  When the line holds more numbers than the
 * dimension, the word is taken to contain spaces (some GloVe releases
 * have such entries): it is then everything before the last dim fields.
 */
static int
textentry(struct emb_wfile *f, const char *s, size_t len)
{
	size_t wl = 0, bad = 0;
	char q[EMB_QUOTE_BUF];
	long n;
	int rc;

	while (wl < len && s[wl] != ' ' && s[wl] != '\t')
		wl++;
	if ((rc = setword(f, s, wl)) < 0)
		return rc;
	n = parsenums(s + wl, len - wl, f->out, f->dim, &bad);
	if (n < 0) {
		/*
		 * Not a number after the word: try the word as all fields
		 * but the last dim (some GloVe releases hold words with
		 * spaces in them).
		 */
		size_t cut = len, k = 0, bad2, w2;

		while (cut > 0 && k < f->dim) {
			while (cut > 0 && (s[cut - 1] == ' ' ||
			    s[cut - 1] == '\t'))
				cut--;
			while (cut > 0 && s[cut - 1] != ' ' &&
			    s[cut - 1] != '\t')
				cut--;
			k++;
		}
		for (w2 = cut; w2 > 0 && (s[w2 - 1] == ' ' ||
		    s[w2 - 1] == '\t'); w2--)
			;
		if (k == f->dim && w2 > wl && parsenums(s + cut, len - cut,
		    f->out, f->dim, &bad2) == (long)f->dim) {
			if ((rc = setword(f, s, w2)) < 0)
				return rc;
			n = (long)f->dim;
		} else {
			const char *t = s + wl + bad;
			size_t tl = 0;
			char qw[EMB_QUOTE_BUF], qn[EMB_QUOTE_BUF];

			while (t + tl < s + len && tl <= EMB_QUOTE_IN &&
			    !emb_isnumsep((unsigned char)t[tl]))
				tl++;
			return wfail(f, EMB_EFORMAT, "line %llu: word '%s': "
			    "bad number '%s'", (unsigned long long)f->lineno,
			    qword(f, qw), emb_quote(qn, t, tl));
		}
	}
	if (n != (long)f->dim)
		return wfail(f, EMB_EFORMAT, "line %llu: word '%s': %ld values,"
		    " expected %u", (unsigned long long)f->lineno,
		    qword(f, q), n, f->dim);
	if (!emb_allfinite(f->out, f->dim))
		return wfail(f, EMB_EFORMAT, "line %llu: word '%s': non-finite "
		    "value", (unsigned long long)f->lineno, qword(f, q));
	return 0;
}

static int
nexttext(struct emb_wfile *f)
{
	size_t len, adv;
	int rc;

	for (;;) {
		if ((rc = nextline(f, &len, &adv)) <= 0) {
			if (rc == 0 && f->format == EMB_WF_W2VTEXT &&
			    f->nwords != f->declared)
				return wfail(f, EMB_EFORMAT, "line %llu: file "
				    "ends after %llu of %llu words",
				    (unsigned long long)f->lineno,
				    (unsigned long long)f->nwords,
				    (unsigned long long)f->declared);
			return rc;
		}
		if (len > 0)
			break;
		/* Blank lines (a trailing one, say) are skipped. */
		f->s.beg += adv;
	}
	if (f->format == EMB_WF_W2VTEXT && f->nwords == f->declared)
		return wfail(f, EMB_EFORMAT, "line %llu: more words than the %llu"
		    " the header declares", (unsigned long long)f->lineno,
		    (unsigned long long)f->declared);
	rc = textentry(f, (const char *)f->s.buf + f->s.beg, len);
	f->s.beg += adv;
	if (rc < 0)
		return rc;
	f->nwords++;
	return 1;
}

static int
nextbin(struct emb_wfile *f)
{
	size_t vb = (size_t)f->dim * 4, wl = 0;
	char q[EMB_QUOTE_BUF];
	unsigned char *p;
	int rc;

	/* The newline after a vector is optional. */
	for (;;) {
		if ((rc = fill(f, 1)) < 0)
			return fillerr(f, rc);
		if (rc == 1)
			goto eof;
		if (f->s.buf[f->s.beg] != '\n')
			break;
		f->s.beg++;
	}
	if (f->nwords == f->declared)
		return wfail(f, EMB_EFORMAT, "record %llu: data after the %llu "
		    "words the header declares", (unsigned long long)f->nwords
		    + 1, (unsigned long long)f->declared);
	for (;;) {
		size_t avail = f->s.end - f->s.beg;
		unsigned char *sp;

		p = f->s.buf + f->s.beg;
		sp = memchr(p, ' ', avail < EMB_WORD_MAX + 1 ? avail :
		    EMB_WORD_MAX + 1);
		if (sp != NULL) {
			wl = (size_t)(sp - p);
			break;
		}
		if (avail > EMB_WORD_MAX)
			return wfail(f, EMB_EFORMAT, "record %llu: word longer "
			    "than %u bytes", (unsigned long long)f->nwords + 1,
			    EMB_WORD_MAX);
		if ((rc = fill(f, avail + 1)) < 0)
			return fillerr(f, rc);
		if (rc == 1)
			return wfail(f, EMB_EFORMAT, "record %llu: short record"
			    " (file ends inside a word)",
			    (unsigned long long)f->nwords + 1);
	}
	if (memchr(p, '\n', wl) != NULL)
		return wfail(f, EMB_EFORMAT, "record %llu: newline inside a "
		    "word", (unsigned long long)f->nwords + 1);
	if ((rc = setword(f, f->s.buf + f->s.beg, wl)) < 0)
		return rc;
	if ((rc = fill(f, wl + 1 + vb)) < 0)
		return fillerr(f, rc);
	if (rc == 1)
		return wfail(f, EMB_EFORMAT, "record %llu: word '%s': short "
		    "record (%zu of %zu vector bytes)",
		    (unsigned long long)f->nwords + 1, qword(f, q),
		    f->s.end - f->s.beg - wl - 1, vb);
	f->raw = f->s.buf + f->s.beg + wl + 1;
	if (f->out != NULL)
		emb_getf32s(f->out, f->raw, f->dim);
	if (f->out != NULL ? !emb_allfinite(f->out, f->dim) :
	    !emb_allfinite_le(f->raw, f->dim))
		return wfail(f, EMB_EFORMAT, "record %llu: word '%s': "
		    "non-finite value", (unsigned long long)f->nwords + 1,
		    qword(f, q));
	f->s.beg += wl + 1 + vb;
	f->nwords++;
	return 1;
eof:
	if (f->nwords != f->declared)
		return wfail(f, EMB_EFORMAT, "record %llu: file ends after %llu"
		    " of %llu words (short file)",
		    (unsigned long long)f->nwords + 1,
		    (unsigned long long)f->nwords,
		    (unsigned long long)f->declared);
	return 0;
}

static int
nextemb(struct emb_wfile *f)
{
	struct emb_rec rec;
	size_t off, flen;
	long n;
	int rc;

	do
		rc = emb_reader_next(f->rd, &rec);
	while (rc > 0 && rec.type != EMB_REC_VEC);
	if (rc <= 0) {
		/*
		 * The source's error ended the reader's input: a gzip error
		 * counts even when the stream it carried was whole.
		 */
		if (f->s.err)
			return wfail(f, f->s.err, "record %llu: %s",
			    (unsigned long long)emb_reader_count(f->rd) + 1,
			    f->s.err == EMB_EGZIP ? "corrupt or truncated "
			    "gzip data" : emb_strerror(f->s.err));
		if (rc < 0)
			return wfail(f, rc, "%s", emb_reader_msg(f->rd));
		return 0;
	}
	f->lineno = rec.recno;
	emb_key_field(rec.key, rec.keylen, 0, &off, &flen);
	if (flen + 1 > f->wordcap &&
	    emb_grow_max(&f->word, &f->wordcap, flen + 1, flen + 1, 1) < 0)
		return wfail(f, EMB_ENOMEM, "out of memory");
	if ((n = emb_key_unescape(f->word, rec.key + off, flen)) < 0)
		return wfail(f, EMB_EKEY, "record %llu: bad key",
		    (unsigned long long)rec.recno);
	f->word[n] = '\0';
	f->wordlen = (size_t)n;
	if (n == 0)
		return wfail(f, EMB_EFORMAT, "record %llu: empty word",
		    (unsigned long long)rec.recno);
	memcpy(f->out, rec.vec, (size_t)f->dim * 4);
	f->nwords++;
	return 1;
}

/*
 * Does [p, e) look like the numbers of a text line, if a malformed one:
 * blanks, digits and number characters only, and some digits?
 */
static int
textish(const char *p, const char *e)
{
	int digits = 0;

	for (; p < e; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '\0' || strchr(" \t.+-eE", *p) == NULL)
			return 0;
	}
	return digits >= 2;
}

/* A fastText model's bytes, for emb_ft_read(). */
static int
ftget(void *arg, void *dst, size_t n)
{
	struct emb_wfile *f = arg;
	int rc = fill(f, n);

	if (rc < 0)
		return fillerr(f, rc);
	if (rc > 0)
		return 1;
	memcpy(dst, f->s.buf + f->s.beg, n);
	f->s.beg += n;
	return 0;
}

/* The next word of a fastText model. */
static int
nextft(struct emb_wfile *f)
{
	size_t len;
	const char *w;
	char q[EMB_QUOTE_BUF];

	if (f->nwords == emb_ft_nwords(f->ft))
		return 0;
	w = emb_ft_word(f->ft, (uint32_t)f->nwords, &len);
	if (setword(f, w, len) < 0)
		return f->err;
	if (emb_ft_wordvec(f->ft, (uint32_t)f->nwords, f->out) < 0)
		return wfail(f, EMB_EFORMAT, "word %llu: '%s': the mean of its"
		    " rows is not finite", (unsigned long long)f->nwords + 1,
		    qword(f, q));
	f->nwords++;
	return 1;
}

/*
 * Text or binary, after a word2vec header?  The first entry is text when
 * it is a line of a word and exactly dim numbers, or a line of number
 * characters only (a malformed text entry, reported as such later) that
 * does not have the length a binary record must have: the word, one
 * space and dim float32s.  The scan runs to the end of that line, however
 * long the word, and stops at the first byte no number (nan and inf
 * included, which are refused later) can hold, so a
 * binary file is decided within its first record and the same bytes are
 * read the same way plain or gzip-compressed, whatever the block sizes.
 * @return 1 text, 0 binary, or a negative code.
 */
static int
firsttext(struct emb_wfile *f)
{
	size_t i = 0, wl = 0, e, bad;
	const char *s;
	int rc, inword = 1;
	unsigned char c;

	for (;; i++) {
		if (f->s.end - f->s.beg <= i) {
			if (i >= LINEMAX)
				return 0;
			if ((rc = fill(f, i + 1)) < 0)
				return fillerr(f, rc);
			if (rc == 1)
				break;
		}
		c = f->s.buf[f->s.beg + i];
		if (c == '\n')
			break;
		if (inword) {
			if (c == ' ' || c == '\t') {
				inword = 0;
				wl = i;
			} else if (i > EMB_WORD_MAX)
				return 0;
		} else if (c == '\0' || strchr(" \t\r.+-0123456789"
		    "eEnNaAiIfFtTyY", c) == NULL)
			return 0;	/* no number holds it: binary */
	}
	if (inword)
		return i == 0;	/* nothing after the header: text */
	s = (const char *)f->s.buf + f->s.beg;
	e = i > wl && s[i - 1] == '\r' ? i - 1 : i;
	if (parsenums(s + wl, e - wl, NULL, 0, &bad) == (long)f->dim)
		return 1;
	return textish(s + wl, s + e) && i != wl + 1 + (size_t)f->dim * 4;
}

/* Decide the format from the first decompressed bytes and read headers. */
static int
detect(struct emb_wfile *f)
{
	static const unsigned char bom[3] = { 0xef, 0xbb, 0xbf };
	uint64_t a, b;
	size_t len, adv, wl;
	const char *s, *p, *e;
	int rc;

	if ((rc = fill(f, EMB_MAGIC_LEN)) < 0)
		return fillerr(f, rc);
	if (f->s.end == f->s.beg)
		return wfail(f, EMB_EFORMAT, "empty file");
	if (f->s.end - f->s.beg >= 4 && emb_le32(f->s.buf + f->s.beg) == 793712314) {
		char msg[sizeof(f->msg)];

		f->format = EMB_WF_FTBIN;
		if ((rc = emb_ft_read(&f->ft, ftget, f, f->s.gz ? 0 :
		    f->s.rawsize, msg, sizeof(msg))) < 0)
			return f->err ? f->err : wfail(f, rc, "%s", msg);
		f->dim = emb_ft_dim(f->ft);
		f->declared = emb_ft_nwords(f->ft);
		goto alloc;
	}
	if (f->s.end - f->s.beg >= EMB_MAGIC_LEN &&
	    memcmp(f->s.buf + f->s.beg, EMB_MAGIC, EMB_MAGIC_LEN) == 0) {
		f->format = EMB_WF_EMB;
		/* Errors of the source end the stream, as a pipe's would. */
		f->s.soft = 1;
		if ((rc = emb_reader_open_src(&f->rd, &f->s, f->name)) < 0)
			return wfail(f, rc, "%s", f->rd ? emb_reader_msg(f->rd) :
			    emb_strerror(rc));
		f->dim = emb_reader_dim(f->rd);
		goto alloc;
	}
	if (f->s.end - f->s.beg >= EMB_MAGIC_LEN &&
	    memcmp(f->s.buf + f->s.beg, EMB_STORE_MAGIC, EMB_MAGIC_LEN) == 0)
		return wfail(f, EMB_EFORMAT, "an emb-store file, not an "
		    "embedding file to parse");
	if (emb_sniff(f->s.buf + f->s.beg, f->s.end - f->s.beg) ==
	    EMB_KIND_NPY)
		return wfail(f, EMB_EFORMAT, "a NumPy array, not an embedding "
		    "file: emb-cat -n %s -K keys makes a stream of it, which "
		    "emb-lookup -e reads", strcmp(f->name, "stdin") == 0 ?
		    "file" : f->name);
	if (f->s.end - f->s.beg >= 3 && memcmp(f->s.buf + f->s.beg, bom, 3) == 0)
		f->s.beg += 3;
	if ((rc = nextline(f, &len, &adv)) < 0)
		return rc;
	if (rc == 0 || len == 0)
		return wfail(f, EMB_EFORMAT, "line 1: empty first line");
	if (emb_isheader(f->s.buf + f->s.beg, len, &a, &b)) {
		if (b == 0 || b > EMB_DIM_MAX)
			return wfail(f, EMB_EDIM, "line 1: dimension %llu out "
			    "of range 1..%u", (unsigned long long)b,
			    EMB_DIM_MAX);
		/* "0 dim": no words, as writers write an empty set. */
		f->declared = a;
		f->dim = (uint32_t)b;
		f->s.beg += adv;
		if ((rc = firsttext(f)) < 0)
			return rc;
		f->format = rc ? EMB_WF_W2VTEXT : EMB_WF_W2VBIN;
	} else {
		/* GloVe: the first line is an entry; it sets the dimension. */
		long n;

		s = (const char *)f->s.buf + f->s.beg;
		f->format = EMB_WF_GLOVE;
		for (wl = 0; wl < len && s[wl] != ' ' && s[wl] != '\t'; wl++)
			;
		/*
		 * The fields after the word set the dimension; textentry()
		 * then parses the line again and names a bad number.
		 */
		for (p = s + wl, e = s + len, n = 0; p < e; n++) {
			while (p < e && (*p == ' ' || *p == '\t'))
				p++;
			if (p == e)
				break;
			while (p < e && *p != ' ' && *p != '\t')
				p++;
		}
		if (n == 0 || n > EMB_DIM_MAX)
			return wfail(f, EMB_EFORMAT, "line 1: neither a word2vec"
			    " header nor a word followed by numbers");
		f->dim = (uint32_t)n;
		/* Read the line again as the first entry. */
		f->lineno = 0;
	}
alloc:
	if ((f->vec = emb_alloc((size_t)f->dim * 4)) == NULL)
		return wfail(f, EMB_ENOMEM, "out of memory");
	return 0;
}

/*
 * A plain word2vec binary file is read through a mapping rather than
 * read(2): the vectors are then copied once, from the page cache straight
 * into their rows, instead of twice.  Anything else (a pipe, gzip, a
 * failed mmap) keeps reading (emb_src_map()).
 */
int
emb_wfile_open(struct emb_wfile **fp, int fd, const char *name)
{
	struct emb_wfile *f;
	int rc;

	*fp = NULL;
	if ((f = calloc(1, sizeof(*f))) == NULL)
		return EMB_ENOMEM;
	*fp = f;
	f->fd = fd;
	f->name = name;
	if (emb_src_open(&f->s, fd, NULL, BUFSZ) < 0)
		return wfail(f, EMB_ENOMEM, "out of memory");
	/* Peek at the raw bytes: gzip or not. */
	if ((rc = emb_src_gunzip(&f->s, INSZ)) < 0)
		return rc == EMB_EIO ? wfail(f, EMB_EIO, "%s",
		    strerror(errno)) : wfail(f, rc, "out of memory");
	if ((rc = detect(f)) < 0)
		return rc;
	if (f->format == EMB_WF_W2VBIN && !f->s.gz)
		emb_src_map(&f->s);
	return 0;
}

int
emb_wfile_read(struct emb_wfile *f, const char **word, size_t *len,
    float *vec)
{
	int rc;

	if (f->err)
		return f->err;
	if (vec == NULL && !emb_wfile_mapped(f))
		return wfail(f, EMB_EINVAL, "no room for the vector");
	f->out = vec;
	switch (f->format) {
	case EMB_WF_W2VBIN:
		rc = nextbin(f);
		break;
	case EMB_WF_EMB:
		rc = nextemb(f);
		break;
	case EMB_WF_FTBIN:
		rc = f->ft != NULL ? nextft(f) : wfail(f, EMB_EINVAL,
		    "the model was taken");
		break;
	default:
		rc = nexttext(f);
		break;
	}
	if (rc <= 0)
		return rc;
	*word = f->word;
	*len = f->wordlen;
	return 1;
}

int
emb_wfile_next(struct emb_wfile *f, const char **word, size_t *len,
    const float **vec)
{
	int rc = emb_wfile_read(f, word, len, f->vec);

	if (rc > 0)
		*vec = f->vec;
	return rc;
}

uint32_t
emb_wfile_dim(const struct emb_wfile *f)
{
	return f->dim;
}

int
emb_wfile_format(const struct emb_wfile *f)
{
	return f->format;
}

int
emb_wfile_gzip(const struct emb_wfile *f)
{
	return f->s.gz;
}

uint64_t
emb_wfile_declared(const struct emb_wfile *f)
{
	return f->declared;
}

uint64_t
emb_wfile_where(const struct emb_wfile *f)
{
	return f->format == EMB_WF_W2VBIN || f->format == EMB_WF_FTBIN ?
	    f->nwords : f->lineno;
}

void
emb_wfile_progress(const struct emb_wfile *f, uint64_t *done,
    uint64_t *total)
{
	*done = f->s.map != NULL ? f->s.beg : f->s.rawread;
	*total = f->s.rawsize;
}

int
emb_wfile_mapped(const struct emb_wfile *f)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return f->s.map != NULL && f->format == EMB_WF_W2VBIN;
#else
	return 0;
#endif
}

const void *
emb_wfile_raw(const struct emb_wfile *f)
{
	return f->raw;
}

void *
emb_wfile_takemap(struct emb_wfile *f, size_t *size)
{
	void *p = emb_src_takemap(&f->s, size);

	if (p == NULL)
		return NULL;
	if (f->err == 0)
		wfail(f, EMB_EINVAL, "the mapping was taken");
	return p;
}

const struct emb_ft *
emb_wfile_ft(const struct emb_wfile *f)
{
	return f->ft;
}

struct emb_ft *
emb_wfile_takeft(struct emb_wfile *f)
{
	struct emb_ft *m = f->ft;

	f->ft = NULL;
	return m;
}

int
emb_wfile_error(const struct emb_wfile *f)
{
	return f->err;
}

const char *
emb_wfile_msg(const struct emb_wfile *f)
{
	return f->msg[0] ? f->msg : emb_strerror(f->err);
}

const char *
emb_wfile_fmtname(int format)
{
	switch (format) {
	case EMB_WF_W2VBIN:
		return "word2vec binary";
	case EMB_WF_W2VTEXT:
		return "word2vec text";
	case EMB_WF_GLOVE:
		return "GloVe text";
	case EMB_WF_EMB:
		return "emb stream";
	case EMB_WF_FTBIN:
		return "fastText model";
	}
	return "unknown";
}

void
emb_wfile_free(struct emb_wfile *f)
{
	if (f == NULL)
		return;
	emb_reader_free(f->rd);
	emb_ft_free(f->ft);
	emb_src_close(&f->s);
	free(f->word);
	emb_free(f->vec);
	free(f);
}
