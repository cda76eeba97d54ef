/*
 * gx_cut.c: a triangle, or a facet of coplanar triangles, cut along the sections of other triangles,
 * triangulated along the cuts (gx_cut.h). In T's coordinates (t, u), all in rationals: the cuts are clipped to
 * the domain's triangles, the collinear parts of one gx_cut_add_group call that overlap or touch merged into
 * one; the points are the domain's corners, the cuts' ends (a section that only touches the domain is a point),
 * the other triangles' vertices in the domain, and the cuts' crossings; every cut is split at the points on it.
 * The points are inserted one by one into the domain's triangles (a triangle split in three, or two triangles
 * in two when the point lies on an edge), then each split cut is made an edge by flipping the edges that cross
 * it (Sloan's method: no point lies inside a split cut and no two of them cross, so it ends). Pieces are the
 * classes of triangles joined across edges that are not cuts.
 *
 * Filtered: every point of the triangulation keeps a certified enclosure of its (t, u), and the orientations
 * and orders among those points are decided from the enclosures (gx_ddi.h), in rationals only where these
 * cannot decide (gx_cut_points.c); a group's sections are made from enclosures first (gx_cut_sections.c),
 * their points' rationals only when needed; the same signs, so the same triangulation, bit for bit
 * (gx_cut_exact turns the filter off).
 */
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_cut_impl.h"
#include "algorithm/gx_ddi_values.h"
#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"

#define CANCEL_EVERY 64

/* Room for one more domain triangle, its corners initialised; false without memory. */
static bool
grow_domain(GxCut *c)
{
	double	   *xyz = NULL;
	Near	   *near = NULL;

	if (!gx_grow_malloc((void **) &c->dom, &c->domcap, 3 * (c->ndom + 1), sizeof(Point), SIZE_MAX / 512) ||
		(xyz = realloc(c->domxyz, 9 * (c->ndom + 1) * sizeof(double))) == NULL ||
		(c->domxyz = xyz, near = realloc(c->domnear, 3 * (c->ndom + 1) * sizeof(Near))) == NULL)
	{
		c->nomem = true;
		return false;
	}
	c->domnear = near;
	for (int k = 0; k < 3; k++)
		mpq_inits(c->dom[3 * c->ndom + k].t, c->dom[3 * c->ndom + k].u, NULL);
	return true;
}

GxCut *
gx_cut_new(const double *T, int drop)
{
	GxCut	   *c = calloc(1, sizeof(GxCut));

	if (c == NULL)
		return NULL;
	gx_plane_coords_init(&c->f, T, drop);
	gx_plane_near_init(&c->pn, T, drop);
	c->limit = SIZE_MAX / 512;
	if (!grow_domain(c))
	{
		gx_cut_free(c);
		return NULL;
	}
	mpq_set_ui(c->dom[1].t, 1, 1);
	mpq_set_ui(c->dom[2].u, 1, 1);
	memcpy(c->domxyz, T, 9 * sizeof(double));
	for (int k = 0; k < 3; k++)
	{
		gx_cut_enclose(c->dom[k].t, &c->domnear[k].t);
		gx_cut_enclose(c->dom[k].u, &c->domnear[k].u);
	}
	c->ndom = 1;
	return c;
}

void
gx_cut_extend(GxCut *c, const double *tri)
{
	Point	   *d;
	double	   *xyz;

	if (!grow_domain(c))
		return;
	d = &c->dom[3 * c->ndom];
	xyz = c->domxyz + 9 * c->ndom;
	for (int k = 0; k < 3; k++)
		gx_tu_of_point(&c->f, tri + 3 * k, &d[k]);
	memcpy(xyz, tri, 9 * sizeof(double));
	if (gx_tu_orient(&c->f, &d[0], &d[1], &d[2]) < 0)
	{
		/* counter-clockwise in (t, u), its coordinates in the same order */
		double		swap[3];

		mpq_swap(d[1].t, d[2].t);
		mpq_swap(d[1].u, d[2].u);
		memcpy(swap, xyz + 3, sizeof(swap));
		memcpy(xyz + 3, xyz + 6, sizeof(swap));
		memcpy(xyz + 6, swap, sizeof(swap));
	}
	for (int k = 0; k < 3; k++)
	{
		gx_cut_enclose(d[k].t, &c->domnear[3 * c->ndom + k].t);
		gx_cut_enclose(d[k].u, &c->domnear[3 * c->ndom + k].u);
	}
	c->ndom++;
}

void
gx_cut_limit(GxCut *c, size_t max_cuts)
{
	c->limit = max_cuts;
}

void
gx_cut_exact(GxCut *c)
{
	c->exact = true;
}

/*
 * The part of segment pq (a point when q == p) inside domain triangle k (closed), into r (initialised by the
 * caller), from p's side; false when none is. T's own by its edge functions t, u and 1 - t - u; another's by
 * its edges' (b - a) x (x - a), affine along pq, each a bound on s in p + s (q - p), s in [0, 1].
 */
