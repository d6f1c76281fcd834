/*
 * fmt.h - the embedding-file readers' internals, shared inside libemb
 * (formats.c, ftbin.c, npy.c, store.c, store-build.c) and with the tests
 * and fuzzers: entry by entry reading, the mapped word2vec route, the
 * fastText model reader, the store's load and write, and the store's
 * doors for the search (knn.c, knn-search.c).  Programs use emb.h alone.
 */
#ifndef EMB_FMT_H
#define EMB_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "io/emb-io.h"

/*
 * emb_wfile_next - read the next entry.  *word (raw bytes, *len of them,
 * NUL-terminated) and *vec (dim floats, 64-byte aligned) belong to the
 * object and stay valid until the next call.
 * @return 1 for an entry, 0 at the end, or a negative code: EMB_EFORMAT
 * (malformed line or record, wrong value count, short binary record, word
 * count differing from the header, non-finite value), EMB_EGZIP,
 * EMB_EIO, EMB_ENOMEM, EMB_ELIMIT or a stream error for EMB_WF_EMB.
 * After an error every call returns it again; emb_wfile_msg() names the
 * line (text) or record (binary, emb) as "line N: ..." or "record N: ...".
 */
int emb_wfile_next(struct emb_wfile *f, const char **word, size_t *len,
    const float **vec);

/*
 * emb_wfile_read - emb_wfile_next() that stores the vector into vec
 * (room for dim floats, 4-byte aligned; the caller's), saving a copy.
 * vec's content is undefined after an error or at the end.
 */
int emb_wfile_read(struct emb_wfile *f, const char **word, size_t *len,
    float *vec);

/*
 * emb_wfile_mapped - 1 if f is a plain word2vec binary file read through
 * a mapping on a little-endian machine, whose vectors can be used where
 * they lie: emb_wfile_read() then takes a NULL vec, checks the entry
 * without copying it, and emb_wfile_raw() points at its dim
 * little-endian float32 values (any alignment) inside the mapping.
 */
int emb_wfile_mapped(const struct emb_wfile *f);
const void *emb_wfile_raw(const struct emb_wfile *f);

/*
 * emb_wfile_takemap - hand the mapping of a mapped file (and so every
 * pointer emb_wfile_raw() gave) over to the caller, who unmaps it with
 * munmap(p, *size).  f reads nothing more.  @return NULL if not mapped.
 */
void *emb_wfile_takemap(struct emb_wfile *f, size_t *size);

/*
 * Where the model's bytes come from: copy the next n bytes to dst.
 * @return 0, 1 when the input ends first, or a negative code (the
 * callback's owner then holds the message).
 */
typedef int emb_ft_get_fn(void *arg, void *dst, size_t n);

/* Word count in the header, 0 when the format has none. */
uint64_t emb_wfile_declared(const struct emb_wfile *f);
/* Line (text) or record (binary, emb) number of the last entry read. */
uint64_t emb_wfile_where(const struct emb_wfile *f);

uint64_t emb_npy_rows(const struct emb_npy *n);

/*
 * emb_npy_next - the next row as dim floats into vec.  @return 1, 0 at
 * the end (the input ending there too), or a negative code: EMB_ETRUNC,
 * EMB_EFORMAT (bytes after the data), EMB_ENONFINITE, EMB_ERANGE (a
 * float64 beyond float32), EMB_EIO, EMB_ENOMEM.
 */
int emb_npy_next(struct emb_npy *n, float *vec);

/* emb_wfile_ft - the model of an EMB_WF_FTBIN file, still f's; or NULL. */
const struct emb_ft *emb_wfile_ft(const struct emb_wfile *f);

/*
 * emb_ft_read - read a model from its first byte.  total is the file's
 * size when known (its matrices' declared sizes are then checked against
 * it before anything is allocated), else 0; memory grows with the bytes
 * read.  @return 0 and *mp, or a negative code with a message in msg
 * (empty when the callback failed): EMB_EFORMAT (malformed, truncated,
 * quantized), EMB_EVERSION, EMB_EDIM, EMB_ENOMEM, EMB_ELIMIT, or the
 * callback's code.
 */
int emb_ft_read(struct emb_ft **mp, emb_ft_get_fn *get, void *arg,
    uint64_t total, char *msg, size_t msgsz);
uint32_t emb_ft_dim(const struct emb_ft *m);
uint32_t emb_ft_nwords(const struct emb_ft *m);
/* Word i (< nwords), NUL-terminated, *len bytes. */
const char *emb_ft_word(const struct emb_ft *m, uint32_t i, size_t *len);
/*
 * The vector of word i (< nwords), or of an unknown word (len raw bytes;
 * the zero vector when it has no n-gram), into v (dim floats).
 * @return the number of rows averaged, or EMB_ENONFINITE when the mean
 * overflows.
 */
int emb_ft_wordvec(const struct emb_ft *m, uint32_t i, float *v);
int emb_ft_subvec(const struct emb_ft *m, const void *word, size_t len,
    float *v);

#endif /* EMB_FMT_H */
