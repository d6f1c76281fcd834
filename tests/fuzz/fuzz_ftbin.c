/*
 * fuzz_ftbin.c - fuzz target: a fastText model file (.bin).
 *
 * The input is read twice: as an embedding file from a memory file
 * (emb_wfile_open, the declared matrix sizes checked against the file's
 * size; the checks of wfile.h), and by emb_ft_read from memory, its size
 * unknown, as a pipe is read.  Checks: a model read from the file reads
 * from memory too, with the same words and the same vectors, bit for bit;
 * every word's vector and the subword vectors of a few made-up words
 * (the first word with a byte changed, the input's first bytes) are
 * finite or refused as such, and a word with no n-gram gets the zero
 * vector.
 */
#include <math.h>

#include "wfile.h"

struct mem {
	const uint8_t	*p;
	size_t		 len, at;
};

static int
memget(void *arg, void *dst, size_t n)
{
	struct mem *m = arg;

	if (m->len - m->at < n)
		return 1;
	memcpy(dst, m->p + m->at, n);
	m->at += n;
	return 0;
}

/* A made-up word's subword vector: finite, or zero with no n-gram. */
static void
subword(const struct emb_ft *m, const void *w, size_t n, float *v)
{
	int rc = emb_ft_subvec(m, w, n, v);

	CHECK(rc >= 0 || rc == EMB_ENONFINITE);
	for (uint32_t j = 0; rc >= 0 && j < emb_ft_dim(m); j++)
		CHECK(isfinite(v[j]) && (rc > 0 || v[j] == 0));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mem mm = { data, size, 0 };
	struct emb_ft *m;
	struct wread w;
	char msg[256], word[16];
	float *v;
	int rc;

	w = fuzz_wread(data, size);
	rc = emb_ft_read(&m, memget, &mm, 0, msg, sizeof(msg));
	CHECK(rc <= 0 && rc >= EMB_ELAST);
	CHECK(rc < 0 ? m == NULL && msg[0] != '\0' : m != NULL);
	if (w.rc == 0 && w.format == EMB_WF_FTBIN)
		CHECK(rc == 0 && emb_ft_dim(m) == w.dim &&
		    emb_ft_nwords(m) == w.n);
	if (rc < 0)
		return 0;
	v = malloc((size_t)emb_ft_dim(m) * 4);
	CHECK(v != NULL);
	if (w.rc == 0 && w.format == EMB_WF_FTBIN) {
		uint32_t sum = 0;

		for (uint32_t i = 0; i < emb_ft_nwords(m); i++) {
			size_t len;
			const char *s = emb_ft_word(m, i, &len);

			CHECK(emb_ft_wordvec(m, i, v) >= 1);
			sum = (uint32_t)crc32(sum, (const unsigned char *)s,
			    (uInt)len + 1);
			sum = (uint32_t)crc32(sum, (const unsigned char *)v,
			    emb_ft_dim(m) * 4);
		}
		CHECK(sum == w.sum);
	}
	{
		size_t len;
		const char *s = emb_ft_word(m, 0, &len);

		if (len > sizeof(word))
			len = sizeof(word);
		memcpy(word, s, len);
		word[len - 1] ^= 1;
		subword(m, word, len, v);
		subword(m, data, size < 12 ? size : 12, v);
	}
	free(v);
	emb_ft_free(m);
	return 0;
}
