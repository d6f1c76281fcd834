/*
 * fuzz_store.c - fuzz target: opening a store file (emb_store_open), as
 * emb-lookup does for every pipeline.
 *
 * The input is the file, opened twice: as it is, and with its header and
 * index checksums recomputed (when its header gives a plausible layout),
 * so that the fuzzer also reaches the structure checks that stand behind
 * the checksums against a forged store.  Checks: an open that fails says
 * why; an open that succeeds gives a store whose every word and vector can
 * be read and looked up without leaving the file (ASan and the mapping's
 * bounds would catch it) and without probing forever, and whose subword
 * section, if any, builds vectors from its rows without leaving it; in a store whose
 * checksums were not forged every word looks up to its own index; the
 * same file one byte shorter or longer is refused.
 */
#include <fcntl.h>
#include <stdio.h>

#include "wfile.h"

#define MAXWORDS	4096	/* words walked per store */

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint64_t
le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static void
put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

/* Open (data, len) as a store file; with check, walk it.  @return rc. */
static int
openstore(const void *data, size_t len, int check, int forged)
{
	struct emb_store *s;
	char path[64];
	int fd, rc;

	fd = fuzz_memfile(data, len);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rc = emb_store_open(&s, path);
	CHECK(rc <= 0 && rc >= EMB_ELAST);
	if (rc < 0) {
		if (s != NULL)
			CHECK(emb_store_msg(s)[0] != '\0');
		emb_store_close(s);
		close(fd);
		return rc;
	}
	if (check) {
		struct emb_subword sw;
		uint64_t count = emb_store_count(s);
		uint32_t dim = emb_store_dim(s);
		volatile float sink = 0;

		CHECK(dim >= 1 && dim <= EMB_DIM_MAX);
		CHECK(emb_store_stride(s) >= dim &&
		    emb_store_stride(s) % 16 == 0);
		for (uint64_t i = 0; i < count && i < MAXWORDS; i++) {
			size_t wl;
			const char *w = emb_store_word(s, i, &wl);
			const float *v = emb_store_vector(s, i);
			int64_t j = emb_store_lookup(s, w, wl);

			CHECK(j >= -1 && j < (int64_t)count);
			if (!forged)
				CHECK(j == (int64_t)i);
			CHECK(w[wl] == '\0');
			for (uint32_t k = 0; k < dim; k++)
				sink += v[k];
			/* A row that fails its checksum says so. */
			rc = emb_store_check(s, i);
			CHECK(rc == 0 || (rc == EMB_ESTORE &&
			    emb_store_damaged(s) && emb_store_msg(s)[0] != '\0'));
		}
		(void)sink;
		CHECK(emb_store_lookup(s, "", 0) >= -1);
		if (emb_store_subword(s, &sw) == 0) {
			static const char *const tok[] = { "a", "the",
			    "caf\xc3\xa9", "xyzzy", "\x80\xff<>" };
			float *v = malloc((size_t)dim * sizeof(*v));

			if (v == NULL)
				abort();
			CHECK(sw.dim == dim);
			for (size_t t = 0; t < sizeof(tok) / sizeof(*tok); t++) {
				rc = emb_subvec(&sw, tok[t], strlen(tok[t]), v);
				CHECK(rc >= 0 || rc == EMB_ENONFINITE ||
				    emb_store_damaged(s));
			}
			free(v);
		}
		rc = emb_store_verify(s);
		CHECK(rc == 0 || rc == EMB_ESTORE);
		rc = 0;
	}
	emb_store_close(s);
	close(fd);
	return rc;
}

/*
 * The file with its index and header checksums made right, where the
 * header's counts give an index inside the file.  @return 1 if done.
 */
static int
forge(unsigned char *p, size_t len)
{
	uint64_t count, stride, offoff, hdr = EMB_STORE_HEADER, bucket = 0;

	if (len < EMB_STORE_HEADER || memcmp(p, EMB_STORE_MAGIC, 8) != 0)
		return 0;
	count = le64(p + 16);
	stride = le32(p + 24);
	if (le32(p + 56) & 1) {
		/* The subword header too. */
		if (len < 2 * EMB_STORE_HEADER)
			return 0;
		hdr = 2 * EMB_STORE_HEADER;
		bucket = le32(p + 72);
		put32(p + 124, (uint32_t)crc32(0, p + 64, 60));
	}
	if (count > len || stride > len || bucket > len)
		return 0;
	offoff = hdr + (count + bucket) * stride * 4;
	if (offoff > len)
		return 0;
	put32(p + 48, (uint32_t)crc32(0, p + offoff, (uInt)(len - offoff)));
	put32(p + 60, (uint32_t)crc32(0, p, 60));
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *p;

	if (openstore(data, size, 1, 0) == 0) {
		/* Truncated or appended to: refused. */
		CHECK(size > 0 && openstore(data, size - 1, 0, 0) < 0);
		if ((p = malloc(size + 1)) == NULL)
			abort();
		memcpy(p, data, size);
		p[size] = 0;
		CHECK(openstore(p, size + 1, 0, 0) < 0);
		free(p);
	}
	if ((p = malloc(size ? size : 1)) == NULL)
		abort();
	memcpy(p, data, size);
	if (forge(p, size))
		openstore(p, size, 1, 1);
	free(p);
	return 0;
}
