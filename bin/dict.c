/*
 * dict.c - reading dictionaries of word pairs (dict.h).
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "dict.h"

int
dictpair(FILE *fp, const char *path, char **line, size_t *cap,
    unsigned long *lno, char **a, char **b)
{
	ssize_t len;
	char *save;

	while ((len = getline(line, cap, fp)) > 0) {
		char *l = *line;

		++*lno;
		if (l[len - 1] != '\n')
			errx(1, "%s: line %lu: no newline at the end: cut "
			    "short?", path, *lno);
		l[--len] = '\0';
		if (len > 0 && l[len - 1] == '\r')
			l[--len] = '\0';
		if ((*a = strtok_r(l, " \t", &save)) == NULL)
			continue;
		if ((*b = strtok_r(NULL, " \t", &save)) == NULL ||
		    strtok_r(NULL, " \t", &save) != NULL)
			errx(1, "%s: line %lu: expected two words", path,
			    *lno);
		return 1;
	}
	if (ferror(fp))
		err(1, "%s", path);
	return 0;
}
