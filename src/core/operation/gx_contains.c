/*
 * gx_contains.c: containment (gx_contains.h). b lies in a when each of its elements does:
 * - in a solid's closed volume: a point when it is not outside (gx_solid_locate); a segment when every gap
 *   between its crossings with the surface is inside (gx_segment_in_solid, as gx_intercepts decides); a
 *   triangle as gx_triangle_in_solid.c decides; and a solid b when, besides, no region outside a lies in
 *   b: when b's surface lies in a's interior, no vertex of a lies inside b (a shell of a inside b would be
 *   a cavity of b); when it touches a's surface, the outer side of a's triangles (outside_reaches_inside);
 * - in a lower-dimensional a: a point when it meets an element of a; a segment when the parameters of its
 *   pieces lying in a's elements (collinear segments, coplanar triangles: exact rationals) cover [0, 1]; a
 *   triangle when its edges are covered and one coplanar triangle of a holds its vertices (convex, so all
 *   of it).
 * What these tests do not settle (gx_contains.h) is GX_ERR_UNSUPPORTED rather than a guess.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_elements.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_primitives.h"
#include "algorithm/gx_projection.h"
#include "base/gx_alloc.h"
#include "geom/gx_box.h"
#include "operation/gx_contains.h"
#include "operation/gx_intercepts.h"
#include "operation/gx_volume.h"

/* --- in a solid ------------------------------------------------------------------------------------- */

/* Does element e lie in the solid? *touches is set when a triangle meets the solid's surface. */
static int
element_in_solid(const GxSolidIndex *s, GxElem e, bool *touches, GxError *err)
{
	bool		met = false;
	int			r;

	GxLocation	loc;

	switch (e.kind)
	{
		case 1:
			loc = gx_solid_locate(s, e.c);
			if (loc == GX_LOC_FAILED)
			{
				gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
				return -1;
			}
			return loc != GX_LOC_OUTSIDE;
		case 2:
			return gx_segment_in_solid(s, e.c, e.c + 3, err);
		default:
			r = gx_triangle_in_solid(s, e.c, &met, err);
			*touches |= met;
			return r;
	}
}

/* b's surface lies in the interior of solid s (checked before): is some vertex of s inside b? */
static int
vertex_inside(const GxSolidIndex *s, const GxSerialized *b, GxError *err)
{
	GxSolidIndex bi;
	size_t		n;
	const double *tri = gx_solid_triangles(b, &n);
	int			result = 0;

	if (!gx_solid_index_build(&bi, tri, n, err))
		return -1;
	for (size_t i = 0; i < 3 * s->n && result == 0; i++)
	{
		const double *p = s->tri + 3 * i;
		GxLocation	loc;

		if (p[0] < b->box.xmin || p[0] > b->box.xmax || p[1] < b->box.ymin || p[1] > b->box.ymax ||
			p[2] < b->box.zmin || p[2] > b->box.zmax)
			continue;
		loc = gx_solid_locate(&bi, p);
		if (loc == GX_LOC_FAILED)
		{
			gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
			result = -1;
		}
		else if (loc != GX_LOC_OUTSIDE)
			result = 1;
	}
	gx_solid_index_free(&bi);
	return result;
}

/*
 * Where a point c of a's triangle tau, c = tau0 + t (tau1 - tau0) + u (tau2 - tau0), lies on b's surface:
 * a triangle sigma of b holding c (closed). Exact: orientations are affine in the point, so c's are the
 * weighted sums of tau's vertices' (weights 1 - t - u, t, u).
 */
typedef struct OnSurface
{
	const GxSolidIndex *b;
	const double *tau;
	int			found;			/* 0 none, 1 sigma coplanar with tau holds c strictly inside (same
								 * facing), 2 (opposite facing), 3 c on b's surface otherwise */
	mpq_t		w[3],
				v,
				sum;
} OnSurface;

/*
 * The sign of orient2d(p, q, c) (drop) or, drop < 0, orient3d(p, q, r, c): from the signs at tau's vertices
 * when they agree (the weights are positive), else from the exact weighted sum.
 */
