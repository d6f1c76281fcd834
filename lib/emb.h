/*
 * emb.h - the one public header of libemb.
 *
 * libemb holds what the emb programs share: the emb(5) binary vector stream
 * (reader and writer), keys (TAB-separated, escaped fields), the text view of
 * a stream, the embedding file formats and the native store, and the
 * numerical kernels (OSE, Problem 2, pooling, classifiers).
 *
 * The library never prints and never exits.  Every function that can fail
 * returns 0 (or a count) on success and a negative EMB_E* code on failure;
 * emb_strerror() turns a code into text, and the objects that read input
 * keep a message naming the record or line (emb_reader_msg() and friends).
 */
#ifndef EMB_H
#define EMB_H

#include <stddef.h>
#include <stdint.h>

#define EMB_VERSION	"0.1.0"

/*
 * Stream constants; man/emb.5 is the normative description.
 */
#define EMB_MAGIC	"\x89" "EMB\r\n\x1a\n"	/* 8 bytes, not text */
#define EMB_MAGIC_LEN	8
#define EMB_FORMAT	1		/* format version in the header */
#define EMB_HEADER_LEN	16		/* magic, version, flags, dim */
#define EMB_TRAILER_LEN	13		/* type, record count, crc32 */

#define EMB_DIM_MAX	(1u << 20)	/* largest dimension accepted */
#define EMB_KEY_MAX	(1u << 20)	/* longest key accepted, bytes */
#define EMB_GROUP_MAX	(1u << 28)	/* most members a group may declare */

/* Record types, the first byte of every record. */
#define EMB_REC_VEC	0x56		/* 'V': key and vector */
#define EMB_REC_GROUP	0x47		/* 'G': key and member count */
#define EMB_REC_END	0x45		/* 'E': trailer */

/*
 * Error codes.  All negative; 0 is success.  Ranges are kept per module so
 * that codes stay stable as modules grow.
 */
#define EMB_OK		0
/* general */
#define EMB_EIO		(-1)	/* read or write failed; errno is kept */
#define EMB_ENOMEM	(-2)	/* out of memory */
#define EMB_EINVAL	(-3)	/* invalid argument from the caller */
#define EMB_ELIMIT	(-4)	/* a size read from input exceeds a limit */
/* stream */
#define EMB_EMAGIC	(-10)	/* not an emb stream (bad magic) */
#define EMB_EVERSION	(-11)	/* unsupported format version or flags */
#define EMB_EDIM	(-12)	/* dimension out of range, or changed */
#define EMB_ETRUNC	(-13)	/* input ends inside a record or before the trailer */
#define EMB_ETYPE	(-14)	/* unknown record type */
#define EMB_EKEY	(-15)	/* key too long or badly escaped */
#define EMB_ENONFINITE	(-16)	/* NaN or infinite component */
#define EMB_EGROUP	(-17)	/* group framing broken */
#define EMB_ECOUNT	(-18)	/* trailer record count does not match */
#define EMB_ECRC	(-19)	/* trailer crc32 does not match */
#define EMB_ESYNTAX	(-20)	/* malformed text-view line */
#define EMB_ERANGE	(-21)	/* number out of float32 range */
/* embedding formats and store */
#define EMB_EFORMAT	(-30)	/* malformed embedding file */
#define EMB_EGZIP	(-31)	/* corrupt or truncated gzip data */
#define EMB_ESTORE	(-32)	/* store file corrupt, truncated or changed */
/* numerics */
#define EMB_EZERO	(-40)	/* zero vector where a direction is needed */
#define EMB_ENOSOL	(-41)	/* no solution exists (documented per function) */
#define EMB_EEMPTY	(-42)	/* empty group or empty data set */
#define EMB_ECONVERGE	(-43)	/* iterative method did not converge */
#define EMB_ELAST	(-43)

/* @return a static, non-NULL description of code (any int). */
const char *emb_strerror(int code);

/*
 * Keys.
 *
 * A key is a line of text without its newline: fields separated by TAB.
 * Inside a field the bytes backslash, TAB, LF, CR and NUL are written as
 * the two-byte escapes \\ \t \n \r \0; every other byte, including bytes
 * that are not valid UTF-8, stands for itself.  A key is therefore always
 * printable as one line, and a raw word (any bytes) maps to exactly one
 * field and back.
 */

/*
 * emb_key_check - validate a key: no raw LF, CR or NUL, every backslash
 * starts one of the five escapes, length <= EMB_KEY_MAX.
 * @return 0 or EMB_EKEY.
 */
