/*
 * gx_geojson_write.c: writes a serialized geometry as RFC 7946 GeoJSON with Z, compact as PostGIS's
 * ST_AsGeoJSON writes it; surfaces become (Multi)Polygons of triangles, since GeoJSON has no TIN.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/gx_format.h"
#include "io/gx_io.h"
#include "io/gx_text_out.h"

#define DIGITS_MAX		17
#define TWO_POW_53		9007199254740992.0	/* from here on every double is an integer */

typedef struct GeoJson
{
	GxTextOut	t;
	int			digits;			/* < 0: shortest round-trip form */
} GeoJson;

/*
 * One coordinate. With digits: its shortest form when that has no more digits after the point (so 0.1 is not
 * written 0.10000000000000001 at 17 digits), else "%.*f", which rounds correctly, trimmed. Below 2^53 "%f"
 * takes at most 16 integer digits; from there on the double is an integer that its shortest form (exponent
 * included, valid JSON) spells exactly in fewer characters than the 300 digits "%f" may take.
 */
static void
put_number(GeoJson *j, double d)
{
	char		buf[64];
	char	   *point;
	size_t		n;

	if (j->digits < 0 || fabs(d) >= TWO_POW_53)
	{
		gx_text_put_double(&j->t, d);
		return;
	}
	n = (size_t) gx_format_double(d, buf);
	point = strchr(buf, '.');
	if (strchr(buf, 'e') != NULL || (point != NULL && (int) (n - (size_t) (point + 1 - buf)) > j->digits))
	{
		n = (size_t) snprintf(buf, sizeof(buf), "%.*f", j->digits, d);
		if (memchr(buf, '.', n) != NULL)
		{
			while (buf[n - 1] == '0')
				n--;
			if (buf[n - 1] == '.')
				n--;
		}
	}
	if (n == 2 && buf[0] == '-' && buf[1] == '0')
		gx_text_put(&j->t, "0", 1);
	else
		gx_text_put(&j->t, buf, n);
}

/* "[x,y,z]" */
static void
put_position(GeoJson *j, const double *c)
{
	int			k;

	for (k = 0; k < 3; k++)
	{
		gx_text_put(&j->t, k == 0 ? "[" : ",", 1);
		put_number(j, c[k]);
	}
	gx_text_put(&j->t, "]", 1);
}

/* "[[x,y,z],...]": n positions from c, then the first one again when close is set. */
static void
put_positions(GeoJson *j, const double *c, size_t n, int close)
{
	size_t		i;

	for (i = 0; i < n + (close ? 1 : 0); i++)
	{
		gx_text_put(&j->t, i == 0 ? "[" : ",", 1);
		put_position(j, c + 3 * (i % n));
	}
	gx_text_put(&j->t, "]", 1);
}

/* The coordinates of a Polygon of one triangle: "[[a,b,c,a]]". */
static void
put_triangle(GeoJson *j, const double *c)
{
	gx_text_put(&j->t, "[", 1);
	put_positions(j, c, 3, 1);
	gx_text_put(&j->t, "]", 1);
}

/*
 * The coordinates of the members of a MULTIPOINT or MULTILINESTRING at n, leaving out empty ones; returns
 * the node after it.
 */
static const GxNode *
put_members(GeoJson *j, const GxNode *n)
{
	const GxNode *child = n + 1;
	uint32_t	i;
	int			first = 1;

	gx_text_put(&j->t, "[", 1);
	for (i = 0; i < n->count; i++, child = gx_node_next(child))
	{
		if (child->count == 0)
			continue;
		if (!first)
			gx_text_put(&j->t, ",", 1);
		first = 0;
		if (child->type == GX_POINT)
			put_position(j, gx_node_coords(child));
		else
			put_positions(j, gx_node_coords(child), child->count, 0);
	}
	gx_text_put(&j->t, "]", 1);
	return child;
}

/* GeoJSON's name of the geometry a node is written as. */
static const char *
geojson_type(uint32_t type)
{
	switch (type)
	{
		case GX_POINT:
			return "Point";
		case GX_LINESTRING:
			return "LineString";
		case GX_MULTIPOINT:
			return "MultiPoint";
		case GX_MULTILINESTRING:
			return "MultiLineString";
		case GX_TRIANGLE:
			return "Polygon";
		case GX_TIN:
		case GX_POLYHEDRALSURFACE:
			return "MultiPolygon";
	}
	return "GeometryCollection";
}

/* Writes the geometry object of node n; returns the node after it. */
static const GxNode *
put_node(GeoJson *j, const GxNode *n)
{
	const double *c = gx_node_coords(n);
	const GxNode *child = n + 1;
	uint32_t	i;

	gx_text_printf(&j->t, "{\"type\":\"%s\",\"%s\":", geojson_type(n->type),
				   n->type == GX_GEOMETRYCOLLECTION ? "geometries" : "coordinates");
	if (n->count == 0)
		gx_text_put(&j->t, "[]", 2);
	else if (n->type == GX_POINT)
		put_position(j, c);
	else if (n->type == GX_LINESTRING)
		put_positions(j, c, n->count, 0);
	else if (n->type == GX_TRIANGLE)
		put_triangle(j, c);
	else if (n->type == GX_MULTIPOINT || n->type == GX_MULTILINESTRING)
		child = put_members(j, n);
	else
	{
		/* the geometries of a collection, or the triangles of a surface */
		for (i = 0; i < n->count; i++)
		{
			gx_text_put(&j->t, i == 0 ? "[" : ",", 1);
			if (n->type == GX_GEOMETRYCOLLECTION)
				child = put_node(j, child);
			else
				put_triangle(j, c + 9 * (size_t) i);
		}
		gx_text_put(&j->t, "]", 1);
	}
	gx_text_put(&j->t, "}", 1);
	/* a collection's children are behind it now; a leaf's coordinates are skipped */
	return gx_leaf_doubles(n->type, n->count) < 0 ? child : gx_node_next(n);
}

char *
gx_to_geojson(const GxSerialized *g, int digits, size_t *len)
{
	GeoJson		j = {{0}, digits > DIGITS_MAX ? DIGITS_MAX : digits};

	put_node(&j, gx_body(g));
	return gx_text_finish(&j.t, len, NULL, "GeoJSON");
}
