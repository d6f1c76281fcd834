/*
 * paired.c - how sure a difference is: two representations of the same
 * items compared on those items.  Classification: the exact McNemar test
 * of accuracy, a permutation test of the macro-F1 difference (exact when
 * the discordant items are few) and bootstrap intervals of both
 * differences; correlations against gold scores: bootstrap intervals and
 * p-values of the differences of Pearson's and Spearman's coefficients
 * (pooled, and the mean and weighted mean over subsets), and Williams'
 * test of two dependent Pearson correlations.
 *
 * Every resampling draws from emb_rng seeded by the caller, in an order
 * written down in emb.h, so that another implementation can redo the
 * same draws (tests/cli/emb-eval/eval-paired-check.py does, with scipy).
 */
#include "eval/emb-eval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* log C(m, i) */
static double
lchoose(uint64_t m, uint64_t i)
{
	return lgamma((double)m + 1) - lgamma((double)i + 1) -
	    lgamma((double)(m - i) + 1);
}

double
emb_mcnemar(uint64_t b, uint64_t c)
{
	uint64_t m = b + c, k = b < c ? b : c;
	double s = 0, l2 = (double)m * log(2.0);

	if (m == 0 || b == c)
		return 1;
	/* P(X <= k), X ~ Bin(m, 1/2): the largest terms last. */
	for (uint64_t i = 0; i <= k; i++)
		s += exp(lchoose(m, i) - l2);
	s *= 2;
	return s < 1 ? s : 1;
}

/* One step of Lentz's method with coefficient aa: the factor d c. */
static double
lentz(double aa, double *c, double *d)
{
	const double tiny = 1e-300;

	*d = 1 + aa * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1 + aa / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *d * *c;
}

/*
 * The continued fraction of the regularized incomplete beta function
 * I_x(a, b) (modified Lentz), on the side where it converges fast.
 */
