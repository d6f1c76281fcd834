/*
 * src.c - the one input layer: a byte source over a file descriptor (read
 * in large blocks, EINTR retried here and nowhere else), a gzip stream
 * inflated on the way (zlib, concatenated members too), a mapped file or
 * memory, with "make n bytes available", "find the next line" and "copy
 * n bytes" on top.  Growth is checked for overflow; the end of input and
 * each failure come back as distinct codes so that every reader can say
 * exactly where its input stopped.
 *
 * Who sits on it: the stream reader (stream.c), the embedding-file
 * parsers (formats.c; an emb(5) input, plain or gzip, goes to the stream
 * reader on the same source), the fastText reader (ftbin.c, through
 * formats.c), the .npy reader and its keys file (npy.c), a trained model
 * (tmodel.c), a writer's spool (wformat.c) and, through emb_lines, the
 * programs' text inputs.  A reader with its own
 * compact/grow/read loop is a second copy of this file.
 */
#include "io/emb-io.h"
#include "base/io.h"
#include "io/src.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* A gzip source's state: the compressed block and the inflater. */
struct emb_srcz {
	z_stream	 zs;
	unsigned char	*in;		/* compressed block */
	size_t		 insz;
	int		 zinit;		/* zs is initialised */
	int		 zend;		/* a gzip member just ended */
};

int
emb_src_open(struct emb_src *s, int fd, void *buf, size_t bufsz)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->cap = bufsz;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		s->reg = 1;
		s->rawsize = (uint64_t)st.st_size;
	}
	if (buf != NULL) {
		s->buf = buf;
		return 0;
	}
	s->own = 1;
	if ((s->buf = malloc(bufsz ? bufsz : 1)) == NULL)
		return EMB_ENOMEM;
	return 0;
}

void
emb_src_mem(struct emb_src *s, const void *p, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->buf = (unsigned char *)(uintptr_t)p;
	s->cap = s->end = n;
	s->eof = s->ineof = 1;
}

void
emb_src_idle(struct emb_src *s, int ms, void (*fn)(void *), void *ctx)
{
	s->idle = fn;
	s->idlectx = ctx;
	s->idlems = ms;
}

/* Whether fd has bytes, its end or an error within ms milliseconds. */
static int
ready(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int rc;

	while ((rc = poll(&p, 1, ms)) < 0 && errno == EINTR)
		;
	return rc != 0;
}

/*
 * The one read(2): up to n raw bytes into dst, the idle call first when
 * it would wait (emb_src_idle).  @return the count (0 at the end of
 * input) or EMB_EIO with errno set.
 */
static ssize_t
rawread(struct emb_src *s, unsigned char *dst, size_t n)
{
	ssize_t got;

	if (s->ineof)
		return 0;
	if (s->idle != NULL && !s->reg && !ready(s->fd, s->idlems))
		s->idle(s->idlectx);
	do
		got = read(s->fd, dst, n);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return EMB_EIO;
	if (got == 0)
		s->ineof = 1;
	s->rawread += (uint64_t)got;
	return got;
}

/* Room for n bytes in buf, doubling it (emb_buf's growth and checks). */
static int
grow(struct emb_src *s, size_t n)
{
	struct emb_buf b = { (char *)s->buf, 0, s->cap };

	/* Room for n - 1 bytes and a NUL is room for n. */
	if (!s->own || emb_buf_reserve(&b, n - 1) < 0)
		return EMB_ENOMEM;
	s->buf = (unsigned char *)b.p;
	s->cap = b.cap;
	return 0;
}

int
emb_src_gunzip(struct emb_src *s, size_t insz)
{
	struct emb_srcz *z;
	size_t have = 0;
	ssize_t got;

	if (insz < 2)
		insz = 2;	/* room for the magic */
	if ((z = calloc(1, sizeof(*z))) == NULL ||
	    (z->in = malloc(insz)) == NULL) {
		free(z);
		return EMB_ENOMEM;
	}
	s->z = z;
	z->insz = insz;
	while (have < 2 && !s->ineof) {
		if ((got = rawread(s, z->in + have, insz - have)) < 0)
			return EMB_EIO;
		have += (size_t)got;
	}
	if (have >= 2 && z->in[0] == 0x1f && z->in[1] == 0x8b) {
		if (inflateInit2(&z->zs, 16 + MAX_WBITS) != Z_OK)
			return EMB_ENOMEM;
		z->zinit = 1;
		z->zs.next_in = z->in;
		z->zs.avail_in = (uInt)have;
		s->gz = 1;
		return 0;
	}
	/* Plain: the bytes peeked at are the first of the input. */
	if (s->cap - s->end < have && grow(s, s->end + have) < 0)
		return EMB_ENOMEM;
	memcpy(s->buf + s->end, z->in, have);
	s->end += have;
	return 0;
}

