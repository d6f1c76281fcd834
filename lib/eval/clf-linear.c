/*
 * clf-linear.c - the closed-form linear classifiers: nearest centroid,
 * linear discriminant analysis with shrinkage (primal d x d or dual
 * n x n) and the ridge classifier (the same two forms).  Each fills the
 * W and b that clf.c scores with; what each computes is in clf.c.
 */
#include "eval/emb-eval.h"
#include "eval/clf.h"
#include "base/lapack.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Nearest centroid: argmin |x - m_c|^2 = argmax 2 x.m_c - |m_c|^2.
 */
int
emb_clf_fit_centroid(struct emb_clf *c, const float *X, size_t n, const int *y)
{
	size_t d = c->d, *cnt;
	double *mean;
	int rc;

	if ((rc = emb_clf_linalloc(c, c->ncls)) < 0)
		return rc;
	cnt = malloc(c->ncls * sizeof(*cnt));
	mean = malloc((size_t)c->ncls * d * sizeof(*mean));
	if (cnt == NULL || mean == NULL) {
		free(cnt);
		free(mean);
		return EMB_ENOMEM;
	}
	emb_classmeans(X, n, d, y, c->ncls, cnt, mean);
	for (int k = 0; k < c->ncls; k++) {
		double nn = 0;

		for (size_t j = 0; j < d; j++) {
			double v = mean[(size_t)k * d + j];

			c->W[j * c->ncls + k] = 2 * v;
			nn += v * v;
		}
		c->b[k] = cnt[k] ? -nn : -INFINITY;
	}
	free(cnt);
	free(mean);
	return 0;
}

/*
 * Linear discriminant analysis (lsqr solver).
 */

/* C = alpha A'A for A m x d (row-major), both triangles of C filled. */
static void
syrk_tn(size_t d, size_t m, double alpha, const double *A, double *C)
{
	emb_dsyrk_up(d, m, alpha, A, 0, C);
	for (size_t i = 0; i < d; i++)
		for (size_t j = 0; j < i; j++)
			C[i * d + j] = C[j * d + i];
}

/*
 * The Ledoit-Wolf shrinkage of m standardized rows of dimension d from
 * the sums it takes: beta_ the sum over rows of |z_i|^4, tr the mean of
 * |z_i|^2, delta_ = |E|_F^2 for the empirical covariance E = Z'Z / m.
 */
static double
lwshrink(double beta_, double tr, double delta_, size_t m, size_t d)
{
	double mu, beta, delta;

	mu = tr / (double)d;
	beta = 1.0 / ((double)d * m) * (beta_ / (double)m - delta_);
	delta = (delta_ - 2.0 * mu * tr + (double)d * mu * mu) / (double)d;
	if (beta > delta)
		beta = delta;
	return beta == 0 ? 0 : beta / delta;
}

/* Ledoit-Wolf shrinkage of the standardized class data Z (m x d), given
 * its empirical covariance E = Z'Z / m. */
static double
ledoitwolf(const double *Z, const double *E, size_t m, size_t d)
{
	double beta_ = 0, delta_ = 0, tr = 0;

	if (d == 1)
		return 0;
	for (size_t i = 0; i < m; i++) {
		double r = 0;

		for (size_t j = 0; j < d; j++)
			r += Z[i * d + j] * Z[i * d + j];
		beta_ += r * r;
		tr += r;
	}
	tr /= (double)m;	/* sum of the per-feature mean squares */
	for (size_t j = 0; j < d * d; j++)
		delta_ += E[j] * E[j];
	return lwshrink(beta_, tr, delta_, m, d);
}

/* The same from the Gram matrix G = Z Z' (m x m): |Z'Z|_F = |Z Z'|_F. */
static double
ledoitwolf_gram(const double *G, size_t m, size_t d)
{
	double beta_ = 0, delta_ = 0, tr = 0;

	if (d == 1)
		return 0;
	for (size_t i = 0; i < m; i++) {
		double r = G[i * m + i];

		beta_ += r * r;
		tr += r;
	}
	tr /= (double)m;
	for (size_t j = 0; j < m * m; j++)
		delta_ += G[j] * G[j];
	delta_ /= (double)m * (double)m;
	return lwshrink(beta_, tr, delta_, m, d);
}

