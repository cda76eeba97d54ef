/*
 * gx_cuda_pairs.cu: candidate pairs and bounding-box culling (Menezes 2021, sections 4.2.2 and 4.2.3).
 *
 * Thread association: candidate c (a 64-bit index over all cells' nA * nB pairs, in cell order) is found
 * by binary search in the inclusive scan of the per-cell counts, instead of the dissertation's Cell/First_pair
 * block tables: every thread gets one candidate, whatever the cells' sizes. Per block, two threads search
 * the whole scan for the block's first and last candidates; the others then search only between those
 * two cells (usually one or two). Within cell C, candidate p is (A item p / nB, B item p % nB), so
 * consecutive threads read consecutive B items.
 *
 * Culling keeps a pair iff the closed boxes overlap and C is the pair's reference cell (the cell of the
 * overlap box's minimum corner), so each overlapping pair is kept exactly once, as in the CPU engine.
 * Survivors are appended with warp-aggregated atomics; the count may exceed the buffer (the caller then
 * retries a shorter range of candidates).
 */
#include "gx_cuda_internal.h"

/* First index in [lo, hi] whose inclusive end exceeds v (v < end[hi]). */
static __device__ __forceinline__ size_t
upper_bound(const unsigned long long *__restrict__ end, size_t lo, size_t hi, unsigned long long v)
{
	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (end[mid] > v)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

__global__ void __launch_bounds__(GX_CUDA_BLOCK)
cull_kernel(GxDevCandidates c, unsigned long long c0, unsigned long long len, uint2 *out,
			unsigned long long cap, unsigned long long *counter)
{
	__shared__ size_t s_first,
				s_last;
	const size_t ncells = c.g.ncells;

	for (unsigned long long base = (unsigned long long) blockIdx.x * blockDim.x; base < len;
		 base += (unsigned long long) gridDim.x * blockDim.x)
	{
		unsigned long long i = base + threadIdx.x;
		unsigned long long last = base + blockDim.x < len ? base + blockDim.x - 1 : len - 1;
		bool		keep = false;
		uint2		pair = make_uint2(0, 0);

		if (threadIdx.x == 0)
			s_first = upper_bound(c.cand_end, 0, ncells - 1, c0 + base);
		if (threadIdx.x == 32)
			s_last = upper_bound(c.cand_end, 0, ncells - 1, c0 + last);
		__syncthreads();
		if (i < len)
		{
			unsigned long long ci = c0 + i;
			size_t		cell = upper_bound(c.cand_end, s_first, s_last, ci);
			unsigned long long sa = c.start_a[cell],
						sb = c.start_b[cell];
			unsigned long long nb = c.start_b[cell + 1] - sb;
			unsigned long long na = c.start_a[cell + 1] - sa;
			unsigned long long p = ci - (c.cand_end[cell] - na * nb);
			unsigned long long ia,
						ib;
			uint32_t	ea,
						eb;
			GxDevBox	ba,
						bb;

			if (p < (1ull << 32) && nb < (1ull << 32))
			{
				ia = (unsigned) p / (unsigned) nb;
				ib = (unsigned) p - (unsigned) ia * (unsigned) nb;
			}
			else
			{
				ia = p / nb;
				ib = p - ia * nb;
			}
			ea = c.items_a[sa + ia];
			eb = c.items_b[sb + ib];
			ba = c.box_a[ea];
			bb = c.box_b[eb];
			keep = ba.lo[0] <= bb.hi[0] && bb.lo[0] <= ba.hi[0] &&
				ba.lo[1] <= bb.hi[1] && bb.lo[1] <= ba.hi[1] &&
				ba.lo[2] <= bb.hi[2] && bb.lo[2] <= ba.hi[2];
			if (keep)
			{
				size_t		d0 = (size_t) c.g.dim[0],
							d1 = (size_t) c.g.dim[1];
				int			x = (int) (cell % d0),
							y = (int) (cell / d0 % d1),
							z = (int) (cell / (d0 * d1));

				keep = gx_dev_coord(&c.g, 0, fmax(ba.lo[0], bb.lo[0])) == x &&
					gx_dev_coord(&c.g, 1, fmax(ba.lo[1], bb.lo[1])) == y &&
					gx_dev_coord(&c.g, 2, fmax(ba.lo[2], bb.lo[2])) == z;
			}
			pair = make_uint2(ea, eb);
		}
		{
			unsigned long long slot = gx_warp_append(keep, counter);

			if (keep && slot < cap)
				out[slot] = pair;
		}
		__syncthreads();		/* s_first and s_last are rewritten next round */
	}
}

cudaError_t
gx_launch_cull(const GxDevCandidates *c, unsigned long long c0, unsigned long long len,
			   uint2 *out, unsigned long long cap, unsigned long long *counter, cudaStream_t st)
{
	if (len == 0)
		return cudaSuccess;
	cull_kernel<<<gx_blocks(len), GX_CUDA_BLOCK, 0, st>>>(*c, c0, len, out, cap, counter);
	return cudaGetLastError();
}
