/*
 * pca.c - mean-centering and removal of the top principal components.
 *
 * A model is fitted on one stream (the mean and the leading eigenvectors
 * of the second-moment matrix, centered or not), saved as a small text
 * file, and applied to any other stream, so that train and test data are
 * transformed identically.
 *
 * Memory follows the vectors read, never the dimension alone.  While
 * fewer vectors than the dimension d have come, they are kept (shifted by
 * the first vector), and the components come from their n x n Gram
 * matrix: its eigenvectors u give the components Y u, Y the vectors.
 * When the d-th vector comes, the d x d second moments are formed (BLAS
 * dsyrk over BLIS) and then accumulated in blocks around the first vector
 * (shifted data keep the subtraction of the mean accurate); the
 * eigenvectors come from LAPACK dsyevr either way.
 */
#include "num/emb-num.h"
#include "io/src.h"
#include "io/tmodel.h"
#include "base/lapack.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK	256	/* vectors per dsyrk update once m2 exists */
#define MAGIC	"emb-pca 1"
/* Below this share of the largest eigenvalue a direction is null. */
#define NULLREL	1e-10

struct emb_pcafit {
	uint32_t	 dim;
	uint64_t	 count;
	double		*shift;		/* the first vector */
	double		*sum;		/* sum of (x - shift) */
	double		*m2;		/* dim x dim, upper: sum of products;
					 * NULL while count < dim */
	double		*rows;		/* x - shift, a vector per column of a
					 * dim x cap column-major matrix */
	size_t		 nrows, cap;
};

int
emb_pcafit_create(struct emb_pcafit **fp, uint32_t dim)
{
	struct emb_pcafit *f;

	*fp = NULL;
	if (dim == 0 || dim > EMB_PCA_DIM_MAX)
		return EMB_EDIM;
	if ((f = calloc(1, sizeof(*f))) == NULL)
		return EMB_ENOMEM;
	f->dim = dim;
	f->shift = calloc(dim, sizeof(double));
	f->sum = calloc(dim, sizeof(double));
	if (f->shift == NULL || f->sum == NULL) {
		emb_pcafit_free(f);
		return EMB_ENOMEM;
	}
	*fp = f;
	return 0;
}

/* m2 += R R^t over the rows kept, which are then dropped. */
static void
flushrows(struct emb_pcafit *f)
{
	int n = (int)f->dim, k = (int)f->nrows;
	double one = 1;

	if (k == 0 || f->m2 == NULL)
		return;
	dsyrk_("U", "N", &n, &k, &one, f->rows, &n, &one, f->m2, &n);
	f->nrows = 0;
}

/* Room for the rows: at most dim of them before m2, BLOCK after. */
static int
growrows(struct emb_pcafit *f)
{
	return emb_grow_max(&f->rows, &f->cap, f->nrows + 1, f->m2 != NULL ?
	    BLOCK : f->dim, f->dim * sizeof(double));
}

/* The d-th vector has come: the d x d second moments from the rows. */
static int
tom2(struct emb_pcafit *f)
{
	size_t sz = (size_t)f->dim * f->dim * sizeof(double);
	double *p;

	if ((f->m2 = emb_alloc(sz)) == NULL)
		return EMB_ENOMEM;
	memset(f->m2, 0, sz);
	flushrows(f);
	if (f->cap > BLOCK && (p = realloc(f->rows, (size_t)BLOCK * f->dim *
	    sizeof(double))) != NULL) {
		f->rows = p;
		f->cap = BLOCK;
	}
	return 0;
}

int
emb_pcafit_add(struct emb_pcafit *f, const float *v)
{
	double *b;

	if (growrows(f) < 0)
		return EMB_ENOMEM;
	b = f->rows + f->nrows * f->dim;
	if (f->count == 0)
		for (uint32_t i = 0; i < f->dim; i++)
			f->shift[i] = v[i];
	for (uint32_t i = 0; i < f->dim; i++) {
		b[i] = v[i] - f->shift[i];
		f->sum[i] += b[i];
	}
	f->count++;
	f->nrows++;
	if (f->m2 == NULL && f->nrows == f->dim)
		return tom2(f);
	if (f->m2 != NULL && f->nrows == BLOCK)
		flushrows(f);
	return 0;
}

void
emb_pcafit_free(struct emb_pcafit *f)
{
	if (f == NULL)
		return;
	free(f->shift);
	free(f->sum);
	emb_free(f->m2);
	free(f->rows);
	free(f);
}