static int
weighted_sign(OnSurface *o, const double *p, const double *q, const double *r, int drop)
{
	int			s[3];

	for (int k = 0; k < 3; k++)
		s[k] = drop < 0 ? gx_orient3d(p, q, r, o->tau + 3 * k) : gx_orient2d(p, q, o->tau + 3 * k, drop);
	if (s[0] == s[1] && s[1] == s[2])
		return s[0];
	mpq_set_ui(o->sum, 0, 1);
	for (int k = 0; k < 3; k++)
	{
		if (drop < 0)
			gx_orient3d_value(p, q, r, o->tau + 3 * k, o->v);
		else
			gx_orient2d_value(p, q, o->tau + 3 * k, drop, o->v);
		mpq_mul(o->v, o->v, o->w[k]);
		mpq_add(o->sum, o->sum, o->v);
	}
	return mpq_sgn(o->sum);
}

static bool
on_surface_visit(void *ctx, size_t i)
{
	OnSurface  *o = ctx;
	const double *sg = o->b->tri + 9 * i;
	int			sigma,
				drop,
				coplanar = 1,
				strict = 1;

	if (weighted_sign(o, sg, sg + 3, sg + 6, -1) != 0 || (drop = gx_triangle_projection(sg, &sigma)) < 0)
		return true;			/* c is off sigma's plane, or sigma is flat (its edges hold c only if others do) */
	for (int k = 0; k < 3; k++)
	{
		int			e = weighted_sign(o, sg + 3 * k, sg + 3 * ((k + 1) % 3), NULL, drop) * sigma;

		if (e < 0)
			return true;		/* c is outside sigma */
		strict &= e > 0;
	}
	for (int k = 0; k < 3; k++)
		coplanar &= gx_orient3d(sg, sg + 3, sg + 6, o->tau + 3 * k) == 0;
	if (coplanar && strict)
	{
		/* tau lies in sigma's plane: sigma's projection is one-to-one on tau too */
		int			tau_sigma = gx_orient2d(o->tau, o->tau + 3, o->tau + 6, drop);

		o->found = tau_sigma == sigma ? 1 : 2;
		return false;
	}
	o->found = 3;
	return true;
}

/*
 * b's surface lies in solid a and touches a's surface: does b's inside reach outside a? Each region outside
 * a lies wholly inside or wholly outside b (b's surface does not enter it), and a triangle tau of a's
 * surface bounding it has that region on its outer side (a's triangles face outward, its cavities'
 * inward). So for each triangle of a near b, a point c of its inside: strictly inside b, the region beside
 * it is inside b (1); outside b, not (for this region); on a triangle of b in tau's plane, holding c
 * strictly inside, the region is inside b exactly when the two face opposite ways. A c on b's surface in
 * any other way (on an edge of b) is tried again at other points of tau; when none serves: -1 with
 * GX_ERR_UNSUPPORTED, unless another triangle found the answer 1.
 */
