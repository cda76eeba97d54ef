/*
 * bench_vertex_index.c: what a vertex + index representation of triangle sides would save (issue 8, "fewer
 * bytes"). For the mining ore bodies (and a mesh from an STL file), per geometry: the distinct vertices
 * (bit for bit: the same three doubles), the bytes of today's layout (9 doubles per triangle, as stored,
 * cached and uploaded) against 3 doubles per distinct vertex plus 3 uint32 indices per triangle, and the
 * time to build the index on the host.
 *   bench_vertex_index [mining SCALE | mesh FILE.stl LEVELS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gx_batch_internal.h"
#include "gx_bench_data.h"

/* Open-addressing table of vertex ids keyed by the vertex's 24 bytes. */
typedef struct VertexTable
{
	size_t		cap;
	const double **slot;
} VertexTable;

static uint64_t
vertex_hash(const double *v)
{
	uint64_t	h = 1469598103934665603ULL;
	const unsigned char *b = (const unsigned char *) v;
	int			i;

	for (i = 0; i < 24; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

/* Distinct vertices of the triangles [first, last) of side s. */
static size_t
distinct_vertices(const GxBatchSide *s, size_t first, size_t last, VertexTable *t)
{
	size_t		need = 2 * 3 * (last - first) + 16,
				n = 0,
				i;
	int			v;

	if (t->cap < need)
	{
		free(t->slot);
		t->cap = need;
		t->slot = malloc(need * sizeof(*t->slot));
	}
	memset(t->slot, 0, t->cap * sizeof(*t->slot));
	for (i = first; i < last; i++)
		for (v = 0; v < 3; v++)
		{
			const double *p = s->coords + 9 * i + 3 * v;
			size_t		h = vertex_hash(p) % t->cap;

			while (t->slot[h] && memcmp(t->slot[h], p, 24) != 0)
				h = (h + 1) % t->cap;
			if (t->slot[h] == NULL)
			{
				t->slot[h] = p;
				n++;
			}
		}
	return n;
}

static void
report(const char *name, const GxBatchSide *s)
{
	VertexTable t = {0, NULL};
	size_t		first = 0,
				triangles = 0,
				vertices = 0;
	double		t0 = gx_now_ms();

	while (first < s->n)
	{
		size_t		last = first;

		while (last < s->n && s->geom[last] == s->geom[first])
			last++;
		if (s->kind[first] == 3)
		{
			triangles += last - first;
			vertices += distinct_vertices(s, first, last, &t);
		}
		first = last;
	}
	printf("%s: %zu triangles, %zu distinct vertices (%.2f per triangle); bytes %.1f MB as today (72/triangle), "
		   "%.1f MB as vertices + indices (%.1f/triangle, %.2fx smaller); index built in %.1f ms\n",
		   name, triangles, vertices, (double) vertices / triangles, triangles * 72.0 / 1e6,
		   (vertices * 24.0 + triangles * 12.0) / 1e6, (vertices * 24.0 + triangles * 12.0) / triangles,
		   (triangles * 72.0) / (vertices * 24.0 + triangles * 12.0), gx_now_ms() - t0);
	free(t.slot);
}

int
main(int argc, char **argv)
{
	GxBatchSide a,
				b;

	gx_batch_side_init(&a);
	gx_batch_side_init(&b);
	if (argc > 2 && strcmp(argv[1], "mining") == 0)
	{
		gx_bench_mining(atof(argv[2]), 1234, &a, &b);
		report("mining ore bodies", &b);
	}
	else if (argc > 3 && strcmp(argv[1], "mesh") == 0 && gx_bench_mesh_pair(argv[2], atoi(argv[3]), 0.1, &a, &b))
		report("mesh tiles", &a);
	else
	{
		fprintf(stderr, "usage: %s mining SCALE | mesh FILE.stl LEVELS\n", argv[0]);
		return 2;
	}
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
	return 0;
}