static struct emb_pca *
pcanew(uint32_t dim, uint32_t ncomp)
{
	struct emb_pca *p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->dim = dim;
	p->ncomp = ncomp;
	p->mean = calloc(dim, sizeof(double));
	p->comp = calloc((size_t)ncomp * dim + 1, sizeof(double));
	p->work = calloc(dim, sizeof(double));
	if (p->mean == NULL || p->comp == NULL || p->work == NULL) {
		emb_pca_free(p);
		return NULL;
	}
	return p;
}

/*
 * The top m eigenpairs of the n x n symmetric matrix a (upper triangle,
 * overwritten): w[k], z column k, largest first.  @return 0,
 * EMB_ECONVERGE or EMB_ENOMEM.
 */
static int
topeig(double *a, int n, int m, double *w, double *z)
{
	double q, zero = 0, *work = NULL, *ww = NULL, *zz = NULL;
	int il = n - m + 1, iu = n, got, info, lwork = -1, liwork = -1, iq,
	    *isuppz = NULL, *iwork = NULL, rc = 0;

	ww = malloc((size_t)n * sizeof(double));
	zz = malloc((size_t)n * m * sizeof(double));
	isuppz = malloc(2 * (size_t)m * sizeof(int));
	if (ww == NULL || zz == NULL || isuppz == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	dsyevr_("V", "I", "U", &n, a, &n, &zero, &zero, &il, &iu, &zero,
	    &got, ww, zz, &n, isuppz, &q, &lwork, &iq, &liwork, &info, 1, 1,
	    1);
	lwork = (int)q;
	liwork = iq;
	work = malloc((size_t)lwork * sizeof(double));
	iwork = malloc((size_t)liwork * sizeof(int));
	if (work == NULL || iwork == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	dsyevr_("V", "I", "U", &n, a, &n, &zero, &zero, &il, &iu, &zero,
	    &got, ww, zz, &n, isuppz, work, &lwork, iwork, &liwork, &info, 1,
	    1, 1);
	if (info != 0 || got != m) {
		rc = EMB_ECONVERGE;
		goto out;
	}
	for (int k = 0; k < m; k++) {
		w[k] = ww[m - 1 - k];
		memcpy(z + (size_t)k * n, zz + (size_t)(m - 1 - k) * n,
		    (size_t)n * sizeof(double));
	}
out:
	free(ww);
	free(zz);
	free(isuppz);
	free(work);
	free(iwork);
	return rc;
}

/* y (dim) minus its projections on the k unit rows of comp, in turn. */
static void
deflate(double *y, const double *comp, uint32_t k, uint32_t dim)
{
	for (uint32_t j = 0; j < k; j++) {
		const double *c = comp + (size_t)j * dim;
		double s = 0;

		for (uint32_t i = 0; i < dim; i++)
			s += c[i] * y[i];
		for (uint32_t i = 0; i < dim; i++)
			y[i] -= s * c[i];
	}
}

/*
 * c (dim) made orthogonal to the k unit rows of comp (twice, which keeps
 * it orthogonal to rounding) and scaled to unit length.  @return its
 * length before the scaling, relative to the length it came with.
 */
static double
orthonormal(double *c, const double *comp, uint32_t k, uint32_t dim)
{
	double n0 = 0, n1 = 0;

	for (uint32_t i = 0; i < dim; i++)
		n0 += c[i] * c[i];
	deflate(c, comp, k, dim);
	deflate(c, comp, k, dim);
	for (uint32_t i = 0; i < dim; i++)
		n1 += c[i] * c[i];
	if (n1 == 0 || n0 == 0)
		return 0;
	for (uint32_t i = 0; i < dim; i++)
		c[i] /= sqrt(n1);
	return sqrt(n1 / n0);
}

/*
 * Components k.. of a direction the data do not span: the unit vector
 * e_i of the largest part outside the components found (the first on a
 * tie), made orthogonal to them.  Deterministic, as the data leave any
 * choice equally good.
 */
static void
complete(double *comp, uint32_t k, uint32_t ncomp, uint32_t dim,
    double *rest)
{
	for (uint32_t i = 0; i < dim; i++) {
		rest[i] = 1;
		for (uint32_t j = 0; j < k; j++)
			rest[i] -= comp[(size_t)j * dim + i] *
			    comp[(size_t)j * dim + i];
	}
	for (; k < ncomp; k++) {
		double *c = comp + (size_t)k * dim;
		uint32_t best = 0;

		for (uint32_t i = 1; i < dim; i++)
			if (rest[i] > rest[best])
				best = i;
		memset(c, 0, dim * sizeof(double));
		c[best] = 1;
		orthonormal(c, comp, k, dim);
		for (uint32_t i = 0; i < dim; i++)
			rest[i] -= c[i] * c[i];
	}
}

/*
 * The sign of a component: its largest entry positive, the first of those
 * within a relative 1e-6 of the largest, so that rounding cannot choose
 * another one.
 */
static void
signcomp(double *c, uint32_t dim)
{
	double big = 0;
	uint32_t i;

	for (i = 0; i < dim; i++)
		if (fabs(c[i]) > big)
			big = fabs(c[i]);
	for (i = 0; i < dim && fabs(c[i]) < big * (1 - 1e-6); i++)
		;
	if (i < dim && c[i] < 0)
		for (i = 0; i < dim; i++)
			c[i] = -c[i];
}

/*
 * Second moments around the shift s: M = sum (x-s)(x-s)^t / n.  The
 * centered matrix is M - d d^t with d = mean - s; the uncentered one is
 * M + s d^t + d s^t + s s^t.
 */
static int
primal(struct emb_pcafit *f, struct emb_pca *p, int center)
{
	uint32_t dim = f->dim, ncomp = p->ncomp;
	double n = (double)f->count, *c = f->m2, *w, *z;
	int rc;

	flushrows(f);
	for (uint32_t j = 0; j < dim; j++) {
		double dj = f->sum[j] / n, sj = f->shift[j];

		for (uint32_t i = 0; i <= j; i++) {
			double di = f->sum[i] / n, si = f->shift[i];
			double *cij = &c[i + (size_t)j * dim];

			*cij /= n;
			if (center)
				*cij -= di * dj;
			else
				*cij += si * dj + di * sj + si * sj;
		}
	}
	w = malloc(ncomp * sizeof(double));
	z = malloc((size_t)dim * ncomp * sizeof(double));
	if (w == NULL || z == NULL)
		rc = EMB_ENOMEM;
	else if ((rc = topeig(c, (int)dim, (int)ncomp, w, z)) == 0)
		memcpy(p->comp, z, (size_t)dim * ncomp * sizeof(double));
	free(w);
	free(z);
	return rc;
}

/*
 * Fewer vectors than dimensions: Y the vectors (centered, or as they
 * are), G = Y^t Y / n, and a component Y u / |Y u| for each of G's
 * leading eigenvectors u; directions of no variance are completed.
 */
static int
gram(struct emb_pcafit *f, struct emb_pca *p, int center)
{
	uint32_t dim = f->dim, ncomp = p->ncomp, k;
	size_t nr = f->nrows;
	int n = (int)nr, m = ncomp < nr ? (int)ncomp : n, rc;
	double *y = f->rows, *g, *w, *z, *rest, zero = 0, inv = 1 / (double)n;

	for (size_t r = 0; r < nr; r++)
		for (uint32_t i = 0; i < dim; i++)
			y[r * dim + i] += center ? -f->sum[i] / (double)n :
			    f->shift[i];
	g = malloc(nr * nr * sizeof(double));
	w = malloc(nr * sizeof(double));
	z = malloc(nr * (size_t)m * sizeof(double));
	rest = malloc(dim * sizeof(double));
	if (g == NULL || w == NULL || z == NULL || rest == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	{
		int d = (int)dim;

		dsyrk_("U", "T", &n, &d, &inv, y, &d, &zero, g, &n);
	}
	if ((rc = topeig(g, n, m, w, z)) < 0)
		goto out;
	for (k = 0; k < (uint32_t)m; k++) {
		double *c = p->comp + (size_t)k * dim;
		const double *u = z + (size_t)k * nr;

		if (!(w[k] > w[0] * NULLREL))
			break;
		memset(c, 0, dim * sizeof(double));
		for (size_t r = 0; r < nr; r++)
			for (uint32_t i = 0; i < dim; i++)
				c[i] += y[r * dim + i] * u[r];
		if (orthonormal(c, p->comp, k, dim) < 0.5)
			break;
	}
	complete(p->comp, k, ncomp, dim, rest);
out:
	free(g);
	free(w);
	free(z);
	free(rest);
	return rc;
}

int
emb_pcafit_done(struct emb_pcafit *f, uint32_t ncomp, int center,
    struct emb_pca **pp)
{
	uint32_t dim = f->dim;
	struct emb_pca *p;
	int rc = 0;

	*pp = NULL;
	if (f->count == 0)
		return EMB_EEMPTY;
	if (ncomp > dim)
		return EMB_EINVAL;
	if ((p = pcanew(dim, ncomp)) == NULL)
		return EMB_ENOMEM;
	p->center = center;
	p->count = f->count;
	for (uint32_t j = 0; j < dim; j++)
		p->mean[j] = center ? f->shift[j] + f->sum[j] /
		    (double)f->count : 0;
	if (ncomp > 0)
		rc = f->m2 != NULL ? primal(f, p, center) : gram(f, p, center);
	if (rc < 0) {
		emb_pca_free(p);
		return rc;
	}
	/* Largest eigenvalue first, each signed alike whatever the route. */
	for (uint32_t k = 0; k < ncomp; k++)
		signcomp(p->comp + (size_t)k * dim, dim);
	*pp = p;
	return 0;
}
void
emb_pca_apply(const struct emb_pca *p, const float *in, float *out)
{
	uint32_t dim = p->dim;
	double *y = p->work;

	for (uint32_t i = 0; i < dim; i++)
		y[i] = (double)in[i] - p->mean[i];
	deflate(y, p->comp, p->ncomp, dim);
	for (uint32_t i = 0; i < dim; i++)
		out[i] = (float)y[i];
}

void
emb_pca_project(const struct emb_pca *p, const float *in, float *out)
{
	uint32_t dim = p->dim;
	double *y = p->work;

	for (uint32_t i = 0; i < dim; i++)
		y[i] = (double)in[i] - p->mean[i];
	for (uint32_t k = 0; k < p->ncomp; k++) {
		const double *c = p->comp + (size_t)k * dim;
		double s = 0;

		for (uint32_t i = 0; i < dim; i++)
			s += c[i] * y[i];
		out[k] = (float)s;
	}
}

void
emb_pca_free(struct emb_pca *p)
{
	if (p == NULL)
		return;
	free(p->mean);
	free(p->comp);
	free(p->work);
	free(p);
}

int
emb_pca_save(const struct emb_pca *p, int fd)
{
	FILE *fp;
	int dfd, bad;

	if ((dfd = dup(fd)) < 0 || (fp = fdopen(dfd, "w")) == NULL) {
		if (dfd >= 0)
			close(dfd);
		return EMB_EIO;
	}
	fprintf(fp, "%s\ndim %u\ncenter %d\ncount %llu\nncomp %u\n", MAGIC,
	    p->dim, p->center, (unsigned long long)p->count, p->ncomp);
	bad = emb_tm_putrow(fp, "mean", p->mean, p->dim) < 0;
	for (uint32_t k = 0; k < p->ncomp; k++)
		bad |= emb_tm_putrow(fp, "comp", p->comp + (size_t)k * p->dim,
		    p->dim) < 0;
	bad |= ferror(fp) != 0;
	bad |= fclose(fp) != 0;
	return bad ? EMB_EIO : 0;
}

int
emb_pca_load(struct emb_pca **pp, int fd, unsigned long *lno)
{
	struct emb_src s;
	char *line;
	unsigned long long dim, center, count, ncomp;
	struct emb_pca *p = NULL;
	int rc;

	*pp = NULL;
	*lno = 0;
	if (emb_src_open(&s, fd, NULL, 1u << 16) < 0) {
		emb_src_close(&s);
		return EMB_ENOMEM;
	}
	rc = EMB_EFORMAT;
	if (emb_tm_getl(&s, &line, lno) < 0 || strcmp(line, MAGIC) != 0)
		goto out;
	if (emb_tm_getnum(&s, &line, lno, "dim", EMB_PCA_DIM_MAX,
	    &dim) < 0 || dim == 0 ||
	    emb_tm_getnum(&s, &line, lno, "center", 1, &center) < 0 ||
	    emb_tm_getnum(&s, &line, lno, "count", UINT64_MAX, &count) < 0 ||
	    emb_tm_getnum(&s, &line, lno, "ncomp", dim, &ncomp) < 0)
		goto out;
	/* Room for the components as they are read, not as declared. */
	if ((p = pcanew((uint32_t)dim, 0)) == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	p->center = (int)center;
	p->count = count;
	if (emb_tm_getrow(&s, &line, lno, "mean", p->mean, p->dim) < 0)
		goto out;
	/* The first component alone, then room doubled up to ncomp. */
	for (size_t k = 0, kcap = 0; k < ncomp; k++) {
		if (emb_grow_max(&p->comp, &kcap, k + 1, k > 0 ? ncomp : 1,
		    p->dim * sizeof(double)) < 0) {
			rc = EMB_ENOMEM;
			goto out;
		}
		if (emb_tm_getrow(&s, &line, lno, "comp",
		    p->comp + (size_t)k * p->dim, p->dim) < 0)
			goto out;
		p->ncomp = (uint32_t)k + 1;
	}
	if (emb_tm_getl(&s, &line, lno) != -1)
		goto out;
	rc = s.err < 0 ? EMB_EIO : 0;
out:
	emb_src_close(&s);
	if (rc < 0) {
		emb_pca_free(p);
		return rc;
	}
	*lno = 0;
	*pp = p;
	return 0;
}
