/*
 * gx_delaunay.c: the 2.5D Delaunay triangulation of points in the (x, y) plane, each vertex keeping its z
 * (gx_delaunay), constrained by breaklines when given. Exact predicates on the stored doubles (gx_orient2d,
 * gx_incircle). Cocircular points: the triangulation is the Delaunay triangulation of the points with each
 * point's lifting x^2 + y^2 raised by eps^rank for an infinitesimal eps, rank its place in (x, y) order
 * (symbolic perturbation): a point earlier in that order counts as just outside the circle of three others
 * on one circle with it. It is one of the Delaunay triangulations, the same for any order of the input.
 *
 * Construction: Bowyer-Watson insertion in Hilbert-curve order, each point located by a walk from the last
 * triangle made, with ghost triangles (one vertex at infinity) around the convex hull, so a point outside the
 * hull is inserted as one inside. A ghost triangle (u, w, oo) conflicts with q when q lies strictly left of
 * u w, or on the segment u w. Breaklines are then inserted by flipping the edges they cross (Sloan 1993),
 * split at the points they pass through, and the Delaunay property restored by flips of unconstrained edges.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_incircle.h"
#include "algorithm/gx_predicates.h"
#include "base/gx_alloc.h"
#include "base/gx_interrupt.h"
#include "construct/gx_construct.h"

#define OO UINT32_MAX			/* the vertex at infinity */
#define NONE UINT32_MAX

/* A triangle counter-clockwise; edge i runs from v[i] to v[i + 1], nb[i] is across it, bit i of fixed a breakline. */
typedef struct Tri
{
	uint32_t	v[3];
	uint32_t	nb[3];
} Tri;

typedef struct Dt
{
	const double *p;			/* 3 doubles a point, in (x, y) order: the index is the rank */
	uint32_t	n;
	Tri		   *t;
	uint8_t    *fixed;
	uint32_t   *stamp;
	uint32_t	nt,
				cap,
				cur,
				last;
	uint32_t   *vt;				/* a triangle at each vertex */
	uint32_t   *start_of;		/* scratch: the new triangle whose first edge starts at a vertex (n: oo) */
	uint32_t   *stack,
			   *cavity;
	size_t		stack_cap;
	struct Edge
	{
		uint32_t	a,
					b,
					out;
		int			j;
	}		   *bnd;
	size_t		bnd_cap;
	uint64_t	rng;
	GxError    *err;
} Dt;

static inline const double *
P(const Dt *d, uint32_t i)
{
	return d->p + 3 * (size_t) i;
}

static inline int
orient(const Dt *d, uint32_t a, uint32_t b, uint32_t c)
{
	return gx_orient2d(P(d, a), P(d, b), P(d, c), 2);
}

/* incircle of a b c (counter-clockwise) and q, perturbed: never 0 for four distinct points, no three on a line. */
static int
incircle(const Dt *d, uint32_t a, uint32_t b, uint32_t c, uint32_t q)
{
	const uint32_t id[4] = {a, b, c, q};
	int			s = gx_incircle(P(d, a), P(d, b), P(d, c), P(d, q));
	bool		done[4] = {false, false, false, false};

	/* the coefficient of point k's lifting is (-1)^k orient2d of the three others: the lowest rank first */
	for (int round = 0; s == 0 && round < 4; round++)
	{
		int			k = -1,
					o[3],
					m = 0;

		for (int i = 0; i < 4; i++)
			if (!done[i] && (k < 0 || id[i] < id[k]))
				k = i;
		done[k] = true;
		for (int i = 0; i < 4; i++)
			if (i != k)
				o[m++] = (int) id[i];
		s = orient(d, (uint32_t) o[0], (uint32_t) o[1], (uint32_t) o[2]);
		s = k % 2 ? -s : s;
	}
	return s;
}

/* q lies strictly between u and w, all three on one line. */
static bool
between(const Dt *d, uint32_t u, uint32_t w, uint32_t q)
{
	int			k = P(d, u)[0] != P(d, w)[0] ? 0 : 1;
	double		lo = P(d, u)[k] < P(d, w)[k] ? P(d, u)[k] : P(d, w)[k],
				hi = P(d, u)[k] < P(d, w)[k] ? P(d, w)[k] : P(d, u)[k];

	return P(d, q)[k] > lo && P(d, q)[k] < hi;
}

