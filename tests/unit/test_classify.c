/*
 * test_classify.c - the classifiers against scikit-learn: predictions and
 * decision values on a small fixed problem, the BLIS product and the
 * Cholesky factorization against their plain-loop twins, the same results
 * on one thread and on three, kNN ties and votes worked by hand, kNN
 * votes over emb_knn_search's neighbours, the perceptron's determinism,
 * and the error codes.
 *
 * The constants below were computed with scikit-learn 1.2.1 (numpy 1.24.2)
 * on the float32 values promoted to float64, by this program:
 *
 *   rng = np.random.default_rng(7); K, d, n, m = 3, 4, 36, 24
 *   C = np.round(rng.standard_normal((K, d)), 1); y = np.arange(n) % K
 *   X = np.round(C[y] + 0.9 * rng.standard_normal((n, d)), 2)
 *   T = np.round(C[np.arange(m) % K] + 1.2 * rng.standard_normal((m, d)), 2)
 *   knn      KNeighborsClassifier(5, metric="cosine", algorithm="brute")
 *   centroid NearestCentroid()
 *   lda      LinearDiscriminantAnalysis(solver="lsqr")
 *   lda_auto LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")
 *   lda_half LinearDiscriminantAnalysis(solver="lsqr", shrinkage=0.5)
 *   ridge    RidgeClassifier(alpha=1.0), ridge10 alpha=10.0
 *   logreg   LogisticRegression(C=1.0, tol=1e-10, max_iter=10000),
 *            logreg01 C=0.1
 * P_* = model.fit(X, y).predict(T); S_* = decision_function(T[:4]);
 * B_* and BS_* the same fitted on the rows of classes 0 and 1 only.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "emb.h"
#include "base/rng.h"
#include "eval/clf.h"
#include "base/lapack.h"
#include "ref.h"

#define N	36
#define D	4
#define K	3
#define M	24

static const float X[] = {
	0.09, -0.54, -0.33, -0.27, -1.71, -1.41, -1.61, 0.14,
	-2.16, -0.81, -0.64, 0.64, 0.14, 0.13, -2.57, -1.38,
	-0.54, -0.90, -1.28, 0.87, -1.38, -1.33, 1.45, -0.33,
	-0.03, 1.10, -0.83, -1.00, -0.40, -0.94, -1.00, 1.37,
	0.72, -1.99, 1.27, 0.51, -0.58, 2.10, 0.39, -1.98,
	-0.43, -0.48, -0.07, 1.91, -0.56, 0.00, 1.79, -0.21,
	0.18, -0.12, -0.19, -1.97, -1.02, -1.18, 0.91, 2.33,
	-1.69, -1.32, 1.08, -1.39, -0.42, 0.21, 0.83, -0.28,
	-0.79, -1.33, -0.13, 2.67, -0.89, -0.87, 0.82, 0.29,
	-0.18, -0.70, -0.31, -1.30, 0.55, -0.41, 0.08, 1.90,
	-0.81, 0.35, 0.50, 0.93, -1.16, 0.61, -1.82, -2.73,
	-0.77, -1.81, 0.25, 3.32, -1.25, -1.16, 0.68, 0.84,
	-0.16, 0.11, 0.33, -0.43, -1.43, -1.07, 0.13, 0.35,
	-0.27, -1.37, 1.37, 0.57, 0.08, -0.23, -0.41, -2.70,
	-1.52, -0.67, -1.82, 2.06, -2.07, 0.08, -0.26, 1.10,
	0.12, -1.08, 0.82, 0.40, -0.56, -1.25, -0.04, 0.42,
	0.49, -1.09, 0.45, -0.31, -0.56, -0.85, 0.83, -1.04,
	0.37, -0.99, -0.52, 1.01, -1.00, -0.59, 0.16, 0.13,
};
static const int Y[] = {
	0, 1, 2, 0, 1, 2, 0, 1,
	2, 0, 1, 2, 0, 1, 2, 0,
	1, 2, 0, 1, 2, 0, 1, 2,
	0, 1, 2, 0, 1, 2, 0, 1,
	2, 0, 1, 2,
};
static const float T[] = {
	-1.65, -0.67, 1.68, -1.71, -1.76, -0.60, 1.79, -0.44,
	-0.75, -1.36, -1.61, 1.28, -0.03, 0.39, -1.20, -0.35,
	-1.15, -1.17, -1.23, -0.16, 1.10, -1.21, 0.85, 0.36,
	-0.53, -0.31, 0.46, -1.26, -0.68, -0.97, 1.51, 2.12,
	-0.04, -1.28, -1.16, 1.54, 1.16, 0.13, 0.35, 0.04,
	0.50, 0.11, -0.45, 3.12, -2.00, 0.43, 1.09, 1.45,
	2.25, 2.08, -1.67, -2.93, 0.48, -2.22, 0.09, 2.31,
	-2.47, -3.13, 0.81, 0.45, -0.29, 0.35, -1.33, -2.72,
	-0.70, -2.17, -1.87, 1.91, -0.57, -0.11, -0.69, -0.39,
	-1.20, -0.76, -0.07, -1.84, -0.07, -0.59, 2.53, -0.37,
	0.57, -0.71, 0.48, -1.34, -0.55, 1.19, -0.40, -0.80,
	-0.85, 0.39, 0.07, -1.34, -1.33, -2.96, -3.40, -0.24,
};
static const int P_knn[] = {
	0, 2, 1, 0, 1, 2, 0, 1,
	1, 1, 1, 2, 0, 1, 2, 0,
	1, 0, 0, 2, 0, 0, 0, 1,
};
static const int P_centroid[] = {
	2, 2, 1, 0, 1, 2, 0, 1,
	1, 0, 1, 2, 0, 1, 2, 0,
	1, 0, 0, 2, 0, 0, 0, 1,
};
static const int P_lda[] = {
	2, 2, 1, 0, 1, 0, 0, 2,
	1, 0, 1, 2, 0, 1, 2, 0,
	1, 0, 0, 2, 0, 0, 0, 1,
};
static const int P_lda_auto[] = {
	2, 2, 1, 0, 1, 2, 0, 1,
	1, 0, 1, 2, 0, 1, 2, 0,
	1, 0, 0, 2, 0, 0, 0, 1,
};
static const int P_lda_half[] = {
	2, 2, 1, 0, 1, 2, 0, 2,
	1, 0, 1, 2, 0, 1, 2, 0,
	1, 0, 0, 2, 0, 0, 0, 1,
};
static const int P_ridge[] = {
	2, 2, 1, 0, 1, 0, 0, 2,
	1, 0, 1, 2, 0, 1, 2, 0,
	1, 0, 2, 2, 0, 0, 0, 1,
};
static const int P_ridge10[] = {
	2, 2, 1, 0, 1, 0, 0, 2,
	1, 0, 1, 2, 0, 1, 2, 0,
	1, 0, 0, 2, 0, 0, 0, 1,
};
static const int P_logreg[] = {
	2, 2, 1, 0, 1, 0, 0, 2,
	1, 0, 1, 2, 0, 1, 2, 0,
	1, 0, 0, 2, 0, 0, 0, 1,
};
static const int P_logreg01[] = {
	2, 2, 1, 0, 1, 2, 0, 2,
	1, 0, 1, 2, 0, 1, 2, 0,
	1, 0, 0, 2, 0, 0, 0, 1,
};
static const int B_lda[] = {
	0, 0, 1, 0, 1, 0, 0, 1,
	1, 0, 1, 1, 0, 1, 1, 0,
	1, 0, 0, 0, 0, 0, 0, 1,
};
static const int B_ridge[] = {
	0, 0, 1, 0, 1, 0, 0, 1,
	1, 0, 1, 1, 0, 1, 1, 0,
	1, 0, 0, 0, 0, 0, 0, 1,
};
static const int B_logreg[] = {
	0, 0, 1, 0, 1, 0, 0, 1,
	1, 0, 1, 1, 0, 1, 1, 0,
	1, 0, 0, 0, 0, 0, 0, 1,
};
/* decision_function of the first 4 test rows */
/*
 * The logistic regression values are those of the exact optimum: scikit-
 * learn's lbfgs stops on its function-change test with a gradient of 2e-4
 * here, so S_logreg* and BS_logreg were computed by minimizing the same
 * objective, sum of log-losses + |W|^2 / (2C), with scipy.optimize
 * BFGS to a gradient below 1e-7 (predictions agree with scikit-learn's).
 */
