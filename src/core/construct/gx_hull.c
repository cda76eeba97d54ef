/*
 * gx_hull.c: the exact convex hull of a geometry's vertices (gx_convexhull), with exact orientation tests
 * (gx_orient3d, gx_orient2d): a solid when the points span space, a polygon's triangles (a TIN) when they lie
 * in one plane, a LINESTRING on one line, a POINT.
 *
 * In space, points are added one at a time to a tetrahedron (incremental construction with outside sets,
 * as Qhull does: each point not yet added waits in the set of one face it sees, and the farthest point of a
 * set goes next). A point sees a face when it lies strictly outside the face's plane; one that sees none is in
 * the hull and is dropped. The faces a point sees form a disk: they are replaced by the triangles joining the
 * point to the disk's boundary (the horizon), and the points waiting on them go to the new faces they see. A point in the plane of a face sees it not, so no triangle made is degenerate (a point on the
 * line of a horizon edge lies in the planes of both its faces, which makes the edge no horizon edge). Every
 * corner of the hull is a vertex of the result; a point on a face or an edge of the hull may be one too, and
 * faces in one plane are kept as the triangles they were made of. The whole is checked as a solid at the end.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* qsort_r */
#endif
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_predicates.h"
#include "base/gx_alloc.h"
#include "base/gx_interrupt.h"
#include "construct/gx_construct.h"
#include "operation/gx_solid_make.h"

typedef struct Points
{
	double	   *p;
	size_t		n;
} Points;

static bool
point_leaf(void *ctx, const GxNode *leaf)
{
	Points	   *v = ctx;
	size_t		k = (size_t) gx_leaf_doubles(leaf->type, leaf->count);

	if (v->p)
		memcpy(v->p + 3 * v->n, gx_node_coords(leaf), k * sizeof(double));
	v->n += k / 3;
	return true;
}

static int
lex_cmp(const void *x, const void *y)
{
	const double *a = x,
			   *b = y;

	for (int d = 0; d < 3; d++)
		if (a[d] != b[d])
			return a[d] < b[d] ? -1 : 1;
	return 0;
}

/* Three points on one line: every axis projection of their triangle is degenerate. */
static bool
collinear(const double *a, const double *b, const double *c)
{
	return gx_orient2d(a, b, c, 0) == 0 && gx_orient2d(a, b, c, 1) == 0 && gx_orient2d(a, b, c, 2) == 0;
}

/*
 * A face of the hull in space: counter-clockwise seen from outside; nb[i] is across edge v[i] v[i+1]. Its
 * outside set: points not yet added that see it (a list through Hull.next), each point in one set only.
 */
typedef struct Face
{
	size_t		v[3];
	size_t		nb[3];
	size_t		outside;		/* first point of the outside set, SIZE_MAX when empty */
	size_t		stamp;			/* the round that found it visible */
	bool		alive;
} Face;

typedef struct Hull
{
	const double *p;
	Face	   *f;
	size_t		nf,
				cap;
	size_t	   *next;			/* the next point of an outside set */
	size_t	   *work;			/* faces with an outside set to empty (a stack; dead or emptied ones skipped) */
	size_t		nwork,
				work_cap;
	GxError    *err;
} Hull;

static double const *
P(const Hull *h, size_t i)
{
	return h->p + 3 * i;
}

/* Point q sees face fi: it lies strictly outside the face's plane. */
static bool
sees(const Hull *h, size_t fi, size_t q)
{
	const Face *f = &h->f[fi];

	return gx_orient3d(P(h, f->v[0]), P(h, f->v[1]), P(h, f->v[2]), P(h, q)) < 0;
}

static bool
push_work(Hull *h, size_t fi)
{
	if (h->nwork == h->work_cap)
	{
		size_t		cap = h->work_cap ? 2 * h->work_cap : 64;
		size_t	   *w = gx_realloc(h->work, cap * sizeof(size_t));

		if (!w)
		{
			gx_error_set(h->err, GX_ERR_NOMEM, "gx_convexhull: out of memory");
			return false;
		}
		h->work = w;
		h->work_cap = cap;
	}
	h->work[h->nwork++] = fi;
	return true;
}

/* Puts point q in the outside set of the first face of faces[0..n) it sees; a point that sees none is in. */
static bool
assign(Hull *h, size_t q, const size_t *faces, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (sees(h, faces[k], q))
		{
			Face	   *f = &h->f[faces[k]];

			if (f->outside == SIZE_MAX && !push_work(h, faces[k]))
				return false;
			h->next[q] = f->outside;
			f->outside = q;
			return true;
		}
	return true;
}

