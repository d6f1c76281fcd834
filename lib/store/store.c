/*
 * store.c - the native store: an embedding file turned once into a file
 * that opens with one mmap(2), with a hash index over its words; here,
 * opening and reading one (store-build.c builds and writes one; store.h
 * holds the layout both share).
 *
 * Opening reads the header with pread(2) and checks every size against
 * the file's own size before mapping anything, then checks the index's
 * crc32 and structure, so that a truncated or altered store is refused
 * instead of faulting later.
 *
 * The same struct serves a store built in memory straight from an
 * embedding file, for one-off lookups that do not want a store file.
 */
#include "store/emb-store.h"
#include "io/fmt.h"
#include "store/access.h"
#include "base/crc.h"
#include "base/fail.h"
#include "base/hash.h"
#include "base/le.h"
#include "store/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Record an error of s and its message. */
#define sfail(s, code, ...) \
	emb_fail((s)->msg, sizeof((s)->msg), (code), __VA_ARGS__)

int64_t
emb_store_lookup(const struct emb_store *s, const void *word, size_t len)
{
	int64_t idx;

	emb_index_probe_inline(s->bkt, NULL, s->nb, emb_hash_inline(word,
	    len), word, len, wordkey, s, &idx);
	return idx;
}

const float *
emb_store_vector(const struct emb_store *s, uint64_t i)
{
	return s->mrow != NULL ? NULL : s->vec + i * s->stride;
}

const void *
emb_store_row(const struct emb_store *s, uint64_t i)
{
	if (s->mrow != NULL)
		return s->mrow[i];
	return s->vec + i * s->stride;
}

const char *
emb_store_word(const struct emb_store *s, uint64_t i, size_t *len)
{
	*len = s->offs[i + 1] - s->offs[i] - 1;
	return s->pool + s->offs[i];
}

uint32_t
emb_store_dim(const struct emb_store *s)
{
	return s->dim;
}

uint64_t
emb_store_count(const struct emb_store *s)
{
	return s->count;
}

size_t
emb_store_stride(const struct emb_store *s)
{
	return s->stride;
}

const char *
emb_store_msg(const struct emb_store *s)
{
	return s->msg;
}

void
emb_store_close(struct emb_store *s)
{
	if (s == NULL)
		return;
	if (s->map != NULL)
		munmap(s->map, s->mapsz);
	if (s->fd >= 0)
		close(s->fd);
	if (s->mvec != NULL)
		munmap(s->mvec, s->mvecsz);
	free(s->moffs);
	free(s->mpool);
	free(s->mbkt);
	free(s->mrow);
	free(s->okrow);
	free(s);
}


/* A new, empty store in *sp.  @return 0, EMB_ENOMEM or EMB_EVERSION. */
static int
storenew(struct emb_store **sp)
{
	*sp = NULL;
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	return EMB_EVERSION;	/* mapped rows are little-endian floats */
#endif
	if ((*sp = calloc(1, sizeof(**sp))) == NULL)
		return EMB_ENOMEM;
	(*sp)->fd = -1;
	return 0;
}

/*
 * Check the search section's header at offset at of the map and point
 * s->knn at its regions (the header's sizes must be those of the store).
 */
static int
knnmap(struct emb_store *s, uint64_t at)
{
	const unsigned char *h = s->map + at;
	uint64_t rows = striprows(s->count);
	const unsigned char *p = h + KNNHEADER;

	if (emb_le32(h + 60) != emb_crc32(0, h, 60))
		return sfail(s, EMB_ESTORE, "search section checksum "
		    "mismatch");
	for (int i = 24; i < 60; i++)
		if (h[i] != 0)
			return sfail(s, EMB_ESTORE, "search section header "
			    "out of range");
	if (emb_le32(h) != KNN_KIND || emb_le32(h + 4) != knndp(s->dim) ||
	    emb_le64(h + 8) != rows)
		return sfail(s, EMB_ESTORE, "search section header out of "
		    "range");
	s->hasknn = 1;
	s->knn.dp = knndp(s->dim);
	s->knn.rows = rows;
	s->knn.codes = s->knn.dp > 0 ? p : NULL;
	p += rows * s->knn.dp;
	s->knn.nrm = (const double *)(const void *)p;
	s->knn.cs = (const float *)(const void *)(p + rows * 8);
	s->knn.ce = (const float *)(const void *)(p + rows * 12);
	s->kccrc = emb_le32(h + 16);
	s->ktcrc = emb_le32(h + 20);
	return 0;
}

/*
 * Check the row checksums' header at offset at of the map (it must cover
 * every row of the store) and point s->rcrc at them.
 */
