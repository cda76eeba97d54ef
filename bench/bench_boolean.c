/*
 * bench_boolean.c: the ore inside a pit shell, in the core library (no PostgreSQL): the ore bodies of the
 * mining workload (gx_bench_mining_solids at a scale) each against one pit, as bench/booleans.sql runs it in
 * SQL: gx_boolean_volume (the volume) and gx_boolean_solid (the solid, the construction), one body after the
 * other with both indexes built per call as the SQL functions do, then with the pit's index kept.
 *   bench_boolean [--scale S (1)] [--pit N (0)] [--repeat R (1)] [--only solids]
 * The pit: with N 0, booleans.sql's (the convex hull of a ring of 32 points 10 m above the bodies, a quarter of
 * their extent's width across, and one of a tenth a third of the way up from their lowest point); with N > 0,
 * a bowl of about N triangles from a third of the way up to the same top ring (pit_of). Prints the
 * times, the sums of volumes and triangles, and a hash of the solids' bytes (the same in every mode).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_clock.h"
#include "construct/gx_construct.h"
#include "gx_bench_data.h"
#include "io/gx_io.h"
#include "operation/gx_boolean.h"

#define PI 3.14159265358979323846

/* The solids of side s as serialized values (n of them). */
static GxSerialized **
solids_of(const GxBatchSide *s, size_t *n)
{
	GxSerialized **out = calloc(s->ngeoms, sizeof(GxSerialized *));
	size_t		first = 0;

	for (uint32_t g = 0; g < s->ngeoms; g++)
	{
		GxError		err = {GX_OK, ""};
		GxBuilder	b;
		size_t		end = first,
					node,
					size;

		while (end < s->n && s->geom[end] == g)
			end++;
		gx_builder_init(&b, &err);
		node = gx_builder_begin(&b, GX_POLYHEDRALSURFACE);
		for (size_t i = 3 * first; i < 3 * end; i++)
			gx_builder_coord(&b, s->coords[3 * i], s->coords[3 * i + 1], s->coords[3 * i + 2]);
		gx_builder_end(&b, node, (uint32_t) (end - first));
		out[g] = gx_builder_finish(&b, s->srid, &size);
		out[g]->flags |= GX_FLAG_SOLID;
		first = end;
	}
	*n = s->ngeoms;
	return out;
}

/* Appends "x y z," to text at *len. */
static void
put_point(char *text, size_t *len, double x, double y, double z, bool round3)
{
	if (round3)
		*len += sprintf(text + *len, "%.3f %.3f %.3f,", x, y, z);
	else
		*len += sprintf(text + *len, "%.17g %.17g %.17g,", x, y, z);
}

/*
 * The pit over the bodies of extent e: with ntri 0, booleans.sql's; else a bowl of about ntri triangles over
 * the same disk as its top ring: points on a jittered grid of the disk, each once on the paraboloid from the
 * centre a third of the way up the bodies to the top ring's height at the rim, and once on a flat dome over it
 * (a twentieth of the bowl's depth high), whose convex hull is their Delaunay triangulation twice.
 */
static GxSerialized *
pit_of(const GxBox3D *e, int ntri)
{
	double		cx = (e->xmin + e->xmax) / 2,
				cy = (e->ymin + e->ymax) / 2,
				w = fmax(e->xmax - e->xmin, e->ymax - e->ymin),
				ztop = e->zmax + 10,
				rtop = w / 4,
				zbot = e->zmin + (e->zmax - e->zmin) / 3,
				step = ntri > 0 ? sqrt(PI * rtop * rtop / (ntri / 4.0)) : 0;
	int			half = ntri > 0 ? (int) ceil(rtop / step) : 0;
	char	   *text = malloc((size_t) (2 * half + 1) * (2 * half + 1) * 2 * 80 + 64 * 80 + 64);
	size_t		len = 0,
				size;
	unsigned	seed = 12345;
	GxError		err = {GX_OK, ""};
	GxSerialized *mp,
			   *hull;

	len += sprintf(text, "MULTIPOINT Z (");
	if (ntri == 0)
		for (int r = 0; r < 2; r++)
			for (int k = 0; k < 32; k++)
			{
				double		a = 2 * PI * k / 32,
							rad = r ? rtop : w / 10;

				put_point(text, &len, cx + rad * cos(a), cy + rad * sin(a), r ? ztop : zbot, true);
			}
	for (int i = -half; i <= half && ntri > 0; i++)
		for (int j = -half; j <= half; j++)
		{
			double		x,
						y,
						q;

			seed = seed * 1103515245u + 12345u;
			x = (i + 0.6 * ((seed >> 8 & 0xFFFF) / 65536.0 - 0.5)) * step;
			seed = seed * 1103515245u + 12345u;
			y = (j + 0.6 * ((seed >> 8 & 0xFFFF) / 65536.0 - 0.5)) * step;
			if ((q = (x * x + y * y) / (rtop * rtop)) > 1)
				continue;
			put_point(text, &len, cx + x, cy + y, zbot + (ztop - zbot) * q, false);
			put_point(text, &len, cx + x, cy + y, ztop + (ztop - zbot) / 20 * (1 - q), false);
		}
	text[len - 1] = ')';
	if ((mp = gx_from_wkt(text, &size, &err)) == NULL || (hull = gx_convexhull(mp, &size, &err)) == NULL)
	{
		fprintf(stderr, "bench_boolean: no pit: %s\n", err.msg);
		exit(1);
	}
	free(text);
	gx_free(mp);
	return hull;
}

