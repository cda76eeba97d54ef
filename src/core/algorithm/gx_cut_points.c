/*
 * gx_cut_points.c: the points where a triangle is cut, filtered (gx_cut_points.h). Each point's enclosure is
 * computed once, when it is made, by the same formulas as its exact rationals (gx_plane_coords.c) in certified
 * double-doubles; a few doubles around it (its box) settle most comparisons at once. A sign is certain when
 * the enclosure of its value excludes 0, a comparison when the enclosures do not overlap; else the points'
 * exact rationals are made (each once) and decide.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_cut_points.h"
#include "algorithm/gx_ddi.h"
#include "algorithm/gx_plane_coords.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"

#define LINES 6					/* lines remembered a point; more are forgotten (only the filter is lost) */

typedef enum Kind
{
	CORNER,						/* T's corner ref[0] */
	VERTEX,						/* the vertex a, in T's plane */
	CROSSING,					/* where edge ab crosses T's plane */
	CLIP,						/* segment ref[0] ref[1] where T's edge function ref[2] is 0 */
	MEET						/* segments ref[0] ref[1] and ref[2] ref[3], where they cross */
} Kind;

typedef struct Node
{
	GxDDI		t,
				u;
	double		box[4];			/* doubles around the enclosures: t in [box[0], box[1]], u in [box[2], box[3]] */
	const double *a,
			   *b;
	size_t		ref[4];
	GxTU		x;				/* the exact (t, u) once has_x */
	uint32_t	line[LINES];
	uint8_t		kind,
				nline;
	bool		has_x;
} Node;

struct GxCutPoints
{
	const double *T;
	int			drop,
				i,
				j;				/* the projection's axes */
	GxDDI		e[2][2],		/* T1 - T0 and T2 - T0 there */
				D,				/* e[0] x e[1] */
				n[3],			/* T's normal */
				E[2][3];		/* T1 - T0 and T2 - T0 */
	Node	   *node;
	size_t		nnode,
				cap;
	size_t	   *cover;			/* the covering triangles' corners, 3 each */
	size_t		ncover,
				covercap,
				covers_made;	/* how many of them pc holds */
	GxPlaneCoords pc;			/* T in rationals, made when first needed */
	bool		has_pc,
				exact_only,
				nomem;
};

static const GxDDI ddi_zero = {0, 0, 0},
			ddi_one = {1, 0, 0};

GxCutPoints *
gx_cpt_new(const double *T, int drop)
{
	GxCutPoints *P = calloc(1, sizeof(GxCutPoints));

	if (P == NULL)
		return NULL;
	P->T = T;
	P->drop = drop;
	P->i = (drop + 1) % 3;
	P->j = (drop + 2) % 3;
	for (int k = 0; k < 2; k++)
	{
		P->e[k][0] = gx_ddi_vdiff_d(T[3 * (k + 1) + P->i], T[P->i]);
		P->e[k][1] = gx_ddi_vdiff_d(T[3 * (k + 1) + P->j], T[P->j]);
		for (int a = 0; a < 3; a++)
			P->E[k][a] = gx_ddi_vdiff_d(T[3 * (k + 1) + a], T[a]);
	}
	P->D = gx_ddi_vcross2(P->e[0], P->e[1]);
	for (int a = 0; a < 3; a++)
		P->n[a] = gx_ddi_vsub(gx_ddi_vmul(P->E[0][(a + 1) % 3], P->E[1][(a + 2) % 3]),
							  gx_ddi_vmul(P->E[0][(a + 2) % 3], P->E[1][(a + 1) % 3]));
	return P;
}

void
gx_cpt_free(GxCutPoints *P)
{
	if (P == NULL)
		return;
	for (size_t k = 0; k < P->nnode; k++)
		if (P->node[k].has_x)
			gx_tu_clear(&P->node[k].x, 1);
	if (P->has_pc)
		gx_plane_coords_clear(&P->pc);
	free(P->node);
	free(P->cover);
	free(P);
}

void
gx_cpt_exact_only(GxCutPoints *P)
{
	P->exact_only = true;
}

bool
gx_cpt_nomem(const GxCutPoints *P)
{
	return P->nomem;
}

