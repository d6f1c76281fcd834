/*
 * bias.c - the numbers of the association tests of emb-bias(1): WEAT's
 * associations, effect size, permutation test and bootstrap (Caliskan et
 * al. 2017), RND (Garg et al. 2018), ECT (Dev and Phillips 2019), MAC
 * (Manzini et al. 2019), and the direction of pairs that RIPA projects on
 * (Ethayarajh et al. 2019).  The page gives every formula and the order
 * of every random draw; the code follows it step by step, each sum in
 * double in the order written there, so that a figure can be redone by
 * hand.
 *
 * The permutation test never touches a vector: the statistic of a
 * partition is a sum of per-word associations, computed once, so a
 * permutation costs |X| draws and additions.
 */
#include "eval/emb-eval.h"
#include "base/lapack.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ROW(w, r, i)	((w)->V + (w)->row[r][i] * (w)->dim)

static double
dot(const float *a, const float *b, size_t dim)
{
	double s = 0;

	for (size_t j = 0; j < dim; j++)
		s += (double)a[j] * b[j];
	return s;
}

double
emb_cosf(const float *a, const float *b, size_t dim)
{
	double aa = dot(a, a, dim), bb = dot(b, b, dim);

	return aa > 0 && bb > 0 ? dot(a, b, dim) / sqrt(aa * bb) : 0;
}

int
emb_onevector(const struct emb_wsets *w, int r)
{
	int two = 0;

	for (size_t i = 1; i < w->n[r]; i++) {
		if (emb_cosf(ROW(w, r, 0), ROW(w, r, i), w->dim) < 1 - 1e-9)
			return 0;
		two |= w->row[r][i] != w->row[r][0];
	}
	return two;
}

/*
 * The scale of v for RND and ECT: 1 / |v| (unit length), 0 for a zero
 * vector; 1 for the vectors as they are.
 */
static double
scale(const struct emb_wsets *w, const float *v)
{
	double n = w->asis ? 1 : sqrt(dot(v, v, w->dim));

	return w->asis ? 1 : n > 0 ? 1 / n : 0;
}

/* The mean of the (unit, but for asis) vectors of set r into m. */
static void
unitmean(const struct emb_wsets *w, int r, double *m)
{
	memset(m, 0, w->dim * sizeof(double));
	for (size_t i = 0; i < w->n[r]; i++) {
		const float *v = ROW(w, r, i);
		double n = scale(w, v);

		for (size_t j = 0; j < w->dim; j++)
			m[j] += v[j] * n;
	}
	for (size_t j = 0; j < w->dim; j++)
		m[j] /= (double)w->n[r];
}

/* The cosine of a float and a double vector; 0 when either is zero. */
static double
cosfd(const float *a, const double *m, size_t dim)
{
	double aa = 0, mm = 0, am = 0;

	for (size_t j = 0; j < dim; j++) {
		aa += (double)a[j] * a[j];
		mm += m[j] * m[j];
		am += a[j] * m[j];
	}
	return aa > 0 && mm > 0 ? am / sqrt(aa * mm) : 0;
}

/* ---- WEAT ---- */

