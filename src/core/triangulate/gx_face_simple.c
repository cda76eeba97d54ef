/*
 * gx_face_simple.c: the exact simplicity checks of a planar polygon with holes, in an axis projection
 * one-to-one on its plane (gx_face_polygon.h). Every ring has 3 or more distinct vertices; two edges of one
 * ring that follow each other meet only at their common vertex (no spike back along the same line); any
 * other two edges, of one ring or two, do not meet at all (closed segments, exact orient2d): the rings are
 * disjoint simple closed curves. Edges are swept in order of their least first coordinate, so only edges
 * whose ranges overlap are compared. Then every hole must be inside the outer ring and outside every other
 * hole, decided for one of its vertices by the crossing count of a ray (the vertex is on no other ring).
 */
#include <stdlib.h>

#include "algorithm/gx_predicates.h"
#include "base/gx_alloc.h"
#include "base/gx_interrupt.h"
#include "triangulate/gx_face_polygon.h"

#define GXP_ORIENT3D gx_orient3d
#define GXP_ORIENT2D gx_orient2d
#include "algorithm/gx_primitives_impl.h"

/* An edge v[i] v[next(i)] and the range of its first kept coordinate. */
typedef struct Edge
{
	double		lo,
				hi;
	size_t		i;
} Edge;

static int
edge_order(const void *a, const void *b)
{
	const Edge *x = a;
	const Edge *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Whether the edges that end and start at w (from x, to y) turn back along the same line. */
static int
spike(const GxFacePolygon *f, const double *x, const double *w, const double *y)
{
	return gx_face_orient(f, x, w, y) == 0 && (gxp_in_box(y, w, x) || gxp_in_box(x, w, y));
}

/* Refuses the polygon because edges i and j meet. */
static int
refuse_edges(GxFacePolygon *f, size_t i, size_t j)
{
	char		a[128],
				b[128];

	gx_face_point_name(f, &f->v[i], a, sizeof(a));
	gx_face_point_name(f, &f->v[j], b, sizeof(b));
	gx_face_refuse(f, "its edge from %s meets its edge from %s", a, b);
	return 0;
}

/* Whether the edges i and j (i != j) meet where they may not. */
static int
edges_meet(const GxFacePolygon *f, size_t i, size_t j)
{
	size_t		ni = gx_face_next(f, i),
				nj = gx_face_next(f, j);

	if (ni == j)
		return spike(f, f->v[i].p, f->v[j].p, f->v[nj].p);
	if (nj == i)
		return spike(f, f->v[j].p, f->v[i].p, f->v[ni].p);
	return gxp_segment_segment_projected(f->v[i].p, f->v[ni].p, f->v[j].p, f->v[nj].p, f->drop);
}

/* 1 when no two edges meet where they may not; else 0 with the message set. -1 when memory runs out. */
static int
check_edges(GxFacePolygon *f)
{
	size_t		n = f->start[f->nrings],
				i,
				j,
				tests = 0;
	Edge	   *e = gx_alloc(n * sizeof(*e));
	double		a,
				b;
	int			res = 1;

	if (e == NULL)
		return -1;
	for (i = 0; i < n; i++)
	{
		a = f->v[i].p[f->cu];
		b = f->v[gx_face_next(f, i)].p[f->cu];
		e[i] = (Edge) {a < b ? a : b, a < b ? b : a, i};
	}
	qsort(e, n, sizeof(*e), edge_order);
	for (i = 0; i < n && res; i++)
		for (j = i + 1; j < n && e[j].lo <= e[i].hi && res; j++)
		{
			gx_maybe_interrupt(++tests);
			if (edges_meet(f, e[i].i, e[j].i))
				res = refuse_edges(f, e[i].i < e[j].i ? e[i].i : e[j].i, e[i].i < e[j].i ? e[j].i : e[i].i);
		}
	gx_free(e);
	return res;
}

/* Whether point q, on no edge of ring r, is inside it: the parity of the edges crossed by a ray along +cu. */
static int
inside_ring(const GxFacePolygon *f, size_t r, const double *q)
{
	size_t		i;
	int			inside = 0;
	const double *a,
			   *b;

	for (i = f->start[r]; i < f->start[r + 1]; i++)
	{
		a = f->v[i].p;
		b = f->v[gx_face_next(f, i)].p;
		if ((a[f->cv] > q[f->cv]) != (b[f->cv] > q[f->cv]) &&
			gx_face_orient(f, a, b, q) == (b[f->cv] > a[f->cv] ? 1 : -1))
			inside = !inside;
	}
	return inside;
}

/* 1 when every hole is inside the outer ring and outside the other holes; else 0 with the message set. */
static int
check_holes(GxFacePolygon *f)
{
	size_t		h,
				r;
	char		name[128];

	for (h = 1; h < f->nrings; h++)
	{
		gx_face_point_name(f, &f->v[f->start[h]], name, sizeof(name));
		if (!inside_ring(f, 0, f->v[f->start[h]].p))
		{
			gx_face_refuse(f, "its hole (ring %zu) is outside its outer ring, at %s", h + 1, name);
			return 0;
		}
		for (r = 1; r < f->nrings; r++)
			if (r != h && inside_ring(f, r, f->v[f->start[h]].p))
			{
				gx_face_refuse(f, "its hole (ring %zu) is inside its hole (ring %zu), at %s", h + 1, r + 1, name);
				return 0;
			}
	}
	return 1;
}

int
gx_face_ring_orientation(const GxFacePolygon *f, size_t r)
{
	size_t		i,
				m = f->start[r];
	const double *p,
			   *q;

	for (i = m + 1; i < f->start[r + 1]; i++)
	{
		p = f->v[i].p;
		q = f->v[m].p;
		if (p[f->cu] < q[f->cu] || (p[f->cu] == q[f->cu] && p[f->cv] < q[f->cv]))
			m = i;
	}
	/* The least vertex in (cu, cv) order is a strict turn: its neighbours are distinct and not on one line with it. */
	return gx_face_orient(f, f->v[m == f->start[r] ? f->start[r + 1] - 1 : m - 1].p, f->v[m].p,
						  f->v[gx_face_next(f, m)].p);
}

int
gx_face_check_simple(GxFacePolygon *f)
{
	size_t		r;
	int			res;

	for (r = 0; r < f->nrings; r++)
		if (f->start[r + 1] - f->start[r] < 3)
		{
			gx_face_refuse(f, "its ring %zu has fewer than 3 distinct points", r + 1);
			return 0;
		}
	res = check_edges(f);
	return res < 0 ? res : res && check_holes(f);
}