size_t
gx_cpt_ncover(const GxCutPoints *P)
{
	return P->ncover;
}

/* x's enclosure as two doubles around it. */
static void
bounds(const GxDDI *x, double *lo, double *hi)
{
	double		e = (fabs(x->lo) + x->rad) * GX_DDI_UP;

	*lo = nextafter(x->hi - e, -INFINITY);
	*hi = nextafter(x->hi + e, INFINITY);
	if (!(*lo <= *hi))
	{
		*lo = -INFINITY;
		*hi = INFINITY;
	}
}

/* A new point of kind k with enclosure (t, u); SIZE_MAX without memory. */
static size_t
new_node(GxCutPoints *P, Kind k, GxDDI t, GxDDI u)
{
	Node	   *nd;

	if (!gx_grow_malloc((void **) &P->node, &P->cap, P->nnode + 1, sizeof(Node), SIZE_MAX / 1024))
	{
		P->nomem = true;
		return SIZE_MAX;
	}
	nd = &P->node[P->nnode];
	memset(nd, 0, sizeof(Node));
	nd->kind = (uint8_t) k;
	nd->t = t;
	nd->u = u;
	bounds(&t, &nd->box[0], &nd->box[1]);
	bounds(&u, &nd->box[2], &nd->box[3]);
	return P->nnode++;
}

void
gx_cpt_on_line(GxCutPoints *P, size_t p, uint32_t line)
{
	Node	   *nd = &P->node[p];

	if (line == GX_CPT_NO_LINE)
		return;
	for (int k = 0; k < nd->nline; k++)
		if (nd->line[k] == line)
			return;
	if (nd->nline < LINES)
		nd->line[nd->nline++] = line;
}

/* Do p, q and r all lie on one line they were made on? */
static bool
on_one_line(const GxCutPoints *P, size_t p, size_t q, size_t r)
{
	const Node *a = &P->node[p],
			   *b = &P->node[q],
			   *c = &P->node[r];

	for (int k = 0; k < a->nline; k++)
	{
		bool		inb = false,
					inc = false;

		for (int m = 0; m < b->nline; m++)
			inb |= b->line[m] == a->line[k];
		for (int m = 0; m < c->nline; m++)
			inc |= c->line[m] == a->line[k];
		if (inb && inc)
			return true;
	}
	return false;
}

/* --- the exact rationals ------------------------------------------------------------------------------ */

/* T's edge function k at p (t, u or 1 - t - u), into f. */
static void
edge_function(mpq_ptr f, const GxTU *p, int k)
{
	if (k == 0)
		mpq_set(f, p->t);
	else if (k == 1)
		mpq_set(f, p->u);
	else
	{
		mpq_set_ui(f, 1, 1);
		mpq_sub(f, f, p->t);
		mpq_sub(f, f, p->u);
	}
}

static const GxTU *exact(GxCutPoints *P, size_t id);

/* The parameter s of the point where T's edge function k is 0 on segment pq (not parallel to that edge). */
static void
exact_clip_param(GxCutPoints *P, size_t p, size_t q, int k, mpq_ptr s)
{
	const GxTU *xp = exact(P, p),
			   *xq = exact(P, q);
	mpq_t		f1;

	mpq_init(f1);
	edge_function(s, xp, k);
	edge_function(f1, xq, k);
	mpq_sub(f1, s, f1);
	mpq_div(s, s, f1);
	mpq_clear(f1);
}

