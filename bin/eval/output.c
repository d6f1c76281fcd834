/*
 * output.c - emb-eval's lines: "task<TAB>classifier<TAB>metric<TAB>value"
 * on stdout, under the task column of the context, and the key fields
 * the parts read labels, subsets and ids from.
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
