/*
 * wformat.c - writing the embedding files other tools read: word2vec
 * binary and text, GloVe text and fastText .vec, plain or gzip-compressed,
 * byte for byte as word2vec, GloVe and fastText themselves write them.
 *
 * A file with a header must say its word count first, and the count is
 * known only at the end: the entries go to a spool (a file the caller
 * gives, unlinked) as they come, and emb_wout_finish() writes the header
 * and copies them behind it.  The words are kept too, in an arena and an
 * emb_index, so that a word seen again is reported with the entry that
 * had it first; memory grows with the words written, never with a count.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "io/emb-io.h"
#include "base/io.h"
#include "base/le.h"
#include "io/text.h"
#include "io/src.h"

#define SPOOLSZ	(1u << 20)	/* spool buffer */
#define COPYSZ	(1u << 18)	/* copy and deflate blocks */

struct emb_wout {
	int		 fmt;		/* EMB_WO_W2VBIN ... EMB_WO_VEC */
	uint32_t	 dim;
	int		 out;		/* where buf goes: spool or file, -1 */
	int		 spooled;	/* out is the spool */
	uint64_t	 declared;	/* direct: the count in the header */
	unsigned char	*buf;		/* SPOOLSZ, then entries at a time */
	size_t		 cap, len;
	uint64_t	 count;		/* entries added */
	char		*words;		/* every word, back to back */
	size_t		 wlen, wcap;
	uint64_t	*woff;		/* count + 1 offsets into words */
	size_t		 offcap;
	struct emb_index idx;		/* the words, by entry */
	z_stream	 z;		/* gzip, when zout is set */
	unsigned char	*zout;		/* COPYSZ */
};

long
emb_wword_bad(const void *word, size_t n)
{
	const unsigned char *w = word;

	for (size_t i = 0; i < n; i++)
		switch (w[i]) {
		case ' ': case '\t': case '\n': case '\v': case '\f':
		case '\r': case '\0':
			return (long)i;
		}
	return -1;
}

int
emb_wword_bom(const void *word, size_t n)
{
	return n >= 3 && memcmp(word, "\xef\xbb\xbf", 3) == 0;
}

/* Entry i's word, for the index. */
static const char *
wordof(const void *ctx, size_t i, size_t *len)
{
	const struct emb_wout *o = ctx;

	*len = o->woff[i + 1] - o->woff[i];
	return o->words + o->woff[i];
}

int
emb_wout_open(struct emb_wout **op, int fmt, uint32_t dim, int spool)
{
	struct emb_wout *o;

	*op = NULL;
	if (fmt != EMB_WO_W2VBIN && fmt != EMB_WO_W2VTEXT &&
	    fmt != EMB_WO_GLOVE && fmt != EMB_WO_VEC)
		return EMB_EINVAL;
	if (dim == 0 || dim > EMB_DIM_MAX)
		return EMB_EDIM;
	if ((o = calloc(1, sizeof(*o))) == NULL)
		return EMB_ENOMEM;
	o->fmt = fmt;
	o->dim = dim;
	o->out = spool;
	o->spooled = spool >= 0;
	emb_index_init(&o->idx, wordof, o);
	o->offcap = 1024;
	o->cap = SPOOLSZ;
	if ((o->buf = malloc(o->cap)) == NULL ||
	    (o->woff = malloc(o->offcap * sizeof(*o->woff))) == NULL) {
		emb_wout_free(o);
		return EMB_ENOMEM;
	}
	o->woff[0] = 0;
	*op = o;
	return 0;
}

/* Keep word as entry o->count; *dup the entry that had it, or -1. */
static int
remember(struct emb_wout *o, const void *word, size_t n, int64_t *dup)
{
	size_t had;
	int rc;

	if ((rc = emb_grow(&o->words, &o->wcap, o->wlen + n, 1)) < 0 ||
	    (rc = emb_grow(&o->woff, &o->offcap, o->count + 2,
	    sizeof(*o->woff))) < 0)
		return rc;
	memcpy(o->words + o->wlen, word, n);
	o->wlen += n;
	o->woff[o->count + 1] = o->wlen;
	if ((rc = emb_index_add(&o->idx, o->count, &had)) < 0)
		return rc;
	*dup = rc == 1 ? (int64_t)had : -1;
	return 0;
}

/*
 * Write n bytes at p to the file, through deflate if gzip was asked for;
 * flush: Z_FINISH ends the gzip member.
 */
static int
sink(struct emb_wout *o, const void *p, size_t n, int flush)
{
	int zrc, rc;

	if (o->zout == NULL)
		return emb_writeall(o->out, p, n);
	o->z.next_in = (unsigned char *)p;
	o->z.avail_in = (uInt)n;
	do {
		o->z.next_out = o->zout;
		o->z.avail_out = COPYSZ;
		if ((zrc = deflate(&o->z, flush)) == Z_STREAM_ERROR)
			return EMB_ENOMEM;
		if ((rc = emb_writeall(o->out, o->zout,
		    COPYSZ - o->z.avail_out)) < 0)
			return rc;
	} while (o->z.avail_out == 0 || (flush == Z_FINISH &&
	    zrc != Z_STREAM_END));
	return 0;
}

