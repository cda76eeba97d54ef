/*
 * gx_triangle_in_solid.c: does a triangle lie in a solid's closed volume (gx_contains.h)? Its edges must (as
 * segments, gx_segment_in_solid). Then the surface triangles that meet it are sorted, exactly, in the plane
 * of the triangle T (a projection one-to-one on it):
 *   - one crosses T's plane, with vertices strictly on both sides, along a segment that meets T's open
 *     inside: near a point of that segment inside the crossing triangle, T has points on its outer side,
 *     outside the solid (the surface of a solid does not cut itself): T is not contained;
 *   - one lies in T's plane and holds all of T: T lies on the surface, contained;
 *   - none meets T's open inside (they touch its edges only, or miss it): the open inside lies wholly inside
 *     or wholly outside, and its centroid, located exactly, says which;
 *   - else the surface touches T's inside without crossing it, or covers part of it in its plane: it meets
 *     T's inside along segments (the edges it touches T with, the edges of its triangles lying in T's
 *     plane), which cut T's inside into pieces, each wholly inside or outside. gx_pieces.h gives one
 *     rational point of each; a point inside a surface triangle lying in T's plane is on the surface, any
 *     other is located exactly, and T is contained when none is outside.
 */
#include <stdlib.h>

#include "algorithm/gx_pieces.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_primitives.h"
#include "algorithm/gx_projection.h"
#include "geom/gx_box.h"
#include "operation/gx_contains.h"
#include "operation/gx_intercepts.h"

/* T, its projection (the dropped axis) and its orientation there, and rational scratch. */
typedef struct Plane
{
	const double *T;
	const GxSolidIndex *s;		/* the solid, for locating pieces */
	int			drop,
				sigma;
	mpq_t		f[3][2],		/* the edge functions of T at the two ends of a segment */
				va,
				vb,
				lo,
				hi,
				o[3];
} Plane;

/* out = edge k's function at p: positive strictly inside T's side of edge k. */
static void
edge_value(const Plane *pl, int k, const double *p, mpq_t out)
{
	gx_orient2d_value(pl->T + 3 * k, pl->T + 3 * ((k + 1) % 3), p, pl->drop, out);
	if (pl->sigma < 0)
		mpq_neg(out, out);
}

/* pl->f[k][end] = edge k's function at a + lambda (b - a) (lambda NULL: at a). */
static void
end_values(Plane *pl, int end, const double *a, const double *b, mpq_srcptr lambda)
{
	for (int k = 0; k < 3; k++)
	{
		edge_value(pl, k, a, pl->f[k][end]);
		if (lambda == NULL)
			continue;
		edge_value(pl, k, b, pl->va);
		mpq_sub(pl->va, pl->va, pl->f[k][end]);
		mpq_mul(pl->va, pl->va, lambda);
		mpq_add(pl->f[k][end], pl->f[k][end], pl->va);
	}
}

/*
 * Does the segment whose ends have the values pl->f meet T's open inside? Each edge function is affine
 * along it, (1 - s) f0 + s f1 > 0: an open bound on s in [0, 1].
 */
static bool
segment_meets_inside(Plane *pl)
{
	bool		lo_open = false,
				hi_open = false;
	int			c;

	mpq_set_ui(pl->lo, 0, 1);
	mpq_set_ui(pl->hi, 1, 1);
	for (int k = 0; k < 3; k++)
	{
		int			s0 = mpq_sgn(pl->f[k][0]),
					s1 = mpq_sgn(pl->f[k][1]);

		if (s0 > 0 && s1 > 0)
			continue;
		if (s0 <= 0 && s1 <= 0)
			return false;
		/* s_k = f0 / (f0 - f1) */
		mpq_sub(pl->va, pl->f[k][0], pl->f[k][1]);
		mpq_div(pl->va, pl->f[k][0], pl->va);
		if (s0 > 0 && mpq_cmp(pl->va, pl->hi) <= 0)
		{
			mpq_set(pl->hi, pl->va);
			hi_open = true;
		}
		else if (s0 <= 0 && mpq_cmp(pl->va, pl->lo) >= 0)
		{
			mpq_set(pl->lo, pl->va);
			lo_open = true;
		}
	}
	c = mpq_cmp(pl->lo, pl->hi);
	return c < 0 || (c == 0 && !lo_open && !hi_open);
}

static bool
double_segment_meets_inside(Plane *pl, const double *a, const double *b)
{
	end_values(pl, 0, a, NULL, NULL);
	end_values(pl, 1, b, NULL, NULL);
	return segment_meets_inside(pl);
}

