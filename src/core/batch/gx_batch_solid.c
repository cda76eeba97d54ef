/*
 * gx_batch_solid.c: the batch engine's volumes. After the surfaces' pairs are found, a geometry of one
 * side that lies inside a solid of the other, missing its surface, is paired with it: for each solid,
 * its point location index (gx_solid.h: kept with a side that is cached, else built for the batch), and one
 * vertex of each connected piece of a candidate whose box the solid's box contains (a multi-part geometry
 * may have one piece inside and another far away), located in parallel.
 */
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "batch/gx_batch_internal.h"
#include "batch/gx_side_index.h"
#include "geom/gx_box.h"
#include "index/gx_grid.h"
#include "solid/gx_solid.h"

/* Where each geometry's elements start (first[g] .. first[g + 1]) and their boxes (gx_side_ranges). */
typedef struct SideRanges
{
	size_t	   *first;
	GxBox3D    *box;
} SideRanges;

static bool
has_key(const GxKeys *k, uint64_t key)
{
	size_t		lo = 0,
				hi = k->n;

	while (lo < hi)
	{
		size_t		mid = (lo + hi) / 2;

		if (k->v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < k->n && k->v[lo] == key;
}

/*
 * The connected pieces of geometry x (elements from..to of side xs: a segment continuing the previous one
 * is the same piece) whose boxes the solid's box contains: only they can lie inside it, missing its surface.
 * Calls visit(ctx, first element) for each; returns its first non-zero answer, or 0.
 */
static int
pieces_within_box(const GxBatchSide *xs, size_t from, size_t to, const GxBox3D *solid_box,
				  int (*visit) (void *ctx, const double *vertex), void *ctx)
{
	size_t		e = from;

	while (e < to)
	{
		size_t		start = e;
		GxBox3D		box = gx_batch_elem_box(xs, e++);
		int			r;

		while (e < to && xs->kind[e] == 2 && xs->kind[e - 1] == 2 &&
			   memcmp(xs->coords + 9 * e, xs->coords + 9 * (e - 1) + 3, 3 * sizeof(double)) == 0)
		{
			GxBox3D		b = gx_batch_elem_box(xs, e++);

			gx_box_extend(&box, &b);
		}
		if (gx_box_contains(solid_box, &box) && (r = visit(ctx, xs->coords + 9 * start)) != 0)
			return r;
	}
	return 0;
}

/* Locates a piece's first vertex in the solid whose index ctx is: 1 inside (or on), 0 outside, -1 no usable ray. */
static int
piece_inside(void *ctx, const double *vertex)
{
	GxLocation	loc = gx_solid_locate(ctx, vertex);

	return loc == GX_LOC_FAILED ? -1 : loc != GX_LOC_OUTSIDE;
}

/* The point location index of each solid of side s: those kept with the side, or built for this batch. */
typedef struct SolidIndexes
{
	GxSolidIndex *idx;			/* per geometry of s; a solid without candidates keeps n == 0 */
	bool		owned;
} SolidIndexes;

/*
 * Candidates (solid sg << 32 | geometry xg) of solids of side s and geometries of side x: their boxes
 * overlap, the pair is not known yet, and xg is counted in one reference cell of a grid over x's boxes, so
 * each solid meets only the geometries near it however many either side has. Sorted by solid.
 */
static bool
candidates(const GxBatchSide *s, const SideRanges *sr, const GxBatchSide *x, const SideRanges *xr, bool s_is_a,
		   const GxBatchOptions *opt, const GxKeys *known, GxKeys *out, GxError *err)
{
	GxBox3D		extent;
	GxGrid		grid;
	int			dim[3];
	bool		ok = true;

	gx_box_set_empty(&extent);
	for (uint32_t xg = 0; xg < x->ngeoms; xg++)
		if (xr->first[xg] != xr->first[xg + 1])
			gx_box_extend(&extent, &xr->box[xg]);
	if (gx_box_is_empty(&extent))
		return true;
	gx_grid_choose_dims(&extent, (double) x->ngeoms, dim);
	if (!gx_grid_build(&grid, &extent, dim, xr->box, x->ngeoms, &opt->cancel, err))
		return false;
	for (uint32_t sg = 0; ok && sg < s->ngeoms && sg < s->solid_cap; sg++)
	{
		const GxBox3D *sbox = &sr->box[sg];
		int			lo[3],
					hi[3];

		if (!s->solid[sg] || sr->first[sg] == sr->first[sg + 1] || !gx_box_overlaps(sbox, &extent))
			continue;
		gx_grid_range(&grid, sbox, lo, hi);
		for (int k = lo[2]; ok && k <= hi[2]; k++)
			for (int j = lo[1]; ok && j <= hi[1]; j++)
				for (int i = lo[0]; ok && i <= hi[0]; i++)
				{
					size_t		c = gx_grid_cell(&grid, i, j, k);

					for (size_t e = grid.start[c]; ok && e < grid.start[c + 1]; e++)
					{
						uint32_t	xg = grid.items[e];

						if (!gx_box_overlaps(sbox, &xr->box[xg]) ||
							!gx_grid_is_reference_cell(&grid, &xr->box[xg], sbox, i, j, k) ||
							has_key(known, s_is_a ? gx_pair_key(sg, xg) : gx_pair_key(xg, sg)))
							continue;
						ok = gx_keys_push(out, gx_pair_key(sg, xg));
						if (!ok)
							gx_error_set(err, GX_ERR_NOMEM, "out of memory for the solids of a batch");
					}
				}
		if (ok && gx_cancel_requested(&opt->cancel))
		{
			gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
			ok = false;
		}
	}
	gx_grid_free(&grid);
	return ok;
}

/* The indexes of the solids of s that have candidates: the side's own, else built here (on this thread). */
static bool
solid_indexes(const GxBatchSide *s, const SideRanges *sr, const GxKeys *cand, SolidIndexes *si, GxError *err)
{
	si->idx = s->index ? s->index->solid : NULL;
	si->owned = false;
	if (si->idx)
		return true;
	si->idx = gx_alloc(((size_t) s->ngeoms + 1) * sizeof(GxSolidIndex));
	if (!si->idx)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the solids of a batch");
		return false;
	}
	memset(si->idx, 0, ((size_t) s->ngeoms + 1) * sizeof(GxSolidIndex));
	si->owned = true;
	for (size_t c = 0; c < cand->n; c++)
	{
		uint32_t	sg = (uint32_t) (cand->v[c] >> 32);

		if ((c == 0 || (uint32_t) (cand->v[c - 1] >> 32) != sg) && !gx_side_solid_index_build(s, sr->first, sg, &si->idx[sg], err))
			return false;
	}
	return true;
}

static void
solid_indexes_free(const GxBatchSide *s, SolidIndexes *si)
{
	if (si->owned)
		gx_side_solid_indexes_free(si->idx, s->ngeoms);
}

/*
 * Pairs of the solids of side s with the geometries of side x that lie inside them, into found: the
 * candidates are located in parallel (a vertex of each piece of x whose box the solid's contains).
 */
static bool
inside_pairs(const GxBatchSide *s, const SideRanges *sr, const GxBatchSide *x, const SideRanges *xr,
			 bool s_is_a, const GxBatchOptions *opt, const GxKeys *known, GxKeys *found, GxError *err)
{
	GxKeys		cand = {NULL, 0, 0};
	SolidIndexes si = {NULL, false};
	volatile int stop = 0;		/* 1 cancelled, 2 out of memory, 3 no usable ray */
	bool		ok;

	ok = candidates(s, sr, x, xr, s_is_a, opt, known, &cand, err) && solid_indexes(s, sr, &cand, &si, err);
	#pragma omp parallel if (ok && cand.n > 64)
	{
		GxKeys		local = {NULL, 0, 0};

		#pragma omp for schedule(dynamic, 64)
		for (size_t c = 0; c < cand.n; c++)
		{
			uint32_t	sg = (uint32_t) (cand.v[c] >> 32),
						xg = (uint32_t) cand.v[c];
			int			r;

			if (!ok || stop)
				continue;
			if (gx_cancel_requested(&opt->cancel))
			{
				stop = 1;
				continue;
			}
			r = pieces_within_box(x, xr->first[xg], xr->first[xg + 1], &sr->box[sg], piece_inside, &si.idx[sg]);
			if (r < 0)
				stop = 3;
			else if (r > 0 && !gx_keys_push(&local, s_is_a ? gx_pair_key(sg, xg) : gx_pair_key(xg, sg)))
				stop = 2;
		}
		#pragma omp critical
		{
			if (!gx_keys_append(found, local.v, local.n))
				stop = 2;
		}
		gx_keys_free(&local);
	}
	if (ok && stop)
	{
		if (stop == 1)
			gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
		else if (stop == 2)
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for the pairs of a batch");
		else
			gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
		ok = false;
	}
	solid_indexes_free(s, &si);
	gx_keys_free(&cand);
	return ok;
}

bool
gx_batch_solid_pairs(const GxBatchSide *a, const GxBatchSide *b, const GxBatchOptions *opt, GxKeys *keys,
					 GxBatchStats *st, GxError *err)
{
	SideRanges	ra = {NULL, NULL},
				rb = {NULL, NULL};
	GxKeys		found = {NULL, 0, 0};
	bool		ok;

	if (a->solid == NULL && b->solid == NULL)
		return true;
	ok = gx_side_ranges(a, &ra.first, &ra.box, err) && gx_side_ranges(b, &rb.first, &rb.box, err) &&
		(b->solid == NULL || inside_pairs(b, &rb, a, &ra, false, opt, keys, &found, err)) &&
		(a->solid == NULL || inside_pairs(a, &ra, b, &rb, true, opt, keys, &found, err));
	if (ok && found.n > 0)
	{
		ok = gx_keys_append(keys, found.v, found.n);
		if (!ok)
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for the pairs of a batch");
		gx_keys_sort_unique(keys);
	}
	st->volume_pairs = found.n;
	gx_side_ranges_free(a, ra.first, ra.box);
	gx_side_ranges_free(b, rb.first, rb.box);
	gx_keys_free(&found);
	return ok;
}
