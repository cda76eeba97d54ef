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
 *   - else the surface touches T's inside without crossing it, or covers part of it in its plane: what it
 *     leaves of T's inside falls into pieces, each wholly inside or outside. Written in T's coordinates
 *     (t, u) (the point T0 + t (T1 - T0) + u (T2 - T0)), the surface meets T's inside along lines: the lines
 *     of the edges it touches T with, and of the edges of the triangles lying in T's plane. Between two
 *     consecutive t of the lines' crossings (and of the touching vertices), the vertical line at the middle
 *     t meets every piece that spans it, and between two consecutive lines along it lies a point of each:
 *     every piece gets one point with rational coordinates, on no line. Such a point inside a triangle of
 *     the surface is on the surface; any other is located exactly, and T is contained when none is outside.
 *     Beyond MAX_LINES lines (a triangle lying on hundreds of surface triangles): not decided,
 *     GX_ERR_UNSUPPORTED rather than a guess.
 */
#include <stdlib.h>

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

#define MAX_LINES 48

/*
 * What the surface leaves of T's inside, in T's coordinates (t, u): lines u = a t + c (a vertical line is a
 * breakpoint instead), breakpoints of t, and the surface triangles lying in T's plane (their vertices), on
 * which a point is on the surface.
 */
typedef struct Pieces
{
	const double *T;
	int			i,
				j;				/* the projection's axes */
	mpq_t		e[2][2],		/* T1 - T0 and T2 - T0 there */
				det,			/* their cross product */
				w[4];
	__mpq_struct *line;			/* 2 per line: a, c */
	size_t		nlines;
	__mpq_struct *bp;
	size_t		nbp;
	__mpq_struct *flat;			/* 6 per coplanar triangle: (t, u) of its vertices */
	size_t		nflat;
} Pieces;

/* (t, u) of p, a point of T's plane: Cramer's rule in the projection. */
static void
coords_of(Pieces *pc, const double *p, mpq_ptr t, mpq_ptr u)
{
	mpq_set_d(pc->w[0], p[pc->i]);
	mpq_set_d(pc->w[1], pc->T[pc->i]);
	mpq_sub(pc->w[0], pc->w[0], pc->w[1]);
	mpq_set_d(pc->w[1], p[pc->j]);
	mpq_set_d(pc->w[2], pc->T[pc->j]);
	mpq_sub(pc->w[1], pc->w[1], pc->w[2]);
	/* t = (d x e2) / det, u = (e1 x d) / det, d = p - T0 */
	mpq_mul(pc->w[2], pc->w[0], pc->e[1][1]);
	mpq_mul(pc->w[3], pc->w[1], pc->e[1][0]);
	mpq_sub(t, pc->w[2], pc->w[3]);
	mpq_div(t, t, pc->det);
	mpq_mul(pc->w[2], pc->e[0][0], pc->w[1]);
	mpq_mul(pc->w[3], pc->e[0][1], pc->w[0]);
	mpq_sub(u, pc->w[2], pc->w[3]);
	mpq_div(u, u, pc->det);
}

static void
add_breakpoint(Pieces *pc, mpq_srcptr t)
{
	mpq_init(&pc->bp[pc->nbp]);
	mpq_set(&pc->bp[pc->nbp++], t);
}

/* The line through points (t0, u0) and (t1, u1) of T's coordinates; a vertical one gives a breakpoint only. */
static void
add_line(Pieces *pc, mpq_srcptr t0, mpq_srcptr u0, mpq_srcptr t1, mpq_srcptr u1)
{
	__mpq_struct *l = &pc->line[2 * pc->nlines];

	if (mpq_equal(t0, t1))
		return;					/* vertical (t0 is a breakpoint already) or a point */
	mpq_init(&l[0]);
	mpq_init(&l[1]);
	/* a = (u1 - u0) / (t1 - t0), c = u0 - a t0 */
	mpq_sub(&l[0], u1, u0);
	mpq_sub(pc->w[0], t1, t0);
	mpq_div(&l[0], &l[0], pc->w[0]);
	mpq_mul(&l[1], &l[0], t0);
	mpq_sub(&l[1], u0, &l[1]);
	/* the edges of neighbouring triangles lie on the same lines: each line once */
	for (size_t k = 0; k < pc->nlines; k++)
		if (mpq_equal(&pc->line[2 * k], &l[0]) && mpq_equal(&pc->line[2 * k + 1], &l[1]))
		{
			mpq_clear(&l[0]);
			mpq_clear(&l[1]);
			return;
		}
	pc->nlines++;
}

