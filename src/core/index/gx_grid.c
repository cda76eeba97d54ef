/* gx_grid.c: building and querying the uniform grid (ragged array of element indices per cell). */
#include <math.h>
#include <string.h>

#include "algorithm/gx_elements.h"
#include "base/gx_alloc.h"
#include "index/gx_grid.h"

#define GX_GRID_MAX_DIM 2048

void
gx_grid_choose_dims(const GxBox3D *extent, double cells, int dim[3])
{
	double		d[3] = {extent->xmax - extent->xmin, extent->ymax - extent->ymin, extent->zmax - extent->zmin};
	double		dmax = fmax(d[0], fmax(d[1], d[2]));
	double		prod = 1;
	int			k,
				m = 0;

	/* Axes thinner than a millionth of the widest get one layer of cells. */
	for (k = 0; k < 3; k++)
		if (d[k] > dmax * 1e-6)
		{
			prod *= d[k];
			m++;
		}
	for (k = 0; k < 3; k++)
	{
		double		side = m ? pow(prod / fmax(cells, 1), 1.0 / m) : 0;
		double		n = (d[k] > dmax * 1e-6 && side > 0) ? ceil(d[k] / side) : 1;

		dim[k] = (int) fmin(fmax(n, 1), GX_GRID_MAX_DIM);
	}
}

void
gx_grid_range(const GxGrid *g, const GxBox3D *b, int lo[3], int hi[3])
{
	lo[0] = gx_grid_coord(g, 0, b->xmin);
	lo[1] = gx_grid_coord(g, 1, b->ymin);
	lo[2] = gx_grid_coord(g, 2, b->zmin);
	hi[0] = gx_grid_coord(g, 0, b->xmax);
	hi[1] = gx_grid_coord(g, 1, b->ymax);
	hi[2] = gx_grid_coord(g, 2, b->zmax);
}

bool
gx_grid_is_reference_cell(const GxGrid *g, const GxBox3D *a, const GxBox3D *b, int i, int j, int k)
{
	return gx_grid_coord(g, 0, fmax(a->xmin, b->xmin)) == i &&
		gx_grid_coord(g, 1, fmax(a->ymin, b->ymin)) == j &&
		gx_grid_coord(g, 2, fmax(a->zmin, b->zmin)) == k;
}

/* Runs body with `cell` bound to each cell index covered by box b. */
#define FOR_CELLS(g, b, cell, body) \
	do { \
		int lo_[3], hi_[3], i_, j_, k_; \
		gx_grid_range(g, b, lo_, hi_); \
		for (k_ = lo_[2]; k_ <= hi_[2]; k_++) \
			for (j_ = lo_[1]; j_ <= hi_[1]; j_++) \
				for (i_ = lo_[0]; i_ <= hi_[0]; i_++) \
				{ size_t cell = gx_grid_cell(g, i_, j_, k_); body; } \
	} while (0)

void
gx_grid_frame(GxGrid *g, const GxBox3D *extent, const int dim[3])
{
	double		d[3] = {extent->xmax - extent->xmin, extent->ymax - extent->ymin, extent->zmax - extent->zmin};

	memset(g, 0, sizeof(*g));
	g->box = *extent;
	for (int k = 0; k < 3; k++)
	{
		g->dim[k] = dim[k];
		g->scale[k] = d[k] > 0 ? dim[k] / d[k] : 0;
	}
}

