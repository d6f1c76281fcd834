/*
 * clf-logreg.c - L2 logistic regression (scikit-learn's
 * LogisticRegression: multinomial, or binary for two classes) fitted by
 * L-BFGS with a weak Wolfe line search, the loss and gradient spread over
 * lanes of rows.
 */
#include "eval/emb-eval.h"
#include "eval/clf.h"
#include "base/lapack.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Logistic regression by L-BFGS on the mean loss
 *   f = (1/n) sum_i (logsumexp(z_i) - z_i,y_i) + |W|^2 / (2 C n),
 * z_i = x_i W + b.  With two classes, class 0's score is pinned at 0 and
 * only class 1's column is free: the binary model of scikit-learn.
 *
 * Along a search direction p = [P, pb], the scores at the step t are
 * X W + t X P + b + t pb: with Zc = X W kept from the last point and
 * Zp = X P formed once per direction, every trial of the line search costs
 * O(n K), its slope g.p being sum_ik R_ik (Zp_ik + pb_k) + W.P / (C n),
 * where R = (softmax - one-hot) / n.  The gradient's product X'R is formed
 * only at the point the search accepts: two products of n x d x K per
 * iteration, however many trials.
 */
#define LLANES	16	/* lanes of the loss at most */
#define LROWS	256	/* rows per lane at least */

struct lrdata {
	const double	*X;		/* n x d */
	const int	*y;
	size_t		 n, d;
	int		 K, nf;		/* classes, free columns */
	double		 lam;		/* 1 / (C n) */
	int		 nt;		/* threads */
	size_t		 nl;		/* lanes */
	double		*Zc;		/* X W at the current point, n x nf */
	double		*Zp;		/* X P along the direction */
	double		*Zt;		/* X W at the trial point */
	double		*R;		/* (softmax - one-hot) / n there */
	const double	*M;		/* lrprod: the d x nf factor */
	double		*out;		/* lrprod: X M */
	const double	*bt;		/* lrloss: the trial's intercepts */
	const double	*pb;		/* their direction, NULL: no step */
	double		 t;		/* the step */
	double		*part;		/* per lane: loss, slope, gradient */
};

#define LRPART(L)	(2 + (L)->d * (L)->nf + (L)->nf)

static void
prodlane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct lrdata *L = arg;

	(void)w;
	(void)lane;
	emb_dgemm_blis(0, 0, r1 - r0, L->nf, L->d, 1, L->X + r0 * L->d, L->d,
	    L->M, L->nf, 0, L->out + r0 * L->nf, L->nf);
}

/* out = X M, lane by lane. */
static void
lrprod(struct lrdata *L, const double *M, double *out)
{
	L->M = M;
	L->out = out;
	emb_par_run(L->nt, L->n, L->nl, prodlane, L);
}

/* One lane's loss (times n) and slope at the trial; R and Zt there. */
static void
losslane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct lrdata *L = arg;
	size_t n = L->n;
	int nf = L->nf, K = L->K;
	double *P = L->part + lane * LRPART(L), f = 0, sl = 0;

	(void)w;
	for (size_t i = r0; i < r1; i++) {
		const double *zc = L->Zc + i * nf, *zp = L->Zp + i * nf;
		double *z = L->R + i * nf, *zt = L->Zt + i * nf;
		double mx = 0, s = 0, zy;
		int y = L->y[i];

		for (int k = 0; k < nf; k++) {
			z[k] = L->pb ? (zt[k] = zc[k] + L->t * zp[k]) : zc[k];
			z[k] += L->bt[k];
		}
		/* Full logits: z, or (0, z) for the binary model. */
		if (nf == K) {
			mx = z[0];
			for (int k = 1; k < K; k++)
				if (z[k] > mx)
					mx = z[k];
		} else
			mx = z[0] > 0 ? z[0] : 0;
		zy = nf == K ? z[y] : (y == 1 ? z[0] : 0);
		if (nf < K)
			s = exp(-mx);
		for (int k = 0; k < nf; k++)
			s += (z[k] = exp(z[k] - mx));
		f += mx + log(s) - zy;
		/* Softmax minus one-hot, divided by n. */
		for (int k = 0; k < nf; k++) {
			int cls = nf == K ? k : 1;

			z[k] = (z[k] / s - (y == cls)) / (double)n;
			if (L->pb)
				sl += z[k] * (zp[k] + L->pb[k]);
		}
	}
	P[0] = f;
	P[1] = sl;
}

