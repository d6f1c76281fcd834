/*
 * ose.c - the Optimal Synthesis Embedding and Problem 2.
 *
 * Everything is computed in double from the float32 members.  The members
 * are normalized (zero members left out, identical members taken once) and
 * stored as the columns of a dim x m matrix; the matrix to factor (the
 * differences u_N - u_j for the OSE, the unit members themselves for
 * Problem 2) is factored by Householder QR with column pivoting, LAPACK
 * dgeqp3 running over BLIS.  The rank is read from the diagonal of R, and
 * the projections the paper needs are applied with the Householder vectors
 * themselves, never through a Gram matrix or an inverse.  Most OSE groups
 * take a faster route to the same vector (see ose_fast).  The QR kernels
 * of small matrices are in qr.c (pivoted) and qrb.c (blocked), the
 * level-1 kernels (scalings, conversions, sums of squares) in qr.c.
 *
 * The _ref twins do the same with plain loops and modified Gram-Schmidt
 * (pivoted, reorthogonalized), an independent route used by the tests.
 */
#include "num/emb-num.h"
#include "num/ref-num.h"
#include "num/qr.h"
#include "base/vec.h"
#include "base/lapack.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A residual of V x = w above this is an inconsistent system. */
#define CTOL	1e-8
/* ||z|| may exceed 1 by this much and still count as 1. */
#define ZTOL	1e-9

/* A member's hash and index. */
struct hk {
	uint64_t	 h;
	uint32_t	 i;
};

struct emb_ose {
	uint32_t	 dim;
	size_t		 cap;		/* columns the buffers hold */
	double		*u;		/* dim x cap: unit members */
	double		*a;		/* dim x cap: matrix being factored */
	double		*tau;		/* cap reflector scalars */
	int		*jpvt;		/* cap pivots, 1-based */
	double		*work;		/* dgeqp3 workspace */
	int		 lwork;
	double		*b;		/* dim scratch */
	double		*c;		/* dim scratch */
	struct hk	*hk;		/* cap: member hashes, for repeats */
	uint32_t	*idx;		/* cap: kept members (lazy prepare) */
	double		*sc;		/* cap: their 1 / norm */
	double		*cn;		/* cap: column norms of o->a */
	unsigned char	*drop;		/* cap: 1 = repeated member */
	double		*t;		/* the T factors of its panels */
};

/* The widest matrix factored by emb_dqrcp_vec, not dgeqp3. */
#define SMALLQR	EMB_QR_SMALL

int
emb_ose_create(struct emb_ose **op, uint32_t dim)
{
	struct emb_ose *o;

	*op = NULL;
	if (dim == 0 || dim > EMB_DIM_MAX)
		return EMB_EDIM;
	if ((o = calloc(1, sizeof(*o))) == NULL)
		return EMB_ENOMEM;
	o->dim = dim;
	if ((o->b = emb_alloc(dim * sizeof(double))) == NULL ||
	    (o->c = emb_alloc(dim * sizeof(double))) == NULL ||
	    (o->t = emb_alloc(SMALLQR * EMB_QR_NB * sizeof(double))) == NULL) {
		emb_ose_free(o);
		return EMB_ENOMEM;
	}
	*op = o;
	return 0;
}

void
emb_ose_free(struct emb_ose *o)
{
	if (o == NULL)
		return;
	emb_free(o->u);
	emb_free(o->a);
	free(o->tau);
	free(o->jpvt);
	free(o->work);
	emb_free(o->b);
	emb_free(o->c);
	emb_free(o->t);
	free(o->hk);
	free(o->idx);
	free(o->sc);
	free(o->cn);
	free(o->drop);
	free(o);
}

