/*
 * util.h - what the emb programs share beyond libemb: allocation that exits
 * on failure, checked number parsing, opening inputs, refusing a terminal
 * for binary output, and the flush-and-check before exit.
 */
#ifndef EMB_UTIL_H
#define EMB_UTIL_H

#include <stdio.h>
#include <sys/types.h>
#include <sys/stat.h>

#include "emb.h"

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
void	 xgrow(void *, size_t *, size_t, size_t);
char	*xstrdup(const char *);

/* Parse a whole-string integer in [min, max]; exit 2 naming opt otherwise. */
long long	 parsenum(const char *s, long long min, long long max,
		    const char *opt);
/* Parse a finite double in [min, max]; exit 2 naming opt otherwise. */
double		 parsedbl(const char *s, double min, double max,
		    const char *opt);

/*
 * The largest key field number (or count of fields) any option takes:
 * -w, -l, -k and the like, in every program.
 */
#define EMB_FIELD_MAX	1000000

/*
 * keyfield - field f (1-based) of key (len bytes), or the whole key when f
 * is 0.  @return a pointer into key and its length in *flen, or NULL if
 * the key has fewer than f fields.
 */
const char	*keyfield(const char *key, size_t len, unsigned f,
		    size_t *flen);

/* emb_buf_add, emb_buf_reserve, or exit 1: out of memory. */
void	 xbufadd(struct emb_buf *b, const void *p, size_t n);
void	 xbufreserve(struct emb_buf *b, size_t n);

/*
 * Byte strings one after another, for an emb_index over them (strskey,
 * its context the struct strs): string i is b.p[off[i] .. off[i + 1]].
 * A string's bytes are added to b (xbufadd), then strsend numbers it;
 * strspop takes the last one back.  Zero-initialise it.
 */
struct strs {
	struct emb_buf	 b;
	size_t		*off;
	size_t		 n, cap;
};
size_t	 strsend(struct strs *s);
void	 strspop(struct strs *s);
const char	*strskey(const void *ctx, size_t i, size_t *len);
void	 strsfree(struct strs *s);

/* Open path for reading ("-" or NULL is stdin): fd, or exit 1 (a
 * directory is refused as such). */
int	 openin(const char *path);
/*
 * Open a side file (a model, frequencies, distances...) for reading: fd,
 * or exit 1 naming it, a directory as one.
 */
int	 openside(const char *path);
/*
 * A text input (a query, gold scores, pairs, frequencies, distances, a
 * dictionary) read line by line through emb_lines: textopen on fd (of
 * name, for messages), textclose frees it and closes fd (not stdin).
 */
struct textin {
	struct emb_lines *l;
	int		 fd;
	const char	*name;
};
void	 textopen(struct textin *t, int fd, const char *name);
void	 textclose(struct textin *t);
/*
 * textline: the next line of t, its LF replaced by a NUL (*line, in t's
 * buffer, until the next call): @return its length without the LF, or -1
 * at the end.  The last line of a regular file needs no LF; from a pipe,
 * FIFO, socket or device a last line without one is a truncated input
 * (emb(5), TEXT INPUTS): exit 1 naming the input and lineno, the line's
 * number; except from a terminal, where the end is typed.  A read error
 * exits 1 too.
 */
ssize_t	 textline(struct textin *t, char **line, unsigned long long lineno);
/*
 * textnext: the next line as emb_lines_next() gives it (1, or 2 for a last
 * line without LF that may have been cut), or 0 at the end; a read error
 * exits 1 naming the input.
 */
int	 textnext(struct textin *t, char **line, size_t *len);
/*
 * dtoa: d in buf (32 bytes) with the fewest significant digits, %g style,
 * that read back as d; @return its length.  emb-knn prints its distances
 * so: distinct distances never print alike, and their order is the order
 * of the texts, so that merged shard lists order exactly as one search;
 * emb-knnmerge reads only what it could have printed.
 */