static int
outside_reaches_inside(const GxSolidIndex *s, const GxSerialized *b, GxError *err)
{
	/* points of tau as (t, u): the centroid first, then points off the lines a lattice puts through it */
	static const long at[][4] = {{1, 3, 1, 3}, {2, 7, 3, 11}, {5, 13, 2, 9}, {3, 17, 7, 19}};
	GxSolidIndex bi;
	size_t		n;
	const double *tri = gx_solid_triangles(b, &n);
	OnSurface	o = {.b = &bi};
	bool		unknown = false;
	int			result = 0;
	mpq_t		t,
				u;

	if (!gx_solid_index_build(&bi, tri, n, err))
		return -1;
	mpq_inits(o.w[0], o.w[1], o.w[2], o.v, o.sum, t, u, NULL);
	for (size_t i = 0; i < s->n && result == 0; i++)
	{
		GxBox3D		box = gx_box_of_points(s->tri + 9 * i, 3);

		if (!gx_box_overlaps(&box, &b->box))
			continue;
		o.tau = s->tri + 9 * i;
		o.found = 3;
		for (size_t k = 0; k < sizeof(at) / sizeof(at[0]) && o.found == 3; k++)
		{
			mpq_set_ui(t, at[k][0], at[k][1]);
			mpq_set_ui(u, at[k][2], at[k][3]);
			mpq_set(o.w[1], t);
			mpq_set(o.w[2], u);
			mpq_set_ui(o.w[0], 1, 1);
			mpq_sub(o.w[0], o.w[0], t);
			mpq_sub(o.w[0], o.w[0], u);
			o.found = 0;
			gx_solid_index_search(&bi, &box, on_surface_visit, &o);
		}
		if (o.found == 2)
			result = 1;
		else if (o.found == 3)
			unknown = true;
		else if (o.found == 0)
		{
			GxLocation	loc = gx_solid_locate_in_triangle(&bi, o.tau, t, u);

			if (loc == GX_LOC_FAILED)
			{
				gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
				result = -1;
			}
			else if (loc == GX_LOC_INSIDE)
				result = 1;
		}
	}
	if (result == 0 && unknown)
	{
		gx_error_set(err, GX_ERR_UNSUPPORTED, "containment of a solid whose surface touches the other solid's "
					 "surface along edges at every point tried of one of its triangles is not decided");
		result = -1;
	}
	mpq_clears(o.w[0], o.w[1], o.w[2], o.v, o.sum, t, u, NULL);
	gx_solid_index_free(&bi);
	return result;
}

/* --- in points, lines and surfaces ------------------------------------------------------------------ */

static bool
point_on(const GxElements *a, const double *p)
{
	for (size_t i = 0; i < a->n; i++)
		if (gx_elements_intersect(p, 1, a->elems[i].c, a->elems[i].kind))
			return true;
	return false;
}

typedef struct Interval
{
	mpq_t		lo,
				hi;
} Interval;

typedef struct Cover
{
	Interval   *v;
	size_t		n,
				cap;
	bool		nomem;
} Cover;

static Interval *
cover_add(Cover *c)
{
	if (!gx_grow((void **) &c->v, &c->cap, c->n + 1, sizeof(Interval), SIZE_MAX / sizeof(Interval)))
	{
		c->nomem = true;
		return NULL;
	}
	mpq_inits(c->v[c->n].lo, c->v[c->n].hi, NULL);
	return &c->v[c->n++];
}

/* r's parameter along p q (r on that line): (r - p).(q - p) / |q - p|^2, exactly. */
static void
line_parameter(const double *p, const double *q, const double *r, mpq_ptr out)
{
	mpq_t		d,
				e,
				num,
				den;

	mpq_inits(d, e, num, den, NULL);
	for (int k = 0; k < 3; k++)
	{
		mpq_set_d(d, q[k]);
		mpq_set_d(e, p[k]);
		mpq_sub(d, d, e);		/* q - p */
		mpq_set_d(out, r[k]);
		mpq_sub(e, out, e);		/* r - p */
		mpq_mul(e, e, d);
		mpq_add(num, num, e);
		mpq_mul(d, d, d);
		mpq_add(den, den, d);
	}
	mpq_div(out, num, den);
	mpq_clears(d, e, num, den, NULL);
}

/* The part of p q (p != q) on segment r s, when r s lies on its line. */
static void
collinear_interval(Cover *c, const double *p, const double *q, const double *r, const double *s)
{
	Interval   *iv;

	for (int drop = 0; drop < 3; drop++)
		if (gx_orient2d(p, q, r, drop) != 0 || gx_orient2d(p, q, s, drop) != 0)
			return;
	if ((iv = cover_add(c)) == NULL)
		return;
	line_parameter(p, q, r, iv->lo);
	line_parameter(p, q, s, iv->hi);
	if (mpq_cmp(iv->lo, iv->hi) > 0)
		mpq_swap(iv->lo, iv->hi);
}

static int
cmp_interval(const void *x, const void *y)
{
	return mpq_cmp(((const Interval *) x)->lo, ((const Interval *) y)->lo);
}

