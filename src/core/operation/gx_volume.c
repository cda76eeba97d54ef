/*
 * gx_volume.c: exact volumes of solids, whole or inside a box (gx_volume.h): the integral of
 * clamp(z, zmin, zmax) - zmin over each triangle's projection clipped to the box's rectangle, in GMP
 * rationals, rounded once at the end.
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "geom/gx_box.h"
#include "operation/gx_volume.h"

#define MAX_POLY 12				/* a triangle clipped by 6 planes has at most 9 vertices (gx_volume.h) */

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

typedef mpq_t Vertex[3];

/* t = (b - a) x (c - a), its z component: twice the signed area of the projection of abc. */
static void
cross_z(mpq_t t, mpq_t u, mpq_t v, Vertex a, Vertex b, Vertex c)
{
	mpq_sub(u, b[0], a[0]);
	mpq_sub(v, c[1], a[1]);
	mpq_mul(t, u, v);
	mpq_sub(u, b[1], a[1]);
	mpq_sub(v, c[0], a[0]);
	mpq_mul(u, u, v);
	mpq_sub(t, t, u);
}

/*
 * Sutherland-Hodgman: the part of polygon in (n vertices) on the kept side of the plane coordinate[axis] =
 * bound (>= bound when ge, else <=), into out; returns its vertex count. Vertices on the plane are kept;
 * a crossing edge adds the exact rational point where it meets the plane.
 */
static int
clip(GxVolumeWork *w, Vertex *in, int n, Vertex *out, int axis, mpq_srcptr bound, bool ge)
{
	int			m = 0;

	for (int i = 0; i < n; i++)
	{
		Vertex	   *p = &in[i],
				   *q = &in[(i + 1) % n];
		int			sp = mpq_cmp((*p)[axis], bound),
					sq = mpq_cmp((*q)[axis], bound);
		bool		pin = ge ? sp >= 0 : sp <= 0,
					qin = ge ? sq >= 0 : sq <= 0;

		if (pin)
		{
			for (int k = 0; k < 3; k++)
				mpq_set(out[m][k], (*p)[k]);
			m++;
		}
		if (pin != qin && sp != 0 && sq != 0)
		{
			/* t = (bound - p) / (q - p); r = p + t (q - p) */
			mpq_sub(w->t, bound, (*p)[axis]);
			mpq_sub(w->u, (*q)[axis], (*p)[axis]);
			mpq_div(w->t, w->t, w->u);
			for (int k = 0; k < 3; k++)
			{
				if (k == axis)
				{
					mpq_set(out[m][k], bound);
					continue;
				}
				mpq_sub(w->u, (*q)[k], (*p)[k]);
				mpq_mul(w->u, w->u, w->t);
				mpq_add(out[m][k], (*p)[k], w->u);
			}
			m++;
		}
	}
	return m;
}

/*
 * Adds to w->sum the integral over the projection of the polygon (n vertices, planar) of its z - base (or,
 * when constant is not NULL, of that constant), signed by the projection's orientation: over each fan
 * triangle, its signed area times the mean of the integrand at its vertices.
 */
static void
add_integral(GxVolumeWork *w, Vertex *p, int n, mpq_srcptr base, mpq_srcptr constant)
{
	for (int i = 1; i + 1 < n; i++)
	{
		cross_z(w->v, w->t, w->u, p[0], p[i], p[i + 1]);
		if (mpq_sgn(w->v) == 0)
			continue;
		if (constant)
		{
			mpq_set_ui(w->t, 3, 1);
			mpq_mul(w->f, constant, w->t);
		}
		else
		{
			mpq_add(w->f, p[0][2], p[i][2]);
			mpq_add(w->f, w->f, p[i + 1][2]);
			mpq_set_ui(w->u, 3, 1);
			mpq_mul(w->t, base, w->u);
			mpq_sub(w->f, w->f, w->t);
		}
		mpq_mul(w->f, w->f, w->v);	/* 2 area * 3 mean: six times the integral */
		mpq_add(w->sum, w->sum, w->f);
	}
}

