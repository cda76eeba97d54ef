/*
 * gx_batch.c: the batch engine's driver: SRIDs, threads, the common extent and the grid's resolution
 * (bounded in memory), the choice of GPU or CPU (with fallback to the CPU whenever the GPU cannot do the
 * job, and splitting of side A when the device runs out of memory), then deduplication into distinct
 * geometry pairs (and, when asked, the intersecting element pairs, from which those are made).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "batch/gx_batch.h"
#include "batch/gx_batch_internal.h"
#include "index/gx_grid.h"

#define CELLS_PER_ELEMENT 0.1		/* fastest of 0.02-0.5 on the bench workloads (CPU); GPU time barely moves */
#define MAX_CELLS_PER_ELEMENT 8		/* memory bounds of any grid, whatever the settings ask: cells, */
#define MAX_ENTRIES_PER_ELEMENT 64	/* and (estimated from a sample) cell entries per element of the batch */
#define MIN_CELL_BUDGET 4096
#define SMALL_BATCH 4096			/* batches of fewer elements (both sides) run on one thread by default */
#define MAX_SPLIT_DEPTH 6			/* side A halved at most this often for device memory */

/* Mean extent along each axis of the n sampled boxes. */
static void
mean_element_extent(const GxBox3D *box, size_t n, double mean[3])
{
	double		sum[3] = {0, 0, 0};

	for (size_t i = 0; i < n; i++)
	{
		sum[0] += box[i].xmax - box[i].xmin;
		sum[1] += box[i].ymax - box[i].ymin;
		sum[2] += box[i].zmax - box[i].zmin;
	}
	for (int k = 0; k < 3; k++)
		mean[k] = n ? sum[k] / n : 0;
}

