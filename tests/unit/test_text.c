/*
 * test_text.c - float text and the one-line-per-record text view.
 *
 * emb_ftoa must give back the very same float32 through strtof for every
 * bit pattern tried (every 997th of the 2^32, plus the edges), and no text
 * shorter than its own may do so.  emb_text_parse must read what
 * emb_text_vec writes at every awkward dimension and refuse the rest with
 * the documented codes.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "emb.h"
#include "ref.h"
#include "io/text.h"

static const uint32_t dims[] = { 1, 2, 7, 8, 255, 256, 257 };
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static float
fbits(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t
bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* Significant digits of a decimal text (no trailing zeros counted). */
static int
sigdigits(const char *s)
{
	int n = 0, zeros = 0, started = 0;

	for (; *s != '\0' && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (*s != '0')
			started = 1;
		if (!started)
			continue;
		n++;
		zeros = *s == '0' ? zeros + 1 : 0;
	}
	return n - zeros;
}

/*
 * The fewest significant digits of a decimal that reads back as f, found
 * independently of emb_ftoa: for each digit count p, the correctly rounded
 * p-digit decimal and its two p-digit neighbours.
 */
static int
shortest(float f)
{
	for (int p = 1; p <= 9; p++) {
		char b[64], c[64], *e;
		long long m = 0;
		int neg, ex;

		snprintf(b, sizeof(b), "%.*e", p - 1, (double)f);
		if (strtof(b, NULL) == f)
			return p;
		neg = b[0] == '-';
		e = strchr(b, 'e');
		ex = atoi(e + 1);
		for (const char *q = b + neg; q < e; q++)
			if (*q >= '0' && *q <= '9')
				m = m * 10 + (*q - '0');
		for (int d = -1; d <= 1; d += 2) {
			snprintf(c, sizeof(c), "%s%lldE%d", neg ? "-" : "",
			    m + d, ex - (p - 1));
			if (strtof(c, NULL) == f)
				return p;
		}
	}
	return 10;
}

/*
 * f through emb_ftoa and strtof: the same bits; with full, shortest too.
 * Plain tests in this hot loop: a passing ck_assert costs a system call.
 */
static void
ftoa_ok(float f, int full)
{
	char buf[EMB_FTOA_MAX + 8];
	int n;

	memset(buf, 'x', sizeof(buf));
	n = emb_ftoa(buf, f);
	if (n <= 0 || n >= EMB_FTOA_MAX || strlen(buf) != (size_t)n)
		ck_abort_msg("%08x -> '%s', length %d", bits(f), buf, n);
	if (bits(strtof(buf, NULL)) != bits(f))
		ck_abort_msg("%08x -> %s does not read back", bits(f), buf);
	if (full && f != 0 && sigdigits(buf) != shortest(f))
		ck_abort_msg("%08x -> %s, %d digits suffice", bits(f), buf,
		    shortest(f));
}

START_TEST(t_ftoa_sample)
{
	/*
	 * Every 997th bit pattern (all exponents, both signs), in four
	 * interleaved parts; every 100th of those is checked for shortness.
	 */
	for (uint64_t u = (uint64_t)_i * 997; u < 0x100000000ull;
	    u += 997 * 4) {
		float f = fbits((uint32_t)u);

		if (isfinite(f))
			ftoa_ok(f, u % (997 * 100) == 0);
	}
}
END_TEST

START_TEST(t_ftoa_edges)
{
	static const float edges[] = { 0.0f, 1.0f, 0.1f, 0.2f, 0.3f, 1.5f,
	    3.14159265f, 1e-10f, 123456789.0f, 16777216.0f, 16777217.0f,
	    FLT_MIN, FLT_MAX, FLT_EPSILON, 1e38f, 9.999999e-39f };

	for (size_t i = 0; i < NELEM(edges); i++) {
		ftoa_ok(edges[i], 1);
		ftoa_ok(-edges[i], 1);
	}
	/* Every power of two and its neighbours (the uneven roundings). */
	for (uint32_t e = 0; e < 255; e++)
		for (int d = -3; d <= 3; d++) {
			uint32_t u = (e << 23) + (uint32_t)d;

			if (e == 0 && d < 0)
				continue;
			ftoa_ok(fbits(u), 1);
			ftoa_ok(fbits(u | 0x80000000u), 1);
		}
	/* Subnormals: the smallest ones, and a sample. */
	for (uint32_t u = 1; u < 5000; u++)
		ftoa_ok(fbits(u), 1);
	for (uint32_t u = 1; u < 0x00800000u; u += 7919)
		ftoa_ok(fbits(u), 1);
	/* Around 1: the densest digits. */
	for (uint32_t u = bits(1.0f) - 3000; u < bits(1.0f) + 3000; u++)
		ftoa_ok(fbits(u), 1);
}
END_TEST

