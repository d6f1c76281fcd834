/*
 * test_formats.c - embedding file readers: format and compression
 * detection, every format's entries, the malformed inputs each must
 * refuse with the line or record named, and the fast float parser checked
 * bit for bit against strtof().
 */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "check_main.h"
#include "emb.h"
#include "io/fmt.h"
#include "io/text.h"
#include "urand.h"

static char tmpl[] = "/tmp/test_formats.XXXXXX";
static char *dir;

static void
setup(void)
{
	dir = mkdtemp(tmpl);
	ck_assert_ptr_nonnull(dir);
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(tmpl, "/tmp/test_formats.XXXXXX");
}

/* Write n bytes to a file in the temporary directory, gzip'd if gz. */
static const char *
put(const char *name, const void *p, size_t n, int gz)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (gz) {
		gzFile g = gzopen(path, "wb");

		ck_assert_ptr_nonnull(g);
		if (n > 0)
			ck_assert_int_eq(gzwrite(g, p, (unsigned)n), (int)n);
		ck_assert_int_eq(gzclose(g), Z_OK);
	} else {
		FILE *fp = fopen(path, "wb");

		ck_assert_ptr_nonnull(fp);
		ck_assert_uint_eq(fwrite(p, 1, n, fp), n);
		ck_assert_int_eq(fclose(fp), 0);
	}
	return path;
}

struct opened {
	struct emb_wfile *f;
	int fd;
	int rc;
};

static struct opened
wopen(const char *path)
{
	struct opened o;

	o.fd = open(path, O_RDONLY);
	ck_assert_int_ge(o.fd, 0);
	o.rc = emb_wfile_open(&o.f, o.fd, "x");
	return o;
}

static void
wclose_(struct opened *o)
{
	emb_wfile_free(o->f);
	close(o->fd);
}

/* Read all entries; @return the count or the error code. */
static long
drain(struct emb_wfile *f)
{
	const char *w;
	const float *v;
	size_t n;
	long k = 0;
	int rc;

	while ((rc = emb_wfile_next(f, &w, &n, &v)) > 0)
		k++;
	return rc < 0 ? rc : k;
}

/* Expect the file to fail (at open or while reading) with code and msg. */
static void
expect_bad(const char *path, int code, const char *msg)
{
	struct opened o = wopen(path);
	int rc = o.rc;

	if (rc == 0)
		rc = (int)drain(o.f);
	ck_assert_msg(rc == code, "%s: code %d, expected %d (%s)", msg, rc,
	    code, emb_wfile_msg(o.f));
	ck_assert_msg(strstr(emb_wfile_msg(o.f), msg) != NULL,
	    "message '%s' lacks '%s'", emb_wfile_msg(o.f), msg);
	wclose_(&o);
}

/* The fixture every format encodes: three words, dimension 3. */
static const char *const words[] = { "cat", "d\xc3\xa9j\xc3\xa0", "x\xff" };
static const float vecs[3][3] = {
	{ 0.5f, -1.25f, 3.0f },
	{ 0.1f, 0.2f, -0.3f },
	{ 1e-3f, 2.5e10f, -7.0f },
};

static void
check_fixture(const char *path, int format, int gz)
{
	struct opened o = wopen(path);
	const char *w;
	const float *v;
	size_t n;

	ck_assert_msg(o.rc == 0, "%s: %s", path, emb_wfile_msg(o.f));
	ck_assert_int_eq(emb_wfile_format(o.f), format);
	ck_assert_int_eq(emb_wfile_gzip(o.f), gz);
	ck_assert_uint_eq(emb_wfile_dim(o.f), 3);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(emb_wfile_next(o.f, &w, &n, &v), 1);
		ck_assert_uint_eq(n, strlen(words[i]));
		ck_assert(memcmp(w, words[i], n) == 0);
		for (int j = 0; j < 3; j++)
			ck_assert(v[j] == vecs[i][j]);
		ck_assert_uint_eq((uintptr_t)v % 64, 0);
	}
	ck_assert_int_eq(emb_wfile_next(o.f, &w, &n, &v), 0);
	ck_assert_int_eq(emb_wfile_next(o.f, &w, &n, &v), 0);
	wclose_(&o);
}

