/*
 * gx_wkt_read.c: parses WKT and PostGIS EWKT ("SRID=4326;TIN Z (((...)))") into a serialized geometry;
 * text that is entirely hex is handed to the hex EWKB reader, as PostGIS does.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/gx_io.h"
#include "io/gx_io_internal.h"

/* Dimensionality of the coordinates of the whole geometry, fixed by the first tag or point seen. */
typedef enum Dims
{
	DIMS_UNKNOWN = 0,
	DIMS_XY,
	DIMS_XYZ,
	DIMS_XYM,
	DIMS_XYZM
} Dims;

static const char *const dims_names[] = {"", "XY", "XYZ", "XYM", "XYZM"};
static const int dims_numbers[] = {0, 2, 3, 3, 4};

typedef struct WktParser
{
	const char *text;			/* the whole input: positions are counted from here */
	const char *p;				/* next character to read */
	GxBuilder	b;
	GxIoPolygon polygon;		/* the polygon face being read */
	GxError    *err;
	Dims		dims;
} WktParser;

static int
ok(const WktParser *ps)
{
	return ps->err->code == GX_OK;
}

static int
is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void
skip_space(WktParser *ps)
{
	while (gx_io_is_space(*ps->p))
		ps->p++;
}

/*
 * Records an error found at `at`: the message, the 1-based character position (UTF-8 aware) and up to
 * 16 bytes of the text there, cut before control characters and at a character boundary.
 */
static void
__attribute__((format(printf, 4, 5)))
wkt_error(WktParser *ps, GxErrorCode code, const char *at, const char *fmt,...)
{
	va_list		ap;
	size_t		pos = 1;
	int			n = 0;
	const char *s;

	if (!ok(ps))
		return;
	for (s = ps->text; s < at; s++)
		pos += ((unsigned char) *s & 0xC0) != 0x80;
	while (n < GX_IO_SNIPPET && (unsigned char) at[n] >= 0x20 && at[n] != 0x7F)
		n++;
	while (n > 0 && ((unsigned char) at[n] & 0xC0) == 0x80)
		n--;
	va_start(ap, fmt);
	gx_io_verror_near(ps->err, code, "position", pos, *at == '\0', at, n, fmt, ap);
	va_end(ap);
}

/* Length of the word (letters only) starting at s. */
static size_t
word_length(const char *s)
{
	size_t		n = 0;

	while (is_letter(s[n]))
		n++;
	return n;
}

/* Consumes the keyword kw (a whole word) if it comes next. */
static int
take_keyword(WktParser *ps, const char *kw)
{
	size_t		n;

	skip_space(ps);
	n = word_length(ps->p);
	if (!gx_io_word_is(ps->p, n, kw))
		return 0;
	ps->p += n;
	return 1;
}

static int
expect(WktParser *ps, char c)
{
	skip_space(ps);
	if (*ps->p == c)
	{
		ps->p++;
		return 1;
	}
	wkt_error(ps, GX_ERR_PARSE, ps->p, "expected '%c'", c);
	return 0;
}

/* After a list item: 1 when ',' was consumed (another item follows), 0 for ')', -1 on error. */
static int
list_next(WktParser *ps)
{
	skip_space(ps);
	if (*ps->p == ',' || *ps->p == ')')
		return *ps->p++ == ',';
	wkt_error(ps, GX_ERR_PARSE, ps->p, "expected ',' or ')'");
	return -1;
}

/* Sets the geometry's dimensionality, or checks that it agrees with what came before. */
static int
set_dims(WktParser *ps, Dims dims, const char *at)
{
	if (ps->dims == DIMS_UNKNOWN)
		ps->dims = dims;
	else if (ps->dims != dims)
		wkt_error(ps, GX_ERR_PARSE, at, "mixed dimensions: %s after %s", dims_names[dims], dims_names[ps->dims]);
	return ok(ps);
}

