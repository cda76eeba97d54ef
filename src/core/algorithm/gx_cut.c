/*
 * gx_cut.c: a triangle cut along the sections of other triangles, triangulated along the cuts (gx_cut.h).
 * In T's coordinates (t, u), every decision exact (gx_cut_points.h: certified double-doubles, rationals where
 * they cannot decide): the cuts are clipped to T; the points are T's corners, the cuts' ends (a section that
 * only touches T is a point) and their crossings; every cut is split at the points on it. The points are
 * inserted one by one into T (a triangle split in three, or two triangles in two when the point lies on an
 * edge), then each split cut is made an edge by flipping the edges that cross it (Sloan's method: no point
 * lies inside a split cut and no two of them cross, so it ends). Pieces are the classes of triangles joined
 * across edges that are not cuts.
 */
#include <stdint.h>
#include <stdlib.h>

#include "algorithm/gx_cut.h"
#include "algorithm/gx_cut_points.h"
#include "base/gx_alloc.h"

#define CANCEL_EVERY 64

typedef struct Edge
{
	size_t		a,
				b,
				src;			/* the gx_cut_add call that made it, counted from 0 */
	uint32_t	line;			/* the line it lies on (gx_cut_points.h) */
} Edge;

/* What one gx_cut_add call added: its triangle, and whether it crosses T's plane through its inside. */
typedef struct Added
{
	const double *tau;
	bool		through;		/* a segment from its boundary across its inside (no edge of it in the plane) */
} Added;

/* A triangle of the triangulation: nb[k] the one across the edge opposite v[k], -1 on T's edges. */
typedef struct Tri
{
	size_t		v[3];
	long		nb[3];
} Tri;

struct GxCut
{
	GxCutPoints *P;				/* every point made in T's (t, u), the triangles lying in its plane */
	size_t	   *pt;				/* the points of the triangulation, as P's */
	size_t		npt,
				ptcap;
	Added	   *added;			/* per gx_cut_add call */
	size_t		addedcap;
	uint32_t	nlines;			/* lines named so far */
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
	bool		nomem,
				over,
				cancelled;
};

GxCut *
gx_cut_new(const double *T, int drop)
{
	GxCut	   *c = calloc(1, sizeof(GxCut));

	if (c == NULL)
		return NULL;
	if ((c->P = gx_cpt_new(T, drop)) == NULL)
	{
		free(c);
		return NULL;
	}
	c->limit = SIZE_MAX / 512;
	c->nlines = GX_CPT_FIRST_LINE;
	return c;
}

void
gx_cut_exact_only(GxCut *c)
{
	gx_cpt_exact_only(c->P);
}

void
gx_cut_limit(GxCut *c, size_t max_cuts)
{
	c->limit = max_cuts;
}

static bool
room(GxCut *c)
{
	if (c->npt + c->ncut < c->limit)
		return true;
	c->over = true;
	return false;
}

/* The index of point x (one of c->P's), added when new; SIZE_MAX when out of room. */
static size_t
add_point(GxCut *c, size_t x)
{
	if (x == SIZE_MAX)
	{
		c->nomem = true;
		return SIZE_MAX;
	}
	for (size_t k = 0; k < c->npt; k++)
		if (gx_cpt_same(c->P, c->pt[k], x))
			return k;
	if (!room(c))
		return SIZE_MAX;
	if (!gx_grow_malloc((void **) &c->pt, &c->ptcap, c->npt + 1, sizeof(size_t), SIZE_MAX / 512))
	{
		c->nomem = true;
		return SIZE_MAX;
	}
	c->pt[c->npt] = x;
	return c->npt++;
}

static void
add_cut(GxCut *c, size_t a, size_t b, uint32_t line)
{
	if (a == SIZE_MAX || b == SIZE_MAX || a == b || !room(c))
		return;
	if (!gx_grow_malloc((void **) &c->cut, &c->cutcap, c->ncut + 1, sizeof(Edge), SIZE_MAX / 64))
	{
		c->nomem = true;
		return;
	}
	c->cut[c->ncut++] = (Edge) {a, b, c->nadded, line};
}