/* Mean number of cells of grid e x dim that the n sampled boxes cover. */
static double
mean_cells_covered(const GxBox3D *e, const GxBox3D *box, size_t n, const int dim[3])
{
	GxGrid		grid;
	double		sum = 0;
	int			lo[3],
				hi[3];

	memset(&grid, 0, sizeof(grid));
	grid.box = *e;
	for (int k = 0; k < 3; k++)
	{
		double		d = k == 0 ? e->xmax - e->xmin : k == 1 ? e->ymax - e->ymin : e->zmax - e->zmin;

		grid.dim[k] = dim[k];
		grid.scale[k] = d > 0 ? dim[k] / d : 0;
	}
	for (size_t i = 0; i < n; i++)
	{
		gx_grid_range(&grid, &box[i], lo, hi);
		sum += (double) (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
	}
	return n ? sum / n : 0;
}

/*
 * Grid dimensions: `resolution` cells along the longest axis if given; else about CELLS_PER_ELEMENT
 * cells per element, but no cell thinner than the mean element along any axis (long elements spread over
 * many cells would be enumerated in each of them). Either way the grid is then coarsened until its cells
 * and its estimated entries fit the per-element bounds above, so that memory follows the data. The
 * elements of a count grown by grow (the distance of a distance batch). false when memory runs out.
 */
static bool
choose_dims(const GxBox3D *e, const GxBatchSide *a, const GxBatchSide *b, double grow, int resolution, int dim[3],
			GxError *err)
{
	double		d[3] = {e->xmax - e->xmin, e->ymax - e->ymin, e->zmax - e->zmin};
	double		longest = fmax(d[0], fmax(d[1], d[2]));
	double		elements = (double) a->n + (double) b->n;
	double		mean[3];
	GxBox3D    *box = gx_alloc(2 * GX_SIDE_SAMPLE * sizeof(GxBox3D));
	size_t		n;
	int			k;

	if (box == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for a batch's sample of elements");
		return false;
	}
	n = gx_batch_side_sample(a, grow, box);
	n += gx_batch_side_sample(b, 0, box + n);
	if (resolution > 0)
		for (k = 0; k < 3; k++)
			dim[k] = longest > 0 ? (int) fmax(1, ceil(resolution * d[k] / longest)) : 1;
	else
	{
		gx_grid_choose_dims(e, CELLS_PER_ELEMENT * elements, dim);
		mean_element_extent(box, n, mean);
		for (k = 0; k < 3; k++)
			if (mean[k] > 0 && d[k] / mean[k] < dim[k])
				dim[k] = (int) fmax(1, floor(d[k] / mean[k]));
	}
	while ((dim[0] > 1 || dim[1] > 1 || dim[2] > 1) &&
		   ((double) dim[0] * dim[1] * dim[2] > fmax(MAX_CELLS_PER_ELEMENT * elements, MIN_CELL_BUDGET) ||
			mean_cells_covered(e, box, n, dim) > MAX_ENTRIES_PER_ELEMENT))
		for (k = 0; k < 3; k++)
			dim[k] = (dim[k] + 1) / 2;
	gx_free(box);
	return true;
}

bool
gx_batch_srids_conflict(const GxBatchSide *a, const GxBatchSide *b, bool strict)
{
	if (strict && ((a->unknown_srid && (b->srid != 0)) || (b->unknown_srid && a->srid != 0)))
		return true;
	return a->srid != 0 && b->srid != 0 && (a->mixed_srid || b->mixed_srid || a->srid != b->srid);
}

/* Elements [first, first + n) of s, as a side of their own (no copy; geometry indices unchanged). */
static GxBatchSide
slice(const GxBatchSide *s, size_t first, size_t n)
{
	GxBatchSide v = *s;

	v.n = n;
	v.coords = s->coords + 9 * first;
	v.kind = s->kind + first;
	v.geom = s->geom + first;
	return v;
}

/* The GPU path over a, halving a while the device runs out of memory. Same returns as gx_batch_gpu. */
static int
gpu_split(const GxBatchSide *a, const GxBatchSide *b, const GxBox3D *extent, const int dim[3],
		  const GxBatchOptions *opt, GxKeys *keys, GxBatchStats *st, GxError *err, int depth)
{
	int			r = gx_batch_gpu(a, b, extent, dim, opt, keys, st, err);
	GxBatchSide lo,
				hi;
	GxBatchOptions halves;

	if (r != 2)
		return r;
	if (depth >= MAX_SPLIT_DEPTH || a->n < 2)
		return 0;
	lo = slice(a, 0, a->n / 2);
	hi = slice(a, a->n / 2, a->n - a->n / 2);
	/* the halves of a are uploaded: a copy of a kept on the device is the whole of it */
	halves = *opt;
	halves.device_side[0] = NULL;
	r = gpu_split(&lo, b, extent, dim, &halves, keys, st, err, depth + 1);
	if (r == 1)
	{
		size_t		from = keys->n;

		r = gpu_split(&hi, b, extent, dim, &halves, keys, st, err, depth + 1);
		/* the upper half's element pairs count its elements from its own start */
		for (size_t k = from; r == 1 && opt->element_pairs && k < keys->n; k++)
			keys->v[k] += (uint64_t) lo.n << 32;
	}
	return r;
}

/*
 * The element pairs of keys (sorted, distinct) into out->elements, and keys made the pairs of their
 * geometries (sorted, distinct). false with err for memory.
 */
static bool
element_pairs_out(const GxBatchSide *a, const GxBatchSide *b, GxKeys *keys, GxPairs *out, GxError *err)
{
	if ((out->elements = gx_alloc((keys->n ? keys->n : 1) * sizeof(uint64_t))) == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the %zu element pairs of a batch", keys->n);
		return false;
	}
	if (keys->n)
		memcpy(out->elements, keys->v, keys->n * sizeof(uint64_t));
	out->nelements = keys->n;
	for (size_t k = 0; k < keys->n; k++)
		keys->v[k] = gx_pair_key(a->geom[keys->v[k] >> 32], b->geom[(uint32_t) keys->v[k]]);
	gx_keys_sort_unique(keys);
	return true;
}

/* Points against solids only: the whole batch is the volume pass's. */
static bool
left_to_volumes(const GxBatchSide *a, const GxBatchSide *b, const GxBatchOptions *opt)
{
	return (gx_batch_points_to_volumes(b, opt) && gx_batch_side_all_points(a)) ||
		(gx_batch_points_to_volumes(a, opt) && gx_batch_side_all_points(b));
}

bool
gx_batch_intersect(const GxBatchSide *a, const GxBatchSide *b, const GxBatchOptions *opt,
				   GxPairs *out, GxBatchStats *st, GxError *err)
{
	double		t0 = gx_now_ms(),
				t1;
	GxKeys		keys = {NULL, 0, 0};
	GxBox3D		extent,
				near_a;
	int			dim[3] = {1, 1, 1};
	int			threads;
	bool		ok = true;

	memset(st, 0, sizeof(*st));
	memset(out, 0, sizeof(*out));
	st->elements_a = a->n;
	st->elements_b = b->n;
	if (opt->element_pairs && opt->distance > 0)
	{
		gx_error_set(err, GX_ERR_ARG, "element pairs are listed for intersection batches only");
		return false;
	}
	if (!opt->ignore_srid && gx_batch_srids_conflict(a, b, opt->strict_srid))
	{
		/* name two SRIDs that meet: under strict, an unknown one against a known one first */
		int32_t		sa = opt->strict_srid && a->unknown_srid && b->srid != 0 ? 0 : a->srid;
		int32_t		sb = opt->strict_srid && b->unknown_srid && sa != 0 ? 0 : b->srid;

		if (sa != sb)
			gx_error_set(err, GX_ERR_SRID, "operation on mixed SRID geometries (%d and %d)", sa, sb);
		else
			gx_error_set(err, GX_ERR_SRID, "operation on mixed SRID geometries (%d and another SRID, both in side %c)",
						 sa, a->mixed_srid ? 'a' : 'b');
		return false;
	}
	/*
	 * Unless a thread count is asked for, a small batch runs on the caller's thread: no team of threads to
	 * wake (and spin) for microseconds of work.
	 */
	threads = gx_threads_begin(opt->threads > 0 ? opt->threads : a->n + b->n < SMALL_BATCH ? 1 : 0,
							   opt->thread_budget);
	snprintf(st->device, sizeof(st->device), "CPU, %d thread%s", threads, threads == 1 ? "" : "s");
	near_a = gx_box_expand(&a->extent, opt->distance);
	if (a->n > 0 && b->n > 0 && gx_box_overlaps(&near_a, &b->extent) && !left_to_volumes(a, b, opt))
	{
		extent = gx_box_intersection(&near_a, &b->extent);
		ok = choose_dims(&extent, a, b, opt->distance, opt->grid_resolution, dim, err);
		memcpy(st->grid_dim, dim, sizeof(dim));
		if (ok && (opt->device == GX_DEVICE_GPU || opt->gpu_only ||
				   (opt->device == GX_DEVICE_AUTO && a->n + b->n >= opt->gpu_min_elements)))
		{
			int			r = gpu_split(a, b, &extent, dim, opt, &keys, st, err, 0);

			if (r < 0)
				ok = false;
			else if (r == 0 && opt->gpu_only)
			{
				gx_error_set(err, GX_ERR_DEVICE, "%s", st->fallback);
				ok = false;
			}
			else if (r == 0)
			{
				/* Start again on the CPU: counts and pairs from a failed GPU attempt are dropped. */
				char		why[sizeof(st->fallback)];

				memcpy(why, st->fallback, sizeof(why));
				memset(st, 0, sizeof(*st));
				memcpy(st->fallback, why, sizeof(why));
				snprintf(st->device, sizeof(st->device), "CPU, %d thread%s", threads, threads == 1 ? "" : "s");
				st->elements_a = a->n;
				st->elements_b = b->n;
				memcpy(st->grid_dim, dim, sizeof(dim));
				keys.n = 0;
				ok = gx_batch_cpu(a, b, &extent, dim, opt, threads, &keys, st, err);
			}
		}
		else if (ok)
			ok = gx_batch_cpu(a, b, &extent, dim, opt, threads, &keys, st, err);
	}
	if (st->chunks == 0)
		st->chunks = 1;
	if (ok && gx_cancel_requested(&opt->cancel))
	{
		gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
		ok = false;
	}
	t1 = gx_now_ms();
	if (ok)
		gx_keys_sort_unique(&keys);
	if (ok && opt->element_pairs)
		ok = element_pairs_out(a, b, &keys, out, err);
	if (ok)
		ok = gx_batch_solid_pairs(a, b, opt, &keys, st, err);
	if (ok && (out->keys = gx_alloc((keys.n ? keys.n : 1) * sizeof(uint64_t))) == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the %zu pairs of a batch", keys.n);
		ok = false;
	}
	if (ok)
	{
		if (keys.n)
			memcpy(out->keys, keys.v, keys.n * sizeof(uint64_t));
		out->n = keys.n;
		st->geometry_pairs = keys.n;
	}
	if (!ok)
	{
		gx_free(out->elements);
		out->elements = NULL;
		out->nelements = 0;
	}
	gx_keys_free(&keys);
	gx_threads_end();
	st->t_dedup += gx_now_ms() - t1;
	st->t_total = gx_now_ms() - t0;
	return ok;
}
