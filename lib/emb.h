/*
 * emb.h - the one public header of libemb.
 *
 * libemb holds what the emb programs share: the emb(5) binary vector stream
 * (reader and writer), keys (TAB-separated, escaped fields), the text view of
 * a stream, the embedding file formats and the native store, and the
 * numerical kernels (OSE, Problem 2, pooling, classifiers, association
 * tests).
 *
 * The library never prints and never exits.  Every function that can fail
 * returns 0 (or a count) on success and a negative EMB_E* code on failure;
 * emb_strerror() turns a code into text, and the objects that read input
 * keep a message naming the record or line (emb_reader_msg() and friends).
 *
 * It declares what the programs use, and nothing else, in layers, each
 * marked below by a banner and using only the layers above it:
 *
 *   basics: errors and quoting, aligned memory, hashing and the string
 *	index, the seeded generator, growable arrays, threads (err.c,
 *	util.c, hash.c, par.c);
 *   the stream, emb(5): its constants, keys, reading, writing, groups and
 *	the text view (stream.c, key.c, text.c; emb_sniff in sniff.c);
 *   embedding formats and the store: embedding files, NumPy arrays,
 *	fastText models, writing embedding files, the store (formats.c,
 *	npy.c, ftbin.c, wformat.c, store.c, store-build.c);
 *   numerics: pooling, OSE and Problem 2, PCA models, alignment (pool.c,
 *	vec.c, ose.c, qr.c, qrb.c, pca.c, align.c, tmodel.c);
 *   nearest neighbours (knn.c, knn-search.c, knn-kern.c, knn-exact.c,
 *	csls.c);
 *   metrics and classifiers (metrics.c, clf.c, clf-*.c);
 *   association tests (bias.c);
 *   paired comparisons (paired.c).
 *
 * The library's internals are in its other headers, one per module
 * (src.h the input layer, cpu.h the dispatcher, lapack.h the door to
 * BLAS and LAPACK, fmt.h, knn.h, qr.h, clf.h, le.h, text.h, ...; codes.h
 * the int8 codes of the search, which the store keeps too, below both),
 * and the reference twins and whatever else only the tests call are in
 * ref.h; no program includes them.
 */
#ifndef EMB_H
#define EMB_H

#include <stddef.h>
#include <stdint.h>

#define EMB_VERSION	"0.1.0"

/* ---- basics: errors, memory, hashing, randomness, threads ---- */

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
 * emb_quote - input bytes as a message may show them: at most
 * EMB_QUOTE_IN bytes of src (n long), printable ASCII as it is, a
 * backslash or quote as \\ \', TAB, LF, CR as \t \n \r and every other
 * byte as \xNN, followed by "..." when src was longer.  Hostile input
 * then reaches a terminal neither long nor able to drive it.  dst must
 * hold EMB_QUOTE_BUF bytes; @return dst, NUL-terminated.
 * emb_quotes - the same on a NUL-terminated string (reads at most
 * EMB_QUOTE_IN + 1 bytes of it).
 */
#define EMB_QUOTE_IN	40
#define EMB_QUOTE_BUF	(4 * EMB_QUOTE_IN + 4)
const char *emb_quote(char *dst, const void *src, size_t n);
const char *emb_quotes(char *dst, const char *s);

/* Aligned allocation for BLIS: 64-byte aligned, free with emb_free(). */
void *emb_alloc(size_t size);
void emb_free(void *p);

/* @return a * b in *res, or EMB_ELIMIT on size_t overflow. */
int emb_mul(size_t a, size_t b, size_t *res);

/*
 * Building blocks: hashing, a string index, a seeded generator, growable
 * arrays and a byte buffer, threads (hash.c, par.c).
 *
 * emb_hash - FNV-1a, 64 bits, over n bytes: the one hash of the suite
 * (a store's buckets use it too; emb-store(5)).
 */
uint64_t emb_hash(const void *p, size_t n);

/*
 * An emb_index maps byte strings to entry numbers (< 2^32 - 1); the
 * strings stay with the caller, and key(ctx, i, &len) returns entry i's
 * bytes.  Open addressing, linear probing, entry + 1 in slot
 * hash & (cap - 1), at most half full.  Zero it with emb_index_init().
 */
typedef const char *emb_keyfn(const void *ctx, size_t i, size_t *len);
struct emb_index {
	uint32_t	*slot;		/* entry + 1, 0 free */
	uint32_t	*tag;		/* the low 32 bits of its hash */
	size_t		 cap, n;	/* slots (a power of two), entries */
	emb_keyfn	*key;
	const void	*ctx;
};
void emb_index_init(struct emb_index *x, emb_keyfn *key, const void *ctx);
void emb_index_free(struct emb_index *x);
/* Room for n entries without growing: 0, EMB_ENOMEM or EMB_ELIMIT. */
int emb_index_reserve(struct emb_index *x, size_t n);
/*
 * emb_index_add - enter entry e (its key through key()) unless an entry
 * of the same key is there.  @return 0 when entered, 1 when another was
 * there (its number in *had, unless NULL), EMB_ENOMEM or EMB_ELIMIT.
 */
int emb_index_add(struct emb_index *x, size_t e, size_t *had);
/* @return the entry whose key is the len bytes at s, or -1. */
int64_t emb_index_find(const struct emb_index *x, const void *s, size_t len);

/*
 * Seeded randomness.  The generator is splitmix64 (Steele, Lea and Flood,
 * 2014): the state s starts at the seed; each draw adds 0x9e3779b97f4a7c15
 * to s and returns z ^ (z >> 31), where z = s,
 * z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9,
 * z = (z ^ (z >> 27)) * 0x94d049bb133111eb.
 */
struct emb_rng {
	uint64_t	 s;		/* state */
};

void emb_rng_seed(struct emb_rng *g, uint64_t seed);
uint64_t emb_rng_next(struct emb_rng *g);
/*
 * emb_rng_below - a uniform integer in [0, n), n >= 1: draws x until
 * x < 2^64 - (2^64 mod n), then returns x mod n.
 */
uint64_t emb_rng_below(struct emb_rng *g, uint64_t n);

/*
 * emb_grow - room for need elements of size bytes in the array *pp (a
 * pointer to the array's pointer) whose room is *cap elements: none
 * when *cap >= need, else *cap doubled (from 16) until it holds need and
 * the array reallocated.  The one growable array of the suite.
 * @return 0, or EMB_ENOMEM (the size overflows, or realloc failed; the
 * array and *cap are then as they were).
 */
int emb_grow(void *pp, size_t *cap, size_t need, size_t size);
/*
 * emb_grow_max - emb_grow whose room never passes max elements: the
 * doubling stops at max, so max == need reserves exactly need.  A reader
 * that asks for one element past what it holds thus keeps its room
 * within twice what it has read (or max), never a size the input only
 * declares.
 * @return 0; EMB_ELIMIT when need > max (nothing changed); EMB_ENOMEM
 * as emb_grow.
 */
int emb_grow_max(void *pp, size_t *cap, size_t need, size_t max,
    size_t size);

/*
 * A growable byte buffer (on emb_grow): p holds len bytes and a NUL
 * after them.
 * emb_buf_add appends n bytes: 0 or EMB_ENOMEM.  Zero-initialise it.
 */
struct emb_buf {
	char		*p;
	size_t		 len, cap;
};
int emb_buf_add(struct emb_buf *b, const void *p, size_t n);
/*
 * emb_buf_reserve - room for n more bytes and the NUL after them, at
 * p + len, for a caller that writes them in place, adds n to len and
 * writes the NUL: 0 or EMB_ENOMEM.
 */
int emb_buf_reserve(struct emb_buf *b, size_t n);
void emb_buf_free(struct emb_buf *b);

/*
 * emb_ncpu - the processors online, 1 to EMB_MAXTHREADS: the default of
 * every program's -j.  emb_now - a monotonic clock, in seconds.
 */
#define EMB_MAXTHREADS	256
int emb_ncpu(void);
double emb_now(void);

/*
 * Threads, the one pool of the suite.  emb_par_run runs fn(arg, worker,
 * lane, r0, r1) on every lane of n rows (lane l: rows
 * [n l / nlane, n (l + 1) / nlane)) with emb_par_workers(nt, nlane)
 * workers, the caller one of them (worker 0), the others numbered 1 up,
 * each taking the next lane in turn; lanes depend on the problem only,
 * so a caller that combines lane results in lane order gets the same
 * bits for every thread count.
 */
typedef void emb_lanefn(void *arg, int worker, size_t lane, size_t r0,
    size_t r1);
int emb_par_workers(int nt, size_t nlane);
void emb_par_run(int nt, size_t n, size_t nlane, emb_lanefn *fn, void *arg);

/* ---- end of basics ---- */

/* ---- the stream, emb(5): keys, reading, writing, groups, text view ---- */

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

/*
 * emb_reader_next_into - emb_reader_next(), but a VEC record's components
 * go to vec (dim floats, the caller's), which rec->vec then points to:
 * one copy fewer for a caller that keeps them.  vec's content is
 * undefined after an error.
 */
int emb_reader_next_into(struct emb_reader *r, struct emb_rec *rec,
    float *vec);

/*
 * emb_reader_next_le - emb_reader_next(), but a VEC record's components
 * are neither copied nor checked: *le points at the dim little-endian
 * float32 values in the reader's buffer (any alignment), valid until the
 * next call, and rec->vec is NULL.  The caller checks them, for a filter
 * whose own arithmetic tells (a sum of squares in double is finite if
 * and only if every component is), and calls emb_reader_nonfinite() on a
 * record that fails.
 */
