/*
 * gx_desurvey.c: drill-hole traces by the minimum-curvature method. Between two survey stations the hole is
 * the circular arc tangent to both directions; its chord is L * RF/2 * (t1 + t2) with the dogleg beta
 * between t1 and t2 and the ratio factor RF = 2/beta * tan(beta/2) (RF -> 1 as beta -> 0, by its series).
 */
#include <math.h>

#include "algorithm/gx_measure.h"
#include "base/gx_alloc.h"
#include "mining/gx_desurvey.h"

/* Below this angle (radians) the ratio factor and sinc are taken from their series (error below 1e-27). */
#define SMALL_ANGLE 1e-4
/* Directions whose sum is shorter than this are (nearly) opposite: the arc between them is undefined. */
#define OPPOSITE_SUM 1e-6
/* A densified point this close to a survey depth (relative to step_m) is dropped: the survey vertex stays. */
#define STEP_SLACK 1e-9

/* sin and cos of an angle in degrees, exact at multiples of 90 (the reduction to [-45, 45] is exact). */
static void
sincos_degrees(double deg, double *s, double *c)
{
	double		a = fmod(deg, 360.0);
	double		q = nearbyint(a / 90.0);
	double		r = (a - 90.0 * q) * (M_PI / 180.0);
	double		sr = sin(r),
				cr = cos(r);

	switch (((int) q % 4 + 4) % 4)
	{
		case 0:
			*s = sr, *c = cr;
			break;
		case 1:
			*s = cr, *c = -sr;
			break;
		case 2:
			*s = -sr, *c = -cr;
			break;
		default:
			*s = -cr, *c = sr;
			break;
	}
}

/* Unit direction (east, north, up) of a survey: azimuth and dip in degrees, dip per the convention. */
static void
survey_direction(double azimuth, double dip, bool dip_positive_down, double t[3])
{
	double		sa, ca, sd, cd;

	sincos_degrees(azimuth, &sa, &ca);
	sincos_degrees(dip, &sd, &cd);
	t[0] = cd * sa;
	t[1] = cd * ca;
	t[2] = dip_positive_down ? -sd : sd;
}

