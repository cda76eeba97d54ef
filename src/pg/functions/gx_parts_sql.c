/*
 * gx_parts_sql.c: the parts of a gxgeom in SQL (src/core/construct/gx_parts.c): gx_numgeometries,
 * gx_geometryn, gx_dump, the points of a LINESTRING (gx_numpoints, gx_pointn) and gx_collect of two
 * geometries or an array (the aggregate's final step).
 */
#include "postgres.h"
#include "fmgr.h"
#include "funcapi.h"
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/tuplestore.h"

#include "construct/gx_construct.h"
#include "gx_pg.h"

PG_FUNCTION_INFO_V1(gx_numgeometries);
PG_FUNCTION_INFO_V1(gx_geometryn);
PG_FUNCTION_INFO_V1(gx_dump);
PG_FUNCTION_INFO_V1(gx_numpoints);
PG_FUNCTION_INFO_V1(gx_pointn);
PG_FUNCTION_INFO_V1(gx_collect_pair);
PG_FUNCTION_INFO_V1(gx_collect_array);

/* The subtree at n as a gxgeom Datum of SRID srid. */
static Datum
node_datum(const GxNode *n, int32 srid)
{
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *g = gx_geom_of_node(n, srid, &size, &err);

	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	return gx_pg_datum(g, size);
}

Datum
gx_numgeometries(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) gx_num_parts(gx_pg_header(PG_GETARG_DATUM(0))));
}

/* Part n (1-based) of a collection; a geometry that is no collection is its own part 1; NULL out of range. */
Datum
gx_geometryn(PG_FUNCTION_ARGS)
{
	GxSerialized *g = PG_GETARG_GXGEOM(0);
	int32		n = PG_GETARG_INT32(1);
	const GxNode *node = gx_body(g);

	if (n < 1 || (uint32) n > gx_num_parts(g))
		PG_RETURN_NULL();
	if (node->type != GX_MULTIPOINT && node->type != GX_MULTILINESTRING && node->type != GX_GEOMETRYCOLLECTION)
		PG_RETURN_POINTER(g);
	node++;
	while (--n > 0)
		node = gx_node_next(node);
	return node_datum(node, g->srid);
}

typedef struct DumpRows
{
	ReturnSetInfo *rsinfo;
	int32		srid;
} DumpRows;

static bool
dump_row(void *ctx, const int *path, int depth, const GxNode *leaf)
{
	DumpRows   *d = ctx;
	Datum		elems[GX_MAX_DEPTH + 1];
	Datum		values[2];
	bool		nulls[2] = {false, false};

	for (int i = 0; i < depth; i++)
		elems[i] = Int32GetDatum(path[i]);
	values[0] = PointerGetDatum(construct_array(elems, depth, INT4OID, sizeof(int32), true, TYPALIGN_INT));
	values[1] = node_datum(leaf, d->srid);
	tuplestore_putvalues(d->rsinfo->setResult, d->rsinfo->setDesc, values, nulls);
	return true;
}

/* Every part that is no collection, with its path of 1-based positions; an EMPTY collection gives none. */
Datum
gx_dump(PG_FUNCTION_ARGS)
{
	GxSerialized *g = PG_GETARG_GXGEOM(0);
	DumpRows	d;

	InitMaterializedSRF(fcinfo, 0);
	d.rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	d.srid = g->srid;
	gx_dump_walk(g, dump_row, &d);
	return (Datum) 0;
}

/* The LINESTRING argument, or NULL when it is something else (as ST_NumPoints and ST_PointN have it). */
static const GxNode *
line_arg(GxSerialized *g)
{
	const GxNode *n = gx_body(g);

	return n->type == GX_LINESTRING && n->count > 0 ? n : NULL;
}

Datum
gx_numpoints(PG_FUNCTION_ARGS)
{
	const GxNode *line = line_arg(PG_GETARG_GXGEOM(0));

	if (line == NULL)
		PG_RETURN_NULL();
	PG_RETURN_INT32((int32) line->count);
}

/* Point n of a LINESTRING, 1-based; negative n counts from the end (-1 the last); NULL out of range. */
Datum
gx_pointn(PG_FUNCTION_ARGS)
{
	GxSerialized *g = PG_GETARG_GXGEOM(0);
	int64		n = PG_GETARG_INT32(1);
	const GxNode *line = line_arg(g);
	const double *p;
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	GxSerialized *out;
	size_t		node,
				size;

	if (line == NULL)
		PG_RETURN_NULL();
	if (n < 0)
		n += (int64) line->count + 1;
	if (n < 1 || n > (int64) line->count)
		PG_RETURN_NULL();
	p = gx_node_coords(line) + 3 * (n - 1);
	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_POINT);
	gx_builder_coord(&b, p[0], p[1], p[2]);
	gx_builder_end(&b, node, 1);
	out = gx_builder_finish(&b, g->srid, &size);
	if (out == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	return gx_pg_datum(out, size);
}

static Datum
collect(const GxSerialized *const *parts, size_t n)
{
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *g = gx_collect(parts, n, &size, &err);

	if (g == NULL)
		gx_pg_raise_in("gx_collect", &err, ERRCODE_INVALID_PARAMETER_VALUE);
	return gx_pg_datum(g, size);
}

Datum
gx_collect_pair(PG_FUNCTION_ARGS)
{
	const GxSerialized *parts[2] = {PG_GETARG_GXGEOM(0), PG_GETARG_GXGEOM(1)};

	return collect(parts, 2);
}

/* The array's geometries in order, NULLs skipped; NULL when there is none. */
Datum
gx_collect_array(PG_FUNCTION_ARGS)
{
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(0);
	Datum	   *elems;
	bool	   *nulls;
	int			n,
				kept = 0;
	const GxSerialized **parts;

	deconstruct_array(arr, ARR_ELEMTYPE(arr), -1, false, TYPALIGN_DOUBLE, &elems, &nulls, &n);
	parts = palloc(sizeof(GxSerialized *) * (n > 0 ? n : 1));
	for (int i = 0; i < n; i++)
		if (!nulls[i])
			parts[kept++] = gx_pg_geom(elems[i]);
	if (kept == 0)
		PG_RETURN_NULL();
	return collect(parts, (size_t) kept);
}
