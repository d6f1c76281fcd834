/*
 * fuzz_reader.c - fuzz target: the emb(5) stream reader.
 *
 * The input is a stream given to emb_reader_open/next through a memfd, read
 * twice: refusing non-finite components and allowing them.  Besides "no
 * crash, no leak, no undefined behaviour" it checks what a program relies on:
 *
 *   - a record's key is keylen bytes with no NUL and passes emb_key_check;
 *     a VEC record is finite unless allowed; group numbers and member
 *     indexes follow the framing; record numbers count up from 1;
 *   - an error is sticky, has a message, and is a defined code;
 *   - the two readings agree up to the first non-finite record, and a
 *     third, with the vectors left in the reader's buffer and checked by
 *     emb_reader_nonfinite() (emb_reader_next_le), agrees with the first;
 *   - whatever the reader accepts the writer accepts, and a stream that
 *     ended cleanly, written again, reads back as the same records.
 */
#include <math.h>
#include <string.h>
#include <zlib.h>

#include "fuzz.h"
#include "io/key.h"
#include "base/le.h"

#define NOSTOP		UINT64_MAX

/* What one reading saw. */
struct seen {
	int		 rc;		/* 0 clean end, or the error */
	uint64_t	 n;		/* records */
	uint32_t	 crc;		/* over type, key, vector or count */
	uint32_t	 dim;
};

static uint32_t
hashrec(uint32_t crc, const struct emb_rec *rec, uint32_t dim)
{
	unsigned char t = (unsigned char)rec->type;

	crc = (uint32_t)crc32(crc, &t, 1);
	crc = (uint32_t)crc32(crc, (const unsigned char *)rec->key,
	    (uInt)rec->keylen + 1);
	if (rec->type == EMB_REC_VEC)
		return (uint32_t)crc32(crc, (const unsigned char *)rec->vec,
		    dim * 4);
	return (uint32_t)crc32(crc, (const unsigned char *)&rec->nmemb, 4);
}

/*
 * Read the stream on fd; with wfd >= 0 write every record again to it.
 * The reading ends after at most stop records (the crc then covers just
 * those); NOSTOP reads to the end.
 */
static struct seen
readall(int fd, int allow, int wfd, uint64_t stop)
{
	struct emb_reader *r;
	struct emb_writer *w = NULL;
	struct emb_rec rec;
	struct seen s = { 0, 0, 0, 0 };
	uint64_t group = 0;
	uint32_t pending = 0, member = 0;
	int rc;

	rc = emb_reader_open(&r, fd, "fuzz");
	if (rc < 0) {
		CHECK(rc >= EMB_ELAST);
		if (r != NULL)
			CHECK(emb_reader_msg(r)[0] != '\0');
		emb_reader_free(r);
		s.rc = rc;
		return s;
	}
	emb_reader_allow_nonfinite(r, allow);
	s.dim = emb_reader_dim(r);
	CHECK(s.dim >= 1 && s.dim <= EMB_DIM_MAX);
	if (wfd >= 0) {
		CHECK(emb_writer_open(&w, wfd, s.dim) == 0);
		emb_writer_allow_nonfinite(w, allow);
	}
	while (s.n < stop &&
	    (rc = emb_reader_next(r, &rec)) > 0) {
		CHECK(rc == 1);
		s.n++;
		CHECK(rec.recno == s.n && emb_reader_count(r) == s.n);
		CHECK(rec.key[rec.keylen] == '\0');
		CHECK(strlen(rec.key) == rec.keylen);
		CHECK(emb_key_check(rec.key, rec.keylen) == 0);
		if (rec.type == EMB_REC_VEC) {
			CHECK(rec.vec != NULL && ((uintptr_t)rec.vec & 63) == 0);
			for (uint32_t i = 0; i < s.dim && !allow; i++)
				CHECK(isfinite(rec.vec[i]));
			if (pending > 0) {
				pending--;
				CHECK(rec.group == group &&
				    rec.member == ++member);
			} else
				CHECK(rec.group == 0 && rec.member == 0);
			if (w != NULL)
				CHECK(emb_write_vec(w, rec.key, rec.keylen,
				    rec.vec) == 0);
		} else {
			CHECK(rec.type == EMB_REC_GROUP);
			CHECK(pending == 0 && rec.nmemb <= EMB_GROUP_MAX);
			CHECK(rec.group == ++group && rec.member == 0);
			pending = rec.nmemb;
			member = 0;
			if (w != NULL)
				CHECK(emb_write_group(w, rec.key, rec.keylen,
				    rec.nmemb) == 0);
		}
		s.crc = hashrec(s.crc, &rec, s.dim);
	}
	if (s.n < stop) {
		CHECK(rc <= 0 && rc >= EMB_ELAST);
		s.rc = rc;
		if (rc < 0) {
			/* Sticky, with a message. */
			CHECK(emb_reader_next(r, &rec) == rc);
			CHECK(emb_reader_msg(r)[0] != '\0');
			CHECK(emb_strerror(rc) != NULL);
		} else {
			CHECK(pending == 0);
			CHECK(emb_reader_next(r, &rec) == 0);
			if (w != NULL)
				CHECK(emb_writer_close(w) == 0);
		}
	}
	emb_writer_free(w);
	emb_reader_free(r);
	return s;
}

