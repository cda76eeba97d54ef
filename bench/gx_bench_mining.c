/* gx_bench_mining.c: synthetic workloads: mining (drill holes against ore bodies, UTM coordinates), crossing. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdlib.h>

#include "base/gx_alloc.h"
#include "gx_bench_data.h"
#include "operation/gx_solid_make.h"

#define X0 500000.0
#define Y0 7000000.0
#define DEG (3.14159265358979323846 / 180)

static double
uniform(unsigned *s, double lo, double hi)
{
	return lo + (hi - lo) * (rand_r(s) / (double) RAND_MAX);
}

static void
add(GxBatchSide *side, GxBuilder *b, int32_t srid)
{
	size_t		size;
	GxError		err = {GX_OK, ""};
	GxSerialized *g = gx_builder_finish(b, srid, &size);

	if (g == NULL || !gx_batch_side_add(side, g, &err))
		abort();
	gx_free(g);
}

/* A drill hole: nseg segments from (x, y, z) with drifting azimuth and dip. */
static void
drill_hole(GxBatchSide *side, unsigned *s, double x, double y, double z, int nseg)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node;
	double		az = uniform(s, 0, 360),
				dip = uniform(s, 55, 85);
	int			k;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_LINESTRING);
	gx_builder_coord(&b, x, y, z);
	for (k = 0; k < nseg; k++)
	{
		double		len = uniform(s, 10, 20);

		x += len * cos(dip * DEG) * sin(az * DEG);
		y += len * cos(dip * DEG) * cos(az * DEG);
		z -= len * sin(dip * DEG);
		gx_builder_coord(&b, x, y, z);
		az += uniform(s, -3, 3);
		dip += uniform(s, -1.5, 1.5);
	}
	gx_builder_end(&b, node, nseg + 1);
	add(side, &b, 32633);
}

/* Vertex (i, j) of a bumped, squashed sphere of n x 2n quads; poles are single vertices (closed surface). */
static void
body_vertex(double c[3], double r, int n, int i, int j, double phase, double out[3])
{
	double		th = 3.14159265358979323846 * i / n,
				ph = i == 0 || i == n ? 0 : 3.14159265358979323846 * (j % (2 * n)) / n;
	double		rr = r * (1 + 0.3 * sin(3 * ph + phase) * sin(2 * th) + 0.1 * cos(5 * th + phase));

	out[0] = c[0] + rr * sin(th) * cos(ph);
	out[1] = c[1] + rr * sin(th) * sin(ph) * 0.7;
	out[2] = c[2] + rr * cos(th) * 0.5;
}

/* A closed, non-convex ore body of 4 n^2 triangles (those at the poles degenerate, as in real meshes). */
static GxSerialized *
ore_body_geom(unsigned *s, double c[3], double r, int n)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node,
				size;
	double		phase = uniform(s, 0, 6.28);
	int			i,
				j,
				v;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_TIN);
	for (i = 0; i < n; i++)
		for (j = 0; j < 2 * n; j++)
		{
			int			quad[2][3][2] = {{{i, j}, {i + 1, j}, {i + 1, j + 1}}, {{i, j}, {i + 1, j + 1}, {i, j + 1}}};
			int			t;

			for (t = 0; t < 2; t++)
				for (v = 0; v < 3; v++)
				{
					double		p[3];

					body_vertex(c, r, n, quad[t][v][0], quad[t][v][1], phase, p);
					gx_builder_coord(&b, p[0], p[1], p[2]);
				}
		}
	gx_builder_end(&b, node, 4 * n * n);
	return gx_builder_finish(&b, 32633, &size);
}

GxSerialized *
gx_bench_ore_body(unsigned seed, double r, int n)
{
	double		c[3] = {X0, Y0, 200};

	return ore_body_geom(&seed, c, r, n);
}

GxSerialized *
gx_bench_cone(int ntri, bool flat, bool planted)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node,
				size;
	int			m = ntri / 2;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_TIN);
	for (int i = 0; i < m; i++)
		for (int apex = 0; apex < 2; apex++)
		{
			double		p[3][3] = {{X0, Y0, apex ? (flat ? 200 : 140) : 260}};

			for (int k = 1; k < 3; k++)
			{
				int			v = (i + (apex ? 2 - k : k - 1)) % m;
				double		a = 2 * 3.14159265358979323846 * v / m,
							r = planted && v == m / 3 ? -200 : 100;

				p[k][0] = X0 + r * cos(a);
				p[k][1] = Y0 + r * sin(a);
				p[k][2] = 200;
			}
			for (int k = 0; k < 3; k++)
				gx_builder_coord(&b, p[k][0], p[k][1], p[k][2]);
		}
	gx_builder_end(&b, node, 2 * m);
	return gx_builder_finish(&b, 32633, &size);
}

/* Adds an ore body to side, as its surface or (solid) as the solid it bounds. */
static void
ore_body(GxBatchSide *side, unsigned *s, double c[3], double r, int n, bool solid)
{
	GxError		err = {GX_OK, ""};
	GxSerialized *g = ore_body_geom(s, c, r, n),
			   *sg = NULL;
	size_t		size;

	if (g == NULL || (solid && (sg = gx_solid_from(g, NULL, &size, &err)) == NULL) ||
		!gx_batch_side_add(side, sg ? sg : g, &err))
		abort();
	gx_free(g);
	gx_free(sg);
}

static void
mining(double scale, unsigned seed, GxBatchSide *holes, GxBatchSide *bodies, bool solids)
{
	unsigned	s = seed;
	int			side_holes = (int) lround(sqrt(400 * scale));
	double		width = 25.0 * side_holes;
	int			nbodies = (int) lround(200 * scale);
	int			i,
				j;

	gx_batch_side_init(holes);
	gx_batch_side_init(bodies);
	for (i = 0; i < side_holes; i++)
		for (j = 0; j < side_holes; j++)
			drill_hole(holes, &s, X0 + 25.0 * i + uniform(&s, -3, 3), Y0 + 25.0 * j + uniform(&s, -3, 3),
					   uniform(&s, 380, 400), (int) uniform(&s, 14, 26));
	for (i = 0; i < nbodies; i++)
	{
		double		c[3] = {X0 + uniform(&s, 0, width), Y0 + uniform(&s, 0, width), uniform(&s, 120, 330)};
		/* sizes vary: 4 n^2 triangles, about 4 800 on average, ~970 000 for 200 bodies */
		int			n = (int) uniform(&s, 14, 52);

		ore_body(bodies, &s, c, uniform(&s, 12, 40), n, solids);
	}
}

void
gx_bench_mining(double scale, unsigned seed, GxBatchSide *holes, GxBatchSide *bodies)
{
	mining(scale, seed, holes, bodies, false);
}

void
gx_bench_mining_solids(double scale, unsigned seed, GxBatchSide *holes, GxBatchSide *bodies)
{
	mining(scale, seed, holes, bodies, true);
}

static void
add_segment(GxBatchSide *side, double x0, double y0, double x1, double y1)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_LINESTRING);
	gx_builder_coord(&b, x0, y0, 0);
	gx_builder_coord(&b, x1, y1, 0);
	gx_builder_end(&b, node, 2);
	add(side, &b, 0);
}

void
gx_bench_crossing(int n, GxBatchSide *a, GxBatchSide *b)
{
	int			i;

	gx_batch_side_init(a);
	gx_batch_side_init(b);
	for (i = 1; i <= n; i++)
	{
		add_segment(a, i * 0.01, -1000, -i * 0.01, 1000);
		add_segment(b, -1000, i * 0.013, 1000, -i * 0.011);
	}
}
