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
 * It declares what the programs use, and nothing else, floor by floor:
 * lib/ is in folders that are floors, each using only the floors below
 * it, and each floor's public declarations are in its emb-FLOOR.h, which
 * includes the one below (a file of the library includes its own floor's;
 * tests/house/floors, in make check, refuses an include or a symbol that
 * reaches up):
 *
 *   base: errors and quoting, aligned memory, hashing and the string
 *	index, the seeded generator, growable arrays, threads, the CPU
 *	probe, crc32, the door to BLAS and LAPACK (err.c, util.c, hash.c,
 *	par.c, cpu.c, crc.c, lapack.c);
 *   io: the stream, emb(5) (its constants, keys, reading, writing,
 *	groups, the text view: stream.c, key.c, text.c, sniff.c), the
 *	input layer (src.c), embedding files, NumPy arrays, fastText models,
 *	writing embedding files, text model files (formats.c, npy.c,
 *	ftbin.c, wformat.c, tmodel.c);
 *   num: pooling, OSE and Problem 2, PCA models, alignment, the int8
 *	codes (vec.c, pool.c, ose.c, qr.c, qrb.c, pca.c, align.c, codes.c);
 *   store: the store (store.c, store-build.c);
 *   knn: nearest neighbours (knn.c, knn-search.c, knn-kern.c,
 *	knn-exact.c, csls.c);
 *   eval: metrics and classifiers (metrics.c, clf.c, clf-*.c),
 *	association tests (bias.c), paired comparisons (paired.c).
 *
 * The library's internals are in its other headers, one per module, in
 * the module's floor (base/cpu.h the dispatcher, base/lapack.h the door
 * to BLAS and LAPACK, io/src.h the input layer, io/fmt.h, num/codes.h the
 * int8 codes of the search, which the store keeps too, store/access.h
 * what the search asks of a store, knn/knn.h, eval/clf.h, ...), and the
 * reference twins and whatever else only the tests call are in each
 * floor's ref-FLOOR.h, all of them in ref.h; no program includes them.
 */
#ifndef EMB_H
#define EMB_H

#include "eval/emb-eval.h"

#endif /* EMB_H */