static const char w2vtext[] =
    "3 3\r\n"
    "cat 0.5 -1.25 3 \r\n"
    "d\xc3\xa9j\xc3\xa0 0.1 0.2 -0.3 \r\n"
    "x\xff 0.001 2.5e10 -7\r\n";
static const char glove[] =
    "cat 0.5 -1.25 3.0\n"
    "d\xc3\xa9j\xc3\xa0 0.1 .2 -3e-1\n"
    "x\xff 1e-3 25000000000 -7.";

/* word2vec binary, with or without the newline after each vector. */
static size_t
w2vbin(unsigned char *buf, int nl)
{
	size_t n = (size_t)sprintf((char *)buf, "3 3\n");

	for (int i = 0; i < 3; i++) {
		n += (size_t)sprintf((char *)buf + n, "%s ", words[i]);
		memcpy(buf + n, vecs[i], 12);
		n += 12;
		if (nl)
			buf[n++] = '\n';
	}
	return n;
}

START_TEST(text_formats)
{
	for (int gz = 0; gz < 2; gz++) {
		check_fixture(put("a.vec", w2vtext, strlen(w2vtext), gz),
		    EMB_WF_W2VTEXT, gz);
		check_fixture(put("a.txt", glove, strlen(glove), gz),
		    EMB_WF_GLOVE, gz);
	}
}
END_TEST

START_TEST(binary_format)
{
	unsigned char buf[512];

	for (int gz = 0; gz < 2; gz++)
		for (int nl = 0; nl < 2; nl++)
			check_fixture(put("a.bin", buf, w2vbin(buf, nl), gz),
			    EMB_WF_W2VBIN, gz);
}
END_TEST

/*
 * A mapped word2vec binary file cut short while it is read, within its
 * last page (so that nothing faults: the lost bytes read as zeros), is
 * an error naming the change, never a short vocabulary.
 */
START_TEST(binary_truncated_while_read)
{
	enum { N = 2000, D = 4 };
	static unsigned char buf[N * (8 + D * 4) + 32];
	const char *path;
	struct opened o;
	const char *w;
	const float *v;
	size_t n, len;
	long k = 0;
	int rc;

	len = (size_t)snprintf((char *)buf, sizeof(buf), "%d %d\n", N, D);
	for (int i = 0; i < N; i++) {
		float x[D] = { (float)i, 1, 2, 3 };

		len += (size_t)sprintf((char *)buf + len, "w%05d ", i);
		memcpy(buf + len, x, sizeof(x));
		len += sizeof(x);
	}
	/* Cut 10 bytes that share a page with the end of the file. */
	ck_assert_uint_ge(len % 4096, 11);
	path = put("t.bin", buf, len, 0);
	o = wopen(path);
	ck_assert_int_eq(o.rc, 0);
	ck_assert_int_eq(emb_wfile_format(o.f), EMB_WF_W2VBIN);
	ck_assert_int_eq(emb_wfile_next(o.f, &w, &n, &v), 1);
	ck_assert_int_eq(truncate(path, (off_t)(len - 10)), 0);
	while ((rc = emb_wfile_next(o.f, &w, &n, &v)) > 0)
		k++;
	ck_assert_int_eq(rc, EMB_EIO);
	ck_assert_msg(strstr(emb_wfile_msg(o.f), "changed size") != NULL,
	    "%s", emb_wfile_msg(o.f));
	wclose_(&o);
	/* The same file left alone reads whole. */
	path = put("t.bin", buf, len, 0);
	o = wopen(path);
	ck_assert_int_eq(o.rc, 0);
	ck_assert_int_eq(drain(o.f), N);
	wclose_(&o);
}
END_TEST

