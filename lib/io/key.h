/*
 * key.h - keys inside libemb (key.c): the check every reader and writer
 * of keys makes.
 */
#ifndef EMB_KEY_H
#define EMB_KEY_H

#include <stddef.h>

/*
 * emb_key_check - validate a key: no raw LF, CR or NUL, every backslash
 * starts one of the five escapes, length <= EMB_KEY_MAX.
 * @return 0 or EMB_EKEY.
 */
int emb_key_check(const char *key, size_t len);

#endif /* EMB_KEY_H */
