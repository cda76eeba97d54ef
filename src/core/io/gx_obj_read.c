/*
 * gx_obj_read.c: reads Wavefront OBJ text: vertices (v), faces (f), polylines (l) and points (p), written as
 * gx_io_parts.h says; a file of vertices alone is a point cloud (MULTIPOINT). Texture coordinates and
 * normals are only counted, for the index checks of references to them; grouping, smoothing and material
 * statements are skipped; free-form geometry and any other statement is refused.
 */
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io.h"
#include "io/gx_io_internal.h"
#include "io/gx_io_parts.h"

#define VERTEX_NUMBERS_MAX	7		/* numbers read on a v line: one more than the most accepted (6) */

typedef struct ObjReader
{
	GxLineReader lr;			/* the lines, where errors go */
	double		(*verts)[3];
	size_t		nverts,
				cap_verts;
	size_t		ntex;			/* vt statements so far */
	size_t		nnormals;		/* vn statements so far */
	double		(*elem)[3];		/* the vertices of the current element */
	size_t		cap_elem;
	GxIoParts	parts;
} ObjReader;

/* The rest of a statement: from p to its end (a comment, "#" on, excluded). */
typedef struct Cursor
{
	const char *p;
	const char *end;
} Cursor;

/* Statements read as nothing: grouping, smoothing, display and material attributes, vertex kinds not used. */
static const char *const skipped[] = {
	"g", "o", "s", "mg", "usemtl", "mtllib", "usemap", "maplib", "lod", "bevel", "c_interp", "d_interp",
	"shadow_obj", "trace_obj", "ctech", "stech", "vp", NULL
};

/* Sets *tok to the next whitespace-separated token; returns its length, 0 at the end of the statement. */
static size_t
next_token(Cursor *c, const char **tok)
{
	const char *start;

	while (c->p < c->end && gx_io_is_space(*c->p))
		c->p++;
	start = c->p;
	while (c->p < c->end && !gx_io_is_space(*c->p))
		c->p++;
	*tok = start;
	return (size_t) (c->p - start);
}

/* "v x y z", "v x y z w" or "v x y z r g b": x y z kept, the weight or colour checked and dropped. */
static void
read_vertex(ObjReader *r, Cursor *c, const char *statement)
{
	const char *tok;
	size_t		n;
	int			count = 0;
	double		v[VERTEX_NUMBERS_MAX];
	GxNumberStatus status;

	while (count < VERTEX_NUMBERS_MAX && (n = next_token(c, &tok)) > 0)
	{
		status = gx_io_parse_number(tok, n, &v[count++]);
		if (status != GX_NUMBER_OK)
		{
			gx_io_line_error(&r->lr, tok, "vertex: %s", gx_io_number_problem(status));
			return;
		}
	}
	if (count < 3)
	{
		gx_io_line_error(&r->lr, statement, "vertex needs x y z, has %d numbers", count);
		return;
	}
	if (count != 3 && count != 4 && count != 6)
	{
		gx_io_line_error(&r->lr, statement, "vertex with %d%s numbers: x y z, x y z w or x y z r g b expected",
				   count, count == VERTEX_NUMBERS_MAX ? " or more" : "");
		return;
	}
	if (gx_io_grow((void **) &r->verts, &r->cap_verts, r->nverts + 1, sizeof(r->verts[0]), r->lr.err))
		memcpy(r->verts[r->nverts++], v, sizeof(r->verts[0]));
}

/*
 * Resolves the index i (1-based, or negative: counting back from the last) among count items of kind
 * ("vertex", "texture coordinate", "normal") defined so far; -1 with an error quoting tok if out of range.
 */
static long long
resolve(ObjReader *r, long long i, size_t count, const char *kind, const char *tok)
{
	if (i == 0)
		gx_io_line_error(&r->lr, tok, "%s index 0 (indices start at 1, or count back from -1)", kind);
	else if (i > 0 && (unsigned long long) i <= count)
		return i - 1;
	else if (i < 0 && (unsigned long long) -i <= count)
		return (long long) count + i;
	else
		gx_io_line_error(&r->lr, tok, "%s index %lld out of range (defined so far: %zu)", kind, i, count);
	return -1;
}

/*
 * Reads the vertex reference of n bytes at tok into r->elem[k]: "v", or with parts 2 also "v/vt", or with
 * parts 3 also "v//vn" and "v/vt/vn" (forms spells those); every index is checked. 0 on error.
 */
static int
read_reference(ObjReader *r, const char *tok, size_t n, int parts, const char *forms, size_t k)
{
	const char *field[3];
	size_t		len[3];
	long long	idx[3];
	int			count = 0;
	size_t		i;
	size_t		start = 0;
	long long	v;

	for (i = 0; i <= n; i++)
	{
		if (i < n && tok[i] != '/')
			continue;
		if (count == parts)
			break;
		field[count] = tok + start;
		len[count++] = i - start;
		start = i + 1;
	}
	for (i = 0; i < (size_t) count; i++)
		if (!(i == 1 && count == 3 && len[1] == 0) && !gx_io_parse_int(field[i], len[i], &idx[i]))
			break;
	if (start != n + 1 || i != (size_t) count)
	{
		gx_io_line_error(&r->lr, tok, "malformed vertex reference (%s expected)", forms);
		return 0;
	}
	v = resolve(r, idx[0], r->nverts, "vertex", tok);
	if (v < 0 || (count > 1 && len[1] > 0 && resolve(r, idx[1], r->ntex, "texture coordinate", tok) < 0) ||
		(count > 2 && resolve(r, idx[2], r->nnormals, "normal", tok) < 0))
		return 0;
	memcpy(r->elem[k], r->verts[v], sizeof(r->elem[0]));
	return 1;
}

