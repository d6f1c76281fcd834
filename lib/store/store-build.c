/*
 * store-build.c - building a store (store.h, emb-store(5)): a store
 * file written from an embedding file as it is read (emb_store_build),
 * a store in memory (emb_store_load, and in place where the file is
 * mapped), and a store written out again (emb_store_write).  Words,
 * offsets and buckets grow in memory; the vectors go to a memory array
 * or straight to the file, the search section's codes (codes.h) and the
 * row checksums beside them, and the headers are written last.
 */
#include "store/emb-store.h"
#include "io/fmt.h"
#include "store/access.h"
#include "base/crc.h"
#include "base/hash.h"
#include "base/io.h"
#include "base/le.h"
#include "store/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define WBUFSZ		(8u << 20)	/* vector write block */
#define DIO_ALIGN	4096u		/* O_DIRECT offset and size unit */
#define PROGRESS_EVERY	16384

/*
 * The search section as rows come (ksec_add), written at the end
 * (ksec_write), and the row checksums (ksec_row, rows_write).  Its codes
 * are a quarter of the vectors: an anonymous mapping that grows with
 * mremap(2).
 */
struct ksec {
	uint32_t	 dim, dp;
	uint64_t	 n, cap;	/* rows held, rows allocated */
	uint8_t		*codes;		/* cap x dp bytes, or NULL */
	size_t		 codelen;
	double		*nrm;
	float		*cs, *ce;
	int8_t		*scratch;	/* dp bytes */
	uint32_t	*rcrc;		/* crc32 of each row, words then buckets */
	uint32_t	 secrc;		/* of the scales and errors (written) */
	size_t		 nrcrc, rcrccap;
};

static void
ksec_free(struct ksec *k)
{
	if (k->codes != NULL)
		munmap(k->codes, k->codelen);
	free(k->nrm);
	free(k->cs);
	free(k->ce);
	free(k->scratch);
	free(k->rcrc);
	memset(k, 0, sizeof(*k));
}

/* Append the checksum of a row: its dim values as stored. */
static int
ksec_row(struct ksec *k, const void *row)
{
	if (emb_grow(&k->rcrc, &k->rcrccap, k->nrcrc + 1,
	    sizeof(*k->rcrc)) < 0)
		return EMB_ENOMEM;
	k->rcrc[k->nrcrc++] = emb_crc32(0, row, (size_t)k->dim * 4);
	return 0;
}

/* Append row v's terms and checksum. */
static int
ksec_add(struct ksec *k, const float *v)
{
	if (ksec_row(k, v) < 0)
		return EMB_ENOMEM;
	if (k->n == k->cap) {
		uint64_t cap = k->cap ? 2 * k->cap : 1024;
		size_t len;
		void *p;

		if (emb_mul((size_t)cap, k->dp, &len) < 0)
			return EMB_ELIMIT;
		p = k->codes;
		if (k->dp > 0 && emb_growmap(&p, &k->codelen, len, 0) < 0)
			return EMB_ENOMEM;
		k->codes = p;
		if (knn_growterms(&k->nrm, &k->cs, &k->ce, (size_t)k->cap,
		    (size_t)cap) < 0)
			return EMB_ENOMEM;
		if (k->scratch == NULL &&
		    (k->scratch = malloc(k->dp ? k->dp : 1)) == NULL)
			return EMB_ENOMEM;
		k->cap = cap;
	}
	knn_code(v, k->dim, k->dp, (size_t)k->n, k->scratch, k->codes, k->nrm,
	    k->cs, k->ce);
	k->n++;
	return 0;
}

/*
 * Write the section at fd's position: its header, the codes, then the
 * terms, little-endian, the lanes past the last row zero.
 */
