/*
 * bench_batch.c: runs the batch engine on a workload on the GPU and/or the CPU and prints phase times and
 * counts; when both ran, checks that their pair lists are identical.
 *   bench_batch [mining SCALE | mesh FILE.stl LEVELS SHIFT] [--device cpu|gpu|both] [--threads N]
 *               [--reps N] [--resolution R] [--float-pass 0|1] [--cuda-lib PATH] [--min-elements N]
 * Exit status: 0 when every run succeeded and the lists agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gx_alloc.h"
#include "gx_batch.h"
#include "gx_bench_data.h"

static void
print_stats(const char *label, const GxBatchStats *s, double best_total)
{
	printf("%s: %s%s%s\n", label, s->device, s->fallback[0] ? "  [fallback: " : "", s->fallback[0] ? s->fallback : "");
	if (s->fallback[0])
		printf("]\n");
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

/* Runs reps times; keeps the last pairs and the stats of the fastest run. */
static bool
run(const char *label, const GxBatchSide *a, const GxBatchSide *b, const GxBatchOptions *opt, int reps, GxPairs *pairs)
{
	GxBatchStats st,
				best;
	GxError		err = {GX_OK, ""};
	int			r;

	best.t_total = 1e300;
	for (r = 0; r < reps; r++)
	{
		if (r > 0)
			gx_free(pairs->keys);
		if (!gx_batch_intersect(a, b, opt, pairs, &st, &err))
		{
			printf("%s: failed: %s\n", label, err.msg);
			return false;
		}
		if (st.t_total < best.t_total)
			best = st;
	}
	print_stats(label, &best, best.t_total);
	return true;
}

int
main(int argc, char **argv)
{
	GxBatchSide a,
				b;
	GxBatchOptions opt;
	GxPairs		gpu = {NULL, 0},
				cpu = {NULL, 0};
	const char *device = "both";
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
	gx_free(gpu.keys);
	gx_free(cpu.keys);
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
	return ok ? 0 : 1;
}
