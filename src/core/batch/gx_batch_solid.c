/*
 * gx_batch_solid.c: the batch engine's volumes. After the surfaces' pairs are found, a geometry of one
 * side that lies inside a solid of the other, missing its surface, is paired with it: for each solid,
 * its point location index (gx_solid.h: kept with a side that is cached, else built for the batch), and one
 * vertex of each connected piece of a candidate whose box the solid's box contains (a multi-part geometry
 * may have one piece inside and another far away), located in parallel. Location is exact and tells the
 * surface too, so a point is paired here when it lies on the surface as well.
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
	size_t		at = gx_keys_lower_bound(k->v, k->n, key);

	return at < k->n && k->v[at] == key;
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

/* A piece's first vertex to locate in a solid, with the index, and how many were located. */
typedef struct PieceLocator
{
	const GxSolidIndex *idx;
	size_t		located;
} PieceLocator;

/* Locates a piece's first vertex in the solid (ctx a PieceLocator): 1 inside (or on), 0 outside, -1 no usable ray. */
static int
piece_inside(void *ctx, const double *vertex)
{
	PieceLocator *l = ctx;
	GxLocation	loc = gx_solid_locate(l->idx, vertex);

	l->located++;
	return loc == GX_LOC_FAILED ? -1 : loc != GX_LOC_OUTSIDE;
}

/* Counts a piece (ctx a size_t), or copies its first vertex to the next slot (ctx a double **). */
static int
count_piece(void *ctx, const double *vertex)
{
	(void) vertex;
	(*(size_t *) ctx)++;
	return 0;
}

static int
copy_piece(void *ctx, const double *vertex)
{
	double	  **at = ctx;

	memcpy(*at, vertex, 3 * sizeof(double));
	*at += 3;
	return 0;
}

/* The point location index of each solid of side s: those kept with the side, or built for this batch. */
typedef struct SolidIndexes
{
	GxSolidIndex *idx;			/* per geometry of s; a solid without candidates keeps n == 0 */
	bool		owned;
} SolidIndexes;

/*
 * The grid over the solids' boxes of side s (a solid or so per cell; other geometries' boxes empty, so the
 * grid lists solids only), with those boxes (per geometry of s) and their extent. False on cancel or
 * memory (err set); *nsolids 0 (nothing built) when s has no solid.
 */
static bool
solids_grid(const GxBatchSide *s, const SideRanges *sr, const GxBatchOptions *opt, GxGrid *grid, GxBox3D **boxes_out,
			GxBox3D *extent, size_t *nsolids, GxError *err)
{
	GxBox3D    *boxes = gx_alloc(((size_t) s->ngeoms + 1) * sizeof(GxBox3D));
	int			dim[3];

	*nsolids = 0;
	*boxes_out = NULL;
	if (boxes == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the solids of a batch");
		return false;
	}
	gx_box_set_empty(extent);
	for (uint32_t sg = 0; sg < s->ngeoms; sg++)
	{
		gx_box_set_empty(&boxes[sg]);
		if (sg < s->solid_cap && s->solid[sg] && sr->first[sg] != sr->first[sg + 1])
		{
			boxes[sg] = sr->box[sg];
			gx_box_extend(extent, &boxes[sg]);
			(*nsolids)++;
		}
	}
	if (*nsolids == 0)
	{
		gx_free(boxes);
		return true;
	}
	gx_grid_choose_dims(extent, (double) *nsolids, dim);
	if (!gx_grid_build(grid, extent, dim, boxes, s->ngeoms, &opt->cancel, err))
	{
		gx_free(boxes);
		*nsolids = 0;
		return false;
	}
	*boxes_out = boxes;
	return true;
}

/*
 * Pushes onto c the candidate (solid sg, geometry xg) unless it is a known pair: keyed by the solid first, or
 * by the geometry first (point_first).
 */
static bool
push_candidate(uint32_t xg, uint32_t sg, bool s_is_a, bool point_first, const GxKeys *known, GxKeys *c)
{
	if (known->n > 0 && has_key(known, s_is_a ? gx_pair_key(sg, xg) : gx_pair_key(xg, sg)))
		return true;
	return gx_keys_push(c, point_first ? gx_pair_key(xg, sg) : gx_pair_key(sg, xg));
}

