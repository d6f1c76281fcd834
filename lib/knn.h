/*
 * knn.h - the nearest-neighbour search's internals: the reference set
 * (knn.c), the search (knn-search.c) and its kernels (knn-kern.c).  No
 * program includes it.
 *
 * A reference keeps its vector as it was given (float32), the norm of
 * that vector in double, and a low-precision copy of its direction: int8
 * codes c with one scale s, x = v / |v| = s c + e, with |e| = E (and the
 * norm of s c, A) stored beside, so that a bound on the error of a score
 * computed from codes needs nothing but these numbers (knn-search.c
 * proves it).  Codes are kept in strips of 64 references laid out for the
 * kernels: strip t holds references 64 t ... 64 t + 63; for each group
 * of four components g, 256 bytes, reference l of the strip at 4 l, its
 * four codes plus 128 (unsigned bytes, as VNNI's vpdpbusd reads them).
 */
#ifndef EMB_KNN_H
#define EMB_KNN_H

#include <stddef.h>
#include <stdint.h>

#include "emb.h"

#define KNN_STRIP	64		/* references per strip */
/*
 * Codes are kept up to this dimension: a kernel's int32 sums stay exact
 * (4 x 255 x 127 per step, dim / 4 steps: below 2^31).  Beyond it every
 * score is bounded through the float32 path.
 */
#define KNN_CODEDIM	65536

struct emb_knn {
	uint32_t	 dim;		/* components per vector */
	size_t		 ld;		/* row stride of mat, in floats */
	size_t		 n;		/* references held */
	size_t		 cap;		/* rows mapped */
	float		*mat;		/* n x ld vectors as given (mmap) */
	struct emb_store *store;	/* or the store's, read in place */
	int		 ownterms;	/* a store's terms computed here */
	int		 rawkeys;	/* its words are the keys as they are */
	int		 storeidx;	/* its buckets are the word index */
	int		 rowfd;		/* its file, for knn_row, or -1 */
	uint64_t	 rowoff;	/* where its rows start in the file */
	size_t		 maplen;	/* bytes mapped at mat */
	double		*nrm;		/* |v|^2 of each: knn_dot(v, v) */
	uint32_t	 dp;		/* dim rounded up to 4: codes a row */
	uint8_t		*codes;		/* strips (mmap), NULL: no codes */
	size_t		 codelen;	/* bytes mapped at codes */
	float		*cs;		/* the code scale s of each */
	float		*ce;		/* E = |x - s c|, rounded up */
	int		 sectchk;	/* the terms are a store's: check */
	uint32_t	 ccrc, tcrc;	/* their crc32 (knn_sect) */
	const unsigned char *rowcrc;	/* a store's row checksums, or NULL */
	int8_t		*scratch;	/* dp bytes: one vector's codes */
	char		*keys;		/* all keys, each NUL-terminated */
	size_t		 keylen;	/* bytes used in keys */
	size_t		 keycap;	/* bytes allocated */
	size_t		*koff;		/* n + 1 offsets into keys */
	size_t		 koffcap;	/* entries allocated in koff */
	int		 indexed;	/* a word index is built */
	unsigned	 wfield;	/* its key field, 0-based */
	struct emb_index idx;		/* word -> its first reference */
	uint32_t	*next;		/* reference -> next of same word + 1 */
};

/*
 * knn_quant - the codes of v (dim floats, norm nrm = sqrt(knn_dot(v, v)))
 * into c (dp bytes, zero past dim), its scale into *s, E and A (rounded
 * up) into *e and *a.  A zero vector has zero codes and s = E = A = 0.
 */
void	knn_quant(const float *v, uint32_t dim, uint32_t dp, double nrm,
    int8_t *c, float *s, float *e, float *a);

/*
 * A store's search section (emb-store(5)): the terms knn_code keeps of
 * each row, rows rounded up to a whole strip, mapped with the store.
 */
struct knn_sect {
	uint32_t	 dp;		/* code bytes a row; 0: no codes */
	uint64_t	 rows;		/* the words rounded up to a strip */
	const uint8_t	*codes;		/* strips, or NULL */
	const double	*nrm;		/* rows of each */
	const float	*cs, *ce;
	uint32_t	 ccrc, tcrc;	/* crc32 of the codes, of the terms */
};

/*
 * knn_store_rows - the store's row checksums (emb-store(5)): one
 * little-endian u32 a word, or NULL for a store without them.
 */
const unsigned char *knn_store_rows(const struct emb_store *s);

/* knn_store_fail - record msg as store s's error (emb_store_msg). */
void	knn_store_fail(struct emb_store *s, const char *msg);

/*
 * knn_store_sect - the search section of store s into *ks, valid while s
 * lives.  @return 0, or -1 when s has none (built before it existed, or
 * a store in memory).
 */
