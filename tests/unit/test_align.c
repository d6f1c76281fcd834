/*
 * test_align.c - the Procrustes map (a known rotation recovered, the
 * rectangular case orthonormal), normalization steps against a plain
 * reference, the map independent of batch and threads, the model file
 * (exact round trip; cut short, changed, malformed, not orthogonal
 * refused), the thin map of fewer pairs than dimensions, and the
 * CSLS and 3CosMul rankings of csls.c against brute force.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "emb.h"
#include "base/crc.h"
#include "urand.h"

/* A random orthogonal d x d matrix, by Gram-Schmidt on random rows. */
static void
orth(double *q, int d)
{
	for (int i = 0; i < d; i++) {
		double *r = q + i * d, n = 0;

		for (int k = 0; k < d; k++)
			r[k] = urandc();
		for (int rep = 0; rep < 2; rep++)
			for (int j = 0; j < i; j++) {
				double s = 0;

				for (int k = 0; k < d; k++)
					s += r[k] * q[j * d + k];
				for (int k = 0; k < d; k++)
					r[k] -= s * q[j * d + k];
			}
		for (int k = 0; k < d; k++)
			n += r[k] * r[k];
		for (int k = 0; k < d; k++)
			r[k] /= sqrt(n);
	}
}

START_TEST(rotation)
{
	enum { N = 200, D = 7 };
	static double X[N * D], Z[N * D], Q[D * D];
	struct emb_align *a;

	orth(Q, D);
	for (int i = 0; i < N * D; i++)
		X[i] = urandc();
	for (int i = 0; i < N; i++)
		for (int j = 0; j < D; j++) {
			Z[i * D + j] = 0;
			for (int k = 0; k < D; k++)
				Z[i * D + j] += X[i * D + k] * Q[k * D + j];
		}
	ck_assert_int_eq(emb_align_create(&a, D, D, NULL, 0), 0);
	ck_assert_int_eq(emb_align_fit(a, X, Z, N), 0);
	for (int i = 0; i < D * D; i++)
		ck_assert_msg(fabs(a->w[i] - Q[i]) < 1e-12, "w[%d] %g, want %g",
		    i, a->w[i], Q[i]);
	ck_assert_int_eq(a->count, N);
	ck_assert_int_eq(emb_align_fit(a, X, Z, 0), EMB_EEMPTY);
	emb_align_free(a);
}
END_TEST

/* din != dout: W has orthonormal rows (din < dout) or columns. */
START_TEST(rectangular)
{
	enum { N = 50 };
	static const int dims[][2] = { { 3, 8 }, { 8, 3 }, { 1, 5 } };

	for (size_t t = 0; t < sizeof(dims) / sizeof(dims[0]); t++) {
		int din = dims[t][0], dout = dims[t][1];
		int r = din < dout ? din : dout;
		double *X = malloc(N * din * sizeof(double));
		double *Z = malloc(N * dout * sizeof(double));
		struct emb_align *a;

		for (int i = 0; i < N * din; i++)
			X[i] = urandc();
		for (int i = 0; i < N * dout; i++)
			Z[i] = urandc();
		ck_assert_int_eq(emb_align_create(&a, din, dout, NULL, 0), 0);
		ck_assert_int_eq(emb_align_fit(a, X, Z, N), 0);
		/* The Gram matrix of the shorter side is the identity. */
		for (int p = 0; p < r; p++)
			for (int q = 0; q < r; q++) {
				double s = 0;

				for (int k = 0; k < (din < dout ? dout : din);
				    k++)
					s += din < dout ?
					    a->w[p * dout + k] * a->w[q * dout + k] :
					    a->w[k * dout + p] * a->w[k * dout + q];
				ck_assert_msg(fabs(s - (p == q)) < 1e-12,
				    "%dx%d: %d.%d = %g", din, dout, p, q, s);
			}
		emb_align_free(a);
		free(X);
		free(Z);
	}
}
END_TEST

