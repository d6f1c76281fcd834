/*
 * dict.h - dictionaries of word pairs (emb-align -d, emb-eval -L): text
 * lines "source target", the two words separated by blanks or a tab,
 * empty lines skipped, every line ending in a newline (dict.c).
 */
#ifndef DICT_H
#define DICT_H

#include <stdio.h>

/*
 * dictpair - the next pair of fp (named path): @return 1 with *a and *b
 * pointing into *line (getline's buffer, *cap its size, *lno the line
 * number), 0 at the end.  Exit 1 naming the line on a line cut short or
 * not of two words, or on a read error.
 */
int	 dictpair(FILE *fp, const char *path, char **line, size_t *cap,
	    unsigned long *lno, char **a, char **b);

#endif /* DICT_H */
