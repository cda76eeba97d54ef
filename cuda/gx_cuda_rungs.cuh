/*
 * gx_cuda_rungs.cuh: the device's exact orientation rungs, the double filter then exact expansions
 * (src/core/algorithm/gx_orient.h), GX_UNDECIDED when neither decides: for the kernels that decide signs
 * themselves (the element tests' exact pass, point location). __noinline__ keeps the expansions' large
 * local arrays out of the kernels' common paths.
 */
#ifndef GX_CUDA_RUNGS_CUH
#define GX_CUDA_RUNGS_CUH

#include "algorithm/gx_orient.h"

static __host__ __device__ __noinline__ int
gxd_orient3d_exact(const double *a, const double *b, const double *c, const double *d)
{
	int			s = gx_orient3d_filter(a, b, c, d);

	return s != GX_UNDECIDED ? s : gx_orient3d_exact_expansion(a, b, c, d);
}

static __host__ __device__ __noinline__ int
gxd_orient2d_exact(const double *a, const double *b, const double *c, int drop)
{
	int			s = gx_orient2d_filter(a, b, c, drop);

	return s != GX_UNDECIDED ? s : gx_orient2d_exact_expansion(a, b, c, drop);
}

#endif
