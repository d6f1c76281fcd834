/*
 * fuzz.h - what every fuzz harness shares: the check that aborts (so that
 * a broken invariant is a crash to libFuzzer, AFL++ and the replayer
 * alike) and an input put in a memory file, since the library reads file
 * descriptors.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emb.h"
#include "io/fmt.h"
#include "store/access.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

/* A memfd holding len bytes of data, positioned at its start. */
static inline int
fuzz_memfile(const void *data, size_t len)
{
	int fd = memfd_create("fuzz", 0);

	CHECK(fd >= 0);
	if (len > 0)
		CHECK(write(fd, data, len) == (ssize_t)len);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	return fd;
}

/*
 * The word2vec header "N D\n" a harness writes before the fuzzer's body,
 * N in 1..8 and D in 1..16 chosen by the input's first two bytes, into
 * buf (32 bytes).  @return its length.
 */
static inline int
fuzz_w2vheader(char *buf, const uint8_t *data, unsigned *words,
    unsigned *dim)
{
	*words = 1 + data[0] % 8;
	*dim = 1 + data[1] % 16;
	return snprintf(buf, 32, "%u %u\n", *words, *dim);
}

#endif /* FUZZ_H */
