/*
 * gx_writers_sql.c: geometries out of the database in the formats other tools read: GeoJSON
 * (gx_asgeojson), STL (gx_asstl, gx_asstl_binary), Wavefront OBJ (gx_asobj), GOCAD (gx_asgocad), Surpac
 * (gx_assurpac, gx_assurpac_dtm), and one scene of many rows as binary glTF (the aggregate gx_asglb) or as an
 * HTML page that shows it in a browser (the aggregate gx_ashtml); these hold their rows packed and stop as
 * soon as their index counts alone make the file too long for a value. The writers are the core's
 * (src/core/io).
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "gx_pg.h"
#include "geom/gx_pack.h"
#include "io/gx_io.h"
#include "io/gx_io_objects.h"

PG_FUNCTION_INFO_V1(gx_asgeojson);
PG_FUNCTION_INFO_V1(gx_asstl);
PG_FUNCTION_INFO_V1(gx_asstl_binary);
PG_FUNCTION_INFO_V1(gx_asobj);
PG_FUNCTION_INFO_V1(gx_asgocad);
PG_FUNCTION_INFO_V1(gx_assurpac);
PG_FUNCTION_INFO_V1(gx_assurpac_dtm);
PG_FUNCTION_INFO_V1(gx_asglb_add);
PG_FUNCTION_INFO_V1(gx_asglb_final);
PG_FUNCTION_INFO_V1(gx_ashtml_add);
PG_FUNCTION_INFO_V1(gx_ashtml_final);

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

/* gx_asgocad(g, name): GOCAD ASCII, a TSurf of the triangles, a PLine of the lines, a VSet of the points. */
Datum
gx_asgocad(PG_FUNCTION_ARGS)
{
	GxError		err = {GX_OK, ""};
	size_t		len = 0;
	char	   *s = gx_to_gocad(PG_GETARG_GXGEOM(0), text_to_cstring(PG_GETARG_TEXT_PP(1)), &len, &err);

	if (s == NULL)
		gx_pg_raise_in("gx_asgocad", &err, ERRCODE_INTERNAL_ERROR);
	PG_RETURN_TEXT_P(text_result(s, len, "gx_asgocad"));
}

/* gx_assurpac(g, string): a Surpac string file of the lines and points. */
Datum
gx_assurpac(PG_FUNCTION_ARGS)
{
	GxError		err = {GX_OK, ""};
	size_t		len = 0;
	char	   *s = gx_to_surpac(PG_GETARG_GXGEOM(0), PG_GETARG_INT32(1), &len, &err);

	if (s == NULL)
		gx_pg_raise_in("gx_assurpac", &err, ERRCODE_INTERNAL_ERROR);
	PG_RETURN_TEXT_P(text_result(s, len, "gx_assurpac"));
}

/* gx_assurpac_dtm(g, name, OUT str, OUT dtm): a Surpac DTM of the triangles and its string file. */
Datum
gx_assurpac_dtm(PG_FUNCTION_ARGS)
{
	GxError		err = {GX_OK, ""};
	size_t		slen = 0,
				dlen = 0;
	char	   *str,
			   *dtm;
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("gx_assurpac_dtm: a record is expected")));
	if (!gx_to_surpac_dtm(PG_GETARG_GXGEOM(0), text_to_cstring(PG_GETARG_TEXT_PP(1)), &str, &slen, &dtm, &dlen, &err))
		gx_pg_raise_in("gx_assurpac_dtm", &err, ERRCODE_INTERNAL_ERROR);
	values[0] = PointerGetDatum(text_result(str, slen, "gx_assurpac_dtm"));
	values[1] = PointerGetDatum(text_result(dtm, dlen, "gx_assurpac_dtm"));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
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

/*
 * The state of gx_asglb and gx_ashtml: the rows' geometries (in the aggregate's context, packed when that
 * pays), colours and, for gx_ashtml, labels, and the least size of their glTF file.
 */
