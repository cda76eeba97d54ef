/*
 * gx_cuda_overlap.cu: the GPU's part of gx_overlap_pairs (src/core/operation/gx_overlap_pairs.c), on sides kept
 * on the device.
 *
 * Candidates: for pairs of solids (one of side a, one of side b, which has its columns), every pair of their
 * triangles whose closed boxes overlap, once, as the CPU's gx_overlay_candidates finds them. One thread per
 * (solid pair, triangle of a's solid): a triangle whose box misses b's solid's box has none; the others walk the
 * columns of b's solid's grid that their box covers in (x, y), and take each triangle whose box overlaps theirs
 * in the column of the minimum corner of the two boxes' overlap (a triangle spanning several columns is listed
 * in each; the CPU's gx_solid_index_search counts it the same way). Counted, scanned (by the caller, CUB), then
 * written in the same walk: each solid pair's candidates in its triangles' order.
 *
 * Own volumes: a solid's volume as the CPU sums it for a solid and itself, its triangles' prisms down to the
 * plane of its first vertex (gx_overlay_prism), in the certified double-doubles of
 * src/core/operation/gx_overlay_dd.h: one block per solid, each thread summing its share of the triangles, then
 * the block's sums added in a tree. Any order of additions encloses the exact sum. A volume whose enclosure
 * cannot be rounded once goes back to the CPU.
 */
#include "base/gx_hd.h"
#include "gx_cuda_internal.h"
#include "operation/gx_overlay_dd.h"

/* The solid pair of work item w: the p with work[p] <= w < work[p + 1] (work ascending, work[0] = 0). */
static __device__ __forceinline__ size_t
pair_of(const unsigned long long *work, size_t npairs, unsigned long long w)
{
	size_t		lo = 0,
				hi = npairs - 1;

	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo + 1) / 2;

		if (work[mid] <= w)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static __device__ __forceinline__ bool
dev_boxes_overlap(const GxDevBox *x, const GxDevBox *y)
{
	return x->lo[0] <= y->hi[0] && y->lo[0] <= x->hi[0] && x->lo[1] <= y->hi[1] && y->lo[1] <= x->hi[1] &&
		x->lo[2] <= y->hi[2] && y->lo[2] <= x->hi[2];
}

/*
 * Work item w's candidates: counted (out NULL), or written from out on as (a's triangle, b's triangle), each a
 * solid's own index. Returns how many.
 */
static __device__ unsigned
walk(const GxDevOverlap *o, unsigned long long w, uint2 *out)
{
	size_t		p = pair_of(o->work, o->npairs, w);
	uint32_t	t = (uint32_t) (w - o->work[p]),
				g = o->b_solid[p];
	const GxDevBox *bt = &o->box_a[o->a_first[p] + t];
	const double *sb = o->b_box + 6 * p;
	GxDevBox	solid_b = {{sb[0], sb[1], sb[2]}, {sb[3], sb[4], sb[5]}};
	const GxDevColumns *c = &o->columns;
	const double *fr;
	unsigned	found = 0;
	int			nx,
				ny;

	if (!dev_boxes_overlap(bt, &solid_b) || g >= c->ngeoms || (nx = c->dim[2 * g]) == 0 || (ny = c->dim[2 * g + 1]) == 0)
		return 0;
	fr = c->frame + 4 * g;
	for (int j = gx_dev_cell_of(bt->lo[1], fr[1], fr[3], ny); j <= gx_dev_cell_of(bt->hi[1], fr[1], fr[3], ny); j++)
		for (int i = gx_dev_cell_of(bt->lo[0], fr[0], fr[2], nx); i <= gx_dev_cell_of(bt->hi[0], fr[0], fr[2], nx); i++)
		{
			unsigned long long cell = c->cell0[g] + (unsigned long long) j * nx + i;

			for (unsigned long long k = c->start[cell]; k < c->start[cell + 1]; k++)
			{
				uint32_t	u = c->items[k];
				const GxDevBox *bu = &o->box_b[u];

				if (!dev_boxes_overlap(bt, bu) ||
					gx_dev_cell_of(fmax(bt->lo[0], bu->lo[0]), fr[0], fr[2], nx) != i ||
					gx_dev_cell_of(fmax(bt->lo[1], bu->lo[1]), fr[1], fr[3], ny) != j)
					continue;
				if (out)
					out[found] = make_uint2(t, (uint32_t) (u - o->b_first[p]));
				found++;
			}
		}
	return found;
}