static bool
clip_to(GxCut *c, size_t k, const Point *p, const Point *q, Point r[2])
{
	const Point *d = &c->dom[3 * k];
	mpq_t		f[2],
				lo,
				hi,
				w;
	bool		empty = false;

	if (k == 0)
		return gx_tu_clip(p, q, r);
	mpq_inits(f[0], f[1], lo, hi, w, NULL);
	mpq_set_ui(hi, 1, 1);
	for (int e = 0; e < 3 && !empty; e++)
	{
		gx_cut_edge_value(&d[e], &d[(e + 1) % 3], p, f[0], w);
		gx_cut_edge_value(&d[e], &d[(e + 1) % 3], q, f[1], w);
		if (mpq_sgn(f[0]) < 0 && mpq_sgn(f[1]) < 0)
			empty = true;
		else if (mpq_sgn(f[0]) < 0 || mpq_sgn(f[1]) < 0)
		{
			bool		entering = mpq_sgn(f[0]) < 0;

			mpq_sub(f[1], f[0], f[1]);
			mpq_div(f[0], f[0], f[1]);	/* s where it crosses the edge */
			if (entering ? mpq_cmp(f[0], lo) > 0 : mpq_cmp(f[0], hi) < 0)
				mpq_set(entering ? lo : hi, f[0]);
		}
	}
	empty = empty || mpq_cmp(lo, hi) > 0;
	for (int e = 0; e < 2 && !empty; e++)
		gx_tu_along(r[e].t, r[e].u, p, q, e ? hi : lo);
	mpq_clears(f[0], f[1], lo, hi, w, NULL);
	return !empty;
}

/* Is x in the closed domain? */
static bool
in_domain(GxCut *c, const Point *x)
{
	for (size_t k = 0; k < c->ndom; k++)
	{
		const Point *d = &c->dom[3 * k];
		bool		in = true;

		for (int e = 0; in && e < 3; e++)
			in = gx_tu_orient(&c->f, &d[e], &d[(e + 1) % 3], x) >= 0;
		if (in)
			return true;
	}
	return false;
}

/* x before y: by t, then by u (along any line, the order of its points) */
static int
cmp_tu(const Point *x, const Point *y)
{
	int			o = mpq_cmp(x->t, y->t);

	return o ? o : mpq_cmp(x->u, y->u);
}

/* Segments (a before b) and points of one gx_cut_add_group's sections, clipped to the domain. */
typedef struct Bits
{
	Point	   *seg;			/* 2 a segment */
	size_t		nseg,
				segcap;
	Point	   *lone;			/* segments clipped to a point */
	size_t		nlone,
				lonecap;
} Bits;

static Point *
push(GxCut *c, Point **a, size_t *n, size_t *cap, int k)
{
	Point	   *x;

	if (!gx_grow_malloc((void **) a, cap, *n + k, sizeof(Point), SIZE_MAX / 512))
	{
		c->nomem = true;
		return NULL;
	}
	x = *a + *n;
	for (int j = 0; j < k; j++)
		mpq_inits(x[j].t, x[j].u, NULL);
	*n += k;
	return x;
}

/* Segment pq clipped to each domain triangle, into b. */
static void
clip_segment(GxCut *c, const Point *p, const Point *q, Bits *b)
{
	Point		r[2];

	mpq_inits(r[0].t, r[0].u, r[1].t, r[1].u, NULL);
	for (size_t k = 0; k < c->ndom && !c->nomem; k++)
	{
		Point	   *x;
		int			o;

		if (!clip_to(c, k, p, q, r))
			continue;
		if ((o = cmp_tu(&r[0], &r[1])) == 0)
		{
			if ((x = push(c, &b->lone, &b->nlone, &b->lonecap, 1)) != NULL)
			{
				mpq_set(x->t, r[0].t);
				mpq_set(x->u, r[0].u);
			}
		}
		else if ((x = push(c, &b->seg, &b->nseg, &b->segcap, 2)) != NULL)
			for (int e = 0; e < 2; e++)
			{
				mpq_set(x[e].t, r[(o > 0) ^ e].t);
				mpq_set(x[e].u, r[(o > 0) ^ e].u);
			}
	}
	gx_tu_clear(r, 2);
}

/* Do collinear segments x and y (a before b) overlap or touch? Then x becomes their union. */
static bool
merge(GxCut *c, Point *x, const Point *y)
{
	if (gx_tu_orient(&c->f, &x[0], &x[1], &y[0]) != 0 || gx_tu_orient(&c->f, &x[0], &x[1], &y[1]) != 0 ||
		cmp_tu(&x[0], &y[1]) > 0 || cmp_tu(&y[0], &x[1]) > 0)
		return false;
	if (cmp_tu(&y[0], &x[0]) < 0)
	{
		mpq_set(x[0].t, y[0].t);
		mpq_set(x[0].u, y[0].u);
	}
	if (cmp_tu(&y[1], &x[1]) > 0)
	{
		mpq_set(x[1].t, y[1].t);
		mpq_set(x[1].u, y[1].u);
	}
	return true;
}

/* Is x on segment s (a before b), ends included? */
static bool
on_segment(GxCut *c, const Point *s, const Point *x)
{
	return gx_tu_orient(&c->f, &s[0], &s[1], x) == 0 && cmp_tu(&s[0], x) <= 0 && cmp_tu(x, &s[1]) <= 0;
}

