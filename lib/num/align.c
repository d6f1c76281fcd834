/*
 * align.c - an orthogonal map between two embedding spaces (emb-align).
 *
 * Both spaces may first pass through a sequence of normalization steps,
 * as vecmap orders them: "unit" scales each vector to unit length,
 * "center" subtracts the mean of the space as it stands after the steps
 * before.  The map W minimizes sum |x_i W - z_i|^2 over the pairs of a
 * dictionary among the matrices with orthonormal rows or columns
 * (orthogonal Procrustes, Schoenemann 1966): with X^t Z = U S V^t (LAPACK
 * dgesdd), W = U V^t.  A vector is mapped as a row: y = x W.
 *
 * With fewer pairs than the smaller dimension, X^t Z has rank below it
 * and W is free off the pairs' span: the fit works in that span, through
 * the QR of the pairs' vectors, and takes the optimum nearest the
 * identity, kept thin (W = E + Q (G - I) Q^t), so that time and memory
 * follow the pairs, not din x dout.
 *
 * The model is a text file (emb-align(1), FILES) that ends in the crc32
 * of what precedes it, so that a model cut short or damaged is refused.
 */
#include "num/emb-num.h"
#include "io/tmodel.h"
#include "base/lapack.h"
#include "io/src.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAGIC	"emb-align 1"

static const char *const stepname[] = { "", "unit", "center" };

int
emb_align_create(struct emb_align **ap, uint32_t din, uint32_t dout,
    const int *steps, int nsteps)
{
	struct emb_align *a;

	*ap = NULL;
	if (din == 0 || dout == 0 || din > EMB_ALIGN_DIM_MAX ||
	    dout > EMB_ALIGN_DIM_MAX)
		return EMB_EDIM;
	if (nsteps < 0 || nsteps > EMB_ALIGN_STEPS_MAX)
		return EMB_EINVAL;
	if ((a = calloc(1, sizeof(*a))) == NULL)
		return EMB_ENOMEM;
	a->din = din;
	a->dout = dout;
	a->nsteps = nsteps;
	for (int s = 0; s < nsteps; s++) {
		if (steps[s] != EMB_ALIGN_UNIT && steps[s] != EMB_ALIGN_CENTER) {
			free(a);
			return EMB_EINVAL;
		}
		a->steps[s] = steps[s];
		a->ncenter += steps[s] == EMB_ALIGN_CENTER;
	}
	a->smean = calloc((size_t)a->ncenter * din + 1, sizeof(double));
	a->tmean = calloc((size_t)a->ncenter * dout + 1, sizeof(double));
	if (a->smean == NULL || a->tmean == NULL) {
		emb_align_free(a);
		return EMB_ENOMEM;
	}
	/* The identity (or its nearest rectangular kin) until a fit: thin. */
	*ap = a;
	return 0;
}

void
emb_align_free(struct emb_align *a)
{
	if (a == NULL)
		return;
	free(a->smean);
	free(a->tmean);
	free(a->w);
	free(a->q);
	free(a->g);
	free(a);
}

/* The map's matrices dropped: W the identity, thin, of rank 0. */
static void
clearmap(struct emb_align *a)
{
	free(a->w);
	free(a->q);
	free(a->g);
	a->w = a->q = a->g = NULL;
	a->rank = 0;
}

void
emb_align_norm(const struct emb_align *a, int side, int upto,
    const float *in, double *out)
{
	uint32_t d = side ? a->dout : a->din;
	const double *mean = side ? a->tmean : a->smean;
	int c = 0;

	for (uint32_t i = 0; i < d; i++)
		out[i] = in[i];
	for (int s = 0; s < upto && s < a->nsteps; s++) {
		if (a->steps[s] == EMB_ALIGN_CENTER) {
			const double *m = mean + (size_t)c++ * d;

			for (uint32_t i = 0; i < d; i++)
				out[i] -= m[i];
		} else {
			double ss = 0;

			for (uint32_t i = 0; i < d; i++)
				ss += out[i] * out[i];
			if (ss > 0) {
				ss = 1 / sqrt(ss);
				for (uint32_t i = 0; i < d; i++)
					out[i] *= ss;
			}
		}
	}
}

