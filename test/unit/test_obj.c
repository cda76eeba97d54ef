/*
 * test_obj.c: unit tests of the OBJ reader: crafted files for every statement and every error, each result
 * compared with its exact WKT; then, when GX_STL_DIR names the unpacked stl-models package, the Stanford
 * bunny written as OBJ (shared vertices, negative references) must read as the very TIN the STL reader
 * makes of it. argv[1] (a directory) is not used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_format.h"
#include "gx_test.h"
#include "gx_test_files.h"
#include "io/gx_io.h"

/* Checks that text reads as the geometry of WKT want. */
static void
check_wkt(const char *name, const char *text, const char *want)
{
	GxError		err;
	size_t		size;
	GxSerialized *g = gx_from_obj(text, strlen(text), &size, &err);
	char	   *wkt = g != NULL ? gx_to_wkt(g, 1, NULL) : NULL;

	CHECK_MSG(wkt != NULL && err.code == GX_OK && strcmp(wkt, want) == 0, "%s: expected %s, got %s (%s)",
			  name, want, wkt ? wkt : "NULL", err.msg);
	gx_free(wkt);
	gx_free(g);
}

/* Checks that the len bytes at data are refused with the code and exactly the message want. */
static void
check_error_len(const char *name, const char *data, size_t len, GxErrorCode code, const char *want)
{
	GxError		err;
	size_t		size;
	GxSerialized *g = gx_from_obj(data, len, &size, &err);

	CHECK_MSG(g == NULL && err.code == code && strcmp(err.msg, want) == 0, "%s: expected error %d \"%s\", got %d \"%s\"",
			  name, (int) code, want, (int) err.code, err.msg);
	gx_free(g);
}

static void
check_error(const char *name, const char *text, const char *want)
{
	check_error_len(name, text, strlen(text), GX_ERR_PARSE, want);
}

#define SQUARE "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"

/* A unit cube of quads in every reference form, with the statements that are skipped: 12 triangles. */
static void
test_cube(void)
{
	check_wkt("cube",
			  "# a cube\nmtllib cube.mtl\no cube\n"
			  "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
			  "vt 0 0\nvt 1 0\nvt 1 1\nvn 0 0 -1\nvn 0 0 1\nvp 0.5\n"
			  "g bottom\nusemtl red\ns off\n"
			  "f 1//1 4//1 3//1 2//1\n"
			  "g top\ns 1\nf 5/1/2 6/2/2 7/3/2 8/1/2\n"
			  "f 1/1 2/2 6/3 5/1\n"
			  "f 2 3 7 6\n"
			  "f -5 -1 -2 -6 # negative: back from vertex 8\n"
			  "f 4 1 5 8\n",
			  "TIN Z (((0 0 0,0 1 0,1 1 0,0 0 0)),((0 0 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 0 1)),"
			  "((0 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 0)),((0 0 0,1 0 1,0 0 1,0 0 0)),"
			  "((1 0 0,1 1 0,1 1 1,1 0 0)),((1 0 0,1 1 1,1 0 1,1 0 0)),((0 1 0,0 1 1,1 1 1,0 1 0)),"
			  "((0 1 0,1 1 1,1 1 0,0 1 0)),((0 1 0,0 0 0,0 0 1,0 1 0)),((0 1 0,0 0 1,0 1 1,0 1 0)))");
}