static void
load_triangle(Vertex *p, const double *t)
{
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 3; k++)
			mpq_set_d(p[i][k], t[3 * i + k]);
}

void
gx_volume_exact(const double *tri, size_t n, GxVolumeWork *w, mpq_t out)
{
	mpq_t		zero;

	mpq_init(zero);
	mpq_set_ui(w->sum, 0, 1);
	for (size_t i = 0; i < n; i++)
	{
		load_triangle(w->poly[0], tri + 9 * i);
		add_integral(w, w->poly[0], 3, zero, NULL);
	}
	mpq_set_ui(w->t, 6, 1);
	mpq_div(out, w->sum, w->t);
	mpq_clear(zero);
}

/* The box's bounds as rationals: lo[k], hi[k]. */
typedef struct Bounds
{
	mpq_t		lo[3],
				hi[3],
				height;			/* zmax - zmin */
} Bounds;

/* Adds six times triangle t's share of the volume inside the box to w->sum. */
static void
add_triangle_in_box(GxVolumeWork *w, const double *t, const GxBox3D *box, const Bounds *b)
{
	Vertex	   *p = w->poly[0],
			   *q = w->poly[1],
			   *r = w->poly[2],
			   *swap;
	const double lo[3] = {box->xmin, box->ymin, box->zmin},
				hi[3] = {box->xmax, box->ymax, box->zmax};
	double		zlo = fmin(t[2], fmin(t[5], t[8])),
				zhi = fmax(t[2], fmax(t[5], t[8]));
	int			n = 3,
				m;

	if (zhi <= lo[2])
		return;					/* wholly below the box: the integrand is 0 */
	load_triangle(p, t);
	/* the rectangle: a side is clipped only when the triangle crosses it */
	for (int k = 0; k < 2 && n >= 3; k++)
	{
		double		tmin = fmin(t[k], fmin(t[3 + k], t[6 + k])),
					tmax = fmax(t[k], fmax(t[3 + k], t[6 + k]));

		if (tmin < lo[k])
		{
			n = clip(w, p, n, q, k, b->lo[k], true);
			swap = p, p = q, q = swap;
		}
		if (tmax > hi[k] && n >= 3)
		{
			n = clip(w, p, n, q, k, b->hi[k], false);
			swap = p, p = q, q = swap;
		}
	}
	if (n < 3)
		return;
	if (zlo >= hi[2])
	{
		add_integral(w, p, n, NULL, b->height);	/* wholly above: the box's height */
		return;
	}
	if (zlo >= lo[2] && zhi <= hi[2])
	{
		add_integral(w, p, n, b->lo[2], NULL);	/* wholly within: z - zmin */
		return;
	}
	m = clip(w, p, n, q, 2, b->lo[2], true);	/* the part above zmin */
	if (zhi <= hi[2])
	{
		add_integral(w, q, m, b->lo[2], NULL);
		return;
	}
	add_integral(w, r, clip(w, q, m, r, 2, b->hi[2], false), b->lo[2], NULL);
	add_integral(w, r, clip(w, p, n, r, 2, b->hi[2], true), NULL, b->height);
}

typedef struct Column
{
	GxVolumeWork *w;
	const GxSolidIndex *s;
	const GxBox3D *box;
	const Bounds *b;
	bool		meets;			/* some triangle's box meets the box itself */
} Column;

static bool
column_visit(void *ctx, size_t i)
{
	Column	   *c = ctx;

	if (c->s->boxes[i].zmin <= c->box->zmax)
		c->meets = true;
	add_triangle_in_box(c->w, c->s->tri + 9 * i, c->box, c->b);
	return true;
}