int emb_key_check(const char *key, size_t len);

/*
 * emb_key_escape - escape the n raw bytes src into dst as one key field.
 * dst must have room for 2 * n bytes; no NUL is appended.
 * @return the number of bytes written.
 */
size_t emb_key_escape(char *dst, const void *src, size_t n);

/*
 * emb_key_unescape - undo emb_key_escape on one field (src, n) into dst,
 * which needs room for n bytes.  dst may equal src.
 * @return the number of bytes written, or EMB_EKEY on a bad escape.
 */
long emb_key_unescape(void *dst, const char *src, size_t n);

/*
 * emb_key_field - find field i (0-based) of key (len bytes).
 * On success stores the field's offset and length.
 * @return 0, or EMB_EINVAL if the key has fewer than i + 1 fields.
 * A key of length 0 has one empty field.
 */
int emb_key_field(const char *key, size_t len, unsigned i,
    size_t *off, size_t *flen);

/* @return the number of fields of key (at least 1). */
unsigned emb_key_nfields(const char *key, size_t len);

/*
 * Float text.
 */

/* Longest text emb_ftoa writes, with its NUL. */
#define EMB_FTOA_MAX	20

/*
 * emb_ftoa - write the shortest decimal text that reads back as exactly f
 * (strtof round trip); "nan", "inf" and "-inf" for non-finite values.
 * @return the length written (without the NUL) to buf[EMB_FTOA_MAX].
 */
int emb_ftoa(char *buf, float f);

/*
 * emb_atof - parse one float32 from s (len bytes, not necessarily NUL
 * terminated): decimal or exponent form as strtof accepts, and nan/inf.
 * Stores the value and the number of bytes used.
 * @return 0, EMB_ESYNTAX when no number starts at s, EMB_ERANGE when it
 * overflows float32.
 */
int emb_atof(const char *s, size_t len, float *f, size_t *used);

/*
 * Stream reading.
 *
 * A reader reads an emb(5) stream from a file descriptor in large blocks.
 * Concatenated streams are read as one (a header may follow a trailer, with
 * the same dimension).  The reader checks the group framing, every length
 * against its limit, the trailer's count and crc32, and (unless allowed)
 * that components are finite.
 */
struct emb_reader;

/* One record, owned by the reader, valid until the next call. */
struct emb_rec {
	int		 type;		/* EMB_REC_VEC or EMB_REC_GROUP */
	const char	*key;		/* key bytes, NUL-terminated */
	size_t		 keylen;	/* key length without the NUL */
	const float	*vec;		/* VEC: dim components, 64-byte aligned */
	uint32_t	 nmemb;		/* GROUP: number of VEC records that follow */
	uint64_t	 recno;		/* 1-based record number in the input */
	uint64_t	 group;		/* 1-based group number, 0 outside groups */
	uint32_t	 member;	/* VEC in a group: 1-based member index */
};

/*
 * emb_reader_open - create a reader on fd and read the first header.
 * name is used in messages (not copied: it must outlive the reader).
 * The reader does not close fd.
 * @return 0 and *rp, or a negative code (*rp is then still set, so that
 * emb_reader_msg() can say what went wrong; free it with emb_reader_free).
 */
int emb_reader_open(struct emb_reader **rp, int fd, const char *name);

/*
 * emb_reader_next - read the next record into *rec.
 * @return 1 for a record, 0 at the clean end of the input (after a valid
 * trailer), or a negative code; after an error every call returns it again.
 */
int emb_reader_next(struct emb_reader *r, struct emb_rec *rec);

/* Dimension of the stream. */
uint32_t emb_reader_dim(const struct emb_reader *r);

/* Allow NaN and infinite components (off by default). */
void emb_reader_allow_nonfinite(struct emb_reader *r, int allow);

/*
 * emb_reader_msg - after an error, a message naming the record, such as
 * "record 17: dimension 300, expected 256" (no input name, no newline).
 * @return a string owned by the reader.
 */
const char *emb_reader_msg(const struct emb_reader *r);

/* Records read so far (VEC and GROUP). */
uint64_t emb_reader_count(const struct emb_reader *r);

/* Free a reader; NULL is a no-op. */
void emb_reader_free(struct emb_reader *r);

/*
 * Stream writing.
 *
 * A writer buffers whole records and writes them in large blocks; a record
 * reaches the file descriptor only once it is complete.  emb_writer_close()
 * writes the trailer.  A program that fails frees the writer without closing
 * it, so that the next stage sees a truncated stream, never a short one.
 */