/* Reads the references of an element into r->elem; returns how many, or -1 on error. */
static long
read_references(ObjReader *r, Cursor *c, int parts, const char *forms)
{
	const char *tok;
	size_t		n;
	size_t		k = 0;

	while ((n = next_token(c, &tok)) > 0)
	{
		if (!gx_io_grow((void **) &r->elem, &r->cap_elem, k + 1, sizeof(r->elem[0]), r->lr.err) ||
			!read_reference(r, tok, n, parts, forms, k))
			return -1;
		k++;
	}
	return (long) k;
}

/* "f v1 v2 v3 ...": a triangle, or a larger face as its triangles when it is planar and simple. */
static void
read_face(ObjReader *r, Cursor *c, const char *statement)
{
	char		msg[GX_IO_MSG];
	long		n = read_references(r, c, 3, "v, v/vt, v//vn or v/vt/vn");

	if (n >= 0 && n < 3)
		gx_io_line_error(&r->lr, statement, "face needs at least 3 vertices, has %ld", n);
	else if (n >= 3 && !gx_io_parts_face(&r->parts, r->elem, (size_t) n, "face", msg, sizeof(msg)))
		gx_io_line_error(&r->lr, statement, "%s", msg);
}

/* "l v1 v2 ...": a polyline. */
static void
read_polyline(ObjReader *r, Cursor *c, const char *statement)
{
	long		n = read_references(r, c, 2, "v or v/vt");

	if (n >= 0 && n < 2)
		gx_io_line_error(&r->lr, statement, "line needs at least 2 vertices, has %ld", n);
	else if (n >= 2)
		gx_io_parts_line(&r->parts, r->elem, (size_t) n);
}

/* "p v1 v2 ...": points. */
static void
read_points(ObjReader *r, Cursor *c, const char *statement)
{
	long		n = read_references(r, c, 1, "v");
	long		i;

	if (n == 0)
		gx_io_line_error(&r->lr, statement, "point statement without vertices");
	for (i = 0; i < n; i++)
		gx_io_parts_point(&r->parts, r->elem[i]);
}

static int
is_skipped(const char *kw, size_t n)
{
	int			i;

	for (i = 0; skipped[i] != NULL; i++)
		if (gx_io_word_is(kw, n, skipped[i]))
			return 1;
	return 0;
}

static void
read_statement(ObjReader *r)
{
	const char *hash = memchr(r->lr.t.line.s, '#', r->lr.t.line.n);
	Cursor		c = {r->lr.t.line.s, hash != NULL ? hash : r->lr.t.line.s + r->lr.t.line.n};
	const char *kw;
	size_t		n = next_token(&c, &kw);

	if (n == 0 || is_skipped(kw, n))
		return;
	if (gx_io_word_is(kw, n, "v"))
		read_vertex(r, &c, kw);
	else if (gx_io_word_is(kw, n, "vt"))
		r->ntex++;
	else if (gx_io_word_is(kw, n, "vn"))
		r->nnormals++;
	else if (gx_io_word_is(kw, n, "f"))
		read_face(r, &c, kw);
	else if (gx_io_word_is(kw, n, "l"))
		read_polyline(r, &c, kw);
	else if (gx_io_word_is(kw, n, "p"))
		read_points(r, &c, kw);
	else
		gx_io_line_error(&r->lr, kw, "unsupported OBJ statement");
}

GxSerialized *
gx_from_obj(const char *data, size_t len, size_t *size, GxError *err)
{
	ObjReader	r;
	size_t		i;

	err->code = GX_OK;
	err->msg[0] = '\0';
	memset(&r, 0, sizeof(r));
	r.lr.err = err;
	gx_io_lines_init(&r.lr.t, data, len);
	gx_io_parts_init(&r.parts, err);
	while (gx_io_ok(&r.lr) && gx_io_next_line(&r.lr.t))
		read_statement(&r);
	if (gx_io_ok(&r.lr) && r.nverts == 0)
		gx_error_set(err, GX_ERR_PARSE, "OBJ file without vertices (no \"v\" statement)");
	if (gx_io_parts_empty(&r.parts))
		for (i = 0; gx_io_ok(&r.lr) && i < r.nverts; i++)
			gx_io_parts_point(&r.parts, r.verts[i]);
	gx_free(r.verts);
	gx_free(r.elem);
	if (!gx_io_ok(&r.lr))
	{
		gx_io_parts_free(&r.parts);
		return NULL;
	}
	return gx_io_parts_write(&r.parts, size);
}
