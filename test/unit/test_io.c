/*
 * test_io.c: unit tests of WKT/EWKT and WKB/EWKB/hex reading and writing: every type through every
 * format and back, PostGIS literals, both byte orders, every error path, and shortest round-tripping
 * formatting of 100k random doubles.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_format.h"
#include "gx_test.h"
#include "io/gx_io.h"

/* Whether two serialized geometries are byte-identical. */
static int
same(const GxSerialized *a, size_t asize, const GxSerialized *b, size_t bsize)
{
	return a != NULL && b != NULL && asize == bsize && memcmp(a, b, asize) == 0;
}

static char *
to_hex(const unsigned char *b, size_t n)
{
	char	   *s = gx_alloc(2 * n + 1);
	size_t		i;

	for (i = 0; i < n; i++)
	{
		s[2 * i] = "0123456789ABCDEF"[b[i] >> 4];
		s[2 * i + 1] = "0123456789ABCDEF"[b[i] & 15];
	}
	s[2 * n] = '\0';
	return s;
}

/* Writes g as WKB of the variant, reads it back, and checks the result (SRID aside for ISO) and rewrite. */
static void
check_wkb_roundtrip(const GxSerialized *g, size_t size, GxWkbVariant variant)
{
	size_t		len;
	size_t		len2;
	size_t		size2;
	unsigned char *wkb = gx_to_wkb(g, variant, &len);
	unsigned char *wkb2;
	GxError		err;
	GxSerialized *back = gx_from_wkb(wkb, len, &size2, &err);
	GxSerialized *expect = gx_alloc(size);

	memcpy(expect, g, size);
	expect->srid = variant == GX_WKB_ISO ? 0 : g->srid;	/* ISO WKB has no SRID */

	CHECK_MSG(same(back, size2, expect, size), "WKB variant %d: %s", (int) variant, back ? "differs" : err.msg);
	if (back != NULL)
	{
		wkb2 = gx_to_wkb(back, variant, &len2);
		CHECK(len2 == len && memcmp(wkb, wkb2, len) == 0);
		gx_free(wkb2);
	}
	gx_free(expect);
	gx_free(back);
	gx_free(wkb);
}

/* Every way out and back: WKT (with SRID), ISO WKB, EWKB, hex EWKB through both readers. */
static void
check_roundtrips(const GxSerialized *g, size_t size)
{
	size_t		len;
	size_t		size2;
	char	   *text = gx_to_wkt(g, 1, &len);
	char	   *hex;
	unsigned char *wkb;
	GxError		err;
	GxSerialized *back = gx_from_wkt(text, &size2, &err);

	CHECK(strlen(text) == len);
	CHECK_MSG(same(back, size2, g, size), "text round trip of %s: %s", text, back ? "differs" : err.msg);
	gx_free(back);
	check_wkb_roundtrip(g, size, GX_WKB_ISO);
	check_wkb_roundtrip(g, size, GX_WKB_EWKB);
	wkb = gx_to_wkb(g, GX_WKB_EWKB, &len);
	hex = to_hex(wkb, len);
	back = gx_from_hexwkb(hex, &size2, &err);
	CHECK_MSG(same(back, size2, g, size), "hex of %s: %s", text, back ? "differs" : err.msg);
	gx_free(back);
	back = gx_from_wkt(hex, &size2, &err);
	CHECK_MSG(same(back, size2, g, size), "hex as WKT of %s: %s", text, back ? "differs" : err.msg);
	gx_free(back);
	gx_free(hex);
	gx_free(wkb);
	gx_free(text);
}

/* Reads in, expects it to print as out (with SRID), and checks every round trip. */
static void
check_wkt(const char *in, const char *out)
{
	size_t		size;
	size_t		len;
	GxError		err;
	GxSerialized *g = gx_from_wkt(in, &size, &err);
	char	   *text;

	CHECK_MSG(g != NULL && err.code == GX_OK, "parsing %s: %s", in, err.msg);
	if (g == NULL)
		return;
	text = gx_to_wkt(g, 1, &len);
	CHECK_MSG(strcmp(text, out) == 0, "%s printed as %s, expected %s", in, text, out);
	check_roundtrips(g, size);
	gx_free(text);
	gx_free(g);
}

/* The error's code and words: the message must contain want1 and want2 (when not NULL). */
static void
check_error(const char *input, const GxSerialized *g, const GxError *err, GxErrorCode code,
			const char *want1, const char *want2)
{
	CHECK_MSG(g == NULL, "%s: accepted", input);
	CHECK_MSG(err->code == code, "%s: code %d, expected %d (%s)", input, (int) err->code, (int) code, err->msg);
	CHECK_MSG(strstr(err->msg, want1) != NULL, "%s: message \"%s\" lacks \"%s\"", input, err->msg, want1);
	CHECK_MSG(want2 == NULL || strstr(err->msg, want2) != NULL, "%s: message \"%s\" lacks \"%s\"",
			  input, err->msg, want2);
}

static void
wkt_error(const char *in, GxErrorCode code, const char *want1, const char *want2)
{
	size_t		size;
	GxError		err;
	GxSerialized *g = gx_from_wkt(in, &size, &err);

	check_error(in, g, &err, code, want1, want2);
	gx_free(g);
}

static void
hex_error(const char *hex, GxErrorCode code, const char *want1, const char *want2)
{
	size_t		size;
	GxError		err;
	GxSerialized *g = gx_from_hexwkb(hex, &size, &err);

	check_error(hex, g, &err, code, want1, want2);
	gx_free(g);
}