static const double S_logreg[] = {
	1.450160257, -4.193285338, 2.743125081,
	-0.1114301912, -2.745430275, 2.856860466,
	-1.956480347, 3.009859657, -1.05337931,
	1.827246899, -0.5812825856, -1.245964314,
};
static const double S_logreg01[] = {
	0.5067174168, -1.58863392, 1.081916503,
	-0.1719932361, -0.9511688442, 1.12316208,
	-0.7445217567, 1.166229147, -0.4217073908,
	0.7427167663, -0.174998039, -0.5677187274,
};
static const double BS_logreg[] = { -3.2949622, -1.274984753, 3.333026686, -1.248194338 };
static const double S_lda[] = {
	1.386205075, -6.074054062, 4.311453948,
	-0.6584756345, -3.371059296, 4.655807665,
	-3.862878933, 4.845711029, -0.6853574744,
	-1.683238074, -5.381956239, -5.866536368,
};
static const double S_lda_auto[] = {
	0.5820437372, -4.79397679, 2.647254179,
	-1.466465595, -2.268397987, 3.270627433,
	-3.514811995, 3.419944313, -0.2923473365,
	-1.091236654, -5.505679922, -5.321540693,
};
static const double S_lda_half[] = {
	1.082264889, -6.64309932, 2.942912246,
	-1.181776657, -3.731737987, 3.421119761,
	-4.039878651, 3.909990623, -1.006274012,
	-1.461004876, -5.087552889, -5.181015569,
};
static const double S_ridge[] = {
	-0.2705081963, -1.829543533, 1.10005173,
	-0.7224455353, -1.352541873, 1.074987408,
	-0.8177750432, 0.8576647174, -1.039889674,
	0.4775294357, -0.2219148826, -1.255614553,
};
static const double S_ridge10[] = {
	-0.1531417154, -1.560046565, 0.7131882808,
	-0.582992359, -1.124233606, 0.707225965,
	-0.762420149, 0.6470656281, -0.8846454791,
	0.328416816, -0.2913210882, -1.037095728,
};
static const double BS_lda[] = { -7.60070266, -2.734635146, 8.79147828, -2.687399042 };
static const double BS_ridge[] = { -0.860133747, -0.3205680059, 0.9667838636, -0.2977491092 };

/* Fit kind on n rows of dimension d, param its main parameter. */
static struct emb_clf *
fitd(enum emb_clf_kind kind, double param, const float *Xf, size_t n,
    size_t d, const int *y, int ncls)
{
	struct emb_clf_opts o;
	struct emb_clf *c;

	emb_clf_defaults(&o, kind);
	if (kind == EMB_CLF_LDA)
		o.shrinkage = param;
	else if (kind == EMB_CLF_RIDGE)
		o.alpha = param;
	else if (kind == EMB_CLF_LOGREG) {
		o.C = param;
		o.tol = 1e-10;
	}
	ck_assert_int_eq(emb_clf_fit(&c, &o, Xf, n, d, y, ncls, NULL, 0, NULL),
	    0);
	return c;
}

static struct emb_clf *
fit(enum emb_clf_kind kind, double param, const float *Xf, size_t n,
    const int *y, int ncls)
{
	return fitd(kind, param, Xf, n, D, y, ncls);
}

static void
checkpred(struct emb_clf *c, const int *want)
{
	int pred[M];

	ck_assert_int_eq(emb_clf_predict(c, T, M, pred), 0);
	for (int i = 0; i < M; i++)
		ck_assert_msg(pred[i] == want[i], "row %d: %d, want %d", i,
		    pred[i], want[i]);
}

/* Decision values of the first four test rows, relative tolerance. */
static void
checkscores(struct emb_clf *c, const double *want, int ncol, double tol)
{
	double S[4 * K];

	ck_assert_int_eq(emb_clf_nscores(c), ncol);
	ck_assert_int_eq(emb_clf_scores(c, T, 4, S), 0);
	for (int i = 0; i < 4 * ncol; i++)
		ck_assert_msg(fabs(S[i] - want[i]) <= tol * (1 + fabs(want[i])),
		    "score %d: %.10g, want %.10g", i, S[i], want[i]);
}

