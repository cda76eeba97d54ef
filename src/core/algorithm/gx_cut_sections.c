/*
 * gx_cut_sections.c: gx_cut_add_group filtered (gx_cut_impl.h). The other triangles' crossings with T's plane
 * enclosed in double-doubles (gx_plane_near.c), clipped to the domain's triangles and merged as gx_cut.c does
 * in rationals, but from the enclosures, and added as points whose rationals are made only when needed (they
 * keep how they were made). Where the enclosures cannot decide, nothing is added and gx_cut.c's rational
 * path runs: the same points and cuts, in the same order.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_cut_impl.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_projection.h"
#include "base/gx_alloc.h"

/* A point of one gx_cut_add_group's sections in the filter: its enclosure, how it is made; for CLIP, ka kb. */
typedef struct Sec
{
	Near		n;
	Lazy		how;
	const double *ka,
			   *kb;				/* the domain edge it lies on, by its corners */
} Sec;

/*
 * Are x and y, points of one group's sections, the same by how they are made: crossings of one edge, or on
 * one domain edge (the group's sections lie on one line: its plane's with T's)?
 */
static bool
same_sec(const Sec *x, const Sec *y)
{
	if (x->how.make != y->how.make)
		return false;
	if (x->how.make == CROSSING)
		return gx_cut_same_edge(x->how.x, x->how.x + 3, y->how.x, y->how.x + 3);
	return gx_cut_same_edge(x->ka, x->kb, y->ka, y->kb);
}

/* cmp_tu from the enclosures: -1, 0 or 1; 2 when they cannot decide. */
static int
cmp_sec(const Sec *x, const Sec *y)
{
	GxDDI		d;
	int			o;

	if (same_sec(x, y))
		return 0;
	gx_ddi_sub(&d, &x->n.t, &y->n.t);
	if ((o = gx_ddi_sign(&d)) != 0)
		return o;
	gx_ddi_sub(&d, &x->n.u, &y->n.u);
	return gx_ddi_sign(&d);
}

/* dom_edge_value at x from the enclosures. */
static void
dom_edge_near(const GxCut *c, size_t k, int e, const Near *x, GxDDI *v)
{
	static const GxDDI one = {1, 0, 0};

	if (k > 0)
	{
		const Near *a = &c->domnear[3 * k + e],
				   *b = &c->domnear[3 * k + (e + 1) % 3];
		GxDDI		p,
					q,
					w;

		gx_ddi_sub(&p, &b->t, &a->t);
		gx_ddi_sub(&q, &x->u, &a->u);
		gx_ddi_mul(v, &p, &q);
		gx_ddi_sub(&p, &b->u, &a->u);
		gx_ddi_sub(&q, &x->t, &a->t);
		gx_ddi_mul(&w, &p, &q);
		gx_ddi_sub(v, v, &w);
	}
	else if (e < 2)
		*v = e ? x->u : x->t;
	else
	{
		gx_ddi_sub(v, &one, &x->t);
		gx_ddi_sub(v, v, &x->u);
	}
}

/* r = p + s (q - p), where segment pq (two crossings) crosses domain triangle k's edge e. */
static void
clip_point(const GxCut *c, const Sec *p, const Sec *q, const GxDDI *s, size_t k, int e, Sec *r)
{
	GxDDI		x;

	gx_ddi_sub(&x, &q->n.t, &p->n.t);
	gx_ddi_mul(&x, &x, s);
	gx_ddi_add(&r->n.t, &p->n.t, &x);
	gx_ddi_sub(&x, &q->n.u, &p->n.u);
	gx_ddi_mul(&x, &x, s);
	gx_ddi_add(&r->n.u, &p->n.u, &x);
	r->how = (Lazy) {.make = CLIP, .dtri = k, .dedge = (uint8_t) e};
	memcpy(r->how.x, p->how.x, 6 * sizeof(double));
	memcpy(r->how.x + 6, q->how.x, 6 * sizeof(double));
	gx_cut_dom_edge_ends(c, k, e, &r->ka, &r->kb);
}

/*
 * clip_to from the enclosures: 1 with the part of pq inside domain triangle k in r (from p's side, not a
 * point), 0 when none is, 2 when they cannot decide.
 */
static int
clip_near(const GxCut *c, size_t k, const Sec *p, const Sec *q, Sec r[2])
{
	GxDDI		f[2],
				s,
				d,
				bound[2];		/* lo and hi of s, once set */
	int			by[2] = {-1, -1},	/* the edge that set them; -1: 0 and 1 */
				o;

	for (int e = 0; e < 3; e++)
	{
		int			sp,
					sq,
					in;

		dom_edge_near(c, k, e, &p->n, &f[0]);
		dom_edge_near(c, k, e, &q->n, &f[1]);
		sp = gx_ddi_sign(&f[0]);
		sq = gx_ddi_sign(&f[1]);
		if (sp == 2 || sq == 2)
			return 2;
		if (sp < 0 && sq < 0)
			return 0;
		if (sp >= 0 && sq >= 0)
			continue;
		/* s where it crosses the edge, strictly between 0 and 1: entering (in 0) a bound on lo, else on hi */
		in = sp < 0 ? 0 : 1;
		gx_ddi_sub(&d, &f[0], &f[1]);
		gx_ddi_div(&s, &f[0], &d);
		if (by[in] >= 0)
		{
			gx_ddi_sub(&d, &s, &bound[in]);
			if ((o = gx_ddi_sign(&d)) == 2 || o == 0)
				return 2;
			if (in == 0 ? o < 0 : o > 0)
				continue;
		}
		bound[in] = s;
		by[in] = e;
	}
	if (by[0] >= 0 && by[1] >= 0)
	{
		gx_ddi_sub(&d, &bound[0], &bound[1]);
		if ((o = gx_ddi_sign(&d)) == 2 || o == 0)
			return 2;
		if (o > 0)
			return 0;
	}
	for (int e = 0; e < 2; e++)
		if (by[e] < 0)
			r[e] = e ? *q : *p;
		else
			clip_point(c, p, q, &bound[e], k, by[e], &r[e]);
	return 1;
}

