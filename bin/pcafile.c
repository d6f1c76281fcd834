/*
 * pcafile.c - the model file of emb-normalize, as emb-normalize -M and
 * emb-bias -d read it (see util.h).  A file of its own: a program links
 * the PCA code, and with it LAPACK, only if it reads a model.
 */
#include <err.h>
#include <unistd.h>

#include "util.h"

struct emb_pca *
xpcaload(const char *path)
{
	struct emb_pca *m;
	unsigned long lno;
	int fd = openside(path), rc;

	if ((rc = emb_pca_load(&m, fd, &lno)) < 0) {
		if (rc == EMB_EFORMAT)
			errx(1, "%s: line %lu: not an emb-normalize model "
			    "line", path, lno);
		errx(1, "%s: %s", path, emb_strerror(rc));
	}
	close(fd);
	return m;
}
