/*
 * gx_pg_cache.c: the backend's geometry cache (core gx_geom_cache) under the batch sides of joins and
 * gx_intersecting_pairs. A side whose geometries are all out-of-line TOAST values is kept flattened under
 * the list of their TOAST identities (database, TOAST relation, value id, raw size): a repeated join
 * neither detoasts nor flattens it again. An updated value is a new TOAST value, a deleted one is never
 * named again, so an entry cannot go stale; a side with any other value is built afresh every time.
 * Also gx_cache_stats() and gx_cache_reset().
 */
#include "postgres.h"
#include "access/detoast.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "gx_geom_cache.h"
#include "gx_pg.h"
#include "gx_pg_batch.h"
#include "gx_service.h"
#include "gx_settings.h"

PG_FUNCTION_INFO_V1(gx_cache_stats_sql);
PG_FUNCTION_INFO_V1(gx_cache_reset_sql);

static GxCache *cache;
static MemoryContext cache_cxt;

/* The backend's cache, made on first use; NULL when the setting turns it off. */
static GxCache *
backend_cache(void)
{
	size_t		limit = (size_t) gx_cache_host_mb * 1024 * 1024;

	if (cache == NULL && limit > 0)
	{
		cache_cxt = AllocSetContextCreate(TopMemoryContext, "gpuexact geometry cache", ALLOCSET_DEFAULT_SIZES);
		cache = gx_cache_create(limit, NULL);
	}
	if (cache)
		gx_cache_set_limit(cache, limit);
	return limit > 0 ? cache : NULL;
}

/* The TOAST identity of an out-of-line stored value; false for any other value. */
static bool
toast_key(Datum d, GxCacheKey *key)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);
	struct varatt_external ext;

	if (!VARATT_IS_EXTERNAL_ONDISK(v))
		return false;
	VARATT_EXTERNAL_GET_POINTER(ext, v);
	key->k[0] = MyDatabaseId;
	key->k[1] = ext.va_toastrelid;
	key->k[2] = ext.va_valueid;
	key->k[3] = (uint32) ext.va_rawsize;
	return true;
}

/* Unpins a cache entry when the memory context of its user is reset or deleted (errors included). */
typedef struct Pin
{
	MemoryContextCallback cb;
	const GxCachedSide *entry;
} Pin;

static void
unpin(void *arg)
{
	Pin		   *pin = arg;

	if (cache)
		gx_cache_unpin(cache, pin->entry);
}

/* Makes s use entry's arrays (not copied), held until `pins` is reset. */
static void
borrow(GxPgSide *s, const GxCachedSide *entry, MemoryContext pins)
{
	Pin		   *pin = MemoryContextAlloc(pins, sizeof(Pin));

	pin->entry = entry;
	pin->cb.func = unpin;
	pin->cb.arg = pin;
	MemoryContextRegisterResetCallback(pins, &pin->cb);
	s->side = entry->side;
	s->srids = entry->srids;
}

/* Flattens the given datums into v (arrays allocated in cxt), ids in order. */
static void
flatten(GxCachedSide *v, const Datum *geoms, const bool *present, size_t n, size_t count, MemoryContext cxt)
{
	GxError		err = {GX_OK, ""};
	MemoryContext old = MemoryContextSwitchTo(cxt);
	size_t		elements = 0,
				i,
				k = 0;

	for (i = 0; i < n; i++)
		if (present[i])
			elements += gx_pg_estimate_elements(geoms[i]);
	gx_batch_side_init(&v->side);
	v->srids = MemoryContextAllocHuge(cxt, Max(count, 1) * sizeof(int32));
	if (!gx_batch_side_reserve(&v->side, elements, &err))
		gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
	/* still in cxt: arrays that the estimate did not reserve grow there too */
	for (i = 0; i < n; i++)
		if (present[i])
		{
			GxSerialized *g = (GxSerialized *) PG_DETOAST_DATUM(geoms[i]);

			v->srids[k++] = g->srid;
			if (!gx_batch_side_add(&v->side, g, &err))
				gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
			if ((Pointer) g != DatumGetPointer(geoms[i]))
				pfree(g);
			CHECK_FOR_INTERRUPTS();
		}
	MemoryContextSwitchTo(old);
}

void
gx_pg_side_prepare(GxPgSide *s, const Datum *geoms, const bool *present, size_t n, MemoryContext cxt)
{
	bool		keyed = backend_cache() != NULL || gx_service_started();
	size_t		i;

	gx_pg_side_init(s);
	s->geoms = geoms;
	s->present = present;
	s->nrows = n;
	s->cxt = cxt;
	for (i = 0; i < n; i++)
		s->ngeoms += present[i];
	s->ids = MemoryContextAlloc(cxt, Max(s->ngeoms, 1) * sizeof(int64));
	s->keys = keyed && s->ngeoms > 0 ? MemoryContextAlloc(cxt, s->ngeoms * sizeof(GxCacheKey)) : NULL;
	for (i = 0, s->ngeoms = 0; i < n; i++)
		if (present[i])
		{
			s->ids[s->ngeoms] = (int64) i;
			if (s->keys && !toast_key(geoms[i], &s->keys[s->ngeoms]))
				s->keys = NULL;
			s->ngeoms++;
		}
}

void
gx_pg_side_materialize(GxPgSide *s)
{
	GxCache    *c = backend_cache();
	GxCachedSide v;

	if (s->built)
		return;
	s->built = true;
	if (c != NULL && s->keys != NULL)
	{
		const GxCachedSide *hit = gx_cache_get(c, s->keys, s->ngeoms);

		if (hit == NULL)
		{
			flatten(&v, s->geoms, s->present, s->nrows, s->ngeoms, cache_cxt);
			hit = gx_cache_put(c, s->keys, s->ngeoms, &v);
			if (hit == NULL)
				ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory in the geometry cache")));
		}
		borrow(s, hit, s->cxt);
		return;
	}
	flatten(&v, s->geoms, s->present, s->nrows, s->ngeoms, s->cxt);
	s->side = v.side;
	s->srids = v.srids;
}

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
	GxCacheStats st = {0, 0, 0, 0};

	InitMaterializedSRF(fcinfo, 0);
	if (cache)
		st = gx_cache_stats(cache);
	put_stats(rsinfo, "backend host", &st);
	if (gx_service_cache_stats(false, &st))
		put_stats(rsinfo, "service host", &st);
	return (Datum) 0;
}

Datum
gx_cache_reset_sql(PG_FUNCTION_ARGS)
{
	GxCacheStats st;

	if (cache)
		gx_cache_reset(cache);
	(void) gx_service_cache_stats(true, &st);
	PG_RETURN_VOID();
}
