/*
 * stream.c - the emb(5) stream: reader and writer, and a group read as a
 * matrix.
 *
 * Both sides work on large buffers; the reader's come from the input layer
 * (src.c), its own over a file descriptor or one a caller already reads
 * (an emb(5) input of formats.c, gzip-compressed or not).  The reader
 * checks every length against its limit before it grows a buffer, follows
 * the group framing, and checks each trailer's record count and crc32
 * (zlib's definition, lib/crc.c) so that a clean end and an upstream that
 * died mid-stream cannot be confused.  The writer hands the file
 * descriptor whole records only.
 */
#include "io/emb-io.h"
#include "base/crc.h"
#include "base/fail.h"
#include "base/io.h"
#include "io/key.h"
#include "base/le.h"
#include "io/ref-io.h"
#include "io/src.h"
#include "base/vec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef EMB_STREAM_BUFSZ
#define EMB_STREAM_BUFSZ (1u << 20)	/* the fuzz build makes it tiny */
#endif
#define BUFSZ	EMB_STREAM_BUFSZ	/* I/O block */

enum { R_HEADER, R_RECORDS, R_DONE, R_ERROR };

struct emb_reader {
	const char	*name;		/* for the caller's messages */
	struct emb_src	*s;		/* the input: own, or a caller's */
	struct emb_src	 own;
	size_t		 crcpos;	/* s->buf[crcpos, s->beg) is not in
					   crc yet */
	int		 state;		/* R_* */
	int		 err;		/* sticky error code */
	int		 allow_nonfinite;
	uint32_t	 dim;		/* dimension of the first header */
	uint32_t	 nhead;		/* headers read */
	uint64_t	 nrec;		/* records read in all */
	uint64_t	 segrec;	/* records since the last header */
	uint32_t	 crc;		/* crc32 of the records since it */
	uint64_t	 group;		/* groups seen */
	uint32_t	 pending;	/* members the open group still needs */
	uint32_t	 member;	/* members of the open group seen */
	char		*key;		/* NUL-terminated key of the record */
	size_t		 keycap;
	float		*vec;		/* components, aligned */
	char		 msg[256];	/* last error, "record N: ..." */
	char		 hname[64];	/* "header N (after record M)" */
	int		 kind;		/* EMB_KIND_* of an input refused */
};

/* Record an error with its message; every later call returns it again. */
#define rfail(r, code, ...) \
	((r)->err = emb_fail((r)->msg, sizeof((r)->msg), (code), __VA_ARGS__), \
	(r)->state = R_ERROR, (r)->err)

/* Add the records consumed since the last call to the crc. */
static void
sumup(struct emb_reader *r)
{
	r->crc = emb_crc32(r->crc, r->s->buf + r->crcpos,
	    r->s->beg - r->crcpos);
	r->crcpos = r->s->beg;
}

/*
 * Make n bytes available at s->buf + s->beg.  @return 0, 1 when the input
 * ends first, or EMB_EIO / EMB_ENOMEM.  The source may move the bytes
 * when it reads: those consumed go into the crc first.
 */
static int
fill(struct emb_reader *r, size_t n)
{
	int rc;

	if (r->s->end - r->s->beg >= n)
		return 0;
	sumup(r);
	rc = emb_src_fill(r->s, n);
	r->crcpos = r->s->beg;
	return rc;
}

/*
 * The failure rc of fill() (1: the input ended) as the reader's error.  It
 * must not call fill() again: a second read could succeed, and the failure
 * pass unnoticed.
 */
static int
fillfail(struct emb_reader *r, int rc, const char *what)
{
	if (rc == 1)
		return rfail(r, EMB_ETRUNC, "record %llu: truncated inside %s",
		    (unsigned long long)r->nrec + 1, what);
	return rfail(r, rc, "record %llu: %s",
	    (unsigned long long)r->nrec + 1, rc == EMB_EIO ? strerror(errno) :
	    emb_strerror(rc));
}

