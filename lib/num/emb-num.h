/*
 * emb-num.h - the public declarations of libemb's floor num, numerics: pooling, OSE and Problem 2, PCA models, alignment, and
 * the int8 codes of the search (internal, codes.h).
 * Programs include emb.h, which holds every floor; a file of the library
 * includes the header of its own floor, which holds the floors below.
 */
#ifndef EMB_FLOOR_NUM_H
#define EMB_FLOOR_NUM_H

#include "io/emb-io.h"

/* ---- numerics: pooling, OSE, Problem 2, PCA, alignment ---- */

/*
 * Pooling.  Each function writes one vector of dim components
 * to out, accumulating in double.
 */
#define EMB_POOL_MEAN	0	/* arithmetic mean: the paper's BOV */
#define EMB_POOL_UNIT	1	/* mean of the unit vectors (fastText) */
#define EMB_POOL_MAX	2	/* componentwise maximum */
#define EMB_POOL_MIN	3	/* componentwise minimum */

/*
 * emb_pool - pool the n rows of v (n x dim, row-major) into out.  wt, if
 * not NULL, holds n weights for EMB_POOL_MEAN and EMB_POOL_UNIT (SIF: the
 * sum of w_i v_i divided by n).  EMB_POOL_UNIT skips zero rows and divides
 * by the number of nonzero rows, as fastText does.  acc is scratch for dim
 * doubles.
 * @return the number of rows that entered the result (0: out is the zero
 * vector), or EMB_EINVAL for an unknown how.
 */
long emb_pool(int how, const float *v, size_t n, uint32_t dim,
    const double *wt, float *out, double *acc);

/*
 * emb_pool_add / emb_pool_end - the same, one row at a time, for callers
 * that stream: add row x with weight w into acc (dim doubles), used being
 * the number of rows that entered so far; emb_pool_end writes the result.
 * @return 1 if the row entered, 0 if not (a zero row for EMB_POOL_UNIT),
 * EMB_EINVAL for an unknown how.
 */
int emb_pool_add(int how, const float *x, uint32_t dim, double w,
    double *acc, long used);
void emb_pool_end(int how, const double *acc, uint32_t dim, long used,
    float *out);

/*
 * emb_unit - scale v (dim floats) to unit length, computed in double.
 * @return 1, or 0 when v is zero (then left as it is).
 */
int emb_unit(float *v, uint32_t dim);

/*
 * OSE (the paper's Proposition, eq. OPT_FINAL) and Problem 2.
 *
 * The members are normalized in double; zero members have no direction
 * and are left out (counted); members with identical components are one
 * (the group is a set).  With u_1..u_N the distinct unit members and S1
 * the span of the differences u_N - u_j, the OSE is the normalized
 * projection of u_N on the orthogonal complement of S1.  S1 is factored by
 * Householder QR with column pivoting (LAPACK dgeqp3 over BLIS); its rank
 * is the number of diagonal entries of R above EMB_OSE_RTOL times the
 * largest and above EMB_OSE_ATOL (differences of unit vectors this short
 * are rounding: members that are positive multiples of one another).  No
 * Gram matrix is formed.  A group of at most 64 members, 4 fewer than dim,
 * whose unit members a bound read off their unpivoted QR shows to be
 * independent (sigma_min above 1e-6) takes a faster route to the same
 * vector: the min-norm x with <u_i, x> = 1, normalized (see emb-ose(1)).
 */
#define EMB_OSE_RTOL	1e-10	/* relative rank tolerance on diag(R) */
#define EMB_OSE_ATOL	1e-12	/* absolute rank tolerance on diag(R) */
#define EMB_OSE_PTOL	1e-10	/* a projection this short is zero */

/* Outcomes (>= 0 return values of emb_ose). */
#define EMB_OSE_OK	0	/* the OSE: unit, equidistant, closest */
#define EMB_OSE_ORTH	1	/* the projection of u_N is zero: every
				 * equidistant vector is orthogonal to all
				 * members (distance 1); x is the same
				 * deterministic choice as in emb_p2 */

