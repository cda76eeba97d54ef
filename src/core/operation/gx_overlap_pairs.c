/*
 * gx_overlap_pairs.c: the pairs of solids sharing a positive volume (gx_overlap_pairs.h). The candidates are
 * found by a grid over the second set's boxes, each pair once (in the cell of its boxes' overlap's minimum
 * corner); the overlays are shared out among the threads pair by pair, each thread with its own sums.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "batch/gx_side_index.h"
#include "geom/gx_box.h"
#include "index/gx_grid.h"
#include "operation/gx_overlap_pairs.h"
#include "operation/gx_overlay.h"

/* Boxes whose overlap has a volume (solids whose boxes only touch share none). */
static bool
boxes_share_volume(const GxBox3D *p, const GxBox3D *q)
{
	return p->xmin < q->xmax && q->xmin < p->xmax && p->ymin < q->ymax && q->ymin < p->ymax &&
		p->zmin < q->zmax && q->zmin < p->zmax;
}

/* Solid a's candidates: b's solids whose boxes overlap its own with a volume, each once. */
static void
candidates_of(const GxGrid *grid, const GxSolidIndex *a, const GxSolidIndex *b, uint32_t i, GxPairList *mine)
{
	int			lo[3],
				hi[3];

	if (a->n == 0 || !gx_box_overlaps(&grid->box, &a->box))
		return;
	gx_grid_range(grid, &a->box, lo, hi);
	for (int c2 = lo[2]; c2 <= hi[2]; c2++)
		for (int c1 = lo[1]; c1 <= hi[1]; c1++)
			for (int c0 = lo[0]; c0 <= hi[0]; c0++)
			{
				size_t		c = gx_grid_cell(grid, c0, c1, c2);

				for (size_t at = grid->start[c]; at < grid->start[c + 1]; at++)
				{
					uint32_t	k = grid->items[at];

					if (boxes_share_volume(&a->box, &b[k].box) &&
						gx_grid_is_reference_cell(grid, &a->box, &b[k].box, c0, c1, c2))
						gx_pair_list_push(mine, i, k, 0);
				}
			}
}

bool
gx_overlap_pairs(const GxSolidIndex *a, size_t na, const GxSolidIndex *b, size_t nb, const GxBatchOptions *opt,
				 size_t max_cuts, GxOverlapPair **out, size_t *nout, GxError *err)
{
	GxOverlayOptions ov = {max_cuts, &opt->cancel};
	GxGrid		grid;
	GxPairList *found;
	GxOverlapPair *cand = NULL;
	size_t		ncand = 0;
	bool		stopped = false,
				nomem = false,
				failed = false;
	int			used;

	*out = NULL;
	*nout = 0;
	if (na == 0 || nb == 0)
		return true;
	if (!gx_solids_grid(&grid, b, nb, err))
		return false;
	if (grid.items == NULL)
		return true;			/* every solid of b is EMPTY */
	used = gx_threads_begin(opt->threads, opt->thread_budget);
	if ((found = calloc(used, sizeof(GxPairList))) == NULL)
	{
		gx_threads_end();
		gx_grid_free(&grid);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the overlaps of %zu solids", na);
		return false;
	}
	/* the candidate pairs, then their overlays, pair by pair */
	#pragma omp parallel for num_threads(used) schedule(dynamic, 64)
	for (size_t i = 0; i < na; i++)
		candidates_of(&grid, &a[i], b, (uint32_t) i, &found[omp_get_thread_num()]);
	gx_grid_free(&grid);
	for (int t = 0; t < used; t++)
		nomem |= found[t].nomem;
	if (!nomem)
		cand = gx_pair_lists_gather(found, used, &ncand, &nomem);
	/* the candidates are in cand now: each thread's list starts again for the pairs found */
	for (int t = 0; t < used; t++)
	{
		free(found[t].v);
		found[t] = (GxPairList) {NULL, 0, 0, false};
	}
	if (!nomem)
	{
		#pragma omp parallel num_threads(used)
		{
			GxPairList *mine = &found[omp_get_thread_num()];
			GxOverlayVolumes vol;
			GxError		e = {GX_OK, ""};

			#pragma omp for schedule(dynamic, 1)
			for (size_t p = 0; p < ncand; p++)
			{
				if (stopped || failed || mine->nomem)
					continue;
				if (gx_cancel_requested(&opt->cancel))
				{
					stopped = true;
					continue;
				}
				if (!gx_overlay_intersection(&a[cand[p].a], &b[cand[p].b], &ov, &vol, &e))
				{
					#pragma omp critical(gx_overlap_pairs)
					{
						if (!failed && !stopped)
						{
							*err = e;
							if (e.code == GX_ERR_CANCELLED)
								stopped = true;
							else
								failed = true;
						}
					}
					continue;
				}
				if (vol.sign[GX_BOOL_INTERSECTION] > 0)
					gx_pair_list_push(mine, cand[p].a, cand[p].b, vol.v[GX_BOOL_INTERSECTION]);
			}
		}
	}
	gx_threads_end();
	free(cand);
	for (int t = 0; t < used; t++)
		nomem |= found[t].nomem;
	if (!stopped && !failed && !nomem && (*out = gx_pair_lists_gather(found, used, nout, &nomem)) != NULL)
		gx_pair_volumes_sort(*out, *nout);
	for (int t = 0; t < used; t++)
		free(found[t].v);
	free(found);
	if (stopped || failed || nomem)
	{
		free(*out);
		*out = NULL;
		*nout = 0;
		if (stopped && err->code != GX_ERR_CANCELLED)
			gx_error_set(err, GX_ERR_CANCELLED, "overlaps cancelled");
		else if (nomem && !stopped && !failed)
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for the overlaps of %zu solids", na);
		return false;
	}
	return true;
}