/*
 * The solids of the grid whose boxes meet xbox (geometry xg's), each counted in one reference cell, pushed
 * onto c as push_candidate does. False when memory runs out.
 */
static bool
solids_of_box(const GxGrid *grid, const GxBox3D *boxes, const GxBox3D *xbox, uint32_t xg, bool s_is_a,
			  bool point_first, const GxKeys *known, GxKeys *c)
{
	int			lo[3],
				hi[3];

	gx_grid_range(grid, xbox, lo, hi);
	for (int k = lo[2]; k <= hi[2]; k++)
		for (int j = lo[1]; j <= hi[1]; j++)
			for (int i = lo[0]; i <= hi[0]; i++)
			{
				size_t		cell = gx_grid_cell(grid, i, j, k);

				for (size_t e = grid->start[cell]; e < grid->start[cell + 1]; e++)
				{
					uint32_t	sg = grid->items[e];

					if (gx_box_overlaps(&boxes[sg], xbox) && gx_grid_is_reference_cell(grid, xbox, &boxes[sg], i, j, k) &&
						!push_candidate(xg, sg, s_is_a, point_first, known, c))
						return false;
				}
			}
	return true;
}

/*
 * Candidates (solid sg << 32 | geometry xg) of solids of side s and geometries of side x: their boxes
 * overlap and the pair is not known yet. The grid over the solids' boxes, looked up from each geometry of x
 * in parallel, each pair counted in one reference cell: the work follows x, and the solids are few. Sorted
 * by solid.
 */
static bool
candidates(const GxBatchSide *s, const SideRanges *sr, const GxBatchSide *x, const SideRanges *xr, bool s_is_a,
		   const GxBatchOptions *opt, const GxKeys *known, GxKeys *out, GxError *err)
{
	GxBox3D		extent,
			   *boxes;
	GxGrid		grid;
	size_t		nsolids;
	volatile int stop = 0;		/* 1 cancelled, 2 out of memory */
	long		xg;

	if (!solids_grid(s, sr, opt, &grid, &boxes, &extent, &nsolids, err))
		return false;
	if (nsolids == 0)
		return true;
	#pragma omp parallel if (x->ngeoms > 4096)
	{
		GxKeys		local = {NULL, 0, 0};

		#pragma omp for schedule(dynamic, 1024)
		for (xg = 0; xg < (long) x->ngeoms; xg++)
		{
			const GxBox3D *xbox = &xr->box[xg];

			if (stop || xr->first[xg] == xr->first[xg + 1] || !gx_box_overlaps(xbox, &extent))
				continue;
			if ((xg & 4095) == 0 && gx_cancel_requested(&opt->cancel))
				stop = 1;
			if (!solids_of_box(&grid, boxes, xbox, (uint32_t) xg, s_is_a, false, known, &local))
				stop = 2;
		}
		#pragma omp critical
		{
			if (!gx_keys_append(out, local.v, local.n))
				stop = 2;
		}
		gx_keys_free(&local);
	}
	gx_grid_free(&grid);
	gx_free(boxes);
	if (stop == 1)
		gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
	else if (stop == 2)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the solids of a batch");
	else
		gx_keys_sort_unique(out);
	return stop == 0;
}

/*
 * The indexes of the solids of s marked in want (one byte per geometry of s; NULL: those of the candidates
 * cand): the side's own, else built here, in parallel.
 */