/* What emb_ose and emb_p2 tell about a group beside the vector. */
struct emb_ose_info {
	uint32_t	 nzero;		/* zero members left out */
	uint32_t	 ndup;		/* repeated members left out */
	uint32_t	 nuse;		/* distinct nonzero members used */
	uint32_t	 rank;		/* rank of the factored matrix */
	double		 alpha;		/* common cosine distance to members */
	double		 znorm;		/* ||V^t (V V^t)^-1 w|| (Problem 2) */
	double		 resid;		/* P2: residual of an inconsistent
					 * system (0 when consistent) */
};

/* Workspace for the solvers, one per thread. */
struct emb_ose;

/* @return 0 and *op, EMB_EDIM or EMB_ENOMEM. */
int emb_ose_create(struct emb_ose **op, uint32_t dim);
/* NULL is a no-op. */
void emb_ose_free(struct emb_ose *o);

/*
 * emb_ose - the OSE x (dim floats, unit length) of the n rows of v.
 * @return EMB_OSE_OK or EMB_OSE_ORTH with x set and info->alpha the common
 * distance; EMB_EEMPTY when no member is nonzero (n may be 0);
 * EMB_ENOSOL when the differences span R^dim (no equidistant vector:
 * then more than dim distinct directions); EMB_ENOMEM.  On a negative
 * return x is untouched.
 */
int emb_ose(struct emb_ose *o, const float *v, size_t n, float *x,
    struct emb_ose_info *info);

/*
 * emb_p2 - Problem 2 (Proposition P2): a unit x with d(x, v_i) = alpha[i]
 * for the n rows of v, alpha in [0, 2].  With V the unit rows and w_i =
 * 1 - alpha_i, x = z + t x1 where z = V^t (V V^t)^-1 w is the min-norm
 * solution of V x = w (through pivoted QR of V^t), x1 the deterministic
 * unit vector orthogonal to the members (the first coordinate axis whose
 * part outside their span has at least half the average squared length,
 * that part normalized) and t = sqrt(1 - ||z||^2).  info->znorm is ||z||.
 * Dependent members (repeats included) are checked for consistency.
 * @return 0 with x set; EMB_ENOSOL when ||z|| > 1 (the existence test
 * fails), when V x = w is inconsistent (info->resid > 0), or when V has
 * rank dim and ||z|| != 1; EMB_EZERO for a zero member; EMB_EEMPTY for
 * n = 0; EMB_EINVAL for an alpha outside [0, 2].
 */
int emb_p2(struct emb_ose *o, const float *v, size_t n, const double *alpha,
    float *x, struct emb_ose_info *info);

/* Interval kinds of emb_ose_interval. */
#define EMB_IV_RANGE	0	/* every alpha in [lo, hi] */
#define EMB_IV_POINTS	1	/* only alpha = lo and alpha = hi (rank dim) */
#define EMB_IV_ONE	2	/* only alpha = 1 (V x = e inconsistent) */
#define EMB_IV_NONE	3	/* no common distance at all */

/*
 * emb_ose_interval - the common distances alpha a group admits (Remark
 * rm:decrea.dist): with z = V^t (V V^t)^-1 e, lo = max(0, 1 - 1/||z||) and
 * hi = min(2, 1 + 1/||z||).  Zero members are left out, repeats are one.
 * @return the kind (EMB_IV_*) with lo, hi set (both 1 for EMB_IV_ONE),
 * EMB_EEMPTY or EMB_ENOMEM.
 */
int emb_ose_interval(struct emb_ose *o, const float *v, size_t n,
    double *lo, double *hi, struct emb_ose_info *info);

/*
 * PCA post-processing (emb-normalize): mean-centering and removal of the
 * top principal components ("all-but-the-top"; SIF's common component
 * when not centered).
 */
