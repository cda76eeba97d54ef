/*
 * gx_cuda_grid.cu: element boxes and the uniform grid on the device (Menezes 2021, section 4.2.1): per element
 * the inclusive cell range of its box (the CPU's cell function; elements whose box misses the extent are
 * skipped), per-cell counts with atomics, then (after the caller's exclusive scan) the fill of the ragged
 * item arrays. Only one side is gridded; the other probes it: each probing element counts the cells its box
 * covers and the gridded items in them; after the caller's scan of those counts it lists one entry per cell
 * (in element order), each with the inclusive end of its candidate pairs, one per gridded item in its cell;
 * then the first entry of every block of GX_CUDA_BLOCK candidates is noted for the cull (gx_cuda_pairs.cu).
 * The work follows the probing side, not the grid's cells.
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

/* f(cell) for each cell of grid g in the cell range lo .. hi, in the order of their ids. */
template <typename F>
static __device__ __forceinline__ void
each_cell(const GxDevGrid *g, const int lo[3], const int hi[3], F f)
{
	for (int z = lo[2]; z <= hi[2]; z++)
		for (int y = lo[1]; y <= hi[1]; y++)
			for (int x = lo[0]; x <= hi[0]; x++)
				f(((size_t) z * g->dim[1] + y) * g->dim[0] + x);
}

__global__ void
count_kernel(GxDevGrid g, size_t n, const GxDevBox *__restrict__ box, unsigned long long *count)
{
	for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
	{
		GxDevBox	b = box[i];
		int			lo[3],
					hi[3];

		if (cell_range(&g, &b, lo, hi))
			each_cell(&g, lo, hi, [&](size_t cell) { atomicAdd(&count[cell], 1ull); });
	}
}

__global__ void
fill_kernel(GxDevGrid g, size_t n, const GxDevBox *__restrict__ box, GxDevCells cells, unsigned *cursor)
{
	for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
	{
		GxDevBox	b = box[i];
		int			lo[3],
					hi[3];

		if (cell_range(&g, &b, lo, hi))
			each_cell(&g, lo, hi, [&](size_t cell) {
				cells.items[cells.start[cell] + atomicAdd(&cursor[cell], 1u)] = (uint32_t) i;
			});
	}
}

/* Per probing element: the cells its box covers and the gridded side's items in them (0, 0 if it misses). */
__global__ void
probe_count_kernel(GxDevGrid g, size_t n, const GxDevBox *__restrict__ box,
				   const unsigned long long *__restrict__ grid_start, ulonglong2 *count)
{
	for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
	{
		GxDevBox	b = box[i];
		int			lo[3],
					hi[3];
		ulonglong2	c = make_ulonglong2(0, 0);

		if (cell_range(&g, &b, lo, hi))
			each_cell(&g, lo, hi, [&](size_t cell) {
				c.x++;
				c.y += grid_start[cell + 1] - grid_start[cell];
			});
		count[i] = c;
	}
}

/*
 * The entries of probing element i from its offsets start[i] (entries, candidates): the element, the cell,
 * and the inclusive end of the entry's candidates.
 */
__global__ void
probe_fill_kernel(GxDevGrid g, size_t n, const GxDevBox *__restrict__ box, const ulonglong2 *__restrict__ start,
				  const unsigned long long *__restrict__ grid_start, uint32_t *elem, unsigned long long *cell,
				  unsigned long long *cand_end)
{
	for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
	{
		GxDevBox	b = box[i];
		int			lo[3],
					hi[3];
		ulonglong2	at = start[i];

		if (cell_range(&g, &b, lo, hi))
			each_cell(&g, lo, hi, [&](size_t c) {
				at.y += grid_start[c + 1] - grid_start[c];
				elem[at.x] = (uint32_t) i;
				cell[at.x] = c;
				cand_end[at.x] = at.y;
				at.x++;
			});
	}
}

/*
 * For every block b of GX_CUDA_BLOCK candidates, the entry holding its first candidate: entry e (candidates
 * [cand_end[e - 1], cand_end[e]) ) writes it for the blocks that start within it.
 */
__global__ void
block_entry_kernel(unsigned long long nentries, const unsigned long long *__restrict__ cand_end, uint32_t *first)
{
	for (unsigned long long e = blockIdx.x * (unsigned long long) blockDim.x + threadIdx.x; e < nentries;
		 e += (unsigned long long) gridDim.x * blockDim.x)
	{
		unsigned long long from = e ? cand_end[e - 1] : 0,
					to = cand_end[e];

		for (unsigned long long b = (from + GX_CUDA_BLOCK - 1) / GX_CUDA_BLOCK; b * GX_CUDA_BLOCK < to; b++)
			first[b] = (uint32_t) e;
	}
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
gx_launch_grid_fill(const GxDevGrid *g, const GxDevSide *s, const GxDevCells *cells, unsigned *cursor,
					cudaStream_t st)
{
	if (s->n == 0)
		return cudaSuccess;
	fill_kernel<<<gx_blocks(s->n), GX_CUDA_BLOCK, 0, st>>>(*g, s->n, s->box, *cells, cursor);
	return cudaGetLastError();
}

cudaError_t
gx_launch_probe_count(const GxDevGrid *g, const GxDevSide *s, const unsigned long long *grid_start,
					  ulonglong2 *count, cudaStream_t st)
{
	if (s->n == 0)
		return cudaSuccess;
	probe_count_kernel<<<gx_blocks(s->n), GX_CUDA_BLOCK, 0, st>>>(*g, s->n, s->box, grid_start, count);
	return cudaGetLastError();
}

cudaError_t
gx_launch_probe_fill(const GxDevGrid *g, const GxDevSide *s, const ulonglong2 *start,
					 const unsigned long long *grid_start, uint32_t *elem, unsigned long long *cell,
					 unsigned long long *cand_end, cudaStream_t st)
{
	if (s->n == 0)
		return cudaSuccess;
	probe_fill_kernel<<<gx_blocks(s->n), GX_CUDA_BLOCK, 0, st>>>(*g, s->n, s->box, start, grid_start, elem, cell,
																  cand_end);
	return cudaGetLastError();
}

cudaError_t
gx_launch_block_entries(unsigned long long nentries, const unsigned long long *cand_end, uint32_t *first,
						cudaStream_t st)
{
	block_entry_kernel<<<gx_blocks(nentries), GX_CUDA_BLOCK, 0, st>>>(nentries, cand_end, first);
	return cudaGetLastError();
}
