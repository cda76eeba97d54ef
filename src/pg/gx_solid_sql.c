/*
 * gx_solid_sql.c: solids in SQL: gx_makesolid, gx_issolid, gx_locate and gx_intercepts (src/core
 * gx_solid.h, gx_intercepts.h). The solid argument of gx_locate and gx_intercepts stays prepared (its
 * point location index) while it is the same value, as gx_intersects keeps its prepared geometries.
 */
#include "postgres.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "gx_intercepts.h"
#include "gx_intersects.h"
#include "gx_pg.h"
#include "gx_service.h"
#include "gx_settings.h"
#include "gx_solid.h"

PG_FUNCTION_INFO_V1(gx_makesolid);
PG_FUNCTION_INFO_V1(gx_issolid);
PG_FUNCTION_INFO_V1(gx_locate);
PG_FUNCTION_INFO_V1(gx_intercepts_sql);

Datum
gx_makesolid(PG_FUNCTION_ARGS)
{
	GxSerialized *g = PG_GETARG_GXGEOM(0),
			   *s;
	GxBatchOptions opt;
	GxError		err = {GX_OK, ""};
	size_t		size;

	if (g->flags & GX_FLAG_SOLID)
		PG_RETURN_POINTER(g);
	gx_settings_batch_options(&opt);
	/* the GPU is the service's: this backend makes no CUDA context of its own when there is one */
	if (gx_service_started())
		opt.device = GX_DEVICE_CPU;
	s = gx_solid_from(g, &opt, &size, &err);
	if (s == NULL)
	{
		if (err.code == GX_ERR_CANCELLED)
		{
			CHECK_FOR_INTERRUPTS();
			ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling gx_makesolid due to user request")));
		}
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	}
	return gx_pg_datum(s, size);
}

Datum
gx_issolid(PG_FUNCTION_ARGS)
{
	GxSerialized *g = (GxSerialized *) PG_DETOAST_DATUM_SLICE(PG_GETARG_DATUM(0), 0, sizeof(GxSerialized));

	PG_RETURN_BOOL((g->flags & GX_FLAG_SOLID) != 0);
}

/* The prepared solid of argument 1, after the checks shared by gx_locate and gx_intercepts. */
static const GxPrepared *
solid_arg(FunctionCallInfo fcinfo, const char *fname, const GxSerialized *first, GxType want)
{
	GxSerialized *solid = PG_GETARG_GXGEOM(1);
	const GxPrepared *p;

	if (first->srid != 0 && solid->srid != 0 && first->srid != solid->srid)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("operation on mixed SRID geometries (%d and %d)", first->srid, solid->srid)));
	if (gx_body(first)->type != want)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("%s: the first argument must be a %s, not a %s", fname, gx_type_name(want),
							   gx_type_name(gx_body(first)->type))));
	if (!(solid->flags & GX_FLAG_SOLID))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("%s: the second argument is a %s, not a solid", fname, gx_type_name(gx_body(solid)->type)),
						errhint("gx_makesolid(geom) checks that a closed surface bounds a volume and makes it a solid.")));
	p = gx_pg_prepared_arg(fcinfo, 1);
	Assert(p->solid != NULL);
	return p;
}

Datum
gx_locate(PG_FUNCTION_ARGS)
{
	GxSerialized *pt = PG_GETARG_GXGEOM(0);
	const GxPrepared *p = solid_arg(fcinfo, "gx_locate", pt, GX_POINT);
	GxLocation	loc;

	if (pt->flags & GX_FLAG_EMPTY)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("gx_locate: the point is EMPTY")));
	loc = gx_solid_locate(p->solid, gx_node_coords(gx_body(pt)));
	if (loc == GX_LOC_FAILED)
		ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
						errmsg("gx_locate: no ray from the point avoided the solid's edges")));
	PG_RETURN_TEXT_P(cstring_to_text(loc == GX_LOC_INSIDE ? "inside" : loc == GX_LOC_BOUNDARY ? "boundary" : "outside"));
}

Datum
gx_intercepts_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	GxSerialized *line = PG_GETARG_GXGEOM(0);
	const GxPrepared *p;
	GxInterval *iv;
	GxError		err = {GX_OK, ""};
	size_t		n;

	InitMaterializedSRF(fcinfo, 0);
	p = solid_arg(fcinfo, "gx_intercepts", line, GX_LINESTRING);
	if (!gx_intercepts(p->solid, gx_node_coords(gx_body(line)), gx_body(line)->count, &iv, &n, &err))
		gx_pg_raise(&err, ERRCODE_INTERNAL_ERROR);
	for (size_t i = 0; i < n; i++)
	{
		Datum		values[2] = {Float8GetDatum(iv[i].from), Float8GetDatum(iv[i].to)};
		bool		nulls[2] = {false, false};

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
