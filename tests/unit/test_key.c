/*
 * test_key.c - keys: escaping, checking and fields.
 *
 * Every byte value must survive escape and unescape as one field, at the
 * awkward lengths (0, 1, 2, 7, 8, 255, 256, 257 and around 4 KiB), and what
 * emb_key_check accepts must be exactly what emb_key_unescape can undo.
 */
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "emb.h"
#include "io/key.h"

static const size_t lens[] = { 0, 1, 2, 7, 8, 255, 256, 257, 4095, 4096,
    4097 };
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static uint32_t rngstate = 2463534242u;

static uint32_t
rnd(void)
{
	rngstate ^= rngstate << 13;
	rngstate ^= rngstate >> 17;
	rngstate ^= rngstate << 5;
	return rngstate;
}

/* Escape n raw bytes, check the key, unescape (in place too). */
static void
roundtrip(const unsigned char *raw, size_t n)
{
	char *esc = malloc(2 * n + 1), *back = malloc(n + 1);
	size_t m = emb_key_escape(esc, raw, n);
	long k;

	ck_assert_ptr_nonnull(esc);
	ck_assert_ptr_nonnull(back);
	ck_assert_uint_ge(m, n);
	ck_assert_uint_le(m, 2 * n);
	ck_assert_int_eq(emb_key_check(esc, m), 0);
	/* One field, one line. */
	ck_assert_ptr_null(memchr(esc, '\t', m));
	ck_assert_ptr_null(memchr(esc, '\n', m));
	ck_assert_ptr_null(memchr(esc, '\r', m));
	ck_assert_ptr_null(memchr(esc, '\0', m));
	ck_assert_uint_eq(emb_key_nfields(esc, m), 1);
	k = emb_key_unescape(back, esc, m);
	ck_assert_int_eq(k, (long)n);
	ck_assert(memcmp(back, raw, n) == 0);
	k = emb_key_unescape(esc, esc, m);
	ck_assert_int_eq(k, (long)n);
	ck_assert(memcmp(esc, raw, n) == 0);
	free(esc);
	free(back);
}

START_TEST(t_every_byte)
{
	unsigned char raw[256];

	for (int c = 0; c < 256; c++) {
		raw[c] = (unsigned char)c;
		roundtrip(raw + c, 1);
	}
	roundtrip(raw, 256);
	roundtrip(raw, 0);
}
END_TEST

START_TEST(t_lengths)
{
	for (size_t i = 0; i < NELEM(lens); i++)
		for (int rep = 0; rep < 50; rep++) {
			unsigned char *raw = malloc(lens[i] + 1);

			ck_assert_ptr_nonnull(raw);
			for (size_t j = 0; j < lens[i]; j++) {
				uint32_t r = rnd();

				/* Often a byte that needs escaping. */
				raw[j] = (unsigned char)(r % 3 == 0 ?
				    "\\\t\n\r"[r / 3 % 5] : r >> 8);
			}
			roundtrip(raw, lens[i]);
			free(raw);
		}
}
END_TEST

START_TEST(t_escapes)
{
	char out[16];

	ck_assert_uint_eq(emb_key_escape(out, "\\\t\n\r\0", 5), 10);
	ck_assert(memcmp(out, "\\\\\\t\\n\\r\\0", 10) == 0);
	/* Invalid UTF-8 and other bytes stand for themselves. */
	ck_assert_uint_eq(emb_key_escape(out, "\xff\xc3(\x80 ", 5), 5);
	ck_assert(memcmp(out, "\xff\xc3(\x80 ", 5) == 0);
	ck_assert_int_eq(emb_key_unescape(out, "a\\tb", 4), 3);
	ck_assert(memcmp(out, "a\tb", 3) == 0);
}
END_TEST