static int
ksec_write(struct ksec *k, int fd)
{
	unsigned char h[KNNHEADER], buf[4096];
	uint64_t rows = striprows(k->n), clen = rows * k->dp;
	uint32_t ccrc, tcrc = 0;
	size_t n = 0;
	off_t at;

	/* The lanes no row filled are zero: fresh pages (cap >= rows). */
	at = lseek(fd, 0, SEEK_CUR);
	memset(h, 0, sizeof(h));
	if (at < 0 || emb_writeall(fd, h, sizeof(h)) < 0)
		return EMB_EIO;
	ccrc = k->dp > 0 ? emb_crc32(0, k->codes, (size_t)clen) : 0;
	if (clen > 0 && emb_writeall(fd, k->codes, (size_t)clen) < 0)
		return EMB_EIO;
	/*
	 * The norms, then the scales and errors, whose crc32 alone goes to
	 * the row checksums' header too: buf holds one kind at a time.
	 */
	k->secrc = 0;
	for (int t = 0; t < 3; t++)
		for (uint64_t i = 0; i < rows; i++) {
			uint32_t u;

			if (n + 8 > sizeof(buf) || (i == 0 && n > 0)) {
				tcrc = emb_crc32(tcrc, buf, n);
				if (t > 1 || (t == 1 && i > 0))
					k->secrc = emb_crc32(k->secrc, buf, n);
				if (emb_writeall(fd, buf, n) < 0)
					return EMB_EIO;
				n = 0;
			}
			if (t == 0) {
				uint64_t x;
				double d = i < k->n ? k->nrm[i] : 0;

				memcpy(&x, &d, 8);
				emb_put64(buf + n, x);
				n += 8;
				continue;
			}
			float f = i >= k->n ? 0 : t == 1 ? k->cs[i] : k->ce[i];

			memcpy(&u, &f, 4);
			emb_put32(buf + n, u);
			n += 4;
		}
	tcrc = emb_crc32(tcrc, buf, n);
	k->secrc = emb_crc32(k->secrc, buf, n);
	if (emb_writeall(fd, buf, n) < 0)
		return EMB_EIO;
	emb_put32(h, KNN_KIND);
	emb_put32(h + 4, k->dp);
	emb_put64(h + 8, rows);
	emb_put32(h + 16, ccrc);
	emb_put32(h + 20, tcrc);
	emb_put32(h + 60, emb_crc32(0, h, 60));
	if (pwrite(fd, h, sizeof(h), at) != (ssize_t)sizeof(h))
		return EMB_EIO;
	return 0;
}

/*
 * Write the row checksums at fd's position: the header (the rows
 * covered, the crc32 of the checksums, that of the search section's
 * scales and errors), then one u32 a row.
 */
static int
rows_write(struct ksec *k, int fd)
{
	unsigned char h[ROWHEADER], buf[4096];
	uint32_t crc = 0;
	size_t n = 0;

	memset(h, 0, sizeof(h));
	for (size_t i = 0; i < k->nrcrc; i++) {
		emb_put32(buf + n, k->rcrc[i]);
		if ((n += 4) == sizeof(buf) || i + 1 == k->nrcrc) {
			crc = emb_crc32(crc, buf, n);
			n = 0;
		}
	}
	emb_put32(h, ROWS_KIND);
	emb_put64(h + 8, k->nrcrc);
	emb_put32(h + 16, crc);
	emb_put32(h + 20, k->secrc);
	emb_put32(h + 60, emb_crc32(0, h, 60));
	if (emb_writeall(fd, h, sizeof(h)) < 0)
		return EMB_EIO;
	for (size_t i = 0; i < k->nrcrc; i++) {
		emb_put32(buf + n, k->rcrc[i]);
		if ((n += 4) == sizeof(buf) || i + 1 == k->nrcrc) {
			if (emb_writeall(fd, buf, n) < 0)
				return EMB_EIO;
			n = 0;
		}
	}
	return 0;
}

/*
 * Building.  Words, offsets and buckets grow in memory; vectors go to a
 * memory array (load) or are streamed to the file (build).
 */
struct builder {
	struct emb_store *s;		/* memory arrays under construction */
	size_t		 offcap, poolcap;
	uint64_t	 veccap;	/* rows allocated (load) */
	int		 fd;		/* build: the store file, else -1 */
	int		 fdfl;		/* its file status flags */
	int		 direct;	/* O_DIRECT writes are on */
	unsigned char	*wbuf;		/* build: file bytes not yet written */
	size_t		 wlen;
	size_t		 crcd;		/* wbuf bytes already in vcrc */
	uint32_t	 vcrc;
	uint32_t	*tag;		/* hash tag of each bucket (emb_index's) */
	char		*pword;		/* the entry read but not yet added */
	size_t		 plen, pcap;
	uint64_t	 phash, pwhere;
	const unsigned char *praw;	/* in place: its vector */
	size_t		 rowcap;	/* in place: room in s->mrow */
	struct ksec	 ks;		/* build: the search section */
};

