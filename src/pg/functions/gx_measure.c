/*
 * gx_measure.c: gx_length (3D length of the linestrings), gx_locate_along (the point at a length along a
 * line) and gx_line_substring (the piece between two lengths).
 */
#include "postgres.h"
#include "fmgr.h"

#include "algorithm/gx_measure.h"
#include "gx_pg.h"
#include "operation/gx_intercepts.h"

PG_FUNCTION_INFO_V1(gx_length);
PG_FUNCTION_INFO_V1(gx_locate_along);
PG_FUNCTION_INFO_V1(gx_line_substring);

Datum
gx_length(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(gx_geom_length(PG_GETARG_GXGEOM(0)));
}

static void
check_line(const GxSerialized *line, const char *fname)
{
	const GxNode *node = gx_body(line);

	if (node->type != GX_LINESTRING || node->count == 0)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("%s: the line must be a non-empty LINESTRING, not %s%s", fname,
							   node->count == 0 ? "an empty " : "a ", gx_type_name(node->type))));
}

/*
 * The piece of LINESTRING line between lengths from and to along it (gx_polyline_substring: a LINESTRING, or
 * a POINT when from == to), with the line's SRID; errors are prefixed with fname.
 */
static Datum
line_substring(const GxSerialized *line, double from, double to, const char *fname)
{
	const GxNode *node = gx_body(line);
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	GxSerialized *g;
	double	   *p;
	size_t		n,
				part,
				size;

	check_line(line, fname);
	if (!gx_polyline_substring(gx_node_coords(node), node->count, from, to, &p, &n, &err))
		gx_pg_raise_in(fname, &err, ERRCODE_INVALID_PARAMETER_VALUE);
	gx_builder_init(&b, &err);
	part = gx_builder_begin(&b, n == 1 ? GX_POINT : GX_LINESTRING);
	for (size_t i = 0; i < n; i++)
		gx_builder_coord(&b, p[3 * i], p[3 * i + 1], p[3 * i + 2]);
	gx_builder_end(&b, part, (uint32) n);
	g = gx_builder_finish(&b, line->srid, &size);
	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	pfree(p);
	return gx_pg_datum(g, size);
}

static bool
same_point(const double *p, const double *q)
{
	return p[0] == q[0] && p[1] == q[1] && p[2] == q[2];
}

/*
 * Is the piece one point: its ends and the line's vertices between them all the same point (a line that
 * touches the solid at one of its own vertices, or at a point of zero-length segments)?
 */
static bool
piece_is_point(const double *c, const GxInterval *iv)
{
	if (!same_point(iv->from_point, iv->to_point))
		return false;
	for (size_t v = iv->from_segment + 1; v <= iv->to_segment; v++)
		if (!same_point(c + 3 * v, iv->from_point))
			return false;
	return true;
}

Datum
gx_pg_intercept_piece(const GxSerialized *line, const GxInterval *iv)
{
	const double *c = gx_node_coords(gx_body(line));
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	GxSerialized *g;
	double		last[3];
	size_t		part,
				size,
				n = 1;

	gx_builder_init(&b, &err);
	if (piece_is_point(c, iv))
	{
		part = gx_builder_begin(&b, GX_POINT);
		gx_builder_coord(&b, iv->from_point[0], iv->from_point[1], iv->from_point[2]);
	}
	else
	{
		/* the start, the line's vertices between (each once), the end */
		part = gx_builder_begin(&b, GX_LINESTRING);
		memcpy(last, iv->from_point, sizeof(last));
		gx_builder_coord(&b, last[0], last[1], last[2]);
		for (size_t v = iv->from_segment + 1; v <= iv->to_segment + 1; v++)
		{
			const double *p = v <= iv->to_segment ? c + 3 * v : iv->to_point;

			if (same_point(p, last))
				continue;
			memcpy(last, p, sizeof(last));
			gx_builder_coord(&b, last[0], last[1], last[2]);
			n++;
		}
	}
	gx_builder_end(&b, part, (uint32) n);
	g = gx_builder_finish(&b, line->srid, &size);
	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	return gx_pg_datum(g, size);
}

/* gx_line_substring(line, from_m, to_m): the piece of the line between two lengths along it. */
Datum
gx_line_substring(PG_FUNCTION_ARGS)
{
	return line_substring(PG_GETARG_GXGEOM(0), PG_GETARG_FLOAT8(1), PG_GETARG_FLOAT8(2), "gx_line_substring");
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

	check_line(line, "gx_locate_along");
	if (!gx_polyline_locate(gx_node_coords(node), node->count, PG_GETARG_FLOAT8(1), p, &err))
		gx_pg_raise_in("gx_locate_along", &err, ERRCODE_INVALID_PARAMETER_VALUE);
	gx_builder_init(&b, &err);
	point = gx_builder_begin(&b, GX_POINT);
	gx_builder_coord(&b, p[0], p[1], p[2]);
	gx_builder_end(&b, point, 1);
	g = gx_builder_finish(&b, line->srid, &size);
	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	return gx_pg_datum(g, size);
}
