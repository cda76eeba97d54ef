/*
 * gx_cuda_found.cu: the table of geometry pairs found, a bit per pair (a * nb + b), that a job's passes set
 * instead of appending keys, and its keys (a << 32 | b) read out in ascending order: the count of set bits
 * of each run of GX_FOUND_RUN words, a scan of the counts, then each run's keys written from its offset.
 * The table replaces the sort and unique of appended keys, and lets the passes skip the element pairs of
 * geometry pairs already found.
 */
#include "gx_cuda_internal.h"

__global__ void
found_count_kernel(const unsigned *__restrict__ found, unsigned long long words, unsigned long long runs,
				   unsigned long long *count)
{
	for (unsigned long long r = blockIdx.x * (unsigned long long) blockDim.x + threadIdx.x; r <= runs;
		 r += (unsigned long long) gridDim.x * blockDim.x)
	{
		unsigned long long c = 0;

		for (unsigned long long w = r * GX_FOUND_RUN; w < words && w < (r + 1) * GX_FOUND_RUN; w++)
			c += (unsigned long long) __popc(found[w]);
		count[r] = c;
	}
}

__global__ void
found_keys_kernel(const unsigned *__restrict__ found, unsigned long long words, unsigned long long runs,
				  unsigned long long nb, const unsigned long long *__restrict__ offset, unsigned long long *keys)
{
	for (unsigned long long r = blockIdx.x * (unsigned long long) blockDim.x + threadIdx.x; r < runs;
		 r += (unsigned long long) gridDim.x * blockDim.x)
	{
		unsigned long long at = offset[r];

		for (unsigned long long w = r * GX_FOUND_RUN; w < words && w < (r + 1) * GX_FOUND_RUN; w++)
			for (unsigned bits = found[w]; bits; bits &= bits - 1)
			{
				unsigned long long bit = 32 * w + (unsigned long long) (__ffs(bits) - 1);

				keys[at++] = gx_found_key(bit, nb);
			}
	}
}

cudaError_t
gx_launch_found_count(const unsigned *found, unsigned long long words, unsigned long long *count, cudaStream_t st)
{
	unsigned long long runs = gx_found_runs(words);

	found_count_kernel<<<gx_blocks(runs + 1), GX_CUDA_BLOCK, 0, st>>>(found, words, runs, count);
	return cudaGetLastError();
}

cudaError_t
gx_launch_found_keys(const unsigned *found, unsigned long long words, unsigned long long nb,
					 const unsigned long long *offset, unsigned long long *keys, cudaStream_t st)
{
	unsigned long long runs = gx_found_runs(words);

	if (runs == 0)
		return cudaSuccess;
	found_keys_kernel<<<gx_blocks(runs), GX_CUDA_BLOCK, 0, st>>>(found, words, runs, nb, offset, keys);
	return cudaGetLastError();
}
