/*
 * gx_contains.c: containment (gx_contains.h). b lies in a when each of its elements does:
 * - in a solid's closed volume: a point when it is not outside (gx_solid_locate); a segment when every gap
 *   between its crossings with the surface is inside (gx_segment_in_solid, as gx_intercepts decides); a
 *   triangle as gx_triangle_in_solid.c decides; and a solid b when, besides, no region outside a lies in
 *   b: when b's surface lies in a's interior, no vertex of a lies inside b (a shell of a inside b would be
 *   a cavity of b); when it touches a's surface, the outer side of a's triangles (outside_reaches_inside);
 * - in a lower-dimensional a: a point when it meets an element of a; a segment when the parameters of its
 *   pieces lying in a's elements (collinear segments, coplanar triangles: exact rationals) cover [0, 1]; a
 *   triangle when its edges are covered and so is every piece that a's triangles in its plane cut its
 *   inside into (gx_pieces.h).
 */
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_elements.h"
#include "algorithm/gx_pieces.h"
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

/* Counts the triangles of b near tau. */
static bool
count_visit(void *ctx, size_t i)
{
	(void) i;
	(*(size_t *) ctx)++;
	return true;
}

/*
 * b's surface lies in solid a and touches a's surface: does b's inside reach outside a? Each region outside
 * a lies wholly inside or wholly outside b (b's surface does not enter it), and a triangle tau of a's
 * surface bounding it has that region on its outer side (a's triangles face outward, its cavities'
 * inward). So for each triangle of a near b, a point c of its inside: strictly inside b, the region beside
 * it is inside b (1); outside b, not (for this region); on a triangle of b in tau's plane, holding c
 * strictly inside, the region is inside b exactly when the two face opposite ways. A c on b's surface in
 * any other way lies on a line of tau's plane: where a triangle sigma of b meets that plane, or along an
 * edge of a sigma in it, at most 3 lines for each of the m triangles of b near tau. Then c is tried again
 * along the parabola u = t (1 - t) / 2, inside tau: no line meets it more than twice, so one of 6 m + 1
 * of its points lies on none.
 */