static bool
solid_indexes(const GxBatchSide *s, const SideRanges *sr, const GxKeys *cand, const uint8_t *wanted,
			  SolidIndexes *si, GxError *err)
{
	uint8_t    *want = NULL;
	bool		ok;

	si->idx = s->index ? s->index->solid : NULL;
	si->owned = false;
	if (si->idx)
		return true;
	si->idx = gx_alloc(((size_t) s->ngeoms + 1) * sizeof(GxSolidIndex));
	if (wanted == NULL)
		want = gx_alloc((size_t) s->ngeoms + 1);
	if (!si->idx || (wanted == NULL && !want))
	{
		gx_free(si->idx);
		gx_free(want);
		si->idx = NULL;
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the solids of a batch");
		return false;
	}
	memset(si->idx, 0, ((size_t) s->ngeoms + 1) * sizeof(GxSolidIndex));
	if (wanted == NULL)
	{
		memset(want, 0, (size_t) s->ngeoms + 1);
		for (size_t c = 0; c < cand->n; c++)
			want[cand->v[c] >> 32] = 1;
	}
	ok = gx_side_solid_indexes_build(s, sr->first, wanted ? wanted : want, si->idx, NULL, err);
	gx_free(want);
	si->owned = true;
	return ok;
}

static void
solid_indexes_free(const GxBatchSide *s, SolidIndexes *si)
{
	if (si->owned)
		gx_side_solid_indexes_free(si->idx, s->ngeoms);
}

/*
 * The candidates located on the GPU, when side s is kept there with its solids' columns (side k of the
 * batch): verdict[c] is 1 when a piece of candidate c lies inside (or on) its solid, 0 when every piece
 * lies outside, 2 when the GPU left one open (a zero sign) and none inside: the CPU decides those. The
 * pieces are those the CPU would locate. Returns 1 when done, 0 when the GPU could not (the CPU locates
 * every candidate), -1 on cancel or memory (err set).
 */
static int
locate_on_gpu(const SideRanges *sr, const GxBatchSide *x, const SideRanges *xr, int k, const GxBatchOptions *opt,
			  const GxKeys *cand, uint8_t *verdict, GxBatchStats *st, GxError *err)
{
	size_t	   *first = gx_alloc((cand->n + 1) * sizeof(size_t)),
				n = 0;
	double	   *points = NULL;
	uint32_t   *solid = NULL;
	uint8_t    *answer = NULL;
	int			r = -1;
	long		c;

	if (first == NULL)
		goto nomem;
	first[0] = 0;
	#pragma omp parallel for schedule(dynamic, 256) if (cand->n > 4096)
	for (c = 0; c < (long) cand->n; c++)
	{
		uint32_t	sg = (uint32_t) (cand->v[c] >> 32),
					xg = (uint32_t) cand->v[c];
		size_t		count = 0;

		pieces_within_box(x, xr->first[xg], xr->first[xg + 1], &sr->box[sg], count_piece, &count);
		first[c + 1] = count;
	}
	for (size_t i = 0; i < cand->n; i++)
		first[i + 1] += first[i];
	n = first[cand->n];
	points = gx_alloc((n ? n : 1) * 3 * sizeof(double));
	solid = gx_alloc((n ? n : 1) * sizeof(uint32_t));
	answer = gx_alloc(n ? n : 1);
	if (!points || !solid || !answer)
		goto nomem;
	#pragma omp parallel for schedule(dynamic, 256) if (cand->n > 4096)
	for (c = 0; c < (long) cand->n; c++)
	{
		uint32_t	sg = (uint32_t) (cand->v[c] >> 32),
					xg = (uint32_t) cand->v[c];
		double	   *at = points + 3 * first[c];

		pieces_within_box(x, xr->first[xg], xr->first[xg + 1], &sr->box[sg], copy_piece, &at);
		for (size_t q = first[c]; q < first[c + 1]; q++)
			solid[q] = sg;
	}
	r = gx_batch_gpu_locate(opt, k, points, solid, n, answer, err);
	for (size_t i = 0; r == 1 && i < cand->n; i++)
	{
		verdict[i] = 0;
		for (size_t q = first[i]; q < first[i + 1] && verdict[i] != 1; q++)
			if (answer[q] != 0)
				verdict[i] = answer[q];
	}
	for (size_t q = 0; r == 1 && q < n; q++)
		if (answer[q] != 2)
		{
			st->located++;
			st->located_gpu++;
		}
	goto done;
nomem:
	gx_error_set(err, GX_ERR_NOMEM, "out of memory for the solids of a batch");
done:
	gx_free(first);
	gx_free(points);
	gx_free(solid);
	gx_free(answer);
	return r;
}