int
emb_align_center(struct emb_align *a, int side, const float *x, size_t n,
    size_t ld)
{
	uint32_t d = side ? a->dout : a->din;
	double *mean = side ? a->tmean : a->smean, *v;
	int c = 0;

	if (a->ncenter == 0)
		return 0;
	if (n == 0)
		return EMB_EEMPTY;
	if ((v = malloc(d * sizeof(double))) == NULL)
		return EMB_ENOMEM;
	for (int s = 0; s < a->nsteps; s++) {
		double *m;

		if (a->steps[s] != EMB_ALIGN_CENTER)
			continue;
		/* The earlier means are known: this one follows them. */
		m = mean + (size_t)c++ * d;
		memset(m, 0, d * sizeof(double));
		for (size_t r = 0; r < n; r++) {
			emb_align_norm(a, side, s, x + r * ld, v);
			for (uint32_t i = 0; i < d; i++)
				m[i] += v[i];
		}
		for (uint32_t i = 0; i < d; i++)
			m[i] /= (double)n;
	}
	free(v);
	return 0;
}

/* The SVD of the m x n column-major a (destroyed): s, u (m x r), vt. */
static int
svd(const char *job, int m, int n, double *a, double *s, double *u, int ldu,
    double *vt, int ldvt)
{
	int r = m < n ? m : n, lwork = -1, info, *iwork;
	double q, *work;

	if ((iwork = malloc(8 * (size_t)r * sizeof(int))) == NULL)
		return EMB_ENOMEM;
	dgesdd_(job, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, &q, &lwork, iwork,
	    &info, 1);
	lwork = (int)q;
	if ((work = malloc((size_t)lwork * sizeof(double))) == NULL) {
		free(iwork);
		return EMB_ENOMEM;
	}
	dgesdd_(job, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork,
	    iwork, &info, 1);
	free(work);
	free(iwork);
	return info == 0 ? 0 : EMB_ECONVERGE;
}