static int
outside_reaches_inside(const GxSolidIndex *s, const GxSerialized *b, GxError *err)
{
	GxSolidIndex bi;
	size_t		n;
	const double *tri = gx_solid_triangles(b, &n);
	OnSurface	o = {.b = &bi};
	int			result = 0;
	mpq_t		t,
				u;

	if (!gx_solid_index_build(&bi, tri, n, err))
		return -1;
	mpq_inits(o.w[0], o.w[1], o.w[2], o.v, o.sum, t, u, NULL);
	for (size_t i = 0; i < s->n && result == 0; i++)
	{
		GxBox3D		box = gx_box_of_points(s->tri + 9 * i, 3);
		size_t		near = 0;

		if (!gx_box_overlaps(&box, &b->box))
			continue;
		o.tau = s->tri + 9 * i;
		o.found = 3;
		for (size_t k = 0; o.found == 3; k++)
		{
			if (k == 0)
			{
				mpq_set_ui(t, 1, 3);	/* the centroid first */
				mpq_set(u, t);
			}
			else
			{
				if (k == 1)
					gx_solid_index_search(&bi, &box, count_visit, &near);
				if (k > 6 * near + 1)
				{
					gx_error_set(err, GX_ERR_INVALID, "no point of a triangle avoided the other solid's surface "
								 "lines (an invalid solid?)");
					result = -1;
					break;
				}
				mpq_set_ui(t, k, 6 * near + 2);
				mpq_set_ui(u, 1, 1);
				mpq_sub(u, u, t);
				mpq_mul(u, u, t);
				mpq_div_2exp(u, u, 1);
			}
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

/* A piece of a triangle that no triangle of the surface covers. */
static int
piece_uncovered(void *ctx, mpq_srcptr t, mpq_srcptr u, GxError *err)
{
	(void) ctx, (void) t, (void) u, (void) err;
	return 0;
}

static int
triangle_covered(const GxElements *a, const double *t, GxError *err)
{
	GxPieces   *pc;
	int			r,
				drop,
				sigma;

	for (int k = 0; k < 3; k++)
	{
		r = segment_covered(a, t + 3 * k, t + 3 * ((k + 1) % 3));
		if (r <= 0)
		{
			if (r < 0)
				gx_error_set(err, GX_ERR_NOMEM, "out of memory testing containment");
			return r;
		}
	}
	if ((drop = gx_triangle_projection(t, &sigma)) < 0)
		return 1;				/* a flat triangle is its edges */
	/* only triangles of a lying in t's plane cover some of its inside: every piece they leave must be covered */
	if ((pc = gx_pieces_new(t, drop)) == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory testing containment");
		return -1;
	}
	for (size_t i = 0; i < a->n; i++)
	{
		const double *tau = a->elems[i].c;

		if (a->elems[i].kind == 3 && gx_orient3d(t, t + 3, t + 6, tau) == 0 &&
			gx_orient3d(t, t + 3, t + 6, tau + 3) == 0 && gx_orient3d(t, t + 3, t + 6, tau + 6) == 0 &&
			gx_elements_intersect(t, 3, tau, 3))
			gx_pieces_add(pc, tau);
	}
	r = gx_pieces_visit(pc, piece_uncovered, NULL, err);
	gx_pieces_free(pc);
	return r;
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

/* The solid a's index: a_index, or one built into own (then *built) when that is NULL; NULL with err set. */
static const GxSolidIndex *
index_of(const GxSerialized *a, const GxSolidIndex *a_index, GxSolidIndex *own, bool *built, GxError *err)
{
	size_t		n;
	const double *tri;

	if (a_index != NULL)
		return a_index;
	tri = gx_solid_triangles(a, &n);
	if (!gx_solid_index_build(own, tri, n, err))
		return NULL;
	*built = true;
	return own;
}

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
		result = (s = index_of(a, a_index, &own, &built, err)) != NULL ? 1 : -1;
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

/*
 * The elements of a flat box: its rectangle's two triangles (on the plane of its flat axis), the segment
 * along its one axis of extent, or its point. c holds their coordinates; returns how many.
 */
static int
flat_box_elements(const GxBox3D *box, double c[18], GxElem e[2])
{
	const double lo[3] = {box->xmin, box->ymin, box->zmin},
				hi[3] = {box->xmax, box->ymax, box->zmax};
	int			f = -1,
				flat = 0;

	for (int k = 2; k >= 0; k--)
		if (lo[k] == hi[k])
		{
			f = k;
			flat++;
		}
	if (flat == 1)
	{
		/* corners 0 1 2 3 around the rectangle; triangles 0 1 2 and 0 2 3 */
		static const int corner[6] = {0, 1, 2, 0, 2, 3};
		int			u = (f + 1) % 3,
					v = (f + 2) % 3;

		for (int k = 0; k < 6; k++)
		{
			double	   *q = c + 3 * k;

			q[f] = lo[f];
			q[u] = (corner[k] == 1 || corner[k] == 2) ? hi[u] : lo[u];
			q[v] = corner[k] >= 2 ? hi[v] : lo[v];
		}
		e[0] = (GxElem) {c, 3};
		e[1] = (GxElem) {c + 9, 3};
		return 2;
	}
	memcpy(c, lo, sizeof(lo));
	memcpy(c + 3, hi, sizeof(hi));
	e[0] = (GxElem) {c, flat == 3 ? 1 : 2};
	return 1;
}

int
gx_contains_box(const GxSerialized *a, const GxSolidIndex *a_index, const GxBox3D *box, GxError *err)
{
	GxSolidIndex own;
	const GxSolidIndex *s = NULL;
	GxElements	ea = {NULL, 0};
	GxElem		e[2];
	double		c[18];
	int			result = 1;
	bool		built = false,
				solid = (a->flags & GX_FLAG_SOLID) != 0,
				volume = box->xmin < box->xmax && box->ymin < box->ymax && box->zmin < box->zmax;

	if (gx_box_is_empty(box) || (a->flags & GX_FLAG_EMPTY) || !gx_box_contains(&a->box, box))
		return 0;
	if (volume && !solid)
		return 0;				/* no volume in a set of points, lines and surfaces */
	if (solid && (s = index_of(a, a_index, &own, &built, err)) == NULL)
		return -1;
	if (volume)
	{
		/* a box of positive volume lies in the solid when the solid's volume inside it is its own */
		GxVolumeWork w;
		mpq_t		inside,
					whole;

		mpq_inits(inside, whole, NULL);
		gx_volume_work_init(&w);
		gx_box_volume_exact(box, &w, whole);
		gx_volume_in_box_exact(s, box, &w, inside);
		gx_volume_work_clear(&w);
		result = w.unlocated ? -1 : mpq_equal(inside, whole) != 0;
		if (w.unlocated)
			gx_error_set(err, GX_ERR_INVALID, "could not locate a box's corner in a solid (no ray avoided its edges)");
		mpq_clears(inside, whole, NULL);
	}
	else
	{
		int			n = flat_box_elements(box, c, e);
		bool		touches = false;

		if (!solid && !gx_elements_collect(a, box, &ea, err))
			result = -1;
		for (int k = 0; k < n && result == 1; k++)
			result = solid ? element_in_solid(s, e[k], &touches, err) : element_covered(&ea, e[k], err);
	}
	if (built)
		gx_solid_index_free(&own);
	gx_elements_free(&ea);
	return result;
}