static double
betacf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < 1e-300)
		d = 1e-300;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double del;

		h *= lentz(m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
		    &c, &d);
		del = lentz(-(a + m) * (a + b + m) * x / ((a + 2 * m) *
		    (a + 2 * m + 1)), &c, &d);
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double
ibeta(double a, double b, double x)
{
	double lbt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double
emb_student_sf(double t, double df)
{
	double p;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 0 : 1;
	p = 0.5 * ibeta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? p : 1 - p;
}

int
emb_williams(double r12, double r13, double r23, size_t n, double *t,
    double *p)
{
	double det, rbar, den, nn = (double)n;

	if (n < 4 || fabs(r12) > 1 || fabs(r13) > 1 || fabs(r23) >= 1)
		return EMB_EINVAL;
	det = 1 - r12 * r12 - r13 * r13 - r23 * r23 + 2 * r12 * r13 * r23;
	rbar = (r12 + r13) / 2;
	den = 2 * (nn - 1) / (nn - 3) * det + rbar * rbar * pow(1 - r23, 3);
	if (!(den > 0))
		return EMB_EINVAL;
	*t = (r12 - r13) * sqrt((nn - 1) * (1 + r23) / den);
	*p = 2 * emb_student_sf(fabs(*t), nn - 3);
	if (*p > 1)
		*p = 1;
	return 0;
}

/* ---- classification ---- */

/*
 * x mod n without a division: Lemire, Kaser and Kurz, "Faster remainder
 * by direct computation" (2019): with M = ceil(2^128 / n) (mod 2^128, so
 * 0 for n = 1), x mod n = floor(n (M x mod 2^128) / 2^128), exact for
 * every 64-bit x and n, since 128 >= 64 + the bits of n.
 */
struct fmod64 {
	uint64_t	 n;
	unsigned __int128 M;
};

static struct fmod64
fmodof(uint64_t n)
{
	return (struct fmod64){ n, ~(unsigned __int128)0 / n + 1 };
}

static inline uint64_t
fmodx(const struct fmod64 *f, uint64_t x)
{
	unsigned __int128 lo = f->M * x;
	unsigned __int128 hi = (lo >> 64) * f->n +
	    (((unsigned __int128)(uint64_t)lo * f->n) >> 64);

	return (uint64_t)(hi >> 64);
}

/* emb_rng_below(g, n) with lim = 2^64 - (2^64 mod n), or 0 for none. */
static inline uint64_t
below(struct emb_rng *g, const struct fmod64 *f, uint64_t lim)
{
	uint64_t x;

	do
		x = emb_rng_next(g);
	while (lim != 0 && x >= lim);
	return fmodx(f, x);
}


/*
 * Macro-F1 from per-class counts: tp, predicted (col) and true (row)
 * counts, over the classes seen in either; as emb_macro_f1.
 */
static double
f1counts(const double *tp, const double *col, const double *row, int K)
{
	double sum = 0;
	int seen = 0;

	for (int c = 0; c < K; c++) {
		if (row[c] == 0 && col[c] == 0)
			continue;
		seen++;
		if (tp[c] > 0)
			sum += 2 * tp[c] / (row[c] + col[c]);
	}
	return seen ? sum / seen : 0;
}

/* Equal up to rounding: a permuted statistic as extreme as the observed. */
static int
atleast(double x, double obs)
{
	return fabs(x) >= fabs(obs) - 1e-12 * (1 + fabs(obs));
}

/* Item with truth t, predictions x (first) and y (second), counted w
 * times into the counts c: tp and predicted of each, 4 x K. */
static void
tally(double *c, size_t K, int t, int x, int y, double w)
{
	c[x] += w * (x == t);
	c[K + y] += w * (y == t);
	c[2 * K + x] += w;
	c[3 * K + y] += w;
}

/* The macro-F1 difference of the counts c (tally's) and true counts row. */
static double
f1diff(const double *c, const double *row, size_t K)
{
	return f1counts(c, c + 2 * K, row, (int)K) -
	    f1counts(c + K, c + 3 * K, row, (int)K);
}

/* Items ordered by class and predictions (ties by position). */
struct kindent {
	int	 t, a, b;
	size_t	 i;
};

static int
kindcmp(const void *x, const void *y)
{
	const struct kindent *p = x, *q = y;

	if (p->t != q->t)
		return p->t < q->t ? -1 : 1;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return (p->i > q->i) - (p->i < q->i);
}

/*
 * The kinds of the n items: kind[i] numbers item i's (truth, pa, pb),
 * *rep (allocated here) an item of each kind.
 * @return the number of kinds, 0 when out of memory.
 */
static size_t
kinds(const int *truth, const int *pa, const int *pb, size_t n,
    size_t *kind, size_t **rep)
{
	struct kindent *e = malloc(n * sizeof(*e));
	size_t nk = 0;

	if (e == NULL || (*rep = malloc(n * sizeof(size_t))) == NULL) {
		free(e);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		e[i] = (struct kindent){ truth[i], pa[i], pb[i], i };
	qsort(e, n, sizeof(*e), kindcmp);
	for (size_t j = 0; j < n; j++) {
		if (j == 0 || e[j].t != e[j - 1].t || e[j].a != e[j - 1].a ||
		    e[j].b != e[j - 1].b)
			(*rep)[nk++] = e[j].i;
		kind[e[j].i] = nk - 1;
	}
	free(e);
	return nk;
}

int
emb_paired_clf(const int *truth, const int *pa, const int *pb, size_t n,
    int ncls, long nres, double level, uint64_t seed,
    struct emb_paired_clf *r)
{
	size_t *dis = NULL, m = 0, K = (size_t)ncls, *kind = NULL, *rep = NULL,
	    ncat;
	uint32_t *drawn = NULL;
	struct fmod64 fm;
	double *row = NULL, *cnt = NULL, *base = NULL, *da = NULL,
	    *df = NULL;
	struct emb_rng g;
	uint64_t hits = 0, total, rem;
	int rc = EMB_ENOMEM, exact;

	memset(r, 0, sizeof(*r));
	if (n == 0 || ncls < 1 || nres < 1 || !(level > 0 && level < 1))
		return EMB_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (truth[i] < 0 || truth[i] >= ncls || pa[i] < 0 ||
		    pa[i] >= ncls || pb[i] < 0 || pb[i] >= ncls)
			return EMB_EINVAL;
	row = calloc(K, sizeof(double));
	cnt = calloc(4 * K, sizeof(double));
	base = calloc(4 * K, sizeof(double));
	dis = malloc(n * sizeof(size_t));
	kind = malloc(n * sizeof(size_t));
	drawn = malloc(n * sizeof(uint32_t));
	da = malloc((size_t)nres * sizeof(double));
	df = malloc((size_t)nres * sizeof(double));
	if (!row || !cnt || !base || !dis || !kind || !drawn || !da || !df)
		goto out;

	/* The observed figures; base counts the concordant items only. */
	for (size_t i = 0; i < n; i++) {
		int t = truth[i];

		row[t]++;
		tally(cnt, K, t, pa[i], pb[i], 1);
		if ((pa[i] == t) != (pb[i] == t))
			pa[i] == t ? r->b++ : r->c++;
		if (pa[i] != pb[i])
			dis[m++] = i;
		else
			tally(base, K, t, pa[i], pb[i], 1);
	}
	r->n = n;
	for (size_t c = 0; c < K; c++) {
		r->acc_a += cnt[c];
		r->acc_b += cnt[K + c];
	}
	r->acc_a /= (double)n;
	r->acc_b /= (double)n;
	r->acc_diff = r->acc_a - r->acc_b;
	r->mcnemar_p = emb_mcnemar(r->b, r->c);
	r->f1_a = f1counts(cnt, cnt + 2 * K, row, ncls);
	r->f1_b = f1counts(cnt + K, cnt + 3 * K, row, ncls);
	r->f1_diff = r->f1_a - r->f1_b;
	r->discordant = m;

	/*
	 * The permutation test: each discordant item's two predictions
	 * swapped or not (concordant items are the same either way); every
	 * one of the 2^m assignments when 2^m <= nres, else nres random
	 * ones, item by item in input order, swapped when the draw's top
	 * bit is set.
	 */
	exact = m < 63 && ((uint64_t)1 << m) <= (uint64_t)nres;
	total = exact ? (uint64_t)1 << m : (uint64_t)nres;
	emb_rng_seed(&g, seed);
	for (uint64_t it = 0; it < total; it++) {
		memcpy(cnt, base, 4 * K * sizeof(double));
		for (size_t j = 0; j < m; j++) {
			size_t i = dis[j];
			int s = exact ? (int)((it >> j) & 1) :
			    (int)(emb_rng_next(&g) >> 63);

			tally(cnt, K, truth[i], s ? pb[i] : pa[i], s ? pa[i] :
			    pb[i], 1);
		}
		hits += atleast(f1diff(cnt, row, K), r->f1_diff);
	}
	r->f1_p = exact ? (double)hits / (double)total :
	    (double)(hits + 1) / (double)(total + 1);
	r->perms = total;
	r->exact = exact;

	/*
	 * The bootstrap: nres samples of n items drawn with replacement
	 * (emb_rng_below(n), n draws a sample, on a generator seeded with
	 * seed + 1); each sample's accuracy and macro-F1 differences.
	 */
	/*
	 * An item counts by its class and two predictions only, so a
	 * sample is tallied as how often each such kind was drawn: the same
	 * integer counts, in the same doubles, as item by item.
	 */
	if ((ncat = kinds(truth, pa, pb, n, kind, &rep)) == 0)
		goto out;
	emb_rng_seed(&g, seed + 1);
	rem = (0 - (uint64_t)n) % n;
	fm = fmodof(n);
	for (long it = 0; it < nres; it++) {
		double hit = 0;

		memset(row, 0, K * sizeof(double));
		memset(cnt, 0, 4 * K * sizeof(double));
		memset(drawn, 0, ncat * sizeof(uint32_t));
		for (size_t j = 0; j < n; j++)
			drawn[kind[below(&g, &fm, rem ? 0 - rem : 0)]]++;
		for (size_t k = 0; k < ncat; k++) {
			size_t i = rep[k];
			double c = drawn[k];

			if (c == 0)
				continue;
			row[truth[i]] += c;
			tally(cnt, K, truth[i], pa[i], pb[i], c);
			hit += c * ((pa[i] == truth[i]) - (pb[i] == truth[i]));
		}
		da[it] = hit / (double)n;
		df[it] = f1diff(cnt, row, K);
	}
	emb_interval(da, (size_t)nres, level, EMB_IVL_ORDER, &r->acc_lo,
	    &r->acc_hi);
	emb_interval(df, (size_t)nres, level, EMB_IVL_ORDER, &r->f1_lo,
	    &r->f1_hi);
	r->resamples = (uint64_t)nres;
	rc = 0;
out:
	free(row);
	free(cnt);
	free(base);
	free(dis);
	free(kind);
	free(rep);
	free(drawn);
	free(da);
	free(df);
	return rc;
}

/* ---- correlations ---- */

/* Positions 0..n-1 ordered by x (ties by position). */
struct ordent {
	double	 v;
	size_t	 i;
};

static int
ordcmp(const void *a, const void *b)
{
	const struct ordent *x = a, *y = b;

	if (x->v != y->v)
		return (x->v > y->v) - (x->v < y->v);
	return (x->i > y->i) - (x->i < y->i);
}

static int
order(const double *x, size_t n, size_t *ord)
{
	struct ordent *e = malloc((n ? n : 1) * sizeof(*e));

	if (e == NULL)
		return EMB_ENOMEM;
	for (size_t j = 0; j < n; j++) {
		e[j].v = x[j];
		e[j].i = j;
	}
	qsort(e, n, sizeof(*e), ordcmp);
	for (size_t j = 0; j < n; j++)
		ord[j] = e[j].i;
	free(e);
	return 0;
}

/*
 * Average ranks of the n values x counted w[j] times each (ord: their
 * order by value): the ranks they would have in the sample with every
 * value repeated w[j] times, as emb_rank gives.
 */
static void
wrank(const double *x, const double *w, const size_t *ord, size_t n,
    double *rk)
{
	double below = 0;

	for (size_t a = 0, b; a < n; a = b) {
		double tw = 0, v = x[ord[a]];

		for (b = a; b < n && x[ord[b]] == v; b++)
			tw += w[ord[b]];
		for (size_t t = a; t < b; t++)
			rk[ord[t]] = below + (tw + 1) / 2;
		below += tw;
	}
}

/*
 * Weighted sums for Pearson's coefficient of a sample with repeats (item
 * j counted w[j] times), in one pass; sums of subsets add up to the sums
 * of their union.  The smallest and largest values counted tell a
 * constant side exactly.
 */
struct wsum {
	double		 W, x, y, xx, yy, xy;
	double		 xlo, xhi, ylo, yhi;
};

static void
wsum(struct wsum *s, const double *x, const double *y, const double *w,
    size_t n)
{
	double W = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY,
	    yhi = -INFINITY;

	for (size_t j = 0; j < n; j++) {
		double wj = w[j], a = x[j], b = y[j], wa = wj * a, wb = wj * b;
		int on = wj != 0;

		W += wj;
		sx += wa;
		sy += wb;
		sxx += wa * a;
		syy += wb * b;
		sxy += wa * b;
		xlo = on && a < xlo ? a : xlo;
		xhi = on && a > xhi ? a : xhi;
		ylo = on && b < ylo ? b : ylo;
		yhi = on && b > yhi ? b : yhi;
	}
	*s = (struct wsum){ W, sx, sy, sxx, syy, sxy, xlo, xhi, ylo, yhi };
}

static void
wsumadd(struct wsum *s, const struct wsum *t)
{
	s->W += t->W;
	s->x += t->x;
	s->y += t->y;
	s->xx += t->xx;
	s->yy += t->yy;
	s->xy += t->xy;
	s->xlo = t->xlo < s->xlo ? t->xlo : s->xlo;
	s->xhi = t->xhi > s->xhi ? t->xhi : s->xhi;
	s->ylo = t->ylo < s->ylo ? t->ylo : s->ylo;
	s->yhi = t->yhi > s->yhi ? t->yhi : s->yhi;
}

/* Pearson's coefficient of the sums: as emb_pearson on the sample. */
static int
wsumr(const struct wsum *s, double *r)
{
	double cxx, cyy, cxy;

	if (s->W < 2)
		return EMB_EEMPTY;
	if (!(s->xhi > s->xlo) || !(s->yhi > s->ylo))
		return EMB_EZERO;
	cxx = s->xx - s->x * s->x / s->W;
	cyy = s->yy - s->y * s->y / s->W;
	cxy = s->xy - s->x * s->y / s->W;
	if (!(cxx > 0 && cyy > 0))
		return EMB_EZERO;
	*r = cxy / sqrt(cxx * cyy);
	if (*r > 1)
		*r = 1;
	if (*r < -1)
		*r = -1;
	return 0;
}

/*
 * The six figures of one representation on one weighting w: pearson and
 * spearman, each pooled, mean and wmean over subsets.  Values are in
 * item order (the items grouped by subset, in input order within each);
 * the gold ranks of the weighting, per subset and pooled, are the
 * caller's, shared by both representations.
 */
struct cwork {
	const double	*g, *s;		/* gold, similarity, in item order */
	const size_t	*start;		/* subset s: items start[s]..start[s+1] */
	int		 nsub;
	size_t		 n;
	const size_t	*ords, *pords;	/* s's order in each subset, pooled */
	const double	*rg, *prg;	/* gold ranks in each subset, pooled */
	double		*rs;		/* scratch, n */
};

static void
figures(struct cwork *c, const double *w, double v[EMB_CORR_NFIG])
{
	double pm = 0, sm = 0, pw = 0, sw = 0, W = 0;
	struct wsum all, t, rk;
	int nd = 0;

	memset(&all, 0, sizeof(all));
	all.xlo = all.ylo = INFINITY;
	all.xhi = all.yhi = -INFINITY;
	for (int s = 0; s < c->nsub; s++) {
		size_t a = c->start[s], m = c->start[s + 1] - a;
		double rp, rs;

		wsum(&t, c->s + a, c->g + a, w + a, m);
		wsumadd(&all, &t);
		if (wsumr(&t, &rp) < 0)
			continue;
		wrank(c->s + a, w + a, c->ords + a, m, c->rs);
		wsum(&rk, c->rs, c->rg + a, w + a, m);
		if (wsumr(&rk, &rs) < 0)
			continue;
		pm += rp;
		sm += rs;
		pw += rp * t.W;
		sw += rs * t.W;
		W += t.W;
		nd++;
	}
	v[EMB_CORR_PEARSON_MEAN] = nd ? pm / nd : NAN;
	v[EMB_CORR_SPEARMAN_MEAN] = nd ? sm / nd : NAN;
	v[EMB_CORR_PEARSON_WMEAN] = W > 0 ? pw / W : NAN;
	v[EMB_CORR_SPEARMAN_WMEAN] = W > 0 ? sw / W : NAN;
	if (wsumr(&all, &v[EMB_CORR_PEARSON]) < 0)
		v[EMB_CORR_PEARSON] = NAN;
	wrank(c->s, w, c->pords, c->n, c->rs);
	wsum(&rk, c->rs, c->prg, w, c->n);
	if (wsumr(&rk, &v[EMB_CORR_SPEARMAN]) < 0)
		v[EMB_CORR_SPEARMAN] = NAN;
}

/* The gold ranks of weighting w: in each subset, and pooled. */
static void
goldranks(const double *g, const double *w, const size_t *start, int nsub,
    size_t n, const size_t *ordg, const size_t *pordg, double *rg,
    double *prg)
{
	for (int s = 0; s < nsub; s++) {
		size_t a = start[s];

		wrank(g + a, w + a, ordg + a, start[s + 1] - a, rg + a);
	}
	wrank(g, w, pordg, n, prg);
}

/*
 * A batch of bootstrap samples, scored by emb_par_run's workers: sample b
 * has weights w + b n and its differences go to dd[f nres + it0 + b]; each
 * worker ranks into its own scratch (3 n doubles), so every sample is
 * scored as it would be alone.
 */
struct cbatch {
	const struct cwork *ca, *cb;
	const double	*val, *w;
	const size_t	*start, *ord;
	int		 nsub;
	size_t		 n;
	double		*scratch, *dd;
	long		 nres, it0;
};

static void
cbatchlane(void *arg, int worker, size_t lane, size_t r0, size_t r1)
{
	const struct cbatch *B = arg;
	size_t n = B->n;
	double *sc = B->scratch + (size_t)worker * 3 * (n + 1);
	struct cwork ca = *B->ca, cb = *B->cb;

	(void)lane;
	ca.rg = cb.rg = sc;
	ca.prg = cb.prg = sc + (n + 1);
	ca.rs = cb.rs = sc + 2 * (n + 1);
	for (size_t b = r0; b < r1; b++) {
		const double *w = B->w + b * n;
		double va[EMB_CORR_NFIG], vb[EMB_CORR_NFIG];

		goldranks(B->val, w, B->start, B->nsub, n, B->ord,
		    B->ord + 3 * (n + 1), sc, sc + (n + 1));
		figures(&ca, w, va);
		figures(&cb, w, vb);
		for (int f = 0; f < EMB_CORR_NFIG; f++)
			B->dd[(size_t)f * B->nres + B->it0 + b] = va[f] - vb[f];
	}
}

int
emb_paired_corr(const double *gold, const double *sa, const double *sb,
    const int *sub, size_t n, int nsub, long nres, double level,
    uint64_t seed, int nthreads, struct emb_paired_corr *r)
{
	struct cbatch B;
	double *wb = NULL, *scratch = NULL;
	size_t nb;
	int nw;
	size_t *items = NULL, *start = NULL, *ord = NULL, *fill = NULL;
	double *w = NULL, *val = NULL, *dd = NULL;
	struct cwork ca, cb;
	struct emb_rng g;
	int rc = EMB_ENOMEM;

	memset(r, 0, sizeof(*r));
	if (nsub < 1 || nres < 1 || !(level > 0 && level < 1))
		return EMB_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (sub[i] < 0 || sub[i] >= nsub)
			return EMB_EINVAL;
	items = malloc((n + 1) * sizeof(size_t));
	start = calloc((size_t)nsub + 2, sizeof(size_t));
	fill = calloc((size_t)nsub + 1, sizeof(size_t));
	ord = malloc(6 * (n + 1) * sizeof(size_t));
	w = malloc((n + 1) * sizeof(double));
	val = malloc(6 * (n + 1) * sizeof(double));
	dd = malloc((size_t)nres * EMB_CORR_NFIG * sizeof(double));
	if (!items || !start || !fill || !ord || !w || !val || !dd)
		goto out;
	/* Items grouped by subset, in input order within each. */
	for (size_t i = 0; i < n; i++)
		start[sub[i] + 1]++;
	for (int s = 0; s < nsub; s++)
		start[s + 1] += start[s];
	for (size_t i = 0; i < n; i++)
		items[start[sub[i]] + fill[sub[i]]++] = i;
	/* val: gold, sa, sb in item order, then scratch and gold ranks;
	 * ord: their orders in each subset (0-2), then pooled (3-5). */
	for (size_t j = 0; j < n; j++) {
		val[j] = gold[items[j]];
		val[(n + 1) + j] = sa[items[j]];
		val[2 * (n + 1) + j] = sb[items[j]];
	}
	for (int k = 0; k < 3; k++) {
		const double *x = val + (size_t)k * (n + 1);
		size_t *o = ord + (size_t)k * (n + 1);
		size_t *po = ord + (size_t)(k + 3) * (n + 1);

		for (int s = 0; s < nsub; s++)
			if (order(x + start[s], start[s + 1] - start[s],
			    o + start[s]) < 0)
				goto out;
		if (order(x, n, po) < 0)
			goto out;
	}
	ca = (struct cwork){ val, val + (n + 1), start, nsub, n,
	    ord + (n + 1), ord + 4 * (n + 1), val + 4 * (n + 1),
	    val + 5 * (n + 1), val + 3 * (n + 1) };
	cb = ca;
	cb.s = val + 2 * (n + 1);
	cb.ords = ord + 2 * (n + 1);
	cb.pords = ord + 5 * (n + 1);

	for (size_t j = 0; j < n; j++)
		w[j] = 1;
	goldranks(val, w, start, nsub, n, ord, ord + 3 * (n + 1),
	    val + 4 * (n + 1), val + 5 * (n + 1));
	figures(&ca, w, r->a);
	figures(&cb, w, r->b);
	for (int f = 0; f < EMB_CORR_NFIG; f++)
		r->diff[f] = r->a[f] - r->b[f];

	/*
	 * The bootstrap: nres samples, each drawing, subset by subset in
	 * order of first appearance, as many items as the subset holds with
	 * replacement (emb_rng_below(its size), index into its items in
	 * input order), on a generator seeded with seed.
	 */
	/* Drawn in order here, batch by batch (at most 16 MiB of
	 * weights), and scored by the workers. */
	nb = ((size_t)1 << 21) / (n + 1);
	nb = nb < 1 ? 1 : nb > 256 ? 256 : nb;
	nb = nb > (size_t)nres ? (size_t)nres : nb;
	nw = emb_par_workers(nthreads < 1 ? 1 : nthreads, nb);
	if ((wb = malloc(nb * (n + 1) * sizeof(double))) == NULL ||
	    (scratch = malloc((size_t)nw * 3 * (n + 1) *
	    sizeof(double))) == NULL)
		goto out;
	B = (struct cbatch){ &ca, &cb, val, wb, start, ord, nsub, n, scratch,
	    dd, nres, 0 };
	emb_rng_seed(&g, seed);
	for (long it0 = 0; it0 < nres; it0 += (long)nb) {
		size_t cnt = (size_t)(nres - it0) < nb ? (size_t)(nres - it0) :
		    nb;

		for (size_t b = 0; b < cnt; b++) {
			double *wt = wb + b * n;

			memset(wt, 0, n * sizeof(double));
			for (int s = 0; s < nsub; s++) {
				size_t a = start[s], m = start[s + 1] - a;
				uint64_t rem = m ? (0 - (uint64_t)m) % m : 0;
				struct fmod64 fm = fmodof(m ? m : 1);

				for (size_t j = 0; j < m; j++)
					wt[a + below(&g, &fm, rem ? 0 - rem :
					    0)]++;
			}
		}
		B.it0 = it0;
		emb_par_run(nw, cnt, cnt, cbatchlane, &B);
	}
	for (int f = 0; f < EMB_CORR_NFIG; f++) {
		double *d = dd + (size_t)f * nres, obs = r->diff[f];
		size_t m = 0, hits = 0;

		for (long it = 0; it < nres; it++)
			if (!isnan(d[it])) {
				/* Centred at the observed difference. */
				hits += atleast(d[it] - obs, obs);
				d[m++] = d[it];
			}
		r->valid[f] = m;
		r->p[f] = isnan(obs) || m == 0 ? NAN :
		    (double)(hits + 1) / (double)(m + 1);
		emb_interval(d, m, level, EMB_IVL_ORDER, &r->lo[f],
		    &r->hi[f]);
	}
	r->resamples = (uint64_t)nres;
	r->n = n;
	rc = 0;
out:
	free(items);
	free(start);
	free(fill);
	free(ord);
	free(w);
	free(val);
	free(dd);
	free(wb);
	free(scratch);
	return rc;
}
