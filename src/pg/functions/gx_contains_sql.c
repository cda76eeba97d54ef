/*
 * gx_contains_sql.c: gx_contains(a, b) and gx_within(b, a), exact containment (src/core/operation/
 * gx_contains.c), for two geometries and for a gxbox3d block in a solid. A solid container keeps its point
 * location index at the call site, as gx_locate's solid does.
 */
#include "postgres.h"
#include "fmgr.h"

#include "gx_pg.h"
#include "operation/gx_contains.h"
#include "type/gx_box3d.h"

PG_FUNCTION_INFO_V1(gx_contains_sql);
PG_FUNCTION_INFO_V1(gx_within_sql);
PG_FUNCTION_INFO_V1(gx_contains_box_sql);
PG_FUNCTION_INFO_V1(gx_within_box_sql);

/* Does geometry argument a_arg contain geometry argument b_arg? */
static bool
contains(FunctionCallInfo fcinfo, int a_arg, int b_arg, const char *fname)
{
	GxSerialized *head = gx_pg_header(PG_GETARG_DATUM(a_arg));
	GxSerialized *b = PG_GETARG_GXGEOM(b_arg);
	GxError		err = {GX_OK, ""};
	int			r;

	if ((head->flags & GX_FLAG_SOLID) && !(head->flags & GX_FLAG_EMPTY) && !(b->flags & GX_FLAG_EMPTY) &&
		gx_box_contains(&head->box, &b->box))
		r = gx_contains(head, gx_pg_solid_arg(fcinfo, a_arg), b, &err);
	else
		r = gx_contains(head->flags & GX_FLAG_SOLID ? head : PG_GETARG_GXGEOM(a_arg), NULL, b, &err);
	if (r < 0)
		gx_pg_raise_in(fname, &err, ERRCODE_INTERNAL_ERROR);
	return r == 1;
}

/* gx_contains(a gxgeom, b gxgeom): b lies in the closed point set of a (a solid's volume). */
Datum
gx_contains_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(contains(fcinfo, 0, 1, "gx_contains"));
}

/* gx_within(b gxgeom, a gxgeom) = gx_contains(a, b) */
Datum
gx_within_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(contains(fcinfo, 1, 0, "gx_within"));
}

/* Does geometry argument a_arg hold the whole box argument box_arg? Only a solid holds a box of volume. */
static bool
contains_box(FunctionCallInfo fcinfo, int a_arg, int box_arg, const char *fname)
{
	GxSerialized *head = gx_pg_header(PG_GETARG_DATUM(a_arg));
	const GxBox3D *box = PG_GETARG_GXBOX3D_P(box_arg);
	bool		volume = box->xmin < box->xmax && box->ymin < box->ymax && box->zmin < box->zmax;
	GxError		err = {GX_OK, ""};
	int			r;

	if (gx_box_is_empty(box) || (head->flags & GX_FLAG_EMPTY) || !gx_box_contains(&head->box, box) ||
		(volume && !(head->flags & GX_FLAG_SOLID)))
		return false;
	if (head->flags & GX_FLAG_SOLID)
		r = gx_contains_box(head, gx_pg_solid_arg(fcinfo, a_arg), box, &err);
	else
		r = gx_contains_box(PG_GETARG_GXGEOM(a_arg), NULL, box, &err);
	if (r < 0)
		gx_pg_raise_in(fname, &err, ERRCODE_INTERNAL_ERROR);
	return r == 1;
}

/* gx_contains(a gxgeom, box gxbox3d): a block lies wholly in the solid a. */
Datum
gx_contains_box_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(contains_box(fcinfo, 0, 1, "gx_contains"));
}

/* gx_within(box gxbox3d, a gxgeom) = gx_contains(a, box) */
Datum
gx_within_box_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(contains_box(fcinfo, 1, 0, "gx_within"));
}
