/*
 * gx_tiles_sql.c: SQL functions of the tile co-location scheme (src/core/mining/gx_tiles.c): gx_tiles, the tiles a
 * geometry is stored in, and gx_owner_tile, the one tile that reports a pair. Both read only the box cached
 * in each value's header.
 */
#include "postgres.h"
#include "fmgr.h"
#include "funcapi.h"

#include "gx_pg.h"
#include "mining/gx_tiles.h"
#include "type/gx_box3d.h"

PG_FUNCTION_INFO_V1(gx_tiles_sql);
PG_FUNCTION_INFO_V1(gx_owner_tile_sql);

/* Tiles left to return: the range and the next tile's position in it (k slowest, i fastest). */
typedef struct TileCursor
{
	GxTileRange r;
	int32_t		ijk[3];
} TileCursor;

/* Moves c to the next tile of its range; false past the last one. */
static bool
tile_cursor_next(TileCursor *c)
{
	int			axis;

	for (axis = 0; axis < 3; axis++)
	{
		if (c->ijk[axis] < c->r.hi[axis])
		{
			c->ijk[axis]++;
			return true;
		}
		c->ijk[axis] = c->r.lo[axis];
	}
	return false;
}

/* gx_tiles(geom, tile_size, d DEFAULT 0): the tiles covered by the box of geom expanded by d/2 (none if EMPTY). */
Datum
gx_tiles_sql(PG_FUNCTION_ARGS)
{
	FuncCallContext *fctx;
	TileCursor *c;
	int64_t		id;

	if (SRF_IS_FIRSTCALL())
	{
		GxBox3D		box;
		GxTileRange r;
		GxError		err = {GX_OK, ""};
		bool		nonempty = gx_datum_get_box(PG_GETARG_DATUM(0), &box);

		/* arguments are checked for EMPTY too; the box of EMPTY is never expanded */
		if (!nonempty)
			box = (GxBox3D) {0, 0, 0, 0, 0, 0};
		if (!gx_tile_range(&box, PG_GETARG_FLOAT8(1), PG_GETARG_FLOAT8(2), &r, &err))
			gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
		fctx = SRF_FIRSTCALL_INIT();
		fctx->user_fctx = NULL;
		if (nonempty)
		{
			c = MemoryContextAlloc(fctx->multi_call_memory_ctx, sizeof(TileCursor));
			c->r = r;
			memcpy(c->ijk, r.lo, sizeof(c->ijk));
			fctx->user_fctx = c;
		}
	}
	fctx = SRF_PERCALL_SETUP();
	c = fctx->user_fctx;
	if (c == NULL)
		SRF_RETURN_DONE(fctx);
	id = gx_tile_id(c->ijk[0], c->ijk[1], c->ijk[2]);
	if (!tile_cursor_next(c))
		fctx->user_fctx = NULL;
	SRF_RETURN_NEXT(fctx, Int64GetDatum(id));
}

/* gx_owner_tile(a, b, tile_size, d DEFAULT 0): the tile reporting the pair; NULL when their boxes are apart. */
Datum
gx_owner_tile_sql(PG_FUNCTION_ARGS)
{
	GxBox3D		a, b;
	GxError		err = {GX_OK, ""};
	bool		found;
	int64_t		id;

	gx_datum_get_box(PG_GETARG_DATUM(0), &a);
	gx_datum_get_box(PG_GETARG_DATUM(1), &b);
	if (!gx_tile_owner(&a, &b, PG_GETARG_FLOAT8(2), PG_GETARG_FLOAT8(3), &found, &id, &err))
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	if (!found)
		PG_RETURN_NULL();
	PG_RETURN_INT64(id);
}
