/*
 * knn-exact.c - the distance of two float32 vectors, exactly: the true
 * 1 - cos of the inputs, rounded once to double (to nearest, ties to
 * even).  A zero vector is at distance 1 from everything.
 *
 * Why the result is exact:
 *
 * 1. The product of two float32 is exact in double: 24 + 24 significant
 *    bits, and its magnitude lies between 2^-298 (two subnormals) and
 *    2^256, far inside double's range.  So each product is an integer
 *    multiple of 2^-350 below 2^606, and the long accumulator (xadd)
 *    adds its 53-bit significand at its place in 32-bit digits held in
 *    int64 (each digit takes at most 3 dim additions below 2^32: no
 *    overflow below dim = 2^29).  D = (q.r) 2^350, A = |q|^2 2^350 and
 *    B = |r|^2 2^350 are then exact integers, with nothing rounded.
 *
 * 2. cos = D / S with S = sqrt(A B), and the distance t = 1 - cos is:
 *    for D <= 0, 1 + |D| / S; for D > 0, N / (S (S + D)) with N = A B -
 *    D^2 >= 0 an exact integer (no cancellation is left anywhere).
 *
 * 3. A double t0 near t comes from these in double arithmetic (a few
 *    ulps off).  The double nearest t is then found by comparing t with
 *    the midpoints between t0 and its neighbours, exactly: for a
 *    midpoint m = M 2^-w (M, w integers),
 *
 *      D > 0:  t > m  <=>  N 2^w - M A B > M D S,  and, the right side
 *              being positive, when the left side is positive the two
 *              compare as their squares: (N 2^w - M A B)^2 vs M^2 D^2 A B;
 *      D <= 0: t > m  <=>  |D| 2^w > (M - 2^w) S, which for m > 1
 *              compares as |D|^2 2^2w vs (M - 2^w)^2 A B (and t >= 1 > m
 *              otherwise),
 *
 *    all in integers (cmpmid).  t0 moves to a neighbour while t lies
 *    beyond a midpoint, and a t equal to a midpoint goes to the even
 *    one.  The answer is thus a function of the two vectors' values
 *    alone: not of the order of the sums, the CPU, the threads or the
 *    batch.
 *
 * knn_exact_ok says, from a double estimate and its error bound, when a
 * pair cannot reach a distance: the search calls knn_exact only for the
 * pairs that can.
 */
#include "knn/emb-knn.h"
#include "knn/knn.h"

#include <math.h>
#include <string.h>

#define XL	24	/* accumulator digits: 2^-350 ... 2^418 */
#define BL	176	/* limbs of the largest product in cmpmid */

/* A magnitude: n little-endian 32-bit limbs. */
struct big {
	int		 n;
	uint32_t	 l[BL];
};

/* Add (or subtract) the exact double product p at its place. */
static inline void
xadd(int64_t *acc, double p)
{
	uint64_t u, m;
	unsigned __int128 v;
	int e, pos;

	memcpy(&u, &p, sizeof(u));
	e = (int)(u >> 52) & 0x7ff;
	if (e == 0)
		return;		/* zero: no product is subnormal */
	m = (u & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52);
	pos = e - 725;		/* p = m 2^(pos - 350), pos >= 0 */
	v = (unsigned __int128)m << (pos & 31);
	acc += pos >> 5;
	if (u >> 63) {
		acc[0] -= (uint32_t)v;
		acc[1] -= (uint32_t)(v >> 32);
		acc[2] -= (uint32_t)(v >> 64);
	} else {
		acc[0] += (uint32_t)v;
		acc[1] += (uint32_t)(v >> 32);
		acc[2] += (uint32_t)(v >> 64);
	}
}

/* The accumulator's value into b; @return its sign (-1, 0, 1). */
static int
xnorm(int64_t *acc, struct big *b)
{
	int neg;

	for (int i = 0; i < XL - 1; i++) {
		acc[i + 1] += acc[i] >> 32;	/* floor: the borrow too */
		acc[i] &= 0xffffffff;
	}
	neg = acc[XL - 1] < 0;
	if (neg) {			/* two's complement over the digits */
		int64_t c = 1;

		for (int i = 0; i < XL; i++) {
			c += (~acc[i]) & 0xffffffff;
			acc[i] = c & 0xffffffff;
			c >>= 32;
		}
	}
	b->n = XL;
	for (int i = 0; i < XL; i++)
		b->l[i] = (uint32_t)acc[i];
	while (b->n > 0 && b->l[b->n - 1] == 0)
		b->n--;
	return b->n == 0 ? 0 : neg ? -1 : 1;
}