START_TEST(t_ftoa_text)
{
	char buf[EMB_FTOA_MAX];

	ck_assert_int_eq(emb_ftoa(buf, NAN), 3);
	ck_assert_str_eq(buf, "nan");
	ck_assert_int_eq(emb_ftoa(buf, -NAN), 3);
	ck_assert_str_eq(buf, "nan");
	ck_assert_int_eq(emb_ftoa(buf, INFINITY), 3);
	ck_assert_str_eq(buf, "inf");
	ck_assert_int_eq(emb_ftoa(buf, -INFINITY), 4);
	ck_assert_str_eq(buf, "-inf");
	emb_ftoa(buf, 0.0f);
	ck_assert_str_eq(buf, "0");
	emb_ftoa(buf, -0.0f);
	ck_assert_str_eq(buf, "-0");
	emb_ftoa(buf, 0.1f);
	ck_assert_str_eq(buf, "0.1");
	emb_ftoa(buf, 1e10f);
	ck_assert_str_eq(buf, "1e+10");
	emb_ftoa(buf, fbits(1));
	ck_assert_str_eq(buf, "1e-45");
	emb_ftoa(buf, -FLT_MIN);
	ck_assert_str_eq(buf, "-1.1754944e-38");
	emb_ftoa(buf, 16777217.0f);
	ck_assert_str_eq(buf, "16777216");
}
END_TEST

START_TEST(t_atof)
{
	static const struct {
		const char	*s;
		int		 rc;
		size_t		 used;
		float		 f;
	} t[] = {
		{ "1", 0, 1, 1.0f },
		{ "-0.5 2", 0, 4, -0.5f },
		{ "+3e2", 0, 4, 300.0f },
		{ ".25", 0, 3, 0.25f },
		{ "1e-50", 0, 5, 0.0f },	/* underflow rounds to 0 */
		{ "3.4028235e38", 0, 12, FLT_MAX },
		{ "inf", 0, 3, INFINITY },
		{ "-Infinity", 0, 9, -INFINITY },
		{ "1x", 0, 1, 1.0f },
		{ "0x10", 0, 1, 0.0f },		/* no hexadecimal */
		{ "", EMB_ESYNTAX, 0, 0 },
		{ "x", EMB_ESYNTAX, 0, 0 },
		{ " 1", EMB_ESYNTAX, 0, 0 },
		{ "-", EMB_ESYNTAX, 0, 0 },
		{ ".", EMB_ESYNTAX, 0, 0 },
		{ "e5", EMB_ESYNTAX, 0, 0 },
		{ "1e39", EMB_ERANGE, 0, 0 },
		{ "-1e39", EMB_ERANGE, 0, 0 },
		{ "3.5e38", EMB_ERANGE, 0, 0 },
	};

	for (size_t i = 0; i < NELEM(t); i++) {
		float f = 42;
		size_t used = 99;
		int rc = emb_text_f32(t[i].s, strlen(t[i].s), &f, &used);

		ck_assert_msg(rc == t[i].rc, "'%s': %d", t[i].s, rc);
		if (rc < 0)
			continue;
		ck_assert_uint_eq(used, t[i].used);
		ck_assert(bits(f) == bits(t[i].f));
	}
	/* NaN, and only len bytes are read. */
	{
		float f;
		size_t used;

		ck_assert_int_eq(emb_text_f32("nan", 3, &f, &used), 0);
		ck_assert(isnan(f));
		ck_assert_int_eq(emb_text_f32("12345", 2, &f, &used), 0);
		ck_assert(f == 12.0f && used == 2);
		ck_assert_int_eq(emb_text_f32("7", 0, &f, &used), EMB_ESYNTAX);
	}
}
END_TEST

/* Parse line (NUL-terminated) with room for cap floats. */
static int
parse(const char *line, uint32_t cap, uint32_t dim, int allow,
    struct emb_textrec *t, float *vec)
{
	return emb_text_parse(line, strlen(line), vec, cap, dim, allow, t);
}

