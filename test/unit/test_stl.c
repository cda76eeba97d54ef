/*
 * test_stl.c: unit tests of the STL reader: crafted binary and ASCII buffers for every rule and error,
 * then, when GX_STL_DIR names the unpacked stl-models 0.12.0 package (its package/ directory), every
 * file of that collection with its documented result. argv[1] (a directory) is not used.
 */
#define _DEFAULT_SOURCE

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/gx_alloc.h"
#include "gx_test.h"
#include "gx_test_files.h"
#include "io/gx_io.h"

#define PREFIX			84		/* binary header + facet count */
#define FACET			50
#define MAX_FACETS		((uint32_t) 1 << 26)

/* One parse: the result, its size and error. */
typedef struct Parsed
{
	GxSerialized *g;
	size_t		size;
	GxError		err;
} Parsed;

static Parsed
parse(const void *data, size_t len)
{
	Parsed		p;

	p.g = gx_from_stl(data, len, &p.size, &p.err);
	return p;
}

static Parsed
parse_text(const char *text)
{
	return parse(text, strlen(text));
}

/* Triangles of a parsed TIN; -1 for a failure or another type. */
static long
triangles(const Parsed *p)
{
	return p->g != NULL && gx_body(p->g)->type == GX_TIN ? (long) gx_body(p->g)->count : -1;
}

/* The i-th coordinate (0-based, 9 per triangle) of a parsed TIN. */
static double
coord(const Parsed *p, size_t i)
{
	return gx_node_coords(gx_body(p->g))[i];
}

/* Checks that text parses as a TIN of n triangles. */
static void
check_ok(const char *name, Parsed p, long n)
{
	CHECK_MSG(triangles(&p) == n && p.err.code == GX_OK, "%s: %ld triangles expected, got %ld (%s)",
			  name, n, triangles(&p), p.err.msg);
	gx_free(p.g);
}

/* Checks that a parse failed with the code and a message containing words. */
static void
check_error(const char *name, Parsed p, GxErrorCode code, const char *words)
{
	CHECK_MSG(p.g == NULL && p.err.code == code && strstr(p.err.msg, words) != NULL,
			  "%s: expected error %d \"%s\", got %d \"%s\"", name, (int) code, words, (int) p.err.code, p.err.msg);
	gx_free(p.g);
}

/* Writes a little-endian uint32 / float32. */
static void
put_le32(unsigned char *s, uint32_t v)
{
	s[0] = (unsigned char) v;
	s[1] = (unsigned char) (v >> 8);
	s[2] = (unsigned char) (v >> 16);
	s[3] = (unsigned char) (v >> 24);
}

static void
put_float(unsigned char *s, float f)
{
	uint32_t	bits;

	memcpy(&bits, &f, sizeof(bits));
	put_le32(s, bits);
}

/*
 * Writes a binary STL of n facets into buf (PREFIX + FACET * n bytes): the header text (NUL-padded),
 * the count, then facet i with normal (0, 0, 1) and vertices f[9i .. 9i+8]. Returns its length.
 */
static size_t
make_binary(unsigned char *buf, const char *header, uint32_t n, const float *f)
{
	uint32_t	i;
	int			k;

	memset(buf, 0, PREFIX + FACET * (size_t) n);
	memcpy(buf, header, strlen(header));
	put_le32(buf + 80, n);
	for (i = 0; i < n; i++)
	{
		put_float(buf + PREFIX + FACET * i + 8, 1.0f);
		for (k = 0; k < 9; k++)
			put_float(buf + PREFIX + FACET * i + 12 + 4 * k, f[9 * i + k]);
	}
	return PREFIX + FACET * (size_t) n;
}

static const float two_facets[18] = {
	0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f,
	-0.0f, 0.1f, 3.4e38f, 1e-45f, -2.5f, 16777217.0f, 0.0f, 0.0f, -1.0f,
};

