/*
 * bench_hull.c: gx_convexhull (the core, no PostgreSQL) on three kinds of point sets at UTM coordinates:
 * uniform in a 1 km cube (few corners), a terrain (a smooth surface over a 1 km square: its upper hull has
 * many corners), and uniform on a sphere of radius 1 km (every point a corner). Prints milliseconds, best of
 * the runs. Usage: bench_hull [points] [runs].
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/gx_alloc.h"
#include "base/gx_clock.h"
#include "construct/gx_construct.h"
#include "geom/gx_geom.h"

static const char *const kinds[3] = {"cube", "terrain", "sphere"};

static uint64_t rng = UINT64_C(20240601);

static double
uniform(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (double) (rng >> 11) * 0x1p-53;
}

static GxSerialized *
points(size_t n, int kind)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node,
				size;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_MULTIPOINT);
	for (size_t i = 0; i < n; i++)
	{
		size_t		pn = gx_builder_begin(&b, GX_POINT);
		double		x = uniform() * 1000,
					y = uniform() * 1000,
					z = kind == 0 ? uniform() * 1000 : 300 + 20 * sin(x / 70) * cos(y / 90);

		if (kind == 2)
		{
			double		u = uniform() * 2 * 3.141592653589793,
						v = acos(2 * uniform() - 1);

			x = 1000 * sin(v) * cos(u);
			y = 1000 * sin(v) * sin(u);
			z = 1000 * cos(v);
		}
		gx_builder_coord(&b, 500000 + x, 4500000 + y, z);
		gx_builder_end(&b, pn, 1);
	}
	gx_builder_end(&b, node, (uint32_t) n);
	return gx_builder_finish(&b, 0, &size);
}

int
main(int argc, char **argv)
{
	size_t		n = argc > 1 ? (size_t) atol(argv[1]) : 200000;
	int			runs = argc > 2 ? atoi(argv[2]) : 3;

	for (int kind = 0; kind < 3; kind++)
	{
		GxSerialized *g = points(n, kind);
		double		best = 1e300;
		uint32_t	faces = 0;

		for (int r = 0; r < runs; r++)
		{
			GxError		err = {GX_OK, ""};
			size_t		size;
			double		t0 = gx_now_ms();
			GxSerialized *h = gx_convexhull(g, &size, &err);
			double		t = gx_now_ms() - t0;

			if (!h)
			{
				fprintf(stderr, "gx_convexhull: %s\n", err.msg);
				return 1;
			}
			faces = gx_body(h)->count;
			best = t < best ? t : best;
			gx_free(h);
		}
		printf("%s %zu points: %u faces, %.0f ms (best of %d)\n", kinds[kind], n, faces, best, runs);
		gx_free(g);
	}
	return 0;
}
