/*
 * gx_snap.c: flat triangles (and slivers) of a rounded surface mended by splitting their neighbours, and new
 * vertices moved onto near ones (gx_snap.h). Mending goes in rounds: the flat triangles (with a tolerance, the
 * slivers too) found, the directed edges sorted by their ends' coordinates, each one whose neighbour no other
 * mending this round touched mended; until a round finds none or mends none. Near vertices: the distinct
 * vertices sorted by coordinates (so by x), each new one joined to the nearest vertex within the tolerance
 * (union-find, at most one vertex of the inputs in a class), every vertex of a class moved onto its vertex of
 * the inputs, or else onto one of it.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_projection.h"
#include "operation/gx_facets.h"
#include "operation/gx_snap.h"

#define ROUNDS 16

/* A directed edge, its ends copied: mending moves the triangles under the sorted edges. */
typedef struct DirEdge
{
	double		a[3],
				b[3];
	size_t		tri;
} DirEdge;

static int
cmp_edge(const void *x, const void *y)
{
	const DirEdge *e = x,
			   *f = y;
	int			c = gx_point_cmp(e->a, f->a);

	return c ? c : gx_point_cmp(e->b, f->b);
}

/* Has triangle t a repeated vertex? */
static bool
repeated(const double *t)
{
	return gx_point_cmp(t, t + 3) == 0 || gx_point_cmp(t + 3, t + 6) == 0 || gx_point_cmp(t + 6, t) == 0;
}

/* Triangle t's corner k (0..2) first: the triangle's vertices in t's cyclic order from it. */
static void
rotated(const double *t, int k, double *out)
{
	for (int m = 0; m < 3; m++)
		memcpy(out + 3 * m, t + 3 * ((k + m) % 3), 3 * sizeof(double));
}

/* (b - a) x (c - a), in doubles. */
static void
normal(const double *a, const double *b, const double *c, double *n)
{
	for (int k = 0; k < 3; k++)
	{
		int			i = (k + 1) % 3,
					j = (k + 2) % 3;

		n[k] = (b[i] - a[i]) * (c[j] - a[j]) - (b[j] - a[j]) * (c[i] - a[i]);
	}
}

static double
dist2(const double *a, const double *b)
{
	return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]);
}

/* Is triangle t a sliver: its corner k opposite its longest edge within tol of that edge's line (in doubles)? */
static bool
sliver(const double *t, double tol, int *k)
{
	double		n[3],
				l = 0;

	*k = 0;
	for (int m = 0; m < 3; m++)
	{
		double		d = dist2(t + 3 * ((m + 1) % 3), t + 3 * ((m + 2) % 3));

		if (d > l)
		{
			l = d;
			*k = m;
		}
	}
	normal(t, t + 3, t + 6, n);
	return l > 0 && (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) <= tol * tol * l;
}

/*
 * Mends flat triangle f (tri + 9 f) or, thin, sliver f (within tol of its longest edge) with its neighbour across
 * its longest edge, if it can: true when it did.
 */
