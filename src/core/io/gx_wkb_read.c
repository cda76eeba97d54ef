/*
 * gx_wkb_read.c: reads ISO WKB and PostGIS EWKB (either byte order, per nested geometry), and hex-encoded
 * (E)WKB, into a serialized geometry. Untrusted input: every count is checked against the bytes left
 * before anything is reserved, and nesting is bounded.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io.h"
#include "io/gx_io_internal.h"

#define EWKB_Z				0x80000000u
#define EWKB_M				0x40000000u
#define EWKB_SRID			0x20000000u
#define EWKB_SOLID			0x10000000u	/* gpuexact's solid flag, outermost POLYHEDRALSURFACE or TIN only */

typedef struct WkbReader
{
	const unsigned char *data;
	size_t		len;
	size_t		pos;
	GxBuilder	b;
	GxIoPolygon polygon;		/* the polygon face being read */
	GxError    *err;
	int32_t		srid;			/* of the outermost geometry, 0 if none */
	int			ndims;			/* numbers per point, fixed by the outermost geometry */
	int			solid;			/* the outermost geometry carries EWKB_SOLID */
} WkbReader;

/* The header of one (sub)geometry. */
typedef struct WkbHeader
{
	size_t		offset;			/* of its byte-order byte */
	int			big_endian;
	uint32_t	type;			/* base code: 1 POINT ... 17 TRIANGLE */
	int			has_z;
	int			has_m;
} WkbHeader;

static int
ok(const WkbReader *r)
{
	return r->err->code == GX_OK;
}

static int
need(WkbReader *r, size_t n)
{
	if (r->len - r->pos >= n)
		return 1;
	gx_io_error_offset(r->err, GX_ERR_PARSE, r->pos, "truncated WKB: %zu bytes needed, %zu left", n, r->len - r->pos);
	return 0;
}

/* Reads an n-byte unsigned integer (n <= 8) in the given byte order. */
static uint64_t
take(WkbReader *r, int n, int big_endian)
{
	const unsigned char *s = r->data + r->pos;
	uint64_t	v = 0;
	int			i;

	for (i = 0; i < n; i++)
		v |= (uint64_t) s[big_endian ? n - 1 - i : i] << (8 * i);
	r->pos += (size_t) n;
	return v;
}

static int
read_u32(WkbReader *r, int big_endian, uint32_t *v)
{
	if (!need(r, 4))
		return 0;
	*v = (uint32_t) take(r, 4, big_endian);
	return 1;
}

/*
 * Reads a count of items (named by `items`, e.g. "points") of at least item_bytes each, refusing counts
 * the remaining data cannot hold.
 */
static int
read_count(WkbReader *r, const WkbHeader *h, const char *items, size_t item_bytes, uint32_t *count)
{
	size_t		at = r->pos;

	if (!read_u32(r, h->big_endian, count))
		return 0;
	if (*count > (r->len - r->pos) / item_bytes)
	{
		gx_io_error_offset(r->err, GX_ERR_PARSE, at, "%s declares %u %s, which need at least %llu bytes, but %zu remain",
						   gx_io_type_name(h->type), (unsigned) *count, items,
						   (unsigned long long) *count * item_bytes, r->len - r->pos);
		return 0;
	}
	return 1;
}

/* Numbers per point of a geometry with this header. */
static int
header_dims(const WkbHeader *h)
{
	return 2 + h->has_z + h->has_m;
}