/* unit, center, unit against a plain transcription; batches alike. */
START_TEST(steps)
{
	enum { N = 300, D = 5 };
	static const int st[] = { EMB_ALIGN_UNIT, EMB_ALIGN_CENTER,
	    EMB_ALIGN_UNIT };
	static float x[N * D], y1[N * D], y2[N * D];
	static double ref[N * D];
	double m[D] = { 0 };
	struct emb_align *a;

	for (int i = 0; i < N * D; i++)
		x[i] = (float)(urandc() + (i % D == 0 ? 3 : 0));
	for (int i = 0; i < N; i++) {
		double n = 0;

		for (int k = 0; k < D; k++)
			n += (double)x[i * D + k] * x[i * D + k];
		for (int k = 0; k < D; k++) {
			ref[i * D + k] = x[i * D + k] / sqrt(n);
			m[k] += ref[i * D + k] / N;
		}
	}
	for (int i = 0; i < N; i++) {
		double n = 0;

		for (int k = 0; k < D; k++) {
			ref[i * D + k] -= m[k];
			n += ref[i * D + k] * ref[i * D + k];
		}
		for (int k = 0; k < D; k++)
			ref[i * D + k] /= sqrt(n);
	}
	ck_assert_int_eq(emb_align_create(&a, D, D, st, 3), 0);
	ck_assert_int_eq(a->ncenter, 1);
	ck_assert_int_eq(emb_align_center(a, 0, x, N, D), 0);
	ck_assert_int_eq(emb_align_map(a, 0, x, N, y1, 2), 0);
	for (int i = 0; i < N * D; i++)
		ck_assert_msg(fabs(y1[i] - ref[i]) < 1e-6, "%d: %g, want %g",
		    i, y1[i], ref[i]);
	/* One at a time, on one thread: the same bits. */
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(emb_align_map(a, 0, x + i * D, 1,
		    y2 + i * D, 1), 0);
	ck_assert(memcmp(y1, y2, sizeof(y1)) == 0);
	ck_assert_int_eq(emb_align_center(a, 0, x, 0, D), EMB_EEMPTY);
	emb_align_free(a);
	ck_assert_int_eq(emb_align_create(&a, D, D, (const int[]){ 9 }, 1),
	    EMB_EINVAL);
	ck_assert_int_eq(emb_align_create(&a, 0, D, NULL, 0), EMB_EDIM);
}
END_TEST

