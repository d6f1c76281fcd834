/*
 * knn.h - the nearest-neighbour search's internals: the reference set
 * (knn.c), the search (knn-search.c) and its kernels (knn-kern.c).  No
 * program includes it.  A reference's terms and int8 codes, and their
 * strips, are codes.h's; a store's search section is read through the
 * store's doors (fmt.h).
 */
#ifndef EMB_KNN_H
#define EMB_KNN_H

#include <stddef.h>
#include <stdint.h>

#include "knn/emb-knn.h"
#include "num/codes.h"

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
	uint32_t	 secrc;		/* of the scales and errors, */
	int		 hassecrc;	/* if known: the norms then unread */
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
 * The crc32 of the codes a kernel reads, folded as it reads them (the
 * method of crc.c, on four 512-bit registers): fold state f (zeroed
 * before the first strip of a run of consecutive strips) and the bytes
 * folded so far.  knn_kern_avx512f is knn_kern_avx512 that folds its strip
 * into f too (knn_fold_ok says whether this processor has it);
 * knn_fold_crc gives zlib's crc32 of the n bytes folded into f.
 */
struct knn_fold {
	unsigned char	z[256];
};
unsigned knn_kern_avx512f(const uint8_t *strip, const int8_t *qc,
    uint32_t dp, const struct knn_qb *qb, const float *cs, const float *ce,
    uint64_t live, uint32_t base, struct knn_list *l, struct knn_fold *f);
int	knn_fold_ok(void);
uint32_t knn_fold_crc(const struct knn_fold *f, uint64_t n);

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
