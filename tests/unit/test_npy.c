/*
 * test_npy.c - a Fortran-order .npy array read from a pipe, whose memory
 * grows with the data read (a first block, then doubled, up to the size
 * the header declares): a whole array larger than two blocks reads back
 * exactly; one short by a value, one with a byte more and an empty one
 * end as they must.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "emb.h"
#include "io/fmt.h"

#define D	8
#define ROWS	70001		/* 2.2 MB of data: past 1 MiB and 2 MiB */

/* The .npy of shape (rows, D) in Fortran order, value(i, j) = i * D + j. */
static unsigned char *
fortran(size_t rows, size_t *len)
{
	char dict[128];
	size_t hl, n = rows * D;
	unsigned char *b;

	snprintf(dict, sizeof(dict), "{'descr': '<f4', 'fortran_order': "
	    "True, 'shape': (%zu, %d), }", rows, D);
	hl = (10 + strlen(dict) + 1 + 63) / 64 * 64 - 10;
	*len = 10 + hl + 4 * n;
	b = malloc(*len + 1);
	memcpy(b, "\x93NUMPY\x01\x00", 8);
	b[8] = (unsigned char)hl;
	b[9] = (unsigned char)(hl >> 8);
	memset(b + 10, ' ', hl);
	memcpy(b + 10, dict, strlen(dict));
	b[10 + hl - 1] = '\n';
	for (size_t j = 0; j < D; j++)
		for (size_t i = 0; i < rows; i++) {
			float f = (float)(i * D + j);
			uint32_t u;
			unsigned char *p = b + 10 + hl + 4 * (j * rows + i);

			memcpy(&u, &f, 4);
			for (int k = 0; k < 4; k++)
				p[k] = (unsigned char)(u >> 8 * k);
		}
	return b;
}

/*
 * Read len bytes of b from a pipe: @return the last emb_npy_next code
 * (0 at a clean end), the rows read in *got, each checked.
 */
static int
readpipe(const unsigned char *b, size_t len, size_t *got)
{
	int fd[2], rc, st;
	pid_t pid;
	struct emb_npy *n;
	float v[D];

	ck_assert_int_eq(pipe(fd), 0);
	if ((pid = fork()) == 0) {
		close(fd[0]);
		_exit(write(fd[1], b, len) == (ssize_t)len ? 0 : 1);
	}
	close(fd[1]);
	ck_assert_int_eq(emb_npy_open(&n, fd[0], "x.npy"), 0);
	ck_assert_uint_eq(emb_npy_dim(n), D);
	for (*got = 0; (rc = emb_npy_next(n, v)) > 0; ++*got)
		for (int j = 0; j < D; j++)
			ck_assert(v[j] == (float)(*got * D + j));
	ck_assert_int_eq(emb_npy_next(n, v), rc);
	emb_npy_free(n);
	close(fd[0]);
	waitpid(pid, &st, 0);
	return rc;
}

START_TEST(fortran_pipe)
{
	size_t len, got;
	unsigned char *b = fortran(ROWS, &len);

	ck_assert_int_eq(readpipe(b, len, &got), 0);
	ck_assert_uint_eq(got, ROWS);
	ck_assert_int_eq(readpipe(b, len - 4, &got), EMB_ETRUNC);
	ck_assert_uint_eq(got, 0);
	b[len] = 0;
	ck_assert_int_eq(readpipe(b, len + 1, &got), EMB_EFORMAT);
	free(b);
	b = fortran(0, &len);
	ck_assert_int_eq(readpipe(b, len, &got), 0);
	ck_assert_uint_eq(got, 0);
	free(b);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("npy");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, fortran_pipe);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(suite)
