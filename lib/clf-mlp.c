/*
 * clf-mlp.c - SentEval's one-hidden-layer perceptron (Linear, Dropout,
 * Sigmoid, Linear): Adam on the batch's mean cross-entropy, early stopping
 * on a dev set, and its scores and predictions.  SentEval asks for the
 * summed loss (size_average = False, set after the loss is built), which
 * PyTorch has ignored since 0.4.1: its runs, the paper's among them, train
 * on the mean, and so do we.
 */
#include "emb.h"
#include "int.h"
#include "clf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The perceptron.  One generator, seeded with o.seed, draws in this order:
 * the dev split (a permutation of the rows, the first valfrac n of them
 * held out) when no dev set is given, the initial weights (uniform in
 * +-1/sqrt(fan-in), as torch.nn.Linear: W1, b1, W2, b2), and for each
 * pass a permutation of the training rows, then the dropout masks of its
 * batches.
 */
struct mlp {
	size_t		 d;
	int		 h, K;		/* hidden units (0: linear), classes */
	double		*W1, *b1;	/* d x h, h */
	double		*W2, *b2;	/* (h or d) x K, K */
	size_t		 np;		/* parameters in all */
	double		*P;		/* all parameters, contiguous */
};

static int
mlp_init(struct mlp *m, size_t d, int h, int K)
{
	size_t in2 = h ? (size_t)h : d;

	m->d = d;
	m->h = h;
	m->K = K;
	m->np = (h ? d * h + h : 0) + in2 * K + K;
	if ((m->P = calloc(m->np, sizeof(double))) == NULL)
		return EMB_ENOMEM;
	m->W1 = m->P;
	m->b1 = m->W1 + (h ? d * h : 0);
	m->W2 = m->b1 + h;
	m->b2 = m->W2 + in2 * K;
	return 0;
}

/*
 * Forward pass on m rows Xb (double): hidden activations to H (m x h),
 * scores to S (m x K).  mask (m x h, or NULL) multiplies the
 * pre-activations (dropout, already scaled by 1 / (1 - p)).
 */
static void
mlp_forward(const struct mlp *m, const double *Xb, size_t rows,
    const double *mask, double *H, double *S)
{
	size_t d = m->d, h = (size_t)m->h;
	int K = m->K;
	const double *in = Xb;

	if (h) {
		dgemm(0, 0, rows, h, d, 1, Xb, d, m->W1, h, 0, H, h);
		for (size_t i = 0; i < rows; i++)
			for (size_t j = 0; j < h; j++) {
				double a = H[i * h + j] + m->b1[j];

				if (mask)
					a *= mask[i * h + j];
				H[i * h + j] = 1 / (1 + exp(-a));
			}
		in = H;
	}
	dgemm(0, 0, rows, K, h ? h : d, 1, in, h ? h : d, m->W2, K, 0, S, K);
	for (size_t i = 0; i < rows; i++)
		for (int k = 0; k < K; k++)
			S[i * K + k] += m->b2[k];
}



/* Rows idx[0..cnt-1] of X (float) into Xb (double). */
static void
gather(const float *X, size_t d, const size_t *idx, size_t cnt, double *Xb)
{
	for (size_t i = 0; i < cnt; i++)
		for (size_t j = 0; j < d; j++)
			Xb[i * d + j] = X[idx[i] * d + j];
}

#define PBLK	256	/* rows per block when predicting */

/* Accuracy of the model on rows idx of X with classes y. */
static double
mlp_score(const struct mlp *m, const float *X, const int *y,
    const size_t *idx, size_t cnt, double *Xb, double *H, double *S)
{
	size_t ok = 0;

	for (size_t i0 = 0; i0 < cnt; i0 += PBLK) {
		size_t r = cnt - i0 < PBLK ? cnt - i0 : PBLK;

		gather(X, m->d, idx + i0, r, Xb);
		mlp_forward(m, Xb, r, NULL, H, S);
		for (size_t i = 0; i < r; i++)
			ok += emb_argmax(S + i * m->K, m->K) == y[idx[i0 + i]];
	}
	return cnt ? (double)ok / (double)cnt : 0;
}

/*
 * Gradient of the mean cross-entropy of one batch (r rows in Xb, classes
 * yb) into G (laid out as m->P), without the weight decay.  H, S, dA are
 * scratch (r x h, r x K, r x h); mask as for mlp_forward.
 */
