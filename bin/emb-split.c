/*
 * emb-split - split an emb(5) stream into parts on group boundaries, or
 * join a concatenated stream into one.
 *
 * The unit of splitting is an ungrouped record, or a group record with all
 * its members: a group never straddles two parts, so every part is a valid
 * stream of its own and the parts are what a stage such as emb-ose would
 * have seen of the whole.  Units go to parts in contiguous ranges (by count,
 * or balanced over N parts), round-robin, or by a hash of a key field.
 * Contiguous parts concatenated in order (cat(1)) give the input's records
 * in the input's order; -j then writes such a concatenation, or the joined
 * outputs of parallel jobs, as one stream with one header and one trailer.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"

#define PARTS_MAX	1000000		/* -n */
#define PATTERN_DEF	"part%d.emb"

enum { CONTIG, COUNT, ROUND, HASH };

/* One output part. */
struct part {
	struct emb_writer *w;		/* NULL until opened, and once closed */
	FILE		*fp;		/* a file part's temporary (outopen) */
	int		 fd;
	int		 done;		/* written and closed */
};

static int	 mode = CONTIG;
static uint64_t	 nparts;	/* -n; 0 with -l */
static uint64_t	 count;		/* -l: units per part */
static unsigned	 field;		/* -k: 1-based key field */
static uint64_t	 only;		/* -i: 1-based part to stdout; 0: files */
static const char *pattern = PATTERN_DEF;
static const char *name;	/* the input, for messages */
static const char *input;	/* its path, "-" for stdin */
static uint32_t	 dim;

static struct part *parts;	/* nparts slots, or grown with -l */
static size_t	 nslots;
static char	*pname;		/* name of the part just formatted */

static const struct opt opts[] = {
	{ 'i', "part", "part", "write part part only, to standard output",
	    NULL },
	{ 'j', "join", NULL, "join: write the input as one stream", NULL },
	{ 'k', "key-field", "field", "with -n: parts by a hash of this key "
	    "field", NULL },
	{ 'l', "part-size", "count", "count units in each part", NULL },
	{ 'n', "parts", "parts", "that many parts, contiguous and balanced",
	    NULL },
	{ 'o', "output", "pattern", "the part files' names, with one %d",
	    NULL },
	{ 'r', "round-robin", NULL, "with -n: units dealt round-robin", NULL },
	OPT_QUIET("accepted; changes nothing"),
	OPT_VERBOSE("accepted; changes nothing"),
	OPT_HELP,
	OPT_VERSION,
	OPTEND
};
static const struct optprog prog = { "emb-split",
	    "usage: emb-split [-n parts [-r | -k field] | -l count] "
	    "[-i part | -o pattern]\n"
	    "                 [file]\n"
	    "       emb-split -j [file]\n", opts };

/*
 * Check that pattern holds exactly one %d (with an optional zero flag and
 * width, as %03d) and otherwise only %% escapes.
 */
static int
patternok(const char *p)
{
	int nd = 0;

	for (; *p != '\0'; p++) {
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		p++;
		if (*p == '0')
			p++;
		if (*p >= '1' && *p <= '9')
			p++;
		if (*p != 'd')
			return 0;
		nd++;
	}
	return nd == 1;
}

/* The file name of 1-based part i, into pname. */
static const char *
partname(uint64_t i)
{
	static size_t cap;
	size_t len = 0;
	const char *p;

	for (p = pattern; *p != '\0'; p++) {
		char num[32];
		int width = 0, zero = 0, n;

		xgrow(&pname, &cap, len + sizeof(num) + 16, 1);
		if (*p != '%') {
			pname[len++] = *p;
			continue;
		}
		if (p[1] == '%') {
			pname[len++] = '%';
			p++;
			continue;
		}
		p++;
		if (*p == '0') {
			zero = 1;
			p++;
		}
		if (*p >= '1' && *p <= '9')
			width = *p++ - '0';
		n = snprintf(num, sizeof(num), zero ? "%0*llu" : "%*llu",
		    width, (unsigned long long)i);
		memcpy(pname + len, num, (size_t)n);
		len += (size_t)n;
	}
	pname[len] = '\0';
	return pname;
}

