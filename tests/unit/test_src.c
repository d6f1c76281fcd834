/*
 * test_src.c - the input layer (lib/io/src.c): bytes from a file, a pipe, a
 * gzip stream, a mapping or memory, delivered whole through blocks of
 * awkward sizes; lines (found, and NUL-terminated in place), the end of
 * input, truncated and corrupt gzip, a soft source, read errors,
 * growth past what size_t holds, and the call before a read would wait.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "check_main.h"
#include "emb.h"
#include "base/io.h"
#include "io/src.h"

static const size_t sizes[] = { 1, 2, 7, 8, 255, 256, 257 };
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))

/* n bytes of a pattern no block size divides evenly. */
static unsigned char *
pattern(size_t n)
{
	unsigned char *p = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(p);
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + i / 251);
	return p;
}

/* A temporary file holding [p, p + n), open for reading at 0. */
static int
tmpfd(const void *p, size_t n)
{
	char name[] = "/tmp/test_src.XXXXXX";
	int fd = mkstemp(name);

	ck_assert_int_ge(fd, 0);
	unlink(name);
	ck_assert_int_eq(emb_writeall(fd, p, n), 0);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* A pipe whose read end gets [p, p + n) from a child, in 3-byte writes. */
static int
pipefd(const void *p, size_t n, pid_t *pid)
{
	int pfd[2];

	ck_assert_int_eq(pipe(pfd), 0);
	if ((*pid = fork()) == 0) {
		const unsigned char *b = p;

		close(pfd[0]);
		for (size_t i = 0; i < n; i += 3)
			if (emb_writeall(pfd[1], b + i, n - i < 3 ? n - i : 3))
				_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	return pfd[0];
}

/* [p, p + n) gzip-compressed in members of at most m bytes each. */
static unsigned char *
gz(const unsigned char *p, size_t n, size_t m, size_t *zn)
{
	size_t cap = n + 64 * (n / m + 2) + 64, len = 0;
	unsigned char *z = malloc(cap);

	ck_assert_ptr_nonnull(z);
	for (size_t at = 0; at < n || at == 0; at += m) {
		z_stream zs;
		size_t k = n - at < m ? n - at : m;

		memset(&zs, 0, sizeof(zs));
		ck_assert_int_eq(deflateInit2(&zs, 6, Z_DEFLATED,
		    16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
		zs.next_in = (unsigned char *)(uintptr_t)(p + at);
		zs.avail_in = (uInt)k;
		zs.next_out = z + len;
		zs.avail_out = (uInt)(cap - len);
		ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
		len = cap - zs.avail_out;
		deflateEnd(&zs);
		if (n == 0)
			break;
	}
	*zn = len;
	return z;
}

/* Read the whole source through fill/consume steps of step bytes. */
static void
drain(struct emb_src *s, const unsigned char *want, size_t n, size_t step)
{
	size_t got = 0;
	int rc;

	for (;;) {
		rc = emb_src_fill(s, step);
		ck_assert_int_ge(rc, 0);
		if (rc == 1) {
			ck_assert_uint_lt(s->end - s->beg, step);
			ck_assert_uint_eq(got + (s->end - s->beg), n);
			ck_assert(memcmp(s->buf + s->beg, want + got,
			    s->end - s->beg) == 0);
			break;
		}
		ck_assert(memcmp(s->buf + s->beg, want + got, step) == 0);
		s->beg += step;
		got += step;
	}
	ck_assert_int_eq(emb_src_fill(s, step), 1);
}

START_TEST(blocks)
{
	size_t bs = sizes[_i], n = 3000;
	unsigned char *p = pattern(n);

	for (size_t j = 0; j < NSIZES; j++) {
		struct emb_src s;
		pid_t pid;
		int fd = tmpfd(p, n), st;

		/* A file, a step larger than the block: the block grows. */
		ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
		ck_assert_uint_eq(s.rawsize, n);
		drain(&s, p, n, sizes[j]);
		ck_assert_uint_eq(s.rawread, n);
		emb_src_close(&s);
		close(fd);
		/* A pipe, written a few bytes at a time. */
		fd = pipefd(p, n, &pid);
		ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
		ck_assert_uint_eq(s.rawsize, 0);
		drain(&s, p, n, sizes[j]);
		emb_src_close(&s);
		close(fd);
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		/* Memory. */
		emb_src_mem(&s, p, n);
		drain(&s, p, n, sizes[j]);
		emb_src_close(&s);
	}
	free(p);
}
END_TEST

START_TEST(copy)
{
	size_t bs = sizes[_i], n = 1000;
	unsigned char *p = pattern(n), d[1100];
	struct emb_src s;
	int fd = tmpfd(p, n);

	ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
	ck_assert_int_eq(emb_src_read(&s, d, 10), 10);
	ck_assert_int_eq(emb_src_read(&s, d + 10, 1), 1);
	ck_assert_int_eq(emb_src_read(&s, d + 11, 1089), 989);
	ck_assert_int_eq(emb_src_read(&s, d, 5), 0);
	ck_assert(memcmp(d, p, n) == 0);
	emb_src_close(&s);
	close(fd);
	free(p);
}
END_TEST

START_TEST(gzip)
{
	size_t bs = sizes[_i], n = 5000, zn;
	unsigned char *p = pattern(n), *z;

	/* One member, then members of 999 bytes and of 1 byte. */
	for (size_t m = n; m >= 1; m = m == n ? 999 : m == 999 ? 1 : 0) {
		struct emb_src s;
		int fd;

		z = gz(p, n, m, &zn);
		fd = tmpfd(z, zn);
		ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
		ck_assert_int_eq(emb_src_gunzip(&s, bs < 2 ? 2 : bs), 0);
		ck_assert_int_eq(s.gz, 1);
		drain(&s, p, n, 100);
		emb_src_close(&s);
		close(fd);
		free(z);
	}
	/* Not gzip: the bytes peeked at are delivered first. */
	{
		struct emb_src s;
		int fd = tmpfd(p, n);

		ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs < 64 ? 64 :
		    bs), 0);
		ck_assert_int_eq(emb_src_gunzip(&s, bs < 64 ? bs : 64), 0);
		ck_assert_int_eq(s.gz, 0);
		drain(&s, p, n, 3);
		emb_src_close(&s);
		close(fd);
	}
	free(p);
}
END_TEST

/* A gzip file cut or changed: an error, soft or not, never a clean end. */
START_TEST(gzip_bad)
{
	size_t n = 3000, zn;
	unsigned char *p = pattern(n), *z = gz(p, n, n, &zn);

	for (int soft = 0; soft <= 1; soft++)
		for (int cut = 0; cut <= 1; cut++) {
			struct emb_src s;
			int fd, rc;

			if (!cut)
				z[zn / 2] ^= 0x55;
			fd = tmpfd(z, cut ? zn - 5 : zn);
			ck_assert_int_eq(emb_src_open(&s, fd, NULL, 256), 0);
			ck_assert_int_eq(emb_src_gunzip(&s, 64), 0);
			s.soft = soft;
			while ((rc = emb_src_fill(&s, 1)) == 0)
				s.beg = s.end;
			if (soft) {
				ck_assert_int_eq(rc, 1);
				ck_assert_int_eq(s.err, EMB_EGZIP);
			} else
				ck_assert_int_eq(rc, EMB_EGZIP);
			/* eof tells a cut member from corrupt data. */
			ck_assert_int_eq(s.eof, cut || soft);
			/* The error again, beyond what is there. */
			ck_assert_int_eq(emb_src_fill(&s, s.end - s.beg + 1),
			    soft ? 1 : EMB_EGZIP);
			emb_src_close(&s);
			close(fd);
			if (!cut)
				z[zn / 2] ^= 0x55;
		}
	free(z);
	free(p);
}
END_TEST

START_TEST(lines)
{
	static const char text[] = "ab\n\nlonger line\r\nlast";
	size_t bs = sizes[_i], len;
	struct emb_src s;
	int fd = tmpfd(text, sizeof(text) - 1), rc;

	ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
	ck_assert_int_eq(emb_src_line(&s, 100, &len), 1);
	ck_assert_uint_eq(len, 2);
	ck_assert(memcmp(s.buf + s.beg, "ab\n", 3) == 0);
	s.beg += len + 1;
	ck_assert_int_eq(emb_src_line(&s, 100, &len), 1);
	ck_assert_uint_eq(len, 0);
	s.beg += 1;
	/*
	 * 12 bytes before the LF: over a limit of 5 (refused, or whole
	 * when its LF was in the block already), within one of 13.
	 */
	rc = emb_src_line(&s, 5, &len);
	ck_assert(rc == EMB_ELIMIT || (rc == 1 && len == 12));
	ck_assert_int_eq(emb_src_line(&s, 13, &len), 1);
	ck_assert_uint_eq(len, 12);
	s.beg += len + 1;
	ck_assert_int_eq(emb_src_line(&s, 100, &len), 2);
	ck_assert_uint_eq(len, 4);
	ck_assert(memcmp(s.buf + s.beg, "last", 4) == 0);
	s.beg += len;
	ck_assert_int_eq(emb_src_line(&s, 100, &len), 0);
	emb_src_close(&s);
	close(fd);
}
END_TEST

/*
 * Lines NUL-terminated in place: through blocks of every size, a line
 * longer than the block (grown), a last line without LF (room made for
 * its NUL; a line, the file being regular), and emb_lines on the same
 * bytes.
 */
START_TEST(getl)
{
	static const char text[] = "ab\n\n0123456789abcdefghij0123456789"
	    "abcdefghij0123456789abcdefghij0123456789abcdefghij0123456789"
	    "abcdefghij0123456789abcdefghij0123456789abcdefghij0123456789"
	    "abcdefghij0123456789abcdefghij0123456789abcdefghij0123456789"
	    "abcdefghij0123456789abcdefghij0123456789abcdefghij\nlast";
	static const size_t want[] = { 2, 0, 260, 4 };
	const char *p = text;
	size_t bs = sizes[_i], len;
	struct emb_src s;
	struct emb_lines *l;
	char *line;
	int fd = tmpfd(text, sizeof(text) - 1);

	ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(emb_src_getl(&s, SIZE_MAX, &line, &len), 1);
		ck_assert_uint_eq(len, want[i]);
		ck_assert(memcmp(line, p, len) == 0 && line[len] == '\0');
		p += len + 1;
	}
	ck_assert_int_eq(emb_src_getl(&s, SIZE_MAX, &line, &len), 0);
	emb_src_close(&s);
	/* A limit below the long line, longer than any block: refused. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
	ck_assert_int_eq(emb_src_getl(&s, 100, &line, &len), 1);
	ck_assert_int_eq(emb_src_getl(&s, 100, &line, &len), 1);
	ck_assert_int_eq(emb_src_getl(&s, 100, &line, &len), EMB_ELIMIT);
	emb_src_close(&s);
	/* The public reader: the same lines. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(emb_lines_open(&l, fd), 0);
	p = text;
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(emb_lines_next(l, &line, &len), 1);
		ck_assert_uint_eq(len, want[i]);
		ck_assert(memcmp(line, p, len) == 0 && line[len] == '\0');
		p += len + 1;
	}
	ck_assert_int_eq(emb_lines_next(l, &line, &len), 0);
	emb_lines_free(l);
	emb_lines_free(NULL);
	close(fd);
}
END_TEST

/*
 * The last line without LF (emb(5), TEXT INPUTS): a line from a regular
 * file or gzip data ended at a member's end, whatever the descriptor; a
 * possible cut (2) from a pipe, from memory or after a read error.
 */
START_TEST(lastline)
{
	static const char text[] = "a 1\nb 2.5";
	size_t bs = sizes[_i], len, zn;
	unsigned char *z = gz((const unsigned char *)text, sizeof(text) - 1,
	    4, &zn);
	struct emb_src s;
	char *line, mem[sizeof(text)];
	pid_t pid;
	int fd, st;

	/* A regular file: whole. */
	fd = tmpfd(text, sizeof(text) - 1);
	ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
	ck_assert_int_eq(s.reg, 1);
	ck_assert_int_eq(emb_src_getl(&s, SIZE_MAX, &line, &len), 1);
	ck_assert_int_eq(emb_src_getl(&s, SIZE_MAX, &line, &len), 1);
	ck_assert_str_eq(line, "b 2.5");
	ck_assert_int_eq(emb_src_whole(&s), 1);
	ck_assert_int_eq(emb_src_getl(&s, SIZE_MAX, &line, &len), 0);
	emb_src_close(&s);
	close(fd);
	/* A pipe: its writer may have stopped mid-line. */
	fd = pipefd(text, sizeof(text) - 1, &pid);
	ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
	ck_assert_int_eq(s.reg, 0);
	ck_assert_int_eq(emb_src_getl(&s, SIZE_MAX, &line, &len), 1);
	ck_assert_int_eq(emb_src_getl(&s, SIZE_MAX, &line, &len), 2);
	ck_assert_str_eq(line, "b 2.5");
	ck_assert_int_eq(emb_src_whole(&s), 0);
	ck_assert_int_eq(emb_src_getl(&s, SIZE_MAX, &line, &len), 0);
	emb_src_close(&s);
	close(fd);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	/* gzip members through a pipe: each ended by its trailer. */
	fd = pipefd(z, zn, &pid);
	ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
	ck_assert_int_eq(emb_src_gunzip(&s, bs), 0);
	ck_assert_int_eq(emb_src_getl(&s, SIZE_MAX, &line, &len), 1);
	ck_assert_int_eq(emb_src_getl(&s, SIZE_MAX, &line, &len), 1);
	ck_assert_str_eq(line, "b 2.5");
	emb_src_close(&s);
	close(fd);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	/* Cut inside a member: an error, never whole. */
	fd = pipefd(z, zn - 3, &pid);
	ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
	ck_assert_int_eq(emb_src_gunzip(&s, bs), 0);
	while (emb_src_getl(&s, SIZE_MAX, &line, &len) > 0)
		continue;
	ck_assert_int_eq(emb_src_whole(&s), 0);
	emb_src_close(&s);
	close(fd);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	/* Memory is not a file. */
	memcpy(mem, text, sizeof(text));
	emb_src_mem(&s, mem, sizeof(text) - 1);
	ck_assert_int_eq(emb_src_whole(&s), 0);
	emb_src_close(&s);
	/* A soft source's error ends it, not as a whole file. */
	fd = tmpfd(text, sizeof(text) - 1);
	ck_assert_int_eq(emb_src_open(&s, fd, NULL, bs), 0);
	s.soft = 1;
	s.err = EMB_EIO;
	s.eof = 1;
	ck_assert_int_eq(emb_src_whole(&s), 0);
	emb_src_close(&s);
	close(fd);
	free(z);
}
END_TEST

START_TEST(errors)
{
	struct emb_src s;
	unsigned char b[16];
	int fd = open("/", O_RDONLY), pfd[2];

	/* A read that fails: EMB_EIO with errno, soft or not. */
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(emb_src_open(&s, fd, NULL, 64), 0);
	errno = 0;
	ck_assert_int_eq(emb_src_fill(&s, 1), EMB_EIO);
	ck_assert_int_eq(errno, EISDIR);
	ck_assert_int_eq(emb_src_read(&s, b, 4), EMB_EIO);
	s.soft = 1;
	ck_assert_int_eq(emb_src_fill(&s, 1), 1);
	ck_assert_int_eq(s.err, EMB_EIO);
	emb_src_close(&s);
	/* gunzip's peek fails alike. */
	ck_assert_int_eq(emb_src_open(&s, fd, NULL, 64), 0);
	ck_assert_int_eq(emb_src_gunzip(&s, 64), EMB_EIO);
	emb_src_close(&s);
	close(fd);
	/* Growth past size_t, and a caller's block that cannot grow. */
	ck_assert_int_eq(pipe(pfd), 0);
	ck_assert_int_eq(emb_src_open(&s, pfd[0], NULL, 64), 0);
	ck_assert_int_eq(emb_src_fill(&s, SIZE_MAX), EMB_ENOMEM);
	ck_assert_int_eq(emb_src_fill(&s, SIZE_MAX / 2 + 2), EMB_ENOMEM);
	emb_src_close(&s);
	ck_assert_int_eq(emb_src_open(&s, pfd[0], b, sizeof(b)), 0);
	ck_assert_int_eq(emb_src_fill(&s, sizeof(b) + 1), EMB_ENOMEM);
	emb_src_close(&s);
	emb_src_close(&s);	/* idempotent */
	close(pfd[0]);
	close(pfd[1]);
}
END_TEST

START_TEST(mapped)
{
	size_t n = 10000, sz;
	unsigned char *p = pattern(n), d[100];
	struct emb_src s;
	int fd = tmpfd(p, n), pfd[2];
	void *m;

	ck_assert_int_eq(emb_src_open(&s, fd, NULL, 256), 0);
	ck_assert_int_eq(emb_src_read(&s, d, 100), 100);
	ck_assert_int_eq(emb_src_map(&s), 1);
	ck_assert_ptr_eq(s.buf, s.map);
	/* The unread bytes go on where the reads left them. */
	drain(&s, p + 100, n - 100, 77);
	m = emb_src_takemap(&s, &sz);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(sz, n);
	ck_assert(memcmp(m, p, n) == 0);
	ck_assert_ptr_null(emb_src_takemap(&s, &sz));
	munmap(m, sz);
	emb_src_close(&s);
	/* A file that changed size while mapped is an error at its end. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(emb_src_open(&s, fd, NULL, 256), 0);
	ck_assert_int_eq(emb_src_map(&s), 1);
	ck_assert_int_eq(ftruncate(fd, (off_t)n + 1), 0);
	s.beg = s.end;
	ck_assert_int_eq(emb_src_fill(&s, 1), EMB_EIO);
	ck_assert_int_eq(s.changed, 1);
	emb_src_close(&s);
	close(fd);
	/* A pipe is not mapped. */
	ck_assert_int_eq(pipe(pfd), 0);
	ck_assert_int_eq(emb_src_open(&s, pfd[0], NULL, 256), 0);
	ck_assert_int_eq(emb_src_map(&s), 0);
	emb_src_close(&s);
	close(pfd[0]);
	close(pfd[1]);
	free(p);
}
END_TEST

START_TEST(slurp)
{
	size_t n = sizes[_i] * 1000 + 3, len;
	unsigned char *p = pattern(n);
	char *b;
	int fd = tmpfd(p, n);

	ck_assert_int_eq(emb_src_slurp(fd, &b, &len), 0);
	ck_assert_uint_eq(len, n);
	ck_assert(memcmp(b, p, n) == 0);
	free(b);
	close(fd);
	fd = open("/", O_RDONLY);
	ck_assert_int_eq(emb_src_slurp(fd, &b, &len), EMB_EIO);
	ck_assert_ptr_null(b);
	close(fd);
	free(p);
}
END_TEST

/* The idle call of the test: the next byte of the pipe, then its end. */
struct idlepipe {
	int	 wfd;
	int	 calls;
};

static void
idlefeed(void *p)
{
	struct idlepipe *ip = p;

	ip->calls++;
	if (ip->calls == 1)
		ck_assert_int_eq(emb_writeall(ip->wfd, "b", 1), 0);
	else
		close(ip->wfd);
}

/*
 * emb_src_idle: no call while bytes are there, one before each read that
 * would wait (it writes the next byte, then closes the pipe), none for a
 * regular file.
 */
START_TEST(idle)
{
	struct idlepipe ip = { -1, 0 };
	struct emb_src s;
	int pfd[2], fd;

	ck_assert_int_eq(pipe(pfd), 0);
	ip.wfd = pfd[1];
	ck_assert_int_eq(emb_writeall(pfd[1], "a", 1), 0);
	ck_assert_int_eq(emb_src_open(&s, pfd[0], NULL, 64), 0);
	emb_src_idle(&s, 0, idlefeed, &ip);
	ck_assert_int_eq(emb_src_fill(&s, 1), 0);
	ck_assert_int_eq(ip.calls, 0);
	ck_assert_int_eq(emb_src_fill(&s, 2), 0);
	ck_assert_int_eq(ip.calls, 1);
	ck_assert_int_eq(memcmp(s.buf + s.beg, "ab", 2), 0);
	ck_assert_int_eq(emb_src_fill(&s, 3), 1);
	ck_assert_int_eq(ip.calls, 2);
	emb_src_close(&s);
	close(pfd[0]);
	fd = tmpfd("ab", 2);
	ip.calls = 0;
	ck_assert_int_eq(emb_src_open(&s, fd, NULL, 64), 0);
	emb_src_idle(&s, 0, idlefeed, &ip);
	ck_assert_int_eq(emb_src_fill(&s, 3), 1);
	ck_assert_int_eq(ip.calls, 0);
	emb_src_close(&s);
	close(fd);
}
END_TEST

static Suite *
src_suite(void)
{
	Suite *s = suite_create("src");
	TCase *tc = tcase_create("src");

	tcase_add_loop_test(tc, blocks, 0, NSIZES);
	tcase_add_loop_test(tc, copy, 0, NSIZES);
	tcase_add_loop_test(tc, gzip, 0, NSIZES);
	tcase_add_test(tc, gzip_bad);
	tcase_add_loop_test(tc, lines, 0, NSIZES);
	tcase_add_loop_test(tc, getl, 0, NSIZES);
	tcase_add_loop_test(tc, lastline, 0, NSIZES);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, mapped);
	tcase_add_loop_test(tc, slurp, 0, NSIZES);
	tcase_add_test(tc, idle);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(src_suite)
