/*
 * test_err.c - error texts and emb_quote, the one way input is shown in
 * a message.
 */
#include <string.h>

#include "check_main.h"
#include "emb.h"

START_TEST(strerror_total)
{
	for (int c = -100; c <= 1; c++)
		ck_assert_ptr_nonnull(emb_strerror(c));
	ck_assert_str_eq(emb_strerror(EMB_ETRUNC), "truncated stream");
	ck_assert_str_eq(emb_strerror(5), "unknown error");
}
END_TEST

START_TEST(quote_escapes)
{
	char b[EMB_QUOTE_BUF];

	ck_assert_str_eq(emb_quote(b, "", 0), "");
	ck_assert_str_eq(emb_quotes(b, "king"), "king");
	ck_assert_str_eq(emb_quote(b, "a\tb\nc\rd", 7), "a\\tb\\nc\\rd");
	ck_assert_str_eq(emb_quotes(b, "it's \\"), "it\\'s \\\\");
	/* An OSC title change and a screen clear lose their power. */
	ck_assert_str_eq(emb_quotes(b, "\033]0;x\007\033[2J"),
	    "\\x1b]0;x\\x07\\x1b[2J");
	ck_assert_str_eq(emb_quote(b, "a\0b\xff", 4), "a\\x00b\\xff");
}
END_TEST

START_TEST(quote_bounded)
{
	char b[EMB_QUOTE_BUF], in[5000];

	/* The longest rendering: every byte as \xNN, then "...". */
	memset(in, 0x80, sizeof in);
	emb_quote(b, in, sizeof in);
	ck_assert_uint_eq(strlen(b), 4 * EMB_QUOTE_IN + 3);
	ck_assert_str_eq(b + 4 * EMB_QUOTE_IN, "...");
	/* Exactly EMB_QUOTE_IN bytes are shown whole; one more is cut. */
	memset(in, 'x', sizeof in);
	in[EMB_QUOTE_IN] = '\0';
	ck_assert_uint_eq(strlen(emb_quotes(b, in)), EMB_QUOTE_IN);
	in[EMB_QUOTE_IN] = 'x';
	in[EMB_QUOTE_IN + 1] = '\0';
	ck_assert_uint_eq(strlen(emb_quotes(b, in)), EMB_QUOTE_IN + 3);
	/* emb_quotes reads no further than it needs (ASan would see it). */
	char *p = malloc(EMB_QUOTE_IN + 1);
	ck_assert_ptr_nonnull(p);
	memset(p, 'z', EMB_QUOTE_IN + 1);
	ck_assert_str_eq(emb_quotes(b, p) + EMB_QUOTE_IN, "...");
	free(p);
}
END_TEST

static Suite *
err_suite(void)
{
	Suite *s = suite_create("err");
	TCase *tc = tcase_create("err");

	tcase_add_test(tc, strerror_total);
	tcase_add_test(tc, quote_escapes);
	tcase_add_test(tc, quote_bounded);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(err_suite)