/* The exact (t, u) of point id, made now when it was not yet. */
static const GxTU *
exact(GxCutPoints *P, size_t id)
{
	Node	   *nd = &P->node[id];
	mpq_t		s;

	if (nd->has_x)
		return &nd->x;
	if (!P->has_pc)
	{
		gx_plane_coords_init(&P->pc, P->T, P->drop);
		P->has_pc = true;
	}
	/* the points it is made of first: nothing below makes a point, so nd stays where it is */
	if (nd->kind == CLIP || nd->kind == MEET)
		for (int k = 0; k < (nd->kind == CLIP ? 2 : 4); k++)
			exact(P, nd->ref[k]);
	mpq_inits(nd->x.t, nd->x.u, s, NULL);
	switch ((Kind) nd->kind)
	{
		case CORNER:
			mpq_set_ui(nd->x.t, nd->ref[0] == 1, 1);
			mpq_set_ui(nd->x.u, nd->ref[0] == 2, 1);
			break;
		case VERTEX:
			gx_tu_of_point(&P->pc, nd->a, &nd->x);
			break;
		case CROSSING:
			gx_tu_of_crossing(&P->pc, nd->a, nd->b, &nd->x);
			break;
		case CLIP:
			exact_clip_param(P, nd->ref[0], nd->ref[1], (int) nd->ref[2], s);
			gx_tu_along(nd->x.t, nd->x.u, &P->node[nd->ref[0]].x, &P->node[nd->ref[1]].x, s);
			break;
		case MEET:
			gx_tu_cross(&P->pc, &P->node[nd->ref[0]].x, &P->node[nd->ref[1]].x, &P->node[nd->ref[2]].x,
						&P->node[nd->ref[3]].x, s);
			gx_tu_along(nd->x.t, nd->x.u, &P->node[nd->ref[2]].x, &P->node[nd->ref[3]].x, s);
			break;
	}
	mpq_clear(s);
	nd->has_x = true;
	return &nd->x;
}

static int
sign_of(int c)
{
	return (c > 0) - (c < 0);
}

/* --- making points -------------------------------------------------------------------------------------- */

size_t
gx_cpt_corner(GxCutPoints *P, int k)
{
	size_t		id = new_node(P, CORNER, k == 1 ? ddi_one : ddi_zero, k == 2 ? ddi_one : ddi_zero);
	/* the edge functions zero there: t at T0 and T2, u at T0 and T1, 1 - t - u at T1 and T2 */
	static const uint32_t on[3][2] = {{0, 1}, {1, 2}, {0, 2}};

	if (id != SIZE_MAX)
	{
		P->node[id].ref[0] = (size_t) k;
		gx_cpt_on_line(P, id, on[k][0]);
		gx_cpt_on_line(P, id, on[k][1]);
	}
	return id;
}

/* The enclosure of the (t, u) of a point p of T's plane. */
static void
vertex_coords(const GxCutPoints *P, const double *p, GxDDI *t, GxDDI *u)
{
	GxDDI		d[2] = {gx_ddi_vdiff_d(p[P->i], P->T[P->i]), gx_ddi_vdiff_d(p[P->j], P->T[P->j])};

	*t = gx_ddi_vdiv(gx_ddi_vcross2(d, P->e[1]), P->D);
	*u = gx_ddi_vdiv(gx_ddi_vcross2(P->e[0], d), P->D);
}

/* n . (p - T0): p's height over T's plane, scaled. */
static GxDDI
height(const GxCutPoints *P, const double *p)
{
	GxDDI		h = gx_ddi_vmul(P->n[0], gx_ddi_vdiff_d(p[0], P->T[0]));

	h = gx_ddi_vadd(h, gx_ddi_vmul(P->n[1], gx_ddi_vdiff_d(p[1], P->T[1])));
	return gx_ddi_vadd(h, gx_ddi_vmul(P->n[2], gx_ddi_vdiff_d(p[2], P->T[2])));
}

/* a + s (b - a). */
static GxDDI
along(GxDDI a, GxDDI b, GxDDI s)
{
	return gx_ddi_vadd(a, gx_ddi_vmul(s, gx_ddi_vsub(b, a)));
}

static size_t
vertex_node(GxCutPoints *P, const double *p)
{
	GxDDI		t,
				u;
	size_t		id;

	vertex_coords(P, p, &t, &u);
	if ((id = new_node(P, VERTEX, t, u)) != SIZE_MAX)
		P->node[id].a = p;
	return id;
}

static size_t
crossing_node(GxCutPoints *P, const double *a, const double *b)
{
	GxDDI		ta,
				ua,
				tb,
				ub,
				ha = height(P, a),
				lambda = gx_ddi_vdiv(ha, gx_ddi_vsub(ha, height(P, b)));
	size_t		id;

	vertex_coords(P, a, &ta, &ua);
	vertex_coords(P, b, &tb, &ub);
	if ((id = new_node(P, CROSSING, along(ta, tb, lambda), along(ua, ub, lambda))) != SIZE_MAX)
	{
		P->node[id].a = a;
		P->node[id].b = b;
	}
	return id;
}