/* A model in a temporary file: its descriptor, at offset 0. */
static int
tmpfile_with(const char *text, size_t n)
{
	FILE *fp = tmpfile();
	int fd = dup(fileno(fp));

	fwrite(text, 1, n, fp);
	fclose(fp);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

START_TEST(file)
{
	static const int st[] = { EMB_ALIGN_CENTER, EMB_ALIGN_UNIT };
	struct emb_align *a, *b;
	unsigned long line;
	char *buf;
	size_t len;
	FILE *fp;
	int fd;

	double X[5 * 3], Z[5 * 2];

	/* W fitted, full (5 pairs, at least 2): save refuses no other. */
	for (int i = 0; i < 15; i++)
		X[i] = urandc();
	for (int i = 0; i < 10; i++)
		Z[i] = urandc();
	ck_assert_int_eq(emb_align_create(&a, 3, 2, st, 2), 0);
	ck_assert_int_eq(emb_align_fit(a, X, Z, 5), 0);
	ck_assert_ptr_nonnull(a->w);
	for (int i = 0; i < 3; i++)
		a->smean[i] = urandc();
	a->tmean[1] = 1e-300;
	a->count = 12345;
	fp = tmpfile();
	ck_assert_int_eq(emb_align_save(a, fileno(fp)), 0);
	fd = dup(fileno(fp));
	lseek(fd, 0, SEEK_SET);
	ck_assert_int_eq(emb_align_load(&b, fd, &line), 0);
	ck_assert(memcmp(a->w, b->w, 6 * sizeof(double)) == 0);
	ck_assert(memcmp(a->smean, b->smean, 3 * sizeof(double)) == 0);
	ck_assert(memcmp(a->tmean, b->tmean, 2 * sizeof(double)) == 0);
	ck_assert_int_eq(b->count, 12345);
	ck_assert_int_eq(b->nsteps, 2);
	ck_assert_int_eq(b->steps[0], EMB_ALIGN_CENTER);
	emb_align_free(b);
	close(fd);
	/* The text, then cut at every byte, and one byte changed. */
	len = (size_t)ftell(fp);
	buf = malloc(len);
	rewind(fp);
	ck_assert_int_eq(fread(buf, 1, len, fp), len);
	fclose(fp);
	for (size_t n = 0; n < len; n++) {
		int rc;

		fd = tmpfile_with(buf, n);
		rc = emb_align_load(&b, fd, &line);
		ck_assert_msg(rc == EMB_ETRUNC || rc == EMB_ECRC ||
		    rc == EMB_EFORMAT, "cut at %zu: %d", n, rc);
		ck_assert_ptr_null(b);
		close(fd);
	}
	buf[20] ^= 1;
	fd = tmpfile_with(buf, len);
	ck_assert_int_eq(emb_align_load(&b, fd, &line), EMB_ECRC);
	close(fd);
	free(buf);
	emb_align_free(a);
	/* Checksummed but malformed: the line is named. */
	{
		static const char t[] = "emb-align 1\ndin 2\ndout 2\nsteps x\n";
		char m[128];
		int n = snprintf(m, sizeof(m), "%scrc32 %08x\n", t,
		    (unsigned)emb_crc32(0, t, sizeof(t) - 1));

		fd = tmpfile_with(m, (size_t)n);
		ck_assert_int_eq(emb_align_load(&b, fd, &line), EMB_EFORMAT);
		ck_assert_int_eq(line, 4);
		close(fd);
	}
}
END_TEST

/* W of a model, full or thin (E + Q_in (G - I) Q_out^t), into w. */
static void
wof(const struct emb_align *a, double *w)
{
	size_t din = a->din, dout = a->dout, m = a->rank;

	if (a->w != NULL) {
		memcpy(w, a->w, din * dout * sizeof(double));
		return;
	}
	for (size_t i = 0; i < din; i++)
		for (size_t j = 0; j < dout; j++) {
			double s = i == j;

			for (size_t k = 0; k < m; k++)
				for (size_t l = 0; l < m; l++)
				{
					double gkl = a->g[k * m + l] - (k == l);

					s += a->q[i * m + k] * gkl *
					    a->q[j * m + l];
				}
			w[i * dout + j] = s;
		}
}

/*
 * Fewer pairs than dimensions: W thin, orthogonal, optimal (W^t X^t Z
 * symmetric: the Procrustes condition), the identity on what the pairs
 * do not span; one pair mapped onto its target's direction; full when
 * that is smaller; the thin model read back exactly and applied as W.
 */
START_TEST(thin)
{
	static const int dims[][3] = { { 9, 9, 3 }, { 9, 9, 2 }, { 4, 9, 1 },
	    { 9, 4, 1 }, { 9, 9, 1 }, { 3, 3, 2 } };

	for (size_t t = 0; t < sizeof(dims) / sizeof(dims[0]); t++) {
		int din = dims[t][0], dout = dims[t][1], n = dims[t][2];
		int d = din > dout ? din : dout, r = din < dout ? din : dout;
		double X[9 * 3], Z[9 * 3], w[81], M[81], v[9], y[9];
		float xf[9], yf[9];
		struct emb_align *a, *b;
		unsigned long line;
		FILE *fp;
		int fd;

		for (int i = 0; i < n * din; i++)
			X[i] = urandc();
		for (int i = 0; i < n * dout; i++)
			Z[i] = urandc();
		ck_assert_int_eq(emb_align_create(&a, din, dout, NULL, 0), 0);
		ck_assert_int_eq(emb_align_fit(a, X, Z, n), 0);
		ck_assert_int_eq(a->count, n);
		/*
		 * 9 x 9: 2 pairs thin (rank 4, 36 + 16 numbers, not 81), 3
		 * full (rank 6 would be 54 + 36).
		 */
		if (din == 9 && dout == 9 && n == 2)
			ck_assert(a->w == NULL && a->rank == 4);
		if (din == 3 || (din == 9 && dout == 9 && n == 3))
			ck_assert_ptr_nonnull(a->w);
		wof(a, w);
		for (int p = 0; p < r; p++)
			for (int q = 0; q < r; q++) {
				double s = 0;

				for (int k = 0; k < d; k++)
					if (din <= dout && k < dout)
						s += w[p * dout + k] *
						    w[q * dout + k];
					else if (din > dout && k < din)
						s += w[k * dout + p] *
						    w[k * dout + q];
				ck_assert_msg(fabs(s - (p == q)) < 1e-12,
				    "%dx%d: %d.%d = %g", din, dout, p, q, s);
			}
		/* M = W^t X^t Z, symmetric at the optimum (square W). */
		if (din == dout) {
			for (int i = 0; i < d; i++)
				for (int j = 0; j < d; j++) {
					M[i * d + j] = 0;
					for (int k = 0; k < d; k++)
						for (int p = 0; p < n; p++)
							M[i * d + j] +=
							    w[k * d + i] *
							    X[p * d + k] *
							    Z[p * d + j];
				}
			for (int i = 0; i < d; i++)
				for (int j = 0; j < i; j++)
					ck_assert_msg(fabs(M[i * d + j] -
					    M[j * d + i]) < 1e-12, "%d: %d.%d",
					    d, i, j);
		}
		/* One pair: x W = |x| z / |z|. */
		if (n == 1) {
			double nx = 0, nz = 0;

			for (int k = 0; k < din; k++)
				nx += X[k] * X[k];
			for (int k = 0; k < dout; k++)
				nz += Z[k] * Z[k];
			for (int j = 0; j < dout; j++) {
				double s = 0;

				for (int k = 0; k < din; k++)
					s += X[k] * w[k * dout + j];
				ck_assert(fabs(s - sqrt(nx / nz) * Z[j]) <
				    1e-12);
			}
		}
		/* A vector orthogonal to every pair's vectors stays. */
		if (din == dout && 2 * n < d) {
			double u[7 * 9];

			/* Gram-Schmidt on the pairs' vectors, then v. */
			memcpy(u, X, n * d * sizeof(double));
			memcpy(u + n * d, Z, n * d * sizeof(double));
			for (int k = 0; k < d; k++)
				u[2 * n * d + k] = urandc();
			for (int p = 0; p <= 2 * n; p++)
				for (int rep = 0; rep < 2; rep++) {
					double *up = u + p * d, nn = 0;

					for (int o = 0; o < p; o++) {
						double *uo = u + o * d, s = 0;

						for (int k = 0; k < d; k++)
							s += up[k] * uo[k];
						for (int k = 0; k < d; k++)
							up[k] -= s * uo[k];
					}
					for (int k = 0; k < d; k++)
						nn += up[k] * up[k];
					if (p < 2 * n)
						for (int k = 0; k < d; k++)
							up[k] /= sqrt(nn);
				}
			memcpy(v, u + 2 * n * d, d * sizeof(double));
			for (int j = 0; j < d; j++) {
				y[j] = 0;
				for (int k = 0; k < d; k++)
					y[j] += v[k] * w[k * d + j];
				ck_assert_msg(fabs(y[j] - v[j]) < 1e-12,
				    "%dx%d, %d pairs: %d: %g, not %g", din,
				    dout, n, j, y[j], v[j]);
			}
		}
		/* Saved and read back: the same numbers; mapped as W. */
		fp = tmpfile();
		ck_assert_int_eq(emb_align_save(a, fileno(fp)), 0);
		fd = dup(fileno(fp));
		lseek(fd, 0, SEEK_SET);
		ck_assert_int_eq(emb_align_load(&b, fd, &line), 0);
		close(fd);
		fclose(fp);
		ck_assert_int_eq(b->rank, a->rank);
		ck_assert((a->w == NULL) == (b->w == NULL));
		if (a->w == NULL) {
			ck_assert(memcmp(a->q, b->q, (size_t)d * a->rank *
			    sizeof(double)) == 0);
			ck_assert(memcmp(a->g, b->g, (size_t)a->rank *
			    a->rank * sizeof(double)) == 0);
		}
		for (int k = 0; k < din; k++)
			xf[k] = (float)urandc();
		ck_assert_int_eq(emb_align_map(b, 0, xf, 1, yf, 1), 0);
		for (int j = 0; j < dout; j++) {
			double s = 0;

			for (int k = 0; k < din; k++)
				s += xf[k] * w[k * dout + j];
			ck_assert(fabs(yf[j] - s) < 1e-6);
		}
		emb_align_free(a);
		emb_align_free(b);
	}
}
END_TEST

/*
 * The fit's bytes follow the pairs: one pair at 4096 x 4096 in a few MB,
 * 9000 pairs at 9000 x 9000 over emb-align's 4 GiB bound.
 */
START_TEST(fitmem)
{
	ck_assert_uint_lt(emb_align_fitmem(4096, 4096, 1), 1 << 22);
	ck_assert_uint_lt(emb_align_fitmem(300, 300, 5000), 1 << 23);
	ck_assert_uint_gt(emb_align_fitmem(9000, 9000, 9000),
	    (uint64_t)4 << 30);
	ck_assert_uint_gt(emb_align_fitmem(65536, 65536, 1400),
	    (uint64_t)4 << 30);
}
END_TEST

/* A checksummed model text with its crc32 line: load's code and line. */
static int
loadtext(const char *t, unsigned long *line)
{
	struct emb_align *b;
	char m[512];
	int n, fd, rc;

	n = snprintf(m, sizeof(m), "%scrc32 %08x\n", t,
	    (unsigned)emb_crc32(0, t, strlen(t)));
	fd = tmpfile_with(m, (size_t)n);
	rc = emb_align_load(&b, fd, line);
	close(fd);
	if (rc == 0)
		emb_align_free(b);
	return rc;
}

/* What emb_align_save cannot have written is refused, its line named. */
START_TEST(forged)
{
	static const char head[] = "emb-align 1\ndin 2\ndout 2\nsteps none\n"
	    "count 2\n";
	static const struct {
		const char	*rows;
		int		 rc;
		unsigned long	 line;
	} t[] = {
		{ "w 0 1\nw -1 0\n", 0, 0 },
		{ "w 0.6 0.80000000000000004\nw -0.80000000000000004 0.6\n",
		    0, 0 },
		{ "w 0 1\nw -1 0.5\n", EMB_ERANGE, 7 },
		{ "w 1 1\nw 0 1\n", EMB_ERANGE, 6 },
		{ "w 2 0\nw 0 1\n", EMB_ERANGE, 6 },
		{ "w 0x0p+0 0x1p+0\nw -1 0\n", EMB_EFORMAT, 6 },
		{ "w 0 1\nw -1 0 \n", EMB_EFORMAT, 7 },
		{ "w 0 1\nw -1  0\n", EMB_EFORMAT, 7 },
		{ "w 0 1\nw -1 1E0\n", EMB_EFORMAT, 7 },
		{ "w 0 1\nw -1 inf\n", EMB_EFORMAT, 7 },
		{ "rank 0\n", 0, 0 },
		{ "rank 1\nq 1\nq 0\ng -1\n", 0, 0 },
		{ "rank 1\nq 1\nq 0\ng 0.5\n", EMB_ERANGE, 9 },
		{ "rank 1\nq 1\nq 1\ng 1\n", EMB_ERANGE, 7 },
		{ "rank 3\nq 1\nq 0\ng 1\n", EMB_EFORMAT, 6 },
		{ "rank 1\nq 1\nq 0\n", EMB_EFORMAT, 8 },
	};
	char text[256];
	unsigned long line;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", head, t[i].rows);
		ck_assert_msg(loadtext(text, &line) == t[i].rc, "%zu", i);
		ck_assert_msg(line == t[i].line, "%zu: line %lu", i, line);
	}
	/* A NUL byte inside the crc: its line. */
	{
		char m[256];
		struct emb_align *b;
		int n, fd;

		n = snprintf(m, sizeof(m), "%sw 0 1\nw -1 0", head);
		memcpy(m + n, "\0 5\n", 4);
		n += 4;
		n += snprintf(m + n, sizeof(m) - n, "crc32 %08x\n",
		    (unsigned)emb_crc32(0, m, (size_t)n));
		fd = tmpfile_with(m, (size_t)n);
		ck_assert_int_eq(emb_align_load(&b, fd, &line), EMB_EFORMAT);
		ck_assert_int_eq(line, 7);
		close(fd);
	}
}
END_TEST