/* Reads hex (E)WKB and expects it to print as out; also checks it is written back unchanged as EWKB. */
static void
check_hex(const char *hex, const char *out, int canonical_ewkb)
{
	size_t		size;
	size_t		len;
	GxError		err;
	GxSerialized *g = gx_from_hexwkb(hex, &size, &err);
	char	   *text;
	unsigned char *wkb;
	char	   *hex2;

	CHECK_MSG(g != NULL, "reading %s: %s", hex, err.msg);
	if (g == NULL)
		return;
	text = gx_to_wkt(g, 1, &len);
	CHECK_MSG(strcmp(text, out) == 0, "%s read as %s, expected %s", hex, text, out);
	if (canonical_ewkb)
	{
		wkb = gx_to_wkb(g, GX_WKB_EWKB, &len);
		hex2 = to_hex(wkb, len);
		CHECK_MSG(strcmp(hex2, hex) == 0, "%s written back as %s", hex, hex2);
		gx_free(hex2);
		gx_free(wkb);
	}
	check_roundtrips(g, size);
	gx_free(text);
	gx_free(g);
}

static void
test_wkt_roundtrips(void)
{
	static const char *const canonical[] = {
		"POINT Z (1 2 3)",
		"POINT Z EMPTY",
		"LINESTRING Z (0 0 0,1 1 1)",
		"LINESTRING Z EMPTY",
		"TRIANGLE Z ((0 0 0,1 0 0,0 1 0,0 0 0))",
		"TRIANGLE Z EMPTY",
		"TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((1 0 0,1 1 0,0 1 0,1 0 0)))",
		"TIN Z EMPTY",
		"POLYHEDRALSURFACE Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((0 0 0,0 1 0,0 0 1,0 0 0)))",
		"POLYHEDRALSURFACE Z EMPTY",
		"MULTIPOINT Z ((1 2 3),(4 5 6))",
		"MULTIPOINT Z ((1 2 3),EMPTY)",
		"MULTIPOINT Z EMPTY",
		"MULTILINESTRING Z ((0 0 0,1 1 1),(2 2 2,3 3 3,4 4 4))",
		"MULTILINESTRING Z (EMPTY,(0 0 0,1 1 1))",
		"MULTILINESTRING Z EMPTY",
		"GEOMETRYCOLLECTION Z (POINT Z (1 2 3),LINESTRING Z (0 0 0,1 1 1))",
		"GEOMETRYCOLLECTION Z EMPTY",
		("GEOMETRYCOLLECTION Z (POINT Z EMPTY,GEOMETRYCOLLECTION Z (TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0))),"
		 "GEOMETRYCOLLECTION Z EMPTY,TRIANGLE Z EMPTY),MULTIPOINT Z EMPTY,MULTILINESTRING Z ((0 0 0,1 1 1)))"),
		"SRID=4326;POINT Z (1 2 3)",
		"SRID=999999;TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))",
		"SRID=32633;GEOMETRYCOLLECTION Z EMPTY",
		"POINT Z (0.1 -0 1e+21)",
		"POINT Z (5e-324 1.7976931348623157e+308 -2.2250738585072014e-308)",
		"POINT Z (1e-5 0.3333333333333333 123456789.123)",
		"LINESTRING Z (500000.25 5000000.125 -12.5,500001 5000001.5 100)",
	};
	size_t		i;

	for (i = 0; i < sizeof(canonical) / sizeof(canonical[0]); i++)
		check_wkt(canonical[i], canonical[i]);

	/* Polygon faces, stored as triangles: convex ones as their fan, others as an exact triangulation. */
	check_wkt("POLYGON((0 0,1 0,1 1,0 1,0 0))", "TIN Z (((0 0 0,1 0 0,1 1 0,0 0 0)),((0 0 0,1 1 0,0 1 0,0 0 0)))");
	check_wkt("POLYGON Z ((0 0 1,1 0 1,0 1 1,0 0 1))", "TIN Z (((0 0 1,1 0 1,0 1 1,0 0 1)))");
	check_wkt("POLYGON M ((0 0 9,1 0 9,0 1 9,0 0 9))", "TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))");
	check_wkt("POLYGON EMPTY", "TIN Z EMPTY");
	check_wkt("MULTIPOLYGON EMPTY", "TIN Z EMPTY");
	check_wkt("POLYGON((0 0,2 0,1 1,2 2,0 2,0 0))",
			  "TIN Z (((0 0 0,2 0 0,1 1 0,0 0 0)),((0 2 0,0 0 0,1 1 0,0 2 0)),((2 2 0,0 2 0,1 1 0,2 2 0)))");
	check_wkt("POLYGON((0 0,1 0,2 0,0 0))", "TIN Z (((0 0 0,1 0 0,2 0 0,0 0 0)))");
	check_wkt("MULTIPOLYGON(((0 0,1 0,0 1,0 0)),EMPTY,((5 5,6 5,6 6,5 5)))",
			  "TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((5 5 0,6 5 0,6 6 0,5 5 0)))");
	check_wkt("POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 0,1 0 0,0 0 1,0 0 0)))",
			  "POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,0 0 0)),((0 0 0,1 1 0,1 0 0,0 0 0)),((0 0 0,1 0 0,0 0 1,0 0 0)))");
	check_wkt("GEOMETRYCOLLECTION(POLYGON((0 0,1 0,0 1,0 0)))", "GEOMETRYCOLLECTION Z (TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0))))");

	/* Accepted spellings. */
	check_wkt("point(1 2)", "POINT Z (1 2 0)");
	check_wkt("  SRID = 32633 ; linestring z ( 1 2 3 , 4 5 6 )  ", "SRID=32633;LINESTRING Z (1 2 3,4 5 6)");
	check_wkt("SRID=0;POINT(1 2)", "POINT Z (1 2 0)");
	check_wkt("\t\nPOINT\n(\n1\t2\r\n)\n", "POINT Z (1 2 0)");
	check_wkt("POINT M (1 2 3)", "POINT Z (1 2 0)");
	check_wkt("POINTM(1 2 3)", "POINT Z (1 2 0)");
	check_wkt("POINTZ(1 2 3)", "POINT Z (1 2 3)");
	check_wkt("PointZM(1 2 3 4)", "POINT Z (1 2 3)");
	check_wkt("POINT ZM (1 2 3 4)", "POINT Z (1 2 3)");
	check_wkt("POINT(1 2 3 4)", "POINT Z (1 2 3)");
	check_wkt("POINT EMPTY", "POINT Z EMPTY");
	check_wkt("point z empty", "POINT Z EMPTY");
	check_wkt("POINT(1. .5 +3e2)", "POINT Z (1 0.5 300)");
	check_wkt("POINT(1E-5 -0.0 0.000001)", "POINT Z (1e-5 -0 1e-6)");
	check_wkt("MULTIPOINT(1 2 3,4 5 6)", "MULTIPOINT Z ((1 2 3),(4 5 6))");
	check_wkt("MULTIPOINT((1 2),EMPTY,3 4)", "MULTIPOINT Z ((1 2 0),EMPTY,(3 4 0))");
	check_wkt("MULTIPOINT M ((1 2 9))", "MULTIPOINT Z ((1 2 0))");
	check_wkt("TRIANGLE((0 0,1 0,0 1,0 0))", "TRIANGLE Z ((0 0 0,1 0 0,0 1 0,0 0 0))");
	check_wkt("TIN(((0 0,1 0,0 1,0 0)))", "TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))");
	check_wkt("POLYHEDRALSURFACE M (((0 0 7,1 0 7,0 1 7,0 0 8)))", "POLYHEDRALSURFACE Z (((0 0 0,1 0 0,0 1 0,0 0 0)))");
	check_wkt("GEOMETRYCOLLECTION(POINT(1 2),GEOMETRYCOLLECTION EMPTY,LINESTRING EMPTY)",
			  "GEOMETRYCOLLECTION Z (POINT Z (1 2 0),GEOMETRYCOLLECTION Z EMPTY,LINESTRING Z EMPTY)");
	check_wkt("GEOMETRYCOLLECTION Z (POINT(1 2 3),POINT Z (4 5 6))",
			  "GEOMETRYCOLLECTION Z (POINT Z (1 2 3),POINT Z (4 5 6))");
	check_wkt("MULTILINESTRING((0 0,1 1),EMPTY)", "MULTILINESTRING Z ((0 0 0,1 1 0),EMPTY)");
	/* Hex EWKB given to the WKT reader, as PostGIS accepts it. */
	check_wkt(" 0101000000000000000000F03F0000000000000040\n", "POINT Z (1 2 0)");
	check_wkt("01010000a0e6100000000000000000f03f00000000000000400000000000000840", "SRID=4326;POINT Z (1 2 3)");
}

