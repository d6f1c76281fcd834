/*
 * fuzz_w2vbin.c - fuzz target: the records of a word2vec binary file.
 *
 * The first two input bytes choose the header the harness writes, "N D\n"
 * with N in 1..8 and D in 1..16; the rest is the body: per entry a word, a
 * space and D little-endian float32, with or without a newline after the
 * vector.  So the fuzzer spends its time in the records, not on finding a
 * header.  Checks: those of wfile.h, and a file read to its clean end had
 * the header's dimension and exactly N words.
 */
#include <stdio.h>

#include "wfile.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wread w;
	unsigned char *file;
	unsigned words, dim;
	int h;

	if (size < 2)
		return 0;
	if ((file = malloc(size + 32)) == NULL)
		abort();
	h = fuzz_w2vheader((char *)file, data, &words, &dim);
	memcpy(file + h, data + 2, size - 2);
	w = fuzz_wread(file, (size_t)h + size - 2);
	if (w.rc == 0) {
		CHECK(w.format == EMB_WF_W2VBIN || w.format == EMB_WF_W2VTEXT);
		CHECK(w.dim == dim && w.n == words);
	}
	free(file);
	return 0;
}
