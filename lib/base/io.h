/*
 * io.h - complete writes and growing anonymous mappings inside libemb
 * (util.c); reading is the input layer's (src.h).
 */
#ifndef EMB_IO_H
#define EMB_IO_H

#include <stddef.h>

/* write(2) all n bytes, retrying on EINTR and short writes: 0 or EMB_EIO. */
int emb_writeall(int fd, const void *buf, size_t n);

/*
 * emb_growmap - grow the anonymous mapping *p (NULL: none yet) of *maplen
 * bytes to len, by mremap(2): without a copy and without a transient
 * second one; pages not yet written cost nothing.  populate asks for all
 * the pages of a new mapping at once (MAP_POPULATE): for a size the
 * input can back only.  @return 0 or EMB_ENOMEM.
 */
int emb_growmap(void **p, size_t *maplen, size_t len, int populate);

#endif /* EMB_IO_H */