/* The error of a location pass stopped with code stop (1 cancelled, 2 out of memory, 3 no usable ray): false. */
static bool
located_error(int stop, GxError *err)
{
	if (stop == 1)
		gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
	else if (stop == 2)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the pairs of a batch");
	else
		gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
	return false;
}

/* The batch's key of a found candidate (point << 32 | solid): the solid first when the solids are side a. */
static uint64_t
found_key(uint64_t cand, bool s_is_a)
{
	return s_is_a ? cand << 32 | cand >> 32 : cand;
}

/*
 * A side of single points (a block model's centroids: tens of millions) takes its own path, in tasks: where
 * the side is kept with its grid, a task is one solid and one layer of the points' grid cells under its box,
 * so that only the points the solids' boxes reach are visited; otherwise a task is POINT_CHUNK points in
 * order, each looked up in the solids' grid. The tasks gather their candidates in parallel (and locate them,
 * on the CPU); where the solids are kept on the GPU, it locates them ROUND_CANDIDATES at a time (memory
 * bounded by the round, whatever the side's size), and the CPU decides what it leaves open.
 */
#define POINT_CHUNK 16384
#define ROUND_CANDIDATES ((size_t) 1 << 22)

typedef struct PointTask
{
	uint32_t	solid;			/* a solid and a layer of the points' grid (by_index), or points from .. to */
	int			layer;
	size_t		from,
				to;
	GxKeys		cand;			/* (point << 32 | solid) */
	GxKeys		found;			/* the pairs found, as the batch keys them */
	size_t		at;				/* the task's first candidate in its round's arrays */
} PointTask;

static GxBox3D
point_box(const double *p)
{
	GxBox3D		b = {.xmin = p[0], .ymin = p[1], .zmin = p[2], .xmax = p[0], .ymax = p[1], .zmax = p[2]};

	return b;
}

/* The solids whose boxes hold point xg at p, not known partners, pushed onto c sorted by solid. */
static bool
point_candidates(const GxGrid *grid, const GxBox3D *boxes, const double *p, uint32_t xg, bool s_is_a,
				 const GxKeys *known, GxKeys *c)
{
	GxBox3D		pb = point_box(p);
	size_t		first = c->n;

	if (!gx_box_overlaps(&pb, &grid->box))
		return true;
	if (!solids_of_box(grid, boxes, &pb, xg, s_is_a, true, known, c))
		return false;
	/* a point on a cell's boundary meets several cells: its few solids in order */
	for (size_t q = first + 1; q < c->n; q++)
		for (size_t r = q; r > first && c->v[r - 1] > c->v[r]; r--)
		{
			uint64_t	t = c->v[r];

			c->v[r] = c->v[r - 1];
			c->v[r - 1] = t;
		}
	return true;
}

/* The points of x (kept with its grid) in layer t->layer of the cells under solid t->solid's box. */
static bool
layer_candidates(const GxBatchSide *x, const GxBox3D *box, const PointTask *t, bool s_is_a, const GxKeys *known,
				 GxKeys *c)
{
	const GxGrid *grid = &x->index->grid;
	int			lo[3],
				hi[3],
				k = t->layer;

	gx_grid_range(grid, box, lo, hi);
	for (int j = lo[1]; j <= hi[1]; j++)
		for (int i = lo[0]; i <= hi[0]; i++)
		{
			size_t		cell = gx_grid_cell(grid, i, j, k);

			for (size_t e = grid->start[cell]; e < grid->start[cell + 1]; e++)
			{
				uint32_t	xg = x->geom[grid->items[e]];
				GxBox3D		pb = point_box(x->coords + 9 * (size_t) grid->items[e]);

				if (gx_box_overlaps(box, &pb) && gx_grid_is_reference_cell(grid, &pb, box, i, j, k) &&
					!push_candidate(xg, t->solid, s_is_a, true, known, c))
					return false;
			}
		}
	return true;
}