/* Reads one number; 1 if read, 0 if no number starts here (nothing consumed), -1 on error. */
static int
read_number(WktParser *ps, double *v)
{
	char	   *end;

	skip_space(ps);
	errno = 0;
	*v = strtod(ps->p, &end);
	if (end == ps->p)
		return 0;
	if (gx_io_overflowed(*v, errno) && gx_io_is_decimal(ps->p, (size_t) (end - ps->p)))
		wkt_error(ps, GX_ERR_PARSE, ps->p, "coordinate " GX_IO_RANGE);
	else if (!isfinite(*v))
		wkt_error(ps, GX_ERR_PARSE, ps->p, "non-finite coordinate");
	else if (gx_io_underflowed(*v, errno))
		wkt_error(ps, GX_ERR_PARSE, ps->p, "coordinate too small for a double (it is not zero, and would be read as zero)");
	else if (!gx_io_is_decimal(ps->p, (size_t) (end - ps->p)))
		wkt_error(ps, GX_ERR_PARSE, ps->p, "expected decimal number");
	else if (!gx_io_is_space(*end) && *end != ',' && *end != ')' && *end != '\0')
		wkt_error(ps, GX_ERR_PARSE, end, "expected ',' or ')' after number");
	ps->p = end;
	return ok(ps) ? 1 : -1;
}

/* Reads the 2 to 4 numbers of a point, checks them against the geometry's dimensions; z = 0 if absent. */
static int
parse_point(WktParser *ps, double xyz[3])
{
	double		v[4];
	double		next;
	int			n = 0;
	int			r;
	const char *start;

	skip_space(ps);
	start = ps->p;
	while ((r = read_number(ps, &next)) > 0)
	{
		if (n == 4)
		{
			wkt_error(ps, GX_ERR_PARSE, start, "too many coordinates in point (at most 4)");
			return 0;
		}
		v[n++] = next;
	}
	if (r < 0)
		return 0;
	if (n < 2)
	{
		wkt_error(ps, GX_ERR_PARSE, ps->p, "expected number");
		return 0;
	}
	if (ps->dims == DIMS_UNKNOWN)
		ps->dims = n == 2 ? DIMS_XY : n == 3 ? DIMS_XYZ : DIMS_XYZM;
	else if (n != dims_numbers[ps->dims])
	{
		wkt_error(ps, GX_ERR_PARSE, start, "expected %d coordinates (%s) but found %d",
				  dims_numbers[ps->dims], dims_names[ps->dims], n);
		return 0;
	}
	xyz[0] = v[0];
	xyz[1] = v[1];
	xyz[2] = ps->dims == DIMS_XYZ || ps->dims == DIMS_XYZM ? v[2] : 0.0;
	return 1;
}

/* Starts a node, refusing nesting deeper than the builder allows before any recursion goes further. */
static size_t
begin_node(WktParser *ps, GxType type, const char *at)
{
	char		msg[GX_IO_MSG];

	if (!gx_io_depth_allowed(&ps->b, msg, sizeof(msg)))
	{
		wkt_error(ps, GX_ERR_LIMIT, at, "%s", msg);
		return 0;
	}
	return gx_builder_begin(&ps->b, type);
}

static void
add_point(WktParser *ps, const double xyz[3])
{
	gx_builder_coord(&ps->b, xyz[0], xyz[1], xyz[2]);
}

/*
 * Reads a polygon that must be one triangle, "(ring)" with its opening '(' already consumed, and adds
 * its 3 vertices. what names it in errors ("TRIANGLE", "TIN triangle 2").
 */
static void
parse_triangle(WktParser *ps, const char *what, const char *at)
{
	double		pts[4][3];
	double		extra[3];
	size_t		rings = 0;
	size_t		npoints = 0;
	size_t		n;
	int			more;
	char		msg[GX_IO_MSG];

	do
	{
		if (!expect(ps, '('))
			return;
		n = 0;
		do
		{
			if (!parse_point(ps, n < 4 && rings == 0 ? pts[n] : extra))
				return;
			n++;
		} while ((more = list_next(ps)) > 0);
		if (more < 0)
			return;
		if (rings++ == 0)
			npoints = n;
	} while ((more = list_next(ps)) > 0);
	if (more < 0)
		return;
	if (!gx_io_add_triangle(&ps->b, what, rings, npoints, pts, msg, sizeof(msg)))
		wkt_error(ps, GX_ERR_PARSE, at, "%s", msg);
}

