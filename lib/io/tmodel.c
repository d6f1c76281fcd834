/*
 * tmodel.c - the text model files of emb-normalize and emb-align: lines
 * "label value ...", every double printed with 17 significant digits so
 * that it reads back exactly, every line ending in a newline but the
 * last of a regular file (emb(5), TEXT INPUTS: from a pipe it was cut
 * short, and is malformed), and, for the formats that carry one, a last
 * line "crc32 XXXXXXXX" and its LF over every byte before it.
 */
#include "io/emb-io.h"
#include "base/crc.h"
#include "base/io.h"
#include "io/tmodel.h"
#include "io/src.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
emb_tm_putrow(FILE *fp, const char *label, const double *v, uint32_t n)
{
	fputs(label, fp);
	for (uint32_t i = 0; i < n; i++)
		fprintf(fp, " %.17g", v[i]);
	return putc('\n', fp) == EOF ? -1 : 0;
}

ssize_t
emb_tm_getl(struct emb_src *s, char **line, unsigned long *lno)
{
	size_t n;
	int rc = emb_src_getl(s, SIZE_MAX, line, &n);

	/* An error ends the lines; the caller asks s->err. */
	if (rc <= 0)
		return -1;
	++*lno;
	if (rc == 2)
		return -2;
	return (ssize_t)n;
}

int
emb_tm_getnum(struct emb_src *s, char **line, unsigned long *lno,
    const char *label, unsigned long long max, unsigned long long *v)
{
	size_t ll = strlen(label);
	char *end;

	if (emb_tm_getl(s, line, lno) < 0 ||
	    strncmp(*line, label, ll) != 0 || (*line)[ll] != ' ')
		return EMB_EFORMAT;
	errno = 0;
	*v = strtoull(*line + ll + 1, &end, 10);
	if (*end != '\0' || end == *line + ll + 1 || errno != 0 || *v > max ||
	    (*line)[ll + 1] == '-' || (*line)[ll + 1] == ' ')
		return EMB_EFORMAT;
	return 0;
}

int
emb_tm_getrow(struct emb_src *s, char **line, unsigned long *lno,
    const char *label, double *v, uint32_t n)
{
	if (emb_tm_getl(s, line, lno) < 0)
		return EMB_EFORMAT;
	return emb_tm_numrow(*line, label, v, n);
}

int
emb_tm_numrow(const char *line, const char *label, double *v, uint32_t n)
{
	size_t ll = strlen(label);
	const char *p;
	char *end;

	if (strncmp(line, label, ll) != 0)
		return EMB_EFORMAT;
	p = line + ll;
	for (uint32_t i = 0; i < n; i++) {
		if (*p != ' ')
			return EMB_EFORMAT;
		errno = 0;
		v[i] = strtod(p + 1, &end);
		if (end == p + 1 || errno == ERANGE || !isfinite(v[i]))
			return EMB_EFORMAT;
		p = end;
	}
	return *p == '\0' ? 0 : EMB_EFORMAT;
}

#define CRCLINE	"crc32 "
#define CRCLEN	(sizeof(CRCLINE) - 1 + 8 + 1)	/* label, 8 hex, LF */

int
emb_tm_write_crc(int fd, const char *buf, size_t len)
{
	char tail[CRCLEN + 1];

	snprintf(tail, sizeof(tail), CRCLINE "%08x\n",
	    (unsigned)emb_crc32(0, buf, len));
	if (emb_writeall(fd, buf, len) < 0 ||
	    emb_writeall(fd, tail, CRCLEN) < 0)
		return EMB_EIO;
	return 0;
}

int
emb_tm_read_crc(int fd, char **bufp, size_t *lenp)
{
	struct emb_buf b = { 0 };
	char *end;
	unsigned long crc;
	int rc;

	*bufp = NULL;
	*lenp = 0;
	if ((rc = emb_src_slurp(fd, &b.p, &b.len)) < 0)
		return rc;
	/* The last line: "crc32 " and 8 lowercase hex digits, then LF. */
	if (b.len < CRCLEN || b.p[b.len - 1] != '\n' ||
	    (b.len > CRCLEN && b.p[b.len - CRCLEN - 1] != '\n') ||
	    memcmp(b.p + b.len - CRCLEN, CRCLINE, sizeof(CRCLINE) - 1) != 0) {
		emb_buf_free(&b);
		return EMB_ETRUNC;
	}
	b.p[b.len - 1] = '\0';
	errno = 0;
	crc = strtoul(b.p + b.len - 9, &end, 16);
	if (*end != '\0' || errno != 0 || b.p[b.len - 9] == '-' ||
	    b.p[b.len - 9] == '+' || b.p[b.len - 9] == ' ') {
		emb_buf_free(&b);
		return EMB_ETRUNC;
	}
	if (crc != emb_crc32(0, b.p, b.len - CRCLEN)) {
		emb_buf_free(&b);
		return EMB_ECRC;
	}
	*bufp = b.p;
	*lenp = b.len - CRCLEN;
	return 0;
}