/* The tasks over side x: layers of its grid under each solid's box, or chunks of points. NULL: no memory. */
static PointTask *
point_tasks(const GxBatchSide *x, const GxBox3D *boxes, uint32_t nboxes, size_t *ntasks)
{
	PointTask  *t;
	size_t		n = 0;

	if (x->index == NULL)
	{
		*ntasks = (x->n + POINT_CHUNK - 1) / POINT_CHUNK;
		t = calloc(*ntasks ? *ntasks : 1, sizeof(PointTask));
		for (size_t c = 0; t && c < *ntasks; c++)
		{
			t[c].from = c * POINT_CHUNK;
			t[c].to = t[c].from + POINT_CHUNK < x->n ? t[c].from + POINT_CHUNK : x->n;
		}
		return t;
	}
	for (uint32_t sg = 0; sg < nboxes; sg++)
		if (!gx_box_is_empty(&boxes[sg]) && gx_box_overlaps(&boxes[sg], &x->index->grid.box))
		{
			int			lo[3],
						hi[3];

			gx_grid_range(&x->index->grid, &boxes[sg], lo, hi);
			n += hi[2] - lo[2] + 1;
		}
	*ntasks = n;
	t = calloc(n ? n : 1, sizeof(PointTask));
	n = 0;
	for (uint32_t sg = 0; t && sg < nboxes; sg++)
		if (!gx_box_is_empty(&boxes[sg]) && gx_box_overlaps(&boxes[sg], &x->index->grid.box))
		{
			int			lo[3],
						hi[3];

			gx_grid_range(&x->index->grid, &boxes[sg], lo, hi);
			for (int k = lo[2]; k <= hi[2]; k++, n++)
			{
				t[n].solid = sg;
				t[n].layer = k;
			}
		}
	return t;
}

/*
 * Tasks from .. of the list located on the GPU (when try_gpu), as many as fit a round (at least one): answer
 * as gx_batch_gpu_locate's, 1 done, 0 not, -1 error. *to: the end of the round.
 */
static int
locate_round_on_gpu(const GxBatchSide *x, int k, const GxBatchOptions *opt, bool try_gpu, PointTask *task,
					size_t from, size_t ntasks, size_t *to, double **points, uint32_t **solid, uint8_t **answer,
					size_t *cap, GxError *err)
{
	size_t		n = 0,
				end = from;

	while (end < ntasks && (end == from || n + task[end].cand.n <= ROUND_CANDIDATES))
	{
		task[end].at = n;
		n += task[end++].cand.n;
	}
	*to = end;
	if (!try_gpu)
		return 0;
	if (n == 0)
		return 1;
	if (n > *cap)
	{
		gx_free(*points);
		gx_free(*solid);
		gx_free(*answer);
		*points = gx_alloc(n * 3 * sizeof(double));
		*solid = gx_alloc(n * sizeof(uint32_t));
		*answer = gx_alloc(n);
		*cap = *points && *solid && *answer ? n : 0;
		if (*cap == 0)
		{
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for the points of a batch");
			return -1;
		}
	}
	#pragma omp parallel for schedule(dynamic, 1)
	for (long c = (long) from; c < (long) end; c++)
		for (size_t q = 0; q < task[c].cand.n; q++)
		{
			uint64_t	key = task[c].cand.v[q];

			memcpy(*points + 3 * (task[c].at + q), x->coords + 9 * (size_t) (key >> 32), 3 * sizeof(double));
			(*solid)[task[c].at + q] = (uint32_t) key;
		}
	return gx_batch_gpu_locate(opt, k, *points, *solid, n, *answer, err);
}

/* Locates candidate q of task t on the CPU into its found pairs: false when no ray served. */
static bool
locate_candidate(const GxBatchSide *x, const SolidIndexes *si, PointTask *t, size_t q, int *answer)
{
	uint32_t	xg = (uint32_t) (t->cand.v[q] >> 32),
				sg = (uint32_t) t->cand.v[q];
	GxLocation	loc = gx_solid_locate(&si->idx[sg], x->coords + 9 * (size_t) xg);

	if (loc == GX_LOC_FAILED)
		return false;
	*answer = loc != GX_LOC_OUTSIDE;
	return true;
}