static inline bool
is_ghost(const Tri *t)
{
	return t->v[0] == OO || t->v[1] == OO || t->v[2] == OO;
}

static bool
conflict(const Dt *d, uint32_t ti, uint32_t q)
{
	const Tri  *t = &d->t[ti];

	if (!is_ghost(t))
		return incircle(d, t->v[0], t->v[1], t->v[2], q) > 0;
	for (int i = 0; i < 3; i++)
		if (t->v[(i + 2) % 3] == OO)
		{
			int			o = orient(d, t->v[i], t->v[(i + 1) % 3], q);

			return o > 0 || (o == 0 && between(d, t->v[i], t->v[(i + 1) % 3], q));
		}
	return false;
}

static bool
grow(Dt *d, size_t need)
{
	if (need <= d->cap)
		return true;
	{
		size_t		cap = d->cap * 2 > need ? d->cap * 2 : need;
		Tri		   *t = gx_realloc(d->t, cap * sizeof(Tri));
		uint32_t   *s = t ? gx_realloc(d->stamp, cap * sizeof(uint32_t)) : NULL;
		uint8_t    *f = s ? gx_realloc(d->fixed, cap) : NULL;

		if (t)
			d->t = t;
		if (s)
			d->stamp = s;
		if (f)
			d->fixed = f;
		if (!t || !s || !f || cap >= UINT32_MAX)
		{
			gx_error_set(d->err, GX_ERR_NOMEM, "gx_delaunay: out of memory for %zu triangles", cap);
			return false;
		}
		for (size_t i = d->cap; i < cap; i++)
			d->stamp[i] = 0, d->fixed[i] = 0;
		d->cap = (uint32_t) cap;
	}
	return true;
}

static bool
scratch(Dt *d, size_t need)
{
	if (need > d->stack_cap)
	{
		size_t		cap = need * 2;
		uint32_t   *s = gx_realloc(d->stack, cap * sizeof(uint32_t));
		uint32_t   *c = s ? gx_realloc(d->cavity, cap * sizeof(uint32_t)) : NULL;

		if (s)
			d->stack = s;
		if (c)
			d->cavity = c;
		if (!s || !c)
			goto nomem;
		d->stack_cap = cap;
	}
	if (need > d->bnd_cap)
	{
		size_t		cap = need * 2;
		struct Edge *b = gx_realloc(d->bnd, cap * sizeof(struct Edge));

		if (!b)
			goto nomem;
		d->bnd = b;
		d->bnd_cap = cap;
	}
	return true;
nomem:
	gx_error_set(d->err, GX_ERR_NOMEM, "gx_delaunay: out of memory");
	return false;
}

static inline uint32_t
slot(uint32_t v, uint32_t n)
{
	return v == OO ? n : v;
}

/* The triangle holding q, or a ghost triangle that conflicts with it: a visibility walk from d->last. */
static uint32_t
locate(Dt *d, uint32_t q)
{
	uint32_t	ti = d->last;

	for (;;)
	{
		const Tri  *t = &d->t[ti];
		int			r;
		bool		moved = false;

		if (is_ghost(t))
			return ti;
		d->rng ^= d->rng << 13, d->rng ^= d->rng >> 7, d->rng ^= d->rng << 17;
		r = (int) (d->rng % 3);
		for (int k = 0; k < 3 && !moved; k++)
		{
			int			i = (r + k) % 3;

			if (orient(d, t->v[i], t->v[(i + 1) % 3], q) < 0)
			{
				ti = t->nb[i];
				moved = true;
			}
		}
		if (!moved)
			return ti;
	}
}

static int
edge_index(const Tri *t, uint32_t nb)
{
	return t->nb[0] == nb ? 0 : t->nb[1] == nb ? 1 : 2;
}

