/*
 * gx_volume.c: exact volumes of solids, whole or inside a box (gx_volume.h): the integral of
 * clamp(z, zmin, zmax) - zmin over each triangle's projection clipped to the box's rectangle
 * (gx_volume_impl.h) in GMP rationals, rounded once at the end; and the rounded volume in a box taken the
 * fastest certain way, the filter (gx_volume_filter.h) first.
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_open_box.h"
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "batch/gx_side_index.h"
#include "geom/gx_box.h"
#include "index/gx_grid.h"
#include "operation/gx_volume.h"

/* Where a point could not be located (gx_solid_locate failed): no volume is given rather than a wrong one. */
#define UNLOCATED "could not locate a block's corner in a solid (no ray avoided its edges): its volume is not known"

/* The polygon buffers as one flat array of rationals, for init and clear. */
#define POLY_RATIONALS(w) (sizeof((w)->poly) / sizeof((w)->poly[0][0][0]))

void
gx_volume_work_init(GxVolumeWork *w)
{
	mpq_t	   *q = &w->poly[0][0][0];

	for (size_t i = 0; i < POLY_RATIONALS(w); i++)
		mpq_init(q[i]);
	mpq_inits(w->t, w->u, w->v, w->f, w->sum, NULL);
	w->unlocated = false;
}

void
gx_volume_work_clear(GxVolumeWork *w)
{
	mpq_t	   *q = &w->poly[0][0][0];

	for (size_t i = 0; i < POLY_RATIONALS(w); i++)
		mpq_clear(q[i]);
	mpq_clears(w->t, w->u, w->v, w->f, w->sum, NULL);
}

#define VOL(name) name##_q
#define VOL_T mpq_t
#define VOL_SRC mpq_srcptr
#define VOL_WORK GxVolumeWork
#define VOL_INIT(x) mpq_init(x)
#define VOL_CLEAR(x) mpq_clear(x)
#define VOL_SET(r, a) mpq_set(r, a)
#define VOL_SET_D(r, d) mpq_set_d(r, d)
#define VOL_SET_UI(r, n) mpq_set_ui(r, n, 1)
#define VOL_ADD(r, a, b) mpq_add(r, a, b)
#define VOL_SUB(r, a, b) mpq_sub(r, a, b)
#define VOL_MUL(r, a, b) mpq_mul(r, a, b)
#define VOL_DIV(r, a, b) mpq_div(r, a, b)
#define VOL_IS_ZERO(a) (mpq_sgn(a) == 0)
#define VOL_CMP(w, a, b) mpq_cmp(a, b)
#include "operation/gx_volume_impl.h"

_Thread_local GxVolumeStats gx_volume_stats;

void
gx_volume_exact(const double *tri, size_t n, GxVolumeWork *w, mpq_t out)
{
	mpq_t		zero;

	mpq_init(zero);
	mpq_set_ui(w->sum, 0, 1);
	for (size_t i = 0; i < n; i++)
	{
		load_triangle_q(w->poly[0], tri + 9 * i);
		add_integral_q(w, w->poly[0], 3, zero, false);
	}
	mpq_set_ui(w->t, 6, 1);
	mpq_div(out, w->sum, w->t);
	mpq_clear(zero);
}

static bool
stop_at_first(void *ctx, size_t i)
{
	(void) i;
	*(bool *) ctx = true;
	return false;
}

/*
 * Does the box of some triangle of s overlap box? The columns' busy heights answer no for most blocks, far
 * from the surface, without a look at the triangles.
 */
static bool
surface_reaches(const GxSolidIndex *s, const GxBox3D *box)
{
	bool		found = false;

	if (gx_solid_gaps_miss(s, box))
		return false;
	gx_solid_index_search(s, box, stop_at_first, &found);
	return found;
}

/* Is the lowest corner of box, a box the surface misses, inside the solid? */
static bool
corner_inside(const GxSolidIndex *s, const GxBox3D *box, GxVolumeWork *w)
{
	double		corner[3] = {box->xmin, box->ymin, box->zmin};
	GxLocation	loc = gx_solid_locate(s, corner);

	w->unlocated |= loc == GX_LOC_FAILED;
	return loc == GX_LOC_INSIDE;
}