static bool
point_inside(const Plane *pl, const double *p)
{
	for (int k = 0; k < 3; k++)
		if (gx_orient2d(pl->T + 3 * k, pl->T + 3 * ((k + 1) % 3), p, pl->drop) * pl->sigma <= 0)
			return false;
	return true;
}

typedef enum Meeting
{
	MEETS_EDGES,				/* t meets T on its edges only */
	MEETS_INSIDE,				/* t touches or covers part of T's open inside */
	CROSSES,					/* t crosses T's plane through T's open inside */
	HOLDS						/* t lies in T's plane and holds T */
} Meeting;

/* A surface triangle t in T's plane (its vertices' orientations against T all 0). */
static Meeting
coplanar(Plane *pl, const double *t)
{
	int			st = gx_orient2d(t, t + 3, t + 6, pl->drop),
				holds = st != 0;

	for (int i = 0; i < 3 && holds; i++)
		for (int k = 0; k < 3 && holds; k++)
			holds = gx_orient2d(t + 3 * k, t + 3 * ((k + 1) % 3), pl->T + 3 * i, pl->drop) * st >= 0;
	if (holds)
		return HOLDS;
	for (int i = 0; i < 3; i++)
		if (point_inside(pl, t + 3 * i) || double_segment_meets_inside(pl, t + 3 * i, t + 3 * ((i + 1) % 3)))
			return MEETS_INSIDE;
	if (st == 0)
		return MEETS_EDGES;		/* a flat t is its edges */
	/* t's edges and vertices miss T's inside: t holds all of it or none; T's centroid says which */
	for (int k = 0; k < 3; k++)
	{
		mpq_set_ui(pl->vb, 0, 1);
		for (int i = 0; i < 3; i++)
		{
			gx_orient2d_value(t + 3 * k, t + 3 * ((k + 1) % 3), pl->T + 3 * i, pl->drop, pl->va);
			mpq_add(pl->vb, pl->vb, pl->va);
		}
		if (mpq_sgn(pl->vb) * st < 0)
			return MEETS_EDGES;
	}
	return MEETS_INSIDE;
}

/* How surface triangle t, which meets T, meets it. */
static Meeting
meeting(Plane *pl, const double *t)
{
	int			s[3],
				pos = 0,
				neg = 0,
				zero[3],
				nzero = 0;
	int			end = 0;

	for (int i = 0; i < 3; i++)
	{
		s[i] = gx_orient3d(pl->T, pl->T + 3, pl->T + 6, t + 3 * i);
		pos += s[i] > 0;
		neg += s[i] < 0;
		if (s[i] == 0)
			zero[nzero++] = i;
	}
	if (nzero == 3)
		return coplanar(pl, t);
	if (nzero == 0 && (pos == 0 || neg == 0))
		return MEETS_EDGES;		/* wholly on one side: it cannot meet T at all */
	if (pos == 0 || neg == 0)
	{
		/* touching the plane at a vertex or along an edge, from one side */
		if (nzero == 1)
			return point_inside(pl, t + 3 * zero[0]) ? MEETS_INSIDE : MEETS_EDGES;
		return double_segment_meets_inside(pl, t + 3 * zero[0], t + 3 * zero[1]) ? MEETS_INSIDE : MEETS_EDGES;
	}
	/* crossing: the ends of t's section by the plane, at its vertices on it or where its edges cross it */
	for (int i = 0; i < 3; i++)
		gx_orient3d_value(pl->T, pl->T + 3, pl->T + 6, t + 3 * i, pl->o[i]);
	for (int i = 0; i < 3; i++)
	{
		int			j = (i + 1) % 3;

		if (s[i] == 0)
			end_values(pl, end++, t + 3 * i, NULL, NULL);
		else if (s[i] * s[j] < 0)
		{
			/* lambda = o_i / (o_i - o_j) */
			mpq_sub(pl->vb, pl->o[i], pl->o[j]);
			mpq_div(pl->vb, pl->o[i], pl->vb);
			end_values(pl, end++, t + 3 * i, t + 3 * j, pl->vb);
		}
	}
	return segment_meets_inside(pl) ? CROSSES : MEETS_EDGES;
}

typedef struct Sort
{
	const GxSolidIndex *s;
	Plane	   *pl;
	bool		met,			/* some triangle meets T */
				inside;			/* some triangle meets T's open inside */
	Meeting		decisive;		/* CROSSES or HOLDS when one was found */
	bool		decided;
	size_t	   *touching,		/* the triangles meeting T's open inside (malloc'd: threads call this) */
				ntouching,
				cap;
	bool		nomem;
} Sort;