/* Float32 values become the same doubles, -0 and subnormals included. */
static void
test_binary_exact(void)
{
	unsigned char buf[PREFIX + 2 * FACET];
	Parsed		p = parse(buf, make_binary(buf, "two facets", 2, two_facets));
	int			k;
	int			same = 1;

	CHECK_MSG(triangles(&p) == 2, "%s", p.err.msg);
	for (k = 0; k < 18 && p.g != NULL; k++)
		same &= memcmp(&(double) {two_facets[k]}, &(double) {coord(&p, (size_t) k)}, sizeof(double)) == 0;
	CHECK(same);
	CHECK(p.g != NULL && signbit(coord(&p, 9)) && coord(&p, 9) == 0.0);
	CHECK(p.g != NULL && coord(&p, 10) == (double) 0.1f && coord(&p, 12) == (double) 1e-45f);
	CHECK(p.g != NULL && p.g->srid == 0 && p.g->box.zmax == (double) 3.4e38f && p.g->box.ymin == -2.5);
	gx_free(p.g);
}

/* Sizes that disagree with the facet count, too short a file, and an empty mesh. */
static void
test_binary_sizes(void)
{
	unsigned char buf[PREFIX + 2 * FACET + 1] = {0};
	Parsed		p;

	make_binary(buf, "t", 2, two_facets);
	check_error("truncated", parse(buf, PREFIX + FACET + 10), GX_ERR_PARSE,
				"binary STL truncated: its 2 declared facets need 184 bytes, the file has 144");
	check_error("one byte over", parse(buf, PREFIX + 2 * FACET + 1), GX_ERR_PARSE,
				"binary STL has 1 trailing bytes after its 2 declared facets (184 bytes expected, the file has 185)");
	put_le32(buf + 80, 1);
	check_error("count too small", parse(buf, PREFIX + 2 * FACET), GX_ERR_PARSE,
				"binary STL has 50 trailing bytes after its 1 declared facets (134 bytes expected, the file has 184)");
	put_le32(buf + 80, 5);
	check_error("count too large", parse(buf, PREFIX + 2 * FACET), GX_ERR_PARSE,
				"binary STL truncated: its 5 declared facets need 334 bytes, the file has 184");
	put_le32(buf + 80, UINT32_MAX);
	check_error("count 2^32-1", parse(buf, PREFIX), GX_ERR_PARSE,
				"binary STL truncated: its 4294967295 declared facets need 214748364834 bytes, the file has 84");
	check_error("too short", parse(buf, PREFIX - 1), GX_ERR_PARSE,
				"binary STL too short: 83 bytes, less than its 84-byte header and facet count");
	check_error("one byte", parse("x", 1), GX_ERR_PARSE, "binary STL too short: 1 bytes");
	put_le32(buf + 80, 0);
	p = parse(buf, PREFIX);
	CHECK_MSG(triangles(&p) == 0 && p.size == sizeof(GxSerialized) + sizeof(GxNode), "%s", p.err.msg);
	CHECK(p.g != NULL && (p.g->flags & GX_FLAG_EMPTY) != 0);
	gx_free(p.g);
}

/* NaN or infinite numbers, in vertices or normals, name the facet and the byte offset. */
static void
test_binary_non_finite(void)
{
	unsigned char buf[PREFIX + 2 * FACET];
	size_t		len = make_binary(buf, "nan", 2, two_facets);

	put_float(buf + PREFIX + FACET + 12 * 3 + 4, NAN);
	check_error("NaN vertex", parse(buf, len), GX_ERR_PARSE,
				"facet 2: NaN or infinite number in vertex 3 at byte offset 170");
	make_binary(buf, "inf", 2, two_facets);
	put_float(buf + PREFIX + 8, -INFINITY);
	check_error("infinite normal", parse(buf, len), GX_ERR_PARSE,
				"facet 1: NaN or infinite number in the normal at byte offset 84");
}

/* Binary files whose header starts with "solid": the NUL in the first 84 bytes makes them binary. */
static void
test_binary_solid_header(void)
{
	unsigned char buf[PREFIX + 2 * FACET];
	size_t		len = make_binary(buf, "solid two", 2, two_facets);
	Parsed		a = parse(buf, len);
	Parsed		b;

	make_binary(buf, "two facets", 2, two_facets);
	b = parse(buf, len);
	CHECK_MSG(triangles(&a) == 2 && a.size == b.size && b.g != NULL && memcmp(a.g, b.g, a.size) == 0, "%s", a.err.msg);
	gx_free(a.g);
	gx_free(b.g);
	make_binary(buf, " \n SoLiD", 1, two_facets);
	check_ok("whitespace, SOLID", parse(buf, PREFIX + FACET), 1);
	make_binary(buf, "solid", 2, two_facets);
	check_error("solid, wrong size", parse(buf, len - 1), GX_ERR_PARSE,
				"binary STL truncated: its 2 declared facets need 184 bytes, the file has 183");
	check_error("solid, short", parse(buf, 40), GX_ERR_PARSE, "binary STL too short: 40 bytes");
	memset(buf + 5, ' ', 75);
	check_ok("solid, space-padded header", parse(buf, len), 2);
}