/* Whether segment p q lies in the union of a's elements: 1, 0, or -1 for memory. */
static int
segment_covered(const GxElements *a, const double *p, const double *q)
{
	Cover		c = {NULL, 0, 0, false};
	mpq_t		reach,
				lo,
				hi;
	int			result;

	if (p[0] == q[0] && p[1] == q[1] && p[2] == q[2])
		return point_on(a, p);
	mpq_inits(reach, lo, hi, NULL);
	for (size_t i = 0; i < a->n && !c.nomem; i++)
	{
		const double *t = a->elems[i].c;
		int			sigma,
					drop;
		Interval   *iv;

		if (a->elems[i].kind == 2)
			collinear_interval(&c, p, q, t, t + 3);
		else if (a->elems[i].kind == 3 && gx_triangle_flat(t))
			for (int k = 0; k < 3; k++)
				collinear_interval(&c, p, q, t + 3 * k, t + 3 * ((k + 1) % 3));
		else if (a->elems[i].kind == 3 && gx_orient3d(t, t + 3, t + 6, p) == 0 &&
				 gx_orient3d(t, t + 3, t + 6, q) == 0 && (drop = gx_triangle_projection(t, &sigma)) >= 0 &&
				 gx_segment_clip_coplanar(p, q, t, drop, sigma, lo, hi) && (iv = cover_add(&c)) != NULL)
		{
			mpq_set(iv->lo, lo);
			mpq_set(iv->hi, hi);
		}
	}
	/* sweep: the intervals by their starts, none may begin past what those before reach */
	qsort(c.v, c.n, sizeof(Interval), cmp_interval);
	for (size_t i = 0; i < c.n && mpq_cmp(c.v[i].lo, reach) <= 0; i++)
		if (mpq_cmp(c.v[i].hi, reach) > 0)
			mpq_set(reach, c.v[i].hi);
	result = c.nomem ? -1 : mpq_cmp_ui(reach, 1, 1) >= 0;
	for (size_t i = 0; i < c.n; i++)
		mpq_clears(c.v[i].lo, c.v[i].hi, NULL);
	gx_free(c.v);
	mpq_clears(reach, lo, hi, NULL);
	return result;
}

static int
triangle_covered(const GxElements *a, const double *t, GxError *err)
{
	for (int k = 0; k < 3; k++)
	{
		int			r = segment_covered(a, t + 3 * k, t + 3 * ((k + 1) % 3));

		if (r <= 0)
		{
			if (r < 0)
				gx_error_set(err, GX_ERR_NOMEM, "out of memory testing containment");
			return r;
		}
	}
	if (gx_triangle_flat(t))
		return 1;
	for (size_t i = 0; i < a->n; i++)
		if (a->elems[i].kind == 3 && gx_elements_intersect(t, 1, a->elems[i].c, 3) &&
			gx_elements_intersect(t + 3, 1, a->elems[i].c, 3) && gx_elements_intersect(t + 6, 1, a->elems[i].c, 3))
			return 1;
	gx_error_set(err, GX_ERR_UNSUPPORTED, "containment of a triangle in a surface that covers it only with "
				 "several triangles is not decided");
	return -1;
}

static int
element_covered(const GxElements *a, GxElem e, GxError *err)
{
	int			r;

	switch (e.kind)
	{
		case 1:
			return point_on(a, e.c);
		case 2:
			if ((r = segment_covered(a, e.c, e.c + 3)) < 0)
				gx_error_set(err, GX_ERR_NOMEM, "out of memory testing containment");
			return r;
		default:
			return triangle_covered(a, e.c, err);
	}
}

/* --- the entry points ------------------------------------------------------------------------------- */