bool
gx_grid_build(GxGrid *g, const GxBox3D *extent, const int dim[3],
			  const GxBox3D *boxes, size_t n, const GxCancel *cancel, GxError *err)
{
	size_t		ncells = (size_t) dim[0] * dim[1] * dim[2];
	size_t		i,
				total = 0;

	gx_grid_frame(g, extent, dim);
	g->start = gx_alloc((ncells + 1) * sizeof(size_t));
	if (g->start == NULL)
		goto nomem;
	/* zeroed in parallel: the first touch of fresh pages is a large part of building a grid */
	#pragma omp parallel for schedule(static) if (ncells > 65536)
	for (i = 0; i <= ncells; i++)
		g->start[i] = 0;
	/* Count, prefix sum, fill. */
	#pragma omp parallel for schedule(static) if (n > 65536)
	for (i = 0; i < n; i++)
		if (gx_box_overlaps(&boxes[i], extent) && !gx_cancel_requested(cancel))
			FOR_CELLS(g, &boxes[i], cell, {
				_Pragma("omp atomic")
				g->start[cell + 1]++;
			});
	if (gx_cancel_requested(cancel))
		goto cancelled;
	for (i = 0; i < ncells; i++)
		g->start[i + 1] += g->start[i];
	total = g->start[ncells];
	g->items = gx_alloc(total * sizeof(uint32_t));
	if (g->items == NULL)
		goto nomem;
	#pragma omp parallel for schedule(static) if (n > 65536)
	for (i = 0; i < n; i++)
		if (gx_box_overlaps(&boxes[i], extent) && !gx_cancel_requested(cancel))
			FOR_CELLS(g, &boxes[i], cell, {
				size_t		slot;

				_Pragma("omp atomic capture")
				slot = g->start[cell]++;
				g->items[slot] = (uint32_t) i;
			});
	if (gx_cancel_requested(cancel))
		goto cancelled;
	/* Filling advanced each start to the next cell's: shift back. */
	memmove(g->start + 1, g->start, ncells * sizeof(size_t));
	g->start[0] = 0;
	return true;

nomem:
	gx_error_set(err, GX_ERR_NOMEM, "out of memory building a grid of %zu cells and %zu entries", ncells, total);
	gx_grid_free(g);
	return false;

cancelled:
	gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
	gx_grid_free(g);
	return false;
}

void
gx_grid_free(GxGrid *g)
{
	gx_free(g->start);
	gx_free(g->items);
	g->start = NULL;
	g->items = NULL;
}

bool
gx_grid_copy(GxGrid *dst, const GxGrid *src)
{
	size_t		cells = (size_t) src->dim[0] * src->dim[1] * src->dim[2],
				total = src->start[cells];
	GxGrid		c = *src;

	c.start = gx_alloc_try((cells + 1) * sizeof(size_t));
	c.items = c.start ? gx_alloc_try(total * sizeof(uint32_t)) : NULL;
	if (c.items == NULL)
	{
		gx_free(c.start);
		return false;
	}
	memcpy(c.start, src->start, (cells + 1) * sizeof(size_t));
	memcpy(c.items, src->items, total * sizeof(uint32_t));
	*dst = c;
	return true;
}

size_t
gx_grid_bytes(const GxGrid *g)
{
	size_t		cells = (size_t) g->dim[0] * g->dim[1] * g->dim[2];

	return g->start ? (cells + 1) * sizeof(size_t) + g->start[cells] * sizeof(uint32_t) : 0;
}

bool
gx_grid_box_reaches_occupied(const GxGrid *g, const GxBox3D *b)
{
	int			lo[3],
				hi[3];

	if (!gx_box_overlaps(b, &g->box))
		return false;
	gx_grid_range(g, b, lo, hi);
	for (int z = lo[2]; z <= hi[2]; z++)
		for (int y = lo[1]; y <= hi[1]; y++)
			for (int x = lo[0]; x <= hi[0]; x++)
			{
				size_t		c = gx_grid_cell(g, x, y, z);

				if (g->start[c] != g->start[c + 1])
					return true;
			}
	return false;
}

GxBox3D
gx_grid_cell_box(const GxGrid *g, int i, int j, int k)
{
	double		lo[3] = {g->box.xmin, g->box.ymin, g->box.zmin},
				hi[3] = {g->box.xmax, g->box.ymax, g->box.zmax};
	int			c[3] = {i, j, k};
	double		r[6];

	/*
	 * Cell c along an axis holds the coordinates v with floor((v - lo) scale) == c, up to the rounding of
	 * that expression: a quarter of a cell each way covers it. A flat axis is one cell, the grid's width.
	 */
	for (int a = 0; a < 3; a++)
	{
		double		w = g->scale[a] > 0 ? 1 / g->scale[a] : 0;

		r[a] = g->scale[a] > 0 ? lo[a] + (c[a] - 0.25) * w : lo[a];
		r[a + 3] = g->scale[a] > 0 ? lo[a] + (c[a] + 1.25) * w : hi[a];
	}
	return (GxBox3D) {r[0], r[1], r[2], r[3], r[4], r[5]};
}