/* Bowyer-Watson: the triangles in conflict with q replaced by q joined to their boundary. */
static bool
insert(Dt *d, uint32_t q)
{
	uint32_t	t0 = locate(d, q);
	size_t		ns = 0,
				nc = 0,
				nb = 0,
				reuse = 0;

	d->cur++;
	d->stamp[t0] = d->cur;
	d->stack[ns++] = t0;
	d->cavity[nc++] = t0;
	while (ns > 0)
	{
		uint32_t	ti = d->stack[--ns];

		for (int i = 0; i < 3; i++)
		{
			uint32_t	s = d->t[ti].nb[i];

			if (d->stamp[s] == d->cur)
				continue;
			if (conflict(d, s, q))
			{
				d->stamp[s] = d->cur;
				if (!scratch(d, nc + 1))
					return false;
				d->stack[ns++] = s;
				d->cavity[nc++] = s;
			}
			else
			{
				if (!scratch(d, nb + 1))
					return false;
				d->bnd[nb].a = d->t[ti].v[i];
				d->bnd[nb].b = d->t[ti].v[(i + 1) % 3];
				d->bnd[nb].out = s;
				d->bnd[nb].j = edge_index(&d->t[s], ti);
				nb++;
			}
		}
	}
	if (!grow(d, (size_t) d->nt + nb))
		return false;
	for (size_t k = 0; k < nb; k++)
	{
		uint32_t	ti = reuse < nc ? d->cavity[reuse++] : d->nt++;
		Tri		   *t = &d->t[ti];
		struct Edge *e = &d->bnd[k];

		t->v[0] = e->a, t->v[1] = e->b, t->v[2] = q;
		t->nb[0] = e->out;
		d->t[e->out].nb[e->j] = ti;
		d->fixed[ti] = 0;
		d->start_of[slot(e->a, d->n)] = ti;
		if (e->a != OO)
			d->vt[e->a] = ti;
		if (e->b == OO || e->a == OO)
			continue;
		d->last = ti;
	}
	d->vt[q] = d->last;
	for (size_t k = 0; k < nb; k++)
	{
		uint32_t	ti = d->start_of[slot(d->bnd[k].a, d->n)];
		uint32_t	next = d->start_of[slot(d->t[ti].v[1], d->n)];

		d->t[ti].nb[1] = next;
		d->t[next].nb[2] = ti;
	}
	return true;
}

/* The first three points of the order not on one line, as one triangle and its three ghosts. */
static bool
start(Dt *d, uint32_t *order)
{
	uint32_t	a = order[0],
				b = order[1],
				c;
	size_t		k = 2;

	while (k < d->n && orient(d, a, b, order[k]) == 0)
		k++;
	if (k == d->n)
	{
		gx_error_set(d->err, GX_ERR_INVALID, "gx_delaunay: all %u points lie on one line in (x, y): there is no "
					 "triangle", d->n);
		return false;
	}
	c = order[k];
	order[k] = order[2];
	order[2] = c;
	if (orient(d, a, b, c) < 0)
	{
		uint32_t	t = b;

		b = c;
		c = t;
	}
	if (!grow(d, 4))
		return false;
	d->t[0] = (Tri) {{a, b, c}, {1, 2, 3}};
	d->t[1] = (Tri) {{b, a, OO}, {0, 3, 2}};
	d->t[2] = (Tri) {{c, b, OO}, {0, 1, 3}};
	d->t[3] = (Tri) {{a, c, OO}, {0, 2, 1}};
	d->nt = 4;
	d->last = 0;
	d->vt[a] = d->vt[b] = d->vt[c] = 0;
	return true;
}

/* Hilbert index of (x, y) in [0, 65535]^2. */
static uint32_t
hilbert(uint32_t x, uint32_t y)
{
	uint32_t	h = 0;

	for (uint32_t s = 1u << 15; s > 0; s >>= 1)
	{
		uint32_t	rx = (x & s) > 0,
					ry = (y & s) > 0;

		h += s * s * ((3 * rx) ^ ry);
		if (ry == 0)
		{
			if (rx == 1)
				x = 65535 - x, y = 65535 - y;
			{
				uint32_t	t = x;

				x = y;
				y = t;
			}
		}
	}
	return h;
}

static int
u64_cmp(const void *x, const void *y)
{
	uint64_t	a = *(const uint64_t *) x,
				b = *(const uint64_t *) y;

	return (a > b) - (a < b);
}

