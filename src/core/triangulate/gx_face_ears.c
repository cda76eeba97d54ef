/*
 * gx_face_ears.c: the triangulation of a simple planar polygon with holes (gx_face_polygon.h), every
 * decision an exact orient2d in the projection or a comparison of coordinates; triangles use only the
 * input vertices. The outer ring is linked counter-clockwise, the holes clockwise. Each hole is then joined
 * to the outer boundary by a bridge, two edges of opposite directions, as in D. Eberly, "Triangulation by
 * ear clipping" (2002): holes in decreasing order of their greatest vertex M (first coordinate, then
 * second), so that every hole not yet joined lies at or before M's first coordinate; the bridge goes from
 * M to a vertex P of the joined boundary beyond M, one whose segment PM lies in the polygon: in the angle
 * of the boundary at that visit of P, and meeting no edge but at P and M (some such P always exists: the
 * first vertex the ray from M along the first axis can see). The result is one weakly simple boundary.
 * Ears are then clipped: vertex i with neighbours p and n is an ear when the turn p i n is strictly
 * counter-clockwise and no edge of the boundary meets the open triangle p i n or the open side n p; the
 * triangle then lies in the polygon, and the rest is again a weakly simple polygon.
 */
#include <stdlib.h>

#include "algorithm/gx_predicates.h"
#include "base/gx_alloc.h"
#include "base/gx_interrupt.h"
#include "triangulate/gx_face_polygon.h"

#define GXP_ORIENT3D gx_orient3d
#define GXP_ORIENT2D gx_orient2d
#include "algorithm/gx_primitives_impl.h"

/* One visit of a vertex by the boundary; a bridge visits its two ends twice. */
typedef struct Node
{
	const double *p;
	size_t		prev,
				next;
	int			joined;			/* on the outer boundary (holes join it one by one) */
} Node;

/* A hole, or a candidate end of a bridge, and the coordinates it is sorted by. */
typedef struct Key
{
	double		u,
				v;
	size_t		node;
} Key;

typedef struct Boundary
{
	GxFacePolygon *f;
	Node	   *node;
	size_t		count;
} Boundary;

static int
key_greater(const void *a, const void *b)
{
	const Key  *x = a;
	const Key  *y = b;

	return x->u != y->u ? (x->u < y->u ? 1 : -1) : x->v != y->v ? (x->v < y->v ? 1 : -1) : 0;
}

static int
key_less(const void *a, const void *b)
{
	return key_greater(b, a);
}

/* Links ring r counter-clockwise (want 1) or clockwise (want -1). */
static void
link_ring(Boundary *bd, size_t r, int want)
{
	GxFacePolygon *f = bd->f;
	int			reverse = gx_face_ring_orientation(f, r) != want;
	size_t		i,
				prev,
				next;

	for (i = f->start[r]; i < f->start[r + 1]; i++)
	{
		prev = i == f->start[r] ? f->start[r + 1] - 1 : i - 1;
		next = gx_face_next(f, i);
		bd->node[i] = (Node) {f->v[i].p, reverse ? next : prev, reverse ? prev : next, r == 0};
	}
}

/* Whether the other end o of an edge from P runs along the segment P M. */
static int
along(const GxFacePolygon *f, const double *P, const double *M, const double *o)
{
	return gx_face_orient(f, P, M, o) == 0 && (gxp_in_box(o, P, M) || gxp_in_box(M, P, o));
}

/* Whether the bridge from the visit p of the boundary to the hole vertex m lies in the polygon. */
static int
bridge_clear(const Boundary *bd, size_t p, size_t m)
{
	const GxFacePolygon *f = bd->f;
	const Node *node = bd->node;
	const double *P = node[p].p,
			   *M = node[m].p,
			   *a = node[node[p].prev].p,
			   *b = node[node[p].next].p,
			   *x,
			   *y;
	int			in_a = gx_face_orient(f, a, P, M) > 0,
				in_b = gx_face_orient(f, P, b, M) > 0;
	size_t		k;

	if (gx_face_orient(f, a, P, b) >= 0 ? !(in_a && in_b) : !(in_a || in_b))
		return 0;
	for (k = 0; k < bd->count; k++)
	{
		x = node[k].p;
		y = node[node[k].next].p;
		if (gx_face_same(x, P) || gx_face_same(y, P))
		{
			if (along(f, P, M, gx_face_same(x, P) ? y : x))
				return 0;
		}
		else if (gx_face_same(x, M) || gx_face_same(y, M))
		{
			if (along(f, M, P, gx_face_same(x, M) ? y : x))
				return 0;
		}
		else if (gxp_segment_segment_projected(x, y, P, M, f->drop))
			return 0;
	}
	return 1;
}