/* fill() with the failure turned into the reader's error. */
static int
need(struct emb_reader *r, size_t n, const char *what)
{
	int rc = fill(r, n);

	return rc == 0 ? 0 : fillfail(r, rc, what);
}

/* "header", or for a concatenated stream "header N (after record M)". */
static const char *
hname(struct emb_reader *r)
{
	static const char first[] = "header";

	if (r->nhead == 0)
		return first;
	snprintf(r->hname, sizeof(r->hname), "header %u (after record %llu)",
	    r->nhead + 1, (unsigned long long)r->nrec);
	return r->hname;
}

static int
header(struct emb_reader *r)
{
	const unsigned char *p;
	uint32_t dim;
	int rc;

	if ((rc = fill(r, EMB_HEADER_LEN)) != 0) {
		size_t n = r->s->end - r->s->beg;

		if (rc < 0)
			return rfail(r, rc, "header: %s", rc == EMB_EIO ?
			    strerror(errno) : emb_strerror(rc));
		if (r->nhead == 0 && n == 0)
			return rfail(r, EMB_ETRUNC, "empty input, no header");
		/* A short input of another kind is that, not a cut stream. */
		if (r->nhead > 0 || memcmp(r->s->buf + r->s->beg, EMB_MAGIC,
		    n < EMB_MAGIC_LEN ? n : EMB_MAGIC_LEN) == 0)
			return rfail(r, EMB_ETRUNC, "%s: truncated after %zu "
			    "of %u bytes", hname(r), n, EMB_HEADER_LEN);
	}
	p = r->s->buf + r->s->beg;
	if (r->s->end - r->s->beg < EMB_MAGIC_LEN ||
	    memcmp(p, EMB_MAGIC, EMB_MAGIC_LEN) != 0) {
		if (r->nhead == 0) {
			r->kind = emb_sniff(p, r->s->end - r->s->beg);
			return rfail(r, EMB_EMAGIC, "not an emb stream "
			    "(bad magic)");
		}
		return rfail(r, EMB_EMAGIC, "%s: bad magic (data after the "
		    "trailer is not a stream)", hname(r));
	}
	if (emb_le16(p + 8) != EMB_FORMAT || emb_le16(p + 10) != 0)
		return rfail(r, EMB_EVERSION, "%s: version %u flags %u, "
		    "expected version %u flags 0", hname(r), emb_le16(p + 8),
		    emb_le16(p + 10), EMB_FORMAT);
	dim = emb_le32(p + 12);
	if (dim == 0 || dim > EMB_DIM_MAX)
		return rfail(r, EMB_EDIM, "%s: dimension %u out of range "
		    "1..%u", hname(r), dim, EMB_DIM_MAX);
	if (r->nhead > 0 && dim != r->dim)
		return rfail(r, EMB_EDIM, "%s: dimension %u, expected %u "
		    "(concatenated streams must agree)", hname(r), dim,
		    r->dim);
	if (r->nhead == 0) {
		r->dim = dim;
		if ((r->vec = emb_alloc((size_t)dim * 4)) == NULL)
			return rfail(r, EMB_ENOMEM, "header: out of memory");
	}
	r->nhead++;
	r->s->beg += EMB_HEADER_LEN;
	r->crcpos = r->s->beg;
	r->segrec = 0;
	r->crc = 0;
	r->state = R_RECORDS;
	return 0;
}

/* A reader on the source src (the caller's if own is NULL). */
static int
ropen(struct emb_reader **rp, struct emb_src *src, int fd, const char *name)
{
	struct emb_reader *r;
	int rc;

	*rp = NULL;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return EMB_ENOMEM;
	*rp = r;
	r->name = name;
	r->keycap = 256;
	if (src != NULL)
		r->s = src;
	else {
		r->s = &r->own;
		rc = emb_src_open(r->s, fd, NULL, BUFSZ);
		if (rc < 0)
			return rfail(r, EMB_ENOMEM, "out of memory");
	}
	r->crcpos = r->s->beg;
	if ((r->key = malloc(r->keycap)) == NULL)
		return rfail(r, EMB_ENOMEM, "out of memory");
	return header(r);
}

