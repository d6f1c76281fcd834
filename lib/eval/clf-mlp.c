/*
 * clf-mlp.c - SentEval's one-hidden-layer perceptron (Linear, Dropout,
 * Sigmoid, Linear): Adam on the batch's mean cross-entropy, early stopping
 * on a dev set, and its scores and predictions.  SentEval asks for the
 * summed loss (size_average = False, set after the loss is built), which
 * PyTorch has ignored since 0.4.1: its runs, the paper's among them, train
 * on the mean, and so do we.
 */
#include "eval/emb-eval.h"
#include "base/rng.h"
#include "eval/clf.h"
#include "base/lapack.h"
#include "base/cpu.h"
#include "eval/ref-eval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The perceptron, in float as PyTorch trains it.  One generator, seeded
 * with o.seed, draws in this order: the dev split (a permutation of the
 * rows, the first valfrac n of them held out) when no dev set is given,
 * the initial weights (uniform in +-1/sqrt(fan-in), as torch.nn.Linear:
 * W1, b1, W2, b2), and for each pass a permutation of the training rows,
 * then the dropout masks of its batches.
 */
struct mlp {
	size_t		 d;
	int		 h, K;		/* hidden units (0: linear), classes */
	float		*W1, *b1;	/* d x h, h */
	float		*W2, *b2;	/* (h or d) x K, K */
	size_t		 np;		/* parameters in all */
	float		*P;		/* all parameters, contiguous */
};

/* Lay m over the parameter block P of a d, h, K network (P NULL: np). */
static void
mlp_lay(struct mlp *m, float *P, size_t d, int h, int K)
{
	size_t in2 = h ? (size_t)h : d;

	m->d = d;
	m->h = h;
	m->K = K;
	m->np = (h ? d * h + h : 0) + in2 * K + K;
	m->P = m->W1 = P;
	if (P == NULL)
		return;
	m->b1 = m->W1 + (h ? d * h : 0);
	m->W2 = m->b1 + h;
	m->b2 = m->W2 + in2 * K;
}

static int
mlp_init(struct mlp *m, size_t d, int h, int K)
{
	float *P;

	mlp_lay(m, NULL, d, h, K);
	if ((P = calloc(m->np, sizeof(float))) == NULL)
		return EMB_ENOMEM;
	mlp_lay(m, P, d, h, K);
	return 0;
}

/*
 * Forward pass on the first rows rows of Xb: hidden activations to H
 * (rows x h), scores to S (rows x K).  mask (rows x h, or NULL)
 * multiplies the pre-activations (dropout, already scaled by 1 / (1 -
 * p)).  The bias, the mask and the sigmoid are one pass over H.
 */
static void
mlp_forward(const struct mlp *m, const float *Xb, size_t rows,
    const float *mask, float *H, float *S)
{
	size_t d = m->d, h = (size_t)m->h;
	int K = m->K;
	const float *in = Xb;

	if (h) {
		emb_sgemm_blis(0, 0, rows, h, d, 1, Xb, d, m->W1, h, 0, H, h);
		for (size_t i = 0; i < rows; i++) {
			float *a = H + i * h;
			const float *mk = mask ? mask + i * h : NULL;

			for (size_t j = 0; j < h; j++) {
				float v = a[j] + m->b1[j];

				if (mk)
					v *= mk[j];
				a[j] = 1 / (1 + expf(-v));
			}
		}
		in = H;
	}
	emb_sgemm_blis(0, 0, rows, K, h ? h : d, 1, in, h ? h : d, m->W2, K, 0,
	    S, K);
	for (size_t i = 0; i < rows; i++)
		for (int k = 0; k < K; k++)
			S[i * K + k] += m->b2[k];
}

/* Rows idx[0..cnt-1] of X into Xb. */
static void
gather(const float *X, size_t d, const size_t *idx, size_t cnt, float *Xb)
{
	for (size_t i = 0; i < cnt; i++)
		memcpy(Xb + i * d, X + idx[i] * d, d * sizeof(float));
}

#define PBLK	256	/* rows per block when predicting */

/* Scores of the rows (at most PBLK) of Xb to Sd, in double; H, S scratch. */
static void
mlp_scores(const struct mlp *m, const float *Xb, size_t rows, float *H,
    float *S, double *Sd)
{
	mlp_forward(m, Xb, rows, NULL, H, S);
	for (size_t j = 0; j < rows * m->K; j++)
		Sd[j] = S[j];
}

