/*
 * ftbin.c - fastText models: the .bin files the fasttext program writes,
 * read for their word vectors and for the vectors of unknown words built
 * from character n-grams.
 *
 * The file (all integers little-endian): int32 magic 793712314, int32
 * version 12; the arguments, twelve int32 (dim, ws, epoch, minCount, neg,
 * wordNgrams, loss, model, bucket, minn, maxn, lrUpdateRate) and a double
 * (t); the dictionary: int32 size, nwords, nlabels, int64 ntokens,
 * pruneidx_size, then size entries (the word NUL-terminated, int64 count,
 * int8 type: 0 word, 1 label; words first), then pruneidx_size pairs of
 * int32 (bucket, row); the input matrix: a byte (1: quantized), int64 m
 * (nwords + bucket rows), int64 n (dim), m * n float32 row-major; then the
 * output matrix in the same form, whose header only is read.
 *
 * A word's vector is the mean of its own row and the rows of its n-grams:
 * every substring of "<word>" of minn to maxn UTF-8 characters (a single
 * character at either end excluded), hashed with 32-bit FNV-1a over its
 * bytes taken as signed chars, modulo bucket, at row nwords + hash.  An
 * unknown word's vector is the mean of its n-gram rows only, and zero
 * when it has none.  The sum is taken in float32 in that order and then
 * multiplied by the float nearest 1/count, as fastText does, so that the
 * vectors are the very floats it computes.
 */
#include "io/emb-io.h"
#include "io/fmt.h"
#include "base/le.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FT_MAGIC	793712314
#define FT_VERSION	12
#define CHUNK		(1u << 20)	/* bytes read at a time */

struct prune {
	int32_t		 from, to;
	uint64_t	 seq;		/* position in the file: the last wins */
};

struct emb_ft {
	uint32_t	 dim;
	uint32_t	 nwords;
	int32_t		 minn, maxn, bucket;
	int64_t		 npruned;	/* -1: no pruning */
	struct prune	*prune;		/* sorted by from, then seq */
	char		*wbytes;	/* words, each NUL-terminated */
	size_t		 wlen, wcap;
	size_t		*woff;		/* nwords + 1 offsets into wbytes */
	float		*rows;		/* m rows of dim floats */
	uint64_t	 m;
};

/* The reader's state. */
struct rd {
	emb_ft_get_fn	*get;
	void		*arg;
	uint64_t	 pos;		/* bytes consumed */
	uint64_t	 total;		/* file size, 0 if unknown */
	char		*msg;
	size_t		 msgsz;
	int		 err;		/* the callback's own error */
};