/* out = the solid's volume inside the box from the integral over the box's column (the surface reaches it). */
static void
column_volume(const GxSolidIndex *s, const GxBox3D *box, GxVolumeWork *w, mpq_t out)
{
	Bounds_q	b;

	bounds_init_q(&b, box);
	column_sum_q(w, s, box, &b);
	mpq_set_ui(w->t, 6, 1);
	mpq_div(out, w->sum, w->t);
	bounds_clear_q(&b);
}

void
gx_volume_in_box_exact(const GxSolidIndex *s, const GxBox3D *box, GxVolumeWork *w, mpq_t out)
{
	mpq_set_ui(out, 0, 1);
	if (s->n == 0 || !gx_box_overlaps(&s->box, box))
		return;
	/*
	 * Most blocks of a model are far from the surface: when no triangle's box reaches the box, the surface
	 * misses it, and the column's integral is not needed.
	 */
	if (surface_reaches(s, box))
		column_volume(s, box, w, out);
	else if (corner_inside(s, box, w))
		gx_box_volume_exact(box, w, out);
}

void
gx_box_volume_exact(const GxBox3D *box, GxVolumeWork *w, mpq_t out)
{
	Bounds_q	b;

	bounds_init_q(&b, box);
	box_volume_q(&b, out, w->t);
	bounds_clear_q(&b);
}

typedef struct OpenBox
{
	const GxSolidIndex *s;
	const GxBox3D *box;
	bool		met;
} OpenBox;

static bool
open_box_visit(void *ctx, size_t i)
{
	OpenBox    *o = ctx;

	o->met = gx_triangle_meets_open_box(o->s->tri + 9 * i, o->box);
	return !o->met;
}

/* Does some triangle of s have a point strictly inside box? */
static bool
surface_meets_open_box(const GxSolidIndex *s, const GxBox3D *box)
{
	OpenBox		o = {s, box, false};

	gx_solid_index_search(s, box, open_box_visit, &o);
	return o.met;
}

/*
 * The box's own volume (reaches false) or the column's integral (true), exact, rounded to nearest; *positive
 * says whether the exact volume is > 0 (a positive one may round to 0).
 */
static double
rounded_exact(const GxSolidIndex *s, const GxBox3D *box, bool reaches, GxVolumeWork *w, bool *positive)
{
	mpq_t		v;
	double		d;

	mpq_init(v);
	if (reaches)
		column_volume(s, box, w, v);
	else
		gx_box_volume_exact(box, w, v);
	d = gx_mpq_get_d_nearest(v);
	*positive = mpq_sgn(v) > 0;
	mpq_clear(v);
	return d;
}

/*
 * The rounded volume of s inside box, which the surface reaches, after the filter's verdict (v the
 * filter's rounded volume when ROUNDED, whose exact volume is > 0): the exact path where the filter could
 * not say. *positive: whether the exact volume is > 0, as below.
 */
static double
after_filter(const GxSolidIndex *s, const GxBox3D *box, GxVolumeVerdict verdict, double v, GxVolumeWork *w,
			 bool *positive)
{
	switch (verdict)
	{
		case GX_VOLUME_ROUNDED:
			gx_volume_stats.filtered++;
			*positive = true;
			return v;
		case GX_VOLUME_NEAR_ZERO:
			if (surface_meets_open_box(s, box))
				break;
			gx_volume_stats.open_box_empty++;
			*positive = false;
			return 0;
		case GX_VOLUME_UNDECIDED:
			break;
	}
	gx_volume_stats.exact++;
	return rounded_exact(s, box, true, w, positive);
}

/* The rounded volume of s inside box, which the surface misses: all of the box or none. */
static double
missed_box(const GxSolidIndex *s, const GxBox3D *box, GxVolumeWork *w, bool *positive)
{
	double		v;

	gx_volume_stats.located++;
	*positive = false;
	if (!corner_inside(s, box, w))
		return 0;
	*positive = box->xmax > box->xmin && box->ymax > box->ymin && box->zmax > box->zmin;
	if (gx_box_volume_filter(box, &v))
		return v;
	gx_volume_stats.exact++;
	return rounded_exact(s, box, false, w, positive);
}