/* Triangles as they are (degenerate ones too), fans of convex faces, faces on tilted planes, other faces triangulated. */
static void
test_faces(void)
{
	check_wkt("triangle", SQUARE "f 1 2 3\n", "TIN Z (((0 0 0,1 0 0,1 1 0,0 0 0)))");
	check_wkt("degenerate triangle", SQUARE "f 1 1 2\n", "TIN Z (((0 0 0,0 0 0,1 0 0,0 0 0)))");
	check_wkt("clockwise quad", SQUARE "f 4 3 2 1\n", "TIN Z (((0 1 0,1 1 0,1 0 0,0 1 0)),((0 1 0,1 0 0,0 0 0,0 1 0)))");
	check_wkt("hexagon on x + y + z = 1",
			  "v 1000 0 -999\nv 500 866 -1365\nv -500 866 -365\nv -1000 0 1001\nv -500 -866 1367\nv 500 -866 367\n"
			  "f 1 2 3 4 5 6\n",
			  "TIN Z (((1000 0 -999,500 866 -1365,-500 866 -365,1000 0 -999)),"
			  "((1000 0 -999,-500 866 -365,-1000 0 1001,1000 0 -999)),"
			  "((1000 0 -999,-1000 0 1001,-500 -866 1367,1000 0 -999)),"
			  "((1000 0 -999,-500 -866 1367,500 -866 367,1000 0 -999)))");
	check_wkt("nearly flat turn", "v 0 0 0\nv 1 0 0\nv 2 1e-300 0\nv 1 1 0\nf 1 2 3 4\n",
			  "TIN Z (((0 0 0,1 0 0,2 1e-300 0,0 0 0)),((0 0 0,2 1e-300 0,1 1 0,0 0 0)))");
	check_error("not planar", SQUARE "v 0 1 1e-300\nf 1 2 3 5\n",
				"face with 4 vertices is not planar: its point 4 (0 1 1e-300) is off the plane through its points 1, 2 and 3 "
				"at line 6 near \"f 1 2 3 5\"");
	check_wkt("not convex", SQUARE "v 0.5 0.25 0\nf 1 2 5 4\n",
			  "TIN Z (((0 0 0,1 0 0,0.5 0.25 0,0 0 0)),((0 1 0,0 0 0,0.5 0.25 0,0 1 0)))");
	check_wkt("collinear vertex", SQUARE "v 2 0 0\nf 1 2 5 3\n", "TIN Z (((1 1 0,0 0 0,1 0 0,1 1 0)),((2 0 0,1 1 0,1 0 0,2 0 0)))");
	check_wkt("repeated vertex", SQUARE "f 1 2 3 3\n", "TIN Z (((1 1 0,0 0 0,1 0 0,1 1 0)))");
	check_error("bow tie", SQUARE "f 1 3 2 4\n",
				"face with 4 vertices is not simple: its edge from point 1 (0 0 0) meets its edge from point 3 (1 0 0) "
				"at line 5 near \"f 1 3 2 4\"");
}

/* Polylines, points, point clouds, and what mixes of them make. */
static void
test_kinds(void)
{
	check_wkt("lines", SQUARE "vt 0 0\nl 1 2 3\nl 4/1 -1\n", "MULTILINESTRING Z ((0 0 0,1 0 0,1 1 0),(0 1 0,0 1 0))");
	check_wkt("points", SQUARE "p 1 -1\np 2\n", "MULTIPOINT Z ((0 0 0),(0 1 0),(1 0 0))");
	check_wkt("point cloud", "v 1 2 3\nv -0 4.5e-3 1E+2\n", "MULTIPOINT Z ((1 2 3),(-0 0.0045 100))");
	check_wkt("faces, lines, points", SQUARE "l 1 3\nf 1 2 3 4\np 2\nl 2 4\n",
			  "GEOMETRYCOLLECTION Z (TIN Z (((0 0 0,1 0 0,1 1 0,0 0 0)),((0 0 0,1 1 0,0 1 0,0 0 0))),"
			  "LINESTRING Z (0 0 0,1 1 0),LINESTRING Z (1 0 0,0 1 0),POINT Z (1 0 0))");
	check_wkt("faces and points", SQUARE "p 4\nf 1 2 3\n",
			  "GEOMETRYCOLLECTION Z (TIN Z (((0 0 0,1 0 0,1 1 0,0 0 0))),POINT Z (0 1 0))");
	check_wkt("unused vertices", SQUARE "l 2 3\n", "MULTILINESTRING Z ((1 0 0,1 1 0))");
}

/* Vertex forms, line ends, comments, whitespace, case, a byte order mark. */
static void
test_lenient(void)
{
	check_wkt("weight and colour", "v 1 2 3 0.5\nv 4 5 6 1 0.5 0\n", "MULTIPOINT Z ((1 2 3),(4 5 6))");
	check_wkt("line ends", "v 1 0 0\r\nv 2 0 0\rv 3 0 0\n\nl 1 2 3", "MULTILINESTRING Z ((1 0 0,2 0 0,3 0 0))");
	check_wkt("whitespace and comments", "\t v\t1  2 3   # a vertex\n# f 9 9 9\n  \n\f\nV 4 5 6#x\n",
			  "MULTIPOINT Z ((1 2 3),(4 5 6))");
	check_wkt("byte order mark", "\xEF\xBB\xBFv 1 2 3\n", "MULTIPOINT Z ((1 2 3))");
	check_wkt("references back and forth", "v 0 0 0\nv 1 0 0\nl -2 -1\nv 2 0 0\nl -1 1 +2\n",
			  "MULTILINESTRING Z ((0 0 0,1 0 0),(2 0 0,0 0 0,1 0 0))");
}