/* Part i (0-based) ready for records: opened on first use. */
static struct emb_writer *
partw(uint64_t i)
{
	struct part *pt;
	int rc;

	if (i >= nslots) {
		size_t old = nslots;

		xgrow(&parts, &nslots, (size_t)i + 1, sizeof(*parts));
		memset(parts + old, 0, (nslots - old) * sizeof(*parts));
	}
	pt = &parts[i];
	if (pt->w != NULL)
		return pt->w;
	if (pt->done)
		errx(1, "%s: part %llu wanted again after it was closed", name,
		    (unsigned long long)i + 1);
	if (only) {
		pt->w = xwriter(dim);
		pt->fd = STDOUT_FILENO;
		emb_writer_allow_nonfinite(pt->w, 1);
		return pt->w;
	}
	/* Under a temporary name until every part is whole (outcommitall). */
	partname(i + 1);
	pt->fp = outopen(pname, &input, 1, 0666);
	pt->fd = fileno(pt->fp);
	if ((rc = emb_writer_open(&pt->w, pt->fd, dim)) < 0)
		errx(1, "%s: %s", pname, emb_strerror(rc));
	/* Records pass unchanged; the stages around judge their values. */
	emb_writer_allow_nonfinite(pt->w, 1);
	return pt->w;
}

/* A write to part i failed with rc: report it and exit 1. */
static void
partdie(uint64_t i, int rc)
{
	if (only)
		wdie(rc);
	partname(i + 1);
	if (rc == EMB_EIO)
		err(1, "%s", pname);
	errx(1, "%s: %s", pname, emb_strerror(rc));
}

/* Write the trailer of part i (0-based), opening it first if unused. */
static void
partclose(uint64_t i)
{
	struct emb_writer *w;
	int rc;

	if (i < nslots && parts[i].done)
		return;
	w = partw(i);
	if ((rc = emb_writer_close(w)) < 0)
		partdie(i, rc);
	emb_writer_free(w);
	if (parts[i].fd != STDOUT_FILENO)
		outclose(parts[i].fp);
	parts[i].w = NULL;
	parts[i].done = 1;
}

/* First unit of 0-based part p of nparts over total units. */
static uint64_t
contigstart(uint64_t p, uint64_t total)
{
	/* floor(p * total / nparts), without overflow. */
	return p * (total / nparts) + p * (total % nparts) / nparts;
}

/*
 * Copy a pipe to an unlinked temporary file, so that it can be read twice.
 * @return the file's descriptor, at offset 0.
 */
static int
spool(int fd)
{
	int t = xtmpfd(), wrote;

	if (emb_copyfd(fd, t, &wrote) != 0)
		err(1, "%s", wrote ? "temporary file" : name);
	if (lseek(t, 0, SEEK_SET) != 0)
		err(1, "temporary file");
	return t;
}

/* Units in the input (a regular file), read through once and checked. */
static uint64_t
countunits(int fd)
{
	struct emb_reader *r = xreader(fd, name);
	struct emb_rec rec;
	uint64_t n = 0;
	int rc;

	emb_reader_allow_nonfinite(r, 1);
	while ((rc = emb_reader_next(r, &rec)) > 0)
		if (rec.type == EMB_REC_GROUP || rec.group == 0)
			n++;
	if (rc < 0)
		rdie(r, name, rc);
	emb_reader_free(r);
	if (lseek(fd, 0, SEEK_SET) != 0)
		err(1, "%s: cannot read it twice", name);
	return n;
}

