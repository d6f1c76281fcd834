/*
 * codes.h - the int8 codes of the nearest-neighbour search (codes.c),
 * below both of their users: the reference set and the search (knn.c,
 * knn-search.c), and the store, which keeps them in its search section
 * (store-build.c writes it, store.c maps it).  No program includes it.
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
#ifndef EMB_CODES_H
#define EMB_CODES_H

#include <stddef.h>
#include <stdint.h>

#define KNN_STRIP	64		/* references per strip */
/*
 * Codes are kept up to this dimension: a kernel's int32 sums stay exact
 * (4 x 255 x 127 per step, dim / 4 steps: below 2^31).  Beyond it every
 * score is bounded through the float32 path.
 */
#define KNN_CODEDIM	65536

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
	uint32_t	 secrc;		/* of the scales and errors alone, */
	int		 hassecrc;	/* if the store says (kind 2 rows) */
};

/*
 * knn_dot - the sum of v[i] w[i] in double in a fixed order: eight lanes
 * (lane l takes i = l mod 8, in increasing i), added as ((l0 + l1) + (l2
 * + l3)) + ((l4 + l5) + (l6 + l7)).  Each product of two float32 is exact
 * in double, so every kernel that keeps this order, fused or not, gives
 * the same bits.
 */
double	knn_dot(const float *v, const float *w, uint32_t dim);

/*
 * knn_quant - the codes of v (dim floats, norm nrm = sqrt(knn_dot(v, v)))
 * into c (dp bytes, zero past dim), its scale into *s, E and A (rounded
 * up) into *e and *a.  A zero vector has zero codes and s = E = A = 0.
 */
void	knn_quant(const float *v, uint32_t dim, uint32_t dp, double nrm,
    int8_t *c, float *s, float *e, float *a);

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
 * and ce[i].  The reference set (knn.c) and the store's search section
 * (store-build.c) both keep them so.
 */
void	knn_code(const float *v, uint32_t dim, uint32_t dp, size_t i,
    int8_t *scratch, uint8_t *codes, double *nrm, float *cs, float *ce);

/*
 * knn_forced - the path (EMB_KNN_*) emb_knn_path_set forced, or -1.
 * Forcing the portable kernel (EMB_KNN_REF) makes knn_dot and knn_quant
 * portable too.  knn_force sets it, portable nonzero for that kernel
 * (the paths are the search's, a floor above); emb_knn_path_set
 * (knn-kern.c) has checked the path.
 */
int	knn_forced(void);
void	knn_force(int path, int portable);

#endif /* EMB_CODES_H */
