/*
 * tmodel.h - the text model files of emb-normalize(1) and emb-align(1)
 * (tmodel.c), read and written by pca.c and align.c.
 */
#ifndef EMB_TMODEL_H
#define EMB_TMODEL_H

#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>

/*
 * Text model files (tmodel.c; emb-normalize(1) and emb-align(1), FILES).
 * emb_tm_putrow prints "label v_1 ... v_n" (%.17g) and a LF: 0 or -1.
 * emb_tm_getl reads a line of s (emb_src_getl) into *line, LF removed,
 * counting *lno: @return its length, -1 at the end or on an error (in
 * s->err), -2 for a last line without its LF that may have been cut (from
 * a pipe: the last line of a regular file needs none).
 * emb_tm_getnum reads "label N", N <= max; emb_tm_getrow "label x_1 ...
 * x_n", finite: 0 or EMB_EFORMAT; emb_tm_numrow the same of a line
 * already read.
 */
struct emb_src;
int emb_tm_putrow(FILE *fp, const char *label, const double *v, uint32_t n);
ssize_t emb_tm_getl(struct emb_src *s, char **line, unsigned long *lno);
int emb_tm_getnum(struct emb_src *s, char **line, unsigned long *lno,
    const char *label, unsigned long long max, unsigned long long *v);
int emb_tm_getrow(struct emb_src *s, char **line, unsigned long *lno,
    const char *label, double *v, uint32_t n);
int emb_tm_numrow(const char *line, const char *label, double *v,
    uint32_t n);
/*
 * emb_tm_write_crc - write len bytes of buf to fd, then the line "crc32
 * XXXXXXXX" of their crc32: 0 or EMB_EIO.  emb_tm_read_crc - read all of
 * fd into *bufp (free it) and check that last line against the bytes
 * before it, which are *lenp: 0, EMB_EIO, EMB_ENOMEM, EMB_ETRUNC (no such
 * last line: cut short) or EMB_ECRC.
 */
int emb_tm_write_crc(int fd, const char *buf, size_t len);
int emb_tm_read_crc(int fd, char **bufp, size_t *lenp);


#endif /* EMB_TMODEL_H */
