/*
 * emb-store.h - the public declarations of libemb's floor store, the store: building it and opening it.
 * Programs include emb.h, which holds every floor; a file of the library
 * includes the header of its own floor, which holds the floors below.
 */
#ifndef EMB_FLOOR_STORE_H
#define EMB_FLOOR_STORE_H

#include "num/emb-num.h"

/* ---- the store ---- */

/*
 * The store (store-build.c builds, store.c opens): a file built once
 * from any embedding file, opened with mmap(2) so that it is ready in
 * milliseconds and shared through the page cache.  Words keep the order of the source file; a word seen again
 * is dropped (the first one wins).  Row i is vector i: dim float32, rows
 * 64-byte aligned (stride floats apart).  emb-store(5) specifies the file
 * byte by byte.  The same object also serves a file loaded into memory.
 */
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

/* ---- end of the store ---- */

#endif /* EMB_FLOOR_STORE_H */
