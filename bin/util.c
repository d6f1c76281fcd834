/*
 * util.c - helpers shared by the emb programs (not part of libemb: these
 * print and exit, which the library never does).
 */
#include <sys/stat.h>

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"


void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		err(1, "malloc %zu bytes", n);
	return p;
}

void *
xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (p == NULL)
		err(1, "calloc %zu x %zu bytes", n, sz);
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t sz)
{
	size_t tot;

	if (emb_mul(n, sz, &tot) < 0)
		errx(1, "allocation of %zu x %zu bytes overflows", n, sz);
	if ((p = realloc(p, tot ? tot : 1)) == NULL)
		err(1, "realloc %zu bytes", tot);
	return p;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		err(1, "strdup");
	return p;
}

void
xbufadd(struct emb_buf *b, const void *p, size_t n)
{
	if (emb_buf_add(b, p, n) < 0)
		errx(1, "%s", emb_strerror(EMB_ENOMEM));
}

void
xbufreserve(struct emb_buf *b, size_t n)
{
	if (emb_buf_reserve(b, n) < 0)
		errx(1, "%s", emb_strerror(EMB_ENOMEM));
}

size_t
strsend(struct strs *s)
{
	if (s->n + 2 > s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->off = xreallocarray(s->off, s->cap, sizeof(*s->off));
		if (s->n == 0)
			s->off[0] = 0;
	}
	s->off[s->n + 1] = s->b.len;
	return s->n++;
}

void
strspop(struct strs *s)
{
	s->b.len = s->off[--s->n];
}

const char *
strskey(const void *ctx, size_t i, size_t *len)
{
	const struct strs *s = ctx;

	*len = s->off[i + 1] - s->off[i];
	return s->b.p + s->off[i];
}

void
strsfree(struct strs *s)
{
	emb_buf_free(&s->b);
	free(s->off);
	memset(s, 0, sizeof(*s));
}

size_t
recmax(const struct stat *st, uint32_t dim)
{
	if (!S_ISREG(st->st_mode))
		return 0;
	return (size_t)st->st_size / (5 + 4 * (size_t)dim) + 1;
}

void
flatopen(struct flatsrc *S, const char *path)
{
	struct stat st;

	S->name = inname(path);
	S->fd = openin(path);
	S->r = xreader(S->fd, S->name);
	S->est = 0;
	if (fstat(S->fd, &st) == 0)
		S->est = recmax(&st, emb_reader_dim(S->r));
}

void
flatreserve(struct flat *R, size_t cap)
{
	size_t sz;

	if (cap <= R->cap)
		return;
	if (R->fixed)
		errx(1, "%s: more records than its size allows", R->name);
	if (emb_mul(cap, (size_t)R->dim * sizeof(float), &sz) < 0)
		errx(1, "%s: too many records", R->name);
	R->X = xreallocarray(R->X, cap, (size_t)R->dim * sizeof(float));
	R->keyoff = xreallocarray(R->keyoff, cap, sizeof(size_t));
	R->keylen = xreallocarray(R->keylen, cap, sizeof(size_t));
	R->cap = cap;
}

/* The next capacity of R when its input's size is unknown. */
static size_t
flatgrowth(const struct flat *R)
{
	size_t first = ((size_t)1 << 20) / ((size_t)R->dim * sizeof(float));

	if (first > 1024)
		first = 1024;
	if (first < 1)
		first = 1;
	return R->cap < first ? first : 2 * R->cap;
}

void
flatread(struct flat *R, struct flatsrc *S, const char *grouped, flatfn *each,
    void *arg)
{
	struct emb_rec rec;
	int rc;

	flatreserve(R, R->n + S->est);
	for (;;) {
		/* A file's size bounds its records: at its end the room
		 * for one more is still there. */
		if (R->n == R->cap)
			flatreserve(R, flatgrowth(R));
		if ((rc = emb_reader_next_into(S->r, &rec, R->X + R->n *
		    R->dim)) <= 0)
			break;
		if (rec.type == EMB_REC_GROUP)
			errx(1, "%s: record %llu: %s", S->name,
			    (unsigned long long)rec.recno, grouped);
		R->keyoff[R->n] = R->keys.len;
		R->keylen[R->n] = rec.keylen;
		xbufadd(&R->keys, rec.key, rec.keylen + 1);
		R->n++;
		if (each != NULL)
			each(arg, R, &rec);
	}
	if (rc < 0)
		rdie(S->r, S->name, rc);
	emb_reader_free(S->r);
	S->r = NULL;
	if (S->fd != STDIN_FILENO)
		close(S->fd);
}

void
flatload(struct flat *R, const char *path, const char *grouped, flatfn *each,
    void *arg)
{
	struct flatsrc S;

	flatopen(&S, path);
	memset(R, 0, sizeof(*R));
	R->name = S.name;
	R->dim = emb_reader_dim(S.r);
	flatread(R, &S, grouped, each, arg);
}

void
flatfree(struct flat *R)
{
	emb_buf_free(&R->keys);
	free(R->keyoff);
	free(R->keylen);
	free(R->X);
	R->keyoff = R->keylen = NULL;
	R->X = NULL;
	R->n = R->cap = 0;
}

const char *
keyfield(const char *key, size_t len, unsigned f, size_t *flen)
{
	size_t off;

	if (f == 0) {
		*flen = len;
		return key;
	}
	if (emb_key_field(key, len, f - 1, &off, flen) < 0)
		return NULL;
	return key + off;
}

