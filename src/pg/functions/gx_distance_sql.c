/*
 * gx_distance_sql.c: the SQL distance functions over gxgeom (exact, src/core/operation/gx_distance.h): gx_dwithin,
 * gx_distance (the exact distance rounded once to the nearest double), gx_shortestline (the two closest
 * points, each coordinate rounded once), and gx_expand (a box grown by a distance, rounded outward: the
 * index condition of gx_dwithin, gx_support.c).
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "utils/lsyscache.h"

#include "algorithm/gx_round.h"
#include "gx_pg.h"
#include "operation/gx_distance.h"
#include "operation/gx_maxdistance.h"
#include "type/gx_box3d.h"

PG_FUNCTION_INFO_V1(gx_dwithin_sql);
PG_FUNCTION_INFO_V1(gx_distance_sql);
PG_FUNCTION_INFO_V1(gx_shortestline_sql);
PG_FUNCTION_INFO_V1(gx_expand_sql);
PG_FUNCTION_INFO_V1(gx_maxdistance_sql);
PG_FUNCTION_INFO_V1(gx_longestline_sql);
PG_FUNCTION_INFO_V1(gx_dfullywithin_sql);

/* A distance argument must be a finite number (NaN and infinities are refused, as PostGIS does for NaN). */
static double
distance_arg(FunctionCallInfo fcinfo, int argnum)
{
	double		d = PG_GETARG_FLOAT8(argnum);

	if (!isfinite(d))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("%s: distance must be a finite number, not %g", get_func_name(fcinfo->flinfo->fn_oid), d)));
	return d;
}

Datum
gx_dwithin_sql(PG_FUNCTION_ARGS)
{
	double		d = distance_arg(fcinfo, 2);
	GxError		err = {GX_OK, ""};
	int			r = gx_dwithin(PG_GETARG_GXGEOM(0), PG_GETARG_GXGEOM(1), d, &err);

	if (r < 0)
		gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
	PG_RETURN_BOOL(r == 1);
}

/* The exact closest pair of the two arguments into c (to be cleared then); false when either is EMPTY. */
static bool
closest_args(FunctionCallInfo fcinfo, GxClosest *c)
{
	GxError		err = {GX_OK, ""};
	int			r = gx_closest(PG_GETARG_GXGEOM(0), PG_GETARG_GXGEOM(1), c, &err);

	if (r < 0)
		gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
	return r == 1;
}

Datum
gx_distance_sql(PG_FUNCTION_ARGS)
{
	GxClosest	c;
	bool		found;
	double		d;

	found = closest_args(fcinfo, &c);
	if (!found)
		PG_RETURN_NULL();
	d = gx_mpq_sqrt_nearest(c.d2);
	gx_closest_clear(&c);
	PG_RETURN_FLOAT8(d);
}

Datum
gx_shortestline_sql(PG_FUNCTION_ARGS)
{
	GxClosest	c;
	bool		found;
	double		p[2][3];
	GxSerialized *a = PG_GETARG_GXGEOM(0);
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	GxSerialized *g;
	size_t		size,
				node;

	found = closest_args(fcinfo, &c);
	if (!found)
		PG_RETURN_NULL();
	for (int k = 0; k < 3; k++)
	{
		p[0][k] = gx_mpq_get_d_nearest(c.pa[k]);
		p[1][k] = gx_mpq_get_d_nearest(c.pb[k]);
	}
	gx_closest_clear(&c);
	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_LINESTRING);
	gx_builder_coord(&b, p[0][0], p[0][1], p[0][2]);
	gx_builder_coord(&b, p[1][0], p[1][1], p[1][2]);
	gx_builder_end(&b, node, 2);
	g = gx_builder_finish(&b, a->srid != 0 ? a->srid : PG_GETARG_GXGEOM(1)->srid, &size);
	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
	return gx_pg_datum(g, size);
}

/* The box of the geometry grown by d on every side, rounded outward; EMPTY for EMPTY or a negative d. */
Datum
gx_expand_sql(PG_FUNCTION_ARGS)
{
	double		d = distance_arg(fcinfo, 1);
	GxBox3D    *box = palloc(sizeof(GxBox3D));

	if (!gx_datum_get_box(PG_GETARG_DATUM(0), box) || d < 0)
		gx_box_set_empty(box);
	else
		*box = gx_box_expand(box, d);
	PG_RETURN_POINTER(box);
}

/* The exact farthest pair of the two arguments (d2 initialised here, cleared by the caller); false for EMPTY. */
static bool
farthest_args(FunctionCallInfo fcinfo, mpq_t d2, double *pa, double *pb)
{
	GxError		err = {GX_OK, ""};
	int			r;

	mpq_init(d2);
	r = gx_farthest(PG_GETARG_GXGEOM(0), PG_GETARG_GXGEOM(1), d2, pa, pb, &err);
	if (r < 0)
	{
		mpq_clear(d2);
		gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
	}
	return r == 1;
}

/* The largest 3D distance between the geometries, exact then rounded once; NULL for EMPTY. */
Datum
gx_maxdistance_sql(PG_FUNCTION_ARGS)
{
	mpq_t		d2;
	double		pa[3],
				pb[3],
				d;
	bool		found = farthest_args(fcinfo, d2, pa, pb);

	d = found ? gx_mpq_sqrt_nearest(d2) : 0;
	mpq_clear(d2);
	if (!found)
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(d);
}

/* The segment between the farthest vertices, from the first geometry to the second (exact: two vertices). */
Datum
gx_longestline_sql(PG_FUNCTION_ARGS)
{
	mpq_t		d2;
	double		pa[3],
				pb[3];
	bool		found = farthest_args(fcinfo, d2, pa, pb);
	GxSerialized *a = PG_GETARG_GXGEOM(0);
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	GxSerialized *g;
	size_t		size,
				node;

	mpq_clear(d2);
	if (!found)
		PG_RETURN_NULL();
	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_LINESTRING);
	gx_builder_coord(&b, pa[0], pa[1], pa[2]);
	gx_builder_coord(&b, pb[0], pb[1], pb[2]);
	gx_builder_end(&b, node, 2);
	g = gx_builder_finish(&b, a->srid != 0 ? a->srid : PG_GETARG_GXGEOM(1)->srid, &size);
	if (g == NULL)
		gx_pg_raise(&err, ERRCODE_DATA_EXCEPTION);
	return gx_pg_datum(g, size);
}

/* Every point of each geometry within d of every point of the other: the largest distance <= d, exactly. */
Datum
gx_dfullywithin_sql(PG_FUNCTION_ARGS)
{
	double		d = distance_arg(fcinfo, 2);
	mpq_t		d2,
				dd;
	double		pa[3],
				pb[3];
	bool		found = farthest_args(fcinfo, d2, pa, pb),
				within;

	mpq_init(dd);
	mpq_set_d(dd, d);
	mpq_mul(dd, dd, dd);
	within = found && d >= 0 && mpq_cmp(d2, dd) <= 0;
	mpq_clears(d2, dd, NULL);
	PG_RETURN_BOOL(within);
}