/* cos in double, as the search computes it (for the brute force). */
static double
cosd(const float *x, const float *y, int d)
{
	double s = 0, nx = 0, ny = 0;

	for (int k = 0; k < d; k++) {
		s += (double)x[k] * y[k];
		nx += (double)x[k] * x[k];
		ny += (double)y[k] * y[k];
	}
	return nx > 0 && ny > 0 ? s / sqrt(nx) / sqrt(ny) : 0;
}

START_TEST(csls_cosmul)
{
	enum { NR = 257, NQ = 40, D = 6, K = 5, C = 4 };
	static float R[NR * D], Q[NQ * D];
	static double rq[NQ], rr[NR], cs[NR];
	static struct emb_hit h[NQ * K], h2[NQ * K];
	struct emb_knn *kn, *kq;

	for (int i = 0; i < NR * D; i++)
		R[i] = (float)urandc();
	for (int i = 0; i < NQ * D; i++)
		Q[i] = (float)urandc();
	ck_assert_int_eq(emb_knn_create(&kn, D), 0);
	ck_assert_int_eq(emb_knn_create(&kq, D), 0);
	for (int i = 0; i < NR; i++)
		ck_assert_int_eq(emb_knn_add(kn, "", 0, R + i * D), 0);
	for (int i = 0; i < NQ; i++)
		ck_assert_int_eq(emb_knn_add(kq, "", 0, Q + i * D), 0);
	ck_assert_int_eq(emb_knn_meansim(kn, Q, NQ, D, C, 2, rq), 0);
	ck_assert_int_eq(emb_knn_meansim(kq, R, NR, D, C, 2, rr), 0);
	ck_assert_int_eq(emb_knn_meansim(kq, R, NR, D, 0, 2, rr),
	    EMB_EINVAL);
	ck_assert_int_eq(emb_knn_csls(kn, Q, NQ, D, K, rq, rr, 2, h), 0);
	for (int i = 0; i < NQ; i++) {
		int used[NR] = { 0 };

		for (int j = 0; j < NR; j++)
			cs[j] = 2 * cosd(Q + i * D, R + j * D, D) - rq[i] -
			    rr[j];
		/* The brute-force k best, ties to the smaller index. */
		for (int r = 0; r < K; r++) {
			int best = -1;

			for (int j = 0; j < NR; j++)
				if (!used[j] && (best < 0 || cs[j] > cs[best]))
					best = j;
			used[best] = 1;
			ck_assert_int_eq(h[i * K + r].ref, best);
			ck_assert(fabs(-h[i * K + r].dist - cs[best]) < 1e-12);
		}
	}
	/* 3CosMul: a = Q[i], b = Q[i + 1], c = Q[i + 2], one excluded. */
	{
		size_t xoff[NQ - 1];
		uint32_t xref[NQ - 2];

		for (int i = 0; i < NQ - 2; i++) {
			xoff[i] = (size_t)i;
			xref[i] = (uint32_t)(i % NR);
		}
		xoff[NQ - 2] = NQ - 2;
		ck_assert_int_eq(emb_knn_cosmul(kn, Q, Q + D, Q + 2 * D,
		    NQ - 2, D, K, xoff, xref, 1, h2), 0);
		for (int i = 0; i < NQ - 2; i++) {
			int used[NR] = { 0 };

			used[i % NR] = 1;
			for (int j = 0; j < NR; j++) {
				double pa = (1 + cosd(R + j * D, Q + i * D, D)) / 2;
				double pb = (1 + cosd(R + j * D, Q + (i + 1) * D,
				    D)) / 2;
				double pc = (1 + cosd(R + j * D, Q + (i + 2) * D,
				    D)) / 2;

				cs[j] = pb * pc / (pa + 1e-6);
			}
			for (int r = 0; r < K; r++) {
				int best = -1;

				for (int j = 0; j < NR; j++)
					if (!used[j] && (best < 0 ||
					    cs[j] > cs[best]))
						best = j;
				used[best] = 1;
				ck_assert_int_eq(h2[i * K + r].ref, best);
				ck_assert(fabs(-h2[i * K + r].dist - cs[best]) <
				    1e-12 * cs[best]);
			}
		}
	}
	emb_knn_free(kn);
	emb_knn_free(kq);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("align");
	TCase *tc = tcase_create("align");

	tcase_add_test(tc, rotation);
	tcase_add_test(tc, rectangular);
	tcase_add_test(tc, steps);
	tcase_add_test(tc, file);
	tcase_add_test(tc, thin);
	tcase_add_test(tc, forged);
	tcase_add_test(tc, fitmem);
	tcase_add_test(tc, csls_cosmul);
	suite_add_tcase(s, tc);
	return s;
}

EMB_CHECK_MAIN(suite)
