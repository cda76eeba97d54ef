/* gx_pg_batch.h: running the batch engine from the PostgreSQL layer: sides with row ids, settings, cancel, errors. */
#ifndef GX_PG_BATCH_H
#define GX_PG_BATCH_H

#include "postgres.h"

#include "batch/gx_pg_cache.h"

/*
 * Runs the batch with the session's settings, through the GPU service when there is one, else in this
 * backend; raises the ERROR for memory, cancel (query cancel, statement_timeout and termination stop the
 * engine, which frees its GPU memory before returning), or mixed SRIDs unless ignore_srid (then pairs
 * come whatever their SRIDs: see gx_pg_srids_conflict). With distance > 0 the pairs are those within that
 * distance (gx_dwithin), computed in this backend on the CPU (the GPU engine has no distance test yet).
 */
void		gx_pg_batch_run(GxPgSide *a, GxPgSide *b, bool ignore_srid, double distance, GxPairs *out,
							GxBatchStats *st);

/*
 * gx_intercepts_pairs' batch: the pairs of lines and solids, then their intercepts, in the GPU service
 * when there is one, else in this backend (ERRORs as gx_pg_batch_run's); *out palloc'd, n of them, by
 * solid, then line, then along the line.
 */
struct GxPairInterval;
void		gx_pg_intercepts_run(GxPgSide *lines, GxPgSide *solids, struct GxPairInterval **out, size_t *n,
								 GxBatchStats *st);

/* Would gx_intersects raise for this pair of SRIDs (under the session's gpuexact.strict_srid)? */
static inline bool
gx_pg_srids_conflict(int32 a, int32 b)
{
	return gx_srids_conflict(a, b, gx_strict_srid);
}

#endif
