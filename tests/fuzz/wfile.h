/*
 * wfile.h - what the embedding-file fuzz targets share (fuzz_wfile.c,
 * fuzz_w2vbin.c, fuzz_w2vtext.c, fuzz_gzip.c): read a whole embedding file
 * from memory through emb_wfile_open/next, checking on the way what
 * emb-lookup and the store builder rely on, and sum up what was read so
 * that two readings of the same content can be compared.
 *
 * Checked: the format and dimension are in range; every word is 1 to
 * EMB_WORD_MAX bytes, NUL-terminated, without a newline; every vector is
 * 64-byte aligned and finite; an error is sticky, defined, with a message
 * and emb_wfile_error() agrees; a clean end stays an end and, when the
 * header declared a count, came after exactly that many words.
 */
#ifndef FUZZ_WFILE_H
#define FUZZ_WFILE_H

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "fuzz.h"

/* What one reading saw. */
struct wread {
	int		 rc;		/* 0 clean end, or the error */
	int		 format;
	uint32_t	 dim;
	uint64_t	 n;		/* entries */
	uint32_t	 sum;		/* crc32 over words and vectors */
};

/* Read all of (data, len) as an embedding file, checking as it goes. */
static inline struct wread
fuzz_wread(const void *data, size_t len)
{
	struct emb_wfile *f;
	struct wread w = { 0, 0, 0, 0, 0 };
	const char *word;
	const float *vec;
	size_t wl;
	int fd, rc;

	fd = fuzz_memfile(data, len);
	rc = emb_wfile_open(&f, fd, "fuzz");
	if (rc < 0) {
		CHECK(rc >= EMB_ELAST);
		if (f != NULL)
			CHECK(emb_wfile_msg(f)[0] != '\0');
		emb_wfile_free(f);
		close(fd);
		w.rc = rc;
		return w;
	}
	w.format = emb_wfile_format(f);
	w.dim = emb_wfile_dim(f);
	CHECK(w.format >= EMB_WF_W2VBIN && w.format <= EMB_WF_FTBIN);
	CHECK(w.dim >= 1 && w.dim <= EMB_DIM_MAX);
	CHECK(strcmp(emb_wfile_fmtname(w.format), "unknown") != 0);
	while ((rc = emb_wfile_next(f, &word, &wl, &vec)) > 0) {
		CHECK(rc == 1);
		CHECK(wl >= 1 && wl <= EMB_WORD_MAX && word[wl] == '\0');
		if (w.format != EMB_WF_EMB)
			CHECK(memchr(word, '\n', wl) == NULL);
		CHECK(((uintptr_t)vec & 63) == 0);
		for (uint32_t i = 0; i < w.dim; i++)
			CHECK(isfinite(vec[i]));
		w.sum = (uint32_t)crc32(w.sum, (const unsigned char *)word,
		    (uInt)wl + 1);
		w.sum = (uint32_t)crc32(w.sum, (const unsigned char *)vec,
		    w.dim * 4);
		w.n++;
	}
	CHECK(rc <= 0 && rc >= EMB_ELAST);
	CHECK(emb_wfile_error(f) == rc);
	CHECK(emb_wfile_next(f, &word, &wl, &vec) == rc);
	if (rc < 0)
		CHECK(emb_wfile_msg(f)[0] != '\0');
	else if (emb_wfile_declared(f) != 0 && w.format != EMB_WF_EMB)
		CHECK(w.n == emb_wfile_declared(f));
	w.rc = rc;
	emb_wfile_free(f);
	close(fd);
	return w;
}

/*
 * Compress (data, len) into buf as gzip, in nmemb members of about equal
 * size (cat a.gz b.gz).  buf needs fuzz_gzbound(len, nmemb) bytes.
 * @return the compressed size.
 */
static inline size_t
fuzz_gzbound(size_t len, int nmemb)
{
	return len + (size_t)nmemb * 64 + len / 100 + 64;
}

static inline size_t
fuzz_gzip(unsigned char *buf, const void *data, size_t len, int nmemb)
{
	const unsigned char *p = data;
	size_t out = 0, per = len / (size_t)nmemb;

	for (int m = 0; m < nmemb; m++) {
		size_t n = m == nmemb - 1 ? len - per * (size_t)m : per;
		z_stream zs;

		memset(&zs, 0, sizeof(zs));
		CHECK(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
		    Z_DEFAULT_STRATEGY) == Z_OK);
		zs.next_in = (unsigned char *)(uintptr_t)(p + per * (size_t)m);
		zs.avail_in = (uInt)n;
		zs.next_out = buf + out;
		zs.avail_out = (uInt)(fuzz_gzbound(len, nmemb) - out);
		CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END);
		out += zs.total_out;
		deflateEnd(&zs);
	}
	return out;
}

#endif /* FUZZ_WFILE_H */