/* inside_pairs for a side x of single points (every geometry one point): see PointTask. */
static bool
inside_points(const GxBatchSide *s, const SideRanges *sr, const GxBatchSide *x, bool s_is_a,
			  const GxBatchOptions *opt, const GxKeys *known, GxKeys *found, GxBatchStats *st, GxError *err)
{
	GxBox3D		extent,
			   *boxes;
	GxGrid		grid;
	SolidIndexes si = {NULL, false};
	PointTask  *task = NULL;
	uint8_t    *want,
			   *answer = NULL;
	double	   *points = NULL;
	uint32_t   *solid = NULL;
	size_t		nsolids,
				ntasks = 0,
				cap = 0,
				located = 0,
				on_gpu = 0;
	int			k = s_is_a ? 0 : 1;
	bool		gpu = opt->device_side[k] != NULL,
				left = gpu,		/* the candidates are left to the rounds */
				ok;
	volatile int stop = 0;		/* 1 cancelled, 2 out of memory, 3 no usable ray */

	if (!solids_grid(s, sr, opt, &grid, &boxes, &extent, &nsolids, err))
		return false;
	if (nsolids == 0)
		return true;
	want = gx_alloc((size_t) s->ngeoms + 1);
	ok = want && (task = point_tasks(x, boxes, s->ngeoms, &ntasks)) != NULL;
	if (!ok)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the solids of a batch");
	for (uint32_t sg = 0; ok && sg < s->ngeoms; sg++)
		want[sg] = !gx_box_is_empty(&boxes[sg]) && gx_box_overlaps(&boxes[sg], &x->extent);
	ok = ok && solid_indexes(s, sr, NULL, want, &si, err);
	/* the candidates (and, without the GPU, their location) */
	#pragma omp parallel for schedule(dynamic, 1) reduction(+:located) if (ok)
	for (long c = 0; c < (long) ntasks; c++)
	{
		PointTask  *t = &task[c];

		if (stop || gx_cancel_requested(&opt->cancel))
		{
			stop = stop ? stop : 1;
			continue;
		}
		if (x->index)
		{
			if (!layer_candidates(x, &boxes[t->solid], t, s_is_a, known, &t->cand))
				stop = 2;
		}
		else
			for (size_t xg = t->from; xg < t->to && !stop; xg++)
				if (!point_candidates(&grid, boxes, x->coords + 9 * xg, (uint32_t) xg, s_is_a, known, &t->cand))
					stop = 2;
		for (size_t q = 0; !gpu && !stop && q < t->cand.n; q++)
		{
			int			a;

			located++;
			if (!locate_candidate(x, &si, t, q, &a))
				stop = 3;
			else if (a && !gx_keys_push(&t->found, found_key(t->cand.v[q], s_is_a)))
				stop = 2;
		}
	}
	/* on the GPU, a round at a time; the CPU decides what it leaves open (every candidate, if it fails) */
	for (size_t from = 0, to = 0; ok && !stop && left && from < ntasks; from = to)
	{
		int			r = locate_round_on_gpu(x, k, opt, gpu, task, from, ntasks, &to, &points, &solid, &answer, &cap,
											err);

		ok = r >= 0;
		#pragma omp parallel for schedule(dynamic, 1) reduction(+:located, on_gpu) if (ok)
		for (long c = (long) from; c < (long) to; c++)
		{
			PointTask  *t = &task[c];

			for (size_t q = 0; q < t->cand.n && !stop; q++)
			{
				int			a = r == 1 ? answer[t->at + q] : 2;

				located++;
				if (a != 2)
					on_gpu++;
				else if (!locate_candidate(x, &si, t, q, &a))
					stop = 3;
				if (a == 1 && !gx_keys_push(&t->found, found_key(t->cand.v[q], s_is_a)))
					stop = 2;
			}
		}
		if (r == 0)
			gpu = false;
	}
	for (size_t c = 0; ok && c < ntasks && !stop; c++)
		if (!gx_keys_append(found, task[c].found.v, task[c].found.n))
			stop = 2;
	st->located += located;
	st->located_gpu += on_gpu;
	if (ok && stop)
		ok = located_error(stop, err);
	for (size_t c = 0; task && c < ntasks; c++)
	{
		gx_keys_free(&task[c].cand);
		gx_keys_free(&task[c].found);
	}
	free(task);
	gx_free(want);
	gx_free(points);
	gx_free(solid);
	gx_free(answer);
	if (si.idx)
		solid_indexes_free(s, &si);
	gx_grid_free(&grid);
	gx_free(boxes);
	return ok;
}