/* More than 2^26 facets in a well-formed file: GX_ERR_LIMIT, refused before any facet is read. */
static void
test_binary_limit(void)
{
	size_t		len = PREFIX + FACET * ((size_t) MAX_FACETS + 1);
	unsigned char *big = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (big == MAP_FAILED)
	{
		gx_test_skip("test_stl facet limit check", "cannot map a 2^26 + 1 facet file (3.4 GB)");
		return;
	}
	put_le32(big + 80, MAX_FACETS + 1);
	check_error("2^26 + 1 facets", parse(big, len), GX_ERR_LIMIT,
				"binary STL has 67108865 facets, more than the limit of 67108864");
	munmap(big, len);
}

static const char *const one_facet =
	"solid t\n"
	"facet normal 0 0 1\n"
	"  outer loop\n"
	"    vertex 0 0 0\n"
	"    vertex 1 0 0\n"
	"    vertex 0 1 0\n"
	"  endloop\n"
	"endfacet\n"
	"endsolid t\n";

/* ASCII with the same coordinates as a binary file gives the identical TIN. */
static void
test_ascii_twin(void)
{
	unsigned char buf[PREFIX + FACET];
	size_t		len = make_binary(buf, "t", 1, two_facets);
	Parsed		a = parse_text(one_facet);
	Parsed		b = parse(buf, len);

	CHECK_MSG(triangles(&a) == 1 && b.g != NULL && a.size == b.size && memcmp(a.g, b.g, a.size) == 0, "%s", a.err.msg);
	gx_free(a.g);
	gx_free(b.g);
}

/* Keywords in any case, any whitespace, CR or CRLF line ends, names or none, number forms, -0. */
static void
test_ascii_lenient(void)
{
	Parsed		p;

	check_ok("case and whitespace", parse_text(" \r\n\tSOLID  a b c \r\n FaCeT\tNORMAL 0 0 1 OUTER\fLOOP\v"
											   "VERTEX 0 0 0 Vertex 1 0 0 vertex 0 1 0 ENDLOOP ENDFACET\rendsolid x y\r\n\n"), 1);
	check_ok("nameless, faceless", parse_text("solid\nendsolid"), 0);
	check_ok("name mismatch", parse_text("solid a\nendsolid b\n"), 0);
	check_ok("degenerate facet", parse_text("solid\nfacet normal 1 0 0 outer loop vertex 1 1 1 vertex 1 1 1 "
											"vertex 1 1 1 endloop endfacet endsolid"), 1);
	p = parse_text("solid\nfacet normal 0 0 0 outer loop vertex -0 +1.5E+2 -.5e-1 vertex 1e-320 7 0.1 "
				   "vertex 123456789012345678901234567890 0 0 endloop endfacet endsolid\n");
	CHECK_MSG(triangles(&p) == 1, "%s", p.err.msg);
	CHECK(p.g != NULL && signbit(coord(&p, 0)) && coord(&p, 0) == 0.0 && coord(&p, 1) == 150.0);
	CHECK(p.g != NULL && coord(&p, 2) == -0.05 && coord(&p, 3) == 1e-320 && coord(&p, 5) == 0.1);
	CHECK(p.g != NULL && coord(&p, 6) == 123456789012345678901234567890.0);
	CHECK(p.g != NULL && p.g->flags == 0);
	gx_free(p.g);
	p = parse_text("solid\nendsolid\n");
	CHECK(p.g != NULL && (p.g->flags & GX_FLAG_EMPTY) != 0 && triangles(&p) == 0);
	gx_free(p.g);
}

/* A facet of the ASCII files below, with the vertex lines given. */
#define FACET_WITH(vertices) "facet normal 0 0 1\nouter loop\n" vertices "endloop\nendfacet\n"
#define V3 "vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"

