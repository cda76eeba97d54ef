/*
 * bench_blocks.c: writes a regular block model over the ore bodies of the mining workload, for the block-model
 * benchmarks (bench/block_models.sh) at sizes SQL generates too slowly (tens of millions of rows).
 *   bench_blocks SCALE N DIR [PARTS]
 * The bodies are `bench_batch mining SCALE`'s; the model covers their extent with about N cubic blocks, laid
 * out as bench/block_model.sql lays them out (side = cbrt(extent volume / N), x fastest). Writes
 * DIR/blocks.K.copy for K < PARTS (default 8), one COPY file per loading session, with lines
 * "id<TAB>BOX3D(...)<TAB>POINT Z (...)" (the block's box and its centroid, ids from 1, every coordinate
 * printed exactly), written by as many threads as parts. Prints the number of blocks.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "batch/gx_batch_side.h"
#include "gx_bench_data.h"

int
main(int argc, char **argv)
{
	GxBatchSide holes,
				bodies;
	GxBox3D		e;
	double		side;
	long		nx,
				ny,
				nz,
				total;
	int			parts = argc > 4 ? atoi(argv[4]) : 8,
				failed = 0;

	if (argc < 4 || atof(argv[1]) <= 0 || atol(argv[2]) <= 0 || parts < 1)
	{
		fprintf(stderr, "usage: %s SCALE N DIR [PARTS]\n", argv[0]);
		return 2;
	}
	gx_bench_mining(atof(argv[1]), 1234, &holes, &bodies);
	e = bodies.extent;
	side = cbrt((e.xmax - e.xmin) * (e.ymax - e.ymin) * (e.zmax - e.zmin) / atof(argv[2]));
	nx = (long) ceil((e.xmax - e.xmin) / side);
	ny = (long) ceil((e.ymax - e.ymin) / side);
	nz = (long) ceil((e.zmax - e.zmin) / side);
	total = nx * ny * nz;
	#pragma omp parallel for num_threads(parts) schedule(static, 1) reduction(|:failed)
	for (int p = 0; p < parts; p++)
	{
		char		path[4096];
		FILE	   *f;
		long		from = total * p / parts,
					to = total * (p + 1) / parts;

		snprintf(path, sizeof(path), "%s/blocks.%d.copy", argv[3], p);
		if ((f = fopen(path, "w")) == NULL)
		{
			perror(path);
			failed = 1;
			continue;
		}
		for (long id = from; id < to; id++)
		{
			long		i = id % nx,
						j = id / nx % ny,
						k = id / (nx * ny);
			double		x0 = e.xmin + i * side,
						y0 = e.ymin + j * side,
						z0 = e.zmin + k * side;

			fprintf(f, "%ld\tBOX3D(%.17g %.17g %.17g,%.17g %.17g %.17g)\tPOINT Z (%.17g %.17g %.17g)\n", id + 1,
					x0, y0, z0, e.xmin + (i + 1) * side, e.ymin + (j + 1) * side, e.zmin + (k + 1) * side,
					e.xmin + (i + 0.5) * side, e.ymin + (j + 0.5) * side, e.zmin + (k + 0.5) * side);
		}
		failed |= fclose(f) != 0;
	}
	gx_batch_side_free(&holes);
	gx_batch_side_free(&bodies);
	printf("%ld\n", total);
	return failed;
}
