/*
 * gx_side_index.c: the index a kept batch side carries (gx_side_index.h), and the per-geometry ranges that
 * any side's volume pass needs, from the index when there is one.
 */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "batch/gx_side_index.h"
#include "geom/gx_box.h"

#define ELEMENTS_PER_CELL 4

static bool
nomem(GxError *err)
{
	gx_error_set(err, GX_ERR_NOMEM, "out of memory for the index of a batch side");
	return false;
}

/*
 * first[] and geom_box[] of side s from its element boxes (computed when eb is NULL), in parallel: each
 * geometry's first element is where its number starts in geom[] (a geometry without elements starts
 * where the next does), then each geometry's box from its elements.
 */
static bool
ranges(const GxBatchSide *s, const GxBox3D *eb, size_t **first, GxBox3D **geom_box, GxError *err)
{
	size_t	   *f = gx_alloc(((size_t) s->ngeoms + 1) * sizeof(size_t));
	GxBox3D    *gb = gx_alloc(((size_t) s->ngeoms + 1) * sizeof(GxBox3D));
	long		i;

	if (!f || !gb)
	{
		gx_free(f);
		gx_free(gb);
		return nomem(err);
	}
	#pragma omp parallel if (s->n > 65536)
	{
		#pragma omp for schedule(static)
		for (i = 0; i < (long) s->ngeoms; i++)
			f[i] = SIZE_MAX;
		#pragma omp for schedule(static)
		for (i = 0; i < (long) s->n; i++)
			if (i == 0 || s->geom[i] != s->geom[i - 1])
				f[s->geom[i]] = (size_t) i;
	}
	f[s->ngeoms] = s->n;
	for (size_t g = s->ngeoms; g-- > 0;)
		if (f[g] == SIZE_MAX)
			f[g] = f[g + 1];
	/* about 4 096 elements to a chunk: a geometry each for large ones, thousands of points */
	#pragma omp parallel for schedule(dynamic, 1 + 4096 * ((long) s->ngeoms + 1) / ((long) s->n + 1)) if (s->n > 65536)
	for (i = 0; i <= (long) s->ngeoms; i++)
	{
		gx_box_set_empty(&gb[i]);
		for (size_t e = f[i]; i < (long) s->ngeoms && e < f[i + 1]; e++)
		{
			GxBox3D		b = eb ? eb[e] : gx_batch_elem_box(s, e);

			gx_box_extend(&gb[i], &b);
		}
	}
	*first = f;
	*geom_box = gb;
	return true;
}

bool
gx_side_ranges(const GxBatchSide *s, size_t **first, GxBox3D **geom_box, GxError *err)
{
	if (s->index)
	{
		*first = s->index->first;
		*geom_box = s->index->geom_box;
		return true;
	}
	return ranges(s, NULL, first, geom_box, err);
}

void
gx_side_ranges_free(const GxBatchSide *s, size_t *first, GxBox3D *geom_box)
{
	if (s->index && first == s->index->first)
		return;
	gx_free(first);
	gx_free(geom_box);
}

/*
 * About ELEMENTS_PER_CELL elements per cell, but no cell thinner than the mean element along an axis (an
 * element would be listed in many cells).
 */
static void
grid_dims(const GxBatchSide *s, const GxBox3D *eb, int dim[3])
{
	double		mx = 0,
				my = 0,
				mz = 0,
				mean[3],
				d[3] = {s->extent.xmax - s->extent.xmin, s->extent.ymax - s->extent.ymin,
		s->extent.zmax - s->extent.zmin};
	long		e;

	gx_grid_choose_dims(&s->extent, (double) s->n / ELEMENTS_PER_CELL, dim);
	#pragma omp parallel for schedule(static) reduction(+:mx, my, mz) if (s->n > 65536)
	for (e = 0; e < (long) s->n; e++)
	{
		mx += eb[e].xmax - eb[e].xmin;
		my += eb[e].ymax - eb[e].ymin;
		mz += eb[e].zmax - eb[e].zmin;
	}
	mean[0] = mx / (double) s->n;
	mean[1] = my / (double) s->n;
	mean[2] = mz / (double) s->n;
	for (int k = 0; k < 3; k++)
		if (mean[k] > 0 && d[k] / mean[k] < dim[k])
			dim[k] = (int) fmax(1, floor(d[k] / mean[k]));
}