/* Room for m columns. */
static int
grow(struct emb_ose *o, size_t m)
{
	size_t cap, sz;
	int nn, mm, lw = -1, info;
	double q;

	if (m <= o->cap)
		return 0;
	cap = o->cap ? o->cap : 32;
	while (cap < m)
		cap *= 2;
	if (cap > INT32_MAX / 2 || emb_mul(cap, (size_t)o->dim * 8, &sz) < 0)
		return EMB_ELIMIT;
	emb_free(o->u);
	emb_free(o->a);
	free(o->tau);
	free(o->jpvt);
	free(o->work);
	free(o->hk);
	free(o->idx);
	free(o->sc);
	free(o->cn);
	free(o->drop);
	o->u = emb_alloc(sz);
	o->a = emb_alloc(sz);
	o->tau = malloc(cap * sizeof(double));
	o->jpvt = malloc(cap * sizeof(int));
	o->hk = malloc(cap * sizeof(*o->hk));
	o->idx = malloc(cap * sizeof(*o->idx));
	o->sc = malloc(cap * sizeof(double));
	o->cn = malloc(cap * sizeof(double));
	o->drop = malloc(cap);
	o->work = NULL;
	o->cap = 0;
	if (o->u == NULL || o->a == NULL || o->tau == NULL ||
	    o->jpvt == NULL || o->hk == NULL || o->idx == NULL ||
	    o->sc == NULL || o->cn == NULL ||
	    o->drop == NULL)
		return EMB_ENOMEM;
	/* Workspace query for the widest matrix. */
	nn = (int)o->dim;
	mm = (int)cap;
	memset(o->jpvt, 0, cap * sizeof(int));
	dgeqp3_(&nn, &mm, o->a, &nn, o->jpvt, o->tau, &q, &lw, &info);
	o->lwork = info == 0 && q > 3 * cap + 1 ? (int)q : 3 * (int)cap + 1;
	if ((o->work = malloc((size_t)o->lwork * sizeof(double))) == NULL)
		return EMB_ENOMEM;
	o->cap = cap;
	return 0;
}

/*
 * A cheap hash of a member: emb_hash over 16 components spread over the
 * vector, not the whole row.  FNV-1a takes a multiply per byte: 1.8 us
 * for a row of 300 floats here, 36 us for a group of 20 members, whose
 * QR takes 14 us (tests/bench/09-qr.sh); 16 components take 0.1 us.
 * Bit-identical members hash equal, which is all markrepeats needs: it
 * drops a member identical bit for bit to an earlier one (-0 and +0
 * differ, as for memcmp), so which members go does not depend on the
 * hash, and a collision only costs a memcmp.
 */
static uint64_t
hashrow(const float *v, uint32_t dim)
{
	uint32_t x[16];

	for (uint32_t i = 0; i < 16; i++)
		memcpy(&x[i], &v[(uint64_t)i * dim / 16], 4);
	return emb_hash(x, sizeof(x));
}