/* Does another triangle of the group than tri + 9 idx[m] have the edge ab? */
static bool
group_edge(const double *tri, const size_t *idx, size_t n, size_t m, const double *a, const double *b)
{
	for (size_t j = 0; j < n; j++)
	{
		const double *t = tri + 9 * idx[j];
		int			found = 0;

		if (j == m)
			continue;
		for (int k = 0; k < 3; k++)
			found += (t[3 * k] == a[0] && t[3 * k + 1] == a[1] && t[3 * k + 2] == a[2]) +
				(t[3 * k] == b[0] && t[3 * k + 1] == b[1] && t[3 * k + 2] == b[2]);
		if (found == 2)
			return true;
	}
	return false;
}

void
gx_cut_add_group(GxCut *c, const double *tri, const size_t *idx, size_t n)
{
	Bits		b = {NULL, 0, 0, NULL, 0, 0};

	if (!c->exact && gx_cut_add_group_near(c, tri, idx, n))
		return;
	for (size_t m = 0; m < n && !c->nomem; m++)
	{
		const double *tau = tri + 9 * idx[m];
		int			nzero,
					np;
		Point		p[3];

		np = gx_plane_section(&c->f, tau, p, &nzero, &c->nomem);
		/* tau's vertices on the plane are points wherever they lie in the domain */
		for (int k = 0; k < nzero; k++)
			if (in_domain(c, &p[k]))
				gx_cut_add_point(c, p[k].t, p[k].u);
		if (np == 2)
			clip_segment(c, &p[0], &p[1], &b);
		else if (np == 3)
			for (int k = 0; k < 3; k++)
				if (!group_edge(tri, idx, n, m, tau + 3 * k, tau + 3 * ((k + 1) % 3)))
					clip_segment(c, &p[k], &p[(k + 1) % 3], &b);
		gx_tu_clear(p, np);
	}
	/* collinear pieces that overlap or touch made one: the group's edges inside it, the domain's, cut nothing */
	for (bool merged = true; merged && !c->nomem;)
	{
		merged = false;
		for (size_t x = 0; x < b.nseg / 2; x++)
			for (size_t y = x + 1; y < b.nseg / 2; y++)
				if (merge(c, &b.seg[2 * x], &b.seg[2 * y]))
				{
					b.nseg -= 2;
					mpq_swap(b.seg[2 * y].t, b.seg[b.nseg].t);
					mpq_swap(b.seg[2 * y].u, b.seg[b.nseg].u);
					mpq_swap(b.seg[2 * y + 1].t, b.seg[b.nseg + 1].t);
					mpq_swap(b.seg[2 * y + 1].u, b.seg[b.nseg + 1].u);
					gx_tu_clear(&b.seg[b.nseg], 2);
					merged = true;
					y--;
				}
	}
	for (size_t x = 0; x < b.nseg / 2; x++)
	{
		size_t		a = gx_cut_add_point(c, b.seg[2 * x].t, b.seg[2 * x].u);

		gx_cut_add_cut(c, a, gx_cut_add_point(c, b.seg[2 * x + 1].t, b.seg[2 * x + 1].u));
	}
	for (size_t k = 0; k < b.nlone; k++)
	{
		bool		on = false;

		for (size_t x = 0; x < b.nseg / 2 && !on; x++)
			on = on_segment(c, &b.seg[2 * x], &b.lone[k]);
		if (!on)
			gx_cut_add_point(c, b.lone[k].t, b.lone[k].u);
	}
	gx_tu_clear(b.seg, (int) b.nseg);
	gx_tu_clear(b.lone, (int) b.nlone);
	free(b.seg);
	free(b.lone);
	c->nadded++;
}

void
gx_cut_add(GxCut *c, const double *tau)
{
	const size_t zero = 0;

	gx_cut_add_group(c, tau, &zero, 1);
}

/* Is cancel set? Remembered once seen. */
static bool
stop(GxCut *c)
{
	if (!c->cancelled && gx_cancel_requested(c->cancel))
		c->cancelled = true;
	return c->cancelled;
}

/* The points where two cuts cross inside both (their ends are points already). */
static void
add_crossings(GxCut *c)
{
	mpq_t		s,
				t,
				u;
	size_t		n = c->ncut;

	mpq_inits(s, t, u, NULL);
	for (size_t x = 0; x < n && !stop(c); x++)
		for (size_t y = x + 1; y < n; y++)
		{
			size_t		a0 = c->cut[x].a,
						a1 = c->cut[x].b,
						b0 = c->cut[y].a,
						b1 = c->cut[y].b;

			if (gx_cut_orient(c, a0, a1, b0) * gx_cut_orient(c, a0, a1, b1) >= 0 ||
				gx_cut_orient(c, b0, b1, a0) * gx_cut_orient(c, b0, b1, a1) >= 0)
				continue;
			gx_cut_exact_pt(c, a0);
			gx_cut_exact_pt(c, a1);
			gx_cut_exact_pt(c, b0);
			gx_cut_exact_pt(c, b1);
			gx_tu_crossing(&c->f, &c->pt[a0], &c->pt[a1], &c->pt[b0], &c->pt[b1], s);
			gx_tu_along(t, u, &c->pt[b0], &c->pt[b1], s);
			gx_cut_add_point(c, t, u);
		}
	mpq_clears(s, t, u, NULL);
}