/* A number as it is written: no blank or '+' in front (strto* skip them). */
static int
plainstart(const char *s)
{
	return *s != '\0' && *s != '+' && !isspace((unsigned char)*s);
}

long long
parsenum(const char *s, long long min, long long max, const char *opt)
{
	char *end, q[EMB_QUOTE_BUF];
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (!plainstart(s) || *end != '\0' || errno == ERANGE || v < min ||
	    v > max) {
		warnx("%s: '%s' is not a number in %lld..%lld", opt,
		    emb_quotes(q, s), min, max);
		exit(2);
	}
	return v;
}

double
parsedbl(const char *s, double min, double max, const char *opt)
{
	char *end, q[EMB_QUOTE_BUF];
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!plainstart(s) || *end != '\0' || errno == ERANGE ||
	    !isfinite(v) || v < min || v > max) {
		warnx("%s: '%s' is not a number in %g..%g", opt,
		    emb_quotes(q, s), min, max);
		exit(2);
	}
	return v;
}

int
openin(const char *path)
{
	if (path == NULL || strcmp(path, "-") == 0)
		return STDIN_FILENO;
	return openside(path);
}

int
openside(const char *path)
{
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		err(1, "%s", path);
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
		errx(1, "%s: is a directory", path);
	return fd;
}

FILE *
fopenside(const char *path)
{
	int fd = openside(path);
	FILE *fp;

	if ((fp = fdopen(fd, "r")) == NULL)
		err(1, "%s", path);
	return fp;
}

ssize_t
textline(char **line, size_t *cap, FILE *fp, const char *name,
    unsigned long long lineno)
{
	ssize_t len;

	errno = 0;
	if ((len = getline(line, cap, fp)) == -1) {
		if (ferror(fp) || errno == ENOMEM)
			err(1, "%s", name);
		return -1;
	}
	/* Every line ends in LF: a last line without one was cut. */
	if ((*line)[len - 1] != '\n' && !isatty(fileno(fp)))
		errx(1, "%s: line %llu: truncated: no LF at the end of the "
		    "text", name, lineno);
	return len;
}

size_t
dtoa(char *buf, double d)
{
	char t[32];
	int n = snprintf(buf, 32, "%.17g", d);

	/*
	 * 17 digits always read back; the precisions that do are those from
	 * the shortest up, so step down while they still do.
	 */
	for (int prec = 16; prec >= 1; prec--) {
		int m = snprintf(t, sizeof(t), "%.*g", prec, d);

		if (strtod(t, NULL) != d)
			break;
		memcpy(buf, t, (size_t)m + 1);
		n = m;
	}
	return (size_t)n;
}

const char *
inname(const char *path)
{
	return path == NULL || strcmp(path, "-") == 0 ? "stdin" : path;
}

void
notty(int fd)
{
	if (isatty(fd)) {
		warnx("refusing to write a binary stream to a terminal "
		    "(pipe it, or use emb-cat to see it as text)");
		exit(2);
	}
}

struct emb_reader *
xreader(int fd, const char *name)
{
	struct emb_reader *r;
	int rc;

	if ((rc = emb_reader_open(&r, fd, name)) < 0)
		rdie(r, name, rc);
	return r;
}

void
rdie(struct emb_reader *r, const char *name, int rc)
{
	if (r == NULL || *emb_reader_msg(r) == '\0')
		errx(1, "%s: %s", name, emb_strerror(rc));
	errx(1, "%s: %s", name, emb_reader_msg(r));
}

struct emb_writer *
xwriter(uint32_t dim)
{
	struct emb_writer *w;
	int rc;

	notty(STDOUT_FILENO);
	if ((rc = emb_writer_open(&w, STDOUT_FILENO, dim)) < 0)
		errx(1, "stdout: %s", emb_strerror(rc));
	return w;
}

void
keyfits(size_t len, const char *name, const char *unit,
    unsigned long long n)
{
	if (len > EMB_KEY_MAX)
		errx(1, "%s: %s %llu: the output key would be %zu bytes, over "
		    "the limit of %u", name, unit, n, len, EMB_KEY_MAX);
}

void
wdie(int rc)
{
	if (rc == EMB_EIO)
		err(1, "stdout");
	errx(1, "stdout: %s", emb_strerror(rc));
}

void
wclose(struct emb_writer *w)
{
	int rc;

	if ((rc = emb_writer_close(w)) < 0)
		wdie(rc);
	emb_writer_free(w);
}

int
xtmpfd(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	path = xmalloc(strlen(dir) + 16);
	sprintf(path, "%s/emb.XXXXXX", dir);
	if ((fd = mkstemp(path)) < 0)
		err(1, "%s", path);
	unlink(path);
	free(path);
	return fd;
}

void
fshut(FILE *fp, const char *name)
{
	if (fflush(fp) != 0 || ferror(fp))
		err(1, "%s", name);
}

void
notinput(const char *path, const char *const in[], size_t n)
{
	struct stat so, si;

	if (stat(path, &so) < 0 || !S_ISREG(so.st_mode))
		return;
	for (size_t i = 0; i < n; i++) {
		if (in[i] == NULL)
			continue;
		if (strcmp(in[i], "-") == 0 ? fstat(STDIN_FILENO, &si) < 0 :
		    stat(in[i], &si) < 0)
			continue;
		if (si.st_dev == so.st_dev && si.st_ino == so.st_ino)
			errx(2, "%s: the same file as the input %s: refusing to "
			    "overwrite it", path, strcmp(in[i], "-") == 0 ?
			    "stdin" : in[i]);
	}
}

