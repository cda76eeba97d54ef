/*
 * gx_cuda_pairs.cu: candidate pairs and bounding-box culling (Menezes 2021, sections 4.2.2 and 4.2.3).
 *
 * Thread association: candidate c (a 64-bit index over all entries' candidates, in entry order; an entry is
 * a probing element and one cell of its box, with a candidate per item of the gridded side in that cell) is
 * found by binary search in the inclusive scan of the entries' counts, between the entries of the block's
 * first candidate and of the next block's (from the block table, instead of the dissertation's Cell/First_pair
 * tables): every thread gets one candidate, whatever the cells' sizes, and the search is a few steps. Within
 * entry e, candidate p pairs the probing element with gridded item p, so consecutive threads read consecutive
 * items and share the probing element's box.
 *
 * Culling keeps a pair iff the closed boxes overlap and the cell is the pair's reference cell (the cell of
 * the overlap box's minimum corner), so each overlapping pair is kept exactly once, as in the CPU engine.
 * Survivors are appended with warp-aggregated atomics; the count may exceed the buffer (the caller then
 * retries a shorter range of candidates).
 */
#include "gx_cuda_internal.h"

/* First index in [lo, hi] whose inclusive end exceeds v (v < end[hi]). */
static __device__ __forceinline__ unsigned long long
upper_bound(const unsigned long long *__restrict__ end, unsigned long long lo, unsigned long long hi,
			unsigned long long v)
{
	while (lo < hi)
	{
		unsigned long long mid = lo + (hi - lo) / 2;

		if (end[mid] > v)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Blocks of GX_CUDA_BLOCK candidates from block first_block (the one holding c0) to the one holding c1 - 1. */
__global__ void __launch_bounds__(GX_CUDA_BLOCK)
cull_kernel(GxDevCandidates c, unsigned long long c0, unsigned long long c1, unsigned long long first_block,
			unsigned long long nblocks, uint2 *out, unsigned long long cap, unsigned long long *counter)
{
	for (unsigned long long blk = first_block + blockIdx.x; blk * GX_CUDA_BLOCK < c1; blk += gridDim.x)
	{
		unsigned long long ci = blk * GX_CUDA_BLOCK + threadIdx.x;
		bool		keep = false;
		uint2		pair = make_uint2(0, 0);

		if (ci >= c0 && ci < c1)
		{
			unsigned long long e = upper_bound(c.cand_end, c.block_entry[blk],
											   blk + 1 < nblocks ? c.block_entry[blk + 1] : c.nentries - 1, ci);
			unsigned long long cell = c.cell[e];
			unsigned long long at = c.grid.start[cell] + (ci - (c.cand_end[e] - (c.grid.start[cell + 1] -
																				c.grid.start[cell])));
			uint32_t	ep = c.elem[e],
						eg = c.grid.items[at];
			GxDevBox	bp = c.box_probe[ep],
						bg = c.box_grid[eg];

			keep = bp.lo[0] <= bg.hi[0] && bg.lo[0] <= bp.hi[0] &&
				bp.lo[1] <= bg.hi[1] && bg.lo[1] <= bp.hi[1] &&
				bp.lo[2] <= bg.hi[2] && bg.lo[2] <= bp.hi[2];
			if (keep)
			{
				size_t		d0 = (size_t) c.g.dim[0],
							d1 = (size_t) c.g.dim[1];
				int			x = (int) (cell % d0),
							y = (int) (cell / d0 % d1),
							z = (int) (cell / (d0 * d1));

				keep = gx_dev_coord(&c.g, 0, fmax(bp.lo[0], bg.lo[0])) == x &&
					gx_dev_coord(&c.g, 1, fmax(bp.lo[1], bg.lo[1])) == y &&
					gx_dev_coord(&c.g, 2, fmax(bp.lo[2], bg.lo[2])) == z;
			}
			pair = c.probe_is_a ? make_uint2(ep, eg) : make_uint2(eg, ep);
		}
		{
			unsigned long long slot = gx_warp_append(keep, counter);

			if (keep && slot < cap)
				out[slot] = pair;
		}
	}
}

cudaError_t
gx_launch_cull(const GxDevCandidates *c, unsigned long long c0, unsigned long long len,
			   uint2 *out, unsigned long long cap, unsigned long long *counter, cudaStream_t st)
{
	unsigned long long first,
				nblocks;

	if (len == 0)
		return cudaSuccess;
	first = c0 / GX_CUDA_BLOCK;
	nblocks = (c->total + GX_CUDA_BLOCK - 1) / GX_CUDA_BLOCK;
	cull_kernel<<<gx_blocks(((c0 + len - 1) / GX_CUDA_BLOCK - first + 1) * GX_CUDA_BLOCK), GX_CUDA_BLOCK, 0, st>>>
		(*c, c0, c0 + len, first, nblocks, out, cap, counter);
	return cudaGetLastError();
}