int
main(int argc, char **argv)
{
	double		scale = 1;
	int			pit_n = 0,
				repeat = 1;
	bool		solids_only = false;
	GxBatchSide holes,
				bodies;
	GxSerialized **body,
			   *pit;
	size_t		nbodies,
				npit;
	GxSolidIndex pit_index;
	GxOverlayOptions opt = {0, NULL, false, 0, NULL};
	GxError		err = {GX_OK, ""};
	double		t0;

	for (int i = 1; i + 1 < argc; i += 2)
	{
		if (strcmp(argv[i], "--scale") == 0)
			scale = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--pit") == 0)
			pit_n = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--repeat") == 0)
			repeat = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--only") == 0 && strcmp(argv[i + 1], "solids") == 0)
			solids_only = true;
		else
		{
			fprintf(stderr, "usage: %s [--scale S] [--pit N] [--repeat R] [--only solids]\n", argv[0]);
			return 2;
		}
	}
	gx_bench_mining_solids(scale, 1234, &holes, &bodies);
	body = solids_of(&bodies, &nbodies);
	t0 = gx_now_ms();
	pit = pit_of(&bodies.extent, pit_n);
	gx_solid_triangles(pit, &npit);
	printf("%zu bodies, %zu triangles; pit of %zu triangles (hull %.0f ms)\n", nbodies, bodies.n, npit,
		   gx_now_ms() - t0);
	t0 = gx_now_ms();
	if (!gx_solid_index_build(&pit_index, gx_solid_triangles(pit, &npit), npit, &err))
	{
		fprintf(stderr, "bench_boolean: %s\n", err.msg);
		return 1;
	}
	printf("pit's index: %.1f ms\n", gx_now_ms() - t0);
	for (int r = 0; r < repeat; r++)
	{
		double		vsum = 0,
					t[4];
		size_t		tsum = 0,
					nonempty = 0;
		uint64_t	hash = 0xcbf29ce484222325u,	/* FNV-1a of the solids' bytes from their SRID on */
					hash2 = hash;

		/* volumes, the pit's index kept */
		t0 = gx_now_ms();
		for (size_t i = 0; i < nbodies && !solids_only; i++)
		{
			double		v;

			if (!gx_boolean_volume(body[i], NULL, pit, &pit_index, GX_BOOL_INTERSECTION, &opt, &v, &err))
			{
				fprintf(stderr, "bench_boolean: body %zu: %s\n", i, err.msg);
				return 1;
			}
			vsum += v;
		}
		t[0] = gx_now_ms() - t0;
		/* volumes as SQL's gx_intersection_volume: both indexes per call */
		t0 = gx_now_ms();
		for (size_t i = 0; i < nbodies && !solids_only; i++)
		{
			double		v;

			if (!gx_boolean_volume(body[i], NULL, pit, NULL, GX_BOOL_INTERSECTION, &opt, &v, &err))
			{
				fprintf(stderr, "bench_boolean: body %zu: %s\n", i, err.msg);
				return 1;
			}
		}
		t[1] = gx_now_ms() - t0;
		/* solids as SQL's gx_intersection */
		t0 = gx_now_ms();
		for (size_t i = 0; i < nbodies; i++)
		{
			size_t		size,
						n;
			GxSerialized *s = gx_boolean_solid(body[i], pit, GX_BOOL_INTERSECTION, &opt, &size, &err);

			if (s == NULL)
			{
				fprintf(stderr, "bench_boolean: body %zu: %s\n", i, err.msg);
				return 1;
			}
			for (size_t k = 4; k < size; k++)
				hash = (hash ^ ((const unsigned char *) s)[k]) * 0x100000001b3u;
			if (!(s->flags & GX_FLAG_EMPTY))
			{
				gx_solid_triangles(s, &n);
				tsum += n;
				nonempty++;
			}
			gx_free(s);
		}
		t[2] = gx_now_ms() - t0;
		/* solids, the pit's index kept */
		t0 = gx_now_ms();
		for (size_t i = 0; i < nbodies; i++)
		{
			size_t		size;
			GxSerialized *s = gx_boolean_solid_indexed(body[i], NULL, pit, &pit_index, GX_BOOL_INTERSECTION, &opt,
													   &size, &err);

			if (s == NULL)
			{
				fprintf(stderr, "bench_boolean: body %zu: %s\n", i, err.msg);
				return 1;
			}
			for (size_t k = 4; k < size; k++)
				hash2 = (hash2 ^ ((const unsigned char *) s)[k]) * 0x100000001b3u;
			gx_free(s);
		}
		t[3] = gx_now_ms() - t0;
		printf("volumes, pit's index kept: %.1f ms; volumes: %.1f ms; solids: %.1f ms; solids, pit's index kept: "
			   "%.1f ms (%zu bodies in the pit, %.1f m3, %zu triangles, hash %016llx%s)\n", t[0], t[1], t[2], t[3],
			   nonempty, vsum, tsum, (unsigned long long) hash, hash2 == hash ? "" : ", another with the index kept");
	}
	gx_solid_index_free(&pit_index);
	for (size_t i = 0; i < nbodies; i++)
		gx_free(body[i]);
	free(body);
	gx_free(pit);
	gx_batch_side_free(&holes);
	gx_batch_side_free(&bodies);
	return 0;
}