static int
rfail(struct rd *r, int code, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
rfail(struct rd *r, int code, const char *what, const char *fmt, ...)
{
	char tail[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tail, sizeof(tail), fmt, ap);
	va_end(ap);
	if (what == NULL)
		snprintf(r->msg, r->msgsz, "%s", tail);
	else
		snprintf(r->msg, r->msgsz, "fastText model: %s%s%s", what,
		    *what ? ": " : "", tail);
	return code;
}

/* Read n bytes; a short read is a truncated file, in what. */
static int
rget(struct rd *r, void *dst, size_t n, const char *what)
{
	int rc = r->get(r->arg, dst, n);

	if (rc < 0) {
		r->err = 1;
		return rc;
	}
	if (rc > 0)
		return rfail(r, EMB_EFORMAT, what, "truncated file");
	r->pos += n;
	return 0;
}

/* A little-endian integer of n (4 or 8) bytes, sign-extended. */
static int
getle(struct rd *r, int64_t *v, size_t n, const char *what)
{
	unsigned char b[8];
	int rc;

	if ((rc = rget(r, b, n, what)) < 0)
		return rc;
	*v = n == 4 ? (int32_t)emb_le32(b) : (int64_t)emb_le64(b);
	return 0;
}

static int
get32(struct rd *r, int32_t *v, const char *what)
{
	int64_t x = 0;
	int rc = getle(r, &x, 4, what);

	*v = (int32_t)x;
	return rc;
}

#define get64(r, v, what)	getle(r, v, 8, what)

/* Append n bytes to the word buffer. */
static int
wput(struct emb_ft *m, const void *p, size_t n)
{
	if (m->wlen + n > m->wcap &&
	    emb_grow(&m->wbytes, &m->wcap, m->wlen + n, 1) < 0)
		return EMB_ENOMEM;
	memcpy(m->wbytes + m->wlen, p, n);
	m->wlen += n;
	return 0;
}

/* The dictionary: words kept, labels read past. */
static int
dictionary(struct rd *r, struct emb_ft *m, int32_t size, int32_t nwords)
{
	char what[48];
	size_t cap = 0;
	int rc;

	for (int32_t i = 0; i < size; i++) {
		size_t start = m->wlen, len = 0;
		unsigned char c, t;
		int64_t count;

		snprintf(what, sizeof(what), "dictionary entry %ld",
		    (long)i + 1);
		if (i < nwords) {
			if (emb_grow(&m->woff, &cap, (size_t)i + 2,
			    sizeof(*m->woff)) < 0)
				return EMB_ENOMEM;
			m->woff[i] = start;
		}
		for (;;) {
			if ((rc = rget(r, &c, 1, what)) < 0)
				return rc;
			if (c == '\0')
				break;
			if (strchr(" \t\n\v\f\r", c) != NULL)
				return rfail(r, EMB_EFORMAT, what, "a blank "
				    "inside a word");
			if (++len > EMB_WORD_MAX)
				return rfail(r, EMB_EFORMAT, what, "word "
				    "longer than %u bytes", EMB_WORD_MAX);
			if (i < nwords && (rc = wput(m, &c, 1)) < 0)
				return rc;
		}
		if (len == 0)
			return rfail(r, EMB_EFORMAT, what, "empty word");
		if (i < nwords && (rc = wput(m, "", 1)) < 0)
			return rc;
		if ((rc = get64(r, &count, what)) < 0 ||
		    (rc = rget(r, &t, 1, what)) < 0)
			return rc;
		if (t != (i < nwords ? 0 : 1))
			return rfail(r, EMB_EFORMAT, what, "entry type %u, "
			    "expected %u", t, i < nwords ? 0 : 1);
	}
	if (m->woff != NULL)
		m->woff[nwords] = m->wlen;
	return 0;
}

static int
prunecmp(const void *a, const void *b)
{
	const struct prune *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The pruned buckets: pairs (bucket, row), the last of a bucket wins. */
static int
pruneidx(struct rd *r, struct emb_ft *m)
{
	size_t cap = 0;
	int rc;

	for (int64_t i = 0; i < m->npruned; i++) {
		int32_t a, b;

		if ((rc = get32(r, &a, "pruned buckets")) < 0 ||
		    (rc = get32(r, &b, "pruned buckets")) < 0)
			return rc;
		if (b < 0)
			return rfail(r, EMB_EFORMAT, "pruned buckets",
			    "negative row %ld", (long)b);
		if (emb_grow(&m->prune, &cap, (size_t)i + 1,
		    sizeof(*m->prune)) < 0)
			return EMB_ENOMEM;
		m->prune[i].from = a;
		m->prune[i].to = b;
		m->prune[i].seq = (uint64_t)i;
	}
	if (m->npruned > 0)
		qsort(m->prune, (size_t)m->npruned, sizeof(*m->prune),
		    prunecmp);
	return 0;
}

/* The input matrix, grown as its rows arrive. */
static int
matrix(struct rd *r, struct emb_ft *m)
{
	unsigned char q, *chunk;
	int64_t rows, cols;
	uint64_t nf, have = 0;
	size_t cap = 0;
	int rc;

	if ((rc = rget(r, &q, 1, "input matrix")) < 0)
		return rc;
	if (q != 0)
		return rfail(r, EMB_EFORMAT, NULL, "quantized fastText models "
		    "(.ftz) are not supported");
	if ((rc = get64(r, &rows, "input matrix")) < 0 ||
	    (rc = get64(r, &cols, "input matrix")) < 0)
		return rc;
	if (cols != (int64_t)m->dim)
		return rfail(r, EMB_EFORMAT, "input matrix", "%lld columns, "
		    "dimension %u", (long long)cols, m->dim);
	if (m->npruned < 0 ? rows != (int64_t)m->nwords + m->bucket :
	    rows < (int64_t)m->nwords)
		return rfail(r, EMB_EFORMAT, "input matrix", "%lld rows for "
		    "%u words and %ld buckets", (long long)rows, m->nwords,
		    (long)m->bucket);
	for (int64_t i = 0; i < m->npruned; i++)
		if ((int64_t)m->prune[i].to >= rows - (int64_t)m->nwords)
			return rfail(r, EMB_EFORMAT, "pruned buckets", "row "
			    "%ld beyond the matrix", (long)m->prune[i].to);
	m->m = (uint64_t)rows;
	/* rows <= 2^32 and cols <= 2^20: no overflow. */
	nf = m->m * (uint64_t)m->dim;
	if (r->total != 0 && (r->total < r->pos || nf * 4 > r->total - r->pos))
		return rfail(r, EMB_EFORMAT, "input matrix", "%llu x %u "
		    "floats need %llu bytes, the file has %llu left",
		    (unsigned long long)m->m, m->dim,
		    (unsigned long long)nf * 4, (unsigned long long)
		    (r->total > r->pos ? r->total - r->pos : 0));
	if (nf > SIZE_MAX / 4)
		return rfail(r, EMB_ELIMIT, "input matrix", "too large");
	if ((chunk = malloc(CHUNK)) == NULL)
		return EMB_ENOMEM;
	while (have < nf) {
		size_t n = nf - have > CHUNK / 4 ? CHUNK / 4 :
		    (size_t)(nf - have);

		/*
		 * A size checked against the file is taken at once; from a
		 * stream, the room doubles with the rows read, up to nf.
		 */
		if (emb_grow_max(&m->rows, &cap, r->total != 0 ? (size_t)nf :
		    (size_t)(have + n), (size_t)nf, 4) < 0) {
			free(chunk);
			return EMB_ENOMEM;
		}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		rc = rget(r, m->rows + have, n * 4, "input matrix");
#else
		if ((rc = rget(r, chunk, n * 4, "input matrix")) == 0)
			emb_getf32s(m->rows + have, chunk, n);
#endif
		if (rc < 0) {
			free(chunk);
			return rc;
		}
		for (size_t k = 0; k < n; k++)
			if (!isfinite(m->rows[have + k])) {
				free(chunk);
				return rfail(r, EMB_EFORMAT, "input matrix",
				    "row %llu: non-finite value",
				    (unsigned long long)(have + k) / m->dim);
			}
		have += n;
	}
	free(chunk);
	return 0;
}

/* The output matrix's header; on a file of known size, its size too. */
static int
outmatrix(struct rd *r)
{
	unsigned char q;
	int64_t rows, cols;
	int rc;

	if ((rc = rget(r, &q, 1, "output matrix")) < 0 ||
	    (rc = get64(r, &rows, "output matrix")) < 0 ||
	    (rc = get64(r, &cols, "output matrix")) < 0)
		return rc;
	if (q != 0)
		return rfail(r, EMB_EFORMAT, NULL, "quantized fastText models "
		    "(.ftz) are not supported");
	if (rows < 0 || cols < 0 || rows > INT32_MAX || cols > EMB_DIM_MAX)
		return rfail(r, EMB_EFORMAT, "output matrix", "%lld x %lld",
		    (long long)rows, (long long)cols);
	if (r->total != 0 && r->total - r->pos != (uint64_t)rows *
	    (uint64_t)cols * 4)
		return rfail(r, EMB_EFORMAT, "output matrix", "%lld x %lld "
		    "floats need %llu bytes, the file has %llu left",
		    (long long)rows, (long long)cols, (unsigned long long)
		    rows * (unsigned long long)cols * 4,
		    (unsigned long long)(r->total - r->pos));
	return 0;
}

int
emb_ft_read(struct emb_ft **mp, emb_ft_get_fn *get, void *arg,
    uint64_t total, char *msg, size_t msgsz)
{
	struct rd r = { get, arg, 0, total, msg, msgsz, 0 };
	struct emb_ft *m;
	int32_t a[12], size, nwords, nlabels;
	int64_t ntokens;
	unsigned char t[8];
	int rc;

	*mp = NULL;
	msg[0] = '\0';
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return EMB_ENOMEM;
	if ((rc = get32(&r, &a[0], "header")) < 0 ||
	    (rc = get32(&r, &a[1], "header")) < 0)
		goto out;
	if (a[0] != FT_MAGIC) {
		rc = rfail(&r, EMB_EFORMAT, "header", "bad magic");
		goto out;
	}
	if (a[1] != FT_VERSION) {
		rc = rfail(&r, EMB_EVERSION, "header", "version %ld, only %d "
		    "is read", (long)a[1], FT_VERSION);
		goto out;
	}
	for (int i = 0; i < 12; i++)
		if ((rc = get32(&r, &a[i], "arguments")) < 0)
			goto out;
	if ((rc = rget(&r, t, 8, "arguments")) < 0)
		goto out;
	if (a[0] < 1 || (uint32_t)a[0] > EMB_DIM_MAX) {
		rc = rfail(&r, EMB_EDIM, "arguments", "dimension %ld out of "
		    "range 1..%u", (long)a[0], EMB_DIM_MAX);
		goto out;
	}
	if (a[8] < 0) {
		rc = rfail(&r, EMB_EFORMAT, "arguments", "bucket count %ld",
		    (long)a[8]);
		goto out;
	}
	/*
	 * fastText compares n with minn and maxn as unsigned: a negative
	 * maxn is no limit at all, a negative minn no n-grams.  Neither is a
	 * model fastText's options make, and the work per word grows with
	 * maxn: both are bounded.
	 */
	if (a[9] < 0 || a[10] < 0 || a[9] > EMB_NGRAM_MAX ||
	    a[10] > EMB_NGRAM_MAX) {
		rc = rfail(&r, EMB_EFORMAT, "arguments", "n-gram lengths minn"
		    " %ld, maxn %ld out of range 0..%d", (long)a[9],
		    (long)a[10], EMB_NGRAM_MAX);
		goto out;
	}
	m->dim = (uint32_t)a[0];
	m->bucket = a[8];
	m->minn = a[9];
	m->maxn = a[10];
	if ((rc = get32(&r, &size, "dictionary")) < 0 ||
	    (rc = get32(&r, &nwords, "dictionary")) < 0 ||
	    (rc = get32(&r, &nlabels, "dictionary")) < 0 ||
	    (rc = get64(&r, &ntokens, "dictionary")) < 0 ||
	    (rc = get64(&r, &m->npruned, "dictionary")) < 0)
		goto out;
	if (nwords < 1 || nlabels < 0 || (int64_t)nwords + nlabels != size ||
	    m->npruned < -1 || m->npruned > INT32_MAX) {
		rc = rfail(&r, EMB_EFORMAT, "dictionary", "%ld words, %ld "
		    "labels, %ld entries, %lld pruned buckets", (long)nwords,
		    (long)nlabels, (long)size, (long long)m->npruned);
		goto out;
	}
	m->nwords = (uint32_t)nwords;
	if ((rc = dictionary(&r, m, size, nwords)) < 0 ||
	    (rc = pruneidx(&r, m)) < 0 || (rc = matrix(&r, m)) < 0 ||
	    (rc = outmatrix(&r)) < 0)
		goto out;
	*mp = m;
	return 0;
out:
	if (rc == EMB_ENOMEM && !r.err)
		rfail(&r, rc, "", "out of memory");
	if (r.err)
		msg[0] = '\0';	/* the callback's message stands */
	emb_ft_free(m);
	return rc;
}

uint32_t
emb_ft_dim(const struct emb_ft *m)
{
	return m->dim;
}

uint32_t
emb_ft_nwords(const struct emb_ft *m)
{
	return m->nwords;
}

const char *
emb_ft_word(const struct emb_ft *m, uint32_t i, size_t *len)
{
	*len = m->woff[i + 1] - m->woff[i] - 1;
	return m->wbytes + m->woff[i];
}

/* Add dim floats at row to acc. */
static void
addrow(const float *row, uint32_t dim, float *acc)
{
	for (uint32_t j = 0; j < dim; j++)
		acc[j] += row[j];
}

/* The byte at k of "<word>". */
static inline unsigned char
at(const unsigned char *w, size_t len, size_t k)
{
	return k == 0 ? '<' : k == len + 1 ? '>' : w[k - 1];
}

static inline uint32_t
fnv(uint32_t h, unsigned char c)
{
	return (h ^ (uint32_t)(int32_t)(signed char)c) * 16777619u;
}

/* Add the rows of the n-grams of word to acc.  @return their count. */
static uint64_t
ngrams(const struct emb_subword *sw, const unsigned char *w, size_t len,
    float *acc)
{
	size_t L = len + 2;
	uint64_t count = 0;

	if (sw->bucket == 0)
		return 0;
	for (size_t i = 0; i < L; i++) {
		uint32_t h = 2166136261u;
		size_t j = i;

		if ((at(w, len, i) & 0xC0) == 0x80)
			continue;
		for (int64_t n = 1; j < L && n <= sw->maxn; n++) {
			const float *row;

			h = fnv(h, at(w, len, j++));
			while (j < L && (at(w, len, j) & 0xC0) == 0x80)
				h = fnv(h, at(w, len, j++));
			if (n < sw->minn || (n == 1 && (i == 0 || j == L)))
				continue;
			if ((row = sw->row(sw->arg, h % sw->bucket)) == NULL)
				continue;
			addrow(row, sw->dim, acc);
			count++;
		}
	}
	return count;
}

/* acc times the float nearest 1/count.  @return count (at most INT_MAX). */
static int
mean(uint32_t dim, float *acc, uint64_t count)
{
	float s;

	if (count == 0)
		return 0;
	s = (float)(1.0 / (double)count);
	for (uint32_t j = 0; j < dim; j++) {
		acc[j] *= s;
		if (!isfinite(acc[j]))
			return EMB_ENONFINITE;
	}
	return count > INT_MAX ? INT_MAX : (int)count;
}

int
emb_subvec(const struct emb_subword *sw, const void *word, size_t len,
    float *v)
{
	memset(v, 0, (size_t)sw->dim * 4);
	return mean(sw->dim, v, ngrams(sw, word, len, v));
}

/* The row of n-gram bucket id, through the pruned buckets if any. */
static const float *
ftrow(const void *arg, uint32_t id)
{
	const struct emb_ft *m = arg;
	uint64_t r = id;

	if (m->npruned > 0) {
		struct prune key = { (int32_t)id, 0, UINT64_MAX }, *p;
		size_t lo = 0, hi = (size_t)m->npruned;

		/* The last entry <= (id, max): the last wins. */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (prunecmp(&m->prune[mid], &key) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0 || (p = &m->prune[lo - 1])->from != (int32_t)id)
			return NULL;
		r = (uint64_t)p->to;
	}
	return m->rows + (m->nwords + r) * m->dim;
}

/* The model's n-grams, pruned or not. */
static void
ftsub(const struct emb_ft *m, struct emb_subword *sw)
{
	sw->minn = m->minn;
	sw->maxn = m->maxn;
	sw->bucket = m->npruned == 0 ? 0 : (uint32_t)m->bucket;
	sw->dim = m->dim;
	sw->row = ftrow;
	sw->arg = m;
}

int
emb_ft_subword(const struct emb_ft *m, struct emb_subword *sw)
{
	ftsub(m, sw);
	return m->npruned > 0;
}

int
emb_ft_wordvec(const struct emb_ft *m, uint32_t i, float *v)
{
	size_t len;
	const char *w = emb_ft_word(m, i, &len);
	struct emb_subword sw;
	uint64_t count = 1;

	ftsub(m, &sw);
	memset(v, 0, (size_t)m->dim * 4);
	addrow(m->rows + (uint64_t)i * m->dim, m->dim, v);
	if (strcmp(w, "</s>") != 0)
		count += ngrams(&sw, (const unsigned char *)w, len, v);
	return mean(m->dim, v, count);
}

int
emb_ft_subvec(const struct emb_ft *m, const void *word, size_t len, float *v)
{
	struct emb_subword sw;

	ftsub(m, &sw);
	return emb_subvec(&sw, word, len, v);
}

void
emb_ft_free(struct emb_ft *m)
{
	if (m == NULL)
		return;
	free(m->prune);
	free(m->wbytes);
	free(m->woff);
	free(m->rows);
	free(m);
}