/*
 * The part of segment pq (points of c->P) inside T (pq a point when q == p, on no line): a cut on line `line`,
 * a point when only one is left.
 */
static void
add_clipped(GxCut *c, size_t p, size_t q, uint32_t line)
{
	size_t		r[2];

	if (gx_cpt_clip(c->P, p, q, r))
	{
		size_t		a;

		gx_cpt_on_line(c->P, r[0], line);
		gx_cpt_on_line(c->P, r[1], line);
		a = add_point(c, r[0]);
		add_cut(c, a, add_point(c, r[1]), line);
	}
	else if (gx_cpt_nomem(c->P))
		c->nomem = true;
}

void
gx_cut_add(GxCut *c, const double *tau)
{
	int			nzero,
				n;
	size_t		p[3];

	if (!gx_grow_malloc((void **) &c->added, &c->addedcap, c->nadded + 1, sizeof(Added), SIZE_MAX / 64))
	{
		c->nomem = true;
		return;
	}
	n = gx_cpt_section(c->P, tau, p, &nzero);
	c->added[c->nadded] = (Added) {tau, n == 2 && nzero < 2};
	if (gx_cpt_nomem(c->P))
		c->nomem = true;
	else if (n == 1)
		add_clipped(c, p[0], p[0], GX_CPT_NO_LINE);
	else if (n == 2)
		add_clipped(c, p[0], p[1], c->nlines++);
	else if (n == 3)
		for (int k = 0; k < 3; k++)
			add_clipped(c, p[k], p[(k + 1) % 3], c->nlines++);
	c->nadded++;
}

/* Is cancel set? Remembered once seen. */
static bool
stop(GxCut *c)
{
	if (!c->cancelled && gx_cancel_requested(c->cancel))
		c->cancelled = true;
	return c->cancelled;
}

/* The sign of (q - p) x (r - p) for points of the triangulation. */
static int
orient(GxCut *c, size_t p, size_t q, size_t r)
{
	return gx_cpt_orient(c->P, c->pt[p], c->pt[q], c->pt[r]);
}

/* The points where two cuts cross inside both (their ends are points already). */
static void
add_crossings(GxCut *c)
{
	size_t		n = c->ncut,
				x;

	for (size_t i = 0; i < n && !stop(c); i++)
		for (size_t j = i + 1; j < n; j++)
			if (gx_cpt_cross(c->P, c->pt[c->cut[i].a], c->pt[c->cut[i].b], c->pt[c->cut[j].a], c->pt[c->cut[j].b],
							 &x))
			{
				gx_cpt_on_line(c->P, x, c->cut[i].line);
				gx_cpt_on_line(c->P, x, c->cut[j].line);
				add_point(c, x);
			}
			else if (gx_cpt_nomem(c->P))
				c->nomem = true;
}

static void
add_constraint(GxCut *c, size_t a, size_t b, size_t src)
{
	if (!gx_grow_malloc((void **) &c->con, &c->concap, c->ncon + 1, sizeof(Edge), SIZE_MAX / 64))
	{
		c->nomem = true;
		return;
	}
	c->con[c->ncon++] = (Edge) {a < b ? a : b, a < b ? b : a, src, GX_CPT_NO_LINE};
}