/* Every error, with its line and the text quoted there. */
static void
test_errors(void)
{
	check_error("empty", "", "OBJ file without vertices (no \"v\" statement)");
	check_error("comments only", "# nothing\n\ng group\n", "OBJ file without vertices (no \"v\" statement)");
	check_error("two coordinates", "v 1 2\n", "vertex needs x y z, has 2 numbers at line 1 near \"v 1 2\"");
	check_error("no coordinates", "v 1 2 3\nv\n", "vertex needs x y z, has 0 numbers at line 2 near \"v\"");
	check_error("five numbers", "v 1 2 3 4 5\n",
				"vertex with 5 numbers: x y z, x y z w or x y z r g b expected at line 1 near \"v 1 2 3 4 5\"");
	check_error("eight numbers", "v 1 2 3 4 5 6 7 8\n",
				"vertex with 7 or more numbers: x y z, x y z w or x y z r g b expected at line 1 near \"v 1 2 3 4 5 6 7 \"");
	check_error("word", "v 1 two 3\n", "vertex: expected a number at line 1 near \"two 3\"");
	check_error("comma", "v 1,5 2 3\n", "vertex: expected a number at line 1 near \"1,5 2 3\"");
	check_error("hex", "v 0x10 2 3\n", "vertex: expected a number at line 1 near \"0x10 2 3\"");
	check_error("NaN", "v 1 2 nan\n", "vertex: NaN or infinite number at line 1 near \"nan\"");
	check_error("infinite colour", "v 1 2 3 1 1 inf\n", "vertex: NaN or infinite number at line 1 near \"inf\"");
	check_error("overflow", "\n\nv 1e999 2 3\n", "vertex: number out of range for float8 (its magnitude exceeds 1.7976931348623157e+308) at line 3 near \"1e999 2 3\"");
	check_error("too long", "v 1 2 0.00000000000000000000000000000000000000000000000000000000000000001\n",
				"vertex: number longer than 64 characters at line 1 near \"0.00000000000000\"");
	check_error("control byte", "v 1 \001 3\n", "vertex: expected a number at line 1 near byte 0x01");
	check_error_len("NUL", "v 1 2 3\nf 1\0 1 1\n", 17, GX_ERR_PARSE, "malformed vertex reference (v, v/vt, v//vn or v/vt/vn "
					"expected) at line 2 near \"1\"");
	check_error("index 0", SQUARE "f 0 1 2\n",
				"vertex index 0 (indices start at 1, or count back from -1) at line 5 near \"0 1 2\"");
	check_error("index too large", SQUARE "f 1 2 5\n", "vertex index 5 out of range (defined so far: 4) at line 5 near \"5\"");
	check_error("forward reference", "v 0 0 0\nf 1 2 3\nv 1 0 0\nv 0 1 0\n",
				"vertex index 2 out of range (defined so far: 1) at line 2 near \"2 3\"");
	check_error("negative too far", SQUARE "l -5 1\n", "vertex index -5 out of range (defined so far: 4) at line 5 near \"-5 1\"");
	check_error("huge index", SQUARE "p 99999999999999999999999\n",
				"vertex index 1000000000000000000 out of range (defined so far: 4) at line 5 near \"9999999999999999\"");
	check_error("texture index", SQUARE "vt 0 0\nf 1/1 2/2 3/1\n",
				"texture coordinate index 2 out of range (defined so far: 1) at line 6 near \"2/2 3/1\"");
	check_error("normal index", SQUARE "vn 0 0 1\nf 1//1 2//1 3//-2\n",
				"normal index -2 out of range (defined so far: 1) at line 6 near \"3//-2\"");
	check_error("texture index 0", SQUARE "f 1/0 2 3\n",
				"texture coordinate index 0 (indices start at 1, or count back from -1) at line 5 near \"1/0 2 3\"");
	check_error("empty reference part", SQUARE "f 1/ 2 3\n",
				"malformed vertex reference (v, v/vt, v//vn or v/vt/vn expected) at line 5 near \"1/ 2 3\"");
	check_error("four parts", SQUARE "f 1/1/1/1 2 3\n",
				"malformed vertex reference (v, v/vt, v//vn or v/vt/vn expected) at line 5 near \"1/1/1/1 2 3\"");
	check_error("no vertex part", SQUARE "f //1 2 3\n",
				"malformed vertex reference (v, v/vt, v//vn or v/vt/vn expected) at line 5 near \"//1 2 3\"");
	check_error("normal in a line", SQUARE "vn 0 0 1\nl 1//1 2//1\n",
				"malformed vertex reference (v or v/vt expected) at line 6 near \"1//1 2//1\"");
	check_error("texture in a point", SQUARE "vt 0 0\np 1/1\n", "malformed vertex reference (v expected) at line 6 near \"1/1\"");
	check_error("word reference", SQUARE "f 1 2 x\n",
				"malformed vertex reference (v, v/vt, v//vn or v/vt/vn expected) at line 5 near \"x\"");
	check_error("two-vertex face", SQUARE "f 1 2\n", "face needs at least 3 vertices, has 2 at line 5 near \"f 1 2\"");
	check_error("one-vertex line", SQUARE "l 1 # x\n", "line needs at least 2 vertices, has 1 at line 5 near \"l 1 # x\"");
	check_error("empty point", SQUARE "p\n", "point statement without vertices at line 5 near \"p\"");
	check_error("free-form", SQUARE "cstype bspline\ncurv 0 1 1 2\n", "unsupported OBJ statement at line 5 near \"cstype bspline\"");
	check_error("line continuation", SQUARE "f 1 2 \\\n 3\n",
				"malformed vertex reference (v, v/vt, v//vn or v/vt/vn expected) at line 5 near \"\\\"");
	check_error("UTF-8 statement", SQUARE "\xC3\xA9 1\n", "unsupported OBJ statement at line 5 near byte 0xC3");
}

