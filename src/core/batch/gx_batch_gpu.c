/*
 * gx_batch_gpu.c: the batch engine's GPU path: hands the job to the CUDA engine, then re-decides on the
 * CPU (exact ladder, OpenMP) the few element pairs the device's filters and expansions left open.
 */
#include <stdio.h>
#include <string.h>

#include "batch/gx_batch.h"
#include "batch/gx_batch_internal.h"
#include "batch/gx_cuda_loader.h"

static void
side_view(GxCudaSide *v, const GxBatchSide *s)
{
	v->n = s->n;
	v->coords = s->coords;
	v->kind = s->kind;
	v->geom = s->geom;
}

/*
 * Exact re-decision of the undecided element pairs (a, b, a, b, ...): intersecting, or within distance; their
 * keys are of the element pairs when element_pairs.
 */
static bool
decide_undecided(const GxBatchSide *a, const GxBatchSide *b, const uint32_t *pairs, size_t n, double distance,
				 bool element_pairs, const GxCancel *cancel, GxKeys *keys, GxBatchStats *st)
{
	GxKeys		found = {NULL, 0, 0};
	bool		ok = true;
	long		i;

	#pragma omp parallel for schedule(dynamic, 16) if (n > 256)
	for (i = 0; i < (long) n; i++)
		if (!gx_cancel_requested(cancel) &&
			(distance > 0 ? gx_batch_elems_within(a, pairs[2 * i], b, pairs[2 * i + 1], distance) :
			 gx_batch_elems_intersect(a, pairs[2 * i], b, pairs[2 * i + 1])))
		{
			#pragma omp critical
			ok = gx_keys_push(&found, gx_batch_result_key(a, pairs[2 * i], b, pairs[2 * i + 1], element_pairs)) && ok;
		}
	st->element_pairs += found.n;
	ok = ok && gx_keys_append(keys, found.v, found.n);
	gx_keys_free(&found);
	return ok;
}

int
gx_batch_gpu(const GxBatchSide *a, const GxBatchSide *b, const GxBox3D *extent, const int dim[3],
			 const GxBatchOptions *opt, GxKeys *keys, GxBatchStats *st, GxError *err)
{
	const GxCudaApi *api = gx_cuda_load(opt->cuda_library, st->fallback, sizeof(st->fallback));
	GxCudaJob	job;
	GxCudaResult res;
	char		msg[256] = "";
	double		t0;
	int			rc;
	bool		ok;

	if (api == NULL)
		return 0;
	memset(&job, 0, sizeof(job));
	memset(&res, 0, sizeof(res));
	side_view(&job.a, a);
	side_view(&job.b, b);
	memcpy(job.extent, extent, sizeof(job.extent));
	memcpy(job.dim, dim, sizeof(job.dim));
	job.device = opt->cuda_device;
	job.memory_cap = opt->gpu_memory_cap;
	job.float_pass = opt->float_pass;
	job.resident[0] = opt->device_side[0];
	job.resident[1] = opt->device_side[1];
	job.cancel[0] = opt->cancel.flag[0];
	job.cancel[1] = opt->cancel.flag[1];
	job.distance = opt->distance;
	job.element_pairs = opt->element_pairs;
	rc = api->intersect(&job, &res, msg, sizeof(msg));
	if (rc == GX_CUDA_CANCELLED)
	{
		gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
		return -1;
	}
	if (rc != GX_CUDA_OK)
	{
		snprintf(st->fallback, sizeof(st->fallback), "GPU %d: %s", opt->cuda_device, msg);
		return rc == GX_CUDA_OUT_OF_MEMORY ? 2 : 0;
	}
	snprintf(st->device, sizeof(st->device), "GPU %d: %s%s", opt->cuda_device, res.device_name,
			 res.used_float_pass ? " (float32 interval pass on)" : "");
	st->candidates += res.candidates;
	st->bbox_survivors += res.bbox_survivors;
	st->float_failures += res.float_failures;
	st->double_failures += res.double_failures;
	st->exact_decisions += res.nundecided;
	st->element_pairs += res.element_pairs;
	st->t_upload += res.t_upload;
	st->t_grid += res.t_grid;
	st->t_cull += res.t_cull;
	st->t_float += res.t_float;
	st->t_double += res.t_double;
	st->t_dedup += res.t_dedup;
	st->t_download += res.t_download;
	st->chunks += res.chunks;
	if (gx_cancel_requested(&opt->cancel))
	{
		api->free_result(&res);
		gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
		return -1;
	}
	ok = gx_keys_append(keys, res.pairs, res.npairs);
	t0 = gx_now_ms();
	ok = ok && decide_undecided(a, b, res.undecided, res.nundecided, opt->distance, opt->element_pairs, &opt->cancel,
								keys, st);
	st->t_exact += gx_now_ms() - t0;
	api->free_result(&res);
	if (gx_cancel_requested(&opt->cancel))
	{
		gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
		return -1;
	}
	if (!ok)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory collecting the GPU's pairs");
		return -1;
	}
	return 1;
}

