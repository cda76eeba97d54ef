/*
 * gx_batch_cpu.c: the batch engine's CPU path, with OpenMP: element boxes, the two grids, then cells in
 * parallel: each candidate pair of the cell is box-culled, kept only in its reference cell, and tested
 * with the exact ladder. No PostgreSQL call and no gx_alloc in the worker threads (plain malloc).
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "gx_alloc.h"
#include "gx_batch_internal.h"
#include "gx_elements.h"
#include "gx_grid.h"
#include "gx_predicates.h"

/* Boxes of all elements of a side (parallel). */
static GxBox3D *
side_boxes(const GxBatchSide *s, GxError *err)
{
	GxBox3D    *boxes = gx_alloc((s->n ? s->n : 1) * sizeof(GxBox3D));
	size_t		i;

	if (boxes == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for %zu element boxes", s->n);
		return NULL;
	}
	#pragma omp parallel for schedule(static) if (s->n > 65536)
	for (i = 0; i < s->n; i++)
		boxes[i] = gx_batch_elem_box(s, i);
	return boxes;
}

typedef struct CellCounts
{
	uint64_t	candidates,
				survivors,
				element_pairs;
} CellCounts;

/* All candidate pairs of one cell (x, y, z); keys of intersecting pairs go to out. */
static bool
test_cell(const GxBatchSide *a, const GxBatchSide *b, const GxGrid *ga, const GxGrid *gb,
		  const GxBox3D *ba, const GxBox3D *bb, size_t cell, int x, int y, int z,
		  GxKeys *out, CellCounts *cc)
{
	size_t		i,
				j;

	cc->candidates += (uint64_t) (ga->start[cell + 1] - ga->start[cell]) * (gb->start[cell + 1] - gb->start[cell]);
	for (i = ga->start[cell]; i < ga->start[cell + 1]; i++)
	{
		uint32_t	ea = ga->items[i];

		for (j = gb->start[cell]; j < gb->start[cell + 1]; j++)
		{
			uint32_t	eb = gb->items[j];

			if (!gx_box_overlaps(&ba[ea], &bb[eb]) || !gx_grid_is_reference_cell(ga, &ba[ea], &bb[eb], x, y, z))
				continue;
			cc->survivors++;
			if (gx_batch_elems_intersect(a, ea, b, eb))
			{
				cc->element_pairs++;
				if (!gx_keys_push(out, gx_pair_key(a->geom[ea], b->geom[eb])))
					return false;
			}
		}
	}
	return true;
}

bool
gx_batch_cpu(const GxBatchSide *a, const GxBatchSide *b, const GxBox3D *extent, const int dim[3],
			 const GxBatchOptions *opt, GxKeys *keys, GxBatchStats *st, GxError *err)
{
	GxBox3D    *ba = NULL,
			   *bb = NULL;
	GxGrid		ga,
				gb;
	size_t		ncells = (size_t) dim[0] * dim[1] * dim[2];
	CellCounts	total = {0, 0, 0};
	GxPredStats preds = {0, 0, 0, 0, 0};
	GxPredStats caller = gx_pred_stats;
	volatile int stop = 0;			/* 1 cancelled, 2 out of memory */
	bool		ok = false;
	double		t0 = gx_now_ms(),
				t1;
	int			threads = opt->threads > 0 ? opt->threads : omp_get_max_threads();
	long		c;

	memset(&ga, 0, sizeof(ga));
	memset(&gb, 0, sizeof(gb));
	if ((ba = side_boxes(a, err)) == NULL || (bb = side_boxes(b, err)) == NULL ||
		!gx_grid_build(&ga, extent, dim, ba, a->n, err) || !gx_grid_build(&gb, extent, dim, bb, b->n, err))
		goto done;
	t1 = gx_now_ms();
	st->t_grid += t1 - t0;

	#pragma omp parallel num_threads(threads)
	{
		GxKeys		local = {NULL, 0, 0};
		CellCounts	cc = {0, 0, 0};
		GxPredStats before = gx_pred_stats,
					delta;

		#pragma omp for schedule(dynamic, 64)
		for (c = 0; c < (long) ncells; c++)
		{
			size_t		cell = (size_t) c;

			if (stop || ga.start[cell] == ga.start[cell + 1] || gb.start[cell] == gb.start[cell + 1])
				continue;
			if (opt->cancel && *opt->cancel)
				stop = 1;
			else if (!test_cell(a, b, &ga, &gb, ba, bb, cell, (int) (cell % dim[0]), (int) (cell / dim[0] % dim[1]),
								(int) (cell / ((size_t) dim[0] * dim[1])), &local, &cc))
				stop = 2;
		}
		delta = gx_pred_stats;
		delta.orient3d -= before.orient3d;
		delta.orient2d -= before.orient2d;
		delta.filter_failures -= before.filter_failures;
		delta.exact_expansion -= before.exact_expansion;
		delta.exact_gmp -= before.exact_gmp;
		#pragma omp critical
		{
			if (!gx_keys_append(keys, local.v, local.n))
				stop = 2;
			total.candidates += cc.candidates;
			total.survivors += cc.survivors;
			total.element_pairs += cc.element_pairs;
			gx_pred_stats_add(&preds, &delta);
		}
		gx_keys_free(&local);
	}
	/* The caller's counters show the whole batch, whichever thread did the work. */
	gx_pred_stats = caller;
	gx_pred_stats_add(&gx_pred_stats, &preds);
	st->t_double += gx_now_ms() - t1;
	st->candidates += total.candidates;
	st->bbox_survivors += total.survivors;
	st->element_pairs += total.element_pairs;
	st->double_failures += preds.filter_failures;
	st->exact_decisions += preds.exact_expansion + preds.exact_gmp;
	if (stop == 1)
		gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
	else if (stop == 2)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory collecting intersecting pairs");
	ok = !stop;
done:
	gx_grid_free(&ga);
	gx_grid_free(&gb);
	gx_free(ba);
	gx_free(bb);
	return ok;
}