/*
 * The build's probe: each bucket's hash tag (the low 32 bits) sits in
 * b->tag, so that a probe passes other words without touching their
 * offsets and bytes.  @return the bucket of word or of its place.
 */
static uint32_t
bprobe(struct builder *b, const char *word, size_t len, uint64_t h,
    int64_t *idx)
{
	struct emb_store *s = b->s;

	return emb_index_probe_inline(s->mbkt, b->tag, s->nb, h, word, len,
	    wordkey, s, idx);
}

static int
regrow(struct builder *b, uint32_t nb)
{
	struct emb_store *s = b->s;
	uint32_t *nbkt, *ntag;

	if ((nbkt = calloc(nb, sizeof(*nbkt))) == NULL)
		return EMB_ENOMEM;
	if ((ntag = calloc(nb, sizeof(*ntag))) == NULL) {
		free(nbkt);
		return EMB_ENOMEM;
	}
	/* The words are distinct: each goes to the first empty bucket. */
	for (uint64_t i = 0; i < s->count; i++) {
		uint64_t h = emb_hash(s->mpool + s->moffs[i],
		    s->moffs[i + 1] - s->moffs[i] - 1);
		uint32_t at = (uint32_t)h & (nb - 1);

		while (nbkt[at] != 0)
			at = (at + 1) & (nb - 1);
		nbkt[at] = (uint32_t)i + 1;
		ntag[at] = (uint32_t)h;
	}
	free(s->mbkt);
	free(b->tag);
	s->mbkt = nbkt;
	s->bkt = nbkt;
	b->tag = ntag;
	s->nb = nb;
	return 0;
}

/* Back to buffered writes, for good. */
static void
nodirect(struct builder *b)
{
	if (b->direct)
		fcntl(b->fd, F_SETFL, b->fdfl);
	b->direct = 0;
}

/*
 * Write the vector bytes gathered in wbuf (the first block also holds the
 * placeholder header).  With O_DIRECT only whole aligned blocks go out
 * and the rest waits for more rows or for the end (all); extra bytes
 * past the gathered ones (a row not yet added) move along with them.  A direct write
 * that fails or comes short is not an error yet: the bytes are written
 * again, buffered, which then says what is wrong.
 */
static int
flushvec(struct builder *b, int all, size_t extra)
{
	size_t n = b->wlen;

	b->vcrc = emb_crc32(b->vcrc, b->wbuf + b->crcd, b->wlen - b->crcd);
	b->crcd = b->wlen;
	if (b->direct && !all)
		n &= ~(size_t)(DIO_ALIGN - 1);
	if (n == 0)
		return 0;
	if (b->direct) {
		ssize_t w;

		do
			w = write(b->fd, b->wbuf, n);
		while (w < 0 && errno == EINTR);
		if (w != (ssize_t)n) {
			nodirect(b);
			if (w < 0)
				w = 0;
			if (emb_writeall(b->fd, b->wbuf + w, n - (size_t)w) < 0)
				return EMB_EIO;
		}
	} else if (emb_writeall(b->fd, b->wbuf, n) < 0)
		return EMB_EIO;
	memmove(b->wbuf, b->wbuf + n, b->wlen - n + extra);
	b->wlen -= n;
	b->crcd = b->wlen;
	return 0;
}

/*
 * Room for cap rows in s->mvec.  Large vocabularies take gigabytes: the
 * rows live in an anonymous mapping that grows with mremap(2), without
 * copying.  populate asks the kernel for all the pages at once, which is
 * much cheaper than faulting them in one by one; it is used only for a
 * size the input file can back (a header's word count is not trusted).
 */
static int
growvec(struct emb_store *s, uint64_t *veccap, uint64_t cap, int populate)
{
	size_t sz;
	void *p = s->mvec;

	if (emb_mul(cap, s->stride * 4, &sz) < 0)
		return EMB_ELIMIT;
	if (emb_growmap(&p, &s->mvecsz, sz, populate) < 0)
		return EMB_ENOMEM;
	s->mvec = p;
	*veccap = cap;
	return 0;
}