size_t	 dtoa(char *buf, double d);
/* The name of path for messages: "stdin" for "-" or NULL. */
const char	*inname(const char *path);
/* Is v (dim floats) the zero vector? */
int	 zerorow(const float *v, uint32_t dim);
/* Exit 2 if fd is a terminal: binary streams are not for terminals. */
void	 notty(int fd);
/*
 * A short list of names on a message line, ": a, b, c and 4 more": as
 * many as fit in 100 bytes (the first always), each quoted from at most
 * 16 of its bytes, so that the line stays short whatever the names.
 * namesadd() each name in turn, then namesend() the count left out.
 */
struct names {
	size_t	 shown, used, more;
};
void	 namesadd(struct names *nl, FILE *fp, const char *s, size_t len);
void	 namesend(struct names *nl, FILE *fp);

/* Open a reader on fd or exit 1 with the reader's message. */
struct emb_reader	*xreader(int fd, const char *name);
/*
 * The emb-normalize model in the file path, or exit 1 saying why not
 * (pcafile.c).
 */
struct emb_pca		*xpcaload(const char *path);
/*
 * A message for an input of the EMB_KIND_* kind where want ("an emb
 * stream") was expected, naming the command that reads it; NULL for
 * EMB_KIND_UNKNOWN.  The string is static.
 */
const char	*kindmsg(int kind, const char *name, const char *want);
/* The EMB_KIND_* of the file path from its first bytes (UNKNOWN if none). */
int	 pathkind(const char *path);
/*
 * fdstore - is fd a store: a regular file that starts with the store's
 * magic?  Read with pread, so fd's offset is not moved, from the one
 * descriptor (a FIFO or <(...) can be read only once).  @return 1 or 0.
 */
int	 fdstore(int fd);
/*
 * rmsg - a reader error (rc < 0) as a message, "NAME: ...", a wrong kind of
 * input named; in a static buffer, so that it outlives r.
 */
const char	*rmsg(struct emb_reader *r, const char *name, int rc);
/* Report a reader error (rc < 0) and exit 1 (rmsg). */
void	 rdie(struct emb_reader *r, const char *name, int rc)
	    __attribute__((noreturn));
/*
 * A whole ungrouped stream in memory (emb-eval, emb-augment): row i has
 * the key keys.p + keyoff[i] (keylen[i] bytes and a NUL) and the vector
 * X + i dim.  A regular file's size bounds its records (recmax), and the
 * rows are reserved for that many at once: pages never written cost
 * nothing.  Otherwise they start at 1024 rows or 1 MiB of vectors,
 * whichever is fewer, and double: memory follows the records read, never
 * a dimension a header declares.
 */
struct flat {
	const char	*name;		/* for messages */
	uint32_t	 dim;
	float		*X;		/* n x dim */
	size_t		*keyoff;	/* n key offsets into keys */
	size_t		*keylen;
	struct emb_buf	 keys;		/* the keys, each NUL-terminated */
	size_t		 n, cap;	/* rows, rows allocated */
	int		 fixed;		/* the arrays may not move */
};

/* An opened input: its reader and a bound on its record count. */
struct flatsrc {
	const char	*name;
	int		 fd;
	struct emb_reader *r;
	size_t		 est;		/* records at most, 0 if unknown */
};

/*
 * The most records a file st holds at dimension dim: a vector record
 * takes at least 5 + 4 dim bytes (emb(5)).  0 (unknown) unless st is a
 * regular file.
 */
size_t	 recmax(const struct stat *st, uint32_t dim);
/* Open path (openin) and its reader (xreader) into S, with its bound. */
void	 flatopen(struct flatsrc *S, const char *path);
/* Room for cap rows in all, or exit 1 (R fixed, or too many). */
void	 flatreserve(struct flat *R, size_t cap);
/*
 * Append the records of S to R, each vector read straight into its row,
 * then free S's reader and close its file.  A group record exits 1 with
 * "NAME: record N: " and grouped.  each (unless NULL) sees row R->n - 1
 * as soon as it is stored, with its record.
 */
