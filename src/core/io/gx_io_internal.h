/*
 * gx_io_internal.h: what the readers (WKT, WKB, STL, OBJ, DXF) share: type codes, limits, checks, number
 * parsing, lines of text and their error messages.
 */
#ifndef GX_IO_INTERNAL_H
#define GX_IO_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "geom/gx_geom.h"

#define GX_CODE_POLYGON			3		/* WKB code: read as a TIN of its triangulation */
#define GX_CODE_MULTIPOLYGON	6		/* WKB code: read as one TIN of its polygons' triangulations */
#define GX_MAX_SRID				999999	/* PostGIS's limit for user SRIDs */
#define GX_IO_SNIPPET			16		/* bytes of text input quoted in errors */
#define GX_IO_MSG				320		/* room for a message of the helpers below (a face's message names two points) */
#define GX_IO_NUMBER_MAX		64		/* longest number token read, in characters */

/* ASCII whitespace, as C's isspace in the C locale; c may be a plain or an unsigned char. */
static inline int
gx_io_is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* The value of a hex digit, -1 for any other character. */
static inline int
gx_io_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Whether the byte at pos of data (len bytes) ends a line: "\n", or "\r" not followed by "\n" (CRLF counts once). */
static inline int
gx_io_line_end(const unsigned char *data, size_t len, size_t pos)
{
	return data[pos] == '\n' || (data[pos] == '\r' && (pos + 1 == len || data[pos + 1] != '\n'));
}

static inline int
gx_io_srid_valid(long srid)
{
	return srid >= 0 && srid <= GX_MAX_SRID;
}

/* Whether the n bytes at w spell kw (ASCII letters), ignoring ASCII case on both sides. */
int			gx_io_word_is(const char *w, size_t n, const char *kw);

/* Stores v at `at` in little-endian byte order (STL and glTF binaries), whatever the machine's order. */
static inline void
gx_io_put_le32(unsigned char *at, uint32_t v)
{
	at[0] = (unsigned char) v;
	at[1] = (unsigned char) (v >> 8);
	at[2] = (unsigned char) (v >> 16);
	at[3] = (unsigned char) (v >> 24);
}

/* The name of a type code the readers know, refused ones included; NULL for any other code. */
const char *gx_io_type_name(uint32_t type);

/* The name of an ISO curve type (codes 8 to 12: CIRCULARSTRING ... MULTISURFACE), which is refused; else NULL. */
const char *gx_io_curve_name(uint32_t type);

/* What the readers say of a curve type, after its name. */
#define GX_IO_CURVES_REFUSED	"curves are not supported: use ST_CurveToLine"

/*
 * The checks below return 1 when all is well; otherwise they write into msg (GX_IO_MSG bytes serve) the
 * message that the reader reports with its own position, and return 0.
 */

/* The type of the node a geometry of this code is stored as: a TIN for POLYGON and MULTIPOLYGON. */
static inline GxType
gx_io_stored_type(uint32_t type)
{
	return type == GX_CODE_POLYGON || type == GX_CODE_MULTIPOLYGON ? GX_TIN : (GxType) type;
}

/* Refuses to begin one more node in b when it is nested as deep as allowed. */
int			gx_io_depth_allowed(const GxBuilder *b, char *msg, size_t size);

/*
 * Names member number (1-based) of a TIN, POLYHEDRALSURFACE or MULTIPOLYGON in errors: "TIN triangle 2",
 * "POLYHEDRALSURFACE face 3", "MULTIPOLYGON polygon 4".
 */
void		gx_io_member_name(char *buf, size_t size, uint32_t type, uint32_t number);

/*
 * Checks a polygon that must be one triangle, as far as the reader got: rings, then (only when rings is 1)
 * npoints, then (only when npoints is 4) that pts[3] repeats pts[0] bit for bit; adds pts[0..2] to b when
 * all hold. what names the polygon ("TRIANGLE", "TIN triangle 2"). pts is only read.
 */
int			gx_io_add_triangle(GxBuilder *b, const char *what, size_t rings, size_t npoints, double (*pts)[3],
							   char *msg, size_t size);

/* A polygon face being read (gx_io_polygon.c): its points ring after ring, each ring closed as written. */
typedef struct GxIoPolygon
{
	double		(*pts)[3];
	size_t		npts,
				cap_pts;
	size_t	   *ends;			/* ring r ends before pts[ends[r]] */
	size_t		nrings,
				cap_ends;
	GxError    *err;
} GxIoPolygon;

void		gx_io_polygon_init(GxIoPolygon *pg, GxError *err);
void		gx_io_polygon_free(GxIoPolygon *pg);

/* Adds a point to the ring being read, or ends that ring; 0 with err set when memory runs out. */
int			gx_io_polygon_point(GxIoPolygon *pg, const double xyz[3]);
int			gx_io_polygon_end_ring(GxIoPolygon *pg);

/*
 * Adds the polygon read (no ring: EMPTY) to b as the triangles of its triangulation (gx_face.h), a polygon
 * of one ring of 4 points as its triangle as it is, and returns how many; starts pg afresh. Returns -1
 * when it is refused (a ring of fewer than 4 points or not closed, not planar, not simple), the message
 * in msg naming it by what ("POLYGON", "POLYHEDRALSURFACE face 3"), or when memory ran out (err set).
 */