static int
rowsmap(struct emb_store *s, uint64_t at)
{
	const unsigned char *h = s->map + at;
	uint32_t kind = emb_le32(h);

	if (emb_le32(h + 60) != emb_crc32(0, h, 60))
		return sfail(s, EMB_ESTORE, "row checksums' header checksum "
		    "mismatch");
	for (int i = kind == ROWS_KIND ? 24 : 20; i < 60; i++)
		if (h[i] != 0)
			return sfail(s, EMB_ESTORE, "row checksums' header out "
			    "of range");
	if ((kind != ROWS_KIND && kind != ROWS_KIND1) || emb_le32(h + 4) != 0 ||
	    emb_le64(h + 8) != s->count +
	    (s->hassub ? s->sbucket : 0))
		return sfail(s, EMB_ESTORE, "row checksums' header out of "
		    "range");
	s->rcrc = h + ROWHEADER;
	s->rrcrc = emb_le32(h + 16);
	/* Kind 2: the scales' and errors' own crc32, for the search. */
	s->kscrc = emb_le32(h + 20);
	s->haskscrc = kind == ROWS_KIND;
	/* A bit a row, set once the row is checked (emb_store_check). */
	if ((s->okrow = calloc((s->count + (s->hassub ? s->sbucket : 0)) / 64
	    + 1, sizeof(*s->okrow))) == NULL)
		return sfail(s, EMB_ENOMEM, "%s", emb_strerror(EMB_ENOMEM));
	return 0;
}

int
emb_store_file(const struct emb_store *s, uint64_t *off)
{
	*off = hdrsize(s->hassub);
	return s->fd;
}

int
emb_store_sect(const struct emb_store *s, struct knn_sect *ks)
{
	if (!s->hasknn)
		return -1;
	*ks = s->knn;
	ks->ccrc = s->kccrc;
	ks->tcrc = s->ktcrc;
	ks->secrc = s->kscrc;
	ks->hassecrc = s->haskscrc;
	return 0;
}

const unsigned char *
emb_store_rowcrc(const struct emb_store *s)
{
	return s->rcrc;
}

void
emb_store_fail(struct emb_store *s, const char *msg)
{
	sfail(s, EMB_ESTORE, "%s", msg);
}

