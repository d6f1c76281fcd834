/*
 * dict.c - reading dictionaries of word pairs (dict.h).
 */
#include <err.h>
#include <string.h>

#include "util.h"
#include "dict.h"

int
dictpair(struct textin *in, unsigned long *lno, char **a, char **b)
{
	char *l, *save;
	size_t len;
	int rc;

	while ((rc = textnext(in, &l, &len)) > 0) {
		++*lno;
		if (rc == 2)
			errx(1, "%s: line %lu: truncated: no LF at the end "
			    "of the text", in->name, *lno);
		if (len > 0 && l[len - 1] == '\r')
			l[--len] = '\0';
		if ((*a = strtok_r(l, " \t", &save)) == NULL)
			continue;
		if ((*b = strtok_r(NULL, " \t", &save)) == NULL ||
		    strtok_r(NULL, " \t", &save) != NULL)
			errx(1, "%s: line %lu: expected two words", in->name,
			    *lno);
		return 1;
	}
	return 0;
}
