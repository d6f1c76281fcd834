/*
 * pca.c - mean-centering and removal of the top principal components.
 *
 * A model is fitted on one stream (the mean and the leading eigenvectors
 * of the second-moment matrix, centered or not), saved as a small text
 * file, and applied to any other stream, so that train and test data are
 * transformed identically.  The second moments are accumulated around the
 * first vector (shifted data keep the subtraction of the mean accurate)
 * in blocks, with BLAS dsyrk over BLIS; the eigenvectors come from LAPACK
 * dsyevr.
 */
#include "emb.h"
#include "int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void dsyrk_(const char *uplo, const char *trans, const int *n,
    const int *k, const double *alpha, const double *a, const int *lda,
    const double *beta, double *c, const int *ldc, size_t, size_t);
extern void dsyevr_(const char *jobz, const char *range, const char *uplo,
    const int *n, double *a, const int *lda, const double *vl,
    const double *vu, const int *il, const int *iu, const double *abstol,
    int *m, double *w, double *z, const int *ldz, int *isuppz,
    double *work, const int *lwork, int *iwork, const int *liwork,
    int *info, size_t, size_t, size_t);

#define BLOCK	256	/* vectors per dsyrk update */
#define MAGIC	"emb-pca 1"

struct emb_pcafit {
	uint32_t	 dim;
	uint64_t	 count;
	double		*shift;		/* the first vector */
	double		*sum;		/* sum of (x - shift) */
	double		*m2;		/* dim x dim, upper: sum of products */
	double		*blk;		/* BLOCK x dim, column-major dim x BLOCK */
	size_t		 nblk;
};

int
emb_pcafit_create(struct emb_pcafit **fp, uint32_t dim)
{
	struct emb_pcafit *f;

	*fp = NULL;
	if (dim == 0 || dim > 65536)
		return EMB_EDIM;
	if ((f = calloc(1, sizeof(*f))) == NULL)
		return EMB_ENOMEM;
	f->dim = dim;
	f->shift = calloc(dim, sizeof(double));
	f->sum = calloc(dim, sizeof(double));
	f->m2 = emb_alloc((size_t)dim * dim * sizeof(double));
	f->blk = emb_alloc((size_t)BLOCK * dim * sizeof(double));
	if (f->shift == NULL || f->sum == NULL || f->m2 == NULL ||
	    f->blk == NULL) {
		emb_pcafit_free(f);
		return EMB_ENOMEM;
	}
	memset(f->m2, 0, (size_t)dim * dim * sizeof(double));
	*fp = f;
	return 0;
}

static void
flushblk(struct emb_pcafit *f)
{
	int n = (int)f->dim, k = (int)f->nblk;
	double one = 1;

	if (k == 0)
		return;
	/* m2 += B B^t, B dim x k column-major (a vector per column). */
	dsyrk_("U", "N", &n, &k, &one, f->blk, &n, &one, f->m2, &n, 1, 1);
	f->nblk = 0;
}

