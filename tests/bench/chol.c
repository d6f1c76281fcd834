/*
 * chol.c - the classifiers' Cholesky factorization (emb_dchol_blis,
 * recursive halving over BLIS trsm and syrk) beside LAPACK's dpotrf over
 * the same BLIS, one thread each, on the sizes emb-eval factors: the
 * d x d primal systems of LDA and ridge (d = 50 .. 1000) and the n x n
 * duals (n up to a few thousand).
 *
 *	chol RUNS N...
 *
 * prints per size "N <recursive s> <dpotrf s> <dpotrf / recursive>
 * <GFLOP/s recursive> <GFLOP/s dpotrf> <max |L - L'|>", times the median
 * of RUNS runs (each run repeats the factorization until it has taken
 * 50 ms, and counts the mean), the flops n^3 / 3.  A is B B' / n + I,
 * B uniform in [-0.5, 0.5): well conditioned, as the shrunk systems are.
 */
#include <blis.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emb.h"
#include "eval/clf.h"
#include "base/lapack.h"

/* Row-major lower = column-major upper: dpotrf("U") on the same bytes. */
static int
potrf(size_t n, double *A)
{
	int nn = (int)n, info;

	dpotrf_("U", &nn, A, &nn, &info);
	return info;
}

/* Seconds per factorization of A (n x n) by method m, median of runs. */
static double
timeit(int m, const double *A, double *W, size_t n, int runs)
{
	double *t = malloc(runs * sizeof(*t)), med;

	for (int r = 0; r < runs; r++) {
		double t0 = emb_now(), t1, x;
		long reps = 0;
		int i;

		do {
			memcpy(W, A, n * n * sizeof(*W));
			if (m == 0 ? emb_dchol_blis(n, W, n) : potrf(n, W)) {
				fprintf(stderr, "chol: %zu: not positive\n", n);
				exit(1);
			}
			reps++;
		} while ((t1 = emb_now()) - t0 < 0.05);
		/* The copies, timed alone, are taken off. */
		t1 -= t0;
		t0 = emb_now();
		for (long j = 0; j < reps; j++)
			memcpy(W, A, n * n * sizeof(*W));
		x = (t1 - (emb_now() - t0)) / (double)reps;
		/* Kept sorted as they come. */
		for (i = r; i > 0 && t[i - 1] > x; i--)
			t[i] = t[i - 1];
		t[i] = x;
	}
	med = t[runs / 2];
	free(t);
	return med;
}

int
main(int argc, char *argv[])
{
	int runs;

	if (argc < 3 || (runs = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: chol runs n...\n");
		return 2;
	}
	bli_thread_set_num_threads(1);
	printf("%6s %12s %12s %8s %9s %9s %9s\n", "n", "recursive",
	    "dpotrf", "ratio", "GF/s rec", "GF/s lap", "max dL");
	for (int a = 2; a < argc; a++) {
		size_t n = (size_t)atol(argv[a]);
		double *B = malloc(n * n * sizeof(double));
		double *A = malloc(n * n * sizeof(double));
		double *W = malloc(n * n * sizeof(double));
		double *L = malloc(n * n * sizeof(double));
		double tr, tl, dl = 0, fl = (double)n * n * n / 3;

		srand(1);
		for (size_t i = 0; i < n * n; i++)
			B[i] = rand() / ((double)RAND_MAX + 1) - 0.5;
		/* A = B B' / n + I, both triangles. */
		emb_dgemm_blis(0, 1, n, n, n, 1.0 / (double)n, B, n, B, n, 0,
		    A, n);
		for (size_t i = 0; i < n; i++)
			A[i * n + i] += 1;
		tr = timeit(0, A, W, n, runs);
		tl = timeit(1, A, W, n, runs);
		memcpy(W, A, n * n * sizeof(*W));
		memcpy(L, A, n * n * sizeof(*L));
		emb_dchol_blis(n, W, n);
		potrf(n, L);
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j <= i; j++)
				dl = fmax(dl, fabs(W[i * n + j] - L[i * n + j]));
		printf("%6zu %12.3e %12.3e %8.2f %9.2f %9.2f %9.1e\n", n, tr,
		    tl, tl / tr, fl / tr / 1e9, fl / tl / 1e9, dl);
		fflush(stdout);
		free(B);
		free(A);
		free(W);
		free(L);
	}
	return 0;
}