/* The rounded volume of s inside box, which the surface reaches: the CPU's filter, then after_filter. */
static double
reached_box(const GxSolidIndex *s, const GxBox3D *box, GxVolumeWork *w, bool *positive)
{
	double		v = 0;
	GxVolumeVerdict verdict = gx_volume_in_box_filter(s, box, &w->filter, &v);

	return after_filter(s, box, verdict, v, w, positive);
}

double
gx_volume_in_box_nearest(const GxSolidIndex *s, const GxBox3D *box, GxVolumeWork *w)
{
	bool		positive;

	if (s->n == 0 || !gx_box_overlaps(&s->box, box))
		return 0;
	return surface_reaches(s, box) ? reached_box(s, box, w, &positive) : missed_box(s, box, w, &positive);
}

static bool
check_solid(const GxSerialized *g, GxError *err)
{
	if (!(g->flags & GX_FLAG_SOLID) && !(g->flags & GX_FLAG_EMPTY))
	{
		gx_error_set(err, GX_ERR_INVALID, "the volume of a %s that is not a solid: apply gx_makesolid first",
					 gx_type_name(gx_body(g)->type));
		return false;
	}
	return true;
}

bool
gx_volume(const GxSerialized *g, double *out, GxError *err)
{
	GxVolumeWork w;
	const double *tri;
	size_t		n;
	mpq_t		v;

	*out = 0;
	if (!check_solid(g, err))
		return false;
	if (g->flags & GX_FLAG_EMPTY)
		return true;
	tri = gx_solid_triangles(g, &n);
	gx_volume_work_init(&w);
	mpq_init(v);
	gx_volume_exact(tri, n, &w, v);
	*out = gx_mpq_get_d_nearest(v);
	mpq_clear(v);
	gx_volume_work_clear(&w);
	return true;
}

bool
gx_volume_in_box(const GxSerialized *g, const GxSolidIndex *index, const GxBox3D *box, double *out, GxError *err)
{
	GxSolidIndex own;
	GxVolumeWork w;
	const double *tri;
	size_t		n;

	*out = 0;
	if (!check_solid(g, err))
		return false;
	if (!(isfinite(box->xmin) && isfinite(box->ymin) && isfinite(box->zmin) && isfinite(box->xmax) &&
		  isfinite(box->ymax) && isfinite(box->zmax)) || box->xmin > box->xmax || box->ymin > box->ymax ||
		box->zmin > box->zmax)
	{
		gx_error_set(err, GX_ERR_ARG, "the box of a volume must be finite and not EMPTY");
		return false;
	}
	if (g->flags & GX_FLAG_EMPTY)
		return true;
	if (index == NULL)
	{
		tri = gx_solid_triangles(g, &n);
		if (!gx_solid_index_build(&own, tri, n, err))
			return false;
		index = &own;
	}
	gx_volume_work_init(&w);
	*out = gx_volume_in_box_nearest(index, box, &w);
	gx_volume_work_clear(&w);
	if (index == &own)
		gx_solid_index_free(&own);
	if (w.unlocated)
		gx_error_set(err, GX_ERR_INVALID, UNLOCATED);
	return !w.unlocated;
}

/*
 * Pairs box i with every solid whose box overlaps it and which holds some of its volume. With `deferred`,
 * a pair whose box the surface reaches, and which the filter can take, is listed there instead (its volume
 * is the GPU's to filter), with the volume 0 for now.
 */
static void
each_solid_over(const GxGrid *grid, const GxSolidIndex *solids, const GxBox3D *box, GxVolumeWork *w,
				GxPairList *mine, GxPairList *deferred, uint32_t i)
{
	int			lo[3],
				hi[3];

	if (!gx_box_overlaps(&grid->box, box))
		return;
	gx_grid_range(grid, box, lo, hi);
	for (int c2 = lo[2]; c2 <= hi[2]; c2++)
		for (int c1 = lo[1]; c1 <= hi[1]; c1++)
			for (int c0 = lo[0]; c0 <= hi[0]; c0++)
			{
				size_t		c = gx_grid_cell(grid, c0, c1, c2);

				for (size_t at = grid->start[c]; at < grid->start[c + 1]; at++)
				{
					uint32_t	k = grid->items[at];
					const GxSolidIndex *s = &solids[k];
					double		v;
					bool		positive;

					/* a solid spanning several cells is met in one of them */
					if (!gx_box_overlaps(&s->box, box) || !gx_grid_is_reference_cell(grid, &s->box, box, c0, c1, c2))
						continue;
					if (!surface_reaches(s, box))
						v = missed_box(s, box, w, &positive);
					else if (deferred && gx_volume_filter_in_range(&s->box, box))
					{
						gx_pair_list_push(deferred, i, k, 0);
						continue;
					}
					else
						v = reached_box(s, box, w, &positive);
					/* a positive exact volume that rounds to 0 is listed, with the volume 0 */
					if (positive)
						gx_pair_list_push(mine, i, k, v);
				}
			}
}

