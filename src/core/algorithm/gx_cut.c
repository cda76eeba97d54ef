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
 * Filtered: every point of the triangulation keeps a certified enclosure of its (t, u) (the rationals
 * truncated to doubles, with their error as radius; exact when they are doubles), and the orientations and
 * orders among those points are decided from the enclosures (gx_ddi.h), in rationals only where these cannot
 * decide; the same signs, so the same triangulation, bit for bit (gx_cut_exact turns the filter off).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_cut.h"
#include "algorithm/gx_ddi.h"
#include "algorithm/gx_plane_coords.h"
#include "algorithm/gx_plane_near.h"
#include "algorithm/gx_predicates.h"
#include "algorithm/gx_projection.h"
#include "algorithm/gx_predicates_exact.h"
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"

#define CANCEL_EVERY 64

typedef GxTU Point;

/* A point's (t, u) enclosed. */
typedef struct Near
{
	GxDDI		t,
				u;
} Near;

/* How a point's exact (t, u) is made when first needed. */
typedef enum Make
{
	MADE,						/* it is */
	CROSSING,					/* where edge x[0..3) x[3..6) crosses T's plane */
	CLIP						/* where the segment between the crossings of edges x[0..6) and x[6..12) crosses
								 * domain triangle dtri's edge dedge (T's: 0 where t = 0, 1 u = 0, 2 t + u = 1) */
} Make;

#define LINES 4					/* domain edges' lines remembered a point; more are forgotten (only the filter is lost) */

typedef struct Lazy
{
	double		x[12];
	size_t		dtri;
	uint32_t	line[LINES];	/* the domain edges' lines it lies on (c->line) */
	uint8_t		dedge,
				make,
				nline;
	bool		made;			/* its rationals are (always when MADE) */
} Lazy;

typedef struct Edge
{
	size_t		a,
				b,
				src;			/* the gx_cut_add call that made it, counted from 0 */
} Edge;

/* A triangle of the triangulation: nb[k] the one across the edge opposite v[k], -1 on T's edges. */
typedef struct Tri
{
	size_t		v[3];
	long		nb[3];
} Tri;

struct GxCut
{
	GxPlaneCoords f;			/* T's (t, u), the triangles lying in its plane */
	Point	   *dom;			/* the domain's triangles' corners, 3 each, counter-clockwise: T's first */
	double	   *domxyz;			/* their coordinates, 9 a triangle */
	size_t		ndom,
				domcap;
	Near	   *domnear;		/* the domain's corners enclosed */
	const double **line;		/* the domain edges' lines, by the ends of one edge on each, 2 a line */
	size_t		nline,
				linecap;
	GxPlaneNear pn;
	Point	   *pt;				/* exact where lazy says MADE */
	Near	   *near;			/* per point */
	Lazy	   *lazy;
	size_t		npt,
				ptcap,
				nearcap,
				lazycap;
	Edge	   *cut;			/* by their ends' points */
	size_t		ncut,
				cutcap;
	Tri		   *tri;
	size_t		ntri,
				tricap;
	Edge	   *con;			/* the split cuts, a < b, sorted */
	size_t		ncon,
				concap;
	size_t	   *piece,			/* per triangle */
			   *rep,			/* per piece: one of its triangles */
				npieces;
	size_t		limit,
				nadded;			/* gx_cut_add calls so far */
	const GxCancel *cancel;		/* gx_cut_build's: polled in every loop over points, cuts or flips */
	bool		exact,			/* no filter: every sign in rationals */
				nomem,
				over,
				cancelled;
};

/*
 * An enclosure of q: the double mpq_get_d truncates it to (|q - d| < ulp(d) <= 2^-52 |d|, or below 2^-1022
 * where d is subnormal or 0), radius 0 when q is that double (an integer or a power of two's fraction of 53
 * bits or fewer, in the normal range).
 */
static void
enclose(mpq_srcptr q, GxDDI *r)
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
		enclose(c->dom[k].t, &c->domnear[k].t);
		enclose(c->dom[k].u, &c->domnear[k].u);
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
		enclose(d[k].t, &c->domnear[3 * c->ndom + k].t);
		enclose(d[k].u, &c->domnear[3 * c->ndom + k].u);
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

static bool
room(GxCut *c)
{
	if (c->npt + c->ncut < c->limit)
		return true;
	c->over = true;
	return false;
}

