/*
 * gx_extrude.c: the prism of a surface moved along z (gx_extrude: benches, stockpiles): the surface, its copy
 * at z + dz, and two triangles of side for each boundary edge (an edge of one triangle only), the whole
 * checked and oriented as a solid.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "construct/gx_construct.h"
#include "operation/gx_solid_make.h"

typedef struct Surface
{
	double	   *tri;			/* 9 doubles a triangle */
	size_t		n;
	GxError    *err;
} Surface;

static bool
surface_leaf(void *ctx, const GxNode *leaf)
{
	Surface    *s = ctx;

	if (leaf->type != GX_TRIANGLE && leaf->type != GX_TIN && leaf->type != GX_POLYHEDRALSURFACE)
	{
		gx_error_set(s->err, GX_ERR_INVALID, "gx_extrude: a surface of triangles (a POLYGON, TRIANGLE, TIN or "
					 "POLYHEDRALSURFACE) is extruded, not a %s", gx_type_name(leaf->type));
		return false;
	}
	if (s->tri)
		memcpy(s->tri + 9 * s->n, gx_node_coords(leaf), 9 * sizeof(double) * leaf->count);
	s->n += leaf->count;
	return true;
}

/* An edge of a triangle: its endpoints in lexicographic order. */
typedef struct Edge
{
	const double *lo,
			   *hi;
} Edge;

static int
point_cmp(const double *a, const double *b)
{
	for (int d = 0; d < 3; d++)
		if (a[d] != b[d])
			return a[d] < b[d] ? -1 : 1;
	return 0;
}

static int
edge_cmp(const void *x, const void *y)
{
	const Edge *a = x,
			   *b = y;
	int			c = point_cmp(a->lo, b->lo);

	return c != 0 ? c : point_cmp(a->hi, b->hi);
}

static void
put(GxBuilder *b, const double *p, double dz)
{
	gx_builder_coord(b, p[0], p[1], dz == 0 ? p[2] : p[2] + dz);
}

GxSerialized *
gx_extrude(const GxSerialized *g, double dz, size_t *size, GxError *err)
{
	Surface		s = {NULL, 0, err};
	Edge	   *edges;
	GxBuilder	b;
	GxSerialized *prism,
			   *solid;
	size_t		node,
				count,
				e = 0;

	if (!isfinite(dz) || dz == 0)
	{
		gx_error_set(err, GX_ERR_ARG, "gx_extrude: dz must be a finite non-zero number, not %g", dz);
		return NULL;
	}
	if (!gx_node_walk(gx_body(g), surface_leaf, &s))
		return NULL;
	if (s.n == 0)
	{
		gx_error_set(err, GX_ERR_INVALID, "gx_extrude: the surface is EMPTY");
		return NULL;
	}
	s.tri = gx_alloc(s.n * 9 * sizeof(double));
	edges = gx_alloc(s.n * 3 * sizeof(Edge));
	if (s.tri == NULL || edges == NULL)
	{
		gx_free(s.tri);
		gx_free(edges);
		gx_error_set(err, GX_ERR_NOMEM, "gx_extrude: out of memory for %zu triangles", s.n);
		return NULL;
	}
	s.n = 0;
	gx_node_walk(gx_body(g), surface_leaf, &s);
	for (size_t t = 0; t < s.n; t++)
		for (int k = 0; k < 3; k++)
		{
			const double *p = s.tri + 9 * t + 3 * k,
					   *q = s.tri + 9 * t + 3 * ((k + 1) % 3);

			edges[3 * t + k].lo = point_cmp(p, q) <= 0 ? p : q;
			edges[3 * t + k].hi = point_cmp(p, q) <= 0 ? q : p;
		}
	qsort(edges, 3 * s.n, sizeof(Edge), edge_cmp);

	count = 2 * s.n;
	gx_builder_init(&b, err);
	node = gx_builder_begin(&b, GX_POLYHEDRALSURFACE);
	for (int top = 0; top < 2; top++)
		for (size_t i = 0; i < 3 * s.n; i++)
			put(&b, s.tri + 3 * i, top ? dz : 0);
	for (size_t i = 0; i < 3 * s.n; i = e)
	{
		for (e = i + 1; e < 3 * s.n && edge_cmp(&edges[i], &edges[e]) == 0; e++)
			;
		if (e - i != 1)
			continue;
		put(&b, edges[i].lo, 0);
		put(&b, edges[i].hi, 0);
		put(&b, edges[i].hi, dz);
		put(&b, edges[i].lo, 0);
		put(&b, edges[i].hi, dz);
		put(&b, edges[i].lo, dz);
		count += 2;
	}
	gx_builder_end(&b, node, (uint32_t) count);
	gx_free(edges);
	gx_free(s.tri);
	prism = gx_builder_finish(&b, g->srid, size);
	if (prism == NULL)
		return NULL;
	solid = gx_solid_from(prism, NULL, size, err);
	gx_free(prism);
	return solid;
}
