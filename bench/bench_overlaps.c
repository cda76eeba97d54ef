/*
 * bench_overlaps.c: gx_overlap_pairs of the mining workload's ore bodies, made solids, against themselves,
 * without PostgreSQL (the core of bench/overlaps.sql, for profiling): the bodies of `bench_batch mining SCALE`
 * (seed 1234), their side indexed as the geometry cache keeps it, then the overlap pairs timed on the CPU
 * and/or the GPU (the side kept on the device with its solids' columns, as the GPU service keeps it: the GPU
 * rounds the same solids' volumes and finds the other pairs' candidate pairs of triangles); when both ran, checks
 * that the lists are identical, volumes bit for bit.
 *   bench_overlaps SCALE [--device cpu|gpu|both] [--threads N] [--reps N] [--cuda-lib PATH] [--no-index]
 *                  [--dump FILE]
 * --no-index leaves the side without its index (CPU only): each run builds the solids' indexes itself. --dump
 * writes the last list as lines "a b volume" (ids from 0, the volume in C's %a, exact), to compare builds.
 * Exit status: 0 when every run succeeded and the lists agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/gx_alloc.h"
#include "base/gx_clock.h"
#include "batch/gx_cuda_loader.h"
#include "batch/gx_side_index.h"
#include "gx_bench_data.h"
#include "operation/gx_overlap_pairs.h"

/* The CPU time this process has used, all threads, in milliseconds (the 2-core VM is shared: wall times vary). */
static double
cpu_ms(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

/* The side kept on the device with its solids' columns, as the GPU service keeps it; NULL with why printed. */
static GxCudaResident *
keep_on_device(const GxBatchSide *s, const char *library, const GxCudaApi **api)
{
	GxCudaSide	v = {s->n, s->coords, s->kind, s->geom, NULL};
	GxCudaColumns columns;
	GxCudaResident *r = NULL;
	char		why[256];
	size_t		bytes;
	double		t0 = gx_now_ms();

	if ((*api = gx_cuda_load(library, why, sizeof(why))) == NULL)
	{
		printf("GPU: %s\n", why);
		return NULL;
	}
	if (!gx_side_index_columns(s, &columns))
	{
		printf("GPU: out of memory for the columns\n");
		return NULL;
	}
	v.columns = &columns;
	if ((*api)->side_upload(0, &v, &r, &bytes, why, sizeof(why)) != GX_CUDA_OK)
		printf("GPU: %s\n", why);
	else
		printf("side kept on the GPU: %.0f MB, %.1f ms\n", bytes / 1048576.0, gx_now_ms() - t0);
	gx_side_index_columns_free(&columns);
	return r;
}

/* Runs the overlap pairs reps times; the last run's list into *out (malloc'd); false when a run failed. */
static bool
run(const char *label, const GxBatchSide *bodies, const GxBatchOptions *opt, int reps, GxOverlapPair **out,
	size_t *nout)
{
	double		best = 1e300,
				sum = 0;
	size_t		distinct = 0;

	*out = NULL;
	*nout = 0;
	for (int r = 0; r < reps; r++)
	{
		GxError		err = {GX_OK, ""};
		GxOverlapStats st;
		double		t0 = gx_now_ms(),
					c0 = cpu_ms(),
					t;

		free(*out);
		if (!gx_overlap_pairs_of_sides(bodies, bodies, opt, 0, out, nout, &st, &err))
		{
			printf("%s: failed: %s\n", label, err.msg);
			return false;
		}
		t = gx_now_ms() - t0;
		best = t < best ? t : best;
		printf("%s run %d: %.1f ms (CPU time of all threads %.1f ms)\n", label, r + 1, t, cpu_ms() - c0);
		if (r == 0)
			printf("  solid pairs %lu: %lu of the same solid, %lu mirrored, %lu overlays on the CPU alone; GPU: %lu "
				   "volumes, %lu overlays' %lu candidate pairs of triangles\n", (unsigned long) st.candidates,
				   (unsigned long) st.same, (unsigned long) st.mirrored, (unsigned long) st.computed,
				   (unsigned long) st.gpu_volumes, (unsigned long) st.gpu_pairs, (unsigned long) st.gpu_triangle_pairs);
	}
	for (size_t k = 0; k < *nout; k++)
	{
		distinct += (*out)[k].a < (*out)[k].b;
		sum += (*out)[k].volume;
	}
	printf("%s: %zu pairs (%zu with a < b), volumes summing to %.1f, best %.1f ms\n", label, *nout, distinct, sum,
		   best);
	return true;
}

int
main(int argc, char **argv)
{
	GxBatchSide holes,
				bodies;
	GxBatchOptions opt;
	GxOverlapPair *cpu = NULL,
			   *gpu = NULL;
	size_t		ncpu = 0,
				ngpu = 0;
	const char *device = "cpu",
			   *dump = NULL;
	int			reps = 3;
	bool		index = true,
				ok = true;
	double		t0;

	if (argc < 2)
	{
		fprintf(stderr, "usage: %s SCALE [--device cpu|gpu|both] [--threads N] [--reps N] [--cuda-lib PATH] "
				"[--no-index] [--dump FILE]\n", argv[0]);
		return 2;
	}
	gx_batch_options_default(&opt);
	opt.cuda_library = getenv("GPUEXACT_CUDA_LIB") ? getenv("GPUEXACT_CUDA_LIB") : "build/gpuexact_cuda.so";
	for (int i = 2; i < argc; i++)
	{
		if (strcmp(argv[i], "--no-index") == 0)
			index = false;
		else if (i + 1 < argc && strcmp(argv[i], "--device") == 0)
			device = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--threads") == 0)
			opt.threads = atoi(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--reps") == 0)
			reps = atoi(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--cuda-lib") == 0)
			opt.cuda_library = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--dump") == 0)
			dump = argv[++i];
		else
		{
			fprintf(stderr, "unknown option %s\n", argv[i]);
			return 2;
		}
	}
	t0 = gx_now_ms();
	gx_bench_mining_solids(atof(argv[1]), 1234, &holes, &bodies);
	printf("mining %s: %u solid bodies, %zu triangles, made in %.0f ms\n", argv[1], bodies.ngeoms, bodies.n,
		   gx_now_ms() - t0);
	if (index)
	{
		GxError		err = {GX_OK, ""};

		t0 = gx_now_ms();
		if (!gx_side_index_build(&bodies, &err))
		{
			printf("index: failed: %s\n", err.msg);
			return 1;
		}
		printf("side index (as the geometry cache keeps it): %.1f ms\n", gx_now_ms() - t0);
	}
	if (strcmp(device, "gpu") != 0)
	{
		opt.device = GX_DEVICE_CPU;
		ok &= run("CPU", &bodies, &opt, reps, &cpu, &ncpu);
	}
	if (strcmp(device, "cpu") != 0)
	{
		const GxCudaApi *api = NULL;
		GxCudaResident *kept = index ? keep_on_device(&bodies, opt.cuda_library, &api) : NULL;

		opt.device = GX_DEVICE_GPU;
		opt.device_side[0] = opt.device_side[1] = kept;
		ok &= kept != NULL && run("GPU", &bodies, &opt, reps, &gpu, &ngpu);
		if (kept)
			api->side_free(kept);
	}
	if (ok && strcmp(device, "both") == 0)
	{
		bool		same = ncpu == ngpu && memcmp(cpu, gpu, ncpu * sizeof(GxOverlapPair)) == 0;

		printf("GPU and CPU overlap pairs %s (%zu and %zu pairs)\n", same ? "IDENTICAL" : "DIFFER", ngpu, ncpu);
		ok &= same;
	}
	if (ok && dump)
	{
		FILE	   *f = fopen(dump, "w");
		const GxOverlapPair *p = cpu ? cpu : gpu;
		size_t		n = cpu ? ncpu : ngpu;

		if (f == NULL)
		{
			perror(dump);
			return 2;
		}
		for (size_t k = 0; k < n; k++)
			fprintf(f, "%u %u %a\n", p[k].a, p[k].b, p[k].volume);
		fclose(f);
	}
	free(cpu);
	free(gpu);
	gx_batch_side_free(&holes);
	gx_batch_side_free(&bodies);
	return ok ? 0 : 1;
}