static bool
mend(double *tri, size_t f, const DirEdge *e, size_t ne, bool *touched, bool thin, double tol)
{
	const double *t = tri + 9 * f;
	int			mid = 0;
	double		c[9],
				x[9];
	const DirEdge *hit = NULL;
	DirEdge		key;
	size_t		lo = 0,
				hi = ne;

	if (thin)
	{
		/* the corner opposite the longest edge */
		if (!sliver(t, tol, &mid))
			return false;
	}
	else
		/* the middle vertex along the line: the middle one in the order of coordinates */
		for (int k = 0; k < 3; k++)
		{
			int			below = (gx_point_cmp(t + 3 * ((k + 1) % 3), t + 3 * k) < 0) +
				(gx_point_cmp(t + 3 * ((k + 2) % 3), t + 3 * k) < 0);

			if (below == 1)
				mid = k;
		}
	rotated(t, (mid + 1) % 3, c);	/* (p, q, m): the triangle runs p -> q */
	memcpy(key.a, c + 3, sizeof(key.a));	/* q -> p */
	memcpy(key.b, c, sizeof(key.b));
	while (lo < hi)
	{
		size_t		h = (lo + hi) / 2;

		if (cmp_edge(&e[h], &key) < 0)
			lo = h + 1;
		else
			hi = h;
	}
	for (; lo < ne && cmp_edge(&e[lo], &key) == 0; lo++)
		if (e[lo].tri != f && !repeated(tri + 9 * e[lo].tri))
		{
			if (hit)
				return false;	/* more than one: not a manifold there */
			hit = &e[lo];
		}
	if (hit == NULL || touched[hit->tri])
		return false;
	/* the neighbour (q, p, d) */
	for (int k = 0; k < 3; k++)
		if (gx_point_cmp(tri + 9 * hit->tri + 3 * k, c + 3) == 0)
			rotated(tri + 9 * hit->tri, k, x);
	/* (q, m, d) in f's place, (m, p, d) in the neighbour's */
	memcpy(tri + 9 * f, c + 3, 3 * sizeof(double));
	memcpy(tri + 9 * f + 3, c + 6, 3 * sizeof(double));
	memcpy(tri + 9 * f + 6, x + 6, 3 * sizeof(double));
	memcpy(tri + 9 * hit->tri, c + 6, 3 * sizeof(double));
	memcpy(tri + 9 * hit->tri + 3, c, 3 * sizeof(double));
	memcpy(tri + 9 * hit->tri + 6, x + 6, 3 * sizeof(double));
	touched[f] = touched[hit->tri] = true;
	return true;
}

bool
gx_snap_flat(double *tri, size_t n, double tol)
{
	size_t	   *flat = NULL,
				nflat;
	DirEdge    *e = NULL;
	bool	   *touched = NULL,
			   *thin = NULL,
				ok = true;

	for (int round = 0; round < ROUNDS; round++)
	{
		size_t		mended = 0;
		int			k;

		nflat = 0;
		for (size_t i = 0; i < n; i++)
		{
			bool		f,
						s;

			if (repeated(tri + 9 * i))
				continue;
			f = gx_triangle_flat(tri + 9 * i);
			s = !f && tol > 0 && sliver(tri + 9 * i, tol, &k);
			if (!f && !s)
				continue;
			if ((flat == NULL && (flat = malloc(n * sizeof(size_t))) == NULL) ||
				(thin == NULL && (thin = malloc(n * sizeof(bool))) == NULL))
			{
				ok = false;
				break;
			}
			thin[nflat] = s;
			flat[nflat++] = i;
		}
		if (!ok || nflat == 0)
			break;
		if ((e == NULL && (e = malloc(3 * n * sizeof(DirEdge))) == NULL) ||
			(touched == NULL && (touched = malloc(n)) == NULL))
		{
			ok = false;
			break;
		}
		for (size_t i = 0; i < n; i++)
			for (int m = 0; m < 3; m++)
			{
				memcpy(e[3 * i + m].a, tri + 9 * i + 3 * m, sizeof(e->a));
				memcpy(e[3 * i + m].b, tri + 9 * i + 3 * ((m + 1) % 3), sizeof(e->b));
				e[3 * i + m].tri = i;
			}
		qsort(e, 3 * n, sizeof(DirEdge), cmp_edge);
		memset(touched, 0, n);
		for (size_t j = 0; j < nflat; j++)
			if (!touched[flat[j]])
				mended += mend(tri, flat[j], e, 3 * n, touched, thin[j], tol);
		if (mended == 0)
			break;
	}
	free(flat);
	free(thin);
	free(e);
	free(touched);
	return ok;
}

/* A distinct vertex: its coordinates, whether the inputs have it, its class. */
typedef struct Vertex
{
	double		p[3];
	bool		input;
	size_t		parent;
} Vertex;

