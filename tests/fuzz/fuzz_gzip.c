/*
 * fuzz_gzip.c - fuzz target: gzip-compressed embedding files, intact and
 * damaged.
 *
 * Input: a control byte, two position bytes (counted back from the end of
 * the compressed file), a value byte, then the uncompressed file.  The harness compresses the file into 1 to 3 gzip
 * members (cat a.gz b.gz) and, as the control byte says, leaves the result
 * intact, cuts it at the position, changes the byte there, or appends
 * bytes after it.  Random bytes would almost never get past zlib's
 * checks; this way the fuzzer drives what a damaged download looks like.
 *
 * Checks (besides wfile.h's): intact, the entries and the outcome equal
 * those of the uncompressed file (unless that file itself begins with
 * gzip's magic, and is read as gzip); cut inside a member, the reading fails
 * (a truncated .gz is never a shorter clean file); changed or extended,
 * a reading that ends cleanly has the entries of the uncompressed file.
 */
#include "wfile.h"

enum { INTACT, CUT, CHANGE, APPEND };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wread plain, gz;
	unsigned char *buf;
	size_t n, pos, len, ends[3];
	int nmemb, mode, boundary = 0;

	if (size < 4)
		return 0;
	nmemb = 1 + data[0] % 3;
	mode = data[0] / 3 % 4;
	pos = (size_t)data[1] | (size_t)data[2] << 8;
	len = size - 4;
	/*
	 * A "plain" file that itself begins with gzip's magic is read as
	 * gzip, and compressed once more it is not: no common ground.
	 */
	if (len >= 2 && data[4] == 0x1f && data[5] == 0x8b)
		return 0;
	plain = fuzz_wread(data + 4, len);
	if ((buf = malloc(fuzz_gzbound(len, nmemb) + 256)) == NULL)
		abort();
	n = 0;
	for (int m = 0; m < nmemb; m++) {
		size_t per = len / (size_t)nmemb;
		size_t k = m == nmemb - 1 ? len - per * (size_t)m : per;

		n += fuzz_gzip(buf + n, data + 4 + per * (size_t)m, k, 1);
		ends[m] = n;
	}
	pos = n - 1 - pos % n;		/* counted from the end */
	switch (mode) {
	case CUT:
		for (int m = 0; m < nmemb; m++)
			boundary |= pos == ends[m];
		n = pos;
		break;
	case CHANGE:
		buf[pos] ^= data[3] | 1;
		break;
	case APPEND:
		memset(buf + n, data[3], 1 + pos % 256);
		n += 1 + pos % 256;
		break;
	}
	gz = fuzz_wread(buf, n);
	switch (mode) {
	case INTACT:
		CHECK(gz.rc == plain.rc && gz.n == plain.n &&
		    gz.sum == plain.sum);
		break;
	case CUT:
		if (!boundary)
			CHECK(gz.rc < 0);
		break;
	default:
		if (gz.rc == 0)
			CHECK(plain.rc == 0 && gz.n == plain.n &&
			    gz.sum == plain.sum);
		break;
	}
	free(buf);
	return 0;
}
