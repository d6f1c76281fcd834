/*
 * test_stream.c - the emb(5) reader and writer, error texts and helpers.
 *
 * Streams are built twice, by the library's writer and by the small encoder
 * below (written from man/emb.5 alone), and the bytes must agree.  Sizes are
 * the awkward ones (dimensions 1, 2, 7, 8, 255, 256, 257 up to EMB_DIM_MAX,
 * keys of 0 and 1 bytes, around the key buffer and the 1 MiB I/O block),
 * data goes through files, pipes and interrupted reads, and every code the
 * stream module returns is provoked.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "check_main.h"
#include "emb.h"
#include "base/io.h"
#include "io/key.h"
#include "base/le.h"
#include "ref.h"
#define URAND_SEED	88172645463325252ull
#include "urand.h"

#if defined(__SANITIZE_ADDRESS__)
/* Let the out-of-memory test see NULL rather than an ASan report. */
const char *__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#endif

static const uint32_t dims[] = { 1, 2, 7, 8, 255, 256, 257 };
static const size_t keylens[] = { 0, 1, 2, 7, 8, 255, 256, 257, 4095, 4096,
    4097 };
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- deterministic data ---- */

/* Any finite float32 bit pattern, subnormals and -0 included. */
static float
rfloat(void)
{
	uint32_t u = urand32();
	float f;

	if ((u & 0x7f800000u) == 0x7f800000u)
		u &= ~0x00800000u;
	memcpy(&f, &u, 4);
	return f;
}

/* A valid key of exactly len bytes: raw TABs, high bytes, some escapes. */
static char *
rkey(size_t len)
{
	static const char esc[] = "\\tnr0";
	char *k = malloc(len + 1);

	ck_assert_ptr_nonnull(k);
	for (size_t i = 0; i < len; i++) {
		uint32_t c = urand32();

		if (c % 17 == 0 && i + 1 < len) {
			k[i++] = '\\';
			k[i] = esc[c % 5];
			continue;
		}
		c = c >> 8 & 0xff;
		if (c == '\\' || c == '\n' || c == '\r' || c == 0)
			c = 0xe9;
		k[i] = (char)c;
	}
	k[len] = '\0';
	ck_assert_int_eq(emb_key_check(k, len), 0);
	return k;
}

/* ---- an independent encoder, after man/emb.5 ---- */

struct enc {
	unsigned char	*p;
	size_t		 n, cap;
	size_t		 seg;		/* offset of the first record */
	uint64_t	 nrec;		/* records since the header */
};

static void
put(struct enc *e, const void *src, size_t n)
{
	if (e->n + n > e->cap) {
		while (e->n + n > e->cap)
			e->cap = e->cap ? 2 * e->cap : 4096;
		e->p = realloc(e->p, e->cap);
		ck_assert_ptr_nonnull(e->p);
	}
	if (n > 0)
		memcpy(e->p + e->n, src, n);
	e->n += n;
}

static void
putle(struct enc *e, uint64_t v, int bytes)
{
	unsigned char b[8];

	for (int i = 0; i < bytes; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	put(e, b, (size_t)bytes);
}

static void
enc_header(struct enc *e, uint32_t dim)
{
	put(e, "\x89" "EMB\r\n\x1a\n", 8);
	putle(e, 1, 2);
	putle(e, 0, 2);
	putle(e, dim, 4);
	e->seg = e->n;
	e->nrec = 0;
}

static void
enc_vec(struct enc *e, const char *key, size_t keylen, const float *v,
    uint32_t dim)
{
	put(e, "V", 1);
	putle(e, keylen, 4);
	put(e, key, keylen);
	for (uint32_t i = 0; i < dim; i++) {
		uint32_t u;

		memcpy(&u, &v[i], 4);
		putle(e, u, 4);
	}
	e->nrec++;
}

static void
enc_group(struct enc *e, const char *key, size_t keylen, uint32_t nmemb)
{
	put(e, "G", 1);
	putle(e, keylen, 4);
	put(e, key, keylen);
	putle(e, nmemb, 4);
	e->nrec++;
}

/* Back to an empty stream after the header already in e. */
static void
reset(struct enc *e)
{
	e->n = e->seg = EMB_HEADER_LEN;
	e->nrec = 0;
}

static void
enc_trailer(struct enc *e)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	crc = crc32(crc, e->p + e->seg, (uInt)(e->n - e->seg));
	put(e, "E", 1);
	putle(e, e->nrec, 8);
	putle(e, crc, 4);
}

/* ---- a model of a stream: what was written, what must be read ---- */

struct trec {
	int		 type;
	char		*key;
	size_t		 keylen;
	float		*vec;
	uint32_t	 nmemb;
};

struct model {
	uint32_t	 dim;
	size_t		 n;
	struct trec	*r;
};

/*
 * n records of dimension dim, keys cycling through klens: groups of 0 to 3
 * members between ungrouped vectors.
 */
static struct model
mkmodel(uint32_t dim, size_t n, const size_t *klens, size_t nk)
{
	struct model m = { dim, n, calloc(n, sizeof(struct trec)) };
	uint32_t left = 0;

	ck_assert_ptr_nonnull(m.r);
	for (size_t i = 0; i < n; i++) {
		struct trec *t = &m.r[i];

		t->keylen = klens[i % nk];
		t->key = rkey(t->keylen);
		if (left == 0 && urand32() % 3 == 0) {
			t->type = EMB_REC_GROUP;
			t->nmemb = urand32() % 4;
			if (t->nmemb > n - i - 1)
				t->nmemb = (uint32_t)(n - i - 1);
			left = t->nmemb;
			continue;
		}
		if (left > 0)
			left--;
		t->type = EMB_REC_VEC;
		t->vec = emb_alloc((size_t)dim * 4);
		ck_assert_ptr_nonnull(t->vec);
		for (uint32_t j = 0; j < dim; j++)
			t->vec[j] = rfloat();
	}
	return m;
}

static void
freemodel(struct model *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->r[i].key);
		emb_free(m->r[i].vec);
	}
	free(m->r);
}

/* The model's records appended to e (no header, no trailer). */
static void
encmodel(struct enc *e, const struct model *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct trec *t = &m->r[i];

		if (t->type == EMB_REC_GROUP)
			enc_group(e, t->key, t->keylen, t->nmemb);
		else
			enc_vec(e, t->key, t->keylen, t->vec, m->dim);
	}
}

