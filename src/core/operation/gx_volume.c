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
#include "geom/gx_box.h"
#include "index/gx_grid.h"
#include "operation/gx_volume_filter.h"

/* The polygon buffers as one flat array of rationals, for init and clear. */
#define POLY_RATIONALS(w) (sizeof((w)->poly) / sizeof((w)->poly[0][0][0]))

void
gx_volume_work_init(GxVolumeWork *w)
{
	mpq_t	   *q = &w->poly[0][0][0];

	for (size_t i = 0; i < POLY_RATIONALS(w); i++)
		mpq_init(q[i]);
	mpq_inits(w->t, w->u, w->v, w->f, w->sum, NULL);
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

/* Does the box of some triangle of s overlap box? */
static bool
surface_reaches(const GxSolidIndex *s, const GxBox3D *box)
{
	bool		found = false;

	gx_solid_index_search(s, box, stop_at_first, &found);
	return found;
}

/* Is the lowest corner of box, a box the surface misses, inside the solid? */
static bool
corner_inside(const GxSolidIndex *s, const GxBox3D *box)
{
	double		corner[3] = {box->xmin, box->ymin, box->zmin};

	return gx_solid_locate(s, corner) == GX_LOC_INSIDE;
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
	else if (corner_inside(s, box))
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

/* The exact volume, rounded once. */
/* The box's own volume (reaches false) or the column's integral (true), exact, rounded to nearest. */
static double
rounded_exact(const GxSolidIndex *s, const GxBox3D *box, bool reaches, GxVolumeWork *w)
{
	mpq_t		v;
	double		d;

	mpq_init(v);
	if (reaches)
		column_volume(s, box, w, v);
	else
		gx_box_volume_exact(box, w, v);
	d = gx_mpq_get_d_nearest(v);
	mpq_clear(v);
	return d;
}

double
gx_volume_in_box_nearest(const GxSolidIndex *s, const GxBox3D *box, GxVolumeWork *w)
{
	double		v;
	bool		reaches;

	if (s->n == 0 || !gx_box_overlaps(&s->box, box))
		return 0;
	reaches = surface_reaches(s, box);
	if (!reaches)
	{
		gx_volume_stats.located++;
		if (!corner_inside(s, box))
			return 0;
		if (gx_box_volume_filter(box, &v))
			return v;
	}
	else
	{
		switch (gx_volume_in_box_filter(s, box, &w->filter, &v))
		{
			case GX_VOLUME_ROUNDED:
				gx_volume_stats.filtered++;
				return v;
			case GX_VOLUME_NEAR_ZERO:
				if (surface_meets_open_box(s, box))
					break;
				gx_volume_stats.open_box_empty++;
				return 0;
			case GX_VOLUME_UNDECIDED:
				break;
		}
	}
	gx_volume_stats.exact++;
	return rounded_exact(s, box, reaches, w);
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
	return true;
}

static int
compare_pairs(const void *x, const void *y)
{
	const GxVolumePair *a = x,
			   *b = y;

	if (a->box != b->box)
		return a->box < b->box ? -1 : 1;
	return a->solid < b->solid ? -1 : a->solid > b->solid;
}

/* One thread's pairs (malloc: worker threads must not use gx_alloc). */
typedef struct PairList
{
	GxVolumePair *v;
	size_t		n,
				cap;
	bool		nomem;
} PairList;

static void
push_pair(PairList *l, uint32_t box, uint32_t solid, double volume)
{
	if (l->n == l->cap)
	{
		size_t		cap = l->cap ? 2 * l->cap : 256;
		GxVolumePair *v = realloc(l->v, cap * sizeof(GxVolumePair));

		if (v == NULL)
		{
			l->nomem = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (GxVolumePair) {box, solid, volume};
}

/*
 * A grid over the solids' boxes, about four cells a solid, for finding the solids a box overlaps; items NULL
 * when every solid is EMPTY.
 */
static bool
solids_grid(GxGrid *grid, const GxSolidIndex *solids, size_t nsolids, GxError *err)
{
	GxBox3D		extent,
			   *boxes;
	int			dim[3];
	bool		ok;

	memset(grid, 0, sizeof(*grid));
	gx_box_set_empty(&extent);
	for (size_t k = 0; k < nsolids; k++)
		if (solids[k].n > 0)
			gx_box_extend(&extent, &solids[k].box);
	if (gx_box_is_empty(&extent))
		return true;
	if ((boxes = malloc(nsolids * sizeof(GxBox3D) + 1)) == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the boxes of %zu solids", nsolids);
		return false;
	}
	for (size_t k = 0; k < nsolids; k++)
		boxes[k] = solids[k].box;
	gx_grid_choose_dims(&extent, 4.0 * nsolids, dim);
	ok = gx_grid_build(grid, &extent, dim, boxes, nsolids, NULL, err);
	free(boxes);
	return ok;
}

/* Pairs box i with every solid whose box overlaps it and which holds some of its volume. */
static void
each_solid_over(const GxGrid *grid, const GxSolidIndex *solids, const GxBox3D *box, GxVolumeWork *w,
				PairList *mine, uint32_t i)
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
					double		v;

					/* a solid spanning several cells is met in one of them */
					if (!gx_box_overlaps(&solids[k].box, box) ||
						!gx_grid_is_reference_cell(grid, &solids[k].box, box, c0, c1, c2))
						continue;
					v = gx_volume_in_box_nearest(&solids[k], box, w);
					if (v > 0)
						push_pair(mine, i, k, v);
				}
			}
}

bool
gx_volume_pairs(const GxBox3D *boxes, size_t nboxes, const GxSolidIndex *solids, size_t nsolids, int threads,
				const char *budget_dir, const GxCancel *cancel, GxVolumePair **out, size_t *nout, GxError *err)
{
	PairList   *lists;
	GxGrid		grid;
	int			used;
	bool		stopped = false,
				nomem = false;
	size_t		total = 0;

	*out = NULL;
	*nout = 0;
	if (!solids_grid(&grid, solids, nsolids, err))
		return false;
	if (grid.items == NULL)
		return true;			/* every solid is EMPTY */
	used = gx_threads_begin(threads, budget_dir);
	lists = calloc(used, sizeof(PairList));
	if (lists == NULL)
	{
		gx_threads_end();
		gx_grid_free(&grid);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the volumes of %zu boxes", nboxes);
		return false;
	}
	#pragma omp parallel num_threads(used)
	{
		PairList   *mine = &lists[omp_get_thread_num()];
		GxVolumeWork w;

		gx_volume_work_init(&w);
		#pragma omp for schedule(dynamic, 64)
		for (size_t i = 0; i < nboxes; i++)
		{
			if (stopped || mine->nomem)
				continue;
			if (gx_cancel_requested(cancel))
			{
				stopped = true;
				continue;
			}
			each_solid_over(&grid, solids, &boxes[i], &w, mine, (uint32_t) i);
		}
		gx_volume_work_clear(&w);
	}
	gx_threads_end();
	gx_grid_free(&grid);
	for (int t = 0; t < used; t++)
	{
		nomem |= lists[t].nomem;
		total += lists[t].n;
	}
	if (!stopped && !nomem && total > 0 && (*out = malloc(total * sizeof(GxVolumePair))) == NULL)
		nomem = true;
	for (int t = 0; t < used; t++)
	{
		if (*out)
			memcpy(*out + *nout, lists[t].v, lists[t].n * sizeof(GxVolumePair));
		if (*out)
			*nout += lists[t].n;
		free(lists[t].v);
	}
	free(lists);
	if (stopped || nomem)
	{
		free(*out);
		*out = NULL;
		*nout = 0;
		if (stopped)
			gx_error_set(err, GX_ERR_CANCELLED, "volumes cancelled");
		else
			gx_error_set(err, GX_ERR_NOMEM, "out of memory for the volumes of %zu boxes", nboxes);
		return false;
	}
	/* each thread's pairs are in box order within its chunks: one sort puts them in (box, solid) order */
	qsort(*out, *nout, sizeof(GxVolumePair), compare_pairs);
	return true;
}
