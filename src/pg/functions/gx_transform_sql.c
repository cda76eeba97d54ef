/*
 * gx_transform_sql.c: moving geometries in SQL: gx_affine (a 3x3 matrix and an offset; gx_translate and
 * gx_scale are SQL wrappers of it), gx_rotatez about the origin or a point, each coordinate the exact value
 * rounded once (src/core/construct/gx_affine.c), and gx_transform between coordinate systems through PROJ
 * when the extension was built with it (GX_HAVE_PROJ).
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"

#include "construct/gx_construct.h"
#include "gx_pg.h"

#ifdef GX_HAVE_PROJ
#include <proj.h>
#endif

PG_FUNCTION_INFO_V1(gx_affine_sql);
PG_FUNCTION_INFO_V1(gx_rotatez_sql);
PG_FUNCTION_INFO_V1(gx_transform_sql);

static Datum
affine_datum(GxSerialized *g, const GxAffine *t, const char *fname)
{
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *out = gx_affine(g, t, fname, &size, &err);

	if (out == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	return gx_pg_datum(out, size);
}

/* gx_affine(g, a, b, c, d, e, f, g, h, i, xoff, yoff, zoff): x' = a x + b y + c z + xoff, and so on (ST_Affine). */
Datum
gx_affine_sql(PG_FUNCTION_ARGS)
{
	GxAffine	t = {{{0}}};

	for (int k = 0; k < 3; k++)
	{
		for (int j = 0; j < 3; j++)
			t.m[k][j] = PG_GETARG_FLOAT8(1 + 3 * k + j);
		t.ca[k][0] = PG_GETARG_FLOAT8(10 + k);
		t.cb[k][0] = 1;
	}
	return affine_datum(PG_GETARG_GXGEOM(0), &t, "gx_affine");
}

/*
 * cos(angle) and sin(angle) as the rotation's entries: the doubles nearest to them (the C library's), except
 * at the doubles k * (pi/2) for whole k (|k| <= 2^20), pi/2 being the double pi()/2: there exactly 0 and +-1.
 */
static void
rotation(double angle, double *c, double *s)
{
	static const double cq[4] = {1, 0, -1, 0},
				sq[4] = {0, 1, 0, -1};
	double		k = nearbyint(angle / M_PI_2);

	if (!isfinite(angle))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_rotatez: the angle must be a finite number, not %g", angle)));
	if (fabs(k) <= 0x1p20 && k * M_PI_2 == angle)
	{
		int			q = (int) fmod(fmod(k, 4) + 4, 4);

		*c = cq[q];
		*s = sq[q];
		return;
	}
	*c = cos(angle);
	*s = sin(angle);
}

/* gx_rotatez(g, angle [, origin POINT]): counter-clockwise seen from +z, about the origin or the point's axis. */
Datum
gx_rotatez_sql(PG_FUNCTION_ARGS)
{
	GxSerialized *g = PG_GETARG_GXGEOM(0);
	double		c,
				s,
				ox = 0,
				oy = 0;
	GxAffine	t = {{{0}}};

	rotation(PG_GETARG_FLOAT8(1), &c, &s);
	if (PG_NARGS() > 2)
	{
		GxSerialized *o = PG_GETARG_GXGEOM(2);
		const GxNode *n = gx_body(o);

		if (n->type != GX_POINT || n->count != 1)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							errmsg("gx_rotatez: the origin must be a POINT, not %s%s", gx_type_name(n->type),
								   n->count == 0 ? " EMPTY" : "")));
		ox = gx_node_coords(n)[0];
		oy = gx_node_coords(n)[1];
	}
	/* x' = c x - s y + (ox - c ox + s oy), y' = s x + c y + (oy - s ox - c oy): exact before the rounding */
	t.m[0][0] = c;
	t.m[0][1] = -s;
	t.m[1][0] = s;
	t.m[1][1] = c;
	t.m[2][2] = 1;
	t.ca[0][0] = 1, t.cb[0][0] = ox;
	t.ca[0][1] = -c, t.cb[0][1] = ox;
	t.ca[0][2] = s, t.cb[0][2] = oy;
	t.ca[1][0] = 1, t.cb[1][0] = oy;
	t.ca[1][1] = -s, t.cb[1][1] = ox;
	t.ca[1][2] = -c, t.cb[1][2] = oy;
	return affine_datum(g, &t, "gx_rotatez");
}

#ifdef GX_HAVE_PROJ
/* The backend's PROJ context and the last transformation asked for, kept between calls. */
static PJ_CONTEXT *proj_ctx;
static PJ  *proj_last;
static int32 proj_from,
			proj_to;

static bool
proj_points(void *ctx, double *xyz, size_t n, GxError *err)
{
	PJ		   *p = ctx;
	size_t		stride = 3 * sizeof(double);

	proj_errno_reset(p);
	proj_trans_generic(p, PJ_FWD, xyz, stride, n, xyz + 1, stride, n, xyz + 2, stride, n, NULL, 0, 0);
	if (proj_errno(p) != 0)
	{
		gx_error_set(err, GX_ERR_RANGE, "gx_transform: PROJ could not transform a point: %s",
					 proj_context_errno_string(proj_ctx, proj_errno(p)));
		return false;
	}
	return true;
}

/* The transformation from EPSG:from to EPSG:to, axes in x = easting/longitude order as PostGIS has them. */
static PJ *
transformation(int32 from, int32 to)
{
	char		a[32],
				b[32];
	PJ		   *p,
			   *norm;

	if (proj_last && proj_from == from && proj_to == to)
		return proj_last;
	if (proj_ctx == NULL)
		proj_ctx = proj_context_create();
	snprintf(a, sizeof(a), "EPSG:%d", from);
	snprintf(b, sizeof(b), "EPSG:%d", to);
	p = proj_create_crs_to_crs(proj_ctx, a, b, NULL);
	if (p == NULL)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_transform: PROJ has no transformation from %s to %s: %s", a, b,
							   proj_context_errno_string(proj_ctx, proj_context_errno(proj_ctx)))));
	norm = proj_normalize_for_visualization(proj_ctx, p);
	proj_destroy(p);
	if (norm == NULL)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_transform: PROJ cannot order the axes of %s to %s", a, b)));
	if (proj_last)
		proj_destroy(proj_last);
	proj_last = norm;
	proj_from = from;
	proj_to = to;
	return norm;
}
#endif

/* gx_transform(g, srid): g's points from its SRID's coordinate system to srid's, both EPSG codes. */
Datum
gx_transform_sql(PG_FUNCTION_ARGS)
{
	GxSerialized *g = PG_GETARG_GXGEOM(0);
	int32		to = gx_pg_check_srid(PG_GETARG_INT32(1));

#ifdef GX_HAVE_PROJ
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *out;

	if (g->srid == 0 || to == 0)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_transform: both SRIDs must be EPSG codes, not 0 (unknown): from %d to %d",
							   g->srid, to)));
	if (g->srid == to)
		PG_RETURN_POINTER(g);
	out = gx_map_points(g, proj_points, transformation(g->srid, to), to, "gx_transform", &size, &err);
	if (out == NULL)
		gx_pg_raise(&err, ERRCODE_INVALID_PARAMETER_VALUE);
	return gx_pg_datum(out, size);
#else
	(void) g;
	(void) to;
	ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					errmsg("gx_transform: gpuexact was built without PROJ"),
					errhint("Install PROJ's development files (Debian: libproj-dev) and rebuild gpuexact.")));
	PG_RETURN_NULL();
#endif
}