/* The CUDA engine when side k is kept on the device, else NULL (the caller does the work on the CPU). */
static const GxCudaApi *
kept_side_engine(const GxBatchOptions *opt, int k)
{
	char		why[256];

	return opt->device_side[k] ? gx_cuda_load(opt->cuda_library, why, sizeof(why)) : NULL;
}

/* What a call on a kept side came to: 1 done, 0 not (the CPU does it), -1 cancelled (err set). */
static int
kept_side_outcome(int rc, GxError *err)
{
	if (rc == GX_CUDA_CANCELLED)
	{
		gx_error_set(err, GX_ERR_CANCELLED, "batch cancelled");
		return -1;
	}
	return rc == GX_CUDA_OK;
}

int
gx_batch_gpu_locate(const GxBatchOptions *opt, int k, const double *points, const uint32_t *solid, size_t n,
					uint8_t *answer, GxError *err)
{
	char		why[256];
	const GxCudaApi *api = kept_side_engine(opt, k);
	volatile const int *const cancel[2] = {opt->cancel.flag[0], opt->cancel.flag[1]};

	if (api == NULL)
		return 0;
	return kept_side_outcome(api->locate(opt->device_side[k], points, solid, n, answer, cancel, why, sizeof(why)),
							 err);
}

int
gx_batch_gpu_volumes(const GxBatchOptions *opt, int k, const double *boxes, const double *reach, const uint8_t *down,
					 const uint32_t *solid, size_t n, uint8_t *verdict, double *value, GxError *err)
{
	char		why[256];
	const GxCudaApi *api = kept_side_engine(opt, k);
	volatile const int *const cancel[2] = {opt->cancel.flag[0], opt->cancel.flag[1]};

	if (api == NULL)
		return 0;
	return kept_side_outcome(api->volumes(opt->device_side[k], boxes, reach, down, solid, n, verdict, value, cancel,
										  why, sizeof(why)), err);
}

int
gx_batch_gpu_overlap_candidates(const GxBatchOptions *opt, const uint64_t *a_first, const uint32_t *a_count,
								const uint32_t *b_solid, const uint64_t *b_first, const double *b_box, size_t npairs,
								uint64_t *start, uint32_t **pairs, GxError *err)
{
	char		why[256];
	const GxCudaApi *api = kept_side_engine(opt, 0);
	volatile const int *const cancel[2] = {opt->cancel.flag[0], opt->cancel.flag[1]};

	*pairs = NULL;
	if (api == NULL || opt->device_side[1] == NULL)
		return 0;
	return kept_side_outcome(api->overlap_candidates(opt->device_side[0], opt->device_side[1], a_first, a_count,
													 b_solid, b_first, b_box, npairs, start, pairs, cancel, why,
													 sizeof(why)), err);
}

int
gx_batch_gpu_solid_volumes(const GxBatchOptions *opt, int k, const uint64_t *first, const uint32_t *count, size_t n,
						   double *value, int8_t *sign, GxError *err)
{
	char		why[256];
	const GxCudaApi *api = kept_side_engine(opt, k);
	volatile const int *const cancel[2] = {opt->cancel.flag[0], opt->cancel.flag[1]};

	if (api == NULL)
		return 0;
	return kept_side_outcome(api->solid_volumes(opt->device_side[k], first, count, n, value, sign, cancel, why,
												sizeof(why)), err);
}
