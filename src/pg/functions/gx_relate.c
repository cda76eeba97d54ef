/*
 * gx_relate.c: SQL spatial predicates over gxgeom (exact, src/core/operation/gx_intersects.c). gx_intersects keeps
 * one argument prepared (its elements and grid) across calls when that argument is the same value again,
 * as PostGIS does with its prepared geometries. "The same value" is decided by what the value is, never
 * by where it lies in memory: the same out-of-line TOAST value (database-local, immutable), the same
 * Const of the query's expression, or, for a parameter (whose value may change between calls, as a
 * PL/pgSQL variable does), the same bytes. The functions of solids keep their solid prepared the same way.
 */
#include "postgres.h"
#include "access/detoast.h"
#include "fmgr.h"
#include "nodes/primnodes.h"
#include "utils/memutils.h"

#include "gx_pg.h"
#include "operation/gx_intersects.h"

PG_FUNCTION_INFO_V1(gx_intersects_sql);

#define PREPARE_MIN_ELEMENTS 64		/* smaller geometries are cheap to flatten on every call */

typedef enum ArgKind
{
	ARG_OTHER,					/* a value computed per call: not worth remembering */
	ARG_TOAST,					/* an out-of-line TOASTed value: its TOAST table and value id */
	ARG_CONST,					/* a Const of the call's expression: fixed for this expression's life */
	ARG_PARAM					/* a query parameter: recognised by its bytes */
} ArgKind;

typedef struct ArgIdentity
{
	ArgKind		kind;
	Oid			toastrelid;
	Oid			valueid;
} ArgIdentity;

typedef struct PreparedCache
{
	MemoryContext cxt;			/* holds stored, copy and prepared */
	int			argnum;			/* the prepared argument, -1 for none */
	ArgIdentity id;
	struct varlena *stored;		/* the value as stored (packed, when it is): what a parameter is compared with */
	GxSerialized *copy;			/* the value as the core reads it */
	GxPrepared	prepared;
	ArgIdentity last[2];		/* each argument's identity at the previous call */
	ArgIdentity small[2];		/* the last value of each argument found too small to prepare */
} PreparedCache;

/* The expression of argument argnum of the call, or NULL when the call is not a plain function/operator. */
static Node *
arg_expr(FmgrInfo *flinfo, int argnum)
{
	Node	   *call = flinfo->fn_expr;
	List	   *args = NIL;

	if (call == NULL)
		return NULL;
	if (IsA(call, FuncExpr))
		args = ((FuncExpr *) call)->args;
	else if (IsA(call, OpExpr))
		args = ((OpExpr *) call)->args;
	return argnum < list_length(args) ? (Node *) list_nth(args, argnum) : NULL;
}

static ArgIdentity
arg_identity(FunctionCallInfo fcinfo, int argnum)
{
	ArgIdentity id = {ARG_OTHER, InvalidOid, InvalidOid};
	struct varlena *v = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argnum));
	Node	   *expr = arg_expr(fcinfo->flinfo, argnum);

	if (VARATT_IS_EXTERNAL_ONDISK(v))
	{
		struct varatt_external ext;

		VARATT_EXTERNAL_GET_POINTER(ext, v);
		id.kind = ARG_TOAST;
		id.toastrelid = ext.va_toastrelid;
		id.valueid = ext.va_valueid;
	}
	else if (expr != NULL && IsA(expr, Const))
		id.kind = ARG_CONST;
	else if (get_fn_expr_arg_stable(fcinfo->flinfo, argnum))
		id.kind = ARG_PARAM;
	return id;
}

/* Do two identities name the same value? (Parameters are compared by their bytes instead.) */
static bool
same_identity(const ArgIdentity *a, const ArgIdentity *b)
{
	return (a->kind == ARG_TOAST && b->kind == ARG_TOAST && a->toastrelid == b->toastrelid &&
			a->valueid == b->valueid) ||
		(a->kind == ARG_CONST && b->kind == ARG_CONST);
}

/* Is argument argnum, of identity id, the value prepared in the cache? */
static bool
is_prepared_value(FunctionCallInfo fcinfo, PreparedCache *cache, int argnum, const ArgIdentity *id)
{
	struct varlena *v;

	if (cache->argnum != argnum)
		return false;
	if (id->kind != ARG_PARAM || cache->id.kind != ARG_PARAM)
		return same_identity(id, &cache->id);
	/* one stored form per value (gx_pack.h): the stored bytes are compared, without unpacking */
	v = PG_DETOAST_DATUM(PG_GETARG_DATUM(argnum));
	return VARSIZE(v) == VARSIZE(cache->stored) && memcmp(v, cache->stored, VARSIZE(v)) == 0;
}

/*
 * Prepares argument argnum (already known by id) in the cache; false if it is too small to pay (unless
 * any_size).
 */
static bool
prepare_arg(FunctionCallInfo fcinfo, PreparedCache *cache, int argnum, ArgIdentity id, bool any_size)
{
	MemoryContext old = MemoryContextSwitchTo(cache->cxt);
	GxSerialized *g;
	GxCounts	c;
	GxError		err = {GX_OK, ""};

	MemoryContextReset(cache->cxt);
	cache->argnum = -1;
	cache->stored = PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(argnum));
	g = gx_pg_geom(PointerGetDatum(cache->stored));	/* the stored copy itself, unless packed */
	c = gx_counts(g);
	if (!any_size && c.segments + c.triangles < PREPARE_MIN_ELEMENTS)
	{
		MemoryContextSwitchTo(old);
		MemoryContextReset(cache->cxt);
		cache->small[argnum] = id;
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

/* The call site's cache (in fn_extra), made on first use. */
static PreparedCache *
cache_of(FunctionCallInfo fcinfo)
{
	PreparedCache *cache = fcinfo->flinfo->fn_extra;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(PreparedCache));
		cache->cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "gxgeom prepared geometry",
										   ALLOCSET_DEFAULT_SIZES);
		cache->argnum = -1;
		fcinfo->flinfo->fn_extra = cache;
	}
	return cache;
}

const GxPrepared *
gx_pg_prepared_arg(FunctionCallInfo fcinfo, int argnum)
{
	PreparedCache *cache = cache_of(fcinfo);
	ArgIdentity id = arg_identity(fcinfo, argnum);

	if (id.kind == ARG_OTHER || !is_prepared_value(fcinfo, cache, argnum, &id))
		prepare_arg(fcinfo, cache, argnum, id, true);
	return &cache->prepared;
}

Datum
gx_intersects_sql(PG_FUNCTION_ARGS)
{
	PreparedCache *cache = cache_of(fcinfo);
	ArgIdentity id[2] = {arg_identity(fcinfo, 0), arg_identity(fcinfo, 1)};
	GxError		err = {GX_OK, ""};
	int			r,
				k;

	/*
	 * Prepare an argument that is the same value as at the previous call, a query constant or a parameter
	 * (unless it is the value last found too small).
	 */
	if (cache->argnum < 0 || !is_prepared_value(fcinfo, cache, cache->argnum, &id[cache->argnum]))
	{
		cache->argnum = -1;
		for (k = 0; k < 2 && cache->argnum < 0; k++)
			if ((id[k].kind == ARG_CONST || id[k].kind == ARG_PARAM || same_identity(&id[k], &cache->last[k])) &&
				!same_identity(&id[k], &cache->small[k]))
				prepare_arg(fcinfo, cache, k, id[k], false);
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
