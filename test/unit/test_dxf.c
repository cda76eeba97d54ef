/*
 * test_dxf.c: unit tests of the DXF reader: crafted files with every entity read (3DFACE, LINE, 3D
 * POLYLINE, polyface mesh) and skipped, each result compared with its exact WKT, and every error with its
 * message and line. argv[1] (a directory) is not used.
 */
#include <string.h>

#include "base/gx_alloc.h"
#include "gx_test.h"
#include "io/gx_io.h"

/* One group: its code line and its value line. */
#define G(code, value)	#code "\n" value "\n"
/* A file of one ENTITIES section (its entities start at line 5). */
#define ENTITIES(groups) G(0, "SECTION") G(2, "ENTITIES") groups G(0, "ENDSEC") G(0, "EOF")

/* The three corners of a triangle 3DFACE: 22 lines. */
#define FACE3 G(0, "3DFACE") G(8, "0") G(10, "0") G(20, "0") G(30, "0") G(11, "1") G(21, "0") G(31, "0") \
	G(12, "0") G(22, "1") G(32, "0")
#define TRIANGLE_WKT "TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))"

static void
check_wkt(const char *name, const char *text, const char *want)
{
	GxError		err;
	size_t		size;
	GxSerialized *g = gx_from_dxf(text, strlen(text), &size, &err);
	char	   *wkt = g != NULL ? gx_to_wkt(g, 1, NULL) : NULL;

	CHECK_MSG(wkt != NULL && err.code == GX_OK && strcmp(wkt, want) == 0, "%s: expected %s, got %s (%s)",
			  name, want, wkt ? wkt : "NULL", err.msg);
	gx_free(wkt);
	gx_free(g);
}

static void
check_error_len(const char *name, const char *data, size_t len, const char *want)
{
	GxError		err;
	size_t		size;
	GxSerialized *g = gx_from_dxf(data, len, &size, &err);

	CHECK_MSG(g == NULL && err.code == GX_ERR_PARSE && strcmp(err.msg, want) == 0, "%s: expected \"%s\", got %d \"%s\"",
			  name, want, (int) err.code, err.msg);
	gx_free(g);
}

static void
check_error(const char *name, const char *text, const char *want)
{
	check_error_len(name, text, strlen(text), want);
}