START_TEST(binary_newline_bytes)
{
	/* Float bytes that hold newlines and digits are still binary. */
	unsigned char buf[64];
	uint32_t bits[3] = { 0x3f800a0a, 0x0a353520, 0x3f800a35 };
	struct opened o;
	const char *w;
	const float *v;
	size_t n = (size_t)sprintf((char *)buf, "2 3\na ");

	memcpy(buf + n, bits, 12);
	n += 12;
	n += (size_t)sprintf((char *)buf + n, "b ");
	memcpy(buf + n, bits, 12);
	n += 12;
	o = wopen(put("nl.bin", buf, n, 0));
	ck_assert_int_eq(o.rc, 0);
	ck_assert_int_eq(emb_wfile_format(o.f), EMB_WF_W2VBIN);
	ck_assert_int_eq(drain(o.f), 2);
	wclose_(&o);
	o = wopen(put("nl.bin", buf, n, 0));
	ck_assert_int_eq(emb_wfile_next(o.f, &w, &n, &v), 1);
	ck_assert(memcmp(v, bits, 12) == 0);
	wclose_(&o);
}
END_TEST

START_TEST(emb_format)
{
	char path[256], key[64];
	struct emb_writer *w;
	int fd;

	for (int gz = 0; gz < 2; gz++) {
		unsigned char *data;
		long n;
		FILE *fp;

		snprintf(path, sizeof(path), "%s/raw.emb", dir);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(emb_writer_open(&w, fd, 3), 0);
		/* A group is skipped; a second key field is ignored. */
		ck_assert_int_eq(emb_write_group(w, "g", 1, 1), 0);
		for (int i = 0; i < 3; i++) {
			size_t k = emb_key_escape(key, words[i],
			    strlen(words[i]));

			if (i == 2) {
				memcpy(key + k, "\tlabel", 6);
				k += 6;
			}
			ck_assert_int_eq(emb_write_vec(w, key, k, vecs[i]), 0);
		}
		ck_assert_int_eq(emb_writer_close(w), 0);
		emb_writer_free(w);
		close(fd);
		fp = fopen(path, "rb");
		fseek(fp, 0, SEEK_END);
		n = ftell(fp);
		rewind(fp);
		data = malloc((size_t)n);
		ck_assert_int_eq(fread(data, 1, (size_t)n, fp), n);
		fclose(fp);
		check_fixture(put("a.emb", data, (size_t)n, gz), EMB_WF_EMB,
		    gz);
		/* Truncated: the stream reader's message comes through. */
		expect_bad(put("t.emb", data, (size_t)n - 3, gz),
		    EMB_ETRUNC, "trailer");
		free(data);
	}
}
END_TEST

