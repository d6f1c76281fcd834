/*
 * access.h - what the floors above the store may ask of one beyond
 * emb.h (its layout, its search section, its row checksums), and loading
 * one from an embedding file: store.c and store-build.c define them.
 */
#ifndef EMB_ACCESS_H
#define EMB_ACCESS_H

#include <stddef.h>
#include <stdint.h>

#include "store/emb-store.h"

/*
 * emb_store_load - read the embedding file f into a store in memory,
 * keeping at most limit words (0: all) and stopping there.
 * @return 0 and *sp (free with emb_store_close), or the code of the file
 * (see emb_wfile_next; the message is emb_wfile_msg(f)), EMB_ENOMEM,
 * EMB_ELIMIT (more than 2^31 - 1 words or 4 GiB of word bytes).
 */
int emb_store_load(struct emb_store **sp, struct emb_wfile *f,
    uint64_t limit, emb_progress_fn *progress, void *arg,
    struct emb_store_stats *st);

/*
 * emb_store_write - write the store s (loaded or opened) on fd as a store
 * file.  @return 0, EMB_EIO or EMB_ENOMEM.
 */
int emb_store_write(const struct emb_store *s, int fd);

/* Floats from one row to the next (a multiple of 16, >= dim). */
size_t emb_store_stride(const struct emb_store *s);

struct knn_sect;

/*
 * emb_store_sect - the search section of store s (codes.h) into *ks,
 * valid while s lives.  @return 0, or -1 when s has none (built before
 * it existed, or a store in memory).
 */
int emb_store_sect(const struct emb_store *s, struct knn_sect *ks);

/*
 * emb_store_file - the descriptor a store file keeps open (until it is
 * closed) and the offset of its rows in it.  @return the descriptor, or
 * -1 for a store in memory.
 */
int emb_store_file(const struct emb_store *s, uint64_t *off);

/*
 * emb_store_rowcrc - the store's row checksums (emb-store(5)): one
 * little-endian u32 a word, or NULL for a store without them.
 */
const unsigned char *emb_store_rowcrc(const struct emb_store *s);

/* emb_store_fail - record msg as store s's error (emb_store_msg). */
void emb_store_fail(struct emb_store *s, const char *msg);

#endif /* EMB_ACCESS_H */