/*
 * The row where the next entry's vector is read: the one after the
 * pending entry's (pending is 0 or 1), so that a new word needs no copy
 * and a duplicate's row is simply reused.
 */
static int
nextrow(struct builder *b, int pending, float **row)
{
	struct emb_store *s = b->s;
	size_t rowb = s->stride * 4;
	int rc;

	if (b->fd >= 0) {
		if (b->wlen + rowb * (size_t)(1 + pending) > WBUFSZ &&
		    (rc = flushvec(b, 0, pending ? rowb : 0)) < 0)
			return rc;
		*row = (float *)(void *)(b->wbuf + b->wlen + rowb *
		    (size_t)pending);
		return 0;
	}
	if (s->count + (uint64_t)pending == b->veccap && (rc = growvec(s,
	    &b->veccap, b->veccap ? b->veccap * 2 : 1024, 0)) < 0)
		return rc;
	*row = s->mvec + (s->count + (uint64_t)pending) * s->stride;
	return 0;
}

/* The row of the next word to add (the pending entry's). */
static float *
addrow(struct builder *b)
{
	if (b->fd >= 0)
		return (float *)(void *)(b->wbuf + b->wlen);
	return b->s->mvec + b->s->count * b->s->stride;
}

/*
 * Add word (hash h), whose vector is already in its row.
 * @return 1 added, 0 a duplicate, or a negative code.
 */
static int
addword(struct builder *b, const char *word, size_t len, uint64_t h,
    float *row)
{
	struct emb_store *s = b->s;
	uint32_t at;
	int64_t idx;
	int rc;

	at = bprobe(b, word, len, h, &idx);
	if (idx >= 0)
		return 0;
	if (s->count >= COUNT_MAX || s->poolsz + len + 1 > POOL_MAX)
		return EMB_ELIMIT;
	if ((rc = emb_grow(&s->moffs, &b->offcap, s->count + 2,
	    sizeof(*s->moffs))) < 0 ||
	    (rc = emb_grow(&s->mpool, &b->poolcap, s->poolsz + len + 1, 1)) < 0)
		return rc;
	memcpy(s->mpool + s->poolsz, word, len);
	s->mpool[s->poolsz + len] = '\0';
	s->poolsz += len + 1;
	s->moffs[s->count + 1] = (uint32_t)s->poolsz;
	s->mbkt[at] = (uint32_t)s->count + 1;
	b->tag[at] = (uint32_t)h;
	/* Padding is zero: fresh pages in memory, cleared in the buffer. */
	if (b->fd >= 0) {
		memset(row + s->dim, 0, (s->stride - s->dim) * 4);
		if ((rc = ksec_add(&b->ks, row)) < 0)
			return rc;
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
		for (uint32_t j = 0; j < s->dim; j++) {
			float v = row[j];

			emb_putf32s((unsigned char *)(row + j), &v, 1);
		}
#endif
		b->wlen += s->stride * 4;
	}
	s->count++;
	s->pool = s->mpool;
	s->offs = s->moffs;
	if (s->count * 2 > s->nb && (rc = regrow(b, s->nb * 2)) < 0)
		return rc;
	return 1;
}

/* Keep the entry just read (its word is the file's) until it is added. */
static int
setpend(struct builder *b, const char *word, size_t len, uint64_t h,
    uint64_t where)
{
	if (len + 1 > b->pcap &&
	    emb_grow_max(&b->pword, &b->pcap, len + 1, len + 1, 1) < 0)
		return EMB_ENOMEM;
	memcpy(b->pword, word, len);
	b->plen = len;
	b->phash = h;
	b->pwhere = where;
	return 0;
}

/* Add the pending entry.  @return 1 added, 0 a duplicate, or a code. */
static int
addpend(struct builder *b, struct emb_store_stats *st)
{
	int rc = addword(b, b->pword, b->plen, b->phash,
	    b->s->mrow != NULL ? NULL : addrow(b));

	if (rc == 0 && st->dups++ == 0) {
		size_t n = b->plen < sizeof(st->dupword) - 1 ? b->plen :
		    sizeof(st->dupword) - 1;

		memcpy(st->dupword, b->pword, n);
		st->dupword[n] = '\0';
		st->dupwhere = b->pwhere;
	}
	return rc;
}