/* Make fd the file, through gzip if asked, and write the header. */
static int
startfile(struct emb_wout *o, int fd, int gzip, uint64_t count)
{
	char hdr[48];
	size_t hlen = 0;

	o->out = fd;
	o->spooled = 0;
	if (gzip) {
		/* 16 + 15: a gzip member, as gzip(1) writes, its level. */
		if ((o->zout = malloc(COPYSZ)) == NULL)
			return EMB_ENOMEM;
		if (deflateInit2(&o->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED,
		    16 + 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			free(o->zout);
			o->zout = NULL;
			return EMB_ENOMEM;
		}
	}
	if (o->fmt != EMB_WO_GLOVE)
		hlen = (size_t)snprintf(hdr, sizeof(hdr), "%llu %u\n",
		    (unsigned long long)count, o->dim);
	return sink(o, hdr, hlen, Z_NO_FLUSH);
}

int
emb_wout_direct(struct emb_wout *o, int fd, int gzip, uint64_t count)
{
	if (o->out >= 0 || o->count > 0)
		return EMB_EINVAL;
	o->declared = count;
	return startfile(o, fd, gzip, count);
}

/* Is s (n bytes) all decimal digits? */
static int
alldigits(const void *s, size_t n)
{
	const unsigned char *p = s;

	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return 1;
}

int
emb_wout_add(struct emb_wout *o, const void *word, size_t n,
    const float *vec, int64_t *dup)
{
	size_t need = n + (size_t)o->dim * (EMB_FTOA_MAX + 1) + 2;
	unsigned char *p;
	int rc;

	*dup = -1;
	if (n == 0 || n > EMB_WORD_MAX || emb_wword_bad(word, n) >= 0)
		return EMB_EINVAL;
	if (o->fmt == EMB_WO_GLOVE && o->count == 0 && o->dim == 1 &&
	    alldigits(word, n)) {
		char num[EMB_FTOA_MAX];

		/* "12 3" would read as a word2vec header. */
		if (alldigits(num, (size_t)emb_ftoa(num, vec[0])))
			return EMB_EFORMAT;
	}
	/* At the start of the file, a reader strips it. */
	if (o->fmt == EMB_WO_GLOVE && o->count == 0 && emb_wword_bom(word, n))
		return EMB_EFORMAT;
	if ((rc = remember(o, word, n, dup)) < 0)
		return rc;
	if (o->out < 0) {
		o->count++;
		return 0;
	}
	if (!o->spooled && o->count == o->declared)
		return EMB_EINVAL;
	if (o->len + need > o->cap) {
		if ((rc = sink(o, o->buf, o->len, Z_NO_FLUSH)) < 0)
			return rc;
		o->len = 0;
		if (emb_grow_max(&o->buf, &o->cap, need, need, 1) < 0)
			return EMB_ENOMEM;
	}
	p = o->buf + o->len;
	memcpy(p, word, n);
	p += n;
	*p++ = ' ';
	if (o->fmt == EMB_WO_W2VBIN) {
		/* word2vec's own layout: a newline after each vector. */
		emb_putf32s(p, vec, o->dim);
		p += (size_t)o->dim * 4;
	} else
		for (uint32_t i = 0; i < o->dim; i++) {
			/* GloVe: " x" per value; word2vec, fastText: "x ". */
			if (i > 0 && o->fmt == EMB_WO_GLOVE)
				*p++ = ' ';
			p += emb_ftoa((char *)p, vec[i]);
			if (o->fmt != EMB_WO_GLOVE)
				*p++ = ' ';
		}
	*p++ = '\n';
	o->len = (size_t)(p - o->buf);
	o->count++;
	return 0;
}

uint64_t
emb_wout_count(const struct emb_wout *o)
{
	return o->count;
}

int
emb_wout_finish(struct emb_wout *o, int fd, int gzip)
{
	int rc = 0;

	if (o->out < 0 || (!o->spooled && o->count != o->declared))
		return EMB_EINVAL;
	if (o->len > 0 && (rc = sink(o, o->buf, o->len, Z_NO_FLUSH)) < 0)
		return rc;
	o->len = 0;
	if (o->spooled) {
		int spool = o->out;
		struct emb_src s;

		if (lseek(spool, 0, SEEK_SET) != 0)
			return EMB_EIO;
		if ((rc = startfile(o, fd, gzip, o->count)) < 0)
			return rc;
		emb_src_open(&s, spool, o->buf, o->cap);
		while ((rc = emb_src_fill(&s, 1)) == 0) {
			if ((rc = sink(o, s.buf + s.beg, s.end - s.beg,
			    Z_NO_FLUSH)) < 0)
				return rc;
			s.beg = s.end = 0;	/* the whole block again */
		}
		if (rc < 0)
			return rc;
		rc = 0;
	}
	if (o->zout != NULL)
		rc = sink(o, NULL, 0, Z_FINISH);
	return rc;
}

void
emb_wout_free(struct emb_wout *o)
{
	if (o == NULL)
		return;
	free(o->buf);
	free(o->words);
	free(o->woff);
	emb_index_free(&o->idx);
	if (o->zout != NULL)
		deflateEnd(&o->z);
	free(o->zout);
	free(o);
}
