/*
 * knn-search.c - exact cosine nearest neighbours.
 *
 * A search returns, for each query, the k references of least distance,
 * best first, equal distances in reference order.  The distance of query
 * q and reference r is the true 1 - cos of the two float32 vectors as
 * given, rounded once to double (knn_exact, knn-exact.c; 1 for a zero
 * vector), so the answer depends on nothing but the data: not on BLIS,
 * the batch, the tiling, the thread count or the CPU's kernel.
 *
 * Most pairs are never computed exactly.  Each is first scored cheaply
 * with an upper bound on its cosine, and a pair whose bound falls below
 * what the query's k best so far allow cannot be a neighbour: it is
 * dropped.  The few others get their distance in double (knn_dot and the
 * norms, within delta of the true one) and are offered to the query's
 * heap, which orders them so; at the end, those held and those put out
 * of a heap by less than far() get their exact distance, and the best k
 * by it are the answer.  Two cheap scores exist:
 *
 * The int8 score.  x = v / |v| is coded as s c + e, c integers in
 * [-127, 127], s = max |x_i| / 127, with E = |e| and A = |s c| stored
 * (knn_quant, rounded up).  For unit x, y:
 *
 *	x.y = (s_x c_x + e_x).y + s_x c_x.e_y
 *	    = s_x s_y (c_x.c_y) + e_x.y + (s_x c_x).e_y,
 *
 * and by Cauchy-Schwarz |e_x.y| <= E_x |y| = E_x, |(s_x c_x).e_y| <= A_x
 * E_y.  Hence
 *
 *	cos <= s_x s_y (c_x.c_y) + A_x E_y + E_x.
 *
 * c_x.c_y is an exact integer (knn.h: KNN_CODEDIM keeps it below 2^31);
 * the bound is evaluated in float32, in at most four roundings of
 * relative size 2^-24 on terms of magnitude at most (1 + E_x)(1 + E_y) <
 * 1.2, and x, E and A come from double arithmetic off by less than 2^-40;
 * the exact cosine computed in double differs from the true one by less
 * than (dim + 2) 2^-53 < 2^-32.  A slack of 2^-20 added to the bound
 * covers all of these, so the computed bound is at least the computed
 * exact cosine.  With 300 dimensions E is about 0.01: a pair is rescored
 * only if its cosine may lie within about 0.02 of the k-th best.
 *
 * The float score, where codes cannot help (no VNNI, a dimension above
 * KNN_CODEDIM, or a tile where too many int8 bounds survive, as when all
 * references are nearly equidistant from the query): float32 GEMM of unit
 * copies x~ = fl(x), |x~ - x| <= (2^-24 + 2^-50)|x| + sqrt(dim) 2^-150.
 * Any summation order gives |fl(x~.y~) - x~.y~| <= g |x~||y~|, g = dim u /
 * (1 - dim u), u = 2^-24, plus dim 2^-149 for products in the subnormal
 * range, and |x~.y~ - x.y| <= |x~ - x||y~| + |x||y~ - y|.  So
 *
 *	cos <= fl(x~.y~) + beta,  beta = 1.01 g + 2.01 u + dim 2^-148 + 2^-20,
 *
 * about 2e-5 at 300 dimensions.
 *
 * A pair is dropped only if its bound is below tau, the query's k-th best
 * exact cosine rounded down to float: its cosine is then below the k
 * cosines already held, and not even a tie can make it a neighbour.
 * (tau is taken from the k-th distance in double: less far()'s margin,
 * delta and 2^-52, so that no pair the final exact ranking could take is
 * lost.)  Work
 * is split into (query tile, reference block) items that threads take in
 * turn, each with its own heaps, merged at the end under the same total
 * order.
 *
 * emb_knn_search_ref is the plain-loop twin (long double sums, a full
 * sort, the exact distances of those near the k-th) that the tests
 * compare the search with.
 */
#include "knn/emb-knn.h"
#include "base/crc.h"
#include "io/fmt.h"
#include "store/access.h"
#include "knn/ref-knn.h"
#include "knn/knn.h"

#include <blis.h>
#include <math.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#ifndef QTILE
#define QTILE	384	/* queries per tile: a multiple of 4 */
#endif
#define RBLOCK	2048	/* references per block: a multiple of KNN_STRIP */
#define RBYTES	((size_t)8 << 20)	/* at most, a block's unit copies */
#define SLACK	0x1p-20

/*
 * A query's heap holds at most k hits with the worst at the root; "worse"
 * is the total order: a larger distance, or the same distance and a later
 * reference.  The distance is the one printed, 1 - cos rounded to double:
 * two cosines that round to one distance tie, as they print alike, so
 * that merged shard lists order as one search does.
 */
static inline int
worse(const struct emb_hit *a, const struct emb_hit *b)
{
	return a->dist > b->dist || (a->dist == b->dist && a->ref > b->ref);
}