int
gx_contains(const GxSerialized *a, const GxSolidIndex *a_index, const GxSerialized *b, GxError *err)
{
	GxElements	eb = {NULL, 0},
				ea = {NULL, 0};
	GxSolidIndex own;
	const GxSolidIndex *s = NULL;
	bool		solid = (a->flags & GX_FLAG_SOLID) != 0,
				built = false,
				touches = false;
	int			result = 1;

	if (!gx_srids_match(a, b, err))
		return -1;
	if ((a->flags & GX_FLAG_EMPTY) || (b->flags & GX_FLAG_EMPTY) || !gx_box_contains(&a->box, &b->box))
		return 0;
	if (!gx_elements_collect(b, NULL, &eb, err))
		return -1;
	if (solid)
	{
		size_t		n;
		const double *tri;

		s = a_index;
		if (s == NULL)
		{
			tri = gx_solid_triangles(a, &n);
			built = gx_solid_index_build(&own, tri, n, err);
			result = built ? 1 : -1;
			s = &own;
		}
	}
	else if (!gx_elements_collect(a, &b->box, &ea, err))
		result = -1;
	for (size_t i = 0; i < eb.n && result == 1; i++)
		result = solid ? element_in_solid(s, eb.elems[i], &touches, err) : element_covered(&ea, eb.elems[i], err);
	/*
	 * A solid b also holds its inside: no region outside a may lie there. When b's surface lies in a's
	 * interior, a vertex of a in b says so; when it touches a's surface, the outer side of a's triangles
	 * (outside_reaches_inside).
	 */
	if (result == 1 && solid && (b->flags & GX_FLAG_SOLID) && touches)
	{
		int			r = outside_reaches_inside(s, b, err);

		result = r < 0 ? -1 : !r;
	}
	else if (result == 1 && solid && (b->flags & GX_FLAG_SOLID))
	{
		int			r = vertex_inside(s, b, err);

		result = r < 0 ? -1 : !r;
	}
	if (built)
		gx_solid_index_free(&own);
	gx_elements_free(&eb);
	gx_elements_free(&ea);
	return result;
}

int
gx_solid_contains_box(const GxSolidIndex *s, const GxBox3D *box, GxError *err)
{
	double		x0 = box->xmin, y0 = box->ymin, z0 = box->zmin,
				x1 = box->xmax, y1 = box->ymax, z1 = box->zmax;
	int			flat_axes = (x0 == x1) + (y0 == y1) + (z0 == z1);

	if (!gx_box_contains(&s->box, box))
		return 0;
	if (flat_axes == 0)
	{
		GxVolumeWork w;
		mpq_t		inside,
					own;
		int			result;

		mpq_inits(inside, own, NULL);
		gx_volume_work_init(&w);
		gx_box_volume_exact(box, &w, own);
		gx_volume_in_box_exact(s, box, &w, inside);
		gx_volume_work_clear(&w);
		result = mpq_equal(inside, own) != 0;
		mpq_clears(inside, own, NULL);
		return result;
	}
	if (flat_axes == 1)
	{
		/* a rectangle: its two triangles, on the plane of the flat axis */
		double		q[4][3];
		double		t[2][9];
		int			f = x0 == x1 ? 0 : y0 == y1 ? 1 : 2,
					u = (f + 1) % 3,
					v = (f + 2) % 3;
		const double lo[3] = {x0, y0, z0},
					hi[3] = {x1, y1, z1};

		for (int c = 0; c < 4; c++)
		{
			q[c][f] = lo[f];
			q[c][u] = (c == 1 || c == 2) ? hi[u] : lo[u];
			q[c][v] = (c >= 2) ? hi[v] : lo[v];
		}
		memcpy(t[0], q[0], 24);
		memcpy(t[0] + 3, q[1], 24);
		memcpy(t[0] + 6, q[2], 24);
		memcpy(t[1], q[0], 24);
		memcpy(t[1] + 3, q[2], 24);
		memcpy(t[1] + 6, q[3], 24);
		for (int k = 0; k < 2; k++)
		{
			bool		touches;
			int			r = gx_triangle_in_solid(s, t[k], &touches, err);

			if (r <= 0)
				return r;
		}
		return 1;
	}
	{
		/* a segment along the one axis of extent, or a point */
		double		seg[6] = {x0, y0, z0, x1, y1, z1};

		return gx_segment_in_solid(s, seg, seg + 3, err);
	}
}
