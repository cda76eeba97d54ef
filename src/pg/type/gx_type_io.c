/* gx_type_io.c: the gxgeom type's text (EWKT) and binary (EWKB) I/O, and the WKT/WKB/STL/OBJ/DXF conversion functions. */
#include "postgres.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"

#include "gx_pg.h"
#include "io/gx_io.h"

PG_FUNCTION_INFO_V1(gxgeom_in);
PG_FUNCTION_INFO_V1(gxgeom_out);
PG_FUNCTION_INFO_V1(gxgeom_recv);
PG_FUNCTION_INFO_V1(gxgeom_send);
PG_FUNCTION_INFO_V1(gx_astext);
PG_FUNCTION_INFO_V1(gx_asewkt);
PG_FUNCTION_INFO_V1(gx_asbinary);
PG_FUNCTION_INFO_V1(gx_asewkb);
PG_FUNCTION_INFO_V1(gx_geomfromwkb);
PG_FUNCTION_INFO_V1(gx_geomfromtext);
PG_FUNCTION_INFO_V1(gx_geomfromstl);
PG_FUNCTION_INFO_V1(gx_geomfromobj);
PG_FUNCTION_INFO_V1(gx_geomfromdxf);

static Datum
from_wkb(const unsigned char *wkb, size_t len)
{
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *g = gx_from_wkb(wkb, len, &size, &err);

	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_BINARY_REPRESENTATION);
	return gx_pg_datum(g, size);
}

static bytea *
to_wkb(const GxSerialized *g, GxWkbVariant variant)
{
	size_t		len;
	unsigned char *wkb = gx_to_wkb(g, variant, &len);

	return gx_pg_bytea(wkb, len);
}

Datum
gxgeom_in(PG_FUNCTION_ARGS)
{
	const char *wkt = PG_GETARG_CSTRING(0);
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *g = gx_from_wkt(wkt, &size, &err);

	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_TEXT_REPRESENTATION);
	return gx_pg_datum(g, size);
}

Datum
gxgeom_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_CSTRING(gx_to_wkt(PG_GETARG_GXGEOM(0), 1, NULL));
}

Datum
gxgeom_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	const unsigned char *wkb = (const unsigned char *) buf->data + buf->cursor;
	size_t		len = buf->len - buf->cursor;

	buf->cursor = buf->len;
	return from_wkb(wkb, len);
}

Datum
gxgeom_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(to_wkb(PG_GETARG_GXGEOM(0), GX_WKB_EWKB));
}

Datum
gx_astext(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(gx_to_wkt(PG_GETARG_GXGEOM(0), 0, NULL)));
}

Datum
gx_asewkt(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(gx_to_wkt(PG_GETARG_GXGEOM(0), 1, NULL)));
}

Datum
gx_asbinary(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(to_wkb(PG_GETARG_GXGEOM(0), GX_WKB_ISO));
}

Datum
gx_asewkb(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(to_wkb(PG_GETARG_GXGEOM(0), GX_WKB_EWKB));
}

/* gx_geomfromwkb(wkb bytea [, srid int]): the SRID argument, when given, overrides an EWKB SRID. */
Datum
gx_geomfromwkb(PG_FUNCTION_ARGS)
{
	bytea	   *wkb = PG_GETARG_BYTEA_PP(0);
	GxSerialized *g = (GxSerialized *) DatumGetPointer(
		from_wkb((const unsigned char *) VARDATA_ANY(wkb), VARSIZE_ANY_EXHDR(wkb)));

	if (PG_NARGS() > 1)
		g->srid = gx_pg_check_srid(PG_GETARG_INT32(1));
	PG_RETURN_POINTER(g);
}

/* gx_geomfromtext(wkt text [, srid int]) */
Datum
gx_geomfromtext(PG_FUNCTION_ARGS)
{
	char	   *wkt = text_to_cstring(PG_GETARG_TEXT_PP(0));
	GxSerialized *g = (GxSerialized *) DatumGetPointer(DirectFunctionCall1(gxgeom_in, CStringGetDatum(wkt)));

	if (PG_NARGS() > 1)
		g->srid = gx_pg_check_srid(PG_GETARG_INT32(1));
	PG_RETURN_POINTER(g);
}

/* gx_geomfromstl(stl bytea [, srid int]): an STL mesh (binary or ASCII) as a TIN. */
Datum
gx_geomfromstl(PG_FUNCTION_ARGS)
{
	bytea	   *stl = PG_GETARG_BYTEA_PP(0);
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *g = gx_from_stl((const unsigned char *) VARDATA_ANY(stl), VARSIZE_ANY_EXHDR(stl), &size, &err);

	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_BINARY_REPRESENTATION);
	if (PG_NARGS() > 1)
		g->srid = gx_pg_check_srid(PG_GETARG_INT32(1));
	return gx_pg_datum(g, size);
}

/* A reader of text files (OBJ, DXF) applied to argument 0, with the SRID of argument 1 when given. */
static Datum
from_text_file(FunctionCallInfo fcinfo, GxSerialized *(*reader) (const char *, size_t, size_t *, GxError *))
{
	text	   *file = PG_GETARG_TEXT_PP(0);
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *g = reader(VARDATA_ANY(file), VARSIZE_ANY_EXHDR(file), &size, &err);

	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_TEXT_REPRESENTATION);
	if (PG_NARGS() > 1)
		g->srid = gx_pg_check_srid(PG_GETARG_INT32(1));
	return gx_pg_datum(g, size);
}

/* gx_geomfromobj(obj text [, srid int]): a Wavefront OBJ file's faces, polylines and points. */
Datum
gx_geomfromobj(PG_FUNCTION_ARGS)
{
	return from_text_file(fcinfo, gx_from_obj);
}

/* gx_geomfromdxf(dxf text [, srid int]): an ASCII DXF file's 3DFACE, LINE, 3D POLYLINE and polyface mesh entities. */
Datum
gx_geomfromdxf(PG_FUNCTION_ARGS)
{
	return from_text_file(fcinfo, gx_from_dxf);
}