typedef void	 flatfn(void *arg, struct flat *R, const struct emb_rec *rec);
void	 flatread(struct flat *R, struct flatsrc *S, const char *grouped,
	    flatfn *each, void *arg);
/* flatopen, then all of it into R (zeroed first) by flatread. */
void	 flatload(struct flat *R, const char *path, const char *grouped,
	    flatfn *each, void *arg);
void	 flatfree(struct flat *R);

/* Open a writer on stdout (refusing a terminal) or exit. */
struct emb_writer	*xwriter(uint32_t dim);
/*
 * Exit 1 naming the input and its record or line (unit n) if a key made
 * for the output, len bytes, is over EMB_KEY_MAX: the input's fault, told
 * before the writer refuses it.
 */
void	 keyfits(size_t len, const char *name, const char *unit,
	    unsigned long long n);
/* Report a writer error and exit 1. */
void	 wdie(int rc) __attribute__((noreturn));
/* Write the trailer, flush, free; exit 1 on failure. */
void	 wclose(struct emb_writer *w);

/* An unlinked read-write temporary file in $TMPDIR (or /tmp), or exit 1. */
int	 xtmpfd(void);

/*
 * The kernel of the kNN search that EMB_KNN_PATH names, forced
 * (emb-knn(1) ENVIRONMENT); unset or unknown, the library's choice.
 */
void	 knnenv(void);

/*
 * Named outputs.  notinput: exit 2 if path names an existing regular file
 * that is one of the n inputs in[] (by device and inode; "-" is standard
 * input, NULL is skipped), so that writing it cannot destroy what is read.
 */
void	 notinput(const char *path, const char *const in[], size_t n);
/*
 * outopen: a file written whole or not at all (see out.c).  path must be
 * a new name, a regular file (not a symbolic link to one), a FIFO or a
 * device, and no input (exit 2 otherwise).
 * @return a file of mode & ~umask, open for writing and reading, that
 * outcommit() gives path's name: an unnamed file in path's directory
 * where the system has O_TMPFILE (nothing is left under any name if the
 * program dies), else a temporary beside it, path.tmp.XXXXXX, removed at
 * exit and on SIGHUP, SIGINT, SIGTERM, SIGPIPE and SIGXFSZ (those not
 * ignored), which then end the program; for a FIFO or device, a spool
 * copied to it at commit.  Any number may be open at once.
 */
FILE	*outopen(const char *path, const char *const in[], size_t n,
	    mode_t mode);
/* outopenfile: the same for a file that must be one (a store is mapped). */
FILE	*outopenfile(const char *path, const char *const in[], size_t n,
	    mode_t mode);
/* Flush, fsync and close fp, give it path's name; exit 1 on failure. */
void	 outcommit(FILE *fp, const char *path);
/*
 * outclose: flush, fsync and close fp, its file kept (and removed on
 * failure as before) until outcommitall() names every closed one with
 * its path, in the order opened: outputs that stand whole together or
 * not at all (the parts of a split).
 */
void	 outclose(FILE *fp);
void	 outcommitall(void);
/* Remove outopen()'s temporaries now: async-signal-safe, for a handler. */
void	 outabort(void);

/*
 * The progress of a long job, on standard error, never on standard
 * output: with PROG_AUTO (the default) on a terminal only, as one line
 * rewritten in place; with PROG_ON (-v) also off a terminal, a line per
 * call (so call it at points that do not depend on time there); never
 * with PROG_OFF (-q).
 */
enum { PROG_AUTO, PROG_ON, PROG_OFF };
extern int	 progmode;
/* Whether progress() prints, and on a terminal (2) or as lines (1). */
int	 progshown(void);
/* "NAME: message" as progress, printf-like. */
void	 progress(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
/* Erase the progress line of a terminal, before other output. */
void	 progdone(void);

/* Flush fp and exit 1 with a message if any write to it failed. */
void	 fshut(FILE *fp, const char *name);

#endif /* EMB_UTIL_H */
