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
 * The model is a text file (emb-align(1), FILES) that ends in the crc32
 * of what precedes it, so that a model cut short or damaged is refused.
 */
#include "emb.h"
#include "tmodel.h"
#include "clf.h"
#include "src.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void dgesdd_(const char *jobz, const int *m, const int *n, double *a,
    const int *lda, double *s, double *u, const int *ldu, double *vt,
    const int *ldvt, double *work, const int *lwork, int *iwork, int *info,
    size_t);

#define MAGIC	"emb-align 1"

static const char *const stepname[] = { "", "unit", "center" };

int
emb_align_create(struct emb_align **ap, uint32_t din, uint32_t dout,
    const int *steps, int nsteps)
{
	struct emb_align *a;
	size_t nw;

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
	nw = (size_t)din * dout;
	a->smean = calloc((size_t)a->ncenter * din + 1, sizeof(double));
	a->tmean = calloc((size_t)a->ncenter * dout + 1, sizeof(double));
	a->w = calloc(nw, sizeof(double));
	if (a->smean == NULL || a->tmean == NULL || a->w == NULL) {
		emb_align_free(a);
		return EMB_ENOMEM;
	}
	/* The identity (or its nearest rectangular kin) until a fit. */
	for (uint32_t i = 0; i < din && i < dout; i++)
		a->w[(size_t)i * dout + i] = 1;
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
	free(a);
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

int
emb_align_fit(struct emb_align *a, const double *X, const double *Z,
    size_t n)
{
	int m = (int)a->dout, nn = (int)a->din, r = m < nn ? m : nn;
	int lwork = -1, info, *iwork = NULL, rc = 0;
	double *M = NULL, *s = NULL, *u = NULL, *vt = NULL, *work = NULL, q;

	if (n == 0)
		return EMB_EEMPTY;
	/*
	 * M = X^t Z (din x dout, row-major) is, column-major, the dout x din
	 * matrix M^t = V S U^t: dgesdd's left vectors are V, its right U^t,
	 * and W = U V^t, row-major, is VT (din x r) times Ut (r x dout).
	 */
	M = malloc((size_t)a->din * a->dout * sizeof(double));
	s = malloc((size_t)r * sizeof(double));
	u = malloc((size_t)m * r * sizeof(double));
	vt = malloc((size_t)r * nn * sizeof(double));
	iwork = malloc(8 * (size_t)r * sizeof(int));
	if (M == NULL || s == NULL || u == NULL || vt == NULL || iwork == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	emb_dgemm_blis(1, 0, a->din, a->dout, n, 1, X, a->din, Z, a->dout, 0,
	    M, a->dout);
	dgesdd_("S", &m, &nn, M, &m, s, u, &m, vt, &r, &q, &lwork, iwork,
	    &info, 1);
	lwork = (int)q;
	if ((work = malloc((size_t)lwork * sizeof(double))) == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	dgesdd_("S", &m, &nn, M, &m, s, u, &m, vt, &r, work, &lwork, iwork,
	    &info, 1);
	if (info != 0) {
		rc = EMB_ECONVERGE;
		goto out;
	}
	emb_dgemm_blis(0, 0, a->din, a->dout, (size_t)r, 1, vt, (size_t)r, u,
	    a->dout, 0, a->w, a->dout);
	a->count = n;
out:
	free(M);
	free(s);
	free(u);
	free(vt);
	free(iwork);
	free(work);
	return rc;
}

/* What the lanes of one emb_align_map share. */
struct mapjob {
	const struct emb_align *a;
	int		 side;
	const float	*in;
	float		*out;
	double		*x;		/* n x din: the rows normalized */
	double		*y;		/* n x dout: mapped (source side) */
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
	if (!j->side) {
		y = j->y + r0 * dout;
		emb_dgemm_blis(0, 0, n, dout, din, 1, x, din, a->w, dout, 0, y,
		    dout);
	}
	for (size_t i = 0; i < n * dout; i++)
		j->out[r0 * dout + i] = (float)y[i];
}

int
emb_align_map(const struct emb_align *a, int side, const float *in,
    size_t n, float *out, int nthreads)
{
	uint32_t din = side ? a->dout : a->din, dout = a->dout;
	struct mapjob j = { a, side, in, out, NULL, NULL };

	if (n == 0)
		return 0;
	j.x = malloc(n * din * sizeof(double));
	j.y = side ? NULL : malloc(n * dout * sizeof(double));
	if (j.x == NULL || (!side && j.y == NULL)) {
		free(j.x);
		free(j.y);
		return EMB_ENOMEM;
	}
	/* Each row on its own: the lanes change no bit of the result. */
	emb_par_run(nthreads, n, (n + 255) / 256, maplane, &j);
	free(j.x);
	free(j.y);
	return 0;
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
	for (uint32_t i = 0; i < a->din; i++)
		bad |= emb_tm_putrow(fp, "w", a->w + (size_t)i * a->dout,
		    a->dout) < 0;
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

int
emb_align_load(struct emb_align **ap, int fd, unsigned long *lno)
{
	unsigned long long din, dout, count;
	struct emb_align *a = NULL;
	int steps[EMB_ALIGN_STEPS_MAX], nsteps, rc;
	char *buf, *line;
	size_t len;
	struct emb_src s;

	*ap = NULL;
	*lno = 0;
	if ((rc = emb_tm_read_crc(fd, &buf, &len)) < 0)
		return rc;
	if (len == 0) {
		free(buf);
		return EMB_EFORMAT;
	}
	/* Every line ends in LF: the crc32 line's check saw to it. */
	emb_src_mem(&s, buf, len);
	rc = EMB_EFORMAT;
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
	/*
	 * The whole file is in memory, checksummed: the map's din x dout
	 * doubles are at most what its text already holds (two bytes or
	 * more a number), unless the rows are missing, checked first.
	 */
	if (len / 2 / dout < din) {
		++*lno;
		goto out;
	}
	if ((rc = emb_align_create(&a, (uint32_t)din, (uint32_t)dout, steps,
	    nsteps)) < 0)
		goto out;
	rc = EMB_EFORMAT;
	a->count = count;
	for (int c = 0; c < a->ncenter; c++)
		if (emb_tm_getrow(&s, &line, lno, "smean",
		    a->smean + (size_t)c * din, a->din) < 0)
			goto out;
	for (int c = 0; c < a->ncenter; c++)
		if (emb_tm_getrow(&s, &line, lno, "tmean",
		    a->tmean + (size_t)c * dout, a->dout) < 0)
			goto out;
	for (uint32_t i = 0; i < a->din; i++)
		if (emb_tm_getrow(&s, &line, lno, "w",
		    a->w + (size_t)i * dout, a->dout) < 0)
			goto out;
	if (emb_tm_getl(&s, &line, lno) != -1)
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
