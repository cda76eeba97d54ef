/*
 * gx_intersects.c: geometry against geometry. Elements outside the overlap of the two bounding boxes are
 * dropped while flattening; small remainders are tested pair by pair, large ones through a uniform grid
 * built on the side with fewer elements while the other side streams through it. Each candidate pair is
 * box-culled, tested once (in its reference cell) and the search stops at the first intersection.
 */

#include "gx_alloc.h"
#include "gx_elements.h"
#include "gx_grid.h"
#include "gx_interrupt.h"
#include "gx_intersects.h"

#define BRUTE_FORCE_PAIRS 256		/* below this many pairs a grid does not pay */
#define GRID_CELLS_PER_ELEMENT 2.0

static int
brute_force(const GxElements *a, const GxElements *b)
{
	size_t		i,
				j;

	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++)
			if (gx_elem_intersects(a->elems[i], b->elems[j]))
				return 1;
	return 0;
}

/* Does any element of `stream` meet an element of `indexed` (gridded over extent)? */
static int
grid_search(const GxElements *indexed, const GxElements *stream, const GxBox3D *extent, GxError *err)
{
	GxBox3D    *boxes = gx_alloc(indexed->n * sizeof(GxBox3D));
	GxGrid		grid;
	int			dim[3];
	size_t		i;
	int			found = 0;

	if (boxes == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for %zu element boxes", indexed->n);
		return -1;
	}
	for (i = 0; i < indexed->n; i++)
		boxes[i] = gx_elem_box(indexed->elems[i]);
	gx_grid_choose_dims(extent, GRID_CELLS_PER_ELEMENT * indexed->n, dim);
	if (!gx_grid_build(&grid, extent, dim, boxes, indexed->n, err))
	{
		gx_free(boxes);
		return -1;
	}
	for (i = 0; i < stream->n && !found; i++)
	{
		GxElem		e = stream->elems[i];
		GxBox3D		eb = gx_elem_box(e);
		int			lo[3],
					hi[3],
					x,
					y,
					z;

		gx_maybe_interrupt(i);
		gx_grid_range(&grid, &eb, lo, hi);
		for (z = lo[2]; z <= hi[2] && !found; z++)
			for (y = lo[1]; y <= hi[1] && !found; y++)
				for (x = lo[0]; x <= hi[0] && !found; x++)
				{
					size_t		cell = gx_grid_cell(&grid, x, y, z);
					size_t		c;

					for (c = grid.start[cell]; c < grid.start[cell + 1] && !found; c++)
					{
						uint32_t	f = grid.items[c];

						found = gx_box_overlaps(&eb, &boxes[f]) &&
							gx_grid_is_reference_cell(&grid, &eb, &boxes[f], x, y, z) &&
							gx_elem_intersects(e, indexed->elems[f]);
					}
				}
	}
	gx_grid_free(&grid);
	gx_free(boxes);
	return found;
}

int
gx_intersects(const GxSerialized *a, const GxSerialized *b, GxError *err)
{
	GxBox3D		clip;
	GxElements	ea,
				eb;
	int			result;

	if (a->srid != 0 && b->srid != 0 && a->srid != b->srid)
	{
		gx_error_set(err, GX_ERR_SRID, "operation on mixed SRID geometries (%d and %d)", a->srid, b->srid);
		return -1;
	}
	if ((a->flags | b->flags) & GX_FLAG_EMPTY || !gx_box_overlaps(&a->box, &b->box))
		return 0;
	clip = gx_box_intersection(&a->box, &b->box);
	if (!gx_elements_collect(a, &clip, &ea, err))
		return -1;
	if (!gx_elements_collect(b, &clip, &eb, err))
	{
		gx_elements_free(&ea);
		return -1;
	}
	if ((double) ea.n * eb.n <= BRUTE_FORCE_PAIRS)
		result = brute_force(&ea, &eb);
	else if (ea.n <= eb.n)
		result = grid_search(&ea, &eb, &clip, err);
	else
		result = grid_search(&eb, &ea, &clip, err);
	gx_elements_free(&ea);
	gx_elements_free(&eb);
	return result;
}