struct lincase {
	enum emb_clf_kind kind;
	double		 param;
	const int	*pred;
	const double	*scores;	/* NULL: not checked */
	double		 tol;
};

START_TEST(test_sklearn)
{
	const struct lincase cases[] = {
		{ EMB_CLF_KNN, 0, P_knn, NULL, 0 },
		{ EMB_CLF_CENTROID, 0, P_centroid, NULL, 0 },
		{ EMB_CLF_LDA, EMB_SHRINK_NONE, P_lda, S_lda, 1e-9 },
		{ EMB_CLF_LDA, EMB_SHRINK_AUTO, P_lda_auto, S_lda_auto, 1e-9 },
		{ EMB_CLF_LDA, 0.5, P_lda_half, S_lda_half, 1e-9 },
		{ EMB_CLF_RIDGE, 1.0, P_ridge, S_ridge, 1e-9 },
		{ EMB_CLF_RIDGE, 10.0, P_ridge10, S_ridge10, 1e-9 },
		{ EMB_CLF_LOGREG, 1.0, P_logreg, S_logreg, 1e-6 },
		{ EMB_CLF_LOGREG, 0.1, P_logreg01, S_logreg01, 1e-6 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct lincase *t = &cases[i];
		struct emb_clf *c = fit(t->kind, t->param, X, N, Y, K);

		checkpred(c, t->pred);
		if (t->scores)
			checkscores(c, t->scores, K, t->tol);
		emb_clf_free(c);
	}
}
END_TEST

/* Two classes: one decision column, positive for class 1. */
START_TEST(test_sklearn_binary)
{
	float Xb[N * D];
	int yb[N], n = 0;
	struct emb_clf *c;

	for (int i = 0; i < N; i++)
		if (Y[i] < 2) {
			memcpy(Xb + n * D, X + i * D, D * sizeof(float));
			yb[n++] = Y[i];
		}
	c = fit(EMB_CLF_LDA, EMB_SHRINK_NONE, Xb, n, yb, 2);
	checkpred(c, B_lda);
	checkscores(c, BS_lda, 1, 1e-9);
	emb_clf_free(c);
	c = fit(EMB_CLF_RIDGE, 1.0, Xb, n, yb, 2);
	checkpred(c, B_ridge);
	checkscores(c, BS_ridge, 1, 1e-9);
	emb_clf_free(c);
	c = fit(EMB_CLF_LOGREG, 1.0, Xb, n, yb, 2);
	checkpred(c, B_logreg);
	checkscores(c, BS_logreg, 1, 1e-6);
	emb_clf_free(c);
}
END_TEST

/*
 * Nearest centroid by hand: centroids (0, 0) and (4, 0); x = (1.9, 5) is
 * nearer the first, (2.1, -5) the second.  Its scores are 2 x.m - |m|^2.
 */
START_TEST(test_centroid_hand)
{
	static const float Xh[] = { -1, 0, 1, 0, 3, 0, 5, 0 };
	static const float Q[] = { 1.9f, 5, 2.1f, -5 };
	static const int yh[] = { 0, 0, 1, 1 };
	struct emb_clf *c = fitd(EMB_CLF_CENTROID, 0, Xh, 4, 2, yh, 2);
	double S[4];
	int p[2];

	ck_assert_int_eq(emb_clf_predict(c, Q, 2, p), 0);
	ck_assert_int_eq(p[0], 0);
	ck_assert_int_eq(p[1], 1);
	ck_assert_int_eq(emb_clf_scores(c, Q, 1, S), 0);
	ck_assert(fabs(S[0] - 0) < 1e-12);
	ck_assert(fabs(S[1] - (2 * 1.9f * 4 - 16)) < 1e-6);
	emb_clf_free(c);
}
END_TEST

/*
 * kNN by hand.  References on the unit circle at angles 0, 10, 20, 30 deg
 * (class 0) and 180 deg (class 1), plus one at 200 deg (class 1).  A query
 * at 5 deg with k = 3 takes 0 and 10 (tied) then 20: class 0.  With k = 6
 * the vote is 4 to 2.  A tie in votes (k = 2, a query at 95 deg between 0
 * deg... ) goes to the smaller class; a tie in distance to the earlier
 * reference.  Lengths do not matter (cosine), a zero query votes with the
 * first k references.
 */
START_TEST(test_knn_hand)
{
	float R[6 * 2], Q[4 * 2];
	static const double ang[] = { 0, 10, 20, 30, 180, 200 };
	static const int yr[] = { 0, 0, 0, 0, 1, 1 };
	struct emb_clf_opts o;
	struct emb_clf *c;
	int p[4];

	for (int i = 0; i < 6; i++) {
		R[2 * i] = (float)(3 * cos(ang[i] * M_PI / 180));
		R[2 * i + 1] = (float)(3 * sin(ang[i] * M_PI / 180));
	}
	/* 5 deg; 190 deg; 105 deg (equidistant from 30 and 180: 75 deg
	 * each); the zero vector. */
	Q[0] = (float)cos(5 * M_PI / 180);
	Q[1] = (float)sin(5 * M_PI / 180);
	Q[2] = (float)(7 * cos(190 * M_PI / 180));
	Q[3] = (float)(7 * sin(190 * M_PI / 180));
	Q[4] = (float)cos(105 * M_PI / 180);
	Q[5] = (float)sin(105 * M_PI / 180);
	Q[6] = Q[7] = 0;
	emb_clf_defaults(&o, EMB_CLF_KNN);
	o.k = 3;
	ck_assert_int_eq(emb_clf_fit(&c, &o, R, 6, 2, yr, 2, NULL, 0, NULL), 0);
	ck_assert_int_eq(emb_clf_predict(c, Q, 4, p), 0);
	ck_assert_int_eq(p[0], 0);
	ck_assert_int_eq(p[1], 1);
	ck_assert_int_eq(emb_clf_nscores(c), 0);
	emb_clf_free(c);
	/* k = 2 at 105 deg: 30 (class 0) and 180 (class 1), one vote each:
	 * the smaller class wins. */
	o.k = 2;
	ck_assert_int_eq(emb_clf_fit(&c, &o, R, 6, 2, yr, 2, NULL, 0, NULL), 0);
	ck_assert_int_eq(emb_clf_predict(c, Q + 4, 1, p), 0);
	ck_assert_int_eq(p[0], 0);
	emb_clf_free(c);
	/* k larger than the references: every one votes, 4 to 2. */
	o.k = 50;
	ck_assert_int_eq(emb_clf_fit(&c, &o, R, 6, 2, yr, 2, NULL, 0, NULL), 0);
	ck_assert_int_eq(emb_clf_predict(c, Q + 2, 1, p), 0);
	ck_assert_int_eq(p[0], 0);
	emb_clf_free(c);
}
END_TEST

/*
 * One kNN engine: the classifier's votes are those of emb_knn_search's
 * neighbours over the same rows, on small integer vectors where many
 * cosines tie (the earlier reference wins), with a zero query, k up to
 * past the references, on 1 and 3 threads.
 */
START_TEST(test_knn_engine)
{
	static const size_t dims[] = { 1, 5, 16 };
	static const int ks[] = { 1, 4, 7, 700 };
	enum { NR = 600, NQ = 1000, KC = 4 };
	struct emb_rng g;

	emb_rng_seed(&g, 11);
	for (size_t a = 0; a < 3; a++) {
		size_t d = dims[a];
		float *R = malloc(NR * d * sizeof(float));
		float *Q = malloc(NQ * d * sizeof(float));
		int yr[NR], *p = malloc(NQ * sizeof(int));
		struct emb_hit *h = malloc((size_t)NQ * NR * sizeof(*h));
		struct emb_knn *kn;

		for (size_t i = 0; i < NR * d; i++)
			R[i] = (float)emb_rng_below(&g, 5) - 2;
		for (size_t i = 0; i < NQ * d; i++)
			Q[i] = i < d ? 0 : (float)emb_rng_below(&g, 5) - 2;
		for (int i = 0; i < NR; i++)
			yr[i] = (int)emb_rng_below(&g, KC);
		ck_assert_int_eq(emb_knn_create(&kn, (uint32_t)d), 0);
		for (int i = 0; i < NR; i++)
			ck_assert_int_eq(emb_knn_add(kn, "", 0, R + i * d), 0);
		for (size_t b = 0; b < 4; b++)
			for (int nt = 1; nt <= 3; nt += 2) {
				struct emb_clf_opts o;
				struct emb_clf *c;
				unsigned k = ks[b] < NR ? (unsigned)ks[b] : NR;

				emb_clf_defaults(&o, EMB_CLF_KNN);
				o.k = ks[b];
				o.threads = nt;
				o.parmin = 0;
				ck_assert_int_eq(emb_clf_fit(&c, &o, R, NR, d,
				    yr, KC, NULL, 0, NULL), 0);
				ck_assert_int_eq(emb_clf_predict(c, Q, NQ, p),
				    0);
				ck_assert_int_eq(emb_knn_search(kn, Q, NQ, d,
				    k, NULL, NULL, 1, h, NULL), 0);
				for (size_t i = 0; i < NQ; i++) {
					int v[KC] = { 0 }, best = 0;

					for (unsigned t = 0; t < k; t++)
						v[yr[h[i * k + t].ref]]++;
					for (int t = 1; t < KC; t++)
						if (v[t] > v[best])
							best = t;
					ck_assert_msg(p[i] == best,
					    "d %zu k %u: query %zu", d, k, i);
				}
				emb_clf_free(c);
			}
		emb_knn_free(kn);
		free(R);
		free(Q);
		free(p);
		free(h);
	}
}
END_TEST

/*
 * emb_sgemm_blis on A (m x k) and B (k x n) rounded to float against the
 * twin's double product of the same floats, within float's rounding.
 */
static void
sgemm_check(int ta, int tb, size_t m, size_t n, size_t k, const double *A,
    const double *B)
{
	float *Af = malloc((m * k + 1) * sizeof(float));
	float *Bf = malloc((k * n + 1) * sizeof(float));
	float *Cf = malloc((m * n + 1) * sizeof(float));
	double *Ad = malloc((m * k + 1) * sizeof(double));
	double *Bd = malloc((k * n + 1) * sizeof(double));
	double *Cd = malloc((m * n + 1) * sizeof(double));
	double res = 0, nrm = 0;

	for (size_t i = 0; i < m * k; i++)
		Ad[i] = Af[i] = (float)A[i];
	for (size_t i = 0; i < k * n; i++)
		Bd[i] = Bf[i] = (float)B[i];
	for (size_t i = 0; i < m * n; i++)
		Cd[i] = Cf[i] = (float)(i % 7) / 8;
	emb_sgemm_blis(ta, tb, m, n, k, 1.5f, Af, ta ? m : k, Bf, tb ? k : n,
	    0.5f, Cf, n);
	emb_dgemm_ref(ta, tb, m, n, k, 1.5, Ad, ta ? m : k, Bd, tb ? k : n,
	    0.5, Cd, n);
	for (size_t i = 0; i < m * n; i++) {
		res = fmax(res, fabs(Cf[i] - Cd[i]));
		nrm = fmax(nrm, fabs(Cd[i]));
	}
	ck_assert_msg(res <= 1e-6 * (double)k * (1 + nrm),
	    "sgemm %zux%zux%zu: residual %g", m, n, k, res);
	free(Af);
	free(Bf);
	free(Cf);
	free(Ad);
	free(Bd);
	free(Cd);
}

/* The BLIS product against its twin, over awkward sizes. */
START_TEST(test_dgemm)
{
	static const size_t sz[] = { 1, 2, 7, 8, 255, 256, 257 };
	struct emb_rng g;

	emb_rng_seed(&g, 3);
	for (size_t a = 0; a < 7; a++)
		for (size_t b = 0; b < 7; b += 3)
			for (int tr = 0; tr < 4; tr++) {
				size_t m = sz[a], n = sz[b], k = sz[(a + b) % 7];
				double *A = malloc(m * k * sizeof(double));
				double *B = malloc(k * n * sizeof(double));
				double *C1 = malloc(m * n * sizeof(double));
				double *C2 = malloc(m * n * sizeof(double));
				int ta = tr & 1, tb = tr >> 1;
				double nrm = 0, res = 0;

				for (size_t i = 0; i < m * k; i++)
					A[i] = emb_rng_unif(&g) - 0.5;
				for (size_t i = 0; i < k * n; i++)
					B[i] = emb_rng_unif(&g) - 0.5;
				for (size_t i = 0; i < m * n; i++)
					C1[i] = C2[i] = emb_rng_unif(&g);
				emb_dgemm_blis(ta, tb, m, n, k, 1.5,
				    A, ta ? m : k, B, tb ? k : n, 0.5, C1, n);
				emb_dgemm_ref(ta, tb, m, n, k, 1.5,
				    A, ta ? m : k, B, tb ? k : n, 0.5, C2, n);
				for (size_t i = 0; i < m * n; i++) {
					res = fmax(res, fabs(C1[i] - C2[i]));
					nrm = fmax(nrm, fabs(C2[i]));
				}
				ck_assert_msg(res <= 1e-13 * (double)k *
				    (1 + nrm), "%zux%zux%zu: residual %g", m,
				    n, k, res);
				/* Single precision, from the same values. */
				sgemm_check(ta, tb, m, n, k, A, B);
				free(A);
				free(B);
				free(C1);
				free(C2);
			}
}
END_TEST

/*
 * The recursive Cholesky factorization against its plain-loop twin, over
 * sizes around its block size: L equal within rounding, L L' = A, the
 * strict upper triangle untouched; a matrix that is not positive definite
 * refused by both.
 */
START_TEST(test_dchol)
{
	static const size_t sz[] = { 1, 2, 31, 32, 33, 64, 100, 257 };
	struct emb_rng g;

	emb_rng_seed(&g, 5);
	for (size_t t = 0; t < sizeof(sz) / sizeof(sz[0]); t++) {
		size_t n = sz[t], ld = n + 3;
		double *B = malloc(n * n * sizeof(double));
		double *A = malloc(n * ld * sizeof(double));
		double *L1 = malloc(n * ld * sizeof(double));
		double *L2 = malloc(n * ld * sizeof(double));
		double res = 0, rec = 0;

		for (size_t i = 0; i < n * n; i++)
			B[i] = emb_rng_unif(&g) - 0.5;
		/* A = B B' + I below the diagonal, 7 above it. */
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < ld; j++) {
				double s = i == j;

				for (size_t k = 0; j <= i && k < n; k++)
					s += B[i * n + k] * B[j * n + k];
				A[i * ld + j] = j <= i ? s : 7;
			}
		memcpy(L1, A, n * ld * sizeof(double));
		memcpy(L2, A, n * ld * sizeof(double));
		ck_assert_int_eq(emb_dchol_blis(n, L1, ld), 0);
		ck_assert_int_eq(emb_dchol_ref(n, L2, ld), 0);
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < ld; j++) {
				double s = 0;

				if (j > i) {
					ck_assert(L1[i * ld + j] == 7);
					continue;
				}
				res = fmax(res, fabs(L1[i * ld + j] -
				    L2[i * ld + j]));
				for (size_t k = 0; k <= j; k++)
					s += L1[i * ld + k] * L1[j * ld + k];
				rec = fmax(rec, fabs(s - A[i * ld + j]));
			}
		ck_assert_msg(res <= 1e-12 * (double)n, "%zu: L differs by %g",
		    n, res);
		ck_assert_msg(rec <= 1e-12 * (double)n, "%zu: L L' - A %g", n,
		    rec);
		/* Not positive definite: a pivot past the first block. */
		memcpy(L1, A, n * ld * sizeof(double));
		memcpy(L2, A, n * ld * sizeof(double));
		L1[(n - 1) * ld + n - 1] = L2[(n - 1) * ld + n - 1] = -1;
		ck_assert_int_eq(emb_dchol_blis(n, L1, ld), EMB_ENOSOL);
		ck_assert_int_eq(emb_dchol_ref(n, L2, ld), EMB_ENOSOL);
		free(B);
		free(A);
		free(L1);
		free(L2);
	}
}
END_TEST

