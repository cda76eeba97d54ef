/* gx_batch_options.h: what a batch is asked (device, grid, threads, cancel, distance) and what it reports. */
#ifndef GX_BATCH_OPTIONS_H
#define GX_BATCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/gx_interrupt.h"

typedef enum GxDevice
{
	GX_DEVICE_AUTO,				/* the GPU when there is one and the batch is large enough */
	GX_DEVICE_GPU,				/* the GPU whenever it works (falls back to the CPU if it fails) */
	GX_DEVICE_CPU
} GxDevice;

typedef struct GxBatchOptions
{
	GxDevice	device;
	size_t		gpu_min_elements;	/* AUTO: batches with fewer elements (both sides) run on the CPU */
	int			grid_resolution;	/* cells along the extent's longest axis; 0 = chosen from the data */
	size_t		gpu_memory_cap;		/* bytes; 0 = 80% of the device's free memory */
	int			cuda_device;
	int			float_pass;			/* -1 = by the device's FP64 rate, 0 = off, 1 = on */
	const char *cuda_library;		/* path of gpuexact_cuda.so */
	int			threads;			/* CPU threads; 0 = one per core (never more than there are cores) */
	const char *thread_budget;		/* directory of the budget shared with other processes, or NULL */
	GxCancel	cancel;				/* a flag set stops the run (GX_ERR_CANCELLED) within milliseconds */
	bool		ignore_srid;		/* pairs whatever their SRIDs: the caller checks them row by row */
	bool		strict_srid;		/* SRID 0 conflicts with other SRIDs too (gx_srids_conflict) */
	bool		gpu_only;			/* no CPU fallback: a GPU failure is GX_ERR_DEVICE (the GPU service) */
	const void *device_side[2];		/* side a / b already on the GPU (GxCudaResident of cuda_device), or NULL */
	double		distance;			/* > 0: pairs within this distance (gx_dwithin); 0: intersecting */
	bool		element_pairs;		/* also every intersecting element pair (GxPairs.elements; distance 0) */
} GxBatchOptions;

/* Sensible defaults (AUTO device, data-driven grid). */
void		gx_batch_options_default(GxBatchOptions *o);

typedef struct GxBatchStats
{
	char		device[224];		/* what ran: "GPU 0: NVIDIA H100 ..." or "CPU, 2 threads" */
	char		fallback[320];		/* why the GPU was not used or gave up, if it was asked for */
	int			grid_dim[3];
	int			chunks;
	uint64_t	elements_a,
				elements_b;
	uint64_t	candidates;			/* sum over cells of |A in cell| * |B in cell| */
	uint64_t	bbox_survivors;		/* pairs whose boxes overlap (each counted once) */
	uint64_t	float_failures;		/* GPU: pairs the float32 interval pass left open */
	uint64_t	double_failures;	/* GPU: pairs the double filter left open; CPU: predicates */
	uint64_t	exact_decisions;	/* GPU: pairs re-decided on the CPU; CPU: predicates decided exactly */
	uint64_t	element_pairs;		/* intersecting element pairs */
	uint64_t	geometry_pairs;		/* distinct intersecting geometry pairs */
	uint64_t	volume_pairs;		/* of which found inside a solid, missing its surface */
	uint64_t	located,			/* points located in solids for them */
				located_gpu;		/* of which decided on the GPU */
	double		t_upload,
				t_grid,
				t_cull,
				t_float,
				t_double,
				t_exact,
				t_dedup,
				t_download,
				t_total;			/* milliseconds */
} GxBatchStats;

#endif