/* Check the store file open on fd and map it into s; fd stays open. */
static int
storemap(struct emb_store *s, int fd)
{
	unsigned char h[EMB_STORE_HEADER + SUBHEADER];
	uint64_t count, poolsz, fsize, offoff, pooloff, bktoff, want, used;
	uint64_t sbucket = 0, ksz, rsz, kat;
	uint32_t dim, stride, nb, flags;
	struct stat st;
	ssize_t got;
	int rc;

	if (fstat(fd, &st) < 0) {
		rc = sfail(s, EMB_EIO, "%s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = sfail(s, EMB_EMAGIC, "not a regular file");
		goto out;
	}
	got = pread(fd, h, sizeof(h), 0);
	if (got < 0) {
		rc = sfail(s, EMB_EIO, "%s", strerror(errno));
		goto out;
	}
	if (got < 8 || memcmp(h, EMB_STORE_MAGIC, 8) != 0) {
		rc = sfail(s, EMB_EMAGIC, "not an emb store (bad magic)");
		goto out;
	}
	if (got < EMB_STORE_HEADER) {
		rc = sfail(s, EMB_ESTORE, "truncated header (%zd of %d bytes)",
		    got, EMB_STORE_HEADER);
		goto out;
	}
	if (emb_le32(h + 8) != EMB_STORE_VERSION) {
		rc = sfail(s, EMB_EVERSION, "store version %u, expected %u",
		    emb_le32(h + 8), EMB_STORE_VERSION);
		goto out;
	}
	if (emb_le32(h + 60) != emb_crc32(0, h, 60)) {
		rc = sfail(s, EMB_ESTORE, "header checksum mismatch");
		goto out;
	}
	dim = emb_le32(h + 12);
	count = emb_le64(h + 16);
	stride = emb_le32(h + 24);
	nb = emb_le32(h + 28);
	poolsz = emb_le64(h + 32);
	fsize = emb_le64(h + 40);
	flags = emb_le32(h + 56);
	if (dim == 0 || dim > EMB_DIM_MAX || stride != rowstride(dim) ||
	    count > COUNT_MAX || nb == 0 || (nb & (nb - 1)) != 0 ||
	    nb <= count || poolsz > POOL_MAX || poolsz < 2 * count ||
	    (flags & ~(FLAG_SUB | FLAG_KNN | FLAG_ROWS)) != 0) {
		rc = sfail(s, EMB_ESTORE, "header sizes out of range");
		goto out;
	}
	/*
	 * Row checksums come with a search section: a search without one
	 * would bound its pairs by terms computed from rows never checked.
	 */
	if ((flags & (FLAG_KNN | FLAG_ROWS)) == FLAG_ROWS) {
		rc = sfail(s, EMB_ESTORE, "header flags out of range (row "
		    "checksums without a search section)");
		goto out;
	}
	if (flags & FLAG_SUB) {
		const unsigned char *sh = h + EMB_STORE_HEADER;

		if (got < EMB_STORE_HEADER + SUBHEADER) {
			rc = sfail(s, EMB_ESTORE, "truncated subword header");
			goto out;
		}
		if (emb_le32(sh + 60) != emb_crc32(0, sh, 60)) {
			rc = sfail(s, EMB_ESTORE, "subword header checksum "
			    "mismatch");
			goto out;
		}
		s->minn = (int32_t)emb_le32(sh);
		s->maxn = (int32_t)emb_le32(sh + 4);
		sbucket = emb_le32(sh + 8);
		s->scrc = emb_le32(sh + 12);
		for (int i = 16; i < 60; i++)
			if (sh[i] != 0)
				sbucket = UINT64_MAX;
		if (sbucket > INT32_MAX || s->minn < 0 || s->maxn < 0 ||
		    s->minn > EMB_NGRAM_MAX || s->maxn > EMB_NGRAM_MAX) {
			rc = sfail(s, EMB_ESTORE, "subword header out of "
			    "range");
			goto out;
		}
	}
	/* All of these fit in 64 bits given the limits just checked. */
	ksz = flags & FLAG_KNN ? knnsize(dim, count) : 0;
	rsz = flags & FLAG_ROWS ? rowssize(count, sbucket) : 0;
	layout(flags & FLAG_SUB, count, stride, sbucket, ksz + rsz, poolsz, nb,
	    &offoff, &pooloff, &bktoff, &want);
	kat = offoff - rsz - ksz;
	if (fsize != want) {
		rc = sfail(s, EMB_ESTORE, "header sizes disagree");
		goto out;
	}
	if ((uint64_t)st.st_size != fsize) {
		rc = sfail(s, EMB_ESTORE, "file is %lld bytes, header says "
		    "%llu (truncated or appended to)", (long long)st.st_size,
		    (unsigned long long)fsize);
		goto out;
	}
	if (fsize > SIZE_MAX) {
		rc = sfail(s, EMB_ESTORE, "too large for this host");
		goto out;
	}
	s->mapsz = (size_t)fsize;
	s->map = mmap(NULL, s->mapsz, PROT_READ, MAP_SHARED, fd, 0);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		rc = sfail(s, errno == ENOMEM ? EMB_ENOMEM : EMB_EIO, "mmap: %s",
		    strerror(errno));
		goto out;
	}
	s->dim = dim;
	s->count = count;
	s->stride = stride;
	s->nb = nb;
	s->poolsz = poolsz;
	/* Kept for reading rows without mapping them (knn_row). */
	s->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	s->vec = (const float *)(s->map + hdrsize(flags & FLAG_SUB));
	if (flags & FLAG_SUB) {
		s->hassub = 1;
		s->sbucket = (uint32_t)sbucket;
		s->svec = s->vec + count * stride;
	}
	s->offs = (const uint32_t *)(s->map + offoff);
	s->pool = (const char *)(s->map + pooloff);
	s->bkt = (const uint32_t *)(s->map + bktoff);
	s->vcrc = emb_le32(h + 52);
	if ((flags & FLAG_KNN) && (rc = knnmap(s, kat)) < 0)
		goto out;
	if ((flags & FLAG_ROWS) && (rc = rowsmap(s, offoff - rsz)) < 0)
		goto out;
	if (emb_crc32(0, s->map + offoff, fsize - offoff) != emb_le32(h + 48)) {
		rc = sfail(s, EMB_ESTORE, "index checksum mismatch (store "
		    "modified or damaged)");
		goto out;
	}
	/*
	 * The checksum says the index is as written; the structure check
	 * makes sure that even a forged one cannot send a reader out of
	 * bounds or round the buckets forever.
	 */
	if (s->offs[0] != 0 || s->offs[count] != poolsz) {
		rc = sfail(s, EMB_ESTORE, "bad word offsets");
		goto out;
	}
	for (uint64_t i = 0; i < count; i++)
		if (s->offs[i + 1] <= s->offs[i] ||
		    s->offs[i + 1] > poolsz ||
		    s->pool[s->offs[i + 1] - 1] != '\0') {
			rc = sfail(s, EMB_ESTORE, "bad word offset %llu",
			    (unsigned long long)i);
			goto out;
		}
	used = 0;
	for (uint32_t i = 0; i < nb; i++) {
		if (s->bkt[i] > count) {
			rc = sfail(s, EMB_ESTORE, "bad bucket %u", i);
			goto out;
		}
		used += s->bkt[i] != 0;
	}
	if (used != count) {
		rc = sfail(s, EMB_ESTORE, "%llu buckets used for %llu words",
		    (unsigned long long)used, (unsigned long long)count);
		goto out;
	}
	rc = 0;
out:
	return rc;
}

