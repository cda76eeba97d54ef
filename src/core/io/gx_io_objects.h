/*
 * gx_io_objects.h: readers of files that hold several named objects (GOCAD ASCII, Surpac string and DTM),
 * each object one geometry with its name and its properties as JSON text, and the list they fill.
 */
#ifndef GX_IO_OBJECTS_H
#define GX_IO_OBJECTS_H

#include <stddef.h>
#include <stdint.h>

#include "geom/gx_geom.h"
#include "io/gx_text_out.h"

typedef struct GxIoObject
{
	char	   *name;			/* gx_alloc'd, NULL when the object has none */
	char	   *properties;		/* a JSON object, gx_alloc'd, NULL when none */
	GxSerialized *geom;			/* gx_alloc'd */
	size_t		size;			/* of geom */
} GxIoObject;

typedef struct GxIoObjects
{
	GxIoObject *items;
	size_t		n,
				cap;
} GxIoObjects;

/* Frees every object and the list (left empty). */
void		gx_io_objects_free(GxIoObjects *o);

/*
 * Appends an object, taking name, properties and geom; 0 with err set when memory runs out, or when err
 * is already set or geom is NULL (then all three are freed).
 */
int			gx_io_objects_add(GxIoObjects *o, char *name, char *properties, GxSerialized *geom, size_t size,
							  GxError *err);

/* Appends the n bytes at s to t as a JSON string, quoted and escaped. */
void		gx_text_put_json_string(GxTextOut *t, const char *s, size_t n);

/*
 * GOCAD ASCII (len bytes): every TSurf, PLine, VSet and Well object, in file order; objects of other
 * types (SGrid, Voxet, TSolid, ...) are skipped, and a file without any object read fails.
 * TSurf: the triangles (TRGL) of all its TFACE blocks as one TIN. PLine: its segments (SEG) chained into
 * a MULTILINESTRING (a segment that starts where the one before ended, in the same ILINE, continues its
 * linestring). VSet: its vertices as a MULTIPOINT. Well: its path as a LINESTRING, each PATH record
 * "zm z dx dy" at WREF + (dx, dy) and height z (a POINT with one PATH record, WREF as a POINT without).
 * Vertices are VRTX and PVRTX records (control-node flags such as CNXYZ after them are allowed); ATOM and
 * PATOM repeat the vertex they name. With ZPOSITIVE Depth every z is negated (0 - z: a depth of 0 is
 * height +0). The name is the header's "name"; the properties are {"type": ..., "header": {key: value
 * ...}, "coordinate_system": {key: text ...}, "vertex_properties": {name: [one value, or an array of
 * ESIZES values, per vertex record in file order; null for NO_DATA_VALUES and for a vertex without
 * properties] ...}}, and for a Well "md": [the measured depth of each PATH record]; a member only when
 * the file has it. Records this reader does not use (TFACE, BSTONE, BORDER, PROPERTY_CLASS_HEADER blocks,
 * well curves, ...) are skipped; a malformed record of those it uses fails with GX_ERR_PARSE naming the
 * line and what was expected. Returns 1, or 0 with err set (out untouched).
 */
int			gx_from_gocad(const char *data, size_t len, GxIoObjects *out, GxError *err);

/*
 * Surpac string file (.str): a header line, an axis record, then records "string, y, x, z[, d1, d2, ...]"
 * (northing before easting), each run of records ended by a line of string number 0, the last such line
 * ending in "END". Each run (a segment) is one object: a LINESTRING, or a POINT when it has one record;
 * a change of string number without a separator also starts a segment. The name is the string number;
 * the properties {"string": n, "segment": its number in the file (1-based)} and, when a record of the
 * segment has descriptors, "descriptors": [[d1, d2, ...] as strings, trailing empty ones dropped, one
 * array per point]. Returns 1, or 0 with err set.
 */
int			gx_from_surpac_str(const char *data, size_t len, GxIoObjects *out, GxError *err);

/*
 * Surpac DTM (.dtm): after its own string records (read as in a .str, after its one header line), each
 * TRISOLATION of each OBJECT is one TIN of its triangle records "n, v1, v2, v3, ...", whose vertex numbers
 * count the point records of the string file str (slen bytes; 1-based, separator lines not counted), or
 * of the DTM's own string records when str is NULL. The name is "<object>.<trisolation>"; the properties
 * {"object": n, "trisolation": m} and the TRISOLATION record's key=value settings as strings.
 */
int			gx_from_surpac_dtm(const char *data, size_t len, const char *str, size_t slen, GxIoObjects *out,
							   GxError *err);

/*
 * The distinct vertices (equal when their doubles are equal bit for bit, so -0 and +0 differ) of the n
 * points at v (3 doubles each): ids[i] (0-based) numbers point i's vertex, and *order (gx_alloc'd) lists,
 * for each id, one point having it. Returns how many there are; 0 with err set when memory runs out.
 */
size_t		gx_io_vertex_ids(const double *v, size_t n, uint32_t *ids, size_t **order, GxError *err);

/*
 * GOCAD ASCII of g: its triangles as one TSurf (each distinct vertex once), its linestrings as one PLine
 * (an ILINE each), its points as one VSet, in that order, each object named name (line breaks and braces
 * made spaces), ZPOSITIVE Elevation, numbers as shortest round-trip decimals, so that gx_from_gocad reads
 * back the same doubles: a TIN, MULTILINESTRING and MULTIPOINT (a TRIANGLE as a TIN of one, a LINESTRING
 * as a MULTILINESTRING of one). An EMPTY geometry fails with GX_ERR_INVALID. gx_alloc'd.
 */
char	   *gx_to_gocad(const GxSerialized *g, const char *name, size_t *len, GxError *err);

/*
 * Surpac string file of g's linestrings and points, each one segment of string number string (1 to
 * 32000), records "string, y, x, z" in shortest round-trip decimals, so that gx_from_surpac_str reads back
 * the same doubles. Triangles fail with GX_ERR_INVALID (gx_to_surpac_dtm writes them), as does an EMPTY
 * geometry. gx_alloc'd.
 */
char	   *gx_to_surpac(const GxSerialized *g, long string, size_t *len, GxError *err);

/*
 * Surpac DTM of g's triangles: *str the string file (its distinct vertices, one segment of string 1),
 * *dtm the DTM naming it "<name>.str", one OBJECT of one TRISOLATION of the triangles over those vertices;
 * gx_from_surpac_dtm reads back the same triangles. Anything but triangles, or none, fails with
 * GX_ERR_INVALID. Returns 1, or 0 with err set.
 */
int			gx_to_surpac_dtm(const GxSerialized *g, const char *name, char **str, size_t *slen, char **dtm,
							 size_t *dlen, GxError *err);

#endif
