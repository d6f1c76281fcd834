/*
 * driver.c - main() for the fuzz harnesses when libFuzzer is not linked in.
 *
 * Every harness is one file defining LLVMFuzzerTestOneInput().  Linked with
 * clang -fsanitize=fuzzer it is a libFuzzer target and this file is not
 * used.  Linked with this file it is:
 *
 *   - an AFL++ target: built by afl-cc (which defines __AFL_FUZZ_TESTCASE_LEN)
 *     and run by afl-fuzz with no operand, it runs AFL++'s persistent,
 *     shared-memory loop;
 *   - a replayer: each operand, a file or a directory of files, is one input
 *     (this is how `make check` runs the seeds and the crash fixtures, and how
 *     a crash is reproduced); with no operand, standard input is one input.
 *
 * A harness reports a broken invariant by abort(), so a failure is a signal
 * here as it is under the fuzzers.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();
#endif

/* Read all of fp into a malloc'ed buffer of exactly its size. */
static uint8_t *
slurp(FILE *fp, const char *name, size_t *lenp)
{
	uint8_t *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;

	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			if ((nb = realloc(buf, cap)) == NULL) {
				fprintf(stderr, "%s: out of memory\n", name);
				exit(1);
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, fp);
		len += got;
	} while (got > 0);
	if (ferror(fp)) {
		perror(name);
		exit(1);
	}
	/* Exactly sized, so that ASan sees a read past the end. */
	if ((nb = malloc(len ? len : 1)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", name);
		exit(1);
	}
	memcpy(nb, buf, len);
	free(buf);
	*lenp = len;
	return nb;
}

static void
runfile(const char *path)
{
	FILE *fp;
	uint8_t *buf;
	size_t len;

	if ((fp = fopen(path, "rb")) == NULL) {
		perror(path);
		exit(1);
	}
	buf = slurp(fp, path, &len);
	fclose(fp);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
}

/* A file, or every regular file in a directory (not recursive). */
static int
runpath(const char *path)
{
	struct dirent **ents;
	struct stat st;
	int n, runs = 0;

	if (stat(path, &st) != 0) {
		perror(path);
		exit(1);
	}
	if (!S_ISDIR(st.st_mode)) {
		runfile(path);
		return 1;
	}
	if ((n = scandir(path, &ents, NULL, alphasort)) < 0) {
		perror(path);
		exit(1);
	}
	for (int i = 0; i < n; i++) {
		char *p;

		if (ents[i]->d_name[0] != '.' &&
		    asprintf(&p, "%s/%s", path, ents[i]->d_name) >= 0) {
			if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
				runfile(p);
				runs++;
			}
			free(p);
		}
		free(ents[i]);
	}
	free(ents);
	return runs;
}

int
main(int argc, char *argv[])
{
	uint8_t *buf;
	size_t len;
	int runs = 0;

#ifdef __AFL_FUZZ_TESTCASE_LEN
	if (argc < 2 && getenv("__AFL_SHM_ID") != NULL) {
		unsigned char *tc;

		__AFL_INIT();
		tc = __AFL_FUZZ_TESTCASE_BUF;
		while (__AFL_LOOP(10000)) {
			len = (size_t)__AFL_FUZZ_TESTCASE_LEN;
			/* A private, exactly sized copy, as libFuzzer gives. */
			if ((buf = malloc(len ? len : 1)) == NULL)
				abort();
			memcpy(buf, tc, len);
			LLVMFuzzerTestOneInput(buf, len);
			free(buf);
		}
		return 0;
	}
#endif
	if (argc < 2) {
		buf = slurp(stdin, "stdin", &len);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		runs += runpath(argv[i]);
	if (getenv("FUZZ_VERBOSE") != NULL)
		fprintf(stderr, "%s: %d inputs, no failure\n", argv[0], runs);
	return 0;
}
