/*
 * gx_grid.h: uniform 3D grid over element boxes, stored as a ragged array (count, prefix sum, fill),
 * as in Menezes 2021, section 4.2.1. Cell coordinates come from a monotone function of each coordinate, so
 * two overlapping boxes always share a cell; gx_grid_is_reference_cell makes a pair count in one cell only.
 */
#ifndef GX_GRID_H
#define GX_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/gx_interrupt.h"
#include "geom/gx_geom.h"

typedef struct GxGrid
{
	GxBox3D		box;			/* extent; coordinates outside are clamped to the border cells */
	int			dim[3];
	double		scale[3];		/* cells per unit of length along each axis */
	size_t	   *start;			/* ncells + 1 offsets into items */
	uint32_t   *items;			/* indices into the boxes given to gx_grid_build */
} GxGrid;

/* Grid dimensions giving about `cells` cells over extent, shaped like it. */
void		gx_grid_choose_dims(const GxBox3D *extent, double cells, int dim[3]);

/* The grid's box, dimensions and scale, nothing allocated: enough for gx_grid_range and gx_grid_coord. */
void		gx_grid_frame(GxGrid *g, const GxBox3D *extent, const int dim[3]);

/*
 * Inserts box i of n into every cell it covers (boxes that miss the extent entirely are left out).
 * dim as from gx_grid_choose_dims. Runs in parallel (OpenMP) for large n: the order of the indices
 * within a cell is then unspecified. A cancel flag set while counting stops it (GX_ERR_CANCELLED);
 * cancel may be NULL.
 */
bool		gx_grid_build(GxGrid *g, const GxBox3D *extent, const int dim[3],
						  const GxBox3D *boxes, size_t n, const GxCancel *cancel, GxError *err);
void		gx_grid_free(GxGrid *g);

/* A copy of built grid src in memory of gx_alloc_try; false when memory runs out (dst untouched). */
bool		gx_grid_copy(GxGrid *dst, const GxGrid *src);

/* Does box b cover a cell of g that holds anything? */
bool		gx_grid_box_reaches_occupied(const GxGrid *g, const GxBox3D *b);

/* A box holding every point that falls in cell (i, j, k) (border cells: within the grid's box), padded. */
GxBox3D		gx_grid_cell_box(const GxGrid *g, int i, int j, int k);

/* Bytes a built grid holds. */
size_t		gx_grid_bytes(const GxGrid *g);

/* Cell index along axis k of coordinate v. */
static inline int
gx_grid_coord(const GxGrid *g, int k, double v)
{
	double		lo = k == 0 ? g->box.xmin : k == 1 ? g->box.ymin : g->box.zmin;
	double		c = (v - lo) * g->scale[k];

	if (!(c > 0))
		return 0;
	return c >= g->dim[k] ? g->dim[k] - 1 : (int) c;
}

/* Inclusive cell range covered by box b. */
void		gx_grid_range(const GxGrid *g, const GxBox3D *b, int lo[3], int hi[3]);

static inline size_t
gx_grid_cell(const GxGrid *g, int i, int j, int k)
{
	return ((size_t) k * g->dim[1] + j) * g->dim[0] + i;
}

/* Is cell (i,j,k) the one holding the minimum corner of the overlap of boxes a and b? */
bool		gx_grid_is_reference_cell(const GxGrid *g, const GxBox3D *a, const GxBox3D *b, int i, int j, int k);

#endif