/* A drawing with every section, comments, and each entity read, among entities skipped. */
static void
test_drawing(void)
{
	check_wkt("drawing",
			  G(999, "written by hand")
			  G(0, "SECTION") G(2, "HEADER") G(9, "$ACADVER") G(1, "AC1009") G(9, "$EXTMIN") G(10, "0") G(20, "0")
			  G(0, "ENDSEC")
			  G(0, "SECTION") G(2, "TABLES") G(0, "TABLE") G(2, "LAYER") G(70, "1") G(0, "LAYER") G(2, "0")
			  G(0, "ENDTAB") G(0, "ENDSEC")
			  G(0, "SECTION") G(2, "BLOCKS") G(0, "BLOCK") G(2, "B") G(0, "3DFACE") G(10, "9") G(20, "9")
			  G(0, "ENDBLK") G(0, "ENDSEC")
			  G(0, "SECTION") G(2, "ENTITIES")
			  FACE3 G(13, "0") G(23, "1") G(33, "0")
			  G(0, "3DFACE") G(10, "0") G(20, "0") G(30, "0") G(11, "1") G(21, "0") G(31, "0")
			  G(12, "1") G(22, "1") G(32, "1") G(13, "0") G(23, "1") G(33, "1")
			  G(0, "CIRCLE") G(10, "0") G(20, "0") G(40, "1")
			  G(0, "LINE") G(8, "walls") G(10, "  0.5") G(20, "0.5") G(30, "-1") G(11, "0.5") G(21, "0.5") G(31, "2.5e0 ")
			  G(0, "LWPOLYLINE") G(90, "2") G(10, "0") G(20, "0") G(10, "1") G(20, "1")
			  G(0, "INSERT") G(2, "B") G(66, "1") G(0, "ATTRIB") G(1, "x") G(0, "SEQEND")
			  G(0, "POLYLINE") G(66, "1") G(70, "9") G(10, "0") G(20, "0") G(30, "0")
			  G(0, "VERTEX") G(10, "5") G(20, "5") G(30, "5") G(70, "32")
			  G(0, "VERTEX") G(10, "6") G(20, "5") G(70, "32")
			  G(0, "VERTEX") G(10, "7") G(20, "7") G(30, "7") G(70, "48")
			  G(0, "SEQEND")
			  G(0, "POLYLINE") G(66, "1") G(70, "64") G(71, "4") G(72, "3") G(10, "0") G(20, "0") G(30, "0")
			  G(0, "VERTEX") G(10, "10") G(20, "0") G(30, "0") G(70, "192")
			  G(0, "VERTEX") G(10, "11") G(20, "0") G(30, "0") G(70, "192")
			  G(0, "VERTEX") G(10, "11") G(20, "1") G(30, "0") G(70, "192")
			  G(0, "VERTEX") G(10, "10") G(20, "1") G(30, "0") G(70, "192")
			  G(0, "VERTEX") G(10, "0") G(20, "0") G(30, "0") G(70, "128") G(71, "1") G(72, "-2") G(73, "3")
			  G(0, "VERTEX") G(10, "0") G(20, "0") G(30, "0") G(70, "128") G(71, "1") G(72, "3") G(73, "4") G(74, "4")
			  G(0, "VERTEX") G(70, "128") G(71, "-1") G(72, "2") G(73, "-3") G(74, "4")
			  G(0, "SEQEND")
			  G(0, "ENDSEC") G(0, "EOF"),
			  "GEOMETRYCOLLECTION Z (TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((0 0 0,1 0 0,1 1 1,0 0 0)),"
			  "((0 0 0,1 1 1,0 1 1,0 0 0)),((10 0 0,11 0 0,11 1 0,10 0 0)),((10 0 0,11 1 0,10 1 0,10 0 0)),"
			  "((10 0 0,11 0 0,11 1 0,10 0 0)),((10 0 0,11 1 0,10 1 0,10 0 0))),"
			  "LINESTRING Z (0.5 0.5 -1,0.5 0.5 2.5),LINESTRING Z (5 5 5,6 5 0,5 5 5))");
}

/* Each entity alone, and what is leniently accepted: 2D points, a missing fourth corner, case, CRLF. */
static void
test_entities(void)
{
	check_wkt("triangle 3DFACE", ENTITIES(FACE3 G(13, "0") G(23, "1") G(33, "0")), TRIANGLE_WKT);
	check_wkt("three-corner 3DFACE", ENTITIES(FACE3), TRIANGLE_WKT);
	check_wkt("2D 3DFACE", ENTITIES(G(0, "3DFACE") G(10, "0") G(20, "0") G(11, "1") G(21, "0") G(12, "0") G(22, "1")),
			  TRIANGLE_WKT);
	check_wkt("quad 3DFACE", ENTITIES(FACE3 G(13, "-0.5") G(23, "0.5") G(33, "0")),
			  "TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((0 0 0,0 1 0,-0.5 0.5 0,0 0 0)))");
	check_wkt("LINE", ENTITIES(G(0, "LINE") G(10, "1") G(20, "2") G(11, "3") G(21, "4") G(31, "5")),
			  "MULTILINESTRING Z ((1 2 0,3 4 5))");
	check_wkt("open 3D POLYLINE", ENTITIES(G(0, "POLYLINE") G(70, "8") G(0, "VERTEX") G(10, "1") G(20, "2") G(30, "3")
										   G(0, "VERTEX") G(10, "4") G(20, "5") G(30, "6") G(0, "SEQEND")),
			  "MULTILINESTRING Z ((1 2 3,4 5 6))");
	check_wkt("2D POLYLINE skipped", ENTITIES(G(0, "POLYLINE") G(70, "1") G(0, "VERTEX") G(10, "0") G(20, "0") G(42, "1")
											  G(0, "SEQEND") FACE3), TRIANGLE_WKT);
	check_wkt("lower case, CRLF, padded codes",
			  "  0\r\nSECTION\r\n  2\r\nentities\r\n  0\r\n3dface\r\n 10\r\n0\r\n 20\r\n0\r\n 11\r\n1\r\n 21\r\n0\r\n"
			  " 12\r\n0\r\n 22\r\n1\r\n  0\r\nEndSec\r\n  0\r\neof\r\n\r\n", TRIANGLE_WKT);
	check_wkt("byte order mark, whitespace after EOF", "\xEF\xBB\xBF" ENTITIES(FACE3) "\n \t\n", TRIANGLE_WKT);
	check_wkt("two ENTITIES sections", G(0, "SECTION") G(2, "ENTITIES") G(0, "ENDSEC") ENTITIES(FACE3), TRIANGLE_WKT);
	check_wkt("-0 and exponents", ENTITIES(G(0, "LINE") G(10, "-0") G(20, "1E-3") G(30, "+2") G(11, "1.5e+2") G(21, "0")),
			  "MULTILINESTRING Z ((-0 0.001 2,150 0 0))");
}

