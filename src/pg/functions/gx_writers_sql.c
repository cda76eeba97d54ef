/*
 * gx_writers_sql.c: geometries out of the database in the formats other tools read: GeoJSON
 * (gx_asgeojson), STL (gx_asstl, gx_asstl_binary), Wavefront OBJ (gx_asobj) and binary glTF, one scene of
 * many rows (the aggregate gx_asglb). The writers are the core's (src/core/io).
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "gx_pg.h"
#include "io/gx_io.h"

PG_FUNCTION_INFO_V1(gx_asgeojson);
PG_FUNCTION_INFO_V1(gx_asstl);
PG_FUNCTION_INFO_V1(gx_asstl_binary);
PG_FUNCTION_INFO_V1(gx_asobj);
PG_FUNCTION_INFO_V1(gx_asglb_add);
PG_FUNCTION_INFO_V1(gx_asglb_final);

/* A writer's text as a text datum: NULL from the writer is memory; longer than a text value holds, 54000. */
static text *
text_result(char *s, size_t len, const char *fname)
{
	text	   *t;

	if (s == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("%s: out of memory", fname)));
	if (len > GX_MAX_TEXT_BYTES)
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						errmsg("%s: the output would exceed %d MB", fname, GX_MAX_TEXT_BYTES / 1000000)));
	t = cstring_to_text_with_len(s, (int) len);
	pfree(s);
	return t;
}

/* A binary writer's result as a bytea; NULL from the writer is its error, raised with the function's name. */
static bytea *
bytea_result(unsigned char *data, size_t len, GxError *err, const char *fname)
{
	if (data == NULL)
		gx_pg_raise_in(fname, err, ERRCODE_INTERNAL_ERROR);
	return gx_pg_bytea(data, len);
}

/* gx_asgeojson(g [, digits]): RFC 7946 with Z; shortest round-trip numbers, or at most digits decimals. */
Datum
gx_asgeojson(PG_FUNCTION_ARGS)
{
	GxSerialized *g = PG_GETARG_GXGEOM(0);
	int			digits = PG_NARGS() > 1 ? PG_GETARG_INT32(1) : -1;
	size_t		len = 0;
	char	   *s;

	if (PG_NARGS() > 1 && (digits < 0 || digits > 17))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_asgeojson: digits must be between 0 and 17, not %d", digits)));
	s = gx_to_geojson(g, digits, &len);
	PG_RETURN_TEXT_P(text_result(s, len, "gx_asgeojson"));
}

/* gx_asstl(g): ASCII STL whose numbers read back to the same doubles. */
Datum
gx_asstl(PG_FUNCTION_ARGS)
{
	GxError		err = {GX_OK, ""};
	size_t		len = 0;
	char	   *s = gx_to_stl_ascii(PG_GETARG_GXGEOM(0), &len, &err);

	if (s == NULL)
		gx_pg_raise_in("gx_asstl", &err, ERRCODE_INTERNAL_ERROR);
	PG_RETURN_TEXT_P(text_result(s, len, "gx_asstl"));
}

/* gx_asstl_binary(g): binary STL, every number rounded to float32. */
Datum
gx_asstl_binary(PG_FUNCTION_ARGS)
{
	GxError		err = {GX_OK, ""};
	size_t		len = 0;
	unsigned char *data = gx_to_stl_binary(PG_GETARG_GXGEOM(0), &len, &err);

	PG_RETURN_BYTEA_P(bytea_result(data, len, &err, "gx_asstl_binary"));
}

/* gx_asobj(g): Wavefront OBJ whose numbers read back to the same doubles. */
Datum
gx_asobj(PG_FUNCTION_ARGS)
{
	size_t		len = 0;
	char	   *s = gx_to_obj(PG_GETARG_GXGEOM(0), &len);

	PG_RETURN_TEXT_P(text_result(s, len, "gx_asobj"));
}

/* gx_asglb's state: the rows' geometries (copied into the aggregate's context) and colours. */
typedef struct GlbState
{
	GxGlbItem  *items;
	size_t		n,
				cap;
} GlbState;

/* A colour argument: 3 (RGB, opaque) or 4 (RGBA) numbers in [0, 1], no NULL. */
static void
read_colour(ArrayType *a, float *rgba)
{
	Datum	   *v;
	bool	   *nulls;
	int			n;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_asglb: the colour must be a one-dimensional array")));
	deconstruct_array(a, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &v, &nulls, &n);
	if (n != 3 && n != 4)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_asglb: the colour must have 3 (RGB) or 4 (RGBA) components, not %d", n)));
	rgba[3] = 1;
	for (int k = 0; k < n; k++)
	{
		double		c = nulls[k] ? NAN : DatumGetFloat8(v[k]);

		if (!(c >= 0 && c <= 1))
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							errmsg("gx_asglb: colour component %d must be a number in [0, 1]", k + 1)));
		rgba[k] = (float) c;
	}
}

/* gx_asglb_add(state, geom [, rgba]): not STRICT; a NULL geometry is skipped, a NULL colour is the default. */
Datum
gx_asglb_add(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt,
				old;
	GlbState   *st;
	GxGlbItem  *it;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("gx_asglb_add called outside an aggregate")));
	old = MemoryContextSwitchTo(aggcxt);
	st = PG_ARGISNULL(0) ? palloc0(sizeof(GlbState)) : (GlbState *) PG_GETARG_POINTER(0);
	if (!PG_ARGISNULL(1))
	{
		if (st->n == st->cap)
		{
			st->cap = Max(16, 2 * st->cap);
			st->items = st->items ? repalloc_huge(st->items, st->cap * sizeof(GxGlbItem)) :
				palloc_extended(st->cap * sizeof(GxGlbItem), MCXT_ALLOC_HUGE);
		}
		it = &st->items[st->n];
		memset(it, 0, sizeof(*it));
		it->geom = gx_pg_geom(PG_GETARG_DATUM(1));
		if (it->geom == (GxSerialized *) DatumGetPointer(PG_GETARG_DATUM(1)))
		{
			/* an in-line value lives in the row, not in the aggregate's context */
			size_t		size = VARSIZE(it->geom);
			GxSerialized *copy = palloc_extended(size, MCXT_ALLOC_HUGE);

			memcpy(copy, it->geom, size);
			it->geom = copy;
		}
		if (PG_NARGS() > 2 && !PG_ARGISNULL(2))
		{
			read_colour(PG_GETARG_ARRAYTYPE_P(2), it->rgba);
			it->has_colour = true;
		}
		st->n++;
	}
	MemoryContextSwitchTo(old);
	PG_RETURN_POINTER(st);
}

/* gx_asglb's final function: the binary glTF of every row (an empty scene for none). */
Datum
gx_asglb_final(PG_FUNCTION_ARGS)
{
	GlbState   *st = PG_ARGISNULL(0) ? NULL : (GlbState *) PG_GETARG_POINTER(0);
	GxError		err = {GX_OK, ""};
	size_t		len = 0;
	unsigned char *data = gx_to_glb(st ? st->items : NULL, st ? st->n : 0, &len, &err);

	PG_RETURN_BYTEA_P(bytea_result(data, len, &err, "gx_asglb"));
}
