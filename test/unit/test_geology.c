/*
 * test_geology.c: the GOCAD and Surpac readers (gx_io_objects.h): the synthetic files of test/geology/ with
 * answers worked out by hand, one malformed line of each kind, and the third-party files of
 * ../shared/data/geology/ (relative to the repository root, where the tests run) when they are there.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io.h"
#include "io/gx_io_objects.h"
#include "gx_test.h"
#include "gx_test_files.h"

#define SHARED "../shared/data/geology"

typedef enum Reader
{
	GOCAD,
	SURPAC,
	DTM
} Reader;

/* Reads text (or the file at path when text is NULL) with reader; str: a DTM's string file's path. */
static int
read_objects(Reader reader, const char *path, const char *text, const char *str_path, GxIoObjects *o, GxError *err)
{
	size_t		len = 0,
				slen = 0;
	char	   *data = text != NULL ? NULL : gx_test_read_file(path, &len);
	char	   *str = str_path != NULL ? gx_test_read_file(str_path, &slen) : NULL;
	const char *d = text != NULL ? text : data;
	int			ok;

	if (text != NULL)
		len = strlen(text);
	if (d == NULL)
	{
		CHECK_MSG(d != NULL, "cannot read %s", path);
		return 0;
	}
	memset(o, 0, sizeof(*o));
	ok = reader == GOCAD ? gx_from_gocad(d, len, o, err) : reader == SURPAC ? gx_from_surpac_str(d, len, o, err) :
		gx_from_surpac_dtm(d, len, str, slen, o, err);
	CHECK_MSG(ok, "%s: %s", path != NULL ? path : "text", err->msg);
	gx_free(data);
	gx_free(str);
	return ok;
}

static void
check_wkt(const GxIoObject *o, const char *wkt)
{
	char	   *w = gx_to_wkt(o->geom, 0, NULL);

	CHECK_MSG(strcmp(w, wkt) == 0, "got %s\nwant %s", w, wkt);
	gx_free(w);
}

static void
check_str(const char *got, const char *want)
{
	CHECK_MSG(got != NULL && strcmp(got, want) == 0, "got %s\nwant %s", got ? got : "(null)", want);
}

static bool
first_leaf(void *ctx, const GxNode *leaf)
{
	*(double *) ctx = gx_node_coords(leaf)[2];
	return false;
}

/* The z of the first coordinate of g. */
static double
first_z(const GxSerialized *g)
{
	double		z = NAN;

	gx_node_walk(gx_body(g), first_leaf, &z);
	return z;
}

static void
test_synthetic_gocad(void)
{
	GxIoObjects o;
	GxError		err;

	if (read_objects(GOCAD, "test/geology/synthetic.ts", NULL, NULL, &o, &err))
	{
		CHECK(o.n == 1);		/* the SGrid is skipped */
		check_str(o.items[0].name, "top");
		/* depths negated; a depth of 0 is height +0; ATOM 4 is vertex 2 */
		check_wkt(&o.items[0], "TIN Z (((0 0 -10,10 0 -10,0 10 -12,0 0 -10)),((10 0 -10,10 10 0,0 10 -12,10 0 -10)))");
		check_str(o.items[0].properties,
				  "{\"type\":\"TSurf\",\"header\":{\"name\":\"top\"},\"coordinate_system\":{\"NAME\":\"Default\","
				  "\"ZPOSITIVE\":\"Depth\"},\"vertex_properties\":{\"grade\":[1.5,null,2.5,null,null],"
				  "\"normal\":[[0,1],[0,1],[1,0],[0,1],null]}}");
		CHECK(!signbit(gx_node_coords(gx_body(o.items[0].geom))[14]));	/* (10 10 0): +0 */
		gx_io_objects_free(&o);
	}
	if (read_objects(GOCAD, "test/geology/synthetic.pl", NULL, NULL, &o, &err))
	{
		CHECK(o.n == 1);
		check_str(o.items[0].name, "fault trace");
		check_wkt(&o.items[0], "MULTILINESTRING Z ((0 0 0,1 0 0,2 0 0),(5 5 5,6 6 6))");
		gx_io_objects_free(&o);
	}
	if (read_objects(GOCAD, "test/geology/synthetic.vs", NULL, NULL, &o, &err))
	{
		check_wkt(&o.items[0], "MULTIPOINT Z ((100 200 -5),(101 201 -6))");
		check_str(o.items[0].properties, "{\"type\":\"VSet\",\"header\":{\"name\":\"samples\"},"
				  "\"vertex_properties\":{\"au\":[null,0.25]}}");
		gx_io_objects_free(&o);
	}
	if (read_objects(GOCAD, "test/geology/synthetic.wl", NULL, NULL, &o, &err))
	{
		check_str(o.items[0].name, "DH-7");
		check_wkt(&o.items[0], "LINESTRING Z (1000 2000 50,1000 2000 -10,1005 1998 -68)");
		check_str(o.items[0].properties, "{\"type\":\"Well\",\"header\":{\"name\":\"DH-7\"},"
				  "\"coordinate_system\":{\"ZPOSITIVE\":\"Depth\"},\"md\":[0,60,120]}");
		gx_io_objects_free(&o);
	}
}