/* Every thread's lists: the pairs found, and those left for the GPU's filter. */
typedef struct Lists
{
	GxPairList *found,
			   *deferred;
	int			used;
} Lists;

static void
lists_free(Lists *l)
{
	for (int t = 0; t < l->used; t++)
	{
		free(l->found[t].v);
		free(l->deferred[t].v);
	}
	free(l->found);
	free(l->deferred);
}

/*
 * The GPU's filter over the deferred pairs d (solids side 1 of opt): verdict[i] and value[i] per pair; 1
 * done, 0 not (every verdict undecided: the CPU's filter takes them), -1 cancelled (err set).
 */
static int
filter_on_gpu(const GxVolumePair *d, size_t n, const GxBox3D *boxes, const GxSolidIndex *solids,
			  const GxBatchOptions *opt, uint8_t *verdict, double *value, GxError *err)
{
	double	   *box6 = malloc((6 * n + 1) * sizeof(double)),
			   *reach = malloc((n + 1) * sizeof(double));
	uint8_t    *down = malloc(n + 1);
	uint32_t   *solid = malloc((n + 1) * sizeof(uint32_t));
	int			r = 0;

	if (box6 && reach && down && solid)
	{
		for (size_t i = 0; i < n; i++)
		{
			const GxBox3D *b = &boxes[d[i].a];
			const GxSolidIndex *s = &solids[d[i].b];

			memcpy(box6 + 6 * i, b, sizeof(GxBox3D));
			/* the column runs to the solid's nearer end, as column_sum's does */
			down[i] = s->box.zmax - b->zmax > b->zmin - s->box.zmin;
			reach[i] = down[i] ? s->box.zmin : s->box.zmax;
			solid[i] = d[i].b;
		}
		r = gx_batch_gpu_volumes(opt, 1, box6, reach, down, solid, n, verdict, value, err);
	}
	free(box6);
	free(reach);
	free(down);
	free(solid);
	return r;
}

