/*
 * dict.h - dictionaries of word pairs (emb-align -d, emb-eval -L): text
 * lines "source target", the two words separated by blanks or a tab,
 * empty lines skipped, every line ending in a newline but the last of a
 * regular file (emb(5), TEXT INPUTS; dict.c).
 */
#ifndef DICT_H
#define DICT_H

#include "util.h"

/*
 * dictpair - the next pair of in: @return 1 with *a and *b pointing into
 * its line (valid until the next call; *lno the line number), 0 at the
 * end.  Exit 1 naming the line on a line cut short (a last line without
 * LF from a pipe) or not of two words, or on a read error.
 */
int	 dictpair(struct textin *in, unsigned long *lno, char **a, char **b);

#endif /* DICT_H */
