/*
 * fail.h - error messages inside libemb (err.c): an object that reads
 * input keeps the message its *_msg() function returns.
 */
#ifndef EMB_FAIL_H
#define EMB_FAIL_H

#include <stdarg.h>
#include <stddef.h>

/*
 * emb_fail - record an error: the message (printf's fmt and arguments)
 * into msg[sz], truncated if need be.  @return code, for
 * "return emb_fail(...)".  emb_vfail - the same with a va_list.
 */
int emb_fail(char *msg, size_t sz, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int emb_vfail(char *msg, size_t sz, int code, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

#endif /* EMB_FAIL_H */