int
gx_cpt_section(GxCutPoints *P, const double *tau, size_t p[3], int *nzero)
{
	int			side[3],
				pos = 0,
				neg = 0,
				n = 0;

	for (int k = 0; k < 3; k++)
	{
		side[k] = gx_orient3d(P->T, P->T + 3, P->T + 6, tau + 3 * k);
		pos += side[k] > 0;
		neg += side[k] < 0;
	}
	for (int k = 0; k < 3; k++)
		if (side[k] == 0)
			p[n++] = vertex_node(P, tau + 3 * k);
	*nzero = n;
	/* tau crosses the plane: its section ends where its edges cross it (or at its vertex on it) */
	if (pos > 0 && neg > 0)
		for (int k = 0; k < 3; k++)
		{
			int			j = (k + 1) % 3;

			if (side[k] * side[j] < 0)
				p[n++] = crossing_node(P, tau + 3 * k, tau + 3 * j);
		}
	if (P->nomem)
		return 0;
	if (n == 3 && gx_cpt_orient(P, p[0], p[1], p[2]) != 0)
	{
		if (!gx_grow_malloc((void **) &P->cover, &P->covercap, 3 * (P->ncover + 1), sizeof(size_t),
							SIZE_MAX / 64))
			P->nomem = true;
		else
			memcpy(P->cover + 3 * P->ncover++, p, 3 * sizeof(size_t));
	}
	return n;
}

/* --- predicates ----------------------------------------------------------------------------------------- */

/* The sign of x - y for coordinate c (0: t, 1: u) of points x and y. */
static int
compare(GxCutPoints *P, size_t x, size_t y, int c)
{
	const GxTU *ex,
			   *ey;

	if (!P->exact_only)
	{
		const Node *a = &P->node[x],
				   *b = &P->node[y];
		GxDDI		d;
		int			s;

		if (x == y)
			return 0;
		if (a->box[2 * c + 1] < b->box[2 * c])
			return -1;
		if (a->box[2 * c] > b->box[2 * c + 1])
			return 1;
		d = c ? gx_ddi_vsub(a->u, b->u) : gx_ddi_vsub(a->t, b->t);
		if ((s = gx_ddi_sign(&d)) != 2)
			return s;
	}
	ex = exact(P, x);
	ey = exact(P, y);
	return sign_of(c ? mpq_cmp(ex->u, ey->u) : mpq_cmp(ex->t, ey->t));
}

/* Are points a and b made the same way from the same doubles (so the same point)? */
static bool
made_alike(const GxCutPoints *P, size_t x, size_t y)
{
	const Node *a = &P->node[x],
			   *b = &P->node[y];

#define SAME3(p, q) ((p)[0] == (q)[0] && (p)[1] == (q)[1] && (p)[2] == (q)[2])
	if (a->kind != b->kind)
		return false;
	switch ((Kind) a->kind)
	{
		case CORNER:
			return a->ref[0] == b->ref[0];
		case VERTEX:
			return SAME3(a->a, b->a);
		case CROSSING:
			return (SAME3(a->a, b->a) && SAME3(a->b, b->b)) || (SAME3(a->a, b->b) && SAME3(a->b, b->a));
		default:
			return false;
	}
#undef SAME3
}

/* Do the enclosures of x and y surely differ in t or in u? */
static bool
apart(const GxCutPoints *P, size_t x, size_t y)
{
	const Node *a = &P->node[x],
			   *b = &P->node[y];

	for (int c = 0; c < 2; c++)
	{
		GxDDI		d = c ? gx_ddi_vsub(a->u, b->u) : gx_ddi_vsub(a->t, b->t);
		int			s;

		if (a->box[2 * c + 1] < b->box[2 * c] || a->box[2 * c] > b->box[2 * c + 1] ||
			((s = gx_ddi_sign(&d)) != 2 && s != 0))
			return true;
	}
	return false;
}

