/*
 * gx_batch_solid.c: the batch engine's volumes. After the surfaces' pairs are found, a geometry of one
 * side that lies inside a solid of the other, missing its surface, is paired with it: for each solid,
 * its point location index (gx_solid.h, built only when needed), and one vertex of each connected piece of
 * a candidate whose box the solid's box contains (a multi-part geometry may have one piece inside and
 * another far away).
 */
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "batch/gx_batch_internal.h"
#include "geom/gx_box.h"
#include "index/gx_grid.h"
#include "solid/gx_solid.h"

/* Where each geometry's elements start (first[g] .. first[g + 1]) and their boxes. */
typedef struct SideRanges
{
	size_t	   *first;
	GxBox3D    *box;
} SideRanges;

static bool
side_ranges(const GxBatchSide *s, SideRanges *r, GxError *err)
{
	r->first = gx_alloc(((size_t) s->ngeoms + 1) * sizeof(size_t));
	r->box = gx_alloc(((size_t) s->ngeoms + 1) * sizeof(GxBox3D));
	if (!r->first || !r->box)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the solids of a batch");
		return false;
	}
	for (size_t g = 0, e = 0; g <= s->ngeoms; g++)
	{
		r->first[g] = e;
		gx_box_set_empty(&r->box[g]);
		while (g < s->ngeoms && e < s->n && s->geom[e] == g)
		{
			GxBox3D		b = gx_batch_elem_box(s, e++);

			gx_box_extend(&r->box[g], &b);
		}
	}
	return true;
}

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

/* A solid of side s and its index, built when a piece first needs it (then kept for its other candidates). */
typedef struct LazySolid
{
	const GxBatchSide *s;
	const SideRanges *sr;
	uint32_t	sg;
	GxSolidIndex *idx;
	bool	   *built;
	GxError    *err;
} LazySolid;

/* Locates a piece's first vertex: 1 inside (or on), 0 outside, -1 no usable ray, -2 no index (err set). */
static int
piece_inside(void *ctx, const double *vertex)
{
	LazySolid  *l = ctx;
	GxLocation	loc;

	if (!*l->built)
	{
		if (!gx_solid_index_build(l->idx, l->s->coords + 9 * l->sr->first[l->sg],
								  l->sr->first[l->sg + 1] - l->sr->first[l->sg], l->err))
			return -2;
		*l->built = true;
	}
	loc = gx_solid_locate(l->idx, vertex);
	return loc == GX_LOC_FAILED ? -1 : loc != GX_LOC_OUTSIDE;
}

/*
 * Is geometry xg of side x inside solid sg of side s (its index idx built on first use)? Adds its key to
 * found. false with err set (cancel, memory, no usable ray).
 */
static bool
try_candidate(const GxBatchSide *s, const SideRanges *sr, uint32_t sg, GxSolidIndex *idx, bool *built,
			  const GxBatchSide *x, const SideRanges *xr, uint32_t xg, uint64_t key, const GxBatchOptions *opt,
			  GxKeys *found, GxError *err)
{
	LazySolid	lazy = {s, sr, sg, idx, built, err};
	int			r;

	if (gx_cancel_requested(&opt->cancel))
	{
		gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
		return false;
	}
	r = pieces_within_box(x, xr->first[xg], xr->first[xg + 1], &sr->box[sg], piece_inside, &lazy);
	if (r == -2)
		return false;
	if (r < 0)
	{
		gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
		return false;
	}
	if (r > 0 && !gx_keys_push(found, key))
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the pairs of a batch");
		return false;
	}
	return true;
}

/*
 * Pairs of the solids of side s with the geometries of side x that lie inside them, into found. The
 * geometries of x are gridded by their boxes, so each solid meets only those near it (once each, in their
 * reference cell), however many geometries either side has.
 */
static bool
inside_pairs(const GxBatchSide *s, const SideRanges *sr, const GxBatchSide *x, const SideRanges *xr,
			 bool s_is_a, const GxBatchOptions *opt, const GxKeys *known, GxKeys *found, GxError *err)
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
		GxSolidIndex idx;
		bool		built = false;
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
						uint64_t	key = s_is_a ? gx_pair_key(sg, xg) : gx_pair_key(xg, sg);

						if (!gx_box_overlaps(sbox, &xr->box[xg]) ||
							!gx_grid_is_reference_cell(&grid, &xr->box[xg], sbox, i, j, k) || has_key(known, key))
							continue;
						ok = try_candidate(s, sr, sg, &idx, &built, x, xr, xg, key, opt, found, err);
					}
				}
		if (built)
			gx_solid_index_free(&idx);
	}
	gx_grid_free(&grid);
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
	ok = side_ranges(a, &ra, err) && side_ranges(b, &rb, err) &&
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
	gx_free(ra.first);
	gx_free(ra.box);
	gx_free(rb.first);
	gx_free(rb.box);
	gx_keys_free(&found);
	return ok;
}
