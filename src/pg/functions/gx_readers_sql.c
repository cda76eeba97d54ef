/*
 * gx_readers_sql.c: the readers of files of several named objects as set-returning functions, one row per
 * object (name, geom, properties): gx_read_gocad, gx_read_surpac and gx_read_surpac_dtm.
 */
#include "postgres.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "gx_pg.h"
#include "io/gx_io_objects.h"

PG_FUNCTION_INFO_V1(gx_read_gocad);
PG_FUNCTION_INFO_V1(gx_read_surpac);
PG_FUNCTION_INFO_V1(gx_read_surpac_dtm);

/* The text argument argnum (NULL when SQL NULL): its bytes and length. */
static const char *
text_arg(FunctionCallInfo fcinfo, int argnum, size_t *len)
{
	text	   *t;

	if (PG_ARGISNULL(argnum))
		return NULL;
	t = PG_GETARG_TEXT_PP(argnum);
	*len = VARSIZE_ANY_EXHDR(t);
	return VARDATA_ANY(t);
}

/*
 * The rows of objects read (ok) or the reader's error, named by the file argument argnum when it is not
 * NULL; every object gets the SRID argument srid_arg.
 */
static Datum
put_objects(FunctionCallInfo fcinfo, int ok, GxIoObjects *objects, const GxError *err, int srid_arg, int file_arg)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int32		srid = PG_ARGISNULL(srid_arg) ? 0 : gx_pg_check_srid(PG_GETARG_INT32(srid_arg));
	size_t		i;
	Datum		values[3];
	bool		nulls[3];
	GxIoObject *o;

	if (!ok && PG_ARGISNULL(file_arg))
		gx_pg_raise(err, ERRCODE_INVALID_TEXT_REPRESENTATION);
	if (!ok)
		gx_pg_raise_in(text_to_cstring(PG_GETARG_TEXT_PP(file_arg)), err, ERRCODE_INVALID_TEXT_REPRESENTATION);
	InitMaterializedSRF(fcinfo, 0);
	for (i = 0; i < objects->n; i++)
	{
		o = &objects->items[i];
		o->geom->srid = srid;
		nulls[0] = o->name == NULL;
		values[0] = o->name != NULL ? CStringGetTextDatum(o->name) : (Datum) 0;
		values[1] = gx_pg_datum(o->geom, o->size);
		o->geom = NULL;
		nulls[1] = false;
		nulls[2] = o->properties == NULL;
		values[2] = o->properties != NULL ? DirectFunctionCall1(jsonb_in, CStringGetDatum(o->properties)) : (Datum) 0;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	gx_io_objects_free(objects);
	return (Datum) 0;
}

/* gx_read_gocad(data text, srid int DEFAULT 0, file text DEFAULT NULL): TSurf, PLine, VSet and Well objects. */
Datum
gx_read_gocad(PG_FUNCTION_ARGS)
{
	size_t		len = 0;
	const char *data = text_arg(fcinfo, 0, &len);
	GxIoObjects objects = {0};
	GxError		err = {GX_OK, ""};
	int			ok = data == NULL || gx_from_gocad(data, len, &objects, &err);

	return put_objects(fcinfo, ok, &objects, &err, 1, 2);
}

/* gx_read_surpac(str text, srid int DEFAULT 0, file text DEFAULT NULL): a string file's segments. */
Datum
gx_read_surpac(PG_FUNCTION_ARGS)
{
	size_t		len = 0;
	const char *data = text_arg(fcinfo, 0, &len);
	GxIoObjects objects = {0};
	GxError		err = {GX_OK, ""};
	int			ok = data == NULL || gx_from_surpac_str(data, len, &objects, &err);

	return put_objects(fcinfo, ok, &objects, &err, 1, 2);
}

/* gx_read_surpac_dtm(dtm text, str text, srid int DEFAULT 0, file text DEFAULT NULL): a DTM's triangulations. */
Datum
gx_read_surpac_dtm(PG_FUNCTION_ARGS)
{
	size_t		len = 0,
				slen = 0;
	const char *data = text_arg(fcinfo, 0, &len);
	const char *str = text_arg(fcinfo, 1, &slen);
	GxIoObjects objects = {0};
	GxError		err = {GX_OK, ""};
	int			ok = data == NULL || gx_from_surpac_dtm(data, len, str, slen, &objects, &err);

	return put_objects(fcinfo, ok, &objects, &err, 2, 3);
}
