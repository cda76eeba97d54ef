/*
 * bench_delaunay.c: gx_delaunay (the core, no PostgreSQL) on survey-sized point sets: uniform random points
 * in a 10 km square at UTM coordinates (centimetre resolution, z a smooth surface), and a regular 1 m grid
 * (every square's corners on one circle: the exact rungs and the perturbation decide). Prints milliseconds
 * for reading the points, the triangulation, and the TIN written, best of the runs.
 * Usage: bench_delaunay [points] [runs].
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

static uint64_t rng = UINT64_C(20240601);

static double
uniform(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (double) (rng >> 11) * 0x1p-53;
}

/* A MULTIPOINT of n points: random (grid false) or on a square grid of 1 m. */
static GxSerialized *
points(size_t n, int grid)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node,
				size,
				side = (size_t) ceil(sqrt((double) n));

	gx_builder_init(&b, &err);
	gx_builder_reserve(&b, n * 32 + 64);
	node = gx_builder_begin(&b, GX_MULTIPOINT);
	for (size_t i = 0; i < n; i++)
	{
		size_t		pn = gx_builder_begin(&b, GX_POINT);
		double		x = grid ? (double) (i % side) : round(uniform() * 1e6) / 100,
					y = grid ? (double) (i / side) : round(uniform() * 1e6) / 100;

		gx_builder_coord(&b, 500000 + x, 4500000 + y, 300 + 20 * sin(x / 700) * cos(y / 900));
		gx_builder_end(&b, pn, 1);
	}
	gx_builder_end(&b, node, (uint32_t) n);
	return gx_builder_finish(&b, 32633, &size);
}

int
main(int argc, char **argv)
{
	size_t		n = argc > 1 ? (size_t) atol(argv[1]) : 1000000;
	int			runs = argc > 2 ? atoi(argv[2]) : 3;

	for (int grid = 0; grid < 2; grid++)
	{
		GxSerialized *g = points(n, grid);
		double		best = 1e300;
		uint32_t	triangles = 0;

		for (int r = 0; r < runs; r++)
		{
			GxError		err = {GX_OK, ""};
			size_t		size;
			double		t0 = gx_now_ms();
			GxSerialized *tin = gx_delaunay(g, NULL, &size, &err);
			double		t = gx_now_ms() - t0;

			if (!tin)
			{
				fprintf(stderr, "gx_delaunay: %s\n", err.msg);
				return 1;
			}
			triangles = gx_body(tin)->count;
			best = t < best ? t : best;
			gx_free(tin);
		}
		printf("%s %zu points: %u triangles, %.0f ms (best of %d)\n", grid ? "grid" : "random", n, triangles, best,
			   runs);
		gx_free(g);
	}
	return 0;
}