/* Errors of the file's structure: groups, sections, EOF. */
static void
test_structure_errors(void)
{
	check_error("empty", "", "empty DXF file (0 bytes, no groups)");
	check_error("whitespace", " \n\r\n", "empty DXF file (4 bytes, no groups)");
	check_error_len("binary", "AutoCAD Binary DXF\r\n\032\0", 22, "binary DXF is not read: save the drawing as ASCII DXF");
	check_error("odd lines", G(0, "SECTION") "2\n", "group code 2 without a value (an odd number of lines) at line 4 (end of input)");
	check_error("odd lines, no break", G(0, "SECTION") "2",
				"group code 2 without a value (an odd number of lines) at line 3 (end of input)");
	check_error("word code", G(0, "SECTION") G(x, "ENTITIES"),
				"invalid group code (an integer from -5 to 1071 expected) at line 3 near \"x\"");
	check_error("code out of range", G(0, "SECTION") G(1072, "ENTITIES"),
				"invalid group code (an integer from -5 to 1071 expected) at line 3 near \"1072\"");
	check_error("empty code line", G(0, "SECTION") "\nENTITIES\n",
				"invalid group code (an integer from -5 to 1071 expected) at line 3 (empty line)");
	check_error("code 1.0", G(0, "SECTION") G(2.0, "ENTITIES"),
				"invalid group code (an integer from -5 to 1071 expected) at line 3 near \"2.0\"");
	check_error("no EOF", G(0, "SECTION") G(2, "ENTITIES") FACE3 G(0, "ENDSEC"),
				"no EOF group at the end of the file at line 29 (end of input)");
	check_error("text after EOF", ENTITIES(FACE3) "\n999\n", "text after EOF at line 32 near \"999\"");
	check_error("not a section", G(0, "SECTION") G(2, "HEADER") G(0, "ENDSEC") G(0, "TABLE"),
				"expected group 0 SECTION or EOF at line 8 near \"TABLE\"");
	check_error("not group 0", G(5, "1F"), "expected group 0 SECTION or EOF at line 1 near \"5\"");
	check_error("nameless section", G(0, "SECTION") G(0, "ENDSEC"), "SECTION without its name (group 2) at line 2 near \"SECTION\"");
	check_error("section without ENDSEC", G(0, "SECTION") G(2, "HEADER") G(9, "$X") G(1, "y"),
				"SECTION (line 2) without ENDSEC at line 9 (end of input)");
	check_error("EOF in a section", G(0, "SECTION") G(2, "TABLES") G(0, "TABLE") G(0, "EOF"),
				"EOF before the ENDSEC of the SECTION (line 2) at line 8 near \"EOF\"");
	check_error("ENTITIES without ENDSEC", G(0, "SECTION") G(2, "ENTITIES"),
				"ENTITIES section (line 2) without ENDSEC at line 5 (end of input)");
	check_error("EOF in ENTITIES", G(0, "SECTION") G(2, "ENTITIES") FACE3 G(0, "EOF"),
				"EOF before the ENDSEC of the ENTITIES section (line 2) at line 28 near \"EOF\"");
	check_error("entity without group 0", G(0, "SECTION") G(2, "ENTITIES") G(8, "0"),
				"expected group 0 (an entity or ENDSEC), got group 8 at line 5 near \"8\"");
	check_error("end inside 3DFACE", G(0, "SECTION") G(2, "ENTITIES") FACE3, "3DFACE (line 6) not finished at line 27 (end of input)");
	check_error("end inside a skipped entity", G(0, "SECTION") G(2, "ENTITIES") G(0, "CIRCLE") G(40, "1"),
				"entity (line 6) not finished at line 9 (end of input)");
	check_error("nothing read", ENTITIES(G(0, "CIRCLE") G(10, "0") G(20, "0") G(40, "1")),
				"DXF file without 3DFACE, LINE, 3D POLYLINE or polyface mesh entities (other entities are not read)");
	check_error("no ENTITIES section", G(0, "SECTION") G(2, "HEADER") G(0, "ENDSEC") G(0, "EOF"),
				"DXF file without 3DFACE, LINE, 3D POLYLINE or polyface mesh entities (other entities are not read)");
}

