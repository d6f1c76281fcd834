/*
 * crc.h - the crc32 of streams, stores and model files (crc.c).
 */
#ifndef EMB_CRC_H
#define EMB_CRC_H

#include <stddef.h>
#include <stdint.h>

/*
 * emb_crc32 - continue crc over n bytes, with zlib's crc32() definition and
 * result (start from 0); faster where the CPU allows.
 */
uint32_t emb_crc32(uint32_t crc, const void *buf, size_t n);

#endif /* EMB_CRC_H */