bool
gx_side_solid_index_build(const GxBatchSide *s, const size_t *first, uint32_t g, GxSolidIndex *idx, GxError *err)
{
	return gx_solid_index_build(idx, s->coords + 9 * first[g], first[g + 1] - first[g], err);
}

void
gx_side_solid_indexes_free(GxSolidIndex *idx, uint32_t ngeoms)
{
	if (!idx)
		return;
	for (uint32_t g = 0; g < ngeoms; g++)
		if (idx[g].n)
			gx_solid_index_free(&idx[g]);
	gx_free(idx);
}

/* Frees idx[g] of each g < ngeoms with want[g], with malloc's free when plain. */
static void
free_built(GxSolidIndex *idx, const uint8_t *want, uint32_t ngeoms, bool plain)
{
	bool		was = gx_alloc_is_plain();

	gx_alloc_plain(was || plain);
	for (uint32_t g = 0; g < ngeoms; g++)
		if (want[g])
			gx_solid_index_free(&idx[g]);
	gx_alloc_plain(was);
}

bool
gx_side_solid_indexes_build(const GxBatchSide *s, const size_t *first, const uint8_t *want, GxSolidIndex *idx,
							size_t *bytes, GxError *err)
{
	uint32_t	nwant = 0,
				g;
	bool		parallel,
				threads_plain,
				copy;
	volatile bool ok = true;

	for (g = 0; g < s->ngeoms; g++)
		nwant += want[g] != 0;
	parallel = nwant > 1 && omp_get_max_threads() > 1;
	threads_plain = parallel && !gx_alloc_in_threads();
	copy = threads_plain && !gx_alloc_is_plain();
	#pragma omp parallel for schedule(dynamic, 1) if (parallel)
	for (g = 0; g < s->ngeoms; g++)
	{
		bool		was = gx_alloc_is_plain();
		GxError		e = {GX_OK, ""};

		if (!want[g] || !ok)
			continue;
		if (gx_cancel_requested(&gx_cancel_flags))
		{
			#pragma omp critical(gx_index_solids)
			{
				if (ok)
					gx_error_set(err, GX_ERR_CANCELLED, "indexing solids cancelled");
				ok = false;
			}
			continue;
		}
		gx_alloc_plain(was || threads_plain);
		if (!gx_side_solid_index_build(s, first, g, &idx[g], &e))
		{
			memset(&idx[g], 0, sizeof(GxSolidIndex));
			#pragma omp critical(gx_index_solids)
			{
				if (ok)
					*err = e;
				ok = false;
			}
		}
		gx_alloc_plain(was);
	}
	/* each malloc'd index copied into the allocator's memory (which reports a shortage, not raises), then freed */
	for (g = 0; ok && copy && g < s->ngeoms; g++)
		if (want[g])
		{
			GxSolidIndex built = idx[g];

			ok = gx_solid_index_copy(&idx[g], &built, err);
			free_built(&built, want + g, 1, true);
			if (!ok)
			{
				memset(&idx[g], 0, sizeof(GxSolidIndex));
				free_built(idx, want, g, false);
				free_built(idx + g + 1, want + g + 1, s->ngeoms - g - 1, true);
				return false;
			}
		}
	if (!ok)
	{
		free_built(idx, want, s->ngeoms, copy);
		return false;
	}
	for (g = 0; bytes && g < s->ngeoms; g++)
		if (want[g])
			*bytes += gx_solid_index_bytes(&idx[g]);
	return true;
}

/* Each solid's point location index, the solids in parallel. */
static bool
index_solids(const GxBatchSide *s, GxSideIndex *ix, GxError *err)
{
	uint8_t    *want;
	size_t		bytes = 0;
	bool		ok;

	ix->solid = gx_alloc(((size_t) s->ngeoms + 1) * sizeof(GxSolidIndex));
	if (!ix->solid)
		return nomem(err);
	memset(ix->solid, 0, ((size_t) s->ngeoms + 1) * sizeof(GxSolidIndex));
	want = gx_alloc((size_t) s->ngeoms + 1);
	if (!want)
		return nomem(err);
	for (uint32_t g = 0; g < s->ngeoms; g++)
		want[g] = g < s->solid_cap && s->solid[g] && ix->first[g] != ix->first[g + 1];
	ok = gx_side_solid_indexes_build(s, ix->first, want, ix->solid, &bytes, err);
	gx_free(want);
	ix->bytes += ((size_t) s->ngeoms + 1) * sizeof(GxSolidIndex) + bytes;
	return ok;
}