int
emb_reader_open(struct emb_reader **rp, int fd, const char *name)
{
	return ropen(rp, NULL, fd, name);
}

int
emb_reader_open_src(struct emb_reader **rp, struct emb_src *src,
    const char *name)
{
	return ropen(rp, src, -1, name);
}

/* Say what is wrong with a key that emb_key_check refused. */
static int
badkey(struct emb_reader *r, const char *k, size_t len)
{
	unsigned long long recno = (unsigned long long)r->nrec + 1;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)k[i];

		if (c == '\n' || c == '\r' || c == '\0')
			return rfail(r, EMB_EKEY, "record %llu: key byte %zu "
			    "is a raw %s (escape it)", recno, i + 1,
			    c == '\n' ? "LF" : c == '\r' ? "CR" : "NUL");
		if (c != '\\')
			continue;
		if (++i == len)
			return rfail(r, EMB_EKEY, "record %llu: key ends "
			    "inside an escape", recno);
		if (strchr("\\tnr0", k[i]) == NULL || k[i] == '\0')
			return rfail(r, EMB_EKEY, "record %llu: key byte %zu: "
			    "bad escape, backslash then 0x%02x", recno, i,
			    (unsigned char)k[i]);
	}
	return rfail(r, EMB_EKEY, "record %llu: bad key", recno);
}

/* Copy a key of len bytes at p into r->key, NUL-terminated, and check it. */
static int
takekey(struct emb_reader *r, const unsigned char *p, size_t len)
{
	/* The caller has checked len <= EMB_KEY_MAX: room for no more. */
	if (len + 1 > r->keycap && emb_grow_max(&r->key, &r->keycap,
	    len + 1, EMB_KEY_MAX + 1, 1) < 0)
		return rfail(r, EMB_ENOMEM, "record %llu: out of memory",
		    (unsigned long long)r->nrec + 1);
	memcpy(r->key, p, len);
	r->key[len] = '\0';
	if (emb_key_check(r->key, len) < 0)
		return badkey(r, r->key, len);
	return 0;
}

static int
trailer(struct emb_reader *r)
{
	const unsigned char *p;
	uint64_t count;
	uint32_t crc;
	int rc;

	sumup(r);
	if ((rc = fill(r, EMB_TRAILER_LEN)) < 0)
		return fillfail(r, rc, "trailer");
	if (rc == 1)
		return rfail(r, EMB_ETRUNC, "after record %llu: truncated "
		    "inside the trailer", (unsigned long long)r->nrec);
	p = r->s->buf + r->s->beg;
	if (r->pending > 0)
		return rfail(r, EMB_EGROUP, "after record %llu: trailer while "
		    "group %llu has %u of %u members",
		    (unsigned long long)r->nrec, (unsigned long long)r->group,
		    r->member, r->member + r->pending);
	count = emb_le64(p + 1);
	crc = emb_le32(p + 9);
	if (count != r->segrec)
		return rfail(r, EMB_ECOUNT, "after record %llu: trailer counts "
		    "%llu records, stream had %llu",
		    (unsigned long long)r->nrec, (unsigned long long)count,
		    (unsigned long long)r->segrec);
	if (crc != r->crc)
		return rfail(r, EMB_ECRC, "after record %llu: crc32 %08x in "
		    "trailer, data has %08x", (unsigned long long)r->nrec,
		    crc, r->crc);
	r->s->beg += EMB_TRAILER_LEN;
	r->crcpos = r->s->beg;
	/* A clean end, or another stream concatenated to this one. */
	if ((rc = fill(r, 1)) < 0)
		return rfail(r, rc, "after record %llu: %s",
		    (unsigned long long)r->nrec, rc == EMB_EIO ?
		    strerror(errno) : emb_strerror(rc));
	if (rc == 1) {
		r->state = R_DONE;
		return 0;
	}
	return header(r);
}