static void
test_synthetic_surpac(void)
{
	GxIoObjects o;
	GxError		err;

	if (read_objects(SURPAC, "test/geology/synthetic.str", NULL, NULL, &o, &err))
	{
		CHECK(o.n == 3);
		check_str(o.items[0].name, "7");
		check_wkt(&o.items[0], "LINESTRING Z (1000.25 2000.5 100,1000.25 2010.5 101)");
		check_str(o.items[0].properties, "{\"string\":7,\"segment\":1,\"descriptors\":[[\"crest\",\"A\"],[]]}");
		check_wkt(&o.items[1], "POINT Z (1010 2020 99)");
		check_str(o.items[1].properties, "{\"string\":8,\"segment\":2,\"descriptors\":[[\"toe\"]]}");
		check_str(o.items[2].properties, "{\"string\":9,\"segment\":3}");
		gx_io_objects_free(&o);
	}
	if (read_objects(DTM, "test/geology/synthetic.dtm", NULL, "test/geology/synthetic.str", &o, &err))
	{
		CHECK(o.n == 1);
		check_str(o.items[0].name, "1.1");
		check_wkt(&o.items[0], "TIN Z (((1000.25 2000.5 100,1000.25 2010.5 101,2 1 3,1000.25 2000.5 100)),"
				  "((2 1 3,3 1 3,3 2 3,2 1 3)))");
		check_str(o.items[0].properties, "{\"object\":1,\"trisolation\":1,\"neighbours\":\"no\",\"closed\":\"no\"}");
		gx_io_objects_free(&o);
	}
}

/* text must fail with exactly msg. */
static void
check_error(Reader reader, const char *text, const char *str, const char *msg)
{
	GxIoObjects o = {0};
	GxError		err = {GX_OK, ""};
	int			ok = reader == GOCAD ? gx_from_gocad(text, strlen(text), &o, &err) :
		reader == SURPAC ? gx_from_surpac_str(text, strlen(text), &o, &err) :
		gx_from_surpac_dtm(text, strlen(text), str, str ? strlen(str) : 0, &o, &err);

	CHECK_MSG(!ok && err.code == GX_ERR_PARSE && strcmp(err.msg, msg) == 0, "got %s\nwant %s", err.msg, msg);
	if (ok)
		gx_io_objects_free(&o);
}

#define TS "GOCAD TSurf 1\n"
#define STR_HEAD "s,1-Jan-26,,\n0, 0, 0, 0, 0, 0, 0\n"