START_TEST(gzip_members)
{
	/* cat a.gz b.gz is one gzip file of two members. */
	char path[256], cmd[600];

	put("p1", glove, 18, 1);
	snprintf(path, sizeof(path), "%s/p1", dir);
	snprintf(cmd, sizeof(cmd), "mv %s %s/m1", path, dir);
	ck_assert_int_eq(system(cmd), 0);
	put("p2", glove + 18, strlen(glove) - 18, 1);
	snprintf(cmd, sizeof(cmd), "cat %s/m1 %s/p2 > %s/two.gz", dir, dir,
	    dir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/two.gz", dir);
	check_fixture(path, EMB_WF_GLOVE, 1);
}
END_TEST

START_TEST(word_with_spaces)
{
	static const char t[] = "a 1 2\nat name@x.com 3 4\nb 5 6\n";
	struct opened o = wopen(put("s.txt", t, sizeof(t) - 1, 0));
	const char *w;
	const float *v;
	size_t n;

	ck_assert_int_eq(o.rc, 0);
	ck_assert_int_eq(emb_wfile_next(o.f, &w, &n, &v), 1);
	ck_assert_int_eq(emb_wfile_next(o.f, &w, &n, &v), 1);
	ck_assert_str_eq(w, "at name@x.com");
	ck_assert(v[0] == 3 && v[1] == 4);
	ck_assert_int_eq(emb_wfile_next(o.f, &w, &n, &v), 1);
	ck_assert_str_eq(w, "b");
	wclose_(&o);
}
END_TEST

START_TEST(malformed)
{
	unsigned char buf[512];
	size_t n = w2vbin(buf, 1);
	static const char tooshort[] = "2 3\na 1 2 3\nb 1 2\n";
	static const char toolong[] = "a 1 2 3\nb 1 2 3 4\n";
	static const char badnum[] = "2 3\na 1 2 3\nb 1 2x 3\n";
	static const char fewer[] = "3 3\na 1 2 3\nb 1 2 3\n";
	static const char more[] = "1 3\na 1 2 3\nb 1 2 3\n";
	static const char nan[] = "a 1 2 3\nb 1 nan 3\n";
	static const char huge[] = "a 1 2 3\nb 1 1e39 3\n";
	static const char nohdr[] = "hello\n";
	static const char ctl[] = "a 1 2 3\n\033]0;pwn\007xxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 1 2\n";
	static const char baddim[] = "3 0\n";

	/* A short binary record, gzip'd or not. */
	for (int gz = 0; gz < 2; gz++)
		expect_bad(put("b.bin", buf, n - 5, gz), EMB_EFORMAT,
		    "record 3: word 'x\\xff': short record");
	/* A header promising a fourth entry. */
	buf[0] = '4';
	expect_bad(put("b.bin", buf, n, 0), EMB_EFORMAT,
	    "file ends after 3 of 4 words");
	buf[0] = '2';
	expect_bad(put("b.bin", buf, n, 0), EMB_EFORMAT,
	    "record 3: data after the 2 words");
	expect_bad(put("b.txt", tooshort, strlen(tooshort), 0), EMB_EFORMAT,
	    "line 3: word 'b': 2 values, expected 3");
	expect_bad(put("b.txt", toolong, strlen(toolong), 0), EMB_EFORMAT,
	    "line 2: word 'b': 4 values, expected 3");
	expect_bad(put("b.txt", badnum, strlen(badnum), 1), EMB_EFORMAT,
	    "line 3: word 'b': bad number '2x'");
	expect_bad(put("b.txt", fewer, strlen(fewer), 0), EMB_EFORMAT,
	    "file ends after 2 of 3 words");
	expect_bad(put("b.txt", more, strlen(more), 0), EMB_EFORMAT,
	    "line 3: more words than the 1");
	expect_bad(put("b.txt", nan, strlen(nan), 0), EMB_EFORMAT,
	    "line 2: word 'b': non-finite value");
	expect_bad(put("b.txt", huge, strlen(huge), 0), EMB_EFORMAT,
	    "line 2: word 'b': bad number '1e39'");
	/* A word is quoted: a short prefix, control bytes escaped. */
	expect_bad(put("b.txt", ctl, strlen(ctl), 0), EMB_EFORMAT,
	    "line 2: word '\\x1b]0;pwn\\x07xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...': "
	    "2 values, expected 3");
	expect_bad(put("b.txt", nohdr, strlen(nohdr), 0), EMB_EFORMAT,
	    "neither a word2vec header");
	expect_bad(put("b.txt", baddim, strlen(baddim), 0), EMB_EDIM,
	    "dimension 0 out of range");
	expect_bad(put("e.txt", "", 0, 0), EMB_EFORMAT, "empty file");
	expect_bad(put("e.gz", "", 0, 1), EMB_EFORMAT, "empty file");
	expect_bad(put("s.store", EMB_STORE_MAGIC "xxxxxxxx", 16, 0),
	    EMB_EFORMAT, "emb-store file");
}
END_TEST

START_TEST(bad_gzip)
{
	char path[256];
	unsigned char *data;
	long n;
	FILE *fp;
	const char *p = put("g.gz", glove, strlen(glove), 1);

	snprintf(path, sizeof(path), "%s", p);
	fp = fopen(path, "rb");
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	data = malloc((size_t)n);
	ck_assert_int_eq(fread(data, 1, (size_t)n, fp), n);
	fclose(fp);
	/* Truncated: lost trailer, then lost data. */
	expect_bad(put("t1.gz", data, (size_t)n - 4, 0), EMB_EGZIP,
	    "gzip data ends early");
	expect_bad(put("t2.gz", data, (size_t)n / 2, 0), EMB_EGZIP,
	    "gzip data ends early");
	/* A flipped byte in the deflate data or the crc. */
	data[n - 6] ^= 0x55;
	expect_bad(put("c.gz", data, (size_t)n, 0), EMB_EGZIP,
	    "corrupt gzip data");
	free(data);
}
END_TEST

/* Check emb_parse_f32 against strtof on the text s. */
static void
same(const char *s)
{
	char *end;
	float want, got;
	size_t used;
	int rc;

	errno = 0;
	want = strtof(s, &end);
	rc = emb_parse_f32(s, strlen(s), &got, &used);
	if (*end != '\0' || end == s) {
		ck_assert_msg(rc < 0, "'%s' accepted", s);
		return;
	}
	if (errno == ERANGE && isinf(want)) {
		ck_assert_int_eq(rc, EMB_ERANGE);
		return;
	}
	ck_assert_msg(rc == 0, "'%s' refused", s);
	ck_assert_uint_eq(used, strlen(s));
	ck_assert_msg(memcmp(&want, &got, 4) == 0 || (isnan(want) &&
	    isnan(got)), "'%s': strtof %a, parsed %a", s, (double)want,
	    (double)got);
}

START_TEST(parse_f32_fixed)
{
	static const char *const cases[] = {
		"0", "-0", "+0", "0.0", "-0.0", ".5", "5.", "1e0", "1E+2",
		"-1e-2", "0.0074364", "-1.6413", "3.4028235e38", "3.4028236e38",
		"3.5e38", "1.17549435e-38", "1.4e-45", "7e-46", "1e-50",
		"0.1", "0.2", "0.3", "123456789", "1234567890123456789",
		"12345678901234567890", "0.000000000000000000000000000001",
		"9007199254740993", "16777217", "16777216.5", "16777218.5",
		"1e22", "1e23", "1e-22", "1e-23", "nan", "inf", "-inf",
		"0x1p3", "1e", "1e+", ".", "-", "+.e1", "1..2", "1.2.3", "e5",
		"0.000000000000000000000000000000000000000000011754943508",
		"4.999999999999999999999999e-1", "00000000000000000000001.5",
		"2.50000000000000000000000000000000000001",
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		same(cases[i]);
}
END_TEST

START_TEST(parse_f32_random)
{
	char s[96];

	for (int i = 0; i < 300000; i++) {
		uint64_t r = urand64();
		uint32_t u = (uint32_t)r;
		float f;
		double mid;

		memcpy(&f, &u, 4);
		if (!isfinite(f))
			continue;
		switch (i % 6) {
		case 0:		/* shortest-ish and longer spellings */
			snprintf(s, sizeof(s), "%.*g", 1 + (int)(r >> 40) % 9,
			    (double)f);
			break;
		case 1:
			snprintf(s, sizeof(s), "%.*e", (int)(r >> 40) % 12,
			    (double)f);
			break;
		case 2:		/* halfway between two floats, exactly */
			mid = ((double)f + (double)nextafterf(f, INFINITY)) /
			    2;
			snprintf(s, sizeof(s), "%.*g", 15 + (int)(r >> 40) % 11,
			    mid);
			break;
		case 3:		/* GloVe-like: 5 or 6 significant digits */
			snprintf(s, sizeof(s), "%.*g", 5 + (int)(r >> 40) % 2,
			    ldexp((double)(int32_t)u / 2147483648.0, -(int)(r >>
			    50) % 8));
			break;
		case 4:		/* random digit strings with exponents */
			snprintf(s, sizeof(s), "%s%llu.%llue%d", r & 1 ? "-" :
			    "", (unsigned long long)(urand64() % 100000000),
			    (unsigned long long)(urand64() % 1000000000),
			    (int)(urand64() % 90) - 50);
			break;
		default:	/* plain fixed-point */
			snprintf(s, sizeof(s), "%.*f", (int)(r >> 40) % 10,
			    ldexp((double)(int32_t)u, -(int)(r >> 50) % 40));
			break;
		}
		same(s);
	}
}
END_TEST

START_TEST(parse_f32_stops)
{
	float f;
	size_t used;

	/* A number ends at a blank; junk right after it is refused. */
	ck_assert_int_eq(emb_parse_f32("1.5 2", 5, &f, &used), 0);
	ck_assert_uint_eq(used, 3);
	ck_assert(f == 1.5f);
	ck_assert_int_eq(emb_parse_f32("1.5\t", 4, &f, &used), 0);
	ck_assert_uint_eq(used, 3);
	ck_assert_int_eq(emb_parse_f32("1.5", 2, &f, &used), 0);
	ck_assert(f == 1.0f);
	ck_assert_int_eq(emb_parse_f32("1.5x", 4, &f, &used), EMB_ESYNTAX);
	ck_assert_int_eq(emb_parse_f32("", 0, &f, &used), EMB_ESYNTAX);
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(emb_wfile_fmtname(EMB_WF_GLOVE), "GloVe text");
	ck_assert_str_eq(emb_wfile_fmtname(0), "unknown");
	emb_wfile_free(NULL);
}
END_TEST

/* emb_sniff: each kind from its first bytes, and what none of them is. */
START_TEST(sniff)
{
	static const struct {
		const char	*b;
		size_t		 n;
		int		 kind;
	} c[] = {
		{ EMB_MAGIC "\1\0\0\0", 12, EMB_KIND_STREAM },
		{ EMB_STORE_MAGIC "\1\0", 10, EMB_KIND_STORE },
		{ "\x1f\x8b\x08\0", 4, EMB_KIND_GZIP },
		{ "\x93NUMPY\1\0", 8, EMB_KIND_NPY },
		{ "\xba\x16\x4f\x2f\x0c\0\0\0", 8, EMB_KIND_FTBIN },
		{ "400000 300\n", 11, EMB_KIND_HEADER },
		{ "2 3\r\nthe 1 2 3\n", 15, EMB_KIND_HEADER },
		{ "2 3\nthe \x01\x02", 10, EMB_KIND_UNKNOWN },
		{ "the 0.418 0.24968 -0.41242", 26, EMB_KIND_TEXT },
		{ "400000 300", 10, EMB_KIND_TEXT },	/* no line end seen */
		{ "a\t1 2\n", 6, EMB_KIND_TEXT },
		{ "s1\t#2\n", 6, EMB_KIND_TEXT },
		{ "w -.5\n", 6, EMB_KIND_TEXT },
		{ "king queen\nman\n", 15, EMB_KIND_WORDS },
		{ "1\tthe film -- a 'best'\n", 23, EMB_KIND_WORDS },
		{ "caf\xc3\xa9 1 2\n", 10, EMB_KIND_TEXT },
		{ "\x89" "EMC\r\n\x1a\n", 8, EMB_KIND_UNKNOWN },
		{ "\n", 1, EMB_KIND_UNKNOWN },
		{ "", 0, EMB_KIND_UNKNOWN },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ck_assert_msg(emb_sniff(c[i].b, c[i].n) == c[i].kind,
		    "case %zu: kind %d, expected %d", i,
		    emb_sniff(c[i].b, c[i].n), c[i].kind);
}
END_TEST

static Suite *
formats_suite(void)
{
	Suite *s = suite_create("formats");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, text_formats);
	tcase_add_test(tc, binary_format);
	tcase_add_test(tc, binary_newline_bytes);
	tcase_add_test(tc, binary_truncated_while_read);
	tcase_add_test(tc, emb_format);
	tcase_add_test(tc, gzip_members);
	tcase_add_test(tc, word_with_spaces);
	tcase_add_test(tc, malformed);
	tcase_add_test(tc, bad_gzip);
	tcase_add_test(tc, parse_f32_fixed);
	tcase_add_test(tc, parse_f32_random);
	tcase_add_test(tc, parse_f32_stops);
	tcase_add_test(tc, names);
	tcase_add_test(tc, sniff);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(formats_suite)