static int	next(struct emb_reader *, struct emb_rec *, float *,
		    const void **);

/* Name the first non-finite component of the record just decoded. */
static int
nonfinite(struct emb_reader *r, const float *v, uint64_t recno)
{
	uint32_t i = 0;

	while (i + 1 < r->dim && emb_allfinite(v + i, 1))
		i++;
	return rfail(r, EMB_ENONFINITE, "record %llu: component %u is %s",
	    (unsigned long long)recno, i + 1, isnan(v[i]) ? "NaN" :
	    v[i] > 0 ? "+Inf" : "-Inf");
}

int
emb_reader_next(struct emb_reader *r, struct emb_rec *rec)
{
	return next(r, rec, r->vec, NULL);
}

int
emb_reader_next_into(struct emb_reader *r, struct emb_rec *rec, float *vec)
{
	return next(r, rec, vec, NULL);
}

int
emb_reader_next_le(struct emb_reader *r, struct emb_rec *rec,
    const void **le)
{
	*le = NULL;
	return next(r, rec, NULL, le);
}

int
emb_reader_nonfinite(struct emb_reader *r, const struct emb_rec *rec,
    const void *le)
{
	if (r->allow_nonfinite)
		return 0;
	emb_getf32s(r->vec, le, r->dim);
	if (emb_allfinite(r->vec, r->dim))
		return 0;
	/* Not read after all, as emb_reader_next() would not have. */
	r->nrec--;
	r->segrec--;
	return nonfinite(r, r->vec, rec->recno);
}

/*
 * The next record; a VEC record's components go to vec, checked, or, if
 * le is not NULL, are left where they are, *le pointing at them.
 */
static int
next(struct emb_reader *r, struct emb_rec *rec, float *vec,
    const void **le)
{
	const unsigned char *p;
	size_t keylen, len;
	int rc;

	for (;;) {
		if (r->state == R_ERROR)
			return r->err;
		if (r->state == R_DONE)
			return 0;
		if ((rc = fill(r, 1)) != 0) {
			if (rc < 0)
				return fillfail(r, rc, "record");
			return rfail(r, EMB_ETRUNC, "after record %llu: "
			    "truncated, no trailer", (unsigned long long)r->nrec);
		}
		if (r->s->buf[r->s->beg] != EMB_REC_END)
			break;
		if ((rc = trailer(r)) < 0)
			return rc;
	}
	p = r->s->buf + r->s->beg;
	switch (p[0]) {
	case EMB_REC_VEC:
	case EMB_REC_GROUP:
		break;
	default:
		return rfail(r, EMB_ETYPE, "record %llu: unknown record type "
		    "0x%02x", (unsigned long long)r->nrec + 1, p[0]);
	}
	if ((rc = need(r, 5, "key length")) < 0)
		return rc;
	p = r->s->buf + r->s->beg;
	keylen = emb_le32(p + 1);
	if (keylen > EMB_KEY_MAX)
		return rfail(r, EMB_ELIMIT, "record %llu: key length %zu over "
		    "limit %u", (unsigned long long)r->nrec + 1, keylen,
		    EMB_KEY_MAX);
	len = 5 + keylen + (p[0] == EMB_REC_VEC ? (size_t)r->dim * 4 : 4);
	if ((rc = need(r, len, p[0] == EMB_REC_VEC ? "vector" : "group")) < 0)
		return rc;
	p = r->s->buf + r->s->beg;
	if ((rc = takekey(r, p + 5, keylen)) < 0)
		return rc;
	rec->key = r->key;
	rec->keylen = keylen;
	rec->recno = r->nrec + 1;
	if (p[0] == EMB_REC_VEC) {
		if (le != NULL)
			*le = p + 5 + keylen;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		else if (!emb_copyf32_finite(vec, p + 5 + keylen, r->dim) &&
		    !r->allow_nonfinite)
			return nonfinite(r, vec, rec->recno);
#else
		else {
			emb_getf32s(vec, p + 5 + keylen, r->dim);
			if (!r->allow_nonfinite && !emb_allfinite(vec, r->dim))
				return nonfinite(r, vec, rec->recno);
		}
#endif
		rec->type = EMB_REC_VEC;
		rec->vec = vec;
		rec->nmemb = 0;
		if (r->pending > 0) {
			r->pending--;
			rec->group = r->group;
			rec->member = ++r->member;
		} else {
			rec->group = 0;
			rec->member = 0;
		}
	} else {
		uint32_t n = emb_le32(p + 5 + keylen);

		if (r->pending > 0)
			return rfail(r, EMB_EGROUP, "record %llu: group %llu "
			    "starts while group %llu has %u of %u members",
			    (unsigned long long)rec->recno,
			    (unsigned long long)r->group + 1,
			    (unsigned long long)r->group, r->member,
			    r->member + r->pending);
		if (n > EMB_GROUP_MAX)
			return rfail(r, EMB_ELIMIT, "record %llu: group of %u "
			    "members over limit %u",
			    (unsigned long long)rec->recno, n, EMB_GROUP_MAX);
		r->group++;
		r->pending = n;
		r->member = 0;
		rec->type = EMB_REC_GROUP;
		rec->vec = NULL;
		rec->nmemb = n;
		rec->group = r->group;
		rec->member = 0;
	}
	r->s->beg += len;
	r->nrec++;
	r->segrec++;
	return 1;
}

