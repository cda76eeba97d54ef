/*
 * gx_face_polygon.c: what the simplicity checks and the ear clipping ask of a polygon in its projection
 * (gx_face_polygon.h): orientations, points on segments, and the messages that name a point.
 */
#include <stdarg.h>
#include <stdio.h>

#include "algorithm/gx_predicates.h"
#include "base/gx_format.h"
#include "triangulate/gx_face_polygon.h"

int
gx_face_orient(const GxFacePolygon *f, const double *a, const double *b, const double *c)
{
	return gx_orient2d(a, b, c, f->drop);
}

int
gx_face_on_segment(const GxFacePolygon *f, const double *p, const double *a, const double *b)
{
	int			k;

	for (k = 0; k < 3; k++)
		if (p[k] < (a[k] < b[k] ? a[k] : b[k]) || p[k] > (a[k] < b[k] ? b[k] : a[k]))
			return 0;
	return gx_face_orient(f, a, b, p) == 0;
}

void
gx_face_refuse(GxFacePolygon *f, const char *fmt,...)
{
	va_list		ap;
	int			n = snprintf(f->msg, f->size, "is not simple: ");

	va_start(ap, fmt);
	if (n > 0 && (size_t) n < f->size)
		vsnprintf(f->msg + n, f->size - (size_t) n, fmt, ap);
	va_end(ap);
}

/* Writes "(x y z)", each coordinate the shortest decimal that reads back to it. */
static void
coordinates(const double *p, char *buf, size_t size)
{
	char		c[3][32];
	int			k;

	for (k = 0; k < 3; k++)
		gx_format_double(p[k], c[k]);
	snprintf(buf, size, "(%s %s %s)", c[0], c[1], c[2]);
}

void
gx_face_point_name(const GxFacePolygon *f, const GxFaceVertex *v, char *buf, size_t size)
{
	char		xyz[100];

	coordinates(v->p, xyz, sizeof(xyz));
	if (f->nrings > 1)
		snprintf(buf, size, "point %zu of ring %zu %s", v->point + 1, v->ring + 1, xyz);
	else
		snprintf(buf, size, "point %zu %s", v->point + 1, xyz);
}