/* A whole stream of the model, k times concatenated. */
static struct enc
encstream(const struct model *m, int k)
{
	struct enc e = { 0 };

	for (int i = 0; i < k; i++) {
		enc_header(&e, m->dim);
		encmodel(&e, m);
		enc_trailer(&e);
	}
	return e;
}

/* Write the model with the library's writer on fd; @return close's code. */
static int
writemodel(int fd, const struct model *m)
{
	struct emb_writer *w;
	int rc;

	ck_assert_int_eq(emb_writer_open(&w, fd, m->dim), 0);
	for (size_t i = 0; i < m->n; i++) {
		const struct trec *t = &m->r[i];

		if (t->type == EMB_REC_GROUP)
			rc = emb_write_group(w, t->key, t->keylen, t->nmemb);
		else
			rc = emb_write_vec(w, t->key, t->keylen, t->vec);
		ck_assert_int_eq(rc, 0);
	}
	ck_assert_uint_eq(emb_writer_count(w), m->n);
	rc = emb_writer_close(w);
	emb_writer_free(w);
	return rc;
}

/*
 * Read the model k times over from fd (k concatenated streams) and check
 * every field of every record, then the clean end.
 */
static void
readmodel(int fd, const struct model *m, int k)
{
	struct emb_reader *r;
	struct emb_rec rec;
	uint64_t recno = 0, group = 0;
	uint32_t member = 0, left = 0;

	ck_assert_int_eq(emb_reader_open(&r, fd, "test"), 0);
	ck_assert_uint_eq(emb_reader_dim(r), m->dim);
	for (int pass = 0; pass < k; pass++) {
		for (size_t i = 0; i < m->n; i++) {
			const struct trec *t = &m->r[i];

			ck_assert_int_eq(emb_reader_next(r, &rec), 1);
			ck_assert_int_eq(rec.type, t->type);
			ck_assert_uint_eq(rec.keylen, t->keylen);
			ck_assert(memcmp(rec.key, t->key, t->keylen) == 0);
			ck_assert_int_eq(rec.key[rec.keylen], '\0');
			ck_assert_uint_eq(rec.recno, ++recno);
			if (t->type == EMB_REC_GROUP) {
				ck_assert_uint_eq(rec.nmemb, t->nmemb);
				ck_assert_uint_eq(rec.group, ++group);
				ck_assert_uint_eq(rec.member, 0);
				left = t->nmemb;
				member = 0;
				continue;
			}
			ck_assert((uintptr_t)rec.vec % 64 == 0);
			ck_assert(memcmp(rec.vec, t->vec,
			    (size_t)m->dim * 4) == 0);
			if (left > 0) {
				left--;
				ck_assert_uint_eq(rec.group, group);
				ck_assert_uint_eq(rec.member, ++member);
			} else {
				ck_assert_uint_eq(rec.group, 0);
				ck_assert_uint_eq(rec.member, 0);
			}
		}
	}
	ck_assert_int_eq(emb_reader_next(r, &rec), 0);
	ck_assert_int_eq(emb_reader_next(r, &rec), 0);
	ck_assert_uint_eq(emb_reader_count(r), (uint64_t)k * m->n);
	emb_reader_free(r);
}

/* ---- file descriptors ---- */