/*
 * Threads change who computes, not what: every classifier predicts the
 * same classes and the linear ones the same scores, bit for bit, on 1 and
 * 3 threads, with enough rows for several lanes of every parallel step.
 */
#define TN	1300
#define TD	20

START_TEST(test_threads)
{
	float *Xt = malloc(TN * TD * sizeof(float));
	int *y = malloc(TN * sizeof(int)), p1[TN], p3[TN];
	double *S1 = malloc(TN * K * sizeof(double));
	double *S3 = malloc(TN * K * sizeof(double));
	struct emb_rng g;

	emb_rng_seed(&g, 11);
	for (int i = 0; i < TN; i++) {
		y[i] = i % K;
		for (int j = 0; j < TD; j++)
			Xt[i * TD + j] = (float)((j % K == y[i]) +
			    2 * (emb_rng_unif(&g) - 0.5));
	}
	for (int kind = EMB_CLF_KNN; kind <= EMB_CLF_LOGREG; kind++) {
		struct emb_clf_opts o;
		struct emb_clf *c1, *c3;

		emb_clf_defaults(&o, kind);
		o.parmin = 0;	/* threads however small the step */
		o.threads = 1;
		ck_assert_int_eq(emb_clf_fit(&c1, &o, Xt, TN, TD, y, K, NULL, 0,
		    NULL), 0);
		o.threads = 3;
		ck_assert_int_eq(emb_clf_fit(&c3, &o, Xt, TN, TD, y, K, NULL, 0,
		    NULL), 0);
		ck_assert_int_eq(emb_clf_predict(c1, Xt, TN, p1), 0);
		ck_assert_int_eq(emb_clf_predict(c3, Xt, TN, p3), 0);
		ck_assert_msg(memcmp(p1, p3, sizeof(p1)) == 0, "kind %d", kind);
		if (kind != EMB_CLF_KNN) {
			ck_assert_int_eq(emb_clf_scores(c1, Xt, TN, S1), 0);
			ck_assert_int_eq(emb_clf_scores(c3, Xt, TN, S3), 0);
			ck_assert_msg(memcmp(S1, S3, TN * K * sizeof(double)) ==
			    0, "kind %d: scores", kind);
		}
		emb_clf_free(c1);
		emb_clf_free(c3);
	}
	free(Xt);
	free(y);
	free(S1);
	free(S3);
}
END_TEST