typedef struct SceneState
{
	GxGlbItem  *items;
	char	  **labels;			/* gx_ashtml's: one per item, NULL for none */
	size_t		n,
				cap;
	size_t		least;
} SceneState;

/* A colour argument: 3 (RGB, opaque) or 4 (RGBA) numbers in [0, 1], no NULL. */
static void
read_colour(ArrayType *a, float *rgba, const char *fname)
{
	Datum	   *v;
	bool	   *nulls;
	int			n;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("%s: the colour must be a one-dimensional array", fname)));
	deconstruct_array(a, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &v, &nulls, &n);
	if (n != 3 && n != 4)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("%s: the colour must have 3 (RGB) or 4 (RGBA) components, not %d", fname, n)));
	rgba[3] = 1;
	for (int k = 0; k < n; k++)
	{
		double		c = nulls[k] ? NAN : DatumGetFloat8(v[k]);

		if (!(c >= 0 && c <= 1))
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							errmsg("%s: colour component %d must be a number in [0, 1]", fname, k + 1)));
		rgba[k] = (float) c;
	}
}

/* The ERROR of a scene whose file would pass the size of a value. */
static void
scene_too_large(const char *fname, const char *msg)
{
	ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					errmsg("%s: %s", fname, msg),
					errhint("Export the rows in parts, e.g. with tools/gx-export and a WHERE clause per file.")));
}

/*
 * A row's geometry as the state keeps it, in the current (the aggregate's) context: packed, as stored or
 * packed here when that pays, else a copy of its own.
 */
static GxSerialized *
state_geom(Datum d, const char *fname)
{
	GxSerialized *v = (GxSerialized *) PG_DETOAST_DATUM(d);
	GxSerialized *packed;
	GxError		err = {GX_OK, ""};
	size_t		size = VARSIZE(v);

	if (v->flags & GX_FLAG_PACKED)
	{
		if (!gx_unpacked_size(v, size, &size, &err))
			gx_pg_raise_in(fname, &err, ERRCODE_DATA_CORRUPTED);
	}
	else if (size >= GX_PACK_MIN_BYTES && (packed = gx_pack(v, size, &size, &err)) != NULL)
	{
		SET_VARSIZE(packed, size);
		if ((Pointer) v != DatumGetPointer(d))
			pfree(v);
		return packed;
	}
	else if (err.code != GX_OK)
		gx_pg_raise_in(fname, &err, ERRCODE_INTERNAL_ERROR);
	if ((Pointer) v == DatumGetPointer(d))
	{
		/* an in-line value lives in the row, not in the aggregate's context */
		GxSerialized *copy = palloc_extended(VARSIZE(v), MCXT_ALLOC_HUGE);

		memcpy(copy, v, VARSIZE(v));
		v = copy;
	}
	return v;
}

/*
 * The state function of gx_asglb and gx_ashtml (html): (state, geom [, rgba [, label]]); not STRICT: a NULL
 * geometry is skipped, a NULL colour is the default, a NULL label no legend entry. Stops as soon as the
 * rows' index counts alone make the file longer than its result type holds.
 */