static int
cmpz(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* Whether sets A and B hold the same rows: 1, 0, or EMB_ENOMEM. */
static int
samerows(const struct emb_wsets *w)
{
	size_t *u, n = w->n[EMB_SET_A];
	int same;

	if (n != w->n[EMB_SET_B])
		return 0;
	if ((u = malloc((2 * n + 1) * sizeof(size_t))) == NULL)
		return EMB_ENOMEM;
	memcpy(u, w->row[EMB_SET_A], n * sizeof(size_t));
	memcpy(u + n, w->row[EMB_SET_B], n * sizeof(size_t));
	qsort(u, n, sizeof(size_t), cmpz);
	qsort(u + n, n, sizeof(size_t), cmpz);
	same = memcmp(u, u + n, n * sizeof(size_t)) == 0;
	free(u);
	return same;
}

int
emb_weat_assoc(const struct emb_wsets *w, double *C, double *s)
{
	size_t nx = w->n[EMB_SET_X], n = nx + w->n[EMB_SET_Y],
	    na = w->n[EMB_SET_A], nb = w->n[EMB_SET_B], m = na + nb;
	int ab = samerows(w);

	if (ab < 0)
		return ab;

	for (size_t i = 0; i < n; i++) {
		const float *t = i < nx ? ROW(w, EMB_SET_X, i) :
		    ROW(w, EMB_SET_Y, i - nx);
		double ma = 0, mb = 0;

		for (size_t j = 0; j < m; j++)
			C[i * m + j] = emb_cosf(t, j < na ? ROW(w, EMB_SET_A,
			    j) : ROW(w, EMB_SET_B, j - na), w->dim);
		for (size_t j = 0; j < na; j++)
			ma += C[i * m + j];
		for (size_t j = na; j < m; j++)
			mb += C[i * m + j];
		/* A = B: 0 by definition, not the rounding of sums in two
		 * orders. */
		s[i] = ab ? 0 : ma / (double)na - mb / (double)nb;
	}
	return ab;
}

double
emb_weat_effect(const double *s, size_t nx, size_t ny, int sample,
    double *stat)
{
	double mx = 0, my = 0, m, ss = 0;
	size_t n = nx + ny;

	for (size_t i = 0; i < nx; i++)
		mx += s[i];
	for (size_t i = nx; i < n; i++)
		my += s[i];
	*stat = mx - my;
	m = (mx + my) / (double)n;
	mx /= (double)nx;
	my /= (double)ny;
	for (size_t i = 0; i < n; i++)
		ss += (s[i] - m) * (s[i] - m);
	ss = sqrt(ss / (double)(sample ? n - 1 : n));
	return ss > 0 ? (mx - my) / ss : NAN;
}

/* C(n, k), or UINT64_MAX when above 2^63. */
static uint64_t
binom(size_t n, size_t k)
{
	unsigned __int128 c = 1;

	if (k > n - k)
		k = n - k;
	for (size_t i = 1; i <= k; i++) {
		c = c * (n - k + i) / i;
		if (c > ((unsigned __int128)1 << 63))
			return UINT64_MAX;
	}
	return (uint64_t)c;
}

/*
 * Partitions of the n associations s into k (the size of X) and n - k
 * whose X-sum is at least obs - tol, over all C(n, k) of them: the subsets
 * in lexicographic order, each sum the sum of its prefix's and its last
 * element, in index order.
 */
static int
exactcount(const double *s, size_t n, size_t k, double obs, double tol,
    uint64_t *hitp)
{
	size_t *c = malloc((k + 1) * sizeof(size_t));
	double *ps = malloc((k + 1) * sizeof(double));
	uint64_t hit = 0;
	size_t i;

	if (c == NULL || ps == NULL) {
		free(c);
		free(ps);
		return EMB_ENOMEM;
	}
	ps[0] = 0;
	for (i = 0; i < k; i++) {
		c[i] = i;
		ps[i + 1] = ps[i] + s[i];
	}
	for (;;) {
		hit += ps[k] >= obs - tol;
		/* The rightmost element that can move right. */
		i = k;
		while (i > 0 && c[i - 1] == n - k + i - 1)
			i--;
		if (i == 0)
			break;
		c[i - 1]++;
		ps[i] = ps[i - 1] + s[c[i - 1]];
		for (size_t j = i; j < k; j++) {
			c[j] = c[j - 1] + 1;
			ps[j + 1] = ps[j] + s[c[j]];
		}
	}
	free(c);
	free(ps);
	*hitp = hit;
	return 0;
}

/*
 * Sampled partitions: idx starts as 0..n-1 and is kept from one draw to
 * the next; a draw moves a uniform random k-subset to its front by the
 * first k steps of a Fisher-Yates shuffle (j = i + below(n - i), swap),
 * summing in the order drawn.
 */
static int
samplecount(const double *s, size_t n, size_t k, double obs, double tol,
    uint64_t N, struct emb_rng *g, uint64_t *hitp)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(size_t));
	uint64_t hit = 0;

	if (idx == NULL)
		return EMB_ENOMEM;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (uint64_t p = 0; p < N; p++) {
		double sum = 0;

		for (size_t i = 0; i < k; i++) {
			size_t j = i + (size_t)emb_rng_below(g, n - i), t;

			t = idx[i];
			idx[i] = idx[j];
			idx[j] = t;
			sum += s[idx[i]];
		}
		hit += sum >= obs - tol;
	}
	free(idx);
	*hitp = hit;
	return 0;
}