/*
 * What every read starts with: the dimension, and the word arrays sized
 * for the header's word count (a hint, not a promise).  @return 0 or
 * EMB_ENOMEM, and the hint.
 */
static int
setup(struct builder *b, struct emb_wfile *f, uint64_t limit,
    struct emb_store_stats *st, uint64_t *hintp)
{
	struct emb_store *s = b->s;
	uint64_t hint = emb_wfile_declared(f);
	uint32_t nb = 1024;

	memset(st, 0, sizeof(*st));
	s->dim = emb_wfile_dim(f);
	s->stride = rowstride(s->dim);
	uint64_t done, fsize, fits;

	if (limit && (hint == 0 || hint > limit))
		hint = limit;
	if (hint > (1u << 24))
		hint = 1u << 24;	/* a hint, not a promise of the file */
	/*
	 * Nor more than the input's bytes can hold (a word takes at least
	 * 2 dim + 2 bytes of text, more in binary; gzip is allowed a ratio
	 * of 4): what a header only declares must cost nothing.  The tables
	 * grow as words come when the hint falls short.
	 */
	emb_wfile_progress(f, &done, &fsize);
	fits = fsize ? 4 * (fsize / (2 * (uint64_t)emb_wfile_dim(f) + 2)) + 1 :
	    1u << 16;
	if (hint > fits)
		hint = fits;
	while (nb < hint * 2)
		nb *= 2;
	b->offcap = 1024;
	b->poolcap = 1u << 16;
	if ((s->moffs = malloc(b->offcap * sizeof(uint32_t))) == NULL ||
	    (s->mpool = malloc(b->poolcap)) == NULL ||
	    (s->mbkt = calloc(nb, sizeof(uint32_t))) == NULL ||
	    (b->tag = calloc(nb, sizeof(uint32_t))) == NULL)
		return EMB_ENOMEM;
	s->moffs[0] = 0;
	s->offs = s->moffs;
	s->pool = s->mpool;
	s->bkt = s->mbkt;
	s->nb = nb;
	*hintp = hint;
	return 0;
}

/* Read f into b; shared by load and build. */
static int
readall(struct builder *b, struct emb_wfile *f, uint64_t limit,
    emb_progress_fn *progress, void *arg, struct emb_store_stats *st)
{
	struct emb_store *s = b->s;
	uint64_t hint, done, fsize;
	const char *word;
	float *row;
	size_t len;
	uint64_t h = 0;
	int rc, rc2, pending = 0;

	if ((rc = setup(b, f, limit, st, &hint)) < 0)
		return rc;
	emb_wfile_progress(f, &done, &fsize);
	if (b->fd < 0 && hint > 0 && growvec(s, &b->veccap, hint,
	    hint * s->stride * 4 <= 2 * fsize) < 0)
		b->veccap = 0;	/* only a hint: grow as entries come */
	/*
	 * Each entry is added while the next one is read: its buckets are
	 * prefetched when it arrives and are in the cache by then, instead
	 * of a cache miss per word on a table of tens of megabytes.
	 */
	for (;;) {
		if (limit && st->read == limit)
			rc = 0;
		else if ((rc = nextrow(b, pending, &row)) < 0)
			return rc;
		else if ((rc = emb_wfile_read(f, &word, &len, row)) < 0)
			return rc;
		if (rc > 0) {
			h = emb_hash_inline(word, len);
			__builtin_prefetch(&s->mbkt[h & (s->nb - 1)]);
			__builtin_prefetch(&b->tag[h & (s->nb - 1)]);
		}
		if (pending && (rc2 = addpend(b, st)) <= 0) {
			if (rc2 < 0)
				return rc2;
			/* A duplicate: the new row takes its row. */
			if (rc > 0)
				memcpy(addrow(b), row, (size_t)s->dim * 4);
		}
		if (rc == 0)
			break;
		if ((rc = setpend(b, word, len, h, emb_wfile_where(f))) < 0)
			return rc;
		pending = 1;
		st->read++;
		if (progress && st->read % PROGRESS_EVERY == 0)
			progress(arg, f, st->read);
	}
	st->words = s->count;
	s->vec = s->mvec;
	return 0;
}