/*
 * f at the trial thn = th + t p (p NULL: thn itself, scores Zc), and its
 * slope g.p into *slope.
 */
static double
lrloss(struct lrdata *L, const double *thn, const double *p, double t,
    double *slope)
{
	size_t d = L->d, nw = d * L->nf;
	double f = 0, sl = 0, reg = 0, wp = 0;

	L->bt = thn + nw;
	L->pb = p ? p + nw : NULL;
	L->t = t;
	emb_par_run(L->nt, L->n, L->nl, losslane, L);
	for (size_t l = 0; l < L->nl; l++) {
		f += L->part[l * LRPART(L)];
		sl += L->part[l * LRPART(L) + 1];
	}
	for (size_t j = 0; j < nw; j++) {
		reg += thn[j] * thn[j];
		if (p)
			wp += thn[j] * p[j];
	}
	if (slope)
		*slope = sl + L->lam * wp;
	return f / (double)L->n + 0.5 * L->lam * reg;
}

/* One lane's share of X'R and of R's column sums. */
static void
gradlane(void *arg, int w, size_t lane, size_t r0, size_t r1)
{
	struct lrdata *L = arg;
	size_t d = L->d;
	int nf = L->nf;
	double *P = L->part + lane * LRPART(L) + 2;

	(void)w;
	emb_dgemm_blis(1, 0, d, nf, r1 - r0, 1, L->X + r0 * d, d,
	    L->R + r0 * nf, nf, 0, P, nf);
	for (int k = 0; k < nf; k++)
		P[d * nf + k] = 0;
	for (size_t i = r0; i < r1; i++)
		for (int k = 0; k < nf; k++)
			P[d * nf + k] += L->R[i * nf + k];
}

/* The gradient g at th, from R of the last lrloss there. */
static void
lrgrad(struct lrdata *L, const double *th, double *g)
{
	size_t nw = L->d * L->nf, np = nw + L->nf;

	emb_par_run(L->nt, L->n, L->nl, gradlane, L);
	memset(g, 0, np * sizeof(*g));
	for (size_t l = 0; l < L->nl; l++)
		for (size_t j = 0; j < np; j++)
			g[j] += L->part[l * LRPART(L) + 2 + j];
	for (size_t j = 0; j < nw; j++)
		g[j] += L->lam * th[j];
}