/* Joins the hole visited at m to the boundary at its visit p: p m ... m' p' (m', p': new visits). */
static void
join(Boundary *bd, size_t p, size_t m, size_t ring)
{
	Node	   *node = bd->node;
	size_t		p2 = bd->count++,
				m2 = bd->count++,
				i;

	node[p2] = (Node) {node[p].p, m2, node[p].next, 1};
	node[m2] = (Node) {node[m].p, node[m].prev, p2, 1};
	node[node[p].next].prev = p2;
	node[node[m].prev].next = m2;
	node[p].next = m;
	node[m].prev = p;
	for (i = bd->f->start[ring]; i < bd->f->start[ring + 1]; i++)
		node[i].joined = 1;
}

/* Joins every hole to the outer boundary; 0 when no bridge is found for one (f->msg set). */
static int
join_holes(Boundary *bd, Key *hole, Key *cand)
{
	GxFacePolygon *f = bd->f;
	size_t		h,
				i,
				k,
				n,
				best;

	for (h = 1; h < f->nrings; h++)
	{
		best = f->start[h];
		for (i = best + 1; i < f->start[h + 1]; i++)
			if (key_greater(&(Key) {f->v[i].p[f->cu], f->v[i].p[f->cv], i},
							&(Key) {f->v[best].p[f->cu], f->v[best].p[f->cv], best}) < 0)
				best = i;
		hole[h - 1] = (Key) {f->v[best].p[f->cu], f->v[best].p[f->cv], best};
	}
	qsort(hole, f->nrings - 1, sizeof(*hole), key_greater);
	for (h = 0; h + 1 < f->nrings; h++)
	{
		n = 0;
		for (k = 0; k < bd->count; k++)
			if (bd->node[k].joined && bd->node[k].p[f->cu] > hole[h].u)
				cand[n++] = (Key) {bd->node[k].p[f->cu], bd->node[k].p[f->cv], k};
		qsort(cand, n, sizeof(*cand), key_less);
		for (k = 0; k < n && !bridge_clear(bd, cand[k].node, hole[h].node); k++)
			gx_maybe_interrupt(k + 1);
		if (k == n)
		{
			gx_face_refuse(f, "no bridge found to its hole (ring %zu)", f->v[hole[h].node].ring + 1);
			return 0;
		}
		join(bd, cand[k].node, hole[h].node, f->v[hole[h].node].ring);
	}
	return 1;
}

/* Whether the closed segment ab meets the open segment pn. */
static int
meets_open_segment(const GxFacePolygon *f, const double *a, const double *b, const double *p, const double *n)
{
	int			o1 = gx_face_orient(f, p, n, a),
				o2 = gx_face_orient(f, p, n, b);
	const double *plo = gxp_lex_less(p, n) ? p : n,
			   *phi = plo == p ? n : p,
			   *alo = gxp_lex_less(a, b) ? a : b,
			   *ahi = alo == a ? b : a;

	if (o1 == 0 && o2 == 0)
		return gxp_lex_less(alo, phi) && gxp_lex_less(plo, ahi);
	if ((o1 == 0 && gxp_in_box(a, p, n) && !gx_face_same(a, p) && !gx_face_same(a, n)) ||
		(o2 == 0 && gxp_in_box(b, p, n) && !gx_face_same(b, p) && !gx_face_same(b, n)))
		return 1;
	return o1 * o2 < 0 && gx_face_orient(f, a, b, p) * gx_face_orient(f, a, b, n) < 0;
}

/*
 * Whether the closed segment ab meets the open triangle t (counter-clockwise) or its open side t[2] t[0]:
 * an end strictly inside; a crossing of a side at one point inside both; a vertex of t on ab from which
 * ab goes on strictly into the angle of t there; an end inside a side from which ab goes strictly inwards.
 */
static int
meets_ear(const GxFacePolygon *f, const double *a, const double *b, const double *const *t)
{
	int			oa[3],
				ob[3],
				ot[3],
				k,
				prev;

	for (k = 0; k < 3; k++)
	{
		oa[k] = gx_face_orient(f, t[k], t[(k + 1) % 3], a);
		ob[k] = gx_face_orient(f, t[k], t[(k + 1) % 3], b);
		ot[k] = gx_face_orient(f, a, b, t[k]);
	}
	if ((oa[0] > 0 && oa[1] > 0 && oa[2] > 0) || (ob[0] > 0 && ob[1] > 0 && ob[2] > 0))
		return 1;
	for (k = 0; k < 3; k++)
	{
		prev = (k + 2) % 3;
		if ((oa[k] * ob[k] < 0 && ot[k] * ot[(k + 1) % 3] < 0) ||
			(oa[k] == 0 && ob[k] > 0 && gxp_in_box(a, t[k], t[(k + 1) % 3]) &&
			 !gx_face_same(a, t[k]) && !gx_face_same(a, t[(k + 1) % 3])) ||
			(ob[k] == 0 && oa[k] > 0 && gxp_in_box(b, t[k], t[(k + 1) % 3]) &&
			 !gx_face_same(b, t[k]) && !gx_face_same(b, t[(k + 1) % 3])))
			return 1;
		if (ot[k] == 0 && gxp_in_box(t[k], a, b) &&
			((!gx_face_same(b, t[k]) && ob[k] > 0 && ob[prev] > 0) ||
			 (!gx_face_same(a, t[k]) && oa[k] > 0 && oa[prev] > 0)))
			return 1;
	}
	return meets_open_segment(f, a, b, t[2], t[0]);
}

