/* gx_pg_batch.h: running the batch engine from the PostgreSQL layer: sides with row ids, settings, cancel, errors. */
#ifndef GX_PG_BATCH_H
#define GX_PG_BATCH_H

#include "postgres.h"

#include "gx_batch.h"
#include "gx_geom_cache.h"

/*
 * A batch side made from rows: geometry k of the side came from row ids[k]. The side's arrays are made
 * only when needed (gx_pg_side_materialize): the GPU service may hold the side already, under the keys of
 * its TOASTed values. srid and mixed_srid of `side` are known before (from the service's answer).
 */
typedef struct GxPgSide
{
	GxBatchSide side;			/* arrays valid once built */
	bool		built;
	size_t		ngeoms;			/* geometries (rows with a geometry) */
	int64	   *ids;
	int32	   *srids;			/* per geometry, once built */
	/* what it is made from */
	const Datum *geoms;
	const bool *present;
	size_t		nrows;
	GxCacheKey *keys;			/* TOAST identities of its geometries, or NULL when not all are TOASTed */
	MemoryContext cxt;			/* where it lives: its arrays, or its hold on cached ones, go with it */
	/* where the time went, for EXPLAIN (the caller adds them up and may zero them) */
	double		read_ms;		/* identifying its values (their TOAST keys), making its arrays: fetching,
								 * decompressing, unpacking, flattening */
	double		send_ms;		/* writing them into the GPU service's segment (its making included) */
} GxPgSide;

void		gx_pg_side_init(GxPgSide *s);

/*
 * Makes s the side of the n gxgeom Datums geoms[i] with present[i] (ids i, in order), which must stay
 * valid while s is used; nothing is detoasted yet. s lives in cxt: its arrays, when made, are allocated
 * there, or come from the backend's geometry cache (gx_pg_cache.c) if its geometries are all TOASTed
 * values, held until cxt is reset.
 */
void		gx_pg_side_prepare(GxPgSide *s, const Datum *geoms, const bool *present, size_t n, MemoryContext cxt);
/* Makes s's arrays (and srids), in its context or borrowed from the cache. */
void		gx_pg_side_materialize(GxPgSide *s);


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
 * The GPU service's part of gx_pg_batch_run (gx_service_client.c): true when it ran the batch; false when
 * this backend must (why says why, empty when the CPU was simply the better choice). Raises on cancel.
 */
bool		gx_service_run(GxPgSide *a, GxPgSide *b, const GxBatchOptions *opt, GxPairs *out, GxBatchStats *st,
						   char *why, size_t whylen);

/* Would gx_intersects raise for this pair of SRIDs (both non-zero and different)? */
static inline bool
gx_pg_srids_conflict(int32 a, int32 b)
{
	return a != 0 && b != 0 && a != b;
}

#endif
