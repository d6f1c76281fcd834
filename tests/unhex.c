/*
 * unhex - turn an annotated hex fixture into bytes.
 *
 * Input: hex byte pairs separated by white space; '#' starts a comment to
 * the end of the line; "quoted text" stands for its bytes (no escapes).
 * Used by the tests to keep broken streams readable in tests/data/bad/.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

int
main(void)
{
	int c, hi = -1, quoted = 0, line = 1;

	while ((c = getchar()) != EOF) {
		if (c == '\n')
			line++;
		if (quoted) {
			if (c == '"')
				quoted = 0;
			else
				putchar(c);
			continue;
		}
		if (c == '#') {
			while ((c = getchar()) != EOF && c != '\n')
				;
			line++;
			continue;
		}
		if (c == '"') {
			quoted = 1;
			continue;
		}
		if (isspace(c))
			continue;
		if (!isxdigit(c)) {
			fprintf(stderr, "unhex: line %d: bad character '%c'\n",
			    line, c);
			return 1;
		}
		c = isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
		if (hi < 0)
			hi = c;
		else {
			putchar(hi << 4 | c);
			hi = -1;
		}
	}
	if (hi >= 0 || quoted) {
		fprintf(stderr, "unhex: odd number of hex digits or open quote\n");
		return 1;
	}
	return fflush(stdout) != 0;
}
