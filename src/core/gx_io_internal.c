/* gx_io_internal.c: the checks and error formatting shared by the WKT, WKB and STL readers (gx_io_internal.h). */
#include <stdio.h>
#include <string.h>

#include "gx_io.h"
#include "gx_io_internal.h"

static int
fold(char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int
gx_io_word_is(const char *w, size_t n, const char *kw)
{
	size_t		i;

	if (strlen(kw) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (fold(w[i]) != fold(kw[i]))
			return 0;
	return 1;
}

const char *
gx_io_type_name(uint32_t type)
{
	if (type == GX_CODE_POLYGON)
		return "POLYGON";
	if (type == GX_CODE_MULTIPOLYGON)
		return "MULTIPOLYGON";
	return gx_type_name(type);
}

int
gx_io_type_supported(uint32_t type, char *msg, size_t size)
{
	if (type != GX_CODE_POLYGON && type != GX_CODE_MULTIPOLYGON)
		return 1;
	snprintf(msg, size, "unsupported geometry type %s (gpuexact stores points, lines and triangles)",
			 gx_io_type_name(type));
	return 0;
}

int
gx_io_depth_allowed(const GxBuilder *b, char *msg, size_t size)
{
	if (b->depth < GX_MAX_DEPTH)
		return 1;
	snprintf(msg, size, "geometry nested deeper than %d levels", GX_MAX_DEPTH);
	return 0;
}

void
gx_io_member_name(char *buf, size_t size, uint32_t type, uint32_t number)
{
	snprintf(buf, size, type == GX_TIN ? "TIN triangle %u" : "POLYHEDRALSURFACE face %u", (unsigned) number);
}

int
gx_io_add_triangle(GxBuilder *b, const char *what, int is_face, size_t rings, size_t npoints,
				   double (*pts)[3], char *msg, size_t size)
{
	int			i;

	if (rings != 1)
		snprintf(msg, size, is_face ? "%s is not a triangle (has %zu rings)" :
				 "%s must have exactly 1 ring, got %zu", what, rings);
	else if (npoints != 4)
		snprintf(msg, size, is_face ? "%s is not a triangle (%zu points)" :
				 "%s: triangle ring must have 4 points, got %zu", what, npoints);
	else if (memcmp(pts[0], pts[3], sizeof(pts[0])) != 0)
		snprintf(msg, size, "%s: ring not closed", what);
	else
	{
		for (i = 0; i < 3; i++)
			gx_builder_coord(b, pts[i][0], pts[i][1], pts[i][2]);
		return 1;
	}
	return 0;
}

void
gx_io_verror_near(GxError *err, GxErrorCode code, const char *unit, size_t where, int at_end,
				  const char *at, int n, const char *fmt, va_list ap)
{
	char		what[GX_IO_MSG];

	if (err->code != GX_OK)
		return;
	vsnprintf(what, sizeof(what), fmt, ap);
	if (at_end)
		gx_error_set(err, code, "%s at %s %zu (end of input)", what, unit, where);
	else if (n == 0)
		gx_error_set(err, code, "%s at %s %zu near byte 0x%02X", what, unit, where, (unsigned char) *at);
	else
		gx_error_set(err, code, "%s at %s %zu near \"%.*s\"", what, unit, where, n, at);
}

void
gx_io_error_offset(GxError *err, GxErrorCode code, size_t offset, const char *fmt,...)
{
	char		what[200];
	va_list		ap;

	if (err->code != GX_OK)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	gx_error_set(err, code, "%s at byte offset %zu", what, offset);
}

bool
gx_io_is_decimal(const char *s, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
		if (strchr("0123456789+-.eE", s[i]) == NULL)
			return false;
	return n > 0;
}