static void
bmul(struct big *r, const struct big *a, const struct big *b)
{
	uint32_t t[BL];

	memset(t, 0, (size_t)(a->n + b->n) * sizeof(*t));
	for (int i = 0; i < a->n; i++) {
		uint64_t c = 0;

		for (int j = 0; j < b->n; j++) {
			c += (uint64_t)a->l[i] * b->l[j] + t[i + j];
			t[i + j] = (uint32_t)c;
			c >>= 32;
		}
		t[i + b->n] = (uint32_t)c;
	}
	r->n = a->n + b->n;
	memcpy(r->l, t, (size_t)r->n * sizeof(*t));
	while (r->n > 0 && r->l[r->n - 1] == 0)
		r->n--;
}

static void
bset(struct big *r, uint64_t x)
{
	r->l[0] = (uint32_t)x;
	r->l[1] = (uint32_t)(x >> 32);
	r->n = r->l[1] ? 2 : r->l[0] ? 1 : 0;
}

/* r = a 2^k. */
static void
bshl(struct big *r, const struct big *a, int k)
{
	int w = k / 32, s = k % 32;
	uint32_t t[BL];

	memset(t, 0, sizeof(t[0]) * (size_t)(a->n + w + 1));
	for (int i = 0; i < a->n; i++) {
		uint64_t v = (uint64_t)a->l[i] << s;

		t[i + w] |= (uint32_t)v;
		t[i + w + 1] |= (uint32_t)(v >> 32);
	}
	r->n = a->n + w + 1;
	memcpy(r->l, t, (size_t)r->n * sizeof(*t));
	while (r->n > 0 && r->l[r->n - 1] == 0)
		r->n--;
}

static int
bigcmp(const struct big *a, const struct big *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (int i = a->n; i-- > 0;)
		if (a->l[i] != b->l[i])
			return a->l[i] < b->l[i] ? -1 : 1;
	return 0;
}

/* r = a - b, a >= b. */
static void
bsub(struct big *r, const struct big *a, const struct big *b)
{
	int64_t c = 0;

	for (int i = 0; i < a->n; i++) {
		c += (int64_t)a->l[i] - (i < b->n ? b->l[i] : 0);
		r->l[i] = (uint32_t)c;
		c >>= 32;
	}
	r->n = a->n;
	while (r->n > 0 && r->l[r->n - 1] == 0)
		r->n--;
}

/*
 * a in long double, within 2^-63 of it: its top 96 bits, rounded once
 * (long double's range holds every value here).
 */
static long double
bld(const struct big *a)
{
	long double f = 0;
	int i, k;

	for (i = a->n - 1, k = 0; i >= 0 && k < 3; i--, k++)
		f = f * 0x1p32L + a->l[i];
	return ldexpl(f, 32 * (i + 1));
}

/* What the comparisons need. */
struct pair {
	int		 sd;		/* sign of D */
	struct big	 d, ab, n;	/* |D|, A B, N = A B - D^2 (D > 0) */
};

/* The sign of t - m, m = M 2^-w exactly (w > 0). */
static int
cmpmid(const struct pair *p, uint64_t M, int w)
{
	struct big x, y, z;

	if (p->sd > 0) {
		bshl(&x, &p->n, w);
		bset(&z, M);
		bmul(&y, &z, &p->ab);
		if (bigcmp(&x, &y) <= 0)
			return -1;
		bsub(&x, &x, &y);
		bmul(&x, &x, &x);
		bmul(&y, &z, &p->d);
		bmul(&y, &y, &y);
		bmul(&y, &y, &p->ab);
		return bigcmp(&x, &y);
	}
	/* t = 1 + |D| / S >= 1. */
	if (w >= 64 || M <= (uint64_t)1 << w)
		return w < 64 && M == (uint64_t)1 << w && p->sd == 0 ? 0 : 1;
	bshl(&x, &p->d, w);
	bmul(&x, &x, &x);
	bset(&z, M - ((uint64_t)1 << w));
	bmul(&y, &z, &z);
	bmul(&y, &y, &p->ab);
	return bigcmp(&x, &y);
}

/* A double x >= 0 as X 2^e, X an integer below 2^53. */
static uint64_t
dsplit(double x, int *e)
{
	uint64_t u;
	int be;

	memcpy(&u, &x, sizeof(u));
	be = (int)(u >> 52);
	u &= ((uint64_t)1 << 52) - 1;
	if (be == 0) {
		*e = -1074;
		return u;
	}
	*e = be - 1075;
	return u | ((uint64_t)1 << 52);
}