struct emb_writer;

/*
 * emb_writer_open - create a writer of dimension dim (1..EMB_DIM_MAX) on fd.
 * @return 0 and *wp, or EMB_EDIM, EMB_ENOMEM.
 */
int emb_writer_open(struct emb_writer **wp, int fd, uint32_t dim);

/* Allow NaN and infinite components (off by default). */
void emb_writer_allow_nonfinite(struct emb_writer *w, int allow);

/*
 * emb_write_vec - append a VEC record (key of keylen bytes, dim floats).
 * A VEC record written while a group misses members becomes its next
 * member; otherwise it stands outside any group.
 * @return 0, EMB_EKEY, EMB_ENONFINITE, EMB_ENOMEM, EMB_EIO, or EMB_EINVAL
 * after emb_writer_close().
 */
int emb_write_vec(struct emb_writer *w, const char *key, size_t keylen,
    const float *vec);

/*
 * emb_write_group - append a GROUP record announcing nmemb VEC records.
 * @return 0, EMB_EKEY, EMB_ELIMIT, EMB_EGROUP (the previous group still
 * misses members), EMB_ENOMEM, EMB_EIO, or EMB_EINVAL after
 * emb_writer_close().
 */
int emb_write_group(struct emb_writer *w, const char *key, size_t keylen,
    uint32_t nmemb);

/*
 * emb_writer_close - check that no group is open, write the trailer and
 * flush.  Does not free the writer and does not close fd.  A write error
 * is sticky: once EMB_EIO was returned, every later call returns it.
 * @return 0, EMB_EGROUP, EMB_EIO, or EMB_EINVAL when already closed.
 */
int emb_writer_close(struct emb_writer *w);

/* Records written so far (VEC and GROUP). */
uint64_t emb_writer_count(const struct emb_writer *w);

/* Free a writer, dropping anything not yet flushed; NULL is a no-op. */
void emb_writer_free(struct emb_writer *w);

/*
 * Text view (emb-cat).
 *
 * One line per record: the key, a TAB, then either the dim components
 * separated by single spaces (VEC) or '#' and the member count (GROUP).
 */

/* A parsed text-view line; key points into the line. */
struct emb_textrec {
	int		 type;		/* EMB_REC_VEC or EMB_REC_GROUP */
	const char	*key;
	size_t		 keylen;
	uint32_t	 nmemb;		/* GROUP */
	uint32_t	 dim;		/* VEC: components parsed */
};

/*
 * emb_text_parse - parse one text-view line (len bytes, no newline).  A
 * VEC line's components go to vec, which has room for cap floats; dim
 * 0 means any count up to cap.  Non-finite components are refused unless
 * allow_nonfinite.
 * @return 0, EMB_ESYNTAX, EMB_EKEY, EMB_ERANGE, EMB_EDIM (count differs
 * from dim, or exceeds cap; out->dim then holds the count found),
 * EMB_ENONFINITE, EMB_ELIMIT.
 */
int emb_text_parse(const char *line, size_t len, float *vec, uint32_t cap,
    uint32_t dim, int allow_nonfinite, struct emb_textrec *out);

/*
 * emb_text_vec - format a VEC line (key, TAB, components, newline) into
 * buf, which needs keylen + dim * EMB_FTOA_MAX + 2 bytes.
 * @return the number of bytes written.
 */
size_t emb_text_vec(char *buf, const char *key, size_t keylen,
    const float *vec, uint32_t dim);

/*
 * emb_crc32 - continue crc over n bytes, with zlib's crc32() definition and
 * result (start from 0); faster where the CPU allows.
 */
uint32_t emb_crc32(uint32_t crc, const void *buf, size_t n);

/* Aligned allocation for BLIS: 64-byte aligned, free with emb_free(). */
void *emb_alloc(size_t size);
void emb_free(void *p);

/* @return a * b in *res, or EMB_ELIMIT on size_t overflow. */
int emb_mul(size_t a, size_t b, size_t *res);

/* ---- embedding formats and the store (emb-lookup) ---- */

/* ---- end of embedding formats and the store ---- */


/* ---- numerics: OSE, Problem 2, pooling (emb-ose, emb-bov) ---- */

/* ---- end of numerics ---- */


/* ---- classifiers and metrics (emb-eval, emb-knn) ---- */

/* ---- end of classifiers and metrics ---- */

#endif /* EMB_H */
