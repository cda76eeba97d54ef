/*
 * bench_solid.c: solids at the mining workload's scale, on the CPU and/or the GPU:
 *   1. gx_makesolid's check of one ore body of 4 N^2 triangles (the batch engine's self-join);
 *   2. point location: 100 000 points in the body's box;
 *   3. intercepts of the mining set (400 holes against 200 solid ore bodies at scale 1): the batch (surface
 *      and volume pairs), then each pair's intercepts on the CPU.
 * When both devices ran, checks that the solids and the pair lists are identical.
 *   bench_solid [--body-n N] [--scale S] [--device cpu|gpu|both] [--cuda-lib PATH] [--threads N]
 * With --cone N, only gx_makesolid's check of a stockpile of N triangles fanning out from two apexes
 * (gx_bench_cone), and of the same with a planted self-intersection, which must be refused; --flat-cone N
 * the same with a flat base fanning out from its centre.
 *   bench_solid --cone N | --flat-cone N [--device cpu|gpu] [--threads N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "batch/gx_batch.h"
#include "batch/gx_batch_internal.h"
#include "gx_bench_data.h"
#include "operation/gx_intercepts.h"
#include "operation/gx_solid_make.h"

static GxSerialized *
make_solid(const GxSerialized *body, const GxBatchOptions *opt, const char *label, size_t *size)
{
	GxError		err = {GX_OK, ""};
	double		t0 = gx_now_ms();
	GxSerialized *s = gx_solid_from(body, opt, size, &err);
	size_t		n;

	if (s == NULL)
	{
		printf("makesolid %s: failed: %s\n", label, err.msg);
		exit(1);
	}
	gx_solid_triangles(s, &n);
	printf("makesolid %s: %zu triangles kept, %.1f ms\n", label, n, gx_now_ms() - t0);
	return s;
}

/* gx_makesolid of the stockpile of n triangles, then of the same with a self-intersection; 0 when right. */
static int
make_cone(int n, bool flat, const GxBatchOptions *opt)
{
	bool		ok = true;

	for (int planted = 0; planted < 2; planted++)
	{
		GxSerialized *body = gx_bench_cone(n, flat, planted),
				   *s;
		GxError		err = {GX_OK, ""};
		size_t		size;
		double		t0 = gx_now_ms();

		s = gx_solid_from(body, opt, &size, &err);
		printf("%scone of %d triangles%s: %s, %.1f ms\n", flat ? "flat-based " : "", n, planted ? ", planted crossing" : "",
			   s ? "a solid" : err.msg, gx_now_ms() - t0);
		ok &= (s != NULL) == !planted;
		gx_free(body);
		gx_free(s);
	}
	return ok ? 0 : 1;
}

static void
locate_points(const GxSerialized *solid)
{
	GxSolidIndex idx;
	GxError		err = {GX_OK, ""};
	size_t		n,
				counts[3] = {0, 0, 0};
	const double *tri = gx_solid_triangles(solid, &n);
	double		t0 = gx_now_ms(),
				t1;
	unsigned	seed = 7;

	if (!gx_solid_index_build(&idx, tri, n, &err))
		exit(1);
	t1 = gx_now_ms();
	for (int i = 0; i < 100000; i++)
	{
		double		p[3] = {solid->box.xmin + (solid->box.xmax - solid->box.xmin) * rand_r(&seed) / RAND_MAX,
			solid->box.ymin + (solid->box.ymax - solid->box.ymin) * rand_r(&seed) / RAND_MAX,
		solid->box.zmin + (solid->box.zmax - solid->box.zmin) * rand_r(&seed) / RAND_MAX};
		GxLocation	loc = gx_solid_locate(&idx, p);

		if (loc == GX_LOC_FAILED)
			exit(1);
		counts[loc]++;
	}
	printf("locate: index %.1f ms, 100000 points %.1f ms (%zu inside, %zu boundary, %zu outside)\n", t1 - t0,
		   gx_now_ms() - t1, counts[GX_LOC_INSIDE], counts[GX_LOC_BOUNDARY], counts[GX_LOC_OUTSIDE]);
	gx_solid_index_free(&idx);
}