uint32_t
emb_reader_dim(const struct emb_reader *r)
{
	return r->dim;
}

void
emb_reader_allow_nonfinite(struct emb_reader *r, int allow)
{
	r->allow_nonfinite = allow;
}

int
emb_reader_kind(const struct emb_reader *r)
{
	return r->kind;
}

const char *
emb_reader_msg(const struct emb_reader *r)
{
	return r->msg;
}

uint64_t
emb_reader_count(const struct emb_reader *r)
{
	return r->nrec;
}

void
emb_reader_idle(struct emb_reader *r, int ms, void (*fn)(void *), void *ctx)
{
	emb_src_idle(r->s, ms, fn, ctx);
}

void
emb_reader_free(struct emb_reader *r)
{
	if (r == NULL)
		return;
	emb_src_close(&r->own);
	free(r->key);
	emb_free(r->vec);
	free(r);
}

struct emb_writer {
	int		 fd;
	uint32_t	 dim;
	int		 allow_nonfinite;
	int		 err;		/* sticky write error */
	unsigned char	*buf;		/* whole records waiting for write(2) */
	size_t		 cap, len;
	uint64_t	 nrec;		/* records written */
	uint32_t	 crc;		/* crc32 of the records */
	size_t		 crcpos;	/* buf[crcpos, len) is not in crc yet */
	uint32_t	 pending;	/* members the open group still needs */
	int		 closed;	/* the trailer is written */
};

int
emb_writer_open(struct emb_writer **wp, int fd, uint32_t dim)
{
	struct emb_writer *w;

	*wp = NULL;
	if (dim == 0 || dim > EMB_DIM_MAX)
		return EMB_EDIM;
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return EMB_ENOMEM;
	w->cap = BUFSZ;
	if ((w->buf = malloc(w->cap)) == NULL) {
		free(w);
		return EMB_ENOMEM;
	}
	w->fd = fd;
	w->dim = dim;
	w->crc = 0;
	memcpy(w->buf, EMB_MAGIC, EMB_MAGIC_LEN);
	emb_put16(w->buf + 8, EMB_FORMAT);
	emb_put16(w->buf + 10, 0);
	emb_put32(w->buf + 12, dim);
	w->len = w->crcpos = EMB_HEADER_LEN;
	*wp = w;
	return 0;
}

void
emb_writer_allow_nonfinite(struct emb_writer *w, int allow)
{
	w->allow_nonfinite = allow;
}

