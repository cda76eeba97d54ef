/*
 * gx_cuda_grid.cu: element boxes and the uniform grid on the device (Menezes 2021, section 4.2.1): per element
 * the inclusive cell range of its box (the CPU's cell function; elements whose box misses the extent are
 * skipped), per-cell counts with atomics, then (after the caller's exclusive scan) the fill of the ragged
 * item arrays, and the per-cell candidate counts nA * nB.
 */
#include "gx_cuda_internal.h"

__global__ void
boxes_kernel(size_t n, const double *__restrict__ coords, const uint8_t *__restrict__ kind, GxDevBox *box)
{
	for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
	{
		const double *c = coords + 9 * i;
		int			m = kind[i];
		GxDevBox	b;

		for (int k = 0; k < 3; k++)
			b.lo[k] = b.hi[k] = c[k];
		for (int v = 1; v < m && v < 3; v++)
			for (int k = 0; k < 3; k++)
			{
				double		x = c[3 * v + k];

				b.lo[k] = x < b.lo[k] ? x : b.lo[k];
				b.hi[k] = x > b.hi[k] ? x : b.hi[k];
			}
		box[i] = b;
	}
}

/* Inclusive cell range of box b; false if b misses the (closed) extent. */
static __device__ __forceinline__ bool
cell_range(const GxDevGrid *g, const GxDevBox *b, int lo[3], int hi[3])
{
	for (int k = 0; k < 3; k++)
	{
		if (b->hi[k] < g->lo[k] || b->lo[k] > g->hi[k])
			return false;
		lo[k] = gx_dev_coord(g, k, b->lo[k]);
		hi[k] = gx_dev_coord(g, k, b->hi[k]);
	}
	return true;
}

__global__ void
count_kernel(GxDevGrid g, size_t n, const GxDevBox *__restrict__ box, unsigned long long *count)
{
	for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
	{
		GxDevBox	b = box[i];
		int			lo[3],
					hi[3];

		if (!cell_range(&g, &b, lo, hi))
			continue;
		for (int z = lo[2]; z <= hi[2]; z++)
			for (int y = lo[1]; y <= hi[1]; y++)
				for (int x = lo[0]; x <= hi[0]; x++)
					atomicAdd(&count[((size_t) z * g.dim[1] + y) * g.dim[0] + x], 1ull);
	}
}

__global__ void
fill_kernel(GxDevGrid g, size_t n, const GxDevBox *__restrict__ box, const unsigned long long *__restrict__ start,
			unsigned *cursor, uint32_t *items)
{
	for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
	{
		GxDevBox	b = box[i];
		int			lo[3],
					hi[3];

		if (!cell_range(&g, &b, lo, hi))
			continue;
		for (int z = lo[2]; z <= hi[2]; z++)
			for (int y = lo[1]; y <= hi[1]; y++)
				for (int x = lo[0]; x <= hi[0]; x++)
				{
					size_t		cell = ((size_t) z * g.dim[1] + y) * g.dim[0] + x;

					items[start[cell] + atomicAdd(&cursor[cell], 1u)] = (uint32_t) i;
				}
	}
}

__global__ void
cand_kernel(size_t ncells, const unsigned long long *__restrict__ sa, const unsigned long long *__restrict__ sb,
			unsigned long long *cand)
{
	for (size_t c = blockIdx.x * (size_t) blockDim.x + threadIdx.x; c < ncells; c += (size_t) gridDim.x * blockDim.x)
		cand[c] = (sa[c + 1] - sa[c]) * (sb[c + 1] - sb[c]);
}

cudaError_t
gx_launch_boxes(GxDevSide *s, cudaStream_t st)
{
	if (s->n == 0)
		return cudaSuccess;
	boxes_kernel<<<gx_blocks(s->n), GX_CUDA_BLOCK, 0, st>>>(s->n, s->coords, s->kind, s->box);
	return cudaGetLastError();
}

cudaError_t
gx_launch_grid_count(const GxDevGrid *g, const GxDevSide *s, unsigned long long *count, cudaStream_t st)
{
	if (s->n == 0)
		return cudaSuccess;
	count_kernel<<<gx_blocks(s->n), GX_CUDA_BLOCK, 0, st>>>(*g, s->n, s->box, count);
	return cudaGetLastError();
}

cudaError_t
gx_launch_grid_fill(const GxDevGrid *g, const GxDevSide *s, const unsigned long long *start,
					unsigned *cursor, uint32_t *items, cudaStream_t st)
{
	if (s->n == 0)
		return cudaSuccess;
	fill_kernel<<<gx_blocks(s->n), GX_CUDA_BLOCK, 0, st>>>(*g, s->n, s->box, start, cursor, items);
	return cudaGetLastError();
}

cudaError_t
gx_launch_cell_candidates(const GxDevGrid *g, const unsigned long long *start_a,
						  const unsigned long long *start_b, unsigned long long *cand, cudaStream_t st)
{
	cand_kernel<<<gx_blocks(g->ncells), GX_CUDA_BLOCK, 0, st>>>(g->ncells, start_a, start_b, cand);
	return cudaGetLastError();
}