/* v = (b - a) x (x - a); w scratch. */
static void
edge_value(const Point *a, const Point *b, const Point *x, mpq_ptr v, mpq_ptr w)
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
static void
dom_edge_value(const GxCut *c, size_t k, int e, const Point *x, mpq_ptr v, mpq_ptr w)
{
	if (k > 0)
		edge_value(&c->dom[3 * k + e], &c->dom[3 * k + (e + 1) % 3], x, v, w);
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
static const Point *
exact_pt(GxCut *c, size_t k)
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
		dom_edge_value(c, l->dtri, l->dedge, x, s, w);
		dom_edge_value(c, l->dtri, l->dedge, &q, f, w);
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
static bool
same_edge(const double *a, const double *b, const double *p, const double *q)
{
	return (same_xyz(a, p) && same_xyz(b, q)) || (same_xyz(a, q) && same_xyz(b, p));
}

/* The id of the line of domain triangle k's edge e (as clip_to numbers them); UINT32_MAX without memory. */
static uint32_t
line_of(GxCut *c, size_t k, int e)
{
	static const int tedge[3][2] = {{0, 2}, {0, 1}, {1, 2}};	/* T's corners where t = 0, u = 0, t + u = 1 */
	const double *d = c->domxyz + 9 * k,
			   *a = d + 3 * (k ? e : tedge[e][0]),
			   *b = d + 3 * (k ? (e + 1) % 3 : tedge[e][1]);
	size_t		x;

	/* an edge shared by two domain triangles is one line (after every gx_cut_extend: c->domxyz stays) */
	for (x = 0; x < c->nline; x++)
		if (same_edge(c->line[2 * x], c->line[2 * x + 1], a, b))
			return (uint32_t) x;
	if (x >= UINT32_MAX - 1 ||
		!gx_grow_malloc((void **) &c->line, &c->linecap, 2 * (x + 1), sizeof(double *), SIZE_MAX / 512))
		return UINT32_MAX;
	c->line[2 * x] = a;
	c->line[2 * x + 1] = b;
	c->nline++;
	return (uint32_t) x;
}
/* Point p lies on line id (line_of). */
static void
on_line(GxCut *c, size_t p, uint32_t id)
{
	Lazy	   *l = &c->lazy[p];

	if (p == SIZE_MAX || id == UINT32_MAX)
		return;
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
static size_t
add_made(GxCut *c, const Near *n, const Lazy *how, mpq_srcptr t, mpq_srcptr u)
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
		if ((how->make == CROSSING && l->make == CROSSING && same_edge(l->x, l->x + 3, how->x, how->x + 3)) ||
			(mpq_equal(exact_pt(c, k)->t, exact_pt(c, np)->t) && mpq_equal(c->pt[k].u, c->pt[np].u)))
		{
			mpq_clears(x->t, x->u, NULL);
			if (how->make == CLIP)
				on_line(c, k, line_of(c, how->dtri, how->dedge));
			return k;
		}
	}
	if (!room(c))
	{
		mpq_clears(x->t, x->u, NULL);
		return SIZE_MAX;
	}
	c->lazy[np].nline = 0;
	if (how->make == CLIP)
		on_line(c, np, line_of(c, how->dtri, how->dedge));
	return c->npt++;
}

/* The index of point (t, u), added when new; SIZE_MAX when out of room. */
static size_t
add_point(GxCut *c, mpq_srcptr t, mpq_srcptr u)
{
	Near		n;
	Lazy		how = {.make = MADE, .made = true};

	enclose(t, &n.t);
	enclose(u, &n.u);
	return add_made(c, &n, &how, t, u);
}

static void
add_cut(GxCut *c, size_t a, size_t b)
{
	if (a == SIZE_MAX || b == SIZE_MAX || a == b || !room(c))
		return;
	if (!gx_grow_malloc((void **) &c->cut, &c->cutcap, c->ncut + 1, sizeof(Edge), SIZE_MAX / 64))
	{
		c->nomem = true;
		return;
	}
	c->cut[c->ncut++] = (Edge) {a, b, c->nadded};
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
		edge_value(&d[e], &d[(e + 1) % 3], p, f[0], w);
		edge_value(&d[e], &d[(e + 1) % 3], q, f[1], w);
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
		return same_edge(x->how.x, x->how.x + 3, y->how.x, y->how.x + 3);
	return same_edge(x->ka, x->kb, y->ka, y->kb);
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
	static const int tedge[3][2] = {{0, 2}, {0, 1}, {1, 2}};	/* T's corners where t = 0, u = 0, t + u = 1 */
	const double *d = c->domxyz + 9 * k;
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
	r->ka = d + 3 * (k ? e : tedge[e][0]);
	r->kb = d + 3 * (k ? (e + 1) % 3 : tedge[e][1]);
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
static bool
add_group_near(GxCut *c, const double *tri, const size_t *idx, size_t n)
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
		size_t		a = add_made(c, &seg[2 * x].n, &seg[2 * x].how, NULL, NULL);

		add_cut(c, a, add_made(c, &seg[2 * x + 1].n, &seg[2 * x + 1].how, NULL, NULL));
	}
	free(seg);
	if (ok)
		c->nadded++;
	return ok;
}

