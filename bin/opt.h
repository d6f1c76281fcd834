/*
 * opt.h - the options of a program, described once: the table getopt_long
 * reads, the -h text and the bash completion are all made from it.
 *
 * A program lists its options in a struct opt array ended by OPTEND,
 * names itself and its usage lines in a struct optprog, and reads its
 * arguments with optget() in the usual getopt loop.  -h (--help) and
 * --version are answered by optget; an unknown option or a missing
 * argument prints the usage on standard error and exits 2.
 */
#ifndef EMB_OPT_H
#define EMB_OPT_H

#include <getopt.h>

/*
 * The argument's completion: a file name (else a list of words).  Words
 * after OPT_LIST ("," ...) are those of a comma-separated list: each
 * word after a comma completes as the first does.
 */
#define OPT_FILE	"\001file"
#define OPT_LIST	","

struct opt {
	int		 ch;	/* what optget returns: the letter, or a
				 * code of 256 and up for a long-only one */
	const char	*name;	/* the long name without "--", or NULL */
	const char	*arg;	/* the argument's name, NULL for a flag */
	const char	*help;	/* one line for -h */
	const char	*comp;	/* completion of the argument: NULL none,
				 * OPT_FILE a file, else words, blank
				 * separated (OPT_LIST first: a list) */
};
#define OPTEND	{ 0, NULL, NULL, NULL, NULL }

/*
 * The common options, the same letter and name in every program that has
 * them: put them in the table (-q and -v where the letter is free).
 */
#define OPT_HELP	{ 'h', "help", NULL, "print this help and exit", NULL }
#define OPT_VERSION	{ 'V', "version", NULL, "print the version and exit", \
			    NULL }
#define OPT_QUIET(h)	{ 'q', "quiet", NULL, h, NULL }
#define OPT_VERBOSE(h)	{ 'v', "verbose", NULL, h, NULL }
#define OPT_THREADS	{ 'j', "threads", "threads", \
			    "threads, 1 to 256 (default: the processors online)", \
			    NULL }

struct optprog {
	const char	*name;		/* emb-knn */
	const char	*usage;		/* the usage lines, "usage: ..." */
	const struct opt *opts;		/* ended by OPTEND */
};

/*
 * getopt_long over p's table.  Answers -h (the usage, one line per option
 * and the manual's name, on standard output, exit 0), --version, and the
 * hidden --bash-completion (the program's part of the completion script,
 * see bin/complete.bash); any other error is usage().  @return the
 * option's ch, with optarg set, or -1 at the end; *longidx (unless NULL)
 * is the index in p->opts of a long option.
 */
int	 optget(int argc, char *argv[], const struct optprog *p, int *longidx);
/* The usage of the program that called optget, on stderr; exit 2. */
void	 usage(void) __attribute__((noreturn));
/* "NAME: message" (printf-like), then usage(). */
void	 misuse(const char *fmt, ...)
	    __attribute__((noreturn, format(printf, 1, 2)));

/*
 * Modes.  A program that does one of several things (emb-cat prints,
 * reads text back, writes a format ...) names its modes by an enum and
 * says, in one string per mode, the options the mode takes ('@' for an
 * input file operand, '+' for a second one).  Its misuses are a list of
 * rules in the order they are told: the modes a rule speaks for (1 <<
 * mode, or'ed), the options it refuses and its message.  optmodes()
 * misuses with the first rule that speaks for mode and names an option in
 * given (the options seen: given[ch] set) that takes[mode] lacks; any
 * other option the mode lacks is usage().
 */
struct optrule {
	unsigned	 modes;		/* the modes it speaks for */
	const char	*opts;		/* the options it refuses */
	const char	*msg;		/* what misuse() says */
};
#define OPTRULEEND	{ 0, NULL, NULL }
void	 optmodes(const char given[256], int mode, const char *const takes[],
	    const struct optrule *rules);

#endif /* EMB_OPT_H */