/*
 * Adam's step: emb_adam (eight at a time where there is AVX) gives the
 * bits of its plain twin for every length and tail, and the twin follows
 * the formula of torch.optim.Adam (checked in double for a few steps).
 */
START_TEST(test_adam)
{
	static const size_t len[] = { 1, 7, 8, 9, 17, 1003 };
	struct emb_adam a;
	struct emb_rng g;
	double b1t = 1, b2t = 1;

	emb_rng_seed(&g, 5);
	a.l2 = 1e-3f;
	a.b1 = 0.9f;
	a.c1 = (float)(1 - 0.9);
	a.b2 = 0.999f;
	a.c2 = (float)(1 - 0.999);
	a.eps = 1e-8f;
	for (size_t l = 0; l < sizeof(len) / sizeof(len[0]); l++) {
		size_t n = len[l];
		float *v = calloc(8 * n, sizeof(float));
		float *P1 = v, *M1 = v + n, *V1 = v + 2 * n, *P2 = v + 3 * n;
		float *M2 = v + 4 * n, *V2 = v + 5 * n, *G = v + 6 * n;
		double p = 0, m = 0, s = 0;

		for (size_t j = 0; j < n; j++)
			P1[j] = P2[j] = (float)(emb_rng_unif(&g) - 0.5);
		p = P1[n - 1];
		b1t = b2t = 1;
		for (int t = 0; t < 5; t++) {
			double gd;

			for (size_t j = 0; j < n; j++)
				G[j] = (float)(emb_rng_unif(&g) - 0.5) *
				    (t == 2 ? 0 : 1);
			b1t *= 0.9;
			b2t *= 0.999;
			a.step = (float)(1e-3 / (1 - b1t));
			a.sq2 = (float)sqrt(1 - b2t);
			emb_adam(P1, G, M1, V1, n, &a);
			emb_adam_ref(P2, G, M2, V2, n, &a);
			/* P, M, V of each side lie end to end. */
			ck_assert_msg(memcmp(P1, P2, 3 * n * sizeof(float)) ==
			    0, "length %zu, step %d", n, t);
			gd = G[n - 1] + 1e-3 * p;
			m = 0.9 * m + 0.1 * gd;
			s = 0.999 * s + 0.001 * gd * gd;
			p -= 1e-3 / (1 - b1t) * m / (sqrt(s) / sqrt(1 - b2t) +
			    1e-8);
			ck_assert_msg(fabs(P1[n - 1] - p) <= 1e-6, "length "
			    "%zu, step %d: %g, want %g", n, t, P1[n - 1], p);
		}
		free(v);
	}
}
END_TEST

