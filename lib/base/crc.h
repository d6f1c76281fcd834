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

/*
 * For a loop that reads 256 bytes a step for its own work and folds them
 * beside it (emb-knn's AVX-512 kernel): four 512-bit registers, zero at
 * first, each step z = clmul(z.lo, K2080) ^ clmul(z.hi, K2016) ^ data,
 * lane by lane (EMB_CRC_K2080 in the low half of each 128-bit lane).
 * emb_crc32_lanes gives zlib's crc32 (from 0) of the n bytes so folded
 * into z (256 bytes, the registers in data order); emb_crc32_lanes_ok
 * says whether this processor has what both need (VPCLMULQDQ, AVX-512F
 * and VL).
 */
#define EMB_CRC_K2080	0x11542778aull
#define EMB_CRC_K2016	0x1322d1430ull
uint32_t emb_crc32_lanes(const unsigned char *z, uint64_t n);
int	 emb_crc32_lanes_ok(void);

#endif /* EMB_CRC_H */