bool
gx_cpt_same(GxCutPoints *P, size_t a, size_t b)
{
	bool		same;

	if (a == b)
		return true;
	if (!P->exact_only && apart(P, a, b))
		return false;
	if (!P->exact_only && made_alike(P, a, b))
		same = true;
	else
	{
		const GxTU *x = exact(P, a),
				   *y = exact(P, b);

		same = mpq_equal(x->t, y->t) && mpq_equal(x->u, y->u);
	}
	if (same)
		for (int k = 0; k < P->node[b].nline; k++)
			gx_cpt_on_line(P, a, P->node[b].line[k]);
	return same;
}

int
gx_cpt_orient(GxCutPoints *P, size_t p, size_t q, size_t r)
{
	if (!P->exact_only)
	{
		const Node *a = &P->node[p],
				   *b = &P->node[q],
				   *c = &P->node[r];
		GxDDI		v;
		int			s;

		if (p == q || q == r || r == p || on_one_line(P, p, q, r))
			return 0;
		v = gx_ddi_vsub(gx_ddi_vmul(gx_ddi_vsub(b->t, a->t), gx_ddi_vsub(c->u, a->u)),
						gx_ddi_vmul(gx_ddi_vsub(b->u, a->u), gx_ddi_vsub(c->t, a->t)));
		if ((s = gx_ddi_sign(&v)) != 2)
			return s;
	}
	exact(P, p);
	exact(P, q);
	exact(P, r);
	return sign_of(gx_tu_orient(&P->pc, &P->node[p].x, &P->node[q].x, &P->node[r].x));
}

/* The enclosure of T's edge function k at p. */
static GxDDI
edge_value(const Node *a, int k)
{
	return k == 0 ? a->t : k == 1 ? a->u : gx_ddi_vsub(gx_ddi_vsub(ddi_one, a->t), a->u);
}

/* The sign of T's edge function k at point p. */
static int
edge_sign(GxCutPoints *P, size_t p, int k)
{
	GxTU		x;
	int			s;

	if (!P->exact_only)
	{
		const Node *a = &P->node[p];
		GxDDI		f = edge_value(a, k);

		for (int m = 0; m < a->nline; m++)
			if (a->line[m] == (uint32_t) k)
				return 0;
		if ((s = gx_ddi_sign(&f)) != 2)
			return s;
	}
	mpq_init(x.t);
	edge_function(x.t, exact(P, p), k);
	s = mpq_sgn(x.t);
	mpq_clear(x.t);
	return s;
}

/* The enclosure of s where T's edge function k is 0 on segment pq. */
static GxDDI
clip_param(const GxCutPoints *P, size_t p, size_t q, int k)
{
	GxDDI		f0 = edge_value(&P->node[p], k);

	return gx_ddi_vdiv(f0, gx_ddi_vsub(f0, edge_value(&P->node[q], k)));
}

/* The sign of s(k) - s(m) for the points where T's edge functions k and m are 0 on segment pq. */
static int
compare_params(GxCutPoints *P, size_t p, size_t q, int k, int m)
{
	mpq_t		a,
				b;
	int			c;

	if (!P->exact_only)
	{
		GxDDI		d = gx_ddi_vsub(clip_param(P, p, q, k), clip_param(P, p, q, m));

		if ((c = gx_ddi_sign(&d)) != 2)
			return c;
	}
	mpq_inits(a, b, NULL);
	exact_clip_param(P, p, q, k, a);
	exact_clip_param(P, p, q, m, b);
	c = sign_of(mpq_cmp(a, b));
	mpq_clears(a, b, NULL);
	return c;
}

/* The point of segment pq where T's edge function k is 0, on that edge's line. */
static size_t
clip_node(GxCutPoints *P, size_t p, size_t q, int k)
{
	GxDDI		s = clip_param(P, p, q, k);
	size_t		id = new_node(P, CLIP, along(P->node[p].t, P->node[q].t, s), along(P->node[p].u, P->node[q].u, s));

	if (id != SIZE_MAX)
	{
		P->node[id].ref[0] = p;
		P->node[id].ref[1] = q;
		P->node[id].ref[2] = (size_t) k;
		gx_cpt_on_line(P, id, (uint32_t) k);
	}
	return id;
}

