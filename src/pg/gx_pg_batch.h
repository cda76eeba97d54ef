/* gx_pg_batch.h: running the batch engine from the PostgreSQL layer: sides with row ids, settings, cancel, errors. */
#ifndef GX_PG_BATCH_H
#define GX_PG_BATCH_H

#include "postgres.h"

#include "gx_batch.h"

/* A batch side built from rows: geometry k of the side came from the row with id ids[k]. */
typedef struct GxPgSide
{
	GxBatchSide side;
	int64	   *ids;
	size_t		idcap;
} GxPgSide;

void		gx_pg_side_init(GxPgSide *s);
/* Adds one row's geometry (a gxgeom Datum, detoasted here and released again). */
void		gx_pg_side_add(GxPgSide *s, int64 id, Datum geom);
void		gx_pg_side_reset(GxPgSide *s);

/* Elements of a gxgeom Datum read from its header only (no full detoast); 0 when that does not tell. */
size_t		gx_pg_estimate_elements(Datum geom);
/* Makes room for exactly this many more elements and geometries. */
void		gx_pg_side_reserve(GxPgSide *s, size_t elements, size_t geometries);

/*
 * Runs the batch with the session's settings; raises the ERROR for mixed SRIDs, memory, or cancel
 * (query cancel and statement_timeout stop the engine, which frees its GPU memory before returning).
 */
void		gx_pg_batch_run(const GxPgSide *a, const GxPgSide *b, GxPairs *out, GxBatchStats *st);

#endif