/*
 * Add the pending entry of an in-place load, its row where its vector
 * lies in the map.  @return as addpend.
 */
static int
addpendraw(struct builder *b, struct emb_store_stats *st)
{
	struct emb_store *s = b->s;

	if (emb_grow(&s->mrow, &b->rowcap, s->count + 1,
	    sizeof(*s->mrow)) < 0)
		return EMB_ENOMEM;
	s->mrow[s->count] = b->praw;
	return addpend(b, st);
}

/*
 * Load a mapped file in place: entries are checked where they lie and
 * only their words are copied; the store takes the mapping over.  The
 * pending-entry scheme is readall's.
 */
static int
readinplace(struct builder *b, struct emb_wfile *f, uint64_t limit,
    emb_progress_fn *progress, void *arg, struct emb_store_stats *st)
{
	struct emb_store *s = b->s;
	const char *word;
	size_t len;
	uint64_t hint, h = 0;
	int rc, rc2, pending = 0;

	if ((rc = setup(b, f, limit, st, &hint)) < 0)
		return rc;
	b->rowcap = hint > 0 ? hint : 1024;
	if ((s->mrow = malloc(b->rowcap * sizeof(*s->mrow))) == NULL)
		return EMB_ENOMEM;
	for (;;) {
		if (limit && st->read == limit)
			rc = 0;
		else if ((rc = emb_wfile_read(f, &word, &len, NULL)) < 0)
			return rc;
		if (rc > 0) {
			h = emb_hash_inline(word, len);
			__builtin_prefetch(&s->mbkt[h & (s->nb - 1)]);
			__builtin_prefetch(&b->tag[h & (s->nb - 1)]);
		}
		if (pending && (rc2 = addpendraw(b, st)) < 0)
			return rc2;
		if (rc == 0)
			break;
		if ((rc = setpend(b, word, len, h, emb_wfile_where(f))) < 0)
			return rc;
		b->praw = emb_wfile_raw(f);
		pending = 1;
		st->read++;
		if (progress && st->read % PROGRESS_EVERY == 0)
			progress(arg, f, st->read);
	}
	st->words = s->count;
	s->map = emb_wfile_takemap(f, &s->mapsz);
	return 0;
}

/* Load f into a new store, copied or (inplace) where it lies. */
static int
load(struct emb_store **sp, struct emb_wfile *f, uint64_t limit,
    emb_progress_fn *progress, void *arg, struct emb_store_stats *st,
    int inplace)
{
	struct builder b = { .fd = -1 };
	int rc;

	*sp = NULL;
	if ((b.s = calloc(1, sizeof(*b.s))) == NULL)
		return EMB_ENOMEM;
	rc = inplace ? readinplace(&b, f, limit, progress, arg, st) :
	    readall(&b, f, limit, progress, arg, st);
	free(b.tag);
	free(b.pword);
	if (rc < 0) {
		emb_store_close(b.s);
		return rc;
	}
	*sp = b.s;
	return 0;
}

int
emb_store_load(struct emb_store **sp, struct emb_wfile *f, uint64_t limit,
    emb_progress_fn *progress, void *arg, struct emb_store_stats *st)
{
	return load(sp, f, limit, progress, arg, st, 0);
}

int
emb_store_load_inplace(struct emb_store **sp, struct emb_wfile *f,
    uint64_t limit, emb_progress_fn *progress, void *arg,
    struct emb_store_stats *st)
{
	return load(sp, f, limit, progress, arg, st, emb_wfile_mapped(f));
}

static void
mkheader(unsigned char *h, const struct emb_store *s, uint64_t fsize,
    uint32_t icrc, uint32_t vcrc)
{
	memset(h, 0, EMB_STORE_HEADER);
	memcpy(h, EMB_STORE_MAGIC, 8);
	emb_put32(h + 8, EMB_STORE_VERSION);
	emb_put32(h + 12, s->dim);
	emb_put64(h + 16, s->count);
	emb_put32(h + 24, (uint32_t)s->stride);
	emb_put32(h + 28, s->nb);
	emb_put64(h + 32, s->poolsz);
	emb_put64(h + 40, fsize);
	emb_put32(h + 48, icrc);
	emb_put32(h + 52, vcrc);
	emb_put32(h + 56, (s->hassub ? FLAG_SUB : 0) | FLAG_KNN | FLAG_ROWS);
	emb_put32(h + 60, emb_crc32(0, h, 60));
}