int
emb_pcafit_add(struct emb_pcafit *f, const float *v)
{
	double *b = f->blk + f->nblk * f->dim;

	if (f->count == 0)
		for (uint32_t i = 0; i < f->dim; i++)
			f->shift[i] = v[i];
	for (uint32_t i = 0; i < f->dim; i++) {
		b[i] = v[i] - f->shift[i];
		f->sum[i] += b[i];
	}
	f->count++;
	if (++f->nblk == BLOCK)
		flushblk(f);
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
	emb_free(f->blk);
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

int
emb_pcafit_done(struct emb_pcafit *f, uint32_t ncomp, int center,
    struct emb_pca **pp)
{
	uint32_t dim = f->dim;
	struct emb_pca *p;
	double n, *c = f->m2, *w = NULL, *z = NULL, *work = NULL, q;
	int nn = (int)dim, il, iu, m, info, lwork = -1, liwork = -1, iq,
	    *isuppz = NULL, *iwork = NULL, rc = 0;
	double zero = 0;

	*pp = NULL;
	if (f->count == 0)
		return EMB_EEMPTY;
	if (ncomp > dim)
		return EMB_EINVAL;
	flushblk(f);
	if ((p = pcanew(dim, ncomp)) == NULL)
		return EMB_ENOMEM;
	p->center = center;
	p->count = f->count;
	n = (double)f->count;
	/*
	 * Second moments around the shift s: M = sum (x-s)(x-s)^t / n.  The
	 * centered matrix is M - d d^t with d = mean - s; the uncentered one
	 * is M + s d^t + d s^t + s s^t.
	 */
	for (uint32_t j = 0; j < dim; j++) {
		double dj = f->sum[j] / n, sj = f->shift[j];

		p->mean[j] = center ? sj + dj : 0;
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
	if (ncomp == 0)
		goto out;
	il = (int)(dim - ncomp + 1);
	iu = (int)dim;
	w = malloc(dim * sizeof(double));
	z = malloc((size_t)dim * ncomp * sizeof(double));
	isuppz = malloc(2 * (size_t)ncomp * sizeof(int));
	if (w == NULL || z == NULL || isuppz == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	dsyevr_("V", "I", "U", &nn, c, &nn, &zero, &zero, &il, &iu, &zero,
	    &m, w, z, &nn, isuppz, &q, &lwork, &iq, &liwork, &info, 1, 1, 1);
	lwork = (int)q;
	liwork = iq;
	work = malloc((size_t)lwork * sizeof(double));
	iwork = malloc((size_t)liwork * sizeof(int));
	if (work == NULL || iwork == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	dsyevr_("V", "I", "U", &nn, c, &nn, &zero, &zero, &il, &iu, &zero,
	    &m, w, z, &nn, isuppz, work, &lwork, iwork, &liwork, &info, 1, 1,
	    1);
	if (info != 0 || m != (int)ncomp) {
		rc = EMB_ECONVERGE;
		goto out;
	}
	/* Largest eigenvalue first; each signed by its largest entry. */
	for (uint32_t k = 0; k < ncomp; k++) {
		const double *src = z + (size_t)(ncomp - 1 - k) * dim;
		double *dst = p->comp + (size_t)k * dim, big = 0;

		for (uint32_t i = 0; i < dim; i++)
			if (fabs(src[i]) > fabs(big))
				big = src[i];
		for (uint32_t i = 0; i < dim; i++)
			dst[i] = big < 0 ? -src[i] : src[i];
	}
out:
	free(w);
	free(z);
	free(isuppz);
	free(work);
	free(iwork);
	if (rc < 0) {
		emb_pca_free(p);
		return rc;
	}
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
	for (uint32_t k = 0; k < p->ncomp; k++) {
		const double *c = p->comp + (size_t)k * dim;
		double s = 0;

		for (uint32_t i = 0; i < dim; i++)
			s += c[i] * y[i];
		for (uint32_t i = 0; i < dim; i++)
			y[i] -= s * c[i];
	}
	for (uint32_t i = 0; i < dim; i++)
		out[i] = (float)y[i];
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

/* Print a row of n doubles after a label; %.17g reads back exactly. */
static int
putrow(FILE *fp, const char *label, const double *v, uint32_t n)
{
	fputs(label, fp);
	for (uint32_t i = 0; i < n; i++)
		fprintf(fp, " %.17g", v[i]);
	return putc('\n', fp) == EOF ? -1 : 0;
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
	bad = putrow(fp, "mean", p->mean, p->dim) < 0;
	for (uint32_t k = 0; k < p->ncomp; k++)
		bad |= putrow(fp, "comp", p->comp + (size_t)k * p->dim,
		    p->dim) < 0;
	bad |= ferror(fp) != 0;
	bad |= fclose(fp) != 0;
	return bad ? EMB_EIO : 0;
}

/* Read one line into *line; @return its length or -1 at the end. */
static ssize_t
getl(FILE *fp, char **line, size_t *cap, unsigned long *lno)
{
	ssize_t n = getline(line, cap, fp);

	if (n >= 0)
		++*lno;
	if (n > 0 && (*line)[n - 1] == '\n')
		(*line)[--n] = '\0';
	return n;
}

/* "label <unsigned>" */
static int
getnum(FILE *fp, char **line, size_t *cap, unsigned long *lno,
    const char *label, unsigned long long max, unsigned long long *v)
{
	size_t ll = strlen(label);
	char *end;

	if (getl(fp, line, cap, lno) < 0 || strncmp(*line, label, ll) != 0 ||
	    (*line)[ll] != ' ')
		return EMB_EFORMAT;
	errno = 0;
	*v = strtoull(*line + ll + 1, &end, 10);
	if (*end != '\0' || end == *line + ll + 1 || errno != 0 || *v > max)
		return EMB_EFORMAT;
	return 0;
}

/* "label x1 ... xn", finite values. */
static int
getrow(FILE *fp, char **line, size_t *cap, unsigned long *lno,
    const char *label, double *v, uint32_t n)
{
	size_t ll = strlen(label);
	char *p, *end;

	if (getl(fp, line, cap, lno) < 0 || strncmp(*line, label, ll) != 0)
		return EMB_EFORMAT;
	p = *line + ll;
	for (uint32_t i = 0; i < n; i++) {
		if (*p != ' ')
			return EMB_EFORMAT;
		errno = 0;
		v[i] = strtod(p + 1, &end);
		if (end == p + 1 || errno == ERANGE || !isfinite(v[i]))
			return EMB_EFORMAT;
		p = end;
	}
	return *p == '\0' ? 0 : EMB_EFORMAT;
}

int
emb_pca_load(struct emb_pca **pp, int fd, unsigned long *lno)
{
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	unsigned long long dim, center, count, ncomp;
	struct emb_pca *p = NULL;
	int dfd, rc;

	*pp = NULL;
	*lno = 0;
	if ((dfd = dup(fd)) < 0 || (fp = fdopen(dfd, "r")) == NULL) {
		if (dfd >= 0)
			close(dfd);
		return EMB_EIO;
	}
	rc = EMB_EFORMAT;
	if (getl(fp, &line, &cap, lno) < 0 || strcmp(line, MAGIC) != 0)
		goto out;
	if (getnum(fp, &line, &cap, lno, "dim", 65536, &dim) < 0 || dim == 0 ||
	    getnum(fp, &line, &cap, lno, "center", 1, &center) < 0 ||
	    getnum(fp, &line, &cap, lno, "count", UINT64_MAX, &count) < 0 ||
	    getnum(fp, &line, &cap, lno, "ncomp", dim, &ncomp) < 0)
		goto out;
	if ((p = pcanew((uint32_t)dim, (uint32_t)ncomp)) == NULL) {
		rc = EMB_ENOMEM;
		goto out;
	}
	p->center = (int)center;
	p->count = count;
	if (getrow(fp, &line, &cap, lno, "mean", p->mean, p->dim) < 0)
		goto out;
	for (uint32_t k = 0; k < p->ncomp; k++)
		if (getrow(fp, &line, &cap, lno, "comp",
		    p->comp + (size_t)k * p->dim, p->dim) < 0)
			goto out;
	if (getl(fp, &line, &cap, lno) >= 0) {
		goto out;
	}
	rc = ferror(fp) ? EMB_EIO : 0;
out:
	free(line);
	fclose(fp);
	if (rc < 0) {
		emb_pca_free(p);
		return rc;
	}
	*lno = 0;
	*pp = p;
	return 0;
}
