/*
 * test_store.c - the store: built in memory and to a file, the same bytes
 * either way; every word found with its vector, rows aligned; duplicates
 * and limits; and every damaged store (truncated at many lengths, a byte
 * changed in each region, a forged index with a valid checksum) refused
 * with EMB_ESTORE rather than read.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check_main.h"
#include "emb.h"
#include "io/fmt.h"
#include "store/access.h"

#define NW	3000		/* words: the buckets grow several times */
#define DIM	7

static char tmpl[] = "/tmp/test_store.XXXXXX";
static char *dir;
static char src[256], sto[256];

/* Word i of the fixture; every tenth is seen twice (a duplicate). */
static void
word(char *buf, int i)
{
	sprintf(buf, i % 97 == 0 ? "W\xe9%d" : "w%d", i);
}

static float
val(int i, int j)
{
	return (float)i + (float)j / 8;
}

static void
setup(void)
{
	FILE *fp;
	char w[32];

	dir = mkdtemp(tmpl);
	ck_assert_ptr_nonnull(dir);
	snprintf(src, sizeof(src), "%s/src.txt", dir);
	snprintf(sto, sizeof(sto), "%s/s.store", dir);
	fp = fopen(src, "w");
	for (int i = 0; i < NW; i++) {
		word(w, i);
		fprintf(fp, "%s", w);
		for (int j = 0; j < DIM; j++)
			fprintf(fp, " %.9g", (double)val(i, j));
		fputc('\n', fp);
		if (i % 10 == 5) {
			/* A duplicate with other values: dropped. */
			fprintf(fp, "%s", w);
			for (int j = 0; j < DIM; j++)
				fprintf(fp, " -1");
			fputc('\n', fp);
		}
	}
	fclose(fp);
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(tmpl, "/tmp/test_store.XXXXXX");
}

static struct emb_wfile *
wopen(int *fd)
{
	struct emb_wfile *f;

	*fd = open(src, O_RDONLY);
	ck_assert_int_ge(*fd, 0);
	ck_assert_int_eq(emb_wfile_open(&f, *fd, "src"), 0);
	return f;
}

static void
build(uint64_t limit, struct emb_store_stats *ss)
{
	struct emb_wfile *f;
	int fd, out;

	f = wopen(&fd);
	out = open(sto, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(out, 0);
	ck_assert_int_eq(emb_store_build(out, f, limit, NULL, NULL, ss), 0);
	close(out);
	emb_wfile_free(f);
	close(fd);
}

static void
check_all(struct emb_store *s, int n)
{
	char w[32];

	ck_assert_uint_eq(emb_store_dim(s), DIM);
	ck_assert_uint_eq(emb_store_count(s), (uint64_t)n);
	ck_assert_uint_eq(emb_store_stride(s), 16);
	for (int i = 0; i < n; i++) {
		const float *v;
		const char *p;
		size_t len;

		word(w, i);
		ck_assert_int_eq(emb_store_lookup(s, w, strlen(w)), i);
		p = emb_store_word(s, (uint64_t)i, &len);
		ck_assert_uint_eq(len, strlen(w));
		ck_assert_str_eq(p, w);
		v = emb_store_vector(s, (uint64_t)i);
		ck_assert_uint_eq((uintptr_t)v % 64, 0);
		for (int j = 0; j < DIM; j++)
			ck_assert(v[j] == val(i, j));
	}
	ck_assert_int_eq(emb_store_lookup(s, "nope", 4), -1);
	ck_assert_int_eq(emb_store_lookup(s, "w1", 1), -1);
	ck_assert_int_eq(emb_store_lookup(s, "", 0), -1);
}

static unsigned char *
slurp(const char *path, size_t *n)
{
	struct stat st;
	unsigned char *p;
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	fstat(fd, &st);
	*n = (size_t)st.st_size;
	p = malloc(*n);
	ck_assert_int_eq(read(fd, p, *n), (ssize_t)*n);
	close(fd);
	return p;
}

static void
spit(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, p, n), (ssize_t)n);
	close(fd);
}

START_TEST(build_and_open)
{
	struct emb_store_stats ss;
	struct emb_store *s;

	build(0, &ss);
	ck_assert_uint_eq(ss.read, NW + NW / 10);
	ck_assert_uint_eq(ss.words, NW);
	ck_assert_uint_eq(ss.dups, NW / 10);
	ck_assert_str_eq(ss.dupword, "w5");
	ck_assert_uint_eq(ss.dupwhere, 7);
	ck_assert_int_eq(emb_store_open(&s, sto), 0);
	check_all(s, NW);
	ck_assert_int_eq(emb_store_verify(s), 0);
	emb_store_close(s);
	emb_store_close(NULL);
}
END_TEST

