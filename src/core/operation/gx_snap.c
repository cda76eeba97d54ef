/*
 * gx_snap.c: flat triangles of a rounded surface mended by splitting their neighbours (gx_snap.h). Rounds:
 * the flat triangles found, the directed edges sorted by their ends' coordinates, each flat triangle whose
 * neighbour no other mending this round touched mended; until a round finds none or mends none.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_projection.h"
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
cmp_point(const double *p, const double *q)
{
	for (int k = 0; k < 3; k++)
		if (p[k] != q[k])
			return p[k] < q[k] ? -1 : 1;
	return 0;
}

static int
cmp_edge(const void *x, const void *y)
{
	const DirEdge *e = x,
			   *f = y;
	int			c = cmp_point(e->a, f->a);

	return c ? c : cmp_point(e->b, f->b);
}

/* Has triangle t a repeated vertex? */
static bool
repeated(const double *t)
{
	return cmp_point(t, t + 3) == 0 || cmp_point(t + 3, t + 6) == 0 || cmp_point(t + 6, t) == 0;
}

/* Triangle t's corner k (0..2) first: the triangle's vertices in t's cyclic order from it. */
static void
rotated(const double *t, int k, double *out)
{
	for (int m = 0; m < 3; m++)
		memcpy(out + 3 * m, t + 3 * ((k + m) % 3), 3 * sizeof(double));
}

/* Mends flat triangle f (tri + 9 f) if it can: true when it did. */
static bool
mend(double *tri, size_t f, const DirEdge *e, size_t ne, bool *touched)
{
	const double *t = tri + 9 * f;
	int			mid = 0;
	double		c[9],
				x[9];
	const DirEdge *hit = NULL;
	DirEdge		key;
	size_t		lo = 0,
				hi = ne;

	/* the middle vertex along the line: the middle one in the order of coordinates */
	for (int k = 0; k < 3; k++)
	{
		int			below = (cmp_point(t + 3 * ((k + 1) % 3), t + 3 * k) < 0) +
			(cmp_point(t + 3 * ((k + 2) % 3), t + 3 * k) < 0);

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
		if (cmp_point(tri + 9 * hit->tri + 3 * k, c + 3) == 0)
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
gx_snap_flat(double *tri, size_t n)
{
	size_t	   *flat = NULL,
				nflat;
	DirEdge    *e = NULL;
	bool	   *touched = NULL,
				ok = true;

	for (int round = 0; round < ROUNDS; round++)
	{
		size_t		mended = 0;

		nflat = 0;
		for (size_t i = 0; i < n; i++)
			if (!repeated(tri + 9 * i) && gx_triangle_flat(tri + 9 * i))
			{
				if (flat == NULL && (flat = malloc(n * sizeof(size_t))) == NULL)
					return false;
				flat[nflat++] = i;
			}
		if (nflat == 0)
			break;
		if ((e == NULL && (e = malloc(3 * n * sizeof(DirEdge))) == NULL) ||
			(touched == NULL && (touched = malloc(n)) == NULL))
		{
			ok = false;
			break;
		}
		for (size_t i = 0; i < n; i++)
			for (int k = 0; k < 3; k++)
			{
				memcpy(e[3 * i + k].a, tri + 9 * i + 3 * k, sizeof(e->a));
				memcpy(e[3 * i + k].b, tri + 9 * i + 3 * ((k + 1) % 3), sizeof(e->b));
				e[3 * i + k].tri = i;
			}
		qsort(e, 3 * n, sizeof(DirEdge), cmp_edge);
		memset(touched, 0, n);
		for (size_t k = 0; k < nflat; k++)
			if (!touched[flat[k]])
				mended += mend(tri, flat[k], e, 3 * n, touched);
		if (mended == 0)
			break;
	}
	free(flat);
	free(e);
	free(touched);
	return ok;
}