static Datum
scene_add(FunctionCallInfo fcinfo, bool html)
{
	const char *fname = html ? "gx_ashtml" : "gx_asglb";
	MemoryContext aggcxt,
				old;
	SceneState *st;
	GxGlbItem  *it;
	char		msg[200];

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("%s_add called outside an aggregate", fname)));
	old = MemoryContextSwitchTo(aggcxt);
	st = PG_ARGISNULL(0) ? palloc0(sizeof(SceneState)) : (SceneState *) PG_GETARG_POINTER(0);
	if (!PG_ARGISNULL(1))
	{
		if (st->n == st->cap)
		{
			st->cap = Max(16, 2 * st->cap);
			st->items = st->items ? repalloc_huge(st->items, st->cap * sizeof(GxGlbItem)) :
				palloc_extended(st->cap * sizeof(GxGlbItem), MCXT_ALLOC_HUGE);
			if (html)
				st->labels = st->labels ? repalloc_huge(st->labels, st->cap * sizeof(char *)) :
					palloc_extended(st->cap * sizeof(char *), MCXT_ALLOC_HUGE);
		}
		it = &st->items[st->n];
		memset(it, 0, sizeof(*it));
		it->geom = state_geom(PG_GETARG_DATUM(1), fname);
		if (PG_NARGS() > 2 && !PG_ARGISNULL(2))
		{
			read_colour(PG_GETARG_ARRAYTYPE_P(2), it->rgba, fname);
			it->has_colour = true;
		}
		if (html)
			st->labels[st->n] = PG_NARGS() > 3 && !PG_ARGISNULL(3) ? text_to_cstring(PG_GETARG_TEXT_PP(3)) : NULL;
		st->n++;
		st->least += gx_glb_least_bytes(it->geom);
		if (!html && st->least > GX_MAX_SIZE)
		{
			snprintf(msg, sizeof(msg), "the glTF file of the first %zu rows would be more than %zu bytes, "
					 "the most a bytea holds", st->n, (size_t) GX_MAX_SIZE);
			scene_too_large(fname, msg);
		}
		if (html && gx_html_least_bytes(st->least) > GX_MAX_TEXT_BYTES)
		{
			snprintf(msg, sizeof(msg), "the HTML page of the first %zu rows would be more than %d bytes, "
					 "the most gpuexact writes as text", st->n, GX_MAX_TEXT_BYTES);
			scene_too_large(fname, msg);
		}
	}
	MemoryContextSwitchTo(old);
	PG_RETURN_POINTER(st);
}

/* gx_asglb_add(state, geom [, rgba]) */
Datum
gx_asglb_add(PG_FUNCTION_ARGS)
{
	return scene_add(fcinfo, false);
}

/* gx_asglb's final function: the binary glTF of every row (an empty scene for none), made as the bytea itself. */
Datum
gx_asglb_final(PG_FUNCTION_ARGS)
{
	SceneState *st = PG_ARGISNULL(0) ? NULL : (SceneState *) PG_GETARG_POINTER(0);
	GxError		err = {GX_OK, ""};
	size_t		len = 0;
	bytea	   *data = (bytea *) gx_to_glb(st ? st->items : NULL, st ? st->n : 0, GX_MAX_SIZE, VARHDRSZ, &len, &err);

	if (data == NULL && err.code == GX_ERR_LIMIT)
		scene_too_large("gx_asglb", err.msg);
	if (data == NULL)
		gx_pg_raise_in("gx_asglb", &err, ERRCODE_INTERNAL_ERROR);
	SET_VARSIZE(data, VARHDRSZ + len);
	PG_RETURN_BYTEA_P(data);
}

/* gx_ashtml_add(state, geom [, rgba [, label]]) */
Datum
gx_ashtml_add(PG_FUNCTION_ARGS)
{
	return scene_add(fcinfo, true);
}

/* gx_ashtml's final function: the HTML page of every row (an empty scene for none), made as the text itself. */
Datum
gx_ashtml_final(PG_FUNCTION_ARGS)
{
	SceneState *st = PG_ARGISNULL(0) ? NULL : (SceneState *) PG_GETARG_POINTER(0);
	GxError		err = {GX_OK, ""};
	size_t		len = 0;
	text	   *page = (text *) gx_to_html(st ? st->items : NULL, st ? (const char *const *) st->labels : NULL,
										   st ? st->n : 0, GX_MAX_TEXT_BYTES, VARHDRSZ, &len, &err);

	if (page == NULL && err.code == GX_ERR_LIMIT)
		scene_too_large("gx_ashtml", err.msg);
	if (page == NULL)
		gx_pg_raise_in("gx_ashtml", &err, ERRCODE_INTERNAL_ERROR);
	SET_VARSIZE(page, VARHDRSZ + len);
	PG_RETURN_TEXT_P(page);
}