int emb_reader_next_le(struct emb_reader *r, struct emb_rec *rec,
    const void **le);

/*
 * emb_reader_nonfinite - if a component of the VEC record rec, the last
 * emb_reader_next_le() gave (le), is NaN or infinite, put the reader in
 * the error emb_reader_next() would have returned (the same message, the
 * record not counted), and return EMB_ENONFINITE; 0 otherwise.
 */
int emb_reader_nonfinite(struct emb_reader *r, const struct emb_rec *rec,
    const void *le);

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

/*
 * What an input's first bytes look like, so that a message can name the
 * input's real kind when it is not the one expected.
 */
#define EMB_KIND_UNKNOWN 0	/* none of these */
#define EMB_KIND_STREAM	1	/* an emb(5) stream */
#define EMB_KIND_STORE	2	/* an emb-store(5) file */
#define EMB_KIND_GZIP	3	/* gzip data */
#define EMB_KIND_NPY	4	/* a NumPy array (.npy) */
#define EMB_KIND_FTBIN	5	/* a fastText model (.bin) */
#define EMB_KIND_HEADER	6	/* a "count dim" line: word2vec, .vec */
#define EMB_KIND_TEXT	7	/* other text: GloVe, emb-cat's text view */

/* emb_sniff - the EMB_KIND_* of the n bytes at p, an input's first. */
int emb_sniff(const void *p, size_t n);

/*
 * emb_reader_kind - when emb_reader_open failed with EMB_EMAGIC, what
 * the input looked like instead (EMB_KIND_*); EMB_KIND_UNKNOWN otherwise.
 */
int emb_reader_kind(const struct emb_reader *r);

/* Records read so far (VEC and GROUP). */
uint64_t emb_reader_count(const struct emb_reader *r);

/* Free a reader; NULL is a no-op. */
void emb_reader_free(struct emb_reader *r);

/*
 * Text lines: a text input (queries, gold scores, a dictionary, a side
 * file) read in large blocks on the byte source the stream reader sits
 * on, as it is (not inflated).  The reader does not close fd.
 */
struct emb_lines;

/* emb_lines_open - a line reader on fd.  @return 0 or EMB_ENOMEM. */
int emb_lines_open(struct emb_lines **lp, int fd);

/*
 * emb_lines_next - the next line: *line, *len bytes, its LF replaced by
 * a NUL (in the reader's buffer, writable, valid until the next call).
 * @return 1 for a line: one that ended in LF, or the last line of a
 * regular file, which needs none (emb(5), TEXT INPUTS); 2 for a last line
 * without LF from a pipe, FIFO, socket or device, whose writer may have
 * stopped mid-line; 0 at the end of the input; or EMB_EIO (errno set) or
 * EMB_ENOMEM.
 */
int emb_lines_next(struct emb_lines *l, char **line, size_t *len);

/* Free a line reader; NULL is a no-op. */
void emb_lines_free(struct emb_lines *l);

/*
 * emb_copyfd - every byte of fd from written to fd to, in blocks of
 * 64 KiB on the same byte source: a pipe spooled to a file, a spool
 * copied out.  @return 0; EMB_EIO with errno set and *wrote 0 when
 * reading from failed, 1 when writing to failed; or EMB_ENOMEM.
 */
