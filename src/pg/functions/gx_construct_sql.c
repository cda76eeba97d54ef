/*
 * gx_construct_sql.c: geometries made from others in SQL (src/core/construct): a gxbox3d as a gxgeom (the
 * cast), gx_extrude, gx_convexhull and gx_delaunay.
 */
#include "postgres.h"
#include "fmgr.h"

#include "construct/gx_construct.h"
#include "gx_pg.h"

PG_FUNCTION_INFO_V1(gx_box3d_geom);
PG_FUNCTION_INFO_V1(gx_extrude_sql);
PG_FUNCTION_INFO_V1(gx_convexhull_sql);
PG_FUNCTION_INFO_V1(gx_delaunay_sql);

/* A core result as a Datum, or its error raised with sqlstate for an invalid argument. */
static Datum
result(GxSerialized *g, size_t size, const GxError *err)
{
	if (g == NULL)
		gx_pg_raise(err, ERRCODE_INVALID_PARAMETER_VALUE);
	return gx_pg_datum(g, size);
}

/* CAST (gxbox3d AS gxgeom): the box as a solid, a flat box's triangles, a line or a point; SRID 0. */
Datum
gx_box3d_geom(PG_FUNCTION_ARGS)
{
	GxError		err = {GX_OK, ""};
	size_t		size = 0;
	GxSerialized *g = gx_box_geom((GxBox3D *) PG_GETARG_POINTER(0), 0, &size, &err);

	return result(g, size, &err);
}

Datum
gx_extrude_sql(PG_FUNCTION_ARGS)
{
	GxError		err = {GX_OK, ""};
	size_t		size = 0;
	GxSerialized *g = gx_extrude(PG_GETARG_GXGEOM(0), PG_GETARG_FLOAT8(1), &size, &err);

	return result(g, size, &err);
}

Datum
gx_convexhull_sql(PG_FUNCTION_ARGS)
{
	GxError		err = {GX_OK, ""};
	size_t		size = 0;
	GxSerialized *g = gx_convexhull(PG_GETARG_GXGEOM(0), &size, &err);

	return result(g, size, &err);
}

/* gx_delaunay(points [, breaklines]) */
Datum
gx_delaunay_sql(PG_FUNCTION_ARGS)
{
	GxError		err = {GX_OK, ""};
	size_t		size = 0;
	GxSerialized *g = gx_delaunay(PG_GETARG_GXGEOM(0), PG_NARGS() > 1 ? PG_GETARG_GXGEOM(1) : NULL, &size, &err);

	return result(g, size, &err);
}
