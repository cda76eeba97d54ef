/*
 * gx_cuda_locate.cu: point location in solids on the device, one thread per query: the vertical ray of
 * gx_solid_locate (src/core/solid/gx_solid_index.c) over the one column of the solid's grid that holds
 * the point, counting the triangles above it whose (x, y) projection holds it strictly. Each sign is the
 * double filter's, else the exact expansions'; a query meeting a zero sign (the ray through an edge or a
 * vertex, the point on the surface) or a sign neither rung certifies is left for the CPU, which decides it
 * exactly as it does every point: the answers the device gives are the CPU's.
 */
#include "algorithm/gx_orient.h"
#include "base/gx_hd.h"
#include "gx_cuda_internal.h"
#include "gx_cuda_rungs.cuh"

#define LOC_FOR_CPU 2

/* Does the vertical ray up from p meet triangle t's box? */
static __device__ __forceinline__ bool
under_box(const double *p, const double *t)
{
	for (int k = 0; k < 2; k++)
	{
		double		lo = fmin(t[k], fmin(t[3 + k], t[6 + k])),
					hi = fmax(t[k], fmax(t[3 + k], t[6 + k]));

		if (p[k] < lo || p[k] > hi)
			return false;
	}
	return p[2] <= fmax(t[2], fmax(t[5], t[8]));
}

static __global__ void
locate_kernel(GxDevColumns c, const double *points, const uint32_t *solid, size_t n, uint8_t *answer)
{
	for (size_t q = blockIdx.x * (size_t) blockDim.x + threadIdx.x; q < n; q += (size_t) gridDim.x * blockDim.x)
	{
		const double *p = points + 3 * q;
		uint32_t	g = solid[q];
		int			nx,
					ny,
					crossings = 0;
		unsigned long long cell;
		uint8_t		result = LOC_FOR_CPU;

		if (g >= c.ngeoms || (nx = c.dim[2 * g]) == 0 || (ny = c.dim[2 * g + 1]) == 0)
		{
			answer[q] = LOC_FOR_CPU;
			continue;
		}
		cell = c.cell0[g] + (unsigned long long) gx_dev_cell_of(p[1], c.frame[4 * g + 1], c.frame[4 * g + 3], ny) * nx +
			gx_dev_cell_of(p[0], c.frame[4 * g], c.frame[4 * g + 2], nx);
		for (unsigned long long k = c.start[cell]; k < c.start[cell + 1]; k++)
		{
			const double *t = c.coords + 9 * (size_t) c.items[k];
			int			e0,
						e1,
						e2,
						o;

			if (!under_box(p, t))
				continue;
			e0 = gxd_orient2d_exact(p, t, t + 3, 2);
			e1 = gxd_orient2d_exact(p, t + 3, t + 6, 2);
			if (e0 == GX_UNDECIDED || e1 == GX_UNDECIDED)
				goto for_cpu;
			if (e0 * e1 < 0)
				continue;
			e2 = gxd_orient2d_exact(p, t + 6, t, 2);
			if (e2 == GX_UNDECIDED)
				goto for_cpu;
			if (e0 * e2 < 0 || e1 * e2 < 0)
				continue;
			if (e0 == 0 || e1 == 0 || e2 == 0)
				goto for_cpu;
			o = gxd_orient3d_exact(t, t + 3, t + 6, p);
			if (o == 0 || o == GX_UNDECIDED)
				goto for_cpu;
			crossings += o == e0;
		}
		result = (uint8_t) (crossings & 1);
for_cpu:
		answer[q] = result;
	}
}

cudaError_t
gx_launch_locate(const GxDevColumns *c, const double *points, const uint32_t *solid, size_t n, uint8_t *answer,
				 cudaStream_t st)
{
	if (n == 0)
		return cudaSuccess;
	locate_kernel<<<gx_blocks(n), GX_CUDA_BLOCK, 0, st>>>(*c, points, solid, n, answer);
	return cudaGetLastError();
}