int emb_copyfd(int from, int to, int *wrote);

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
 * emb_write_vecle - emb_write_vec() with the vector given as dim
 * little-endian float32 values at any alignment (a store's row, a mapped
 * file's bytes): copied as they are.
 */
int emb_write_vecle(struct emb_writer *w, const char *key, size_t keylen,
    const void *le);

/*
 * emb_write_vec_unit - emb_write_vec() of vec scaled to unit length, as
 * emb_unit_to() scales it, straight into the output: one pass fewer.  A
 * zero vector is written as it is, and *zero set (0 otherwise).  A vector
 * with a NaN or infinite component is refused with EMB_ENONFINITE before
 * anything is written, or written as it is if the writer allows them.
 */
int emb_write_vec_unit(struct emb_writer *w, const char *key,
    size_t keylen, const float *vec, int *zero);

/*
 * emb_write_vecle_unit - the same for dim little-endian float32 values at
 * any alignment (from emb_reader_next_le).  EMB_ENONFINITE if one is NaN
 * or infinite (and the writer does not allow them): nothing is written.
 */
int emb_write_vecle_unit(struct emb_writer *w, const char *key,
    size_t keylen, const void *vec, int *zero);

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

/* Free a writer, dropping anything not yet flushed; NULL is a no-op. */
void emb_writer_free(struct emb_writer *w);

/*
 * Groups.
 *
 * A composition filter reads its input one group at a time: a GROUP record
 * and its members, or a VEC record outside any group, which is a group of
 * one keyed by its own key.
 */
struct emb_group {
	char		*key;		/* group key, NUL-terminated */
	size_t		 keylen;
	size_t		 keycap;
	float		*v;		/* nmemb x dim, row-major, aligned */
	size_t		 vcap;		/* rows v has room for */
	uint32_t	 nmemb;		/* members read */
	uint32_t	 dim;
	char		*mkey;		/* member keys, each NUL-terminated */
	size_t		 mkeylen;	/* bytes used in mkey */
	size_t		 mkeycap;
	size_t		*moff;		/* nmemb + 1 offsets into mkey */
	uint64_t	 recno;		/* record number of the group's record */
	int		 lone;		/* 1: a VEC record outside any group */
};

/*
 * emb_group_read - read the next group from r into g, which must be zeroed
 * before its first use and is reused across calls.  Member keys are kept
 * only if keepkeys.
 * @return 1 for a group, 0 at the clean end, or the reader's negative code
 * (emb_reader_msg() names the record), or EMB_ENOMEM.
 */
int emb_group_read(struct emb_reader *r, struct emb_group *g, int keepkeys);

/* Free what g holds and zero it; NULL is a no-op. */
void emb_group_free(struct emb_group *g);

/* The key of member i of g (keepkeys), NUL-terminated; length in *len. */
const char *emb_group_mkey(const struct emb_group *g, uint32_t i,
    size_t *len);

/*
 * Float text.
 */

/* Longest text emb_ftoa writes, with its NUL. */
#define EMB_FTOA_MAX	20

/*
 * Text view.
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

/* ---- end of the stream ---- */

/* ---- embedding formats and the store ---- */

/*
 * Embedding files (formats.c).
 *
 * An embedding file maps words to vectors.  emb_wfile_open() recognises its
 * format by content: word2vec binary ("V D\n", then per entry the word, a
 * space and D little-endian float32, with or without a newline after the
 * vector), word2vec or fastText text (the same header line, then "word
 * x1 ... xD" lines), GloVe text (no header: the first line is an entry and
 * tells D), or an emb(5) stream whose VEC records are keyed by the word
 * (first key field; GROUP records are ignored).  Each may be gzip
 * compressed (one or more members).  Text lines may end in CRLF and carry
 * trailing blanks; words are raw bytes up to the first space or TAB.
 */
#define EMB_WF_W2VBIN	1	/* word2vec binary */
#define EMB_WF_W2VTEXT	2	/* word2vec / fastText text with header */
#define EMB_WF_GLOVE	3	/* GloVe text, no header */
#define EMB_WF_EMB	4	/* emb(5) stream */
#define EMB_WF_FTBIN	5	/* fastText model (.bin), see emb_ft_read */

#define EMB_WORD_MAX	65536	/* longest word accepted, bytes */

struct emb_wfile;

/*
 * emb_wfile_open - start reading the embedding file on fd (a file or a
 * pipe; not closed by the library), detect its compression and format and
 * read its header.  name is used in messages and must outlive the object.
 * @return 0 and *fp, or a negative code; *fp is then still set so that
 * emb_wfile_msg() says why (free it with emb_wfile_free()).
 */
int emb_wfile_open(struct emb_wfile **fp, int fd, const char *name);

uint32_t emb_wfile_dim(const struct emb_wfile *f);	/* D */
int emb_wfile_format(const struct emb_wfile *f);	/* EMB_WF_* */
int emb_wfile_gzip(const struct emb_wfile *f);		/* 1 if gzip */
/* Raw bytes read so far and the file size (0 when not a regular file). */
void emb_wfile_progress(const struct emb_wfile *f, uint64_t *done,
    uint64_t *total);
/* The file's sticky error code: 0, or what emb_wfile_next returned. */
int emb_wfile_error(const struct emb_wfile *f);
/* The message of the last error (no file name, no newline). */
const char *emb_wfile_msg(const struct emb_wfile *f);
/* @return a static name for an EMB_WF_* format. */
const char *emb_wfile_fmtname(int format);
/* Free; NULL is a no-op.  Does not close the file descriptor. */
void emb_wfile_free(struct emb_wfile *f);

/*
 * NumPy .npy files (npy.c).  Input: a 2-D array of shape (rows, dim),
 * float32 or float64 in either byte order ('<f4' '>f4' '<f8' '>f8'), C or
 * Fortran order, format version 1.0, 2.0 or 3.0; anything else is
 * refused.  The sizes the header announces are checked before anything
 * is allocated, against the file's size when fd is a regular file; a
 * pipe is read as it comes (a Fortran-order array whole, memory growing
 * with the data read).  Output: emb_npy_header.
 */
struct emb_npy;

/*
 * emb_npy_open - read the header on fd (not closed by the library).  name
 * is used in messages and must outlive the object.  @return 0 and *np, or
 * a negative code; *np is then set (unless EMB_ENOMEM) so that
 * emb_npy_msg() says why.
 */
int emb_npy_open(struct emb_npy **np, int fd, const char *name);
uint32_t emb_npy_dim(const struct emb_npy *n);
/* Let NaN and infinities through (by default they are an error). */
void emb_npy_allow_nonfinite(struct emb_npy *n, int allow);
/*
 * emb_npy_keys - take the rows' keys from the lines of keysfd (escaped
 * keys, one per line, as many as rows; not closed by the library),
 * called keysname in messages (it must outlive the object).
 * emb_npy_nextkey - the next row as dim floats into vec, its key (its
 * line without the LF, valid until the next call) in *key and *keylen
 * and its line number in *lineno.  @return 1, 0 at the end of the rows,
 * or a negative code with emb_npy_msg() naming the .npy or keysname.
 * emb_npy_keysdone - after the end: 0 when the keys end there too, else
 * a negative code and its message.
 */
int emb_npy_keys(struct emb_npy *n, int keysfd, const char *keysname);
int emb_npy_nextkey(struct emb_npy *n, float *vec, const char **key,
    size_t *keylen, unsigned long long *lineno);
int emb_npy_keysdone(struct emb_npy *n);
/* The message of the last error: "name: ...", no newline. */
const char *emb_npy_msg(const struct emb_npy *n);
/* Free; NULL is a no-op. */
void emb_npy_free(struct emb_npy *n);
/*
 * emb_npy_header - the header of a .npy file (version 1.0) of rows x dim
 * float32 values in the host's byte order, C order: EMB_NPY_HDR bytes,
 * padded with spaces and ending in LF.  The rows follow it as they are
 * in memory (the header says their byte order).
 */
#define EMB_NPY_HDR	128
void emb_npy_header(char hdr[EMB_NPY_HDR], uint64_t rows, uint32_t dim);

/*
 * fastText models (ftbin.c).  A model file (.bin) is read whole into
 * memory: its words and input matrix.  As an embedding file
 * (EMB_WF_FTBIN) it gives each word the vector fastText gives it, the
 * mean of its own row and of its character n-grams' rows; an unknown word
 * gets the mean of its n-grams' rows (emb_ft_subvec).
 */
struct emb_ft;

void emb_ft_free(struct emb_ft *m);

/*
 * What an unknown word's vector is built from: the character n-grams of
 * minn to maxn characters, hashed into bucket rows of dim floats; row(arg,
 * id) is the row of bucket id (< bucket), or NULL for an n-gram a pruned
 * model dropped.  Served by a model in memory (emb_ft_subword) and by a
 * store's subword section (emb_store_subword).
 */
#define EMB_NGRAM_MAX	32	/* longest n-gram, characters (minn, maxn) */

struct emb_subword {
	int32_t		 minn, maxn;	/* 0..EMB_NGRAM_MAX */
	uint32_t	 bucket;	/* 0: no n-grams */
	uint32_t	 dim;
	const float	*(*row)(const void *arg, uint32_t id);
	const void	*arg;
};

/*
 * emb_subvec - the vector fastText gives the unknown word (len raw
 * bytes): the mean of its n-grams' rows, the zero vector when it has
 * none, into v (dim floats).  @return the number of rows averaged, or
 * EMB_ENONFINITE when the mean overflows.
 */
int emb_subvec(const struct emb_subword *sw, const void *word, size_t len,
    float *v);
/*
 * emb_ft_subword - the model's n-grams into *sw (valid while m lives).
 * @return 0, or 1 for a model whose buckets were pruned (row() may then
 * return NULL: its n-grams are not one row per bucket).
 */
int emb_ft_subword(const struct emb_ft *m, struct emb_subword *sw);
/*
 * emb_wfile_takeft - hand the model of an EMB_WF_FTBIN file over to the
 * caller (free it with emb_ft_free); f reads nothing more.  @return NULL
 * for another format.
 */
struct emb_ft *emb_wfile_takeft(struct emb_wfile *f);

/*
 * Writing embedding files (wformat.c), as their own tools write them:
 * word2vec binary ("N D\n", then per word the word, a space, D
 * little-endian float32 and a newline, as word2vec does), word2vec text
 * and fastText .vec (the same header, then "word x1 x2 ... xD \n": each
 * value followed by a space, as word2vec and fastText print them) and
 * GloVe text (no header, "word x1 ... xD\n").  Values are emb_ftoa()'s,
 * which read back as the same float32.  An entry is spooled to a file the
 * caller gives until the count is known; words are kept to find repeats.
 * A number names one format among EMB_WF_* and EMB_WO_* alike: the
 * formats both read and written have their EMB_WF_* number, .vec one of
 * its own.
 */
#define EMB_WO_W2VBIN	1	/* word2vec binary (EMB_WF_W2VBIN) */
#define EMB_WO_W2VTEXT	2	/* word2vec text (EMB_WF_W2VTEXT) */
#define EMB_WO_GLOVE	3	/* GloVe text (EMB_WF_GLOVE) */
#define EMB_WO_VEC	6	/* fastText .vec (read as EMB_WF_W2VTEXT) */

/*
 * emb_wword_bad - the offset of the first byte of word (n bytes) that no
 * format can carry: a space, TAB, LF, VT, FF, CR (what C's %s and
 * Python's split() take for separators) or a NUL.  @return it, or -1.
 */
long emb_wword_bad(const void *word, size_t n);

/*
 * emb_wword_bom - does word (n bytes) start with a UTF-8 byte order mark
 * (EF BB BF), which readers strip at the start of a file?  @return 1 or 0.
 */
int emb_wword_bom(const void *word, size_t n);

struct emb_wout;

/*
 * emb_wout_open - a writer of format fmt (EMB_WO_W2VBIN, EMB_WO_W2VTEXT,
 * EMB_WO_GLOVE or EMB_WO_VEC; the readers' EMB_WF_EMB and EMB_WF_FTBIN
 * are refused) and dimension dim, spooling to spool (an empty file open
 * for reading and writing, positioned at 0, the caller's), or, with spool
 * -1, writing nothing until emb_wout_direct(): entries are then only
 * checked and counted (a first pass over an input that can be read
 * twice).
 * @return 0 and *op (free with emb_wout_free), EMB_EINVAL, EMB_EDIM or
 * EMB_ENOMEM.
 */
int emb_wout_open(struct emb_wout **op, int fmt, uint32_t dim, int spool);

/*
 * emb_wout_direct - on a writer opened with spool -1 and no entry yet:
 * write the header of count entries on fd (through gzip if gzip) now, and
 * each entry as it is added, so that no spool is needed.  Adding more than
 * count entries, or finishing with fewer, is EMB_EINVAL.
 * @return 0, EMB_EINVAL, EMB_EIO or EMB_ENOMEM.
 */
int emb_wout_direct(struct emb_wout *o, int fd, int gzip, uint64_t count);

/*
 * emb_wout_add - append an entry: word (n raw bytes) and dim floats.
 * *dup is the 0-based entry that had the same word first, or -1; the
 * entry is written all the same (readers keep the first).
 * @return 0, EMB_EINVAL (an empty word, one over EMB_WORD_MAX bytes, or
 * one emb_wword_bad() refuses), EMB_EFORMAT (the first GloVe line of a
 * file of dimension 1 that would read as a word2vec header, two integers,
 * or a first GloVe word that emb_wword_bom() finds, which readers strip:
 * nothing is written), EMB_EIO (errno kept), EMB_ENOMEM or EMB_ELIMIT
 * (2^32 - 2 entries written already: the words' index is full).
 */
int emb_wout_add(struct emb_wout *o, const void *word, size_t n,
    const float *vec, int64_t *dup);

/*
 * emb_wout_finish - write the file on fd: the header, then the spooled
 * entries, through gzip compression (one member) if gzip; after
 * emb_wout_direct(), the entries still buffered and the end of the gzip
 * member (fd and gzip are then those given to it).  Once only.
 * @return 0, EMB_EINVAL (no file: spool -1 without emb_wout_direct, or
 * fewer entries than it declared), EMB_EIO (errno kept) or EMB_ENOMEM.
 */
int emb_wout_finish(struct emb_wout *o, int fd, int gzip);

/* emb_wout_count - the entries added so far. */
uint64_t emb_wout_count(const struct emb_wout *o);

void emb_wout_free(struct emb_wout *o);

/*
 * The store (store-build.c builds, store.c opens): a file built once
 * from any embedding file, opened with mmap(2) so that it is ready in
 * milliseconds and shared through the page cache.  Words keep the order of the source file; a word seen again
 * is dropped (the first one wins).  Row i is vector i: dim float32, rows
 * 64-byte aligned (stride floats apart).  emb-store(5) specifies the file
 * byte by byte.  The same object also serves a file loaded into memory.
 */
#define EMB_STORE_MAGIC	"\x89" "EMS\r\n\x1a\n"	/* 8 bytes */
#define EMB_STORE_VERSION 1
#define EMB_STORE_HEADER 64

struct emb_store;

/* What a build saw, for its caller's messages. */
struct emb_store_stats {
	uint64_t	 read;		/* entries read from the file */
	uint64_t	 words;		/* distinct words kept */
	uint64_t	 dups;		/* entries dropped as duplicates */
	uint64_t	 dupwhere;	/* line/record of the first duplicate */
	char		 dupword[64];	/* its word (truncated, raw bytes) */
};

/*
 * Progress callback for builds: called every few thousand entries with
 * the file being read and the entries so far.
 */
typedef void emb_progress_fn(void *arg, const struct emb_wfile *f,
    uint64_t entries);

/*
 * emb_store_load_inplace - emb_store_load(), but when f is mapped (see
 * emb_wfile_mapped) its vectors are not copied: the store takes the
 * mapping over and its rows are read where they lie in the file, at any
 * alignment, through emb_store_row() only (emb_store_vector() returns
 * NULL for such a store).  A multi-gigabyte word2vec binary file then
 * loads without as much fresh memory.  Otherwise the same as
 * emb_store_load.
 */
int emb_store_load_inplace(struct emb_store **sp, struct emb_wfile *f,
    uint64_t limit, emb_progress_fn *progress, void *arg,
    struct emb_store_stats *st);

/*
 * emb_store_build - read f and write a store file on fd (a regular file,
 * positioned at 0, empty), vectors streamed to the file as they come,
 * with O_DIRECT where the file system allows it (fd's status flags are
 * restored before returning; the caller still syncs the file).
 * Same arguments and codes as emb_store_load, and EMB_EIO on a write
 * error.  On failure the file content is undefined: build into a
 * temporary name and rename it.
 */
int emb_store_build(int fd, struct emb_wfile *f, uint64_t limit,
    emb_progress_fn *progress, void *arg, struct emb_store_stats *st);

/*
 * emb_store_open - map the store file path read-only and check it:
 * magic, version, header checksum, every size against the file's size
 * (before any page of it is touched), the index checksum and the index's
 * structure, so that a truncated, foreign or modified file is refused
 * rather than crashing a reader.  The vectors' checksum is checked only
 * by emb_store_verify().  A file shrunk by another process while mapped
 * can still raise SIGBUS; replace stores by rename(2).
 * @return 0 and *sp, or EMB_EIO (errno kept), EMB_EMAGIC (not a store),
 * EMB_EVERSION, EMB_ESTORE (corrupt, truncated, changed), EMB_ENOMEM.
 * On failure *sp is still set when possible, for emb_store_msg().
 */
int emb_store_open(struct emb_store **sp, const char *path);
/*
 * emb_store_fdopen - emb_store_open() on the file open for reading on fd,
 * which the caller keeps (the mapping does not need it), so that a path
 * is opened once whatever it turns out to hold.
 */
int emb_store_fdopen(struct emb_store **sp, int fd);

/*
 * emb_store_verify - check the crc32 of the vectors, and of the subword
 * rows if any, too.  @return 0 or EMB_ESTORE.
 */
int emb_store_verify(struct emb_store *s);
/*
 * emb_store_subword - the store's subword section (built from a fastText
 * model) into *sw, valid while s lives.  @return 0, or -1 when the store
 * has none.
 */
int emb_store_subword(const struct emb_store *s, struct emb_subword *sw);

uint32_t emb_store_dim(const struct emb_store *s);
uint64_t emb_store_count(const struct emb_store *s);	/* words */

/*
 * emb_store_lookup - find a word (len raw bytes).
 * @return its index in 0..count-1, or -1 when absent.  O(1) expected.
 */
int64_t emb_store_lookup(const struct emb_store *s, const void *word,
    size_t len);

/*
 * Vector of word i (< count): dim floats, 64-byte aligned, read-only;
 * NULL in a store loaded in place.
 */
const float *emb_store_vector(const struct emb_store *s, uint64_t i);

/*
 * Vector of word i (< count) as dim little-endian float32 values at any
 * alignment (what emb_write_vecle() takes): valid for every store.
 */
const void *emb_store_row(const struct emb_store *s, uint64_t i);

/*
 * Word i (< count): raw bytes, NUL-terminated (a word may itself hold
 * NUL bytes; *len is exact).  Owned by the store.
 */
const char *emb_store_word(const struct emb_store *s, uint64_t i,
    size_t *len);

/*
 * emb_store_check - check row i of s against the checksum the store
 * keeps of it (emb-store(5)): word i's vector (i < count), or subword row
 * i - count.  It reads the row, the first time only (a bit a row marks
 * those found whole), so it is for one thread at a time.  @return 0
 * (also for a store without row checksums, and for one in memory), or
 * EMB_ESTORE, emb_store_msg() naming the row.
 */
int emb_store_check(struct emb_store *s, uint64_t i);
/*
 * emb_store_damaged - whether a check of s failed, emb_store_check's or
 * that of a subword row read through emb_store_subword's row(), which
 * then returns NULL.
 */
int emb_store_damaged(const struct emb_store *s);

/* After a failed open or check: "index checksum mismatch" and the like. */
const char *emb_store_msg(const struct emb_store *s);

/* Unmap or free; NULL is a no-op.  Pointers from the store die with it. */
void emb_store_close(struct emb_store *s);

/* ---- end of embedding formats and the store ---- */

/* ---- numerics: pooling, OSE, Problem 2, PCA, alignment ---- */

/*
 * Pooling.  Each function writes one vector of dim components
 * to out, accumulating in double.
 */
#define EMB_POOL_MEAN	0	/* arithmetic mean: the paper's BOV */
#define EMB_POOL_UNIT	1	/* mean of the unit vectors (fastText) */
#define EMB_POOL_MAX	2	/* componentwise maximum */
#define EMB_POOL_MIN	3	/* componentwise minimum */

/*
 * emb_pool - pool the n rows of v (n x dim, row-major) into out.  wt, if
 * not NULL, holds n weights for EMB_POOL_MEAN and EMB_POOL_UNIT (SIF: the
 * sum of w_i v_i divided by n).  EMB_POOL_UNIT skips zero rows and divides
 * by the number of nonzero rows, as fastText does.  acc is scratch for dim
 * doubles.
 * @return the number of rows that entered the result (0: out is the zero
 * vector), or EMB_EINVAL for an unknown how.
 */
long emb_pool(int how, const float *v, size_t n, uint32_t dim,
    const double *wt, float *out, double *acc);

/*
 * emb_pool_add / emb_pool_end - the same, one row at a time, for callers
 * that stream: add row x with weight w into acc (dim doubles), used being
 * the number of rows that entered so far; emb_pool_end writes the result.
 * @return 1 if the row entered, 0 if not (a zero row for EMB_POOL_UNIT),
 * EMB_EINVAL for an unknown how.
 */
int emb_pool_add(int how, const float *x, uint32_t dim, double w,
    double *acc, long used);
void emb_pool_end(int how, const double *acc, uint32_t dim, long used,
    float *out);

/*
 * emb_unit - scale v (dim floats) to unit length, computed in double.
 * @return 1, or 0 when v is zero (then left as it is).
 */
int emb_unit(float *v, uint32_t dim);

/*
 * OSE (the paper's Proposition, eq. OPT_FINAL) and Problem 2.
 *
 * The members are normalized in double; zero members have no direction
 * and are left out (counted); members with identical components are one
 * (the group is a set).  With u_1..u_N the distinct unit members and S1
 * the span of the differences u_N - u_j, the OSE is the normalized
 * projection of u_N on the orthogonal complement of S1.  S1 is factored by
 * Householder QR with column pivoting (LAPACK dgeqp3 over BLIS); its rank
 * is the number of diagonal entries of R above EMB_OSE_RTOL times the
 * largest and above EMB_OSE_ATOL (differences of unit vectors this short
 * are rounding: members that are positive multiples of one another).  No
 * Gram matrix is formed.  A group of at most 64 members, 4 fewer than dim,
 * whose unit members a bound read off their unpivoted QR shows to be
 * independent (sigma_min above 1e-6) takes a faster route to the same
 * vector: the min-norm x with <u_i, x> = 1, normalized (see emb-ose(1)).
 */
#define EMB_OSE_RTOL	1e-10	/* relative rank tolerance on diag(R) */
#define EMB_OSE_ATOL	1e-12	/* absolute rank tolerance on diag(R) */
#define EMB_OSE_PTOL	1e-10	/* a projection this short is zero */

/* Outcomes (>= 0 return values of emb_ose). */
#define EMB_OSE_OK	0	/* the OSE: unit, equidistant, closest */
#define EMB_OSE_ORTH	1	/* the projection of u_N is zero: every
				 * equidistant vector is orthogonal to all
				 * members (distance 1); x is the same
				 * deterministic choice as in emb_p2 */

/* What emb_ose and emb_p2 tell about a group beside the vector. */
struct emb_ose_info {
	uint32_t	 nzero;		/* zero members left out */
	uint32_t	 ndup;		/* repeated members left out */
	uint32_t	 nuse;		/* distinct nonzero members used */
	uint32_t	 rank;		/* rank of the factored matrix */
	double		 alpha;		/* common cosine distance to members */
	double		 znorm;		/* ||V^t (V V^t)^-1 w|| (Problem 2) */
	double		 resid;		/* P2: residual of an inconsistent
					 * system (0 when consistent) */
};

/* Workspace for the solvers, one per thread. */
struct emb_ose;

/* @return 0 and *op, EMB_EDIM or EMB_ENOMEM. */
int emb_ose_create(struct emb_ose **op, uint32_t dim);
/* NULL is a no-op. */
void emb_ose_free(struct emb_ose *o);

/*
 * emb_ose - the OSE x (dim floats, unit length) of the n rows of v.
 * @return EMB_OSE_OK or EMB_OSE_ORTH with x set and info->alpha the common
 * distance; EMB_EEMPTY when no member is nonzero (n may be 0);
 * EMB_ENOSOL when the differences span R^dim (no equidistant vector:
 * then more than dim distinct directions); EMB_ENOMEM.  On a negative
 * return x is untouched.
 */
int emb_ose(struct emb_ose *o, const float *v, size_t n, float *x,
    struct emb_ose_info *info);

/*
 * emb_p2 - Problem 2 (Proposition P2): a unit x with d(x, v_i) = alpha[i]
 * for the n rows of v, alpha in [0, 2].  With V the unit rows and w_i =
 * 1 - alpha_i, x = z + t x1 where z = V^t (V V^t)^-1 w is the min-norm
 * solution of V x = w (through pivoted QR of V^t), x1 the deterministic
 * unit vector orthogonal to the members (the first coordinate axis whose
 * part outside their span has at least half the average squared length,
 * that part normalized) and t = sqrt(1 - ||z||^2).  info->znorm is ||z||.
 * Dependent members (repeats included) are checked for consistency.
 * @return 0 with x set; EMB_ENOSOL when ||z|| > 1 (the existence test
 * fails), when V x = w is inconsistent (info->resid > 0), or when V has
 * rank dim and ||z|| != 1; EMB_EZERO for a zero member; EMB_EEMPTY for
 * n = 0; EMB_EINVAL for an alpha outside [0, 2].
 */
int emb_p2(struct emb_ose *o, const float *v, size_t n, const double *alpha,
    float *x, struct emb_ose_info *info);

/* Interval kinds of emb_ose_interval. */
#define EMB_IV_RANGE	0	/* every alpha in [lo, hi] */
#define EMB_IV_POINTS	1	/* only alpha = lo and alpha = hi (rank dim) */
#define EMB_IV_ONE	2	/* only alpha = 1 (V x = e inconsistent) */
#define EMB_IV_NONE	3	/* no common distance at all */

/*
 * emb_ose_interval - the common distances alpha a group admits (Remark
 * rm:decrea.dist): with z = V^t (V V^t)^-1 e, lo = max(0, 1 - 1/||z||) and
 * hi = min(2, 1 + 1/||z||).  Zero members are left out, repeats are one.
 * @return the kind (EMB_IV_*) with lo, hi set (both 1 for EMB_IV_ONE),
 * EMB_EEMPTY or EMB_ENOMEM.
 */
int emb_ose_interval(struct emb_ose *o, const float *v, size_t n,
    double *lo, double *hi, struct emb_ose_info *info);

/*
 * PCA post-processing (emb-normalize): mean-centering and removal of the
 * top principal components ("all-but-the-top"; SIF's common component
 * when not centered).
 */
struct emb_pca {
	uint32_t	 dim;
	uint32_t	 ncomp;		/* components removed */
	int		 center;	/* subtract the mean first */
	uint64_t	 count;		/* vectors the model was fitted on */
	double		*mean;		/* dim (zeros when not centered) */
	double		*comp;		/* ncomp x dim, unit rows, largest
					 * variance first */
	double		*work;		/* dim scratch of emb_pca_apply */
};

/* Accumulator for emb_pca_fit: mean and second moments in double. */
struct emb_pcafit;

/*
 * The largest dimension a model is fitted on or read with.  A fit keeps
 * the vectors while fewer than the dimension d have come (memory grows
 * with them) and a d x d matrix of doubles after.
 */
#define EMB_PCA_DIM_MAX	65536

/* @return 0 and *fp, EMB_EDIM (dim 0 or above EMB_PCA_DIM_MAX), EMB_ENOMEM. */
int emb_pcafit_create(struct emb_pcafit **fp, uint32_t dim);
/* Add one vector. @return 0 or EMB_ENOMEM. */
int emb_pcafit_add(struct emb_pcafit *f, const float *v);
/*
 * emb_pcafit_done - the model: the mean (if center) and the ncomp
 * leading eigenvectors of the (centered) second-moment matrix (LAPACK
 * dsyevr; from the n x n Gram matrix while n < dim), each signed so that
 * its largest component is positive (the first of those within a relative
 * 1e-6 of the largest).  Directions of no variance the data leave to
 * choose are unit vectors e_i made orthogonal to the others.  Once only:
 * f is spent.
 * @return 0 and *pp (free with emb_pca_free), EMB_EEMPTY (no vector),
 * EMB_EINVAL (ncomp > dim), EMB_ECONVERGE, EMB_ENOMEM.
 */
int emb_pcafit_done(struct emb_pcafit *f, uint32_t ncomp, int center,
    struct emb_pca **pp);
void emb_pcafit_free(struct emb_pcafit *f);

/*
 * emb_pca_apply - x <- x - mean, minus its projections on the components,
 * in double; out may equal in.  Uses p->work: one thread per model.
 */
void emb_pca_apply(const struct emb_pca *p, const float *in, float *out);

/*
 * emb_pca_project - the coordinates of x - mean on the components, in
 * double, rounded into out[0 .. ncomp - 1] (a 2-D map with two).  Uses
 * p->work.
 */
void emb_pca_project(const struct emb_pca *p, const float *in, float *out);

/*
 * emb_pca_save / emb_pca_load - the model as text (see emb-normalize(1),
 * FILES): exact round trip of every double.  load reports EMB_EFORMAT for
 * a malformed file, with the line number in *line.
 * @return 0, EMB_EIO, EMB_EFORMAT, EMB_ENOMEM.
 */
int emb_pca_save(const struct emb_pca *p, int fd);
int emb_pca_load(struct emb_pca **pp, int fd, unsigned long *line);
void emb_pca_free(struct emb_pca *p);

/*
 * Alignment of two spaces (emb-align): optional normalization steps on
 * each side, then an orthogonal map W fitted on pairs of vectors
 * (Procrustes: W = U V^t for X^t Z = U S V^t, LAPACK dgesdd), applied to
 * a source vector x as the row x W.
 */
#define EMB_ALIGN_DIM_MAX	65536	/* largest dimension on either side */
#define EMB_ALIGN_STEPS_MAX	8	/* normalization steps at most */
#define EMB_ALIGN_UNIT		1	/* a step: scale to unit length */
#define EMB_ALIGN_CENTER	2	/* a step: subtract the space's mean */
/*
 * A model's W is orthogonal to within this: every entry of W W^t - I
 * (W^t W - I when din > dout; Q^t Q - I and G G^t - I when thin), d the
 * larger dimension.
 */
#define EMB_ALIGN_ORTHTOL(d)	((double)(d) * 0x1p-44)

struct emb_align {
	uint32_t	 din, dout;	/* source and target dimensions */
	int		 nsteps;	/* normalization steps, both sides */
	int		 steps[EMB_ALIGN_STEPS_MAX];	/* EMB_ALIGN_* */
	int		 ncenter;	/* of them, center steps */
	uint64_t	 count;		/* pairs of the last fit */
	double		*smean;		/* ncenter x din: source means */
	double		*tmean;		/* ncenter x dout: target means */
	double		*w;		/* din x dout, row-major; NULL: thin */
	/*
	 * The thin form, when w is NULL: W = E + Q_in (G - I) Q_out^t, E the
	 * din x dout identity, Q_in and Q_out the first din and dout rows of
	 * Q (max(din, dout) x rank, orthonormal columns), G orthogonal: the
	 * identity off the span of Q.  rank 0: W = E.
	 */
	uint32_t	 rank;
	double		*q;		/* max(din, dout) x rank, row-major */
	double		*g;		/* rank x rank, row-major */
};

/*
 * emb_align_create - a model with the given steps, zero means and W the
 * identity (ones on the diagonal; thin, of rank 0).  @return 0 and *ap
 * (free with emb_align_free), EMB_EDIM, EMB_EINVAL (a bad step) or
 * EMB_ENOMEM.
 */
int emb_align_create(struct emb_align **ap, uint32_t din, uint32_t dout,
    const int *steps, int nsteps);
void emb_align_free(struct emb_align *a);

/*
 * emb_align_center - the means of the center steps of one side (0 the
 * source, 1 the target) from n vectors (rows at x + r ld), each after the
 * steps before it.  @return 0, EMB_EEMPTY (n = 0 with a center step) or
 * EMB_ENOMEM.
 */
int emb_align_center(struct emb_align *a, int side, const float *x,
    size_t n, size_t ld);

/*
 * emb_align_norm - one vector of side through the first upto steps, in
 * double, into out (din or dout); a zero vector stays zero.
 */
void emb_align_norm(const struct emb_align *a, int side, int upto,
    const float *in, double *out);

/*
 * emb_align_fit - W from n pairs: rows of X (n x din) and Z (n x dout),
 * row-major, already normalized.  With n at least min(din, dout), the
 * SVD of X^t Z and W full; with fewer, W thin, through the QR of the 2n
 * vectors of the pairs (the optimum nearest the identity), or full if
 * that is smaller.  @return 0, EMB_EEMPTY, ECONVERGE or EMB_ENOMEM.
 * emb_align_fitmem - the bytes emb_align_fit allocates for n pairs, at
 * most (UINT64_MAX if that overflows).
 */
int emb_align_fit(struct emb_align *a, const double *X, const double *Z,
    size_t n);
uint64_t emb_align_fitmem(uint32_t din, uint32_t dout, uint64_t n);

/*
 * emb_align_map - n vectors (rows of in) through the steps of side and,
 * for the source (side 0), the map, into out (n x dout floats), in
 * double, each row on its own with up to nthreads threads: the result
 * does not depend on n or nthreads.  @return 0 or EMB_ENOMEM.
 */
int emb_align_map(const struct emb_align *a, int side, const float *in,
    size_t n, float *out, int nthreads);

/*
 * emb_align_save / emb_align_load - the model as text (emb-align(1),
 * FILES), ending in a crc32 line.  load: EMB_ETRUNC (no crc32 line: cut
 * short), EMB_ECRC, EMB_EFORMAT (the line number in *line: a line
 * emb_align_save cannot have written, a NUL byte, a number not as %.17g
 * prints it), EMB_ERANGE (W not orthogonal to within EMB_ALIGN_ORTHTOL,
 * the line in *line), EMB_EIO, EMB_ENOMEM.
 */
int emb_align_save(const struct emb_align *a, int fd);
int emb_align_load(struct emb_align **ap, int fd, unsigned long *line);

/* ---- end of numerics ---- */

/* ---- nearest neighbours ---- */

/*
 * Exact cosine nearest neighbours.
 *
 * A reference set keeps its vectors as they were given, with their norms,
 * int8 codes of their directions and their keys.  A search returns for each
 * query the k references of smallest cosine distance, best first; the
 * distance is the true 1 - cos of the two float32 vectors rounded once to
 * double (1 when either is a zero vector), and equal distances are
 * ordered by reference index: the result depends on the data alone, not
 * on batch size, thread count, BLIS or the CPU's kernel.
 */
struct emb_knn;

/*
 * One neighbour: its cosine distance, 1 - cos rounded once to double and
 * kept within [0, 2], and its reference index.  Neighbours are ordered by
 * that distance, then by reference: two cosines that round to the same
 * distance tie.
 */
struct emb_hit {
	double		 dist;		/* cosine distance */
	uint32_t	 ref;		/* reference index, or EMB_KNN_NONE */
};
#define EMB_KNN_NONE	UINT32_MAX	/* no neighbour in this slot */

/*
 * The search's kernels, which decide how fast, never what: EMB_KNN_FLOAT
 * bounds every pair through float32 GEMM, the others from int8 codes
 * scored in portable C (EMB_KNN_REF), with AVX-VNNI (EMB_KNN_AVXVNNI) or
 * with AVX-512 VNNI (EMB_KNN_AVX512).
 */
enum { EMB_KNN_FLOAT, EMB_KNN_REF, EMB_KNN_AVXVNNI, EMB_KNN_AVX512 };

/* What a search did: pairs in all, bounded from int8 codes or float32
 * GEMM, rescored exactly; the kernel it chose (emb_knn_pathname). */
struct emb_knn_stats {
	uint64_t	 pairs, coded, flt, rescored;
	int		 path;
};

/*
 * emb_knn_create - an empty reference set of dimension dim.
 * @return 0 and *kp (free with emb_knn_free), EMB_EDIM or EMB_ENOMEM.
 */
int emb_knn_create(struct emb_knn **kp, uint32_t dim);

/*
 * emb_knn_store - the reference set of store s, which it takes over
 * (emb_knn_free closes it): every word, keyed by itself escaped as a key
 * field (emb_key_escape), in store order.  Vectors and the search's
 * terms are read where they lie in the map; a store without its search
 * section (built before it existed) has its terms computed now, *quantized
 * then set, with progress(arg, NULL, rows done) now and then.  References
 * cannot be added.  @return 0 and *kp, EMB_ENOMEM, EMB_ELIMIT or
 * EMB_EINVAL (not a mapped store file); s is closed on failure.
 */
int emb_knn_store(struct emb_knn **kp, struct emb_store *s,
    emb_progress_fn *progress, void *arg, int *quantized);

/* Free a reference set; NULL is a no-op. */
void emb_knn_free(struct emb_knn *k);

/*
 * emb_knn_reserve - make room for n references in all (a hint: adding
 * grows the set anyway).  @return 0, EMB_ELIMIT or EMB_ENOMEM.
 */
int emb_knn_reserve(struct emb_knn *k, size_t n);

/*
 * emb_knn_add - append a reference: the key (copied) and the vector
 * (copied as it is, finite).  @return 0, EMB_ELIMIT (more than 2^32 - 2
 * references) or EMB_ENOMEM.
 */
int emb_knn_add(struct emb_knn *k, const char *key, size_t keylen,
    const float *vec);

/* Number of references, and their dimension. */
size_t emb_knn_count(const struct emb_knn *k);
uint32_t emb_knn_dim(const struct emb_knn *k);

/* Key of reference i (NUL-terminated, owned by the set) and its length. */
const char *emb_knn_key(const struct emb_knn *k, size_t i, size_t *len);

/* Vector of reference i as added (dim floats, owned by the set). */
const float *emb_knn_vec(const struct emb_knn *k, size_t i);

/*
 * emb_knn_check - check reference i's vector against its store's
 * checksum of it (emb-store(5)); a set that is no store has none.
 * @return 0, or EMB_ESTORE (emb_knn_msg says which row).
 */
int emb_knn_check(const struct emb_knn *k, size_t i);

/*
 * emb_knn_msg - after a search or check of a store's set returned
 * EMB_ESTORE: the damage it found, "search section checksum mismatch
 * ..." and the like; else "".
 */
const char *emb_knn_msg(const struct emb_knn *k);

/*
 * emb_knn_index - index the references by key field (0-based) for
 * emb_knn_find; references without that field are left out.  Adding a
 * reference drops the index.  @return 0 or EMB_ENOMEM.
 */
int emb_knn_index(struct emb_knn *k, unsigned field);

/*
 * emb_knn_find - the first reference whose indexed field equals word (len
 * bytes, escaped as in keys); emb_knn_find_next - the next one after
 * reference i with the same field.  @return an index, or -1.
 */
int64_t emb_knn_find(const struct emb_knn *k, const char *word, size_t len);
int64_t emb_knn_find_next(const struct emb_knn *k, size_t i);

/*
 * emb_knn_search - the k nearest references of each of nq queries (row i
 * at q + i * ldq, ldq >= dim, any length, finite) into hits[i * k ...],
 * best first; slots beyond the references available hold { INFINITY,
 * EMB_KNN_NONE }.  Optional exclusions: references xref[xoff[i] ..
 * xoff[i + 1]) are never neighbours of query i (xoff NULL: none).  Uses
 * up to nthreads threads; the result does not depend on it.  st (or
 * NULL) receives what the search did.
 * @return 0, EMB_EINVAL or EMB_ENOMEM.
 */
int emb_knn_search(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, const size_t *xoff, const uint32_t *xref,
    unsigned nthreads, struct emb_hit *hits, struct emb_knn_stats *st);

/* The name of a search's kernel (struct emb_knn_stats' path). */
const char *emb_knn_pathname(int path);

/*
 * emb_knn_path_set - the kernel of the searches from now on: path
 * (EMB_KNN_*), or -1 for the processor's best (AVX-512 VNNI, else
 * AVX-VNNI, else float32 GEMM; the portable kernel only when asked).  A
 * kernel the processor lacks means EMB_KNN_FLOAT.  For tests and
 * comparisons: the answers do not depend on it.  Not to be called while
 * a search runs.  @return 0 or EMB_EINVAL (no such kernel).
 */
int emb_knn_path_set(int path);

/*
 * emb_knn_path_byname - the kernel named "float", "ref", "avxvnni" or
 * "avx512" ("c" and "avx2" are older names of "ref" and "avxvnni"), as
 * EMB_KNN_PATH names it (emb-knn(1)).  @return EMB_KNN_*, or -1.
 */
int emb_knn_path_byname(const char *name);

/*
 * emb_knn_meansim - r[i], the mean cosine (1 - distance) of query i to
 * its k nearest references by emb_knn_search (all of them when fewer):
 * CSLS's r_T(x) and r_S(y).  @return 0, EMB_EINVAL (k = 0), EMB_ENOMEM.
 */
int emb_knn_meansim(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, unsigned nthreads, double *r);

/*
 * emb_knn_csls - the k references of largest CSLS(x, y) = 2 cos(x, y) -
 * rq[i] - rref[y] for each query x (row i), best first, ties by reference
 * index, the cosines those of emb_knn_search; hit.dist holds -CSLS.
 * Slots beyond the references hold { INFINITY, EMB_KNN_NONE }.
 * @return 0, EMB_EINVAL or EMB_ENOMEM.
 */
int emb_knn_csls(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, const double *rq, const double *rref,
    unsigned nthreads, struct emb_hit *hits);

/*
 * emb_knn_cosmul - 3CosMul analogies ("a is to b as c is to ?"): for each
 * query i (rows i of a, b and c, stride ldq) the k references y of
 * largest (1 + cos(y, b)) (1 + cos(y, c)) / 4 / ((1 + cos(y, a)) / 2 +
 * 1e-6), gensim's most_similar_cosmul(positive=[b, c], negative=[a]),
 * the cosines those of the vectors as given, exact (1 - the distance
 * emb_knn_search gives), the score in double, ties by reference index;
 * references xref[xoff[i] .. xoff[i + 1]) left out (xoff NULL: none).
 * hit.dist holds -score.  @return 0, EMB_EINVAL or EMB_ENOMEM.
 */
int emb_knn_cosmul(const struct emb_knn *kn, const float *a, const float *b,
    const float *c, size_t nq, size_t ldq, unsigned k, const size_t *xoff,
    const uint32_t *xref, unsigned nthreads, struct emb_hit *hits);

/* ---- end of nearest neighbours ---- */

/* ---- metrics and classifiers ---- */

/*
 * Metrics.  Classes are 0-based indices below ncls; a confusion matrix is
 * ncls x ncls, row-major, rows the true class and columns the predicted one.
 */

/*
 * emb_confusion - count (truth[i], pred[i]) pairs into conf, which the
 * caller zeroes.  @return 0, or EMB_EINVAL if a class is out of range.
 */
int emb_confusion(const int *truth, const int *pred, size_t n, int ncls,
    uint64_t *conf);

/* @return the fraction of the diagonal in conf (0 for an empty matrix). */
double emb_accuracy(const uint64_t *conf, int ncls);

/*
 * emb_macro_f1 - the unweighted mean of the per-class F1 scores over the
 * classes present in the truth or the predictions (a class with neither
 * counts nowhere), F1 = 0 where precision + recall = 0: scikit-learn's
 * f1_score(average="macro").  @return the score (0 for an empty matrix).
 */
double emb_macro_f1(const uint64_t *conf, int ncls);

/*
 * emb_pearson - Pearson's correlation of x and y (n pairs), two-pass in
 * double on each side scaled by a power of two (values up to DBL_MAX
 * neither overflow nor change r).  @return 0 and *r; EMB_EEMPTY for n < 2; EMB_EZERO when either
 * side is constant (the coefficient is undefined).
 */
int emb_pearson(const double *x, const double *y, size_t n, double *r);

/*
 * emb_spearman - Spearman's rho: Pearson's correlation of the average
 * ranks.  @return as emb_pearson, or EMB_ENOMEM.
 */
int emb_spearman(const double *x, const double *y, size_t n, double *rho);

/*
 * emb_interval - the central interval holding level (0 < level < 1) of
 * the n values v (sorted here), in one of two senses, each kept because
 * a program's figures have been published with it; NAN, NAN when n = 0:
 *   EMB_IVL_ORDER   order statistics, k = floor((1 - level) / 2 n)
 *		     (at most n - 1): [v_k, v_(n-1-k)], 0-based (the
 *		     percentile bootstrap of emb_paired_clf, emb_paired_corr);
 *   EMB_IVL_LINEAR  the quantiles at (1 - level) / 2 and (1 + level) / 2,
 *		     each linear between the order statistics around
 *		     h = (n - 1) q, numpy's default (emb-bias's intervals).
 */
enum { EMB_IVL_ORDER, EMB_IVL_LINEAR };
void emb_interval(double *v, size_t n, double level, int method,
    double *lo, double *hi);

/*
 * emb_folds - stratified assignment of n labelled records to k folds.
 * For each class c = 0, 1, ... in turn, the records of class c in input
 * order are shuffled by emb_rng_perm (one generator seeded once with seed,
 * shared by all classes), and the j-th of the shuffled list goes to fold
 * (o + j) mod k, where o is the number of records of the classes before c.
 * Fold sizes therefore differ by at most one and every class is spread
 * evenly.  @return 0, EMB_EINVAL (k < 2 or a class out of range) or
 * EMB_ENOMEM.
 */
int emb_folds(const int *y, size_t n, int ncls, int k, uint64_t seed,
    int *fold);

/*
 * Classifiers.  A classifier is fitted on n training rows X (n x d floats,
 * row-major) with classes y in [0, ncls) and predicts a class per row.
 * Only classes that occur in y are predicted (a class with no examples
 * scores -inf); when y holds one class alone, every kind fits the
 * constant model that predicts it.
 */
enum emb_clf_kind {
	EMB_CLF_KNN,		/* k nearest neighbours, cosine, majority vote */
	EMB_CLF_CENTROID,	/* nearest class mean, Euclidean */
	EMB_CLF_LDA,		/* linear discriminant analysis, lsqr solver */
	EMB_CLF_RIDGE,		/* ridge regression on +-1 targets */
	EMB_CLF_LOGREG,		/* L2 logistic regression, L-BFGS */
	EMB_CLF_MLP		/* one hidden layer, Adam, early stopping */
};

/* LDA shrinkage values that are not a number in [0, 1]. */
#define EMB_SHRINK_NONE	(-1.0)	/* empirical covariance */
#define EMB_SHRINK_AUTO	(-2.0)	/* Ledoit-Wolf on standardized features */

struct emb_clf_opts {
	enum emb_clf_kind kind;
	int		 k;		/* knn: neighbours (5) */
	double		 alpha;		/* ridge: penalty (1.0) */
	double		 shrinkage;	/* lda: [0, 1] or EMB_SHRINK_* */
	double		 C;		/* logreg: inverse penalty (1.0) */
	int		 maxiter;	/* logreg: L-BFGS iterations (1000) */
	double		 tol;		/* logreg: gradient max-norm (1e-4) */
	int		 nhid;		/* mlp: hidden units, 0 = linear (50) */
	double		 l2;		/* mlp: weight decay (1e-4) */
	double		 dropout;	/* mlp: dropout before the sigmoid (0) */
	int		 batch;		/* mlp: batch size (64) */
	int		 tenacity;	/* mlp: epochs without gain before stop (5) */
	int		 epoch_size;	/* mlp: passes per epoch (4) */
	int		 max_epoch;	/* mlp: most passes (200) */
	double		 valfrac;	/* mlp: held-out share without dev (0.05) */
	uint64_t	 seed;		/* mlp: initial weights, batches (1111) */
	int		 dual;		/* lda, ridge: solve in the n x n dual
					   when n < d (0), always (1), never
					   (-1) */
	int		 threads;	/* threads for the large steps (1) */
	double		 parmin;	/* multiply-adds a step needs to take
					   them (2^27) */
};

/* Fill o with the defaults above for the classifier kind. */
void emb_clf_defaults(struct emb_clf_opts *o, enum emb_clf_kind kind);

struct emb_clf;

/*
 * emb_clf_fit - fit a classifier.  X (n x d) and y are only read; a kNN
 * model keeps a normalized copy.  dev (ndev rows, classes ydev) is the
 * early-stopping set of the MLP; NULL draws it from the training rows
 * (valfrac of them, by the seeded generator).  Other kinds ignore it.
 * @return 0 and *cp (free with emb_clf_free), or EMB_EINVAL, EMB_EEMPTY,
 * EMB_ENOMEM, EMB_ENOSOL (LDA or ridge system singular), EMB_ELIMIT (kNN:
 * n x d floats beyond the address space).
 */
int emb_clf_fit(struct emb_clf **cp, const struct emb_clf_opts *o,
    const float *X, size_t n, size_t d, const int *y, int ncls,
    const float *dev, size_t ndev, const int *ydev);

/*
 * emb_clf_predict - classes of the n rows X (n x d, d as fitted) into pred.
 * @return 0 or EMB_ENOMEM.
 */
int emb_clf_predict(const struct emb_clf *c, const float *X, size_t n,
    int *pred);

/* Iterations the fit took (logreg: L-BFGS steps; mlp: passes), else 0. */
int emb_clf_iters(const struct emb_clf *c);

/* Free a classifier; NULL is a no-op. */
void emb_clf_free(struct emb_clf *c);

/* ---- end of metrics and classifiers ---- */

/* ---- association tests ---- */

/*
 * The numbers of emb-bias(1)'s tests (bias.c), whose page gives every
 * formula and the order of every random draw: WEAT (Caliskan et al.
 * 2017), RND (Garg et al. 2018), ECT (Dev and Phillips 2019), MAC
 * (Manzini et al. 2019) and the direction of pairs that RIPA projects on
 * (Ethayarajh et al. 2019).  Each sum is taken in double in the order
 * the page writes it, so that a figure can be redone by hand.
 *
 * The word sets are lists of rows of one float matrix V of dim columns:
 * X and Y the targets, A and B the attributes, a set absent when it has
 * no rows.
 */
enum { EMB_SET_X, EMB_SET_Y, EMB_SET_A, EMB_SET_B, EMB_NSET };
struct emb_wsets {
	const float	*V;		/* the vectors, dim floats a row */
	size_t		 dim;
	const size_t	*row[EMB_NSET];	/* each set's rows of V */
	size_t		 n[EMB_NSET];	/* their counts, 0: absent */
	int		 asis;		/* RND, ECT: the vectors as they are,
					   not of unit length */
};

/* emb_cosf - the cosine of a and b (dim floats); 0 when either is zero. */
double emb_cosf(const float *a, const float *b, size_t dim);

/*
 * emb_weat_assoc - the cosines C (n x m) of the n = |X| + |Y| target
 * words (X, then Y) with the m = |A| + |B| attribute words (A, then B),
 * and each target word's association s(w, A, B), the mean of its row
 * over A less its mean over B, into s (n); 0 when A and B hold the same
 * rows (in any order), not the rounding of sums in two orders.
 * @return 1 when they do, 0 when not, or EMB_ENOMEM.
 */
int emb_weat_assoc(const struct emb_wsets *w, double *C, double *s);

/*
 * emb_weat_effect - WEAT's statistic *stat = sum_X s - sum_Y s of the
 * associations s (X's nx, then Y's ny), and @return its effect size, the
 * difference of the means over the standard deviation of all n (sample:
 * over n - 1, else over n); NAN when that deviation is 0.
 */
double emb_weat_effect(const double *s, size_t nx, size_t ny, int sample,
    double *stat);

/*
 * emb_weat_p - WEAT's one-sided permutation test of the associations s
 * (nx of X, then ny of Y): the partitions (X', Y') of the same sizes
 * whose X'-sum is at least X's, less 8 n eps sum |s| for rounding; all
 * of them, in lexicographic order, when they are at most exactmax, else
 * nperm random ones on a generator seeded with seed.
 */
struct emb_weat_p {
	uint64_t	 parts;		/* C(n, nx), UINT64_MAX above 2^63 */
	int		 exact;		/* all parts were counted */
	uint64_t	 count;		/* partitions counted: parts or nperm */
	uint64_t	 hit;		/* of those, at least the observed */
};
/* @return 0 or EMB_ENOMEM. */
int emb_weat_p(const double *s, size_t nx, size_t ny, uint64_t exactmax,
    uint64_t nperm, uint64_t seed, struct emb_weat_p *r);

/*
 * emb_weat_boot - WEAT's bootstrap over words, from the cosines C of
 * emb_weat_assoc: nboot resamples on a generator seeded with seed, each
 * drawing X, Y, A and B with replacement, in that order; each resample's
 * statistic into bs (nboot), its effect size (as emb_weat_effect with
 * sample) into bd when defined, *nd of them.  @return 0 or EMB_ENOMEM.
 */
int emb_weat_boot(const double *C, size_t nx, size_t ny, size_t na,
    size_t nb, uint64_t nboot, int sample, uint64_t seed, double *bd,
    size_t *nd, double *bs);

/*
 * emb_rnd - RND, the sum over the attribute words a (A, then B) of
 * |a - mean X| - |a - mean Y|, each vector of unit length unless asis.
 * @return 0 and *rnd, or EMB_ENOMEM.
 */
int emb_rnd(const struct emb_wsets *w, double *rnd);

/*
 * emb_ect - ECT, Spearman's rho (emb_spearman) of cos(mean X, a) and
 * cos(mean Y, a) over the attribute words a (A, then B), the means of
 * unit vectors unless asis.  @return as emb_spearman.
 */
int emb_ect(const struct emb_wsets *w, double *rho);

/*
 * emb_mac - MAC, the mean over target words t (X, then Y) and attribute
 * sets S (A, and B if present) of the mean cosine distance 1 - cos(t, a)
 * over a in S.
 */
double emb_mac(const struct emb_wsets *w);

/*
 * emb_unitdiff - the difference a^ - b^ of the unit vectors of a and b
 * (a zero vector staying zero) into d (dim doubles): a pair's difference,
 * whose direction emb_pairdir finds.
 */
void emb_unitdiff(const float *a, const float *b, size_t dim, double *d);

/*
 * emb_ripa - RIPA's projections <x, u> of the words x of set r (as they
 * are) on the direction u into v; @return their mean.
 */
double emb_ripa(const struct emb_wsets *w, int r, const double *u,
    double *v);

/*
 * emb_boot_means - nboot means of n values v drawn with replacement,
 * each index emb_rng_below(g, n), into bm (the bootstrap of a mean).
 */
void emb_boot_means(const double *v, size_t n, uint64_t nboot,
    struct emb_rng *g, double *bm);

/*
 * emb_pairdir - the direction of k pair differences D (k x dim, row i
 * the difference of pair i): their first principal component, not
 * centered, through the eigenvector of the largest eigenvalue of their
 * k x k Gram matrix (LAPACK dsyev), scaled to unit length and signed so
 * that the differences' projections sum to >= 0, into u (dim).
 * @return 0, EMB_EEMPTY (k = 0), EMB_ENOSOL (the eigenvectors did not
 * converge), EMB_EZERO (the differences are all zero) or EMB_ENOMEM.
 */
int emb_pairdir(const double *D, size_t k, size_t dim, double *u);

/* ---- end of association tests ---- */

/* ---- paired comparisons ---- */

/*
 * emb_mcnemar - the exact McNemar test of two classifiers on the same
 * items: b items only the first gets right, c only the second.
 * @return the two-sided p-value min(1, 2 P(X <= min(b, c))), X ~
 * Binomial(b + c, 1/2) (scipy.stats.binomtest(b, b + c).pvalue); 1 when
 * b = c.
 */
double emb_mcnemar(uint64_t b, uint64_t c);

/* emb_student_sf - P(T > t) for Student's t with df degrees of freedom. */
double emb_student_sf(double t, double df);

/*
 * emb_williams - Williams' test (Steiger 1980, eq. 11) that two
 * correlations sharing a variable are equal: r12 (first score against
 * gold), r13 (second against gold), r23 (the two scores), n items.
 * t = (r12 - r13) sqrt((n-1)(1+r23) / (2 (n-1)/(n-3) |R| + rbar^2
 * (1-r23)^3)), |R| = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23, rbar =
 * (r12 + r13)/2, Student's t with n - 3 degrees of freedom.  It assumes
 * normally distributed scores (Pearson's coefficients).
 * @return 0, *t and the two-sided *p; EMB_EINVAL for n < 4, |r23| = 1 or
 * a degenerate matrix.
 */
int emb_williams(double r12, double r13, double r23, size_t n, double *t,
    double *p);

/* What emb_paired_clf finds; differences are first minus second. */
struct emb_paired_clf {
	size_t		 n;		/* items */
	double		 acc_a, acc_b, acc_diff;	/* accuracies */
	double		 acc_lo, acc_hi;	/* bootstrap interval of diff */
	uint64_t	 b, c;		/* only first right, only second */
	double		 mcnemar_p;	/* emb_mcnemar(b, c) */
	double		 f1_a, f1_b, f1_diff;	/* macro-F1, as emb_macro_f1 */
	double		 f1_lo, f1_hi;	/* bootstrap interval of f1_diff */
	double		 f1_p;		/* permutation p-value */
	size_t		 discordant;	/* items the two predict differently */
	uint64_t	 perms;		/* permutations counted */
	int		 exact;		/* all 2^discordant of them */
	uint64_t	 resamples;	/* bootstrap samples */
};

/*
 * emb_paired_clf - two classifiers' predictions pa, pb of the same n
 * items with true classes truth (all in [0, ncls)), compared.
 *
 * Accuracy: the exact McNemar test.  Macro-F1: a paired permutation test;
 * each item where pa and pb differ has its two predictions swapped or not;
 * when 2^m <= nres (m such items) all 2^m assignments are counted (an
 * exact test: p = the share whose |difference| >= the observed one, up to
 * 1e-12 relative), else nres random ones, the discordant items in input
 * order, swapped when the top bit of emb_rng_next (seeded with seed) is
 * set, p = (1 + hits) / (1 + nres).  Intervals: the percentile bootstrap
 * at level (e.g. 0.95): nres samples, each n draws emb_rng_below(n) on a
 * generator seeded with seed + 1; sorted differences d, k = floor((1 -
 * level) / 2 nres), the interval [d_k, d_(nres-1-k)] (0-based).
 * @return 0, EMB_EINVAL (a class out of range, n = 0, nres < 1, level
 * outside (0, 1)) or EMB_ENOMEM.
 */
int emb_paired_clf(const int *truth, const int *pa, const int *pb,
    size_t n, int ncls, long nres, double level, uint64_t seed,
    struct emb_paired_clf *r);

/* The correlation figures emb_paired_corr compares. */
enum {
	EMB_CORR_PEARSON,		/* over all items pooled */
	EMB_CORR_SPEARMAN,
	EMB_CORR_PEARSON_MEAN,		/* mean over subsets */
	EMB_CORR_SPEARMAN_MEAN,
	EMB_CORR_PEARSON_WMEAN,		/* weighted by subset size */
	EMB_CORR_SPEARMAN_WMEAN,
	EMB_CORR_NFIG
};

struct emb_paired_corr {
	size_t		 n;		/* items */
	double		 a[EMB_CORR_NFIG], b[EMB_CORR_NFIG];	/* figures */
	double		 diff[EMB_CORR_NFIG];	/* a - b */
	double		 lo[EMB_CORR_NFIG], hi[EMB_CORR_NFIG];	/* interval */
	double		 p[EMB_CORR_NFIG];	/* bootstrap p-value */
	size_t		 valid[EMB_CORR_NFIG];	/* samples where defined */
	uint64_t	 resamples;
};

/*
 * emb_paired_corr - two similarity scores sa, sb of the same n items
 * against gold, each item in subset sub[i] (0..nsub-1): every figure of
 * the enum above for both (a subset whose correlation is undefined is left
 * out of the means, as emb-eval's STS does; NAN where none is defined),
 * and the difference's percentile interval and p-value by a paired
 * bootstrap stratified by subset: nres samples, each drawing for each
 * subset in turn (0 first) as many of its items as it holds, emb_rng_below
 * of its size on a generator seeded with seed, indexing its items in
 * input order.  Spearman's coefficient of a sample is Pearson's of its
 * average ranks, repeated items counted as often as drawn.  A sample where
 * a figure is undefined is left out of that figure (valid counts the
 * rest).  p = (1 + #{|d* - d| >= |d|}) / (1 + valid): the bootstrap
 * distribution shifted to the null (Efron and Tibshirani 1993, 16.4).
 * The interval is taken as emb_paired_clf's.  The samples are scored on
 * nthreads threads; the figures are the same for every count.
 * @return 0, EMB_EINVAL or EMB_ENOMEM.
 */
int emb_paired_corr(const double *gold, const double *sa, const double *sb,
    const int *sub, size_t n, int nsub, long nres, double level,
    uint64_t seed, int nthreads, struct emb_paired_corr *r);

/* ---- end of paired comparisons ---- */

#endif /* EMB_H */