/* The mining set's pairs and intercepts; returns the pairs (for comparison). */
static GxPairs
intercepts(const GxBatchSide *holes, const GxBatchSide *bodies, const GxBatchOptions *opt, const char *label)
{
	GxPairs		pairs;
	GxBatchStats st;
	GxError		err = {GX_OK, ""};
	double		t0 = gx_now_ms(),
				t1;
	size_t		intervals = 0;
	double		metres = 0;

	if (!gx_batch_intersect(holes, bodies, opt, &pairs, &st, &err))
	{
		printf("intercepts %s: batch failed: %s\n", label, err.msg);
		exit(1);
	}
	t1 = gx_now_ms();
	for (size_t k = 0; k < pairs.n; k++)
	{
		uint32_t	h = (uint32_t) (pairs.keys[k] >> 32),
					b = (uint32_t) pairs.keys[k];
		size_t		hf = 0,
					hl,
					bf = 0,
					bl,
					n;
		GxSolidIndex idx;
		GxInterval *iv;
		double		line[3 * 64];

		while (holes->geom[hf] != h)
			hf++;
		for (hl = hf; hl < holes->n && holes->geom[hl] == h; hl++)
			;
		while (bodies->geom[bf] != b)
			bf++;
		for (bl = bf; bl < bodies->n && bodies->geom[bl] == b; bl++)
			;
		/* the hole's polyline from its segments */
		for (size_t e = hf; e < hl; e++)
			memcpy(line + 3 * (e - hf), holes->coords + 9 * e, 3 * sizeof(double));
		memcpy(line + 3 * (hl - hf), holes->coords + 9 * (hl - 1) + 3, 3 * sizeof(double));
		if (!gx_solid_index_build(&idx, bodies->coords + 9 * bf, bl - bf, &err) ||
			!gx_intercepts(&idx, line, hl - hf + 1, &iv, &n, &err))
			exit(1);
		intervals += n;
		for (size_t i = 0; i < n; i++)
			metres += iv[i].to - iv[i].from;
		gx_free(iv);
		gx_solid_index_free(&idx);
	}
	printf("intercepts %s: %s; %zu pairs (%lu inside a body), batch %.1f ms, intercepts %.1f ms: %zu intervals, %.1f m\n",
		   label, st.device, pairs.n, (unsigned long) st.volume_pairs, t1 - t0, gx_now_ms() - t1, intervals, metres);
	return pairs;
}

int
main(int argc, char **argv)
{
	int			body_n = 500;
	double		scale = 1;
	const char *device = "cpu",
			   *cuda_lib = NULL;
	int			threads = 0,
				cone = 0;
	GxBatchOptions cpu,
				gpu;
	GxSerialized *body,
			   *s_cpu = NULL,
			   *s_gpu = NULL;
	size_t		size_cpu = 0,
				size_gpu = 0;
	GxBatchSide holes,
				bodies;
	GxPairs		p_cpu = {NULL, 0, NULL, 0},
				p_gpu = {NULL, 0, NULL, 0};
	bool		both,
				flat = false,
				ok = true;

	for (int i = 1; i + 1 < argc; i += 2)
	{
		if (strcmp(argv[i], "--body-n") == 0)
			body_n = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--scale") == 0)
			scale = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--device") == 0)
			device = argv[i + 1];
		else if (strcmp(argv[i], "--cuda-lib") == 0)
			cuda_lib = argv[i + 1];
		else if (strcmp(argv[i], "--threads") == 0)
			threads = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--cone") == 0 || strcmp(argv[i], "--flat-cone") == 0)
		{
			cone = atoi(argv[i + 1]);
			flat = strcmp(argv[i], "--flat-cone") == 0;
		}
	}
	both = strcmp(device, "both") == 0;
	gx_batch_options_default(&cpu);
	cpu.device = GX_DEVICE_CPU;
	cpu.threads = threads;
	gpu = cpu;
	gpu.device = GX_DEVICE_GPU;
	if (cuda_lib)
		gpu.cuda_library = cuda_lib;

	if (cone > 0)
		return make_cone(cone, flat, strcmp(device, "gpu") == 0 ? &gpu : &cpu);
	body = gx_bench_ore_body(11, 300, body_n);
	printf("one ore body: %d triangles (4 N^2, N = %d)\n", 4 * body_n * body_n, body_n);
	if (both || strcmp(device, "cpu") == 0)
		s_cpu = make_solid(body, &cpu, "CPU", &size_cpu);
	if (both || strcmp(device, "gpu") == 0)
		s_gpu = make_solid(body, &gpu, "GPU", &size_gpu);
	if (both)
	{
		bool		same = size_cpu == size_gpu && memcmp(s_cpu, s_gpu, size_cpu) == 0;

		printf("makesolid CPU and GPU solids identical: %s\n", same ? "yes" : "NO");
		ok &= same;
	}
	locate_points(s_cpu ? s_cpu : s_gpu);

	gx_bench_mining_solids(scale, 1, &holes, &bodies);
	printf("mining set: %u holes, %zu segments; %u solid bodies, %zu triangles\n", holes.ngeoms, holes.n,
		   bodies.ngeoms, bodies.n);
	if (both || strcmp(device, "cpu") == 0)
		p_cpu = intercepts(&holes, &bodies, &cpu, "CPU");
	if (both || strcmp(device, "gpu") == 0)
		p_gpu = intercepts(&holes, &bodies, &gpu, "GPU");
	if (both)
	{
		bool		same = p_cpu.n == p_gpu.n && memcmp(p_cpu.keys, p_gpu.keys, p_cpu.n * sizeof(uint64_t)) == 0;

		printf("intercept pairs CPU and GPU identical: %s\n", same ? "yes" : "NO");
		ok &= same;
	}
	return ok ? 0 : 1;
}