/* The points' indexes in Hilbert-curve order of their (x, y) (an order for speed only). */
static uint32_t *
hilbert_order(const Dt *d)
{
	uint64_t   *key = gx_alloc(d->n * sizeof(uint64_t));
	uint32_t   *order = gx_alloc(d->n * sizeof(uint32_t));
	double		lo[2] = {P(d, 0)[0], P(d, 0)[1]},
				hi[2] = {P(d, 0)[0], P(d, 0)[1]};

	if (!key || !order)
	{
		gx_free(key);
		gx_free(order);
		return NULL;
	}
	for (uint32_t i = 0; i < d->n; i++)
		for (int k = 0; k < 2; k++)
		{
			lo[k] = P(d, i)[k] < lo[k] ? P(d, i)[k] : lo[k];
			hi[k] = P(d, i)[k] > hi[k] ? P(d, i)[k] : hi[k];
		}
	for (uint32_t i = 0; i < d->n; i++)
	{
		uint32_t	q[2];

		for (int k = 0; k < 2; k++)
		{
			double		f = hi[k] > lo[k] ? (P(d, i)[k] - lo[k]) / (hi[k] - lo[k]) : 0;

			q[k] = (uint32_t) (f * 65535.0);
			q[k] = q[k] > 65535 ? 65535 : q[k];
		}
		key[i] = ((uint64_t) hilbert(q[0], q[1]) << 32) | i;
	}
	qsort(key, d->n, sizeof(uint64_t), u64_cmp);
	for (uint32_t i = 0; i < d->n; i++)
		order[i] = (uint32_t) key[i];
	gx_free(key);
	return order;
}

/* The triangle and edge index of the edge from u to w; false when there is none. */
static bool
find_edge(const Dt *d, uint32_t u, uint32_t w, uint32_t *ti, int *ei)
{
	uint32_t	t = d->vt[u],
				first = t;

	do
	{
		const Tri  *tr = &d->t[t];
		int			i = tr->v[0] == u ? 0 : tr->v[1] == u ? 1 : 2;

		if (tr->v[(i + 1) % 3] == w)
		{
			*ti = t;
			*ei = i;
			return true;
		}
		t = tr->nb[(i + 2) % 3];	/* the next triangle counter-clockwise around u */
	} while (t != first);
	return false;
}

/* Flips edge i of triangle ti: (a, b, c) and (b, a, e) become (a, e, c) and (e, b, c). */
static void
flip(Dt *d, uint32_t ti, int i)
{
	Tri		   *t = &d->t[ti];
	uint32_t	si = t->nb[i];
	Tri		   *s = &d->t[si];
	int			j = edge_index(s, ti);
	uint32_t	a = t->v[i],
				b = t->v[(i + 1) % 3],
				c = t->v[(i + 2) % 3],
				e = s->v[(j + 2) % 3];
	uint32_t	n_bc = t->nb[(i + 1) % 3],
				n_ca = t->nb[(i + 2) % 3],
				n_ae = s->nb[(j + 1) % 3],
				n_eb = s->nb[(j + 2) % 3];
	int			f_bc = (d->fixed[ti] >> ((i + 1) % 3)) & 1,
				f_ca = (d->fixed[ti] >> ((i + 2) % 3)) & 1,
				f_ae = (d->fixed[si] >> ((j + 1) % 3)) & 1,
				f_eb = (d->fixed[si] >> ((j + 2) % 3)) & 1;

	*t = (Tri) {{a, e, c}, {n_ae, si, n_ca}};
	*s = (Tri) {{e, b, c}, {n_eb, n_bc, ti}};
	d->fixed[ti] = (uint8_t) (f_ae | (f_ca << 2));
	d->fixed[si] = (uint8_t) (f_eb | (f_bc << 1));
	d->t[n_ae].nb[edge_index(&d->t[n_ae], si)] = ti;
	d->t[n_bc].nb[edge_index(&d->t[n_bc], ti)] = si;
	if (a != OO)
		d->vt[a] = ti;
	if (c != OO)
		d->vt[c] = ti;
	if (e != OO)
		d->vt[e] = si;
	if (b != OO)
		d->vt[b] = si;
}

static void
set_fixed(Dt *d, uint32_t ti, int i)
{
	uint32_t	si = d->t[ti].nb[i];

	d->fixed[ti] |= (uint8_t) (1 << i);
	d->fixed[si] |= (uint8_t) (1 << edge_index(&d->t[si], ti));
}

static void
name_segment(const Dt *d, uint32_t a, uint32_t b, const char *what)
{
	gx_error_set(d->err, GX_ERR_UNSUPPORTED, "gx_delaunay: the breakline segment (%.17g %.17g)-(%.17g %.17g) %s",
				 P(d, a)[0], P(d, a)[1], P(d, b)[0], P(d, b)[1], what);
}