static int
flush(struct emb_writer *w)
{
	if (w->err)
		return w->err;
	w->crc = emb_crc32(w->crc, w->buf + w->crcpos, w->len - w->crcpos);
	if (emb_writeall(w->fd, w->buf, w->len) < 0)
		return w->err = EMB_EIO;
	w->len = w->crcpos = 0;
	return 0;
}

/* Room for n more bytes in the buffer: flush or grow. */
static int
reserve(struct emb_writer *w, size_t n)
{
	if (w->err)
		return w->err;
	if (w->closed)
		return EMB_EINVAL;
	if (w->cap - w->len >= n)
		return 0;
	if (w->len > 0 && flush(w) < 0)
		return w->err;
	return emb_grow_max(&w->buf, &w->cap, n, n, 1) < 0 ? EMB_ENOMEM : 0;
}

/* The record at buf + len, n bytes long, is complete: account for it. */
static int
commit(struct emb_writer *w, size_t n)
{
	w->len += n;
	w->nrec++;
	if (w->len >= BUFSZ)
		return flush(w);
	return 0;
}

/*
 * Room for a VEC record of n bytes, its type and key written: *p is the
 * record, its vector at *p + 5 + keylen.
 */
static int
vechead(struct emb_writer *w, const char *key, size_t keylen, size_t n,
    unsigned char **p)
{
	int rc;

	if ((rc = reserve(w, n)) < 0)
		return rc;
	*p = w->buf + w->len;
	(*p)[0] = EMB_REC_VEC;
	emb_put32(*p + 1, (uint32_t)keylen);
	if (keylen > 0)
		memcpy(*p + 5, key, keylen);
	return 0;
}

/* A VEC record from floats (le 0) or from little-endian bytes (le 1). */
static int
putvec(struct emb_writer *w, const char *key, size_t keylen,
    const void *vec, int le)
{
	unsigned char *p;
	size_t n;
	int rc;

	if (emb_key_check(key, keylen) < 0)
		return EMB_EKEY;
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	if (!w->allow_nonfinite && !(le ? emb_allfinite_le(vec, w->dim) :
	    emb_allfinite(vec, w->dim)))
		return EMB_ENONFINITE;
#endif
	n = 5 + keylen + (size_t)w->dim * 4;
	if ((rc = vechead(w, key, keylen, n, &p)) < 0)
		return rc;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* Copied and tested in one pass; not committed if refused. */
	(void)le;
	if (!emb_copyf32_finite(p + 5 + keylen, vec, w->dim) &&
	    !w->allow_nonfinite)
		return EMB_ENONFINITE;
#else
	if (le)
		memcpy(p + 5 + keylen, vec, (size_t)w->dim * 4);
	else
		emb_putf32s(p + 5 + keylen, vec, w->dim);
#endif
	if (w->pending > 0)
		w->pending--;
	return commit(w, n);
}

int
emb_write_vec(struct emb_writer *w, const char *key, size_t keylen,
    const float *vec)
{
	return putvec(w, key, keylen, vec, 0);
}

int
emb_write_vecle(struct emb_writer *w, const char *key, size_t keylen,
    const void *le)
{
	return putvec(w, key, keylen, le, 1);
}

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
/* The unit vector of vec (host floats) or le (little-endian), by copy. */
static int
unitcopy(struct emb_writer *w, const char *key, size_t keylen,
    const float *vec, const void *le, int *zero)
{
	float *u = malloc((size_t)w->dim * sizeof(float));
	int rc;

	if (u == NULL)
		return EMB_ENOMEM;
	if (le != NULL)
		emb_getf32s(u, le, w->dim);
	else
		memcpy(u, vec, (size_t)w->dim * sizeof(float));
	*zero = 0;
	if (!emb_allfinite(u, w->dim)) {
		if (!w->allow_nonfinite) {
			free(u);
			return EMB_ENONFINITE;
		}
	} else
		*zero = !emb_unit(u, w->dim);
	rc = emb_write_vec(w, key, keylen, u);
	free(u);
	return rc;
}
#endif

int
emb_write_vec_unit(struct emb_writer *w, const char *key, size_t keylen,
    const float *vec, int *zero)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return emb_write_vecle_unit(w, key, keylen, vec, zero);