/* Is point p strictly between a and b, on segment ab? */
static bool
inside_segment(GxCut *c, size_t a, size_t b, size_t p)
{
	int			k,
				lo,
				hi;

	if (p == a || p == b || gx_cut_orient(c, a, b, p) != 0)
		return false;
	/* on the line: compare along t, or along u for a segment of constant t */
	k = gx_cut_cmp_coord(c, a, b, 0) == 0;
	lo = gx_cut_cmp_coord(c, a, p, k);
	hi = gx_cut_cmp_coord(c, p, b, k);
	return lo != 0 && hi != 0 && lo == hi;
}

static void
add_constraint(GxCut *c, size_t a, size_t b, size_t src)
{
	if (!gx_grow_malloc((void **) &c->con, &c->concap, c->ncon + 1, sizeof(Edge), SIZE_MAX / 64))
	{
		c->nomem = true;
		return;
	}
	c->con[c->ncon++] = (Edge) {a < b ? a : b, a < b ? b : a, src};
}

/* Every cut split at the points inside it, into c->con: those points sorted by |t - ta| + |u - ua|. */
static void
split_cuts(GxCut *c)
{
	size_t	   *on = malloc((c->npt + 2) * sizeof(size_t));
	__mpq_struct *key = malloc((c->npt + 2) * sizeof(__mpq_struct));

	if (on == NULL || key == NULL)
	{
		free(on);
		free(key);
		c->nomem = true;
		return;
	}
	for (size_t k = 0; k < c->npt + 2; k++)
		mpq_init(&key[k]);
	for (size_t x = 0; x < c->ncut && !c->nomem && !stop(c); x++)
	{
		const Point *a = &c->pt[c->cut[x].a];
		size_t		n = 0;

		on[n++] = c->cut[x].a;
		for (size_t k = 0; k < c->npt; k++)
			if (inside_segment(c, c->cut[x].a, c->cut[x].b, k))
			{
				size_t		at = n++;

				gx_cut_exact_pt(c, c->cut[x].a);
				mpq_sub(&key[at], gx_cut_exact_pt(c, k)->t, a->t);
				mpq_abs(&key[at], &key[at]);
				mpq_sub(c->f.w[3], c->pt[k].u, a->u);
				mpq_abs(c->f.w[3], c->f.w[3]);
				mpq_add(&key[at], &key[at], c->f.w[3]);
				/* insertion sort: few points lie on one cut */
				while (at > 1 && mpq_cmp(&key[at - 1], &key[at]) > 0)
				{
					mpq_swap(&key[at - 1], &key[at]);
					on[at] = on[at - 1];
					at--;
				}
				on[at] = k;
			}
		on[n++] = c->cut[x].b;
		for (size_t k = 0; k + 1 < n; k++)
			add_constraint(c, on[k], on[k + 1], c->cut[x].src);
	}
	for (size_t k = 0; k < c->npt + 2; k++)
		mpq_clear(&key[k]);
	free(on);
	free(key);
}

static long
new_tri(GxCut *c)
{
	if (!gx_grow_malloc((void **) &c->tri, &c->tricap, c->ntri + 1, sizeof(Tri), SIZE_MAX / 64))
	{
		c->nomem = true;
		return -1;
	}
	return (long) c->ntri++;
}

/* Triangle x turned so that its vertex k comes first. */
static void
rotate(Tri *x, int k)
{
	Tri			r = *x;

	for (int m = 0; m < 3; m++)
	{
		x->v[m] = r.v[(m + k) % 3];
		x->nb[m] = r.nb[(m + k) % 3];
	}
}

/* In triangle y, the neighbour from before becomes now. */
static void
relink(GxCut *c, long y, long before, long now)
{
	if (y < 0)
		return;
	for (int m = 0; m < 3; m++)
		if (c->tri[y].nb[m] == before)
			c->tri[y].nb[m] = now;
}

/* The index m in y of the edge it shares with x. */
static int
across(const GxCut *c, long y, long x)
{
	for (int m = 0; m < 3; m++)
		if (c->tri[y].nb[m] == x)
			return m;
	return -1;
}

/* Point p strictly inside triangle x: three triangles. */
static void
split_inside(GxCut *c, long x, size_t p)
{
	long		y = new_tri(c),
				z = y < 0 ? -1 : new_tri(c);
	Tri			o;

	if (z < 0)
		return;
	o = c->tri[x];
	c->tri[x] = (Tri) {{p, o.v[1], o.v[2]}, {o.nb[0], y, z}};
	c->tri[y] = (Tri) {{p, o.v[2], o.v[0]}, {o.nb[1], z, x}};
	c->tri[z] = (Tri) {{p, o.v[0], o.v[1]}, {o.nb[2], x, y}};
	relink(c, o.nb[1], x, y);
	relink(c, o.nb[2], x, z);
}