START_TEST(t_view_roundtrip)
{
	/* emb_text_vec then emb_text_parse, bit for bit, every dimension. */
	static const char key[] = "s1\tpos\twor\\td\xff";
	uint32_t seed = 12345;

	for (size_t d = 0; d < NELEM(dims); d++) {
		uint32_t dim = dims[d];
		float *v = malloc(dim * sizeof(float));
		float *w = malloc(dim * sizeof(float));
		char *buf = malloc(sizeof(key) + dim * EMB_FTOA_MAX + 2);
		struct emb_textrec t;
		size_t n;

		ck_assert(v && w && buf);
		for (uint32_t i = 0; i < dim; i++) {
			seed = seed * 1664525u + 1013904223u;
			v[i] = fbits(seed & 0xbf7fffffu);
		}
		n = emb_text_vec(buf, key, sizeof(key) - 1, v, dim);
		ck_assert_int_eq(buf[n - 1], '\n');
		ck_assert_ptr_null(memchr(buf, '\n', n - 1));
		ck_assert_int_eq(emb_text_parse(buf, n - 1, w, dim, 0, 0, &t),
		    0);
		ck_assert_int_eq(t.type, EMB_REC_VEC);
		ck_assert_uint_eq(t.dim, dim);
		ck_assert_uint_eq(t.keylen, sizeof(key) - 1);
		ck_assert_ptr_eq(t.key, buf);
		ck_assert(memcmp(v, w, dim * sizeof(float)) == 0);
		/* The same with the dimension imposed. */
		ck_assert_int_eq(emb_text_parse(buf, n - 1, w, dim, dim, 0,
		    &t), 0);
		/* One component less room: the count is reported. */
		ck_assert_int_eq(emb_text_parse(buf, n - 1, w, dim - 1, 0, 0,
		    &t), dim > 1 ? EMB_EDIM : EMB_EDIM);
		ck_assert_uint_eq(t.dim, dim);
		ck_assert_int_eq(emb_text_parse(buf, n - 1, w, dim + 5,
		    dim + 1, 0, &t), EMB_EDIM);
		ck_assert_uint_eq(t.dim, dim);
		free(v);
		free(w);
		free(buf);
	}
}
END_TEST

START_TEST(t_view_format)
{
	float v[3] = { 1.0f, -0.5f, 1e-7f };
	char buf[128];
	size_t n = emb_text_vec(buf, "a\tb", 3, v, 3);

	ck_assert_uint_eq(n, strlen("a\tb\t1 -0.5 1e-07\n"));
	ck_assert(memcmp(buf, "a\tb\t1 -0.5 1e-07\n", n) == 0);
	n = emb_text_vec(buf, "", 0, v, 1);
	ck_assert(memcmp(buf, "\t1\n", n) == 0);
}
END_TEST

START_TEST(t_view_groups)
{
	struct emb_textrec t;
	float v[4];

	ck_assert_int_eq(parse("s1\tthe cat\t#3", 4, 0, 0, &t, v), 0);
	ck_assert_int_eq(t.type, EMB_REC_GROUP);
	ck_assert_uint_eq(t.nmemb, 3);
	ck_assert_uint_eq(t.keylen, 10);
	ck_assert_int_eq(parse("\t#0", 4, 0, 0, &t, v), 0);
	ck_assert_uint_eq(t.nmemb, 0);
	ck_assert_uint_eq(t.keylen, 0);
	ck_assert_int_eq(parse("g\t#0268435456", 4, 0, 0, &t, v), 0);
	ck_assert_uint_eq(t.nmemb, EMB_GROUP_MAX);
	ck_assert_int_eq(parse("g\t#268435457", 4, 0, 0, &t, v), EMB_ELIMIT);
	ck_assert_int_eq(parse("g\t#99999999999999999999999", 4, 0, 0, &t, v),
	    EMB_ELIMIT);
	ck_assert_int_eq(parse("g\t#", 4, 0, 0, &t, v), EMB_ESYNTAX);
	ck_assert_int_eq(parse("g\t#-1", 4, 0, 0, &t, v), EMB_ESYNTAX);
	ck_assert_int_eq(parse("g\t# 2", 4, 0, 0, &t, v), EMB_ESYNTAX);
	ck_assert_int_eq(parse("g\t#2 ", 4, 0, 0, &t, v), EMB_ESYNTAX);
}
END_TEST