/*
 * Read the stream on fd as emb-normalize does: vectors left in the
 * reader's buffer, unchecked, and emb_reader_nonfinite() called on each.
 */
static struct seen
readle(int fd)
{
	struct emb_reader *r;
	struct emb_rec rec;
	struct seen s = { 0, 0, 0, 0 };
	const void *le;
	float *v;
	int rc;

	if ((rc = emb_reader_open(&r, fd, "fuzz")) < 0) {
		emb_reader_free(r);
		s.rc = rc;
		return s;
	}
	s.dim = emb_reader_dim(r);
	CHECK((v = malloc((size_t)s.dim * sizeof(float))) != NULL);
	while ((rc = emb_reader_next_le(r, &rec, &le)) > 0) {
		if (rec.type == EMB_REC_VEC) {
			CHECK(le != NULL && rec.vec == NULL);
			if ((rc = emb_reader_nonfinite(r, &rec, le)) < 0)
				break;
			emb_getf32s(v, le, s.dim);
			rec.vec = v;
		} else
			CHECK(le == NULL);
		s.n++;
		s.crc = hashrec(s.crc, &rec, s.dim);
	}
	s.rc = rc;
	if (rc < 0)
		CHECK(emb_reader_next_le(r, &rec, &le) == rc);
	free(v);
	emb_reader_free(r);
	return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen strict, lax, again;
	int fd, wfd;

	/* Refusing non-finite values; a clean stream is written again. */
	fd = fuzz_memfile(data, size);
	wfd = memfd_create("fuzz-out", 0);
	CHECK(wfd >= 0);
	strict = readall(fd, 0, wfd, NOSTOP);
	if (strict.rc == 0) {
		CHECK(lseek(wfd, 0, SEEK_SET) == 0);
		again = readall(wfd, 0, -1, NOSTOP);
		CHECK(again.rc == 0 && again.n == strict.n &&
		    again.crc == strict.crc);
	}
	close(wfd);

	/* Vectors left in place and checked by the caller: the same. */
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	again = readle(fd);
	CHECK(again.rc == strict.rc && again.n == strict.n &&
	    again.crc == strict.crc);

	/* Allowing them: the same records, at least as far. */
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	if (strict.rc == EMB_ENONFINITE) {
		lax = readall(fd, 1, -1, strict.n);
		CHECK(lax.n == strict.n && lax.crc == strict.crc);
	} else {
		lax = readall(fd, 1, -1, NOSTOP);
		CHECK(lax.rc == strict.rc && lax.n == strict.n &&
		    lax.crc == strict.crc);
	}
	close(fd);
	return 0;
}