/*
 * Append decompressed (or plain) bytes at buf + end, as many as fit.
 * @return 0, 1 at the end of input, or a negative code.
 */
static int
produce(struct emb_src *s)
{
	struct emb_srcz *z = s->z;
	ssize_t got;

	if (s->eof)
		return 1;
	if (!s->gz) {
		if ((got = rawread(s, s->buf + s->end, s->cap - s->end)) < 0)
			return (int)got;
		if (got == 0) {
			s->eof = 1;
			return 1;
		}
		s->end += (size_t)got;
		return 0;
	}
	for (;;) {
		size_t before = s->end;
		int zr;

		if (z->zs.avail_in == 0) {
			if ((got = rawread(s, z->in, z->insz)) < 0)
				return (int)got;
			if (got == 0) {
				s->eof = 1;
				if (!z->zend)
					return EMB_EGZIP;
				return 1;
			}
			z->zs.next_in = z->in;
			z->zs.avail_in = (uInt)got;
		}
		if (z->zend) {
			/* Another gzip member follows (cat a.gz b.gz). */
			if (inflateReset(&z->zs) != Z_OK)
				return EMB_EGZIP;
			z->zend = 0;
		}
		z->zs.next_out = s->buf + s->end;
		z->zs.avail_out = (uInt)(s->cap - s->end);
		zr = inflate(&z->zs, Z_NO_FLUSH);
		s->end = s->cap - z->zs.avail_out;
		if (zr == Z_STREAM_END)
			z->zend = 1;
		else if (zr == Z_MEM_ERROR)
			return EMB_ENOMEM;
		else if (zr != Z_OK && zr != Z_BUF_ERROR)
			return EMB_EGZIP;
		if (s->end > before || s->end == s->cap)
			return 0;
	}
}

/*
 * The end of a mapped file: check that it kept its size while it was read
 * (a file cut short within its last page reads as zeros rather than
 * faulting).  @return 1, or EMB_EIO with errno set.
 */
static int
mapend(struct emb_src *s)
{
	struct stat st;

	s->eof = 1;
	if (fstat(s->fd, &st) < 0)
		return EMB_EIO;
	if ((uint64_t)st.st_size != s->rawsize) {
		errno = EIO;
		s->changed = 1;
		return EMB_EIO;
	}
	return 1;
}

int
emb_src_fill(struct emb_src *s, size_t n)
{
	int rc;

	if (s->end - s->beg >= n)
		return 0;
	if (s->map != NULL)
		return mapend(s);
	while (s->end - s->beg < n) {
		if (s->err && !s->soft)
			return s->err;
		if (s->eof)
			return 1;
		if (s->cap - s->beg < n || s->end == s->cap) {
			memmove(s->buf, s->buf + s->beg, s->end - s->beg);
			s->end -= s->beg;
			s->beg = 0;
		}
		if (s->cap < n && (rc = grow(s, n)) < 0)
			return rc;
		if ((rc = produce(s)) < 0) {
			s->err = rc;
			if (s->soft) {
				s->eof = 1;
				return 1;
			}
		}
		if (rc != 0)
			return rc;
	}
	return 0;
}

int
emb_src_line(struct emb_src *s, size_t max, size_t *len)
{
	size_t scanned = 0;
	unsigned char *nl;
	int rc;

	for (;;) {
		nl = memchr(s->buf + s->beg + scanned, '\n',
		    s->end - s->beg - scanned);
		if (nl != NULL) {
			*len = (size_t)(nl - (s->buf + s->beg));
			return 1;
		}
		scanned = s->end - s->beg;
		if (scanned >= max)
			return EMB_ELIMIT;
		if ((rc = emb_src_fill(s, scanned + 1)) < 0)
			return rc;
		if (rc == 1) {
			*len = s->end - s->beg;
			return *len > 0 ? 2 : 0;
		}
	}
}

int
emb_src_whole(const struct emb_src *s)
{
	/*
	 * A regular file holds what it holds; gzip data ends at a member's
	 * trailer or is an error (EMB_EGZIP).  A pipe's end says nothing
	 * of whether its writer finished.
	 */
	return s->eof && s->err == 0 && !s->changed && (s->reg || s->gz);
}

int
emb_src_getl(struct emb_src *s, size_t max, char **line, size_t *len)
{
	int rc = emb_src_line(s, max, len), g;

	if (rc <= 0)
		return rc;
	if (rc == 2) {
		/* A last line without LF: room for the NUL after it. */
		if (s->end == s->cap && (g = grow(s, s->cap + 1)) < 0)
			return g;
		*line = (char *)s->buf + s->beg;
		(*line)[*len] = '\0';
		s->beg += *len;
		return emb_src_whole(s) ? 1 : 2;
	}
	*line = (char *)s->buf + s->beg;
	(*line)[*len] = '\0';
	s->beg += *len + 1;
	return 1;
}

/* A text input's block: lines longer grow it. */
#define LINEBUF	(1u << 18)