bool
gx_cpt_clip(GxCutPoints *P, size_t p, size_t q, size_t r[2])
{
	int			lo = -1,		/* the edge function bounding each end; -1: the end itself (s 0 or 1) */
				hi = -1;

	/* each of T's edge functions t, u, 1 - t - u is affine along pq: a bound on s in [0, 1] */
	for (int k = 0; k < 3; k++)
	{
		int			s0 = edge_sign(P, p, k),
					s1 = p == q ? s0 : edge_sign(P, q, k);

		if (s0 < 0 && s1 < 0)
			return false;
		if (s0 < 0)				/* entering: s > 0 always, past the bound from 0 */
			lo = lo < 0 || compare_params(P, p, q, k, lo) > 0 ? k : lo;
		else if (s1 < 0)		/* leaving: s < 1 always */
			hi = hi < 0 || compare_params(P, p, q, k, hi) < 0 ? k : hi;
	}
	/* lo > hi is possible only with both bounded (0 <= s <= 1 otherwise) */
	if (lo >= 0 && hi >= 0 && compare_params(P, p, q, lo, hi) > 0)
		return false;
	r[0] = lo < 0 ? p : clip_node(P, p, q, lo);
	r[1] = hi < 0 ? q : clip_node(P, p, q, hi);
	return !P->nomem;
}

/* Do the boxes of segments a0a1 and b0b1 surely miss each other? */
static bool
boxes_apart(const GxCutPoints *P, size_t a0, size_t a1, size_t b0, size_t b1)
{
	const Node *p = &P->node[a0],
			   *q = &P->node[a1],
			   *r = &P->node[b0],
			   *s = &P->node[b1];

	for (int c = 0; c < 2; c++)
		if (fmax(p->box[2 * c + 1], q->box[2 * c + 1]) < fmin(r->box[2 * c], s->box[2 * c]) ||
			fmax(r->box[2 * c + 1], s->box[2 * c + 1]) < fmin(p->box[2 * c], q->box[2 * c]))
			return true;
	return false;
}

bool
gx_cpt_cross(GxCutPoints *P, size_t a0, size_t a1, size_t b0, size_t b1, size_t *x)
{
	const Node *p,
			   *q,
			   *r,
			   *s;
	GxDDI		o[2],
				sb;

	if (!P->exact_only && boxes_apart(P, a0, a1, b0, b1))
		return false;
	if (gx_cpt_orient(P, a0, a1, b0) * gx_cpt_orient(P, a0, a1, b1) >= 0 ||
		gx_cpt_orient(P, b0, b1, a0) * gx_cpt_orient(P, b0, b1, a1) >= 0)
		return false;
	/* o = (a1 - a0) x (b - a0) is affine along b: o[0] at b0, o[1] at b1; s = o[0] / (o[0] - o[1]) */
	p = &P->node[a0];
	q = &P->node[a1];
	for (int k = 0; k < 2; k++)
	{
		r = &P->node[k ? b1 : b0];
		o[k] = gx_ddi_vsub(gx_ddi_vmul(gx_ddi_vsub(q->t, p->t), gx_ddi_vsub(r->u, p->u)),
						   gx_ddi_vmul(gx_ddi_vsub(q->u, p->u), gx_ddi_vsub(r->t, p->t)));
	}
	sb = gx_ddi_vdiv(o[0], gx_ddi_vsub(o[0], o[1]));
	r = &P->node[b0];
	s = &P->node[b1];
	*x = new_node(P, MEET, along(r->t, s->t, sb), along(r->u, s->u, sb));
	if (*x == SIZE_MAX)
		return false;
	P->node[*x].ref[0] = a0;
	P->node[*x].ref[1] = a1;
	P->node[*x].ref[2] = b0;
	P->node[*x].ref[3] = b1;
	return true;
}

bool
gx_cpt_between(GxCutPoints *P, size_t a, size_t b, size_t p)
{
	int			c,
				lo,
				hi;

	if (!P->exact_only)
	{
		const Node *x = &P->node[a],
				   *y = &P->node[b],
				   *z = &P->node[p];

		if (p == a || p == b)
			return false;
		for (c = 0; c < 2; c++)
			if (z->box[2 * c + 1] < fmin(x->box[2 * c], y->box[2 * c]) ||
				z->box[2 * c] > fmax(x->box[2 * c + 1], y->box[2 * c + 1]))
				return false;
	}
	if (gx_cpt_orient(P, a, b, p) != 0)
		return false;
	/* on the line: compare along t, or along u for a segment of constant t */
	c = compare(P, a, b, 0) != 0 ? 0 : 1;
	lo = compare(P, a, p, c);
	hi = compare(P, p, b, c);
	return lo != 0 && hi != 0 && (lo > 0) == (hi > 0);
}