bool
gx_volume_pairs(const GxBox3D *boxes, size_t nboxes, const GxSolidIndex *solids, size_t nsolids,
				const GxBatchOptions *opt, GxVolumePair **out, size_t *nout, GxError *err)
{
	Lists		l = {NULL, NULL, 0};
	GxGrid		grid;
	GxVolumePair *deferred = NULL;
	uint8_t    *verdict = NULL;
	double	   *value = NULL;
	size_t		ndeferred = 0;
	bool		stopped = false,
				nomem = false,
				unlocated = false,
				gpu = opt->device_side[1] != NULL;
	int			r = 0;

	*out = NULL;
	*nout = 0;
	if (!gx_solids_grid(&grid, solids, nsolids, err))
		return false;
	if (grid.items == NULL)
		return true;			/* every solid is EMPTY */
	l.used = gx_threads_begin(opt->threads, opt->thread_budget);
	l.found = calloc(l.used, sizeof(GxPairList));
	l.deferred = calloc(l.used, sizeof(GxPairList));
	if (l.found == NULL || l.deferred == NULL)
	{
		gx_threads_end();
		gx_grid_free(&grid);
		lists_free(&l);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the volumes of %zu boxes", nboxes);
		return false;
	}
	/* each box against the solids over it; with a GPU, the boxes the surfaces reach are left for it */
	#pragma omp parallel num_threads(l.used)
	{
		GxPairList *mine = &l.found[omp_get_thread_num()];
		GxVolumeWork w;

		gx_volume_work_init(&w);
		#pragma omp for schedule(dynamic, 64)
		for (size_t i = 0; i < nboxes; i++)
		{
			if (stopped || mine->nomem)
				continue;
			if (gx_cancel_requested(&opt->cancel))
			{
				stopped = true;
				continue;
			}
			each_solid_over(&grid, solids, &boxes[i], &w, mine, gpu ? &l.deferred[omp_get_thread_num()] : NULL,
							(uint32_t) i);
		}
		if (w.unlocated)
		{
			#pragma omp atomic write
			unlocated = true;
		}
		gx_volume_work_clear(&w);
	}
	gx_grid_free(&grid);
	for (int t = 0; t < l.used; t++)
		nomem |= l.found[t].nomem || l.deferred[t].nomem;
	/* the GPU filters the deferred pairs; the CPU finishes those it could not round */
	if (gpu && !stopped && !nomem && (deferred = gx_pair_lists_gather(l.deferred, l.used, &ndeferred, &nomem)) != NULL &&
		ndeferred > 0)
	{
		verdict = malloc(ndeferred);
		value = malloc(ndeferred * sizeof(double));
		if (verdict == NULL || value == NULL)
			nomem = true;
		else if ((r = filter_on_gpu(deferred, ndeferred, boxes, solids, opt, verdict, value, err)) < 0)
			stopped = true;
	}
	if (ndeferred > 0 && !stopped && !nomem)
	{
		#pragma omp parallel num_threads(l.used)
		{
			GxPairList *mine = &l.found[omp_get_thread_num()];
			GxVolumeWork w;

			gx_volume_work_init(&w);
			#pragma omp for schedule(dynamic, 16)
			for (size_t i = 0; i < ndeferred; i++)
			{
				const GxSolidIndex *s = &solids[deferred[i].b];
				const GxBox3D *b = &boxes[deferred[i].a];
				double		v;
				bool		positive = true;	/* the GPU's ROUNDED verdict: the exact volume is > 0 */

				if (stopped || mine->nomem)
					continue;
				if (gx_cancel_requested(&opt->cancel))
				{
					stopped = true;
					continue;
				}
				if (r == 1 && verdict[i] == GX_VOLUME_ROUNDED)
				{
					gx_volume_stats.filtered_gpu++;
					v = value[i];
				}
				else if (r == 1)
					v = after_filter(s, b, (GxVolumeVerdict) verdict[i], 0, &w, &positive);
				else
					v = reached_box(s, b, &w, &positive);	/* the GPU could not: the CPU's filter */
				if (positive)
					gx_pair_list_push(mine, deferred[i].a, deferred[i].b, v);
			}
			if (w.unlocated)
			{
				#pragma omp atomic write
				unlocated = true;
			}
			gx_volume_work_clear(&w);
		}
	}
	gx_threads_end();
	free(deferred);
	free(verdict);
	free(value);
	for (int t = 0; t < l.used; t++)
		nomem |= l.found[t].nomem;
	if (!stopped && !nomem)
	{
		*out = gx_pair_lists_gather(l.found, l.used, nout, &nomem);
		/* each thread's pairs are in box order within its chunks: one sort puts them in (box, solid) order */
		if (*out)
			gx_pair_volumes_sort(*out, *nout);
	}
	lists_free(&l);
	if (stopped || nomem || unlocated)
	{
		free(*out);
		*out = NULL;
		*nout = 0;
		if (unlocated && !stopped && !nomem)
			gx_error_set(err, GX_ERR_INVALID, UNLOCATED);
		else if (stopped && err->code == GX_OK)
			gx_error_set(err, GX_ERR_CANCELLED, "volumes cancelled");
		else if (!stopped)
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for the volumes of %zu boxes", nboxes);
		return false;
	}
	return true;
}

bool
gx_volume_pairs_of_side(const GxBox3D *boxes, size_t nboxes, GxBatchSide *s, const GxBatchOptions *opt,
						GxVolumePair **out, size_t *nout, GxError *err)
{
	bool		own = s->index == NULL,
				ok;

	*out = NULL;
	*nout = 0;
	if (s->n == 0 || nboxes == 0)
		return true;			/* no box, or every solid EMPTY */
	ok = !own || gx_side_index_build(s, err);
	if (ok && s->index->solid == NULL)
	{
		gx_error_set(err, GX_ERR_INVALID, "the volumes of blocks in geometries that are not solids");
		ok = false;
	}
	ok = ok && gx_volume_pairs(boxes, nboxes, s->index->solid, s->ngeoms, opt, out, nout, err);
	if (own)
		gx_side_index_free(s);
	return ok;
}