/* Point p inside the edge of x opposite its vertex k: x and its neighbour there split in two each. */
static void
split_edge(GxCut *c, long x, int k, size_t p)
{
	long		x1 = c->tri[x].nb[k],
				xn = new_tri(c),
				xm = -1;
	Tri			o,
				q;

	if (xn < 0 || (x1 >= 0 && (xm = new_tri(c)) < 0))
		return;
	rotate(&c->tri[x], k);
	o = c->tri[x];				/* (a, b, c), p on bc */
	c->tri[x] = (Tri) {{o.v[0], o.v[1], p}, {xm, xn, o.nb[2]}};
	c->tri[xn] = (Tri) {{o.v[0], p, o.v[2]}, {x1, o.nb[1], x}};
	relink(c, o.nb[1], x, xn);
	if (x1 < 0)
		return;
	rotate(&c->tri[x1], across(c, x1, x));
	q = c->tri[x1];				/* (d, c, b) */
	c->tri[x1] = (Tri) {{q.v[0], q.v[1], p}, {xn, xm, q.nb[2]}};
	c->tri[xm] = (Tri) {{q.v[0], p, q.v[2]}, {x, q.nb[1], x1}};
	relink(c, q.nb[1], x1, xm);
}

/* Inserts point p into the triangulation (not one of its vertices). */
static void
insert_point(GxCut *c, size_t p)
{
	for (size_t x = 0; x < c->ntri; x++)
	{
		const Tri  *t = &c->tri[x];
		int			o[3],
					zero = -1;

		for (int k = 0; k < 3; k++)
			o[k] = gx_cut_orient(c, t->v[(k + 1) % 3], t->v[(k + 2) % 3], p);
		if (o[0] < 0 || o[1] < 0 || o[2] < 0)
			continue;
		for (int k = 0; k < 3; k++)
			if (o[k] == 0)
				zero = k;
		if (zero < 0)
			split_inside(c, (long) x, p);
		else
			split_edge(c, (long) x, zero, p);
		return;
	}
}

/* Do segments ab and pq cross at one point inside both? */
static bool
cross(GxCut *c, size_t a, size_t b, size_t p, size_t q)
{
	return gx_cut_orient(c, a, b, p) * gx_cut_orient(c, a, b, q) < 0 &&
		gx_cut_orient(c, p, q, a) * gx_cut_orient(c, p, q, b) < 0;
}

/* The triangle and index of edge pq (its two vertices other than v[k]); false when it is no edge. */
static bool
find_edge(const GxCut *c, size_t p, size_t q, long *x, int *k)
{
	for (size_t y = 0; y < c->ntri; y++)
		for (int m = 0; m < 3; m++)
		{
			size_t		s = c->tri[y].v[(m + 1) % 3],
						e = c->tri[y].v[(m + 2) % 3];

			if ((s == p && e == q) || (s == q && e == p))
			{
				*x = (long) y;
				*k = m;
				return true;
			}
		}
	return false;
}

/*
 * Makes the split cut ab an edge: the edges crossing it are flipped, those whose two triangles do not make a
 * convex quadrilateral later; false when it never ends (not expected: a failure of the method).
 */
static bool
insert_constraint(GxCut *c, size_t a, size_t b)
{
	Edge	   *queue = NULL;
	size_t		head = 0,
				n = 0,
				cap = 0,
				steps = 0;
	long		x;
	int			k;

	if (find_edge(c, a, b, &x, &k))
		return true;
	for (size_t y = 0; y < c->ntri; y++)
		for (int m = 0; m < 3; m++)
			if (c->tri[y].nb[m] > (long) y &&
				cross(c, a, b, c->tri[y].v[(m + 1) % 3], c->tri[y].v[(m + 2) % 3]))
			{
				if (!gx_grow_malloc((void **) &queue, &cap, n + 1, sizeof(Edge), SIZE_MAX / 64))
				{
					c->nomem = true;
					free(queue);
					return true;
				}
				queue[n++] = (Edge) {c->tri[y].v[(m + 1) % 3], c->tri[y].v[(m + 2) % 3], 0};
			}
	while (head < n)
	{
		Edge		e = queue[head++];
		long		y;
		size_t		p,
					q;

		if (++steps > 64 * (c->ntri + 16) * (c->ntri + 16))
		{
			free(queue);
			return false;
		}
		if (steps % CANCEL_EVERY == 0 && stop(c))
			break;
		if (!find_edge(c, e.a, e.b, &x, &k) || (y = c->tri[x].nb[k]) < 0)
			continue;
		rotate(&c->tri[x], k);
		rotate(&c->tri[y], across(c, y, x));
		p = c->tri[x].v[0];
		q = c->tri[y].v[0];
		if (gx_cut_orient(c, p, q, e.a) * gx_cut_orient(c, p, q, e.b) < 0)
		{
			/* convex: x = (p, b', c'), y = (q, c', b') become (p, b', q) and (p, q, c') */
			Tri			o = c->tri[x],
						r = c->tri[y];

			c->tri[x] = (Tri) {{p, o.v[1], q}, {r.nb[1], y, o.nb[2]}};
			c->tri[y] = (Tri) {{p, q, o.v[2]}, {r.nb[2], o.nb[1], x}};
			relink(c, r.nb[1], y, x);
			relink(c, o.nb[1], x, y);
			if (cross(c, a, b, p, q))
				e = (Edge) {p, q, 0};
			else
				continue;
		}
		if (!gx_grow_malloc((void **) &queue, &cap, n + 1, sizeof(Edge), SIZE_MAX / 64))
		{
			c->nomem = true;
			break;
		}
		queue[n++] = e;
	}
	free(queue);
	return true;
}