/* |x| when x's sign is certain; false when not. */
static bool
abs_of(GxDDI *x)
{
	int			s = gx_ddi_sign(x);

	if (s == 2)
		return false;
	if (s < 0)
	{
		x->hi = -x->hi;
		x->lo = -x->lo;
	}
	return true;
}

/* |t - ta| + |u - ua| for point p, exactly, into k. */
static void
exact_key(GxCutPoints *P, size_t a, size_t p, mpq_ptr k)
{
	const GxTU *xa = exact(P, a),
			   *xp = exact(P, p);
	mpq_t		w;

	mpq_init(w);
	mpq_sub(k, xp->t, xa->t);
	mpq_abs(k, k);
	mpq_sub(w, xp->u, xa->u);
	mpq_abs(w, w);
	mpq_add(k, k, w);
	mpq_clear(w);
}

int
gx_cpt_closer(GxCutPoints *P, size_t a, size_t p, size_t q)
{
	mpq_t		kp,
				kq;
	int			c;

	if (!P->exact_only)
	{
		const Node *x = &P->node[a];
		GxDDI		d[2][2];
		bool		ok = true;

		for (int k = 0; k < 2; k++)
		{
			const Node *y = &P->node[k ? q : p];

			d[k][0] = gx_ddi_vsub(y->t, x->t);
			d[k][1] = gx_ddi_vsub(y->u, x->u);
			ok = ok && abs_of(&d[k][0]) && abs_of(&d[k][1]);
		}
		if (ok)
		{
			GxDDI		diff = gx_ddi_vsub(gx_ddi_vadd(d[0][0], d[0][1]), gx_ddi_vadd(d[1][0], d[1][1]));

			if ((c = gx_ddi_sign(&diff)) != 2)
				return c;
		}
	}
	mpq_inits(kp, kq, NULL);
	exact_key(P, a, p, kp);
	exact_key(P, a, q, kq);
	c = sign_of(mpq_cmp(kp, kq));
	mpq_clears(kp, kq, NULL);
	return c;
}

int
gx_cpt_centroid(GxCutPoints *P, const size_t *v, mpq_ptr t, mpq_ptr u)
{
	GxTU		m;

	mpq_set_ui(t, 0, 1);
	mpq_set_ui(u, 0, 1);
	for (int k = 0; k < 3; k++)
	{
		const GxTU *x = exact(P, v[k]);

		mpq_add(t, t, x->t);
		mpq_add(u, u, x->u);
	}
	mpq_set_ui(P->pc.w[3], 3, 1);
	mpq_div(t, t, P->pc.w[3]);
	mpq_div(u, u, P->pc.w[3]);
	/* the covering triangles in rationals, once */
	for (; P->covers_made < P->ncover; P->covers_made++)
	{
		GxPlaneCoords *pc = &P->pc;

		if (!gx_grow_malloc((void **) &pc->cover, &pc->covercap, 3 * (pc->ncover + 1), sizeof(GxTU),
							SIZE_MAX / 512))
		{
			P->nomem = true;
			break;
		}
		for (int k = 0; k < 3; k++)
		{
			const GxTU *x = exact(P, P->cover[3 * P->covers_made + k]);
			GxTU	   *y = &pc->cover[3 * pc->ncover + k];

			mpq_inits(y->t, y->u, NULL);
			mpq_set(y->t, x->t);
			mpq_set(y->u, x->u);
		}
		pc->ncover++;
	}
	m.t[0] = *t;
	m.u[0] = *u;
	return gx_plane_covered(&P->pc, &m);
}

