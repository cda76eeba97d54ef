/*
 * gx_relate.c: SQL spatial predicates over gxgeom (exact, src/core/gx_intersects.c). gx_intersects keeps
 * one argument prepared (its elements and grid) across calls when that argument is the same value again:
 * a query constant or parameter, or the same TOASTed value in consecutive calls (a nested loop's outer
 * row), as PostGIS does with its prepared geometries.
 */
#include "postgres.h"
#include "access/detoast.h"
#include "fmgr.h"
#include "utils/memutils.h"

#include "gx_intersects.h"
#include "gx_pg.h"

PG_FUNCTION_INFO_V1(gx_intersects_sql);

#define PREPARE_MIN_ELEMENTS 64		/* smaller geometries are cheap to flatten on every call */

/* Which value an argument is, when that can be told cheaply and surely; valid false otherwise. */
typedef struct ArgIdentity
{
	bool		valid;
	Oid			toastrelid;		/* an out-of-line TOASTed value: its TOAST table and value id */
	Oid			valueid;
	Pointer		stable;			/* or a constant/parameter of the query: its address */
} ArgIdentity;

typedef struct PreparedCache
{
	MemoryContext cxt;			/* holds copy and prepared */
	int			argnum;			/* the prepared argument, -1 for none */
	ArgIdentity id;
	GxSerialized *copy;
	GxPrepared	prepared;
	ArgIdentity last[2];		/* each argument's identity at the previous call */
	ArgIdentity small;			/* the last value found too small to prepare */
} PreparedCache;

static ArgIdentity
arg_identity(FunctionCallInfo fcinfo, int argnum)
{
	ArgIdentity id = {false, InvalidOid, InvalidOid, NULL};
	struct varlena *v = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argnum));

	if (VARATT_IS_EXTERNAL_ONDISK(v))
	{
		struct varatt_external ext;

		VARATT_EXTERNAL_GET_POINTER(ext, v);
		id.valid = true;
		id.toastrelid = ext.va_toastrelid;
		id.valueid = ext.va_valueid;
	}
	else if (get_fn_expr_arg_stable(fcinfo->flinfo, argnum))
	{
		id.valid = true;
		id.stable = (Pointer) v;
	}
	return id;
}

static bool
same_identity(const ArgIdentity *a, const ArgIdentity *b)
{
	return a->valid && b->valid && a->toastrelid == b->toastrelid && a->valueid == b->valueid &&
		a->stable == b->stable;
}

/* Prepares argument argnum (already known by id) in the cache; false if it is too small to pay. */
static bool
prepare_arg(FunctionCallInfo fcinfo, PreparedCache *cache, int argnum, ArgIdentity id)
{
	MemoryContext old = MemoryContextSwitchTo(cache->cxt);
	GxSerialized *g;
	GxCounts	c;
	GxError		err = {GX_OK, ""};

	MemoryContextReset(cache->cxt);
	cache->argnum = -1;
	g = (GxSerialized *) PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(argnum));
	c = gx_counts(g);
	if (c.segments + c.triangles < PREPARE_MIN_ELEMENTS)
	{
		MemoryContextSwitchTo(old);
		MemoryContextReset(cache->cxt);
		cache->small = id;
		return false;
	}
	if (!gx_prepare(&cache->prepared, g, &err))
		gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
	MemoryContextSwitchTo(old);
	cache->copy = g;
	cache->argnum = argnum;
	cache->id = id;
	return true;
}

Datum
gx_intersects_sql(PG_FUNCTION_ARGS)
{
	PreparedCache *cache = fcinfo->flinfo->fn_extra;
	ArgIdentity id[2] = {arg_identity(fcinfo, 0), arg_identity(fcinfo, 1)};
	GxError		err = {GX_OK, ""};
	int			r,
				k;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(PreparedCache));
		cache->cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "gx_intersects prepared geometry",
										   ALLOCSET_DEFAULT_SIZES);
		cache->argnum = -1;
		fcinfo->flinfo->fn_extra = cache;
	}
	/* Prepare an argument that is the same value as at the previous call, or a query constant. */
	if (cache->argnum < 0 || !same_identity(&id[cache->argnum], &cache->id))
	{
		cache->argnum = -1;
		for (k = 0; k < 2 && cache->argnum < 0; k++)
			if (id[k].valid && (id[k].stable || same_identity(&id[k], &cache->last[k])) &&
				!same_identity(&id[k], &cache->small))
				prepare_arg(fcinfo, cache, k, id[k]);
	}
	cache->last[0] = id[0];
	cache->last[1] = id[1];
	if (cache->argnum >= 0)
		r = gx_intersects_prepared(&cache->prepared, PG_GETARG_GXGEOM(1 - cache->argnum), &err);
	else
		r = gx_intersects(PG_GETARG_GXGEOM(0), PG_GETARG_GXGEOM(1), &err);
	if (r < 0)
		gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
	PG_RETURN_BOOL(r == 1);
}
