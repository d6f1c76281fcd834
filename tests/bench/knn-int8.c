/*
 * knn-int8.c - the int8 arithmetic's own limit on this CPU, for
 * emb-knn's searches from a store: the search's kernel (the processor's
 * best, as a search picks it) scoring one strip of 64 references that
 * stays in the level-1 cache against four queries, again and again, on
 * THREADS threads at once, no reference ever kept (every bound below its
 * query's tau).  So it counts what the kernel's multiplications and
 * additions cost, without the memory: the limit for many queries, where
 * the codes are read once for many of them.
 *
 *	knn-int8 DIM THREADS RUNS
 *
 * prints "int8 <median seconds of a run> <GMAC/s over all threads>
 * <kernel>", a MAC being one byte of a code times one of a query, 4 x 64
 * x the dimension rounded up to 4 a call.  A search of NQ queries against NREF
 * references needs NQ x NREF x that dimension of them: its time over
 * that count / the rate is how close it stands to the limit.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emb.h"
#include "knn/knn.h"
#include "num/codes.h"

#define CALLS	200000

struct arg {
	knn_kernfn	*kern;
	uint32_t	 dp;
	unsigned	 kept;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *
spin(void *p)
{
	struct arg *a = p;
	/* aligned_alloc wants whole multiples of 64. */
	uint8_t *codes = aligned_alloc(64, (size_t)KNN_STRIP * a->dp);
	int8_t *qc = aligned_alloc(64, (4 * (size_t)a->dp + 63) / 64 * 64);
	float cs[KNN_STRIP], ce[KNN_STRIP];
	uint32_t ref[4][KNN_STRIP];
	float ub[4][KNN_STRIP];
	struct knn_list l[4];
	struct knn_qb qb[4];

	if (codes == NULL || qc == NULL)
		return NULL;
	for (size_t i = 0; i < (size_t)KNN_STRIP * a->dp; i++)
		codes[i] = (uint8_t)(i * 131 + 7);
	for (size_t i = 0; i < 4 * (size_t)a->dp; i++)
		qc[i] = (int8_t)(i * 37 % 255 - 127);
	for (int i = 0; i < KNN_STRIP; i++) {
		cs[i] = 1e-3f;
		ce[i] = 1e-3f;
	}
	for (int i = 0; i < 4; i++) {
		memset(&qb[i], 0, sizeof(qb[i]));
		qb[i].s = 1e-3f;
		qb[i].tau = 1e30f;	/* nothing kept */
		l[i].ref = ref[i];
		l[i].ub = ub[i];
		l[i].n = 0;
	}
	for (int c = 0; c < CALLS; c++)
		a->kept += a->kern(codes, qc, a->dp, qb, cs, ce, ~(uint64_t)0,
		    0, l);
	free(codes);
	free(qc);
	return NULL;
}

static int
cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

int
main(int argc, char **argv)
{
	uint32_t dim, dp;
	int nt, runs, path;
	double *t;
	struct arg *a;
	pthread_t *th;

	if (argc != 4) {
		fprintf(stderr, "usage: knn-int8 DIM THREADS RUNS\n");
		return 2;
	}
	dim = (uint32_t)atoi(argv[1]);
	nt = atoi(argv[2]);
	runs = atoi(argv[3]);
	dp = (dim + 3) / 4 * 4;		/* a row of codes, as a store pads it */
	path = knn_path();
	if (dim == 0 || nt < 1 || runs < 1 || path == EMB_KNN_FLOAT) {
		fprintf(stderr, "knn-int8: no int8 kernel here\n");
		return 1;
	}
	t = calloc((size_t)runs, sizeof(*t));
	a = calloc((size_t)nt, sizeof(*a));
	th = calloc((size_t)nt, sizeof(*th));
	if (t == NULL || a == NULL || th == NULL)
		return 1;
	for (int r = 0; r < runs; r++) {
		double t0 = now();

		for (int i = 0; i < nt; i++) {
			a[i].kern = path == EMB_KNN_AVX512 ? knn_kern_avx512 :
			    path == EMB_KNN_AVXVNNI ? knn_kern_avxvnni :
			    knn_kern_ref;
			a[i].dp = dp;
			if (pthread_create(&th[i], NULL, spin, &a[i]) != 0)
				return 1;
		}
		for (int i = 0; i < nt; i++)
			pthread_join(th[i], NULL);
		t[r] = now() - t0;
	}
	qsort(t, (size_t)runs, sizeof(*t), cmp);
	printf("int8 %.4f %.1f %s\n", t[runs / 2], (double)nt * CALLS * 4 *
	    KNN_STRIP * dp / t[runs / 2] / 1e9, emb_knn_pathname(path));
	return 0;
}