/* The subword header. */
static void
mksubheader(unsigned char *h, int32_t minn, int32_t maxn, uint32_t bucket,
    uint32_t scrc)
{
	memset(h, 0, SUBHEADER);
	emb_put32(h, (uint32_t)minn);
	emb_put32(h + 4, (uint32_t)maxn);
	emb_put32(h + 8, bucket);
	emb_put32(h + 12, scrc);
	emb_put32(h + 60, emb_crc32(0, h, 60));
}

/*
 * Put the subword row b (dim floats from row) into the buffer at out,
 * little-endian, padded with zeros to stride.
 */
static void
putsubrow(unsigned char *out, const float *row, uint32_t dim, size_t stride)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(out, row, (size_t)dim * 4);
#else
	emb_putf32s(out, row, dim);
#endif
	memset(out + (size_t)dim * 4, 0, (stride - dim) * 4);
}

/* Write offsets, word bytes, padding and buckets; @return their crc32. */
static int
writeindex(const struct emb_store *s, int fd, uint32_t *crc)
{
	static const unsigned char zero[4];
	size_t pad = (size_t)(((s->poolsz + 3) & ~(uint64_t)3) - s->poolsz);
	uint32_t c = 0;
	const struct {
		const void *p;
		size_t n;
	} part[] = {
		{ s->offs, (size_t)(s->count + 1) * 4 },
		{ s->pool, (size_t)s->poolsz },
		{ zero, pad },
		{ s->bkt, (size_t)s->nb * 4 },
	};

	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		c = emb_crc32(c, part[i].p, part[i].n);
		if (emb_writeall(fd, part[i].p, part[i].n) < 0)
			return EMB_EIO;
	}
	*crc = c;
	return 0;
}

int
emb_store_build(int fd, struct emb_wfile *f, uint64_t limit,
    emb_progress_fn *progress, void *arg, struct emb_store_stats *st)
{
	struct builder b = { .fd = fd };
	unsigned char h[EMB_STORE_HEADER + SUBHEADER];
	const struct emb_ft *m = emb_wfile_ft(f);
	struct emb_subword sw;
	uint64_t offoff, pooloff, bktoff, fsize;
	uint32_t icrc, vcrc;
	int rc, sub = m != NULL && emb_ft_subword(m, &sw) == 0;

	b.vcrc = 0;
	b.ks.dim = emb_wfile_dim(f);
	b.ks.dp = knndp(b.ks.dim);
	if ((b.s = calloc(1, sizeof(*b.s))) == NULL ||
	    posix_memalign((void **)&b.wbuf, DIO_ALIGN, WBUFSZ) != 0) {
		b.wbuf = NULL;
		rc = EMB_ENOMEM;
		goto out;
	}
	/*
	 * The vectors are most of the file and are synced by the caller
	 * anyway: they go straight to the disk (O_DIRECT) where the file
	 * system allows, which costs far less than copying gigabytes into
	 * the page cache and writing them back.  The index, the header and
	 * any write O_DIRECT refuses go through the page cache.
	 */
#ifdef O_DIRECT
	if ((b.fdfl = fcntl(fd, F_GETFL)) >= 0 &&
	    fcntl(fd, F_SETFL, b.fdfl | O_DIRECT) == 0)
		b.direct = 1;
#endif
	/* Placeholder headers; the real ones are written last. */
	memset(b.wbuf, 0, hdrsize(sub));
	b.wlen = b.crcd = hdrsize(sub);
	if ((rc = readall(&b, f, limit, progress, arg, st)) < 0 ||
	    (rc = flushvec(&b, 0, 0)) < 0)
		goto out;
	vcrc = b.vcrc;
	if (sub) {
		/* The subword rows follow the vectors, with their own crc. */
		size_t rowb = b.s->stride * 4;

		b.s->hassub = 1;
		b.vcrc = 0;
		for (uint32_t i = 0; i < sw.bucket; i++) {
			if (b.wlen + rowb > WBUFSZ &&
			    (rc = flushvec(&b, 0, 0)) < 0)
				goto out;
			putsubrow(b.wbuf + b.wlen, sw.row(sw.arg, i), sw.dim,
			    b.s->stride);
			if ((rc = ksec_row(&b.ks, b.wbuf + b.wlen)) < 0)
				goto out;
			b.wlen += rowb;
		}
		if ((rc = flushvec(&b, 0, 0)) < 0)
			goto out;
		mksubheader(h + EMB_STORE_HEADER, sw.minn, sw.maxn,
		    sw.bucket, b.vcrc);
	}
	nodirect(&b);
	if ((rc = flushvec(&b, 1, 0)) < 0 || (rc = ksec_write(&b.ks, fd)) < 0 ||
	    (rc = rows_write(&b.ks, fd)) < 0 ||
	    (rc = writeindex(b.s, fd, &icrc)) < 0)
		goto out;
	layout(sub, b.s->count, b.s->stride, sub ? sw.bucket : 0,
	    knnsize(b.s->dim, b.s->count) + rowssize(b.s->count, sub ?
	    sw.bucket : 0), b.s->poolsz, b.s->nb, &offoff, &pooloff, &bktoff,
	    &fsize);
	mkheader(h, b.s, fsize, icrc, vcrc);
	if (pwrite(fd, h, hdrsize(sub), 0) != (ssize_t)hdrsize(sub))
		rc = EMB_EIO;
out:
	nodirect(&b);
	ksec_free(&b.ks);
	free(b.tag);
	free(b.pword);
	free(b.wbuf);
	emb_store_close(b.s);
	return rc;
}