static size_t
new_face(Hull *h, size_t a, size_t b, size_t c)
{
	if (h->nf == h->cap)
	{
		size_t		cap = h->cap ? 2 * h->cap : 64;
		Face	   *f = gx_realloc(h->f, cap * sizeof(Face));

		if (!f)
		{
			gx_error_set(h->err, GX_ERR_NOMEM, "gx_convexhull: out of memory for %zu faces", cap);
			return SIZE_MAX;
		}
		h->f = f;
		h->cap = cap;
	}
	h->f[h->nf] = (Face) {{a, b, c}, {SIZE_MAX, SIZE_MAX, SIZE_MAX}, SIZE_MAX, 0, true};
	return h->nf++;
}

/* The edge of face f that runs from vertex a to vertex b (as f lists them); -1 when none. */
static int
edge_of(const Face *f, size_t a, size_t b)
{
	for (int i = 0; i < 3; i++)
		if (f->v[i] == a && f->v[(i + 1) % 3] == b)
			return i;
	return -1;
}

/* Links the neighbours of the first faces (a closed surface): by matching reversed edges. */
static void
link_tetrahedron(Hull *h)
{
	for (size_t x = 0; x < h->nf; x++)
		for (int i = 0; i < 3; i++)
			for (size_t y = 0; y < h->nf; y++)
				if (y != x && edge_of(&h->f[y], h->f[x].v[(i + 1) % 3], h->f[x].v[i]) >= 0)
					h->f[x].nb[i] = y;
}

/* The farthest point of face fi's outside set, by a floating-point estimate (only a choice: any would do). */
static size_t
farthest(const Hull *h, size_t fi)
{
	const Face *f = &h->f[fi];
	const double *a = P(h, f->v[0]),
			   *b = P(h, f->v[1]),
			   *c = P(h, f->v[2]);
	double		n[3] = {(b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]),
		(b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]),
	(b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])};
	double		best = -1;
	size_t		q = f->outside;

	for (size_t r = f->outside; r != SIZE_MAX; r = h->next[r])
	{
		const double *x = P(h, r);
		double		dist = n[0] * (x[0] - a[0]) + n[1] * (x[1] - a[1]) + n[2] * (x[2] - a[2]);

		if (dist > best)
		{
			best = dist;
			q = r;
		}
	}
	return q;
}

/*
 * Adds point q, which sees face f0: the faces it sees (a disk around f0, found through neighbours) replaced
 * by a fan around the horizon, and their outside sets handed to the new faces.
 */
static bool
add_point(Hull *h, size_t f0, size_t q, size_t round, size_t *start_of, size_t **seen, size_t *seen_cap)
{
	size_t		nseen = 0,
				first_new = h->nf;

	h->f[f0].stamp = round;
	(*seen)[nseen++] = f0;
	for (size_t k = 0; k < nseen; k++)
		for (int i = 0; i < 3; i++)
		{
			size_t		g = h->f[(*seen)[k]].nb[i];

			if (h->f[g].stamp == round || !sees(h, g, q))
				continue;
			h->f[g].stamp = round;
			if (nseen == *seen_cap)
			{
				size_t	   *s = gx_realloc(*seen, 2 * *seen_cap * sizeof(size_t));

				if (!s)
				{
					gx_error_set(h->err, GX_ERR_NOMEM, "gx_convexhull: out of memory");
					return false;
				}
				*seen = s;
				*seen_cap *= 2;
			}
			(*seen)[nseen++] = g;
		}
	/* a new face (a, b, q) for each horizon edge a b of a seen face, its neighbour across a b kept */
	for (size_t k = 0; k < nseen; k++)
		for (int i = 0; i < 3; i++)
		{
			size_t		fi = (*seen)[k],
						g = h->f[fi].nb[i],
						a = h->f[fi].v[i],
						b = h->f[fi].v[(i + 1) % 3],
						nf;

			if (h->f[g].stamp == round)
				continue;
			nf = new_face(h, a, b, q);
			if (nf == SIZE_MAX)
				return false;
			h->f[nf].nb[0] = g;
			h->f[g].nb[edge_of(&h->f[g], b, a)] = nf;
			if (start_of[a] != SIZE_MAX)
			{
				gx_error_set(h->err, GX_ERR_UNSUPPORTED, "gx_convexhull: the faces seen from (%.17g %.17g %.17g) "
							 "form no disk", P(h, q)[0], P(h, q)[1], P(h, q)[2]);
				return false;
			}
			start_of[a] = nf;
		}
	/* the fan's faces around q: (a, b, q) meets (b, c, q) across b q */
	for (size_t nf = first_new; nf < h->nf; nf++)
	{
		size_t		next = start_of[h->f[nf].v[1]];

		if (next == SIZE_MAX)
		{
			gx_error_set(h->err, GX_ERR_UNSUPPORTED, "gx_convexhull: the horizon of (%.17g %.17g %.17g) is not "
						 "closed", P(h, q)[0], P(h, q)[1], P(h, q)[2]);
			return false;
		}
		h->f[nf].nb[1] = next;
		h->f[next].nb[2] = nf;
	}
	for (size_t nf = first_new; nf < h->nf; nf++)
		start_of[h->f[nf].v[0]] = SIZE_MAX;
	/* a point that saw a face now gone sees a new face, or is in the hull (its ray from that face says so) */
	{
		size_t		nnew = h->nf - first_new;
		size_t	   *fresh = gx_alloc(nnew * sizeof(size_t));

		if (!fresh)
		{
			gx_error_set(h->err, GX_ERR_NOMEM, "gx_convexhull: out of memory");
			return false;
		}
		for (size_t k = 0; k < nnew; k++)
			fresh[k] = first_new + k;
		for (size_t k = 0; k < nseen; k++)
		{
			Face	   *f = &h->f[(*seen)[k]];
			size_t		r = f->outside;

			f->alive = false;
			f->outside = SIZE_MAX;
			while (r != SIZE_MAX)
			{
				size_t		next = h->next[r];

				if (r != q && !assign(h, r, fresh, nnew))
				{
					gx_free(fresh);
					return false;
				}
				r = next;
			}
		}
		gx_free(fresh);
	}
	return true;
}