/* Writes "solid" and spaces up to byte 90, then the n bytes of tail, into buf; returns the length. */
static size_t
padded_solid(char *buf, const char *tail, size_t n)
{
	memset(buf, ' ', 90);
	memcpy(buf, "solid", 5);
	memcpy(buf + 90, tail, n);
	return 90 + n;
}

/* Structure errors: line numbers, facet numbers, the text there. */
static void
test_ascii_structure_errors(void)
{
	char		buf[128];

	check_error("empty", parse("", 0), GX_ERR_PARSE, "empty STL file (0 bytes, no data)");
	check_error("whitespace", parse_text(" \n\t\r\n"), GX_ERR_PARSE, "empty STL file (5 bytes, no data)");
	check_error("solidfoo", parse_text("solidfoo\nendsolid\n"), GX_ERR_PARSE, "expected \"solid\" at line 1 near \"solidfoo\"");
	check_error("missing endsolid", parse_text("solid\n" FACET_WITH(V3)), GX_ERR_PARSE,
				"missing endsolid after 1 facets at line 9 (end of input)");
	check_error("4 vertices", parse_text("solid\n" FACET_WITH(V3) FACET_WITH(V3 "vertex 1 1 1\n") "endsolid\n"),
				GX_ERR_PARSE, "facet 2 has 4 vertices; STL facets are triangles at line 15 near \"endloop\"");
	check_error("2 vertices", parse_text("solid\n" FACET_WITH("vertex 0 0 0\nvertex 1 0 0\n") "endsolid\n"),
				GX_ERR_PARSE, "facet 1 has 2 vertices; STL facets are triangles at line 6");
	check_error("0 vertices", parse_text("solid\n" FACET_WITH("") "endsolid\n"),
				GX_ERR_PARSE, "facet 1 has 0 vertices; STL facets are triangles at line 4");
	check_error("no normal keyword", parse_text("solid\nfacet 0 0 1\n"), GX_ERR_PARSE,
				"facet 1: expected \"normal\" at line 2 near \"0 0 1\"");
	check_error("outer without loop", parse_text("solid\nfacet normal 0 0 1 outer vertex"), GX_ERR_PARSE,
				"facet 1: expected \"loop\" at line 2 near \"vertex\"");
	check_error("no endfacet", parse_text("solid\nfacet normal 0 0 1 outer loop " V3 "endloop\nendsolid\n"),
				GX_ERR_PARSE, "facet 1: expected \"endfacet\" at line 6 near \"endsolid\"");
	check_error("garbage", parse_text("solid x\r\n" FACET_WITH(V3) "faces\n"), GX_ERR_PARSE,
				"expected \"facet\" or \"endsolid\" after 1 facets at line 9 near \"faces\"");
	check_error("after endsolid", parse_text("solid a\nendsolid a\n\nsolid b\nendsolid b\n"), GX_ERR_PARSE,
				"text after endsolid at line 4 near \"solid b\"");
	check_error("CR lines", parse_text("solid\rfacet normal 0 0 1\r\rbad"), GX_ERR_PARSE,
				"facet 1: expected \"outer\" at line 4 near \"bad\"");
	check_error("NUL after 84 bytes", parse(buf, padded_solid(buf, "\n\0", 2)), GX_ERR_PARSE,
				"after 0 facets at line 2 near byte 0x00");
	check_error("NUL in the name", parse(buf, padded_solid(buf, "x\0y\nendsolid\n", 13)), GX_ERR_PARSE,
				"after 0 facets at line 1 near byte 0x00");
}