static void
test_wkt_errors(void)
{
	wkt_error("", GX_ERR_PARSE, "expected geometry type", "position 1");
	wkt_error("POINT(1 2", GX_ERR_PARSE, "expected ')'", "position 10 (end of input)");
	wkt_error("POINT(1 abc)", GX_ERR_PARSE, "expected number at position 9 near \"abc)\"", NULL);
	wkt_error("LINESTRING(1 2,abc 4)", GX_ERR_PARSE, "expected number at position 16 near \"abc 4)\"", NULL);
	wkt_error("POINT(1 \xC3\xA9)", GX_ERR_PARSE, "expected number at position 9", "\xC3\xA9");
	wkt_error("POINT(1 2abc)", GX_ERR_PARSE, "expected ',' or ')' after number", "position 10");
	wkt_error("POINT(1 nan)", GX_ERR_PARSE, "non-finite coordinate", "position 9");
	wkt_error("POINT(1e309 1)", GX_ERR_PARSE, "coordinate out of range for float8 (its magnitude exceeds 1.7976931348623157e+308)", "position 7");
	wkt_error("POINT(1 -2.5e400)", GX_ERR_PARSE, "coordinate out of range for float8", "position 9");
	wkt_error("POINT(inf 1)", GX_ERR_PARSE, "non-finite coordinate", "position 7");
	wkt_error("POINT(-Infinity 1)", GX_ERR_PARSE, "non-finite coordinate", NULL);
	wkt_error("POINT(1 1e999)", GX_ERR_PARSE, "coordinate out of range", "\"1e999)\"");
	wkt_error("POINT(0x10 1)", GX_ERR_PARSE, "expected decimal number", "position 7");
	wkt_error("POINT(1 2 3 4 5)", GX_ERR_PARSE, "too many coordinates", NULL);
	wkt_error("POINT(1)", GX_ERR_PARSE, "expected number", "position 8");
	wkt_error("LINESTRING(1 2,3 4 5)", GX_ERR_PARSE, "expected 2 coordinates (XY) but found 3", "position 16");
	wkt_error("LINESTRING Z (1 2 3,3 4)", GX_ERR_PARSE, "expected 3 coordinates (XYZ) but found 2", NULL);
	wkt_error("POINT M (1 2)", GX_ERR_PARSE, "expected 3 coordinates (XYM)", NULL);
	wkt_error("POINT ZM (1 2 3)", GX_ERR_PARSE, "expected 4 coordinates (XYZM)", NULL);
	wkt_error("GEOMETRYCOLLECTION(POINT Z (1 2 3),POINT M (1 2 3))", GX_ERR_PARSE, "mixed dimensions: XYM after XYZ",
			  "position 36");
	wkt_error("GEOMETRYCOLLECTION(POINT(1 2),POINT Z EMPTY)", GX_ERR_PARSE, "mixed dimensions", NULL);
	wkt_error("LINESTRING(1 2)", GX_ERR_PARSE, "LINESTRING must have at least 2 points, got 1", "position 1");
	wkt_error("LINESTRING()", GX_ERR_PARSE, "expected number", NULL);
	wkt_error("TRIANGLE((0 0,1 0,0 1))", GX_ERR_PARSE, "triangle ring must have 4 points, got 3", NULL);
	wkt_error("TRIANGLE((0 0,1 0,0 1,1 1))", GX_ERR_PARSE, "ring not closed", "position 1");
	wkt_error("TRIANGLE((0 0 0,1 0 0,0 1 0,0 0 -0))", GX_ERR_PARSE, "ring not closed", NULL);
	wkt_error("TRIANGLE((0 0,1 0,0 1,0 0),(0 0,1 0,0 1,0 0))", GX_ERR_PARSE, "must have exactly 1 ring, got 2", NULL);
	wkt_error("TRIANGLE(0 0,1 0,0 1,0 0)", GX_ERR_PARSE, "expected '('", "position 10");
	wkt_error("TIN(((0 0,1 0,0 1,0 0)),((0 0,1 0,0 1,0 0,0 0)))", GX_ERR_PARSE,
			  "TIN triangle 2: triangle ring must have 4 points, got 5", "position 25");
	wkt_error("TIN((0 0,1 0,0 1,0 0))", GX_ERR_PARSE, "expected '('", NULL);
	wkt_error("TIN(EMPTY)", GX_ERR_PARSE, "expected '('", NULL);
	wkt_error("POLYHEDRALSURFACE(((0 0,1 0,0 1,0 0)),((0 0,1 0,0 1,0 0)),((0 0,1 0,1 1,0 1,1 0.5)))", GX_ERR_PARSE,
			  "POLYHEDRALSURFACE face 3: ring 1 not closed", "position 59");
	wkt_error("POLYHEDRALSURFACE(((0 0,1 0,0 1,0 0),(0 0,1 0,0 1,0 0)))", GX_ERR_PARSE,
			  "POLYHEDRALSURFACE face 1 is not simple: its edge from point 1 of ring 1 (0 0 0) meets its edge from point 1 of ring 2 (0 0 0)",
			  NULL);
	wkt_error("POLYHEDRALSURFACE(((0 0,1 0,0 1,0 1)))", GX_ERR_PARSE, "POLYHEDRALSURFACE face 1: ring 1 not closed", NULL);
	wkt_error("POLYGON((0 0,1 0,0 0))", GX_ERR_PARSE, "POLYGON: ring 1 has 3 points (at least 4)", "position 1");
	wkt_error("POLYGON((0 0,4 0,4 4,0 4,0 0),(1 1,2 1,2 2,1 2))", GX_ERR_PARSE, "POLYGON: ring 2 not closed", NULL);
	wkt_error("POLYGON Z ((0 0 0,2 2 0,2 0 0,0 2 0,0 0 0))", GX_ERR_PARSE,
			  "POLYGON is not simple: its edge from point 1 (0 0 0) meets its edge from point 3 (2 0 0)", "position 1");
	wkt_error("POLYGON Z ((0 0 0,4 0 0,4 4 0,0 4 1,0 0 0))", GX_ERR_PARSE,
			  "POLYGON is not planar: its point 4 (0 4 1) is off the plane through its points 1, 2 and 3", NULL);
	wkt_error("POLYGON((0 0,4 0,4 4,0 4,0 0),(5 5,6 5,6 6,5 5))", GX_ERR_PARSE,
			  "POLYGON is not simple: its hole (ring 2) is outside its outer ring, at point 1 of ring 2 (5 5 0)", NULL);
	wkt_error("POLYGON((0 0,4 0,4 4,0 4,0 0),(1 1,3 1,3 3,1 1),(2 1.5,2.5 2,2 1.8,2 1.5))", GX_ERR_PARSE,
			  "POLYGON is not simple: its hole (ring 3) is inside its hole (ring 2)", NULL);
	wkt_error("POLYGON((0 0,2 0,4 0,0 0),(1 0,3 0,1 0,1 0))", GX_ERR_PARSE,
			  "POLYGON is not simple: it has holes but no area", NULL);
	wkt_error("MULTIPOLYGON(((0 0,1 0,0 1,0 0)),EMPTY,((0 0,2 0,2 2,1 -1,0 0)))", GX_ERR_PARSE,
			  "MULTIPOLYGON polygon 3 is not simple", "position 40");
	wkt_error("CIRCULARSTRING(0 0,1 1,2 0)", GX_ERR_PARSE, "CIRCULARSTRING: curves are not supported: use ST_CurveToLine", "\"CIRCULARSTRING(0");
	wkt_error("POINT(1 2) x", GX_ERR_PARSE, "unexpected text after the geometry", "position 12 near \"x\"");
	wkt_error("POINT(1 2)\x01", GX_ERR_PARSE, "unexpected text", "near byte 0x01");
	wkt_error("POINT(1 2) aaaaaaaaaaaaaaa\xC3\xA9", GX_ERR_PARSE, "unexpected text", "near \"aaaaaaaaaaaaaaa\"");
	wkt_error("POINT EMPTY Z", GX_ERR_PARSE, "unexpected text", NULL);
	wkt_error("POINT Z", GX_ERR_PARSE, "expected '('", "end of input");
	wkt_error("MULTIPOINT(1 2,LINESTRING(1 2,3 4))", GX_ERR_PARSE, "expected number", "near \"LINESTRING");
	wkt_error("MULTILINESTRING(0 0,1 1)", GX_ERR_PARSE, "expected '(' or EMPTY", NULL);
	wkt_error("SRID=1000000;POINT(1 2)", GX_ERR_PARSE, "SRID 1000000 out of range", "position 6");
	wkt_error("SRID=-1;POINT(1 2)", GX_ERR_PARSE, "out of range", NULL);
	wkt_error("SRID=99999999999999999999999;POINT(1 2)", GX_ERR_PARSE, "out of range", NULL);
	wkt_error("SRID=abc;POINT(1 2)", GX_ERR_PARSE, "expected SRID number", "position 6");
	wkt_error("SRID=4326 POINT(1 2)", GX_ERR_PARSE, "expected ';'", "position 11");
	wkt_error("SRID=4326;", GX_ERR_PARSE, "expected geometry type", NULL);
	wkt_error("0101000000", GX_ERR_PARSE, "truncated WKB", NULL);
}