/*
 * The fits of LDA and ridge go through the n x n dual when there are
 * fewer rows than dimensions (o.dual 0), always (1) or never (-1): the
 * d x d primal costs d^2 memory and d^3 time whatever n is.  LDA without
 * shrinkage takes the dual also while n < d + K: the within-class
 * scatter then has rank at most n - K < d, and only the dual's
 * pseudo-inverse solves it (a Cholesky of the singular primal succeeds
 * on rounding and gives scores of 1e16).
 */
static int
usedual(const struct emb_clf *c, size_t n)
{
	int noshrink = c->o.kind == EMB_CLF_LDA &&
	    (c->o.shrinkage == EMB_SHRINK_NONE || c->o.shrinkage == 0);

	if (c->o.dual != 0)
		return c->o.dual > 0;
	return n < c->d || (noshrink && n < c->d + (size_t)c->ncls);
}



/* The largest of the K class counts. */
static size_t
maxcount(const size_t *cnt, int K)
{
	size_t m = 0;

	for (int k = 0; k < K; k++)
		if (cnt[k] > m)
			m = cnt[k];
	return m;
}

/* The K x d means transposed into rhs (d x K). */
static void
transpose(const double *mean, int K, size_t d, double *rhs)
{
	for (size_t j = 0; j < d; j++)
		for (int k = 0; k < K; k++)
			rhs[j * K + k] = mean[(size_t)k * d + j];
}

/*
 * "auto": the class's centred rows Z (m x d) divided by their standard
 * deviations, which go to scale (StandardScaler leaves a constant
 * feature, scale 1).
 */
static void
standardize(double *Z, size_t m, size_t d, double *scale)
{
	for (size_t j = 0; j < d; j++) {
		double v = 0;

		for (size_t i = 0; i < m; i++)
			v += Z[i * d + j] * Z[i * d + j];
		v = sqrt(v / (double)m);
		scale[j] = v < 10 * DBL_EPSILON ? 1 : v;
	}
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < d; j++)
			Z[i * d + j] /= scale[j];
}

/*
 * LDA in the primal: S (d x d) summed class by class, S W = M' solved.
 * rhs (d x K) receives W; it serves as d values of scratch before.
 */
