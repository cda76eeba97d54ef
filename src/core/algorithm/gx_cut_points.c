/*
 * gx_cut_points.c: the points of a cut (gx_cut_impl.h): each with a certified enclosure of its (t, u) and the
 * domain edges' lines it is known to lie on; its rationals made only when a decision, a piece point or a
 * rounding needs them (from how it was made: a crossing of T's plane, or a crossing segment clipped at a
 * domain edge); deduplicated from the enclosures first; the orientations and orders among points decided
 * from the enclosures, in rationals only where these cannot decide.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_cut_impl.h"
#include "base/gx_alloc.h"

/*
 * An enclosure of q: the double mpq_get_d truncates it to (|q - d| < ulp(d) <= 2^-52 |d|, or below 2^-1022
 * where d is subnormal or 0), radius 0 when q is that double (an integer or a power of two's fraction of 53
 * bits or fewer, in the normal range).
 */
void
gx_cut_enclose(mpq_srcptr q, GxDDI *r)
{
	double		d = mpq_get_d(q);
	mpz_srcptr	den = mpq_denref(q);

	r->hi = d;
	r->lo = 0;
	if (mpz_sizeinbase(mpq_numref(q), 2) <= 53 && mpz_scan1(den, 0) + 1 == mpz_sizeinbase(den, 2) &&
		(d == 0 ? mpq_sgn(q) == 0 : fabs(d) >= 0x1p-1022 && isfinite(d)))
		r->rad = 0;
	else if (isfinite(d))
		r->rad = (fabs(d) * 0x1p-52 + 0x1p-1022) * GX_DDI_UP;
	else
	{
		r->hi = 0;
		r->rad = INFINITY;
	}
}

bool
gx_cut_room(GxCut *c)
{
	if (c->npt + c->ncut < c->limit)
		return true;
	c->over = true;
	return false;
}

/* v = (b - a) x (x - a); w scratch. */
void
gx_cut_edge_value(const Point *a, const Point *b, const Point *x, mpq_ptr v, mpq_ptr w)
{
	mpq_t		d;

	mpq_init(d);
	mpq_sub(v, b->t, a->t);
	mpq_sub(d, x->u, a->u);
	mpq_mul(v, v, d);
	mpq_sub(w, b->u, a->u);
	mpq_sub(d, x->t, a->t);
	mpq_mul(w, w, d);
	mpq_sub(v, v, w);
	mpq_clear(d);
}

/* Domain triangle k's edge function e at x: T's t, u and 1 - t - u, another's (b - a) x (x - a); w scratch. */
void
gx_cut_dom_edge_value(const GxCut *c, size_t k, int e, const Point *x, mpq_ptr v, mpq_ptr w)
{
	if (k > 0)
		gx_cut_edge_value(&c->dom[3 * k + e], &c->dom[3 * k + (e + 1) % 3], x, v, w);
	else if (e < 2)
		mpq_set(v, e ? x->u : x->t);
	else
	{
		mpq_set_ui(v, 1, 1);
		mpq_sub(v, v, x->t);
		mpq_sub(v, v, x->u);
	}
}

/* Point k, its rationals made as its Lazy says when they are not yet. */
const Point *
gx_cut_exact_pt(GxCut *c, size_t k)
{
	Point	   *x = &c->pt[k];
	Lazy	   *l = &c->lazy[k];
	Point		q;
	mpq_t		s,
				f,
				w;

	if (l->made)
		return x;
	gx_tu_of_crossing(&c->f, l->x, l->x + 3, x);
	if (l->make == CLIP)
	{
		/* the crossing x + s (q - x) of segment xq with the domain edge, s = f(x) / (f(x) - f(q)) */
		mpq_inits(q.t, q.u, s, f, w, NULL);
		gx_tu_of_crossing(&c->f, l->x + 6, l->x + 9, &q);
		gx_cut_dom_edge_value(c, l->dtri, l->dedge, x, s, w);
		gx_cut_dom_edge_value(c, l->dtri, l->dedge, &q, f, w);
		mpq_sub(f, s, f);
		mpq_div(s, s, f);
		gx_tu_along(f, w, x, &q, s);
		mpq_swap(x->t, f);
		mpq_swap(x->u, w);
		mpq_clears(q.t, q.u, s, f, w, NULL);
	}
	l->made = true;
	return x;
}