/* "GEOMETRYCOLLECTION(" levels times around leaf, then the closing parentheses. */
static char *
nested_wkt(size_t levels, const char *leaf)
{
	static const char open[] = "GEOMETRYCOLLECTION(";
	size_t		n = levels * (sizeof(open) - 1);
	char	   *s = gx_alloc(n + strlen(leaf) + levels + 1);
	size_t		i;

	for (i = 0; i < levels; i++)
		memcpy(s + i * (sizeof(open) - 1), open, sizeof(open) - 1);
	strcpy(s + n, leaf);
	n += strlen(leaf);
	memset(s + n, ')', levels);
	s[n + levels] = '\0';
	return s;
}

/* Hex WKB of levels nested 2D collections of one member each around POINT(1 2). */
static char *
nested_hex(size_t levels)
{
	static const char open[] = "010700000001000000";
	static const char leaf[] = "0101000000000000000000F03F0000000000000040";
	char	   *s = gx_alloc(levels * (sizeof(open) - 1) + sizeof(leaf));
	size_t		i;

	for (i = 0; i < levels; i++)
		memcpy(s + i * (sizeof(open) - 1), open, sizeof(open) - 1);
	memcpy(s + levels * (sizeof(open) - 1), leaf, sizeof(leaf));
	return s;
}