static double
dot(const double *a, const double *b, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

#define LBFGS_M	10

int
emb_clf_fit_logreg(struct emb_clf *c, const float *X, size_t n, const int *y)
{
	struct lrdata L;
	size_t d = c->d, np;
	int K = c->ncls, nf = K > 2 ? K : 1, rc = EMB_ENOMEM, head = 0, have = 0;
	double *buf = NULL, *th, *g, *p, *thn, *gn, *S, *Yv, rho[LBFGS_M];
	double alpha[LBFGS_M], f, fn, gmax;

	if ((rc = emb_clf_linalloc(c, nf)) < 0)
		return rc;
	np = d * nf + nf;
	L.d = d;
	L.nf = nf;
	L.nl = emb_clf_lanes(n, LROWS, LLANES);
	L.X = emb_todouble(X, n, d, emb_clf_threads(&c->o, 16.0 * n * d));
	L.Zc = emb_alloc(n * nf * sizeof(double));
	L.Zp = emb_alloc(n * nf * sizeof(double));
	L.Zt = emb_alloc(n * nf * sizeof(double));
	L.R = emb_alloc(n * nf * sizeof(double));
	L.part = malloc(L.nl * LRPART(&L) * sizeof(double));
	buf = calloc(np * (5 + 2 * LBFGS_M), sizeof(double));
	if (L.X == NULL || L.Zc == NULL || L.Zp == NULL || L.Zt == NULL ||
	    L.R == NULL || L.part == NULL || buf == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	L.y = y;
	L.n = n;
	L.K = K;
	L.lam = 1.0 / (c->o.C * (double)n);
	L.nt = emb_clf_threads(&c->o, 2.0 * n * d * nf);
	th = buf;
	g = th + np;
	p = g + np;
	thn = p + np;
	gn = thn + np;
	S = gn + np;
	Yv = S + np * LBFGS_M;
	lrprod(&L, th, L.Zc);
	f = lrloss(&L, th, NULL, 0, NULL);
	lrgrad(&L, th, g);
	for (c->iters = 0; c->iters < c->o.maxiter; c->iters++) {
		double t, gp, lo = 0, hi = INFINITY;
		int ls;

		gmax = 0;
		for (size_t j = 0; j < np; j++)
			if (fabs(g[j]) > gmax)
				gmax = fabs(g[j]);
		if (gmax <= c->o.tol)
			break;
		/* Two-loop recursion: p = -H g. */
		for (size_t j = 0; j < np; j++)
			p[j] = -g[j];
		for (int i = 0; i < have; i++) {
			int s = (head - 1 - i + LBFGS_M) % LBFGS_M;

			alpha[s] = rho[s] * dot(S + s * np, p, np);
			for (size_t j = 0; j < np; j++)
				p[j] -= alpha[s] * Yv[s * np + j];
		}
		if (have > 0) {
			int s = (head - 1 + LBFGS_M) % LBFGS_M;
			double gam = dot(S + s * np, Yv + s * np, np) /
			    dot(Yv + s * np, Yv + s * np, np);

			for (size_t j = 0; j < np; j++)
				p[j] *= gam;
		}
		for (int i = have - 1; i >= 0; i--) {
			int s = (head - 1 - i + LBFGS_M) % LBFGS_M;
			double beta = rho[s] * dot(Yv + s * np, p, np);

			for (size_t j = 0; j < np; j++)
				p[j] += (alpha[s] - beta) * S[s * np + j];
		}
		gp = dot(g, p, np);
		if (gp >= 0) {	/* not a descent direction: restart */
			have = 0;
			for (size_t j = 0; j < np; j++)
				p[j] = -g[j];
			gp = dot(g, p, np);
		}
		t = have == 0 ? 1.0 / sqrt(-gp) : 1.0;
		if (have == 0 && t > 1)
			t = 1;
		/* Weak Wolfe line search by bracketing (Lewis-Overton). */
		lrprod(&L, p, L.Zp);
		for (ls = 0; ls < 60; ls++) {
			double sl;

			for (size_t j = 0; j < np; j++)
				thn[j] = th[j] + t * p[j];
			fn = lrloss(&L, thn, p, t, &sl);
			if (fn > f + 1e-4 * t * gp)
				hi = t;
			else if (sl < 0.9 * gp)
				lo = t;
			else
				break;
			t = isinf(hi) ? 2 * lo : (lo + hi) / 2;
		}
		if (ls == 60 && !(fn <= f))
			break;		/* no progress possible */
		/* Accept the last trial: its scores, then its gradient. */
		{
			double *z = L.Zc;

			L.Zc = L.Zt;
			L.Zt = z;
		}
		lrgrad(&L, thn, gn);
		{
			int s = head;
			double sy;

			for (size_t j = 0; j < np; j++) {
				S[s * np + j] = thn[j] - th[j];
				Yv[s * np + j] = gn[j] - g[j];
			}
			sy = dot(S + s * np, Yv + s * np, np);
			if (sy > 1e-300) {
				rho[s] = 1 / sy;
				head = (head + 1) % LBFGS_M;
				if (have < LBFGS_M)
					have++;
			}
		}
		memcpy(th, thn, np * sizeof(*th));
		memcpy(g, gn, np * sizeof(*g));
		if (f - fn <= 64 * DBL_EPSILON * fmax(fmax(fabs(f), fabs(fn)),
		    1)) {
			f = fn;
			break;
		}
		f = fn;
	}
	memcpy(c->W, th, d * nf * sizeof(double));
	memcpy(c->b, th + d * nf, nf * sizeof(double));
	rc = 0;
out:
	emb_free((double *)L.X);
	emb_free(L.Zc);
	emb_free(L.Zp);
	emb_free(L.Zt);
	emb_free(L.R);
	free(L.part);
	free(buf);
	return rc;
}
