/*
 * knn-sgemm.c - the machine limit for emb-knn: BLIS sgemm, default
 * settings, on the same product as a search (nq x dim queries times
 * dim x nref references), computed in slices of CHUNK references so that
 * the result fits in memory.
 *
 *	knn-sgemm NREF NQ DIM THREADS RUNS
 *
 * prints "sgemm <median seconds> <GFLOP/s>", the flops counted as
 * 2 x nq x nref x dim, as emb-knn -v and knn-faiss.py count them.
 */
#include <blis.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHUNK	8192

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char *argv[])
{
	long nref, nq, dim, nt, runs;
	float *a, *b, *c, one = 1, zero = 0;
	double *t;
	rntm_t rntm = BLIS_RNTM_INITIALIZER;

	if (argc != 6) {
		fprintf(stderr, "usage: knn-sgemm nref nq dim threads runs\n");
		return 2;
	}
	nref = atol(argv[1]);
	nq = atol(argv[2]);
	dim = atol(argv[3]);
	nt = atol(argv[4]);
	runs = atol(argv[5]);
	if (nref < 1 || nq < 1 || dim < 1 || nt < 1 || runs < 1)
		return 2;
	a = aligned_alloc(64, (size_t)(nq * dim * 4 + 63) / 64 * 64);
	b = aligned_alloc(64, (size_t)(nref * dim * 4 + 63) / 64 * 64);
	c = aligned_alloc(64, (size_t)(nq * CHUNK * 4 + 63) / 64 * 64);
	t = malloc(runs * sizeof(*t));
	if (a == NULL || b == NULL || c == NULL || t == NULL)
		return 1;
	srand(1);
	for (long i = 0; i < nq * dim; i++)
		a[i] = rand() / (float)RAND_MAX - 0.5f;
	for (long i = 0; i < nref * dim; i++)
		b[i] = rand() / (float)RAND_MAX - 0.5f;
	bli_rntm_set_num_threads(nt, &rntm);
	for (long r = 0; r < runs; r++) {
		double t0 = now();

		for (long j = 0; j < nref; j += CHUNK) {
			long n = nref - j < CHUNK ? nref - j : CHUNK;

			bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_TRANSPOSE, nq, n,
			    dim, &one, a, dim, 1, b + j * dim, dim, 1, &zero,
			    c, n, 1, NULL, &rntm);
		}
		t[r] = now() - t0;
	}
	qsort(t, runs, sizeof(*t), cmp);
	printf("sgemm %.3f %.1f\n", t[runs / 2],
	    2.0 * nq * nref * dim / t[runs / 2] / 1e9);
	free(a);
	free(b);
	free(c);
	free(t);
	return 0;
}