static int
cmp_vertex(const void *x, const void *y)
{
	return gx_point_cmp(((const Vertex *) x)->p, ((const Vertex *) y)->p);
}

static int
cmp_coords(const void *x, const void *y)
{
	return gx_point_cmp(x, y);
}

static size_t
root(Vertex *v, size_t x)
{
	while (v[x].parent != x)
	{
		v[x].parent = v[v[x].parent].parent;
		x = v[x].parent;
	}
	return x;
}

/* The index of point p among the m sorted vertices. */
static size_t
vertex_at(const Vertex *v, size_t m, const double *p)
{
	size_t		lo = 0,
				hi = m;

	while (lo < hi)
	{
		size_t		h = (lo + hi) / 2;

		if (gx_point_cmp(v[h].p, p) < 0)
			lo = h + 1;
		else
			hi = h;
	}
	return lo;
}

size_t
gx_snap_cluster(double *tri, size_t n, const double *const in[2], const size_t nin[2], double tol)
{
	size_t		m = 0,
				nv = 3 * (nin[0] + nin[1]),
				moved = 0;
	Vertex	   *v = malloc(3 * n * sizeof(Vertex) + 1);
	double	   *iv = malloc(3 * nv * sizeof(double) + 1);

	if (v == NULL || iv == NULL)
	{
		free(v);
		free(iv);
		return SIZE_MAX;
	}
	memcpy(iv, in[0], 9 * nin[0] * sizeof(double));
	memcpy(iv + 9 * nin[0], in[1], 9 * nin[1] * sizeof(double));
	qsort(iv, nv, 3 * sizeof(double), cmp_coords);
	for (size_t i = 0; i < 3 * n; i++)
		memcpy(v[i].p, tri + 3 * i, sizeof(v[i].p));
	qsort(v, 3 * n, sizeof(Vertex), cmp_vertex);
	for (size_t i = 0; i < 3 * n; i++)
		if (m == 0 || gx_point_cmp(v[m - 1].p, v[i].p) != 0)
		{
			v[m] = v[i];
			v[m].input = bsearch(v[i].p, iv, nv, 3 * sizeof(double), cmp_coords) != NULL;
			v[m].parent = m;
			m++;
		}
	free(iv);
	/* each new vertex joined to its nearest within tol (the sorted vertices run by x) */
	for (size_t x = 0; x < m; x++)
	{
		size_t		best = SIZE_MAX;
		double		dbest = 0;

		if (v[x].input)
			continue;
		for (int dir = -1; dir <= 1; dir += 2)
			for (size_t y = x + dir; y < m && fabs(v[y].p[0] - v[x].p[0]) <= tol; y += dir)
			{
				double		d = fmax(fabs(v[y].p[0] - v[x].p[0]),
									 fmax(fabs(v[y].p[1] - v[x].p[1]), fabs(v[y].p[2] - v[x].p[2])));
				size_t		ry = root(v, y),
							rx = root(v, x);

				if (d > tol || rx == ry || (v[rx].input && v[ry].input))
					continue;
				/* a vertex of the inputs first, then the nearest */
				if (best == SIZE_MAX || (v[ry].input && !v[root(v, best)].input) ||
					(v[ry].input == v[root(v, best)].input && d < dbest))
				{
					best = y;
					dbest = d;
				}
			}
		if (best != SIZE_MAX)
		{
			size_t		rx = root(v, x),
						rb = root(v, best);

			if (!(v[rx].input && v[rb].input))
			{
				/* the class's root: its vertex of the inputs, if any */
				if (v[rx].input)
					v[rb].parent = rx;
				else
					v[rx].parent = rb;
			}
		}
	}
	for (size_t i = 0; i < 3 * n; i++)
	{
		size_t		x = vertex_at(v, m, tri + 3 * i),
					r = root(v, x);

		if (r != x)
		{
			memcpy(tri + 3 * i, v[r].p, sizeof(v[r].p));
			moved++;
		}
	}
	free(v);
	return moved;
}
