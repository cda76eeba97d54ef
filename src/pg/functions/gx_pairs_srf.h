/*
 * gx_pairs_srf.h: what the pair functions share: reading their two queries as batch sides, ids and SRIDs
 * checked (gx_pairs_srf.c).
 */
#ifndef GX_PAIRS_SRF_H
#define GX_PAIRS_SRF_H

#include "postgres.h"
#include "fmgr.h"

#include "batch/gx_pg_cache.h"
#include "functions/gx_pair_ids.h"

/*
 * Reads both queries (the function's first two arguments), each as in a READ ONLY transaction (named
 * lines_query and solids_query when lines, else a_query and b_query), into sides a and b with their ids
 * (geometry k of a has the id a->ids[k] and came from row (*arows)[k]), and checks their SRIDs: an ERROR
 * (22023) names two geometries whose SRIDs conflict.
 */
void		gx_pairs_read_sides(const char *fname, FunctionCallInfo fcinfo, GxPgSide *a, GxPgSide *b, GxPairIds *aid,
								GxPairIds *bid, int64 **arows, int64 **brows, bool lines);

#endif