struct emb_pca {
	uint32_t	 dim;
	uint32_t	 ncomp;		/* components removed */
	int		 center;	/* subtract the mean first */
	uint64_t	 count;		/* vectors the model was fitted on */
	double		*mean;		/* dim (zeros when not centered) */
	double		*comp;		/* ncomp x dim, unit rows, largest
					 * variance first */
	double		*work;		/* dim scratch of emb_pca_apply */
};

/* Accumulator for emb_pca_fit: mean and second moments in double. */
struct emb_pcafit;

/*
 * The largest dimension a model is fitted on or read with.  A fit keeps
 * the vectors while fewer than the dimension d have come (memory grows
 * with them) and a d x d matrix of doubles after.
 */
#define EMB_PCA_DIM_MAX	65536

/* @return 0 and *fp, EMB_EDIM (dim 0 or above EMB_PCA_DIM_MAX), EMB_ENOMEM. */
int emb_pcafit_create(struct emb_pcafit **fp, uint32_t dim);
/* Add one vector. @return 0 or EMB_ENOMEM. */
int emb_pcafit_add(struct emb_pcafit *f, const float *v);
/*
 * emb_pcafit_done - the model: the mean (if center) and the ncomp
 * leading eigenvectors of the (centered) second-moment matrix (LAPACK
 * dsyevr; from the n x n Gram matrix while n < dim), each signed so that
 * its largest component is positive (the first of those within a relative
 * 1e-6 of the largest).  Directions of no variance the data leave to
 * choose are unit vectors e_i made orthogonal to the others.  Once only:
 * f is spent.
 * @return 0 and *pp (free with emb_pca_free), EMB_EEMPTY (no vector),
 * EMB_EINVAL (ncomp > dim), EMB_ECONVERGE, EMB_ENOMEM.
 */
int emb_pcafit_done(struct emb_pcafit *f, uint32_t ncomp, int center,
    struct emb_pca **pp);
void emb_pcafit_free(struct emb_pcafit *f);

/*
 * emb_pca_apply - x <- x - mean, minus its projections on the components,
 * in double; out may equal in.  Uses p->work: one thread per model.
 */
void emb_pca_apply(const struct emb_pca *p, const float *in, float *out);

/*
 * emb_pca_project - the coordinates of x - mean on the components, in
 * double, rounded into out[0 .. ncomp - 1] (a 2-D map with two).  Uses
 * p->work.
 */
void emb_pca_project(const struct emb_pca *p, const float *in, float *out);

/*
 * emb_pca_save / emb_pca_load - the model as text (see emb-normalize(1),
 * FILES): exact round trip of every double.  load reports EMB_EFORMAT for
 * a malformed file, with the line number in *line.
 * @return 0, EMB_EIO, EMB_EFORMAT, EMB_ENOMEM.
 */
int emb_pca_save(const struct emb_pca *p, int fd);
int emb_pca_load(struct emb_pca **pp, int fd, unsigned long *line);
void emb_pca_free(struct emb_pca *p);

/*
 * Alignment of two spaces (emb-align): optional normalization steps on
 * each side, then an orthogonal map W fitted on pairs of vectors
 * (Procrustes: W = U V^t for X^t Z = U S V^t, LAPACK dgesdd), applied to
 * a source vector x as the row x W.
 */
#define EMB_ALIGN_DIM_MAX	65536	/* largest dimension on either side */
#define EMB_ALIGN_STEPS_MAX	8	/* normalization steps at most */
#define EMB_ALIGN_UNIT		1	/* a step: scale to unit length */
#define EMB_ALIGN_CENTER	2	/* a step: subtract the space's mean */
/*
 * A model's W is orthogonal to within this: every entry of W W^t - I
 * (W^t W - I when din > dout; Q^t Q - I and G G^t - I when thin), d the
 * larger dimension.
 */
#define EMB_ALIGN_ORTHTOL(d)	((double)(d) * 0x1p-44)

