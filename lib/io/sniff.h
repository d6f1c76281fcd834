/*
 * sniff.h - the test of a word2vec header line (sniff.c), shared by
 * emb_sniff and the embedding-file reader (formats.c).
 */
#ifndef EMB_SNIFF_H
#define EMB_SNIFF_H

#include <stddef.h>
#include <stdint.h>

/*
 * emb_isheader - is the line of len bytes at s two decimal integers, a
 * word2vec header?  @return 1 and sets *a and *b to them, or 0.
 */
int emb_isheader(const unsigned char *s, size_t len, uint64_t *a,
    uint64_t *b);

#endif /* EMB_SNIFF_H */