static int
lda_primal(struct emb_clf *c, const float *X, size_t n, const int *y,
    const size_t *cnt, const double *mean, double *rhs)
{
	size_t d = c->d, maxm = maxcount(cnt, c->ncls);
	int K = c->ncls, rc = EMB_ENOMEM;
	double *cov = NULL, *Z = NULL, *E = NULL;
	double shr = c->o.shrinkage;
	size_t *rows = NULL;

	cov = calloc(d * d, sizeof(*cov));
	E = emb_alloc(d * d * sizeof(*E));
	rows = malloc(n * sizeof(*rows));
	if (!cov || !E || !rows)
		goto out;
	if ((Z = emb_alloc(maxm * d * sizeof(*Z))) == NULL)
		goto out;
	for (int k = 0; k < K; k++) {
		size_t m = 0;
		double prior = (double)cnt[k] / (double)n, s = 0, mu = 0;
		double *scale = rhs;	/* d scratch values, used before rhs */

		if (cnt[k] == 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (y[i] == k)
				rows[m++] = i;
		/* Z = the class's rows minus their mean. */
		for (size_t i = 0; i < m; i++)
			for (size_t j = 0; j < d; j++)
				Z[i * d + j] = X[rows[i] * d + j] -
				    mean[(size_t)k * d + j];
		if (shr == EMB_SHRINK_AUTO)
			standardize(Z, m, d, scale);
		/* E = Z'Z / m, the empirical covariance. */
		syrk_tn(d, m, 1.0 / (double)m, Z, E);
		if (shr == EMB_SHRINK_AUTO) {
			s = ledoitwolf(Z, E, m, d);
			for (size_t j = 0; j < d; j++)
				mu += E[j * d + j];
			mu /= (double)d;
			/* Rescale: D ((1-s) E + s mu I) D. */
			for (size_t i = 0; i < d; i++)
				for (size_t j = 0; j < d; j++)
					E[i * d + j] *= scale[i] * scale[j];
			for (size_t i = 0; i < d; i++)
				for (size_t j = 0; j < d; j++)
					cov[i * d + j] += prior * ((1 - s) *
					    E[i * d + j] + (i == j ? s * mu *
					    scale[i] * scale[i] : 0));
		} else {
			s = shr == EMB_SHRINK_NONE ? 0 : shr;
			for (size_t j = 0; j < d; j++)
				mu += E[j * d + j];
			mu /= (double)d;
			for (size_t i = 0; i < d; i++)
				for (size_t j = 0; j < d; j++)
					cov[i * d + j] += prior * ((1 - s) *
					    E[i * d + j] + (i == j ? s * mu :
					    0));
		}
	}
	/* coef' = cov^-1 mean': d x K. */
	transpose(mean, K, d, rhs);
	rc = emb_dspdsolve(cov, rhs, d, K);
out:
	free(cov);
	emb_free(E);
	emb_free(Z);
	free(rows);
	return rc;
}

/*
 * LDA in the dual.  With D_c the class's scaling (the identity unless
 * "auto"), s_c its shrinkage and mu_c the mean diagonal of its
 * (standardized) covariance E_c, the primal's S is
 *   sum_c prior_c ((1 - s_c) D_c E_c D_c + s_c mu_c D_c^2) = R'R + L,
 * where row i of R is sqrt((1 - s_c) / n) (x_i - m_c), since
 * prior_c D_c E_c D_c = Z_c'Z_c / n, and L = sum_c prior_c s_c mu_c D_c^2
 * is diagonal: positive everywhere or zero (D_c > 0).  With L > 0 and
 * U = R L^-1/2, Woodbury's identity gives
 *   S^-1 = L^-1/2 (I - U' (I + U U')^-1 U) L^-1/2,
 * an n x n system; with L = 0, S = R'R and its pseudo-inverse is
 * R' pinv(R R')^2 R.  s_c takes |E_c|_F from the class's Gram matrix.
 */
static int
lda_dual(struct emb_clf *c, const float *X, size_t n, const int *y,
    const size_t *cnt, const double *mean, double *rhs)
{
	size_t d = c->d, off = 0, maxm = maxcount(cnt, c->ncls);
	int K = c->ncls, rc = EMB_ENOMEM, pos = 1;
	double *R = NULL, *L = NULL, *scale = NULL, *Gk = NULL, *G = NULL;
	double *P = NULL, shr = c->o.shrinkage;

	R = emb_alloc(n * d * sizeof(*R));
	L = calloc(d, sizeof(*L));
	scale = malloc(d * sizeof(*scale));
	G = emb_alloc(n * n * sizeof(*G));
	P = malloc(n * K * sizeof(*P));
	if (shr == EMB_SHRINK_AUTO)
		Gk = emb_alloc(maxm * maxm * sizeof(*Gk));
	if (!R || !L || !scale || !G || !P ||
	    (shr == EMB_SHRINK_AUTO && !Gk))
		goto out;
	/* R: the rows class by class, centred, standardized for "auto". */
	for (int k = 0; k < K; k++) {
		double prior = (double)cnt[k] / (double)n, s, mu = 0, wt;
		double *Z = R + off * d;
		const double *mk = mean + (size_t)k * d;
		size_t m = 0;

		if (cnt[k] == 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (y[i] == k) {
				for (size_t j = 0; j < d; j++)
					Z[m * d + j] = X[i * d + j] - mk[j];
				m++;
			}
		for (size_t j = 0; j < d; j++)
			scale[j] = 1;
		if (shr == EMB_SHRINK_AUTO) {
			standardize(Z, m, d, scale);
			emb_dgemm_blis(0, 1, m, m, d, 1, Z, d, Z, d, 0, Gk,
			    m);
			s = ledoitwolf_gram(Gk, m, d);
			for (size_t i = 0; i < m; i++)
				mu += Gk[i * m + i];
			/* Back to the centred rows, as computed above. */
			for (size_t i = 0, r = 0; i < n; i++)
				if (y[i] == k) {
					for (size_t j = 0; j < d; j++)
						Z[r * d + j] = X[i * d + j] -
						    mk[j];
					r++;
				}
		} else {
			s = shr == EMB_SHRINK_NONE ? 0 : shr;
			for (size_t j = 0; j < m * d; j++)
				mu += Z[j] * Z[j];
		}
		mu /= (double)m * (double)d;
		for (size_t j = 0; j < d; j++)
			L[j] += prior * s * mu * scale[j] * scale[j];
		wt = sqrt((1 - s) / (double)n);
		for (size_t j = 0; j < m * d; j++)
			Z[j] *= wt;
		off += m;
	}
	for (size_t j = 0; j < d; j++)
		if (!(L[j] > 0))
			pos = 0;
	if (pos) {
		/* V = L^-1/2 M' into rhs, U = R L^-1/2 in place of R. */
		transpose(mean, K, d, rhs);
		for (size_t j = 0; j < d; j++) {
			double f = 1 / sqrt(L[j]);

			for (int k = 0; k < K; k++)
				rhs[j * K + k] *= f;
			for (size_t i = 0; i < n; i++)
				R[i * d + j] *= f;
		}
		/* (I + U U') Q = U V, then W = L^-1/2 (V - U' Q). */
		emb_dgemm_blis(0, 1, n, n, d, 1, R, d, R, d, 0, G,
		    n);
		for (size_t i = 0; i < n; i++)
			G[i * n + i] += 1;
		emb_dgemm_blis(0, 0, n, K, d, 1, R, d, rhs, K, 0, P,
		    K);
		if ((rc = emb_dspdsolve(G, P, n, K)) < 0)
			goto out;
		emb_dgemm_blis(1, 0, d, K, n, -1, R, d, P, K, 1, rhs,
		    K);
		for (size_t j = 0; j < d; j++)
			for (int k = 0; k < K; k++)
				rhs[j * K + k] /= sqrt(L[j]);
	} else {
		/* W = R' pinv(R R')^2 R M'. */
		transpose(mean, K, d, rhs);
		emb_dgemm_blis(0, 1, n, n, d, 1, R, d, R, d, 0, G,
		    n);
		emb_dgemm_blis(0, 0, n, K, d, 1, R, d, rhs, K, 0, P,
		    K);
		if ((rc = emb_dpsdpinv(G, n, P, K, 2, d)) < 0)
			goto out;
		emb_dgemm_blis(1, 0, d, K, n, 1, R, d, P, K, 0, rhs,
		    K);
	}
	rc = 0;
out:
	emb_free(R);
	free(L);
	free(scale);
	emb_free(Gk);
	emb_free(G);
	free(P);
	return rc;
}

int
emb_clf_fit_lda(struct emb_clf *c, const float *X, size_t n, const int *y)
{
	size_t d = c->d, *cnt;
	int K = c->ncls, rc = EMB_ENOMEM;
	double *mean = NULL, *rhs = NULL;

	if ((rc = emb_clf_linalloc(c, K)) < 0)
		return rc;
	rc = EMB_ENOMEM;
	cnt = malloc(K * sizeof(*cnt));
	mean = malloc((size_t)K * d * sizeof(*mean));
	rhs = malloc(d * K * sizeof(*rhs));
	if (!cnt || !mean || !rhs)
		goto out;
	emb_classmeans(X, n, d, y, K, cnt, mean);
	if (usedual(c, n))
		rc = lda_dual(c, X, n, y, cnt, mean, rhs);
	else
		rc = lda_primal(c, X, n, y, cnt, mean, rhs);
	if (rc < 0)
		goto out;
	for (int k = 0; k < K; k++) {
		double dot = 0;

		for (size_t j = 0; j < d; j++) {
			c->W[j * K + k] = rhs[j * K + k];
			dot += mean[(size_t)k * d + j] * rhs[j * K + k];
		}
		c->b[k] = cnt[k] ? -0.5 * dot + log((double)cnt[k] /
		    (double)n) : -INFINITY;
		if (cnt[k] == 0)
			for (size_t j = 0; j < d; j++)
				c->W[j * K + k] = 0;
	}
	if (K == 2) {
		/* scikit-learn's two-class form: one column, class 1 - 0. */
		for (size_t j = 0; j < d; j++)
			c->W[j] = c->W[2 * j + 1] - c->W[2 * j];
		c->b[0] = c->b[1] - c->b[0];
		c->nout = 1;
	}
	rc = 0;
out:
	free(cnt);
	free(mean);
	free(rhs);
	return rc;
}

/*
 * Ridge classifier.
 */
#define RBLK	512	/* rows per block of the ridge Gram matrix */
#define RLANES	4	/* lanes of it at most */

/* The ridge Gram matrix, lane by lane. */
struct gram {
	const float	*X;		/* the rows */
	const double	*xm;		/* their mean */
	size_t		 d;
	double		*G[RLANES];	/* per lane: its Xc'Xc, upper */
	double		*Xb[RLANES];	/* per worker: a centred block */
};

static void
gramlane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct gram *g = arg;
	size_t d = g->d;
	double *Xb = g->Xb[w];

	if (r0 == r1)
		memset(g->G[lane], 0, d * d * sizeof(double));
	for (size_t i0 = r0; i0 < r1; i0 += RBLK) {
		size_t r = r1 - i0 < RBLK ? r1 - i0 : RBLK;

		for (size_t i = 0; i < r; i++)
			for (size_t j = 0; j < d; j++)
				Xb[i * d + j] = g->X[(i0 + i) * d + j] -
				    g->xm[j];
		emb_dsyrk_up(d, r, 1, Xb, i0 > r0 ? 1 : 0, g->G[lane]);
	}
}

/*
 * Ridge in the dual: with Xc the centred rows and T the centred targets,
 * (Xc'Xc + a I)^-1 Xc' = Xc' (Xc Xc' + a I)^-1, so W = Xc' Q with
 * (Xc Xc' + a I) Q = T, an n x n system (a = 0: the pseudo-inverse, the
 * minimum-norm solution of the primal).
 */
static int
ridge_dual(struct emb_clf *c, const float *X, size_t n, const int *y,
    const double *xm, const double *ym)
{
	size_t d = c->d;
	int nout = c->nout, rc = EMB_ENOMEM;
	double *Xc, *G, *T;

	Xc = emb_alloc(n * d * sizeof(*Xc));
	G = emb_alloc(n * n * sizeof(*G));
	T = malloc(n * nout * sizeof(*T));
	if (Xc == NULL || G == NULL || T == NULL)
		goto out;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < d; j++)
			Xc[i * d + j] = X[i * d + j] - xm[j];
		for (int k = 0; k < nout; k++)
			T[i * nout + k] = (y[i] == (nout == 1 ? 1 : k) ? 1 :
			    -1) - ym[k];
	}
	emb_dgemm_blis(0, 1, n, n, d, 1, Xc, d, Xc, d, 0, G, n);
	if (c->o.alpha > 0) {
		for (size_t i = 0; i < n; i++)
			G[i * n + i] += c->o.alpha;
		rc = emb_dspdsolve(G, T, n, nout);
	} else
		rc = emb_dpsdpinv(G, n, T, nout, 1, d);
	if (rc < 0)
		goto out;
	emb_dgemm_blis(1, 0, d, nout, n, 1, Xc, d, T, nout, 0, c->W,
	    nout);
	rc = 0;