#else
	return unitcopy(w, key, keylen, vec, NULL, zero);
#endif
}

int
emb_write_vecle_unit(struct emb_writer *w, const char *key, size_t keylen,
    const void *vec, int *zero)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	double q = sumsqf(vec, w->dim);
	unsigned char *p;
	size_t n;
	int rc;

	if (w->err)
		return w->err;
	/* Finite if and only if every component is (no square overflows). */
	*zero = q == 0;
	if (!isfinite(q) && !w->allow_nonfinite)
		return EMB_ENONFINITE;	/* refused before anything moves */
	if (q == 0 || !isfinite(q))
		return putvec(w, key, keylen, vec, 1);
	if (emb_key_check(key, keylen) < 0)
		return EMB_EKEY;
	n = 5 + keylen + (size_t)w->dim * 4;
	if ((rc = vechead(w, key, keylen, n, &p)) < 0)
		return rc;
	/* Finite in, finite out: each |component| shrinks or stays. */
	scalefl(vec, p + 5 + keylen, 1 / sqrt(q), w->dim);
	if (w->pending > 0)
		w->pending--;
	return commit(w, n);
#else
	return unitcopy(w, key, keylen, NULL, vec, zero);
#endif
}

int
emb_write_group(struct emb_writer *w, const char *key, size_t keylen,
    uint32_t nmemb)
{
	unsigned char *p;
	size_t n;
	int rc;

	if (emb_key_check(key, keylen) < 0)
		return EMB_EKEY;
	if (nmemb > EMB_GROUP_MAX)
		return EMB_ELIMIT;
	if (w->pending > 0)
		return EMB_EGROUP;
	n = 9 + keylen;
	if ((rc = reserve(w, n)) < 0)
		return rc;
	p = w->buf + w->len;
	p[0] = EMB_REC_GROUP;
	emb_put32(p + 1, (uint32_t)keylen);
	if (keylen > 0)
		memcpy(p + 5, key, keylen);
	emb_put32(p + 5 + keylen, nmemb);
	w->pending = nmemb;
	return commit(w, n);
}

int
emb_writer_close(struct emb_writer *w)
{
	unsigned char *p;
	int rc;

	if (w->pending > 0)
		return EMB_EGROUP;
	if ((rc = reserve(w, EMB_TRAILER_LEN)) < 0)
		return rc;
	w->crc = emb_crc32(w->crc, w->buf + w->crcpos, w->len - w->crcpos);
	p = w->buf + w->len;
	p[0] = EMB_REC_END;
	emb_put64(p + 1, w->nrec);
	emb_put32(p + 9, w->crc);
	w->len += EMB_TRAILER_LEN;
	w->crcpos = w->len;
	w->closed = 1;
	return flush(w);
}

int
emb_writer_flush(struct emb_writer *w)
{
	return w->len > 0 ? flush(w) : w->err;
}

uint64_t
emb_writer_count(const struct emb_writer *w)
{
	return w->nrec;
}

void
emb_writer_free(struct emb_writer *w)
{
	if (w == NULL)
		return;
	free(w->buf);
	free(w);
}

/*
 * Groups.  emb_group_read gathers one group (a GROUP record and its
 * members, or a lone VEC record) into reusable buffers, so that a
 * composition filter sees a group as a matrix.
 */

/* Room for n member rows in g. */
static int
vroom(struct emb_group *g, size_t n)
{
	size_t cap, sz, mcap = g->moff != NULL ? g->vcap + 1 : 0;
	float *nv;

	if (n <= g->vcap)
		return 0;
	cap = (n + 7) & ~(size_t)7;
	if (g->vcap > 0 && cap < 2 * g->vcap)
		cap = 2 * g->vcap;
	if (emb_mul(cap, (size_t)g->dim * sizeof(float), &sz) < 0)
		return EMB_ELIMIT;
	/* The members' key offsets first: a failure leaves g as it was. */
	if (emb_grow_max(&g->moff, &mcap, cap + 1, cap + 1,
	    sizeof(*g->moff)) < 0 || (nv = emb_alloc(sz)) == NULL)
		return EMB_ENOMEM;
	if (g->nmemb > 0)
		memcpy(nv, g->v, (size_t)g->nmemb * g->dim * sizeof(float));
	emb_free(g->v);
	g->v = nv;
	g->vcap = cap;
	return 0;
}

