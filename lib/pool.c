/*
 * pool.c - groups and pooling.
 *
 * emb_group_read gathers one group (a GROUP record and its members, or a
 * lone VEC record) into reusable buffers, so that a composition filter
 * sees a group as a matrix.  emb_pool turns such a matrix into one vector:
 * the arithmetic mean (the paper's BOV), the mean of unit vectors
 * (fastText's sentence vector), weighted means (SIF), and max/min pooling.
 */
#include "emb.h"
#include "int.h"
#include "vec.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Room for n member rows in g. */
static int
vroom(struct emb_group *g, size_t n)
{
	size_t cap, sz;
	float *nv;

	if (n <= g->vcap)
		return 0;
	cap = (n + 7) & ~(size_t)7;
	if (g->vcap > 0 && cap < 2 * g->vcap)
		cap = 2 * g->vcap;
	if (emb_mul(cap, (size_t)g->dim * sizeof(float), &sz) < 0)
		return EMB_ELIMIT;
	if ((nv = emb_alloc(sz)) == NULL)
		return EMB_ENOMEM;
	if (g->nmemb > 0)
		memcpy(nv, g->v, (size_t)g->nmemb * g->dim * sizeof(float));
	emb_free(g->v);
	g->v = nv;
	g->vcap = cap;
	if (g->moff != NULL || n > 0) {
		size_t *no = realloc(g->moff, (cap + 1) * sizeof(size_t));

		if (no == NULL)
			return EMB_ENOMEM;
		g->moff = no;
	}
	return 0;
}

/* Append len bytes and a NUL to a growing byte buffer. */
static int
bytes(char **buf, size_t *cap, size_t at, const char *p, size_t len)
{
	if (at + len + 1 > *cap) {
		size_t nc = *cap ? *cap : 256;
		char *nb;

		while (nc < at + len + 1)
			nc *= 2;
		if ((nb = realloc(*buf, nc)) == NULL)
			return EMB_ENOMEM;
		*buf = nb;
		*cap = nc;
	}
	memcpy(*buf + at, p, len);
	(*buf)[at + len] = '\0';
	return 0;
}

/*
 * Add the VEC record rec as the next member of g; its vector is in place
 * already when rec->vec points there (emb_reader_next_into).
 */
static int
addmemb(struct emb_group *g, const struct emb_rec *rec, int keepkeys)
{
	float *at;
	int rc;

	if ((rc = vroom(g, (size_t)g->nmemb + 1)) < 0)
		return rc;
	at = g->v + (size_t)g->nmemb * g->dim;
	if (rec->vec != at)
		memcpy(at, rec->vec, g->dim * sizeof(float));
	if (keepkeys) {
		if ((rc = bytes(&g->mkey, &g->mkeycap, g->mkeylen, rec->key,
		    rec->keylen)) < 0)
			return rc;
		g->moff[g->nmemb] = g->mkeylen;
		g->mkeylen += rec->keylen + 1;
		g->moff[g->nmemb + 1] = g->mkeylen;
	}
	g->nmemb++;
	return 0;
}

int
emb_group_read(struct emb_reader *r, struct emb_group *g, int keepkeys)
{
	struct emb_rec rec;
	size_t pre;
	int rc;

	g->dim = emb_reader_dim(r);
	g->nmemb = 0;
	g->mkeylen = 0;
	if ((rc = emb_reader_next(r, &rec)) <= 0)
		return rc;
	if ((rc = bytes(&g->key, &g->keycap, 0, rec.key, rec.keylen)) < 0)
		return rc;
	g->keylen = rec.keylen;
	g->recno = rec.recno;
	if ((rc = vroom(g, 1)) < 0)
		return rc;
	if (g->moff != NULL)
		g->moff[0] = 0;
	if (rec.type == EMB_REC_VEC) {
		g->lone = 1;
		return (rc = addmemb(g, &rec, keepkeys)) < 0 ? rc : 1;
	}
	g->lone = 0;
	/*
	 * Room for the declared members, up to 1 MiB of vectors: the input
	 * may lie, and what it only declares must cost nothing.
	 */
	pre = ((size_t)1 << 20) / ((size_t)g->dim * sizeof(float));
	if ((rc = vroom(g, rec.nmemb < pre ? rec.nmemb : pre)) < 0)
		return rc;
	for (uint32_t n = rec.nmemb, i = 0; i < n; i++) {
		/* Straight into the member's row, when there is room. */
		if ((rc = vroom(g, (size_t)g->nmemb + 1)) < 0 ||
		    (rc = emb_reader_next_into(r, &rec, g->v +
		    (size_t)g->nmemb * g->dim)) <= 0)
			return rc < 0 ? rc : EMB_ETRUNC;
		if ((rc = addmemb(g, &rec, keepkeys)) < 0)
			return rc;
	}
	return 1;
}

const char *
emb_group_mkey(const struct emb_group *g, uint32_t i, size_t *len)
{
	*len = g->moff[i + 1] - g->moff[i] - 1;
	return g->mkey + g->moff[i];
}

void
emb_group_free(struct emb_group *g)
{
	if (g == NULL)
		return;
	free(g->key);
	emb_free(g->v);
	free(g->mkey);
	free(g->moff);
	memset(g, 0, sizeof(*g));
}

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
emb_unit_to(const float *x, float *y, uint32_t dim)
{
	double q = sumsqf(x, dim);

	if (q == 0) {
		if (y != x)
			memcpy(y, x, (size_t)dim * sizeof(*y));
		return 0;
	}
	scalefl(x, y, 1 / sqrt(q), dim);
	return 1;
}

int
emb_unit(float *v, uint32_t dim)
{
	return emb_unit_to(v, v, dim);
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
