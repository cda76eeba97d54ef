/*
 * gx_intersects.c: geometry against geometry. Elements outside the overlap of the two bounding boxes are
 * dropped while flattening; small remainders are tested pair by pair, large ones through a uniform grid
 * built on the side with fewer elements while the other side streams through it. Each candidate pair is
 * box-culled, tested once (in its reference cell) and the search stops at the first intersection.
 * A prepared geometry keeps its elements and grid, for callers that test one geometry against many.
 * A solid is its volume: a geometry that misses its surface intersects it when it lies inside
 * (gx_solid.h), which one vertex of each of its elements settles.
 */

#include <string.h>

#include "algorithm/gx_elements.h"
#include "base/gx_alloc.h"
#include "base/gx_interrupt.h"
#include "operation/gx_intersects.h"
#include "solid/gx_solid.h"

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

/* Builds the grid of p->elems over extent. */
static bool
index_build(GxPrepared *p, const GxBox3D *extent, GxError *err)
{
	int			dim[3];
	size_t		i;

	p->boxes = gx_alloc((p->elems.n ? p->elems.n : 1) * sizeof(GxBox3D));
	if (p->boxes == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for %zu element boxes", p->elems.n);
		return false;
	}
	for (i = 0; i < p->elems.n; i++)
		p->boxes[i] = gx_elem_box(p->elems.elems[i]);
	gx_grid_choose_dims(extent, GRID_CELLS_PER_ELEMENT * p->elems.n, dim);
	return gx_grid_build(&p->grid, extent, dim, p->boxes, p->elems.n, NULL, err);
}

/* Does any element of `stream` meet an element of the indexed p? */
static int
index_search(const GxPrepared *p, const GxElements *stream)
{
	const GxGrid *grid = &p->grid;
	size_t		i;
	int			found = 0;

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
		if (!gx_box_overlaps(&eb, &grid->box))
			continue;
		gx_grid_range(grid, &eb, lo, hi);
		for (z = lo[2]; z <= hi[2] && !found; z++)
			for (y = lo[1]; y <= hi[1] && !found; y++)
				for (x = lo[0]; x <= hi[0] && !found; x++)
				{
					size_t		cell = gx_grid_cell(grid, x, y, z);
					size_t		c;

					for (c = grid->start[cell]; c < grid->start[cell + 1] && !found; c++)
					{
						uint32_t	f = grid->items[c];

						found = gx_box_overlaps(&eb, &p->boxes[f]) &&
							gx_grid_is_reference_cell(grid, &eb, &p->boxes[f], x, y, z) &&
							gx_elem_intersects(e, p->elems.elems[f]);
					}
				}
	}
	return found;
}

/* SRIDs, emptiness and boxes: 0 or -1 when that settles it, else 1 (the elements must be looked at). */
static int
screen(const GxSerialized *a, const GxSerialized *b, GxError *err)
{
	if (!gx_srids_match(a, b, err))
		return -1;
	if ((a->flags | b->flags) & GX_FLAG_EMPTY || !gx_box_overlaps(&a->box, &b->box))
		return 0;
	return 1;
}

/* Whether x, which misses solid s's surface, lies inside it: 1, 0, or -1 with err set. */
static int
inside_solid(const GxSerialized *s, const GxSolidIndex *index, const GxSerialized *x, GxError *err)
{
	if (!(s->flags & GX_FLAG_SOLID) || !gx_box_overlaps(&s->box, &x->box))
		return 0;
	return gx_solid_contains_any(s, index, x, err);
}

/* The surfaces' answer settles it, or else whether one lies inside the other, a solid. */
static int
with_volumes(int surfaces, const GxSerialized *a, const GxSolidIndex *a_index, const GxSerialized *b,
			 GxError *err)
{
	int			result = surfaces;

	if (result == 0)
		result = inside_solid(a, a_index, b, err);
	if (result == 0)
		result = inside_solid(b, NULL, a, err);
	return result;
}

/* Whether the elements of a and b meet (their surfaces, for solids). */
static int
surfaces_intersect(const GxSerialized *a, const GxSerialized *b, GxError *err)
{
	GxBox3D		clip;
	GxPrepared	small;
	GxElements	ea,
				eb;
	int			result;

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
	else
	{
		/* the side with fewer elements is indexed (it owns its element list from here) */
		memset(&small, 0, sizeof(small));
		small.elems = ea.n <= eb.n ? ea : eb;
		result = index_build(&small, &clip, err) ? index_search(&small, ea.n <= eb.n ? &eb : &ea) : -1;
		gx_prepared_free(&small);
		gx_elements_free(ea.n <= eb.n ? &eb : &ea);
		return result;
	}
	gx_elements_free(&ea);
	gx_elements_free(&eb);
	return result;
}

int
gx_intersects(const GxSerialized *a, const GxSerialized *b, GxError *err)
{
	int			result = screen(a, b, err);

	if (result != 1)
		return result;
	return with_volumes(surfaces_intersect(a, b, err), a, NULL, b, err);
}

static bool
prepare_solid(GxPrepared *p, GxError *err)
{
	size_t		n;
	const double *tri = gx_solid_triangles(p->g, &n);

	p->solid = gx_alloc(sizeof(GxSolidIndex));
	if (p->solid == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory preparing a solid");
		return false;
	}
	if (gx_solid_index_build(p->solid, tri, n, err))
		return true;
	gx_free(p->solid);
	p->solid = NULL;
	return false;
}

bool
gx_prepare(GxPrepared *p, const GxSerialized *g, GxError *err)
{
	memset(p, 0, sizeof(*p));
	p->g = g;
	if (g->flags & GX_FLAG_EMPTY)
		return true;
	if (!gx_elements_collect(g, NULL, &p->elems, err) || !index_build(p, &g->box, err) ||
		((g->flags & GX_FLAG_SOLID) && !prepare_solid(p, err)))
	{
		gx_prepared_free(p);
		return false;
	}
	return true;
}

int
gx_intersects_prepared(const GxPrepared *p, const GxSerialized *other, GxError *err)
{
	GxBox3D		clip;
	GxElements	eo;
	int			result = screen(p->g, other, err);

	if (result != 1)
		return result;
	clip = gx_box_intersection(&p->g->box, &other->box);
	if (!gx_elements_collect(other, &clip, &eo, err))
		return -1;
	result = index_search(p, &eo);
	gx_elements_free(&eo);
	return with_volumes(result, p->g, p->solid, other, err);
}

void
gx_prepared_free(GxPrepared *p)
{
	gx_grid_free(&p->grid);
	gx_free(p->boxes);
	gx_elements_free(&p->elems);
	p->boxes = NULL;
	if (p->solid)
	{
		gx_solid_index_free(p->solid);
		gx_free(p->solid);
		p->solid = NULL;
	}
}
