/*
 * gx_overlap_pairs.c: the pairs of solids sharing a positive volume (gx_overlap_pairs.h). The candidates are
 * found by a grid over the second set's boxes, each pair once (in the cell of its boxes' overlap's minimum
 * corner); the overlays are shared out among the threads pair by pair, each thread with its own sums. A pair
 * whose solids are the same bit for bit as the other way round of another pair (a query against itself) takes
 * that pair's volume.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "batch/gx_batch.h"
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

/* Whether solids p and q have the same triangles, bit for bit, in the same order. */
static bool
same_solid(const GxSolidIndex *p, const GxSolidIndex *q)
{
	return p->n == q->n && memcmp(&p->box, &q->box, sizeof(GxBox3D)) == 0 &&
		(p->tri == q->tri || memcmp(p->tri, q->tri, 9 * p->n * sizeof(double)) == 0);
}

/* The index of candidate (i, k) in cand[0..n), sorted by a then b; n when it is not there. */
static size_t
find_pair(const GxOverlapPair *cand, size_t n, uint32_t i, uint32_t k)
{
	size_t		lo = 0,
				hi = n;

	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (cand[mid].a < i || (cand[mid].a == i && cand[mid].b < k))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && cand[lo].a == i && cand[lo].b == k ? lo : n;
}

/* One call's state, shared by its threads. */
typedef struct Run
{
	const GxSolidIndex *a,
			   *b;
	const GxBatchOptions *opt;
	GxOverlayOptions ov;
	int			used;			/* threads */
	GxOverlapPair *cand;		/* the candidates, sorted by a then b; their volumes once known */
	size_t		ncand,
			   *mirror;			/* the candidate whose volume each takes (itself when computed) */
	uint8_t    *same;			/* its solids are the same bit for bit */
	int8_t	   *sign;			/* its volume's sign once known, else UNKNOWN */
	bool		stopped,
				failed;
	GxError    *err;
	GxOverlapStats *st;
} Run;

#define UNKNOWN 3

/*
 * The mirror of each candidate: solids the same bit for bit are each other's twins (twin_b[i] one of b's the
 * same as a's i, twin_a[k] one of a's the same as b's k, UINT32_MAX for none), and when a's i has a twin k' in b
 * and b's k a twin i' in a, (i, k) shares the volume of (i', k'): a_i ∩ b_k = b_k' ∩ a_i' (a query against
 * itself gives every pair with its mirror). Twins have the same box, so each twin pair is a candidate.
 */
static bool
mirrors(Run *r, size_t na, size_t nb)
{
	uint32_t   *twin_a = malloc((nb + 1) * sizeof(uint32_t)),
			   *twin_b = malloc((na + 1) * sizeof(uint32_t));
	const GxOverlapPair *cand = r->cand;
	size_t		ncand = r->ncand;

	if (twin_a == NULL || twin_b == NULL)
	{
		free(twin_a);
		free(twin_b);
		return false;
	}
	memset(twin_a, 0xFF, (nb + 1) * sizeof(uint32_t));
	memset(twin_b, 0xFF, (na + 1) * sizeof(uint32_t));
	#pragma omp parallel for num_threads(r->used) schedule(dynamic, 16)
	for (size_t p = 0; p < ncand; p++)
		r->same[p] = same_solid(&r->a[cand[p].a], &r->b[cand[p].b]);
	for (size_t p = 0; p < ncand; p++)
		if (r->same[p])
		{
			if (twin_b[cand[p].a] == UINT32_MAX)
				twin_b[cand[p].a] = cand[p].b;
			if (twin_a[cand[p].b] == UINT32_MAX)
				twin_a[cand[p].b] = cand[p].a;
		}
	#pragma omp parallel for num_threads(r->used) schedule(static)
	for (size_t p = 0; p < ncand; p++)
	{
		uint32_t	i = twin_a[cand[p].b],
					k = twin_b[cand[p].a];
		size_t		m = i == UINT32_MAX || k == UINT32_MAX ? ncand : find_pair(cand, ncand, i, k);

		r->mirror[p] = m < p ? m : p;
		r->sign[p] = UNKNOWN;
	}
	free(twin_a);
	free(twin_b);
	return true;
}

/* A failure e of a thread: the first one is kept (a cancel stops, anything else fails). */
static void
run_fail(Run *r, const GxError *e)
{
	#pragma omp critical(gx_overlap_pairs)
	{
		if (!r->failed && !r->stopped)
		{
			*r->err = *e;
			if (e->code == GX_ERR_CANCELLED)
				r->stopped = true;
			else
				r->failed = true;
		}
	}
}