static void
test_errors(void)
{
	check_error(GOCAD, TS "VRTX 1 0 x 0\nEND\n", NULL, "VRTX: expected a number at line 2 near \"x 0\"");
	check_error(GOCAD, TS "VRTX 1 0 0\nEND\n", NULL,
				"VRTX: expected a number, found the end of the line at line 2 near \"VRTX 1 0 0\"");
	check_error(GOCAD, TS "VRTX a 0 0 0\nEND\n", NULL, "VRTX: expected a vertex id (an integer) at line 2 near \"a 0 0 0\"");
	check_error(GOCAD, TS "VRTX 1 0 0 0 7\nEND\n", NULL,
				"VRTX: unexpected text after the record (only control-node flags such as CNXYZ may follow) at line 2 near \"7\"");
	check_error(GOCAD, TS "PROPERTIES a b\nPVRTX 1 0 0 0 5\nEND\n", NULL,
				"PVRTX: expected a number, found the end of the line at line 3 near \"PVRTX 1 0 0 0 5\"");
	check_error(GOCAD, TS "VRTX 1 0 0 0\nVRTX 2 1 0 0\nTRGL 1 2 9\nEND\n", NULL,
				"TRGL at line 4: vertex 9 is not defined in the object");
	check_error(GOCAD, TS "VRTX 1 0 0 0\nVRTX 1 1 0 0\nEND\n", NULL, "vertex id 1 defined twice, at lines 2 and 3");
	check_error(GOCAD, TS "ATOM 2 3\nEND\n", NULL, "ATOM 2 at line 2: the vertex it repeats is not defined in the object");
	check_error(GOCAD, TS "ZPOSITIVE Up\nEND\n", NULL, "ZPOSITIVE: expected Depth or Elevation at line 2 near \"Up\"");
	check_error(GOCAD, TS "VRTX 1 0 0 0\n", NULL, "GOCAD object of line 1 not ended (expected END) at line 3 (end of input)");
	check_error(GOCAD, TS "VRTX 1 0 0 0\nEND\n", NULL, "GOCAD TSurf object of line 1 without triangles (TRGL records)");
	check_error(GOCAD, TS "HEADER {\nno colon\n}\nEND\n", NULL, "HEADER: expected \"key: value\" at line 3 near \"no colon\"");
	check_error(GOCAD, TS "TRGL 1 2\nEND\n", NULL,
				"TRGL: expected a vertex id, found the end of the line at line 2 near \"TRGL 1 2\"");
	check_error(GOCAD, TS "GOCAD PLine 1\n", NULL, "expected END before the next object at line 2 near \"GOCAD PLine 1\"");
	check_error(GOCAD, "solid x\n", NULL, "expected \"GOCAD <type> <version>\" to begin an object at line 1 near \"solid x\"");
	check_error(GOCAD, "GOCAD Voxet 1\nEND\n", NULL,
				"GOCAD file without a TSurf, PLine, VSet or Well object (1 of other types skipped)");
	check_error(GOCAD, "GOCAD Well 1\nPATH 0 1 2\nEND\n", NULL,
				"PATH (zm z dx dy): expected a number, found the end of the line at line 2 near \"PATH 0 1 2\"");
	check_error(GOCAD, "GOCAD Well 1\nPATH 0 1 2 3\nEND\n", NULL, "GOCAD Well object of line 1 without WREF (its reference point)");
	check_error(SURPAC, STR_HEAD "1, 2, abc, 3\n0, 0, 0, 0, END\n", NULL,
				"string record (string, y, x, z, ...): x: expected a number at line 3 near \"abc, 3\"");
	check_error(SURPAC, STR_HEAD "x, 2, 1, 3\n", NULL,
				"string record (string, y, x, z, ...): string number: expected an integer at line 3 near \"x, 2, 1, 3\"");
	check_error(SURPAC, STR_HEAD "1, 2, 1\n", NULL,
				"string record (string, y, x, z, ...): z: expected a number, found the end of the record at line 3 near \"1, 2, 1\"");
	check_error(SURPAC, STR_HEAD "1, 2, 1, 3\n", NULL,
				"expected the end record \"0, 0.000, 0.000, 0.000, END\" at line 4 (end of input)");
	check_error(SURPAC, STR_HEAD "1, 2, 1, 3\n0, 0, 0, 0, END\nmore\n", NULL, "text after the end record at line 5 near \"more\"");
	check_error(DTM, "s.str\n0,0,0,0,END\nOBJECT, 1,\nTRISOLATION, 1,\n1, 1, 2, 5,\nEND\n",
				STR_HEAD "1, 0, 0, 0\n1, 1, 0, 0\n0, 0, 0, 0, END\n",
				"triangle record: vertex number 5 out of range (2 points) at line 5 near \"5,\"");
	check_error(DTM, "s.str\n0,0,0,0,END\n1, 1, 2, 3,\nEND\n", STR_HEAD "1, 0, 0, 0\n0, 0, 0, 0, END\n",
				"expected OBJECT or TRISOLATION before triangle records at line 3 near \"1, 1, 2, 3,\"");
	check_error(DTM, "s.str\n0,0,0,0,END\nOBJECT, 1,\nTRISOLATION, 1,\n", STR_HEAD "1, 0, 0, 0\n0, 0, 0, 0, END\n",
				"expected the DTM's END record at line 5 (end of input)");
	check_error(DTM, "s.str\n0,0,0,0,END\nEND\n", STR_HEAD "1, 0, x, 0\n0, 0, 0, 0, END\n",
				"string record (string, y, x, z, ...): x: expected a number at line 3 near \"x, 0\" (in the string file)");
}

