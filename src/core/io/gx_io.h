/*
 * gx_io.h: reading and writing geometries: WKT/EWKT and ISO WKB/PostGIS EWKB (and hex EWKB) both ways; STL,
 * OBJ and DXF read; GeoJSON, STL, OBJ, binary glTF and HTML pages written.
 */
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
 * Writes RFC 7946 GeoJSON with Z, compact: POINT, LINESTRING, MULTIPOINT and MULTILINESTRING as their
 * namesakes (empty members of the last two left out: a position cannot be empty), a TRIANGLE as a Polygon of
 * one closed ring, a TIN or POLYHEDRALSURFACE (a solid too) as a MultiPolygon of such triangles, a
 * GEOMETRYCOLLECTION as a GeometryCollection; an EMPTY one with "coordinates":[] ("geometries":[]). No SRID
 * (RFC 7946 has no crs). digits < 0: every coordinate as the shortest decimal that reads back to the same
 * double ("-0" for -0.0, exponents as in "1e+300"); digits >= 0 (above 17 counts as 17): at most that many
 * digits after the decimal point: the shortest form when it has no more, else the value correctly rounded,
 * trailing zeros trimmed; never "-0"; a coordinate of magnitude 2^53 or more (an integer) in its shortest
 * form. gx_alloc'd (NULL when memory runs out); len may be NULL.
 */
char	   *gx_to_geojson(const GxSerialized *g, int digits, size_t *len);

/*
 * STL of the triangles of g (a TRIANGLE, TIN, POLYHEDRALSURFACE, or collections of them; EMPTY ones give
 * no facet). ASCII: "solid gpuexact", each facet with its unit normal (computed in double; 0 0 0 for a
 * degenerate triangle) and vertices as shortest round-trip decimals, so gx_from_stl reads back the same
 * doubles. Binary: an 80-byte header, the facet count, 50-byte facets of little-endian float32, every number
 * rounded to the nearest float (a coordinate beyond float range fails with GX_ERR_RANGE). A geometry that
 * holds a point or a line, even an empty one, fails with GX_ERR_INVALID; an output longer than GX_MAX_SIZE
 * with GX_ERR_LIMIT. gx_alloc'd.
 */
char	   *gx_to_stl_ascii(const GxSerialized *g, size_t *len, GxError *err);
unsigned char *gx_to_stl_binary(const GxSerialized *g, size_t *len, GxError *err);

/*
 * Wavefront OBJ text: "# gpuexact", then each leaf of g in order as its own vertices ("v x y z", shortest
 * round-trip decimals, not shared) and element: "f a b c" a triangle, "l a b ..." a linestring, "p a" a
 * point; EMPTY leaves are left out (an EMPTY geometry is the comment alone, which gx_from_obj refuses).
 * gx_from_obj reads back the same doubles, as a TIN, MULTILINESTRING, MULTIPOINT or GEOMETRYCOLLECTION
 * (gx_from_obj says which). gx_alloc'd (NULL when memory runs out); len may be NULL.
 */
char	   *gx_to_obj(const GxSerialized *g, size_t *len);

/* One geometry of a glTF scene, and its colour when has_colour (RGBA, each in [0, 1]). */
typedef struct GxGlbItem
{
	const GxSerialized *geom;
	bool		has_colour;
	float		rgba[4];
} GxGlbItem;

/*
 * Binary glTF 2.0 (.glb) of one scene: a root node holding each item that has coordinates as a child node
 * with one mesh of up to three primitives, its triangles, its linestrings' segments (LINES) and its points
 * (POINTS), indexed (UNSIGNED_INT) over the item's distinct vertices (those of equal float32 positions).
 * Positions are float32 offsets from one origin, the centre of the items' boxes, rounded to the nearest
 * float; the root node turns the scene Z-up to glTF's Y-up and moves it back to the origin (its translation
 * in doubles). Items of the same colour share a material, items without one get light grey (0.75). With no
 * coordinates at all (n may be 0, items then NULL) the scene is one empty node. Every geom is a geometry,
 * packed (gx_pack.h, checked by gx_unpacked_size) or not.
 * The file is made in one allocation of room + *len bytes, which the result points to, the file at result +
 * room (room: a header of the caller's); besides it, the writer needs a scratch array and hash table for the
 * item of the most vertices (about 20 bytes a vertex). Fails with GX_ERR_ARG for a colour component outside
 * [0, 1] (NaN included), GX_ERR_RANGE when an offset is beyond float range, GX_ERR_NOMEM, and GX_ERR_LIMIT
 * when the file would be longer than limit bytes (at most GX_MAX_SIZE), found before the file is allocated:
 * from the items' index counts alone when those pass it (gx_glb_least_bytes), else once the vertices are
 * counted.
 */
unsigned char *gx_to_glb(const GxGlbItem *items, size_t n, size_t limit, size_t room, size_t *len,
						 GxError *err);

/*
 * The fewest bytes geometry g (packed or not) adds to a gx_to_glb file: 4 for each index of its triangles,
 * segments and points, and 12 for one vertex (0 without coordinates). The file of a scene is longer than 28
 * bytes plus the sum over its items: a running check while the items are gathered.
 */
size_t		gx_glb_least_bytes(const GxSerialized *g);

/*
 * A self-contained HTML page that shows the items in 3D in a browser, offline: gx_to_glb's file of them,
 * base64, read by the page's own WebGL viewer (io/viewer/gx_viewer.js: orbit, zoom and pan, z up, axes
 * labelled in the data's coordinates, translucent surfaces), and a legend of the items' distinct labels,
 * each with its colour, in the order of their first item (labels NULL, or an entry NULL: no legend entry;
 * labels are HTML-escaped). The page (NUL-terminated) is made in one allocation of room + *len + 1 bytes,
 * which the result points to, the page at result + room. Fails as gx_to_glb does, GX_ERR_LIMIT when the
 * page would be longer than limit bytes (at most GX_MAX_SIZE).
 */
char	   *gx_to_html(const GxGlbItem *items, const char *const *labels, size_t n, size_t limit, size_t room,
					   size_t *len, GxError *err);

/* The fewest bytes of a page whose glTF file has at least glb_least bytes: the running check of gx_to_html. */
size_t		gx_html_least_bytes(size_t glb_least);

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