static __global__ void
overlap_count_kernel(GxDevOverlap o, unsigned long long *count)
{
	unsigned long long total = o.work[o.npairs];

	for (unsigned long long w = blockIdx.x * (unsigned long long) blockDim.x + threadIdx.x; w < total;
		 w += (unsigned long long) gridDim.x * blockDim.x)
		count[w] = walk(&o, w, nullptr);
}

static __global__ void
overlap_fill_kernel(GxDevOverlap o, const unsigned long long *offset, uint2 *out)
{
	unsigned long long total = o.work[o.npairs];

	for (unsigned long long w = blockIdx.x * (unsigned long long) blockDim.x + threadIdx.x; w < total;
		 w += (unsigned long long) gridDim.x * blockDim.x)
		walk(&o, w, out + offset[w]);
}

/* start[p] = offset[work[p]], p <= npairs: where each solid pair's candidates begin, and their total. */
static __global__ void
pair_starts_kernel(GxDevOverlap o, const unsigned long long *offset, unsigned long long *start)
{
	for (size_t p = blockIdx.x * (size_t) blockDim.x + threadIdx.x; p <= o.npairs; p += (size_t) gridDim.x * blockDim.x)
		start[p] = offset[o.work[p]];
}

cudaError_t
gx_launch_overlap_count(const GxDevOverlap *o, unsigned long long total, unsigned long long *count, cudaStream_t st)
{
	if (total == 0)
		return cudaSuccess;
	overlap_count_kernel<<<gx_blocks(total), GX_CUDA_BLOCK, 0, st>>>(*o, count);
	return cudaGetLastError();
}

cudaError_t
gx_launch_overlap_fill(const GxDevOverlap *o, unsigned long long total, const unsigned long long *offset,
					   uint2 *out, cudaStream_t st)
{
	if (total == 0)
		return cudaSuccess;
	overlap_fill_kernel<<<gx_blocks(total), GX_CUDA_BLOCK, 0, st>>>(*o, offset, out);
	return cudaGetLastError();
}

cudaError_t
gx_launch_overlap_starts(const GxDevOverlap *o, const unsigned long long *offset, unsigned long long *start,
						 cudaStream_t st)
{
	pair_starts_kernel<<<gx_blocks(o->npairs + 1), GX_CUDA_BLOCK, 0, st>>>(*o, offset, start);
	return cudaGetLastError();
}

static __global__ void __launch_bounds__(GX_CUDA_BLOCK)
own_volume_kernel(const double *coords, const unsigned long long *first, const uint32_t *count, size_t n,
				  double *value, int8_t *sign)
{
	__shared__ GxDDI part[GX_CUDA_BLOCK];
	const GxDDI half = {0.5, 0, 0};

	for (size_t q = blockIdx.x; q < n; q += gridDim.x)
	{
		const double *tri = coords + 9 * (size_t) first[q];
		GxDDI		s = {0, 0, 0};

		for (uint32_t t = threadIdx.x; t < count[q]; t += blockDim.x)
			s = gx_ddv_add(s, gx_overlay_prism(tri + 9 * (size_t) t, tri));
		part[threadIdx.x] = s;
		__syncthreads();
		for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2)
		{
			if (threadIdx.x < stride)
				part[threadIdx.x] = gx_ddv_add(part[threadIdx.x], part[threadIdx.x + stride]);
			__syncthreads();
		}
		if (threadIdx.x == 0)
		{
			double		v = 0;
			int			sg = 2;

			if (!gx_overlay_round(gx_ddv_mul(part[0], half), &v, &sg))
				sg = 2;
			value[q] = v;
			sign[q] = (int8_t) sg;
		}
		__syncthreads();
	}
}

cudaError_t
gx_launch_own_volumes(const double *coords, const unsigned long long *first, const uint32_t *count, size_t n,
					  double *value, int8_t *sign, cudaStream_t st)
{
	if (n == 0)
		return cudaSuccess;
	own_volume_kernel<<<(unsigned) (n < 65535u * 16 ? n : 65535u * 16), GX_CUDA_BLOCK, 0, st>>>(coords, first, count,
																									n, value, sign);
	return cudaGetLastError();
}
