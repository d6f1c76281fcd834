/*
 * npy.c - NumPy .npy files.  Input: a 2-D float32 or float64 array
 * (format versions 1, 2 and 3, either byte order, C or Fortran order)
 * read row by row, each row with its key from a text file if asked.
 * Output: the header of a version 1.0 float32 array in the host's byte
 * order, for rows written as they are in memory.
 *
 * Every size the header announces is checked before anything is
 * allocated: the header length against a limit, the dimension against
 * EMB_DIM_MAX, the data's size against size_t and, for a regular file,
 * against the bytes the file holds.  A pipe is read as it comes, memory
 * growing with the data read, and a short or long one is found at its end.
 */
#include "io/emb-io.h"
#include "io/fmt.h"
#include "base/fail.h"
#include "io/key.h"
#include "base/le.h"
#include "io/src.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NPY_HDR_MAX	65536	/* longest header dictionary accepted */
#define NPY_INSZ	65536
#define NPY_FCHUNK	(1u << 20)	/* first block of a Fortran array */

struct emb_npy {
	struct emb_src	 s;		/* the file's bytes */
	const char	*name;
	int		 swap;		/* file byte order is not the host's */
	int		 esize;		/* 4 or 8 */
	int		 fortran;
	int		 allow;
	uint64_t	 rows, row;	/* declared, delivered */
	uint32_t	 dim;
	size_t		 need;		/* data bytes: rows * dim * esize */
	unsigned char	*rbuf;		/* one row (C order) */
	unsigned char	*all;		/* the whole data (Fortran order) */
	int		 err;
	int		 done;		/* the end was checked */
	char		 msg[256];
	struct klines	*k;		/* the keys file, once given */
};

static void freekeys(struct klines *k);

/* The message "name: ...", code kept as the object's error. */
static int
fail(struct emb_npy *n, int code, const char *name, const char *fmt, ...)
{
	va_list ap;
	int k;

	k = snprintf(n->msg, sizeof(n->msg), "%s: ", name);
	if (k < 0 || (size_t)k >= sizeof(n->msg))
		k = 0;
	va_start(ap, fmt);
	n->err = emb_vfail(n->msg + k, sizeof(n->msg) - (size_t)k, code, fmt,
	    ap);
	va_end(ap);
	return code;
}

/* An error of the .npy file, of the keys file k. */
#define nfail(n, code, ...)	fail(n, code, (n)->name, __VA_ARGS__)
#define kfail(n, k, code, ...)	fail(n, code, (k)->name, __VA_ARGS__)

/* Up to len bytes of the file into dst: @return the count, or -1. */
static ssize_t
nread(struct emb_npy *n, void *dst, size_t len)
{
	ssize_t got = emb_src_read(&n->s, dst, len);

	if (got < 0) {
		nfail(n, (int)got, "%s", got == EMB_EIO ? strerror(errno) :
		    emb_strerror((int)got));
		return -1;
	}
	return got;
}

/* ---- the header dictionary, a Python literal ---- */

struct hp {
	const char	*s, *end;
};

