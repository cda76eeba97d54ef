/* gx_io_internal.h: what the WKT, WKB and STL readers share: type codes, limits, checks and their error messages. */
#ifndef GX_IO_INTERNAL_H
#define GX_IO_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "gx_geom.h"

#define GX_CODE_POLYGON			3		/* WKB code: refused, but the type of a POLYHEDRALSURFACE face */
#define GX_CODE_MULTIPOLYGON	6		/* WKB code: refused */
#define GX_MAX_SRID				999999	/* PostGIS's limit for user SRIDs */
#define GX_IO_SNIPPET			16		/* bytes of text input quoted in errors */
#define GX_IO_MSG				160		/* room for a message of the helpers below */

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

static inline int
gx_io_srid_valid(long srid)
{
	return srid >= 0 && srid <= GX_MAX_SRID;
}

/* Whether the n bytes at w spell kw (ASCII letters), ignoring ASCII case on both sides. */
int			gx_io_word_is(const char *w, size_t n, const char *kw);

/* The name of a type code the readers know, refused ones included; NULL for any other code. */
const char *gx_io_type_name(uint32_t type);

/*
 * The checks below return 1 when all is well; otherwise they write into msg (GX_IO_MSG bytes serve) the
 * message that the reader reports with its own position, and return 0.
 */

/* Refuses the types gpuexact does not store (POLYGON, MULTIPOLYGON). */
int			gx_io_type_supported(uint32_t type, char *msg, size_t size);

/* Refuses to begin one more node in b when it is nested as deep as allowed. */
int			gx_io_depth_allowed(const GxBuilder *b, char *msg, size_t size);

/* Names member number (1-based) of a TIN or POLYHEDRALSURFACE in errors: "TIN triangle 2", "POLYHEDRALSURFACE face 3". */
void		gx_io_member_name(char *buf, size_t size, uint32_t type, uint32_t number);

/*
 * Checks a polygon that must be one triangle, as far as the reader got: rings, then (only when rings is 1)
 * npoints, then (only when npoints is 4) that pts[3] repeats pts[0] bit for bit; adds pts[0..2] to b when
 * all hold. what names the polygon ("TRIANGLE", "TIN triangle 2"); is_face: a POLYHEDRALSURFACE face,
 * whose messages differ. pts is only read.
 */
int			gx_io_add_triangle(GxBuilder *b, const char *what, int is_face, size_t rings, size_t npoints,
							   double (*pts)[3], char *msg, size_t size);

/*
 * Text readers: records "<fmt...> at <unit> <where>" followed by " (end of input)" when at_end, else by
 * the n bytes at at quoted (n > 0) or the byte at at in hex (n == 0). Nothing if err is already set.
 */
void		gx_io_verror_near(GxError *err, GxErrorCode code, const char *unit, size_t where, int at_end,
							  const char *at, int n, const char *fmt, va_list ap)
			__attribute__((format(printf, 8, 0)));

/* Binary readers: records "<fmt...> at byte offset <offset>". Nothing if err is already set. */
void		gx_io_error_offset(GxError *err, GxErrorCode code, size_t offset, const char *fmt,...)
			__attribute__((format(printf, 4, 5)));

#endif