int
emb_store_write(const struct emb_store *s, int fd)
{
	unsigned char h[EMB_STORE_HEADER + SUBHEADER];
	uint64_t offoff, pooloff, bktoff, fsize;
	uint32_t vcrc = 0, scrc = 0, icrc;
	size_t rowb = s->stride * 4, hsz = hdrsize(s->hassub);
	unsigned char *pad = NULL;
	struct ksec ks = { .dim = s->dim, .dp = knndp(s->dim) };
	int rc = EMB_EIO;

	memset(h, 0, sizeof(h));
	if (emb_writeall(fd, h, hsz) < 0)
		return EMB_EIO;
	/*
	 * Rows are copied into a padded, aligned row first (those in place
	 * may lie at any alignment).
	 */
	if ((pad = emb_alloc(rowb)) == NULL)
		return EMB_ENOMEM;
	memset(pad, 0, rowb);
	for (uint64_t i = 0; i < s->count; i++) {
		const unsigned char *row = memcpy(pad, emb_store_row(s, i),
		    (size_t)s->dim * 4);

		vcrc = emb_crc32(vcrc, row, rowb);
		if ((rc = ksec_add(&ks, (const float *)(const void *)row)) < 0 ||
		    (rc = emb_writeall(fd, row, rowb) < 0 ? EMB_EIO : 0) < 0)
			goto out;
	}
	rc = EMB_EIO;
	/* A store's subword rows are already as stored. */
	for (uint32_t i = 0; s->hassub && i < s->sbucket; i++) {
		const float *row = s->svec + (size_t)i * s->stride;

		scrc = emb_crc32(scrc, row, rowb);
		if ((rc = ksec_row(&ks, row)) < 0)
			goto out;
		rc = EMB_EIO;
		if (emb_writeall(fd, row, rowb) < 0)
			goto out;
	}
	if ((rc = ksec_write(&ks, fd)) < 0 || (rc = rows_write(&ks, fd)) < 0 ||
	    (rc = writeindex(s, fd, &icrc)) < 0)
		goto out;
	rc = EMB_EIO;
	layout(s->hassub, s->count, s->stride, s->hassub ? s->sbucket : 0,
	    knnsize(s->dim, s->count) + rowssize(s->count, s->hassub ?
	    s->sbucket : 0), s->poolsz, s->nb, &offoff, &pooloff, &bktoff,
	    &fsize);
	mkheader(h, s, fsize, icrc, vcrc);
	if (s->hassub)
		mksubheader(h + EMB_STORE_HEADER, s->minn, s->maxn,
		    s->sbucket, scrc);
	if (pwrite(fd, h, hsz, 0) == (ssize_t)hsz)
		rc = 0;
out:
	emb_free(pad);
	ksec_free(&ks);
	return rc;
}
