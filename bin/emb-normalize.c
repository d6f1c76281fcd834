/*
 * emb-normalize - transform every vector of an emb(5) stream: unit length,
 * or mean-centering and removal of the top principal components with a
 * model fitted on one stream and applied to others.
 *
 * The stream's structure (groups, keys, order) passes unchanged; only the
 * components of VEC records change.  Fitting (-F) reads the stream once
 * and writes only the model.
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"
#include "compose.h"

static const struct opt opts[] = {
	{ 'c', "center", NULL, "with -F: subtract the mean first", NULL },
	{ 'F', "fit", "model", "fit a model on the stream, write it to model",
	    OPT_FILE },
	{ 'l', "unit", NULL, "with -M: scale the results to unit length",
	    NULL },
	{ 'M', "model", "model", "apply the model in the file model",
	    OPT_FILE },
	{ 'P', "project", NULL, "with -M: the coordinates on the model's "
	    "components (a 2-D map with two)", NULL },
	{ 'r', "remove", "ncomp", "with -F: the principal components to remove "
	    "(default 0)", NULL },
	OPT_QUIET("no summary, no progress"),
	OPT_VERBOSE("the summary (default), and the progress of -F even off a "
	    "terminal"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-normalize",
	    "usage: emb-normalize [-lq] [-M model] [file]\n"
	    "       emb-normalize -P -M model [-q] [file]\n"
	    "       emb-normalize -F model [-cq] [-r ncomp] [file]\n", opts };

/* What is live, freed at exit however the program ends (atexit). */
static struct emb_reader	*rd;
static struct emb_writer	*wr;
static struct emb_pcafit	*fitting;
static struct emb_pca		*model;
static float			*vbuf;
static FILE			*modelfp;	/* -F: the model being written */

static void
cleanup(void)
{
	emb_pcafit_free(fitting);
	emb_pca_free(model);
	free(vbuf);
	emb_writer_free(wr);
	emb_reader_free(rd);
}

/* Records between two lines of -F's progress. */
#define PROGEVERY	65536

static void
fit(const char *name, const char *path, long ncomp, int center, int quiet)
{
	struct emb_rec rec;
	uint32_t dim = emb_reader_dim(rd);
	int rc;

	if (ncomp > (long)dim)
		errx(2, "-r: %ld components, but the dimension is %u", ncomp,
		    dim);
	if (dim > EMB_PCA_DIM_MAX)
		errx(1, "%s: dimension %u: -F fits at most %u", name, dim,
		    EMB_PCA_DIM_MAX);
	if ((rc = emb_pcafit_create(&fitting, dim)) < 0)
		errx(1, "%s: %s", name, emb_strerror(rc));
	while ((rc = emb_reader_next(rd, &rec)) > 0) {
		if (rec.type == EMB_REC_VEC &&
		    (rc = emb_pcafit_add(fitting, rec.vec)) < 0)
			errx(1, "%s: record %llu: %s", name,
			    (unsigned long long)rec.recno, emb_strerror(rc));
		if (rec.recno % PROGEVERY == 0)
			progress("%s: %llu records read", name,
			    (unsigned long long)rec.recno);
	}
	if (rc < 0)
		rdie(rd, name, rc);
	emb_reader_free(rd);
	rd = NULL;
	progress("%s: computing the model, dimension %u", name, dim);
	rc = emb_pcafit_done(fitting, (uint32_t)ncomp, center, &model);
	progdone();
	emb_pcafit_free(fitting);
	fitting = NULL;
	if (rc < 0)
		errx(1, "%s: %s", name, rc == EMB_EEMPTY ?
		    "no vector to fit on" : emb_strerror(rc));
	/* Written whole or not at all: a temporary, renamed when complete. */
	if (emb_pca_save(model, fileno(modelfp)) < 0)
		err(1, "%s", path);
	outcommit(modelfp, path);
	if (!quiet)
		fprintf(stderr, "emb-normalize: %s: model of %llu vectors, "
		    "%scentered, %ld components removed, written to %s\n",
		    name, (unsigned long long)model->count, center ? "" :
		    "not ", ncomp, path);
}

/*
 * Unit length alone: each vector is taken where it lies in the reader's
 * buffer and written scaled straight into the output; its sum of squares,
 * finite only if every component is, does the reader's check.  @return
 * what emb_reader_next() returned last.
 */
static int
unitonly(struct emb_reader *r, struct emb_writer *w, const char *name,
    uint64_t *nvec, uint64_t *nzero)
{
	struct emb_rec rec;
	const void *le;
	int rc, z;

	while ((rc = emb_reader_next_le(r, &rec, &le)) > 0) {
		if (rec.type == EMB_REC_GROUP)
			rc = emb_write_group(w, rec.key, rec.keylen,
			    rec.nmemb);
		else {
			(*nvec)++;
			rc = emb_write_vecle_unit(w, rec.key, rec.keylen, le,
			    &z);
			/* Named as the reader names it, if it is the input. */
			if (rc == EMB_ENONFINITE &&
			    (z = emb_reader_nonfinite(r, &rec, le)) < 0)
				rdie(r, name, z);
			*nzero += rc == 0 && z;
		}
		if (rc < 0)
			wdie(rc);
	}
	return rc;
}

/*
 * The model applied to each vector (then unit length with lflag).  A
 * component the model makes non-finite is named by its record.  The zero
 * vectors are counted in *nzero as they come in, as unitonly() counts
 * them, and in *nzout as they go out (the mean taken from a zero vector
 * leaves none).  @return what emb_reader_next() returned last.
 */