void
gx_cut_add_group(GxCut *c, const double *tri, const size_t *idx, size_t n)
{
	Bits		b = {NULL, 0, 0, NULL, 0, 0};

	if (!c->exact && add_group_near(c, tri, idx, n))
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
				add_point(c, p[k].t, p[k].u);
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
		size_t		a = add_point(c, b.seg[2 * x].t, b.seg[2 * x].u);

		add_cut(c, a, add_point(c, b.seg[2 * x + 1].t, b.seg[2 * x + 1].u));
	}
	for (size_t k = 0; k < b.nlone; k++)
	{
		bool		on = false;

		for (size_t x = 0; x < b.nseg / 2 && !on; x++)
			on = on_segment(c, &b.seg[2 * x], &b.lone[k]);
		if (!on)
			add_point(c, b.lone[k].t, b.lone[k].u);
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
static int
orient(GxCut *c, size_t a, size_t b, size_t p)
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
		const Point *x = exact_pt(c, a),
				   *y = exact_pt(c, b),
				   *z = exact_pt(c, p);

		o = gx_tu_orient(&c->f, x, y, z);
		o = (o > 0) - (o < 0);
	}
	return o;
}

/* The sign of point x's t (coordinate 0) or u (1) less point y's. */
static int
cmp_coord(GxCut *c, size_t x, size_t y, int k)
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
		const Point *p = exact_pt(c, x),
				   *q = exact_pt(c, y);

		o = k ? mpq_cmp(p->u, q->u) : mpq_cmp(p->t, q->t);
		o = (o > 0) - (o < 0);
	}
	return o;
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

			if (orient(c, a0, a1, b0) * orient(c, a0, a1, b1) >= 0 ||
				orient(c, b0, b1, a0) * orient(c, b0, b1, a1) >= 0)
				continue;
			exact_pt(c, a0);
			exact_pt(c, a1);
			exact_pt(c, b0);
			exact_pt(c, b1);
			gx_tu_crossing(&c->f, &c->pt[a0], &c->pt[a1], &c->pt[b0], &c->pt[b1], s);
			gx_tu_along(t, u, &c->pt[b0], &c->pt[b1], s);
			add_point(c, t, u);
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

	if (p == a || p == b || orient(c, a, b, p) != 0)
		return false;
	/* on the line: compare along t, or along u for a segment of constant t */
	k = cmp_coord(c, a, b, 0) == 0;
	lo = cmp_coord(c, a, p, k);
	hi = cmp_coord(c, p, b, k);
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

				exact_pt(c, c->cut[x].a);
				mpq_sub(&key[at], exact_pt(c, k)->t, a->t);
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
			o[k] = orient(c, t->v[(k + 1) % 3], t->v[(k + 2) % 3], p);
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
	return orient(c, a, b, p) * orient(c, a, b, q) < 0 && orient(c, p, q, a) * orient(c, p, q, b) < 0;
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
		if (orient(c, p, q, e.a) * orient(c, p, q, e.b) < 0)
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
		dv[k] = add_point(c, c->dom[k].t, c->dom[k].u);
		if (!c->nomem && dv[k] != SIZE_MAX)
			for (int e = 0; e < 2; e++)
				on_line(c, dv[k], line_of(c, k / 3, k / 3 ? (int) (k + 2 * e) % 3 : tline[k % 3][e]));
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
		const Point *v = exact_pt(c, x->v[k]);

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
		edge_value(&d[0], &d[1], &d[2], det, w);
		edge_value(&d[0], &m, &d[2], lt, w);
		edge_value(&d[0], &d[1], &m, lu, w);
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

	/* orient3d(tau, .) is affine: at T0 + t (T1 - T0) + u (T2 - T0) it is O0 + t (O1 - O0) + u (O2 - O0) */
	exact_pt(c, v);
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
		p = exact_pt(c, v);
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