/* Number errors: missing, malformed, non-decimal, too long, NaN or infinite. */
static void
test_ascii_number_errors(void)
{
	check_error("missing normal", parse_text("solid\nfacet normal\nouter loop\n"), GX_ERR_PARSE,
				"facet 1: expected a number for the normal at line 3 near \"outer loop\"");
	check_error("short normal", parse_text("solid\nfacet normal 0 0"), GX_ERR_PARSE,
				"facet 1: expected a number for the normal at line 2 (end of input)");
	check_error("word", parse_text("solid\nfacet normal 0 0 1 outer loop\nvertex 0 abc 0\n"), GX_ERR_PARSE,
				"facet 1: expected a number for vertex 1 at line 3 near \"abc 0\"");
	check_error("comma", parse_text("solid\n" FACET_WITH("vertex 0 0 0\nvertex 1,5 0 0\n")), GX_ERR_PARSE,
				"facet 1: expected a number for vertex 2 at line 5 near \"1,5 0 0\"");
	check_error("hex", parse_text("solid\n" FACET_WITH("vertex 0x10 0 0\n")), GX_ERR_PARSE,
				"facet 1: expected a number for vertex 1 at line 4 near \"0x10 0 0\"");
	check_error("control byte", parse_text("solid\nfacet normal 0 \001 0\n"), GX_ERR_PARSE,
				"facet 1: expected a number for the normal at line 2 near byte 0x01");
	check_error("too long", parse_text("solid\nfacet normal 0 0 "
									   "0.00000000000000000000000000000000000000000000000000000000000000001"),
				GX_ERR_PARSE, "facet 1: number longer than 64 characters in the normal at line 2");
	check_error("NaN normal", parse_text("solid\n" FACET_WITH(V3) "facet normal NaN 0 0\n"), GX_ERR_PARSE,
				"facet 2: NaN or infinite number in the normal at line 9 near \"NaN 0 0\"");
	check_error("inf vertex", parse_text("solid\n" FACET_WITH("vertex 0 0 -inf\n")), GX_ERR_PARSE,
				"facet 1: NaN or infinite number in vertex 1 at line 4 near \"-inf\"");
	check_error("overflow", parse_text("solid\n" FACET_WITH(V3 "vertex 0 1e999 0\n")), GX_ERR_PARSE,
				"facet 1: number out of range for float8 (its magnitude exceeds 1.7976931348623157e+308) in vertex 4 at line 7 near \"1e999 0\"");
}

/* Parses a file of the collection; data (gx_alloc'd, may be NULL) is kept when wanted. */
static Parsed
parse_file(const char *dir, const char *name, unsigned char **data, size_t *len)
{
	char		path[4096];
	size_t		n = 0;
	unsigned char *d;
	Parsed		p;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	d = (unsigned char *) gx_test_read_file(path, &n);
	CHECK_MSG(d != NULL, "cannot read %s", path);
	p = parse(d, n);
	if (data != NULL)
	{
		*data = d;
		*len = n;
	}
	else
		gx_free(d);
	return p;
}

/* A file of the collection and its result: a TIN of `triangles`, or (triangles < 0) an error. */
typedef struct Expected
{
	const char *name;
	long		triangles;
	const char *error;			/* words of the error message */
} Expected;

/* package/broken/: the documented defects, refused or accepted under the lenient rules. */
static const Expected broken[] = {
	{"empty.stl", -1, "empty STL file (0 bytes, no data)"},
	{"fourVertices.ascii.stl", -1, "facet 1 has 4 vertices; STL facets are triangles at line 8 near \"endloop\""},
	{"incorrectFaceCounter.bin.stl", -1, "binary STL truncated: its 66 declared facets need 3384 bytes, the file has 284"},
	{"missingEndsolid.ascii.stl", -1, "missing endsolid after 4 facets at line 30 (end of input)"},
	{"missingFace.ascii.stl", 3, NULL},		/* an open tetrahedron: still a TIN */
	{"missingNormal.ascii.stl", -1, "facet 4: expected a number for the normal at line 24 near \"outer loop\""},
	{"notANumberNormal.ascii.stl", -1, "facet 2: NaN or infinite number in the normal at line 9 near \"NaN NaN NaN\""},
	{"quad.ascii.stl", -1, "facet 1 has 4 vertices; STL facets are triangles at line 8 near \"endloop\""},
	{"singleFace.ascii.stl", 1, NULL},
	{"solidNameMismatch.ascii.stl", 4, NULL},	/* endsolid names are not compared */
	{"twoVertices.ascii.stl", -1, "facet 1 has 2 vertices; STL facets are triangles at line 6 near \"endloop\""},
	{"wrongHeader.bin.stl", 12, NULL},	/* "solid" header, but NULs in it and the size fits: binary */
	{"wrongNormal.ascii.stl", 4, NULL},	/* normals are ignored */
	{"wrongNormals.ascii.stl", 4, NULL},
};

