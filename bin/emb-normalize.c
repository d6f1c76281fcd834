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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "compose.h"

static void
usage(int help)
{
	fprintf(help ? stdout : stderr,
	    "usage: emb-normalize [-lq] [-M model] [file]\n"
	    "       emb-normalize -F model [-cq] [-r ncomp] [file]\n");
	exit(help ? 0 : 2);
}

static void
fit(struct emb_reader *r, const char *name, const char *model,
    long ncomp, int center, int quiet)
{
	struct emb_pcafit *f;
	struct emb_pca *p;
	struct emb_rec rec;
	uint32_t dim = emb_reader_dim(r);
	int rc, fd;

	if (ncomp > (long)dim) {
		emb_reader_free(r);
		errx(2, "-r: %ld components, but the dimension is %u", ncomp,
		    dim);
	}
	if (dim > EMB_PCA_DIM_MAX) {
		emb_reader_free(r);
		errx(1, "%s: dimension %u: -F fits at most %u", name, dim,
		    EMB_PCA_DIM_MAX);
	}
	if ((rc = emb_pcafit_create(&f, dim)) < 0) {
		emb_reader_free(r);
		errx(1, "%s: %s", name, emb_strerror(rc));
	}
	while ((rc = emb_reader_next(r, &rec)) > 0)
		if (rec.type == EMB_REC_VEC &&
		    (rc = emb_pcafit_add(f, rec.vec)) < 0) {
			emb_pcafit_free(f);
			errx(1, "%s: record %llu: %s", name,
			    (unsigned long long)rec.recno, emb_strerror(rc));
		}
	if (rc < 0) {
		emb_pcafit_free(f);
		rdie(r, name, rc);
	}
	emb_reader_free(r);
	rc = emb_pcafit_done(f, (uint32_t)ncomp, center, &p);
	emb_pcafit_free(f);
	if (rc < 0)
		errx(1, "%s: %s", name, rc == EMB_EEMPTY ?
		    "no vector to fit on" : emb_strerror(rc));
	if ((fd = open(model, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0 ||
	    emb_pca_save(p, fd) < 0 || close(fd) < 0) {
		emb_pca_free(p);
		err(1, "%s", model);
	}
	if (!quiet)
		fprintf(stderr, "emb-normalize: %s: model of %llu vectors, "
		    "%scentered, %ld components removed, written to %s\n",
		    name, (unsigned long long)p->count, center ? "" : "not ",
		    ncomp, model);
	emb_pca_free(p);
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

int
main(int argc, char *argv[])
{
	static const struct option lopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *fitfile = NULL, *modelfile = NULL, *name;
	struct emb_pca *p = NULL;
	struct emb_reader *r;
	struct emb_writer *w;
	struct emb_rec rec;
	uint64_t nvec = 0, nzero = 0;
	long ncomp = 0;
	int center = 0, lflag = 0, quiet = 0, rflag = 0, c, rc, fd;
	float *v;

	while ((c = getopt_long(argc, argv, "cF:hlM:qr:", lopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'c':
			center = 1;
			break;
		case 'F':
			fitfile = optarg;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'M':
			modelfile = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'r':
			ncomp = (long)parsenum(optarg, 0, EMB_PCA_DIM_MAX,
			    "-r");
			rflag = 1;
			break;
		case 'V':
			puts("emb-normalize " EMB_VERSION);
			return 0;
		case 'h':
			usage(1);
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(0);
	if (fitfile != NULL ? (modelfile != NULL || lflag) :
	    (center || rflag))
		usage(0);
	name = inname(argv[0]);
	if (modelfile != NULL) {
		unsigned long lno;

		fd = openside(modelfile);
		if ((rc = emb_pca_load(&p, fd, &lno)) < 0) {
			if (rc == EMB_EFORMAT)
				errx(1, "%s: line %lu: not an emb-normalize "
				    "model line", modelfile, lno);
			errx(1, "%s: %s", modelfile, emb_strerror(rc));
		}
		close(fd);
	} else
		lflag = 1;
	fd = openin(argv[0]);
	bigpipe(fd);
	r = xreader(fd, name);
	if (fitfile != NULL) {
		fit(r, name, fitfile, ncomp, center, quiet);
		return 0;
	}
	if (p != NULL && p->dim != emb_reader_dim(r)) {
		uint32_t dim = emb_reader_dim(r), mdim = p->dim;

		emb_reader_free(r);
		emb_pca_free(p);
		errx(1, "%s: dimension %u, but the model %s has %u", name,
		    dim, modelfile, mdim);
	}
	w = xwriter(emb_reader_dim(r));
	v = xcalloc(emb_reader_dim(r), sizeof(float));
	if (p == NULL && lflag)
		rc = unitonly(r, w, name, &nvec, &nzero);
	else
		while ((rc = emb_reader_next(r, &rec)) > 0) {
			if (rec.type == EMB_REC_GROUP) {
				rc = emb_write_group(w, rec.key, rec.keylen,
				    rec.nmemb);
			} else {
				nvec++;
				if (p != NULL) {
					emb_pca_apply(p, rec.vec, v);
					if (lflag && !emb_unit(v,
					    emb_reader_dim(r)))
						nzero++;
					rc = emb_write_vec(w, rec.key,
					    rec.keylen, v);
				} else
					rc = emb_write_vec(w, rec.key,
					    rec.keylen, rec.vec);
			}
			if (rc < 0)
				wdie(rc);
		}
	if (rc < 0)
		rdie(r, name, rc);
	wclose(w);
	if (!quiet)
		fprintf(stderr, "emb-normalize: %s: %llu vectors, %llu zero "
		    "vectors left zero\n", name, (unsigned long long)nvec,
		    (unsigned long long)nzero);
	free(v);
	emb_pca_free(p);
	emb_reader_free(r);
	if (fd != 0)
		close(fd);
	return 0;
}