/* Whether the visit i of the boundary is an ear (see the top of the file). */
static int
is_ear(const Boundary *bd, size_t i)
{
	const GxFacePolygon *f = bd->f;
	const Node *node = bd->node;
	size_t		p = node[i].prev,
				k;
	const double *t[3] = {node[p].p, node[i].p, node[node[i].next].p};
	const double *a,
			   *b;
	double		lo[2],
				hi[2];
	int			c,
				j,
				ax[2] = {f->cu, f->cv};

	if (gx_face_orient(f, t[0], t[1], t[2]) <= 0)
		return 0;
	for (c = 0; c < 2; c++)
	{
		lo[c] = hi[c] = t[0][ax[c]];
		for (j = 1; j < 3; j++)
		{
			lo[c] = t[j][ax[c]] < lo[c] ? t[j][ax[c]] : lo[c];
			hi[c] = t[j][ax[c]] > hi[c] ? t[j][ax[c]] : hi[c];
		}
	}
	for (k = node[i].next; k != p; k = node[k].next)
	{
		a = node[k].p;
		b = node[node[k].next].p;
		for (c = 0; c < 2; c++)
			if ((a[ax[c]] < lo[c] && b[ax[c]] < lo[c]) || (a[ax[c]] > hi[c] && b[ax[c]] > hi[c]))
				break;
		if (c == 2 && meets_ear(f, a, b, t))
			return 0;
	}
	return 1;
}

/* Writes the triangle of the visit i, in the input orientation of the outer ring (flip: it was clockwise). */
static void
emit(const Boundary *bd, size_t i, int flip, const double **tri)
{
	const Node *node = bd->node;

	tri[0] = node[flip ? node[i].next : node[i].prev].p;
	tri[1] = node[i].p;
	tri[2] = node[flip ? node[i].prev : node[i].next].p;
}

/* Clips ears until three visits remain; returns the count of triangles, or -2 when none is found. */
static long
clip(Boundary *bd, int flip, const double **tri)
{
	Node	   *node = bd->node;
	size_t		left = bd->count,
				i = 0,
				misses = 0,
				ntri = 0,
				tests = 0;

	while (left > 3 && misses <= left)
	{
		gx_maybe_interrupt(++tests);
		if (!is_ear(bd, i))
		{
			i = node[i].next;
			misses++;
			continue;
		}
		emit(bd, i, flip, tri + 3 * ntri++);
		node[node[i].prev].next = node[i].next;
		node[node[i].next].prev = node[i].prev;
		i = node[i].prev;
		left--;
		misses = 0;
	}
	if (left > 3 || gx_face_orient(bd->f, node[node[i].prev].p, node[i].p, node[node[i].next].p) <= 0)
	{
		gx_face_refuse(bd->f, "no ear found (%zu points left)", left);
		return -2;
	}
	emit(bd, i, flip, tri + 3 * ntri++);
	return (long) ntri;
}

long
gx_face_ears(GxFacePolygon *f, const double **tri)
{
	size_t		cap = f->start[f->nrings] + 2 * (f->nrings - 1),
				r;
	Boundary	bd = {f, gx_alloc(cap * sizeof(Node)), f->start[f->nrings]};
	Key		   *hole = gx_alloc(f->nrings * sizeof(Key));
	Key		   *cand = gx_alloc(cap * sizeof(Key));
	int			flip = gx_face_ring_orientation(f, 0) < 0;
	long		res = -1;

	if (bd.node != NULL && hole != NULL && cand != NULL)
	{
		for (r = 0; r < f->nrings; r++)
			link_ring(&bd, r, r == 0 ? 1 : -1);
		res = join_holes(&bd, hole, cand) ? clip(&bd, flip, tri) : -2;
	}
	gx_free(bd.node);
	gx_free(hole);
	gx_free(cand);
	return res;
}