static void
test_depth(void)
{
	char	   *s;
	size_t		size;
	GxError		err;
	GxSerialized *g;

	/* 32 nested nodes are accepted, a 33rd is refused (GX_MAX_DEPTH), and very deep input fails fast. */
	s = nested_wkt(GX_MAX_DEPTH - 1, "POINT(1 2)");
	g = gx_from_wkt(s, &size, &err);
	CHECK_MSG(g != NULL, "%s", err.msg);
	if (g != NULL)
		check_roundtrips(g, size);
	gx_free(g);
	gx_free(s);
	s = nested_wkt(GX_MAX_DEPTH, "POINT(1 2)");
	wkt_error(s, GX_ERR_LIMIT, "nested deeper than 32 levels", "position 609");
	gx_free(s);
	s = nested_wkt(GX_MAX_DEPTH - 1, "MULTIPOINT(1 2)");
	wkt_error(s, GX_ERR_LIMIT, "nested deeper", NULL);
	gx_free(s);
	s = nested_wkt(200000, "POINT(1 2)");
	wkt_error(s, GX_ERR_LIMIT, "nested deeper", NULL);
	gx_free(s);

	s = nested_hex(GX_MAX_DEPTH - 1);
	g = gx_from_hexwkb(s, &size, &err);
	CHECK_MSG(g != NULL, "%s", err.msg);
	gx_free(g);
	gx_free(s);
	s = nested_hex(GX_MAX_DEPTH);
	hex_error(s, GX_ERR_LIMIT, "nested deeper than 32 levels", "byte offset 288");
	gx_free(s);
	s = nested_hex(200000);
	hex_error(s, GX_ERR_LIMIT, "nested deeper", NULL);
	gx_free(s);
}

/* Little-endian doubles, and big-endian ones. */
#define D0 "0000000000000000"
#define D1 "000000000000F03F"
#define D2 "0000000000000040"
#define D3 "0000000000000840"
#define D4 "0000000000001040"
#define D9 "0000000000002240"
#define DNAN "000000000000F87F"
#define B1 "3FF0000000000000"
#define B2 "4000000000000000"
#define B3 "4008000000000000"
#define B4 "4010000000000000"
/* 2D and 3D rings of the triangle (0 0, 1 0, 0 1). */
#define RING2 "04000000" D0 D0 D1 D0 D0 D1 D0 D0
#define RING3 "04000000" D0 D0 D0 D1 D0 D0 D0 D1 D0 D0 D0 D0

