/*
 * bench_intersects.c: gx_intersects of a 10 000-segment polyline against a 1 000 000-triangle TIN
 * (issue 2's target: under one second), in the core library without PostgreSQL.
 * A terrain TIN at UTM coordinates (707 x 707 vertices at 1 m, two triangles per cell) and three
 * polylines winding over it: one staying 5 cm above the surface (a miss: every candidate is tested),
 * one that dips through it at its very end (a hit found late), and one that only touches a vertex.
 * Then gx_dwithin of the first line at 4 cm (false: a full search) and 6 cm, and its exact distance.
 * With --copy DIR it also writes DIR/tin.copy and DIR/lines.copy (id, EWKT) for bench/intersects.sql.
 */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_predicates.h"
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "base/gx_clock.h"
#include "io/gx_io.h"
#include "operation/gx_distance.h"
#include "operation/gx_intersects.h"

#define GRID 708				/* vertices per side: 2 * 707^2 = 999 698 triangles */
#define X0 500000.0
#define Y0 7000000.0
#define NSEG 10000

static double
terrain(double x, double y)
{
	return 300 + 5 * sin((x - X0) / 40) * cos((y - Y0) / 55) + 0.01 * (x - X0);
}

static GxSerialized *
make_tin(size_t *size)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node;
	int			i,
				j,
				k;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_TIN);
	gx_builder_reserve(&b, (size_t) 2 * (GRID - 1) * (GRID - 1) * 9 * sizeof(double));
	for (j = 0; j + 1 < GRID; j++)
		for (i = 0; i + 1 < GRID; i++)
		{
			int			tri[2][3][2] = {{{i, j}, {i + 1, j}, {i + 1, j + 1}}, {{i, j}, {i + 1, j + 1}, {i, j + 1}}};
			int			t;

			for (t = 0; t < 2; t++)
				for (k = 0; k < 3; k++)
				{
					double		x = X0 + tri[t][k][0],
								y = Y0 + tri[t][k][1];

					gx_builder_coord(&b, x, y, terrain(x, y));
				}
		}
	gx_builder_end(&b, node, 2 * (GRID - 1) * (GRID - 1));
	return gx_builder_finish(&b, 32633, size);
}

/*
 * A polyline of NSEG segments winding over the terrain at `clearance` metres above it. dip: the last vertex goes 10 m below ground. touch: the last vertex lies
 * exactly on a TIN vertex. Then gx_dwithin and gx_distance (gx_closest) of the line 5 cm above it.
 */
static GxSerialized *
make_line(double clearance, int dip, int touch, size_t *size)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node;
	int			k;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_LINESTRING);
	for (k = 0; k <= NSEG; k++)
	{
		double		t = (double) k / NSEG;
		double		x = X0 + 20 + (GRID - 41) * (0.5 + 0.45 * sin(12 * M_PI * t)),
					y = Y0 + 20 + (GRID - 41) * t,
					z = terrain(x, y) + clearance;

		if (k == NSEG && dip)
			z -= clearance + 10;
		if (k == NSEG && touch)
		{
			x = round(x);
			y = round(y);
			z = terrain(x, y);
		}
		gx_builder_coord(&b, x, y, z);
	}
	gx_builder_end(&b, node, NSEG + 1);
	return gx_builder_finish(&b, 32633, size);
}

static void
write_copy(const char *path, GxSerialized **g, int n)
{
	FILE	   *f = fopen(path, "w");
	int			i;

	if (f == NULL)
	{
		perror(path);
		exit(1);
	}
	for (i = 0; i < n; i++)
	{
		char	   *wkt = gx_to_wkt(g[i], 1, NULL);

		fprintf(f, "%d\t%s\n", i + 1, wkt);
		gx_free(wkt);
	}
	fclose(f);
}

int
main(int argc, char **argv)
{
	size_t		tsize,
				lsize;
	GxSerialized *tin = make_tin(&tsize);
	const char *names[3] = {"miss (5 cm above, full search)", "hit (dips through at its end)", "touch (ends on a TIN vertex)"};
	int			expect[3] = {0, 1, 1};
	GxSerialized *lines[3];
	int			c,
				bad = 0;

	lines[0] = make_line(0.05, 0, 0, &lsize);
	lines[1] = make_line(0.05, 1, 0, &lsize);
	lines[2] = make_line(0.05, 0, 1, &lsize);
	printf("TIN: %d triangles (%.1f MB); polylines: %d segments each\n",
		   2 * (GRID - 1) * (GRID - 1), tsize / 1e6, NSEG);
	for (c = 0; c < 3; c++)
	{
		GxError		err = {GX_OK, ""};
		double		best = 1e30;
		int			r = -1,
					rep;

		memset(&gx_pred_stats, 0, sizeof(gx_pred_stats));
		for (rep = 0; rep < 5; rep++)
		{
			double		t0 = gx_now_ms();

			r = gx_intersects(lines[c], tin, &err);
			best = fmin(best, gx_now_ms() - t0);
		}
		printf("%-32s -> %s in %7.2f ms (best of 5); orient3d %lu, filter failures %lu, exact %lu\n",
			   names[c], r == 1 ? "true " : r == 0 ? "false" : "error", best,
			   (unsigned long) gx_pred_stats.orient3d / 5, (unsigned long) gx_pred_stats.filter_failures / 5,
			   (unsigned long) (gx_pred_stats.exact_expansion + gx_pred_stats.exact_gmp) / 5);
		bad |= r != expect[c];
	}
	/* Distance from the line 5 cm above the terrain: gx_dwithin either side of it, and the exact distance */
	{
		const double ds[2] = {0.04, 0.06};
		GxError		err = {GX_OK, ""};
		GxClosest	c;
		double		t0;
		int			r;

		for (int k = 0; k < 2; k++)
		{
			t0 = gx_now_ms();
			r = gx_dwithin(lines[0], tin, ds[k], &err);
			printf("gx_dwithin(miss line, TIN, %.2f)  -> %s in %7.2f ms\n", ds[k], r == 1 ? "true " : r == 0 ? "false" : "error",
				   gx_now_ms() - t0);
			bad |= r != k;
		}
		t0 = gx_now_ms();
		r = gx_closest(lines[0], tin, &c, &err);
		bad |= r != 1;
		if (r == 1)
		{
			printf("gx_distance(miss line, TIN)      -> %.17g in %7.2f ms\n", gx_mpq_sqrt_nearest(c.d2), gx_now_ms() - t0);
			gx_closest_clear(&c);
		}
	}
	if (argc == 3 && strcmp(argv[1], "--copy") == 0)
	{
		char		path[4096];

		snprintf(path, sizeof(path), "%s/tin.copy", argv[2]);
		write_copy(path, &tin, 1);
		snprintf(path, sizeof(path), "%s/lines.copy", argv[2]);
		write_copy(path, lines, 3);
	}
	return bad;
}
