/*
 * gx_facets.c: the triangle across each edge of a surface (its directed edges sorted by their ends'
 * coordinates) and facets of coplanar neighbours (union-find, within a size), gx_facets.h.
 */
#include <stdlib.h>

#include "algorithm/gx_predicates.h"
#include "operation/gx_facets.h"

/* A directed edge of the surface. */
typedef struct DirEdge
{
	const double *a,
			   *b;
	size_t		tri;
	int			k;
} DirEdge;

int
gx_point_cmp(const double *p, const double *q)
{
	for (int a = 0; a < 3; a++)
		if (p[a] != q[a])
			return p[a] < q[a] ? -1 : 1;
	return 0;
}

static int
cmp_undirected(const void *x, const void *y)
{
	const DirEdge *e = x,
			   *f = y;
	bool		se = gx_point_cmp(e->a, e->b) > 0,
				sf = gx_point_cmp(f->a, f->b) > 0;
	int			c = gx_point_cmp(se ? e->b : e->a, sf ? f->b : f->a);

	return c ? c : gx_point_cmp(se ? e->a : e->b, sf ? f->a : f->b);
}

bool
gx_facets_adjacency(const double *tri, size_t n, long *across, GxError *err)
{
	DirEdge    *e = malloc(3 * n * sizeof(DirEdge) + 1);
	size_t		ne = 3 * n;
	bool		ok = true;

	if (e == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for a surface's edges");
		return false;
	}
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
		{
			e[3 * i + k] = (DirEdge) {tri + 9 * i + 3 * k, tri + 9 * i + 3 * ((k + 1) % 3), i, k};
			across[3 * i + k] = -1;
		}
	qsort(e, ne, sizeof(DirEdge), cmp_undirected);
	for (size_t x = 0, y; ok && x < ne; x = y)
	{
		for (y = x + 1; y < ne && cmp_undirected(&e[x], &e[y]) == 0; y++)
			;
		if (y - x == 2 && gx_point_cmp(e[x].a, e[x + 1].b) == 0 && gx_point_cmp(e[x].a, e[x].b) != 0)
		{
			across[3 * e[x].tri + e[x].k] = (long) e[x + 1].tri;
			across[3 * e[x + 1].tri + e[x + 1].k] = (long) e[x].tri;
		}
		else if (y - x >= 2 && gx_point_cmp(e[x].a, e[x].b) != 0)
		{
			gx_error_set(err, GX_ERR_INVALID, "the surface's edge (%.17g %.17g %.17g, %.17g %.17g %.17g) %s",
						 e[x].a[0], e[x].a[1], e[x].a[2], e[x].b[0], e[x].b[1], e[x].b[2],
						 y - x > 2 ? "is shared by more than two triangles" :
						 "is run the same way by its two triangles (they are not oriented consistently)");
			ok = false;
		}
	}
	free(e);
	return ok;
}

static size_t
find(size_t *parent, size_t x)
{
	while (parent[x] != x)
	{
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

bool
gx_facets(const double *tri, size_t n, const size_t *weight, size_t max_tri, size_t max_weight, size_t *facet,
		  GxError *err)
{
	long	   *across = malloc(3 * n * sizeof(long) + 1);
	size_t	   *size = malloc(2 * n * sizeof(size_t) + 1),
			   *sum;

	if (across == NULL || size == NULL)
	{
		free(across);
		free(size);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for a surface's facets");
		return false;
	}
	if (!gx_facets_adjacency(tri, n, across, err))
	{
		free(across);
		free(size);
		return false;
	}
	sum = size + n;
	for (size_t i = 0; i < n; i++)
	{
		facet[i] = i;
		size[i] = 1;
		sum[i] = weight[i];
	}
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
		{
			size_t		j,
						x,
						y;
			const double *far = NULL,
					   *t = tri + 9 * i;

			if (across[3 * i + k] <= (long) i)
				continue;
			j = (size_t) across[3 * i + k];
			x = find(facet, i);
			y = find(facet, j);
			if (x == y || size[x] + size[y] > max_tri || sum[x] + sum[y] > max_weight)
				continue;
			/* j's vertex off the shared edge */
			for (int m = 0; m < 3 && far == NULL; m++)
			{
				const double *v = tri + 9 * j + 3 * m;

				if (gx_point_cmp(v, t + 3 * k) != 0 && gx_point_cmp(v, t + 3 * ((k + 1) % 3)) != 0)
					far = v;
			}
			if (far == NULL || gx_orient3d(t, t + 3, t + 6, far) != 0)
				continue;
			facet[y] = x;
			size[x] += size[y];
			sum[x] += sum[y];
		}
	for (size_t i = 0; i < n; i++)
		facet[i] = find(facet, i);
	free(across);
	free(size);
	return true;
}
