/*
 * test_writers.c: unit tests of the GeoJSON, STL, OBJ and glTF writers: GeoJSON of every type compared with
 * its exact text; STL and OBJ read back by gx_from_stl and gx_from_obj, bit for bit (binary STL within
 * float rounding); glb files taken apart again (header, chunks, accessors, the coordinates they give back),
 * the same from packed items, and refused past a lowered size limit before the file is allocated.
 * A sample glb is left in /tmp/gx_writers_sample.glb for test/glb_check.py. argv[1] (a directory) is not used.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "geom/gx_pack.h"
#include "gx_test.h"
#include "io/gx_io.h"

#define SAMPLE_GLB		"/tmp/gx_writers_sample.glb"

/* The geometry of a WKT text, which must read. */
static GxSerialized *
wkt(const char *text, size_t *size)
{
	GxError		err;
	size_t		ignored;
	GxSerialized *g = gx_from_wkt(text, size != NULL ? size : &ignored, &err);

	CHECK_MSG(g != NULL, "%s: %s", text, err.msg);
	return g;
}

/* Does s start with a JSON number (RFC 8259) of exactly n characters? */
static int
json_number(const char *s, size_t n)
{
	size_t		i = 0;
	size_t		digits;

	if (i < n && s[i] == '-')
		i++;
	if (i < n && s[i] == '0')
		i++;
	else
	{
		for (digits = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
			;
		if (digits == 0 || s[i - digits] == '0')
			return 0;
	}
	if (i < n && s[i] == '.')
	{
		for (i++, digits = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
			;
		if (digits == 0)
			return 0;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E'))
	{
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		for (digits = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
			;
		if (digits == 0)
			return 0;
	}
	return i == n;
}

/* Every number of a JSON text (its runs outside strings that start with a digit or '-') is valid JSON. */
static int
json_numbers_valid(const char *s)
{
	size_t		n;
	int			in_string = 0;

	for (; *s != '\0'; s += n > 0 ? n : 1)
	{
		n = 0;
		if (*s == '"')
			in_string = !in_string;
		if (in_string || !(*s == '-' || (*s >= '0' && *s <= '9') || *s == '.' || *s == '+'))
			continue;
		n = strcspn(s, ",]}");
		if (!json_number(s, n))
			return 0;
	}
	return 1;
}

static void
check_geojson(const char *text, int digits, const char *want)
{
	GxSerialized *g = wkt(text, NULL);
	size_t		len = 0;
	char	   *json = g != NULL ? gx_to_geojson(g, digits, &len) : NULL;

	CHECK_MSG(json != NULL && strcmp(json, want) == 0 && len == strlen(want),
			  "GeoJSON of %s, digits %d: expected %s, got %s", text, digits, want, json ? json : "NULL");
	CHECK_MSG(json != NULL && json_numbers_valid(json), "GeoJSON of %s: a number is not valid JSON: %s", text,
			  json ? json : "NULL");
	gx_free(json);
	gx_free(g);
}

/* Every type, empties, collections; shortest numbers, then rounded ones. */
static void
test_geojson(void)
{
	check_geojson("POINT Z (1 2 3)", -1, "{\"type\":\"Point\",\"coordinates\":[1,2,3]}");
	check_geojson("SRID=32633;POINT (1 2)", -1, "{\"type\":\"Point\",\"coordinates\":[1,2,0]}");
	check_geojson("POINT EMPTY", -1, "{\"type\":\"Point\",\"coordinates\":[]}");
	/* shortest: -0 keeps its sign (it reads back as -0.0), exponents as %g writes them, all valid JSON */
	check_geojson("LINESTRING Z (0.1 1e-300 -0,1e300 -2.5 0.000015,5e-324 123456789.12345679 -1e21)", -1,
				  "{\"type\":\"LineString\",\"coordinates\":[[0.1,1e-300,-0],[1e+300,-2.5,1.5e-5],"
				  "[5e-324,123456789.12345679,-1e+21]]}");
	/* 3 digits: rounded, trailing zeros trimmed, never -0, from 2^53 on the shortest form */
	check_geojson("LINESTRING Z (0.1 1e-300 -0,1e300 -2.5 0.000015,5e-324 123456789.12345679 -1e21)", 3,
				  "{\"type\":\"LineString\",\"coordinates\":[[0.1,0,0],[1e+300,-2.5,0],[0,123456789.123,-1e+21]]}");
	check_geojson("POINT Z (1.23456 -0.0004 2.0004)", 3, "{\"type\":\"Point\",\"coordinates\":[1.235,0,2]}");
	check_geojson("POINT Z (1e15 0.000015 -1.5e-5)", 6,
				  "{\"type\":\"Point\",\"coordinates\":[1000000000000000,0.000015,-0.000015]}");
	check_geojson("POINT Z (2.5 -7.25 9007199254740993)", 0,
				  "{\"type\":\"Point\",\"coordinates\":[2,-7,9007199254740992]}");
	/* above 17 digits count as 17; a short number stays short */
	check_geojson("POINT Z (0.1 1e-20 0.012345678901234568)", 40,
				  "{\"type\":\"Point\",\"coordinates\":[0.1,0,0.01234567890123457]}");
	check_geojson("LINESTRING EMPTY", -1, "{\"type\":\"LineString\",\"coordinates\":[]}");
	check_geojson("MULTIPOINT Z ((1 2 3),EMPTY,(4 5 6))", -1,
				  "{\"type\":\"MultiPoint\",\"coordinates\":[[1,2,3],[4,5,6]]}");
	check_geojson("MULTIPOINT EMPTY", -1, "{\"type\":\"MultiPoint\",\"coordinates\":[]}");
	check_geojson("MULTILINESTRING Z ((0 0 0,1 1 1),EMPTY,(2 2 2,3 3 3,4 4 4))", -1,
				  "{\"type\":\"MultiLineString\",\"coordinates\":[[[0,0,0],[1,1,1]],[[2,2,2],[3,3,3],[4,4,4]]]}");
	check_geojson("MULTILINESTRING EMPTY", -1, "{\"type\":\"MultiLineString\",\"coordinates\":[]}");
	check_geojson("TRIANGLE Z ((0 0 0,1 0 0,0 1 0,0 0 0))", -1,
				  "{\"type\":\"Polygon\",\"coordinates\":[[[0,0,0],[1,0,0],[0,1,0],[0,0,0]]]}");
	check_geojson("TRIANGLE EMPTY", -1, "{\"type\":\"Polygon\",\"coordinates\":[]}");
	check_geojson("TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((1 0 0,1 1 0,0 1 0,1 0 0)))", -1,
				  "{\"type\":\"MultiPolygon\",\"coordinates\":[[[[0,0,0],[1,0,0],[0,1,0],[0,0,0]]],"
				  "[[[1,0,0],[1,1,0],[0,1,0],[1,0,0]]]]}");
	check_geojson("TIN EMPTY", -1, "{\"type\":\"MultiPolygon\",\"coordinates\":[]}");
	check_geojson("POLYHEDRALSURFACE Z (((0 0 0,1 0 0,0 1 0,0 0 0)))", 2,
				  "{\"type\":\"MultiPolygon\",\"coordinates\":[[[[0,0,0],[1,0,0],[0,1,0],[0,0,0]]]]}");
	check_geojson("SOLID Z ((((0 0 0,0 1 0,1 0 0,0 0 0)),((0 0 0,1 0 0,0 0 1,0 0 0)),((0 0 0,0 0 1,0 1 0,0 0 0)),"
				  "((1 0 0,0 1 0,0 0 1,1 0 0))))", -1,
				  "{\"type\":\"MultiPolygon\",\"coordinates\":[[[[0,0,0],[0,1,0],[1,0,0],[0,0,0]]],"
				  "[[[0,0,0],[1,0,0],[0,0,1],[0,0,0]]],[[[0,0,0],[0,0,1],[0,1,0],[0,0,0]]],"
				  "[[[1,0,0],[0,1,0],[0,0,1],[1,0,0]]]]}");
	check_geojson("GEOMETRYCOLLECTION Z (POINT Z (1 2 3),TIN EMPTY,GEOMETRYCOLLECTION EMPTY,"
				  "GEOMETRYCOLLECTION Z (LINESTRING Z (0 0 0,0.123456 1 1)),POINT EMPTY)", 3,
				  "{\"type\":\"GeometryCollection\",\"geometries\":[{\"type\":\"Point\",\"coordinates\":[1,2,3]},"
				  "{\"type\":\"MultiPolygon\",\"coordinates\":[]},{\"type\":\"GeometryCollection\",\"geometries\":[]},"
				  "{\"type\":\"GeometryCollection\",\"geometries\":[{\"type\":\"LineString\",\"coordinates\":"
				  "[[0,0,0],[0.123,1,1]]}]},{\"type\":\"Point\",\"coordinates\":[]}]}");
	check_geojson("GEOMETRYCOLLECTION EMPTY", -1, "{\"type\":\"GeometryCollection\",\"geometries\":[]}");
}

/* A TIN of awkward doubles: tenths, thirds, the smallest ones, large ones with decimals, -0. */
#define AWKWARD_TIN \
	"TIN Z (((0.1 0.3333333333333333 1e-300,123456789.12345679 -0 5e-324,-0.1 2.2250738585072014e-308 7,"\
	"0.1 0.3333333333333333 1e-300)),((1e300 -1e-300 0.30000000000000004,-1e300 1e300 -0,1 2 3,"\
	"1e300 -1e-300 0.30000000000000004)),((500000.1 7000000.2 1234.5,500000.1 7000000.2 1234.5,500001 7000000 1235,"\
	"500000.1 7000000.2 1234.5)))"

/* ASCII STL: the exact text of one facet, then awkward doubles read back bit for bit. */
static void
test_stl_ascii(void)
{
	GxError		err;
	size_t		size,
				size2,
				len;
	GxSerialized *g = wkt("TRIANGLE Z ((0 0 0,2 0 0,0 2 0,0 0 0))", NULL);
	GxSerialized *back;
	GxSerialized *want;
	char	   *text = g != NULL ? gx_to_stl_ascii(g, &len, &err) : NULL;

	CHECK_MSG(text != NULL && strcmp(text, "solid gpuexact\n  facet normal 0 0 1\n    outer loop\n      vertex 0 0 0\n"
									 "      vertex 2 0 0\n      vertex 0 2 0\n    endloop\n  endfacet\nendsolid gpuexact\n") == 0 &&
			  len == strlen(text), "STL text: %s", text ? text : err.msg);
	gx_free(text);
	gx_free(g);

	g = wkt(AWKWARD_TIN, &size);
	text = g != NULL ? gx_to_stl_ascii(g, &len, &err) : NULL;
	CHECK_MSG(text != NULL, "STL of the awkward TIN: %s", err.msg);
	/* the degenerate third triangle has no direction */
	CHECK(text != NULL && strstr(text, "facet normal 0 0 0\n") != NULL);
	back = text != NULL ? gx_from_stl((const unsigned char *) text, len, &size2, &err) : NULL;
	CHECK_MSG(back != NULL && size2 == size && memcmp(back, g, size) == 0, "STL text read back differs: %s",
			  back ? "other bytes" : err.msg);
	gx_free(back);
	gx_free(text);
	gx_free(g);

	/* a collection of surfaces is one mesh; an empty surface a mesh of no facet */
	g = wkt("GEOMETRYCOLLECTION Z (TRIANGLE Z ((0 0 0,1 0 0,0 1 0,0 0 0)),TIN EMPTY,"
			"GEOMETRYCOLLECTION Z (POLYHEDRALSURFACE Z (((0 0 1,1 0 1,0 1 1,0 0 1)),((0 0 2,1 0 2,0 1 2,0 0 2)))))", NULL);
	want = wkt("TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((0 0 1,1 0 1,0 1 1,0 0 1)),((0 0 2,1 0 2,0 1 2,0 0 2)))", &size);
	text = g != NULL ? gx_to_stl_ascii(g, &len, &err) : NULL;
	back = text != NULL ? gx_from_stl((const unsigned char *) text, len, &size2, &err) : NULL;
	CHECK_MSG(back != NULL && want != NULL && size2 == size && memcmp(back, want, size) == 0, "collection as STL: %s",
			  back ? "another TIN" : err.msg);
	gx_free(back);
	gx_free(text);
	gx_free(want);
	gx_free(g);

	g = wkt("TIN EMPTY", NULL);
	text = g != NULL ? gx_to_stl_ascii(g, &len, &err) : NULL;
	CHECK_MSG(text != NULL && strcmp(text, "solid gpuexact\nendsolid gpuexact\n") == 0, "empty STL: %s",
			  text ? text : err.msg);
	back = text != NULL ? gx_from_stl((const unsigned char *) text, len, &size2, &err) : NULL;
	CHECK_MSG(back != NULL && gx_body(back)->type == GX_TIN && gx_body(back)->count == 0, "empty STL read back: %s",
			  back ? "not TIN EMPTY" : err.msg);
	gx_free(back);
	gx_free(text);
	gx_free(g);
}

static uint32_t
le32(const unsigned char *s)
{
	return (uint32_t) s[0] | (uint32_t) s[1] << 8 | (uint32_t) s[2] << 16 | (uint32_t) s[3] << 24;
}

static float
le_float(const unsigned char *s)
{
	uint32_t	bits = le32(s);
	float		f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

/* Binary STL: layout, every coordinate read back as its nearest float, the range error. */
static void
test_stl_binary(void)
{
	GxError		err;
	size_t		size,
				size2,
				len = 0;
	GxSerialized *g = wkt("TIN Z (((0.1 0.3333333333333333 1e-300,123456789.12345679 -0 5e-324,-0.1 2e-308 7,"
						  "0.1 0.3333333333333333 1e-300)),((3e38 -3e38 0.30000000000000004,500000.1 7000000.2 1234.5,"
						  "1 2 3,3e38 -3e38 0.30000000000000004)))", &size);
	unsigned char *bin = g != NULL ? gx_to_stl_binary(g, &len, &err) : NULL;
	GxSerialized *back = bin != NULL ? gx_from_stl(bin, len, &size2, &err) : NULL;
	const double *c = g != NULL ? gx_node_coords(gx_body(g)) : NULL;
	const double *r = back != NULL ? gx_node_coords(gx_body(back)) : NULL;
	int			i,
				same = 1;

	CHECK_MSG(bin != NULL && len == 84 + 2 * 50 && le32(bin + 80) == 2 && memcmp(bin, "gpuexact", 8) == 0,
			  "binary STL layout: %s", bin ? "wrong" : err.msg);
	CHECK_MSG(back != NULL && gx_body(back)->count == 2, "binary STL read back: %s", back ? "wrong count" : err.msg);
	for (i = 0; back != NULL && i < 18; i++)
		same &= r[i] == (double) (float) c[i] && signbit(r[i]) == signbit(c[i]);
	CHECK_MSG(back != NULL && same, "binary STL coordinates are not the input rounded to float");
	/* the first facet's normal, a unit vector */
	CHECK(bin != NULL && fabs(hypot(hypot(le_float(bin + 84), le_float(bin + 88)), le_float(bin + 92)) - 1) < 1e-6);
	CHECK(bin != NULL && bin[84 + 48] == 0 && bin[84 + 49] == 0);
	gx_free(back);
	gx_free(bin);
	gx_free(g);

	g = wkt("TIN Z (((0 0 0,1e300 0 0,0 1 0,0 0 0)))", NULL);
	bin = g != NULL ? gx_to_stl_binary(g, &len, &err) : NULL;
	CHECK_MSG(bin == NULL && err.code == GX_ERR_RANGE &&
			  strcmp(err.msg, "binary STL holds float32: coordinate 1e+300 of vertex 2 of facet 1 is beyond its range") == 0,
			  "range error: %d %s", (int) err.code, err.msg);
	gx_free(bin);
	gx_free(g);

	g = wkt("GEOMETRYCOLLECTION EMPTY", NULL);
	bin = g != NULL ? gx_to_stl_binary(g, &len, &err) : NULL;
	back = bin != NULL ? gx_from_stl(bin, len, &size2, &err) : NULL;
	CHECK_MSG(bin != NULL && len == 84 && back != NULL && gx_body(back)->count == 0, "empty binary STL: %s", err.msg);
	gx_free(back);
	gx_free(bin);
	gx_free(g);
}

/* Points and lines, even empty ones, have no place in STL. */
static void
test_stl_errors(void)
{
	static const char *const wkts[][2] = {
		{"LINESTRING Z (0 0 0,1 1 1)", "LINESTRING"},
		{"GEOMETRYCOLLECTION Z (TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0))),POINT EMPTY)", "POINT"},
		{"MULTIPOINT EMPTY", "MULTIPOINT"},
		{"GEOMETRYCOLLECTION Z (GEOMETRYCOLLECTION Z (MULTILINESTRING Z ((0 0 0,1 1 1))))", "MULTILINESTRING"},
	};
	GxError		err;
	char		want[128];
	size_t		len;
	size_t		i;
	int			binary;
	void	   *out;

	for (i = 0; i < sizeof(wkts) / sizeof(wkts[0]); i++)
		for (binary = 0; binary < 2; binary++)
		{
			GxSerialized *g = wkt(wkts[i][0], NULL);

			if (g == NULL)
				continue;
			out = binary ? (void *) gx_to_stl_binary(g, &len, &err) : (void *) gx_to_stl_ascii(g, &len, &err);
			snprintf(want, sizeof(want), "STL holds only triangles: the geometry has a %s", wkts[i][1]);
			CHECK_MSG(out == NULL && err.code == GX_ERR_INVALID && strcmp(err.msg, want) == 0, "STL of %s: %d %s",
					  wkts[i][0], (int) err.code, err.msg);
			gx_free(out);
			gx_free(g);
		}
}

/* Writes g as OBJ and reads it back: the same bytes, or the geometry of WKT back_wkt when not NULL. */
static void
check_obj(const char *text, const char *back_wkt)
{
	GxError		err;
	size_t		size,
				size2,
				len = 0;
	GxSerialized *g = wkt(text, &size);
	GxSerialized *want = back_wkt != NULL ? wkt(back_wkt, &size) : NULL;
	char	   *obj = g != NULL ? gx_to_obj(g, &len) : NULL;
	GxSerialized *back = obj != NULL ? gx_from_obj(obj, len, &size2, &err) : NULL;

	CHECK_MSG(obj != NULL && strncmp(obj, "# gpuexact\n", 11) == 0 && len == strlen(obj), "OBJ of %s", text);
	CHECK_MSG(back != NULL && size2 == size && memcmp(back, want != NULL ? want : g, size) == 0,
			  "OBJ of %s read back differs: %s", text, back ? "other bytes" : err.msg);
	gx_free(back);
	gx_free(obj);
	gx_free(want);
	gx_free(g);
}

static void
test_obj(void)
{
	GxSerialized *g = wkt("TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))", NULL);
	char	   *obj = g != NULL ? gx_to_obj(g, NULL) : NULL;

	CHECK_MSG(obj != NULL && strcmp(obj, "# gpuexact\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n") == 0, "OBJ text: %s",
			  obj ? obj : "NULL");
	gx_free(obj);
	gx_free(g);
	g = wkt("GEOMETRYCOLLECTION Z (LINESTRING Z (1 2 3,4 5 6),POINT EMPTY,POINT Z (7 8 9))", NULL);
	obj = g != NULL ? gx_to_obj(g, NULL) : NULL;
	CHECK_MSG(obj != NULL && strcmp(obj, "# gpuexact\nv 1 2 3\nv 4 5 6\nl 1 2\nv 7 8 9\np 3\n") == 0, "OBJ text: %s",
			  obj ? obj : "NULL");
	gx_free(obj);
	gx_free(g);
	g = wkt("GEOMETRYCOLLECTION EMPTY", NULL);
	obj = g != NULL ? gx_to_obj(g, NULL) : NULL;
	CHECK_MSG(obj != NULL && strcmp(obj, "# gpuexact\n") == 0, "empty OBJ: %s", obj ? obj : "NULL");
	gx_free(obj);
	gx_free(g);

	check_obj(AWKWARD_TIN, NULL);
	check_obj("MULTILINESTRING Z ((0.1 0.2 0.3,1e-300 -0 5e-324,0.1 0.2 0.3),(123456789.12345679 1 2,3 4 5))", NULL);
	check_obj("MULTIPOINT Z ((0.1 -0 1e300),(0.1 -0 1e300),(2 3 4))", NULL);
	check_obj("GEOMETRYCOLLECTION Z (TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((0.1 0 0,1 0 0,0 1 0,0.1 0 0))),"
			  "LINESTRING Z (0 0 0,0.3 0.3 0.3),LINESTRING Z (1 1 1,2 2 2,3 3 3),POINT Z (-0 0.7 1e-300))", NULL);
	/* other surfaces come back as a TIN */
	check_obj("GEOMETRYCOLLECTION Z (TRIANGLE Z ((0 0 0,1 0 0,0 1 0,0 0 0)),"
			  "POLYHEDRALSURFACE Z (((0 0 1,1 0 1,0 1 1,0 0 1))))",
			  "TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((0 0 1,1 0 1,0 1 1,0 0 1)))");
}

/* A glb taken apart: its JSON (NUL-terminated copy) and BIN chunk. */
typedef struct Glb
{
	char	   *json;
	const unsigned char *bin;
	size_t		bin_len;
} Glb;

/* Checks the header and chunks of a glb of len bytes; false when they are wrong. */
static int
parse_glb(const unsigned char *d, size_t len, Glb *g)
{
	size_t		json_len,
				at;

	memset(g, 0, sizeof(*g));
	if (len < 20 || memcmp(d, "glTF", 4) != 0 || le32(d + 4) != 2 || le32(d + 8) != len)
		return 0;
	json_len = le32(d + 12);
	if (le32(d + 16) != 0x4E4F534Au || json_len % 4 != 0 || 20 + json_len > len)
		return 0;
	g->json = gx_alloc(json_len + 1);
	memcpy(g->json, d + 20, json_len);
	g->json[json_len] = '\0';
	/* padded with spaces after the closing brace */
	for (at = json_len; at > 0 && g->json[at - 1] == ' '; at--)
		;
	if (at == 0 || g->json[at - 1] != '}' || json_len - at > 3)
		return 0;
	at = 20 + json_len;
	if (at == len)
		return 1;
	if (at + 8 > len || le32(d + at + 4) != 0x004E4942u || le32(d + at) % 4 != 0 || at + 8 + le32(d + at) != len)
		return 0;
	g->bin = d + at + 8;
	g->bin_len = le32(d + at);
	return 1;
}

/* What the test reads of an accessor: its view, offset in it, count, and min and max (POSITION only). */
typedef struct Accessor
{
	size_t		view,
				offset,
				count;
	int			position;
	double		min[3],
				max[3];
} Accessor;

/*
 * The accessors and bufferViews of gx_to_glb's JSON, read in the forms it writes them; returns how many
 * accessors (at most max), -1 when one is in another form.
 */
static int
read_layout(const char *json, Accessor *acc, int max, size_t (*views)[2], int max_views, int *nviews)
{
	const char *p = strstr(json, "\"accessors\":[");
	const char *end = strstr(json, "],\"bufferViews\":[");
	int			n = 0;
	int			used;

	if (p == NULL || end == NULL)
		return -1;
	for (p += 13; p < end && n < max; p += used + 1, n++)
	{
		Accessor   *a = &acc[n];

		memset(a, 0, sizeof(*a));
		used = 0;
		if (sscanf(p, "{\"bufferView\":%zu,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\",\"min\":[%lf,%lf,%lf],"
				   "\"max\":[%lf,%lf,%lf]}%n", &a->view, &a->count, &a->min[0], &a->min[1], &a->min[2], &a->max[0],
				   &a->max[1], &a->max[2], &used) == 8 && used > 0)
			a->position = 1;
		else if (sscanf(p, "{\"bufferView\":%zu,\"byteOffset\":%zu,\"componentType\":5125,\"count\":%zu,"
						"\"type\":\"SCALAR\"}%n", &a->view, &a->offset, &a->count, &used) != 3 || used == 0)
			return -1;
	}
	/* views up to the first that is not in the form written, or the last (no comma after it) */
	for (*nviews = 0, p = end + 17; p != NULL && *nviews < max_views; (*nviews)++)
	{
		used = 0;
		if (sscanf(p, "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu,\"target\":%*d}%n", &views[*nviews][0],
				   &views[*nviews][1], &used) != 2 || used == 0)
			break;
		p = p[used] == ',' ? p + used + 1 : NULL;
	}
	return n;
}

/* The three numbers after key in json (e.g. "\"translation\":["). */
static int
read_triple(const char *json, const char *key, double v[3])
{
	const char *p = strstr(json, key);

	return p != NULL && sscanf(p + strlen(key), "%lf,%lf,%lf", &v[0], &v[1], &v[2]) == 3;
}

/* Is origin + f the coordinate x, to float rounding of the offset? */
static int
near(double x, double origin, float f)
{
	return fabs(origin + (double) f - x) <= ldexp(fabs(x - origin), -24) + fabs(x) * DBL_EPSILON;
}

static void
write_sample(const unsigned char *data, size_t len)
{
	FILE	   *f = fopen(SAMPLE_GLB, "wb");

	if (f == NULL)
		return;
	fwrite(data, 1, len, f);
	fclose(f);
}

/*
 * A scene of four items: a collection of a TIN (two triangles on four vertices), a linestring and a point,
 * half-transparent red, at UTM coordinates; an empty point; an uncoloured triangle; a red linestring.
 */
static void
test_glb_scene(void)
{
	const char *texts[4] = {
		"GEOMETRYCOLLECTION Z (TIN Z (((500000.125 7000000.5 100.25,500010.3 7000000.5 100.25,500000.125 7000010.7 101,"
		"500000.125 7000000.5 100.25)),((500010.3 7000000.5 100.25,500010.3 7000010.7 99.9,500000.125 7000010.7 101,"
		"500010.3 7000000.5 100.25))),LINESTRING Z (499990 6999990 90,499995.5 6999995.25 95,499999 6999999 99),"
		"POINT Z (500005 7000005 105))",
		"POINT EMPTY",
		"TRIANGLE Z ((500020 7000020 80,500021 7000020 80,500020 7000021 80.5,500020 7000020 80))",
		"LINESTRING Z (499980 6999980 70,499981 6999981 71)",
	};
	GxGlbItem	items[4];
	GxSerialized *g[4];
	GxError		err;
	size_t		len = 0;
	unsigned char *out;
	Glb			glb;
	Accessor	acc[16];
	size_t		views[8][2];
	int			nacc = -1,
				nviews = 0;
	size_t		vertices = 0;	/* of the last POSITION accessor: a mesh's index accessors follow it */
	double		t[3],
				origin[3];
	int			i,
				k,
				ok_data = 1;

	for (i = 0; i < 4; i++)
	{
		g[i] = wkt(texts[i], NULL);
		if (g[i] == NULL)
			return;
		items[i].geom = g[i];
		items[i].has_colour = i != 2;
		items[i].rgba[0] = 1;
		items[i].rgba[1] = items[i].rgba[2] = 0;
		items[i].rgba[3] = 0.5f;
	}
	out = gx_to_glb(items, 4, GX_MAX_SIZE, 0, &len, &err);
	CHECK_MSG(out != NULL, "glb: %s", err.msg);
	CHECK_MSG(out != NULL && parse_glb(out, len, &glb) && glb.bin != NULL, "glb header or chunks are wrong");
	if (out == NULL || glb.json == NULL)
	{
		gx_free(out);
		return;
	}
	write_sample(out, len);
	CHECK(strstr(glb.json, "\"asset\":{\"version\":\"2.0\",\"generator\":\"gpuexact\"}") != NULL);
	CHECK_MSG(strstr(glb.json, "\"nodes\":[{\"rotation\":[-0.7071067811865476,0,0,0.7071067811865476],") != NULL &&
			  strstr(glb.json, "\"children\":[1,2,3]},{\"mesh\":0},{\"mesh\":1},{\"mesh\":2}],") != NULL,
			  "glb nodes: %s", glb.json);
	/* the grey default first, then the red shared by items 1 and 4 */
	CHECK_MSG(strstr(glb.json, "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.75,0.75,0.75,1],"
					 "\"metallicFactor\":0,\"roughnessFactor\":1},\"doubleSided\":true},{\"pbrMetallicRoughness\":"
					 "{\"baseColorFactor\":[1,0,0,0.5],\"metallicFactor\":0,\"roughnessFactor\":1},\"doubleSided\":true,"
					 "\"alphaMode\":\"BLEND\"}]") != NULL, "glb materials: %s", glb.json);
	CHECK_MSG(strstr(glb.json, "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1,\"mode\":4,"
					 "\"material\":1},{\"attributes\":{\"POSITION\":0},\"indices\":2,\"mode\":1,\"material\":1},"
					 "{\"attributes\":{\"POSITION\":0},\"indices\":3,\"mode\":0,\"material\":1}]},{\"primitives\":"
					 "[{\"attributes\":{\"POSITION\":4},\"indices\":5,\"mode\":4,\"material\":0}]},{\"primitives\":"
					 "[{\"attributes\":{\"POSITION\":6},\"indices\":7,\"mode\":1,\"material\":1}]}]") != NULL,
			  "glb meshes: %s", glb.json);
	CHECK(json_numbers_valid(glb.json));
	CHECK(strstr(glb.json, "[]") == NULL);

	/* the root's translation is the origin turned Z-up to Y-up: (ox, oz, -oy), the centre of all boxes */
	origin[0] = 499980 * 0.5 + 500021 * 0.5;
	origin[1] = 6999980 * 0.5 + 7000021 * 0.5;
	origin[2] = 70 * 0.5 + 105 * 0.5;
	CHECK_MSG(read_triple(glb.json, "\"translation\":[", t) && t[0] == origin[0] && t[1] == origin[2] &&
			  t[2] == -origin[1], "glb translation: %s", glb.json);

	nacc = read_layout(glb.json, acc, 16, views, 8, &nviews);
	CHECK_MSG(nacc == 8 && nviews == 6, "glb layout: %d accessors, %d bufferViews: %s", nacc, nviews, glb.json);
	if (nacc == 8 && nviews == 6)
	{
		const double *tin = gx_node_coords(gx_body(g[0]) + 1);
		const double *line = gx_node_coords(gx_node_next(gx_body(g[0]) + 1));
		const double *pt = gx_node_coords(gx_node_next(gx_node_next(gx_body(g[0]) + 1)));
		const float *pos;
		const uint32_t *idx;

		/* views in range and aligned, the buffer exact */
		for (i = 0; i < nviews; i++)
			CHECK(views[i][0] % 4 == 0 && views[i][0] + views[i][1] <= glb.bin_len);
		CHECK(views[5][0] + views[5][1] == glb.bin_len);
		/* mesh 1: 4 + 3 + 1 distinct vertices; 6, 4 and 1 indices */
		CHECK(acc[0].position && acc[0].count == 8 && acc[1].count == 6 && acc[2].count == 4 && acc[3].count == 1);
		CHECK(acc[4].position && acc[4].count == 3 && acc[5].count == 3 && acc[6].position && acc[6].count == 2);
		/* every POSITION's min and max are its data's; every index is below its vertex count */
		for (i = 0; i < nacc; i++)
		{
			size_t		j;

			if (acc[i].position)
			{
				vertices = acc[i].count;
				double		lo[3] = {INFINITY, INFINITY, INFINITY},
							hi[3] = {-INFINITY, -INFINITY, -INFINITY};

				pos = (const float *) (glb.bin + views[acc[i].view][0]);
				CHECK(views[acc[i].view][1] == 12 * acc[i].count);
				for (j = 0; j < 3 * acc[i].count; j++)
				{
					lo[j % 3] = fmin(lo[j % 3], pos[j]);
					hi[j % 3] = fmax(hi[j % 3], pos[j]);
				}
				for (k = 0; k < 3; k++)
					CHECK_MSG(lo[k] == acc[i].min[k] && hi[k] == acc[i].max[k], "accessor %d min/max %d", i, k);
				continue;
			}
			idx = (const uint32_t *) (glb.bin + views[acc[i].view][0] + acc[i].offset);
			for (j = 0; j < acc[i].count; j++)
				ok_data &= idx[j] < vertices;
		}
		CHECK_MSG(ok_data, "an index is past its vertex count");

		/* mesh 1 gives back the input: triangles, the segments (a, b), (b, c), the point */
		pos = (const float *) (glb.bin + views[1][0]);
		idx = (const uint32_t *) (glb.bin + views[0][0]);
		for (i = 0; i < 18; i++)
			ok_data &= near(tin[i], origin[i % 3], pos[3 * idx[i / 3] + i % 3]);
		for (i = 0; i < 12; i++)
			ok_data &= near(line[3 * ((i / 3 + 1) / 2) + i % 3], origin[i % 3], pos[3 * idx[6 + i / 3] + i % 3]);
		for (k = 0; k < 3; k++)
			ok_data &= near(pt[k], origin[k], pos[3 * idx[10] + k]);
		CHECK_MSG(ok_data, "glb coordinates do not give back the input");
		/* the TIN's shared edge: its second triangle reuses two vertices */
		CHECK(idx[3] == idx[1] && idx[5] == idx[2]);
	}
	gx_free(glb.json);
	gx_free(out);
	for (i = 0; i < 4; i++)
		gx_free(g[i]);
}

/* No item, or only empty ones: one empty node and no buffer; colours and ranges refused. */
static void
test_glb_edges(void)
{
	const char *empty_json = "{\"asset\":{\"version\":\"2.0\",\"generator\":\"gpuexact\"},\"scene\":0,"
		"\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{}]}";
	GxSerialized *e = wkt("GEOMETRYCOLLECTION Z (POINT EMPTY,TIN EMPTY)", NULL);
	GxSerialized *far = wkt("LINESTRING Z (-1e300 0 0,1e300 0 0)", NULL);
	GxSerialized *p = wkt("POINT Z (1e300 -1e300 0)", NULL);
	GxGlbItem	item = {e, false, {0, 0, 0, 0}};
	GxError		err;
	size_t		len = 0;
	unsigned char *out;
	Glb			glb = {NULL, NULL, 0};

	out = gx_to_glb(NULL, 0, GX_MAX_SIZE, 0, &len, &err);
	CHECK_MSG(out != NULL && parse_glb(out, len, &glb) && glb.bin == NULL && strncmp(glb.json, empty_json,
																					 strlen(empty_json)) == 0 &&
			  len == 20 + ((strlen(empty_json) + 3) & ~(size_t) 3), "empty glb: %s", out ? glb.json : err.msg);
	gx_free(glb.json);
	gx_free(out);
	out = e != NULL ? gx_to_glb(&item, 1, GX_MAX_SIZE, 0, &len, &err) : NULL;
	CHECK_MSG(out != NULL && parse_glb(out, len, &glb) && glb.bin == NULL && strncmp(glb.json, empty_json,
																					 strlen(empty_json)) == 0,
			  "glb of empty items: %s", out ? glb.json : err.msg);
	gx_free(glb.json);
	gx_free(out);

	/* one point far away: the origin is the point itself, its offset 0 */
	item.geom = p;
	out = p != NULL ? gx_to_glb(&item, 1, GX_MAX_SIZE, 0, &len, &err) : NULL;
	CHECK_MSG(out != NULL && parse_glb(out, len, &glb) && strstr(glb.json, "\"translation\":[1e+300,0,1e+300]") != NULL,
			  "far point: %s", out ? glb.json : err.msg);
	gx_free(glb.json);
	gx_free(out);

	item.geom = far;
	out = far != NULL ? gx_to_glb(&item, 1, GX_MAX_SIZE, 0, &len, &err) : NULL;
	CHECK_MSG(out == NULL && err.code == GX_ERR_RANGE && strcmp(err.msg, "glTF positions are float32 offsets from the "
																 "scene's centre: coordinate -1e+300 of item 1 is beyond their range") == 0,
			  "glb range: %d %s", (int) err.code, err.msg);
	gx_free(out);

	item.geom = e;
	item.has_colour = true;
	item.rgba[0] = 1.5f;
	out = gx_to_glb(&item, 1, GX_MAX_SIZE, 0, &len, &err);
	CHECK_MSG(out == NULL && err.code == GX_ERR_ARG &&
			  strcmp(err.msg, "glTF colour of item 1: component 1 is 1.5, outside [0, 1]") == 0, "glb colour: %s", err.msg);
	gx_free(out);
	item.rgba[0] = 0;
	item.rgba[3] = NAN;
	out = gx_to_glb(&item, 1, GX_MAX_SIZE, 0, &len, &err);
	CHECK_MSG(out == NULL && err.code == GX_ERR_ARG, "glb NaN colour: %s", err.msg);
	gx_free(out);
	gx_free(e);
	gx_free(far);
	gx_free(p);
}

/* The largest single allocation while largest_on: gx_to_glb must not allocate its file when it fails. */
static size_t largest;

static void *
largest_alloc(size_t n)
{
	largest = n > largest ? n : largest;
	return malloc(n);
}

static void *
largest_realloc(void *p, size_t n)
{
	largest = n > largest ? n : largest;
	return realloc(p, n);
}

/* A grid TIN of k by k squares over shared vertices (z = (x + 3 y) / 8), as WKT (gx_alloc'd): it packs. */
static char *
grid_wkt(int k)
{
	static const int corner[6][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 1}};
	size_t		cap = 16 + (size_t) k * k * 8 * 64;
	char	   *s = gx_alloc(cap);
	size_t		at = (size_t) snprintf(s, cap, "TIN Z (");

	for (int i = 0; i < k; i++)
		for (int j = 0; j < k; j++)
			for (int t = 0; t < 2; t++)
			{
				at += (size_t) snprintf(s + at, cap - at, i + j + t == 0 ? "((" : ",((");
				for (int c = 0; c < 4; c++)
				{
					int			x = i + corner[3 * t + c % 3][0],
								y = j + corner[3 * t + c % 3][1];

					at += (size_t) snprintf(s + at, cap - at, "%s%d %d %g", c == 0 ? "" : ",", x, y, (x + 3 * y) / 8.0);
				}
				at += (size_t) snprintf(s + at, cap - at, "))");
			}
	snprintf(s + at, cap - at, ")");
	return s;
}

/*
 * The same file from a packed item and in room; the size limit: a file of exactly limit bytes is made, one
 * byte less is refused with its size, and a limit below the least size (from the index counts) or below BIN
 * is refused without allocating anything of the file's size.
 */
static void
test_glb_limit(void)
{
	static const GxAllocator counting = {largest_alloc, largest_realloc, free, NULL},
				plain = {malloc, realloc, free, NULL};
	char	   *text = grid_wkt(20);
	size_t		size = 0,
				packed_size = 0,
				len = 0,
				full_len = 0,
				least;
	GxSerialized *grid = wkt(text, &size);
	GxSerialized *line = wkt("LINESTRING Z (0 0 0,3 4 5)", NULL);
	GxSerialized *packed = NULL;
	GxGlbItem	items[2] = {{grid, false, {0, 0, 0, 0}}, {line, true, {0, 1, 0, 1}}};
	GxError		err;
	unsigned char *full,
			   *out;
	char		want[200];

	gx_free(text);
	if (grid == NULL || line == NULL)
		return;
	packed = gx_pack(grid, size, &packed_size, &err);
	CHECK_MSG(packed != NULL && packed_size < size / 2, "the grid packs: %zu of %zu bytes", packed_size, size);
	full = gx_to_glb(items, 2, GX_MAX_SIZE, 0, &full_len, &err);
	CHECK_MSG(full != NULL, "glb: %s", err.msg);
	least = 28 + gx_glb_least_bytes(grid) + gx_glb_least_bytes(line);
	CHECK_MSG(gx_glb_least_bytes(grid) == 4 * 3 * 800 + 12 && gx_glb_least_bytes(line) == 4 * 2 + 12 &&
			  (packed == NULL || gx_glb_least_bytes(packed) == gx_glb_least_bytes(grid)),
			  "least bytes %zu %zu", gx_glb_least_bytes(grid), gx_glb_least_bytes(line));
	if (full == NULL || packed == NULL)
		goto done;
	CHECK_MSG(least < full_len, "least %zu, file %zu", least, full_len);

	/* packed: the same bytes; in room: the same bytes after it */
	items[0].geom = packed;
	out = gx_to_glb(items, 2, GX_MAX_SIZE, 0, &len, &err);
	CHECK_MSG(out != NULL && len == full_len && memcmp(out, full, len) == 0, "glb of a packed item differs: %s",
			  out ? "" : err.msg);
	gx_free(out);
	out = gx_to_glb(items, 2, full_len, 8, &len, &err);
	CHECK_MSG(out != NULL && len == full_len && memcmp(out + 8, full, len) == 0, "glb in room, at its limit: %s",
			  out ? "" : err.msg);
	gx_free(out);

	/* one byte less: refused with the file's size */
	out = gx_to_glb(items, 2, full_len - 1, 0, &len, &err);
	snprintf(want, sizeof(want), "the glTF file would be %zu bytes, more than the limit of %zu bytes", full_len,
			 full_len - 1);
	CHECK_MSG(out == NULL && err.code == GX_ERR_LIMIT && strcmp(err.msg, want) == 0, "glb limit: %s", err.msg);
	gx_free(out);

	/* below the least size, and below BIN: refused before anything of the file's size is allocated */
	gx_set_allocator(&counting);
	largest = 0;
	out = gx_to_glb(items, 2, least - 1, 0, &len, &err);
	snprintf(want, sizeof(want), "the glTF file would be at least %zu bytes, more than the limit of %zu bytes",
			 least, least - 1);
	CHECK_MSG(out == NULL && err.code == GX_ERR_LIMIT && strcmp(err.msg, want) == 0 && largest < 1000,
			  "glb least limit: %s, largest allocation %zu", err.msg, largest);
	gx_free(out);
	largest = 0;
	out = gx_to_glb(items, 2, least, 0, &len, &err);
	CHECK_MSG(out == NULL && err.code == GX_ERR_LIMIT && strstr(err.msg, "would be at least ") != NULL &&
			  largest < full_len, "glb BIN limit: %s, largest allocation %zu", err.msg, largest);
	gx_free(out);
	gx_set_allocator(&plain);
done:
	gx_free(full);
	gx_free(packed);
	gx_free(grid);
	gx_free(line);
}

int
main(int argc, char **argv)
{
	(void) argc;
	(void) argv;
	test_geojson();
	test_stl_ascii();
	test_stl_binary();
	test_stl_errors();
	test_obj();
	test_glb_scene();
	test_glb_edges();
	test_glb_limit();
	return gx_test_report("test_writers");
}
