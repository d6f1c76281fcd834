/*
 * fuzz_text.c - fuzz target: the text view and the key functions.
 *
 * The input is used whole, for each of:
 *
 *   - emb_text_parse, as one line, refusing and allowing non-finite values:
 *     a line it accepts, printed again (emb_text_vec, or "key TAB #n"),
 *     parses to the same key and the same float32 bits, and is refused
 *     with a telling count for any other dimension;
 *   - emb_text_f32 on every suffix start (bounded): it reads within its
 *     length and agrees with strtof on where the number ends, its value
 *     and overflow;
 *   - the key functions: escaping any bytes gives a valid one-field key that
 *     unescapes to the bytes; a valid key splits into fields that unescape
 *     and escape back to themselves;
 *   - emb_ftoa on the input's bytes taken as float32 values: the text reads
 *     back as the same value and sign, fits EMB_FTOA_MAX, and is no longer
 *     than the first of printf's %.6g .. %.9g that reads back.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "io/key.h"
#include "ref.h"
#include "io/text.h"

#define CAP		64		/* components a parsed line may have */

/* Same float32 bits, or both NaN. */
static int
samef(float a, float b)
{
	uint32_t ua, ub;

	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	memcpy(&ua, &a, 4);
	memcpy(&ub, &b, 4);
	return ua == ub;
}

static void
parse(const char *line, size_t len, int allow)
{
	struct emb_textrec t, u;
	float vec[CAP], back[CAP];
	char *buf;
	size_t n;
	int rc;

	rc = emb_text_parse(line, len, vec, CAP, 0, allow, &t);
	CHECK(rc <= 0 && rc >= EMB_ELAST);
	if (rc < 0)
		return;
	CHECK(t.key == line && t.keylen < len);
	CHECK(emb_key_check(t.key, t.keylen) == 0);
	if ((buf = malloc(t.keylen + CAP * EMB_FTOA_MAX + 32)) == NULL)
		abort();
	if (t.type == EMB_REC_GROUP) {
		CHECK(t.nmemb <= EMB_GROUP_MAX);
		memcpy(buf, t.key, t.keylen);
		n = t.keylen + (size_t)sprintf(buf + t.keylen, "\t#%u",
		    t.nmemb);
		CHECK(emb_text_parse(buf, n, back, CAP, 0, allow, &u) == 0);
		CHECK(u.type == EMB_REC_GROUP && u.nmemb == t.nmemb);
	} else {
		CHECK(t.type == EMB_REC_VEC && t.dim >= 1 && t.dim <= CAP);
		for (uint32_t i = 0; i < t.dim; i++)
			CHECK(allow || isfinite(vec[i]));
		n = emb_text_vec(buf, t.key, t.keylen, vec, t.dim);
		CHECK(n > t.keylen + 1 && buf[n - 1] == '\n');
		/*
		 * Any other dimension is refused, saying how many components
		 * there are or that there are more than asked for.
		 */
		CHECK(emb_text_parse(buf, n - 1, back, CAP, t.dim + 1, allow,
		    &u) == EMB_EDIM && u.dim == t.dim);
		if (t.dim > 1)
			CHECK(emb_text_parse(buf, n - 1, back, CAP, t.dim - 1,
			    allow, &u) == EMB_EDIM && u.dim == t.dim);
		CHECK(emb_text_parse(buf, n - 1, back, CAP, t.dim, allow,
		    &u) == 0);
		CHECK(u.type == EMB_REC_VEC && u.dim == t.dim);
		for (uint32_t i = 0; i < t.dim; i++)
			CHECK(samef(vec[i], back[i]));
	}
	CHECK(u.keylen == t.keylen && memcmp(u.key, t.key, t.keylen) == 0);
	free(buf);
}

/*
 * emb_text_f32 against strtof on the same bytes: the run of characters a
 * number may hold (as emb_text_f32's own slow path takes it).  A run
 * longer than its 63-byte copy is a syntax error, unless the fast path
 * took a number from its start.
 */