struct emb_align {
	uint32_t	 din, dout;	/* source and target dimensions */
	int		 nsteps;	/* normalization steps, both sides */
	int		 steps[EMB_ALIGN_STEPS_MAX];	/* EMB_ALIGN_* */
	int		 ncenter;	/* of them, center steps */
	uint64_t	 count;		/* pairs of the last fit */
	double		*smean;		/* ncenter x din: source means */
	double		*tmean;		/* ncenter x dout: target means */
	double		*w;		/* din x dout, row-major; NULL: thin */
	/*
	 * The thin form, when w is NULL: W = E + Q_in (G - I) Q_out^t, E the
	 * din x dout identity, Q_in and Q_out the first din and dout rows of
	 * Q (max(din, dout) x rank, orthonormal columns), G orthogonal: the
	 * identity off the span of Q.  rank 0: W = E.
	 */
	uint32_t	 rank;
	double		*q;		/* max(din, dout) x rank, row-major */
	double		*g;		/* rank x rank, row-major */
};

/*
 * emb_align_create - a model with the given steps, zero means and W the
 * identity (ones on the diagonal; thin, of rank 0).  @return 0 and *ap
 * (free with emb_align_free), EMB_EDIM, EMB_EINVAL (a bad step) or
 * EMB_ENOMEM.
 */
int emb_align_create(struct emb_align **ap, uint32_t din, uint32_t dout,
    const int *steps, int nsteps);
void emb_align_free(struct emb_align *a);

/*
 * emb_align_center - the means of the center steps of one side (0 the
 * source, 1 the target) from n vectors (rows at x + r ld), each after the
 * steps before it.  @return 0, EMB_EEMPTY (n = 0 with a center step) or
 * EMB_ENOMEM.
 */
int emb_align_center(struct emb_align *a, int side, const float *x,
    size_t n, size_t ld);

/*
 * emb_align_norm - one vector of side through the first upto steps, in
 * double, into out (din or dout); a zero vector stays zero.
 */
void emb_align_norm(const struct emb_align *a, int side, int upto,
    const float *in, double *out);

/*
 * emb_align_fit - W from n pairs: rows of X (n x din) and Z (n x dout),
 * row-major, already normalized.  With n at least min(din, dout), the
 * SVD of X^t Z and W full; with fewer, W thin, through the QR of the 2n
 * vectors of the pairs (the optimum nearest the identity), or full if
 * that is smaller.  @return 0, EMB_EEMPTY, ECONVERGE or EMB_ENOMEM.
 * emb_align_fitmem - the bytes emb_align_fit allocates for n pairs, at
 * most (UINT64_MAX if that overflows).
 */
int emb_align_fit(struct emb_align *a, const double *X, const double *Z,
    size_t n);
uint64_t emb_align_fitmem(uint32_t din, uint32_t dout, uint64_t n);

/*
 * emb_align_map - n vectors (rows of in) through the steps of side and,
 * for the source (side 0), the map, into out (n x dout floats), in
 * double, each row on its own with up to nthreads threads: the result
 * does not depend on n or nthreads.  @return 0 or EMB_ENOMEM.
 */
int emb_align_map(const struct emb_align *a, int side, const float *in,
    size_t n, float *out, int nthreads);

/*
 * emb_align_save / emb_align_load - the model as text (emb-align(1),
 * FILES), ending in a crc32 line.  load: EMB_ETRUNC (no crc32 line: cut
 * short), EMB_ECRC, EMB_EFORMAT (the line number in *line: a line
 * emb_align_save cannot have written, a NUL byte, a number not as %.17g
 * prints it), EMB_ERANGE (W not orthogonal to within EMB_ALIGN_ORTHTOL,
 * the line in *line), EMB_EIO, EMB_ENOMEM.
 */
int emb_align_save(const struct emb_align *a, int fd);
int emb_align_load(struct emb_align **ap, int fd, unsigned long *line);

/* ---- end of numerics ---- */

#endif /* EMB_FLOOR_NUM_H */