static void
test_wkb_read(void)
{
	int			little = 0;
	const uint16_t one = 1;

	memcpy(&little, &one, 1);
	/* What PostGIS's ST_AsEWKB writes; our writer must produce the same bytes (on little-endian). */
	check_hex("01010000A0E6100000000000000000F03F00000000000000400000000000000840", "SRID=4326;POINT Z (1 2 3)", little);
	check_hex("0102000080" "02000000" D0 D0 D0 D1 D1 D1, "LINESTRING Z (0 0 0,1 1 1)", little);
	check_hex("0110000080" "01000000" "0111000080" "01000000" RING3, "TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))", little);
	check_hex("010F0000A0E6100000" "01000000" "0103000080" "01000000" RING3,
			  "SRID=4326;POLYHEDRALSURFACE Z (((0 0 0,1 0 0,0 1 0,0 0 0)))", little);
	check_hex("0111000080" "01000000" RING3, "TRIANGLE Z ((0 0 0,1 0 0,0 1 0,0 0 0))", little);
	check_hex("0111000080" "00000000", "TRIANGLE Z EMPTY", little);
	check_hex("0101000080" DNAN DNAN DNAN, "POINT Z EMPTY", little);
	check_hex("0104000080" "02000000" "0101000080" D1 D2 D3 "0101000080" DNAN DNAN DNAN,
			  "MULTIPOINT Z ((1 2 3),EMPTY)", little);
	check_hex("0107000080" "02000000" "0107000080" "00000000" "0105000080" "01000000" "0102000080" "00000000",
			  "GEOMETRYCOLLECTION Z (GEOMETRYCOLLECTION Z EMPTY,MULTILINESTRING Z (EMPTY))", 0);
	/* 2D PostGIS EWKB with SRID; members without SRID, or with the same one. */
	check_hex("0107000020E6100000" "01000000" "0101000000" D1 D2, "SRID=4326;GEOMETRYCOLLECTION Z (POINT Z (1 2 0))", 0);
	check_hex("0107000020E6100000" "01000000" "0101000020E6100000" D1 D2,
			  "SRID=4326;GEOMETRYCOLLECTION Z (POINT Z (1 2 0))", 0);
	/* ISO WKB of each dimensionality, and EWKB M / ZM. */
	check_hex("0101000000" D1 D2, "POINT Z (1 2 0)", 0);
	check_hex("01E9030000" D1 D2 D3, "POINT Z (1 2 3)", 0);
	check_hex("01D1070000" D1 D2 D9, "POINT Z (1 2 0)", 0);
	check_hex("01B90B0000" D1 D2 D3 D4, "POINT Z (1 2 3)", 0);
	check_hex("0101000040" D1 D2 D9, "POINT Z (1 2 0)", 0);
	check_hex("01010000C0" D1 D2 D3 D4, "POINT Z (1 2 3)", 0);
	check_hex("01F8030000" "01000000" "01F9030000" "01000000" RING3, "TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))", 0);
	check_hex("01F7030000" "01000000" "01EB030000" "01000000" RING3,
			  "POLYHEDRALSURFACE Z (((0 0 0,1 0 0,0 1 0,0 0 0)))", 0);
	check_hex("0110000000" "01000000" "0111000000" "01000000" RING2, "TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))", 0);
	/* POINT EMPTY as 2D NaNs, any NaN payload. */
	check_hex("0101000000" DNAN DNAN, "POINT Z EMPTY", 0);
	check_hex("0101000000" "010000000000F0FF" DNAN, "POINT Z EMPTY", 0);
	/* Big-endian, and byte orders mixed between a collection and its members. */
	check_hex("0000000001" B1 B2, "POINT Z (1 2 0)", 0);
	check_hex("00A0000001000010E6" B1 B2 B3, "SRID=4326;POINT Z (1 2 3)", 0);
	check_hex("0104000000" "02000000" "0101000000" D1 D2 "0000000001" B3 B4, "MULTIPOINT Z ((1 2 0),(3 4 0))", 0);
	check_hex("0000000004" "00000001" "0101000000" D3 D4, "MULTIPOINT Z ((3 4 0))", 0);
	/* Polygon faces: a square as its fan, a square with a hole, MULTIPOLYGON and EMPTY ones as a TIN. */
	check_hex("0103000000" "01000000" "05000000" D0 D0 D1 D0 D1 D1 D0 D1 D0 D0,
			  "TIN Z (((0 0 0,1 0 0,1 1 0,0 0 0)),((0 0 0,1 1 0,0 1 0,0 0 0)))", 0);
	check_hex("0103000000" "00000000", "TIN Z EMPTY", 0);
	check_hex("0106000080" "02000000" "0103000080" "00000000" "0103000080" "01000000" RING3,
			  "TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))", 0);
	check_hex("010F000080" "01000000" "0103000080" "01000000" "05000000" D0 D0 D0 D1 D0 D0 D1 D1 D1 D0 D1 D1 D0 D0 D0,
			  "POLYHEDRALSURFACE Z (((0 0 0,1 0 0,1 1 1,0 0 0)),((0 0 0,1 1 1,0 1 1,0 0 0)))", 0);
	/* Lower-case hex with surrounding whitespace. */
	check_hex(" 0101000000000000000000f03f0000000000000040\n", "POINT Z (1 2 0)", 0);
}