static int
cmp_edge(const void *x, const void *y)
{
	const Edge *p = x,
			   *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

static bool
is_constraint(const GxCut *c, size_t a, size_t b)
{
	Edge		e = {a < b ? a : b, a < b ? b : a, 0};

	return bsearch(&e, c->con, c->ncon, sizeof(Edge), cmp_edge) != NULL;
}

/* The pieces: classes of triangles joined across edges that are no cut. */
static void
find_pieces(GxCut *c)
{
	size_t	   *stack = malloc(c->ntri * sizeof(size_t));

	c->piece = malloc(c->ntri * sizeof(size_t));
	c->rep = malloc(c->ntri * sizeof(size_t));
	if (!stack || !c->piece || !c->rep)
	{
		free(stack);
		c->nomem = true;
		return;
	}
	for (size_t x = 0; x < c->ntri; x++)
		c->piece[x] = SIZE_MAX;
	for (size_t x = 0; x < c->ntri; x++)
	{
		size_t		top = 0;

		if (c->piece[x] != SIZE_MAX)
			continue;
		c->rep[c->npieces] = x;
		c->piece[x] = c->npieces;
		stack[top++] = x;
		while (top > 0)
		{
			const Tri  *t = &c->tri[stack[--top]];

			for (int m = 0; m < 3; m++)
			{
				long		y = t->nb[m];

				if (y >= 0 && c->piece[y] == SIZE_MAX &&
					!is_constraint(c, t->v[(m + 1) % 3], t->v[(m + 2) % 3]))
				{
					c->piece[y] = c->npieces;
					stack[top++] = (size_t) y;
				}
			}
		}
		c->npieces++;
	}
	free(stack);
}

/* The domain's triangles, their corners the points dv, neighbours across their shared edges. */
static void
start_triangulation(GxCut *c, const size_t *dv)
{
	for (size_t k = 0; k < c->ndom; k++)
	{
		long		x = new_tri(c);

		if (x < 0)
			return;
		c->tri[x] = (Tri) {{dv[3 * k], dv[3 * k + 1], dv[3 * k + 2]}, {-1, -1, -1}};
		for (long y = 0; y < x; y++)
			for (int m = 0; m < 3; m++)
				for (int j = 0; j < 3; j++)
					if (c->tri[x].v[(m + 1) % 3] == c->tri[y].v[(j + 2) % 3] &&
						c->tri[x].v[(m + 2) % 3] == c->tri[y].v[(j + 1) % 3])
					{
						c->tri[x].nb[m] = y;
						c->tri[y].nb[j] = x;
					}
	}
}

bool
gx_cut_build(GxCut *c, const GxCancel *cancel, GxError *err)
{
	static const int tline[3][2] = {{0, 1}, {1, 2}, {0, 2}};	/* T's corners' edge functions that are 0 */
	size_t	   *dv = malloc(3 * c->ndom * sizeof(size_t));

	c->cancel = cancel;
	if (dv == NULL)
		c->nomem = true;
	/* the domain's corners, appended: the points of the cuts keep their indices */
	for (size_t k = 0; k < 3 * c->ndom && !c->nomem; k++)
	{
		/* on its triangle's edges k and k - 1 (edge e from corner e to e + 1) */
		dv[k] = gx_cut_add_point(c, c->dom[k].t, c->dom[k].u);
		if (!c->nomem && dv[k] != SIZE_MAX)
			for (int e = 0; e < 2; e++)
				gx_cut_on_line(c, dv[k], gx_cut_line_of(c, k / 3, k / 3 ? (int) (k + 2 * e) % 3 : tline[k % 3][e]));
	}
	if (!c->over && !c->nomem)
		add_crossings(c);
	if (!c->over && !c->nomem && !c->cancelled)
		split_cuts(c);
	if (c->cancelled)
		goto cancelled;
	if (c->over)
	{
		gx_error_set(err, GX_ERR_LIMIT, "a triangle is cut by more than %zu segments and crossings", c->limit);
		free(dv);
		return false;
	}
	if (!c->nomem)
		start_triangulation(c, dv);
	for (size_t p = 0; p < c->npt && !c->nomem; p++)
	{
		bool		corner = false;

		if (stop(c))
			goto cancelled;
		for (size_t k = 0; k < 3 * c->ndom && !corner; k++)
			corner = dv[k] == p;
		if (!corner)
			insert_point(c, p);
	}
	free(dv);
	dv = NULL;
	if (!c->nomem)
		qsort(c->con, c->ncon, sizeof(Edge), cmp_edge);
	for (size_t k = 0; k < c->ncon && !c->nomem; k++)
	{
		if (stop(c))
			goto cancelled;
		if (!insert_constraint(c, c->con[k].a, c->con[k].b))
		{
			gx_error_set(err, GX_ERR_INVALID, "could not triangulate a triangle along its cuts");
			return false;
		}
	}
	if (c->cancelled)
		goto cancelled;
	if (!c->nomem)
		find_pieces(c);
	if (c->nomem)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory cutting a triangle into pieces");
		return false;
	}
	return true;
cancelled:
	free(dv);
	gx_error_set(err, GX_ERR_CANCELLED, "canceled while cutting solids' triangles");
	return false;
}

