/*
 * pool.c - pooling.
 *
 * emb_pool turns a group read as a matrix (emb_group_read, stream.c) into
 * one vector: the arithmetic mean (the paper's BOV), the mean of unit
 * vectors (fastText's sentence vector), weighted means (SIF), and max/min
 * pooling.
 */
#include "num/emb-num.h"
#include "num/ref-num.h"
#include "base/vec.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* acc += s x, floats into doubles. */
KERN static void
accf(double *acc, const float *x, double s, size_t n)
{
	v4d a = { s, s, s, s };
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		st4(acc + i, ld4(acc + i) + a * ldf4(x + i));
		st4(acc + i + 4, ld4(acc + i + 4) + a * ldf4(x + i + 4));
	}
	for (; i < n; i++)
		acc[i] += s * x[i];
}

int
emb_pool_add(int how, const float *x, uint32_t dim, double w, double *acc,
    long used)
{
	switch (how) {
	case EMB_POOL_UNIT: {
		double q = sumsqf(x, dim);

		if (q == 0)
			return 0;
		w /= sqrt(q);
	}
		/* FALLTHROUGH */
	case EMB_POOL_MEAN:
		if (used == 0)
			memset(acc, 0, dim * sizeof(double));
		accf(acc, x, w, dim);
		return 1;
	case EMB_POOL_MAX:
	case EMB_POOL_MIN:
		if (used == 0) {
			for (uint32_t k = 0; k < dim; k++)
				acc[k] = x[k];
		} else if (how == EMB_POOL_MAX) {
			for (uint32_t k = 0; k < dim; k++)
				acc[k] = x[k] > acc[k] ? x[k] : acc[k];
		} else {
			for (uint32_t k = 0; k < dim; k++)
				acc[k] = x[k] < acc[k] ? x[k] : acc[k];
		}
		return 1;
	}
	return EMB_EINVAL;
}

void
emb_pool_end(int how, const double *acc, uint32_t dim, long used,
    float *out)
{
	double d = how == EMB_POOL_MEAN || how == EMB_POOL_UNIT ?
	    (double)used : 1;

	for (uint32_t k = 0; k < dim; k++)
		out[k] = used > 0 ? (float)(acc[k] / d) : 0;
}

long
emb_pool(int how, const float *v, size_t n, uint32_t dim, const double *wt,
    float *out, double *acc)
{
	long used = 0;

	if (how < EMB_POOL_MEAN || how > EMB_POOL_MIN)
		return EMB_EINVAL;
	for (size_t i = 0; i < n; i++)
		used += emb_pool_add(how, v + i * dim, dim, wt != NULL ?
		    wt[i] : 1, acc, used);
	emb_pool_end(how, acc, dim, used, out);
	return used;
}

long
emb_pool_ref(int how, const float *v, size_t n, uint32_t dim,
    const double *wt, float *out)
{
	long used = 0;

	if (how < EMB_POOL_MEAN || how > EMB_POOL_MIN)
		return EMB_EINVAL;
	for (uint32_t k = 0; k < dim; k++) {
		double s = 0, m = how == EMB_POOL_MAX ? -INFINITY : INFINITY;

		used = 0;
		for (size_t i = 0; i < n; i++) {
			double x = v[i * dim + k], q = 0;

			if (how == EMB_POOL_MAX || how == EMB_POOL_MIN) {
				if ((how == EMB_POOL_MAX) == (x > m) || i == 0)
					m = x;
				used++;
				continue;
			}
			if (how == EMB_POOL_UNIT) {
				for (uint32_t j = 0; j < dim; j++)
					q += (double)v[i * dim + j] *
					    v[i * dim + j];
				if (q == 0)
					continue;
				x /= sqrt(q);
			}
			s += (wt != NULL ? wt[i] : 1) * x;
			used++;
		}
		if (how == EMB_POOL_MAX || how == EMB_POOL_MIN)
			out[k] = n ? (float)m : 0;
		else
			out[k] = used ? (float)(s / used) : 0;
	}
	return used;
}