/* Appends the edge p q to the list of crossing edges. */
static bool
push_pair(Dt *d, uint32_t **list, size_t *n, size_t *cap, uint32_t p, uint32_t q)
{
	if (*n + 2 > *cap)
	{
		size_t		c = 2 * *cap + 16;
		uint32_t   *l = gx_realloc(*list, c * sizeof(uint32_t));

		if (!l)
		{
			gx_error_set(d->err, GX_ERR_NOMEM, "gx_delaunay: out of memory");
			return false;
		}
		*list = l;
		*cap = c;
	}
	(*list)[(*n)++] = p;
	(*list)[(*n)++] = q;
	return true;
}

/* The vertex of the triangle across edge ei of triangle ti that is not on that edge. */
static uint32_t
apex_across(const Dt *d, uint32_t ti, int ei)
{
	uint32_t	si = d->t[ti].nb[ei];
	const Tri  *s = &d->t[si];

	return s->v[(edge_index(s, ti) + 2) % 3];
}

/*
 * The piece of a b from a to its first point, end (b, or a point lying on the segment), made an edge: the
 * edges it crosses flipped away (Sloan: one whose quadrilateral is not strictly convex waits for the others).
 * Crossing a breakline already fixed is an error naming both.
 */
static bool
insert_piece(Dt *d, uint32_t a, uint32_t b, uint32_t *end)
{
	uint32_t	ti = d->vt[a],
				first = ti,
				u = NONE,
				w = NONE,
				*cross = NULL;
	size_t		nc = 0,
				cap = 0,
				head = 0,
				guard = 0;
	int			ei;
	bool		ok = true;

	*end = b;
	if (find_edge(d, a, b, &ti, &ei))
		goto fix;
	/* the triangle around a that the segment enters, between its edges a u and a w, or a point on it */
	ti = first;
	do
	{
		const Tri  *t = &d->t[ti];
		int			i = t->v[0] == a ? 0 : t->v[1] == a ? 1 : 2;
		uint32_t	x = t->v[(i + 1) % 3],
					y = t->v[(i + 2) % 3];

		if (x != OO && y != OO)
		{
			int			ox = orient(d, a, x, b);

			if (ox == 0 && between(d, a, b, x))
			{
				*end = x;
				if (find_edge(d, a, x, &ti, &ei))
					goto fix;
			}
			if (ox > 0 && orient(d, a, y, b) < 0)
			{
				u = x;
				w = y;
				break;
			}
		}
		ti = t->nb[(i + 2) % 3];
	} while (ti != first);
	if (u == NONE)
	{
		name_segment(d, a, b, "leaves the triangulation");
		return false;
	}
	/* walk along a b, listing the edges it crosses (u on its right, w on its left) */
	for (;;)
	{
		uint32_t	x;
		int			o;

		if (!find_edge(d, u, w, &ti, &ei))
			break;
		if ((d->fixed[ti] >> ei) & 1)
		{
			gx_error_set(d->err, GX_ERR_UNSUPPORTED, "gx_delaunay: the breakline segments (%.17g %.17g)-(%.17g %.17g) "
						 "and (%.17g %.17g)-(%.17g %.17g) cross", P(d, a)[0], P(d, a)[1], P(d, b)[0], P(d, b)[1],
						 P(d, u)[0], P(d, u)[1], P(d, w)[0], P(d, w)[1]);
			ok = false;
			goto done;
		}
		if (!push_pair(d, &cross, &nc, &cap, u, w))
		{
			ok = false;
			goto done;
		}
		x = apex_across(d, ti, ei);
		if (x == b)
			break;
		o = orient(d, a, b, x);
		if (o == 0)
		{
			*end = x;
			break;
		}
		if (o > 0)
			w = x;
		else
			u = x;
	}
	while (head < nc && ok)
	{
		uint32_t	p = cross[head],
					q = cross[head + 1],
					c,
					e;

		head += 2;
		if (++guard > 64 * (nc + 16))
		{
			name_segment(d, a, b, "could not be made an edge");
			ok = false;
			break;
		}
		if (!find_edge(d, p, q, &ti, &ei))
			continue;
		c = d->t[ti].v[(ei + 2) % 3];
		e = apex_across(d, ti, ei);
		if (orient(d, c, e, p) * orient(d, c, e, q) >= 0)
		{
			ok = push_pair(d, &cross, &nc, &cap, p, q);
			continue;
		}
		flip(d, ti, ei);
		/* the new edge c e still crosses a end when c and e lie strictly on either side of its line */
		if (orient(d, a, *end, c) * orient(d, a, *end, e) < 0)
			ok = push_pair(d, &cross, &nc, &cap, c, e);
	}
done:
	gx_free(cross);
	if (!ok)
		return false;
	if (!find_edge(d, a, *end, &ti, &ei))
	{
		name_segment(d, a, *end, "could not be made an edge");
		return false;
	}
fix:
	set_fixed(d, ti, ei);
	return true;
}