/* Errors of entities: values, missing or repeated groups, faces, polylines, polyface meshes. */
static void
test_entity_errors(void)
{
	check_error("word coordinate", ENTITIES(G(0, "LINE") G(10, "abc")), "LINE group 10: expected a number at line 8 near \"abc\"");
	check_error("NaN", ENTITIES(G(0, "3DFACE") G(10, "0") G(22, "nan")), "3DFACE group 22: NaN or infinite number at line 10 near \"nan\"");
	check_error("overflow", ENTITIES(G(0, "LINE") G(31, "-1e400")), "LINE group 31: number out of range for float8 (its magnitude exceeds 1.7976931348623157e+308) at line 8 near \"-1e400\"");
	check_error("empty value", ENTITIES(G(0, "LINE") G(10, "")), "LINE group 10: expected a number at line 8 (empty line)");
	check_error("too long", ENTITIES(G(0, "LINE") G(10, "0.00000000000000000000000000000000000000000000000000000000000000001")),
				"LINE group 10: number longer than 64 characters at line 8 near \"0.00000000000000\"");
	check_error("repeated group", ENTITIES(G(0, "3DFACE") G(10, "1") G(20, "1") G(10, "2")),
				"3DFACE (line 6): group 10 repeated at line 11 near \"10\"");
	check_error("missing Y", ENTITIES(G(0, "3DFACE") G(10, "0") G(20, "0") G(11, "1") G(12, "0") G(22, "1")),
				"3DFACE without group 21 (the Y of its point 2) at line 6 near \"3DFACE\"");
	check_error("partial fourth corner", ENTITIES(FACE3 G(33, "5")),
				"3DFACE without group 13 (the X of its point 4) at line 6 near \"3DFACE\"");
	check_error("LINE without end", ENTITIES(G(0, "LINE") G(10, "0") G(20, "0")),
				"LINE without group 11 (the X of its point 2) at line 6 near \"LINE\"");
	check_error("not planar 3DFACE", ENTITIES(FACE3 G(13, "1") G(23, "1") G(33, "1e-200")),
				"3DFACE with 4 vertices is not planar: its point 4 (1 1 1e-200) is off the plane through its points 1, 2 "
				"and 3 at line 6 near \"3DFACE\"");
	check_wkt("not convex 3DFACE", ENTITIES(FACE3 G(13, "0.25") G(23, "0.25") G(33, "0")),
			  "TIN Z (((0.25 0.25 0,0 0 0,1 0 0,0.25 0.25 0)),((0 1 0,0.25 0.25 0,1 0 0,0 1 0)))");
	check_error("self-crossing 3DFACE", ENTITIES(FACE3 G(13, "1") G(23, "1") G(33, "0")),
				"3DFACE with 4 vertices is not simple: its edge from point 2 (1 0 0) meets its edge from point 4 (1 1 0) "
				"at line 6 near \"3DFACE\"");
	check_error("integer flags", ENTITIES(G(0, "POLYLINE") G(70, "8.0")),
				"POLYLINE group 70: expected an integer from -32768 to 32767 at line 8 near \"8.0\"");
	check_error("flags out of range", ENTITIES(G(0, "POLYLINE") G(70, "65536")),
				"POLYLINE group 70: expected an integer from -32768 to 32767 at line 8 near \"65536\"");
	check_error("polygon mesh", ENTITIES(G(0, "POLYLINE") G(70, "16") G(71, "2") G(72, "2") G(0, "SEQEND")),
				"POLYLINE polygon meshes (flag 16) are not read; only 3D polylines (flag 8) and polyface meshes (flag 64) "
				"at line 6 near \"POLYLINE\"");
	check_error("POLYLINE without SEQEND", ENTITIES(G(0, "POLYLINE") G(70, "8") G(0, "VERTEX") G(10, "0") G(20, "0") FACE3),
				"POLYLINE (line 6): expected VERTEX or SEQEND at line 16 near \"3DFACE\"");
	check_error("end inside POLYLINE", G(0, "SECTION") G(2, "ENTITIES") G(0, "POLYLINE") G(70, "8") G(0, "VERTEX") G(10, "0"),
				"VERTEX (line 10) not finished at line 13 (end of input)");
	check_error("one-vertex 3D POLYLINE", ENTITIES(G(0, "POLYLINE") G(70, "9") G(0, "VERTEX") G(10, "0") G(20, "0")
												   G(0, "VERTEX") G(10, "1") G(20, "1") G(70, "16") G(0, "SEQEND")),
				"3D POLYLINE needs at least 2 vertices, has 1 at line 6 near \"POLYLINE\"");
	check_error("VERTEX without X", ENTITIES(G(0, "POLYLINE") G(70, "8") G(0, "VERTEX") G(20, "0") G(0, "SEQEND")),
				"3D POLYLINE VERTEX without group 10 (the X of its point 1) at line 10 near \"VERTEX\"");
	check_error("stray VERTEX", ENTITIES(G(0, "VERTEX") G(10, "0") G(20, "0")), "VERTEX outside a POLYLINE at line 6 near \"VERTEX\"");
#define PF_HEAD G(0, "POLYLINE") G(70, "64") G(0, "VERTEX") G(10, "0") G(20, "0") G(70, "192") \
	G(0, "VERTEX") G(10, "1") G(20, "0") G(70, "192") G(0, "VERTEX") G(10, "0") G(20, "1") G(70, "192")
	check_wkt("polyface triangle", ENTITIES(PF_HEAD G(0, "VERTEX") G(70, "128") G(71, "1") G(72, "2") G(73, "-3") G(0, "SEQEND")),
			  TRIANGLE_WKT);
	check_error("polyface index out of range",
				ENTITIES(PF_HEAD G(0, "VERTEX") G(70, "128") G(71, "1") G(72, "2") G(73, "-4") G(0, "SEQEND")),
				"polyface mesh face: vertex index -4 (group 73) out of range (vertices so far: 3) at line 34 near \"VERTEX\"");
	check_error("polyface index after 0",
				ENTITIES(PF_HEAD G(0, "VERTEX") G(70, "128") G(71, "1") G(72, "0") G(73, "2") G(74, "3") G(0, "SEQEND")),
				"polyface mesh face: vertex index in group 73 after an absent or 0 one at line 34 near \"VERTEX\"");
	check_error("polyface edge", ENTITIES(PF_HEAD G(0, "VERTEX") G(70, "128") G(71, "1") G(72, "2") G(0, "SEQEND")),
				"polyface mesh face needs 3 or 4 vertices (groups 71-74), has 2 at line 34 near \"VERTEX\"");
	check_error("polyface VERTEX without flag 128", ENTITIES(PF_HEAD G(0, "VERTEX") G(10, "1") G(20, "1") G(0, "SEQEND")),
				"VERTEX of a polyface mesh without flag 128 (group 70) at line 34 near \"VERTEX\"");
	check_wkt("polyface not convex",
			  ENTITIES(PF_HEAD G(0, "VERTEX") G(10, "0.2") G(20, "0.2") G(70, "192")
					   G(0, "VERTEX") G(70, "128") G(71, "1") G(72, "2") G(73, "4") G(74, "3") G(0, "SEQEND")),
			  "TIN Z (((0 0 0,1 0 0,0.2 0.2 0,0 0 0)),((0 1 0,0 0 0,0.2 0.2 0,0 1 0)))");
}

int
main(void)
{
	test_drawing();
	test_entities();
	test_structure_errors();
	test_entity_errors();
	return gx_test_report("test_dxf");
}