static int
byhash(const void *pa, const void *pb)
{
	const struct hk *a = pa, *b = pb;

	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/*
 * Mark in o->drop the members identical (bit for bit) to an earlier one:
 * sort by hash, then compare within runs of equal hashes.
 */
static void
markrepeats(struct emb_ose *o, const float *v, size_t n)
{
	uint32_t dim = o->dim;

	for (size_t i = 0; i < n; i++) {
		o->hk[i].h = hashrow(v + i * dim, dim);
		o->hk[i].i = (uint32_t)i;
		o->drop[i] = 0;
	}
	if (n > 32)
		qsort(o->hk, n, sizeof(*o->hk), byhash);
	else			/* a sentence: insertion sort */
		for (size_t i = 1; i < n; i++) {
			struct hk t = o->hk[i];
			size_t j = i;

			for (; j > 0 && byhash(&o->hk[j - 1], &t) > 0; j--)
				o->hk[j] = o->hk[j - 1];
			o->hk[j] = t;
		}
	for (size_t i = 1; i < n; i++) {
		uint32_t b = o->hk[i].i;

		for (size_t j = i; j-- > 0 && o->hk[j].h == o->hk[i].h;) {
			uint32_t a = o->hk[j].i;

			if (!o->drop[a] && memcmp(v + (size_t)a * dim,
			    v + (size_t)b * dim, dim * sizeof(float)) == 0) {
				o->drop[b] = 1;
				break;
			}
		}
	}
}

/*
 * Normalize the members into the columns of o->u, leaving out zero
 * members and (if dedup) repeated ones.  @return the number of columns,
 * or a negative code; zerook = 0 refuses a zero member with EMB_EZERO.
 * lazy = 1 writes nothing to o->u: the kept members' indices go to o->idx
 * and their 1 / norm to o->sc, for the caller to scale in its own pass.
 */
static long
prepare(struct emb_ose *o, const float *v, size_t n, int dedup, int zerook,
    int lazy, struct emb_ose_info *info)
{
	uint32_t dim = o->dim;
	size_t m = 0;
	int rc;

	memset(info, 0, sizeof(*info));
	if (n == 0)
		return 0;
	if ((rc = grow(o, n)) < 0)
		return rc;
	if (dedup)
		markrepeats(o, v, n);
	else
		memset(o->drop, 0, n);
	for (size_t i = 0; i < n; i++) {
		const float *r = v + i * dim;
		double *u = o->u + m * dim, s;

		if (o->drop[i]) {
			info->ndup++;
			continue;
		}
		s = sumsqf(r, dim);
		if (s == 0) {
			if (!zerook)
				return EMB_EZERO;
			info->nzero++;
			continue;
		}
		if (lazy) {
			o->idx[m] = (uint32_t)i;
			o->sc[m] = 1 / sqrt(s);
		} else
			emb_dscalf(r, 1 / sqrt(s), u, dim);
		m++;
	}
	info->nuse = (uint32_t)m;
	return (long)m;
}

/*
 * Factor the dim x m matrix in o->a; @return its numerical rank.  A small
 * matrix may carry extra columns after the m (at most one), which are
 * multiplied by Q^t along the way and never pivoted.
 */
static long
factor(struct emb_ose *o, size_t m, size_t extra, const double *cn)
{
	int nn = (int)o->dim, mm = (int)m, info;
	size_t k = m < o->dim ? m : o->dim, r;
	double r0;

	if (m <= SMALLQR)
		emb_dqrcp_vec(o->a, o->dim, m, extra, cn, o->jpvt, o->tau);
	else {
		memset(o->jpvt, 0, m * sizeof(int));
		dgeqp3_(&nn, &mm, o->a, &nn, o->jpvt, o->tau, o->work,
		    &o->lwork, &info);
		if (info != 0)
			return EMB_EINVAL;
	}
	r0 = fabs(o->a[0]) * EMB_OSE_RTOL;
	r0 = r0 > EMB_OSE_ATOL ? r0 : EMB_OSE_ATOL;
	for (r = 0; r < k; r++)
		if (!(fabs(o->a[r + r * o->dim]) > r0))
			break;
	return (long)r;
}

/* b <- H_k b for the reflector k stored in column k of o->a. */
static void
reflect(const struct emb_ose *o, size_t k, double *b)
{
	emb_dlarf1(o->a, o->dim, o->tau, k, b);
}

/* b <- (I - Q_r Q_r^t) b: the part of b outside the first r columns. */
static void
complement(const struct emb_ose *o, size_t r, double *b)
{
	for (size_t k = 0; k < r; k++)
		reflect(o, k, b);
	memset(b, 0, r * sizeof(double));
	for (size_t k = r; k-- > 0;)
		reflect(o, k, b);
}

static double
norm2(const double *b, uint32_t n)
{
	return sqrt(emb_dsumsq(b, n));
}

/*
 * The deterministic unit vector orthogonal to Q_r (r < dim): the part
 * outside Q_r of the first coordinate axis e_k whose squared part outside
 * is at least (dim - r) / (2 dim), half the average over the axes (so one
 * exists), normalized.  Written to x (dim doubles).
 */
static void
perp(struct emb_ose *o, size_t r, double *x)
{
	uint32_t dim = o->dim;
	double thr = (double)(dim - r) / (2.0 * dim), best = -1;
	uint32_t kbest = 0;

	for (uint32_t k = 0; k < dim; k++) {
		double s;

		memset(x, 0, dim * sizeof(double));
		x[k] = 1;
		complement(o, r, x);
		s = norm2(x, dim);
		if (s * s >= thr)
			break;
		if (s > best) {
			best = s;
			kbest = k;
		}
		if (k == dim - 1) {	/* rounding only: take the largest */
			memset(x, 0, dim * sizeof(double));
			x[kbest] = 1;
			complement(o, r, x);
		}
	}
	best = norm2(x, dim);
	for (uint32_t i = 0; i < dim; i++)
		x[i] /= best;
}

static void
todouble_unit(double *x, uint32_t dim, float *out)
{
	double s = norm2(x, dim);

	for (uint32_t i = 0; i < dim; i++)
		out[i] = (float)(x[i] / s);
}

/*
 * The fast route for a group of m <= SMALLQR members, m + EMB_QR_NB <= dim
 * (the common case).  The dim x m matrix of the members (U, the unit
 * members, up to column scaling) is factored by Householder QR without
 * pivoting, U = Q R, in panels (emb_dqrb_vec, qrb.c).  When R shows
 * U well conditioned (certsolve: sigma_min(U) >= FASTTOL), the members are
 * independent; the differences u_N - u_j, which are U E with
 * sigma_min(E) = 1, then have full rank (sigma_min >= FASTTOL, far above
 * the rank tolerance), u_N lies outside their span, and the OSE is the
 * min-norm x with <u_i, x> = 1 for every i, normalized: x = Q z with
 * R^t z = 1.  Every other group takes the general route, which decides
 * rank and the orthogonal case on the differences themselves.
 */
/*
 * The fast route takes a group whose certified lower bound on
 * sigma_min(U) is above this.
 */
#define FASTTOL	1e-6

/*
 * z = R^-t c for the m x m upper triangular R in a (lda n) and c > 0, by
 * forward substitution; @return a bound on ||(R C^-1)^-1||_2, C =
 * diag(c), from the comparison matrix M(R C^-1) (|r_ii| / c_i on the
 * diagonal, -|r_ij| / c_j off it): |X^-1| <= M(X)^-1 entrywise for a
 * triangular X, so ||X^-1||_2 <= sqrt(m) ||X^-1||_1 <= sqrt(m)
 * max(M(X)^-t 1), found by the same substitution, as M(R)^-t c (Higham,
 * Accuracy and Stability of Numerical Algorithms, 8.3).  Infinite or NaN
 * when R is singular.
 */
KERN static double
certsolve(const double *a, size_t n, size_t m, const double *c, double *z)
{
	double w[SMALLQR], wmax = 0;

	for (size_t i = 0; i < m; i++) {
		const double *ri = a + i * n;
		double t = c[i], s = c[i], d = 1 / ri[i];

		for (size_t k = 0; k < i; k++) {
			t -= ri[k] * z[k];
			s += fabs(ri[k]) * w[k];
		}
		z[i] = t * d;
		w[i] = s * fabs(d);
		wmax = w[i] > wmax || w[i] != w[i] ? w[i] : wmax;
	}
	return sqrt((double)m) * wmax;
}

/*
 * The fast route (above) for the n members v, 2 <= n <= SMALLQR,
 * n + EMB_QR_NB <= dim.  The members are factored as they are, V = Q R', and
 * U = V S with S = diag(1 / |v_i|), so R = R' S: R^t z = 1 is
 * R'^t z = (|v_i|), and the certificate is taken on R' S.  The members
 * go to double in the first panel's pass.  A certified U has no zero and
 * no repeated member (either makes U singular): a group with one takes the
 * general route, which counts them.  @return EMB_OSE_OK
 * with x and info set, or 1: the general route must decide.
 */
static int
ose_fast(struct emb_ose *o, const float *v, size_t n, float *x,
    struct emb_ose_info *info)
{
	size_t dim = o->dim;
	double *a, *b = o->b, *c, zn;

	if (grow(o, n) < 0)
		return 1;
	a = o->a;
	c = o->cn;
	emb_dqrb_vec(a, dim, n, v, o->tau, o->t);
	/* |v_j| = |R' e_j|, Q being orthogonal. */
	for (size_t j = 0; j < n; j++)
		c[j] = sqrt(emb_dsumsq(a + j * dim, j + 1));
	if (!(certsolve(a, dim, n, c, b) < 1 / FASTTOL))
		return 1;
	memset(b + n, 0, (dim - n) * sizeof(double));
	zn = norm2(b, (uint32_t)n);
	emb_dqrb_apply_vec(a, dim, n, o->tau, o->t, b);
	emb_dtofloat(b, 1 / zn, x, dim);
	memset(info, 0, sizeof(*info));
	info->nuse = (uint32_t)n;
	info->rank = (uint32_t)(n - 1);
	info->alpha = 1 - 1 / zn;
	return EMB_OSE_OK;
}

int
emb_ose(struct emb_ose *o, const float *v, size_t n, float *x,
    struct emb_ose_info *info)
{
	uint32_t dim = o->dim;
	const double *ref;
	long m, r;
	double pn;
	int small;

	if (n >= 2 && n <= SMALLQR && n + EMB_QR_NB <= dim &&
	    ose_fast(o, v, n, x, info) == EMB_OSE_OK)
		return EMB_OSE_OK;
	if ((m = prepare(o, v, n, 1, 1, 1, info)) < 0)
		return (int)m;
	if (m == 0)
		return EMB_EEMPTY;
	ref = o->u;
	emb_dscalf(v + (size_t)o->idx[m - 1] * dim, o->sc[m - 1], o->u, dim);
	if (m == 1) {
		for (uint32_t i = 0; i < dim; i++)
			x[i] = (float)ref[i];
		info->alpha = 0;
		return EMB_OSE_OK;
	}
	/* The differences u_N - u_j and their norms, in one pass. */
	for (long j = 0; j < m - 1; j++)
		o->cn[j] = sqrt(emb_dsubscalf(ref, v + (size_t)o->idx[j] * dim,
		    o->sc[j], o->a + (size_t)j * dim, dim));
	/* A small factorization takes u_N along as its last column. */
	small = m - 1 <= SMALLQR;
	if (small)
		memcpy(o->a + (size_t)(m - 1) * dim, ref, dim * sizeof(double));
	if ((r = factor(o, (size_t)m - 1, small, o->cn)) < 0)
		return (int)r;
	info->rank = (uint32_t)r;
	if ((size_t)r >= dim)
		return EMB_ENOSOL;
	if (small && r == m - 1) {
		/* Q^t u_N is there: drop its first r entries, map back. */
		memcpy(o->b, o->a + (size_t)(m - 1) * dim, dim * sizeof(double));
		memset(o->b, 0, (size_t)r * sizeof(double));
		for (long k = r; k-- > 0;)
			reflect(o, (size_t)k, o->b);
	} else {
		memcpy(o->b, ref, dim * sizeof(double));
		complement(o, (size_t)r, o->b);
	}
	pn = norm2(o->b, dim);
	if (pn <= EMB_OSE_PTOL) {
		perp(o, (size_t)r, o->b);
		todouble_unit(o->b, dim, x);
		info->alpha = 1;
		return EMB_OSE_ORTH;
	}
	for (uint32_t i = 0; i < dim; i++)
		x[i] = (float)(o->b[i] / pn);
	info->alpha = 1 - pn;
	return EMB_OSE_OK;
}

/*
 * Min-norm solution z (in o->b) of V x = w for the m unit columns of o->u,
 * w given per column; factors V^t into o->a.  @return the rank; sets
 * info->znorm and info->resid.
 */
static long
minnorm(struct emb_ose *o, size_t m, const double *w,
    struct emb_ose_info *info)
{
	uint32_t dim = o->dim;
	double *y = o->c, *a, res = 0;
	long r;

	memcpy(o->a, o->u, m * dim * sizeof(double));
	if ((r = factor(o, m, 0, NULL)) < 0)
		return r;
	a = o->a;
	/* R11^t y = (P^t w)[0:r], forward substitution. */
	for (long i = 0; i < r; i++) {
		double s = w[o->jpvt[i] - 1];

		for (long k = 0; k < i; k++)
			s -= a[k + i * dim] * y[k];
		y[i] = s / a[i + i * dim];
	}
	/* The remaining equations must hold too. */
	for (size_t j = (size_t)r; j < m; j++) {
		double s = -w[o->jpvt[j] - 1];

		for (long k = 0; k < r; k++)
			s += a[k + j * dim] * y[k];
		if (fabs(s) > res)
			res = fabs(s);
	}
	info->resid = res > CTOL ? res : 0;
	info->rank = (uint32_t)r;
	info->znorm = norm2(y, (uint32_t)r);
	memset(o->b, 0, dim * sizeof(double));
	memcpy(o->b, y, (size_t)r * sizeof(double));
	for (long k = r; k-- > 0;)
		reflect(o, (size_t)k, o->b);
	return r;
}

int
emb_p2(struct emb_ose *o, const float *v, size_t n, const double *alpha,
    float *x, struct emb_ose_info *info)
{
	uint32_t dim = o->dim;
	double *w, t;
	long m, r;

	if (n == 0) {
		memset(info, 0, sizeof(*info));
		return EMB_EEMPTY;
	}
	for (size_t i = 0; i < n; i++)
		if (!(alpha[i] >= 0 && alpha[i] <= 2))
			return EMB_EINVAL;
	if ((m = prepare(o, v, n, 0, 0, 0, info)) < 0)
		return (int)m;
	if ((w = malloc(n * sizeof(double))) == NULL)
		return EMB_ENOMEM;
	for (size_t i = 0; i < n; i++)
		w[i] = 1 - alpha[i];
	r = minnorm(o, (size_t)m, w, info);
	free(w);
	if (r < 0)
		return (int)r;
	if (info->resid > 0 || info->znorm > 1 + ZTOL)
		return EMB_ENOSOL;
	if ((size_t)r >= dim) {
		if (fabs(info->znorm - 1) > ZTOL)
			return EMB_ENOSOL;
		t = 0;
	} else
		t = info->znorm < 1 ? sqrt(1 - info->znorm * info->znorm) : 0;
	if (t > 0) {
		double *z = o->c;	/* y is no longer needed */

		memcpy(z, o->b, dim * sizeof(double));
		perp(o, (size_t)r, o->b);
		for (uint32_t i = 0; i < dim; i++)
			o->b[i] = z[i] + t * o->b[i];
	}
	todouble_unit(o->b, dim, x);
	info->alpha = alpha[0];
	return 0;
}

int
emb_ose_interval(struct emb_ose *o, const float *v, size_t n, double *lo,
    double *hi, struct emb_ose_info *info)
{
	double *e, zn;
	long m, r;

	if ((m = prepare(o, v, n, 1, 1, 0, info)) < 0)
		return (int)m;
	if (m == 0)
		return EMB_EEMPTY;
	if ((e = malloc((size_t)m * sizeof(double))) == NULL)
		return EMB_ENOMEM;
	for (long i = 0; i < m; i++)
		e[i] = 1;
	r = minnorm(o, (size_t)m, e, info);
	free(e);
	if (r < 0)
		return (int)r;
	zn = info->znorm;
	if (info->resid > 0) {
		*lo = *hi = 1;
		return (size_t)r < o->dim ? EMB_IV_ONE : EMB_IV_NONE;
	}
	if ((size_t)r >= o->dim) {
		if (zn < 1 - ZTOL)
			return EMB_IV_NONE;
		*lo = 1 - 1 / zn;
		*hi = 1 + 1 / zn;
		return EMB_IV_POINTS;
	}
	*lo = zn > 1 ? 1 - 1 / zn : 0;
	*hi = zn > 1 ? 1 + 1 / zn : 2;
	return EMB_IV_RANGE;
}

/*
 * The reference twin.
 */

int
emb_ose_ref(const float *v, size_t n, uint32_t dim, double *x,
    struct emb_ose_info *info)
{
	double *u, *q, *p, r0 = 0;
	size_t m = 0, r = 0, nd;
	int rc = EMB_OSE_OK;

	memset(info, 0, sizeof(*info));
	if (n == 0)
		return EMB_EEMPTY;
	u = malloc(n * dim * sizeof(double));
	q = malloc(n * dim * sizeof(double));
	p = malloc(dim * sizeof(double));
	if (u == NULL || q == NULL || p == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const float *vi = v + i * dim;
		double s = 0;
		size_t j;

		for (j = 0; j < i; j++)
			if (memcmp(v + j * dim, vi, dim * sizeof(float)) == 0)
				break;
		if (j < i) {
			info->ndup++;
			continue;
		}
		for (uint32_t k = 0; k < dim; k++)
			s += (double)vi[k] * vi[k];
		if (s == 0) {
			info->nzero++;
			continue;
		}
		for (uint32_t k = 0; k < dim; k++)
			u[m * dim + k] = vi[k] / sqrt(s);
		m++;
	}
	info->nuse = (uint32_t)m;
	if (m == 0) {
		rc = EMB_EEMPTY;
		goto out;
	}
	/* Differences into q, then pivoted MGS in place. */
	nd = m - 1;
	for (size_t j = 0; j < nd; j++)
		for (uint32_t k = 0; k < dim; k++)
			q[j * dim + k] = u[nd * dim + k] - u[j * dim + k];
	for (r = 0; r < nd && r < dim; r++) {
		size_t piv = r;
		double best = -1;

		for (size_t j = r; j < nd; j++) {
			double s = 0;

			for (uint32_t k = 0; k < dim; k++)
				s += q[j * dim + k] * q[j * dim + k];
			if (s > best) {
				best = s;
				piv = j;
			}
		}
		best = sqrt(best);
		if (r == 0)
			r0 = best * EMB_OSE_RTOL > EMB_OSE_ATOL ?
			    best * EMB_OSE_RTOL : EMB_OSE_ATOL;
		if (!(best > r0))
			break;
		for (uint32_t k = 0; k < dim; k++) {
			double t = q[r * dim + k];

			q[r * dim + k] = q[piv * dim + k];
			q[piv * dim + k] = t;
		}
		for (int pass = 0; pass < 2; pass++)
			for (size_t j = 0; j < r; j++) {
				double s = 0;

				for (uint32_t k = 0; k < dim; k++)
					s += q[j * dim + k] * q[r * dim + k];
				for (uint32_t k = 0; k < dim; k++)
					q[r * dim + k] -= s * q[j * dim + k];
			}
		best = 0;
		for (uint32_t k = 0; k < dim; k++)
			best += q[r * dim + k] * q[r * dim + k];
		best = sqrt(best);
		for (uint32_t k = 0; k < dim; k++)
			q[r * dim + k] /= best;
		for (size_t j = r + 1; j < nd; j++) {
			double s = 0;

			for (uint32_t k = 0; k < dim; k++)
				s += q[r * dim + k] * q[j * dim + k];
			for (uint32_t k = 0; k < dim; k++)
				q[j * dim + k] -= s * q[r * dim + k];
		}
	}
	info->rank = (uint32_t)r;
	if (r >= dim) {
		rc = EMB_ENOSOL;
		goto out;
	}
	for (uint32_t k = 0; k < dim; k++)
		p[k] = u[nd * dim + k];
	for (int pass = 0; pass < 2; pass++)
		for (size_t j = 0; j < r; j++) {
			double s = 0;

			for (uint32_t k = 0; k < dim; k++)
				s += q[j * dim + k] * p[k];
			for (uint32_t k = 0; k < dim; k++)
				p[k] -= s * q[j * dim + k];
		}
	{
		double pn = 0, thr = (double)(dim - r) / (2.0 * dim);

		for (uint32_t k = 0; k < dim; k++)
			pn += p[k] * p[k];
		pn = sqrt(pn);
		if (pn > EMB_OSE_PTOL) {
			for (uint32_t k = 0; k < dim; k++)
				x[k] = p[k] / pn;
			info->alpha = 1 - pn;
			goto out;
		}
		rc = EMB_OSE_ORTH;
		info->alpha = 1;
		for (uint32_t e = 0; e < dim; e++) {
			memset(p, 0, dim * sizeof(double));
			p[e] = 1;
			for (int pass = 0; pass < 2; pass++)
				for (size_t j = 0; j < r; j++) {
					double t = 0;

					for (uint32_t k = 0; k < dim; k++)
						t += q[j * dim + k] * p[k];
					for (uint32_t k = 0; k < dim; k++)
						p[k] -= t * q[j * dim + k];
				}
			pn = 0;
			for (uint32_t k = 0; k < dim; k++)
				pn += p[k] * p[k];
			if (pn >= thr || e == dim - 1)
				break;
		}
		pn = sqrt(pn);
		for (uint32_t k = 0; k < dim; k++)
			x[k] = p[k] / pn;
	}
out:
	free(u);
	free(q);
	free(p);
	return rc;
}