out:
	emb_free(Xc);
	emb_free(G);
	free(T);
	return rc;
}

int
emb_clf_fit_ridge(struct emb_clf *c, const float *X, size_t n, const int *y)
{
	size_t d = c->d, *cnt = NULL, nl = emb_clf_lanes(n, RBLK, RLANES);
	int K = c->ncls, nout = K > 2 ? K : 1, rc, nt, nw;
	double *A = NULL, *xm = NULL, *ym = NULL, *sum = NULL;
	struct gram g;

	if ((rc = emb_clf_linalloc(c, nout)) < 0)
		return rc;
	rc = EMB_ENOMEM;
	memset(&g, 0, sizeof(g));
	xm = calloc(d, sizeof(*xm));
	ym = calloc(nout, sizeof(*ym));
	cnt = malloc(K * sizeof(*cnt));
	sum = malloc((size_t)K * d * sizeof(*sum));
	if (!xm || !ym || !cnt || !sum)
		goto out;
	/* Class sums (classmeans divides; undo it) and the data mean. */
	emb_classmeans(X, n, d, y, K, cnt, sum);
	for (int k = 0; k < K; k++)
		for (size_t j = 0; j < d; j++) {
			sum[(size_t)k * d + j] *= (double)cnt[k];
			xm[j] += sum[(size_t)k * d + j];
		}
	for (size_t j = 0; j < d; j++)
		xm[j] /= (double)n;
	/*
	 * Targets t = +1 / -1, centred: Xc'Tc = Xc'T, and since the columns
	 * of Xc sum to zero, column k of Xc'T is 2 (S_k - n_k xm), S_k the
	 * sum of class k's rows (class 1's for the one binary column).  The
	 * column means of T: (2 n_k - n) / n.
	 */
	for (int k = 0; k < nout; k++) {
		int cl = nout == 1 ? 1 : k;
		double nk = (double)cnt[cl];

		for (size_t j = 0; j < d; j++)
			c->W[j * nout + k] = 2 * (sum[(size_t)cl * d + j] -
			    nk * xm[j]);
		ym[k] = (2 * nk - (double)n) / (double)n;
	}
	if (usedual(c, n)) {
		if ((rc = ridge_dual(c, X, n, y, xm, ym)) < 0)
			goto out;
		goto intercept;
	}
	nt = emb_clf_threads(&c->o, (double)n * d * d / 2);
	nw = emb_par_workers(nt, nl);
	for (int t = 0; t < nw; t++)
		if ((g.Xb[t] = emb_alloc((n < RBLK ? n : RBLK) * d *
		    sizeof(double))) == NULL)
			goto out;
	for (size_t l = 0; l < nl; l++)
		if ((g.G[l] = emb_alloc(d * d * sizeof(double))) == NULL)
			goto out;
	A = g.G[0];
	/*
	 * A = Xc'Xc (upper triangle), a block of centred rows at a time (no
	 * n x d copy of the data), the lanes' parts summed in lane order.
	 */
	g.X = X;
	g.xm = xm;
	g.d = d;
	emb_par_run(nt, n, nl, gramlane, &g);
	for (size_t l = 1; l < nl; l++)
		for (size_t i = 0; i < d; i++)
			for (size_t j = i; j < d; j++)
				A[i * d + j] += g.G[l][i * d + j];
	for (size_t i = 0; i < d; i++) {
		A[i * d + i] += c->o.alpha;
		for (size_t j = 0; j < i; j++)
			A[i * d + j] = A[j * d + i];
	}
	if ((rc = emb_dspdsolve(A, c->W, d, nout)) < 0)
		goto out;
intercept:
	for (int k = 0; k < nout; k++) {
		double t = 0;

		for (size_t j = 0; j < d; j++)
			t += xm[j] * c->W[j * nout + k];
		c->b[k] = ym[k] - t;
	}
	rc = 0;
out:
	for (int l = 0; l < RLANES; l++) {
		emb_free(g.Xb[l]);
		emb_free(g.G[l]);
	}
	free(xm);
	free(ym);
	free(cnt);
	free(sum);
	return rc;
}