int	knn_store_sect(const struct emb_store *s, struct knn_sect *ks);

/*
 * knn_store_file - the descriptor a store file keeps open (until it is
 * closed) and the offset of its rows in it.  @return the descriptor, or
 * -1 for a store in memory.
 */
int	knn_store_file(const struct emb_store *s, uint64_t *off);

/*
 * knn_growterms - room for exactly n references in the arrays of terms
 * knn_code keeps beside the codes (nrm, cs, ce), which hold has now.
 * @return 0 or EMB_ENOMEM (the arrays grown so far keep their rows).
 */
int	knn_growterms(double **nrm, float **cs, float **ce, size_t has,
    size_t n);

/*
 * knn_code - the terms of reference i, row v: |v|^2 (knn_dot) into
 * nrm[i] and, when codes is not NULL, its codes (through scratch, dp
 * bytes) into lane i of the strips at codes, its scale and E into cs[i]
 * and ce[i].  The reference set and the store's search section
 * (store.c) both keep them so.
 */
void	knn_code(const float *v, uint32_t dim, uint32_t dp, size_t i,
    int8_t *scratch, uint8_t *codes, double *nrm, float *cs, float *ce);

/*
 * knn_exact - the distance of q and r (dim floats each): the true 1 -
 * cos of the two vectors rounded once to double, to nearest (ties to
 * even); 1 when either is zero.  knn-exact.c proves it.
 */
double	knn_exact(const float *q, const float *r, uint32_t dim);

/*
 * knn_row - reference r's vector: read into buf (dim floats) from a
 * store's file where the set has one (so that a search maps the codes
 * only, not the rows it rescores), else where it lies.  A store's row is
 * checked against its checksum: NULL if it fails (knn_rowfail says so).
 */
const float *knn_row(const struct emb_knn *k, uint32_t r, float *buf);

/* knn_rowok - whether row v of reference r matches its checksum. */
int	knn_rowok(const struct emb_knn *k, uint32_t r, const float *v);

/*
 * knn_rowfail - record that reference r's row failed its checksum as the
 * store's error.  @return EMB_ESTORE.
 */
int	knn_rowfail(const struct emb_knn *k, uint32_t r);

/*
 * knn_exact of q and each hit's reference in k (buf: dim floats).
 * @return 0, or EMB_ESTORE when a store's row fails its checksum.
 */
int	knn_exact_hits(const float *q, const struct emb_knn *k, float *buf,
    struct emb_hit *h, size_t n);

/*
 * knn_dot - the sum of v[i] w[i] in double in a fixed order: eight lanes
 * (lane l takes i = l mod 8, in increasing i), added as ((l0 + l1) + (l2
 * + l3)) + ((l4 + l5) + (l6 + l7)).  Each product of two float32 is exact
 * in double, so every kernel that keeps this order, fused or not, gives
 * the same bits.
 */
double	knn_dot(const float *v, const float *w, uint32_t dim);

/* One query of a kernel call: what its scores' bounds need. */
struct knn_qb {
	int32_t		 corr;		/* 128 x the sum of its codes */
	float		 s;		/* its code scale */
	float		 a;		/* A */
	float		 eps;		/* E + the rounding slack */
	float		 tau;		/* keep a score whose bound reaches it */
};

/* Survivors of one query: references and the upper bounds of scores. */
struct knn_list {
	uint32_t	*ref;
	float		*ub;
	unsigned	 n;
};

/*
 * A kernel: the scores of one strip (KNN_STRIP references from base,
 * those of lane mask live only) against four queries' codes (qc, four
 * rows of dp bytes), each bounded above (ub = s_q s_r dot + A_q E_r +
 * eps_q); a reference whose bound reaches the query's tau is appended to
 * its list l[i].  cs and ce are the strip's scales and E.
 * @return the survivors appended.
 */
typedef unsigned knn_kernfn(const uint8_t *strip, const int8_t *qc,
    uint32_t dp, const struct knn_qb *qb, const float *cs, const float *ce,
    uint64_t live, uint32_t base, struct knn_list *l);

knn_kernfn knn_kern_ref, knn_kern_avxvnni, knn_kern_avx512;

/*
 * knn_path - the kernel a search takes (EMB_KNN_*, emb.h): the one
 * emb_knn_path_set forced, or else the first the processor allows of
 * EMB_KNN_AVX512 and EMB_KNN_AVXVNNI, or else EMB_KNN_FLOAT; never the
 * portable EMB_KNN_REF unasked.
 */
int	knn_path(void);
/* @return whether this CPU can run path p. */
int	knn_path_ok(int p);

#endif /* EMB_KNN_H */