/* Reads a geometry header: byte order, type code with ISO or EWKB dimensions, and EWKB's SRID. */
static int
read_header(WkbReader *r, int outermost, WkbHeader *h)
{
	uint32_t	code;
	uint32_t	iso;
	uint32_t	srid;

	h->offset = r->pos;
	if (!need(r, 1))
		return 0;
	if (r->data[r->pos] > 1)
	{
		gx_io_error_offset(r->err, GX_ERR_PARSE, r->pos, "invalid byte order %u (expected 0 or 1)", r->data[r->pos]);
		return 0;
	}
	h->big_endian = r->data[r->pos++] == 0;
	if (!read_u32(r, h->big_endian, &code))
		return 0;
	/* the solid flag, on an outermost POLYHEDRALSURFACE or TIN (anything else keeps it an unknown code) */
	if ((code & EWKB_SOLID) && outermost && ((code & 0x0FFFFFFFu) % 1000 == GX_POLYHEDRALSURFACE ||
											  (code & 0x0FFFFFFFu) % 1000 == GX_TIN))
		r->solid = 1;
	iso = (code & (r->solid && outermost ? 0x0FFFFFFFu : 0x1FFFFFFFu)) / 1000;
	h->type = (code & (r->solid && outermost ? 0x0FFFFFFFu : 0x1FFFFFFFu)) % 1000;
	h->has_z = (code & EWKB_Z) != 0 || iso == 1 || iso == 3;
	h->has_m = (code & EWKB_M) != 0 || iso == 2 || iso == 3;
	if (iso <= 3 && gx_io_curve_name(h->type) != NULL)
	{
		gx_io_error_offset(r->err, GX_ERR_PARSE, h->offset, "%s: " GX_IO_CURVES_REFUSED, gx_io_curve_name(h->type));
		return 0;
	}
	if (iso > 3 || (iso != 0 && (code & (EWKB_Z | EWKB_M)) != 0) || gx_io_type_name(h->type) == NULL)
	{
		gx_io_error_offset(r->err, GX_ERR_PARSE, h->offset, "unknown geometry type code %u", (unsigned) code);
		return 0;
	}
	if (code & EWKB_SRID)
	{
		if (!read_u32(r, h->big_endian, &srid))
			return 0;
		if (outermost && gx_io_srid_valid((int32_t) srid))
			r->srid = (int32_t) srid;
		else if (outermost)
			gx_io_error_offset(r->err, GX_ERR_PARSE, h->offset, "SRID %d out of range [0, %d]",
							   (int) (int32_t) srid, GX_MAX_SRID);
		else if ((int32_t) srid != r->srid)
			gx_io_error_offset(r->err, GX_ERR_PARSE, h->offset, "nested geometry has SRID %d, the outer one %d",
							   (int) (int32_t) srid, (int) r->srid);
	}
	if (outermost)
		r->ndims = header_dims(h);
	else if (header_dims(h) != r->ndims)
		gx_io_error_offset(r->err, GX_ERR_PARSE, h->offset, "mixed dimensions: nested geometry has %d coordinates per point, the outer one %d",
						   header_dims(h), r->ndims);
	return ok(r);
}

/*
 * Reads one point's numbers into xyz (z = 0 without Z, M dropped). Returns 1, 0 for an all-NaN point
 * (WKB's POINT EMPTY) when allow_empty, or -1 on error.
 */
static int
read_point(WkbReader *r, const WkbHeader *h, int allow_empty, double xyz[3])
{
	double		v[4];
	uint64_t	bits;
	size_t		at = r->pos;
	int			n = header_dims(h);
	int			i;
	int			nans = 0;
	int			finite = 0;

	if (!need(r, 8 * (size_t) n))
		return -1;
	for (i = 0; i < n; i++)
	{
		bits = take(r, 8, h->big_endian);
		memcpy(&v[i], &bits, sizeof(v[i]));
		nans += isnan(v[i]) != 0;
		finite += isfinite(v[i]) != 0;
	}
	if (allow_empty && nans == n)
		return 0;
	if (finite != n)
	{
		gx_io_error_offset(r->err, GX_ERR_PARSE, at, "non-finite coordinate");
		return -1;
	}
	xyz[0] = v[0];
	xyz[1] = v[1];
	xyz[2] = h->has_z ? v[2] : 0.0;
	return 1;
}

/*
 * Reads the rings of a triangle that must be one triangle ("TRIANGLE", "TIN triangle 2" in errors) and
 * adds its 3 vertices. Returns 1, 0 for no ring at all when allow_empty, -1 on error.
 */
static int
read_triangle(WkbReader *r, const WkbHeader *h, const char *what, int allow_empty)
{
	double		pts[4][3];
	uint32_t	rings;
	uint32_t	npoints = 0;
	uint32_t	i;
	char		msg[GX_IO_MSG];

	if (!read_count(r, h, "rings", 4, &rings))
		return -1;
	if (rings == 0 && allow_empty)
		return 0;
	/* Nothing past a wrong count is read: the check below reports that count first. */
	if (rings == 1 && !read_count(r, h, "ring points", 8 * (size_t) header_dims(h), &npoints))
		return -1;
	if (rings == 1 && npoints == 4)
		for (i = 0; i < 4; i++)
			if (read_point(r, h, 0, pts[i]) < 0)
				return -1;
	if (!gx_io_add_triangle(&r->b, what, rings, npoints, pts, msg, sizeof(msg)))
	{
		gx_io_error_offset(r->err, GX_ERR_PARSE, h->offset, "%s", msg);
		return -1;
	}
	return ok(r) ? 1 : -1;
}