/* A readable fd holding n bytes, positioned at the start. */
static int
memfd(const void *p, size_t n)
{
	int fd = memfd_create("emb", 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(emb_writeall(fd, p, n), 0);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* All the bytes of fd from its start; *n their count. */
static unsigned char *
slurp(int fd, size_t *n)
{
	struct stat st;
	unsigned char *p;

	ck_assert_int_eq(fstat(fd, &st), 0);
	*n = (size_t)st.st_size;
	p = malloc(*n + 1);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(pread(fd, p, *n, 0), (ssize_t)*n);
	return p;
}

/*
 * The read end of a pipe fed n bytes by a child, chunk bytes per write(2)
 * with pause microseconds between writes.
 */
static int
feed(const void *p, size_t n, size_t chunk, unsigned pause, pid_t *pid)
{
	int pfd[2];

	ck_assert_int_eq(pipe(pfd), 0);
	ck_assert_int_ge(*pid = fork(), 0);
	if (*pid == 0) {
		const char *s = p;

		close(pfd[0]);
		for (size_t off = 0; off < n; off += chunk) {
			size_t len = n - off < chunk ? n - off : chunk;

			if (emb_writeall(pfd[1], s + off, len) < 0)
				_exit(1);
			if (pause)
				usleep(pause);
		}
		_exit(0);
	}
	close(pfd[1]);
	return pfd[0];
}

static void
reap(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* ---- round trips ---- */

/*
 * Write the model with the library, compare the bytes with the encoder's,
 * read them back; @return the encoder's bytes for more use.
 */
static struct enc
roundtrip(const struct model *m)
{
	struct enc e = encstream(m, 1);
	unsigned char *got;
	size_t n;
	int fd = memfd_create("emb", 0);

	ck_assert_int_eq(writemodel(fd, m), 0);
	got = slurp(fd, &n);
	ck_assert_uint_eq(n, e.n);
	ck_assert(memcmp(got, e.p, n) == 0);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	readmodel(fd, m, 1);
	close(fd);
	free(got);
	return e;
}

START_TEST(t_sizes)
{
	/* Every awkward dimension with every awkward key length. */
	for (size_t d = 0; d < NELEM(dims); d++) {
		struct model m = mkmodel(dims[d], 40, keylens, NELEM(keylens));

		free(roundtrip(&m).p);
		freemodel(&m);
	}
}
END_TEST

START_TEST(t_empty_stream)
{
	/* No record at all: header and trailer only, 29 bytes. */
	struct model m = { 3, 0, NULL };
	struct enc e = roundtrip(&m);

	ck_assert_uint_eq(e.n, EMB_HEADER_LEN + EMB_TRAILER_LEN);
	free(e.p);
}
END_TEST

START_TEST(t_concat)
{
	/* Three streams back to back, one of them empty, read as one. */
	for (size_t d = 0; d < NELEM(dims); d++) {
		struct model m = mkmodel(dims[d], 25, keylens, 4);
		struct model none = { dims[d], 0, NULL };
		struct enc e = encstream(&m, 2), z = encstream(&none, 1);
		struct enc all = { 0 };
		int fd;

		put(&all, e.p, e.n / 2);
		put(&all, z.p, z.n);
		put(&all, e.p + e.n / 2, e.n / 2);
		fd = memfd(all.p, all.n);
		readmodel(fd, &m, 2);
		close(fd);
		free(e.p);
		free(z.p);
		free(all.p);
		freemodel(&m);
	}
}
END_TEST

START_TEST(t_pipe_chunks)
{
	/* Pipes deliver short reads; records straddle every boundary. */
	static const size_t chunks[] = { 1, 3, 4093, 65537 };
	struct model m = mkmodel(257, 300, keylens, NELEM(keylens));
	struct enc e = encstream(&m, 2);

	for (size_t c = 0; c < NELEM(chunks); c++) {
		pid_t pid;
		size_t n = chunks[c] == 1 ? 5000 : e.n;
		int fd;

		if (n < e.n) {
			/* Bytewise only over a short stream: it is slow. */
			struct model s = mkmodel(7, 20, keylens, 3);
			struct enc se = encstream(&s, 3);

			fd = feed(se.p, se.n, 1, 0, &pid);
			readmodel(fd, &s, 3);
			free(se.p);
			freemodel(&s);
		} else {
			fd = feed(e.p, e.n, chunks[c], 0, &pid);
			readmodel(fd, &m, 2);
		}
		close(fd);
		reap(pid);
	}
	free(e.p);
	freemodel(&m);
}
END_TEST

START_TEST(t_big_records)
{
	/*
	 * Records larger than the 1 MiB I/O block, up to the limits: a
	 * 300000-dimensional stream, and one of EMB_DIM_MAX with keys of
	 * EMB_KEY_MAX bytes, through a pipe.
	 */
	static const uint32_t bigdims[] = { 300000, EMB_DIM_MAX };

	for (size_t d = 0; d < NELEM(bigdims); d++) {
		size_t kl[] = { 0, EMB_KEY_MAX, 1, (1u << 20) - 5 };
		struct model m = mkmodel(bigdims[d], 5, kl, NELEM(kl));
		struct enc e = roundtrip(&m);
		pid_t pid;
		int fd;

		fd = feed(e.p, e.n, 1u << 20, 0, &pid);
		readmodel(fd, &m, 1);
		close(fd);
		reap(pid);
		free(e.p);
		freemodel(&m);
	}
}
END_TEST

static volatile sig_atomic_t nalarm;

static void
onalarm(int sig)
{
	(void)sig;
	nalarm++;
}

/* SIGALRM every millisecond, without SA_RESTART: read and write see EINTR. */
static void
ticks(int on)
{
	struct sigaction sa;
	struct itimerval it = { { 0, on ? 1000 : 0 }, { 0, on ? 1000 : 0 } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? onalarm : SIG_IGN;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
}

START_TEST(t_eintr)
{
	struct model m = mkmodel(8, 200, keylens, 5);
	struct enc e = encstream(&m, 1);
	pid_t pid;
	int fd, pfd[2];

	/* Reading: a slow writer, so that read(2) blocks and is interrupted. */
	nalarm = 0;
	ticks(1);
	fd = feed(e.p, e.n, e.n / 20 + 1, 3000, &pid);
	readmodel(fd, &m, 1);
	close(fd);
	reap(pid);
	ck_assert_int_gt(nalarm, 0);

	/* Writing: a slow reader, so that write(2) blocks on a full pipe. */
	{
		struct model b = mkmodel(65536, 16, keylens, 3);
		struct enc be = encstream(&b, 1);

		ck_assert_int_eq(pipe(pfd), 0);
		ck_assert_int_ge(pid = fork(), 0);
		if (pid == 0) {
			size_t n;
			unsigned char *got;
			int same;

			ticks(0);
			close(pfd[1]);
			usleep(20000);
			fd = memfd_create("emb", 0);
			for (;;) {
				char buf[4096];
				ssize_t k = read(pfd[0], buf, sizeof(buf));

				if (k <= 0)
					break;
				emb_writeall(fd, buf, (size_t)k);
			}
			got = slurp(fd, &n);
			same = n == be.n && memcmp(got, be.p, n) == 0;
			free(got);
			_exit(same ? 0 : 1);
		}
		close(pfd[0]);
		ck_assert_int_eq(writemodel(pfd[1], &b), 0);
		close(pfd[1]);
		reap(pid);
		free(be.p);
		freemodel(&b);
	}
	ticks(0);
	free(e.p);
	freemodel(&m);
}
END_TEST

START_TEST(t_whole_records)
{
	/* The writer hands the fd whole records only, never a part of one. */
	struct emb_writer *w;
	float *v = emb_alloc(70000 * 4);
	int fd = memfd_create("emb", 0);
	size_t reclen = 5 + 3 + 70000 * 4;
	int flushed = 0;

	ck_assert_ptr_nonnull(v);
	memset(v, 0, 70000 * 4);
	ck_assert_int_eq(emb_writer_open(&w, fd, 70000), 0);
	for (int i = 0; i < 20; i++) {
		struct stat st;

		ck_assert_int_eq(emb_write_vec(w, "abc", 3, v), 0);
		ck_assert_int_eq(fstat(fd, &st), 0);
		if (st.st_size > 0) {
			flushed = 1;
			ck_assert_uint_eq(((size_t)st.st_size - EMB_HEADER_LEN)
			    % reclen, 0);
		}
	}
	ck_assert(flushed);
	ck_assert_int_eq(emb_writer_close(w), 0);
	emb_writer_free(w);
	emb_free(v);
	close(fd);
}
END_TEST

/* ---- malformed input ---- */

/*
 * Read all of the n bytes at p; @return the first negative code, or 0 at
 * the clean end.  The reader's message goes to msg.
 */
static int
readbytes(const void *p, size_t n, int allow, char *msg, size_t msgsz)
{
	struct emb_reader *r;
	struct emb_rec rec;
	int fd = memfd(p, n), rc;

	rc = emb_reader_open(&r, fd, "test");
	ck_assert_ptr_nonnull(r);
	emb_reader_allow_nonfinite(r, allow);
	if (rc == 0)
		while ((rc = emb_reader_next(r, &rec)) > 0)
			;
	if (rc < 0) {
		/* The error is sticky. */
		ck_assert_int_eq(emb_reader_next(r, &rec), rc);
		ck_assert_int_eq(emb_reader_next(r, &rec), rc);
	}
	if (msg != NULL)
		snprintf(msg, msgsz, "%s", emb_reader_msg(r));
	emb_reader_free(r);
	close(fd);
	return rc;
}

/* A valid stream of dimension 2: G "g" 2, V "a", V "b", V "c", trailer. */
static struct enc
sample(void)
{
	struct enc e = { 0 };
	float v[2] = { 1.5f, -2.0f };

	enc_header(&e, 2);
	enc_group(&e, "g", 1, 2);
	enc_vec(&e, "a", 1, v, 2);
	enc_vec(&e, "b", 1, v, 2);
	enc_vec(&e, "c", 1, v, 2);
	enc_trailer(&e);
	return e;
}

static void
expect(const struct enc *e, int code, const char *msg)
{
	char got[256];

	ck_assert_int_eq(readbytes(e->p, e->n, 0, got, sizeof(got)), code);
	ck_assert_msg(strstr(got, msg) != NULL, "message '%s' lacks '%s'",
	    got, msg);
}

START_TEST(t_truncated)
{
	/* Every proper prefix of a valid stream is a truncated stream. */
	struct enc e = sample(), two = { 0 };
	char msg[256];

	ck_assert_int_eq(readbytes(e.p, e.n, 0, NULL, 0), 0);
	for (size_t n = 0; n < e.n; n++) {
		ck_assert_int_eq(readbytes(e.p, n, 0, msg, sizeof(msg)),
		    EMB_ETRUNC);
		ck_assert(strstr(msg, n == 0 ? "empty input" : "truncated"));
	}
	/* And so is every prefix ending inside a second stream. */
	put(&two, e.p, e.n);
	put(&two, e.p, e.n);
	for (size_t n = e.n + 1; n < two.n; n++)
		ck_assert_int_eq(readbytes(two.p, n, 0, NULL, 0), EMB_ETRUNC);
	free(e.p);
	free(two.p);
}
END_TEST

START_TEST(t_flipped)
{
	/* Any one changed byte anywhere is detected, never read as valid. */
	static const unsigned char masks[] = { 0x01, 0x10, 0x80, 0xff };
	struct enc e = sample();

	for (size_t i = 0; i < e.n; i++)
		for (size_t k = 0; k < NELEM(masks); k++) {
			e.p[i] ^= masks[k];
			ck_assert_msg(readbytes(e.p, e.n, 0, NULL, 0) < 0,
			    "byte %zu ^ 0x%02x not detected", i, masks[k]);
			e.p[i] ^= masks[k];
		}
	free(e.p);
}
END_TEST

START_TEST(t_random_garbage)
{
	/*
	 * A valid header, then random bytes biased towards type bytes and
	 * small lengths: always an error, never a crash or a clean end.
	 */
	static const unsigned char likely[] = { 'V', 'G', 'E', 0, 1, 2 };
	struct enc e = { 0 };

	for (int t = 0; t < 3000; t++) {
		size_t n = urand32() % 120;

		e.n = 0;
		enc_header(&e, 1 + urand32() % 3);
		for (size_t i = 0; i < n; i++) {
			uint32_t r = urand32();
			unsigned char c = r % 2 ? likely[r / 2 % 6] :
			    (unsigned char)(r >> 8);

			put(&e, &c, 1);
		}
		ck_assert_int_lt(readbytes(e.p, e.n, t % 2, NULL, 0), 0);
	}
	free(e.p);
}
END_TEST

START_TEST(t_header_errors)
{
	struct enc e = sample();

	e.p[1] = 'e';
	expect(&e, EMB_EMAGIC, "bad magic");
	e.p[1] = 'E';
	e.p[8] = 2;
	expect(&e, EMB_EVERSION, "version 2 flags 0");
	e.p[8] = 1;
	e.p[11] = 0x80;
	expect(&e, EMB_EVERSION, "flags 32768");
	e.p[11] = 0;
	memset(e.p + 12, 0, 4);
	expect(&e, EMB_EDIM, "dimension 0 out of range");
	emb_put32(e.p + 12, EMB_DIM_MAX + 1);
	expect(&e, EMB_EDIM, "dimension 1048577 out of range");
	emb_put32(e.p + 12, UINT32_MAX);
	expect(&e, EMB_EDIM, "dimension 4294967295 out of range");
	emb_put32(e.p + 12, 2);
	ck_assert_int_eq(readbytes(e.p, e.n, 0, NULL, 0), 0);
	free(e.p);
}
END_TEST

START_TEST(t_concat_errors)
{
	struct enc a = sample(), b = { 0 };
	float v[3] = { 0 };

	/* A dimension change after concatenation. */
	put(&b, a.p, a.n);
	enc_header(&b, 3);
	enc_vec(&b, "x", 1, v, 3);
	enc_trailer(&b);
	expect(&b, EMB_EDIM, "header 2 (after record 4): dimension 3, "
	    "expected 2");
	/* Garbage after a trailer: too short for a header, then not one. */
	b.n = a.n;
	put(&b, "hello\n", 6);
	expect(&b, EMB_ETRUNC, "header 2 (after record 4): truncated after 6 of 16 bytes");
	put(&b, "hello, world\n", 13);
	expect(&b, EMB_EMAGIC, "header 2 (after record 4): bad magic");
	free(a.p);
	free(b.p);
}
END_TEST

START_TEST(t_record_errors)
{
	struct enc e = { 0 };
	float v[2] = { 1, 2 }, bad[2] = { 1, 0 };

	/* Unknown record type. */
	enc_header(&e, 2);
	put(&e, "X", 1);
	expect(&e, EMB_ETYPE, "record 1: unknown record type 0x58");

	/* Key length over the limit, before anything is allocated. */
	reset(&e);
	put(&e, "V", 1);
	putle(&e, EMB_KEY_MAX + 1, 4);
	expect(&e, EMB_ELIMIT, "record 1: key length 1048577 over limit");
	reset(&e);
	put(&e, "G", 1);
	putle(&e, UINT32_MAX, 4);
	expect(&e, EMB_ELIMIT, "key length 4294967295 over limit");

	/* Group count over the limit. */
	reset(&e);
	enc_group(&e, "", 0, EMB_GROUP_MAX + 1);
	expect(&e, EMB_ELIMIT, "record 1: group of 268435457 members over");

	/* Badly escaped keys, raw newline in a key. */
	reset(&e);
	enc_vec(&e, "a\\x", 3, v, 2);
	expect(&e, EMB_EKEY, "record 1: key byte 2: bad escape, backslash "
	    "then 0x78");
	reset(&e);
	enc_vec(&e, "ok", 2, v, 2);
	enc_vec(&e, "a\nb", 3, v, 2);
	expect(&e, EMB_EKEY, "record 2: key byte 2 is a raw LF");
	reset(&e);
	enc_vec(&e, "a\\", 2, v, 2);
	expect(&e, EMB_EKEY, "record 1: key ends inside an escape");
	reset(&e);
	enc_vec(&e, "a\rb\0", 4, v, 2);
	expect(&e, EMB_EKEY, "record 1: key byte 2 is a raw CR");
	reset(&e);
	enc_vec(&e, "ab\0", 3, v, 2);
	expect(&e, EMB_EKEY, "record 1: key byte 3 is a raw NUL");

	/* Non-finite components, refused unless allowed. */
	for (int k = 0; k < 3; k++) {
		bad[1] = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
		reset(&e);
		enc_vec(&e, "ok", 2, v, 2);
		enc_vec(&e, "bad", 3, bad, 2);
		enc_trailer(&e);
		expect(&e, EMB_ENONFINITE, k == 0 ? "record 2: component 2 "
		    "is NaN" : k == 1 ? "component 2 is +Inf" :
		    "component 2 is -Inf");
		ck_assert_int_eq(readbytes(e.p, e.n, 1, NULL, 0), 0);
	}

	/* Group framing: too few members before the trailer, a group. */
	reset(&e);
	enc_group(&e, "g", 1, 2);
	enc_vec(&e, "a", 1, v, 2);
	enc_trailer(&e);
	expect(&e, EMB_EGROUP, "after record 2: trailer while group 1 has 1 of 2 "
	    "members");
	reset(&e);
	enc_group(&e, "g", 1, 2);
	enc_vec(&e, "a", 1, v, 2);
	enc_group(&e, "h", 1, 1);
	expect(&e, EMB_EGROUP, "record 3: group 2 starts while group 1 has 1 of "
	    "2 members");

	/* Trailer count and crc. */
	reset(&e);
	enc_vec(&e, "a", 1, v, 2);
	enc_trailer(&e);
	e.p[e.n - 12]++;
	expect(&e, EMB_ECOUNT, "after record 1: trailer counts 2 records, "
	    "stream had 1");
	e.p[e.n - 12]--;
	e.p[e.n - 1] ^= 0x40;
	expect(&e, EMB_ECRC, "after record 1: crc32");

	/* A trailer cut short, a record cut short. */
	e.n -= 3;
	expect(&e, EMB_ETRUNC, "after record 1: truncated inside the trailer");
	e.n = EMB_HEADER_LEN + 7;
	expect(&e, EMB_ETRUNC, "record 1: truncated inside vector");
	reset(&e);
	expect(&e, EMB_ETRUNC, "after record 0: truncated, no trailer");
	free(e.p);
}
END_TEST

START_TEST(t_eio)
{
	struct emb_reader *r;
	struct emb_writer *w;
	struct emb_rec rec;
	struct enc e = sample();
	float v[2] = { 1, 2 };
	int fd;

	/* A directory reads with EISDIR, a closed descriptor with EBADF. */
	ck_assert_int_ge(fd = open("/", O_RDONLY | O_DIRECTORY), 0);
	ck_assert_int_eq(emb_reader_open(&r, fd, "/"), EMB_EIO);
	ck_assert_ptr_nonnull(strstr(emb_reader_msg(r), "directory"));
	ck_assert_int_eq(emb_reader_next(r, &rec), EMB_EIO);
	emb_reader_free(r);
	close(fd);
	ck_assert_int_eq(emb_reader_open(&r, 1000, "closed"), EMB_EIO);
	emb_reader_free(r);

	/* A read error after the header, in the middle of the records. */
	{
		int pfd[2];

		ck_assert_int_eq(pipe(pfd), 0);
		ck_assert_int_eq(write(pfd[1], e.p, EMB_HEADER_LEN + 5),
		    EMB_HEADER_LEN + 5);
		ck_assert_int_eq(emb_reader_open(&r, pfd[0], "pipe"), 0);
		ck_assert_int_eq(fcntl(pfd[0], F_SETFL, O_NONBLOCK), 0);
		/* EAGAIN: the reader is not for non-blocking input. */
		ck_assert_int_eq(emb_reader_next(r, &rec), EMB_EIO);
		ck_assert_ptr_nonnull(strstr(emb_reader_msg(r), "record 1"));
		emb_reader_free(r);
		close(pfd[0]);
		close(pfd[1]);

		/* The same between two records. */
		ck_assert_int_eq(pipe(pfd), 0);
		ck_assert_int_eq(write(pfd[1], e.p, EMB_HEADER_LEN + 10),
		    EMB_HEADER_LEN + 10);
		ck_assert_int_eq(emb_reader_open(&r, pfd[0], "pipe"), 0);
		ck_assert_int_eq(fcntl(pfd[0], F_SETFL, O_NONBLOCK), 0);
		ck_assert_int_eq(emb_reader_next(r, &rec), 1);
		ck_assert_int_eq(emb_reader_next(r, &rec), EMB_EIO);
		ck_assert_ptr_nonnull(strstr(emb_reader_msg(r), "record 2"));
		ck_assert_int_eq(emb_reader_next(r, &rec), EMB_EIO);
		emb_reader_free(r);
		close(pfd[0]);
		close(pfd[1]);
	}

	/* A full disk: the error shows at the latest on close, and sticks. */
	ck_assert_int_ge(fd = open("/dev/full", O_WRONLY), 0);
	ck_assert_int_eq(emb_writer_open(&w, fd, 2), 0);
	ck_assert_int_eq(emb_write_vec(w, "a", 1, v), 0);
	ck_assert_int_eq(emb_writer_close(w), EMB_EIO);
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_int_eq(emb_write_vec(w, "a", 1, v), EMB_EIO);
	ck_assert_int_eq(emb_writer_close(w), EMB_EIO);
	emb_writer_free(w);
	/* Large records flush on the way. */
	{
		float *big = calloc(EMB_DIM_MAX, 4);
		int rc = 0;

		ck_assert_ptr_nonnull(big);
		ck_assert_int_eq(emb_writer_open(&w, fd, EMB_DIM_MAX), 0);
		for (int i = 0; i < 3 && rc == 0; i++)
			rc = emb_write_vec(w, "", 0, big);
		ck_assert_int_eq(rc, EMB_EIO);
		emb_writer_free(w);
		free(big);
	}
	close(fd);
	free(e.p);
}
END_TEST

/* Pages of address space in use, from /proc/self/statm. */
static size_t
vmsize(void)
{
	FILE *fp = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;

	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(fscanf(fp, "%lu", &pages), 1);
	fclose(fp);
	return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* Cap the address space at what is in use plus slack bytes. */
static void
cap_memory(size_t slack)
{
	struct rlimit rl;

	rl.rlim_cur = rl.rlim_max = vmsize() + slack;
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &rl), 0);
}

START_TEST(t_enomem)
{
	/*
	 * Out of memory, with the address space capped in a child: the
	 * reader growing its block for a 4 MiB record, the writer growing
	 * its buffer, and both failing to start.
	 */
	struct model m = mkmodel(EMB_DIM_MAX, 2, keylens, 1);
	struct enc e = encstream(&m, 1);
	struct emb_reader *r;
	struct emb_writer *w;
	struct emb_rec rec;
	int fd = memfd(e.p, e.n), wfd = memfd_create("emb", 0), rc;
	pid_t pid;

	ck_assert_int_ge(pid = fork(), 0);
	if (pid == 0) {
		ck_assert_int_eq(emb_reader_open(&r, fd, "test"), 0);
		ck_assert_int_eq(emb_writer_open(&w, wfd, EMB_DIM_MAX), 0);
		cap_memory(1u << 20);
		rc = emb_reader_next(r, &rec);
		if (rc != EMB_ENOMEM || strstr(emb_reader_msg(r),
		    "record 1: out of memory") == NULL)
			_exit(1);
		if (emb_write_vec(w, "", 0, m.r[0].vec) != EMB_ENOMEM)
			_exit(2);
		emb_writer_free(w);
		emb_reader_free(r);
		cap_memory(0);
		if (emb_writer_open(&w, wfd, 2) != EMB_ENOMEM)
			_exit(3);
		if (emb_reader_open(&r, fd, "test") != EMB_ENOMEM)
			_exit(4);
		emb_reader_free(r);
		_exit(0);
	}
	{
		int st;

		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		    "child status %d", st);
	}
	close(fd);
	close(wfd);
	free(e.p);
	freemodel(&m);
}
END_TEST

/* ---- the writer's refusals ---- */

START_TEST(t_writer_errors)
{
	struct emb_writer *w;
	float v[2] = { 1, 2 }, nan2[2] = { 1, NAN };
	int fd = memfd_create("emb", 0);
	size_t n;
	unsigned char *got;

	ck_assert_int_eq(emb_writer_open(&w, fd, 0), EMB_EDIM);
	ck_assert_ptr_null(w);
	ck_assert_int_eq(emb_writer_open(&w, fd, EMB_DIM_MAX + 1), EMB_EDIM);
	ck_assert_int_eq(emb_writer_open(&w, fd, 2), 0);

	ck_assert_int_eq(emb_write_vec(w, "a\nb", 3, v), EMB_EKEY);
	ck_assert_int_eq(emb_write_vec(w, "a\\q", 3, v), EMB_EKEY);
	ck_assert_int_eq(emb_write_group(w, "\\", 1, 1), EMB_EKEY);
	ck_assert_int_eq(emb_write_vec(w, "a", 1, nan2), EMB_ENONFINITE);
	ck_assert_int_eq(emb_write_group(w, "g", 1, EMB_GROUP_MAX + 1),
	    EMB_ELIMIT);
	ck_assert_uint_eq(emb_writer_count(w), 0);

	ck_assert_int_eq(emb_write_group(w, "g", 1, 2), 0);
	ck_assert_int_eq(emb_write_vec(w, "a", 1, v), 0);
	ck_assert_int_eq(emb_write_group(w, "h", 1, 0), EMB_EGROUP);
	ck_assert_int_eq(emb_writer_close(w), EMB_EGROUP);
	ck_assert_int_eq(emb_write_vec(w, NULL, 0, v), 0);
	ck_assert_int_eq(emb_write_group(w, NULL, 0, 0), 0);
	ck_assert_int_eq(emb_write_group(w, "", 0, EMB_GROUP_MAX), 0);
	emb_writer_allow_nonfinite(w, 1);
	for (int i = 0; i < EMB_GROUP_MAX && i < 3; i++)
		ck_assert_int_eq(emb_write_vec(w, "n", 1, nan2), 0);
	/* The last group still misses most of its members. */
	ck_assert_int_eq(emb_writer_close(w), EMB_EGROUP);
	emb_writer_free(w);

	/* Closed means closed: no record after the trailer. */
	ck_assert_int_eq(ftruncate(fd, 0), 0);
	ck_assert_int_eq(emb_writer_open(&w, fd, 2), 0);
	ck_assert_int_eq(emb_write_vec(w, "a", 1, v), 0);
	ck_assert_int_eq(emb_writer_close(w), 0);
	ck_assert_int_eq(emb_write_vec(w, "a", 1, v), EMB_EINVAL);
	ck_assert_int_eq(emb_write_group(w, "a", 1, 0), EMB_EINVAL);
	ck_assert_int_eq(emb_writer_close(w), EMB_EINVAL);
	emb_writer_free(w);
	emb_writer_free(NULL);
	emb_reader_free(NULL);
	got = slurp(fd, &n);
	ck_assert_int_eq(readbytes(got, n, 0, NULL, 0), 0);
	ck_assert_uint_eq(n, EMB_HEADER_LEN + 5 + 1 + 8 + EMB_TRAILER_LEN);
	free(got);
	close(fd);
}
END_TEST

/* ---- error texts and helpers ---- */

START_TEST(t_strerror)
{
	static const int codes[] = { EMB_OK, EMB_EIO, EMB_ENOMEM, EMB_EINVAL,
	    EMB_ELIMIT, EMB_EMAGIC, EMB_EVERSION, EMB_EDIM, EMB_ETRUNC,
	    EMB_ETYPE, EMB_EKEY, EMB_ENONFINITE, EMB_EGROUP, EMB_ECOUNT,
	    EMB_ECRC, EMB_ESYNTAX, EMB_ERANGE, EMB_EFORMAT, EMB_EGZIP,
	    EMB_ESTORE, EMB_EZERO, EMB_ENOSOL, EMB_EEMPTY, EMB_ECONVERGE };
	const char *seen[NELEM(codes)];

	for (size_t i = 0; i < NELEM(codes); i++) {
		const char *s = emb_strerror(codes[i]);

		ck_assert_ptr_nonnull(s);
		ck_assert_str_ne(s, "unknown error");
		ck_assert_int_ge(codes[i], EMB_ELAST);
		for (size_t j = 0; j < i; j++)
			ck_assert_str_ne(s, seen[j]);
		seen[i] = s;
	}
	/* Gaps between the module ranges, outside them, positive values. */
	for (int c = 1; c > EMB_ELAST - 100; c--) {
		int known = 0;

		for (size_t i = 0; i < NELEM(codes); i++)
			known |= codes[i] == c;
		if (!known)
			ck_assert_str_eq(emb_strerror(c), "unknown error");
	}
	ck_assert_str_eq(emb_strerror(12345), "unknown error");
	ck_assert_str_eq(emb_strerror(-2147483647 - 1), "unknown error");
}
END_TEST

START_TEST(t_util)
{
	size_t res;
	float v[9] = { 0 };

	ck_assert_int_eq(emb_mul(0, SIZE_MAX, &res), 0);
	ck_assert_uint_eq(res, 0);
	ck_assert_int_eq(emb_mul(SIZE_MAX / 3, 3, &res), 0);
	ck_assert_int_eq(emb_mul(SIZE_MAX / 2 + 1, 2, &res), EMB_ELIMIT);
	ck_assert_int_eq(emb_mul(1u << 20, 1u << 20, &res), 0);
	ck_assert_uint_eq(res, (size_t)1 << 40);
	for (size_t n = 0; n < 300; n += 37) {
		void *p = emb_alloc(n);

		ck_assert_ptr_nonnull(p);
		ck_assert((uintptr_t)p % 64 == 0);
		emb_free(p);
	}
	emb_free(NULL);
	ck_assert(emb_allfinite(v, 0));
	ck_assert(emb_allfinite(v, 9));
	for (int i = 0; i < 9; i++) {
		v[i] = i % 2 ? -INFINITY : NAN;
		ck_assert(!emb_allfinite(v, 9));
		ck_assert(emb_allfinite(v, (size_t)i));
		v[i] = 3.4028235e38f;
	}
	ck_assert(emb_allfinite(v, 9));
}
END_TEST

/*
 * emb_allfinite_le, emb_copyf32_finite and emb_write_vecle on
 * little-endian bytes at every alignment: the same verdict as
 * emb_allfinite, the same values, the same record as emb_write_vec, read
 * back by emb_reader_next and emb_reader_next_into.
 */
START_TEST(t_vecle)
{
	float v[19], back[19];
	unsigned char raw[4 * 19 + 8];
	int p[2];

	for (int i = 0; i < 19; i++)
		v[i] = (float)i - 9.5f;
	for (size_t off = 0; off < 8; off++) {
		emb_putf32s(raw + off, v, 19);
		ck_assert(emb_allfinite_le(raw + off, 19));
		ck_assert(emb_copyf32_finite(back, raw + off, 19));
		ck_assert_mem_eq(back, v, sizeof(v));
		for (int i = 0; i < 19; i++) {
			float bad = i % 2 ? INFINITY : -NAN;

			emb_putf32s(raw + off + 4 * i, &bad, 1);
			ck_assert(!emb_allfinite_le(raw + off, 19));
			ck_assert(emb_allfinite_le(raw + off, (size_t)i));
			ck_assert(!emb_copyf32_finite(back, raw + off, 19));
			ck_assert(emb_copyf32_finite(back, raw + off,
			    (size_t)i));
			ck_assert_mem_eq(back, v, (size_t)i * sizeof(float));
			emb_putf32s(raw + off + 4 * i, &v[i], 1);
		}
	}
	ck_assert_int_eq(pipe(p), 0);
	{
		struct emb_writer *w;
		struct emb_reader *r;
		struct emb_rec rec;

		ck_assert_int_eq(emb_writer_open(&w, p[1], 19), 0);
		emb_putf32s(raw + 3, v, 19);
		ck_assert_int_eq(emb_write_vecle(w, "a", 1, raw + 3), 0);
		ck_assert_int_eq(emb_write_vec(w, "b", 1, v), 0);
		emb_putf32s(raw + 3 + 4 * 5, &(float){ NAN }, 1);
		ck_assert_int_eq(emb_write_vecle(w, "c", 1, raw + 3),
		    EMB_ENONFINITE);
		ck_assert_int_eq(emb_writer_close(w), 0);
		emb_writer_free(w);
		close(p[1]);
		ck_assert_int_eq(emb_reader_open(&r, p[0], "pipe"), 0);
		for (int k = 0; k < 2; k++) {
			float into[19];

			/* The second record straight into the caller's row. */
			ck_assert_int_eq(k ? emb_reader_next_into(r, &rec,
			    into) : emb_reader_next(r, &rec), 1);
			ck_assert(!k || rec.vec == into);
			ck_assert_int_eq(rec.type, EMB_REC_VEC);
			ck_assert_uint_eq(rec.keylen, 1);
			ck_assert_int_eq(rec.key[0], "ab"[k]);
			memcpy(back, rec.vec, sizeof(back));
			ck_assert_mem_eq(back, v, sizeof(v));
		}
		ck_assert_int_eq(emb_reader_next(r, &rec), 0);
		emb_reader_free(r);
		close(p[0]);
	}
}
END_TEST

/*
 * emb_write_vec_unit writes the same bytes as emb_unit_to then
 * emb_write_vec, at every key length (every alignment of the vector in
 * the output), for a zero vector too.
 */
START_TEST(t_vec_unit)
{
	static const char key[] = "0123456";
	float v[301], u[301];
	int fa = memfd_create("emb", 0), fb = memfd_create("emb", 0), z;
	struct emb_writer *wa, *wb;
	unsigned char *a, *b;
	size_t na, nb;

	ck_assert_int_eq(emb_writer_open(&wa, fa, 301), 0);
	ck_assert_int_eq(emb_writer_open(&wb, fb, 301), 0);
	for (size_t k = 0; k < 2 * sizeof(key); k++) {
		size_t kl = k % sizeof(key);
		unsigned char raw[4 * 301 + 8];

		for (int i = 0; i < 301; i++)
			v[i] = kl == 3 ? 0 : (float)(i % 17) - 8.25f *
			    (float)kl;
		if (k < sizeof(key))
			ck_assert_int_eq(emb_write_vec_unit(wa, key, kl, v,
			    &z), 0);
		else {	/* from little-endian bytes at any alignment */
			emb_putf32s(raw + kl, v, 301);
			ck_assert_int_eq(emb_write_vecle_unit(wa, key, kl,
			    raw + kl, &z), 0);
		}
		ck_assert_int_eq(z, kl == 3);
		ck_assert_int_eq(emb_unit_to(v, u, 301), kl != 3);
		ck_assert_int_eq(emb_write_vec(wb, key, kl, u), 0);
	}
	v[7] = NAN;
	ck_assert_int_eq(emb_write_vec_unit(wa, key, 1, v, &z),
	    EMB_ENONFINITE);
	ck_assert_int_eq(emb_writer_close(wa), 0);
	ck_assert_int_eq(emb_writer_close(wb), 0);
	emb_writer_free(wa);
	emb_writer_free(wb);
	a = slurp(fa, &na);
	b = slurp(fb, &nb);
	ck_assert_uint_eq(na, nb);
	ck_assert(memcmp(a, b, na) == 0);
	free(a);
	free(b);
	close(fa);
	close(fb);
}
END_TEST

/*
 * emb_reader_next_le gives the records emb_reader_next gives, the vectors
 * as their bytes unchecked; emb_reader_nonfinite then fails a NaN as
 * emb_reader_next does, with the same message.
 */
START_TEST(t_next_le)
{
	float v[5] = { 1, -2, 3.5f, 0, 4 };
	int fd = memfd_create("emb", 0);
	struct emb_writer *w;
	struct emb_reader *r, *q;
	struct emb_rec rec, rq;
	const void *le;
	float back[5];

	ck_assert_int_eq(emb_writer_open(&w, fd, 5), 0);
	emb_writer_allow_nonfinite(w, 1);
	ck_assert_int_eq(emb_write_group(w, "g", 1, 2), 0);
	ck_assert_int_eq(emb_write_vec(w, "ab", 2, v), 0);
	v[2] = NAN;
	ck_assert_int_eq(emb_write_vec(w, "c", 1, v), 0);
	ck_assert_int_eq(emb_writer_close(w), 0);
	emb_writer_free(w);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(emb_reader_open(&r, fd, "le"), 0);
	ck_assert_int_eq(emb_reader_next_le(r, &rec, &le), 1);
	ck_assert_int_eq(rec.type, EMB_REC_GROUP);
	ck_assert_ptr_null(le);
	ck_assert_int_eq(emb_reader_next_le(r, &rec, &le), 1);
	ck_assert_int_eq(rec.type, EMB_REC_VEC);
	ck_assert_ptr_null(rec.vec);
	ck_assert_uint_eq(rec.keylen, 2);
	emb_getf32s(back, le, 5);
	v[2] = 3.5f;
	ck_assert_mem_eq(back, v, sizeof(v));
	ck_assert_int_eq(emb_reader_nonfinite(r, &rec, le), 0);
	ck_assert_int_eq(emb_reader_next_le(r, &rec, &le), 1);
	ck_assert_int_eq(emb_reader_nonfinite(r, &rec, le), EMB_ENONFINITE);
	ck_assert_int_eq(emb_reader_next_le(r, &rec, &le), EMB_ENONFINITE);
	/* The same stream read the ordinary way. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(emb_reader_open(&q, fd, "le"), 0);
	ck_assert_int_eq(emb_reader_next(q, &rq), 1);
	ck_assert_int_eq(emb_reader_next(q, &rq), 1);
	ck_assert_int_eq(emb_reader_next(q, &rq), EMB_ENONFINITE);
	ck_assert_str_eq(emb_reader_msg(r), emb_reader_msg(q));
	ck_assert_uint_eq(emb_reader_count(r), emb_reader_count(q));
	emb_reader_free(r);
	emb_reader_free(q);
	close(fd);
}
END_TEST

static Suite *
stream_suite(void)
{
	Suite *s = suite_create("stream");
	TCase *tc = tcase_create("stream");

	tcase_add_test(tc, t_sizes);
	tcase_add_test(tc, t_vecle);
	tcase_add_test(tc, t_vec_unit);
	tcase_add_test(tc, t_next_le);
	tcase_add_test(tc, t_empty_stream);
	tcase_add_test(tc, t_concat);
	tcase_add_test(tc, t_pipe_chunks);
	tcase_add_test(tc, t_big_records);
	tcase_add_test(tc, t_eintr);
	tcase_add_test(tc, t_whole_records);
	tcase_add_test(tc, t_truncated);
	tcase_add_test(tc, t_flipped);
	tcase_add_test(tc, t_random_garbage);
	tcase_add_test(tc, t_header_errors);
	tcase_add_test(tc, t_concat_errors);
	tcase_add_test(tc, t_record_errors);
	tcase_add_test(tc, t_eio);
	tcase_add_test(tc, t_enomem);
	tcase_add_test(tc, t_writer_errors);
	tcase_add_test(tc, t_strerror);
	tcase_add_test(tc, t_util);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(stream_suite)
