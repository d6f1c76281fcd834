/*
 * out.c - named outputs, written whole or not at all (see util.h).
 *
 * A regular file is written as an unnamed file in its directory (Linux
 * O_TMPFILE) and given its name when complete, by linkat(2) through
 * /proc/self/fd: until then it has no name, so a process killed by any
 * signal, SIGKILL included, leaves nothing behind.  Replacing an existing
 * file takes a link under a temporary name and a rename(2) over the old
 * one; the instant between the two is the only one in which a SIGKILL
 * leaves a temporary.  Where the file system has no O_TMPFILE, or /proc
 * is not mounted, the file is written under a temporary name beside its
 * target, path.tmp.XXXXXX, renamed when complete; that name is removed at
 * exit and on the fatal signals a handler can catch, not on SIGKILL.
 *
 * A FIFO or a device (/dev/null, /dev/stdout) cannot be replaced: it is
 * opened at once (a reader of a FIFO sees its end if the program fails),
 * its output waits in an unlinked temporary file and is copied to it when
 * complete, so that a failure writes nothing there either.
 *
 * The list of outputs changes with the signals held, so that a handler
 * sees it whole.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

enum {
	OUT_NAMED,	/* path.tmp.XXXXXX, renamed */
	OUT_ANON,	/* O_TMPFILE, linked */
	OUT_DEV		/* an unlinked spool, copied to a FIFO or device */
};

/*
 * Unnamed files kept open between outclose() and outcommitall(); past
 * this many, an output closed early gets a temporary name instead, so
 * that a split into many parts does not run out of descriptors.
 */
#define KEPT_MAX	256

struct out {
	char		*tmp;		/* its temporary name, or NULL */
	char		*path;		/* the name it will have */
	int		 fd;		/* while open; kept after close if not named */
	int		 dev;		/* the FIFO or device, open from the start */
	int		 kind;		/* OUT_* */
	int		 closed;	/* by outclose(), waiting for commit */
	unsigned long	 seq;		/* the order opened */
};
static struct out *volatile outs;
static volatile size_t nouts;
static size_t outcap, nkept;
static unsigned long outseq;

void
outabort(void)
{
	for (size_t i = 0; i < nouts; i++)
		if (outs[i].tmp != NULL)
			(void)unlink(outs[i].tmp);
}

/* A fatal signal: remove the temporaries, then die of the signal. */
static void
onfatal(int sig)
{
	outabort();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
arm(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE,
	    SIGXFSZ };
	static int armed;
	struct sigaction sa, old;

	if (armed)
		return;
	armed = 1;
	atexit(outabort);
	sa.sa_handler = onfatal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

static void
hold(sigset_t *prev)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, prev);
}

static void
release(const sigset_t *prev)
{
	sigprocmask(SIG_SETMASK, prev, NULL);
}

/* An unnamed file in path's directory, or -1. */
static int
anonfile(const char *path)
{
#ifdef O_TMPFILE
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	if (access("/proc/self/fd", X_OK) != 0)
		return -1;
	if (slash == NULL)
		dir = xstrdup(".");
	else {
		size_t n = slash == path ? 1 : (size_t)(slash - path);

		dir = xmalloc(n + 1);
		memcpy(dir, path, n);
		dir[n] = '\0';
	}
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	free(dir);
	return fd;
#else
	(void)path;
	return -1;
#endif
}

/* Link fd's file at name: 0, or -1 with errno. */
static int
linkfd(int fd, const char *name)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW);
}

/*
 * Give entry i's unnamed file a temporary name beside its path, recorded
 * (with the signals held) before it exists, so a handler removes it.
 */
static void
nametmp(size_t i)
{
	static unsigned long salt;
	char *tmp = xmalloc(strlen(outs[i].path) + 16);
	sigset_t prev;
	int rc;

	for (int tries = 0;; tries++) {
		unsigned long r = (unsigned long)getpid() * 2654435761u ^
		    (unsigned long)time(NULL) ^ ++salt * 40503u;

		sprintf(tmp, "%s.tmp.%06lx", outs[i].path, r & 0xffffff);
		hold(&prev);
		outs[i].tmp = tmp;
		if ((rc = linkfd(outs[i].fd, tmp)) < 0)
			outs[i].tmp = NULL;
		release(&prev);
		if (rc == 0)
			return;
		if (errno != EEXIST || tries == 100)
			err(1, "%s", tmp);
	}
}

