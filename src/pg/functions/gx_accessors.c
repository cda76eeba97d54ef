/* gx_accessors.c: SQL accessors of gxgeom: SRID, type, counts, extent. */
#include "postgres.h"
#include "fmgr.h"
#include "utils/builtins.h"

#include "gx_pg.h"

PG_FUNCTION_INFO_V1(gx_srid);
PG_FUNCTION_INFO_V1(gx_setsrid);
PG_FUNCTION_INFO_V1(gx_geometrytype);
PG_FUNCTION_INFO_V1(gx_npoints);
PG_FUNCTION_INFO_V1(gx_nsegments);
PG_FUNCTION_INFO_V1(gx_ntriangles);
PG_FUNCTION_INFO_V1(gx_isempty);
PG_FUNCTION_INFO_V1(gx_extent_bound);

Datum
gx_srid(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(gx_pg_header(PG_GETARG_DATUM(0))->srid);
}

Datum
gx_setsrid(PG_FUNCTION_ARGS)
{
	GxSerialized *g = (GxSerialized *) PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(0));

	g->srid = gx_pg_check_srid(PG_GETARG_INT32(1));
	PG_RETURN_POINTER(g);
}

Datum
gx_geometrytype(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(gx_type_name(gx_body(gx_pg_header(PG_GETARG_DATUM(0)))->type)));
}

Datum
gx_isempty(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL((gx_pg_header(PG_GETARG_DATUM(0))->flags & GX_FLAG_EMPTY) != 0);
}

Datum
gx_npoints(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) gx_counts(PG_GETARG_GXGEOM(0)).points);
}

Datum
gx_nsegments(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) gx_counts(PG_GETARG_GXGEOM(0)).segments);
}

Datum
gx_ntriangles(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) gx_counts(PG_GETARG_GXGEOM(0)).triangles);
}

/*
 * gx_xmin ... gx_zmax: one C function, the bound chosen by the SQL wrapper's second argument
 * (0..5 = xmin, ymin, zmin, xmax, ymax, zmax). NULL for EMPTY.
 */
Datum
gx_extent_bound(PG_FUNCTION_ARGS)
{
	GxSerialized *g = gx_pg_header(PG_GETARG_DATUM(0));
	int32		which = PG_GETARG_INT32(1);
	const double *bounds = &g->box.xmin;

	if (which < 0 || which > 5)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_extent_bound: bound %d out of range [0, 5] (xmin ymin zmin xmax ymax zmax)", which)));
	if (g->flags & GX_FLAG_EMPTY)
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(bounds[which]);
}