/* gx_overlap_pairs.h */
void
gx_side_solids_free(GxSolidIndex *idx, size_t n)
{
	bool		was = gx_alloc_is_plain();

	gx_alloc_plain(true);
	for (size_t g = 0; g < n; g++)
		if (idx[g].n)
			gx_solid_index_free(&idx[g]);
	gx_alloc_plain(was);
	free(idx);
}

/* gx_overlap_pairs.h */
const GxSolidIndex *
gx_side_solids(const GxBatchSide *s, const GxBatchOptions *opt, GxSolidIndex **built, GxError *err)
{
	GxSolidIndex *idx;
	size_t	   *first;
	GxBox3D    *boxes;
	bool		stopped = false,
				failed = false;
	int			used;

	*built = NULL;
	if (s->index && s->index->solid)
		return s->index->solid;
	if (!gx_side_ranges(s, &first, &boxes, err))
		return NULL;
	if ((idx = calloc(s->ngeoms + 1, sizeof(GxSolidIndex))) == NULL)
	{
		gx_side_ranges_free(s, first, boxes);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the indexes of %u solids", s->ngeoms);
		return NULL;
	}
	used = gx_threads_begin(opt->threads, opt->thread_budget);
	#pragma omp parallel num_threads(used)
	{
		bool		was = gx_alloc_is_plain();
		GxError		e = {GX_OK, ""};

		gx_alloc_plain(true);
		#pragma omp for schedule(dynamic, 1)
		for (uint32_t g = 0; g < s->ngeoms; g++)
		{
			if (stopped || failed || first[g + 1] == first[g])
				continue;
			if (gx_cancel_requested(&opt->cancel))
				stopped = true;
			else if (!gx_solid_index_build(&idx[g], s->coords + 9 * first[g], first[g + 1] - first[g], &e))
			{
				memset(&idx[g], 0, sizeof(GxSolidIndex));
				#pragma omp critical(gx_overlap_pairs)
				{
					if (!failed)
						*err = e;
					failed = true;
				}
			}
		}
		gx_alloc_plain(was);
	}
	gx_threads_end();
	gx_side_ranges_free(s, first, boxes);
	if (stopped || failed)
	{
		gx_side_solids_free(idx, s->ngeoms);
		if (stopped)
			gx_error_set(err, GX_ERR_CANCELLED, "overlaps cancelled");
		return NULL;
	}
	*built = idx;
	return idx;
}

bool
gx_overlap_pairs_of_sides(const GxBatchSide *a, const GxBatchSide *b, const GxBatchOptions *opt, size_t max_cuts,
						  GxOverlapPair **out, size_t *nout, GxError *err)
{
	GxSolidIndex *built[2] = {NULL, NULL};
	const GxSolidIndex *sa = NULL,
			   *sb = NULL;
	bool		ok;

	*out = NULL;
	*nout = 0;
	if (a->n == 0 || b->n == 0)
		return true;			/* a side of EMPTY solids only */
	ok = (sa = gx_side_solids(a, opt, &built[0], err)) != NULL && (sb = gx_side_solids(b, opt, &built[1], err)) != NULL &&
		gx_overlap_pairs(sa, a->ngeoms, sb, b->ngeoms, opt, max_cuts, out, nout, err);
	if (built[0])
		gx_side_solids_free(built[0], a->ngeoms);
	if (built[1])
		gx_side_solids_free(built[1], b->ngeoms);
	return ok;
}