int
emb_store_open(struct emb_store **sp, const char *path)
{
	int fd, rc;

	if ((rc = storenew(sp)) < 0)
		return rc;
	if ((fd = open(path, O_RDONLY)) < 0)
		return sfail(*sp, EMB_EIO, "%s", strerror(errno));
	rc = storemap(*sp, fd);
	close(fd);
	return rc;
}

int
emb_store_fdopen(struct emb_store **sp, int fd)
{
	int rc;

	if ((rc = storenew(sp)) < 0)
		return rc;
	return storemap(*sp, fd);
}

int
emb_store_verify(struct emb_store *s)
{
	if (s->map == NULL || s->mrow != NULL)
		return 0;	/* in memory, or checked as it was loaded */
	if (emb_crc32(0, s->vec, s->count * s->stride * 4) != s->vcrc)
		return sfail(s, EMB_ESTORE, "vector checksum mismatch (store "
		    "modified or damaged)");
	if (s->hassub && emb_crc32(0, s->svec, (uint64_t)s->sbucket *
	    s->stride * 4) != s->scrc)
		return sfail(s, EMB_ESTORE, "subword checksum mismatch (store "
		    "modified or damaged)");
	if (s->hasknn && (emb_crc32(0, s->knn.nrm, s->knn.rows * 16) !=
	    s->ktcrc || (s->knn.dp > 0 && emb_crc32(0, s->knn.codes,
	    s->knn.rows * s->knn.dp) != s->kccrc) || (s->haskscrc &&
	    emb_crc32(0, s->knn.cs, s->knn.rows * 8) != s->kscrc)))
		return sfail(s, EMB_ESTORE, "search section checksum mismatch "
		    "(store modified or damaged)");
	if (s->rcrc != NULL && emb_crc32(0, s->rcrc, (s->count + (s->hassub ?
	    s->sbucket : 0)) * 4) != s->rrcrc)
		return sfail(s, EMB_ESTORE, "row checksums' checksum mismatch "
		    "(store modified or damaged)");
	return 0;
}

int
emb_store_check(struct emb_store *s, uint64_t i)
{
	const float *row;
	char q[EMB_QUOTE_BUF];
	size_t len;
	const char *w;

	if (s->rcrc == NULL)
		return 0;
	/* Each row is checked once: a word met again costs a bit test. */
	if (s->okrow[i / 64] >> (i % 64) & 1)
		return 0;
	row = i < s->count ? s->vec + i * s->stride :
	    s->svec + (i - s->count) * s->stride;
	if (emb_crc32(0, row, (size_t)s->dim * 4) ==
	    emb_le32(s->rcrc + 4 * i)) {
		s->okrow[i / 64] |= (uint64_t)1 << (i % 64);
		return 0;
	}
	s->damaged = 1;
	if (i >= s->count)
		return sfail(s, EMB_ESTORE, "subword row %llu: checksum "
		    "mismatch (store modified or damaged)",
		    (unsigned long long)(i - s->count));
	w = emb_store_word(s, i, &len);
	return sfail(s, EMB_ESTORE, "word %llu '%s': vector checksum mismatch "
	    "(store modified or damaged)", (unsigned long long)i + 1,
	    emb_quote(q, w, len));
}

int
emb_store_damaged(const struct emb_store *s)
{
	return s->damaged;
}

/* The row of bucket id in a store's subword section. */
static const float *
storerow(const void *arg, uint32_t id)
{
	struct emb_store *s = (struct emb_store *)(uintptr_t)arg;

	/* A damaged row counts as none; the caller asks emb_store_damaged. */
	if (emb_store_check(s, s->count + id) < 0)
		return NULL;
	return s->svec + (size_t)id * s->stride;
}

int
emb_store_subword(const struct emb_store *s, struct emb_subword *sw)
{
	if (!s->hassub)
		return -1;
	sw->minn = s->minn;
	sw->maxn = s->maxn;
	sw->bucket = s->sbucket;
	sw->dim = s->dim;
	sw->row = storerow;
	sw->arg = s;
	return 0;
}