static bool
sort_visit(void *ctx, size_t i)
{
	Sort	   *so = ctx;
	const double *t = so->s->tri + 9 * i;
	Meeting		m;

	if (!gx_elements_intersect(so->pl->T, 3, t, 3))
		return true;
	so->met = true;
	m = meeting(so->pl, t);
	if (m == CROSSES || m == HOLDS)
	{
		so->decisive = m;
		so->decided = true;
		return false;
	}
	if (m == MEETS_INSIDE)
	{
		so->inside = true;
		if (so->ntouching == so->cap)
		{
			size_t		cap = so->cap ? 2 * so->cap : 16;
			size_t	   *grown = realloc(so->touching, cap * sizeof(size_t));

			if (grown == NULL)
			{
				so->nomem = true;
				return false;
			}
			so->touching = grown;
			so->cap = cap;
		}
		so->touching[so->ntouching++] = i;
	}
	return true;
}

/* Does a flat triangle (its edges) meet the surface? */
static bool
flat_visit(void *ctx, size_t i)
{
	Sort	   *so = ctx;

	so->met = gx_elements_intersect(so->pl->T, 3, so->s->tri + 9 * i, 3);
	return !so->met;
}

/* A point of a piece of T (gx_pieces.h) that lies on no surface triangle: located exactly. */
static int
locate_piece(void *ctx, mpq_srcptr t, mpq_srcptr u, GxError *err)
{
	const Plane *pl = ctx;
	GxLocation	loc = gx_solid_locate_in_triangle(pl->s, pl->T, t, u);

	if (loc == GX_LOC_FAILED)
	{
		gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
		return -1;
	}
	return loc != GX_LOC_OUTSIDE;
}

/*
 * What the surface leaves of T's open inside falls into pieces, each wholly inside or outside: 1 when no
 * piece lies outside, 0 when one does, -1 with err set.
 */
static int
pieces_inside(const GxSolidIndex *s, Plane *pl, const size_t *touching, size_t n, GxError *err)
{
	GxPieces   *pc = gx_pieces_new(pl->T, pl->drop);
	int			result;

	if (pc == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory deciding the containment of a triangle");
		return -1;
	}
	pl->s = s;
	for (size_t k = 0; k < n; k++)
		gx_pieces_add(pc, s->tri + 9 * touching[k]);
	result = gx_pieces_visit(pc, locate_piece, pl, err);
	gx_pieces_free(pc);
	return result;
}

int
gx_triangle_in_solid(const GxSolidIndex *s, const double *t, bool *touches, GxError *err)
{
	Plane		pl = {.T = t, .drop = -1};
	Sort		so = {s, &pl, false, false, MEETS_EDGES, false, NULL, 0, 0, false};
	GxBox3D		box = gx_box_of_points(t, 3);
	int			result = -1;

	*touches = false;
	for (int k = 0; k < 3; k++)
	{
		int			r = gx_segment_in_solid(s, t + 3 * k, t + 3 * ((k + 1) % 3), err);

		if (r <= 0)
			return r;
	}
	pl.drop = gx_triangle_projection(t, &pl.sigma);
	if (pl.sigma == 0)
	{
		/* a flat triangle is its edges */
		gx_solid_index_search(s, &box, flat_visit, &so);
		*touches = so.met;
		return 1;
	}
	for (int k = 0; k < 3; k++)
		mpq_inits(pl.f[k][0], pl.f[k][1], pl.o[k], NULL);
	mpq_inits(pl.va, pl.vb, pl.lo, pl.hi, NULL);
	gx_solid_index_search(s, &box, sort_visit, &so);
	*touches = so.met;
	if (so.decided)
		result = so.decisive == HOLDS;
	else if (!so.met)
		result = 1;				/* the surface misses T: T lies in the interior, connected to its edges */
	else if (so.nomem)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory deciding the containment of a triangle");
	else if (so.inside)
		result = pieces_inside(s, &pl, so.touching, so.ntouching, err);
	else
	{
		GxLocation	loc;

		mpq_set_ui(pl.va, 1, 3);
		loc = gx_solid_locate_in_triangle(s, t, pl.va, pl.va);
		if (loc == GX_LOC_FAILED)
			gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
		else
			result = loc == GX_LOC_INSIDE;
	}
	for (int k = 0; k < 3; k++)
		mpq_clears(pl.f[k][0], pl.f[k][1], pl.o[k], NULL);
	mpq_clears(pl.va, pl.vb, pl.lo, pl.hi, NULL);
	free(so.touching);
	return result;
}