/* The other directories. */
static const Expected others[] = {
	{"misc/faceless.ascii.stl", 0, NULL},
	{"misc/multiWordName.ascii.stl", 4, NULL},
	/* Damaged in the package (bytes replaced by UTF-8 U+FFFD): 333 bytes instead of 284. */
	{"misc/multiWordName.bin.stl", -1,
	 "binary STL has 49 trailing bytes after its 4 declared facets (284 bytes expected, the file has 333)"},
	{"misc/namelessSolid.ascii.stl", 4, NULL},
	{"polytopes/cube.ascii.stl", 12, NULL},
	{"polytopes/cube.bin.stl", 12, NULL},
	{"polytopes/cubeLarge.ascii.stl", 12, NULL},
	{"polytopes/tetrahedron.ascii.stl", 4, NULL},
	{"polytopes/tetrahedron.bin.stl", 4, NULL},
	{"polytopes/tetrahedron.min.ascii.stl", 4, NULL},
	{"polytopes/tetrahedronIrregular.ascii.stl", 4, NULL},
	{"polytopes/tetrahedronIrregular.bin.stl", 4, NULL},
	{"polytopes/tetrahedronMinusZero.bin.stl", 4, NULL},
	{"polytopes/triangle.ascii.stl", 1, NULL},
	{"polytopes/triangle.bin.stl", 1, NULL},
	{"polytopes/unitCube.ascii.stl", 12, NULL},
	{"polytopes/unitCube.binary.stl", 12, NULL},
	{"objects/gearwheel.ascii.stl", 2444, NULL},
	{"objects/gearwheel.bin.stl", 2444, NULL},
};

static void
check_expected(const char *dir, const Expected *e)
{
	Parsed		p = parse_file(dir, e->name, NULL, NULL);

	if (e->triangles >= 0)
		check_ok(e->name, p, e->triangles);
	else
		check_error(e->name, p, GX_ERR_PARSE, e->error);
}

/* Every file of broken/ is listed above, and the list holds nothing else. */
static void
check_broken_listing(const char *root)
{
	char		path[4096];
	DIR		   *dir;
	struct dirent *e;
	size_t		files = 0;
	size_t		i;

	snprintf(path, sizeof(path), "%s/broken", root);
	dir = opendir(path);
	CHECK_MSG(dir != NULL, "cannot open %s", path);
	while (dir != NULL && (e = readdir(dir)) != NULL)
	{
		if (e->d_name[0] == '.')
			continue;
		for (i = 0; i < sizeof(broken) / sizeof(broken[0]) && strcmp(broken[i].name, e->d_name) != 0; i++)
			;
		CHECK_MSG(i < sizeof(broken) / sizeof(broken[0]), "broken/%s has no documented result", e->d_name);
		files++;
	}
	if (dir != NULL)
		closedir(dir);
	CHECK_MSG(files == sizeof(broken) / sizeof(broken[0]), "broken/ holds %zu files", files);
}

/* Two files of the collection give byte-identical TINs. */
static void
check_identical(const char *dir, const char *a, const char *b)
{
	Parsed		pa = parse_file(dir, a, NULL, NULL);
	Parsed		pb = parse_file(dir, b, NULL, NULL);

	CHECK_MSG(pa.g != NULL && pb.g != NULL && pa.size == pb.size && memcmp(pa.g, pb.g, pa.size) == 0,
			  "%s and %s differ", a, b);
	gx_free(pa.g);
	gx_free(pb.g);
}

/*
 * Two files with the same mesh, one printed in decimals: same triangle count, boxes within tol (relative
 * to the coordinate's magnitude when above 1: the decimals have a fixed number of significant digits).
 */
static void
check_close(const char *dir, const char *bin, const char *ascii, long n, double tol)
{
	Parsed		pb = parse_file(dir, bin, NULL, NULL);
	Parsed		pa = parse_file(dir, ascii, NULL, NULL);
	const double *x = pb.g ? &pb.g->box.xmin : NULL;
	const double *y = pa.g ? &pa.g->box.xmin : NULL;
	double		diff = 0.0;
	int			k;

	CHECK_MSG(triangles(&pb) == n && triangles(&pa) == n, "%s: %ld, %s: %ld triangles, %ld expected",
			  bin, triangles(&pb), ascii, triangles(&pa), n);
	for (k = 0; k < 6 && x != NULL && y != NULL; k++)
		diff = fmax(diff, fabs(x[k] - y[k]) / fmax(1.0, fabs(x[k])));
	CHECK_MSG(x != NULL && y != NULL && diff <= tol, "%s and %s: boxes differ by %g", bin, ascii, diff);
	gx_free(pb.g);
	gx_free(pa.g);
}

