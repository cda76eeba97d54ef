/* gx_relate.c: SQL spatial predicates over gxgeom (exact, src/core/gx_intersects.c). */
#include "postgres.h"
#include "fmgr.h"

#include "gx_intersects.h"
#include "gx_pg.h"

PG_FUNCTION_INFO_V1(gx_intersects_sql);

Datum
gx_intersects_sql(PG_FUNCTION_ARGS)
{
	GxError		err = {GX_OK, ""};
	int			r = gx_intersects(PG_GETARG_GXGEOM(0), PG_GETARG_GXGEOM(1), &err);

	if (r < 0)
		gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
	PG_RETURN_BOOL(r == 1);
}