static double
norm3(const double v[3])
{
	return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* Angle between unit vectors, accurate over [0, pi]: 2 atan2(|t2 - t1|, |t2 + t1|). */
static double
dogleg(const double t1[3], const double t2[3])
{
	double		d[3] = {t2[0] - t1[0], t2[1] - t1[1], t2[2] - t1[2]};
	double		s[3] = {t2[0] + t1[0], t2[1] + t1[1], t2[2] + t1[2]};

	return 2 * atan2(norm3(d), norm3(s));
}

/* sin(x) / x */
static double
sinc(double x)
{
	return fabs(x) < SMALL_ANGLE ? 1 - x * x / 6 + x * x * x * x / 120 : sin(x) / x;
}

/* RF / 2 = tan(beta/2) / beta */
static double
half_ratio_factor(double beta)
{
	return beta < SMALL_ANGLE ? 0.5 * (1 + beta * beta / 12 + beta * beta * beta * beta / 120) : tan(beta / 2) / beta;
}

/*
 * The point at arc length s (0 <= s <= len) along the minimum-curvature arc of length len that leaves the
 * origin with unit direction t1 and arrives with t2 (not opposite): on the circle of radius len/beta in the
 * plane of t1 and t2, after turning by phi = beta s/len, s sinc(phi) t1 + s sin(phi/2) sinc(phi/2) n, with n
 * the unit vector of t2 orthogonal to t1.
 */
static void
arc_point(const double t1[3], const double t2[3], double len, double s, double out[3])
{
	double		beta = dogleg(t1, t2);
	double		phi = beta * (s / len);
	double		along = s * sinc(phi);
	double		across = s * sin(phi / 2) * sinc(phi / 2);
	double		dot = t1[0] * t2[0] + t1[1] * t2[1] + t1[2] * t2[2];
	double		n[3] = {t2[0] - dot * t1[0], t2[1] - dot * t1[1], t2[2] - dot * t1[2]};
	double		nn = norm3(n);

	for (int c = 0; c < 3; c++)
		out[c] = along * t1[c] + (nn > 0 ? across * n[c] / nn : 0);
}

/* Checks every argument; fails naming the first survey at fault (1-based, as SQL arrays count). */
static bool
check_arguments(const GxSerialized *collar, const GxSurvey *sv, const GxDesurveyOptions *opt, GxError *err)
{
	const GxNode *node = gx_body(collar);

	if (node->type != GX_POINT)
		gx_error_set(err, GX_ERR_INVALID, "the collar must be a POINT, not a %s", gx_type_name(node->type));
	else if (node->count == 0)
		gx_error_set(err, GX_ERR_INVALID, "the collar must be a POINT, not an empty one");
	else if (sv->n == 0)
		gx_error_set(err, GX_ERR_INVALID, "no surveys: the depth, azimuth and dip arrays are empty");
	else if (opt->densify && !(opt->step_m > 0 && isfinite(opt->step_m)))
		gx_error_set(err, GX_ERR_INVALID, "step_m must be a positive finite number of metres, not %g", opt->step_m);
	for (size_t i = 0; i < sv->n && err->code == GX_OK; i++)
	{
		double		d = sv->depth[i];

		if (!isfinite(d) || !isfinite(sv->azimuth[i]) || !isfinite(sv->dip[i]))
			gx_error_set(err, GX_ERR_INVALID, "survey %zu: depth %g, azimuth %g, dip %g: each must be finite",
						 i + 1, d, sv->azimuth[i], sv->dip[i]);
		else if (d < 0)
			gx_error_set(err, GX_ERR_INVALID, "survey %zu: depth %g is negative", i + 1, d);
		else if (i > 0 && !(d > sv->depth[i - 1]))
			gx_error_set(err, GX_ERR_INVALID, "survey %zu: depth %.17g is not greater than the depth before it (%.17g): "
						 "depths must strictly increase", i + 1, d, sv->depth[i - 1]);
		else if (fabs(sv->dip[i]) > 90)
			gx_error_set(err, GX_ERR_INVALID, "survey %zu: dip %g is outside [-90, 90] degrees", i + 1, sv->dip[i]);
	}
	if (err->code == GX_OK && sv->depth[sv->n - 1] == 0)
		gx_error_set(err, GX_ERR_INVALID, "the trace would be a single point: the only survey is at depth 0 "
					 "(add one at the hole's end depth)");
	if (err->code == GX_OK && opt->densify && sv->depth[sv->n - 1] / opt->step_m > GX_MAX_SIZE / (3 * sizeof(double)))
		gx_error_set(err, GX_ERR_LIMIT, "step_m %g over a depth of %g makes more points than one value holds",
					 opt->step_m, sv->depth[sv->n - 1]);
	return err->code == GX_OK;
}

/* A survey station: depth along the hole and unit direction there. */
typedef struct Station
{
	double		depth;
	double		t[3];
} Station;

/* The stations: the collar at depth 0 with the first survey's direction when that survey is deeper, then the surveys. */
static Station *
stations_of(const GxSurvey *sv, bool dip_positive_down, size_t *count, GxError *err)
{
	size_t		first = sv->depth[0] > 0 ? 1 : 0;
	Station    *st = gx_alloc((sv->n + first) * sizeof(Station));

	if (st == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for %zu survey stations", sv->n + first);
		return NULL;
	}
	for (size_t i = 0; i < sv->n; i++)
	{
		st[i + first].depth = sv->depth[i];
		survey_direction(sv->azimuth[i], sv->dip[i], dip_positive_down, st[i + first].t);
	}
	if (first)
		st[0] = (Station) {0, {st[1].t[0], st[1].t[1], st[1].t[2]}};
	*count = sv->n + first;
	return st;
}

/* Emits collar + (offset so far + off), the offset's compensated sum rounded once before the collar is added. */
static void
emit(GxBuilder *b, const double collar[3], const GxSum offset[3], const double off[3])
{
	double		p[3];

	for (int c = 0; c < 3; c++)
		p[c] = collar[c] + (gx_sum_value(&offset[c]) + off[c]);
	gx_builder_coord(b, p[0], p[1], p[2]);
}

/* The points of the arc from station a to station b at every multiple of step strictly between them. */
static void
emit_densified(GxBuilder *b, const double collar[3], const GxSum offset[3], const Station *a, const Station *z,
			   double step, uint32_t *count)
{
	double		len = z->depth - a->depth;
	double		slack = step * STEP_SLACK;

	for (double k = floor(a->depth / step) + 1; k * step < z->depth - slack; k++)
	{
		double		s = k * step - a->depth;
		double		off[3];

		if (s <= slack)
			continue;
		arc_point(a->t, z->t, len, s, off);
		emit(b, collar, offset, off);
		(*count)++;
	}
}

GxSerialized *
gx_desurvey(const GxSerialized *collar, const GxSurvey *survey, const GxDesurveyOptions *opt, size_t *size,
			GxError *err)
{
	const double zero[3] = {0, 0, 0};
	const double *c0;
	GxSum		offset[3] = {{0, 0}, {0, 0}, {0, 0}};
	GxBuilder	b;
	Station    *st;
	size_t		ns,
				node;
	uint32_t	count = 1;

	if (!check_arguments(collar, survey, opt, err) ||
		(st = stations_of(survey, opt->dip_positive_down, &ns, err)) == NULL)
		return NULL;
	c0 = gx_node_coords(gx_body(collar));
	gx_builder_init(&b, err);
	node = gx_builder_begin(&b, GX_LINESTRING);
	emit(&b, c0, offset, zero);
	for (size_t i = 0; i + 1 < ns && err->code == GX_OK; i++)
	{
		const Station *a = &st[i],
				   *z = &st[i + 1];
		double		sum[3] = {a->t[0] + z->t[0], a->t[1] + z->t[1], a->t[2] + z->t[2]};
		double		chord = (z->depth - a->depth) * half_ratio_factor(dogleg(a->t, z->t));

		if (norm3(sum) < OPPOSITE_SUM)
		{
			gx_error_set(err, GX_ERR_INVALID, "the surveys at depths %g and %g point in opposite directions: "
						 "no minimum-curvature arc joins them", a->depth, z->depth);
			break;
		}
		if (opt->densify)
			emit_densified(&b, c0, offset, a, z, opt->step_m, &count);
		for (int c = 0; c < 3; c++)
			gx_sum_add(&offset[c], chord * sum[c]);
		emit(&b, c0, offset, zero);
		count++;
	}
	gx_free(st);
	gx_builder_end(&b, node, count);
	return gx_builder_finish(&b, collar->srid, size);
}
