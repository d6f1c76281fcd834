/*
 * emb-pair - join two aligned streams of sentence vectors into the feature
 * vectors of sentence-pair tasks (paraphrase, entailment): for each pair
 * (u, v), |u - v| and u * v, as SentEval builds them for MRPC and SICK-E,
 * optionally after u and v themselves.
 *
 * Both streams are read record by record at once, in bounded memory; the
 * keys of a pair must agree (whole, or on one field), so that a lost or
 * reordered line upstream is an error, never a silently shifted pair.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"

static unsigned	 idfield;	/* -i: compare this field, 0: whole keys */
static int	 full;		/* -u: u, v first */

static const struct opt opts[] = {
	{ 'i', "id-field", "field", "compare key field field of each pair, "
	    "not the whole keys", NULL },
	{ 'u', "uv", NULL, "write u and v first: dimension 4n (InferSent)",
	    NULL },
	OPT_QUIET("accepted; changes nothing"),
	OPT_VERBOSE("accepted; changes nothing"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-pair",
	    "usage: emb-pair [-u] [-i field] first second\n", opts };

/* Read the next record of r, which must be an ungrouped vector. */
static int
next(struct emb_reader *r, const char *name, struct emb_rec *rec)
{
	int rc = emb_reader_next(r, rec);

	if (rc < 0)
		rdie(r, name, rc);
	if (rc > 0 && rec->type == EMB_REC_GROUP)
		errx(1, "%s: record %llu: a group; emb-pair reads composed "
		    "streams (pass it through emb-ose or emb-bov first)", name,
		    (unsigned long long)rec->recno);
	return rc;
}

/*
 * The options into idfield and full, the operands checked: @return their
 * index in argv.
 */
static int
options(int argc, char *argv[])
{
	int ch;

	while ((ch = optget(argc, argv, &prog, NULL)) != -1) {
		switch (ch) {
		case 'i':
			idfield = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-i");
			break;
		case 'u':
			full = 1;
			break;
		case 'q':	/* no summary to silence or add */
		case 'v':
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2)
		misuse("two streams needed, first and second");
	if (strcmp(argv[optind], "-") == 0 &&
	    strcmp(argv[optind + 1], "-") == 0)
		misuse("first and second cannot both be the standard input");
	return optind;
}

/* The keys of a pair, field -i of each or whole, must be the same. */
static void
samekey(const struct emb_rec *a, const struct emb_rec *b, const char *na,
    const char *nb)
{
	const char *ka, *kb;
	size_t la, lb;

	if ((ka = keyfield(a->key, a->keylen, idfield, &la)) == NULL)
		errx(1, "%s: record %llu: key has no field %u", na,
		    (unsigned long long)a->recno, idfield);
	if ((kb = keyfield(b->key, b->keylen, idfield, &lb)) == NULL)
		errx(1, "%s: record %llu: key has no field %u", nb,
		    (unsigned long long)b->recno, idfield);
	if (la != lb || memcmp(ka, kb, la) != 0) {
		char qa[EMB_QUOTE_BUF], qb[EMB_QUOTE_BUF];

		errx(1, "%s: record %llu: key '%s' does not match '%s' in %s",
		    nb, (unsigned long long)b->recno, emb_quote(qb, kb, lb),
		    emb_quote(qa, ka, la), na);
	}
}

/* The features of u and v (dimension dim) into out: [u v] |u - v| u * v. */
static void
features(const float *u, const float *v, uint32_t dim, float *out)
{
	float *d, *p = out;

	if (full) {
		memcpy(p, u, dim * sizeof(*p));
		memcpy(p + dim, v, dim * sizeof(*p));
		p += 2 * dim;
	}
	d = p + dim;
	for (uint32_t j = 0; j < dim; j++) {
		p[j] = fabsf(u[j] - v[j]);
		d[j] = u[j] * v[j];
	}
}

/*
 * The pairs of ra (na) and rb (nb), dimension dim, as features to w, out
 * the room for one; both streams must end together.
 */
static void
pairs(struct emb_reader *ra, struct emb_reader *rb, const char *na,
    const char *nb, uint32_t dim, struct emb_writer *w, float *out)
{
	struct emb_rec a, b;
	unsigned long long npairs = 0;
	int rca, rcb, rc;

	for (;;) {
		rca = next(ra, na, &a);
		rcb = next(rb, nb, &b);
		if (rca == 0 || rcb == 0)
			break;
		npairs++;
		samekey(&a, &b, na, nb);
		features(a.vec, b.vec, dim, out);
		if ((rc = emb_write_vec(w, a.key, a.keylen, out)) < 0) {
			if (rc == EMB_ENONFINITE)
				errx(1, "%s: record %llu: the features "
				    "overflow float32", na,
				    (unsigned long long)a.recno);
			wdie(rc);
		}
	}
	if (rca != rcb)
		errx(1, "%s ends after %llu record%s, %s has more",
		    rca == 0 ? na : nb, npairs, npairs == 1 ? "" : "s",
		    rca == 0 ? nb : na);
}

/*
 * The dimension of the features of ra (na) and rb (nb), or exit 1 with
 * both readers freed first (what main holds is no leak at exit).
 */
static uint32_t
featdim(struct emb_reader *ra, struct emb_reader *rb, const char *na,
    const char *nb)
{
	uint32_t dim = emb_reader_dim(ra), db = emb_reader_dim(rb);
	unsigned long long odim = (unsigned long long)(full ? 4 : 2) * dim;

	if (db == dim && odim <= EMB_DIM_MAX)
		return (uint32_t)odim;
	emb_reader_free(ra);
	emb_reader_free(rb);
	if (db != dim)
		errx(1, "%s: dimension %u, %s has %u", nb, db, na, dim);
	errx(1, "%s: dimension %u: the features would have %llu, more than "
	    "%u", na, dim, odim, EMB_DIM_MAX);
}

int
main(int argc, char *argv[])
{
	struct emb_reader *ra, *rb;
	struct emb_writer *w;
	const char *na, *nb;
	uint32_t dim, odim;
	float *out;
	int fa, fb;

	argv += options(argc, argv);
	notty(STDOUT_FILENO);
	na = inname(argv[0]);
	nb = inname(argv[1]);
	fa = openin(argv[0]);
	fb = openin(argv[1]);
	ra = xreader(fa, na);
	rb = xreader(fb, nb);
	dim = emb_reader_dim(ra);
	odim = featdim(ra, rb, na, nb);
	out = xreallocarray(NULL, odim, sizeof(*out));
	w = xwriter(odim);
	pairs(ra, rb, na, nb, dim, w, out);
	wclose(w);
	emb_reader_free(ra);
	emb_reader_free(rb);
	free(out);
	if (fa != STDIN_FILENO)
		close(fa);
	if (fb != STDIN_FILENO)
		close(fb);
	return 0;
}
