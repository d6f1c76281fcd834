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
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
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

/* emb_grow(pp, cap, need, size), or exit. */
void
xgrow(void *pp, size_t *cap, size_t need, size_t size)
{
	if (need > *cap && emb_grow(pp, cap, need, size) < 0)
		errx(1, "%s", emb_strerror(EMB_ENOMEM));
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
		xgrow(&s->off, &s->cap, s->n + 2, sizeof(*s->off));
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

/*
 * Exit 2: the argument s of opt is not a number (what, "a whole number"
 * or "a number"), or not in min..max (given as text); a maximum of 1e15
 * or more (nomax) is no real bound and is not told.
 */
static void __attribute__((noreturn))
badnum(const char *opt, const char *s, int isnum, const char *what,
    const char *min, const char *max, int nomax)
{
	char q[EMB_QUOTE_BUF];

	emb_quotes(q, s);
	if (!isnum && (*s == '+' || isspace((unsigned char)*s)))
		warnx("%s: '%s': write the number alone, without a sign or "
		    "blank in front", opt, q);
	else if (!isnum)
		warnx("%s: '%s' is not %s", opt, q, what);
	else if (nomax)
		warnx("%s: '%s' is out of range: it must be at least %s", opt,
		    q, min);
	else
		warnx("%s: '%s' is out of range: it must be from %s to %s", opt,
		    q, min, max);
	exit(2);
}

long long
parsenum(const char *s, long long min, long long max, const char *opt)
{
	char *end, lo[32], hi[32];
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (!plainstart(s) || *end != '\0' || errno == ERANGE || v < min ||
	    v > max) {
		snprintf(lo, sizeof(lo), "%lld", min);
		snprintf(hi, sizeof(hi), "%lld", max);
		badnum(opt, s, plainstart(s) && end != s && *end == '\0',
		    "a whole number", lo, hi, max >= 1000000000000000LL);
	}
	return v;
}

double
parsedbl(const char *s, double min, double max, const char *opt)
{
	char *end, lo[32], hi[32];
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!plainstart(s) || *end != '\0' || errno == ERANGE ||
	    !isfinite(v) || v < min || v > max) {
		snprintf(lo, sizeof(lo), "%g", min);
		snprintf(hi, sizeof(hi), "%g", max);
		badnum(opt, s, plainstart(s) && end != s && *end == '\0' &&
		    isfinite(v), "a number", lo, hi, max >= 1e15);
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

void
textopen(struct textin *t, int fd, const char *name)
{
	t->fd = fd;
	t->name = name;
	if (emb_lines_open(&t->l, fd) < 0)
		errx(1, "%s", emb_strerror(EMB_ENOMEM));
}

void
textclose(struct textin *t)
{
	emb_lines_free(t->l);
	t->l = NULL;
	if (t->fd != STDIN_FILENO)
		close(t->fd);
}

int
textnext(struct textin *t, char **line, size_t *len)
{
	int rc;

	if ((rc = emb_lines_next(t->l, line, len)) == EMB_ENOMEM)
		errno = ENOMEM;
	if (rc < 0)
		err(1, "%s", t->name);
	return rc;
}

ssize_t
textline(struct textin *t, char **line, unsigned long long lineno)
{
	size_t len;
	int rc;

	if ((rc = textnext(t, line, &len)) == 0)
		return -1;
	/* From a pipe, a last line without LF was cut (its writer died). */
	if (rc == 2 && !isatty(t->fd))
		errx(1, "%s: line %llu: truncated: no LF at the end of the "
		    "text", t->name, lineno);
	return (ssize_t)len;
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

int
zerorow(const float *v, uint32_t dim)
{
	for (uint32_t d = 0; d < dim; d++)
		if (v[d] != 0)
			return 0;
	return 1;
}

const char *
inname(const char *path)
{
	return path == NULL || strcmp(path, "-") == 0 ? "stdin" : path;
}

#define NAMESLINE	100
#define NAMESWORD	16

void
namesadd(struct names *nl, FILE *fp, const char *s, size_t len)
{
	char q[EMB_QUOTE_BUF + 3];

	emb_quote(q, s, len < NAMESWORD ? len : NAMESWORD);
	if (len > NAMESWORD)
		strcat(q, "...");
	if (nl->more > 0 || (nl->shown > 0 && nl->used + strlen(q) + 2 >
	    NAMESLINE)) {
		nl->more++;
		return;
	}
	fprintf(fp, "%s%s", nl->shown++ == 0 ? ": " : ", ", q);
	nl->used += strlen(q) + 2;
}

void
namesend(struct names *nl, FILE *fp)
{
	if (nl->more > 0)
		fprintf(fp, " and %zu more", nl->more);
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

/* What each EMB_KIND_* is, and the command that reads it (%s: its name). */
static const struct {
	const char	*what;
	const char	*how;
} kinds[] = {
	[EMB_KIND_STREAM] = { "an emb stream",
	    "emb-lookup -B store -e %s makes a store of it" },
	[EMB_KIND_STORE] = { "an emb-lookup store",
	    "emb-lookup -D -e %s writes its words as a stream" },
	[EMB_KIND_GZIP] = { "gzip data",
	    "decompress it (zcat %s | ...); emb-lookup -e reads a gzipped "
	    "embedding file as it is" },
	[EMB_KIND_NPY] = { "a NumPy array",
	    "emb-cat -n %s -K keys makes a stream of it" },
	[EMB_KIND_FTBIN] = { "a fastText model",
	    "emb-lookup -e %s reads it (-D: its words as a stream, -B: a "
	    "store)" },
	[EMB_KIND_HEADER] = { "an embedding file with a 'count dim' header "
	    "(word2vec, fastText .vec)",
	    "emb-lookup -D -e %s writes it as a stream, -B makes a store" },
	[EMB_KIND_TEXT] = { "text",
	    "for an embedding file such as GloVe, emb-lookup -D -e %s (-B: a "
	    "store); for emb-cat's text view, emb-cat -r" },
	[EMB_KIND_WORDS] = { "text of words (no numbers on its first line)",
	    "emb-lookup -e VECTORS %s looks up the words of each line in an "
	    "embedding file or a store, a group a line" },
};

const char *
kindmsg(int kind, const char *name, const char *want)
{
	static char m[1024];
	/* A command is shown on a file; stdin is named as a file would be. */
	const char *q = strcmp(name, "stdin") == 0 ? "file" : name;
	int n;

	if (kind <= EMB_KIND_UNKNOWN ||
	    kind >= (int)(sizeof(kinds) / sizeof(kinds[0])))
		return NULL;
	n = snprintf(m, sizeof(m), "%s, not %s: ", kinds[kind].what, want);
	if (n > 0 && (size_t)n < sizeof(m))
		snprintf(m + n, sizeof(m) - n, kinds[kind].how, q);
	return m;
}

int
pathkind(const char *path)
{
	unsigned char b[256];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		return EMB_KIND_UNKNOWN;
	n = pread(fd, b, sizeof(b), 0);
	close(fd);
	return n > 0 ? emb_sniff(b, (size_t)n) : EMB_KIND_UNKNOWN;
}

int
fdstore(int fd)
{
	char magic[EMB_MAGIC_LEN];
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    pread(fd, magic, sizeof(magic), 0) == sizeof(magic) &&
	    memcmp(magic, EMB_STORE_MAGIC, sizeof(magic)) == 0;
}

const char *
rmsg(struct emb_reader *r, const char *name, int rc)
{
	static char m[8192];
	const char *k;

	if (rc == EMB_EMAGIC && r != NULL &&
	    (k = kindmsg(emb_reader_kind(r), name, "an emb stream")) != NULL)
		snprintf(m, sizeof(m), "%s: %s", name, k);
	else if (r == NULL || *emb_reader_msg(r) == '\0')
		snprintf(m, sizeof(m), "%s: %s", name, emb_strerror(rc));
	else
		snprintf(m, sizeof(m), "%s: %s", name, emb_reader_msg(r));
	return m;
}

void
rdie(struct emb_reader *r, const char *name, int rc)
{
	errx(1, "%s", rmsg(r, name, rc));
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
knnenv(void)
{
	const char *e = getenv("EMB_KNN_PATH");
	int path;

	if (e != NULL && (path = emb_knn_path_byname(e)) >= 0)
		emb_knn_path_set(path);
}

int progmode = PROG_AUTO;
static int progline;		/* a progress line is on the terminal */
static pthread_mutex_t proglock = PTHREAD_MUTEX_INITIALIZER;

int
progshown(void)
{
	static int tty = -1;

	pthread_mutex_lock(&proglock);
	if (tty < 0)
		tty = isatty(STDERR_FILENO);
	pthread_mutex_unlock(&proglock);
	if (progmode == PROG_OFF || (progmode == PROG_AUTO && !tty))
		return 0;
	return tty ? 2 : 1;
}

void
progress(const char *fmt, ...)
{
	int how = progshown();
	va_list ap;

	if (how == 0)
		return;
	/* One line at a time, from whichever thread. */
	pthread_mutex_lock(&proglock);
	fprintf(stderr, "%s%s: ", how == 2 ? "\r" : "",
	    program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(how == 2 ? "\033[K" : "\n", stderr);
	progline = how == 2;
	pthread_mutex_unlock(&proglock);
}

void
progdone(void)
{
	pthread_mutex_lock(&proglock);
	if (progline)
		fputs("\r\033[K", stderr);
	progline = 0;
	pthread_mutex_unlock(&proglock);
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