/*
 * Reads the rings of a polygon face ("POLYGON", "POLYHEDRALSURFACE face 3" in errors) and adds the
 * triangles of its triangulation; returns how many, or -1 on error.
 */
static long
read_polygon(WkbReader *r, const WkbHeader *h, const char *what)
{
	uint32_t	rings;
	uint32_t	npoints;
	uint32_t	i,
				k;
	double		xyz[3];
	long		ntri;
	char		msg[GX_IO_MSG];

	if (!read_count(r, h, "rings", 4, &rings))
		return -1;
	for (i = 0; i < rings; i++)
	{
		if (!read_count(r, h, "ring points", 8 * (size_t) header_dims(h), &npoints))
			return -1;
		for (k = 0; k < npoints; k++)
			if (read_point(r, h, 0, xyz) < 0 || !gx_io_polygon_point(&r->polygon, xyz))
				return -1;
		if (!gx_io_polygon_end_ring(&r->polygon))
			return -1;
	}
	ntri = gx_io_polygon_add(&r->polygon, &r->b, what, msg, sizeof(msg));
	if (ntri < 0)
		gx_io_error_offset(r->err, GX_ERR_PARSE, h->offset, "%s", msg);
	return ok(r) ? ntri : -1;
}

/*
 * The TIN triangles, POLYHEDRALSURFACE faces or MULTIPOLYGON polygons: count members, each with its own
 * header; returns the count of triangles they make.
 */
static uint32_t
read_triangles(WkbReader *r, const WkbHeader *h)
{
	uint32_t	count;
	uint32_t	i;
	uint32_t	ntri = 0;
	long		n;
	WkbHeader	m;
	uint32_t	member_type = h->type == GX_TIN ? GX_TRIANGLE : GX_CODE_POLYGON;
	char		what[48];

	/* A member holds at least its header and a count (an empty polygon); a triangle 1 ring of 4 points. */
	if (!read_count(r, h, h->type == GX_TIN ? "triangles" : h->type == GX_POLYHEDRALSURFACE ? "faces" : "polygons",
					h->type == GX_TIN ? 13 + 32 * (size_t) header_dims(h) : 9, &count))
		return 0;
	for (i = 0; i < count && ok(r); i++)
	{
		gx_io_member_name(what, sizeof(what), h->type, i + 1);
		if (!read_header(r, 0, &m))
			return 0;
		if (m.type != member_type)
			gx_io_error_offset(r->err, GX_ERR_PARSE, m.offset, "%s has type code %u, expected %u",
							   what, (unsigned) m.type, (unsigned) member_type);
		else if ((n = member_type == GX_TRIANGLE ? read_triangle(r, &m, what, 0) : read_polygon(r, &m, what)) < 0)
			return 0;
		else
			ntri += (uint32_t) n;
	}
	return ntri;
}

/* Starts a node, refusing nesting deeper than the builder allows before any recursion goes further. */
static size_t
begin_node(WkbReader *r, GxType type, size_t offset)
{
	char		msg[GX_IO_MSG];

	if (!gx_io_depth_allowed(&r->b, msg, sizeof(msg)))
	{
		gx_io_error_offset(r->err, GX_ERR_LIMIT, offset, "%s", msg);
		return 0;
	}
	return gx_builder_begin(&r->b, type);
}

/*
 * Reads one geometry that becomes a node; parent is the type of the enclosing node (0 at the top), which
 * restricts what may appear. Returns 0 on error.
 */