/*
 * The overlays of candidates which[0..n), on the threads: with the pairs of triangles that may meet found here,
 * or, with tri, those of which[j] at tri[2 start[j] .. 2 start[j + 1]).
 */
static void
overlays(Run *r, const size_t *which, size_t n, const uint64_t *start, const uint32_t *tri)
{
	#pragma omp parallel num_threads(r->used)
	{
		GxOverlayVolumes vol;
		GxError		e = {GX_OK, ""};

		#pragma omp for schedule(dynamic, 1)
		for (size_t j = 0; j < n; j++)
		{
			size_t		p = which[j];
			const GxSolidIndex *a = &r->a[r->cand[p].a],
					   *b = &r->b[r->cand[p].b];
			bool		ok;

			if (r->stopped || r->failed)
				continue;
			if (gx_cancel_requested(&r->opt->cancel))
			{
				r->stopped = true;
				continue;
			}
			ok = tri ? gx_overlay_volumes_of_pairs(a, b, &r->ov, GX_BOOL_OP(GX_BOOL_INTERSECTION),
												   tri + 2 * start[j], start[j + 1] - start[j], &vol, &e)
				: gx_overlay_volumes(a, b, &r->ov, GX_BOOL_OP(GX_BOOL_INTERSECTION), &vol, &e);
			if (!ok)
			{
				run_fail(r, &e);
				continue;
			}
			r->sign[p] = (int8_t) vol.sign[GX_BOOL_INTERSECTION];
			r->cand[p].volume = vol.v[GX_BOOL_INTERSECTION];
		}
	}
}

#define GPU_CHUNK_TRIANGLES ((size_t) 1 << 22)	/* a's triangles of the solid pairs of one GPU call at most */
#define HELD_PAIRS ((size_t) 1 << 24)	/* pairs of triangles held for one run of overlays at most */

/* The element that solid s's triangles start at, in the side of coordinates coords. */
static uint64_t
first_element(const GxSolidIndex *s, const double *coords)
{
	return (uint64_t) (s->tri - coords) / 9;
}

/*
 * The GPU's part, on the sides kept there (opt->device_side; coords: the sides' coordinates): the volumes of
 * the pairs of the same solids, and the candidate pairs of triangles of the other pairs, a chunk of pairs at a
 * time, their overlays then run here with them. What the GPU leaves (or everything, when it cannot) is left
 * UNKNOWN. false on memory (err set) or cancel (stopped).
 */