/* Every geometry of x one point (a block model's centroids): inside_points' side. */
static bool
single_points(const GxBatchSide *x)
{
	return x->n == x->ngeoms && gx_batch_side_all_points(x);
}

/*
 * Pairs of the solids of side s with the geometries of side x that lie inside them, into found: the
 * candidates are located in parallel (a vertex of each piece of x whose box the solid's contains).
 */
static bool
inside_pairs(const GxBatchSide *s, const SideRanges *sr, const GxBatchSide *x, const SideRanges *xr,
			 bool s_is_a, const GxBatchOptions *opt, const GxKeys *known, GxKeys *found, GxBatchStats *st,
			 GxError *err)
{
	GxKeys		cand = {NULL, 0, 0};
	SolidIndexes si = {NULL, false};
	uint8_t    *verdict = NULL;
	volatile int stop = 0;		/* 1 cancelled, 2 out of memory, 3 no usable ray */
	size_t		located = 0;
	bool		ok;

	ok = candidates(s, sr, x, xr, s_is_a, opt, known, &cand, err);
	/* the GPU first, where the solids are kept with their columns; the CPU decides what it leaves */
	if (ok && cand.n > 0 && opt->device_side[s_is_a ? 0 : 1] != NULL)
	{
		int			r;

		verdict = gx_alloc(cand.n);
		r = verdict ? locate_on_gpu(sr, x, xr, s_is_a ? 0 : 1, opt, &cand, verdict, st, err) : -1;
		if (r < 0 && verdict == NULL)
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for the solids of a batch");
		ok = r >= 0;
		if (r == 0)
		{
			gx_free(verdict);
			verdict = NULL;
		}
	}
	ok = ok && solid_indexes(s, sr, &cand, NULL, &si, err);
	#pragma omp parallel if (ok && cand.n > 64) reduction(+:located)
	{
		GxKeys		local = {NULL, 0, 0};

		#pragma omp for schedule(dynamic, 64)
		for (size_t c = 0; c < cand.n; c++)
		{
			uint32_t	sg = (uint32_t) (cand.v[c] >> 32),
						xg = (uint32_t) cand.v[c];
			PieceLocator l = {&si.idx[sg], 0};
			int			r;

			if (!ok || stop)
				continue;
			if (gx_cancel_requested(&opt->cancel))
			{
				stop = 1;
				continue;
			}
			if (verdict && verdict[c] != 2)
				r = verdict[c];
			else
				r = pieces_within_box(x, xr->first[xg], xr->first[xg + 1], &sr->box[sg], piece_inside, &l);
			located += l.located;
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
	st->located += located;
	if (ok && stop)
		ok = located_error(stop, err);
	gx_free(verdict);
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
	bool		points_a,
				points_b,
				need_a,
				need_b,
				ok;

	if (a->solid == NULL && b->solid == NULL)
		return true;
	/* a side of single points needs no ranges (tens of millions of them, made for nothing) */
	points_a = b->solid != NULL && single_points(a);
	points_b = a->solid != NULL && single_points(b);
	/* a side's ranges serve its own solids, and its geometries inside the other's when not single points */
	need_a = a->solid != NULL || (b->solid != NULL && !points_a);
	need_b = b->solid != NULL || (a->solid != NULL && !points_b);
	ok = (!need_a || gx_side_ranges(a, &ra.first, &ra.box, err)) &&
		(!need_b || gx_side_ranges(b, &rb.first, &rb.box, err)) &&
		(b->solid == NULL || (points_a ? inside_points(b, &rb, a, false, opt, keys, &found, st, err) :
							  inside_pairs(b, &rb, a, &ra, false, opt, keys, &found, st, err))) &&
		(a->solid == NULL || (points_b ? inside_points(a, &ra, b, true, opt, keys, &found, st, err) :
							  inside_pairs(a, &ra, b, &rb, true, opt, keys, &found, st, err)));
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
