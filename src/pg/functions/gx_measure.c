/* gx_measure.c: gx_length (3D length of the linestrings) and gx_locate_along (the point at a length along a line). */
#include "postgres.h"
#include "fmgr.h"

#include "algorithm/gx_measure.h"
#include "gx_pg.h"

PG_FUNCTION_INFO_V1(gx_length);
PG_FUNCTION_INFO_V1(gx_locate_along);

Datum
gx_length(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(gx_geom_length(PG_GETARG_GXGEOM(0)));
}

Datum
gx_locate_along(PG_FUNCTION_ARGS)
{
	GxSerialized *line = PG_GETARG_GXGEOM(0);
	const GxNode *node = gx_body(line);
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	GxSerialized *g;
	double		p[3];
	size_t		point,
				size;

	if (node->type != GX_LINESTRING || node->count == 0)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_locate_along: the line must be a non-empty LINESTRING, not %s%s",
							   node->count == 0 ? "an empty " : "a ", gx_type_name(node->type))));
	if (!gx_polyline_locate(gx_node_coords(node), node->count, PG_GETARG_FLOAT8(1), p, &err))
	{
		snprintf(err.msg, sizeof(err.msg), "gx_locate_along: %s", pstrdup(err.msg));
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	}
	gx_builder_init(&b, &err);
	point = gx_builder_begin(&b, GX_POINT);
	gx_builder_coord(&b, p[0], p[1], p[2]);
	gx_builder_end(&b, point, 1);
	g = gx_builder_finish(&b, line->srid, &size);
	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	return gx_pg_datum(g, size);
}
