/* gx_io.h: reading and writing geometries as WKT/EWKT and ISO WKB/PostGIS EWKB (and hex EWKB). */
#ifndef GX_IO_H
#define GX_IO_H

#include <stdbool.h>
#include <stddef.h>

#include "geom/gx_geom.h"

/*
 * Reads WKT or EWKT ("SRID=32633;LINESTRING Z (...)"), case-insensitive, surrounding whitespace allowed.
 * 2D input gets Z = 0; M values are read and dropped; POLYGON, MULTIPOLYGON and POLYHEDRALSURFACE faces are
 * stored as their exact triangulation (gx_io_polygon.c). Returns a gx_alloc'd buffer (size in *size) or NULL
 * with err set (GX_ERR_PARSE with the character position and the part at fault, or GX_ERR_LIMIT).
 */
GxSerialized *gx_from_wkt(const char *text, size_t *size, GxError *err);

/* Reads a whole hex-encoded (E)WKB string (as PostGIS prints geometries). */
GxSerialized *gx_from_hexwkb(const char *hex, size_t *size, GxError *err);

/*
 * Reads ISO WKB (Z codes 1000+, M 2000+, ZM 3000+) or PostGIS EWKB (Z/M/SRID flags), either byte order.
 * SRID from EWKB, else 0. Every byte must be consumed. Polygon faces as gx_from_wkt reads them.
 */
GxSerialized *gx_from_wkb(const unsigned char *wkb, size_t len, size_t *size, GxError *err);

/*
 * Reads an STL mesh, binary or ASCII, as a TIN (facet normals are checked for finiteness, then ignored).
 * Malformed files (empty, wrong face count, a facet without exactly three vertices, missing endsolid,
 * non-numbers) fail with GX_ERR_PARSE naming the facet or byte/line at fault.
 */
GxSerialized *gx_from_stl(const unsigned char *data, size_t len, size_t *size, GxError *err);

/*
 * Reads Wavefront OBJ text (len bytes, NUL not special): vertices "v x y z" (a fourth number, the weight, or
 * three more, a colour, dropped), faces "f" (references v, v/vt, v//vn, v/vt/vn; negative ones count back),
 * polylines "l" and points "p". A face of 3 vertices is a triangle as it is; a larger one is its exact
 * triangulation (gx_face.h) when it is planar and simple, and refused otherwise. Only faces make a TIN, only polylines
 * a MULTILINESTRING, only points (or vertices without any element) a MULTIPOINT, and a mix a
 * GEOMETRYCOLLECTION (the TIN, then each LINESTRING, then each POINT). Errors name the line at fault.
 */
GxSerialized *gx_from_obj(const char *data, size_t len, size_t *size, GxError *err);

/*
 * Reads ASCII DXF (len bytes): the 3DFACE, LINE, 3D POLYLINE and polyface mesh entities of its ENTITIES
 * section, as gx_from_obj writes faces and polylines; other sections and entities are skipped. Errors name
 * the line at fault.
 */
GxSerialized *gx_from_dxf(const char *data, size_t len, size_t *size, GxError *err);

/* Writes ISO WKT ("TIN Z (((...)))"), prefixed by "SRID=n;" when with_srid and srid != 0. gx_alloc'd; len may be NULL. */
char	   *gx_to_wkt(const GxSerialized *g, int with_srid, size_t *len);

/*
 * Is the (E)WKT of g (serialized in size bytes), with any SRID, at most limit bytes long? Cheap from the
 * counts when they settle it; otherwise the text is measured (seconds for millions of triangles).
 */
bool		gx_wkt_fits(const GxSerialized *g, size_t size, size_t limit);

typedef enum GxWkbVariant
{
	GX_WKB_ISO,					/* type + 1000, no SRID */
	GX_WKB_EWKB					/* PostGIS: Z flag, SRID flag on the outer geometry when srid != 0 */
} GxWkbVariant;

/* Writes WKB in the machine's byte order (NDR on x86). gx_alloc'd. */
unsigned char *gx_to_wkb(const GxSerialized *g, GxWkbVariant variant, size_t *len);

/* Whether the n characters at s spell a number in decimal notation (strtod also reads hex, inf and nan). */
bool		gx_io_is_decimal(const char *s, size_t n);

#endif