/* merge from the enclosures: 1 merged, 0 not, 2 when they cannot decide (the sections are collinear). */
static int
merge_near(Sec *x, const Sec *y)
{
	int			o;

	if ((o = cmp_sec(&x[0], &y[1])) == 2 || o > 0 || (o = cmp_sec(&y[0], &x[1])) == 2 || o > 0)
		return o == 2 ? 2 : 0;
	if ((o = cmp_sec(&y[0], &x[0])) == 2)
		return 2;
	if (o < 0)
		x[0] = y[0];
	if ((o = cmp_sec(&y[1], &x[1])) == 2)
		return 2;
	if (o > 0)
		x[1] = y[1];
	return 1;
}

/*
 * gx_cut_add_group from the enclosures, for a group whose triangles are coplanar (so their sections lie on one
 * line) and each cross T's plane with no vertex on it or miss it: the same points and cuts, in the same order,
 * the points' rationals left to be made when needed; false, with nothing added, when the group is not such or
 * the enclosures cannot decide.
 */
bool
gx_cut_add_group_near(GxCut *c, const double *tri, const size_t *idx, size_t n)
{
	Sec		   *seg = NULL;
	size_t		nseg = 0,
				cap = 0;
	int			sigma;
	bool		ok = n == 1 || gx_triangle_projection(tri + 9 * idx[0], &sigma) >= 0;

	for (size_t m = 1; m < n && ok; m++)
		for (int k = 0; k < 3 && ok; k++)
			ok = gx_orient3d(tri + 9 * idx[0], tri + 9 * idx[0] + 3, tri + 9 * idx[0] + 6,
							 tri + 9 * idx[m] + 3 * k) == 0;
	for (size_t m = 0; m < n && ok; m++)
	{
		const double *tau = tri + 9 * idx[m];
		int			side[3],
					np = 0;
		Sec			p[2];

		for (int k = 0; k < 3 && ok; k++)
			ok = (side[k] = gx_orient3d(c->f.T, c->f.T + 3, c->f.T + 6, tau + 3 * k)) != 0;
		if (!ok || (side[0] == side[1] && side[1] == side[2]))
			continue;
		for (int k = 0; k < 3; k++)
		{
			int			j = (k + 1) % 3;

			if (side[k] == side[j])
				continue;
			gx_near_of_crossing(&c->pn, tau + 3 * k, tau + 3 * j, &p[np].n.t, &p[np].n.u);
			p[np].how = (Lazy) {.make = CROSSING};
			memcpy(p[np].how.x, tau + 3 * k, 3 * sizeof(double));
			memcpy(p[np].how.x + 3, tau + 3 * j, 3 * sizeof(double));
			np++;
		}
		for (size_t k = 0; k < c->ndom && ok; k++)
		{
			Sec			r[2];
			int			o = clip_near(c, k, &p[0], &p[1], r);

			if (o == 0)
				continue;
			if (o == 2 || (o = cmp_sec(&r[0], &r[1])) == 2 || o == 0 ||
				!gx_grow_malloc((void **) &seg, &cap, nseg + 2, sizeof(Sec), SIZE_MAX / 512))
				ok = false;
			else
			{
				seg[nseg++] = r[o > 0];
				seg[nseg++] = r[o < 0];
			}
		}
	}
	/* merged as gx_cut_add_group merges */
	for (bool merged = true; merged && ok;)
	{
		merged = false;
		for (size_t x = 0; x < nseg / 2 && ok; x++)
			for (size_t y = x + 1; y < nseg / 2 && ok; y++)
			{
				int			o = merge_near(&seg[2 * x], &seg[2 * y]);

				ok = o != 2;
				if (o == 1)
				{
					nseg -= 2;
					seg[2 * y] = seg[nseg];
					seg[2 * y + 1] = seg[nseg + 1];
					merged = true;
					y--;
				}
			}
	}
	for (size_t x = 0; x < nseg / 2 && ok; x++)
	{
		size_t		a = gx_cut_add_made(c, &seg[2 * x].n, &seg[2 * x].how, NULL, NULL);

		gx_cut_add_cut(c, a, gx_cut_add_made(c, &seg[2 * x + 1].n, &seg[2 * x + 1].how, NULL, NULL));
	}
	free(seg);
	if (ok)
		c->nadded++;
	return ok;
}