static int
read_geometry(WkbReader *r, uint32_t parent)
{
	WkbHeader	h;
	size_t		node;
	uint32_t	count = 0;
	uint32_t	i;
	double		xyz[3];
	int			res;
	long		ntri;

	if (!read_header(r, parent == 0, &h))
		return 0;
	if ((parent == GX_MULTIPOINT && h.type != GX_POINT) ||
		(parent == GX_MULTILINESTRING && h.type != GX_LINESTRING))
	{
		gx_io_error_offset(r->err, GX_ERR_PARSE, h.offset, "%s member has type code %u, expected %u",
						   gx_type_name(parent), (unsigned) h.type, parent == GX_MULTIPOINT ? GX_POINT : GX_LINESTRING);
		return 0;
	}
	node = begin_node(r, gx_io_stored_type(h.type), h.offset);
	if (!ok(r))
		return 0;
	switch (h.type)
	{
		case GX_POINT:
			res = read_point(r, &h, 1, xyz);
			if (res > 0)
				gx_builder_coord(&r->b, xyz[0], xyz[1], xyz[2]);
			count = res > 0;
			break;
		case GX_LINESTRING:
			if (!read_count(r, &h, "points", 8 * (size_t) header_dims(&h), &count))
				break;
			if (count == 1)
				gx_io_error_offset(r->err, GX_ERR_PARSE, h.offset, "LINESTRING must have 0 or at least 2 points, got 1");
			gx_builder_reserve(&r->b, 24 * (size_t) count);
			for (i = 0; i < count && ok(r) && read_point(r, &h, 0, xyz) > 0; i++)
				gx_builder_coord(&r->b, xyz[0], xyz[1], xyz[2]);
			break;
		case GX_TRIANGLE:
			count = read_triangle(r, &h, "TRIANGLE", 1) > 0;
			break;
		case GX_CODE_POLYGON:
			ntri = read_polygon(r, &h, "POLYGON");
			count = ntri > 0 ? (uint32_t) ntri : 0;
			break;
		case GX_TIN:
		case GX_POLYHEDRALSURFACE:
		case GX_CODE_MULTIPOLYGON:
			count = read_triangles(r, &h);
			break;
		default:
			if (!read_count(r, &h, "members", 9, &count))
				break;
			for (i = 0; i < count && read_geometry(r, h.type); i++)
				;
			break;
	}
	gx_builder_end(&r->b, node, count);
	return ok(r);
}

GxSerialized *
gx_from_wkb(const unsigned char *wkb, size_t len, size_t *size, GxError *err)
{
	WkbReader	r;

	err->code = GX_OK;
	err->msg[0] = '\0';
	memset(&r, 0, sizeof(r));
	r.data = wkb;
	r.len = len;
	r.err = err;
	gx_builder_init(&r.b, err);
	gx_io_polygon_init(&r.polygon, err);
	if (read_geometry(&r, 0) && r.pos != len)
		gx_io_error_offset(r.err, GX_ERR_PARSE, r.pos, "%zu trailing bytes after the geometry", len - r.pos);
	gx_io_polygon_free(&r.polygon);
	return gx_io_finish_solid(gx_builder_finish(&r.b, r.srid, size), r.solid, size, err);
}

GxSerialized *
gx_from_hexwkb(const char *hex, size_t *size, GxError *err)
{
	const char *s = hex;
	size_t		n;
	size_t		i;
	int			hi;
	int			lo;
	unsigned char *wkb;
	GxSerialized *g;

	err->code = GX_OK;
	err->msg[0] = '\0';
	while (gx_io_is_space(*s))
		s++;
	n = strlen(s);
	while (n > 0 && gx_io_is_space(s[n - 1]))
		n--;
	for (i = 0; i < n; i++)
		if (gx_io_hex_value(s[i]) < 0)
		{
			gx_error_set(err, GX_ERR_PARSE, s[i] > ' ' && s[i] < 0x7F ? "invalid hex digit '%c' in hex WKB at position %zu" :
						 "invalid hex digit (byte 0x%02X) in hex WKB at position %zu",
						 (unsigned char) s[i], (size_t) (s - hex) + i + 1);
			return NULL;
		}
	if (n % 2 != 0)
	{
		gx_error_set(err, GX_ERR_PARSE, "odd number of hex digits (%zu) in hex WKB at position %zu",
					 n, (size_t) (s - hex) + n);
		return NULL;
	}
	wkb = gx_alloc(n / 2);
	if (wkb == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory decoding %zu bytes of hex WKB", n / 2);
		return NULL;
	}
	for (i = 0; i < n / 2; i++)
	{
		hi = gx_io_hex_value(s[2 * i]);
		lo = gx_io_hex_value(s[2 * i + 1]);
		wkb[i] = (unsigned char) (hi << 4 | lo);
	}
	g = gx_from_wkb(wkb, n / 2, size, err);
	gx_free(wkb);
	return g;
}