/* A third-party file: its objects' count, and the first object's name, triangles, points and first z. */
typedef struct Shared
{
	Reader		reader;
	const char *file;
	const char *str;
	size_t		objects;
	const char *name;
	size_t		triangles;
	size_t		points;			/* as gx_counts counts them */
	double		z;				/* the first coordinate's z */
} Shared;

static const Shared shared[] = {
	{GOCAD, "gocad/OpenGeode-GeosciencesIO__2triangles.ts", NULL, 1, "2triangles.ts", 2, 8, -2238.04224665696},
	{GOCAD, "gocad/OpenGeode-GeosciencesIO__Fault_without_crs.ts", NULL, 1, "Fault", 324, 1296, 2122.703843},
	{GOCAD, "gocad/OpenGeode-GeosciencesIO__points.vs", NULL, 1, "points", 0, 6, 216.72999572753906},
	/* ZPOSITIVE Depth: VRTX 1 at depth 1461.34326171875 */
	{GOCAD, "gocad/OpenGeode-GeosciencesIO__sgrid_tsurf.ts", NULL, 1, "FractureSet_N20_1fract_visualisation", 2, 8,
	-1461.34326171875},
	{GOCAD, "gocad/OpenGeode-GeosciencesIO__surf2d.ts", NULL, 1, "section1", 46, 184, 0},
	{GOCAD, "gocad/OpenGeode-GeosciencesIO__surf2d_multi.ts", NULL, 2, "section1", 46, 184, 0},
	/* TRGL 3 2 1 first; PVRTX 3 at depth -110115.6171875 */
	{GOCAD, "gocad/OpenGeode-GeosciencesIO__ts-2props.ts", NULL, 1, "test", 2, 8, 110115.6171875},
	/* WREF z -167.89999389648438 in depth; 55 PATH records */
	{GOCAD, "gocad/OpenGeode-GeosciencesIO__test.wl", NULL, 1, "test", 0, 55, 167.89999389648438},
	{SURPAC, "surpac/Kirra2D__24m-west-wall-presplits.str", NULL, 1, "32000", 0, 219, 334},
	{SURPAC, "surpac/Kirra2D__406 windrow pickup.str", NULL, 1, "1", 0, 27, 239},
	{SURPAC, "surpac/Kirra2D__S5_346_516_V2.str", NULL, 324, "512", 0, 2, 358.074},
	{SURPAC, "surpac/Kirra2D__blastholestext.str", NULL, 738, "1", 0, 2, 238},
	{SURPAC, "surpac/Kirra2D__test310text.str", NULL, 21, "511", 0, 4, 310},
	/* triangle 1 is "1, 2, 3, 1": point 2 of the .str first */
	{DTM, "surpac/Kirra2D__24m-west-wall-presplits.dtm", "surpac/Kirra2D__24m-west-wall-presplits.str", 1, "1.1", 292,
	1168, 322},
};

static void test_shared_round_trip(void);