/* Do enclosures a and b certainly differ? */
static bool
apart(const Near *a, const Near *b)
{
	GxDDI		d;
	int			o;

	gx_ddi_sub(&d, &a->t, &b->t);
	if ((o = gx_ddi_sign(&d)) == 1 || o == -1)
		return true;
	gx_ddi_sub(&d, &a->u, &b->u);
	return (o = gx_ddi_sign(&d)) == 1 || o == -1;
}

static bool
same_xyz(const double *a, const double *b)
{
	return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* Are ab and pq the same edge? */
bool
gx_cut_same_edge(const double *a, const double *b, const double *p, const double *q)
{
	return (same_xyz(a, p) && same_xyz(b, q)) || (same_xyz(a, q) && same_xyz(b, p));
}

/* gx_cut_impl.h */
void
gx_cut_dom_edge_ends(const GxCut *c, size_t k, int e, const double **a, const double **b)
{
	static const int tedge[3][2] = {{0, 2}, {0, 1}, {1, 2}};	/* T's corners where t = 0, u = 0, t + u = 1 */
	const double *d = c->domxyz + 9 * k;

	*a = d + 3 * (k ? e : tedge[e][0]);
	*b = d + 3 * (k ? (e + 1) % 3 : tedge[e][1]);
}

/* The id of the line of domain triangle k's edge e (as clip_to numbers them); UINT32_MAX without memory. */
uint32_t
gx_cut_line_of(GxCut *c, size_t k, int e)
{
	const double *a,
			   *b;
	size_t		x;

	gx_cut_dom_edge_ends(c, k, e, &a, &b);

	/* an edge shared by two domain triangles is one line (after every gx_cut_extend: c->domxyz stays) */
	for (x = 0; x < c->nline; x++)
		if (gx_cut_same_edge(c->line[2 * x], c->line[2 * x + 1], a, b))
			return (uint32_t) x;
	if (x >= UINT32_MAX - 1 ||
		!gx_grow_malloc((void **) &c->line, &c->linecap, 2 * (x + 1), sizeof(double *), SIZE_MAX / 512))
		return UINT32_MAX;
	c->line[2 * x] = a;
	c->line[2 * x + 1] = b;
	c->nline++;
	return (uint32_t) x;
}

/* Point p lies on line id (gx_cut_line_of). */
void
gx_cut_on_line(GxCut *c, size_t p, uint32_t id)
{
	Lazy	   *l;

	if (p == SIZE_MAX || id == UINT32_MAX)
		return;
	l = &c->lazy[p];
	for (int k = 0; k < l->nline; k++)
		if (l->line[k] == id)
			return;
	if (l->nline < LINES)
		l->line[l->nline++] = id;
}

/* Do points a, b and p lie on one domain edge's line? */
static bool
one_line(const GxCut *c, size_t a, size_t b, size_t p)
{
	const Lazy *x = &c->lazy[a],
			   *y = &c->lazy[b],
			   *z = &c->lazy[p];

	for (int i = 0; i < x->nline; i++)
		for (int j = 0; j < y->nline; j++)
			if (x->line[i] == y->line[j])
				for (int k = 0; k < z->nline; k++)
					if (z->line[k] == x->line[i])
						return true;
	return false;
}

/*
 * The index of the point enclosed by n and made as how says (its rationals t and u when MADE), added when
 * new; SIZE_MAX when out of room. An earlier point is the same when the enclosures meet and both are the
 * crossing of one edge, or their rationals are equal.
 */
size_t
gx_cut_add_made(GxCut *c, const Near *n, const Lazy *how, mpq_srcptr t, mpq_srcptr u)
{
	size_t		np = c->npt;
	Point	   *x;

	if (!gx_grow_malloc((void **) &c->pt, &c->ptcap, np + 1, sizeof(Point), SIZE_MAX / 512) ||
		!gx_grow_malloc((void **) &c->near, &c->nearcap, np + 1, sizeof(Near), SIZE_MAX / 512) ||
		!gx_grow_malloc((void **) &c->lazy, &c->lazycap, np + 1, sizeof(Lazy), SIZE_MAX / 512))
	{
		c->nomem = true;
		return SIZE_MAX;
	}
	x = &c->pt[np];
	mpq_inits(x->t, x->u, NULL);
	if (how->made)
	{
		mpq_set(x->t, t);
		mpq_set(x->u, u);
	}
	c->near[np] = *n;
	c->lazy[np] = *how;
	for (size_t k = 0; k < np; k++)
	{
		const Lazy *l = &c->lazy[k];

		if (!c->exact && apart(&c->near[k], n))
			continue;
		if ((how->make == CROSSING && l->make == CROSSING &&
			 gx_cut_same_edge(l->x, l->x + 3, how->x, how->x + 3)) ||
			(mpq_equal(gx_cut_exact_pt(c, k)->t, gx_cut_exact_pt(c, np)->t) &&
			 mpq_equal(c->pt[k].u, c->pt[np].u)))
		{
			mpq_clears(x->t, x->u, NULL);
			if (how->make == CLIP)
				gx_cut_on_line(c, k, gx_cut_line_of(c, how->dtri, how->dedge));
			return k;
		}
	}
	if (!gx_cut_room(c))
	{
		mpq_clears(x->t, x->u, NULL);
		return SIZE_MAX;
	}
	c->lazy[np].nline = 0;
	if (how->make == CLIP)
		gx_cut_on_line(c, np, gx_cut_line_of(c, how->dtri, how->dedge));
	return c->npt++;
}

/* The index of point (t, u), added when new; SIZE_MAX when out of room. */
size_t
gx_cut_add_point(GxCut *c, mpq_srcptr t, mpq_srcptr u)
{
	Near		n;
	Lazy		how = {.make = MADE, .made = true};

	gx_cut_enclose(t, &n.t);
	gx_cut_enclose(u, &n.u);
	return gx_cut_add_made(c, &n, &how, t, u);
}

void
gx_cut_add_cut(GxCut *c, size_t a, size_t b)
{
	if (a == SIZE_MAX || b == SIZE_MAX || a == b || !gx_cut_room(c))
		return;
	if (!gx_grow_malloc((void **) &c->cut, &c->cutcap, c->ncut + 1, sizeof(Edge), SIZE_MAX / 64))
	{
		c->nomem = true;
		return;
	}
	c->cut[c->ncut++] = (Edge) {a, b, c->nadded};
}

/* The sign of the enclosures' (q - p) x (r - p) when certain, else 2. */
static int
orient_near(const Near *p, const Near *q, const Near *r)
{
	GxDDI		a,
				b,
				x,
				y;

	gx_ddi_sub(&a, &q->t, &p->t);
	gx_ddi_sub(&b, &r->u, &p->u);
	gx_ddi_mul(&x, &a, &b);
	gx_ddi_sub(&a, &q->u, &p->u);
	gx_ddi_sub(&b, &r->t, &p->t);
	gx_ddi_mul(&y, &a, &b);
	gx_ddi_sub(&x, &x, &y);
	return gx_ddi_sign(&x);
}

/* The sign of (b - a) x (p - a) for points a, b and p: -1, 0 or 1. */
int
gx_cut_orient(GxCut *c, size_t a, size_t b, size_t p)
{
	int			o;

	if (a == b || p == a || p == b)
		return 0;				/* points are distinct: the same index, the same point */
	if (c->exact)
		o = 2;
	else if (one_line(c, a, b, p))
		return 0;
	else
		o = orient_near(&c->near[a], &c->near[b], &c->near[p]);
	if (o == 2)
	{
		const Point *x = gx_cut_exact_pt(c, a),
				   *y = gx_cut_exact_pt(c, b),
				   *z = gx_cut_exact_pt(c, p);

		o = gx_tu_orient(&c->f, x, y, z);
		o = (o > 0) - (o < 0);
	}
	return o;
}

/* The sign of point x's t (coordinate 0) or u (1) less point y's. */
int
gx_cut_cmp_coord(GxCut *c, size_t x, size_t y, int k)
{
	int			o = 2;

	if (x == y)
		return 0;
	if (!c->exact)
	{
		GxDDI		d;

		gx_ddi_sub(&d, k ? &c->near[x].u : &c->near[x].t, k ? &c->near[y].u : &c->near[y].t);
		o = gx_ddi_sign(&d);
	}
	if (o == 2)
	{
		const Point *p = gx_cut_exact_pt(c, x),
				   *q = gx_cut_exact_pt(c, y);

		o = k ? mpq_cmp(p->u, q->u) : mpq_cmp(p->t, q->t);
		o = (o > 0) - (o < 0);
	}
	return o;
}