static void
siftdown(struct emb_hit *h, unsigned n, unsigned i)
{
	struct emb_hit x = h[i];

	for (;;) {
		unsigned c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && worse(&h[c + 1], &h[c]))
			c++;
		if (!worse(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/*
 * Offer a hit to a heap of k.  @return 1 and the hit that lost its place
 * (the one offered, or the one it put out) in *out when the heap was
 * full, else 0.
 */
static int
offer(struct emb_hit *h, unsigned *hn, unsigned k, double dist, uint32_t ref,
    struct emb_hit *out)
{
	struct emb_hit x = { dist, ref };
	unsigned i;

	*out = x;
	if (*hn < k) {
		for (i = (*hn)++; i > 0; i = (i - 1) / 2) {
			if (!worse(&x, &h[(i - 1) / 2]))
				break;
			h[i] = h[(i - 1) / 2];
		}
		h[i] = x;
		return 0;
	}
	if (worse(&h[0], &x)) {
		*out = h[0];
		h[0] = x;
		siftdown(h, k, 0);
	}
	return 1;
}

static inline int
excluded(uint32_t ref, const uint32_t *x, size_t nx)
{
	for (size_t i = 0; i < nx; i++)
		if (x[i] == ref)
			return 1;
	return 0;
}

/* Order for the final lists: best first. */
static int
hitcmp(const void *a, const void *b)
{
	const struct emb_hit *x = a, *y = b;

	if (worse(x, y))
		return 1;
	if (worse(y, x))
		return -1;
	return 0;
}

/* What a search shares with its threads. */
struct job {
	const struct emb_knn *kn;
	const float	*q;		/* queries, nq x ldq */
	size_t		 nq, ldq;
	unsigned	 k;
	const size_t	*xoff;		/* exclusions, or NULL */
	const uint32_t	*xref;
	size_t		 nqt, nrb;	/* query tiles, reference blocks */
	size_t		 rb;		/* references per block */
	int		 whole;		/* an item is a tile and all blocks */
	struct worker	*w;		/* one per thread */
	knn_kernfn	*kern;		/* NULL: the float path only */
	int		 fold;		/* kern folds the codes' crc32 too
					 * (knn_kern_avx512f) */
	double		*qn;		/* |q|^2 */
	int8_t		*qc;		/* codes, nq rounded up to 4, x dp */
	struct knn_qb	*qb;		/* their bounds (tau set per tile) */
	float		*qu;		/* unit copies, nq x kn->ld */
	float		 beta;		/* the float score's bound */
	double		 delta;		/* a distance in double: its error */
	uint32_t	*bcrc;		/* a store's: 4 crc32 a block, or NULL */
};

/* A hit that lost its place in query q's heap by less than far(). */
struct spill {
	size_t		 q;
	struct emb_hit	 hit;
};

/* Order of spilled hits: by query. */
static int
spillcmp(const void *a, const void *b)
{
	const struct spill *x = a, *y = b;

	return x->q < y->q ? -1 : x->q > y->q;
}

/* One worker's own state. */
struct worker {
	struct job	*job;
	float		*c;		/* QTILE x RBLOCK float scores */
	float		*ru;		/* RBLOCK unit references, x ld */
	size_t		 rublk;		/* the block in ru, + 1; 0: none */
	unsigned char	*skip;		/* per query tile: codes failed it */
	struct knn_list	 l[QTILE];	/* int8 survivors of a tile */
	struct knn_qb	 qb[QTILE];
	float		 lo[QTILE], top[QTILE];	/* warmtau's */
	float		*row;		/* a reference's row, read (knn_row) */
	struct emb_hit	*h;		/* nq x k heaps */
	unsigned	*hn;		/* nq heap sizes */
	struct spill	*sp;		/* hits put out of a heap, yet near */
	size_t		 nsp, spcap, spat;	/* spat: merged so far */
	uint64_t	 coded, flt, rescored;
	int		 nomem;		/* a spill could not grow */
	uint64_t	 bad;		/* a row failed its checksum: it + 1 */
	rntm_t		 rntm;		/* BLIS: one thread */
};

/* x rounded down, or up, to float. */
static inline float
fdown(double x)
{
	float f = (float)x;

	return (double)f > x ? nextafterf(f, -INFINITY) : f;
}

static inline float
fup(double x)
{
	float f = (float)x;

	return (double)f < x ? nextafterf(f, INFINITY) : f;
}

/*
 * How far beyond the worst distance in double w of a full heap a pair
 * can still be among the k nearest: its distance in double may be off by
 * delta, and so may those held, and the exact distances may round to
 * equal ones.
 */
static inline double
far(const struct job *jb, double w)
{
	return w + 2 * jb->delta + fabs(w) * 0x1p-50 + 0x1p-1070;
}

/*
 * Below what cosine query i can gain nothing: a pair whose distance in
 * double is at most far() of the worst held has a cosine of at least 1 -
 * far() - delta; that rounded down to float, or -inf.
 */
static inline float
tau(const struct worker *w, size_t i)
{
	const struct job *jb = w->job;

	if (w->hn[i] < jb->k)
		return -INFINITY;
	return fdown(1 - far(jb, w->h[i * jb->k].dist) - jb->delta - 0x1p-52);
}

/*
 * Reference r's row failed its checksum: the search goes on (it cannot
 * stop its threads) and fails at the end, naming the first such row.
 */
static void
rowbad(struct worker *w, uint32_t r)
{
	if (w->bad == 0 || r + (uint64_t)1 < w->bad)
		w->bad = r + (uint64_t)1;
}

/*
 * The norm (squared) of reference r, whose row v is checked: the terms',
 * or where a store's search does not check its norms (hassecrc), the
 * same value computed again from the row (knn_dot gives the same bits on
 * every kernel), so that a damaged norm cannot count.
 */
static inline double
refnorm(const struct emb_knn *kn, uint32_t r, const float *v)
{
	return kn->hassecrc ? knn_dot(v, v, kn->dim) : kn->nrm[r];
}

/* The distance in double of query i and reference r: within delta. */
static inline double
approx(struct worker *w, size_t i, uint32_t r)
{
	const struct job *jb = w->job;
	const struct emb_knn *kn = jb->kn;
	double qn = jb->qn[i], rn;
	const float *v;

	if (!(qn > 0))
		return 1;
	if ((v = knn_row(kn, r, w->row)) == NULL) {
		rowbad(w, r);
		return 1;
	}
	if (!((rn = refnorm(kn, r, v)) > 0))
		return 1;
	return 1 - knn_dot(jb->q + i * jb->ldq, v, kn->dim) / sqrt(qn * rn);
}

/* Keep hit x of query i aside: near the worst of a full heap. */
static void
spill(struct worker *w, size_t i, struct emb_hit x)
{
	if (w->nsp == w->spcap &&
	    emb_grow(&w->sp, &w->spcap, w->nsp + 1, sizeof(*w->sp)) < 0) {
		w->nomem = 1;
		return;
	}
	w->sp[w->nsp].q = i;
	w->sp[w->nsp++].hit = x;
}

/* Rescore reference r for query i if its bound ub reaches tau. */
static inline void
consider(struct worker *w, size_t i, uint32_t r, float ub)
{
	const struct job *jb = w->job;
	const uint32_t *x = NULL;
	struct emb_hit out;
	size_t nx = 0;
	double d;

	if (ub < tau(w, i))
		return;
	if (jb->xoff != NULL && jb->xref != NULL) {
		x = jb->xref + jb->xoff[i];
		nx = jb->xoff[i + 1] - jb->xoff[i];
		if (excluded(r, x, nx))
			return;
	}
	w->rescored++;
	/*
	 * The heaps order distances in double; the exact ones are taken at
	 * the end for those held and for those put out near the worst.
	 */
	d = approx(w, i, r);
	if (w->hn[i] == jb->k && d > far(jb, w->h[i * jb->k].dist))
		return;
	if (offer(w->h + i * jb->k, &w->hn[i], jb->k, d, r, &out) &&
	    out.dist <= far(jb, w->h[i * jb->k].dist))
		spill(w, i, out);
}

/*
 * A query whose list is not full yet (the first block it meets): every
 * bound of the block is in l.  At least k references (not excluded) have
 * a bound of at least top, the lower edge of the histogram bin where the
 * count from above reaches k, and each of them has a cosine of at least
 * its bound less twice its error term (A_q E_r + E_q + the slack, with E_r
 * at most emax): so no cosine below lo = top - 2 (A_q emax + eps_q) can be
 * among the k best, nor tie (2^-52, as in tau).  @return lo, rounded down
 * to float, or -inf when fewer than k references are there; *topp: top.
 */
#define NBIN	1024
static float
warmtau(const struct worker *w, size_t i, const struct knn_list *l,
    const struct knn_qb *qb, float emax, float *topp)
{
	const struct job *jb = w->job;
	const uint32_t *x = NULL;
	unsigned short cnt[NBIN];
	size_t nx = 0, c = 0;
	int b;

	*topp = -INFINITY;
	if (jb->xoff != NULL && jb->xref != NULL) {
		x = jb->xref + jb->xoff[i];
		nx = jb->xoff[i + 1] - jb->xoff[i];
	}
	memset(cnt, 0, sizeof(cnt));
	for (unsigned j = 0; j < l->n; j++) {
		float u = l->ub[j];

		if (nx && excluded(l->ref[j], x, nx))
			continue;
		b = u >= 2 ? NBIN - 1 : u <= -2 ? 0 :
		    (int)((u + 2) * (NBIN / 4));
		cnt[b < NBIN ? b : NBIN - 1]++;
	}
	for (b = NBIN - 1; b >= 0 && (c += cnt[b]) < jb->k; b--)
		;
	if (b < 0)
		return -INFINITY;
	*topp = (float)(b * (4.0 / NBIN) - 2);
	return fdown(*topp - 2 * ((double)qb->a * emax + qb->eps) -
	    4 * jb->delta - 0x1p-51);
}

/*
 * The int8 pass over a tile: bound every pair, and if few survive,
 * rescore them, those of the highest bounds first where a list is not
 * full.  @return 0 when too many survive: the float pass then takes the
 * tile.
 */
static int
codedpass(struct worker *w, size_t q0, size_t mq, size_t r0, size_t nr,
    uint32_t *crc, size_t *crcto)
{
	struct job *jb = w->job;
	const struct emb_knn *kn = jb->kn;
	size_t limit = mq * nr / 32 + 256, kept = 0, mq4 = (mq + 3) / 4 * 4;
	uint32_t dp = kn->dp;
	int warm = 0, fuse = crc != NULL && jb->fold;
	struct knn_fold fold;
	uint64_t folded = 0;

	/*
	 * After the codes failed a tile whose lists were full, the next
	 * blocks are likely alike: the float pass takes them, but for one in
	 * eight.
	 */
	if (w->skip[q0 / QTILE] && (r0 / jb->rb) % 8 != 0)
		return 0;
	for (size_t i = 0; i < mq4; i++) {
		w->l[i].n = 0;
		w->qb[i] = jb->qb[q0 + i];
		w->qb[i].tau = i < mq ? tau(w, q0 + i) : INFINITY;
		warm |= w->qb[i].tau == -INFINITY;
	}
	/*
	 * The codes' crc32 as they are read: folded by the AVX-512 kernel
	 * of the first four queries in the same loop, or else taken from
	 * the strip just read (in the cache).
	 */
	if (fuse)
		memset(&fold, 0, sizeof(fold));
	for (size_t s = r0; s < r0 + nr; s += KNN_STRIP) {
		size_t live = r0 + nr - s;
		uint64_t m = live >= 64 ? ~(uint64_t)0 :
		    ((uint64_t)1 << live) - 1;

		for (size_t g = 0; g < mq4; g += 4)
			kept += g == 0 && fuse ?
			    knn_kern_avx512f(kn->codes + s * dp, jb->qc +
			    (q0 + g) * dp, dp, w->qb + g, kn->cs + s,
			    kn->ce + s, m, (uint32_t)s, w->l + g, &fold) :
			    jb->kern(kn->codes + s * dp, jb->qc +
			    (q0 + g) * dp, dp, w->qb + g, kn->cs + s,
			    kn->ce + s, m, (uint32_t)s, w->l + g);
		if (crc != NULL) {
			if (fuse)
				folded += (uint64_t)KNN_STRIP * dp;
			else
				*crc = emb_crc32(*crc, kn->codes + s * dp,
				    (size_t)KNN_STRIP * dp);
			*crcto = s + KNN_STRIP;
		}
		if (!warm && kept > limit) {
			if (folded > 0)
				*crc = (uint32_t)crc32_combine(*crc,
				    knn_fold_crc(&fold, folded),
				    (z_off_t)folded);
			w->skip[q0 / QTILE] = 1;
			return 0;
		}
	}
	if (folded > 0)
		*crc = (uint32_t)crc32_combine(*crc, knn_fold_crc(&fold,
		    folded), (z_off_t)folded);
	if (warm) {
		float emax = 0;

		for (size_t j = r0; j < r0 + nr; j++)
			emax = kn->ce[j] > emax ? kn->ce[j] : emax;
		kept = 0;
		for (size_t i = 0; i < mq; i++) {
			if (w->qb[i].tau != -INFINITY) {
				w->lo[i] = w->top[i] = -INFINITY;
				kept += w->l[i].n;
				continue;
			}
			w->lo[i] = warmtau(w, q0 + i, &w->l[i], &w->qb[i],
			    emax, &w->top[i]);
			for (unsigned j = 0; j < w->l[i].n; j++)
				kept += w->l[i].ub[j] >= w->lo[i];
		}
		if (kept > limit)
			return 0;
	}
	w->skip[q0 / QTILE] = 0;
	w->coded += mq * nr;
	for (size_t i = 0; i < mq; i++) {
		const struct knn_list *l = &w->l[i];

		if (!warm || w->top[i] == -INFINITY) {
			for (unsigned j = 0; j < l->n; j++)
				consider(w, q0 + i, l->ref[j], l->ub[j]);
			continue;
		}
		for (unsigned j = 0; j < l->n; j++)
			if (l->ub[j] >= w->top[i])
				consider(w, q0 + i, l->ref[j], l->ub[j]);
		for (unsigned j = 0; j < l->n; j++)
			if (l->ub[j] < w->top[i] && l->ub[j] >= w->lo[i])
				consider(w, q0 + i, l->ref[j], l->ub[j]);
	}
	return 1;
}

/* Unit float copies of references r0 ... r0 + nr - 1 into w->ru. */
static void
unitblock(struct worker *w, size_t r0, size_t nr)
{
	const struct emb_knn *kn = w->job->kn;

	if (w->rublk == r0 + 1)
		return;
	for (size_t j = 0; j < nr; j++) {
		const float *v = kn->mat + (r0 + j) * kn->ld;
		float *u = w->ru + j * kn->ld;
		double n, inv;

		if (!knn_rowok(kn, (uint32_t)(r0 + j), v))
			rowbad(w, (uint32_t)(r0 + j));
		n = sqrt(refnorm(kn, (uint32_t)(r0 + j), v));
		inv = n > 0 ? 1 / n : 0;
		/* v times 1 / |v|: within 2^-52 of the quotient (the slack). */
		for (uint32_t d = 0; d < kn->dim; d++)
			u[d] = (float)(v[d] * inv);
	}
	w->rublk = r0 + 1;
}

/* The float pass over a tile: GEMM of unit copies, bound, rescore. */
static void
floatpass(struct worker *w, size_t q0, size_t mq, size_t r0, size_t nr,
    rntm_t *rntm)
{
	struct job *jb = w->job;
	const struct emb_knn *kn = jb->kn;
	float one = 1, zero = 0;

	unitblock(w, r0, nr);
	bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_TRANSPOSE, (dim_t)mq, (dim_t)nr,
	    (dim_t)kn->dim, &one, jb->qu + q0 * kn->ld, (inc_t)kn->ld, 1,
	    w->ru, (inc_t)kn->ld, 1, &zero, w->c, (inc_t)nr, 1, NULL, rntm);
	w->flt += mq * nr;
	for (size_t i = 0; i < mq; i++) {
		const float *s = w->c + i * nr;
		size_t qi = q0 + i, j = 0;
		float t = tau(w, qi) - jb->beta;

#ifdef __SSE2__
		for (; j + 16 <= nr; j += 16) {
			__m128 v = _mm_set1_ps(t);
			__m128 m = _mm_or_ps(
			    _mm_or_ps(_mm_cmpge_ps(_mm_loadu_ps(s + j), v),
			    _mm_cmpge_ps(_mm_loadu_ps(s + j + 4), v)),
			    _mm_or_ps(_mm_cmpge_ps(_mm_loadu_ps(s + j + 8), v),
			    _mm_cmpge_ps(_mm_loadu_ps(s + j + 12), v)));

			if (_mm_movemask_ps(m) == 0)
				continue;
			for (size_t r = j; r < j + 16; r++) {
				consider(w, qi, (uint32_t)(r0 + r),
				    s[r] + jb->beta);
				t = tau(w, qi) - jb->beta;
			}
		}
#endif
		for (; j < nr; j++)
			if (s[j] >= t) {
				consider(w, qi, (uint32_t)(r0 + j),
				    s[j] + jb->beta);
				t = tau(w, qi) - jb->beta;
			}
	}
}

/* Rows of the search section from r0 for the nr of a block: whole strips. */
static size_t
blockrows(size_t r0, size_t nr)
{
	return (r0 + nr + KNN_STRIP - 1) / KNN_STRIP * KNN_STRIP - r0;
}

/*
 * The crc32 of what block b (nr references from r0) reads of a store's
 * search section: its codes (those from reference from on: the int8 pass
 * took those before, as it read them) and its rows of the scales and
 * errors, and of the norms unless the store keeps the crc32 of the
 * others alone (then the search computes each norm it needs from its
 * checked row, and never reads them); the first query tile's items take
 * each block once (sectcheck).
 */
static void
blockcrc(struct job *jb, size_t b, size_t r0, size_t nr, size_t from)
{
	const struct emb_knn *kn = jb->kn;
	size_t n = blockrows(r0, nr);
	uint32_t *c = jb->bcrc + 4 * b;

	if (kn->codes != NULL)
		c[0] = emb_crc32(c[0], kn->codes + from * kn->dp,
		    (r0 + n - from) * kn->dp);
	c[1] = kn->hassecrc ? 0 : emb_crc32(0, kn->nrm + r0,
	    n * sizeof(double));
	c[2] = emb_crc32(0, kn->cs + r0, n * sizeof(float));
	c[3] = emb_crc32(0, kn->ce + r0, n * sizeof(float));
}

/*
 * The blocks' crc32 joined in order against those the store's search
 * section keeps: everything a search read of it is as written, or the
 * search fails (nothing it found is given out).
 */
static int
sectcheck(const struct job *jb)
{
	const struct emb_knn *kn = jb->kn;
	uLong c[4] = { 0, 0, 0, 0 }, t;
	size_t rows = 0;

	for (size_t b = 0; b < jb->nrb; b++) {
		size_t r0 = b * jb->rb;
		size_t n = blockrows(r0, kn->n - r0 < jb->rb ? kn->n - r0 :
		    jb->rb);
		const uint32_t *bc = jb->bcrc + 4 * b;

		c[0] = crc32_combine(c[0], bc[0], (z_off_t)(n * kn->dp));
		c[1] = crc32_combine(c[1], bc[1], (z_off_t)(n * 8));
		c[2] = crc32_combine(c[2], bc[2], (z_off_t)(n * 4));
		c[3] = crc32_combine(c[3], bc[3], (z_off_t)(n * 4));
		rows += n;
	}
	t = crc32_combine(c[2], c[3], (z_off_t)(rows * 4));
	if (!kn->hassecrc)
		t = crc32_combine(c[1], t, (z_off_t)(rows * 8));
	if ((kn->codes != NULL && c[0] != kn->ccrc) ||
	    t != (kn->hassecrc ? kn->secrc : kn->tcrc)) {
		emb_store_fail(kn->store, "search section checksum mismatch "
		    "(store modified or damaged)");
		return EMB_ESTORE;
	}
	return 0;
}

static void
work(void *arg, int wi, size_t it, size_t r0, size_t r1)
{
	struct job *jb = arg;
	struct worker *w = &jb->w[wi];
	const struct emb_knn *kn = jb->kn;
	size_t b0 = jb->whole ? 0 : it % jb->nrb;
	size_t b1 = jb->whole ? jb->nrb : b0 + 1;
	size_t q0 = (jb->whole ? it : it / jb->nrb) * QTILE;
	size_t mq = jb->nq - q0 < QTILE ? jb->nq - q0 : QTILE;

	(void)r0;
	(void)r1;
	/*
	 * An item is a query tile and a reference block, or, with tiles
	 * enough to keep every thread busy (jb->whole), a tile and all the
	 * blocks: a thread then meets a tile's first block (its lists not
	 * yet full) once, not once a thread.  Consecutive items share a
	 * tile; a block's codes are read once a tile, a few hundred bytes
	 * for every thousand multiply-adds.  An item is a lane of
	 * emb_par_run, taken in turn.
	 */
	for (size_t b = b0; b < b1; b++) {
		size_t rr = b * jb->rb;
		size_t nr = kn->n - rr < jb->rb ? kn->n - rr : jb->rb;

		uint32_t *crc = q0 == 0 && jb->bcrc != NULL ? jb->bcrc + 4 * b :
		    NULL;
		size_t crcto = rr;

		if (crc != NULL)
			crc[0] = 0;
		if (jb->kern == NULL || !codedpass(w, q0, mq, rr, nr, crc,
		    &crcto))
			floatpass(w, q0, mq, rr, nr, &w->rntm);
		if (crc != NULL)
			blockcrc(jb, b, rr, nr, crcto);
	}
}

/* The float score's bound for dimension dim (see the top). */
static float
floatbeta(uint32_t dim)
{
	double u = 0x1p-24, g = dim * u / (1 - dim * u);

	return fup(1.01 * g + 2.01 * u + dim * 0x1p-148 + SLACK);
}

/* Norms, codes and unit copies of the queries. */
static int
prepare(struct job *jb, int path)
{
	const struct emb_knn *kn = jb->kn;
	size_t nq = jb->nq, nq4 = (nq + 3) / 4 * 4;
	uint32_t dim = kn->dim, dp = kn->dp;

	jb->qn = malloc(nq * sizeof(double));
	jb->qu = emb_alloc(nq * kn->ld * sizeof(float));
	if (jb->qn == NULL || jb->qu == NULL)
		return EMB_ENOMEM;
	if (path != EMB_KNN_FLOAT && kn->codes != NULL) {
		jb->qc = emb_alloc(nq4 * dp);
		jb->qb = calloc(nq4, sizeof(*jb->qb));
		if (jb->qc == NULL || jb->qb == NULL)
			return EMB_ENOMEM;
		memset(jb->qc, 0, nq4 * dp);
		jb->kern = path == EMB_KNN_AVX512 ? knn_kern_avx512 :
		    path == EMB_KNN_AVXVNNI ? knn_kern_avxvnni : knn_kern_ref;
		jb->fold = path == EMB_KNN_AVX512 && knn_fold_ok();
	}
	jb->beta = floatbeta(dim);
	/*
	 * 1 - cos from knn_dot and the norms in double: the sums are off by
	 * at most g |q||r|, g = dim 2^-53 / (1 - dim 2^-53) (products are
	 * exact), the quotient, the root and the difference by a few
	 * roundings more: below (2 dim + 5) 2^-53, twice that taken.
	 */
	jb->delta = (2.0 * dim + 16) * 0x1p-52;
	for (size_t i = 0; i < nq; i++) {
		const float *v = jb->q + i * jb->ldq;
		float *u = jb->qu + i * kn->ld;
		double n2 = knn_dot(v, v, dim), n = sqrt(n2);
		double inv = n > 0 ? 1 / n : 0;

		jb->qn[i] = n2;
		for (uint32_t d = 0; d < dim; d++)
			u[d] = (float)(v[d] * inv);
		if (jb->kern != NULL) {
			struct knn_qb *b = &jb->qb[i];
			int8_t *c = jb->qc + i * dp;
			int32_t sum = 0;
			float e;

			knn_quant(v, dim, dp, n, c, &b->s, &e, &b->a);
			for (uint32_t d = 0; d < dim; d++)
				sum += c[d];
			b->corr = 128 * sum;
			b->eps = e + (float)SLACK;
		}
	}
	return 0;
}

int
emb_knn_search(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, const size_t *xoff, const uint32_t *xref,
    unsigned nthreads, struct emb_hit *hits, struct emb_knn_stats *st)
{
	struct job jb;
	struct worker *w = NULL;
	struct emb_hit *all = NULL;
	size_t items, nall, nsp, nl;
	unsigned nw = 0;
	int rc = 0;

	if (k == 0 || ldq < kn->dim || nthreads == 0)
		return EMB_EINVAL;
	if (st != NULL)
		memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < nq * k; i++) {
		hits[i].dist = INFINITY;
		hits[i].ref = EMB_KNN_NONE;
	}
	if (nq == 0 || kn->n == 0)
		return 0;
	memset(&jb, 0, sizeof(jb));
	jb.kn = kn;
	jb.q = q;
	jb.nq = nq;
	jb.ldq = ldq;
	jb.k = k;
	jb.xoff = xoff;
	jb.xref = xref;
	jb.nqt = (nq + QTILE - 1) / QTILE;
	/*
	 * A block: RBLOCK references, fewer at a large dimension (a whole
	 * number of strips, 8 MiB of unit copies), never more than there are.
	 */
	jb.rb = RBYTES / (kn->ld * sizeof(float)) / KNN_STRIP * KNN_STRIP;
	jb.rb = jb.rb > RBLOCK ? RBLOCK : jb.rb < KNN_STRIP ? KNN_STRIP : jb.rb;
	if (jb.rb > (kn->n + KNN_STRIP - 1) / KNN_STRIP * KNN_STRIP)
		jb.rb = (kn->n + KNN_STRIP - 1) / KNN_STRIP * KNN_STRIP;
	jb.nrb = (kn->n + jb.rb - 1) / jb.rb;
	items = jb.nqt * jb.nrb;
	nw = (unsigned)emb_par_workers(nthreads > EMB_MAXTHREADS ?
	    EMB_MAXTHREADS : (int)nthreads, items);
	jb.whole = jb.nqt >= 4 * (size_t)nw;
	if (jb.whole)
		items = jb.nqt;
	if (emb_mul(nq, k, &nall) < 0 || emb_mul(nall, nw, &nall) < 0)
		return EMB_ELIMIT;
	if ((rc = prepare(&jb, knn_path())) < 0)
		goto out;
	/* A tile holds at most nl queries: no buffers for more. */
	nl = nq < QTILE ? (nq + 3) / 4 * 4 : QTILE;
	rc = EMB_ENOMEM;
	if (kn->sectchk && (jb.bcrc = malloc(jb.nrb * 4 *
	    sizeof(*jb.bcrc))) == NULL)
		goto out;
	if ((w = calloc(nw, sizeof(*w))) == NULL)
		goto out;
	jb.w = w;
	for (unsigned t = 0; t < nw; t++) {
		rntm_t r1 = BLIS_RNTM_INITIALIZER;

		bli_rntm_set_num_threads(1, &r1);
		w[t].rntm = r1;
		w[t].job = &jb;
		w[t].c = emb_alloc(nl * jb.rb * sizeof(float));
		w[t].ru = emb_alloc(jb.rb * kn->ld * sizeof(float));
		w[t].row = malloc((size_t)kn->dim * sizeof(float));
		w[t].h = malloc(nq * k * sizeof(*w[t].h));
		w[t].hn = calloc(nq, sizeof(*w[t].hn));
		w[t].skip = calloc(jb.nqt, 1);
		if (w[t].c == NULL || w[t].ru == NULL || w[t].row == NULL ||
		    w[t].h == NULL ||
		    w[t].hn == NULL || w[t].skip == NULL)
			goto out;
		if (jb.kern != NULL)
			for (size_t i = 0; i < nl; i++) {
				w[t].l[i].ref = malloc(jb.rb *
				    sizeof(uint32_t));
				w[t].l[i].ub = malloc(jb.rb * sizeof(float));
				if (w[t].l[i].ref == NULL ||
				    w[t].l[i].ub == NULL)
					goto out;
			}
	}
	rc = 0;
	/* If a thread cannot be started, the others take its share: the
	 * result is the same. */
	emb_par_run((int)nw, items, items, work, &jb);
	/*
	 * Merge: each query's hits from every worker, in their distances in
	 * double; those within far() of the k-th, and those set aside as
	 * near, get their exact distance, and the best k of these go out.
	 * No other pair can be among the k nearest: its distance in double
	 * exceeded far() of a full heap's worst, which never grows.
	 */
	if (jb.bcrc != NULL && (rc = sectcheck(&jb)) < 0)
		goto out;
	nsp = 0;
	for (unsigned t = 0; t < nw; t++) {
		if (w[t].nomem) {
			rc = EMB_ENOMEM;
			goto out;
		}
		if (w[t].bad != 0 && (rc = knn_rowfail(kn,
		    (uint32_t)(w[t].bad - 1))) < 0)
			goto out;
		if (w[t].nsp > 1)
			qsort(w[t].sp, w[t].nsp, sizeof(*w[t].sp),
			    spillcmp);
		nsp += w[t].nsp;
	}
	if ((all = malloc(((size_t)nw * k + nsp) * sizeof(*all))) == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nq; i++) {
		size_t n = 0;
		double thr;

		for (unsigned t = 0; t < nw; t++) {
			memcpy(all + n, w[t].h + i * k,
			    w[t].hn[i] * sizeof(*all));
			n += w[t].hn[i];
		}
		qsort(all, n, sizeof(*all), hitcmp);
		thr = n >= k ? far(&jb, all[k - 1].dist) : INFINITY;
		while (n > 0 && all[n - 1].dist > thr)
			n--;
		for (unsigned t = 0; t < nw; t++)
			for (; w[t].spat < w[t].nsp &&
			    w[t].sp[w[t].spat].q == i; w[t].spat++)
				if (w[t].sp[w[t].spat].hit.dist <= thr)
					all[n++] = w[t].sp[w[t].spat].hit;
		if ((rc = knn_exact_hits(q + i * ldq, kn, w[0].row, all,
		    n)) < 0)
			goto out;
		qsort(all, n, sizeof(*all), hitcmp);
		memcpy(hits + i * k, all, (n < k ? n : k) * sizeof(*all));
	}
	if (st != NULL) {
		st->pairs = (uint64_t)nq * kn->n;
		for (unsigned t = 0; t < nw; t++) {
			st->coded += w[t].coded;
			st->flt += w[t].flt;
			st->rescored += w[t].rescored;
		}
		st->path = jb.kern == NULL ? EMB_KNN_FLOAT : knn_path();
	}
out:
	for (unsigned t = 0; w != NULL && t < nw; t++) {
		emb_free(w[t].c);
		emb_free(w[t].ru);
		free(w[t].row);
		free(w[t].h);
		free(w[t].hn);
		free(w[t].skip);
		free(w[t].sp);
		for (int i = 0; i < QTILE; i++) {
			free(w[t].l[i].ref);
			free(w[t].l[i].ub);
		}
	}
	free(all);
	free(w);
	free(jb.qn);
	emb_free(jb.qu);
	emb_free(jb.qc);
	free(jb.qb);
	free(jb.bcrc);
	return rc;
}

const char *
emb_knn_pathname(int path)
{
	static const char *const name[] = { "float32 GEMM", "int8 portable",
	    "int8 AVX-VNNI", "int8 AVX-512 VNNI" };

	return path >= 0 && path <= EMB_KNN_AVX512 ? name[path] : "?";
}

int
emb_knn_search_ref(const struct emb_knn *kn, const float *q, size_t nq,
    size_t ldq, unsigned k, const size_t *xoff, const uint32_t *xref,
    struct emb_hit *hits)
{
	struct emb_hit *all;
	float *row;

	if (k == 0 || ldq < kn->dim)
		return EMB_EINVAL;
	for (size_t i = 0; i < nq * k; i++) {
		hits[i].dist = INFINITY;
		hits[i].ref = EMB_KNN_NONE;
	}
	if ((all = malloc((kn->n ? kn->n : 1) * sizeof(*all))) == NULL)
		return EMB_ENOMEM;
	if ((row = malloc((size_t)kn->dim * sizeof(float))) == NULL) {
		free(all);
		return EMB_ENOMEM;
	}
	/*
	 * Every distance in long double first (within 2^-40 of the true
	 * one), then exactly those that may be among the k best: no more
	 * than 2^-38 beyond the k-th.
	 */
	for (size_t i = 0; i < nq; i++) {
		const float *v = q + i * ldq;
		long double qq = 0;
		size_t n = 0, m = 0;
		double last;

		for (uint32_t d = 0; d < kn->dim; d++)
			qq += (long double)v[d] * v[d];
		for (size_t j = 0; j < kn->n; j++) {
			const float *r = kn->mat + j * kn->ld;
			long double s = 0, rr = 0;

			if (xoff != NULL && xref != NULL && excluded((uint32_t)j,
			    xref + xoff[i], xoff[i + 1] - xoff[i]))
				continue;
			for (uint32_t d = 0; d < kn->dim; d++) {
				s += (long double)v[d] * r[d];
				rr += (long double)r[d] * r[d];
			}
			all[n].dist = qq > 0 && rr > 0 ?
			    (double)(1 - s / sqrtl(qq) / sqrtl(rr)) : 1;
			all[n++].ref = (uint32_t)j;
		}
		qsort(all, n, sizeof(*all), hitcmp);
		last = n > 0 ? all[(n < k ? n : k) - 1].dist + 0x1p-38 : 0;
		while (m < n && all[m].dist <= last)
			m++;
		if (knn_exact_hits(v, kn, row, all, m) < 0) {
			free(row);
			free(all);
			return EMB_ESTORE;
		}
		n = m;
		qsort(all, n, sizeof(*all), hitcmp);
		memcpy(hits + i * k, all, (n < k ? n : k) * sizeof(*all));
	}
	free(row);
	free(all);
	return 0;
}