static void
atof_at(const char *s, size_t len)
{
	static const char numch[] = "0123456789+-.eEnaifNAIFtyTY";
	char run[1024], *end;
	size_t used, n = 0;
	float f, g;
	int rc;

	while (n < len && n < sizeof(run) - 1 && s[n] != '\0' &&
	    strchr(numch, s[n]) != NULL)
		n++;
	memcpy(run, s, n);
	run[n] = '\0';
	rc = emb_text_f32(s, len, &f, &used);
	CHECK(rc != 0 || (used >= 1 && used <= len));
	if (n == sizeof(run) - 1)
		return;		/* longer than the reference copy */
	errno = 0;
	g = strtof(run, &end);
	switch (rc) {
	case 0:
		CHECK(end - run == (long)used && samef(f, g));
		CHECK(!isinf(f) || errno == 0);
		break;
	case EMB_ESYNTAX:
		CHECK(end == run || n > 63);
		break;
	case EMB_ERANGE:
		CHECK(end > run && isinf(g) && errno == ERANGE);
		break;
	default:
		abort();
	}
}

static void
keys(const char *s, size_t len)
{
	char *esc, *raw;
	unsigned nf;
	size_t n, off, flen;
	long m;

	if ((esc = malloc(2 * len + 1)) == NULL ||
	    (raw = malloc(len + 1)) == NULL)
		abort();
	/* Any bytes escape to one valid field and back. */
	n = emb_key_escape(esc, s, len);
	CHECK(n >= len && n <= 2 * len);
	if (n <= EMB_KEY_MAX)
		CHECK(emb_key_check(esc, n) == 0);
	CHECK(emb_key_nfields(esc, n) == 1);
	m = emb_key_unescape(raw, esc, n);
	CHECK(m == (long)len && memcmp(raw, s, len) == 0);

	/* A valid key's fields round-trip. */
	nf = emb_key_nfields(s, len);
	CHECK(nf >= 1 && nf <= len + 1);
	CHECK(emb_key_field(s, len, nf, &off, &flen) == EMB_EINVAL);
	if (emb_key_check(s, len) == 0) {
		for (unsigned i = 0; i < nf; i++) {
			CHECK(emb_key_field(s, len, i, &off, &flen) == 0);
			CHECK(off + flen <= len);
			CHECK(memchr(s + off, '\t', flen) == NULL);
			m = emb_key_unescape(raw, s + off, flen);
			CHECK(m >= 0 && (size_t)m <= flen);
			CHECK(emb_key_escape(esc, raw, (size_t)m) == flen);
			CHECK(memcmp(esc, s + off, flen) == 0);
		}
	}
	free(esc);
	free(raw);
}

/* The reference: the first of %.6g .. %.9g that reads back as f. */
static int
ftoa_ref(char *buf, float f)
{
	int n = 0;

	if (isnan(f))
		return sprintf(buf, "nan");
	if (isinf(f))
		return sprintf(buf, f < 0 ? "-inf" : "inf");
	for (int p = 6; p <= 9; p++) {
		n = snprintf(buf, EMB_FTOA_MAX, "%.*g", p, (double)f);
		if (strtof(buf, NULL) == f)
			break;
	}
	return n;
}

/* emb_ftoa reads back exactly and is never longer than the reference. */
static void
ftoa(const uint8_t *p, size_t len)
{
	char buf[EMB_FTOA_MAX], ref[EMB_FTOA_MAX], *end;

	for (size_t i = 0; i + 4 <= len && i < 64; i += 4) {
		float f, g;
		int n;

		memcpy(&f, p + i, 4);
		n = emb_ftoa(buf, f);
		CHECK(n > 0 && n < EMB_FTOA_MAX && buf[n] == '\0');
		g = strtof(buf, &end);
		CHECK(end == buf + n && samef(f, g));
		CHECK(n <= ftoa_ref(ref, f));
		CHECK(signbit(f) == signbit(g) || isnan(f));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;

	parse(s, size, 0);
	parse(s, size, 1);
	for (size_t i = 0; i < size && i < 32; i++)
		atof_at(s + i, size - i);
	keys(s, size);
	ftoa(data, size);
	return 0;
}