/* The hull of points spanning space, tet[0..3] a tetrahedron of them, as a solid; NULL with err set. */
static GxSerialized *
hull_3d(const double *p, size_t n, const size_t tet[4], int32_t srid, size_t *size, GxError *err)
{
	Hull		h = {p, NULL, 0, 0, NULL, NULL, 0, 0, err};
	size_t		seen_cap = 64,
				round = 0;
	size_t	   *start_of = gx_alloc(n * sizeof(size_t)),
			   *seen = gx_alloc(seen_cap * sizeof(size_t));
	size_t		a = tet[0],
				b = tet[1],
				c = tet[2],
				d = tet[3],
				first[4] = {0, 1, 2, 3};
	GxSerialized *out = NULL,
			   *surface;
	GxBuilder	bld;
	size_t		node,
				count = 0;

	h.next = gx_alloc(n * sizeof(size_t));
	if (!start_of || !seen || !h.next)
	{
		gx_error_set(err, GX_ERR_NOMEM, "gx_convexhull: out of memory for %zu points", n);
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		start_of[i] = SIZE_MAX;
	/* d below the plane of a b c seen counter-clockwise from above: (a, b, c) faces away from d */
	if (gx_orient3d(P(&h, a), P(&h, b), P(&h, c), P(&h, d)) < 0)
	{
		size_t		t = b;

		b = c;
		c = t;
	}
	new_face(&h, a, b, c);
	new_face(&h, a, d, b);
	new_face(&h, b, d, c);
	new_face(&h, c, d, a);
	if (err->code != GX_OK)
		goto done;
	link_tetrahedron(&h);
	for (size_t q = 0; q < n; q++)
		if (q != a && q != b && q != c && q != d && !assign(&h, q, first, 4))
			goto done;
	while (h.nwork > 0)
	{
		size_t		fi = h.work[--h.nwork];

		if (!h.f[fi].alive || h.f[fi].outside == SIZE_MAX)
			continue;
		if (!add_point(&h, fi, farthest(&h, fi), ++round, start_of, &seen, &seen_cap))
			goto done;
		gx_maybe_interrupt(round);
	}
	gx_builder_init(&bld, err);
	node = gx_builder_begin(&bld, GX_POLYHEDRALSURFACE);
	for (size_t k = 0; k < h.nf; k++)
	{
		const Face *f = &h.f[k];

		if (!f->alive)
			continue;
		for (int i = 0; i < 3; i++)
			gx_builder_coord(&bld, P(&h, f->v[i])[0], P(&h, f->v[i])[1], P(&h, f->v[i])[2]);
		count++;
	}
	gx_builder_end(&bld, node, (uint32_t) count);
	surface = gx_builder_finish(&bld, srid, size);
	if (surface)
	{
		out = gx_solid_from(surface, NULL, size, err);
		gx_free(surface);
	}
done:
	gx_free(h.f);
	gx_free(h.next);
	gx_free(h.work);
	gx_free(start_of);
	gx_free(seen);
	return out;
}

/* Order of points projected along axis *drop: by the next axis, then the one after (cyclically). */
static int
proj_cmp(const void *x, const void *y, void *drop)
{
	const double *a = x,
			   *b = y;
	int			i = (*(int *) drop + 1) % 3,
				j = (*(int *) drop + 2) % 3;

	if (a[i] != b[i])
		return a[i] < b[i] ? -1 : 1;
	if (a[j] != b[j])
		return a[j] < b[j] ? -1 : 1;
	return 0;
}

/*
 * The hull of points in one plane that projects one to one along axis drop: the corners (Andrew's monotone
 * chain, collinear points dropped) in a fan of triangles.
 */
static GxSerialized *
hull_2d(double *p, size_t n, int drop, int32_t srid, size_t *size, GxError *err)
{
	size_t	   *h = gx_alloc(2 * (n + 1) * sizeof(size_t));
	size_t		k = 0,
				node;
	GxBuilder	b;

	if (!h)
	{
		gx_error_set(err, GX_ERR_NOMEM, "gx_convexhull: out of memory for %zu points", n);
		return NULL;
	}
	/* points distinct in space are distinct in this projection (the plane is not parallel to the axis) */
	qsort_r(p, n, 3 * sizeof(double), proj_cmp, &drop);
	for (size_t i = 0; i < n; i++)
	{
		while (k >= 2 && gx_orient2d(p + 3 * h[k - 2], p + 3 * h[k - 1], p + 3 * i, drop) <= 0)
			k--;
		h[k++] = i;
	}
	for (size_t i = n - 1, lower = k + 1; i-- > 0;)
	{
		while (k >= lower && gx_orient2d(p + 3 * h[k - 2], p + 3 * h[k - 1], p + 3 * i, drop) <= 0)
			k--;
		h[k++] = i;
	}
	k--;						/* the first point closes the chain */
	gx_builder_init(&b, err);
	node = gx_builder_begin(&b, GX_TIN);
	for (size_t t = 1; t + 1 < k; t++)
	{
		const size_t tri[3] = {h[0], h[t], h[t + 1]};

		for (int v = 0; v < 3; v++)
			gx_builder_coord(&b, p[3 * tri[v]], p[3 * tri[v] + 1], p[3 * tri[v] + 2]);
	}
	gx_builder_end(&b, node, (uint32_t) (k - 2));
	gx_free(h);
	return gx_builder_finish(&b, srid, size);
}

GxSerialized *
gx_convexhull(const GxSerialized *g, size_t *size, GxError *err)
{
	Points		v = {NULL, 0};
	size_t		n = 0,
				c = SIZE_MAX,
				d = SIZE_MAX,
				node;
	GxSerialized *out = NULL;
	GxBuilder	b;

	if (g->flags & GX_FLAG_EMPTY)
	{
		gx_error_set(err, GX_ERR_INVALID, "gx_convexhull: the geometry is EMPTY: it has no hull");
		return NULL;
	}
	gx_node_walk(gx_body(g), point_leaf, &v);
	v.p = gx_alloc(v.n * 3 * sizeof(double));
	if (!v.p)
	{
		gx_error_set(err, GX_ERR_NOMEM, "gx_convexhull: out of memory for %zu points", v.n);
		return NULL;
	}
	v.n = 0;
	gx_node_walk(gx_body(g), point_leaf, &v);
	qsort(v.p, v.n, 3 * sizeof(double), lex_cmp);
	for (size_t i = 0; i < v.n; i++)
		if (n == 0 || lex_cmp(v.p + 3 * (n - 1), v.p + 3 * i) != 0)
			memmove(v.p + 3 * n++, v.p + 3 * i, 3 * sizeof(double));
	for (size_t i = 1; i + 1 < n && c == SIZE_MAX; i++)
		if (!collinear(v.p, v.p + 3 * (n - 1), v.p + 3 * i))
			c = i;
	for (size_t i = 1; i + 1 < n && c != SIZE_MAX && d == SIZE_MAX; i++)
		if (gx_orient3d(v.p, v.p + 3 * (n - 1), v.p + 3 * c, v.p + 3 * i) != 0)
			d = i;
	if (d != SIZE_MAX)
	{
		const size_t tet[4] = {0, n - 1, c, d};

		out = hull_3d(v.p, n, tet, g->srid, size, err);
	}
	else if (c != SIZE_MAX)
	{
		int			drop = 0;

		while (gx_orient2d(v.p, v.p + 3 * (n - 1), v.p + 3 * c, drop) == 0)
			drop++;
		out = hull_2d(v.p, n, drop, g->srid, size, err);
	}
	else
	{
		/* one point, or points on one line: its lexicographic ends are its ends */
		gx_builder_init(&b, err);
		node = gx_builder_begin(&b, n == 1 ? GX_POINT : GX_LINESTRING);
		gx_builder_coord(&b, v.p[0], v.p[1], v.p[2]);
		if (n > 1)
			gx_builder_coord(&b, v.p[3 * (n - 1)], v.p[3 * (n - 1) + 1], v.p[3 * (n - 1) + 2]);
		gx_builder_end(&b, node, n == 1 ? 1 : 2);
		out = gx_builder_finish(&b, g->srid, size);
	}
	gx_free(v.p);
	return out;
}