/* Accuracy of the model on rows idx of X with classes y. */
static double
mlp_score(const struct mlp *m, const float *X, const int *y,
    const size_t *idx, size_t cnt, float *Xb, float *H, float *S,
    double *Sd)
{
	size_t ok = 0;

	for (size_t i0 = 0; i0 < cnt; i0 += PBLK) {
		size_t r = cnt - i0 < PBLK ? cnt - i0 : PBLK;

		gather(X, m->d, idx + i0, r, Xb);
		mlp_scores(m, Xb, r, H, S, Sd);
		for (size_t i = 0; i < r; i++)
			ok += emb_argmax(Sd + i * m->K, m->K) == y[idx[i0 + i]];
	}
	return cnt ? (double)ok / (double)cnt : 0;
}

/* Column sums of the r x n matrix A into s, row after row. */
static void
colsums(const float *A, size_t r, size_t n, float *s)
{
	memset(s, 0, n * sizeof(float));
	for (size_t i = 0; i < r; i++)
		for (size_t j = 0; j < n; j++)
			s[j] += A[i * n + j];
}

/*
 * Gradient of the mean cross-entropy of one batch (r rows in Xb, classes
 * yb) into G (laid out as m->P), without the weight decay.  H, S, dA are
 * scratch (r x h, r x K, r x h); mask as for mlp_forward.
 */
static void
mlp_grad(const struct mlp *m, const float *Xb, size_t r, const int *yb,
    const float *mask, float *H, float *S, float *dA, float *G)
{
	size_t d = m->d, h = (size_t)m->h, nin = h ? h : d;
	int K = m->K;
	float *gW1 = G, *gb1 = G + (h ? d * h : 0), *gW2 = gb1 + h;
	float *gb2 = gW2 + nin * K;

	mlp_forward(m, Xb, r, mask, H, S);
	/* S becomes dLoss/dScores: softmax minus one-hot, over r. */
	for (size_t i = 0; i < r; i++) {
		float *s = S + i * K, mx = s[0], z = 0;

		for (int k = 1; k < K; k++)
			if (s[k] > mx)
				mx = s[k];
		for (int k = 0; k < K; k++)
			z += (s[k] = expf(s[k] - mx));
		for (int k = 0; k < K; k++)
			s[k] /= z;
		s[yb[i]] -= 1;
		for (int k = 0; k < K; k++)
			s[k] /= (float)r;
	}
	emb_sgemm_blis(1, 0, nin, K, r, 1, h ? H : Xb, nin, S, K, 0, gW2, K);
	colsums(S, r, K, gb2);
	if (h == 0)
		return;
	/* Back through the sigmoid and the dropout mask. */
	emb_sgemm_blis(0, 1, r, h, K, 1, S, K, m->W2, K, 0, dA, h);
	for (size_t i = 0; i < r * h; i++)
		dA[i] *= H[i] * (1 - H[i]) * (mask ? mask[i] : 1);
	emb_sgemm_blis(1, 0, d, h, r, 1, Xb, d, dA, h, 0, gW1, h);
	colsums(dA, r, h, gb1);
}

/*
 * Adam with L2 weight decay, as torch.optim.Adam steps it in float, on n
 * parameters P with gradients G and moments M, V:
 *	g = G + l2 P,  M = b1 M + (1 - b1) g,  V = b2 V + (1 - b2) g g,
 *	P = P - lr / (1 - b1^t) (M / (sqrt(V) / sqrt(1 - b2^t) + eps)).
 * emb_adam_ref is the plain loop; emb_adam the same operations, in the
 * same order, eight at a time where the processor has AVX: IEEE single
 * precision rounds each of them alike, so both give the same bits.
 */
