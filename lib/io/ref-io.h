/*
 * ref-io.h - what only the tests and fuzzers need of floor io: the plain
 * reference twins of its optimized functions and internals no other
 * module uses (ref.h holds every floor's, for the tests).  The files that
 * define them include it too.
 */
#ifndef EMB_REF_IO_H
#define EMB_REF_IO_H

#include <stddef.h>
#include <stdint.h>

#include "io/emb-io.h"

/* emb_writer_count - records w wrote so far (VEC and GROUP; stream.c). */
uint64_t emb_writer_count(const struct emb_writer *w);

/*
 * emb_text_f32 - a number under the text view's rule (emb_text_parse):
 * the longest prefix strtof() takes of the run of number characters
 * "0123456789+-.eEnaifNAIFtyTY" at s, a run of at most 63 bytes; the
 * caller looks at what follows.  So "0x10" there is 0 and then junk, and
 * "1e39x" is out of range.  Stores the value and the bytes used.
 * @return 0, EMB_ESYNTAX when no number starts at s (or its run is
 * longer), EMB_ERANGE when it overflows float32 (text.c).
 */
int emb_text_f32(const char *s, size_t len, float *f, size_t *used);

#endif /* EMB_REF_IO_H */