static int
withmodel(struct emb_reader *r, struct emb_writer *w, int lflag, int pflag,
    const char *name, const char *path, uint64_t *nvec, uint64_t *nzero,
    uint64_t *nzout)
{
	uint32_t dim = emb_reader_dim(r), odim = pflag ? model->ncomp : dim;
	struct emb_rec rec;
	int rc;

	vbuf = xcalloc(dim, sizeof(float));
	while ((rc = emb_reader_next(r, &rec)) > 0) {
		if (rec.type == EMB_REC_GROUP)
			rc = emb_write_group(w, rec.key, rec.keylen,
			    rec.nmemb);
		else {
			(*nvec)++;
			*nzero += zerorow(rec.vec, dim);
			if (pflag)
				emb_pca_project(model, rec.vec, vbuf);
			else
				emb_pca_apply(model, rec.vec, vbuf);
			if (lflag)
				(void)emb_unit(vbuf, odim);
			*nzout += zerorow(vbuf, odim);
			rc = emb_write_vec(w, rec.key, rec.keylen, vbuf);
		}
		if (rc == EMB_ENONFINITE)
			errx(1, "%s: record %llu: the model %s makes a "
			    "component non-finite", name,
			    (unsigned long long)rec.recno, path);
		if (rc < 0)
			wdie(rc);
	}
	return rc;
}

/* The options. */
struct norm {
	const char	*fitfile;	/* -F */
	const char	*modelfile;	/* -M */
	long		 ncomp;		/* -r */
	int		 center;	/* -c */
	int		 lflag;		/* -l */
	int		 pflag;		/* -P */
	int		 quiet;		/* -q */
};

/* The options into o, checked together: @return the operands' index. */
static int
options(struct norm *o, int argc, char *argv[])
{
	int rflag = 0, c;

	while ((c = optget(argc, argv, &prog, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->center = 1;
			break;
		case 'F':
			o->fitfile = optarg;
			break;
		case 'l':
			o->lflag = 1;
			break;
		case 'M':
			o->modelfile = optarg;
			break;
		case 'P':
			o->pflag = 1;
			break;
		case 'q':
			o->quiet = 1;
			progmode = PROG_OFF;
			break;
		case 'r':
			o->ncomp = (long)parsenum(optarg, 0, EMB_PCA_DIM_MAX,
			    "-r");
			rflag = 1;
			break;
		case 'v':
			o->quiet = 0;
			progmode = PROG_ON;
			break;
		default:
			usage();
		}
	}
	if (argc - optind > 1)
		misuse("one input file at most");
	if (o->fitfile != NULL && (o->modelfile != NULL || o->lflag ||
	    o->pflag))
		misuse("-F fits a model: no -M, -l or -P with it");
	if (o->fitfile == NULL && (o->center || rflag))
		misuse("-c and -r go with -F only");
	if (o->pflag && o->modelfile == NULL)
		misuse("-P projects on a model's components: give -M");
	if (o->pflag && o->lflag)
		misuse("-P gives coordinates: no -l with it");
	return optind;
}

/* Every vector of rd (name) transformed as o says, to stdout. */
static void
transform(const struct norm *o, const char *name)
{
	uint64_t nvec = 0, nzero = 0, nzout = 0;
	int rc;

	if (model != NULL && model->dim != emb_reader_dim(rd))
		errx(1, "%s: dimension %u, but the model %s has %u", name,
		    emb_reader_dim(rd), o->modelfile, model->dim);
	if (o->pflag && model->ncomp == 0)
		errx(1, "%s: no component to project on", o->modelfile);
	wr = xwriter(o->pflag ? model->ncomp : emb_reader_dim(rd));
	if (model == NULL)
		rc = unitonly(rd, wr, name, &nvec, &nzero);
	else
		rc = withmodel(rd, wr, o->lflag, o->pflag, name, o->modelfile,
		    &nvec, &nzero, &nzout);
	if (rc < 0)
		rdie(rd, name, rc);
	wclose(wr);
	wr = NULL;
	if (o->quiet)
		return;
	if (model == NULL)
		fprintf(stderr, "emb-normalize: %s: %llu vectors, %llu zero "
		    "vectors left zero\n", name, (unsigned long long)nvec,
		    (unsigned long long)nzero);
	else
		fprintf(stderr, "emb-normalize: %s: %llu vectors, %llu zero "
		    "vectors, %llu zero after the model%s\n", name,
		    (unsigned long long)nvec, (unsigned long long)nzero,
		    (unsigned long long)nzout, o->lflag ? " (left zero by -l)" :
		    "");
}

int
main(int argc, char *argv[])
{
	struct norm o = { 0 };
	const char *name;
	int fd;

	argv += options(&o, argc, argv);
	name = inname(argv[0]);
	if (o.fitfile != NULL) {
		const char *in = argv[0] != NULL ? argv[0] : "-";

		modelfp = outopen(o.fitfile, &in, 1, 0666);
	}
	atexit(cleanup);
	if (o.modelfile != NULL)
		model = xpcaload(o.modelfile);
	else
		o.lflag = 1;
	fd = openin(argv[0]);
	bigpipe(fd);
	rd = xreader(fd, name);
	if (o.fitfile != NULL) {
		fit(name, o.fitfile, o.ncomp, o.center, o.quiet);
		return 0;
	}
	transform(&o, name);
	if (fd != 0)
		close(fd);
	return 0;
}
