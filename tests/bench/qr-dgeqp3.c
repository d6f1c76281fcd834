/*
 * qr-dgeqp3.c - the small-matrix QR kernels of libemb (lib/num/qr.h) beside
 * LAPACK on the same n x m matrices (Gaussian entries), one thread: each
 * of emb-ose's routes beside what it would be without it.
 *
 *	qr-dgeqp3 N RUNS M...
 *
 * For each m, two rows:
 *   pivoted  emb_dqrcp_vec (the general route, m <= 64) and dgeqp3;
 *   blocked  emb_dqrb_vec + emb_dqrb_apply_vec on one vector (the fast
 *            route, m + 4 <= n) and dgeqrf + dormqr on the same vector,
 *            and dgeqp3 beside them too;
 * each the median over RUNS runs of the time of one factorization
 * (microseconds; a run times enough factorizations of fresh copies to
 * last about 20 ms, the copy included on both sides), and the ratio
 * LAPACK / ours (above 1: ours is faster).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emb.h"
#include "base/rng.h"
#include "num/qr.h"
#include "base/lapack.h"

enum route { R_QRCP, R_DGEQP3, R_QRB, R_DGEQRF };

struct prob {
	int		 n, m, lwork;
	const double	*a0;		/* the matrix, kept */
	const float	*f0;		/* the same in float */
	double		*a, *tau, *work, *t, *b;
	int		*jpvt;
};

static int
cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static void
once(struct prob *p, enum route r)
{
	int info, one = 1;
	size_t sz = (size_t)p->n * p->m;

	switch (r) {
	case R_QRCP:
		memcpy(p->a, p->a0, sz * sizeof(double));
		emb_dqrcp_vec(p->a, p->n, p->m, 0, NULL, p->jpvt, p->tau);
		break;
	case R_DGEQP3:
		memcpy(p->a, p->a0, sz * sizeof(double));
		memset(p->jpvt, 0, p->m * sizeof(int));
		dgeqp3_(&p->n, &p->m, p->a, &p->n, p->jpvt, p->tau, p->work,
		    &p->lwork, &info);
		break;
	case R_QRB:	/* the members go to double in the first pass */
		emb_dqrb_vec(p->a, p->n, p->m, p->f0, p->tau, p->t);
		memset(p->b, 0, p->n * sizeof(double));
		p->b[0] = 1;
		emb_dqrb_apply_vec(p->a, p->n, p->m, p->tau, p->t, p->b);
		break;
	case R_DGEQRF:
		for (size_t i = 0; i < sz; i++)
			p->a[i] = p->f0[i];
		dgeqrf_(&p->n, &p->m, p->a, &p->n, p->tau, p->work, &p->lwork,
		    &info);
		memset(p->b, 0, p->n * sizeof(double));
		p->b[0] = 1;
		dormqr_("L", "N", &p->n, &one, &p->m, p->a, &p->n, p->tau,
		    p->b, &p->n, p->work, &p->lwork, &info);
		break;
	}
}

/* Median over runs of the microseconds one factorization takes. */
static double
timeit(struct prob *p, enum route r, int runs)
{
	double *t = malloc(runs * sizeof(double)), t0, med;
	long reps = 1;

	/* Enough repetitions for about 20 ms a run. */
	for (;;) {
		t0 = emb_now();
		for (long i = 0; i < reps; i++)
			once(p, r);
		if (emb_now() - t0 > 0.02 || reps > 1L << 24)
			break;
		reps *= 2;
	}
	for (int k = 0; k < runs; k++) {
		t0 = emb_now();
		for (long i = 0; i < reps; i++)
			once(p, r);
		t[k] = (emb_now() - t0) / reps * 1e6;
	}
	qsort(t, runs, sizeof(double), cmp);
	med = t[runs / 2];
	free(t);
	return med;
}

int
main(int argc, char *argv[])
{
	struct emb_rng g;
	int n, runs;

	if (argc < 4 || (n = atoi(argv[1])) < 1 || (runs = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: qr-dgeqp3 n runs m...\n");
		return 2;
	}
	emb_rng_seed(&g, 1);
	printf("%-8s %4s %4s %12s %12s %12s %8s\n", "route", "n", "m",
	    "ours us", "lapack us", "(dgeqp3 us)", "lapack/ours");
	for (int i = 3; i < argc; i++) {
		struct prob p = { 0 };
		int m = atoi(argv[i]), lw = -1, info;
		size_t sz;
		double q, *a0;
		float *f0;

		if (m < 1 || m > EMB_QR_SMALL)
			continue;
		sz = (size_t)n * m;
		p.n = n;
		p.m = m;
		a0 = emb_alloc(sz * sizeof(double));
		f0 = emb_alloc(sz * sizeof(float));
		/* Gaussian by Box-Muller, rounded to float as members are. */
		for (size_t k = 0; k < sz; k++) {
			double u = emb_rng_unif(&g), v = emb_rng_unif(&g);

			f0[k] = (float)(sqrt(-2 * log(1 - u)) *
			    cos(6.283185307179586 * v));
			a0[k] = f0[k];
		}
		p.a0 = a0;
		p.f0 = f0;
		p.a = emb_alloc(sz * sizeof(double));
		p.tau = malloc(m * sizeof(double));
		p.jpvt = malloc(m * sizeof(int));
		p.t = emb_alloc(EMB_QR_SMALL * EMB_QR_NB * sizeof(double));
		p.b = emb_alloc(n * sizeof(double));
		dgeqp3_(&n, &m, p.a, &n, p.jpvt, p.tau, &q, &lw, &info);
		p.lwork = (int)q > 64 * n ? (int)q : 64 * n;
		p.work = malloc(p.lwork * sizeof(double));
		{
			double o = timeit(&p, R_QRCP, runs);
			double l = timeit(&p, R_DGEQP3, runs);

			printf("%-8s %4d %4d %12.2f %12.2f %12s %8.2f\n",
			    "pivoted", n, m, o, l, "", l / o);
			if (m + EMB_QR_NB <= n) {
				double b = timeit(&p, R_QRB, runs);
				double f = timeit(&p, R_DGEQRF, runs);

				printf("%-8s %4d %4d %12.2f %12.2f %12.2f "
				    "%8.2f\n", "blocked", n, m, b, f, l, f / b);
			}
		}
		fflush(stdout);
		emb_free(a0);
		emb_free(f0);
		emb_free(p.a);
		emb_free(p.t);
		emb_free(p.b);
		free(p.tau);
		free(p.jpvt);
		free(p.work);
	}
	return 0;
}