/* Makes the segment a b a chain of fixed edges, split at the points lying on it. */
static bool
insert_segment(Dt *d, uint32_t a, uint32_t b)
{
	while (a != b)
	{
		uint32_t	end;

		if (!insert_piece(d, a, b, &end))
			return false;
		a = end;
	}
	return true;
}

/* Flips every unfixed edge that fails the (perturbed) empty-circle test until none does (Lawson). */
static bool
restore(Dt *d)
{
	size_t		n = 0,
				cap = 4 * (size_t) d->nt;
	uint32_t   *stack = gx_alloc(cap * sizeof(uint32_t));

	if (!stack)
		goto nomem;
	for (uint32_t t = 0; t < d->nt; t++)
		for (int i = 0; i < 3; i++)
			stack[n++] = t << 2 | (uint32_t) i;
	while (n > 0)
	{
		uint32_t	t = stack[--n] >> 2,
					si;
		int			i = (int) (stack[n] & 3);
		const Tri  *tr = &d->t[t];

		if ((d->fixed[t] >> i) & 1 || is_ghost(tr) || is_ghost(&d->t[tr->nb[i]]) ||
			incircle(d, tr->v[0], tr->v[1], tr->v[2], apex_across(d, t, i)) <= 0)
			continue;
		si = tr->nb[i];
		flip(d, t, i);
		if (n + 4 > cap)
		{
			uint32_t   *s = gx_realloc(stack, (cap *= 2) * sizeof(uint32_t));

			if (!s)
				goto nomem;
			stack = s;
		}
		stack[n++] = t << 2 | 0;
		stack[n++] = t << 2 | 2;
		stack[n++] = si << 2 | 0;
		stack[n++] = si << 2 | 1;
	}
	gx_free(stack);
	return true;
nomem:
	gx_free(stack);
	gx_error_set(d->err, GX_ERR_NOMEM, "gx_delaunay: out of memory");
	return false;
}

typedef struct Gather
{
	double	   *p;
	size_t		n;
	bool		lines_only;
	GxError    *err;
} Gather;

static bool
gather_leaf(void *ctx, const GxNode *leaf)
{
	Gather	   *g = ctx;
	size_t		k = (size_t) gx_leaf_doubles(leaf->type, leaf->count);

	if (g->lines_only && leaf->type != GX_LINESTRING)
	{
		gx_error_set(g->err, GX_ERR_INVALID, "gx_delaunay: breaklines are LINESTRINGs, not a %s",
					 gx_type_name(leaf->type));
		return false;
	}
	if (g->p)
		memcpy(g->p + 3 * g->n, gx_node_coords(leaf), k * sizeof(double));
	g->n += k / 3;
	return true;
}