int
emb_weat_p(const double *s, size_t nx, size_t ny, uint64_t exactmax,
    uint64_t nperm, uint64_t seed, struct emb_weat_p *r)
{
	size_t n = nx + ny;
	double sx = 0, sabs = 0, tol;
	struct emb_rng g;

	/*
	 * The statistic is 2 sum_X' s - sum s, so it is the X'-sums that
	 * are compared, to within the rounding of a sum of n terms.
	 */
	for (size_t i = 0; i < n; i++) {
		if (i < nx)
			sx += s[i];
		sabs += fabs(s[i]);
	}
	tol = 8 * (double)n * DBL_EPSILON * sabs;
	r->parts = binom(n, nx);
	r->exact = r->parts <= exactmax;
	if (r->exact) {
		r->count = r->parts;
		return exactcount(s, n, nx, sx, tol, &r->hit);
	}
	r->count = nperm;
	emb_rng_seed(&g, seed);
	return samplecount(s, n, nx, sx, tol, nperm, &g, &r->hit);
}

int
emb_weat_boot(const double *C, size_t nx, size_t ny, size_t na, size_t nb,
    uint64_t nboot, int sample, uint64_t seed, double *bd, size_t *nd,
    double *bs)
{
	size_t n = nx + ny, m = na + nb;
	struct emb_rng g;
	size_t *ix = malloc((n + m) * sizeof(size_t));
	double *s2 = malloc(n * sizeof(double));

	*nd = 0;
	if (ix == NULL || s2 == NULL) {
		free(ix);
		free(s2);
		return EMB_ENOMEM;
	}
	emb_rng_seed(&g, seed);
	for (uint64_t b = 0; b < nboot; b++) {
		double st2, d2;

		for (size_t i = 0; i < nx; i++)
			ix[i] = (size_t)emb_rng_below(&g, nx);
		for (size_t i = nx; i < n; i++)
			ix[i] = nx + (size_t)emb_rng_below(&g, ny);
		for (size_t j = 0; j < na; j++)
			ix[n + j] = (size_t)emb_rng_below(&g, na);
		for (size_t j = na; j < m; j++)
			ix[n + j] = na + (size_t)emb_rng_below(&g, nb);
		for (size_t i = 0; i < n; i++) {
			const double *c = C + ix[i] * m;
			double ma = 0, mb = 0;

			for (size_t j = 0; j < na; j++)
				ma += c[ix[n + j]];
			for (size_t j = na; j < m; j++)
				mb += c[ix[n + j]];
			s2[i] = ma / (double)na - mb / (double)nb;
		}
		d2 = emb_weat_effect(s2, nx, ny, sample, &st2);
		bs[b] = st2;
		if (isfinite(d2))
			bd[(*nd)++] = d2;
	}
	free(ix);
	free(s2);
	return 0;
}

/* ---- RND, ECT, MAC ---- */

int
emb_rnd(const struct emb_wsets *w, double *rnd)
{
	double *mx = malloc(2 * w->dim * sizeof(double)), *my, sum = 0;

	if (mx == NULL)
		return EMB_ENOMEM;
	my = mx + w->dim;
	unitmean(w, EMB_SET_X, mx);
	unitmean(w, EMB_SET_Y, my);
	for (int r = EMB_SET_A; r <= EMB_SET_B; r++)
		for (size_t i = 0; i < w->n[r]; i++) {
			const float *a = ROW(w, r, i);
			double na = scale(w, a), dx = 0, dy = 0;

			for (size_t j = 0; j < w->dim; j++) {
				double u = a[j] * na;

				dx += (u - mx[j]) * (u - mx[j]);
				dy += (u - my[j]) * (u - my[j]);
			}
			sum += sqrt(dx) - sqrt(dy);
		}
	free(mx);
	*rnd = sum;
	return 0;
}