void
emb_adam_ref(float *P, const float *G, float *M, float *V, size_t n,
    const struct emb_adam *a)
{
	for (size_t j = 0; j < n; j++) {
		float g = G[j] + a->l2 * P[j];

		M[j] = a->b1 * M[j] + a->c1 * g;
		V[j] = a->b2 * V[j] + a->c2 * g * g;
		P[j] -= a->step * (M[j] / (sqrtf(V[j]) / a->sq2 + a->eps));
	}
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

__attribute__((target("avx")))
static size_t
adam_avx(float *P, const float *G, float *M, float *V, size_t n,
    const struct emb_adam *a)
{
	__m256 l2 = _mm256_set1_ps(a->l2), b1 = _mm256_set1_ps(a->b1);
	__m256 c1 = _mm256_set1_ps(a->c1), b2 = _mm256_set1_ps(a->b2);
	__m256 c2 = _mm256_set1_ps(a->c2), sq2 = _mm256_set1_ps(a->sq2);
	__m256 eps = _mm256_set1_ps(a->eps), step = _mm256_set1_ps(a->step);
	size_t j;

	for (j = 0; j + 8 <= n; j += 8) {
		__m256 p = _mm256_loadu_ps(P + j), g, mm, vv, den;

		g = _mm256_add_ps(_mm256_loadu_ps(G + j), _mm256_mul_ps(l2, p));
		mm = _mm256_add_ps(_mm256_mul_ps(b1, _mm256_loadu_ps(M + j)),
		    _mm256_mul_ps(c1, g));
		vv = _mm256_add_ps(_mm256_mul_ps(b2, _mm256_loadu_ps(V + j)),
		    _mm256_mul_ps(_mm256_mul_ps(c2, g), g));
		den = _mm256_add_ps(_mm256_div_ps(_mm256_sqrt_ps(vv), sq2),
		    eps);
		p = _mm256_sub_ps(p, _mm256_mul_ps(step, _mm256_div_ps(mm,
		    den)));
		_mm256_storeu_ps(M + j, mm);
		_mm256_storeu_ps(V + j, vv);
		_mm256_storeu_ps(P + j, p);
	}
	return j;
}
#endif

void
emb_adam(float *P, const float *G, float *M, float *V, size_t n,
    const struct emb_adam *a)
{
	size_t j = 0;

#if defined(__x86_64__) && defined(__GNUC__)
	if (emb_cpu_has(EMB_CPU_AVX))
		j = adam_avx(P, G, M, V, n, a);
#endif
	emb_adam_ref(P + j, G + j, M + j, V + j, n - j, a);
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
	float *Xb = NULL, *H = NULL, *S = NULL, *mask = NULL, *G = NULL;
	float *dA = NULL, *M1 = NULL, *V1 = NULL;
	double *Sd = NULL, bestacc = -1, b1t = 1, b2t = 1;
	struct emb_adam ad;
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
	Xb = emb_alloc(blk * d * sizeof(float));
	H = emb_alloc(blk * hh * sizeof(float));
	S = emb_alloc(blk * K * sizeof(float));
	Sd = emb_alloc(blk * K * sizeof(double));
	mask = emb_alloc(blk * hh * sizeof(float));
	dA = emb_alloc(blk * hh * sizeof(float));
	G = calloc(m.np, sizeof(float));
	M1 = calloc(m.np, sizeof(float));
	V1 = calloc(m.np, sizeof(float));
	if (!idx || !yb || !Xb || !H || !S || !Sd || !mask || !dA || !G ||
	    !M1 || !V1)
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
			m.P[j] = (float)((2 * emb_rng_unif(&g) - 1) *
			    (j < n1 ? a1 : a2));
	}
	ad.l2 = (float)o->l2;
	ad.b1 = (float)ADAM_B1;
	ad.c1 = (float)(1 - ADAM_B1);
	ad.b2 = (float)ADAM_B2;
	ad.c2 = (float)(1 - ADAM_B2);
	ad.eps = (float)ADAM_EPS;
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
						    o->dropout ? 0 : (float)(1 /
						    (1 - o->dropout));
				mlp_grad(&m, Xb, r, yb, drop ? mask : NULL, H,
				    S, dA, G);
				/* torch's bias corrections, in double. */
				b1t *= ADAM_B1;
				b2t *= ADAM_B2;
				ad.step = (float)(ADAM_LR / (1 - b1t));
				ad.sq2 = (float)sqrt(1 - b2t);
				emb_adam(m.P, G, M1, V1, m.np, &ad);
			}
		}
		acc = mlp_score(&m, VX, vy, vidx, nva, Xb, H, S, Sd);
		if (acc > bestacc) {
			bestacc = acc;
			memcpy(best.P, m.P, m.np * sizeof(float));
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
	emb_free(Sd);
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
	size_t h = (size_t)c->o.nhid, K = (size_t)c->ncls;
	size_t blk = n < 1 ? 1 : n < PBLK ? n : PBLK;
	float *H = emb_alloc(blk * (h ? h : 1) * sizeof(float));
	float *Sf = emb_alloc(blk * K * sizeof(float));

	if (H == NULL || Sf == NULL) {
		emb_free(H);
		emb_free(Sf);
		return EMB_ENOMEM;
	}
	/* Lay the struct over the stored parameter block. */
	mlp_lay(&m, c->W1, c->d, (int)h, c->ncls);
	for (size_t i0 = 0; i0 < n; i0 += PBLK) {
		size_t r = n - i0 < PBLK ? n - i0 : PBLK;

		mlp_scores(&m, X + i0 * c->d, r, H, Sf, S + i0 * K);
	}
	emb_free(H);
	emb_free(Sf);
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