/*
 * The perceptron against an independent numpy implementation of the
 * training described in emb-eval(1) (splitmix64 draws for the held-out
 * rows, the initial weights, each pass's order and the dropout masks; the
 * batch's mean cross-entropy; Adam with weight decay; SentEval's early
 * stopping), tests/data/mlp-ref.py, run on the data above with seed 1111,
 * tenacity 5, epoch size 4, and:
 *   S_mlp       nhid 5, valfrac 0.25, max_epoch 60, batch 64, l2 1e-4;
 *   S_mlp_drop  the same with dropout 0.2, batch 8, l2 1e-3;
 * S_* are the output scores (logits) of the first four test rows.  The
 * perceptron trains in float (as PyTorch does), the reference in double:
 * they agree to 2e-7 here, and the threshold is float's, 1e-6.
 */
/* mlp: 28 passes */
static const double S_mlp[] = {
	-0.4514790854, -0.473944202163, 0.113848359493,
	-0.516272701448, -0.420029439777, 0.123289843472,
	-0.88567846691, -0.191416728508, 0.204253383769,
	-0.961146241232, -0.36456951022, 0.148515654308,
};
/* mlp_drop: 32 passes */
static const double S_mlp_drop[] = {
	-0.365004922106, -0.446248463033, 0.0100127210251,
	-0.430870549121, -0.369864058344, 0.0106140762383,
	-0.799207765034, -0.0384360383805, 0.0389136049113,
	-0.845175801684, -0.270617527735, -0.0219179142865,
};

START_TEST(test_mlp_reference)
{
	struct emb_clf_opts o;
	struct emb_clf *c;
	double S[4 * K];

	for (int v = 0; v < 2; v++) {
		const double *want = v ? S_mlp_drop : S_mlp;

		emb_clf_defaults(&o, EMB_CLF_MLP);
		o.nhid = 5;
		o.valfrac = 0.25;
		o.max_epoch = 60;
		if (v) {
			o.dropout = 0.2;
			o.batch = 8;
			o.l2 = 1e-3;
		}
		ck_assert_int_eq(emb_clf_fit(&c, &o, X, N, D, Y, K, NULL, 0,
		    NULL), 0);
		ck_assert_int_eq(emb_clf_iters(c), v ? 32 : 28);
		ck_assert_int_eq(emb_clf_nscores(c), K);
		ck_assert_int_eq(emb_clf_scores(c, T, 4, S), 0);
		for (int i = 0; i < 4 * K; i++)
			ck_assert_msg(fabs(S[i] - want[i]) <= 1e-6,
			    "score %d: %.12g, want %.12g", i, S[i], want[i]);
		emb_clf_free(c);
	}
}
END_TEST

/*
 * The perceptron: separable data is learnt, the same seed gives the same
 * model, a given dev set is used, nhid 0 is the linear model.
 */
START_TEST(test_mlp)
{
	struct emb_clf_opts o;
	struct emb_clf *c;
	int p1[M], p2[M], p3[M], ok = 0;

	emb_clf_defaults(&o, EMB_CLF_MLP);
	o.nhid = 8;
	o.max_epoch = 100;
	ck_assert_int_eq(emb_clf_fit(&c, &o, X, N, D, Y, K, NULL, 0, NULL), 0);
	ck_assert_int_eq(emb_clf_predict(c, X, M, p1), 0);
	ck_assert(emb_clf_iters(c) > 0);
	emb_clf_free(c);
	ck_assert_int_eq(emb_clf_fit(&c, &o, X, N, D, Y, K, NULL, 0, NULL), 0);
	ck_assert_int_eq(emb_clf_predict(c, X, M, p2), 0);
	emb_clf_free(c);
	ck_assert(memcmp(p1, p2, sizeof(p1)) == 0);
	/* Dropout and a dev set: still deterministic, still learns. */
	o.dropout = 0.1;
	o.nhid = 16;
	o.max_epoch = 400;
	o.tenacity = 20;
	ck_assert_int_eq(emb_clf_fit(&c, &o, X, N, D, Y, K, X, N, Y), 0);
	ck_assert_int_eq(emb_clf_predict(c, X, N > M ? M : N, p3), 0);
	emb_clf_free(c);
	for (int i = 0; i < M; i++)
		ok += p3[i] == Y[i];
	ck_assert_msg(ok >= M * 3 / 4, "%d of %d training rows right", ok, M);
	o.nhid = 0;
	o.dropout = 0;
	ck_assert_int_eq(emb_clf_fit(&c, &o, X, N, D, Y, K, NULL, 0, NULL), 0);
	ck_assert_int_eq(emb_clf_predict(c, T, M, p1), 0);
	ck_assert_int_eq(emb_clf_nscores(c), K);
	emb_clf_free(c);
}
END_TEST