/* n >= min(din, dout): W = U V^t from the SVD of X^t Z, din x dout. */
static int
fitfull(struct emb_align *a, const double *X, const double *Z, size_t n)
{
	int m = (int)a->dout, nn = (int)a->din, r = m < nn ? m : nn;
	int rc = 0;
	double *M = NULL, *s = NULL, *u = NULL, *vt = NULL, *w = NULL;

	/*
	 * M = X^t Z (din x dout, row-major) is, column-major, the dout x din
	 * matrix M^t = V S U^t: dgesdd's left vectors are V, its right U^t,
	 * and W = U V^t, row-major, is VT (din x r) times Ut (r x dout).
	 */
	M = malloc((size_t)a->din * a->dout * sizeof(double));
	s = malloc((size_t)r * sizeof(double));
	u = malloc((size_t)m * r * sizeof(double));
	vt = malloc((size_t)r * nn * sizeof(double));
	w = malloc((size_t)a->din * a->dout * sizeof(double));
	if (M == NULL || s == NULL || u == NULL || vt == NULL || w == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	emb_dgemm_blis(1, 0, a->din, a->dout, n, 1, X, a->din, Z, a->dout, 0,
	    M, a->dout);
	if ((rc = svd("S", m, nn, M, s, u, m, vt, r)) < 0)
		goto out;
	emb_dgemm_blis(0, 0, a->din, a->dout, (size_t)r, 1, vt, (size_t)r, u,
	    a->dout, 0, w, a->dout);
	clearmap(a);
	a->w = w;
	w = NULL;
out:
	free(M);
	free(s);
	free(u);
	free(vt);
	free(w);
	return rc;
}

/*
 * The orthogonal m x m matrix g (row-major) that maximizes tr(g^t B) for
 * the row-major B (destroyed), and of those the nearest the identity
 * (largest trace).  With B = P S V^t (the first r singular values above
 * rounding), g = P diag(I_r, h) V^t, h the orthogonal factor nearest the
 * identity on the null part: for A = V_2^t P_2 = Ua Sa Va^t, h = Va Ua^t
 * maximizes tr(P_2 h V_2^t) = tr(h A).
 */
static int
nearestorth(double *B, size_t m, double *g)
{
	size_t r = 0, mr;
	double *s, *pb, *vb, *A = NULL, *sa = NULL, *ub = NULL, *wb = NULL,
	    *h = NULL, *T = NULL;
	int rc;

	s = malloc(m * sizeof(double));
	pb = malloc(m * m * sizeof(double));
	vb = malloc(m * m * sizeof(double));
	T = malloc(m * m * sizeof(double));
	if (s == NULL || pb == NULL || vb == NULL || T == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	/*
	 * B's buffer, column-major, is B^t = U' S V'^t: B = V' S U'^t, so
	 * that row-major, vb (dgesdd's u) holds V^t = U'^t and pb (its vt)
	 * holds P = V'.
	 */
	if ((rc = svd("A", (int)m, (int)m, B, s, vb, (int)m, pb, (int)m)) < 0)
		goto out;
	while (r < m && s[r] > s[0] * (double)m * DBL_EPSILON)
		r++;
	/* T = P diag(I_r, h). */
	memcpy(T, pb, m * m * sizeof(double));
	if ((mr = m - r) > 0) {
		A = malloc(mr * mr * sizeof(double));
		sa = malloc(mr * sizeof(double));
		ub = malloc(mr * mr * sizeof(double));
		wb = malloc(mr * mr * sizeof(double));
		h = malloc(mr * mr * sizeof(double));
		if (A == NULL || sa == NULL || ub == NULL || wb == NULL ||
		    h == NULL) {
			rc = EMB_ENOMEM;
			goto out;
		}
		/* A = V_2^t P_2: rows r.. of V^t, columns r.. of P. */
		emb_dgemm_blis(0, 0, mr, mr, m, 1, vb + r * m, m, pb + r, m, 0,
		    A, mr);
		/*
		 * A's buffer is A^t = U'' S V''^t: A = V'' S U''^t, Ua = V''
		 * (wb, row-major), Va = U'' (the transpose of ub, row-major),
		 * and h = Va Ua^t = ub^t wb^t.
		 */
		if ((rc = svd("A", (int)mr, (int)mr, A, sa, ub, (int)mr, wb,
		    (int)mr)) < 0)
			goto out;
		emb_dgemm_blis(1, 1, mr, mr, mr, 1, ub, mr, wb, mr, 0, h, mr);
		emb_dgemm_blis(0, 0, m, mr, mr, 1, pb + r, m, h, mr, 0, T + r,
		    m);
	}
	emb_dgemm_blis(0, 0, m, m, m, 1, T, m, vb, m, 0, g, m);
	rc = 0;
out:
	free(s);
	free(pb);
	free(vb);
	free(T);
	free(A);
	free(sa);
	free(ub);
	free(wb);
	free(h);
	return rc;
}

/*
 * n < min(din, dout): X^t Z has rank n at most.  Both sides padded with
 * zeros to D = max(din, dout), the 2n vectors of the pairs are the columns
 * of C = [X^t Z^t] = Q [R1 R2] (Q: D x m orthonormal, m = min(D, 2n)), so
 * that X^t Z = Q R1 R2^t Q^t: the map is Q g Q^t on the span of Q, g the
 * m x m Procrustes solution for B = R1 R2^t nearest the identity, and the
 * identity off it, as near the identity as an optimum can be.  Kept thin
 * (D m + m^2 numbers) unless din x dout is fewer.
 */
static int
fitthin(struct emb_align *a, const double *X, const double *Z, size_t n)
{
	size_t din = a->din, dout = a->dout, D = din > dout ? din : dout;
	size_t m = D < 2 * n ? D : 2 * n;
	int iD = (int)D, i2n = (int)(2 * n), im = (int)m, lwork = -1, lwq;
	int info;
	double *C, *tau, *R1, *R2, *B, *g, *q = NULL, *work = NULL, wq;
	int rc;

	C = calloc(D * 2 * n, sizeof(double));
	tau = malloc(m * sizeof(double));
	R1 = calloc(m * n, sizeof(double));
	R2 = calloc(m * n, sizeof(double));
	B = malloc(m * m * sizeof(double));
	g = malloc(m * m * sizeof(double));
	if (C == NULL || tau == NULL || R1 == NULL || R2 == NULL || B == NULL ||
	    g == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	/* C, column-major D x 2n: column i is row i of X, n + i of Z. */
	for (size_t i = 0; i < n; i++) {
		memcpy(C + i * D, X + i * din, din * sizeof(double));
		memcpy(C + (n + i) * D, Z + i * dout, dout * sizeof(double));
	}
	dgeqrf_(&iD, &i2n, C, &iD, tau, &wq, &lwork, &info);
	lwq = (int)wq;
	dorgqr_(&iD, &im, &im, C, &iD, tau, &wq, &lwork, &info);
	lwork = (int)wq > lwq ? (int)wq : lwq;
	lwork = lwork > 1 ? lwork : 1;
	if ((work = malloc((size_t)lwork * sizeof(double))) == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	dgeqrf_(&iD, &i2n, C, &iD, tau, work, &lwork, &info);
	if (info != 0) {
		rc = EMB_ECONVERGE;
		goto out;
	}
	/* R1, R2 row-major m x n: the upper trapezoid of C, cut in two. */
	for (size_t j = 0; j < 2 * n; j++)
		for (size_t i = 0; i <= j && i < m; i++) {
			if (j < n)
				R1[i * n + j] = C[j * D + i];
			else
				R2[i * n + j - n] = C[j * D + i];
		}
	emb_dgemm_blis(0, 1, m, m, n, 1, R1, n, R2, n, 0, B, m);
	if ((rc = nearestorth(B, m, g)) < 0)
		goto out;
	dorgqr_(&iD, &im, &im, C, &iD, tau, work, &lwork, &info);
	if (info != 0) {
		rc = EMB_ECONVERGE;
		goto out;
	}
	if ((q = malloc(D * m * sizeof(double))) == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < D; i++)
		for (size_t j = 0; j < m; j++)
			q[i * m + j] = C[j * D + i];
	clearmap(a);
	a->q = q;
	a->g = g;
	a->rank = (uint32_t)m;
	q = g = NULL;
	/* Full when that is smaller: W = E + Q_in (g - I) Q_out^t. */
	if ((uint64_t)din * dout <= (uint64_t)D * m + (uint64_t)m * m) {
		double *w = calloc(din * dout, sizeof(double));
		double *t = malloc(din * m * sizeof(double));

		if (w == NULL || t == NULL) {
			free(w);
			free(t);
			rc = EMB_ENOMEM;
			goto out;
		}
		for (size_t i = 0; i < m; i++)
			a->g[i * m + i] -= 1;
		emb_dgemm_blis(0, 0, din, m, m, 1, a->q, m, a->g, m, 0, t, m);
		emb_dgemm_blis(0, 1, din, dout, m, 1, t, m, a->q, m, 0, w,
		    dout);
		for (size_t i = 0; i < din && i < dout; i++)
			w[i * dout + i] += 1;
		free(t);
		clearmap(a);
		a->w = w;
	}
	rc = 0;
out:
	free(C);
	free(tau);
	free(R1);
	free(R2);
	free(B);
	free(g);
	free(q);
	free(work);
	return rc;
}

int
emb_align_fit(struct emb_align *a, const double *X, const double *Z,
    size_t n)
{
	int rc;

	if (n == 0)
		return EMB_EEMPTY;
	if (n >= a->din || n >= a->dout)
		rc = fitfull(a, X, Z, n);
	else
		rc = fitthin(a, X, Z, n);
	if (rc == 0)
		a->count = n;
	return rc;
}

uint64_t
emb_align_fitmem(uint32_t din, uint32_t dout, uint64_t n)
{
	uint64_t D = din > dout ? din : dout, r = din < dout ? din : dout, m;
	long double b;

	/* Doubles: the matrices, dgesdd's and dgeqrf's work, with room. */
	if (n >= r)
		b = 2.0L * din * dout + (long double)(din + dout) * r +
		    5.0L * r * r + 8.0L * D + 16;
	else {
		m = D < 2 * n ? D : 2 * n;
		b = (long double)D * (2 * n + 2 * m + 64) + 16.0L * m * m +
		    32.0L * m + 16;
	}
	b *= sizeof(double);
	return b >= 0x1p64L ? UINT64_MAX : (uint64_t)b;
}

/* What the lanes of one emb_align_map share. */
struct mapjob {
	const struct emb_align *a;
	int		 side;
	const float	*in;
	float		*out;
	double		*x;		/* n x din: the rows normalized */
	double		*y;		/* n x dout: mapped (source side) */
	double		*t;		/* thin: n x 2 rank */
	double		*gi;		/* thin: G - I */
};

/* Rows r0 .. r1 normalized, mapped, rounded to float. */
static void
maplane(void *arg, int worker, size_t lane, size_t r0, size_t r1)
{
	struct mapjob *j = arg;
	const struct emb_align *a = j->a;
	uint32_t din = j->side ? a->dout : a->din, dout = a->dout;
	double *x = j->x + r0 * din, *y = x;
	size_t n = r1 - r0;

	(void)worker;
	(void)lane;
	for (size_t r = 0; r < n; r++)
		emb_align_norm(a, j->side, a->nsteps, j->in + (r0 + r) * din,
		    x + r * din);
	if (!j->side && a->w != NULL) {
		y = j->y + r0 * dout;
		emb_dgemm_blis(0, 0, n, dout, din, 1, x, din, a->w, dout, 0, y,
		    dout);
	} else if (!j->side) {
		size_t m = a->rank;
		double *t = j->t + r0 * 2 * m, *u = t + n * m;

		/* y = x E + ((x Q_in) (G - I)) Q_out^t. */
		y = j->y + r0 * dout;
		memset(y, 0, n * dout * sizeof(double));
		if (m > 0) {
			emb_dgemm_blis(0, 0, n, m, din, 1, x, din, a->q, m, 0,
			    t, m);
			emb_dgemm_blis(0, 0, n, m, m, 1, t, m, j->gi, m, 0, u,
			    m);
			emb_dgemm_blis(0, 1, n, dout, m, 1, u, m, a->q, m, 0,
			    y, dout);
		}
		for (size_t r = 0; r < n; r++)
			for (uint32_t i = 0; i < din && i < dout; i++)
				y[r * dout + i] += x[r * din + i];
	}
	for (size_t i = 0; i < n * dout; i++)
		j->out[r0 * dout + i] = (float)y[i];
}

int
emb_align_map(const struct emb_align *a, int side, const float *in,
    size_t n, float *out, int nthreads)
{
	uint32_t din = side ? a->dout : a->din, dout = a->dout;
	struct mapjob j = { a, side, in, out, NULL, NULL, NULL, NULL };
	size_t m = a->w == NULL ? a->rank : 0;
	int rc = 0;

	if (n == 0)
		return 0;
	j.x = malloc(n * din * sizeof(double));
	j.y = side ? NULL : malloc(n * dout * sizeof(double));
	if (!side && m > 0) {
		j.t = malloc(n * 2 * m * sizeof(double));
		if ((j.gi = malloc(m * m * sizeof(double))) != NULL) {
			memcpy(j.gi, a->g, m * m * sizeof(double));
			for (size_t i = 0; i < m; i++)
				j.gi[i * m + i] -= 1;
		}
	}
	if (j.x == NULL || (!side && j.y == NULL) ||
	    (!side && m > 0 && (j.t == NULL || j.gi == NULL))) {
		rc = EMB_ENOMEM;
		goto out;
	}
	/* Each row on its own: the lanes change no bit of the result. */
	emb_par_run(nthreads, n, (n + 255) / 256, maplane, &j);
out:
	free(j.x);
	free(j.y);
	free(j.t);
	free(j.gi);
	return rc;
}

int
emb_align_save(const struct emb_align *a, int fd)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	int bad, c = 0, rc;

	if ((fp = open_memstream(&buf, &len)) == NULL)
		return EMB_ENOMEM;
	fprintf(fp, "%s\ndin %u\ndout %u\nsteps", MAGIC, a->din, a->dout);
	for (int s = 0; s < a->nsteps; s++)
		fprintf(fp, " %s", stepname[a->steps[s]]);
	fprintf(fp, "%s\ncount %llu\n", a->nsteps ? "" : " none",
	    (unsigned long long)a->count);
	bad = 0;
	for (c = 0; c < a->ncenter; c++)
		bad |= emb_tm_putrow(fp, "smean", a->smean + (size_t)c * a->din,
		    a->din) < 0;
	for (c = 0; c < a->ncenter; c++)
		bad |= emb_tm_putrow(fp, "tmean", a->tmean +
		    (size_t)c * a->dout, a->dout) < 0;
	if (a->w != NULL)
		for (uint32_t i = 0; i < a->din; i++)
			bad |= emb_tm_putrow(fp, "w",
			    a->w + (size_t)i * a->dout, a->dout) < 0;
	else {
		uint32_t D = a->din > a->dout ? a->din : a->dout, m = a->rank;

		fprintf(fp, "rank %u\n", m);
		for (uint32_t i = 0; m > 0 && i < D; i++)
			bad |= emb_tm_putrow(fp, "q", a->q + (size_t)i * m, m) <
			    0;
		for (uint32_t i = 0; i < m; i++)
			bad |= emb_tm_putrow(fp, "g", a->g + (size_t)i * m, m) <
			    0;
	}
	bad |= ferror(fp) != 0;
	bad |= fclose(fp) != 0;
	rc = bad ? EMB_ENOMEM : emb_tm_write_crc(fd, buf, len);
	free(buf);
	return rc;
}

/* "steps none" or "steps NAME ...": 0 or EMB_EFORMAT. */
static int
getsteps(struct emb_src *s, char **line, unsigned long *lno, int *steps,
    int *nsteps)
{
	char *p, *tok, *save;

	*nsteps = 0;
	if (emb_tm_getl(s, line, lno) < 0 ||
	    strncmp(*line, "steps ", 6) != 0)
		return EMB_EFORMAT;
	p = *line + 6;
	if (strcmp(p, "none") == 0)
		return 0;
	for (tok = strtok_r(p, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		if (*nsteps == EMB_ALIGN_STEPS_MAX)
			return EMB_EFORMAT;
		if (strcmp(tok, "unit") == 0)
			steps[(*nsteps)++] = EMB_ALIGN_UNIT;
		else if (strcmp(tok, "center") == 0)
			steps[(*nsteps)++] = EMB_ALIGN_CENTER;
		else
			return EMB_EFORMAT;
	}
	return *nsteps > 0 ? 0 : EMB_EFORMAT;
}

/*
 * A row "label x_1 ... x_n" of line, each number as %.17g prints a finite
 * double (digits, sign, point, lowercase exponent) after one blank: no hex
 * float, no infinity or NaN, no other space.  @return 0 or EMB_EFORMAT.
 */
static int
numrow(const char *line, const char *label, double *v, uint32_t n)
{
	const char *p = line + strnlen(line, strlen(label));

	if (strspn(p, " 0123456789+-.e") != strlen(p) ||
	    strstr(p, "  ") != NULL)
		return EMB_EFORMAT;
	return emb_tm_numrow(line, label, v, n);
}

static int
getrow(struct emb_src *s, char **line, unsigned long *lno, const char *label,
    double *v, uint32_t n)
{
	if (emb_tm_getl(s, line, lno) < 0)
		return EMB_EFORMAT;
	return numrow(*line, label, v, n);
}

/*
 * The largest |entry of A A^t - I| for the r x c row-major A (ta = 0) or
 * of A^t A (ta = 1), and in *at the larger index of its entry.
 */
static double
orthdev(const double *A, size_t r, size_t c, int ta, size_t *at)
{
	size_t k = ta ? c : r;
	double *G = malloc(k * k * sizeof(double)), dev = 0;

	*at = 0;
	if (G == NULL)
		return -1;
	if (ta)
		emb_dgemm_blis(1, 0, c, c, r, 1, A, c, A, c, 0, G, c);
	else
		emb_dgemm_blis(0, 1, r, r, c, 1, A, c, A, c, 0, G, r);
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j <= i; j++) {
			double e = fabs(G[i * k + j] - (i == j));

			/* NaN too: dev is raised past any tolerance. */
			if (!(e <= dev)) {
				dev = isnan(e) ? INFINITY : e;
				*at = i;
			}
		}
	free(G);
	return dev;
}

/*
 * W orthogonal to within EMB_ALIGN_ORTHTOL: 0, EMB_ERANGE with the line
 * of the offending row in *lno (w0, q0, g0: the first lines), or
 * EMB_ENOMEM.
 */
static int
orthcheck(const struct emb_align *a, unsigned long w0, unsigned long g0,
    unsigned long *lno)
{
	size_t D = a->din > a->dout ? a->din : a->dout, m = a->rank, at;
	double tol = EMB_ALIGN_ORTHTOL(D), dev;

	if (a->w != NULL) {
		/* Orthonormal rows (din <= dout) or columns. */
		int ta = a->din > a->dout;

		if ((dev = orthdev(a->w, a->din, a->dout, ta, &at)) < 0)
			return EMB_ENOMEM;
		*lno = w0 + (ta ? 0 : at);
		return dev <= tol ? 0 : EMB_ERANGE;
	}
	if (m == 0)
		return 0;
	if ((dev = orthdev(a->q, D, m, 1, &at)) < 0)
		return EMB_ENOMEM;
	*lno = w0;
	if (dev > tol)
		return EMB_ERANGE;
	if ((dev = orthdev(a->g, m, m, 0, &at)) < 0)
		return EMB_ENOMEM;
	*lno = g0 + at;
	return dev <= tol ? 0 : EMB_ERANGE;
}

int
emb_align_load(struct emb_align **ap, int fd, unsigned long *lno)
{
	unsigned long long din, dout, count, rank;
	unsigned long w0 = 0, g0 = 0;
	struct emb_align *a = NULL;
	int steps[EMB_ALIGN_STEPS_MAX], nsteps, rc;
	char *buf, *line, *nul;
	size_t len, D;
	struct emb_src s;

	*ap = NULL;
	*lno = 0;
	if ((rc = emb_tm_read_crc(fd, &buf, &len)) < 0)
		return rc;
	if (len == 0) {
		free(buf);
		return EMB_EFORMAT;
	}
	rc = EMB_EFORMAT;
	/* emb_align_save writes no NUL byte: its line is named. */
	if ((nul = memchr(buf, '\0', len)) != NULL) {
		*lno = 1;
		for (char *p = buf; p < nul; p++)
			*lno += *p == '\n';
		goto out;
	}
	/* Every line ends in LF: the crc32 line's check saw to it. */
	emb_src_mem(&s, buf, len);
	if (emb_tm_getl(&s, &line, lno) < 0 || strcmp(line, MAGIC) != 0)
		goto out;
	if (emb_tm_getnum(&s, &line, lno, "din", EMB_ALIGN_DIM_MAX,
	    &din) < 0 || din == 0 ||
	    emb_tm_getnum(&s, &line, lno, "dout", EMB_ALIGN_DIM_MAX,
	    &dout) < 0 || dout == 0 ||
	    getsteps(&s, &line, lno, steps, &nsteps) < 0 ||
	    emb_tm_getnum(&s, &line, lno, "count", UINT64_MAX,
	    &count) < 0)
		goto out;
	if ((rc = emb_align_create(&a, (uint32_t)din, (uint32_t)dout, steps,
	    nsteps)) < 0)
		goto out;
	rc = EMB_EFORMAT;
	a->count = count;
	D = din > dout ? din : dout;
	for (int c = 0; c < a->ncenter; c++)
		if (getrow(&s, &line, lno, "smean",
		    a->smean + (size_t)c * din, a->din) < 0)
			goto out;
	for (int c = 0; c < a->ncenter; c++)
		if (getrow(&s, &line, lno, "tmean",
		    a->tmean + (size_t)c * dout, a->dout) < 0)
			goto out;
	if (emb_tm_getl(&s, &line, lno) < 0)
		goto out;
	w0 = *lno;
	/*
	 * The whole file is in memory, checksummed: the map's doubles are
	 * at most what its text already holds (two bytes or more a number),
	 * unless the rows are missing, checked first.
	 */
	if (strncmp(line, "rank ", 5) == 0) {
		char *end;

		errno = 0;
		rank = strtoull(line + 5, &end, 10);
		if (*end != '\0' || end == line + 5 || errno != 0 ||
		    line[5] < '0' || line[5] > '9' || rank > D ||
		    (rank > 0 && len / 2 / rank < D + rank))
			goto out;
		a->rank = (uint32_t)rank;
		a->q = malloc((D * rank + 1) * sizeof(double));
		a->g = malloc((rank * rank + 1) * sizeof(double));
		if (a->q == NULL || a->g == NULL) {
			rc = EMB_ENOMEM;
			goto out;
		}
		w0 = *lno + 1;
		for (size_t i = 0; rank > 0 && i < D; i++)
			if (getrow(&s, &line, lno, "q", a->q + i * rank,
			    a->rank) < 0)
				goto out;
		g0 = *lno + 1;
		for (size_t i = 0; i < rank; i++)
			if (getrow(&s, &line, lno, "g", a->g + i * rank,
			    a->rank) < 0)
				goto out;
	} else {
		if (len / 2 / dout < din)
			goto out;
		if ((a->w = malloc(din * dout * sizeof(double))) == NULL) {
			rc = EMB_ENOMEM;
			goto out;
		}
		for (uint32_t i = 0; i < a->din; i++)
			if ((i > 0 && emb_tm_getl(&s, &line, lno) < 0) ||
			    numrow(line, "w", a->w + (size_t)i * dout,
			    a->dout) < 0)
				goto out;
	}
	if (emb_tm_getl(&s, &line, lno) != -1)
		goto out;
	if ((rc = orthcheck(a, w0, g0, lno)) < 0)
		goto out;
	rc = 0;
out:
	free(buf);
	if (rc < 0) {
		emb_align_free(a);
		return rc;
	}
	*lno = 0;
	*ap = a;
	return 0;
}
