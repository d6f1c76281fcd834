/*
 * fuzz_wfile.c - fuzz target: an embedding file of any format, recognised
 * by content (word2vec binary or text, fastText .vec, GloVe, an emb(5)
 * stream), as emb-lookup reads it.
 *
 * The input is the file.  Besides the checks of wfile.h, the same bytes
 * gzip-compressed must read as the same entries with the same outcome, and
 * emb_parse_f32 must agree with strtof on the input's first tokens.
 */
#include <errno.h>
#include <float.h>
#include <stdio.h>

#include "wfile.h"
#include "io/text.h"

static int
sep(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	    c == '\f';
}

/* emb_parse_f32 on s against strtof on the token (up to a blank). */
static void
parsef(const char *s, size_t len)
{
	size_t n = 0, used;
	char *tok, *end;
	float f, g;
	int rc;

	while (n < len && !sep((unsigned char)s[n]))
		n++;
	rc = emb_parse_f32(s, len, &f, &used);
	if ((tok = malloc(n + 1)) == NULL)
		abort();
	memcpy(tok, s, n);
	tok[n] = '\0';
	errno = 0;
	g = strtof(tok, &end);
	switch (rc) {
	case 0:
		/* The whole token, and strtof's value for it. */
		CHECK(used == n && end == tok + n);
		CHECK(memcmp(&f, &g, 4) == 0 || (isnan(f) && isnan(g)));
		CHECK(fabsf(f) <= FLT_MAX || !(errno == ERANGE));
		break;
	case EMB_ESYNTAX:
		/* strtof stops short of the blank, or the token is long. */
		CHECK(n == 0 || end != tok + n || n > 128 || memchr(tok, '\0',
		    n) != NULL);
		break;
	case EMB_ERANGE:
		CHECK(end == tok + n && isinf(g) && errno == ERANGE);
		break;
	default:
		abort();
	}
	free(tok);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wread plain, gz;
	unsigned char *buf;
	size_t n;

	plain = fuzz_wread(data, size);
	if (size < 2 || data[0] != 0x1f || data[1] != 0x8b) {
		if ((buf = malloc(fuzz_gzbound(size, 1))) == NULL)
			abort();
		n = fuzz_gzip(buf, data, size, 1);
		gz = fuzz_wread(buf, n);
		CHECK(gz.rc == plain.rc && gz.n == plain.n &&
		    gz.sum == plain.sum);
		CHECK(gz.format == plain.format && gz.dim == plain.dim);
		free(buf);
	}
	for (size_t i = 0; i < size && i < 16; i++)
		parsef((const char *)data + i, size - i);
	return 0;
}
