/*
 * output.c - emb-eval's lines: "task<TAB>classifier<TAB>metric<TAB>value"
 * on stdout, under the task column of the context, and the key fields
 * the parts read labels, subsets, words and ids from.
 */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"

void
out(const struct eval *E, const char *clf, const char *metric,
    const char *fmt, ...)
{
	va_list ap;

	progdone();
	printf("%s\t%s\t%s\t", E->task, clf, metric);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

struct eval
evalside(const struct eval *E, int i)
{
	struct eval S = *E;

	S.task = E->taskv[i];
	return S;
}

const char *
wkey(const void *ctx, size_t i, size_t *len)
{
	const struct words *W = ctx;
	const char *w = keyfield(KEY(W->D, i), W->D->keylen[i], W->wf, len);

	if (w == NULL) {
		*len = 0;
		return "";
	}
	return w;
}

void
windex(struct words *W, const struct flat *D, unsigned wf, int unique)
{
	W->D = D;
	W->wf = wf;
	emb_index_init(&W->ix, wkey, W);
	if (emb_index_reserve(&W->ix, D->n) < 0)
		errx(1, "%s: too many records", D->name);
	for (size_t i = 0; i < D->n; i++) {
		char q[EMB_QUOTE_BUF];
		const char *k;
		size_t len, had;
		int rc;

		if ((k = keyfield(KEY(D, i), D->keylen[i], wf, &len)) == NULL)
			errx(1, "%s: record %zu: key has no field %u", D->name,
			    i + 1, wf);
		if ((rc = emb_index_add(&W->ix, i, &had)) < 0)
			errx(1, "%s: too many records", D->name);
		if (rc == 1 && unique)
			errx(1, "%s: record %zu: id '%s' repeats record %zu",
			    D->name, i + 1, emb_quote(q, k, len), had + 1);
	}
}

char *
field(const struct flat *D, size_t i, unsigned f)
{
	const char *k;
	size_t len;
	char *s;

	if ((k = keyfield(KEY(D, i), D->keylen[i], f, &len)) == NULL)
		errx(1, "%s: record %zu: key has no field %u", D->name, i + 1,
		    f);
	s = xmalloc(len + 1);
	memcpy(s, k, len);
	s[len] = '\0';
	return s;
}