static void
mlp_grad(const struct mlp *m, const double *Xb, size_t r, const int *yb,
    const double *mask, double *H, double *S, double *dA, double *G)
{
	size_t d = m->d, h = (size_t)m->h, nin = h ? h : d;
	int K = m->K;
	double *gW1 = G, *gb1 = G + (h ? d * h : 0), *gW2 = gb1 + h;
	double *gb2 = gW2 + nin * K;

	mlp_forward(m, Xb, r, mask, H, S);
	/* S becomes dLoss/dScores: softmax minus one-hot. */
	for (size_t i = 0; i < r; i++) {
		double *s = S + i * K, mx = s[0], z = 0;

		for (int k = 1; k < K; k++)
			if (s[k] > mx)
				mx = s[k];
		for (int k = 0; k < K; k++)
			z += (s[k] = exp(s[k] - mx));
		for (int k = 0; k < K; k++)
			s[k] /= z;
		s[yb[i]] -= 1;
		for (int k = 0; k < K; k++)
			s[k] /= (double)r;
	}
	dgemm(1, 0, nin, K, r, 1, h ? H : Xb, nin, S, K, 0, gW2, K);
	for (int k = 0; k < K; k++) {
		double t = 0;

		for (size_t i = 0; i < r; i++)
			t += S[i * K + k];
		gb2[k] = t;
	}
	if (h == 0)
		return;
	/* Back through the sigmoid and the dropout mask. */
	dgemm(0, 1, r, h, K, 1, S, K, m->W2, K, 0, dA, h);
	for (size_t i = 0; i < r * h; i++)
		dA[i] *= H[i] * (1 - H[i]) * (mask ? mask[i] : 1);
	dgemm(1, 0, d, h, r, 1, Xb, d, dA, h, 0, gW1, h);
	for (size_t j = 0; j < h; j++) {
		double t = 0;

		for (size_t i = 0; i < r; i++)
			t += dA[i * h + j];
		gb1[j] = t;
	}
}

#define ADAM_LR		1e-3
#define ADAM_B1		0.9
#define ADAM_B2		0.999
#define ADAM_EPS	1e-8

int
emb_clf_fit_mlp(struct emb_clf *c, const float *X, size_t n, const int *y,
    const float *dev, size_t ndev, const int *ydev)
{
	const struct emb_clf_opts *o = &c->o;
	struct mlp m, best;
	struct emb_rng g;
	size_t d = c->d, h = (size_t)o->nhid, ntr, nva, *idx = NULL, *vidx;
	size_t bs = (size_t)o->batch, blk = bs > PBLK ? bs : PBLK, hh;
	int K = c->ncls, rc = EMB_ENOMEM, stop = 0, count = 0, *yb = NULL;
	double *Xb = NULL, *H = NULL, *S = NULL, *mask = NULL, *G = NULL;
	double *dA = NULL, *M1 = NULL, *V1 = NULL, bestacc = -1;
	double b1t = 1, b2t = 1;
	const float *VX;
	const int *vy;

	hh = h ? h : 1;
	/* Blocks of at most the rows there are (n for a batch, n or ndev
	 * for scoring), not what the batch size declares. */
	if (blk > (n > ndev ? n : ndev))
		blk = n > ndev ? n : ndev;
	memset(&m, 0, sizeof(m));
	memset(&best, 0, sizeof(best));
	if (mlp_init(&m, d, (int)h, K) < 0 || mlp_init(&best, d, (int)h, K) < 0)
		goto out;
	idx = malloc((2 * n + ndev + 1) * sizeof(*idx));
	yb = malloc(blk * sizeof(*yb));
	Xb = emb_alloc(blk * d * sizeof(double));
	H = emb_alloc(blk * hh * sizeof(double));
	S = emb_alloc(blk * K * sizeof(double));
	mask = emb_alloc(blk * hh * sizeof(double));
	dA = emb_alloc(blk * hh * sizeof(double));
	G = calloc(m.np, sizeof(double));
	M1 = calloc(m.np, sizeof(double));
	V1 = calloc(m.np, sizeof(double));
	if (!idx || !yb || !Xb || !H || !S || !mask || !dA || !G || !M1 || !V1)
		goto out;
	emb_rng_seed(&g, o->seed);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	vidx = idx + n;
	if (dev != NULL && ndev > 0) {
		ntr = n;
		nva = ndev;
		VX = dev;
		vy = ydev;
		for (size_t i = 0; i < ndev; i++)
			vidx[i] = i;
	} else {
		/* SentEval: the first valfrac n of a permutation are dev. */
		emb_rng_perm(&g, idx, n);
		nva = (size_t)(o->valfrac * (double)n);
		if (nva == 0 || nva >= n) {
			/* Too few rows to hold any out: stop on train. */
			nva = n;
			memcpy(vidx, idx, n * sizeof(*idx));
			ntr = n;
		} else {
			ntr = n - nva;
			memcpy(vidx, idx, nva * sizeof(*idx));
			memmove(idx, idx + nva, ntr * sizeof(*idx));
		}
		VX = X;
		vy = y;
	}
	{
		double a1 = 1 / sqrt((double)d), a2 = 1 / sqrt((double)hh);
		size_t n1 = h ? d * h + h : 0;

		if (h == 0)
			a2 = a1;
		for (size_t j = 0; j < m.np; j++)
			m.P[j] = (2 * emb_rng_unif(&g) - 1) * (j < n1 ? a1 :
			    a2);
	}
	for (c->iters = 0; !stop && c->iters <= o->max_epoch;) {
		double acc;

		for (int e = 0; e < o->epoch_size; e++, c->iters++) {
			emb_rng_perm(&g, idx, ntr);
			for (size_t i0 = 0; i0 < ntr; i0 += bs) {
				size_t r = ntr - i0 < bs ? ntr - i0 : bs;
				int drop = h && o->dropout > 0;

				gather(X, d, idx + i0, r, Xb);
				for (size_t i = 0; i < r; i++)
					yb[i] = y[idx[i0 + i]];
				if (drop)
					for (size_t j = 0; j < r * h; j++)
						mask[j] = emb_rng_unif(&g) <
						    o->dropout ? 0 : 1 / (1 -
						    o->dropout);
				mlp_grad(&m, Xb, r, yb, drop ? mask : NULL, H,
				    S, dA, G);
				/* Adam with L2 weight decay, as torch. */
				b1t *= ADAM_B1;
				b2t *= ADAM_B2;
				for (size_t j = 0; j < m.np; j++) {
					double gj = G[j] + o->l2 * m.P[j];

					M1[j] = ADAM_B1 * M1[j] + (1 - ADAM_B1)
					    * gj;
					V1[j] = ADAM_B2 * V1[j] + (1 - ADAM_B2)
					    * gj * gj;
					m.P[j] -= ADAM_LR / (1 - b1t) * M1[j] /
					    (sqrt(V1[j]) / sqrt(1 - b2t) +
					    ADAM_EPS);
				}
			}
		}
		acc = mlp_score(&m, VX, vy, vidx, nva, Xb, H, S);
		if (acc > bestacc) {
			bestacc = acc;
			memcpy(best.P, m.P, m.np * sizeof(double));
		} else {
			/* SentEval's rule: the count is never reset. */
			if (count >= o->tenacity)
				stop = 1;
			count++;
		}
	}
	rc = 0;
	c->W1 = best.P;		/* the whole parameter block */
	best.P = NULL;
out:
	free(m.P);
	free(best.P);
	free(idx);
	free(yb);
	emb_free(Xb);
	emb_free(H);
	emb_free(S);
	emb_free(mask);
	emb_free(dA);
	free(G);
	free(M1);
	free(V1);
	return rc;
}