/*
 * Reads a polygon face, "(ring), ...)" with its opening '(' already consumed, and adds the triangles of
 * its triangulation; returns how many. what names it in errors ("POLYGON", "POLYHEDRALSURFACE face 3").
 */
static uint32_t
parse_polygon(WktParser *ps, const char *what, const char *at)
{
	double		xyz[3];
	int			more;
	long		ntri;
	char		msg[GX_IO_MSG];

	do
	{
		if (!expect(ps, '('))
			return 0;
		do
		{
			if (!parse_point(ps, xyz) || !gx_io_polygon_point(&ps->polygon, xyz))
				return 0;
		} while ((more = list_next(ps)) > 0);
		if (more < 0 || !gx_io_polygon_end_ring(&ps->polygon))
			return 0;
	} while ((more = list_next(ps)) > 0);
	if (more < 0)
		return 0;
	ntri = gx_io_polygon_add(&ps->polygon, &ps->b, what, msg, sizeof(msg));
	if (ntri < 0)
		wkt_error(ps, GX_ERR_PARSE, at, "%s", msg);
	return ntri > 0 ? (uint32_t) ntri : 0;
}

static uint32_t parse_body(WktParser *ps, uint32_t type, const char *at);

/*
 * A member of a MULTIPOINT or MULTILINESTRING, written without its keyword: "EMPTY" or "(...)",
 * or, for points, bare coordinates.
 */
static void
parse_member(WktParser *ps, GxType type)
{
	const char *at;
	size_t		node;
	uint32_t	count;
	double		xyz[3];

	skip_space(ps);
	at = ps->p;
	node = begin_node(ps, type, at);
	if (!ok(ps))
		return;
	if (take_keyword(ps, "EMPTY"))
		count = 0;
	else if (*ps->p == '(')
	{
		ps->p++;
		count = parse_body(ps, type, at);
	}
	else if (type == GX_POINT)
	{
		if (parse_point(ps, xyz))
			add_point(ps, xyz);
		count = 1;
	}
	else
	{
		wkt_error(ps, GX_ERR_PARSE, ps->p, "expected '(' or EMPTY");
		count = 0;
	}
	gx_builder_end(&ps->b, node, count);
}

static void parse_geometry(WktParser *ps);

/*
 * Reads what follows the opening '(' of a geometry of the given type (at: where it started), up to and
 * including its closing ')'; returns the node's count (meaningless once an error is recorded): for the
 * polygon types, stored as TIN or POLYHEDRALSURFACE nodes, the count of triangles.
 */
static uint32_t
parse_body(WktParser *ps, uint32_t type, const char *at)
{
	double		xyz[3];
	uint32_t	count = 0,
				members = 0;
	const char *member_at;
	char		what[48];
	int			more = 0;

	switch (type)
	{
		case GX_POINT:
			if (parse_point(ps, xyz) && expect(ps, ')'))
				add_point(ps, xyz);
			return 1;
		case GX_LINESTRING:
			do
			{
				if (!parse_point(ps, xyz))
					return 0;
				add_point(ps, xyz);
				count++;
			} while (ok(ps) && (more = list_next(ps)) > 0);
			if (more == 0 && count < 2)
				wkt_error(ps, GX_ERR_PARSE, at, "LINESTRING must have at least 2 points, got %u", (unsigned) count);
			return count;
		case GX_TRIANGLE:
			parse_triangle(ps, "TRIANGLE", at);
			return 1;
		case GX_CODE_POLYGON:
			return parse_polygon(ps, "POLYGON", at);
	}
	do
	{
		switch (type)
		{
			case GX_TIN:
				gx_io_member_name(what, sizeof(what), type, ++members);
				if (expect(ps, '('))
					parse_triangle(ps, what, ps->p - 1);
				count++;
				break;
			case GX_POLYHEDRALSURFACE:
			case GX_CODE_MULTIPOLYGON:
				gx_io_member_name(what, sizeof(what), type, ++members);
				skip_space(ps);
				member_at = ps->p;
				if (type == GX_CODE_MULTIPOLYGON && take_keyword(ps, "EMPTY"))
					break;
				if (expect(ps, '('))
					count += parse_polygon(ps, what, member_at);
				break;
			case GX_MULTIPOINT:
				parse_member(ps, GX_POINT);
				count++;
				break;
			case GX_MULTILINESTRING:
				parse_member(ps, GX_LINESTRING);
				count++;
				break;
			default:
				parse_geometry(ps);
				count++;
				break;
		}
	} while (ok(ps) && (more = list_next(ps)) > 0);
	return count;
}