bool
gx_side_index_build(GxBatchSide *s, GxError *err)
{
	GxSideIndex *ix;
	int			dim[3] = {1, 1, 1};
	bool		ok;

	if (s->index || s->n == 0)
		return true;
	ix = gx_alloc(sizeof(GxSideIndex));
	if (!ix)
		return nomem(err);
	memset(ix, 0, sizeof(*ix));
	s->index = ix;
	ix->elem_box = gx_alloc(s->n * sizeof(GxBox3D));
	if (!ix->elem_box)
		ok = nomem(err);
	else
	{
		#pragma omp parallel for schedule(static) if (s->n > 65536)
		for (size_t e = 0; e < s->n; e++)
			ix->elem_box[e] = gx_batch_elem_box(s, e);
		grid_dims(s, ix->elem_box, dim);
		ok = ranges(s, ix->elem_box, &ix->first, &ix->geom_box, err) &&
			gx_grid_build(&ix->grid, &s->extent, dim, ix->elem_box, s->n, &gx_cancel_flags, err) &&
			(s->solid == NULL || index_solids(s, ix, err));
	}
	ix->bytes += sizeof(*ix) + s->n * sizeof(GxBox3D) + ((size_t) s->ngeoms + 1) * (sizeof(size_t) + sizeof(GxBox3D)) +
		gx_grid_bytes(&ix->grid);
	if (!ok)
		gx_side_index_free(s);
	return ok;
}

void
gx_side_index_free(GxBatchSide *s)
{
	GxSideIndex *ix = s->index;

	if (!ix)
		return;
	gx_side_solid_indexes_free(ix->solid, s->ngeoms);
	gx_grid_free(&ix->grid);
	gx_free(ix->elem_box);
	gx_free(ix->first);
	gx_free(ix->geom_box);
	gx_free(ix);
	s->index = NULL;
}

double
gx_side_index_query_cost(const GxBatchSide *s, const GxGrid *grid)
{
	const GxSideIndex *ix = s->index;
	size_t		ncells = (size_t) grid->dim[0] * grid->dim[1] * grid->dim[2],
				occupied = 0;
	double		per_query = ELEMENTS_PER_CELL;

	for (size_t c = 0; c < ncells; c++)
		occupied += grid->start[c] != grid->start[c + 1];
	/* a query spans a cell and a half of grid along each axis: so many cells of the index */
	for (int k = 0; k < 3; k++)
	{
		double		q = grid->scale[k] > 0 ? 1.5 / grid->scale[k] : 0,
					w = ix->grid.scale[k] > 0 ? 1 / ix->grid.scale[k] : 0;

		per_query *= w > 0 && q > 0 ? fmin(q / w + 1, ix->grid.dim[k]) : ix->grid.dim[k];
	}
	return (double) occupied * per_query;
}

bool
gx_side_index_reaching(const GxBatchSide *s, double grow, const GxGrid *grid, uint32_t **elem, size_t *n,
					   const GxCancel *cancel, GxError *err)
{
	const GxSideIndex *ix = s->index;
	size_t		ncells = (size_t) grid->dim[0] * grid->dim[1] * grid->dim[2],
				count = 0,
				cap = 0;
	uint8_t    *seen = calloc(s->n ? s->n : 1, 1);
	uint32_t   *out = NULL;
	bool		ok = seen != NULL;
	/* the rounding of a large grow, or of far coordinates grown, stays within this (the check is exact) */
	double		slack = 1e-14 * (grow + fmax(fmax(fabs(grid->box.xmin), fabs(grid->box.xmax)),
										 fmax(fmax(fabs(grid->box.ymin), fabs(grid->box.ymax)),
											  fmax(fabs(grid->box.zmin), fabs(grid->box.zmax)))));

	for (size_t c = 0; ok && c < ncells; c++)
	{
		GxBox3D		q;
		int			lo[3],
					hi[3];

		if (grid->start[c] == grid->start[c + 1])
			continue;
		if (c % 1024 == 0 && gx_cancel_requested(cancel))
		{
			free(seen);
			gx_free(out);
			gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
			return false;
		}
		q = gx_grid_cell_box(grid, (int) (c % grid->dim[0]), (int) (c / grid->dim[0] % grid->dim[1]),
							 (int) (c / ((size_t) grid->dim[0] * grid->dim[1])));
		if (grow > 0)
			q = gx_box_expand(&q, grow + slack);
		gx_grid_range(&ix->grid, &q, lo, hi);
		for (int z = lo[2]; ok && z <= hi[2]; z++)
			for (int y = lo[1]; ok && y <= hi[1]; y++)
				for (int x = lo[0]; ok && x <= hi[0]; x++)
				{
					size_t		ic = gx_grid_cell(&ix->grid, x, y, z);

					for (size_t k = ix->grid.start[ic]; ok && k < ix->grid.start[ic + 1]; k++)
					{
						uint32_t	e = ix->grid.items[k];
						GxBox3D		b;

						if (seen[e])
							continue;
						seen[e] = 1;
						b = grow > 0 ? gx_box_expand(&ix->elem_box[e], grow) : ix->elem_box[e];
						if (!gx_grid_box_reaches_occupied(grid, &b))
							continue;
						if (count == cap)
							ok = gx_grow((void **) &out, &cap, count + 1, sizeof(uint32_t), s->n);
						if (ok)
							out[count++] = e;
					}
				}
	}
	free(seen);
	if (ok && out == NULL)
		ok = (out = gx_alloc(sizeof(uint32_t))) != NULL;
	if (!ok)
	{
		gx_free(out);
		return nomem(err);
	}
	*elem = out;
	*n = count;
	return true;
}