/* Checks that a file is a mesh whose box is the cube [lo, hi]^3. */
static void
check_cube_box(const char *dir, const char *name, double lo, double hi)
{
	Parsed		p = parse_file(dir, name, NULL, NULL);
	const GxBox3D *b = p.g ? &p.g->box : NULL;

	CHECK_MSG(b != NULL && b->xmin == lo && b->ymin == lo && b->zmin == lo &&
			  b->xmax == hi && b->ymax == hi && b->zmax == hi, "%s: not the box [%g, %g]^3", name, lo, hi);
	gx_free(p.g);
}

/* Checks that every vertex number of a binary file is the file's float32, bit for bit. */
static void
check_float_bits(const char *dir, const char *name)
{
	unsigned char *data = NULL;
	size_t		len = 0;
	Parsed		p = parse_file(dir, name, &data, &len);
	size_t		i;
	int			same = p.g != NULL;
	float		f;

	for (i = 0; same && i < 9 * (size_t) triangles(&p); i++)
	{
		memcpy(&f, data + PREFIX + FACET * (i / 9) + 12 + 4 * (i % 9), sizeof(f));
		same = memcmp(&(double) {f}, &(double) {coord(&p, i)}, sizeof(double)) == 0;
	}
	CHECK_MSG(same, "%s: coordinate %zu differs from the file", name, i);
	gx_free(data);
	gx_free(p.g);
}

static void
test_collection(const char *root)
{
	char		dir[4096];
	size_t		i;

	snprintf(dir, sizeof(dir), "%s/broken", root);
	for (i = 0; i < sizeof(broken) / sizeof(broken[0]); i++)
		check_expected(dir, &broken[i]);
	check_broken_listing(root);
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		check_expected(root, &others[i]);
	check_identical(root, "polytopes/tetrahedron.ascii.stl", "polytopes/tetrahedron.bin.stl");
	check_identical(root, "polytopes/tetrahedron.min.ascii.stl", "polytopes/tetrahedron.bin.stl");
	check_identical(root, "polytopes/cube.ascii.stl", "polytopes/cube.bin.stl");
	check_identical(root, "polytopes/triangle.ascii.stl", "polytopes/triangle.bin.stl");
	check_identical(root, "polytopes/unitCube.ascii.stl", "polytopes/unitCube.binary.stl");
	check_cube_box(root, "broken/wrongHeader.bin.stl", -50.0, 50.0);
	check_cube_box(root, "polytopes/cube.bin.stl", -1.0, 1.0);
	check_cube_box(root, "polytopes/cubeLarge.ascii.stl", 0.0, 100.0);
	check_cube_box(root, "polytopes/unitCube.binary.stl", 0.0, 1.0);
	check_close(root, "objects/bunny.bin.stl", "objects/bunny.ascii.stl", 69451, 1e-6);
	check_close(root, "objects/gearwheel.bin.stl", "objects/gearwheel.ascii.stl", 2444, 1e-6);
	check_close(root, "polytopes/tetrahedronIrregular.bin.stl", "polytopes/tetrahedronIrregular.ascii.stl", 4, 1e-6);
	/* Its -0s are all in the normals, which are ignored: the vertices are those of tetrahedron.bin.stl. */
	check_identical(root, "polytopes/tetrahedronMinusZero.bin.stl", "polytopes/tetrahedron.bin.stl");
	check_float_bits(root, "polytopes/tetrahedronMinusZero.bin.stl");
	check_float_bits(root, "objects/bunny.bin.stl");
}

int
main(void)
{
	const char *root = getenv("GX_STL_DIR");

	test_binary_exact();
	test_binary_sizes();
	test_binary_non_finite();
	test_binary_solid_header();
	test_binary_limit();
	test_ascii_twin();
	test_ascii_lenient();
	test_ascii_structure_errors();
	test_ascii_number_errors();
	if (root != NULL && root[0] != '\0')
		test_collection(root);
	else
		gx_test_skip("test_stl stl-models collection checks",
					 "GX_STL_DIR unset (the package/ directory of stl-models-0.12.0.tgz; see README.md, Tests)");
	return gx_test_report("test_stl");
}
