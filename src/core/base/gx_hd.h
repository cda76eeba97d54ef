/*
 * gx_hd.h: GX_HD marks the small inline functions that the CPU code (gcc) and the CUDA kernels (nvcc)
 * share, so that both evaluate the very same filters, expansions and element tests.
 */
#ifndef GX_HD_H
#define GX_HD_H

#ifdef __CUDACC__
#define GX_HD static __host__ __device__ __forceinline__
#else
#define GX_HD static inline
#endif

#endif