START_TEST(t_view_errors)
{
	/* Line, dimension imposed, non-finite allowed: code and count. */
	static const struct {
		const char	*line;
		uint32_t	 dim;
		int		 allow;
		int		 rc;
		uint32_t	 n;
	} t[] = {
		/* Spaces are loose, anything else is not. */
		{ "k\t  1   2 ", 0, 0, 0, 2 },
		{ "k\t1 2", 2, 0, 0, 2 },
		{ "no tab 1 2", 0, 0, EMB_ESYNTAX, 0 },
		{ "", 0, 0, EMB_ESYNTAX, 0 },
		{ "k\t", 0, 0, EMB_ESYNTAX, 0 },
		{ "k\t   ", 0, 0, EMB_ESYNTAX, 0 },
		{ "k\t1,2", 0, 0, EMB_ESYNTAX, 0 },
		{ "k\t1 2x", 0, 0, EMB_ESYNTAX, 0 },
		{ "k\t1 2\r", 0, 0, EMB_ESYNTAX, 0 },
		{ "k\t1  x", 0, 0, EMB_ESYNTAX, 0 },
		{ "k\t0x1p3", 0, 0, EMB_ESYNTAX, 0 },
		/* The key: the text before the last TAB, checked. */
		{ "a\\qb\t1", 0, 0, EMB_EKEY, 0 },
		{ "a\rb\t1", 0, 0, EMB_EKEY, 0 },
		{ "ab\\\t1", 0, 0, EMB_EKEY, 0 },
		{ "a\tb\t1", 0, 0, 0, 1 },
		/* Numbers. */
		{ "k\t1 1e39", 0, 0, EMB_ERANGE, 0 },
		{ "k\t1 nan", 0, 0, EMB_ENONFINITE, 0 },
		{ "k\t-inf 1", 0, 0, EMB_ENONFINITE, 0 },
		{ "k\t1 nan inf -inf", 0, 1, 0, 4 },
		/* Counts, reported on EMB_EDIM; room for 4. */
		{ "k\t1 2 3", 2, 0, EMB_EDIM, 3 },
		{ "k\t1", 2, 0, EMB_EDIM, 1 },
		{ "k\t1 2 3 4 5", 0, 0, EMB_EDIM, 5 },
	};
	struct emb_textrec r;
	float v[4];
	char *big;

	for (size_t i = 0; i < NELEM(t); i++) {
		int rc = parse(t[i].line, 4, t[i].dim, t[i].allow, &r, v);

		ck_assert_msg(rc == t[i].rc, "'%s': %d", t[i].line, rc);
		if (t[i].n > 0)
			ck_assert_uint_eq(r.dim, t[i].n);
	}
	ck_assert_int_eq(parse("k\t1", 0, 0, 0, &r, v), EMB_EDIM);
	ck_assert_int_eq(parse("a\tb\t1", 4, 0, 0, &r, v), 0);
	ck_assert_uint_eq(r.keylen, 3);
	ck_assert_int_eq(parse("k\t1 nan inf -inf", 4, 0, 1, &r, v), 0);
	ck_assert(isnan(v[1]) && isinf(v[2]) && v[3] < 0);
	/* A key over the limit. */
	big = malloc(EMB_KEY_MAX + 8);
	ck_assert_ptr_nonnull(big);
	memset(big, 'a', EMB_KEY_MAX + 1);
	memcpy(big + EMB_KEY_MAX + 1, "\t1", 3);
	ck_assert_int_eq(parse(big, 4, 0, 0, &r, v), EMB_ELIMIT);
	memcpy(big + EMB_KEY_MAX, "\t1", 3);
	ck_assert_int_eq(parse(big, 4, 0, 0, &r, v), 0);
	ck_assert_uint_eq(r.keylen, EMB_KEY_MAX);
	free(big);
}
END_TEST

START_TEST(t_view_garbage)
{
	/* Random lines over the view's alphabet: a code, never a crash. */
	static const char alpha[] = "\t\\ #0123456789.-+eEnaif\r\nx";
	uint32_t seed = 777;
	char line[64];
	float v[8];

	for (int t = 0; t < 200000; t++) {
		struct emb_textrec r;
		size_t n;
		int rc;

		seed = seed * 1664525u + 1013904223u;
		n = seed >> 26;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1664525u + 1013904223u;
			line[i] = alpha[(seed >> 16) % (sizeof(alpha) - 1)];
		}
		rc = emb_text_parse(line, n, v, 8, seed % 3 ? 0 : 2,
		    (int)(seed >> 31), &r);
		if (rc > 0 || rc < EMB_ELAST)
			ck_abort_msg("code %d", rc);
		if (rc == 0 && r.type == EMB_REC_VEC && (r.dim == 0 ||
		    r.dim > 8))
			ck_abort_msg("dimension %u", r.dim);
	}
}
END_TEST

static Suite *
text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("text");

	tcase_add_loop_test(tc, t_ftoa_sample, 0, 4);
	tcase_add_test(tc, t_ftoa_edges);
	tcase_add_test(tc, t_ftoa_text);
	tcase_add_test(tc, t_atof);
	tcase_add_test(tc, t_view_roundtrip);
	tcase_add_test(tc, t_view_format);
	tcase_add_test(tc, t_view_groups);
	tcase_add_test(tc, t_view_errors);
	tcase_add_test(tc, t_view_garbage);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(text_suite)
