/*
 * bench_batch.c: runs the batch engine on a workload on the GPU and/or the CPU and prints phase times and
 * counts; when both ran, checks that their pair lists are identical.
 *   bench_batch [mining SCALE | mesh FILE.stl LEVELS SHIFT | crossing N] [--device cpu|gpu|both] [--threads N]
 *               [--reps N] [--resolution R] [--float-pass 0|1] [--cuda-lib PATH] [--min-elements N]
 *               [--copy DIR] [--cancel-after MS] [--distance D]
 * --distance D finds the pairs within distance D (gx_dwithin) instead of the intersecting ones.
 * --cancel-after sets the cancel flag MS milliseconds into each run and prints how long the run took to stop.
 * With --copy, also writes the workload's geometries as DIR/a.copy and DIR/b.copy (id, hex EWKB) for the
 * SQL benchmarks (gpuexact and PostGIS read them alike), and DIR/pairs.txt (the engine's answer).
 * Exit status: 0 when every run succeeded and the lists agree.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "batch/gx_batch.h"
#include "batch/gx_batch_internal.h"
#include "gx_bench_data.h"
#include "io/gx_io.h"

static void
print_stats(const char *label, const GxBatchStats *s, double best_total)
{
	printf("%s: %s\n", label, s->device);
	if (s->fallback[0])
		printf("  fallback: %s\n", s->fallback);
	printf("  grid %d x %d x %d, %d chunk(s); elements A %lu, B %lu\n", s->grid_dim[0], s->grid_dim[1], s->grid_dim[2],
		   s->chunks, (unsigned long) s->elements_a, (unsigned long) s->elements_b);
	printf("  candidates %lu, bbox survivors %lu, float failures %lu, double failures %lu, exact decisions %lu\n",
		   (unsigned long) s->candidates, (unsigned long) s->bbox_survivors, (unsigned long) s->float_failures,
		   (unsigned long) s->double_failures, (unsigned long) s->exact_decisions);
	printf("  intersecting element pairs %lu, geometry pairs %lu\n", (unsigned long) s->element_pairs,
		   (unsigned long) s->geometry_pairs);
	printf("  ms: upload %.2f grid %.2f cull %.2f float %.2f double %.2f exact %.2f dedup %.2f download %.2f"
		   " | total %.2f (best of runs %.2f)\n", s->t_upload, s->t_grid, s->t_cull, s->t_float, s->t_double,
		   s->t_exact, s->t_dedup, s->t_download, s->t_total, best_total);
}

/* Writes the side's geometries, rebuilt from its elements, as "id<TAB>hex EWKB" lines (id from 1). */
static void
write_copy(const char *dir, const char *name, const GxBatchSide *s)
{
	char		path[4096];
	FILE	   *f;
	size_t		e = 0;
	uint32_t	g;
	char	   *hex = NULL;		/* one row's WKB as hex, then a newline */

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "w")) == NULL)
	{
		perror(path);
		exit(2);
	}
	for (g = 0; g < s->ngeoms; g++)
	{
		GxError		err = {GX_OK, ""};
		GxBuilder	b;
		size_t		node,
					first = e,
					size,
					len,
					i;
		GxType		type;
		GxSerialized *geom;
		unsigned char *wkb;

		while (e < s->n && s->geom[e] == g)
			e++;
		type = s->kind[first] == 3 ? GX_TIN : s->kind[first] == 2 ? GX_LINESTRING : GX_MULTIPOINT;
		gx_builder_init(&b, &err);
		node = gx_builder_begin(&b, type);
		for (i = first; i < e; i++)
		{
			const double *c = s->coords + 9 * i;
			int			v;

			if (type == GX_MULTIPOINT)
			{
				size_t		p = gx_builder_begin(&b, GX_POINT);

				gx_builder_coord(&b, c[0], c[1], c[2]);
				gx_builder_end(&b, p, 1);
			}
			else
				for (v = type == GX_LINESTRING && i > first ? 1 : 0; v < (type == GX_TIN ? 3 : 2); v++)
					gx_builder_coord(&b, c[3 * v], c[3 * v + 1], c[3 * v + 2]);
		}
		gx_builder_end(&b, node, (uint32_t) (type == GX_LINESTRING ? e - first + 1 : e - first));
		geom = gx_builder_finish(&b, s->srid, &size);
		wkb = gx_to_wkb(geom, GX_WKB_EWKB, &len);
		hex = realloc(hex, 2 * len + 1);
		for (i = 0; i < len; i++)
		{
			hex[2 * i] = "0123456789ABCDEF"[wkb[i] >> 4];
			hex[2 * i + 1] = "0123456789ABCDEF"[wkb[i] & 15];
		}
		hex[2 * len] = '\n';
		fprintf(f, "%u\t", g + 1);
		fwrite(hex, 1, 2 * len + 1, f);
		gx_free(wkb);
		gx_free(geom);
	}
	free(hex);
	fclose(f);
}

static volatile int cancel_flag;
static int	cancel_after_ms = -1;

static void *
cancel_later(void *arg)
{
	struct timespec ts = {cancel_after_ms / 1000, (cancel_after_ms % 1000) * 1000000L};

	(void) arg;
	nanosleep(&ts, NULL);
	cancel_flag = 1;
	return NULL;
}

