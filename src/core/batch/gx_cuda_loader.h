/*
 * gx_cuda_loader.h: finds the CUDA engine (gpuexact_cuda.so, cuda/gx_cuda.h) at run time with dlopen, on
 * first use, so that everything works on machines without a GPU, driver or CUDA runtime.
 */
#ifndef GX_CUDA_LOADER_H
#define GX_CUDA_LOADER_H

#include <stddef.h>

#include "../../../cuda/gx_cuda.h"

typedef struct GxCudaApi
{
	int			(*device_info) (int device, char *name, size_t namelen, int *fp64_weak, size_t *memory);
	int			(*intersect) (const GxCudaJob *job, GxCudaResult *res, char *err, size_t errlen);
	void		(*free_result) (GxCudaResult *res);
	int			(*side_upload) (int device, const GxCudaSide *s, GxCudaResident **out, size_t *bytes,
								char *err, size_t errlen);
	void		(*side_free) (GxCudaResident *r);
	int			(*prepare) (int device, int jobs);
	int			(*locate) (const GxCudaResident *solids, const double *points, const uint32_t *solid, size_t n,
						   uint8_t *answer, volatile const int *const cancel[2], char *err, size_t errlen);
	int			(*volumes) (const GxCudaResident *solids, const double *boxes, const double *reach,
							const uint8_t *down, const uint32_t *solid, size_t n, uint8_t *verdict, double *value,
							volatile const int *const cancel[2], char *err, size_t errlen);
	int			(*overlap_candidates) (const GxCudaResident *a, const GxCudaResident *b, const uint64_t *a_first,
									   const uint32_t *a_count, const uint32_t *b_solid, const uint64_t *b_first,
									   const double *b_box, size_t npairs, uint64_t *start, uint32_t **pairs,
									   volatile const int *const cancel[2], char *err, size_t errlen);
	int			(*solid_volumes) (const GxCudaResident *s, const uint64_t *first, const uint32_t *count, size_t n,
								  double *value, int8_t *sign, volatile const int *const cancel[2], char *err,
								  size_t errlen);
} GxCudaApi;

/* The engine at path (loaded once per process and path), or NULL with the reason in why. */
const GxCudaApi *gx_cuda_load(const char *path, char *why, size_t whylen);

#endif
