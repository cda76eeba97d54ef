/*
 * gx_cuda_distance.cu: the distance batch on the device (gx_dwithin's pairs). Side a's element boxes are
 * grown by the distance, rounded outward, before the grid and the culling, so every pair within the
 * distance shares a cell; each surviving pair then gets the CPU's own filter (gx_dist2_within of
 * src/core/algorithm/gx_distance_filter_impl.h: a vertex pair's distance, then certified bounds lo <= d2 <= hi):
 * "within", "not", or left to the CPU's exact test.
 */
#include <math.h>

#include "algorithm/gx_distance_filter_impl.h"
#include "gx_cuda_internal.h"

__global__ void
grow_kernel(size_t n, const GxDevBox *__restrict__ in, double d, GxDevBox *out)
{
	for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
	{
		GxDevBox	b = in[i];

		for (int k = 0; k < 3; k++)
		{
			b.lo[k] = __dsub_rd(b.lo[k], d);
			b.hi[k] = __dadd_ru(b.hi[k], d);
		}
		out[i] = b;
	}
}

cudaError_t
gx_launch_grow_boxes(const GxDevBox *in, size_t n, double d, GxDevBox *out, cudaStream_t st)
{
	if (n == 0)
		return cudaSuccess;
	grow_kernel<<<gx_blocks(n), GX_CUDA_BLOCK, 0, st>>>(n, in, d, out);
	return cudaGetLastError();
}

/*
 * found (NULL when the geometry pairs are too many for it): a bit per pair of geometries (a * nb + b), set
 * by the first element pair found within; the element pairs of a geometry pair already found are skipped,
 * and the keys are read from the table afterwards (gx_cuda_found.cu). Without it, keys are appended.
 */
__global__ void __launch_bounds__(GX_CUDA_BLOCK)
distance_kernel(GxDevSide a, GxDevSide b, const uint2 *__restrict__ in, unsigned long long n, double d2_down,
				double d2_up, unsigned *found, unsigned long long nb, unsigned long long *keys, uint2 *undecided,
				unsigned long long *counters)
{
	for (unsigned long long base = (unsigned long long) blockIdx.x * blockDim.x; base < n;
		 base += (unsigned long long) gridDim.x * blockDim.x)
	{
		unsigned long long i = base + threadIdx.x;
		uint2		p = make_uint2(0, 0);
		bool		within = false,
					open = false;

		unsigned long long key = ~0ull;
		bool		keep = false;

		if (i < n)
		{
			const double *ac,
					   *bc;
			unsigned long long bit;
			int			r;

			p = in[i];
			key = gx_pair_key(a.geom[p.x], b.geom[p.y]);
			bit = gx_found_bit(a.geom[p.x], b.geom[p.y], nb);
			if (found == NULL || !gx_found_test(found, bit))
			{
				ac = a.coords + 9 * (size_t) p.x;
				bc = b.coords + 9 * (size_t) p.y;
				/* the first vertices alone settle most pairs: the kinds are read only for the others */
				r = gx_dist2_near(ac, bc, d2_down) ? 1 :
					gx_dist2_decide(ac, a.kind[p.x], bc, b.kind[p.y], d2_down, d2_up);
				within = r == 1;
				open = r < 0;
				/* the first to find the geometry pair appends its key */
				keep = within && (found == NULL || !gx_found_set(found, bit));
			}
		}
		{
			/*
			 * Without the bit table, neighbouring pairs mostly belong to the same two geometries: a key
			 * equal to the previous lane's is left out (the sort and unique see far fewer keys).
			 */
			unsigned long long prev = __shfl_up_sync(0xffffffffu, keep ? key : ~0ull, 1);
			bool		append = keep && ((threadIdx.x & 31) == 0 || prev != key);
			unsigned long long slot = gx_warp_append(append, &counters[GX_CNT_KEYS]);

			if (append && found == NULL)
				keys[slot] = key;
		}
		{
			unsigned long long slot = gx_warp_append(open, &counters[GX_CNT_NEXT]);

			if (open)
				undecided[slot] = p;
		}
	}
}

cudaError_t
gx_launch_distance(const GxDevSide *a, const GxDevSide *b, const uint2 *in, unsigned long long n, double d,
				   unsigned *found, unsigned long long nb, unsigned long long *keys, uint2 *undecided,
				   unsigned long long *counters, cudaStream_t st)
{
	/*
	 * d^2 bracketed (d * d is within half an ulp of it): hi <= d2_down implies hi <= d^2, and lo > d2_up
	 * implies lo > d^2
	 */
	double		d2 = d * d,
				d2_down = nextafter(d2, 0.0),
				d2_up = nextafter(d2, INFINITY);

	if (n == 0)
		return cudaSuccess;
	distance_kernel<<<gx_blocks(n), GX_CUDA_BLOCK, 0, st>>>(*a, *b, in, n, d2_down, d2_up, found, nb, keys, undecided,
															counters);
	return cudaGetLastError();
}