size_t
gx_cut_ntriangles(const GxCut *c)
{
	return c->ntri;
}

size_t
gx_cut_npieces(const GxCut *c)
{
	return c->npieces;
}

const size_t *
gx_cut_triangle(const GxCut *c, size_t k, size_t *piece)
{
	*piece = c->piece[k];
	return c->tri[k].v;
}

/*
 * mpq_get_d of the value a encloses (its truncation toward zero), when every value of a has the same; false
 * otherwise (or near underflow).
 */
static bool
truncate_near(const GxDDI *a, double *out)
{
	double		h = fabs(a->hi),
				l = a->hi < 0 ? -a->lo : a->lo,
				err = (fabs(a->lo) + a->rad) * (1 + 0x1p-50);

	if (!(h >= 0x1p-1000 && isfinite(h) && isfinite(err)))
		return false;
	/* |value| in [h + l - rad, h + l + rad]: in [h, next(h)) or in [prev(h), h) */
	if (l > a->rad * GX_DDI_UP && err < nextafter(h, INFINITY) - h)
		*out = a->hi;
	else if (l + a->rad * GX_DDI_UP < 0 && err < h - nextafter(h, 0))
		*out = a->hi < 0 ? -nextafter(h, 0) : nextafter(h, 0);
	else
		return false;
	return true;
}

bool
gx_cut_piece_near(GxCut *c, size_t p, double *t, double *u)
{
	static const GxDDI three = {3, 0, 0};
	const Tri  *x = &c->tri[c->rep[p]];
	GxDDI		m[2];

	/* T alone the domain, no triangle in its plane: the point in T's own (t, u), covered by none */
	if (c->exact || c->ndom > 1 || c->f.ncover > 0)
		return false;
	for (int k = 0; k < 2; k++)
	{
		const Near *v[3] = {&c->near[x->v[0]], &c->near[x->v[1]], &c->near[x->v[2]]};

		gx_ddi_add(&m[k], k ? &v[0]->u : &v[0]->t, k ? &v[1]->u : &v[1]->t);
		gx_ddi_add(&m[k], &m[k], k ? &v[2]->u : &v[2]->t);
		gx_ddi_div(&m[k], &m[k], &three);
	}
	return truncate_near(&m[0], t) && truncate_near(&m[1], u);
}

int
gx_cut_piece_point(GxCut *c, size_t p, mpq_ptr t, mpq_ptr u, const double **tri)
{
	const Tri  *x = &c->tri[c->rep[p]];
	Point		m;
	int			cover;

	/* the centroid of one of its triangles: no cut meets a triangle's inside */
	mpq_set_ui(t, 0, 1);
	mpq_set_ui(u, 0, 1);
	for (int k = 0; k < 3; k++)
	{
		const Point *v = gx_cut_exact_pt(c, x->v[k]);

		mpq_add(t, t, v->t);
		mpq_add(u, u, v->u);
	}
	mpq_set_ui(c->f.w[3], 3, 1);
	mpq_div(t, t, c->f.w[3]);
	mpq_div(u, u, c->f.w[3]);
	m.t[0] = *t;
	m.u[0] = *u;
	cover = gx_plane_covered(&c->f, &m);
	*tri = c->domxyz;
	for (size_t k = 1; k < c->ndom; k++)
	{
		const Point *d = &c->dom[3 * k];
		bool		in = true;
		mpq_t		det,
					w,
					lt,
					lu;

		for (int e = 0; in && e < 3; e++)
			in = gx_tu_orient(&c->f, &d[e], &d[(e + 1) % 3], &m) >= 0;
		if (!in)
			continue;
		/*
		 * in domain triangle k: (t, u) in its own coordinates, by Cramer's rule: m - d0 = t (d1 - d0) + u (d2 -
		 * d0) (m shares t's and u's numbers: both computed before either is set)
		 */
		mpq_inits(det, w, lt, lu, NULL);
		gx_cut_edge_value(&d[0], &d[1], &d[2], det, w);
		gx_cut_edge_value(&d[0], &m, &d[2], lt, w);
		gx_cut_edge_value(&d[0], &d[1], &m, lu, w);
		mpq_div(t, lt, det);
		mpq_div(u, lu, det);
		mpq_clears(det, w, lt, lu, NULL);
		*tri = c->domxyz + 9 * k;
		break;
	}
	return cover;
}