static void
ws(struct hp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' ||
	    *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

/* A quoted string without escapes into buf (size 32): 0, or -1. */
static int
pstr(struct hp *p, char *buf)
{
	char q;
	size_t k = 0;

	if (p->s == p->end || (*p->s != '\'' && *p->s != '"'))
		return -1;
	q = *p->s++;
	while (p->s < p->end && *p->s != q) {
		if (*p->s == '\\' || k == 31)
			return -1;
		buf[k++] = *p->s++;
	}
	if (p->s == p->end)
		return -1;
	p->s++;
	buf[k] = '\0';
	return 0;
}

static int
pword(struct hp *p, const char *w)
{
	size_t k = strlen(w);

	if ((size_t)(p->end - p->s) < k || memcmp(p->s, w, k) != 0)
		return 0;
	p->s += k;
	return 1;
}

/* The shape tuple: its lengths into v (up to 3), their count or -1. */
static int
pshape(struct hp *p, uint64_t v[3])
{
	int nd = 0;

	if (!pword(p, "("))
		return -1;
	for (;;) {
		uint64_t x = 0;

		ws(p);
		if (pword(p, ")"))
			return nd;
		if (p->s == p->end || *p->s < '0' || *p->s > '9')
			return -1;
		/* A Python literal: no leading zero but in zero itself. */
		if (*p->s == '0' && p->end - p->s > 1 && p->s[1] >= '1' &&
		    p->s[1] <= '9')
			return -1;
		while (p->s < p->end && *p->s >= '0' && *p->s <= '9') {
			if (x > (UINT64_MAX - 9) / 10)
				return -1;
			x = x * 10 + (uint64_t)(*p->s++ - '0');
		}
		if (nd < 3)
			v[nd] = x;
		if (nd < 4)
			nd++;
		ws(p);
		if (pword(p, ")"))
			return nd;
		if (!pword(p, ","))
			return -1;
	}
}

static int
header(struct emb_npy *n, const char *s, size_t len)
{
	struct hp p = { s, s + len };
	char key[32], descr[32], q[EMB_QUOTE_BUF];
	uint64_t shape[3];
	int seen = 0, nd = -1;

	if (memchr(s, '\0', len) != NULL)
		return nfail(n, EMB_EFORMAT, "header: NUL byte in the "
		    "dictionary");
	/* The format: the dictionary, spaces, and a newline that ends it. */
	if (len == 0 || s[len - 1] != '\n')
		return nfail(n, EMB_EFORMAT, "header: no newline at its end");
	p.end = s + len - 1;
	ws(&p);
	if (!pword(&p, "{"))
		return nfail(n, EMB_EFORMAT, "header: not a dictionary");
	for (;;) {
		ws(&p);
		if (pword(&p, "}"))
			break;
		if (pstr(&p, key) < 0)
			return nfail(n, EMB_EFORMAT, "header: bad dictionary "
			    "key");
		ws(&p);
		if (!pword(&p, ":"))
			return nfail(n, EMB_EFORMAT, "header: no ':' after "
			    "'%s'", emb_quotes(q, key));
		ws(&p);
		if (strcmp(key, "descr") == 0 && !(seen & 1)) {
			seen |= 1;
			if (pstr(&p, descr) < 0)
				return nfail(n, EMB_EFORMAT, "header: dtype is "
				    "not float32 or float64 (structured or "
				    "unreadable descr)");
		} else if (strcmp(key, "fortran_order") == 0 && !(seen & 2)) {
			seen |= 2;
			if (pword(&p, "True"))
				n->fortran = 1;
			else if (!pword(&p, "False"))
				return nfail(n, EMB_EFORMAT, "header: "
				    "fortran_order is not True or False");
		} else if (strcmp(key, "shape") == 0 && !(seen & 4)) {
			seen |= 4;
			if ((nd = pshape(&p, shape)) < 0)
				return nfail(n, EMB_EFORMAT, "header: bad "
				    "shape tuple");
		} else
			return nfail(n, EMB_EFORMAT, "header: unknown or "
			    "repeated key '%s'", emb_quotes(q, key));
		ws(&p);
		if (pword(&p, "}"))
			break;
		if (!pword(&p, ","))
			return nfail(n, EMB_EFORMAT, "header: no ',' after "
			    "'%s'", emb_quotes(q, key));
	}
	ws(&p);
	if (p.s != p.end)
		return nfail(n, EMB_EFORMAT, "header: bytes after the "
		    "dictionary");
	if (seen != 7)
		return nfail(n, EMB_EFORMAT, "header: no '%s'", !(seen & 1) ?
		    "descr" : !(seen & 2) ? "fortran_order" : "shape");
	if ((descr[0] != '<' && descr[0] != '>') || descr[1] != 'f' ||
	    (strcmp(descr + 2, "4") != 0 && strcmp(descr + 2, "8") != 0))
		return nfail(n, EMB_EFORMAT, "dtype '%s' not supported (want "
		    "float32 or float64: <f4 >f4 <f8 >f8)",
		    emb_quotes(q, descr));
	n->esize = descr[2] - '0';
	n->swap = (descr[0] == '<') != (__BYTE_ORDER__ ==
	    __ORDER_LITTLE_ENDIAN__);
	if (nd != 2)
		return nfail(n, EMB_EFORMAT, "shape has %d dimension%s, want 2 "
		    "(rows, dim)", nd, nd == 1 ? "" : "s");
	if (shape[1] < 1 || shape[1] > EMB_DIM_MAX)
		return nfail(n, EMB_EDIM, "shape (%llu, %llu): dimension out "
		    "of range 1..%u", (unsigned long long)shape[0],
		    (unsigned long long)shape[1], EMB_DIM_MAX);
	n->rows = shape[0];
	n->dim = (uint32_t)shape[1];
	if (shape[0] > SIZE_MAX || emb_mul((size_t)shape[0],
	    (size_t)n->dim * (size_t)n->esize, &n->need) < 0)
		return nfail(n, EMB_ELIMIT, "shape (%llu, %u) too large",
		    (unsigned long long)n->rows, n->dim);
	return 0;
}

int
emb_npy_open(struct emb_npy **np, int fd, const char *name)
{
	struct emb_npy *n;
	unsigned char pre[12];
	struct stat sb;
	off_t pos;
	size_t hlen, pl;
	ssize_t got;
	char *h;
	int rc;

	*np = NULL;
	if ((n = calloc(1, sizeof(*n))) == NULL)
		return EMB_ENOMEM;
	*np = n;
	n->name = name;
	if (emb_src_open(&n->s, fd, NULL, NPY_INSZ) < 0)
		return EMB_ENOMEM;
	pos = lseek(fd, 0, SEEK_CUR);
	if ((got = nread(n, pre, 10)) < 0)
		return n->err;
	if (memcmp(pre, "\x93NUMPY", got < 6 ? (size_t)got : 6) != 0)
		return nfail(n, EMB_EFORMAT, "not a NumPy .npy file (bad "
		    "magic)");
	if (got < 10)
		return nfail(n, got ? EMB_ETRUNC : EMB_EFORMAT, got ?
		    "truncated inside the .npy header" :
		    "empty input, no .npy header");
	if (memcmp(pre, "\x93NUMPY", 6) != 0)
		return nfail(n, EMB_EFORMAT, "not a NumPy .npy file (bad "
		    "magic)");
	if (pre[6] < 1 || pre[6] > 3 || pre[7] != 0)
		return nfail(n, EMB_EFORMAT, ".npy format version %u.%u not "
		    "supported (want 1.0, 2.0 or 3.0)", pre[6], pre[7]);
	if (pre[6] == 1) {
		hlen = emb_le16(pre + 8);
		pl = 10;
	} else {
		if (nread(n, pre + 10, 2) != 2)
			return n->err ? n->err : nfail(n, EMB_ETRUNC,
			    "truncated inside the .npy header");
		hlen = emb_le32(pre + 8);
		pl = 12;
	}
	if (hlen > NPY_HDR_MAX)
		return nfail(n, EMB_ELIMIT, "header length %zu over limit %u",
		    hlen, NPY_HDR_MAX);
	if ((h = malloc(hlen + 1)) == NULL)
		return EMB_ENOMEM;
	if (nread(n, h, hlen) != (ssize_t)hlen) {
		free(h);
		return n->err ? n->err : nfail(n, EMB_ETRUNC, "truncated "
		    "inside the .npy header");
	}
	rc = header(n, h, hlen);
	free(h);
	if (rc < 0)
		return rc;
	/* A regular file tells its size: the data must fill it exactly. */
	if (pos >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
		uint64_t have = (uint64_t)sb.st_size - (uint64_t)pos - pl - hlen;

		if ((uint64_t)sb.st_size < (uint64_t)pos + pl + hlen)
			have = 0;
		if (have < n->need)
			return nfail(n, EMB_ETRUNC, "truncated: shape (%llu, "
			    "%u) needs %zu bytes of data, the file holds "
			    "%llu", (unsigned long long)n->rows, n->dim,
			    n->need, (unsigned long long)have);
		if (have > n->need)
			return nfail(n, EMB_EFORMAT, "%llu bytes after the "
			    "data of shape (%llu, %u)",
			    (unsigned long long)(have - n->need),
			    (unsigned long long)n->rows, n->dim);
	}
	if (!n->fortran && (n->rbuf = malloc((size_t)n->dim *
	    (size_t)n->esize)) == NULL)
		return EMB_ENOMEM;
	return 0;
}

uint64_t
emb_npy_rows(const struct emb_npy *n)
{
	return n->rows;
}

uint32_t
emb_npy_dim(const struct emb_npy *n)
{
	return n->dim;
}

void
emb_npy_allow_nonfinite(struct emb_npy *n, int allow)
{
	n->allow = allow;
}

const char *
emb_npy_msg(const struct emb_npy *n)
{
	return n->msg;
}

static void
swapn(unsigned char *p, int k)
{
	for (int i = 0; i < k / 2; i++) {
		unsigned char t = p[i];

		p[i] = p[k - 1 - i];
		p[k - 1 - i] = t;
	}
}

/* The element at p as a float: 0, or an error for row n->row + 1. */
static int
elem(struct emb_npy *n, const unsigned char *p, uint32_t j, float *f)
{
	unsigned char b[8];

	memcpy(b, p, (size_t)n->esize);
	if (n->swap)
		swapn(b, n->esize);
	if (n->esize == 4)
		memcpy(f, b, 4);
	else {
		double d;

		memcpy(&d, b, 8);
		/* Past FLT_MAX by half its ulp: rounds to infinity. */
		if (isfinite(d) && fabs(d) >= (double)FLT_MAX + ldexp(1, 103))
			return nfail(n, EMB_ERANGE, "row %llu: component %u "
			    "out of float32 range", (unsigned long long)n->row +
			    1, j + 1);
		*f = (float)d;
	}
	if (!n->allow && !isfinite(*f))
		return nfail(n, EMB_ENONFINITE, "row %llu: component %u is %s "
		    "(-a allows it)", (unsigned long long)n->row + 1, j + 1,
		    isnan(*f) ? "NaN" : "infinite");
	return 0;
}

/* At the end of the data: the input must end too. */
static int
atend(struct emb_npy *n)
{
	unsigned char c;
	ssize_t r = nread(n, &c, 1);

	if (r < 0)
		return n->err;
	if (r > 0)
		return nfail(n, EMB_EFORMAT, "bytes after the data of shape "
		    "(%llu, %u)", (unsigned long long)n->rows, n->dim);
	return 0;
}

static int
truncated(struct emb_npy *n)
{
	return nfail(n, EMB_ETRUNC, "row %llu: truncated (shape (%llu, %u))",
	    (unsigned long long)n->row + 1, (unsigned long long)n->rows,
	    n->dim);
}

/*
 * A Fortran-order array whole, its memory growing with the data read: a
 * first block, then doubled each time it has been filled, up to need.
 */
static int
loadall(struct emb_npy *n)
{
	size_t have = 0, cap = 0;
	size_t want = n->need < NPY_FCHUNK ? n->need : NPY_FCHUNK;
	unsigned char *b = NULL;

	if (n->need == 0)
		return atend(n);
	for (;;) {
		ssize_t r;

		if (emb_grow_max(&b, &cap, want, n->need, 1) < 0) {
			free(b);
			return nfail(n, EMB_ENOMEM, "%s",
			    emb_strerror(EMB_ENOMEM));
		}
		if ((r = nread(n, b + have, cap - have)) < 0) {
			free(b);
			return n->err;
		}
		have += (size_t)r;
		if (have < cap) {
			free(b);
			n->row = have / ((size_t)n->esize * n->dim) %
			    (n->rows ? n->rows : 1);
			return nfail(n, EMB_ETRUNC, "truncated: shape (%llu, "
			    "%u) needs %zu bytes of data, the input holds %zu",
			    (unsigned long long)n->rows, n->dim, n->need,
			    have);
		}
		if (cap == n->need)
			break;
		want = cap + 1;
	}
	n->all = b;
	return atend(n);
}

int
emb_npy_next(struct emb_npy *n, float *vec)
{
	int rc;

	if (n->err)
		return n->err;
	if (n->row == n->rows) {
		if (n->done)
			return 0;
		rc = n->fortran ? (n->all ? 0 : loadall(n)) : atend(n);
		n->done = 1;
		return rc < 0 ? rc : 0;
	}
	if (n->fortran) {
		if (n->all == NULL && (rc = loadall(n)) < 0)
			return rc;
		for (uint32_t j = 0; j < n->dim; j++)
			if ((rc = elem(n, n->all + ((size_t)j * n->rows +
			    n->row) * (size_t)n->esize, j, vec + j)) < 0)
				return rc;
	} else {
		size_t len = (size_t)n->dim * (size_t)n->esize;
		ssize_t r = nread(n, n->rbuf, len);

		if (r < 0)
			return n->err;
		if ((size_t)r < len)
			return truncated(n);
		for (uint32_t j = 0; j < n->dim; j++)
			if ((rc = elem(n, n->rbuf + (size_t)j * n->esize, j,
			    vec + j)) < 0)
				return rc;
	}
	n->row++;
	return 1;
}

void
emb_npy_free(struct emb_npy *n)
{
	if (n == NULL)
		return;
	free(n->rbuf);
	free(n->all);
	emb_src_close(&n->s);
	freekeys(n->k);
	free(n);
}

/* ---- the keys file: a key for each row ---- */

/* The keys file, line by line. */
struct klines {
	struct emb_src	 s;
	const char	*name;
	char		*line;		/* in s.buf, until the next kline() */
	size_t		 n;
	unsigned long long lineno;
};

/* The next key into k->line (k->n bytes, no LF): 1, 0 at the end, or < 0. */
static int
kline(struct emb_npy *n, struct klines *k)
{
	int rc = emb_src_getl(&k->s, (size_t)EMB_KEY_MAX + 1, &k->line,
	    &k->n);

	if (rc == 0)
		return 0;
	if (rc == EMB_ELIMIT || (rc > 0 && k->n > EMB_KEY_MAX))
		return kfail(n, k, EMB_EKEY, "line %llu: key over the "
		    "limit of %u bytes", k->lineno + 1, EMB_KEY_MAX);
	if (rc == EMB_EIO)
		return kfail(n, k, rc, "%s", strerror(errno));
	if (rc < 0)
		return kfail(n, k, rc, "%s", emb_strerror(rc));
	if (rc == 2)
		return kfail(n, k, EMB_ETRUNC, "line %llu: truncated: no LF "
		    "at the end of the text", k->lineno + 1);
	k->lineno++;
	if (emb_key_check(k->line, k->n) < 0)
		return kfail(n, k, EMB_EKEY, "line %llu: badly escaped "
		    "key (see emb(5))", k->lineno);
	return 1;
}

static void
freekeys(struct klines *k)
{
	if (k != NULL)
		emb_src_close(&k->s);
	free(k);
}

int
emb_npy_keys(struct emb_npy *n, int keysfd, const char *keysname)
{
	if (n->k != NULL)
		return EMB_EINVAL;
	if ((n->k = calloc(1, sizeof(*n->k))) == NULL ||
	    emb_src_open(&n->k->s, keysfd, NULL, NPY_INSZ) < 0) {
		freekeys(n->k);
		n->k = NULL;
		return nfail(n, EMB_ENOMEM, "%s", emb_strerror(EMB_ENOMEM));
	}
	n->k->name = keysname;
	return 0;
}

int
emb_npy_nextkey(struct emb_npy *n, float *vec, const char **key,
    size_t *keylen, unsigned long long *lineno)
{
	struct klines *k = n->k;
	int rc;

	if (k == NULL)
		return EMB_EINVAL;
	if ((rc = emb_npy_next(n, vec)) <= 0)
		return rc;
	if ((rc = kline(n, k)) < 0)
		return rc;
	if (rc == 0)
		return kfail(n, k, EMB_EFORMAT, "%llu key%s for the %llu rows "
		    "of %s", k->lineno, k->lineno == 1 ? "" : "s",
		    (unsigned long long)n->rows, n->name);
	*key = k->line;
	*keylen = k->n;
	*lineno = k->lineno;
	return 1;
}

int
emb_npy_keysdone(struct emb_npy *n)
{
	int rc;

	if (n->k == NULL)
		return EMB_EINVAL;
	if ((rc = kline(n, n->k)) > 0)
		rc = kfail(n, n->k, EMB_EFORMAT, "more keys than the %llu rows "
		    "of %s", (unsigned long long)n->rows, n->name);
	return rc;
}

/* ---- output ---- */

void
emb_npy_header(char hdr[EMB_NPY_HDR], uint64_t rows, uint32_t dim)
{
	int n = snprintf(hdr + 10, EMB_NPY_HDR - 10, "{'descr': '%cf4', "
	    "'fortran_order': False, 'shape': (%llu, %u), }",
	    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? '<' : '>',
	    (unsigned long long)rows, dim);

	/* Padded with spaces to 128 bytes in all, ending in a newline. */
	memset(hdr + 10 + n, ' ', EMB_NPY_HDR - 10 - (size_t)n);
	hdr[EMB_NPY_HDR - 1] = '\n';
	memcpy(hdr, "\x93NUMPY\x01\x00", 8);
	hdr[8] = EMB_NPY_HDR - 10;
	hdr[9] = 0;
}