static void
split(int fd)
{
	struct emb_reader *r;
	struct emb_writer *w = NULL;
	struct emb_rec rec;
	uint64_t unit = 0, total = 0, cur = 0, next = 0, stop = UINT64_MAX, n;
	int rc;

	if (mode == CONTIG) {
		struct stat sb;

		if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode))
			fd = spool(fd);
		total = countunits(fd);
		next = contigstart(1, total);
		/* The count already checked the rest of the file. */
		if (only)
			stop = contigstart(only, total);
	}
	r = xreader(fd, name);
	emb_reader_allow_nonfinite(r, 1);
	dim = emb_reader_dim(r);
	while ((rc = emb_reader_next(r, &rec)) > 0) {
		if (rec.type == EMB_REC_GROUP || rec.group == 0) {
			uint64_t p = 0;

			if (unit == stop)
				break;
			switch (mode) {
			case CONTIG:
				while (unit == next) {
					if (!only)
						partclose(cur);
					cur++;
					next = contigstart(cur + 1, total);
				}
				p = cur;
				break;
			case COUNT:
				p = unit / count;
				if (p > cur && !only)
					partclose(cur);
				cur = p;
				break;
			case ROUND:
				p = unit % nparts;
				break;
			case HASH: {
				const char *k;
				size_t len;

				/* emb_hash, FNV-1a: the same on every
				 * machine, so parts agree across hosts. */
				if ((k = keyfield(rec.key, rec.keylen, field,
				    &len)) == NULL)
					errx(1, "%s: record %llu: key has fewer "
					    "than %u fields", name,
					    (unsigned long long)rec.recno,
					    field);
				p = emb_hash(k, len) % nparts;
				break;
			}
			}
			unit++;
			w = !only || p + 1 == only ? partw(p) : NULL;
			cur = p;
		}
		if (w == NULL)
			continue;
		if (rec.type == EMB_REC_GROUP)
			rc = emb_write_group(w, rec.key, rec.keylen,
			    rec.nmemb);
		else
			rc = emb_write_vec(w, rec.key, rec.keylen, rec.vec);
		if (rc < 0)
			partdie(cur, rc);
	}
	if (rc < 0)
		rdie(r, name, rc);
	emb_reader_free(r);

	/* Every part exists at the end, empty ones too. */
	n = nparts;
	if (mode == COUNT)
		n = unit ? (unit - 1) / count + 1 : 1;
	if (only > n) {
		/* As with -n, but known only now: nothing was written. */
		warnx("-i: part %llu of %llu does not exist",
		    (unsigned long long)only, (unsigned long long)n);
		exit(2);
	}
	if (only)
		partclose(only - 1);
	else
		for (uint64_t i = 0; i < n; i++)
			partclose(i);
}

int
main(int argc, char *argv[])
{
	int ch, jflag = 0, rflag = 0, oflag = 0, fd;

	while ((ch = optget(argc, argv, &prog, NULL)) != -1) {
		switch (ch) {
		case 'i':
			only = (uint64_t)parsenum(optarg, 1, INT64_MAX, "-i");
			break;
		case 'j':
			jflag = 1;
			break;
		case 'k':
			field = (unsigned)parsenum(optarg, 1, EMB_FIELD_MAX,
			    "-k");
			break;
		case 'l':
			count = (uint64_t)parsenum(optarg, 1, INT64_MAX, "-l");
			break;
		case 'n':
			nparts = (uint64_t)parsenum(optarg, 1, PARTS_MAX, "-n");
			break;
		case 'o':
			pattern = optarg;
			oflag = 1;
			break;
		case 'r':
			rflag = 1;
			break;
		case 'q':	/* no summary to silence or add */
		case 'v':
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		misuse("one input file at most");
	if (rflag && field)
		misuse("-r and -k exclude each other");
	if (only && oflag)
		misuse("-i and -o exclude each other");
	if (jflag) {
		if (nparts || count || rflag || field || only || oflag)
			misuse("-j takes no other option");
		/* One part of one, on stdout: a single segment. */
		nparts = only = 1;
		mode = ROUND;
	} else if (count) {
		if (nparts || rflag || field)
			misuse("-l takes no -n, -r or -k");
		mode = COUNT;
	} else if (nparts) {
		mode = rflag ? ROUND : field ? HASH : CONTIG;
		if (only > nparts)
			misuse("-i: part %llu of %llu does not exist",
			    (unsigned long long)only,
			    (unsigned long long)nparts);
	} else if (rflag || field)
		misuse("-r and -k go with -n only");
	else
		misuse("no -n, -l or -j: say how to split");
	if (!patternok(pattern)) {
		char q[EMB_QUOTE_BUF];

		misuse("-o: '%s' must hold one %%d (as %%d or %%03d), and "
		    "%%%% for a percent sign", emb_quotes(q, pattern));
	}
	name = inname(argv[0]);
	input = argv[0] != NULL ? argv[0] : "-";
	/* No part may be the input; with -l, each is checked as it opens. */
	for (uint64_t i = 1; !only && i <= nparts; i++)
		notinput(partname(i), &input, 1);
	fd = openin(argv[0]);
	if (only)
		notty(STDOUT_FILENO);
	split(fd);
	/* The parts take their names together, once all are whole. */
	outcommitall();
	free(parts);
	free(pname);
	return 0;
}
