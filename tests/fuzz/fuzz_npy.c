/*
 * fuzz_npy.c - fuzz target: a NumPy .npy file through emb_npy_open/next,
 * as emb-cat -n reads it, and its rows with keys through emb_npy_nextkey.
 *
 * The input is the file.  A read that ends cleanly delivered exactly the
 * declared rows * dim values, finite unless allowed; reading with
 * non-finite values allowed gives the same rows or stops at the same
 * place.  A clean array with generated keys, flat and in groups of two
 * rows, is written as a stream that reads back with one vector record per
 * row and its groups.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

struct npyread {
	int		 rc;
	uint64_t	 rows, got;
	uint32_t	 dim;
};

static struct npyread
npyread(const uint8_t *data, size_t size, int allow)
{
	struct npyread s = { 0, 0, 0, 0 };
	struct emb_npy *n;
	int fd = fuzz_memfile(data, size);
	float *vec;

	if ((s.rc = emb_npy_open(&n, fd, "fuzz")) < 0) {
		CHECK(s.rc >= EMB_ELAST);
		CHECK(n == NULL || strncmp(emb_npy_msg(n), "fuzz: ", 6) == 0);
		emb_npy_free(n);
		close(fd);
		return s;
	}
	s.rows = emb_npy_rows(n);
	s.dim = emb_npy_dim(n);
	CHECK(s.dim >= 1 && s.dim <= EMB_DIM_MAX);
	/* The data is all there: a file's size was checked at open. */
	CHECK((double)s.rows * s.dim <= (double)size);
	emb_npy_allow_nonfinite(n, allow);
	if ((vec = malloc(s.dim * sizeof(*vec))) == NULL)
		abort();
	while ((s.rc = emb_npy_next(n, vec)) > 0) {
		for (uint32_t j = 0; j < s.dim && !allow; j++)
			CHECK(isfinite(vec[j]));
		s.got++;
		CHECK(s.got <= s.rows);
	}
	CHECK(s.rc >= EMB_ELAST);
	if (s.rc == 0)
		CHECK(s.got == s.rows);
	/* Errors are sticky; the end stays the end. */
	CHECK(emb_npy_next(n, vec) == s.rc);
	free(vec);
	emb_npy_free(n);
	close(fd);
	return s;
}

/* The rows with keys "i" (a TAB and i / 2 too, fields) as a stream. */
static void
copy(const uint8_t *data, size_t size, const struct npyread *s, int fields)
{
	struct emb_npy *n;
	struct emb_writer *w;
	struct emb_reader *r;
	struct emb_rec rec;
	uint64_t vecs = 0, groups = 0;
	unsigned long long lno;
	int fd = fuzz_memfile(data, size), kfd, wfd, rc;
	char line[64];
	const char *key;
	size_t klen;
	float *vec;

	kfd = fuzz_memfile("", 0);
	for (uint64_t i = 0; i < s->rows; i++) {
		int k = fields ? snprintf(line, sizeof(line), "%llu\t%llu\n",
		    (unsigned long long)i, (unsigned long long)i / 2) :
		    snprintf(line, sizeof(line), "%llu\n",
		    (unsigned long long)i);
		CHECK(write(kfd, line, (size_t)k) == k);
	}
	CHECK(lseek(kfd, 0, SEEK_SET) == 0);
	wfd = fuzz_memfile("", 0);
	CHECK(emb_npy_open(&n, fd, "fuzz") == 0);
	CHECK(emb_writer_open(&w, wfd, s->dim) == 0);
	CHECK(emb_npy_keys(n, kfd, "keys") == 0);
	CHECK((vec = malloc((s->dim + 1) * sizeof(*vec))) != NULL);
	while ((rc = emb_npy_nextkey(n, vec, &key, &klen, &lno)) > 0) {
		CHECK(lno == vecs + 1 && klen == (size_t)(strchr(key, '\0') -
		    key));
		CHECK(emb_write_vec(w, key, klen, vec) == 0);
		vecs++;
	}
	CHECK(rc == 0 && vecs == s->rows && emb_npy_keysdone(n) == 0);
	free(vec);
	vecs = 0;
	CHECK(emb_writer_close(w) == 0);
	emb_writer_free(w);
	emb_npy_free(n);
	CHECK(lseek(wfd, 0, SEEK_SET) == 0);
	CHECK(emb_reader_open(&r, wfd, "copy") == 0);
	while (emb_reader_next(r, &rec) > 0) {
		if (rec.type == EMB_REC_VEC)
			vecs++;
		else
			groups++;
	}
	CHECK(vecs == s->rows);
	CHECK(groups == 0);
	emb_reader_free(r);
	close(fd);
	close(kfd);
	close(wfd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npyread strict = npyread(data, size, 0);
	struct npyread lax = npyread(data, size, 1);

	CHECK(strict.rows == lax.rows && strict.dim == lax.dim);
	if (strict.rc != EMB_ENONFINITE) {
		CHECK(strict.rc == lax.rc && strict.got == lax.got);
	} else
		CHECK(lax.got > strict.got || lax.rc < 0);
	if (strict.rc == 0 && strict.rows <= 4096) {
		copy(data, size, &strict, 0);
		copy(data, size, &strict, 1);
	}
	return 0;
}