/* Every cut split at the points inside it, into c->con: those points sorted by |t - ta| + |u - ua|. */
static void
split_cuts(GxCut *c)
{
	size_t	   *on = malloc((c->npt + 2) * sizeof(size_t));

	if (on == NULL)
	{
		c->nomem = true;
		return;
	}
	for (size_t x = 0; x < c->ncut && !c->nomem && !stop(c); x++)
	{
		size_t		a = c->pt[c->cut[x].a],
					b = c->pt[c->cut[x].b],
					n = 0;

		on[n++] = c->cut[x].a;
		for (size_t k = 0; k < c->npt; k++)
			if (gx_cpt_between(c->P, a, b, c->pt[k]))
			{
				size_t		at = n++;

				/* insertion sort: few points lie on one cut */
				while (at > 1 && gx_cpt_closer(c->P, a, c->pt[on[at - 1]], c->pt[k]) > 0)
				{
					on[at] = on[at - 1];
					at--;
				}
				on[at] = k;
			}
		on[n++] = c->cut[x].b;
		for (size_t k = 0; k + 1 < n; k++)
			add_constraint(c, on[k], on[k + 1], c->cut[x].src);
	}
	free(on);
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
				queue[n++] = (Edge) {c->tri[y].v[(m + 1) % 3], c->tri[y].v[(m + 2) % 3], 0, GX_CPT_NO_LINE};
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
				e = (Edge) {p, q, 0, GX_CPT_NO_LINE};
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
	Edge		e = {a < b ? a : b, a < b ? b : a, 0, GX_CPT_NO_LINE};

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

bool
gx_cut_build(GxCut *c, const GxCancel *cancel, GxError *err)
{
	size_t		corner[3];

	c->cancel = cancel;
	/* T's corners, appended: the points of the cuts keep their indices */
	for (int k = 0; k < 3; k++)
		corner[k] = add_point(c, gx_cpt_corner(c->P, k));
	add_crossings(c);
	if (!c->over && !c->nomem && !c->cancelled)
		split_cuts(c);
	if (c->cancelled)
		goto cancelled;
	if (c->over)
	{
		gx_error_set(err, GX_ERR_LIMIT, "a triangle is cut by more than %zu segments and crossings", c->limit);
		return false;
	}
	if (!c->nomem && new_tri(c) == 0)
		c->tri[0] = (Tri) {{corner[0], corner[1], corner[2]}, {-1, -1, -1}};
	for (size_t p = 0; p < c->npt && !c->nomem; p++)
	{
		if (stop(c))
			goto cancelled;
		if (p != corner[0] && p != corner[1] && p != corner[2])
			insert_point(c, p);
	}
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
gx_cut_piece_point(GxCut *c, size_t p, mpq_ptr t, mpq_ptr u)
{
	const Tri  *x = &c->tri[c->rep[p]];
	size_t		v[3] = {c->pt[x->v[0]], c->pt[x->v[1]], c->pt[x->v[2]]};

	/* the centroid of one of its triangles: no cut meets a triangle's inside */
	return gx_cpt_centroid(c->P, v, t, u);
}

int
gx_cut_piece_side(GxCut *c, size_t p)
{
	if (gx_cpt_ncover(c->P) > 0)
		return 0;
	for (size_t k = 0; k < c->ntri; k++)
		for (int m = 0; m < 3 && c->piece[k] == p; m++)
		{
			size_t		src;
			bool		border;

			/* the vertex across the cut lies off tau's plane, on the piece's side of it */
			if (gx_cut_edge(c, k, m, &border, &src, 1) == 1 && c->added[src].through)
				return -gx_cpt_side(c->P, c->pt[c->tri[k].v[m]], c->added[src].tau);
		}
	return 0;
}

size_t
gx_cut_edge(const GxCut *c, size_t k, int m, bool *border, size_t *src, size_t max)
{
	size_t		a = c->tri[k].v[(m + 1) % 3],
				b = c->tri[k].v[(m + 2) % 3],
				n = 0;
	Edge		e = {a < b ? a : b, a < b ? b : a, 0, GX_CPT_NO_LINE};
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
	return gx_cpt_side(c->P, c->pt[v], tau);
}

void
gx_cut_vertex(GxCut *c, size_t v, double *xyz)
{
	gx_cpt_round(c->P, c->pt[v], xyz);
}

void
gx_cut_free(GxCut *c)
{
	if (c == NULL)
		return;
	gx_cpt_free(c->P);
	free(c->pt);
	free(c->added);
	free(c->cut);
	free(c->tri);
	free(c->con);
	free(c->piece);
	free(c->rep);
	free(c);
}
