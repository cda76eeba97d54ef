/*
 * gx_desurvey.c: gx_desurvey(collar, depth[], azimuth[], dip[], step_m, dip_positive_down): a drill hole's
 * trace by the minimum-curvature method (src/core/mining/gx_desurvey.c). Bad arguments raise 22023.
 */
#include "postgres.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/array.h"

#include "gx_pg.h"
#include "mining/gx_desurvey.h"

PG_FUNCTION_INFO_V1(gx_desurvey_sql);

/* The float8 elements of a one-dimensional array argument without NULLs; *n of them. */
static double *
float8_elements(FunctionCallInfo fcinfo, int argno, const char *name, int *n)
{
	ArrayType  *a = PG_GETARG_ARRAYTYPE_P(argno);
	Datum	   *elems;
	bool	   *nulls;
	double	   *v;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_desurvey: %s must be a one-dimensional array, not of %d dimensions", name,
							   ARR_NDIM(a))));
	deconstruct_array(a, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &elems, &nulls, n);
	v = palloc((*n + 1) * sizeof(double));
	for (int i = 0; i < *n; i++)
	{
		if (nulls[i])
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							errmsg("gx_desurvey: %s[%d] is NULL", name, i + 1)));
		v[i] = DatumGetFloat8(elems[i]);
	}
	return v;
}

Datum
gx_desurvey_sql(PG_FUNCTION_ARGS)
{
	GxError		err = {GX_OK, ""};
	GxDesurveyOptions opt = {!PG_ARGISNULL(4), PG_ARGISNULL(4) ? 0 : PG_GETARG_FLOAT8(4), false};
	int			nd, na, ni;
	GxSurvey	sv;
	GxSerialized *g;
	size_t		size;

	/* NULL in for NULL out, as a STRICT function, except step_m, whose NULL means no densification */
	for (int i = 0; i < 6; i++)
		if (i != 4 && PG_ARGISNULL(i))
			PG_RETURN_NULL();
	opt.dip_positive_down = PG_GETARG_BOOL(5);
	sv.depth = float8_elements(fcinfo, 1, "depth", &nd);
	sv.azimuth = float8_elements(fcinfo, 2, "azimuth", &na);
	sv.dip = float8_elements(fcinfo, 3, "dip", &ni);
	if (nd != na || nd != ni)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_desurvey: depth, azimuth and dip must have the same length, not %d, %d and %d",
							   nd, na, ni)));
	sv.n = (size_t) nd;
	g = gx_desurvey(PG_GETARG_GXGEOM(0), &sv, &opt, &size, &err);
	if (g == NULL)
		gx_pg_raise_in("gx_desurvey", &err, ERRCODE_INVALID_PARAMETER_VALUE);
	return gx_pg_datum(g, size);
}