/* Write s as a store: the same bytes as the store file sto. */
static void
rewrite(const struct emb_store *s)
{
	unsigned char *a, *b;
	size_t na, nb;
	char path[300];
	int out;

	snprintf(path, sizeof(path), "%s/w.store", dir);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_eq(emb_store_write(s, out), 0);
	close(out);
	a = slurp(sto, &na);
	b = slurp(path, &nb);
	ck_assert_uint_eq(na, nb);
	ck_assert(memcmp(a, b, na) == 0);
	free(a);
	free(b);
}

START_TEST(load_equals_build)
{
	struct emb_store_stats ss;
	struct emb_store *s;
	struct emb_wfile *f;
	int fd;

	build(0, &ss);
	f = wopen(&fd);
	ck_assert_int_eq(emb_store_load(&s, f, 0, NULL, NULL, &ss), 0);
	emb_wfile_free(f);
	close(fd);
	check_all(s, NW);
	rewrite(s);
	emb_store_close(s);
}
END_TEST

/*
 * A store built from a fastText model (make check runs from the top of
 * the tree) keeps its n-grams: an unknown word's vector is the model's,
 * bit for bit, and the store written again is the same file.
 */
START_TEST(subword)
{
	static const char *const tok[] = { "xyzzy", "the", "caf\xc3\xa9", "q" };
	struct emb_store_stats ss;
	struct emb_subword sw;
	struct emb_store *s;
	struct emb_wfile *f;
	float v[8], u[8];
	int fd, out;

	fd = open("tests/data/fasttext/model.bin", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(emb_wfile_open(&f, fd, "model.bin"), 0);
	ck_assert_uint_eq(emb_wfile_dim(f), 8);
	out = open(sto, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_eq(emb_store_build(out, f, 0, NULL, NULL, &ss), 0);
	close(out);
	ck_assert_int_eq(emb_store_open(&s, sto), 0);
	ck_assert_int_eq(emb_store_verify(s), 0);
	ck_assert_int_eq(emb_store_subword(s, &sw), 0);
	ck_assert_int_eq(sw.minn, 3);
	ck_assert_int_eq(sw.maxn, 5);
	ck_assert_uint_eq(sw.bucket, 500);
	for (size_t i = 0; i < sizeof(tok) / sizeof(*tok); i++) {
		int n = emb_subvec(&sw, tok[i], strlen(tok[i]), v);

		ck_assert_int_eq(n, emb_ft_subvec(emb_wfile_ft(f), tok[i],
		    strlen(tok[i]), u));
		ck_assert(memcmp(u, v, sizeof(v)) == 0);
	}
	emb_wfile_free(f);
	close(fd);
	rewrite(s);
	emb_store_close(s);
	/* A store of another format has none. */
	build(0, &ss);
	ck_assert_int_eq(emb_store_open(&s, sto), 0);
	ck_assert_int_eq(emb_store_subword(s, &sw), -1);
	emb_store_close(s);
}
END_TEST

START_TEST(limit)
{
	struct emb_store_stats ss;
	struct emb_store *s;

	/* The first 17 entries of the file: 16 words and one duplicate. */
	build(17, &ss);
	ck_assert_uint_eq(ss.read, 17);
	ck_assert_uint_eq(ss.words, 16);
	ck_assert_int_eq(emb_store_open(&s, sto), 0);
	check_all(s, 16);
	emb_store_close(s);
}
END_TEST

START_TEST(fdopen_once)
{
	struct emb_store_stats ss;
	struct emb_store *s;
	int fd, p[2];

	/* The caller's descriptor, left open and where it was. */
	build(0, &ss);
	fd = open(sto, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(emb_store_fdopen(&s, fd), 0);
	ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), 0);
	ck_assert_int_eq(close(fd), 0);
	check_all(s, NW);
	emb_store_close(s);
	/* A pipe cannot be mapped: refused as no store, nothing read. */
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(write(p[1], "x", 1), 1);
	ck_assert_int_eq(emb_store_fdopen(&s, p[0]), EMB_EMAGIC);
	ck_assert_str_eq(emb_store_msg(s), "not a regular file");
	emb_store_close(s);
	ck_assert_int_eq(read(p[0], &ss, 1), 1);
	close(p[0]);
	close(p[1]);
}
END_TEST

/* Open must fail with code. */
static void
refused(const void *p, size_t n, int code)
{
	struct emb_store *s;
	char path[300];
	int rc;

	snprintf(path, sizeof(path), "%s/bad.store", dir);
	spit(path, p, n);
	rc = emb_store_open(&s, path);
	ck_assert_msg(rc == code, "length %zu: code %d, expected %d (%s)", n,
	    rc, code, s ? emb_store_msg(s) : "");
	emb_store_close(s);
}

START_TEST(truncated)
{
	struct emb_store_stats ss;
	unsigned char *a;
	size_t n;

	build(200, &ss);
	a = slurp(sto, &n);
	for (size_t k = 0; k < n; k += k < 80 ? 1 : 61)
		refused(a, k, k < 8 ? EMB_EMAGIC : EMB_ESTORE);
	refused(a, n - 1, EMB_ESTORE);
	/* Appended to. */
	a = realloc(a, n + 1);
	a[n] = 0;
	refused(a, n + 1, EMB_ESTORE);
	free(a);
}
END_TEST

static void
fixcrc(unsigned char *h)
{
	uint32_t c = (uint32_t)crc32(0L, h, 60);

	h[60] = (unsigned char)c;
	h[61] = (unsigned char)(c >> 8);
	h[62] = (unsigned char)(c >> 16);
	h[63] = (unsigned char)(c >> 24);
}

START_TEST(modified)
{
	struct emb_store_stats ss;
	struct emb_store *s;
	unsigned char *a;
	size_t n, offoff, kat, rat, rows;
	char path[300];
	uint32_t c;

	build(200, &ss);
	a = slurp(sto, &n);
	/* The search section: a header, codes of 8 bytes, 16 of terms. */
	kat = 64 + (size_t)ss.words * 16 * 4;
	rows = (ss.words + 63) / 64 * 64;
	/* The row checksums: a header, 4 bytes a word. */
	rat = kat + 64 + rows * (8 + 16);
	offoff = rat + 64 + (size_t)ss.words * 4;
	/* Any header byte after the version. */
	for (size_t k = 12; k < 64; k++) {
		a[k] ^= 0x20;
		refused(a, n, EMB_ESTORE);
		a[k] ^= 0x20;
	}
	/* A new version, honestly checksummed. */
	a[8] = 2;
	fixcrc(a);
	refused(a, n, EMB_EVERSION);
	a[8] = 1;
	fixcrc(a);
	/* Row checksums without a search section, honestly checksummed. */
	a[56] = 4;
	fixcrc(a);
	refused(a, n, EMB_ESTORE);
	a[56] = 6;
	fixcrc(a);
	/* Any byte of the search section's header. */
	for (size_t k = kat; k < kat + 64; k++) {
		a[k] ^= 0x02;
		refused(a, n, EMB_ESTORE);
		a[k] ^= 0x02;
	}
	/* Any byte of the row checksums' header. */
	for (size_t k = rat; k < rat + 64; k++) {
		a[k] ^= 0x04;
		refused(a, n, EMB_ESTORE);
		a[k] ^= 0x04;
	}
	/* Any index byte: offsets, words, buckets. */
	for (size_t k = offoff; k < n; k += 37) {
		a[k] ^= 0x01;
		refused(a, n, EMB_ESTORE);
		a[k] ^= 0x01;
	}
	/* A forged bucket with a valid checksum: structure check. */
	a[n - 4] = 0xff;
	a[n - 3] = 0xff;
	c = (uint32_t)crc32(0L, a + offoff, (uInt)(n - offoff));
	memcpy(a + 48, &c, 4);
	fixcrc(a);
	refused(a, n, EMB_ESTORE);
	free(a);
	/* A vector, code or term byte: open succeeds, verify catches it. */
	snprintf(path, sizeof(path), "%s/v.store", dir);
	for (int t = 0; t < 3; t++) {
		a = slurp(sto, &n);
		a[t == 0 ? 64 + 5 : kat + 64 + (t == 2 ? rows * 8 + 3 : 17)] ^=
		    0x10;
		spit(path, a, n);
		ck_assert_int_eq(emb_store_open(&s, path), 0);
		ck_assert_int_eq(emb_store_verify(s), EMB_ESTORE);
		ck_assert(strstr(emb_store_msg(s), t == 0 ? "vector checksum" :
		    "search section") != NULL);
		emb_store_close(s);
		free(a);
	}
	/*
	 * A vector byte, or its row checksum: emb_store_check of that row
	 * fails, naming the word, and of every other row passes.
	 */
	for (int t = 0; t < 2; t++) {
		a = slurp(sto, &n);
		a[t == 0 ? 64 + 2 * 64 + 6 : rat + 64 + 2 * 4 + 1] ^= 0x01;
		spit(path, a, n);
		ck_assert_int_eq(emb_store_open(&s, path), 0);
		for (uint64_t i = 0; i < ss.words; i++)
			ck_assert_int_eq(emb_store_check(s, i), i == 2 ?
			    EMB_ESTORE : 0);
		ck_assert(strstr(emb_store_msg(s), "word 3 ") != NULL);
		ck_assert_int_eq(emb_store_damaged(s), 1);
		emb_store_close(s);
		free(a);
	}
	/* Not a store at all, and a missing file. */
	refused("hello world, not a store", 24, EMB_EMAGIC);
	ck_assert_int_eq(emb_store_open(&s, "/nonexistent/x"), EMB_EIO);
	emb_store_close(s);
	ck_assert_int_eq(emb_store_open(&s, dir), EMB_EMAGIC);
	emb_store_close(s);
}
END_TEST

static Suite *
store_suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, build_and_open);
	tcase_add_test(tc, load_equals_build);
	tcase_add_test(tc, subword);
	tcase_add_test(tc, limit);
	tcase_add_test(tc, fdopen_once);
	tcase_add_test(tc, truncated);
	tcase_add_test(tc, modified);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(store_suite)