static void
test_shared(void)
{
	char		path[512],
				str[512];
	size_t		i;
	GxIoObjects o;
	GxError		err;
	GxCounts	c;
	FILE	   *probe = fopen(SHARED "/SOURCES.md", "r");

	if (probe == NULL)
	{
		gx_test_skip("test_geology third-party files", SHARED " not found");
		return;
	}
	fclose(probe);
	for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
	{
		const Shared *s = &shared[i];

		snprintf(path, sizeof(path), SHARED "/%s", s->file);
		if (s->str != NULL)
			snprintf(str, sizeof(str), SHARED "/%s", s->str);
		if (!read_objects(s->reader, path, NULL, s->str != NULL ? str : NULL, &o, &err))
			continue;
		c = gx_counts(o.items[0].geom);
		CHECK_MSG(o.n == s->objects && strcmp(o.items[0].name, s->name) == 0 && c.triangles == s->triangles &&
				  c.points == s->points && first_z(o.items[0].geom) == s->z,
				  "%s: %zu objects, %s, %zu triangles, %zu points, z %.17g", s->file, o.n, o.items[0].name,
				  c.triangles, c.points, first_z(o.items[0].geom));
		gx_io_objects_free(&o);
	}
	test_shared_round_trip();
}

/* The ISO WKB of g, to compare geometries bit for bit. */
static int
same_wkb(const GxSerialized *a, const GxSerialized *b)
{
	size_t		la,
				lb;
	unsigned char *wa = gx_to_wkb(a, GX_WKB_ISO, &la);
	unsigned char *wb = gx_to_wkb(b, GX_WKB_ISO, &lb);
	int			same = la == lb && memcmp(wa, wb, la) == 0;

	gx_free(wa);
	gx_free(wb);
	return same;
}

static GxSerialized *
from_wkt(const char *wkt)
{
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *g = gx_from_wkt(wkt, &size, &err);

	CHECK_MSG(g != NULL, "%s: %s", wkt, err.msg);
	return g;
}

/* g written as GOCAD reads back as want (one object), bit for bit. */
static void
check_gocad_round_trip(const GxSerialized *g, const GxSerialized *want)
{
	GxError		err = {GX_OK, ""};
	size_t		len;
	char	   *text = gx_to_gocad(g, "body {1}", &len, &err);
	GxIoObjects o = {0};

	CHECK_MSG(text != NULL, "%s", err.msg);
	if (text == NULL)
		return;
	CHECK_MSG(gx_from_gocad(text, len, &o, &err) && o.n == 1 && same_wkb(o.items[0].geom, want) &&
			  strcmp(o.items[0].name, "body  1") == 0, "%s\n%s", err.msg, text);
	gx_io_objects_free(&o);
	gx_free(text);
}

/* Extreme doubles: signed zeros, subnormals, the largest, values that need 17 digits. */
#define ODD "0 -0 5e-324,1.7976931348623157e+308 -2.2250738585072014e-308 0.1,602123.4567890123 6891234.000000001 -0"