/* The enclosure of p's coordinates. */
static void
point3(const GxCutPoints *P, size_t p, GxDDI *x)
{
	const Node *nd = &P->node[p];

	for (int a = 0; a < 3; a++)
		if (nd->kind == VERTEX)
			x[a] = (GxDDI) {nd->a[a], 0, 0};
		else
			/* T0 + t (T1 - T0) + u (T2 - T0) */
			x[a] = gx_ddi_vadd(gx_ddi_vadd((GxDDI) {P->T[a], 0, 0}, gx_ddi_vmul(nd->t, P->E[0][a])),
							   gx_ddi_vmul(nd->u, P->E[1][a]));
}

int
gx_cpt_side(GxCutPoints *P, size_t p, const double *tau)
{
	const GxTU *x;
	mpq_t		o,
				d,
				w;
	int			sign;

	if (!P->exact_only)
	{
		GxDDI		X[3],
					u[3],
					v[3],
					h = ddi_zero;

		/* gx_orient3d(tau0, tau1, tau2, X) has the sign of -n . (X - tau0), n = (tau1 - tau0) x (tau2 - tau0) */
		point3(P, p, X);
		for (int a = 0; a < 3; a++)
		{
			u[a] = gx_ddi_vdiff_d(tau[3 + a], tau[a]);
			v[a] = gx_ddi_vdiff_d(tau[6 + a], tau[a]);
		}
		for (int a = 0; a < 3; a++)
		{
			GxDDI		n = gx_ddi_vsub(gx_ddi_vmul(u[(a + 1) % 3], v[(a + 2) % 3]),
										gx_ddi_vmul(u[(a + 2) % 3], v[(a + 1) % 3]));

			h = gx_ddi_vadd(h, gx_ddi_vmul(n, gx_ddi_vsub(X[a], (GxDDI) {tau[a], 0, 0})));
		}
		if ((sign = gx_ddi_sign(&h)) != 2)
			return -sign;
	}
	/* orient3d(tau, .) is affine: at T0 + t (T1 - T0) + u (T2 - T0) it is O0 + t (O1 - O0) + u (O2 - O0) */
	x = exact(P, p);
	mpq_inits(o, d, w, NULL);
	gx_orient3d_value(tau, tau + 3, tau + 6, P->T, o);
	mpq_set(w, o);
	for (int k = 1; k < 3; k++)
	{
		gx_orient3d_value(tau, tau + 3, tau + 6, P->T + 3 * k, d);
		mpq_sub(d, d, o);
		mpq_mul(d, d, k == 1 ? x->t : x->u);
		mpq_add(w, w, d);
	}
	sign = mpq_sgn(w);
	mpq_clears(o, d, w, NULL);
	return sign;
}

void
gx_cpt_round(GxCutPoints *P, size_t p, double *xyz)
{
	const Node *nd = &P->node[p];
	const GxTU *x;
	mpq_t		c,
				d,
				e;
	bool		done = true;

	if (!P->exact_only && (nd->kind == VERTEX || nd->kind == CORNER))
	{
		const double *v = nd->kind == VERTEX ? nd->a : P->T + 3 * nd->ref[0];

		for (int a = 0; a < 3; a++)
			xyz[a] = v[a] + 0.0;	/* the exact rationals' rounding gives +0 */
		return;
	}
	if (!P->exact_only)
	{
		GxDDI		X[3];

		point3(P, p, X);
		for (int a = 0; a < 3 && done; a++)
			done = gx_ddi_round(&X[a], &xyz[a]);
		if (done)
		{
			for (int a = 0; a < 3; a++)
				xyz[a] += 0.0;
			return;
		}
	}
	x = exact(P, p);
	mpq_inits(c, d, e, NULL);
	for (int a = 0; a < 3; a++)
	{
		/* T0 + t (T1 - T0) + u (T2 - T0), exactly */
		mpq_set_d(c, P->T[a]);
		for (int k = 1; k < 3; k++)
		{
			mpq_set_d(d, P->T[3 * k + a]);
			mpq_set_d(e, P->T[a]);
			mpq_sub(d, d, e);
			mpq_mul(d, d, k == 1 ? x->t : x->u);
			mpq_add(c, c, d);
		}
		xyz[a] = gx_mpq_get_d_nearest(c);
	}
	mpq_clears(c, d, e, NULL);
}