int
emb_clf_scores_mlp(const struct emb_clf *c, const float *X, size_t n, double *S)
{
	struct mlp m;
	size_t d = c->d, h = (size_t)c->o.nhid;
	size_t blk = n < 1 ? 1 : n < PBLK ? n : PBLK;
	double *Xb = emb_alloc(blk * d * sizeof(double));
	double *H = emb_alloc(blk * (h ? h : 1) * sizeof(double));

	if (Xb == NULL || H == NULL) {
		emb_free(Xb);
		emb_free(H);
		return EMB_ENOMEM;
	}
	/* Lay the struct over the stored parameter block. */
	m.d = d;
	m.h = (int)h;
	m.K = c->ncls;
	m.W1 = c->W1;
	m.b1 = m.W1 + (h ? d * h : 0);
	m.W2 = m.b1 + h;
	m.b2 = m.W2 + (h ? h : d) * c->ncls;
	for (size_t i0 = 0; i0 < n; i0 += PBLK) {
		size_t r = n - i0 < PBLK ? n - i0 : PBLK;

		for (size_t j = 0; j < r * d; j++)
			Xb[j] = X[i0 * d + j];
		mlp_forward(&m, Xb, r, NULL, H, S + i0 * c->ncls);
	}
	emb_free(Xb);
	emb_free(H);
	return 0;
}

int
emb_clf_predict_mlp(const struct emb_clf *c, const float *X, size_t n, int *pred)
{
	double *S;
	int rc;

	for (size_t i0 = 0; i0 < n; i0 += PBLK) {
		size_t r = n - i0 < PBLK ? n - i0 : PBLK;

		if ((S = malloc(r * c->ncls * sizeof(*S))) == NULL)
			return EMB_ENOMEM;
		if ((rc = emb_clf_scores_mlp(c, X + i0 * c->d, r, S)) < 0) {
			free(S);
			return rc;
		}
		for (size_t i = 0; i < r; i++)
			pred[i0 + i] = emb_argmax(S + i * c->ncls, c->ncls);
		free(S);
	}
	return 0;
}