static int
xyz_cmp(const void *x, const void *y)
{
	const double *a = x,
			   *b = y;

	for (int k = 0; k < 3; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

static int
xy_cmp(const void *x, const void *y)
{
	const double *a = x,
			   *b = y;

	for (int k = 0; k < 2; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

/* Inserts each breakline LINESTRING's segments (their vertices are among the points). */
static bool
segment_leaf(void *ctx, const GxNode *leaf)
{
	Dt		   *d = ctx;
	const double *c = gx_node_coords(leaf);

	for (uint32_t i = 0; i + 1 < leaf->count; i++)
	{
		const double *p = bsearch(c + 3 * i, d->p, d->n, 3 * sizeof(double), xy_cmp),
				   *q = bsearch(c + 3 * i + 3, d->p, d->n, 3 * sizeof(double), xy_cmp);

		if (!insert_segment(d, (uint32_t) ((p - d->p) / 3), (uint32_t) ((q - d->p) / 3)))
			return false;
	}
	return true;
}

GxSerialized *
gx_delaunay(const GxSerialized *points, const GxSerialized *breaklines, size_t *size, GxError *err)
{
	Gather		g = {NULL, 0, false, err};
	Dt			d;
	uint32_t   *order = NULL;
	size_t		n = 0,
				node,
				count = 0;
	GxSerialized *out = NULL;
	GxBuilder	b;

	memset(&d, 0, sizeof(d));
	d.err = err;
	d.rng = 0x9E3779B97F4A7C15ULL;
	if (breaklines && !gx_srids_match(points, breaklines, err))
		return NULL;
	gx_node_walk(gx_body(points), gather_leaf, &g);
	g.lines_only = true;
	if (breaklines && !gx_node_walk(gx_body(breaklines), gather_leaf, &g))
		return NULL;
	if (g.n >= UINT32_MAX / 4)
	{
		gx_error_set(err, GX_ERR_LIMIT, "gx_delaunay: %zu points are too many", g.n);
		return NULL;
	}
	g.p = gx_alloc((g.n ? g.n : 1) * 3 * sizeof(double));
	if (!g.p)
		goto nomem;
	g.n = 0;
	g.lines_only = false;
	gx_node_walk(gx_body(points), gather_leaf, &g);
	if (breaklines)
		gx_node_walk(gx_body(breaklines), gather_leaf, &g);
	qsort(g.p, g.n, 3 * sizeof(double), xyz_cmp);
	for (size_t i = 0; i < g.n; i++)
	{
		if (n > 0 && xy_cmp(g.p + 3 * (n - 1), g.p + 3 * i) == 0)
		{
			if (g.p[3 * (n - 1) + 2] != g.p[3 * i + 2])
			{
				gx_error_set(err, GX_ERR_INVALID, "gx_delaunay: two points at (%.17g %.17g) have different z: "
							 "%.17g and %.17g", g.p[3 * i], g.p[3 * i + 1], g.p[3 * (n - 1) + 2], g.p[3 * i + 2]);
				goto done;
			}
			continue;
		}
		memmove(g.p + 3 * n++, g.p + 3 * i, 3 * sizeof(double));
	}
	if (n < 3)
	{
		gx_error_set(err, GX_ERR_INVALID, "gx_delaunay: %zu distinct point%s in (x, y): a triangulation needs at "
					 "least 3", n, n == 1 ? "" : "s");
		goto done;
	}
	d.p = g.p;
	d.n = (uint32_t) n;
	d.vt = gx_alloc(n * sizeof(uint32_t));
	d.start_of = gx_alloc((n + 1) * sizeof(uint32_t));
	order = hilbert_order(&d);
	if (!d.vt || !d.start_of || !order || !grow(&d, 2 * n + 8) || !scratch(&d, 64))
		goto nomem;
	if (!start(&d, order))
		goto done;
	for (uint32_t i = 3; i < d.n; i++)
	{
		if (!insert(&d, order[i]))
			goto done;
		gx_maybe_interrupt(i);
	}
	if (breaklines)
	{
		if (!gx_node_walk(gx_body(breaklines), segment_leaf, &d) || !restore(&d))
			goto done;
	}
	gx_builder_init(&b, err);
	gx_builder_reserve(&b, (size_t) d.nt * 9 * sizeof(double) + 64);
	node = gx_builder_begin(&b, GX_TIN);
	for (uint32_t t = 0; t < d.nt; t++)
	{
		if (is_ghost(&d.t[t]))
			continue;
		for (int k = 0; k < 3; k++)
			gx_builder_coord(&b, P(&d, d.t[t].v[k])[0], P(&d, d.t[t].v[k])[1], P(&d, d.t[t].v[k])[2]);
		count++;
	}
	gx_builder_end(&b, node, (uint32_t) count);
	out = gx_builder_finish(&b, points->srid != 0 ? points->srid : breaklines ? breaklines->srid : 0, size);
	goto done;
nomem:
	gx_error_set(err, GX_ERR_NOMEM, "gx_delaunay: out of memory for %zu points", g.n);
done:
	gx_free(order);
	gx_free(d.vt);
	gx_free(d.start_of);
	gx_free(d.t);
	gx_free(d.fixed);
	gx_free(d.stamp);
	gx_free(d.stack);
	gx_free(d.cavity);
	gx_free(d.bnd);
	gx_free(g.p);
	return out;
}