/* Splits a type word such as "LINESTRING" or PostGIS's glued "POINTZM" into type code and dimensions. */
static uint32_t
match_type(const char *w, size_t n, Dims *glued)
{
	static const uint32_t codes[] = {GX_POINT, GX_LINESTRING, GX_CODE_POLYGON, GX_MULTIPOINT, GX_MULTILINESTRING,
		GX_CODE_MULTIPOLYGON, GX_GEOMETRYCOLLECTION, GX_POLYHEDRALSURFACE, GX_TIN, GX_TRIANGLE,
	8, 9, 10, 11, 12};			/* the curve types, recognized to be refused by name */
	static const char *const suffixes[] = {"", "ZM", "Z", "M"};
	static const Dims suffix_dims[] = {DIMS_UNKNOWN, DIMS_XYZM, DIMS_XYZ, DIMS_XYM};
	size_t		s;
	size_t		i;
	size_t		sl;

	for (s = 0; s < sizeof(suffixes) / sizeof(suffixes[0]); s++)
	{
		sl = strlen(suffixes[s]);
		if (sl >= n || !gx_io_word_is(w + n - sl, sl, suffixes[s]))
			continue;
		for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		{
			const char *name = gx_io_type_name(codes[i]) ? gx_io_type_name(codes[i]) : gx_io_curve_name(codes[i]);

			if (gx_io_word_is(w, n - sl, name))
			{
				*glued = suffix_dims[s];
				return codes[i];
			}
		}
	}
	return 0;
}

/* Reads one tagged geometry: type keyword, optional dimension token, then EMPTY or its body. */
static void
parse_geometry(WktParser *ps)
{
	const char *at;
	size_t		n;
	uint32_t	type;
	Dims		dims = DIMS_UNKNOWN;
	size_t		node;
	uint32_t	count = 0;

	skip_space(ps);
	at = ps->p;
	n = word_length(at);
	type = n > 0 ? match_type(at, n, &dims) : 0;
	if (type == 0)
	{
		wkt_error(ps, GX_ERR_PARSE, at, "expected geometry type");
		return;
	}
	if (gx_io_curve_name(type) != NULL)
	{
		wkt_error(ps, GX_ERR_PARSE, at, "%s: " GX_IO_CURVES_REFUSED, gx_io_curve_name(type));
		return;
	}
	ps->p += n;
	if (dims == DIMS_UNKNOWN)
	{
		skip_space(ps);
		n = word_length(ps->p);
		dims = gx_io_word_is(ps->p, n, "Z") ? DIMS_XYZ : gx_io_word_is(ps->p, n, "M") ? DIMS_XYM :
			gx_io_word_is(ps->p, n, "ZM") ? DIMS_XYZM : DIMS_UNKNOWN;
		if (dims != DIMS_UNKNOWN)
			ps->p += n;
	}
	if (dims != DIMS_UNKNOWN && !set_dims(ps, dims, at))
		return;
	node = begin_node(ps, gx_io_stored_type(type), at);
	if (!ok(ps))
		return;
	if (!take_keyword(ps, "EMPTY") && expect(ps, '('))
		count = parse_body(ps, type, at);
	gx_builder_end(&ps->b, node, count);
}