static void
test_writers(void)
{
	GxSerialized *tin = from_wkt("TIN Z (((" ODD ",0 -0 5e-324)),((0 -0 5e-324,3 4 5,0.1 0.2 0.3,0 -0 5e-324)),"
								 "((1.7976931348623157e+308 -2.2250738585072014e-308 0.1,3 4 5,0 0 0,"
								 "1.7976931348623157e+308 -2.2250738585072014e-308 0.1)))");
	GxSerialized *tri = from_wkt("TRIANGLE Z ((" ODD ",0 -0 5e-324))");
	GxSerialized *tri_tin = from_wkt("TIN Z (((" ODD ",0 -0 5e-324)))");
	GxSerialized *mls = from_wkt("MULTILINESTRING Z ((" ODD ",0 -0 5e-324),(1 2 3,1 2 3))");
	GxSerialized *ls = from_wkt("LINESTRING Z (" ODD ")");
	GxSerialized *ls_m = from_wkt("MULTILINESTRING Z ((" ODD "))");
	GxSerialized *mp = from_wkt("MULTIPOINT Z ((0 -0 5e-324),(1e-300 -1e300 0.30000000000000004))");
	GxSerialized *empty = from_wkt("TIN Z EMPTY");
	GxError		err = {GX_OK, ""};
	GxIoObjects o = {0};
	size_t		len,
				slen,
				dlen,
				i;
	char	   *text,
			   *str,
			   *dtm;

	check_gocad_round_trip(tin, tin);
	check_gocad_round_trip(tri, tri_tin);
	check_gocad_round_trip(mls, mls);
	check_gocad_round_trip(ls, ls_m);
	check_gocad_round_trip(mp, mp);
	CHECK(gx_to_gocad(empty, "x", &len, &err) == NULL && err.code == GX_ERR_INVALID);

	/* Surpac strings: each linestring one segment */
	err.code = GX_OK;
	text = gx_to_surpac(mls, 7, &len, &err);
	CHECK_MSG(text != NULL && gx_from_surpac_str(text, len, &o, &err) && o.n == 2, "%s", err.msg);
	if (o.n == 2)
	{
		GxSerialized *first = from_wkt("LINESTRING Z (" ODD ",0 -0 5e-324)");
		GxSerialized *second = from_wkt("LINESTRING Z (1 2 3,1 2 3)");

		CHECK(same_wkb(o.items[0].geom, first) && same_wkb(o.items[1].geom, second));
		check_str(o.items[0].name, "7");
		gx_free(first);
		gx_free(second);
	}
	gx_io_objects_free(&o);
	gx_free(text);
	text = gx_to_surpac(mp, 1, &len, &err);
	CHECK_MSG(text != NULL && gx_from_surpac_str(text, len, &o, &err) && o.n == 2, "%s", err.msg);
	for (i = 0; i < o.n; i++)
		CHECK(gx_node_coords(gx_body(o.items[i].geom))[2] == (i == 0 ? 5e-324 : 0.30000000000000004));
	gx_io_objects_free(&o);
	gx_free(text);
	CHECK(gx_to_surpac(tin, 1, &len, &err) == NULL && err.code == GX_ERR_INVALID);
	err.code = GX_OK;
	CHECK(gx_to_surpac(mls, 32001, &len, &err) == NULL && err.code == GX_ERR_ARG);
	err.code = GX_OK;

	/* Surpac DTM: the triangles over the string file's distinct vertices */
	CHECK_MSG(gx_to_surpac_dtm(tin, "pit", &str, &slen, &dtm, &dlen, &err), "%s", err.msg);
	if (err.code == GX_OK)
	{
		CHECK(strncmp(dtm, "pit.str,", 8) == 0);
		CHECK_MSG(gx_from_surpac_dtm(dtm, dlen, str, slen, &o, &err) && o.n == 1 && same_wkb(o.items[0].geom, tin),
				  "%s\n%s\n%s", err.msg, str, dtm);
		gx_io_objects_free(&o);
		/* 9 corners, 6 distinct: -0 and +0 differ */
		CHECK(gx_from_surpac_str(str, slen, &o, &err) && o.n == 1 && gx_counts(o.items[0].geom).points == 6);
		gx_io_objects_free(&o);
		gx_free(str);
		gx_free(dtm);
	}
	CHECK(!gx_to_surpac_dtm(mls, "x", &str, &slen, &dtm, &dlen, &err) && err.code == GX_ERR_INVALID);
	gx_free(tin);
	gx_free(tri);
	gx_free(tri_tin);
	gx_free(mls);
	gx_free(ls);
	gx_free(ls_m);
	gx_free(mp);
	gx_free(empty);
}

/* Third-party surfaces read, written and read again: the same geometry bit for bit. */
static void
test_shared_round_trip(void)
{
	static const char *const files[] = {"gocad/OpenGeode-GeosciencesIO__Fault_without_crs.ts",
	"gocad/OpenGeode-GeosciencesIO__ts-2props.ts", "gocad/OpenGeode-GeosciencesIO__surf2d.ts"};
	char		path[512];
	GxIoObjects o,
				back;
	GxError		err;
	size_t		i,
				len;
	char	   *text;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
	{
		snprintf(path, sizeof(path), SHARED "/%s", files[i]);
		if (!read_objects(GOCAD, path, NULL, NULL, &o, &err))
			continue;
		text = gx_to_gocad(o.items[0].geom, o.items[0].name, &len, &err);
		memset(&back, 0, sizeof(back));
		CHECK_MSG(text != NULL && gx_from_gocad(text, len, &back, &err) && back.n == 1 &&
				  same_wkb(back.items[0].geom, o.items[0].geom), "%s: %s", files[i], err.msg);
		gx_io_objects_free(&back);
		gx_io_objects_free(&o);
		gx_free(text);
	}
}

int
main(void)
{
	test_synthetic_gocad();
	test_synthetic_surpac();
	test_errors();
	test_writers();
	test_shared();
	return gx_test_report("test_geology");
}