struct emb_lines {
	struct emb_src	 s;
};

int
emb_lines_open(struct emb_lines **lp, int fd)
{
	struct emb_lines *l;

	*lp = NULL;
	if ((l = calloc(1, sizeof(*l))) == NULL)
		return EMB_ENOMEM;
	if (emb_src_open(&l->s, fd, NULL, LINEBUF) < 0) {
		emb_lines_free(l);
		return EMB_ENOMEM;
	}
	*lp = l;
	return 0;
}

int
emb_lines_next(struct emb_lines *l, char **line, size_t *len)
{
	/* No limit but memory, as getline(3) has. */
	return emb_src_getl(&l->s, SIZE_MAX, line, len);
}

void
emb_lines_idle(struct emb_lines *l, int ms, void (*fn)(void *), void *ctx)
{
	emb_src_idle(&l->s, ms, fn, ctx);
}

void
emb_lines_free(struct emb_lines *l)
{
	if (l == NULL)
		return;
	emb_src_close(&l->s);
	free(l);
}

int
emb_copyfd(int from, int to, int *wrote)
{
	struct emb_src s;
	int rc, e;

	*wrote = 0;
	if ((rc = emb_src_open(&s, from, NULL, 65536)) == 0)
		while ((rc = emb_src_fill(&s, 1)) == 0) {
			if ((rc = emb_writeall(to, s.buf + s.beg,
			    s.end - s.beg)) != 0) {
				*wrote = 1;
				break;
			}
			s.beg = s.end;
		}
	e = errno;
	emb_src_close(&s);
	errno = e;
	return rc < 0 ? rc : 0;
}

ssize_t
emb_src_read(struct emb_src *s, void *dst, size_t n)
{
	unsigned char *d = dst;
	size_t got = 0;
	int rc;

	while (got < n) {
		size_t k = s->end - s->beg;

		if (k == 0) {
			if ((rc = emb_src_fill(s, 1)) < 0)
				return rc;
			if (rc == 1)
				break;
			k = s->end - s->beg;
		}
		if (k > n - got)
			k = n - got;
		memcpy(d + got, s->buf + s->beg, k);
		s->beg += k;
		got += k;
	}
	return (ssize_t)got;
}

/*
 * Only a regular file whose size is known is mapped.  A file truncated
 * while mapped raises SIGBUS when a page past its new end is touched (the
 * program turns that into an error naming the file), and mapend()
 * catches a change of size that does not fault.
 */
int
emb_src_map(struct emb_src *s)
{
	uint64_t at = s->rawread - (s->end - s->beg);
	struct stat st;
	void *p;

	if (s->gz || !s->own || s->rawsize == 0 || s->rawsize > SIZE_MAX ||
	    fstat(s->fd, &st) < 0 || (uint64_t)st.st_size != s->rawsize)
		return 0;
	p = mmap(NULL, (size_t)s->rawsize, PROT_READ, MAP_SHARED, s->fd, 0);
	if (p == MAP_FAILED)
		return 0;
	madvise(p, (size_t)s->rawsize, MADV_SEQUENTIAL);
	s->map = p;
	s->mapsz = (size_t)s->rawsize;
	s->heap = s->buf;
	s->buf = s->map;
	s->beg = (size_t)at;
	s->end = s->cap = s->mapsz;
	return 1;
}

void *
emb_src_takemap(struct emb_src *s, size_t *size)
{
	void *p = s->map;

	if (p == NULL)
		return NULL;
	*size = s->mapsz;
	/* From now on the map is read at random. */
	madvise(p, s->mapsz, MADV_NORMAL);
	s->map = NULL;
	s->buf = s->heap;
	s->heap = NULL;
	s->beg = s->end = s->cap = 0;
	s->eof = 1;
	return p;
}

int
emb_src_slurp(int fd, char **p, size_t *len)
{
	struct emb_src s;
	int rc;

	*p = NULL;
	*len = 0;
	if ((rc = emb_src_open(&s, fd, NULL, 65536)) == 0)
		while ((rc = emb_src_fill(&s, s.end + 1)) == 0)
			continue;
	if (rc < 0) {
		emb_src_close(&s);
		return rc;
	}
	*p = (char *)s.buf;
	*len = s.end;
	s.buf = NULL;
	emb_src_close(&s);
	return 0;
}

void
emb_src_close(struct emb_src *s)
{
	if (s->z != NULL) {
		if (s->z->zinit)
			inflateEnd(&s->z->zs);
		free(s->z->in);
		free(s->z);
		s->z = NULL;
	}
	if (s->map != NULL) {
		munmap(s->map, s->mapsz);
		s->map = NULL;
		s->buf = s->heap;
		s->heap = NULL;
	}
	if (s->own)
		free(s->buf);
	s->buf = NULL;
	s->own = 0;
	s->beg = s->end = s->cap = 0;
}