START_TEST(test_errors)
{
	struct emb_clf_opts o;
	struct emb_clf *c;
	int bad[N];

	memcpy(bad, Y, sizeof(bad));
	bad[5] = K;
	emb_clf_defaults(&o, EMB_CLF_RIDGE);
	ck_assert_int_eq(emb_clf_fit(&c, &o, X, N, D, bad, K, NULL, 0, NULL),
	    EMB_EINVAL);
	ck_assert_ptr_null(c);
	ck_assert_int_eq(emb_clf_fit(&c, &o, X, 0, D, Y, K, NULL, 0, NULL),
	    EMB_EEMPTY);
	emb_clf_defaults(&o, EMB_CLF_KNN);
	o.k = 0;
	ck_assert_int_eq(emb_clf_fit(&c, &o, X, N, D, Y, K, NULL, 0, NULL),
	    EMB_EINVAL);
	emb_clf_defaults(&o, EMB_CLF_LDA);
	o.shrinkage = 1.5;
	ck_assert_int_eq(emb_clf_fit(&c, &o, X, N, D, Y, K, NULL, 0, NULL),
	    EMB_EINVAL);
	emb_clf_defaults(&o, EMB_CLF_LOGREG);
	o.C = 0;
	ck_assert_int_eq(emb_clf_fit(&c, &o, X, N, D, Y, K, NULL, 0, NULL),
	    EMB_EINVAL);
	emb_clf_defaults(&o, EMB_CLF_CENTROID);
	ck_assert_int_eq(emb_clf_fit(&c, &o, X, N, D, Y, K, NULL, 0, NULL), 0);
	ck_assert_int_eq(emb_clf_predict(c, X, 0, bad), 0);
	emb_clf_free(c);
	emb_clf_free(NULL);
	{
		/* kNN has no scores. */
		double S[K];

		emb_clf_defaults(&o, EMB_CLF_KNN);
		ck_assert_int_eq(emb_clf_fit(&c, &o, X, N, D, Y, K, NULL, 0,
		    NULL), 0);
		ck_assert_int_eq(emb_clf_scores(c, X, 1, S), EMB_EINVAL);
		emb_clf_free(c);
	}
}
END_TEST

/*
 * A singular covariance (a constant feature, no shrinkage) takes the
 * least-squares path, as scipy.linalg.lstsq in scikit-learn: the
 * prediction still follows the informative feature.
 */
START_TEST(test_lda_singular)
{
	static const float Xs[] = { 0, 1, 1, 1, 2, 1, 10, 1, 11, 1, 12, 1 };
	static const float Qs[] = { 0.5f, 1, 11.5f, 1 };
	static const int ys[] = { 0, 0, 0, 1, 1, 1 };
	struct emb_clf *c = fitd(EMB_CLF_LDA, EMB_SHRINK_NONE, Xs, 6, 2, ys,
	    2);
	int p[2];

	ck_assert_int_eq(emb_clf_predict(c, Qs, 2, p), 0);
	ck_assert_int_eq(p[0], 0);
	ck_assert_int_eq(p[1], 1);
	emb_clf_free(c);
}
END_TEST

/*
 * LDA and ridge in the n x n dual against the d x d primal, on fewer rows
 * than dimensions: the same decision values up to rounding.  Without
 * shrinkage or penalty both take the minimum-norm solution; the rows then
 * span only the first 5 of the 30 dimensions, so that the primal's
 * singular matrix is singular exactly and its least-squares path sees
 * exact zeros.
 */
#define DN	10
#define DD	30
#define DM	6

static float
lcg(uint32_t *st)
{
	*st = *st * 1664525u + 1013904223u;
	return (float)((*st >> 8) & 0xffff) / 65536.0f - 0.5f;
}

static void
dualcase(enum emb_clf_kind kind, double param, int ncls, int sub)
{
	float Xd[DN * DD], Td[DM * DD];
	int yd[DN], p1[DM], p2[DM];
	double S1[DM * 3], S2[DM * 3];
	struct emb_clf_opts o;
	struct emb_clf *c1, *c2;
	uint32_t st = 12345;
	int ns;

	for (int i = 0; i < DN * DD; i++)
		Xd[i] = sub && i % DD >= 5 ? 0 : lcg(&st) + (i / DD % ncls ==
		    i % DD % ncls);
	for (int i = 0; i < DM * DD; i++)
		Td[i] = lcg(&st) * 2;
	for (int i = 0; i < DN; i++)
		yd[i] = i % ncls;
	emb_clf_defaults(&o, kind);
	if (kind == EMB_CLF_LDA)
		o.shrinkage = param;
	else
		o.alpha = param;
	o.dual = -1;
	ck_assert_int_eq(emb_clf_fit(&c1, &o, Xd, DN, DD, yd, ncls, NULL, 0,
	    NULL), 0);
	o.dual = 1;
	ck_assert_int_eq(emb_clf_fit(&c2, &o, Xd, DN, DD, yd, ncls, NULL, 0,
	    NULL), 0);
	ns = emb_clf_nscores(c1);
	ck_assert_int_eq(emb_clf_nscores(c2), ns);
	ck_assert_int_eq(emb_clf_scores(c1, Td, DM, S1), 0);
	ck_assert_int_eq(emb_clf_scores(c2, Td, DM, S2), 0);
	for (int i = 0; i < DM * ns; i++)
		ck_assert_msg(fabs(S1[i] - S2[i]) <= 1e-8 * (1 + fabs(S1[i])),
		    "kind %d param %g: score %d: primal %.12g, dual %.12g",
		    (int)kind, param, i, S1[i], S2[i]);
	ck_assert_int_eq(emb_clf_predict(c1, Td, DM, p1), 0);
	ck_assert_int_eq(emb_clf_predict(c2, Td, DM, p2), 0);
	for (int i = 0; i < DM; i++)
		ck_assert_int_eq(p1[i], p2[i]);
	emb_clf_free(c1);
	emb_clf_free(c2);
}

