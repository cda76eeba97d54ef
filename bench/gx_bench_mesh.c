/* gx_bench_mesh.c: the mesh-against-mesh workload: an STL mesh, refined, against its translated copy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "gx_bench_data.h"
#include "io/gx_io.h"

static unsigned char *
read_file(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	unsigned char *buf;
	long		n;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
	{
		perror(path);
		if (f)
			fclose(f);
		return NULL;
	}
	buf = malloc(n ? n : 1);
	*len = fread(buf, 1, n, f);
	fclose(f);
	return buf;
}

/* Writes triangle t split into 4 by its edge midpoints, recursively `levels` times, shifted by d. */
static void
emit(GxBuilder *b, const double *t, int levels, const double d[3])
{
	double		m[3][3],
				sub[4][9];
	int			i,
				k;

	if (levels == 0)
	{
		for (i = 0; i < 3; i++)
			gx_builder_coord(b, t[3 * i] + d[0], t[3 * i + 1] + d[1], t[3 * i + 2] + d[2]);
		return;
	}
	for (i = 0; i < 3; i++)
		for (k = 0; k < 3; k++)
			m[i][k] = (t[3 * i + k] + t[3 * ((i + 1) % 3) + k]) / 2;
	for (k = 0; k < 3; k++)
	{
		sub[0][k] = t[k], sub[0][3 + k] = m[0][k], sub[0][6 + k] = m[2][k];
		sub[1][k] = m[0][k], sub[1][3 + k] = t[3 + k], sub[1][6 + k] = m[1][k];
		sub[2][k] = m[2][k], sub[2][3 + k] = m[1][k], sub[2][6 + k] = t[6 + k];
		sub[3][k] = m[0][k], sub[3][3 + k] = m[1][k], sub[3][6 + k] = m[2][k];
	}
	for (i = 0; i < 4; i++)
		emit(b, sub[i], levels - 1, d);
}

/* Source triangles per geometry: after refinement each row of a mesh table holds 16x this (2 levels). */
#define SOURCE_TRIANGLES_PER_GEOMETRY 256

/* The mesh refined and shifted by d, as TIN geometries of SOURCE_TRIANGLES_PER_GEOMETRY << 2 levels each. */
static bool
refined_side(const GxSerialized *mesh, int levels, const double d[3], GxBatchSide *side)
{
	const GxNode *n = gx_body(mesh);
	const double *c = gx_node_coords(n);
	uint32_t	first;

	gx_batch_side_init(side);
	for (first = 0; first < n->count; first += SOURCE_TRIANGLES_PER_GEOMETRY)
	{
		uint32_t	count = n->count - first < SOURCE_TRIANGLES_PER_GEOMETRY ? n->count - first : SOURCE_TRIANGLES_PER_GEOMETRY;
		GxError		err = {GX_OK, ""};
		GxBuilder	b;
		size_t		node,
					size;
		uint32_t	i;
		GxSerialized *g;

		gx_builder_init(&b, &err);
		node = gx_builder_begin(&b, GX_TIN);
		for (i = first; i < first + count; i++)
			emit(&b, c + 9 * (size_t) i, levels, d);
		gx_builder_end(&b, node, count << (2 * levels));
		g = gx_builder_finish(&b, 0, &size);
		if (g == NULL || !gx_batch_side_add(side, g, &err))
			return false;
		gx_free(g);
	}
	return true;
}

bool
gx_bench_mesh_pair(const char *stl_path, int levels, double shift, GxBatchSide *a, GxBatchSide *b)
{
	size_t		len,
				size;
	unsigned char *data = read_file(stl_path, &len);
	GxError		err = {GX_OK, ""};
	GxSerialized *mesh;
	double		zero[3] = {0, 0, 0},
				d[3];
	bool		ok;

	if (data == NULL)
		return false;
	mesh = gx_from_stl(data, len, &size, &err);
	free(data);
	if (mesh == NULL)
	{
		fprintf(stderr, "%s: %s\n", stl_path, err.msg);
		return false;
	}
	d[0] = shift * (mesh->box.xmax - mesh->box.xmin);
	d[1] = shift * 0.5 * (mesh->box.ymax - mesh->box.ymin);
	d[2] = shift * 0.25 * (mesh->box.zmax - mesh->box.zmin);
	ok = refined_side(mesh, levels, zero, a) && refined_side(mesh, levels, d, b);
	gx_free(mesh);
	return ok;
}
