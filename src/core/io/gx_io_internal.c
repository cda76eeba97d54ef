/* gx_io_internal.c: the checks, number parsing, lines of text and error formatting the readers share (gx_io_internal.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_interrupt.h"
#include "io/gx_io.h"
#include "io/gx_io_internal.h"
#include "operation/gx_solid_make.h"

#define GX_IO_STRING_(x)	#x
#define GX_IO_STRING(x)		GX_IO_STRING_(x)

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

const char *
gx_io_curve_name(uint32_t type)
{
	static const char *const names[] = {"CIRCULARSTRING", "COMPOUNDCURVE", "CURVEPOLYGON", "MULTICURVE", "MULTISURFACE"};

	return type >= 8 && type <= 12 ? names[type - 8] : NULL;
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
	snprintf(buf, size, type == GX_TIN ? "TIN triangle %u" : type == GX_CODE_MULTIPOLYGON ? "MULTIPOLYGON polygon %u" :
			 "POLYHEDRALSURFACE face %u", (unsigned) number);
}

int
gx_io_add_triangle(GxBuilder *b, const char *what, size_t rings, size_t npoints, double (*pts)[3],
				   char *msg, size_t size)
{
	int			i;

	if (rings != 1)
		snprintf(msg, size, "%s must have exactly 1 ring, got %zu", what, rings);
	else if (npoints != 4)
		snprintf(msg, size, "%s: triangle ring must have 4 points, got %zu", what, npoints);
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

int
gx_io_snippet_len(const char *at, size_t left)
{
	int			n = 0;

	while (n < GX_IO_SNIPPET && (size_t) n < left && at[n] >= 0x20 && at[n] < 0x7F)
		n++;
	return n;
}

GxNumberStatus
gx_io_parse_number(const char *s, size_t n, double *v)
{
	char		buf[GX_IO_NUMBER_MAX + 1];
	char	   *end;

	if (n > GX_IO_NUMBER_MAX)
		return GX_NUMBER_TOO_LONG;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtod(buf, &end);
	if (n > 0 && end == buf + n && gx_io_overflowed(*v, errno) && gx_io_is_decimal(buf, n))
		return GX_NUMBER_OUT_OF_RANGE;
	if (n > 0 && end == buf + n && !isfinite(*v))
		return GX_NUMBER_NOT_FINITE;
	if (end != buf + n || !gx_io_is_decimal(buf, n))
		return GX_NUMBER_INVALID;
	if (gx_io_underflowed(*v, errno))
		return GX_NUMBER_UNDERFLOW;
	return GX_NUMBER_OK;
}

const char *
gx_io_number_problem(GxNumberStatus status)
{
	if (status == GX_NUMBER_TOO_LONG)
		return "number longer than " GX_IO_STRING(GX_IO_NUMBER_MAX) " characters";
	if (status == GX_NUMBER_UNDERFLOW)
		return "number too small for a double (it is not zero, and would be read as zero)";
	if (status == GX_NUMBER_OUT_OF_RANGE)
		return "number " GX_IO_RANGE;
	return status == GX_NUMBER_NOT_FINITE ? "NaN or infinite number" : "expected a number";
}

bool
gx_io_underflowed(double v, int strtod_errno)
{
	return strtod_errno == ERANGE && v == 0;
}

bool
gx_io_overflowed(double v, int strtod_errno)
{
	return strtod_errno == ERANGE && isinf(v);
}

int
gx_io_parse_int(const char *s, size_t n, long long *v)
{
	const long long cap = 1000000000000000000LL;
	size_t		i = n > 0 && (s[0] == '-' || s[0] == '+');
	long long	r = 0;

	if (i == n)
		return 0;
	for (; i < n; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return 0;
		r = r >= cap / 10 ? cap : r * 10 + (s[i] - '0');
	}
	*v = s[0] == '-' ? -r : r;
	return 1;
}

void
gx_io_lines_init(GxTextLines *t, const char *data, size_t len)
{
	memset(t, 0, sizeof(*t));
	t->data = data;
	t->len = len;
	if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
		t->next = 3;
}

int
gx_io_next_line(GxTextLines *t)
{
	const unsigned char *d = (const unsigned char *) t->data;
	size_t		end = t->next;

	if (t->next == t->len)
		return 0;
	while (end < t->len && d[end] != '\n' && d[end] != '\r')
		end++;
	t->line.s = t->data + t->next;
	t->line.n = end - t->next;
	t->line.number++;
	gx_maybe_interrupt(t->line.number);
	t->next = end == t->len ? end : end + 1 + (d[end] == '\r' && end + 1 < t->len && d[end + 1] == '\n');
	return 1;
}

void
gx_io_trim(const char **s, size_t *n)
{
	while (*n > 0 && gx_io_is_space((*s)[*n - 1]))
		(*n)--;
	while (*n > 0 && gx_io_is_space(**s))
	{
		(*s)++;
		(*n)--;
	}
}

void
gx_io_verror_line(GxError *err, GxErrorCode code, const GxTextLine *line, const char *at, const char *fmt, va_list ap)
{
	char		what[GX_IO_MSG];

	if (err->code != GX_OK)
		return;
	if (at == NULL || at == line->s + line->n)
		at = line->s;
	if (line->n == 0)
	{
		vsnprintf(what, sizeof(what), fmt, ap);
		gx_error_set(err, code, "%s at line %zu (empty line)", what, line->number);
	}
	else
		gx_io_verror_near(err, code, "line", line->number, 0, at,
						  gx_io_snippet_len(at, (size_t) (line->s + line->n - at)), fmt, ap);
}

void
gx_io_verror_end(GxError *err, GxErrorCode code, const GxTextLines *t, const char *fmt, va_list ap)
{
	size_t		number = t->line.number;

	if (number == 0 || t->data[t->len - 1] == '\n' || t->data[t->len - 1] == '\r')
		number++;
	gx_io_verror_near(err, code, "line", number, 1, NULL, 0, fmt, ap);
}

void
gx_io_line_error(GxLineReader *r, const char *at, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	gx_io_verror_line(r->err, GX_ERR_PARSE, &r->t.line, at, fmt, ap);
	va_end(ap);
}

void
gx_io_end_error(GxLineReader *r, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	gx_io_verror_end(r->err, GX_ERR_PARSE, &r->t, fmt, ap);
	va_end(ap);
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

GxSerialized *
gx_io_finish_solid(GxSerialized *g, int solid, size_t *size, GxError *err)
{
	GxSerialized *s;

	if (g == NULL || !solid)
		return g;
	s = gx_solid_from(g, NULL, size, err);
	gx_free(g);
	return s;
}