/* Append len bytes and a NUL to a growing byte buffer. */
static int
bytes(char **buf, size_t *cap, size_t at, const char *p, size_t len)
{
	if (emb_grow(buf, cap, at + len + 1, 1) < 0)
		return EMB_ENOMEM;
	memcpy(*buf + at, p, len);
	(*buf)[at + len] = '\0';
	return 0;
}

/*
 * Add the VEC record rec as the next member of g; its vector is in place
 * already when rec->vec points there (emb_reader_next_into).
 */
static int
addmemb(struct emb_group *g, const struct emb_rec *rec, int keepkeys)
{
	float *at;
	int rc;

	if ((rc = vroom(g, (size_t)g->nmemb + 1)) < 0)
		return rc;
	at = g->v + (size_t)g->nmemb * g->dim;
	if (rec->vec != at)
		memcpy(at, rec->vec, g->dim * sizeof(float));
	if (keepkeys) {
		if ((rc = bytes(&g->mkey, &g->mkeycap, g->mkeylen, rec->key,
		    rec->keylen)) < 0)
			return rc;
		g->moff[g->nmemb] = g->mkeylen;
		g->mkeylen += rec->keylen + 1;
		g->moff[g->nmemb + 1] = g->mkeylen;
	}
	g->nmemb++;
	return 0;
}

int
emb_group_read(struct emb_reader *r, struct emb_group *g, int keepkeys)
{
	struct emb_rec rec;
	size_t pre;
	int rc;

	g->dim = emb_reader_dim(r);
	g->nmemb = 0;
	g->mkeylen = 0;
	if ((rc = emb_reader_next(r, &rec)) <= 0)
		return rc;
	if ((rc = bytes(&g->key, &g->keycap, 0, rec.key, rec.keylen)) < 0)
		return rc;
	g->keylen = rec.keylen;
	g->recno = rec.recno;
	if ((rc = vroom(g, 1)) < 0)
		return rc;
	if (g->moff != NULL)
		g->moff[0] = 0;
	if (rec.type == EMB_REC_VEC) {
		g->lone = 1;
		return (rc = addmemb(g, &rec, keepkeys)) < 0 ? rc : 1;
	}
	g->lone = 0;
	/*
	 * Room for the declared members, up to 1 MiB of vectors: the input
	 * may lie, and what it only declares must cost nothing.
	 */
	pre = ((size_t)1 << 20) / ((size_t)g->dim * sizeof(float));
	if ((rc = vroom(g, rec.nmemb < pre ? rec.nmemb : pre)) < 0)
		return rc;
	for (uint32_t n = rec.nmemb, i = 0; i < n; i++) {
		/* Straight into the member's row, when there is room. */
		if ((rc = vroom(g, (size_t)g->nmemb + 1)) < 0 ||
		    (rc = emb_reader_next_into(r, &rec, g->v +
		    (size_t)g->nmemb * g->dim)) <= 0)
			return rc < 0 ? rc : EMB_ETRUNC;
		if ((rc = addmemb(g, &rec, keepkeys)) < 0)
			return rc;
	}
	return 1;
}

const char *
emb_group_mkey(const struct emb_group *g, uint32_t i, size_t *len)
{
	*len = g->moff[i + 1] - g->moff[i] - 1;
	return g->mkey + g->moff[i];
}

void
emb_group_free(struct emb_group *g)
{
	if (g == NULL)
		return;
	free(g->key);
	emb_free(g->v);
	free(g->mkey);
	free(g->moff);
	memset(g, 0, sizeof(*g));
}