size_t
gx_cut_edge(const GxCut *c, size_t k, int m, bool *border, size_t *src, size_t max)
{
	size_t		a = c->tri[k].v[(m + 1) % 3],
				b = c->tri[k].v[(m + 2) % 3],
				n = 0;
	Edge		e = {a < b ? a : b, a < b ? b : a, 0};
	const Edge *x = bsearch(&e, c->con, c->ncon, sizeof(Edge), cmp_edge);

	*border = c->tri[k].nb[m] < 0;
	if (x == NULL)
		return 0;
	while (x > c->con && cmp_edge(x - 1, &e) == 0)
		x--;
	for (; x < c->con + c->ncon && cmp_edge(x, &e) == 0; x++)
	{
		bool		seen = false;

		for (size_t j = 0; j < n && j < max; j++)
			seen = seen || src[j] == x->src;
		if (!seen)
		{
			if (n < max)
				src[n] = x->src;
			n++;
		}
	}
	return n;
}

int
gx_cut_vertex_side(GxCut *c, size_t v, const double *tau)
{
	mpq_t		o,
				d;
	int			sign;

	if (!c->exact)
	{
		/* from the enclosures of the orientations of T's corners and of v's (t, u), where they decide */
		GxDDI		w[3],
					x,
					y;

		for (int k = 0; k < 3; k++)
			w[k] = gx_ddv_det(tau, c->f.T + 3 * k);
		gx_ddi_sub(&x, &w[1], &w[0]);
		gx_ddi_mul(&x, &x, &c->near[v].t);
		gx_ddi_sub(&y, &w[2], &w[0]);
		gx_ddi_mul(&y, &y, &c->near[v].u);
		gx_ddi_add(&x, &x, &y);
		gx_ddi_add(&x, &x, &w[0]);
		if ((sign = gx_ddi_sign(&x)) != 2)
			return sign;
	}

	/* orient3d(tau, .) is affine: at T0 + t (T1 - T0) + u (T2 - T0) it is O0 + t (O1 - O0) + u (O2 - O0) */
	gx_cut_exact_pt(c, v);
	mpq_inits(o, d, NULL);
	gx_orient3d_value(tau, tau + 3, tau + 6, c->f.T, o);
	for (int k = 1; k < 3; k++)
	{
		gx_orient3d_value(tau, tau + 3, tau + 6, c->f.T + 3 * k, d);
		mpq_sub(d, d, o);
		mpq_mul(d, d, k == 1 ? c->pt[v].t : c->pt[v].u);
		mpq_add(c->f.w[k], d, k == 1 ? o : c->f.w[1]);
	}
	sign = mpq_sgn(c->f.w[2]);
	mpq_clears(o, d, NULL);
	return sign;
}

/*
 * Coordinate a of point v, T0 + t (T1 - T0) + u (T2 - T0), rounded to the nearest double from the enclosures
 * of t and u, when these decide it (the whole enclosure of the sum inside one double's rounding cell).
 */
static bool
round_near(const GxCut *c, size_t v, int a, double *out)
{
	GxDDI		t0,
				e,
				x,
				y;

	gx_ddi_set_d(&t0, c->f.T[a]);
	gx_ddi_set_d(&e, c->f.T[3 + a]);
	gx_ddi_sub(&e, &e, &t0);
	gx_ddi_mul(&x, &e, &c->near[v].t);
	gx_ddi_set_d(&e, c->f.T[6 + a]);
	gx_ddi_sub(&e, &e, &t0);
	gx_ddi_mul(&y, &e, &c->near[v].u);
	gx_ddi_add(&x, &x, &y);
	gx_ddi_add(&x, &x, &t0);
	return isfinite(x.hi) && isfinite(x.lo) && isfinite(x.rad) && gx_ddi_round(&x, out);
}

void
gx_cut_vertex(GxCut *c, size_t v, double *xyz)
{
	for (int a = 0; a < 3; a++)
	{
		const Point *p;

		if (!c->exact && round_near(c, v, a, &xyz[a]))
			continue;
		p = gx_cut_exact_pt(c, v);
		/* T0 + t (T1 - T0) + u (T2 - T0), exactly */
		mpq_set_d(c->f.w[0], c->f.T[a]);
		mpq_set_d(c->f.w[1], c->f.T[3 + a]);
		mpq_sub(c->f.w[1], c->f.w[1], c->f.w[0]);
		mpq_mul(c->f.w[1], c->f.w[1], p->t);
		mpq_set_d(c->f.w[2], c->f.T[6 + a]);
		mpq_sub(c->f.w[2], c->f.w[2], c->f.w[0]);
		mpq_mul(c->f.w[2], c->f.w[2], p->u);
		mpq_add(c->f.w[0], c->f.w[0], c->f.w[1]);
		mpq_add(c->f.w[0], c->f.w[0], c->f.w[2]);
		xyz[a] = gx_mpq_get_d_nearest(c->f.w[0]);
	}
}

void
gx_cut_free(GxCut *c)
{
	if (c == NULL)
		return;
	for (size_t k = 0; k < c->npt; k++)
		mpq_clears(c->pt[k].t, c->pt[k].u, NULL);
	gx_plane_coords_clear(&c->f);
	gx_tu_clear(c->dom, (int) (3 * c->ndom));
	free(c->dom);
	free(c->domxyz);
	free(c->domnear);
	free(c->line);
	free(c->pt);
	free(c->near);
	free(c->lazy);
	free(c->cut);
	free(c->tri);
	free(c->con);
	free(c->piece);
	free(c->rep);
	free(c);
}