static bool
gpu_overlays(Run *r, const double *const coords[2])
{
	size_t		n = 0,
				m,
				at;
	size_t	   *which = malloc((r->ncand + 1) * sizeof(size_t));
	uint64_t   *first = malloc((r->ncand + 1) * sizeof(uint64_t)),
			   *b_first = malloc((r->ncand + 1) * sizeof(uint64_t)),
			   *start = malloc((r->ncand + 1) * sizeof(uint64_t));
	uint32_t   *count = malloc((r->ncand + 1) * sizeof(uint32_t)),
			   *b_solid = malloc((r->ncand + 1) * sizeof(uint32_t));
	double	   *value = malloc((r->ncand + 1) * sizeof(double)),
			   *b_box = malloc((r->ncand + 1) * 6 * sizeof(double));
	int8_t	   *sign = malloc(r->ncand + 1);
	uint32_t   *held_tri = NULL;
	size_t		held = 0,
				held_cap = 0;
	GxError		e = {GX_OK, ""};
	int			rc = 1;
	bool		ok = which && first && b_first && start && count && b_solid && value && b_box && sign;

	/* the same solids' volumes: their own */
	for (size_t p = 0; ok && p < r->ncand; p++)
		if (r->mirror[p] == p && r->same[p])
		{
			const GxSolidIndex *s = &r->a[r->cand[p].a];

			which[n] = p;
			first[n] = first_element(s, coords[0]);
			count[n++] = (uint32_t) s->n;
		}
	if (ok && n > 0 && (rc = gx_batch_gpu_solid_volumes(r->opt, 0, first, count, n, value, sign, &e)) == 1)
		for (size_t j = 0; j < n; j++)
			if (sign[j] != 2)
			{
				r->sign[which[j]] = sign[j];
				r->cand[which[j]].volume = value[j];
				if (r->st)
					r->st->gpu_volumes++;
			}
	/*
	 * the others' candidates, found a chunk of pairs at a time and held, then the overlays of all the pairs
	 * held in one run on the threads (in several when they hold more than HELD_PAIRS pairs of triangles)
	 */
	for (n = 0, at = 0; ok && rc == 1 && at < r->ncand; at += m)
	{
		size_t		work = 0,
					n0 = n;

		for (m = 0; at + m < r->ncand && (n == n0 || work < GPU_CHUNK_TRIANGLES); m++)
		{
			size_t		p = at + m;
			const GxSolidIndex *a = &r->a[r->cand[p].a],
					   *b = &r->b[r->cand[p].b];

			if (r->mirror[p] != p || r->same[p] || a->n > UINT32_MAX || b->n > UINT32_MAX)
				continue;
			which[n] = p;
			first[n] = first_element(a, coords[0]);
			count[n] = (uint32_t) a->n;
			b_solid[n] = r->cand[p].b;
			b_first[n] = first_element(b, coords[1]);
			memcpy(b_box + 6 * n, &b->box, 6 * sizeof(double));
			work += a->n;
			n++;
		}
		if (n > n0)
		{
			uint32_t   *tri = NULL;

			if (gx_cancel_requested(&r->opt->cancel))
				rc = -1;
			else if ((rc = gx_batch_gpu_overlap_candidates(r->opt, first + n0, count + n0, b_solid + n0, b_first + n0,
															b_box + 6 * n0, n - n0, start + n0, &tri, &e)) == 1)
			{
				size_t		got = start[n];

				for (size_t j = n0; j <= n; j++)
					start[j] += held;
				if (gx_grow_malloc((void **) &held_tri, &held_cap, 2 * (held + got), sizeof(uint32_t), SIZE_MAX / 8))
				{
					memcpy(held_tri + 2 * held, tri, 2 * got * sizeof(uint32_t));
					held += got;
				}
				else
					ok = false;
			}
			free(tri);
		}
		if (rc != 1)
			n = n0;				/* the chunk the GPU did not do is left to the CPU */
		if (ok && n > 0 && (held >= HELD_PAIRS || rc != 1 || at + m == r->ncand))
		{
			overlays(r, which, n, start, held_tri);
			if (r->st)
			{
				r->st->gpu_pairs += n;
				r->st->gpu_triangle_pairs += held;
			}
			n = 0;
			held = 0;
			if (r->stopped || r->failed)
				break;
		}
	}
	free(held_tri);
	if (rc < 0 && !r->stopped && !r->failed)
	{
		*r->err = e;
		r->stopped = true;
	}
	free(which);
	free(first);
	free(b_first);
	free(start);
	free(count);
	free(b_solid);
	free(value);
	free(b_box);
	free(sign);
	if (!ok)
		gx_error_set(r->err, GX_ERR_NOMEM, "out of memory for the overlaps of %zu pairs of solids", r->ncand);
	return ok;
}

/*
 * gx_overlap_pairs, with the GPU's help where coords (the sides' coordinates, whose triangles the indexes point
 * at) is given and both sides are kept on the GPU (opt->device_side).
 */
