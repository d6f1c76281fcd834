/*
 * emb-io.h - the public declarations of libemb's floor io, input and output: the emb(5) stream (constants, keys, reading,
 * writing, groups, the text view) and the embedding files (reading,
 * NumPy arrays, fastText models, writing).
 * Programs include emb.h, which holds every floor; a file of the library
 * includes the header of its own floor, which holds the floors below.
 */
#ifndef EMB_FLOOR_IO_H
#define EMB_FLOOR_IO_H

#include "base/emb-base.h"

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
#define EMB_KIND_WORDS	8	/* text whose first line holds no number:
				   sentences, a word list */

/* emb_sniff - the EMB_KIND_* of the n bytes at p, an input's first. */
int emb_sniff(const void *p, size_t n);

/*
 * emb_reader_kind - when emb_reader_open failed with EMB_EMAGIC, what
 * the input looked like instead (EMB_KIND_*); EMB_KIND_UNKNOWN otherwise.
 */
int emb_reader_kind(const struct emb_reader *r);

/* Records read so far (VEC and GROUP). */
uint64_t emb_reader_count(const struct emb_reader *r);

/*
 * emb_reader_idle - call fn(ctx) before a read that would wait: the input
 * is not a regular file and nothing comes within ms milliseconds (0: is
 * there now), so that a program answers the records it has before it
 * waits for more.  fn NULL: no call.
 */
void emb_reader_idle(struct emb_reader *r, int ms, void (*fn)(void *),
    void *ctx);

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

/*
 * emb_lines_idle - call fn(ctx) before a read that would wait: the input
 * is not a regular file and nothing comes within ms milliseconds (0: is
 * there now), so that a program answers the lines it has before it waits
 * for more (a terminal, a slow pipe).  fn NULL: no call.
 */
void emb_lines_idle(struct emb_lines *l, int ms, void (*fn)(void *),
    void *ctx);

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

/*
 * emb_writer_flush - write the whole records buffered so far, no trailer:
 * a reader downstream gets them now (emb_lines_idle).  @return 0 or
 * EMB_EIO (sticky, as every write error).
 */
int emb_writer_flush(struct emb_writer *w);

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

/* ---- embedding formats ---- */
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
/* The first 8 bytes of a store (emb-store(5)), which a reader recognises. */
#define EMB_STORE_MAGIC	"\x89" "EMS\r\n\x1a\n"	/* 8 bytes */

/* ---- end of embedding formats ---- */

#endif /* EMB_FLOOR_IO_H */