/* The lines and breakpoints of surface triangle tau, which meets T's open inside without crossing it. */
static void
add_triangle(Pieces *pc, const double *tau)
{
	int			zero[3],
				nzero = 0;
	mpq_t		tu[3][2];

	for (int k = 0; k < 3; k++)
		if (gx_orient3d(pc->T, pc->T + 3, pc->T + 6, tau + 3 * k) == 0)
			zero[nzero++] = k;
	for (int k = 0; k < nzero; k++)
	{
		mpq_inits(tu[k][0], tu[k][1], NULL);
		coords_of(pc, tau + 3 * zero[k], tu[k][0], tu[k][1]);
		add_breakpoint(pc, tu[k][0]);
	}
	if (nzero == 2)
		add_line(pc, tu[0][0], tu[0][1], tu[1][0], tu[1][1]);
	if (nzero == 3)
	{
		for (int k = 0; k < 3; k++)
		{
			add_line(pc, tu[k][0], tu[k][1], tu[(k + 1) % 3][0], tu[(k + 1) % 3][1]);
			mpq_init(&pc->flat[6 * pc->nflat + 2 * k]);
			mpq_init(&pc->flat[6 * pc->nflat + 2 * k + 1]);
			mpq_set(&pc->flat[6 * pc->nflat + 2 * k], tu[k][0]);
			mpq_set(&pc->flat[6 * pc->nflat + 2 * k + 1], tu[k][1]);
		}
		pc->nflat++;
	}
	for (int k = 0; k < nzero; k++)
		mpq_clears(tu[k][0], tu[k][1], NULL);
}

/* Sign of the cross product (q - p) x (r - p) in (t, u). */
static int
orient_tu(Pieces *pc, mpq_srcptr pt, mpq_srcptr pu, mpq_srcptr qt, mpq_srcptr qu, mpq_srcptr rt, mpq_srcptr ru)
{
	mpq_sub(pc->w[0], qt, pt);
	mpq_sub(pc->w[1], ru, pu);
	mpq_mul(pc->w[0], pc->w[0], pc->w[1]);
	mpq_sub(pc->w[1], qu, pu);
	mpq_sub(pc->w[2], rt, pt);
	mpq_mul(pc->w[1], pc->w[1], pc->w[2]);
	return mpq_cmp(pc->w[0], pc->w[1]);
}

/* Does point (t, u), on no line, lie in a surface triangle of T's plane? */
static bool
on_surface(Pieces *pc, mpq_srcptr t, mpq_srcptr u)
{
	for (size_t f = 0; f < pc->nflat; f++)
	{
		const __mpq_struct *v = &pc->flat[6 * f];
		int			o = orient_tu(pc, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]),
					in = o != 0;

		for (int k = 0; in && k < 3; k++)
			in = (o > 0) == (orient_tu(pc, &v[2 * k], &v[2 * k + 1], &v[2 * ((k + 1) % 3)],
										&v[2 * ((k + 1) % 3) + 1], t, u) > 0);
		if (in)
			return true;
	}
	return false;
}

static int
cmp_mpq(const void *a, const void *b)
{
	return mpq_cmp((mpq_srcptr) a, (mpq_srcptr) b);
}

/*
 * One point of each piece of T's open inside that the surface leaves, each on the surface or located: 1
 * when none lies outside, 0 when one does, -1 with err set.
 */