static void
test_wkb_errors(void)
{
	hex_error("", GX_ERR_PARSE, "truncated WKB", "byte offset 0");
	hex_error("0101", GX_ERR_PARSE, "truncated WKB: 4 bytes needed, 1 left", "byte offset 1");
	hex_error("0101000000" D1, GX_ERR_PARSE, "truncated WKB: 16 bytes needed, 8 left", "byte offset 5");
	hex_error("0201000000" D1 D2, GX_ERR_PARSE, "invalid byte order 2", "byte offset 0");
	hex_error("0108000000", GX_ERR_PARSE, "CIRCULARSTRING: curves are not supported: use ST_CurveToLine", "byte offset 0");
	hex_error("010d000000", GX_ERR_PARSE, "unknown geometry type code 13", "byte offset 0");
	hex_error("01E8030000", GX_ERR_PARSE, "unknown geometry type code 1000", NULL);
	hex_error("01A10F0000", GX_ERR_PARSE, "unknown geometry type code 4001", NULL);
	hex_error("01E9030080" D1 D2 D3 D4, GX_ERR_PARSE, "unknown geometry type code", NULL);
	hex_error("0101000010" D1 D2, GX_ERR_PARSE, "unknown geometry type code", NULL);
	hex_error("0103000000" "01000000" "03000000" D0 D0 D1 D0 D0 D0, GX_ERR_PARSE,
			  "POLYGON: ring 1 has 3 points (at least 4)", "byte offset 0");
	hex_error("0106000000" "01000000" "0101000000" D0 D0, GX_ERR_PARSE,
			  "MULTIPOLYGON polygon 1 has type code 1, expected 3", "byte offset 9");
	hex_error("0107000000" "01000000" "0103000000" "01000000" "05000000" D0 D0 D1 D1 D1 D0 D0 D1 D0 D0, GX_ERR_PARSE,
			  "POLYGON is not simple: its edge from point 1 (0 0 0) meets its edge from point 3 (1 0 0)", "byte offset 9");
	hex_error("0103000000" "01000000" "FFFFFFFF", GX_ERR_PARSE, "POLYGON declares 4294967295 ring points", NULL);
	hex_error("0102000000" "FFFFFFFF", GX_ERR_PARSE,
			  "LINESTRING declares 4294967295 points, which need at least 68719476720 bytes, but 0 remain", "byte offset 5");
	hex_error("0107000000" "FFFFFFFF" "00", GX_ERR_PARSE,
			  "GEOMETRYCOLLECTION declares 4294967295 members, which need at least 38654705655 bytes, but 1 remain", NULL);
	hex_error("0104000000" "FFFFFFFF", GX_ERR_PARSE, "MULTIPOINT declares 4294967295 members", NULL);
	hex_error("0110000000" "FFFFFFFF", GX_ERR_PARSE, "TIN declares 4294967295 triangles", NULL);
	hex_error("0111000000" "FFFFFFFF", GX_ERR_PARSE, "TRIANGLE declares 4294967295 rings", NULL);
	hex_error("0111000000" "01000000" "FFFFFFFF", GX_ERR_PARSE, "TRIANGLE declares 4294967295 ring points",
			  "byte offset 9");
	hex_error("0102000000" "03000000" D1 D2 D3 D4, GX_ERR_PARSE,
			  "LINESTRING declares 3 points, which need at least 48 bytes, but 32 remain", NULL);
	hex_error("0101000000" D1 D2 "00", GX_ERR_PARSE, "1 trailing bytes after the geometry", "byte offset 21");
	hex_error("0101000000" DNAN D1, GX_ERR_PARSE, "non-finite coordinate", "byte offset 5");
	hex_error("0101000000" D1 "000000000000F07F", GX_ERR_PARSE, "non-finite coordinate", NULL);
	hex_error("01B90B0000" D1 D2 D3 DNAN, GX_ERR_PARSE, "non-finite coordinate", NULL);
	hex_error("0102000000" "02000000" DNAN DNAN D1 D2, GX_ERR_PARSE, "non-finite coordinate", "byte offset 9");
	hex_error("0102000000" "01000000" D1 D2, GX_ERR_PARSE, "LINESTRING must have 0 or at least 2 points, got 1", NULL);
	hex_error("0104000000" "01000000" "0102000000" "00000000", GX_ERR_PARSE,
			  "MULTIPOINT member has type code 2, expected 1", "byte offset 9");
	hex_error("0105000000" "01000000" "0101000000" D1 D2, GX_ERR_PARSE,
			  "MULTILINESTRING member has type code 1, expected 2", NULL);
	hex_error("0110000000" "01000000" "0103000000" "01000000" RING2, GX_ERR_PARSE,
			  "TIN triangle 1 has type code 3, expected 17", "byte offset 9");
	hex_error("010F000000" "01000000" "0111000000" "01000000" RING2, GX_ERR_PARSE,
			  "POLYHEDRALSURFACE face 1 has type code 17, expected 3", NULL);
	hex_error("010F000000" "01000000" "0103000000" "02000000" RING2 RING2, GX_ERR_PARSE,
			  "POLYHEDRALSURFACE face 1 is not simple", NULL);
	hex_error("010F000000" "02000000" "0103000000" "01000000" RING2 "0103000000" "01000000" "05000000"
			  D0 D0 D1 D0 D1 D1 D0 D1 D0 D1, GX_ERR_PARSE, "POLYHEDRALSURFACE face 2: ring 1 not closed",
			  "byte offset 86");
	hex_error("0110000000" "01000000" "0111000000" "00000000" D0 D0 D0 D0 D0 D0 D0 D0 "00000000", GX_ERR_PARSE,
			  "TIN triangle 1 must have exactly 1 ring, got 0", NULL);
	hex_error("0110000000" "01000000" "0111000000" "01000000", GX_ERR_PARSE,
			  "TIN declares 1 triangles, which need at least 77 bytes, but 9 remain", NULL);
	hex_error("0111000000" "01000000" "04000000" D0 D0 D1 D0 D0 D1 D1 D1, GX_ERR_PARSE, "TRIANGLE: ring not closed",
			  "byte offset 0");
	hex_error("0111000000" "01000000" "03000000" D0 D0 D1 D0 D0 D1, GX_ERR_PARSE,
			  "TRIANGLE: triangle ring must have 4 points, got 3", NULL);
	hex_error("0111000000" "02000000" RING2 RING2, GX_ERR_PARSE, "TRIANGLE must have exactly 1 ring, got 2", NULL);
	hex_error("0107000020E6100000" "01000000" "0101000020E7100000" D1 D2, GX_ERR_PARSE,
			  "nested geometry has SRID 4327, the outer one 4326", "byte offset 13");
	hex_error("0107000000" "01000000" "0101000020E6100000" D1 D2, GX_ERR_PARSE,
			  "nested geometry has SRID 4326, the outer one 0", NULL);
	hex_error("010100002040420F00" D1 D2, GX_ERR_PARSE, "SRID 1000000 out of range", NULL);
	hex_error("0101000020FFFFFFFF" D1 D2, GX_ERR_PARSE, "SRID -1 out of range", NULL);
	hex_error("0101000020E610", GX_ERR_PARSE, "truncated WKB", NULL);
	hex_error("0104000000" "01000000" "0101000080" D1 D2 D3, GX_ERR_PARSE, "mixed dimensions", "byte offset 9");
	hex_error("0101000", GX_ERR_PARSE, "odd number of hex digits (7)", NULL);
	hex_error("01010000zz", GX_ERR_PARSE, "invalid hex digit 'z' in hex WKB at position 9", NULL);
	hex_error("0101\x01", GX_ERR_PARSE, "invalid hex digit (byte 0x01)", "position 5");
}

