/*
 * sniff.c - what an input's first bytes are (emb_sniff), below both the
 * stream reader (stream.c), which names a wrong input's real kind, and
 * the embedding-file reader (formats.c), which shares the test of a
 * word2vec header line (sniff.h).
 */
#include "io/emb-io.h"
#include "base/le.h"
#include "io/sniff.h"

#include <string.h>

int
emb_isheader(const unsigned char *s, size_t len, uint64_t *a, uint64_t *b)
{
	uint64_t v[2] = { 0, 0 };
	size_t i = 0;

	for (int k = 0; k < 2; k++) {
		size_t nd = 0;

		while (i < len && s[i] == ' ')
			i++;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, nd++) {
			if (v[k] > UINT64_MAX / 20)
				return 0;
			v[k] = v[k] * 10 + (uint64_t)(s[i] - '0');
		}
		if (nd == 0)
			return 0;
	}
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i != len)
		return 0;
	*a = v[0];
	*b = v[1];
	return 1;
}

/*
 * Whether a field after the first of the line s (len bytes; fields split
 * on blanks and TABs) looks like a number: a digit, after a sign, a point
 * or the '#' of a text view's group line ("key TAB #count").  A GloVe
 * line or a text view has one; a sentence seldom does.
 */
static int
numbers(const unsigned char *s, size_t len)
{
	size_t i = 0;

	for (int field = 0; i < len; field++) {
		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i == len)
			break;
		if (field > 0) {
			size_t j = i;

			while (j < len && (s[j] == '-' || s[j] == '+' ||
			    s[j] == '.' || s[j] == '#'))
				j++;
			if (j < len && s[j] >= '0' && s[j] <= '9')
				return 1;
		}
		while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			i++;
	}
	return 0;
}

int
emb_sniff(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t a, b;
	size_t len;

	if (n >= EMB_MAGIC_LEN && memcmp(s, EMB_MAGIC, EMB_MAGIC_LEN) == 0)
		return EMB_KIND_STREAM;
	if (n >= EMB_MAGIC_LEN && memcmp(s, EMB_STORE_MAGIC,
	    EMB_MAGIC_LEN) == 0)
		return EMB_KIND_STORE;
	if (n >= 2 && s[0] == 0x1f && s[1] == 0x8b)
		return EMB_KIND_GZIP;
	if (n >= 6 && memcmp(s, "\x93NUMPY", 6) == 0)
		return EMB_KIND_NPY;
	if (n >= 4 && emb_le32(s) == 793712314)
		return EMB_KIND_FTBIN;
	/*
	 * Text: no control but TAB, CR and LF in the bytes there are, and
	 * no byte that cannot begin UTF-8 first.
	 */
	if (n == 0 || (s[0] >= 0x80 && s[0] < 0xc2) || s[0] > 0xf4)
		return EMB_KIND_UNKNOWN;
	for (size_t i = 0; i < n; i++)
		if ((s[i] < 0x20 && s[i] != '\t' && s[i] != '\r' &&
		    s[i] != '\n') || s[i] == 0x7f)
			return EMB_KIND_UNKNOWN;
	for (len = 0; len < n && s[len] != '\n'; len++)
		continue;
	if (len == 0)
		return EMB_KIND_UNKNOWN;
	if (len < n && emb_isheader(s, len > 0 && s[len - 1] == '\r' ?
	    len - 1 : len, &a, &b))
		return EMB_KIND_HEADER;
	return numbers(s, len) ? EMB_KIND_TEXT : EMB_KIND_WORDS;
}
