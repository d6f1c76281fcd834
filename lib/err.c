/*
 * err.c - error codes to text.
 */
#include "emb.h"

static const char *const msgs[] = {
	[-EMB_OK]	= "success",
	[-EMB_EIO]	= "input/output error",
	[-EMB_ENOMEM]	= "out of memory",
	[-EMB_EINVAL]	= "invalid argument",
	[-EMB_ELIMIT]	= "size exceeds limit",
	[-EMB_EMAGIC]	= "not an emb stream (bad magic)",
	[-EMB_EVERSION]	= "unsupported stream version",
	[-EMB_EDIM]	= "bad dimension",
	[-EMB_ETRUNC]	= "truncated stream",
	[-EMB_ETYPE]	= "unknown record type",
	[-EMB_EKEY]	= "bad key",
	[-EMB_ENONFINITE] = "non-finite component",
	[-EMB_EGROUP]	= "broken group framing",
	[-EMB_ECOUNT]	= "record count mismatch",
	[-EMB_ECRC]	= "checksum mismatch",
	[-EMB_ESYNTAX]	= "syntax error",
	[-EMB_ERANGE]	= "number out of range",
	[-EMB_EFORMAT]	= "malformed embedding file",
	[-EMB_EGZIP]	= "corrupt gzip data",
	[-EMB_ESTORE]	= "corrupt store",
	[-EMB_EZERO]	= "zero vector",
	[-EMB_ENOSOL]	= "no solution",
	[-EMB_EEMPTY]	= "empty input",
	[-EMB_ECONVERGE] = "no convergence",
};

const char *
emb_strerror(int code)
{
	if (code > 0 || code < EMB_ELAST || msgs[-code] == NULL)
		return "unknown error";
	return msgs[-code];
}