/* Significant digits of a %g-style decimal: from the first non-zero digit to the last. */
static int
significant_digits(const char *s)
{
	int			first = -1;
	int			last = -1;
	int			i = 0;

	for (; *s != '\0' && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
		{
			if (*s != '0')
			{
				if (first < 0)
					first = i;
				last = i;
			}
			i++;
		}
	return first < 0 ? 0 : last - first + 1;
}

/* d formats as a string that reads back to the same bits, with no fewer significant digits possible. */
static int
format_ok(double d)
{
	char		buf[32];
	char		shorter[512];
	double		back;
	int			n = gx_format_double(d, buf);
	int			sig = significant_digits(buf);

	back = strtod(buf, NULL);
	if (n != (int) strlen(buf) || memcmp(&back, &d, sizeof(d)) != 0)
		return 0;
	if (sig > 1)
	{
		snprintf(shorter, sizeof(shorter), "%.*g", sig - 1, d);
		if (strtod(shorter, NULL) == d)
			return 0;
	}
	return 1;
}

static void
test_format_double(void)
{
	static const struct
	{
		double		d;
		const char *s;
	}			known[] = {
		{0.1, "0.1"}, {1e21, "1e+21"}, {100, "100"}, {-0.0, "-0"}, {0.0, "0"}, {5e-324, "5e-324"},
		{1e-5, "1e-5"}, {1.5, "1.5"}, {1e15, "1e+15"}, {1e23, "1e+23"}, {0.30000000000000004, "0.30000000000000004"},
		{1.0 / 3, "0.3333333333333333"}, {DBL_MAX, "1.7976931348623157e+308"}, {DBL_MIN, "2.2250738585072014e-308"},
		{-123456.789, "-123456.789"}, {1.5e-323, "1.5e-323"}, {4.35e-321, "4.35e-321"}, {9007199254740992.0, "9007199254740992"},
	};
	char		buf[32];
	size_t		i;
	uint64_t	bits;
	double		d;
	long		bad = 0;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
	{
		gx_format_double(known[i].d, buf);
		CHECK_MSG(strcmp(buf, known[i].s) == 0, "%.17g formatted as %s, expected %s", known[i].d, buf, known[i].s);
		CHECK(format_ok(known[i].d));
	}
	for (i = 0; i < 100000;)
	{
		bits = gx_test_rand();
		memcpy(&d, &bits, sizeof(d));
		if (!isfinite(d))
			continue;
		bad += !format_ok(d);
		i++;
	}
	for (i = 0; i < 2000; i++)
	{
		bits = gx_test_rand() & 0x800FFFFFFFFFFFFFu;	/* subnormals */
		memcpy(&d, &bits, sizeof(d));
		bad += !format_ok(d);
	}
	for (i = 0; i < 20000; i++)
	{
		/* Decimals of 1 to 16 digits, which must come back as written (trailing zeros aside). */
		bits = gx_test_rand();
		snprintf(buf, sizeof(buf), "%llue%d", (unsigned long long) (bits % 10000000000000000u >> (bits >> 58)),
				 (int) (bits >> 40 & 511) - 300);
		d = strtod(buf, NULL);
		bad += !format_ok(d);
	}
	CHECK_MSG(bad == 0, "%ld random doubles formatted wrongly", bad);
}

/* Geometries of random finite coordinates (100k doubles) survive text and WKB round trips bit for bit. */
static void
test_random_geometries(void)
{
	GxError		err;
	GxBuilder	b;
	GxSerialized *g;
	size_t		size;
	size_t		node;
	double		c[3];
	uint64_t	bits;
	int			geom;
	int			i;
	int			k;

	for (geom = 0; geom < 34; geom++)
	{
		err.code = GX_OK;
		gx_builder_init(&b, &err);
		node = gx_builder_begin(&b, GX_LINESTRING);
		for (i = 0; i < 1000; i++)
		{
			for (k = 0; k < 3; k++)
				do
				{
					bits = gx_test_rand();
					memcpy(&c[k], &bits, sizeof(c[k]));
				} while (!isfinite(c[k]));
			gx_builder_coord(&b, c[0], c[1], c[2]);
		}
		gx_builder_end(&b, node, 1000);
		g = gx_builder_finish(&b, geom, &size);
		CHECK_MSG(g != NULL, "%s", err.msg);
		if (g != NULL)
			check_roundtrips(g, size);
		gx_free(g);
	}
}

int
main(void)
{
	test_wkt_roundtrips();
	test_wkt_errors();
	test_depth();
	test_wkb_read();
	test_wkb_errors();
	test_format_double();
	test_random_geometries();
	return gx_test_report("test_io");
}