/*
 * The bunny (69 451 triangles) as OBJ: each facet's vertices written as "v" lines with the shortest decimals
 * that read back to the same doubles, then "f -3 -2 -1", every 100th facet as "f i j k" with absolute
 * indices: the TIN must equal the STL reader's bit for bit.
 */
static void
test_bunny(void)
{
	const char *dir = getenv("GX_STL_DIR");
	char		path[4096];
	char	   *stl;
	size_t		len = 0;
	GxError		err;
	size_t		size,
				size2;
	GxSerialized *a = NULL;
	GxSerialized *b = NULL;
	char	   *obj;
	size_t		cap,
				at = 0;
	const double *c;
	uint32_t	i;
	int			k;
	char		num[32];

	if (dir == NULL || dir[0] == '\0')
	{
		gx_test_skip("test_obj bunny check", "GX_STL_DIR unset (the package/ directory of stl-models-0.12.0.tgz)");
		return;
	}
	snprintf(path, sizeof(path), "%s/objects/bunny.bin.stl", dir);
	stl = gx_test_read_file(path, &len);
	CHECK_MSG(stl != NULL, "cannot read %s", path);
	if (stl != NULL)
		a = gx_from_stl((const unsigned char *) stl, len, &size, &err);
	CHECK_MSG(a != NULL && gx_body(a)->count == 69451, "bunny STL: %s", a ? "wrong count" : err.msg);
	if (a == NULL)
	{
		gx_free(stl);
		return;
	}
	cap = (size_t) gx_body(a)->count * 9 * 34 + 64;
	obj = gx_alloc(cap);
	c = gx_node_coords(gx_body(a));
	for (i = 0; i < gx_body(a)->count; i++)
	{
		for (k = 0; k < 9; k++)
		{
			if (k % 3 == 0)
				at += (size_t) sprintf(obj + at, "v");
			gx_format_double(c[9 * i + k], num);
			at += (size_t) sprintf(obj + at, " %s%s", num, k % 3 == 2 ? "\n" : "");
		}
		if (i % 100 == 0)
			at += (size_t) sprintf(obj + at, "f %u %u %u\n", 3 * i + 1, 3 * i + 2, 3 * i + 3);
		else
			at += (size_t) sprintf(obj + at, "f -3 -2 -1\n");
	}
	b = gx_from_obj(obj, at, &size2, &err);
	CHECK_MSG(b != NULL && size2 == size && memcmp(a, b, size) == 0, "bunny OBJ differs from its STL: %s",
			  b ? "other bytes" : err.msg);
	gx_free(obj);
	gx_free(stl);
	gx_free(a);
	gx_free(b);
}

int
main(void)
{
	test_cube();
	test_faces();
	test_kinds();
	test_lenient();
	test_errors();
	test_bunny();
	return gx_test_report("test_obj");
}