/* out = the box's own volume, exactly. */
static void
box_volume(const Bounds *b, mpq_t out, mpq_t tmp)
{
	mpq_sub(out, b->hi[0], b->lo[0]);
	mpq_sub(tmp, b->hi[1], b->lo[1]);
	mpq_mul(out, out, tmp);
	mpq_mul(out, out, b->height);
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

void
gx_volume_in_box_exact(const GxSolidIndex *s, const GxBox3D *box, GxVolumeWork *w, mpq_t out)
{
	Bounds		b;
	GxBox3D		column = *box;
	Column		c = {w, s, box, &b, false};
	const double lo[3] = {box->xmin, box->ymin, box->zmin},
				hi[3] = {box->xmax, box->ymax, box->zmax};

	mpq_set_ui(out, 0, 1);
	if (s->n == 0 || !gx_box_overlaps(&s->box, box))
		return;
	for (int k = 0; k < 3; k++)
	{
		mpq_init(b.lo[k]);
		mpq_init(b.hi[k]);
		mpq_set_d(b.lo[k], lo[k]);
		mpq_set_d(b.hi[k], hi[k]);
	}
	mpq_init(b.height);
	mpq_sub(b.height, b.hi[2], b.lo[2]);
	mpq_set_ui(w->sum, 0, 1);
	/*
	 * Most blocks of a model are far from the surface: when no triangle's box reaches the box, the surface
	 * misses it (below), and the column's integral is not needed. Else every triangle over the rectangle
	 * that reaches above zmin.
	 */
	if (surface_reaches(s, box))
	{
		column.zmax = fmax(box->zmax, s->box.zmax);
		gx_solid_index_search(s, &column, column_visit, &c);
	}
	if (c.meets)
	{
		mpq_set_ui(w->t, 6, 1);
		mpq_div(out, w->sum, w->t);
	}
	else
	{
		/* the surface misses the closed box: it lies wholly inside or wholly outside */
		double		corner[3] = {box->xmin, box->ymin, box->zmin};

		if (gx_solid_locate(s, corner) == GX_LOC_INSIDE)
			box_volume(&b, out, w->t);
	}
	for (int k = 0; k < 3; k++)
	{
		mpq_clear(b.lo[k]);
		mpq_clear(b.hi[k]);
	}
	mpq_clear(b.height);
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
	mpq_t		v;

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
	mpq_init(v);
	gx_volume_in_box_exact(index, box, &w, v);
	*out = gx_mpq_get_d_nearest(v);
	mpq_clear(v);
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

bool
gx_volume_pairs(const GxBox3D *boxes, size_t nboxes, const GxSolidIndex *solids, size_t nsolids, int threads,
				const char *budget_dir, const GxCancel *cancel, GxVolumePair **out, size_t *nout, GxError *err)
{
	PairList   *lists;
	int			used = gx_threads_begin(threads, budget_dir);
	bool		stopped = false,
				nomem = false;
	size_t		total = 0;

	*out = NULL;
	*nout = 0;
	lists = calloc(used, sizeof(PairList));
	if (lists == NULL)
	{
		gx_threads_end();
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the volumes of %zu boxes", nboxes);
		return false;
	}
	#pragma omp parallel num_threads(used)
	{
		PairList   *mine = &lists[omp_get_thread_num()];
		GxVolumeWork w;
		mpq_t		v;

		gx_volume_work_init(&w);
		mpq_init(v);
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
			for (size_t k = 0; k < nsolids; k++)
			{
				if (solids[k].n == 0 || !gx_box_overlaps(&solids[k].box, &boxes[i]))
					continue;
				gx_volume_in_box_exact(&solids[k], &boxes[i], &w, v);
				if (mpq_sgn(v) > 0)
					push_pair(mine, (uint32_t) i, (uint32_t) k, gx_mpq_get_d_nearest(v));
			}
		}
		mpq_clear(v);
		gx_volume_work_clear(&w);
	}
	gx_threads_end();
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
