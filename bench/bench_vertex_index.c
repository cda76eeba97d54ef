/*
 * bench_vertex_index.c: what the packed storage form of surfaces (gx_pack.h: distinct vertices and indices)
 * saves, and what packing and unpacking cost. For the mining ore bodies (and the tiles of a mesh from an STL
 * file), each geometry of the side is made a TIN, packed and unpacked (checked to come back bit for bit).
 *   bench_vertex_index [mining SCALE | mesh FILE.stl LEVELS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "batch/gx_batch_internal.h"
#include "geom/gx_pack.h"
#include "gx_bench_data.h"

/* The triangles [first, last) of side s as a TIN value. */
static GxSerialized *
tin_of(const GxBatchSide *s, size_t first, size_t last, size_t *size)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node,
				i;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_TIN);
	for (i = first; i < last; i++)
		for (int v = 0; v < 3; v++)
			gx_builder_coord(&b, s->coords[9 * i + 3 * v], s->coords[9 * i + 3 * v + 1], s->coords[9 * i + 3 * v + 2]);
	gx_builder_end(&b, node, (uint32_t) (last - first));
	return gx_builder_finish(&b, 32633, size);
}

static int
report(const char *name, const GxBatchSide *s)
{
	size_t		first = 0,
				triangles = 0,
				plain = 0,
				packed = 0,
				values = 0,
				unpacked_values = 0;
	double		t_pack = 0,
				t_unpack = 0;
	int			bad = 0;

	while (first < s->n)
	{
		size_t		last = first,
					size,
					psize = 0,
					usize = 0;
		GxSerialized *g,
				   *p,
				   *u = NULL;
		GxError		err = {GX_OK, ""};
		double		t0;

		while (last < s->n && s->geom[last] == s->geom[first])
			last++;
		if (s->kind[first] == 3 && (g = tin_of(s, first, last, &size)) != NULL)
		{
			t0 = gx_now_ms();
			p = gx_pack(g, size, &psize, &err);
			t_pack += gx_now_ms() - t0;
			if (p)
			{
				t0 = gx_now_ms();
				u = gx_unpack(p, psize, &usize, &err);
				t_unpack += gx_now_ms() - t0;
				bad += u == NULL || usize != size || memcmp((char *) u + 4, (char *) g + 4, size - 4) != 0;
			}
			else
				unpacked_values++;
			triangles += last - first;
			plain += size;
			packed += p ? psize : size;
			values++;
			gx_free(u);
			gx_free(p);
			gx_free(g);
		}
		first = last;
	}
	printf("%s: %zu values, %zu triangles: %.1f MB as triangles, %.1f MB stored packed (%.2fx smaller; %zu values "
		   "left as they are); packing %.1f ms, unpacking %.1f ms (one thread); %d values not restored bit for bit\n",
		   name, values, triangles, plain / 1e6, packed / 1e6, (double) plain / packed, unpacked_values, t_pack,
		   t_unpack, bad);
	return bad != 0;
}

int
main(int argc, char **argv)
{
	GxBatchSide a,
				b;
	int			rc;

	gx_batch_side_init(&a);
	gx_batch_side_init(&b);
	if (argc > 2 && strcmp(argv[1], "mining") == 0)
	{
		gx_bench_mining(atof(argv[2]), 1234, &a, &b);
		rc = report("mining ore bodies", &b);
	}
	else if (argc > 3 && strcmp(argv[1], "mesh") == 0 && gx_bench_mesh_pair(argv[2], atoi(argv[3]), 0.1, &a, &b))
		rc = report("mesh tiles", &a);
	else
	{
		fprintf(stderr, "usage: %s mining SCALE | mesh FILE.stl LEVELS\n", argv[0]);
		return 2;
	}
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
	return rc;
}
