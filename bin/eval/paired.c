/*
 * paired.c - emb-eval's figures of certainty: the spread over the
 * MLP's seeds, and two representations of the same items compared
 * (--versus): the exact McNemar test and bootstrap intervals for a
 * classifier, bootstrap intervals and p-values and Williams' test for a
 * correlation.  The statistics are libemb's (paired.c); this file prints
 * them as emb-eval's lines.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "eval.h"

size_t
zerocount(const struct flat *D, size_t n)
{
	size_t z = 0;

	for (size_t i = 0; i < n; i++)
		z += zerorow(D->X + i * D->dim, D->dim);
	return z;
}

double
meanof(const double *v, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : NAN;
}

/* The sample standard deviation (n - 1), 0 for one value. */
static double
sdof(const double *v, int n)
{
	double m = meanof(v, n), s = 0;

	if (n < 2)
		return 0;
	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (n - 1));
}

void
reportseeds(const struct eval *E, const char *clf, uint64_t seed0,
    const double *acc, const double *f1, const double *l2, int ns,
    double vacc, double vf1)
{
	double lo = acc[0], hi = acc[0];

	for (int s = 1; s < ns; s++) {
		lo = acc[s] < lo ? acc[s] : lo;
		hi = acc[s] > hi ? acc[s] : hi;
	}
	out(E, clf, "seeds", "%d", ns);
	out(E, clf, "accuracy_sd", "%.6f", sdof(acc, ns));
	out(E, clf, "accuracy_min", "%.6f", lo);
	out(E, clf, "accuracy_max", "%.6f", hi);
	out(E, clf, "macro_f1_sd", "%.6f", sdof(f1, ns));
	out(E, clf, "accuracy_vote", "%.6f", vacc);
	out(E, clf, "macro_f1_vote", "%.6f", vf1);
	for (int s = 0; s < ns; s++)
		if (l2[s] >= 0)
			out(E, clf, "seed", "%llu:%.6f:%.6f:%g", (unsigned long
			    long)(seed0 + (uint64_t)s), acc[s], f1[s], l2[s]);
		else
			out(E, clf, "seed", "%llu:%.6f:%.6f", (unsigned long
			    long)(seed0 + (uint64_t)s), acc[s], f1[s]);
	if (E->verbose)
		fprintf(stderr, "%s: %s: %d seeds: accuracy mean %.4f, sd "
		    "%.4f, range %.4f-%.4f; the seeds' vote %.4f\n", E->task,
		    clf, ns, meanof(acc, ns), sdof(acc, ns), lo, hi, vacc);
}

void
comparepred(const struct eval *E, const char *clf, const int *truth,
    const int *pa, const int *pb, size_t n, int ncls)
{
	struct emb_paired_clf r;
	int rc;

	if ((rc = emb_paired_clf(truth, pa, pb, n, ncls, E->nres, E->level,
	    E->base.seed, &r)) < 0)
		errx(1, "%s: %s", clf, emb_strerror(rc));
	out(E, clf, "n_paired", "%zu", r.n);
	out(E, clf, "accuracy_a", "%.6f", r.acc_a);
	out(E, clf, "accuracy_b", "%.6f", r.acc_b);
	out(E, clf, "accuracy_diff", "%.6f", r.acc_diff);
	out(E, clf, "accuracy_diff_lo", "%.6f", r.acc_lo);
	out(E, clf, "accuracy_diff_hi", "%.6f", r.acc_hi);
	out(E, clf, "mcnemar_b", "%llu", (unsigned long long)r.b);
	out(E, clf, "mcnemar_c", "%llu", (unsigned long long)r.c);
	out(E, clf, "mcnemar_p", "%.6g", r.mcnemar_p);
	out(E, clf, "macro_f1_a", "%.6f", r.f1_a);
	out(E, clf, "macro_f1_b", "%.6f", r.f1_b);
	out(E, clf, "macro_f1_diff", "%.6f", r.f1_diff);
	out(E, clf, "macro_f1_diff_lo", "%.6f", r.f1_lo);
	out(E, clf, "macro_f1_diff_hi", "%.6f", r.f1_hi);
	out(E, clf, "macro_f1_p", "%.6g", r.f1_p);
	out(E, clf, "permutations", "%llu%s", (unsigned long long)r.perms,
	    r.exact ? ":exact" : "");
	out(E, clf, "resamples", "%llu", (unsigned long long)r.resamples);
	out(E, clf, "level", "%g", E->level);
	if (E->verbose)
		fprintf(stderr, "%s: %s: %s - %s: accuracy %+.4f [%.4f, "
		    "%.4f], McNemar %llu/%llu p %.3g; macro-F1 %+.4f [%.4f, "
		    "%.4f] p %.3g (%llu%s permutations, %llu resamples)\n",
		    E->task, clf, E->vnames[0], E->vnames[1], r.acc_diff,
		    r.acc_lo, r.acc_hi, (unsigned long long)r.b,
		    (unsigned long long)r.c, r.mcnemar_p, r.f1_diff, r.f1_lo, r.f1_hi, r.f1_p,
		    (unsigned long long)r.perms, r.exact ? " (all)" : "",
		    (unsigned long long)r.resamples);
}

