/*
 * metrics.c - what emb-eval reports: the confusion matrix, accuracy and
 * macro-F1 of a classification, Pearson's and Spearman's correlations
 * (average ranks for ties) of a similarity task; and the one place that
 * says what "the 95% interval" of a set of resampled figures is
 * (emb_interval: order statistics, or numpy's linear quantiles).
 *
 * Definitions follow scikit-learn and scipy, so that a figure can be
 * checked against them: f1_score(average="macro") counts the classes seen
 * in the truth or the predictions; rankdata(method="average") gives tied
 * values the mean of their ranks.
 */
#include "eval/emb-eval.h"
#include "eval/ref-eval.h"

#include <math.h>
#include <stdlib.h>

int
emb_confusion(const int *truth, const int *pred, size_t n, int ncls,
    uint64_t *conf)
{
	for (size_t i = 0; i < n; i++) {
		if (truth[i] < 0 || truth[i] >= ncls || pred[i] < 0 ||
		    pred[i] >= ncls)
			return EMB_EINVAL;
		conf[(size_t)truth[i] * ncls + pred[i]]++;
	}
	return 0;
}

double
emb_accuracy(const uint64_t *conf, int ncls)
{
	uint64_t all = 0, diag = 0;

	for (int i = 0; i < ncls; i++)
		for (int j = 0; j < ncls; j++) {
			all += conf[(size_t)i * ncls + j];
			if (i == j)
				diag += conf[(size_t)i * ncls + j];
		}
	return all ? (double)diag / (double)all : 0.0;
}

double
emb_macro_f1(const uint64_t *conf, int ncls)
{
	double sum = 0;
	int seen = 0;

	for (int c = 0; c < ncls; c++) {
		uint64_t tp = conf[(size_t)c * ncls + c], row = 0, col = 0;

		for (int j = 0; j < ncls; j++) {
			row += conf[(size_t)c * ncls + j];
			col += conf[(size_t)j * ncls + c];
		}
		if (row == 0 && col == 0)
			continue;
		seen++;
		/* F1 = 2 tp / (2 tp + fp + fn) = 2 tp / (row + col). */
		if (tp > 0)
			sum += 2.0 * (double)tp / (double)(row + col);
	}
	return seen ? sum / seen : 0.0;
}

/* Sort context for emb_rank: qsort has no user pointer. */
struct rankent {
	double	 v;		/* value */
	size_t	 i;		/* its position */
};

static int
rankcmp(const void *a, const void *b)
{
	const struct rankent *x = a, *y = b;

	if (x->v < y->v)
		return -1;
	if (x->v > y->v)
		return 1;
	return (x->i > y->i) - (x->i < y->i);
}

int
emb_rank(const double *x, size_t n, double *rank)
{
	struct rankent *e;
	size_t i, j;

	if (n == 0)
		return 0;
	if ((e = calloc(n, sizeof(*e))) == NULL)
		return EMB_ENOMEM;
	for (i = 0; i < n; i++) {
		e[i].v = x[i];
		e[i].i = i;
	}
	qsort(e, n, sizeof(*e), rankcmp);
	for (i = 0; i < n; i = j) {
		double avg;

		for (j = i + 1; j < n && e[j].v == e[i].v; j++)
			;
		/* Ranks i + 1 .. j, their mean. */
		avg = ((double)(i + 1) + (double)j) / 2.0;
		for (size_t t = i; t < j; t++)
			rank[e[t].i] = avg;
	}
	free(e);
	return 0;
}

/* The power of two that brings the largest |v[i]| into [0.5, 1). */
static int
scaleexp(const double *v, size_t n)
{
	double mx = 0;
	int e = 0;

	for (size_t i = 0; i < n; i++)
		if (fabs(v[i]) > mx)
			mx = fabs(v[i]);
	if (mx > 0)
		(void)frexp(mx, &e);
	return e;
}

/*
 * Two passes on x and y scaled by powers of two, so that no sum or square
 * overflows (gold scores near DBL_MAX) or underflows; the scaling is exact
 * and Pearson's r does not depend on it, so ordinary values give the bits
 * they would unscaled.
 */
int
emb_pearson(const double *x, const double *y, size_t n, double *r)
{
	double mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0, den;
	int ex, ey;

	if (n < 2)
		return EMB_EEMPTY;
	ex = scaleexp(x, n);
	ey = scaleexp(y, n);
	for (size_t i = 0; i < n; i++) {
		mx += ldexp(x[i], -ex);
		my += ldexp(y[i], -ey);
	}
	mx /= (double)n;
	my /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double dx = ldexp(x[i], -ex) - mx, dy = ldexp(y[i], -ey) - my;

		sxx += dx * dx;
		syy += dy * dy;
		sxy += dx * dy;
	}
	if (sxx == 0 || syy == 0)
		return EMB_EZERO;
	den = sqrt(sxx * syy);
	if (!(den > 0))		/* the product underflowed */
		den = sqrt(sxx) * sqrt(syy);
	*r = sxy / den;
	/* Rounding can step just outside [-1, 1]; scipy clips too. */
	if (*r > 1)
		*r = 1;
	if (*r < -1)
		*r = -1;
	return 0;
}

int
emb_spearman(const double *x, const double *y, size_t n, double *rho)
{
	double *rx, *ry;
	int rc;

	if (n < 2)
		return EMB_EEMPTY;
	rx = malloc(n * sizeof(*rx));
	ry = malloc(n * sizeof(*ry));
	if (rx == NULL || ry == NULL) {
		free(rx);
		free(ry);
		return EMB_ENOMEM;
	}
	if ((rc = emb_rank(x, n, rx)) == 0 && (rc = emb_rank(y, n, ry)) == 0)
		rc = emb_pearson(rx, ry, n, rho);
	free(rx);
	free(ry);
	return rc;
}

static int
dblcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of the sorted v[0..n-1], linear: v[h], h = (n - 1) q. */
static double
linquantile(const double *v, size_t n, double q)
{
	double h = (double)(n - 1) * q, f = floor(h);
	size_t i = (size_t)f;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - f) * (v[i + 1] - v[i]);
}

void
emb_interval(double *v, size_t n, double level, int method, double *lo,
    double *hi)
{
	size_t k;

	if (n == 0) {
		*lo = *hi = NAN;
		return;
	}
	qsort(v, n, sizeof(*v), dblcmp);
	if (method == EMB_IVL_LINEAR) {
		*lo = linquantile(v, n, (1 - level) / 2);
		*hi = linquantile(v, n, (1 + level) / 2);
		return;
	}
	k = (size_t)floor((1 - level) / 2 * (double)n);
	if (k >= n)
		k = n - 1;
	*lo = v[k];
	*hi = v[n - 1 - k];
}