bool
gx_side_index_columns(const GxBatchSide *s, GxCudaColumns *c)
{
	const GxSolidIndex *idx = s->index ? s->index->solid : NULL;
	size_t		cells = 0,
				items = 0;
	double	   *frame;
	int32_t    *dim;
	uint64_t   *cell0,
			   *start;
	uint32_t   *item;

	memset(c, 0, sizeof(*c));
	for (uint32_t g = 0; idx && g < s->ngeoms; g++)
		if (idx[g].n)
		{
			cells += (size_t) idx[g].grid.dim[0] * idx[g].grid.dim[1];
			items += idx[g].grid.start[(size_t) idx[g].grid.dim[0] * idx[g].grid.dim[1]];
		}
	c->ngeoms = s->ngeoms;
	c->ncells = cells;
	c->nitems = items;
	c->frame = frame = gx_alloc(((size_t) s->ngeoms + 1) * 4 * sizeof(double));
	c->dim = dim = gx_alloc(((size_t) s->ngeoms + 1) * 2 * sizeof(int32_t));
	c->cell0 = cell0 = gx_alloc(((size_t) s->ngeoms + 1) * sizeof(uint64_t));
	c->start = start = gx_alloc((cells + 1) * sizeof(uint64_t));
	c->items = item = gx_alloc((items ? items : 1) * sizeof(uint32_t));
	if (!frame || !dim || !cell0 || !start || !item)
	{
		gx_side_index_columns_free(c);
		return false;
	}
	cells = items = 0;
	for (uint32_t g = 0; g < s->ngeoms; g++)
	{
		const GxSolidIndex *x = idx ? &idx[g] : NULL;
		size_t		nc = x && x->n ? (size_t) x->grid.dim[0] * x->grid.dim[1] : 0;
		uint32_t	elem0 = x && x->n ? (uint32_t) ((x->tri - s->coords) / 9) : 0;

		cell0[g] = cells;
		dim[2 * g] = nc ? x->grid.dim[0] : 0;
		dim[2 * g + 1] = nc ? x->grid.dim[1] : 0;
		frame[4 * g] = nc ? x->grid.box.xmin : 0;
		frame[4 * g + 1] = nc ? x->grid.box.ymin : 0;
		frame[4 * g + 2] = nc ? x->grid.scale[0] : 0;
		frame[4 * g + 3] = nc ? x->grid.scale[1] : 0;
		for (size_t k = 0; k < nc; k++)
			start[cells + k] = items + x->grid.start[k];
		for (size_t k = 0; nc && k < x->grid.start[nc]; k++)
			item[items + k] = elem0 + x->grid.items[k];
		cells += nc;
		items += nc ? x->grid.start[nc] : 0;
	}
	start[cells] = items;
	return true;
}

void
gx_side_index_columns_free(GxCudaColumns *c)
{
	gx_free((void *) c->frame);
	gx_free((void *) c->dim);
	gx_free((void *) c->cell0);
	gx_free((void *) c->start);
	gx_free((void *) c->items);
	memset(c, 0, sizeof(*c));
}