/* emb_paired_corr's figures by the names emb-eval prints them under. */
static const char *const corrname[EMB_CORR_NFIG] = {
	"pearson_pooled", "spearman_pooled", "pearson_mean", "spearman_mean",
	"pearson_wmean", "spearman_wmean"
};

static void
outnum(const struct eval *E, const char *clf, const char *metric,
    const char *suffix, double v, const char *fmt)
{
	char m[64];

	snprintf(m, sizeof(m), "%s%s", metric, suffix);
	if (isnan(v))
		out(E, clf, m, "nan");
	else
		out(E, clf, m, fmt, v);
}

void
comparecorr(const struct eval *E, const double *gold, const double *sa,
    const double *sb, const int *sub, size_t n, int nsub, int pooledonly)
{
	struct emb_paired_corr r;
	double ab, t, p;
	int rc;

	if ((rc = emb_paired_corr(gold, sa, sb, sub, n, nsub, E->nres,
	    E->level, E->base.seed, E->base.threads, &r)) < 0)
		errx(1, "%s: %s", E->task, emb_strerror(rc));
	out(E, "cosine", "n_paired", "%zu", n);
	for (int f = 0; f < EMB_CORR_NFIG; f++) {
		const char *m = corrname[f];

		if (pooledonly && f >= EMB_CORR_PEARSON_MEAN)
			break;
		if (pooledonly)
			m = f == EMB_CORR_PEARSON ? "pearson" : "spearman";
		outnum(E, "cosine", m, "_a", r.a[f], "%.6f");
		outnum(E, "cosine", m, "_b", r.b[f], "%.6f");
		outnum(E, "cosine", m, "_diff", r.diff[f], "%.6f");
		outnum(E, "cosine", m, "_diff_lo", r.lo[f], "%.6f");
		outnum(E, "cosine", m, "_diff_hi", r.hi[f], "%.6f");
		outnum(E, "cosine", m, "_p", r.p[f], "%.6g");
		if (E->verbose)
			fprintf(stderr, "%s: %s - %s: %s %+.4f [%.4f, %.4f] "
			    "p %.3g\n", E->task, E->vnames[0], E->vnames[1], m,
			    r.diff[f], r.lo[f], r.hi[f], r.p[f]);
	}
	/* Williams' test of the pooled Pearson coefficients. */
	if (emb_pearson(sa, sb, n, &ab) == 0 && !isnan(r.a[0]) &&
	    !isnan(r.b[0]) && emb_williams(r.a[0], r.b[0], ab, n, &t,
	    &p) == 0) {
		out(E, "cosine", "pearson_ab", "%.6f", ab);
		out(E, "cosine", "williams_t", "%.6f", t);
		out(E, "cosine", "williams_p", "%.6g", p);
		if (E->verbose)
			fprintf(stderr, "%s: Williams' test of the pooled "
			    "Pearson coefficients: t %.3f, p %.3g (r between "
			    "the two %.4f)\n", E->task, t, p, ab);
	} else {
		out(E, "cosine", "williams_t", "nan");
		out(E, "cosine", "williams_p", "nan");
	}
	out(E, "cosine", "resamples", "%llu", (unsigned long long)r.resamples);
	out(E, "cosine", "level", "%g", E->level);
}