START_TEST(t_check)
{
	static char big[EMB_KEY_MAX + 1];
	char k[3] = "\\x";

	/* Exactly five escapes; any other byte after a backslash is bad. */
	for (int c = 0; c < 256; c++) {
		int ok = c == '\\' || c == 't' || c == 'n' || c == 'r' ||
		    c == '0';

		k[1] = (char)c;
		ck_assert_int_eq(emb_key_check(k, 2), ok ? 0 : EMB_EKEY);
		ck_assert_int_eq(emb_key_unescape(big, k, 2), ok ? 1 :
		    EMB_EKEY);
	}
	ck_assert_int_eq(emb_key_check("\\", 1), EMB_EKEY);
	ck_assert_int_eq(emb_key_check("ab\\", 3), EMB_EKEY);
	ck_assert_int_eq(emb_key_check("\\\\\\", 3), EMB_EKEY);
	ck_assert_int_eq(emb_key_check("\\\\\\\\", 4), 0);
	ck_assert_int_eq(emb_key_unescape(big, "ab\\", 3), EMB_EKEY);
	/* Raw LF, CR, NUL are never in a key; TAB separates fields. */
	ck_assert_int_eq(emb_key_check("a\nb", 3), EMB_EKEY);
	ck_assert_int_eq(emb_key_check("a\rb", 3), EMB_EKEY);
	ck_assert_int_eq(emb_key_check("a\0b", 3), EMB_EKEY);
	ck_assert_int_eq(emb_key_check("a\tb", 3), 0);
	ck_assert_int_eq(emb_key_check("", 0), 0);
	ck_assert_int_eq(emb_key_check(NULL, 0), 0);
	ck_assert_int_eq(emb_key_check("\xff\xfe", 2), 0);
	/* The length limit. */
	memset(big, 'a', sizeof(big));
	ck_assert_int_eq(emb_key_check(big, EMB_KEY_MAX), 0);
	ck_assert_int_eq(emb_key_check(big, EMB_KEY_MAX + 1), EMB_EKEY);
}
END_TEST

START_TEST(t_fields)
{
	static const char key[] = "id7\tpos\t\tw\\tord\t";
	size_t len = sizeof(key) - 1, off, flen;
	static const char *const want[] = { "id7", "pos", "", "w\\tord", "" };

	ck_assert_uint_eq(emb_key_nfields(key, len), 5);
	for (unsigned i = 0; i < 5; i++) {
		ck_assert_int_eq(emb_key_field(key, len, i, &off, &flen), 0);
		ck_assert_uint_eq(flen, strlen(want[i]));
		ck_assert(memcmp(key + off, want[i], flen) == 0);
	}
	ck_assert_int_eq(emb_key_field(key, len, 5, &off, &flen), EMB_EINVAL);
	ck_assert_int_eq(emb_key_field(key, len, ~0u, &off, &flen),
	    EMB_EINVAL);
	/* The empty key is one empty field. */
	ck_assert_uint_eq(emb_key_nfields("", 0), 1);
	ck_assert_int_eq(emb_key_field("", 0, 0, &off, &flen), 0);
	ck_assert_uint_eq(off, 0);
	ck_assert_uint_eq(flen, 0);
	ck_assert_int_eq(emb_key_field("", 0, 1, &off, &flen), EMB_EINVAL);
	/* Only len bytes count. */
	ck_assert_uint_eq(emb_key_nfields("a\tb", 1), 1);
	ck_assert_uint_eq(emb_key_nfields("\t\t\t", 3), 4);
	/* Fields of every count up to 300. */
	{
		char k[600];
		size_t n = 0;

		for (unsigned f = 1; f <= 300; f++) {
			if (f > 1)
				k[n++] = '\t';
			k[n++] = (char)('a' + f % 26);
			ck_assert_uint_eq(emb_key_nfields(k, n), f);
			ck_assert_int_eq(emb_key_field(k, n, f - 1, &off,
			    &flen), 0);
			ck_assert_uint_eq(off, n - 1);
			ck_assert_uint_eq(flen, 1);
		}
	}
}
END_TEST

static Suite *
key_suite(void)
{
	Suite *s = suite_create("key");
	TCase *tc = tcase_create("key");

	tcase_add_test(tc, t_every_byte);
	tcase_add_test(tc, t_lengths);
	tcase_add_test(tc, t_escapes);
	tcase_add_test(tc, t_check);
	tcase_add_test(tc, t_fields);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(key_suite)