int
emb_ect(const struct emb_wsets *w, double *rho)
{
	size_t n = w->n[EMB_SET_A] + w->n[EMB_SET_B], k = 0;
	double *mx = malloc(2 * w->dim * sizeof(double)), *my, *cx, *cy;
	int rc;

	cx = malloc((n + 1) * 2 * sizeof(double));
	if (mx == NULL || cx == NULL) {
		free(mx);
		free(cx);
		return EMB_ENOMEM;
	}
	my = mx + w->dim;
	cy = cx + n;
	unitmean(w, EMB_SET_X, mx);
	unitmean(w, EMB_SET_Y, my);
	for (int r = EMB_SET_A; r <= EMB_SET_B; r++)
		for (size_t i = 0; i < w->n[r]; i++, k++) {
			cx[k] = cosfd(ROW(w, r, i), mx, w->dim);
			cy[k] = cosfd(ROW(w, r, i), my, w->dim);
		}
	rc = emb_spearman(cx, cy, n, rho);
	free(cx);
	free(mx);
	return rc;
}

double
emb_mac(const struct emb_wsets *w)
{
	double sum = 0;
	size_t nt = 0, ns = w->n[EMB_SET_B] > 0 ? 2 : 1;

	for (int t = EMB_SET_X; t <= EMB_SET_Y; t++)
		for (size_t i = 0; i < w->n[t]; i++, nt++)
			for (int r = EMB_SET_A; r <= EMB_SET_B; r++) {
				double d = 0;

				if (w->n[r] == 0)
					continue;
				for (size_t j = 0; j < w->n[r]; j++)
					d += 1 - emb_cosf(ROW(w, t, i),
					    ROW(w, r, j), w->dim);
				sum += d / (double)w->n[r];
			}
	return sum / (double)(nt * ns);
}

/* ---- RIPA ---- */

void
emb_unitdiff(const float *a, const float *b, size_t dim, double *d)
{
	double na = sqrt(dot(a, a, dim)), nb = sqrt(dot(b, b, dim));

	for (size_t j = 0; j < dim; j++)
		d[j] = (na > 0 ? a[j] / na : 0) - (nb > 0 ? b[j] / nb : 0);
}

double
emb_ripa(const struct emb_wsets *w, int r, const double *u, double *v)
{
	double m = 0;

	for (size_t i = 0; i < w->n[r]; i++) {
		const float *x = ROW(w, r, i);

		v[i] = 0;
		for (size_t j = 0; j < w->dim; j++)
			v[i] += x[j] * u[j];
		m += v[i];
	}
	return m / (double)w->n[r];
}

void
emb_boot_means(const double *v, size_t n, uint64_t nboot, struct emb_rng *g,
    double *bm)
{
	for (uint64_t b = 0; b < nboot; b++) {
		double s = 0;

		for (size_t i = 0; i < n; i++)
			s += v[emb_rng_below(g, n)];
		bm[b] = s / (double)n;
	}
}

int
emb_pairdir(const double *D, size_t k, size_t dim, double *u)
{
	double *G, *w, nu = 0, sp = 0;
	int rc;

	if (k == 0)
		return EMB_EEMPTY;
	if ((G = malloc((k * k + k) * sizeof(double))) == NULL)
		return EMB_ENOMEM;
	w = G + k * k;
	for (size_t a = 0; a < k; a++)
		for (size_t b = 0; b <= a; b++) {
			double g = 0;

			for (size_t j = 0; j < dim; j++)
				g += D[a * dim + j] * D[b * dim + j];
			G[a * k + b] = G[b * k + a] = g;
		}
	if ((rc = emb_dsyev(k, G, w)) < 0) {
		free(G);
		return rc;
	}
	/* The last eigenvector has the largest eigenvalue. */
	memset(u, 0, dim * sizeof(double));
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < dim; j++)
			u[j] += G[(k - 1) * k + i] * D[i * dim + j];
	free(G);
	for (size_t j = 0; j < dim; j++)
		nu += u[j] * u[j];
	nu = sqrt(nu);
	if (!(nu > 0))
		return EMB_EZERO;
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < dim; j++)
			sp += D[i * dim + j] * u[j];
	for (size_t j = 0; j < dim; j++)
		u[j] = (sp < 0 ? -u[j] : u[j]) / nu;
	return 0;
}