/*
 * Reads SFCGAL's "SOLID Z ((shell), (shell), ...)" after its keyword, each shell a POLYHEDRALSURFACE's
 * body: all the faces go into one POLYHEDRALSURFACE node, which gx_from_wkt then checks as a solid.
 */
static void
parse_solid(WktParser *ps, const char *at)
{
	size_t		node,
				n;
	uint32_t	count = 0;
	int			more = 0;

	skip_space(ps);
	n = word_length(ps->p);
	if (gx_io_word_is(ps->p, n, "Z"))
		ps->p += n;
	else if (n > 0 && !gx_io_word_is(ps->p, n, "EMPTY"))
	{
		wkt_error(ps, GX_ERR_PARSE, ps->p, "a SOLID has Z coordinates only");
		return;
	}
	if (!set_dims(ps, DIMS_XYZ, at))
		return;
	node = begin_node(ps, GX_POLYHEDRALSURFACE, at);
	if (ok(ps) && !take_keyword(ps, "EMPTY") && expect(ps, '('))
		do
		{
			if (expect(ps, '('))
				count += parse_body(ps, GX_POLYHEDRALSURFACE, ps->p - 1);
		} while (ok(ps) && (more = list_next(ps)) > 0);
	gx_builder_end(&ps->b, node, count);
}

/* Whether the whole text, surrounding whitespace aside, is hex (E)WKB: even length, starting 00 or 01. */
static int
looks_like_hex(const char *s)
{
	size_t		n = 0;

	while (gx_io_is_space(*s))
		s++;
	while (gx_io_hex_value(s[n]) >= 0)
		n++;
	if (n < 2 || n % 2 != 0 || s[0] != '0' || (s[1] != '0' && s[1] != '1'))
		return 0;
	s += n;
	while (gx_io_is_space(*s))
		s++;
	return *s == '\0';
}

/* Reads "SRID=n;" if present; returns the SRID (0 if none), or -1 on error. */
static long
parse_srid(WktParser *ps)
{
	long		srid;
	char	   *end;
	const char *at;

	if (!take_keyword(ps, "SRID"))
		return 0;
	if (!expect(ps, '='))
		return -1;
	skip_space(ps);
	at = ps->p;
	srid = strtol(at, &end, 10);
	if (end == at)
		wkt_error(ps, GX_ERR_PARSE, at, "expected SRID number");
	else if (!gx_io_srid_valid(srid))
		wkt_error(ps, GX_ERR_PARSE, at, "SRID %.*s out of range [0, %d]", (int) (end - at > 20 ? 20 : end - at), at,
				  GX_MAX_SRID);
	ps->p = end;
	return ok(ps) && expect(ps, ';') ? srid : -1;
}

GxSerialized *
gx_from_wkt(const char *text, size_t *size, GxError *err)
{
	WktParser	ps;
	long		srid;
	int			solid = 0;

	err->code = GX_OK;
	err->msg[0] = '\0';
	if (looks_like_hex(text))
		return gx_from_hexwkb(text, size, err);
	memset(&ps, 0, sizeof(ps));
	ps.text = ps.p = text;
	ps.err = err;
	gx_builder_init(&ps.b, err);
	gx_io_polygon_init(&ps.polygon, err);
	srid = parse_srid(&ps);
	if (ok(&ps))
	{
		skip_space(&ps);
		if ((solid = take_keyword(&ps, "SOLID")))
			parse_solid(&ps, ps.p);
		else
			parse_geometry(&ps);
	}
	if (ok(&ps))
	{
		skip_space(&ps);
		if (*ps.p != '\0')
			wkt_error(&ps, GX_ERR_PARSE, ps.p, "unexpected text after the geometry");
	}
	gx_io_polygon_free(&ps.polygon);
	return gx_io_finish_solid(gx_builder_finish(&ps.b, (int32_t) srid, size), solid, size, err);
}
