/*
 * fuzz_w2vbin.c - fuzz target: the records of a word2vec binary file.
 *
 * The first two input bytes choose the header the harness writes, "N D\n"
 * with N in 1..8 and D in 1..16; the rest is the body: per entry a word, a
 * space and D little-endian float32, with or without a newline after the
 * vector.  So the fuzzer spends its time in the records, not on finding a
 * header.  Checks: those of wfile.h, and a file read to its clean end had
 * the header's dimension and exactly N words; and the file loaded into a
 * store in place (vectors left in the mapped file) equals the file loaded
 * by copying, or both fail with the same code.
 */
#include <stdio.h>

#include "wfile.h"

/* Load (data, len) into a store, in place or not. */
static int
load(const void *data, size_t len, int inplace, struct emb_store **sp,
    struct emb_store_stats *st)
{
	struct emb_wfile *f;
	int fd = fuzz_memfile(data, len), rc;

	*sp = NULL;
	if ((rc = emb_wfile_open(&f, fd, "fuzz")) == 0)
		rc = inplace ? emb_store_load_inplace(sp, f, 0, NULL, NULL,
		    st) : emb_store_load(sp, f, 0, NULL, NULL, st);
	emb_wfile_free(f);
	close(fd);
	return rc;
}

/* Both ways of loading agree, word for word and bit for bit. */
static void
sameload(const void *data, size_t len)
{
	struct emb_store *a, *b;
	struct emb_store_stats sa, sb;
	int ra = load(data, len, 0, &a, &sa), rb = load(data, len, 1, &b, &sb);

	CHECK(ra == rb);
	if (ra == 0) {
		uint64_t n = emb_store_count(a);
		uint32_t dim = emb_store_dim(a);

		CHECK(emb_store_count(b) == n && emb_store_dim(b) == dim);
		CHECK(sa.read == sb.read && sa.dups == sb.dups);
		for (uint64_t i = 0; i < n; i++) {
			size_t la, lb;
			const char *wa = emb_store_word(a, i, &la);
			const char *wb = emb_store_word(b, i, &lb);

			CHECK(la == lb && memcmp(wa, wb, la) == 0);
			CHECK(memcmp(emb_store_row(a, i), emb_store_row(b, i),
			    (size_t)dim * 4) == 0);
			CHECK(emb_store_vector(b, i) == NULL ||
			    emb_store_vector(b, i) == emb_store_row(b, i));
		}
	}
	emb_store_close(a);
	emb_store_close(b);
}

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
	sameload(file, (size_t)h + size - 2);
	free(file);
	return 0;
}