static int
pieces_inside(const GxSolidIndex *s, const Plane *pl, const size_t *touching, size_t n, GxError *err)
{
	Pieces		pc = {.T = pl->T, .i = (pl->drop + 1) % 3, .j = (pl->drop + 2) % 3};
	/* lines before they are made distinct; breakpoints: vertices, and crossings only when few lines */
	size_t		maxlines = 3 * n + 2,
				maxbp = 3 * n + 2 + MAX_LINES * (MAX_LINES - 1) / 2,
				nu = 0;
	__mpq_struct *us = malloc((MAX_LINES + 2) * sizeof(__mpq_struct));
	mpq_t		tm,
				um,
				x;
	int			result = 1;

	pc.line = malloc(2 * maxlines * sizeof(__mpq_struct));
	pc.bp = malloc(maxbp * sizeof(__mpq_struct));
	pc.flat = malloc((6 * n + 1) * sizeof(__mpq_struct));
	if (!us || !pc.line || !pc.bp || !pc.flat)
	{
		free(us);
		free(pc.line);
		free(pc.bp);
		free(pc.flat);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory deciding the containment of a triangle");
		return -1;
	}
	mpq_inits(pc.det, pc.w[0], pc.w[1], pc.w[2], pc.w[3], tm, um, x, NULL);
	for (int k = 0; k < 2; k++)
		for (int a = 0; a < 2; a++)
		{
			mpq_init(pc.e[k][a]);
			mpq_set_d(pc.e[k][a], pl->T[3 * (k + 1) + (a ? pc.j : pc.i)]);
			mpq_set_d(pc.w[0], pl->T[a ? pc.j : pc.i]);
			mpq_sub(pc.e[k][a], pc.e[k][a], pc.w[0]);
		}
	mpq_mul(pc.det, pc.e[0][0], pc.e[1][1]);
	mpq_mul(pc.w[0], pc.e[0][1], pc.e[1][0]);
	mpq_sub(pc.det, pc.det, pc.w[0]);
	/* T's own edges: t = 0 and t = 1 (breakpoints), u = 0 and u = 1 - t */
	mpq_set_ui(x, 0, 1);
	add_breakpoint(&pc, x);
	mpq_set_ui(x, 1, 1);
	add_breakpoint(&pc, x);
	for (int k = 0; k < 2; k++)
	{
		__mpq_struct *l = &pc.line[2 * pc.nlines++];

		mpq_init(&l[0]);
		mpq_init(&l[1]);
		mpq_set_si(&l[0], -k, 1);
		mpq_set_si(&l[1], k, 1);
	}
	for (size_t k = 0; k < n; k++)
		add_triangle(&pc, s->tri + 9 * touching[k]);
	if (pc.nlines > MAX_LINES)
	{
		gx_error_set(err, GX_ERR_UNSUPPORTED, "containment of a triangle whose inside the solid's surface meets "
					 "along more than %d lines is not decided", MAX_LINES);
		result = -1;
	}
	/* the lines' crossings */
	for (size_t a = 0; result == 1 && a < pc.nlines; a++)
		for (size_t b = a + 1; b < pc.nlines; b++)
		{
			const __mpq_struct *la = &pc.line[2 * a],
					   *lb = &pc.line[2 * b];

			/* a_a t + c_a = a_b t + c_b */
			mpq_sub(pc.w[0], &la[0], &lb[0]);
			if (mpq_sgn(pc.w[0]) == 0)
				continue;
			mpq_sub(x, &lb[1], &la[1]);
			mpq_div(x, x, pc.w[0]);
			if (mpq_sgn(x) > 0 && mpq_cmp_ui(x, 1, 1) < 0)
				add_breakpoint(&pc, x);
		}
	qsort(pc.bp, pc.nbp, sizeof(__mpq_struct), cmp_mpq);
	for (size_t k = 0; result == 1 && k + 1 < pc.nbp; k++)
	{
		if (mpq_sgn(&pc.bp[k]) < 0 || mpq_cmp_ui(&pc.bp[k + 1], 1, 1) > 0 || mpq_equal(&pc.bp[k], &pc.bp[k + 1]))
			continue;
		/* the middle of the slab, and where the lines cross it within T: 0 < u < 1 - tm */
		mpq_add(tm, &pc.bp[k], &pc.bp[k + 1]);
		mpq_div_2exp(tm, tm, 1);
		for (size_t q = 0; q < nu; q++)
			mpq_clear(&us[q]);
		nu = 0;
		for (size_t l = 0; l < pc.nlines; l++)
		{
			const __mpq_struct *ln = &pc.line[2 * l];

			mpq_init(&us[nu]);
			mpq_mul(&us[nu], &ln[0], tm);
			mpq_add(&us[nu], &us[nu], &ln[1]);
			nu++;
		}
		qsort(us, nu, sizeof(__mpq_struct), cmp_mpq);
		mpq_set_ui(x, 1, 1);
		mpq_sub(x, x, tm);
		for (size_t q = 0; result == 1 && q + 1 < nu; q++)
		{
			GxLocation	loc;

			/* lines u = 0 and u = 1 - tm are among them: only the gaps between those two */
			if (mpq_sgn(&us[q]) < 0 || mpq_cmp(&us[q + 1], x) > 0 || mpq_equal(&us[q], &us[q + 1]))
				continue;
			mpq_add(um, &us[q], &us[q + 1]);
			mpq_div_2exp(um, um, 1);
			if (on_surface(&pc, tm, um))
				continue;
			loc = gx_solid_locate_in_triangle(s, pl->T, tm, um);
			if (loc == GX_LOC_FAILED)
			{
				gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
				result = -1;
			}
			else if (loc == GX_LOC_OUTSIDE)
				result = 0;
		}
	}
	for (size_t q = 0; q < nu; q++)
		mpq_clear(&us[q]);
	for (size_t k = 0; k < 2 * pc.nlines; k++)
		mpq_clear(&pc.line[k]);
	for (size_t k = 0; k < pc.nbp; k++)
		mpq_clear(&pc.bp[k]);
	for (size_t k = 0; k < 6 * pc.nflat; k++)
		mpq_clear(&pc.flat[k]);
	for (int k = 0; k < 2; k++)
		mpq_clears(pc.e[k][0], pc.e[k][1], NULL);
	mpq_clears(pc.det, pc.w[0], pc.w[1], pc.w[2], pc.w[3], tm, um, x, NULL);
	free(us);
	free(pc.line);
	free(pc.bp);
	free(pc.flat);
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
