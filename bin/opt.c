/*
 * opt.c - one table per program for its options (opt.h): getopt_long's
 * short string and long table, the -h text and the completion data are
 * made from it here, so that they cannot disagree.
 */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emb.h"
#include "opt.h"
#include "util.h"

/* The hidden option that prints the completion data. */
#define OPT_COMPLETE	0x7ffffff0

static const struct optprog *prog;	/* the program of optget */
static char *shortopts;
static struct option *longopts;
static int *longto;			/* longopts[i] is prog->opts[longto[i]] */

/* Build getopt_long's tables from p's. */
static void
optbuild(const struct optprog *p)
{
	size_t n = 0, s = 0, l = 0;

	prog = p;
	while (p->opts[n].ch != 0)
		n++;
	shortopts = xmalloc(2 * n + 1);
	longopts = xcalloc(n + 2, sizeof(*longopts));
	longto = xcalloc(n + 2, sizeof(*longto));
	for (size_t i = 0; i < n; i++) {
		const struct opt *o = &p->opts[i];

		if (o->ch < 256 && o->ch != 'V') {
			shortopts[s++] = (char)o->ch;
			if (o->arg != NULL)
				shortopts[s++] = ':';
		}
		if (o->name != NULL) {
			longopts[l].name = o->name;
			longopts[l].has_arg = o->arg != NULL ?
			    required_argument : no_argument;
			longopts[l].val = o->ch;
			longto[l++] = (int)i;
		}
	}
	shortopts[s] = '\0';
	longopts[l].name = "bash-completion";
	longopts[l].val = OPT_COMPLETE;
	longto[l] = -1;
}

/*
 * One option of the -h text: its names in a column of HELPCOL, then its
 * help, broken at blanks into lines of at most 79 columns.
 */
#define HELPCOL	24
static void
wrap(const char *left, const char *help)
{
	const int room = 79 - HELPCOL - 4;
	const char *p = help;

	if (strlen(left) > HELPCOL)
		printf("  %s\n  %-*s  ", left, HELPCOL, "");
	else
		printf("  %-*s  ", HELPCOL, left);
	while (strlen(p) > (size_t)room) {
		int n = room;

		while (n > 0 && p[n] != ' ')
			n--;
		if (n == 0)
			break;
		printf("%.*s\n  %-*s  ", n, p, HELPCOL, "");
		p += n + 1;
	}
	printf("%s\n", p);
}

/* The -h text: usage, one line per option, the manual. */
static void __attribute__((noreturn))
help(void)
{
	char left[64];

	fputs(prog->usage, stdout);
	fputs("options:\n", stdout);
	for (const struct opt *o = prog->opts; o->ch != 0; o++) {
		int n = 0;

		if (o->ch < 256 && o->ch != 'V')
			n = snprintf(left, sizeof(left), "-%c%s", o->ch,
			    o->name != NULL ? ", " : "");
		else
			n = snprintf(left, sizeof(left), "    ");
		if (o->name != NULL)
			n += snprintf(left + n, sizeof(left) - n, "--%s%s%s",
			    o->name, o->arg != NULL ? "=" : "",
			    o->arg != NULL ? o->arg : "");
		else if (o->arg != NULL)
			snprintf(left + n, sizeof(left) - n, " %s", o->arg);
		wrap(left, o->help);
	}
	printf("see %s(1) for the details\n", prog->name);
	fshut(stdout, "stdout");
	exit(0);
}

/* Print the words of option o for the completion (both its names). */
static void
compwords(const char *var, const struct opt *o)
{
	if (o->ch < 256 && o->ch != 'V')
		printf("%s[%s]+=' -%c'\n", var, prog->name, o->ch);
	if (o->name != NULL)
		printf("%s[%s]+=' --%s'\n", var, prog->name, o->name);
}

/*
 * The completion data, as bash statements over the arrays that
 * bin/complete.bash declares: every option, those whose argument is a
 * file, those with another argument, those whose argument is a list, and
 * the words of each such option.
 */
static void __attribute__((noreturn))
complete(void)
{
	for (const struct opt *o = prog->opts; o->ch != 0; o++) {
		const char *w = o->comp;
		size_t nl = strlen(OPT_LIST);

		compwords("_emb_opts", o);
		if (o->arg == NULL)
			continue;
		if (w != NULL && strcmp(w, OPT_FILE) == 0)
			compwords("_emb_fileopts", o);
		else
			compwords("_emb_argopts", o);
		if (w == NULL || strcmp(w, OPT_FILE) == 0)
			continue;
		if (strncmp(w, OPT_LIST, nl) == 0) {
			compwords("_emb_listopts", o);
			w += nl;
		}
		if (o->ch < 256 && o->ch != 'V')
			printf("_emb_words[%s -%c]='%s'\n", prog->name, o->ch,
			    w);
		if (o->name != NULL)
			printf("_emb_words[%s --%s]='%s'\n", prog->name,
			    o->name, w);
	}
	fshut(stdout, "stdout");
	exit(0);
}

int
optget(int argc, char *argv[], const struct optprog *p, int *longidx)
{
	int ch, li = -1;

	if (prog != p)
		optbuild(p);
	ch = getopt_long(argc, argv, shortopts, longopts, &li);
	if (longidx != NULL)
		*longidx = li >= 0 ? longto[li] : -1;
	switch (ch) {
	case 'h':
		help();
	case 'V':
		printf("%s %s\n", p->name, EMB_VERSION);
		fshut(stdout, "stdout");
		exit(0);
	case OPT_COMPLETE:
		complete();
	case '?':	/* getopt has said what is wrong */
		usage();
	}
	return ch;
}

void
usage(void)
{
	fputs(prog->usage, stderr);
	exit(2);
}

void
misuse(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	usage();
}

void
optmodes(const char given[256], int mode, const char *const takes[],
    const struct optrule *rules)
{
	for (const struct optrule *r = rules; r->opts != NULL; r++) {
		if (!(r->modes & 1u << mode))
			continue;
		for (const char *o = r->opts; *o; o++)
			if (given[(unsigned char)*o] &&
			    strchr(takes[mode], *o) == NULL)
				misuse("%s", r->msg);
	}
	for (int c = 1; c < 256; c++)
		if (given[c] && strchr(takes[mode], c) == NULL)
			usage();
}
