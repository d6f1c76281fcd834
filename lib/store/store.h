/*
 * store.h - the store's insides, shared by its two files only: building
 * and writing one (store-build.c), opening and reading one (store.c).
 * The library's other modules reach a store through emb.h and fmt.h.
 *
 * Layout (emb-store(5) is the normative description): a 64-byte header;
 * in a store built from a fastText model, a 64-byte subword header; the
 * vectors, one 64-byte aligned row per word; the subword rows, one per
 * n-gram bucket, likewise; the search section (its header, the int8
 * codes in strips, norms, scales, errors); the row checksums (a header,
 * the crc32 of each row); the word offsets; the word bytes (each word
 * followed by a NUL); the hash buckets (FNV-1a 64, linear probing, at
 * most half full).  The header carries the sizes and three crc32 values
 * (header, index, vectors), the subword header its own sizes and two
 * (its own, the subword rows), the two sections' headers theirs.
 */
#ifndef EMB_STORE_H
#define EMB_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "store/emb-store.h"
#include "num/codes.h"

#define COUNT_MAX	0x7fffffffu	/* words: bucket values are u32 */
#define POOL_MAX	0xffffffffu	/* word bytes: offsets are u32 */
#define SUBHEADER	64		/* the subword header's size */
#define FLAG_SUB	1u		/* header flag: a subword section */
#define FLAG_KNN	2u		/* header flag: a search section */
#define KNNHEADER	64		/* the search section's header */
#define KNN_KIND	1u		/* its codes: int8 strips (codes.h) */
#define FLAG_ROWS	4u		/* header flag: row checksums */
#define ROWHEADER	64		/* the row checksums' header */
#define ROWS_KIND	2u		/* crc32 of each row's dim floats, and of
				   the search section's scales and errors */
#define ROWS_KIND1	1u		/* the same without the latter */

struct emb_store {
	unsigned char	*map;		/* the mapped file, or NULL */
	size_t		 mapsz;
	uint32_t	 dim;
	uint64_t	 count;
	size_t		 stride;	/* floats per row */
	uint32_t	 nb;		/* buckets, a power of two */
	const float	*vec;		/* row i at vec + i * stride */
	const uint32_t	*offs;		/* count + 1 word offsets */
	const char	*pool;		/* word bytes, NUL after each */
	uint64_t	 poolsz;
	const uint32_t	*bkt;		/* 0 empty, else index + 1 */
	uint32_t	 vcrc;		/* crc32 of the vectors as stored */
	int		 hassub;	/* a subword section: */
	int32_t		 minn, maxn;
	uint32_t	 sbucket;	/* its rows */
	const float	*svec;		/* row b at svec + b * stride */
	uint32_t	 scrc;		/* crc32 of the rows as stored */
	int		 hasknn;	/* a search section: */
	struct knn_sect	 knn;		/* its regions, in the map */
	uint32_t	 kccrc, ktcrc;	/* crc32 of its codes, its terms */
	uint32_t	 kscrc;		/* of its scales and errors, */
	int		 haskscrc;	/* if the row checksums say */
	const unsigned char *rcrc;	/* row checksums (u32 each), or NULL */
	uint32_t	 rrcrc;		/* crc32 of the row checksums */
	int		 damaged;	/* a row failed its checksum */
	uint64_t	*okrow;		/* a bit a row: checked, found whole */
	/* memory stores own these */
	float		*mvec;		/* rows, mapped anonymous memory */
	size_t		 mvecsz;	/* bytes mapped at mvec */
	uint32_t	*moffs;
	char		*mpool;
	uint32_t	*mbkt;
	const unsigned char **mrow;	/* in place: row i, in the map */
	int		 fd;		/* a mapped file's, kept open, or -1 */
	char		 msg[160];
};

static inline size_t
rowstride(uint32_t dim)
{
	return ((size_t)dim + 15) & ~(size_t)15;
}

/* Code bytes a row in the search section: none past KNN_CODEDIM. */
static inline uint32_t
knndp(uint32_t dim)
{
	return dim <= KNN_CODEDIM ? (dim + 3) / 4 * 4 : 0;
}

/* Rows of the search section: the words, rounded up to a strip. */
static inline uint64_t
striprows(uint64_t count)
{
	return (count + KNN_STRIP - 1) / KNN_STRIP * KNN_STRIP;
}

/* The search section's size: header, codes, norms, scales, errors. */
static inline uint64_t
knnsize(uint32_t dim, uint64_t count)
{
	return KNNHEADER + striprows(count) * (knndp(dim) + 16);
}

/* The row checksums' size: header, one u32 a row of either kind. */
static inline uint64_t
rowssize(uint64_t count, uint64_t sbucket)
{
	return ROWHEADER + (count + sbucket) * 4;
}

/* The index's key: word i. */
static inline const char *
wordkey(const void *ctx, size_t i, size_t *len)
{
	return emb_store_word(ctx, i, len);
}

/* The headers' size: 64 bytes, 128 with a subword section. */
static inline uint64_t
hdrsize(int sub)
{
	return EMB_STORE_HEADER + (sub ? SUBHEADER : 0);
}

/*
 * Offsets of the regions after the vectors (the subword rows, sbucket of
 * them, start at the vectors' end, the search section, ksz bytes, at
 * theirs).
 */
static inline void
layout(int sub, uint64_t count, size_t stride, uint64_t sbucket,
    uint64_t ksz, uint64_t poolsz, uint32_t nb, uint64_t *offoff,
    uint64_t *pooloff, uint64_t *bktoff, uint64_t *fsize)
{
	*offoff = hdrsize(sub) + (count + sbucket) * stride * 4 + ksz;
	*pooloff = *offoff + (count + 1) * 4;
	*bktoff = *pooloff + ((poolsz + 3) & ~(uint64_t)3);
	*fsize = *bktoff + (uint64_t)nb * 4;
}

#endif /* EMB_STORE_H */
