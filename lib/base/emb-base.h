/*
 * emb-base.h - the public declarations of libemb's floor base, basics: errors and quoting, aligned memory, hashing and the string
 * index, the seeded generator, growable arrays, threads.
 * Programs include emb.h, which holds every floor; a file of the library
 * includes the header of its own floor, which holds the floors below.
 */
#ifndef EMB_FLOOR_BASE_H
#define EMB_FLOOR_BASE_H

#include <stddef.h>
#include <stdint.h>

#define EMB_VERSION	"0.1.0"

/* ---- basics: errors, memory, hashing, randomness, threads ---- */

/*
 * Error codes.  All negative; 0 is success.  Ranges are kept per module so
 * that codes stay stable as modules grow.
 */
#define EMB_OK		0
/* general */
#define EMB_EIO		(-1)	/* read or write failed; errno is kept */
#define EMB_ENOMEM	(-2)	/* out of memory */
#define EMB_EINVAL	(-3)	/* invalid argument from the caller */
#define EMB_ELIMIT	(-4)	/* a size read from input exceeds a limit */
/* stream */
#define EMB_EMAGIC	(-10)	/* not an emb stream (bad magic) */
#define EMB_EVERSION	(-11)	/* unsupported format version or flags */
#define EMB_EDIM	(-12)	/* dimension out of range, or changed */
#define EMB_ETRUNC	(-13)	/* input ends inside a record or before the trailer */
#define EMB_ETYPE	(-14)	/* unknown record type */
#define EMB_EKEY	(-15)	/* key too long or badly escaped */
#define EMB_ENONFINITE	(-16)	/* NaN or infinite component */
#define EMB_EGROUP	(-17)	/* group framing broken */
#define EMB_ECOUNT	(-18)	/* trailer record count does not match */
#define EMB_ECRC	(-19)	/* trailer crc32 does not match */
#define EMB_ESYNTAX	(-20)	/* malformed text-view line */
#define EMB_ERANGE	(-21)	/* number out of float32 range */
/* embedding formats and store */
#define EMB_EFORMAT	(-30)	/* malformed embedding file */
#define EMB_EGZIP	(-31)	/* corrupt or truncated gzip data */
#define EMB_ESTORE	(-32)	/* store file corrupt, truncated or changed */
/* numerics */
#define EMB_EZERO	(-40)	/* zero vector where a direction is needed */
#define EMB_ENOSOL	(-41)	/* no solution exists (documented per function) */
#define EMB_EEMPTY	(-42)	/* empty group or empty data set */
#define EMB_ECONVERGE	(-43)	/* iterative method did not converge */
#define EMB_ELAST	(-43)

/* @return a static, non-NULL description of code (any int). */
const char *emb_strerror(int code);

/*
 * emb_quote - input bytes as a message may show them: at most
 * EMB_QUOTE_IN bytes of src (n long), printable ASCII as it is, a
 * backslash or quote as \\ \', TAB, LF, CR as \t \n \r and every other
 * byte as \xNN, followed by "..." when src was longer.  Hostile input
 * then reaches a terminal neither long nor able to drive it.  dst must
 * hold EMB_QUOTE_BUF bytes; @return dst, NUL-terminated.
 * emb_quotes - the same on a NUL-terminated string (reads at most
 * EMB_QUOTE_IN + 1 bytes of it).
 */
#define EMB_QUOTE_IN	40
#define EMB_QUOTE_BUF	(4 * EMB_QUOTE_IN + 4)
const char *emb_quote(char *dst, const void *src, size_t n);
const char *emb_quotes(char *dst, const char *s);

/* Aligned allocation for BLIS: 64-byte aligned, free with emb_free(). */
void *emb_alloc(size_t size);
void emb_free(void *p);

/* @return a * b in *res, or EMB_ELIMIT on size_t overflow. */
int emb_mul(size_t a, size_t b, size_t *res);

/*
 * Building blocks: hashing, a string index, a seeded generator, growable
 * arrays and a byte buffer, threads (hash.c, par.c).
 *
 * emb_hash - FNV-1a, 64 bits, over n bytes: the one hash of the suite
 * (a store's buckets use it too; emb-store(5)).
 */
uint64_t emb_hash(const void *p, size_t n);

/*
 * An emb_index maps byte strings to entry numbers (< 2^32 - 1); the
 * strings stay with the caller, and key(ctx, i, &len) returns entry i's
 * bytes.  Open addressing, linear probing, entry + 1 in slot
 * hash & (cap - 1), at most half full.  Zero it with emb_index_init().
 */
