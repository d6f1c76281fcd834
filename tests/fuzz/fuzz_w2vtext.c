/*
 * fuzz_w2vtext.c - fuzz target: the lines of a word2vec or fastText text
 * file (.vec).
 *
 * The first two input bytes choose the header the harness writes, "N D\n"
 * with N in 1..8 and D in 1..16; the rest is the body, "word x1 ... xD"
 * lines.  Checks: those of wfile.h; a file read to its clean end had the
 * header's dimension and exactly N words; and the line-end tolerance the
 * format needs: the body with CRLF line ends, and with a space before each
 * line end of a non-empty line (as fastText writes), reads the same (when
 * the body has no CR of its own).
 */
#include <stdio.h>

#include "wfile.h"

enum { ASIS, CRLF, SPACE };

/* The file: header h (hl bytes), the body with its line ends as mode says. */
static struct wread
variant(const char *h, size_t hl, const uint8_t *body, size_t n, int mode)
{
	struct wread w;
	unsigned char *file, *p;

	if ((file = malloc(hl + 2 * n + 2)) == NULL)
		abort();
	memcpy(file, h, hl);
	p = file + hl;
	for (size_t i = 0; i < n; i++) {
		if (body[i] == '\n') {
			if (mode == CRLF)
				*p++ = '\r';
			else if (mode == SPACE && i > 0 && body[i - 1] != '\n')
				*p++ = ' ';
		}
		*p++ = body[i];
	}
	w = fuzz_wread(file, (size_t)(p - file));
	free(file);
	return w;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wread w, v;
	char h[32];
	unsigned words, dim;
	size_t hl;

	if (size < 2)
		return 0;
	hl = (size_t)fuzz_w2vheader(h, data, &words, &dim);
	data += 2;
	size -= 2;
	w = variant(h, hl, data, size, ASIS);
	if (w.rc == 0) {
		CHECK(w.format == EMB_WF_W2VBIN || w.format == EMB_WF_W2VTEXT);
		CHECK(w.dim == dim && w.n == words);
	}
	if (memchr(data, '\r', size) != NULL)
		return 0;
	for (int mode = CRLF; mode <= SPACE; mode++) {
		v = variant(h, hl, data, size, mode);
		if (w.format != EMB_WF_W2VTEXT || v.format != EMB_WF_W2VTEXT)
			continue;
		CHECK((v.rc == 0) == (w.rc == 0));
		if (w.rc == 0)
			CHECK(v.n == w.n && v.sum == w.sum);
	}
	return 0;
}