/* Runs reps times; keeps the last pairs and the stats of the fastest run. */
static bool
run(const char *label, const GxBatchSide *a, const GxBatchSide *b, const GxBatchOptions *opt, int reps, GxPairs *pairs)
{
	GxBatchStats st,
				best;
	GxError		err = {GX_OK, ""};
	int			r;

	best.t_total = 1e300;
	memset(&st, 0, sizeof(st));
	for (r = 0; r < reps; r++)
	{
		if (r > 0)
			gx_free(pairs->keys);
		pthread_t	timer;
		double		t0 = gx_now_ms();
		bool		ok;

		if (cancel_after_ms >= 0)
		{
			cancel_flag = 0;
			pthread_create(&timer, NULL, cancel_later, NULL);
		}
		ok = gx_batch_intersect(a, b, opt, pairs, &st, &err);
		if (cancel_after_ms >= 0)
		{
			pthread_join(timer, NULL);
			printf("%s: cancel set after %d ms: %s after %.1f ms\n", label, cancel_after_ms,
				   ok ? "finished" : err.msg, gx_now_ms() - t0);
			if (!ok)
			{
				pairs->keys = NULL;
				continue;
			}
		}
		if (!ok)
		{
			printf("%s: failed: %s\n", label, err.msg);
			return false;
		}
		if (st.t_total < best.t_total)
			best = st;
	}
	if (best.t_total < 1e300)
		print_stats(label, &best, best.t_total);
	return true;
}

int
main(int argc, char **argv)
{
	GxBatchSide a,
				b;
	GxBatchOptions opt;
	GxPairs		gpu = {NULL, 0, NULL, 0},
				cpu = {NULL, 0, NULL, 0};
	const char *device = "both";
	const char *copy_dir = NULL;
	int			reps = 3,
				i = 1,
				ok = 1;

	gx_batch_options_default(&opt);
	opt.cuda_library = getenv("GPUEXACT_CUDA_LIB") ? getenv("GPUEXACT_CUDA_LIB") : "build/gpuexact_cuda.so";
	if (argc > 2 && strcmp(argv[1], "mining") == 0)
	{
		gx_bench_mining(atof(argv[2]), 1234, &a, &b);
		i = 3;
	}
	else if (argc > 2 && strcmp(argv[1], "crossing") == 0)
	{
		gx_bench_crossing(atoi(argv[2]), &a, &b);
		i = 3;
	}
	else if (argc > 4 && strcmp(argv[1], "mesh") == 0)
	{
		if (!gx_bench_mesh_pair(argv[2], atoi(argv[3]), atof(argv[4]), &a, &b))
			return 2;
		i = 5;
	}
	else
	{
		fprintf(stderr, "usage: %s mining SCALE | mesh FILE.stl LEVELS SHIFT [options]\n", argv[0]);
		return 2;
	}
	for (; i + 1 < argc; i += 2)
	{
		if (strcmp(argv[i], "--device") == 0)
			device = argv[i + 1];
		else if (strcmp(argv[i], "--threads") == 0)
			opt.threads = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--reps") == 0)
			reps = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--resolution") == 0)
			opt.grid_resolution = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--float-pass") == 0)
			opt.float_pass = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--cuda-lib") == 0)
			opt.cuda_library = argv[i + 1];
		else if (strcmp(argv[i], "--min-elements") == 0)
			opt.gpu_min_elements = strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "--distance") == 0)
			opt.distance = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--copy") == 0)
			copy_dir = argv[i + 1];
		else if (strcmp(argv[i], "--cancel-after") == 0)
		{
			cancel_after_ms = atoi(argv[i + 1]);
			opt.cancel.flag[0] = &cancel_flag;
		}
		else
		{
			fprintf(stderr, "unknown option %s\n", argv[i]);
			return 2;
		}
	}
	printf("workload %s: A %zu elements in %u geometries, B %zu elements in %u geometries\n",
		   argv[1], a.n, a.ngeoms, b.n, b.ngeoms);
	if (strcmp(device, "cpu") != 0)
	{
		opt.device = GX_DEVICE_GPU;
		ok &= run("GPU", &a, &b, &opt, reps, &gpu);
	}
	if (strcmp(device, "gpu") != 0)
	{
		opt.device = GX_DEVICE_CPU;
		ok &= run("CPU", &a, &b, &opt, reps, &cpu);
	}
	if (strcmp(device, "both") == 0 && ok)
	{
		int			same = gpu.n == cpu.n && (gpu.n == 0 || memcmp(gpu.keys, cpu.keys, gpu.n * sizeof(uint64_t)) == 0);

		printf("GPU and CPU pair lists %s (%zu and %zu pairs)\n", same ? "IDENTICAL" : "DIFFER", gpu.n, cpu.n);
		ok &= same;
	}
	if (copy_dir)
	{
		const GxPairs *p = cpu.keys ? &cpu : &gpu;
		char		path[4096];
		FILE	   *f;
		size_t		k;

		write_copy(copy_dir, "a.copy", &a);
		write_copy(copy_dir, "b.copy", &b);
		snprintf(path, sizeof(path), "%s/pairs.txt", copy_dir);
		if ((f = fopen(path, "w")) != NULL)
		{
			for (k = 0; k < p->n; k++)
				fprintf(f, "%u|%u\n", (unsigned) (p->keys[k] >> 32) + 1, (unsigned) (uint32_t) p->keys[k] + 1);
			fclose(f);
		}
	}
	gx_free(gpu.keys);
	gx_free(cpu.keys);
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
	return ok ? 0 : 1;
}