typedef const char *emb_keyfn(const void *ctx, size_t i, size_t *len);
struct emb_index {
	uint32_t	*slot;		/* entry + 1, 0 free */
	uint32_t	*tag;		/* the low 32 bits of its hash */
	size_t		 cap, n;	/* slots (a power of two), entries */
	emb_keyfn	*key;
	const void	*ctx;
};
void emb_index_init(struct emb_index *x, emb_keyfn *key, const void *ctx);
void emb_index_free(struct emb_index *x);
/* Room for n entries without growing: 0, EMB_ENOMEM or EMB_ELIMIT. */
int emb_index_reserve(struct emb_index *x, size_t n);
/*
 * emb_index_add - enter entry e (its key through key()) unless an entry
 * of the same key is there.  @return 0 when entered, 1 when another was
 * there (its number in *had, unless NULL), EMB_ENOMEM or EMB_ELIMIT.
 */
int emb_index_add(struct emb_index *x, size_t e, size_t *had);
/* @return the entry whose key is the len bytes at s, or -1. */
int64_t emb_index_find(const struct emb_index *x, const void *s, size_t len);

/*
 * Seeded randomness.  The generator is splitmix64 (Steele, Lea and Flood,
 * 2014): the state s starts at the seed; each draw adds 0x9e3779b97f4a7c15
 * to s and returns z ^ (z >> 31), where z = s,
 * z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9,
 * z = (z ^ (z >> 27)) * 0x94d049bb133111eb.
 */
struct emb_rng {
	uint64_t	 s;		/* state */
};

void emb_rng_seed(struct emb_rng *g, uint64_t seed);
uint64_t emb_rng_next(struct emb_rng *g);
/*
 * emb_rng_below - a uniform integer in [0, n), n >= 1: draws x until
 * x < 2^64 - (2^64 mod n), then returns x mod n.
 */
uint64_t emb_rng_below(struct emb_rng *g, uint64_t n);

/*
 * emb_grow - room for need elements of size bytes in the array *pp (a
 * pointer to the array's pointer) whose room is *cap elements: none
 * when *cap >= need, else *cap doubled (from 16) until it holds need and
 * the array reallocated.  The one growable array of the suite.
 * @return 0, or EMB_ENOMEM (the size overflows, or realloc failed; the
 * array and *cap are then as they were).
 */
int emb_grow(void *pp, size_t *cap, size_t need, size_t size);
/*
 * emb_grow_max - emb_grow whose room never passes max elements: the
 * doubling stops at max, so max == need reserves exactly need.  A reader
 * that asks for one element past what it holds thus keeps its room
 * within twice what it has read (or max), never a size the input only
 * declares.
 * @return 0; EMB_ELIMIT when need > max (nothing changed); EMB_ENOMEM
 * as emb_grow.
 */
int emb_grow_max(void *pp, size_t *cap, size_t need, size_t max,
    size_t size);

/*
 * A growable byte buffer (on emb_grow): p holds len bytes and a NUL
 * after them.
 * emb_buf_add appends n bytes: 0 or EMB_ENOMEM.  Zero-initialise it.
 */
struct emb_buf {
	char		*p;
	size_t		 len, cap;
};
int emb_buf_add(struct emb_buf *b, const void *p, size_t n);
/*
 * emb_buf_reserve - room for n more bytes and the NUL after them, at
 * p + len, for a caller that writes them in place, adds n to len and
 * writes the NUL: 0 or EMB_ENOMEM.
 */
int emb_buf_reserve(struct emb_buf *b, size_t n);
void emb_buf_free(struct emb_buf *b);

/*
 * emb_ncpu - the processors online, 1 to EMB_MAXTHREADS: the default of
 * every program's -j.  emb_now - a monotonic clock, in seconds.
 */
#define EMB_MAXTHREADS	256
int emb_ncpu(void);
double emb_now(void);

/*
 * Threads, the one pool of the suite.  emb_par_run runs fn(arg, worker,
 * lane, r0, r1) on every lane of n rows (lane l: rows
 * [n l / nlane, n (l + 1) / nlane)) with emb_par_workers(nt, nlane)
 * workers, the caller one of them (worker 0), the others numbered 1 up,
 * each taking the next lane in turn; lanes depend on the problem only,
 * so a caller that combines lane results in lane order gets the same
 * bits for every thread count.
 */
typedef void emb_lanefn(void *arg, int worker, size_t lane, size_t r0,
    size_t r1);
int emb_par_workers(int nt, size_t nlane);
void emb_par_run(int nt, size_t n, size_t nlane, emb_lanefn *fn, void *arg);

/* ---- end of basics ---- */

#endif /* EMB_FLOOR_BASE_H */
