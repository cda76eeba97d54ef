/*
 * gx_service.h: the GPU service (src/service) seen from PostgreSQL. With gpuexact in
 * shared_preload_libraries (and gpuexact.service on), a background worker supervises one
 * gpuexact-service process for the cluster; backends send it their batches (gx_service_client.c).
 */
#ifndef GX_SERVICE_H
#define GX_SERVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "batch/gx_pg_cache.h"

extern bool gx_service_enabled;
extern int	gx_service_cache_mb;
extern int	gx_service_device_mb;
extern int	gx_service_timeout_ms;
/* gpuexact.service_cpu */
typedef enum GxServiceCpu
{
	GX_SERVICE_CPU_AUTO,
	GX_SERVICE_CPU_ON,
	GX_SERVICE_CPU_OFF
} GxServiceCpu;
extern int	gx_service_cpu;

/* The service's cache figures (emptied first when reset); false when the service cannot be asked. */
bool		gx_service_cache_stats(bool reset, GxCacheStats *st);

/*
 * The GPU service's part of gx_pg_batch_run (gx_service_client.c): true when it ran the batch; false when
 * this backend must (why says why, empty when the CPU was simply the better choice). Raises on cancel.
 */
bool		gx_service_run(GxPgSide *a, GxPgSide *b, const GxBatchOptions *opt, GxPairs *out, GxBatchStats *st,
						   char *why, size_t whylen);

/*
 * The same for gx_intercepts_pairs: the batch of lines and solids, then the pairs' intercepts, in the service
 * (which holds the solids indexed when it keeps them); *out palloc'd.
 */
struct GxPairInterval;
bool		gx_service_intercepts(GxPgSide *lines, GxPgSide *solids, const GxBatchOptions *opt,
								  struct GxPairInterval **out, size_t *n, GxBatchStats *st, char *why, size_t whylen);

/*
 * The same for gx_volume_pairs: the blocks (a side of their diagonals, gx_batch_side_of_boxes) and the
 * solids, whose volumes inside the blocks the service computes (filtered on the GPU when it keeps the
 * solids there); *out palloc'd.
 */
struct GxPairVolume;
bool		gx_service_volumes(GxPgSide *boxes, GxPgSide *solids, const GxBatchOptions *opt,
							   struct GxPairVolume **out, size_t *n, char *why, size_t whylen);

/*
 * The same for gx_overlap_pairs: the two sides of solids, whose pairs sharing a volume the service finds (the
 * GPU's part on the GPU where it keeps both sides there), no triangle cut past max_cuts; *out gx_alloc'd.
 */
bool		gx_service_overlaps(GxPgSide *a, GxPgSide *b, const GxBatchOptions *opt, size_t max_cuts,
								struct GxPairVolume **out, size_t *n, char *why, size_t whylen);

/*
 * The bytes the service keeps with the side of these keys as its rows' locations (gx_pg_table.c), mapped
 * (*len of them), or NULL when it holds none or cannot be asked; let go with gx_service_rows_free.
 */
void	   *gx_service_rows(const GxCacheKey *keys, size_t nkeys, size_t *len);
void		gx_service_rows_free(void *rows, size_t len);

/* From _PG_init while shared_preload_libraries are loaded: registers the supervising worker. */
void		gx_service_register(void);

/* Does this cluster run the service (registered at postmaster start)? */
bool		gx_service_started(void);

/* The service's socket: in the data directory (a path relative to it, where backends and the service run). */
void		gx_service_socket_path(char *buf, size_t size);

#endif