long		gx_io_polygon_add(GxIoPolygon *pg, GxBuilder *b, const char *what, char *msg, size_t size);

/*
 * Text readers: records "<fmt...> at <unit> <where>" followed by " (end of input)" when at_end, else by
 * the n bytes at at quoted (n > 0) or the byte at at in hex (n == 0). Nothing if err is already set.
 */
void		gx_io_verror_near(GxError *err, GxErrorCode code, const char *unit, size_t where, int at_end,
							  const char *at, int n, const char *fmt, va_list ap)
			__attribute__((format(printf, 8, 0)));

/* Text readers: how many bytes at at (left of them remain) errors quote: printable ASCII, at most GX_IO_SNIPPET. */
int			gx_io_snippet_len(const char *at, size_t left);

typedef enum GxNumberStatus
{
	GX_NUMBER_OK,
	GX_NUMBER_INVALID,			/* empty, not a number, or not in decimal notation (hex, "nan", "inf") */
	GX_NUMBER_TOO_LONG,			/* more than GX_IO_NUMBER_MAX characters */
	GX_NUMBER_NOT_FINITE,		/* NaN or infinite ("nan", "inf") */
	GX_NUMBER_OUT_OF_RANGE,		/* a decimal beyond the largest double ("1e999"), as PostgreSQL refuses it */
	GX_NUMBER_UNDERFLOW			/* non-zero but below the smallest double ("1e-400"), as PostgreSQL refuses it */
} GxNumberStatus;

/* Did strtod's result v from text round a non-zero number to zero (errno as strtod left it)? */
bool		gx_io_underflowed(double v, int strtod_errno);

/* Did strtod's result v from text overflow a finite decimal to an infinity (errno as strtod left it)? */
bool		gx_io_overflowed(double v, int strtod_errno);

/* The magnitude a decimal may not exceed, for messages about overflow. */
#define GX_IO_RANGE "out of range for float8 (its magnitude exceeds 1.7976931348623157e+308)"

/* Reads the n characters at s as one decimal number (all of them) into *v. */
GxNumberStatus gx_io_parse_number(const char *s, size_t n, double *v);

/* What is wrong with a number of that status (not GX_NUMBER_OK), for messages: "expected a number", ... */
const char *gx_io_number_problem(GxNumberStatus status);

/*
 * Reads the n characters at s as an integer (optional sign, decimal digits, all of them) into *v; one of more
 * than 18 digits saturates to +-10^18, beyond any count. 0 if they are not an integer.
 */
int			gx_io_parse_int(const char *s, size_t n, long long *v);

/* Line-oriented text readers (OBJ, DXF): one line, its line break excluded, and its 1-based number. */
typedef struct GxTextLine
{
	const char *s;
	size_t		n;
	size_t		number;
} GxTextLine;

typedef struct GxTextLines
{
	const char *data;
	size_t		len;
	size_t		next;			/* offset of the next line */
	GxTextLine	line;			/* the line last read (number 0 before the first) */
} GxTextLines;

/* What every line reader starts with: its lines, and where its errors go. */
typedef struct GxLineReader
{
	GxTextLines t;
	GxError    *err;
} GxLineReader;

/* No error recorded yet? */
static inline bool
gx_io_ok(const GxLineReader *r)
{
	return r->err->code == GX_OK;
}

/* A parse error at the line last read, near at (gx_io_verror_line); at its end (gx_io_verror_end). */
void		gx_io_line_error(GxLineReader *r, const char *at, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));
void		gx_io_end_error(GxLineReader *r, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

/* Starts reading the len bytes at data as lines; a UTF-8 byte order mark at the start is skipped. */
void		gx_io_lines_init(GxTextLines *t, const char *data, size_t len);

/*
 * Reads the next line into t->line (lines end at "\n", "\r\n" or "\r"; a last line may have no break);
 * 0 at the end of the input. Polls gx_check_interrupts every few thousand lines.
 */
int			gx_io_next_line(GxTextLines *t);

/* The n characters at s less leading and trailing ASCII whitespace (*s and *n updated). */
void		gx_io_trim(const char **s, size_t *n);

/*
 * Records "<fmt...> at line <number> near \"...\"", quoting the printable text of line from at (from its
 * start when at is NULL or its end), or "(empty line)" for an empty line. Nothing if err is already set.
 */
void		gx_io_verror_line(GxError *err, GxErrorCode code, const GxTextLine *line, const char *at,
							  const char *fmt, va_list ap)
			__attribute__((format(printf, 5, 0)));

/* Records "<fmt...> at line <number> (end of input)", numbering the line after the last one of t. */
void		gx_io_verror_end(GxError *err, GxErrorCode code, const GxTextLines *t, const char *fmt, va_list ap)
			__attribute__((format(printf, 4, 0)));

/* Binary readers: records "<fmt...> at byte offset <offset>". Nothing if err is already set. */
void		gx_io_error_offset(GxError *err, GxErrorCode code, size_t offset, const char *fmt,...)
			__attribute__((format(printf, 4, 5)));

/*
 * The end of a reader: g as read when solid is false; else the solid it bounds (gx_solid_from, g freed),
 * or NULL with err set. g NULL (the reader failed) stays NULL.
 */
GxSerialized *gx_io_finish_solid(GxSerialized *g, int solid, size_t *size, GxError *err);

#endif
