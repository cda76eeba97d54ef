/*
 * gx_solid_gaps.c: the empty stretches of a solid's columns, where a point's side is looked up instead of
 * counted (gx_solid.h, GxSolidGaps).
 *
 * Heights fall into 64 bins over the solid's box, by a monotone function of z, as cells do over x and y
 * (gx_grid.h). A bin of a column is busy when the z-range of a triangle the column lists reaches it. A run of
 * free bins is, with the column, a box that no triangle meets: such a triangle's box and that box would share
 * a double point (their overlap's least corner), which lies in the column (so the grid lists the triangle
 * there) and in the run (so, by monotonicity, the triangle's z-range reaches a bin of the run). A box missing
 * the surface is connected, so all its points lie on one side: the side of the first of them located is the
 * side of every other. The runs below and above every busy bin reach past the solid and are outside.
 */
#include <string.h>

#include "base/gx_alloc.h"
#include "geom/gx_box.h"
#include "solid/gx_solid.h"
#include "solid/gx_solid_gaps.h"

#define NBINS 64

static inline int
bin_of(const GxSolidGaps *g, double z)
{
	double		c = (z - g->zmin) * g->scale;

	if (!(c > 0))
		return 0;
	return c >= NBINS ? NBINS - 1 : (int) c;
}

/* Bits lo .. hi (0 <= lo <= hi < 64). */
static inline uint64_t
bits(int lo, int hi)
{
	return (hi == NBINS - 1 ? ~0ull : (1ull << (hi + 1)) - 1) & ~((1ull << lo) - 1);
}

bool
gx_solid_gaps_build(GxSolidIndex *s, GxError *err)
{
	GxSolidGaps *g = &s->gaps;
	size_t		ncols = (size_t) s->grid.dim[0] * s->grid.dim[1];

	memset(g, 0, sizeof(*g));
	g->col = gx_alloc(ncols * sizeof(GxGapColumn));
	if (g->col == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the index of a solid of %zu triangles", s->n);
		return false;
	}
	g->zmin = s->box.zmin;
	g->scale = NBINS / (s->box.zmax - s->box.zmin);
	for (size_t c = 0; c < ncols; c++)
	{
		GxGapColumn *col = &g->col[c];
		uint64_t	busy = 0;

		for (size_t k = s->grid.start[c]; k < s->grid.start[c + 1]; k++)
		{
			const GxBox3D *b = &s->boxes[s->grid.items[k]];

			busy |= bits(bin_of(g, b->zmin), bin_of(g, b->zmax));
		}
		col->busy = busy;
		col->inside = 0;
		/* below the lowest busy bin and above the highest, or the whole column when nothing is there */
		col->outside = busy == 0 ? ~0ull :
			(bits(0, __builtin_ctzll(busy)) | bits(NBINS - 1 - __builtin_clzll(busy), NBINS - 1)) & ~busy;
	}
	return true;
}

void
gx_solid_gaps_free(GxSolidIndex *s)
{
	gx_free(s->gaps.col);
	memset(&s->gaps, 0, sizeof(s->gaps));
}

bool
gx_solid_gaps_copy(GxSolidIndex *dst, const GxSolidIndex *src)
{
	size_t		bytes = gx_solid_gaps_bytes(src);

	dst->gaps = src->gaps;
	dst->gaps.col = gx_alloc_try(bytes);
	if (dst->gaps.col == NULL)
		return false;
	memcpy(dst->gaps.col, src->gaps.col, bytes);
	return true;
}

size_t
gx_solid_gaps_bytes(const GxSolidIndex *s)
{
	return s->gaps.col ? (size_t) s->grid.dim[0] * s->grid.dim[1] * sizeof(GxGapColumn) : 0;
}

GxLocation
gx_solid_gap_side(const GxSolidIndex *s, size_t column, double z, int *bin)
{
	const GxGapColumn *col = &s->gaps.col[column];
	int			b = bin_of(&s->gaps, z);
	uint64_t	bit = 1ull << b;

	*bin = -1;
	if (col->busy & bit)
		return GX_LOC_FAILED;
	if (__atomic_load_n(&col->inside, __ATOMIC_RELAXED) & bit)
		return GX_LOC_INSIDE;
	if (__atomic_load_n(&col->outside, __ATOMIC_RELAXED) & bit)
		return GX_LOC_OUTSIDE;
	*bin = b;
	return GX_LOC_FAILED;
}

void
gx_solid_gap_learn(const GxSolidIndex *s, size_t column, int bin, GxLocation side)
{
	GxGapColumn *col = &s->gaps.col[column];
	int			lo = bin,
				hi = bin;

	while (lo > 0 && !(col->busy & (1ull << (lo - 1))))
		lo--;
	while (hi < NBINS - 1 && !(col->busy & (1ull << (hi + 1))))
		hi++;
	__atomic_fetch_or(side == GX_LOC_INSIDE ? &col->inside : &col->outside, bits(lo, hi), __ATOMIC_RELAXED);
}

/*
 * A triangle whose box overlaps box shares with it the least corner of their overlap, a double point that
 * lies in a column of box's range (the grid lists the triangle there) and in a bin of box's heights (the
 * triangle's z-range reaches it): that bin is busy. Bins and cells are monotone in their coordinate, so
 * the ranges of box, clamped to the solid's box, hold them.
 */
bool
gx_solid_gaps_miss(const GxSolidIndex *s, const GxBox3D *box)
{
	const GxSolidGaps *g = &s->gaps;
	uint64_t	heights;
	int			lo[3],
				hi[3];

	if (g->col == NULL || !gx_box_overlaps(&s->box, box))
		return g->col != NULL;
	heights = bits(bin_of(g, box->zmin), bin_of(g, box->zmax));
	gx_grid_range(&s->grid, box, lo, hi);
	for (int j = lo[1]; j <= hi[1]; j++)
		for (int i = lo[0]; i <= hi[0]; i++)
			if (g->col[gx_grid_cell(&s->grid, i, j, 0)].busy & heights)
				return false;
	return true;
}