static FILE *
opennamed(const char *path, const char *const in[], size_t n, mode_t mode,
    int devok)
{
	struct stat sb;
	struct out *no;
	sigset_t prev;
	mode_t mask;
	char *tmp = NULL;
	FILE *fp;
	int fd, dev = -1, kind = OUT_ANON;

	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		if (S_ISDIR(sb.st_mode) || !devok)
			errx(2, "%s: not a regular file: refusing to replace "
			    "it", path);
		kind = OUT_DEV;
	} else if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode))
		errx(2, "%s: a symbolic link: refusing to replace it (name "
		    "the file it points to)", path);
	notinput(path, in, n);
	arm();
	if (kind == OUT_DEV) {
		if ((dev = open(path, O_WRONLY | O_CLOEXEC)) < 0)
			err(1, "%s", path);
		fd = xtmpfd();
	}
	else if ((fd = anonfile(path)) < 0) {
		kind = OUT_NAMED;
		tmp = xmalloc(strlen(path) + 16);
		sprintf(tmp, "%s.tmp.XXXXXX", path);
	}
	hold(&prev);
	if (nouts == outcap) {
		size_t cap = outcap ? 2 * outcap : 4;

		if ((no = calloc(cap, sizeof(*no))) == NULL)
			err(1, "calloc");
		if (nouts > 0)
			memcpy(no, outs, nouts * sizeof(*no));
		free(outs);
		outs = no;
		outcap = cap;
	}
	if (kind == OUT_NAMED)
		fd = mkstemp(tmp);
	if (fd >= 0) {
		outs[nouts].tmp = tmp;
		outs[nouts].path = xstrdup(path);
		outs[nouts].fd = fd;
		outs[nouts].kind = kind;
		outs[nouts].dev = dev;
		outs[nouts].closed = 0;
		outs[nouts].seq = outseq++;
		nouts++;
	}
	release(&prev);
	if (fd < 0)
		err(1, "%s", path);
	mask = umask(0);
	umask(mask);
	if ((kind != OUT_DEV && fchmod(fd, mode & ~mask) < 0) ||
	    (fp = fdopen(fd, "w+")) == NULL)
		err(1, "%s", path);
	return fp;
}

FILE *
outopen(const char *path, const char *const in[], size_t n, mode_t mode)
{
	return opennamed(path, in, n, mode, 1);
}

FILE *
outopenfile(const char *path, const char *const in[], size_t n, mode_t mode)
{
	return opennamed(path, in, n, mode, 0);
}

/* The entry of fp's file, or exit. */
static size_t
outfind(FILE *fp)
{
	int fd = fileno(fp);

	for (size_t i = 0; i < nouts; i++)
		if (!outs[i].closed && outs[i].fd == fd)
			return i;
	errx(1, "internal error: an output that outopen did not open");
}

/* Copy entry i's spool to its FIFO or device. */
static void
copyout(size_t i)
{
	int dev = outs[i].dev, wrote;

	if (lseek(outs[i].fd, 0, SEEK_SET) != 0)
		err(1, "temporary file");
	if (emb_copyfd(outs[i].fd, dev, &wrote) != 0)
		err(1, "%s", wrote ? outs[i].path : "temporary file");
	if (close(dev) < 0)
		err(1, "%s", outs[i].path);
}

/* Give entry i its name (or copy it out) and forget it. */
static void
outrename(size_t i)
{
	char *t, *p = outs[i].path;
	sigset_t prev;
	int kept = outs[i].kind != OUT_NAMED;

	if (outs[i].kind == OUT_DEV)
		copyout(i);
	else if (outs[i].kind == OUT_ANON && outs[i].tmp == NULL &&
	    linkfd(outs[i].fd, p) < 0) {
		if (errno != EEXIST)
			err(1, "%s", p);
		nametmp(i);
	}
	if (outs[i].tmp != NULL && rename(outs[i].tmp, p) < 0)
		err(1, "%s", p);
	if (kept && outs[i].fd >= 0) {
		close(outs[i].fd);
		nkept--;
	}
	t = outs[i].tmp;
	hold(&prev);
	outs[i] = outs[--nouts];
	release(&prev);
	free(t);
	free(p);
}

void
outclose(FILE *fp)
{
	size_t i = outfind(fp);
	int keep = -1;

	if (fflush(fp) != 0 || ferror(fp) || fsync(fileno(fp)) < 0)
		err(1, "%s", outs[i].path);
	if (outs[i].kind != OUT_NAMED) {
		if (nkept < KEPT_MAX)
			keep = dup(fileno(fp));
		if (keep < 0 && outs[i].kind == OUT_DEV)
			err(1, "%s", outs[i].path);
		if (keep < 0) {
			/* Too many kept open: a temporary name, as elsewhere. */
			nametmp(i);
			outs[i].kind = OUT_NAMED;
		} else
			nkept++;
	}
	outs[i].closed = 1;
	outs[i].fd = keep;
	if (fclose(fp) != 0)
		err(1, "%s", outs[i].path);
}

void
outcommit(FILE *fp, const char *path)
{
	size_t i = outfind(fp);

	(void)path;
	outclose(fp);
	outrename(i);
}

void
outcommitall(void)
{
	/* In the order opened (a renamed entry's place takes the last). */
	while (nouts > 0) {
		size_t first = 0;

		for (size_t i = 1; i < nouts; i++)
			if (outs[i].seq < outs[first].seq)
				first = i;
		if (!outs[first].closed)
			errx(1, "internal error: %s still open",
			    outs[first].path);
		outrename(first);
	}
}
