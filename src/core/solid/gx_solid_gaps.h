/*
 * gx_solid_gaps.h: the gaps of a solid's columns (GxSolidGaps in gx_solid.h), for the point location index
 * alone (gx_solid_index.c builds, copies and frees them with the index and reads them when it locates).
 */
#ifndef GX_SOLID_GAPS_H
#define GX_SOLID_GAPS_H

#include "solid/gx_solid.h"

/* The gaps of a built index's columns (gx_solid_gaps.c), freed by gx_solid_index_free. */
bool		gx_solid_gaps_build(GxSolidIndex *s, GxError *err);
void		gx_solid_gaps_free(GxSolidIndex *s);
bool		gx_solid_gaps_copy(GxSolidIndex *dst, const GxSolidIndex *src);
size_t		gx_solid_gaps_bytes(const GxSolidIndex *s);

/*
 * The side of a point at height z of column `column` when that of its run of free bins is known; else
 * GX_LOC_FAILED, with *bin its free bin, or -1 when the bin is busy.
 */
GxLocation	gx_solid_gap_side(const GxSolidIndex *s, size_t column, double z, int *bin);

/* Records side (inside or outside) for the run of free bins holding bin `bin` of column `column`. */
void		gx_solid_gap_learn(const GxSolidIndex *s, size_t column, int bin, GxLocation side);

#endif
