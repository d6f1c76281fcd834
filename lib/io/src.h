/*
 * src.h - the byte source every reader in libemb sits on (lib/src.c):
 * bytes from a file descriptor, a gzip stream, a mapped file or memory,
 * made available n at a time.  Inside libemb only.
 *
 * The unread bytes are buf[beg, end); a reader looks at them in place
 * and consumes them by advancing beg.  emb_src_fill() may move them
 * (and so invalidate pointers into buf) whenever it has to read.
 */
#ifndef EMB_SRC_H
#define EMB_SRC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct emb_srcz;

struct emb_src {
	int		 fd;		/* -1: memory only */
	unsigned char	*buf;		/* the block; unread is [beg, end) */
	size_t		 cap, beg, end;
	int		 own;		/* buf is malloc'd here (may grow) */
	int		 eof;		/* no more bytes will come */
	int		 ineof;		/* read(2) returned 0 */
	int		 soft;		/* an error ends the input */
	int		 err;		/* the first error, returned again */
	int		 gz;		/* the bytes are inflated gzip */
	int		 changed;	/* a mapped file changed size */
	int		 reg;		/* fd is a regular file */
	uint64_t	 rawread;	/* bytes read from fd */
	uint64_t	 rawsize;	/* size of a regular file, else 0 */
	struct emb_srcz	*z;		/* inflation state */
	unsigned char	*map;		/* a mapped file: buf is then map */
	size_t		 mapsz;
	unsigned char	*heap;		/* the malloc'd buf, while mapped */
	void		(*idle)(void *); /* before a read that would wait */
	void		*idlectx;
	int		 idlems;	/* ... that long (emb_src_idle) */
};

/*
 * emb_src_idle - call fn(ctx) before a read(2) that would wait: when fd
 * is not a regular file (a pipe, a terminal) and nothing comes within
 * ms milliseconds (0: nothing is there now), so that a program answers
 * what it has read before it waits for more; fn NULL: no call.  A file
 * is never waited for, and a fast pipe seldom.
 */
void	emb_src_idle(struct emb_src *, int ms, void (*fn)(void *), void *ctx);

/*
 * emb_src_open - a source reading fd in blocks of bufsz bytes into buf
 * (NULL: a block malloc'd here, which grows as emb_src_fill() needs;
 * otherwise the caller's, which never grows).  Notes whether fd is a
 * regular file, and its size.  @return 0 or EMB_ENOMEM; emb_src_close() in either case.
 */
int	emb_src_open(struct emb_src *, int fd, void *buf, size_t bufsz);

/* emb_src_mem - a source over n bytes at p, not copied.  Never fails. */
void	emb_src_mem(struct emb_src *, const void *p, size_t n);

/*
 * emb_src_gunzip - read the first raw bytes (in blocks of insz) and, when
 * they are gzip's magic, inflate everything from there on (concatenated
 * members too).  @return 0, or EMB_EIO (errno set) or EMB_ENOMEM.
 */
int	emb_src_gunzip(struct emb_src *, size_t insz);

/*
 * emb_src_fill - make n bytes available at buf + beg, growing buf (with
 * an overflow check).  @return 0; 1 when the input ends first (what there
 * is stays available); or EMB_EIO (errno set), EMB_EGZIP (eof says
 * whether the gzip data ended early or is corrupt) or EMB_ENOMEM, kept in
 * err and returned by every later call.  A soft source returns 1 for an
 * error instead, as a pipe closed by a failing writer would end.
 */
int	emb_src_fill(struct emb_src *, size_t n);

/*
 * emb_src_line - find the next LF within max bytes: the line is *len
 * bytes at buf + beg, its LF (if any) just after.  @return 1 a line
 * ending in LF; 2 a last line without one (*len > 0); 0 at the end of
 * input; EMB_ELIMIT when max bytes hold no LF; or a code of
 * emb_src_fill().  A longer line whose LF is in the block already comes
 * back whole: the caller checks *len.  It consumes the line itself.
 */
int	emb_src_line(struct emb_src *, size_t max, size_t *len);

/*
 * emb_src_whole - whether input that has ended is whole, so that a last
 * line without LF is a line (emb(5), TEXT INPUTS): 1 for a regular file
 * read to its end, or gzip data that ended where a member ends (its
 * trailer checked); 0 for a pipe, FIFO, socket or device, whose writer
 * may have stopped mid-line, for memory, and after any error.
 */
int	emb_src_whole(const struct emb_src *);

/*
 * emb_src_getl - emb_src_line(), then the line NUL-terminated in place
 * of its LF (*line, *len bytes before the NUL) and consumed; *line stays
 * valid until the next call.  The source's buffer must be writable: a
 * memory source's last line needs its LF.  @return as emb_src_line(),
 * except that the last line of a whole source (emb_src_whole()) comes
 * back as 1 with or without its LF: 2 is a last line without LF that
 * may have been cut.
 */
int	emb_src_getl(struct emb_src *, size_t max, char **line, size_t *len);

/*
 * emb_src_read - copy up to n bytes into dst.  @return the count, less
 * than n only at the end of input, or a negative code of emb_src_fill().
 */
ssize_t	emb_src_read(struct emb_src *, void *dst, size_t n);

/*
 * emb_src_map - from here on, read a plain regular file through a
 * shared read-only mapping instead of read(2); the unread bytes stay
 * where they are in it.  @return 1 mapped, 0 not (a pipe, gzip, a size
 * that changed, a failed mmap: the source reads on as before).
 */
int	emb_src_map(struct emb_src *);

/*
 * emb_src_takemap - hand the mapping to the caller (who munmaps it) and
 * end the source.  @return the map and *size, or NULL when not mapped.
 */
void	*emb_src_takemap(struct emb_src *, size_t *size);

/*
 * emb_src_slurp - all the bytes of fd into one malloc'd block (*p, *len;
 * the caller frees it), memory growing with the bytes read.  @return 0,
 * EMB_EIO or EMB_ENOMEM.
 */
int	emb_src_slurp(int fd, char **p, size_t *len);

/* emb_src_close - free what the source holds (not fd); idempotent. */
void	emb_src_close(struct emb_src *);

/*
 * emb_reader_open_src - emb_reader_open() on a source the caller owns
 * and keeps (it must outlive the reader), from its unread bytes on.
 */
struct emb_reader;
int	emb_reader_open_src(struct emb_reader **, struct emb_src *,
	    const char *name);

#endif
