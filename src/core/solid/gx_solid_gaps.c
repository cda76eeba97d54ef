/*
 * gx_solid_gaps.c: the empty stretches of a solid's columns, where a point's side is looked up instead of
 * counted (gx_solid.h, GxSolidGaps).
 *
 * Cell coordinates are a monotone function of each coordinate (gx_grid.h), so the double points of one
 * column lie in a box whose bounds are doubles, and a triangle whose box meets that box in (x, y) meets it at a
 * double point of the column: the grid lists it there. In a column, the open z-intervals between the merged
 * z-ranges of the triangles it lists (and below and above them all) are therefore, with the column, boxes that
 * no triangle meets. A box missing the surface is connected, so all its points lie on one side: the side of
 * the first of them located is the side of every other. The lowest and the highest reach past the solid and
 * are outside.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "solid/gx_solid.h"

/* A triangle's z-range in a column. */
typedef struct ZRange
{
	double		lo,
				hi;
} ZRange;

static int
by_lo(const void *a, const void *b)
{
	double		x = ((const ZRange *) a)->lo,
				y = ((const ZRange *) b)->lo;

	return (x > y) - (x < y);
}

/* Column c's gaps into lo, hi from slot at: the open intervals its triangles' z-ranges leave. Returns the count. */
static size_t
column_gaps(const GxSolidIndex *s, size_t c, ZRange *scratch, double *lo, double *hi, size_t at)
{
	size_t		n = 0,
				count = 0;
	double		top = -INFINITY;

	for (size_t k = s->grid.start[c]; k < s->grid.start[c + 1]; k++)
	{
		const GxBox3D *b = &s->boxes[s->grid.items[k]];

		scratch[n].lo = b->zmin;
		scratch[n++].hi = b->zmax;
	}
	qsort(scratch, n, sizeof(ZRange), by_lo);
	for (size_t k = 0; k < n; k++)
	{
		if (top < scratch[k].lo)
		{
			lo[at + count] = top;
			hi[at + count++] = scratch[k].lo;
		}
		top = fmax(top, scratch[k].hi);
	}
	lo[at + count] = top;
	hi[at + count++] = INFINITY;
	return count;
}

bool
gx_solid_gaps_build(GxSolidIndex *s, GxError *err)
{
	GxSolidGaps *g = &s->gaps;
	size_t		ncols = (size_t) s->grid.dim[0] * s->grid.dim[1],
				cap = s->grid.start[ncols] + ncols,
				widest = 0,
				n = 0;
	ZRange	   *scratch;

	memset(g, 0, sizeof(*g));
	for (size_t c = 0; c < ncols; c++)
		if (s->grid.start[c + 1] - s->grid.start[c] > widest)
			widest = s->grid.start[c + 1] - s->grid.start[c];
	g->first = gx_alloc((ncols + 1) * sizeof(size_t));
	g->lo = gx_alloc(cap * sizeof(double));
	g->hi = gx_alloc(cap * sizeof(double));
	scratch = gx_alloc((widest ? widest : 1) * sizeof(ZRange));
	if (g->first && g->lo && g->hi && scratch)
	{
		for (size_t c = 0; c < ncols; c++)
		{
			g->first[c] = n;
			n += column_gaps(s, c, scratch, g->lo, g->hi, n);
		}
		g->first[ncols] = n;
		g->side = gx_alloc(n);
	}
	gx_free(scratch);
	if (g->side == NULL)
	{
		gx_solid_gaps_free(s);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the index of a solid of %zu triangles", s->n);
		return false;
	}
	memset(g->side, GX_LOC_FAILED & 0xff, n);
	for (size_t c = 0; c < ncols; c++)
	{
		g->side[g->first[c]] = GX_LOC_OUTSIDE;
		g->side[g->first[c + 1] - 1] = GX_LOC_OUTSIDE;
	}
	g->n = n;
	return true;
}

void
gx_solid_gaps_free(GxSolidIndex *s)
{
	gx_free(s->gaps.first);
	gx_free(s->gaps.lo);
	gx_free(s->gaps.hi);
	gx_free(s->gaps.side);
	memset(&s->gaps, 0, sizeof(s->gaps));
}

size_t
gx_solid_gaps_bytes(const GxSolidIndex *s)
{
	return s->gaps.first ? ((size_t) s->grid.dim[0] * s->grid.dim[1] + 1) * sizeof(size_t) +
		s->gaps.n * (2 * sizeof(double) + 1) : 0;
}

long
gx_solid_gap_of(const GxSolidIndex *s, size_t column, double z)
{
	const GxSolidGaps *g = &s->gaps;

	for (size_t k = g->first[column]; k < g->first[column + 1]; k++)
	{
		if (z <= g->lo[k])
			return -1;
		if (z < g->hi[k])
			return (long) k;
	}
	return -1;
}
