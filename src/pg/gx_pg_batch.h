/* gx_pg_batch.h: running the batch engine from the PostgreSQL layer: sides with row ids, settings, cancel, errors. */
#ifndef GX_PG_BATCH_H
#define GX_PG_BATCH_H

#include "postgres.h"

#include "gx_batch.h"

/* A batch side built from rows: geometry k of the side came from the row with id ids[k], SRID srids[k]. */
typedef struct GxPgSide
{
	GxBatchSide side;
	int64	   *ids;
	int32	   *srids;
} GxPgSide;

void		gx_pg_side_init(GxPgSide *s);

/*
 * Makes s the side of the n gxgeom Datums geoms[i] with present[i] (ids i), in CurrentMemoryContext, or
 * from the backend's geometry cache (gx_pg_cache.c) when they are all TOASTed values: then s only borrows
 * the cached arrays, held until the memory context `pins` is reset.
 */
void		gx_pg_side_build(GxPgSide *s, const Datum *geoms, const bool *present, size_t n, MemoryContext pins);

/* Elements of a gxgeom Datum read from its header only (no full detoast); 0 when that does not tell. */
size_t		gx_pg_estimate_elements(Datum geom);

/*
 * Runs the batch with the session's settings; raises the ERROR for memory, cancel (query cancel,
 * statement_timeout and termination stop the engine, which frees its GPU memory before returning), or
 * mixed SRIDs unless ignore_srid (then pairs come whatever their SRIDs: see gx_pg_srids_conflict).
 */
void		gx_pg_batch_run(const GxPgSide *a, const GxPgSide *b, bool ignore_srid, GxPairs *out,
							GxBatchStats *st);

/* Would gx_intersects raise for this pair of SRIDs (both non-zero and different)? */
static inline bool
gx_pg_srids_conflict(int32 a, int32 b)
{
	return a != 0 && b != 0 && a != b;
}

#endif
