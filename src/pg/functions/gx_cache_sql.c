/* gx_cache_sql.c: gx_cache_stats() and gx_cache_reset(): the geometry caches of this backend and the GPU service. */
#include "postgres.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "batch/gx_pg_cache.h"
#include "service/gx_service.h"

PG_FUNCTION_INFO_V1(gx_cache_stats_sql);
PG_FUNCTION_INFO_V1(gx_cache_reset_sql);

static void
put_stats(ReturnSetInfo *rsinfo, const char *scope, const GxCacheStats *st)
{
	Datum		values[5] = {CStringGetTextDatum(scope), Int64GetDatum((int64) st->entries),
		Int64GetDatum((int64) st->bytes), Int64GetDatum((int64) st->hits), Int64GetDatum((int64) st->misses)};
	bool		nulls[5] = {false, false, false, false, false};

	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/* gx_cache_stats(): one row per cache: this backend's, and the GPU service's when there is one. */
Datum
gx_cache_stats_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxCacheStats st;

	InitMaterializedSRF(fcinfo, 0);
	st = gx_pg_cache_stats(false);
	put_stats(rsinfo, "backend host", &st);
	if (gx_service_cache_stats(false, &st))
		put_stats(rsinfo, "service host", &st);
	return (Datum) 0;
}

Datum
gx_cache_reset_sql(PG_FUNCTION_ARGS)
{
	GxCacheStats st;

	(void) gx_pg_cache_stats(true);
	(void) gx_service_cache_stats(true, &st);
	PG_RETURN_VOID();
}