static bool
overlap_pairs(const GxSolidIndex *a, size_t na, const GxSolidIndex *b, size_t nb, const double *const coords[2],
			  const GxBatchOptions *opt, size_t max_cuts, GxOverlapPair **out, size_t *nout, GxOverlapStats *st,
			  GxError *err)
{
	Run			r = {.a = a, .b = b, .opt = opt, .ov = {max_cuts, &opt->cancel, false, 1, NULL}, .err = err, .st = st};
	GxGrid		grid;
	GxPairList *found;
	size_t	   *rest = NULL,
				nrest = 0;
	bool		nomem = false;

	*out = NULL;
	*nout = 0;
	if (na == 0 || nb == 0)
		return true;
	if (!gx_solids_grid(&grid, b, nb, err))
		return false;
	if (grid.items == NULL)
		return true;			/* every solid of b is EMPTY */
	r.used = gx_threads_begin(opt->threads, opt->thread_budget);
	if ((found = calloc(r.used, sizeof(GxPairList))) == NULL)
	{
		gx_threads_end();
		gx_grid_free(&grid);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the overlaps of %zu solids", na);
		return false;
	}
	/* the candidate pairs, in (a, b) order */
	#pragma omp parallel for num_threads(r.used) schedule(dynamic, 64)
	for (size_t i = 0; i < na; i++)
		candidates_of(&grid, &a[i], b, (uint32_t) i, &found[omp_get_thread_num()]);
	gx_grid_free(&grid);
	for (int t = 0; t < r.used; t++)
		nomem |= found[t].nomem;
	if (!nomem && (r.cand = gx_pair_lists_gather(found, r.used, &r.ncand, &nomem)) != NULL)
		gx_pair_volumes_sort(r.cand, r.ncand);
	for (int t = 0; t < r.used; t++)
		free(found[t].v);
	free(found);
	if (!nomem)
	{
		r.mirror = malloc((r.ncand + 1) * sizeof(size_t));
		r.same = malloc(r.ncand + 1);
		r.sign = malloc(r.ncand + 1);
		rest = malloc((r.ncand + 1) * sizeof(size_t));
		nomem = !r.mirror || !r.same || !r.sign || !rest || !mirrors(&r, na, nb);
		if (nomem)
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for the overlaps of %zu solids", na);
	}
	/* the GPU's part where both sides are kept there, then the overlays of the pairs computed, left here */
	if (!nomem && coords && opt->device_side[0] && opt->device_side[1])
		nomem = !gpu_overlays(&r, coords);
	if (!nomem && !r.stopped && !r.failed)
	{
		for (size_t p = 0; p < r.ncand; p++)
			if (r.mirror[p] == p && r.sign[p] == UNKNOWN)
				rest[nrest++] = p;
		overlays(&r, rest, nrest, NULL, NULL);
	}
	gx_threads_end();
	/* the pairs with a volume, in order (a mirror after the pair whose volume it takes) */
	if (!nomem && !r.stopped && !r.failed)
	{
		for (size_t p = 0; p < r.ncand; p++)
			if (r.mirror[p] != p)
			{
				r.sign[p] = r.sign[r.mirror[p]];
				r.cand[p].volume = r.cand[r.mirror[p]].volume;
			}
		for (size_t p = 0; p < r.ncand; p++)
			if (r.sign[p] > 0 && r.sign[p] != UNKNOWN)
				r.cand[(*nout)++] = r.cand[p];
		*out = r.cand;
		r.cand = NULL;
		if (st)
		{
			st->candidates += r.ncand;
			st->computed += nrest;
			for (size_t p = 0; p < r.ncand; p++)
			{
				st->mirrored += r.mirror[p] != p;
				st->same += r.same[p];
			}
		}
	}
	free(r.cand);
	free(r.mirror);
	free(r.same);
	free(r.sign);
	free(rest);
	if (nomem || r.stopped || r.failed)
	{
		*nout = 0;
		if (r.stopped && err->code != GX_ERR_CANCELLED)
			gx_error_set(err, GX_ERR_CANCELLED, "overlaps cancelled");
		return false;
	}
	return true;
}

bool
gx_overlap_pairs(const GxSolidIndex *a, size_t na, const GxSolidIndex *b, size_t nb, const GxBatchOptions *opt,
				 size_t max_cuts, GxOverlapPair **out, size_t *nout, GxError *err)
{
	return overlap_pairs(a, na, b, nb, NULL, opt, max_cuts, out, nout, NULL, err);
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
gx_side_solids(const GxBatchSide *s, const bool *needed, const GxBatchOptions *opt, GxSolidIndex **built,
			   GxError *err)
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
			if (stopped || failed || first[g + 1] == first[g] || (needed && !needed[g]))
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
						  GxOverlapPair **out, size_t *nout, GxOverlapStats *st, GxError *err)
{
	GxSolidIndex *built[2] = {NULL, NULL};
	const GxSolidIndex *sa = NULL,
			   *sb = NULL;
	bool		ok;

	*out = NULL;
	*nout = 0;
	if (st)
		memset(st, 0, sizeof(*st));
	if (a->n == 0 || b->n == 0)
		return true;			/* a side of EMPTY solids only */
	ok = (sa = gx_side_solids(a, NULL, opt, &built[0], err)) != NULL &&
		(sb = gx_side_solids(b, NULL, opt, &built[1], err)) != NULL &&
		gx_overlap_pairs_of_indexes(a, sa, b, sb, opt, max_cuts, out, nout, st, err);
	if (built[0])
		gx_side_solids_free(built[0], a->ngeoms);
	if (built[1])
		gx_side_solids_free(built[1], b->ngeoms);
	return ok;
}

bool
gx_overlap_pairs_of_indexes(const GxBatchSide *a, const GxSolidIndex *sa, const GxBatchSide *b,
							const GxSolidIndex *sb, const GxBatchOptions *opt, size_t max_cuts, GxOverlapPair **out,
							size_t *nout, GxOverlapStats *st, GxError *err)
{
	const double *const coords[2] = {a->coords, b->coords};

	*out = NULL;
	*nout = 0;
	if (st)
		memset(st, 0, sizeof(*st));
	if (a->n == 0 || b->n == 0)
		return true;			/* a side of EMPTY solids only */
	return overlap_pairs(sa, a->ngeoms, sb, b->ngeoms, coords, opt, max_cuts, out, nout, st, err);
}