START_TEST(test_dual)
{
	for (int ncls = 2; ncls <= 3; ncls++) {
		dualcase(EMB_CLF_RIDGE, 1, ncls, 0);
		dualcase(EMB_CLF_RIDGE, 10, ncls, 0);
		dualcase(EMB_CLF_RIDGE, 0, ncls, 1);
		dualcase(EMB_CLF_LDA, 0.5, ncls, 0);
		dualcase(EMB_CLF_LDA, 1, ncls, 0);
		dualcase(EMB_CLF_LDA, EMB_SHRINK_AUTO, ncls, 0);
		dualcase(EMB_CLF_LDA, EMB_SHRINK_AUTO, ncls, 1);
		dualcase(EMB_CLF_LDA, EMB_SHRINK_NONE, ncls, 1);
	}
}
END_TEST

/*
 * LDA without shrinkage on d <= n < d + K rows: the within-class scatter
 * has rank n - K < d, so the default fit takes the dual's pseudo-inverse
 * (scores of moderate size on the training rows), never a Cholesky of
 * the singular primal.
 */
START_TEST(test_lda_rank)
{
	enum { RN = 50, RD = 50, RQ = 4 };
	float Xr[RN * RD];
	int yr[RN];
	double S1[RQ], S2[RQ];
	struct emb_clf_opts o;
	struct emb_clf *c1, *c2;
	uint32_t st = 777;

	for (int i = 0; i < RN * RD; i++)
		Xr[i] = lcg(&st) + (i / RD % 2 == i % RD % 2);
	for (int i = 0; i < RN; i++)
		yr[i] = i % 2;
	emb_clf_defaults(&o, EMB_CLF_LDA);
	o.shrinkage = EMB_SHRINK_NONE;
	ck_assert_int_eq(emb_clf_fit(&c1, &o, Xr, RN, RD, yr, 2, NULL, 0, NULL),
	    0);
	o.dual = 1;
	ck_assert_int_eq(emb_clf_fit(&c2, &o, Xr, RN, RD, yr, 2, NULL, 0, NULL),
	    0);
	ck_assert_int_eq(emb_clf_scores(c1, Xr, RQ, S1), 0);
	ck_assert_int_eq(emb_clf_scores(c2, Xr, RQ, S2), 0);
	for (int i = 0; i < RQ; i++) {
		ck_assert_msg(fabs(S1[i]) < 1e6, "score %d: %g", i, S1[i]);
		ck_assert_msg(fabs(S1[i] - S2[i]) <= 1e-8 * (1 + fabs(S2[i])),
		    "score %d: default %.12g, dual %.12g", i, S1[i], S2[i]);
	}
	emb_clf_free(c1);
	emb_clf_free(c2);
}
END_TEST

/*
 * One class in the training rows: every kind predicts it, whatever ncls
 * says; a class absent from training is never predicted.
 */
START_TEST(test_one_class)
{
	static const int only[] = { 2, 2, 2, 2, 2, 2 };
	struct emb_clf_opts o;
	struct emb_clf *c;
	int pred[M];
	double S[K];

	for (int kind = EMB_CLF_KNN; kind <= EMB_CLF_MLP; kind++) {
		for (int ncls = 3; ncls >= 1; ncls -= 2) {
			int want = ncls == 3 ? 2 : 0;
			int ys[6];

			for (int i = 0; i < 6; i++)
				ys[i] = ncls == 3 ? only[i] : 0;
			emb_clf_defaults(&o, (enum emb_clf_kind)kind);
			ck_assert_int_eq(emb_clf_fit(&c, &o, X, 6, D, ys, ncls,
			    NULL, 0, NULL), 0);
			ck_assert_int_eq(emb_clf_predict(c, T, M, pred), 0);
			for (int i = 0; i < M; i++)
				ck_assert_msg(pred[i] == want, "kind %d, "
				    "%d classes: row %d: %d", kind, ncls, i,
				    pred[i]);
			ck_assert_int_eq(emb_clf_nscores(c), 0);
			ck_assert_int_eq(emb_clf_scores(c, T, 1, S),
			    EMB_EINVAL);
			emb_clf_free(c);
		}
	}
	/* Classes 0 and 2 of three: class 1 never wins. */
	for (int kind = EMB_CLF_KNN; kind <= EMB_CLF_MLP; kind++) {
		int ys[N];
		size_t m = 0;
		float Xs[N * D];

		for (int i = 0; i < N; i++)
			if (Y[i] != 1) {
				memcpy(Xs + m * D, X + i * D, sizeof(float) *
				    D);
				ys[m++] = Y[i];
			}
		emb_clf_defaults(&o, (enum emb_clf_kind)kind);
		ck_assert_int_eq(emb_clf_fit(&c, &o, Xs, m, D, ys, K, NULL, 0,
		    NULL), 0);
		ck_assert_int_eq(emb_clf_predict(c, T, M, pred), 0);
		for (int i = 0; i < M; i++)
			ck_assert_msg(pred[i] != 1, "kind %d: row %d", kind,
			    i);
		emb_clf_free(c);
	}
}
END_TEST

static Suite *
classify_suite(void)
{
	Suite *s = suite_create("classify");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sklearn);
	tcase_add_test(tc, test_sklearn_binary);
	tcase_add_test(tc, test_centroid_hand);
	tcase_add_test(tc, test_knn_hand);
	tcase_add_test(tc, test_knn_engine);
	tcase_add_test(tc, test_dgemm);
	tcase_add_test(tc, test_dchol);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_mlp);
	tcase_add_test(tc, test_adam);
	tcase_add_test(tc, test_mlp_reference);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_lda_singular);
	tcase_add_test(tc, test_dual);
	tcase_add_test(tc, test_lda_rank);
	tcase_add_test(tc, test_one_class);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(classify_suite)
