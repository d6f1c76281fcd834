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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
	int fd;

	if (path == NULL || strcmp(path, "-") == 0)
		return STDIN_FILENO;
	if ((fd = open(path, O_RDONLY)) < 0)
		err(1, "%s", path);
	return fd;
}

int
openside(const char *path)
{
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		err(1, "%s", path);
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		errx(1, "%s: is a directory", path);
	}
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
	if (r == NULL)
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
