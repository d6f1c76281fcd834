/*
 * io.h - complete writes inside libemb (util.c); reading is the input
 * layer's (src.h).
 */
#ifndef EMB_IO_H
#define EMB_IO_H

#include <stddef.h>

/* write(2) all n bytes, retrying on EINTR and short writes: 0 or EMB_EIO. */
int emb_writeall(int fd, const void *buf, size_t n);

#endif /* EMB_IO_H */