/* The sign of t - (x + y) / 2, for doubles 0 <= x < y. */
static int
cmpbetween(const struct pair *p, double x, double y)
{
	int ex, ey, e;
	uint64_t X = dsplit(x, &ex), Y = dsplit(y, &ey);

	e = ex < ey ? ex : ey;
	/* Both in one binade or adjacent ones: the sum is below 2^55. */
	return cmpmid(p, (X << (ex - e)) + (Y << (ey - e)), 1 - e);
}

static int
even(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof(u));
	return (u & 1) == 0;
}

/* A = |q|^2 2^350 exactly; @return 0 for a zero vector. */
static int
sqnorm(const float *q, uint32_t dim, struct big *a)
{
	int64_t xa[XL + 3];

	memset(xa, 0, sizeof(xa));
	for (uint32_t i = 0; i < dim; i++)
		xadd(xa, (double)q[i] * q[i]);
	return xnorm(xa, a);
}

/* The distance of q, of exact square norm a, and r. */
static double
dist(const float *q, const struct big *a, const float *r, uint32_t dim)
{
	int64_t xd[XL + 3], xb[XL + 3];
	struct big b, t;
	struct pair p;
	long double la, lb, lt, c;
	double t0;

	memset(xd, 0, sizeof(xd));
	memset(xb, 0, sizeof(xb));
	for (uint32_t i = 0; i < dim; i++) {
		double x = q[i], y = r[i];

		xadd(xd, x * y);
		xadd(xb, y * y);
	}
	p.sd = xnorm(xd, &p.d);
	if (a->n == 0 || xnorm(xb, &b) == 0)
		return 1;
	/*
	 * t in long double first: A, B, D and N within 2^-63 each, the
	 * root, quotients and products a rounding of 2^-64 each, and no
	 * difference of near values left (1 - c directly only where c <=
	 * 1/2, so that t >= 1/2): below 2^-60 t in all.  Where t (1 -+
	 * 2^-58) round to one double, that is the double nearest t.  The
	 * products A B and D^2 are formed only where needed.
	 */
	la = bld(a);
	lb = bld(&b);
	c = p.sd == 0 ? 0 : p.sd * bld(&p.d) / sqrtl(la * lb);
	p.ab.n = -1;
	if (p.sd > 0 && c > 0.5L) {
		bmul(&p.ab, a, &b);
		bmul(&t, &p.d, &p.d);
		if (bigcmp(&t, &p.ab) >= 0)
			return 0;	/* D^2 = A B: parallel */
		bsub(&p.n, &p.ab, &t);
		lt = bld(&p.n) / (la * lb) / (1 + c);
	} else
		lt = 1 - c;
	if ((double)(lt - lt * 0x1p-58L) == (double)(lt + lt * 0x1p-58L))
		return (double)lt;
	if (p.ab.n < 0) {
		bmul(&p.ab, a, &b);
		if (p.sd > 0) {
			bmul(&t, &p.d, &p.d);
			bsub(&p.n, &p.ab, &t);
		}
	}
	t0 = (double)lt;
	if (!(t0 >= 0))
		t0 = 0;
	if (t0 > 2)
		t0 = 2;
	/* To the double nearest t, ties to even. */
	for (;;) {
		double up = nextafter(t0, INFINITY), dn;
		int s = cmpbetween(&p, t0, up);

		if (s > 0) {
			t0 = up;
			continue;
		}
		if (s == 0)
			return even(t0) ? t0 : up;
		if (t0 == 0)
			return t0;
		dn = nextafter(t0, 0);
		s = cmpbetween(&p, dn, t0);
		if (s < 0) {
			t0 = dn;
			continue;
		}
		if (s == 0)
			return even(t0) ? t0 : dn;
		return t0;
	}
}

double
emb_knn_distance(const float *a, const float *b, uint32_t dim)
{
	return knn_exact(a, b, dim);
}

double
knn_exact(const float *q, const float *r, uint32_t dim)
{
	struct big a;

	sqnorm(q, dim, &a);
	return dist(q, &a, r, dim);
}

int
knn_exact_hits(const float *q, const struct emb_knn *k, float *buf,
    struct emb_hit *h, size_t n)
{
	struct big a;

	if (n == 0)
		return 0;
	sqnorm(q, k->dim, &a);
	for (size_t i = 0; i < n; i++) {
		const float *r = knn_row(k, h[i].ref, buf);

		if (r == NULL)
			return knn_rowfail(k, h[i].ref);
		h[i].dist = dist(q, &a, r, k->dim);
	}
	return 0;
}
