/*
 * gx_gocad_read.c: reads GOCAD ASCII files (gx_io_objects.h): TSurf, PLine, VSet and Well objects, with
 * their headers, coordinate systems and vertex properties; objects of other types are skipped. Vertex ids
 * are resolved when an object ends, so records may name vertices defined later in the object.
 */
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io.h"
#include "io/gx_io_internal.h"
#include "io/gx_io_objects.h"
#include "io/gx_io_parts.h"

typedef enum ObjectType
{
	OBJ_SKIPPED,				/* a type not read: its lines are passed over */
	OBJ_TSURF,
	OBJ_PLINE,
	OBJ_VSET,
	OBJ_WELL
} ObjectType;

static const char *const type_names[] = {"", "TSurf", "PLine", "VSet", "Well"};

typedef enum Block
{
	BLOCK_NONE,
	BLOCK_HEADER,				/* HEADER { key: value ... } */
	BLOCK_CRS,					/* GOCAD_ORIGINAL_COORDINATE_SYSTEM ... END_ORIGINAL_COORDINATE_SYSTEM */
	BLOCK_SKIPPED				/* another { ... } block (PROPERTY_CLASS_HEADER) */
} Block;

/* A vertex record: VRTX/PVRTX (ref unused) or ATOM/PATOM (ref: the id it repeats). */
typedef struct Vertex
{
	long long	id;
	long long	ref;
	int			atom;
	int			has_values;		/* carries property values (PVRTX, PATOM, or copied from its vertex) */
	size_t		line;
	double		xyz[3];
} Vertex;

/* A record naming vertices: TRGL (3), SEG (2); part: the ILINE a segment belongs to. */
typedef struct Ref
{
	long long	id[3];
	size_t		line;
	size_t		part;
} Ref;

typedef struct GocadReader
{
	GxLineReader lr;			/* the lines, where errors go */
	GxIoObjects *out;
	ObjectType	type;
	size_t		start_line;		/* of the object's GOCAD line */
	Block		block;
	int			depth_positive;	/* ZPOSITIVE Depth */
	char	   *name;
	GxTextOut	header;			/* "key":"value" pairs, comma-separated */
	GxTextOut	crs;
	size_t		nprops;
	char	  **prop_names;
	int		   *esizes;
	double	   *nodata;
	int			has_nodata;
	size_t		nvalues;		/* property values of a vertex: the sum of ESIZES */
	Vertex	   *verts;
	size_t		nverts,
				cap_verts;
	double	   *values;			/* nvalues a vertex record */
	size_t		cap_values;
	Ref		   *refs;
	size_t		nrefs,
				cap_refs;
	size_t		part;			/* ILINE blocks so far */
	double	   *path;			/* PATH records: zm, z, dx, dy */
	size_t		npath,
				cap_path;
	double		wref[3];
	int			has_wref;
} GocadReader;

typedef struct Cursor
{
	const char *p;
	const char *end;
} Cursor;

/*
 * The next token: a run of non-blanks, or a double-quoted string (the quotes excluded). Returns 0 at
 * the end of the line.
 */
static int
next_token(Cursor *c, const char **tok, size_t *n)
{
	const char *q;

	while (c->p < c->end && gx_io_is_space(*c->p))
		c->p++;
	if (c->p == c->end)
		return 0;
	if (*c->p == '"')
	{
		q = memchr(c->p + 1, '"', (size_t) (c->end - c->p - 1));
		*tok = c->p + 1;
		*n = (size_t) ((q != NULL ? q : c->end) - *tok);
		c->p = q != NULL ? q + 1 : c->end;
		return 1;
	}
	*tok = c->p;
	while (c->p < c->end && !gx_io_is_space(*c->p))
		c->p++;
	*n = (size_t) (c->p - *tok);
	return 1;
}

static int
read_number(GocadReader *r, Cursor *c, const char *what, double *v)
{
	const char *tok;
	size_t		n;
	GxNumberStatus status;

	if (!next_token(c, &tok, &n))
	{
		gx_io_line_error(&r->lr, NULL, "%s: expected a number, found the end of the line", what);
		return 0;
	}
	status = gx_io_parse_number(tok, n, v);
	if (status != GX_NUMBER_OK)
		gx_io_line_error(&r->lr, tok, "%s: %s", what, gx_io_number_problem(status));
	return status == GX_NUMBER_OK;
}

static int
read_id(GocadReader *r, Cursor *c, const char *what, long long *id)
{
	const char *tok;
	size_t		n;

	if (!next_token(c, &tok, &n))
	{
		gx_io_line_error(&r->lr, NULL, "%s: expected a vertex id, found the end of the line", what);
		return 0;
	}
	if (!gx_io_parse_int(tok, n, id))
	{
		gx_io_line_error(&r->lr, tok, "%s: expected a vertex id (an integer)", what);
		return 0;
	}
	return 1;
}

/* The rest of the line must be empty, or only control-node flags (CNXYZ, CNZ, ...) after a vertex. */
static void
expect_end(GocadReader *r, Cursor *c, const char *what, int flags_allowed)
{
	const char *tok;
	size_t		n;

	while (next_token(c, &tok, &n))
		if (!flags_allowed || n < 2 || tok[0] != 'C' || tok[1] != 'N')
		{
			gx_io_line_error(&r->lr, tok, "%s: unexpected text after the record%s", what,
					   flags_allowed ? " (only control-node flags such as CNXYZ may follow)" : "");
			return;
		}
}

/* Appends "key":"value" to a JSON object being written (members comma-separated). */
static void
put_member(GxTextOut *t, const char *key, size_t nkey, const char *value, size_t nvalue)
{
	if (t->len > 0)
		gx_text_put(t, ",", 1);
	gx_text_put_json_string(t, key, nkey);
	gx_text_put(t, ":", 1);
	gx_text_put_json_string(t, value, nvalue);
}

static char *
copy_string(const char *s, size_t n)
{
	char	   *c = gx_alloc(n + 1);

	memcpy(c, s, n);
	c[n] = '\0';
	return c;
}

/* A "key: value" line of a HEADER block (s, n: the part before any closing brace). */
static void
header_line(GocadReader *r, const char *s, size_t n)
{
	const char *colon;
	const char *v;
	size_t		nk,
				nv;

	gx_io_trim(&s, &n);
	if (n == 0)
		return;
	colon = memchr(s, ':', n);
	if (colon == NULL)
	{
		gx_io_line_error(&r->lr, s, "HEADER: expected \"key: value\"");
		return;
	}
	nk = (size_t) (colon - s);
	v = colon + 1;
	nv = n - nk - 1;
	gx_io_trim(&s, &nk);
	gx_io_trim(&v, &nv);
	put_member(&r->header, s, nk, v, nv);
	if (gx_io_word_is(s, nk, "name") && r->name == NULL)
		r->name = copy_string(v, nv);
}

/* Text in a HEADER block (a whole line, or what follows "HEADER {"): key-value lines until "}". */
static void
header_text(GocadReader *r, const char *s, size_t n)
{
	const char *close = memchr(s, '}', n);

	header_line(r, s, close != NULL ? (size_t) (close - s) : n);
	if (close != NULL)
		r->block = BLOCK_NONE;
}

/* "ZPOSITIVE Depth|Elevation" */
static void
read_zpositive(GocadReader *r, Cursor *c)
{
	const char *tok;
	size_t		n;

	if (!next_token(c, &tok, &n))
		tok = NULL;
	if (tok != NULL && (gx_io_word_is(tok, n, "Depth") || gx_io_word_is(tok, n, "Elevation")))
		r->depth_positive = gx_io_word_is(tok, n, "Depth");
	else
		gx_io_line_error(&r->lr, tok, "ZPOSITIVE: expected Depth or Elevation");
}

/* A line of the coordinate system block: "KEY text". */
static void
crs_line(GocadReader *r, Cursor *c, const char *kw, size_t nkw)
{
	const char *rest = c->p;
	size_t		nrest = (size_t) (c->end - c->p);

	if (gx_io_word_is(kw, nkw, "END_ORIGINAL_COORDINATE_SYSTEM"))
	{
		r->block = BLOCK_NONE;
		return;
	}
	if (gx_io_word_is(kw, nkw, "ZPOSITIVE"))
		read_zpositive(r, c);
	gx_io_trim(&rest, &nrest);
	put_member(&r->crs, kw, nkw, rest, nrest);
}

/* PROPERTIES name ...: the names of the vertex properties (ESIZES 1 each until said otherwise). */
static void
read_properties(GocadReader *r, Cursor *c)
{
	const char *tok;
	size_t		n;
	size_t		cap_names = 0,
				cap_sizes = 0;

	if (r->nprops > 0)
	{
		gx_io_line_error(&r->lr, NULL, "PROPERTIES given twice in one object");
		return;
	}
	while (gx_io_ok(&r->lr) && next_token(c, &tok, &n))
	{
		if (!gx_io_grow((void **) &r->prop_names, &cap_names, r->nprops + 1, sizeof(char *), r->lr.err) ||
			!gx_io_grow((void **) &r->esizes, &cap_sizes, r->nprops + 1, sizeof(int), r->lr.err))
			return;
		r->prop_names[r->nprops] = copy_string(tok, n);
		r->esizes[r->nprops++] = 1;
	}
	r->nvalues = r->nprops;
}

/* ESIZES n ...: one positive size per property. */
static void
read_esizes(GocadReader *r, Cursor *c)
{
	const char *tok;
	size_t		n,
				i = 0;
	long long	v;

	r->nvalues = 0;
	while (gx_io_ok(&r->lr) && next_token(c, &tok, &n))
	{
		if (i == r->nprops)
			gx_io_line_error(&r->lr, tok, "ESIZES: more sizes than PROPERTIES names (%zu)", r->nprops);
		else if (!gx_io_parse_int(tok, n, &v) || v < 1 || v > 1000)
			gx_io_line_error(&r->lr, tok, "ESIZES: expected a size from 1 to 1000");
		else
			r->nvalues += (size_t) (r->esizes[i++] = (int) v);
	}
	if (gx_io_ok(&r->lr) && i != r->nprops)
		gx_io_line_error(&r->lr, NULL, "ESIZES: %zu sizes for %zu PROPERTIES names", i, r->nprops);
}

/* NO_DATA_VALUES v ...: one number per property. */
static void
read_nodata(GocadReader *r, Cursor *c)
{
	size_t		i;

	gx_free(r->nodata);
	r->nodata = gx_alloc((r->nprops + 1) * sizeof(double));
	for (i = 0; gx_io_ok(&r->lr) && i < r->nprops; i++)
		read_number(r, c, "NO_DATA_VALUES", &r->nodata[i]);
	if (gx_io_ok(&r->lr))
		expect_end(r, c, "NO_DATA_VALUES", 0);
	r->has_nodata = 1;
}

static Vertex *
new_vertex(GocadReader *r, long long id, int atom)
{
	Vertex	   *v;

	if (!gx_io_grow((void **) &r->verts, &r->cap_verts, r->nverts + 1, sizeof(Vertex), r->lr.err) ||
		(r->nvalues > 0 &&
		 !gx_io_grow((void **) &r->values, &r->cap_values, (r->nverts + 1) * r->nvalues, sizeof(double),
					 r->lr.err)))
		return NULL;
	v = &r->verts[r->nverts++];
	memset(v, 0, sizeof(*v));
	v->id = id;
	v->atom = atom;
	v->line = r->lr.t.line.number;
	return v;
}

/* VRTX id x y z, PVRTX id x y z values..., ATOM id ref, PATOM id ref values... */
static void
read_vertex(GocadReader *r, Cursor *c, const char *kw, int atom, int with_values)
{
	long long	id,
				ref = 0;
	double		xyz[3];
	Vertex	   *v;
	size_t		i;
	int			k;

	if (!read_id(r, c, kw, &id) || (atom && !read_id(r, c, kw, &ref)))
		return;
	for (k = 0; !atom && k < 3; k++)
		if (!read_number(r, c, kw, &xyz[k]))
			return;
	if ((v = new_vertex(r, id, atom)) == NULL)
		return;
	v->ref = ref;
	if (!atom)
		memcpy(v->xyz, xyz, sizeof(xyz));
	v->has_values = with_values;
	for (i = 0; with_values && i < r->nvalues; i++)
		if (!read_number(r, c, kw, &r->values[(r->nverts - 1) * r->nvalues + i]))
			return;
	expect_end(r, c, kw, 1);
}

/* TRGL a b c, SEG a b */
static void
read_ref(GocadReader *r, Cursor *c, const char *kw, int n)
{
	Ref			ref;
	int			k;

	memset(&ref, 0, sizeof(ref));
	for (k = 0; k < n; k++)
		if (!read_id(r, c, kw, &ref.id[k]))
			return;
	expect_end(r, c, kw, 0);
	ref.line = r->lr.t.line.number;
	ref.part = r->part;
	if (gx_io_ok(&r->lr) && gx_io_grow((void **) &r->refs, &r->cap_refs, r->nrefs + 1, sizeof(Ref), r->lr.err))
		r->refs[r->nrefs++] = ref;
}

/* WREF x y z */
static void
read_wref(GocadReader *r, Cursor *c)
{
	int			k;

	for (k = 0; k < 3; k++)
		if (!read_number(r, c, "WREF", &r->wref[k]))
			return;
	expect_end(r, c, "WREF", 0);
	r->has_wref = 1;
}

/* PATH zm z dx dy */
static void
read_path(GocadReader *r, Cursor *c)
{
	double		v[4];
	int			k;

	for (k = 0; k < 4; k++)
		if (!read_number(r, c, "PATH (zm z dx dy)", &v[k]))
			return;
	expect_end(r, c, "PATH", 0);
	if (gx_io_ok(&r->lr) &&
		gx_io_grow((void **) &r->path, &r->cap_path, 4 * (r->npath + 1), sizeof(double), r->lr.err))
		memcpy(r->path + 4 * r->npath++, v, sizeof(v));
}

/* Starts an object at a "GOCAD <type> <version>" line. */
static void
begin_object(GocadReader *r, Cursor *c)
{
	const char *tok;
	size_t		n;
	int			k;

	if (!next_token(c, &tok, &n))
	{
		gx_io_line_error(&r->lr, NULL, "GOCAD: expected an object type (TSurf, PLine, VSet, Well, ...)");
		return;
	}
	r->type = OBJ_SKIPPED;
	for (k = OBJ_TSURF; k <= OBJ_WELL; k++)
		if (gx_io_word_is(tok, n, type_names[k]))
			r->type = (ObjectType) k;
	r->start_line = r->lr.t.line.number;
}

/* Forgets the object just read (or given up), ready for the next one. */
static void
reset_object(GocadReader *r)
{
	size_t		i;

	for (i = 0; i < r->nprops; i++)
		gx_free(r->prop_names[i]);
	gx_free(r->prop_names);
	gx_free(r->esizes);
	gx_free(r->nodata);
	gx_free(r->name);
	gx_free(r->header.data);
	gx_free(r->crs.data);
	gx_free(r->verts);
	gx_free(r->values);
	gx_free(r->refs);
	gx_free(r->path);
	memset(&r->type, 0, sizeof(*r) - offsetof(GocadReader, type));
}

static int
compare_ids(const void *a, const void *b)
{
	long long	x = ((const Vertex *const *) a)[0]->id;
	long long	y = ((const Vertex *const *) b)[0]->id;

	return (x > y) - (x < y);
}

/* The vertex of id among the n sorted by id, or NULL. */
static Vertex *
find_vertex(Vertex **sorted, size_t n, long long id)
{
	size_t		lo = 0,
				hi = n,
				mid;

	while (lo < hi)
	{
		mid = lo + (hi - lo) / 2;
		if (sorted[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && sorted[lo]->id == id ? sorted[lo] : NULL;
}

/*
 * Sorts the vertices by id (refusing an id given twice), negates z under ZPOSITIVE Depth, and gives every
 * atom the position, and unless it has its own the property values, of the vertex it repeats. Returns the
 * sorted array (gx_alloc'd), or NULL with err set.
 */
static Vertex **
resolve_vertices(GocadReader *r)
{
	Vertex	  **sorted = gx_alloc((r->nverts + 1) * sizeof(Vertex *));
	Vertex	   *v,
			   *to;
	size_t		i,
				steps;

	for (i = 0; i < r->nverts; i++)
		sorted[i] = &r->verts[i];
	qsort(sorted, r->nverts, sizeof(Vertex *), compare_ids);
	for (i = 1; i < r->nverts && gx_io_ok(&r->lr); i++)
		if (sorted[i]->id == sorted[i - 1]->id)
			gx_error_set(r->lr.err, GX_ERR_PARSE, "vertex id %lld defined twice, at lines %zu and %zu",
						 sorted[i]->id, sorted[i - 1]->line < sorted[i]->line ? sorted[i - 1]->line : sorted[i]->line,
						 sorted[i - 1]->line < sorted[i]->line ? sorted[i]->line : sorted[i - 1]->line);
	for (i = 0; i < r->nverts; i++)
		if (r->depth_positive && !r->verts[i].atom)
			r->verts[i].xyz[2] = 0.0 - r->verts[i].xyz[2];
	for (i = 0; i < r->nverts && gx_io_ok(&r->lr); i++)
	{
		v = &r->verts[i];
		for (to = v, steps = 0; to != NULL && to->atom && steps <= r->nverts; steps++)
			to = find_vertex(sorted, r->nverts, to->ref);
		if (to == NULL || steps > r->nverts)
		{
			gx_error_set(r->lr.err, GX_ERR_PARSE, "ATOM %lld at line %zu: %s", v->id, v->line,
						 to == NULL ? "the vertex it repeats is not defined in the object" :
						 "atoms that repeat each other in a cycle");
			break;
		}
		if (v != to)
			memcpy(v->xyz, to->xyz, sizeof(v->xyz));
		if (v != to && !v->has_values && to->has_values)
		{
			memcpy(r->values + i * r->nvalues, r->values + (size_t) (to - r->verts) * r->nvalues,
				   r->nvalues * sizeof(double));
			v->has_values = 1;
		}
	}
	if (!gx_io_ok(&r->lr))
	{
		gx_free(sorted);
		return NULL;
	}
	return sorted;
}

/* A property value, or null for the property's NO_DATA value. */
static void
put_value(GocadReader *r, GxTextOut *t, double v, size_t prop)
{
	if (r->has_nodata && v == r->nodata[prop])
		gx_text_put_str(t, "null");
	else
		gx_text_put_double(t, v);
}

/* "vertex_properties": {name: [value per vertex record] ...} */
static void
put_vertex_properties(GocadReader *r, GxTextOut *t)
{
	size_t		p,
				i,
				off = 0;
	int			e;
	const double *vals;

	gx_text_put_str(t, ",\"vertex_properties\":{");
	for (p = 0; p < r->nprops; off += (size_t) r->esizes[p++])
	{
		if (p > 0)
			gx_text_put(t, ",", 1);
		gx_text_put_json_string(t, r->prop_names[p], strlen(r->prop_names[p]));
		gx_text_put(t, ":[", 2);
		for (i = 0; i < r->nverts; i++)
		{
			vals = r->values + i * r->nvalues + off;
			if (i > 0)
				gx_text_put(t, ",", 1);
			if (!r->verts[i].has_values)
				gx_text_put_str(t, "null");
			else if (r->esizes[p] == 1)
				put_value(r, t, vals[0], p);
			else
			{
				gx_text_put(t, "[", 1);
				for (e = 0; e < r->esizes[p]; e++)
				{
					if (e > 0)
						gx_text_put(t, ",", 1);
					put_value(r, t, vals[e], p);
				}
				gx_text_put(t, "]", 1);
			}
		}
		gx_text_put(t, "]", 1);
	}
	gx_text_put(t, "}", 1);
}

/* The object's properties as described in gx_io_objects.h. */
static char *
object_properties(GocadReader *r)
{
	GxTextOut	t = {0};
	size_t		i;

	gx_text_printf(&t, "{\"type\":\"%s\"", type_names[r->type]);
	if (r->header.len > 0)
	{
		gx_text_put_str(&t, ",\"header\":{");
		gx_text_put(&t, r->header.data, r->header.len);
		gx_text_put(&t, "}", 1);
	}
	if (r->crs.len > 0)
	{
		gx_text_put_str(&t, ",\"coordinate_system\":{");
		gx_text_put(&t, r->crs.data, r->crs.len);
		gx_text_put(&t, "}", 1);
	}
	if (r->nprops > 0 && r->type != OBJ_WELL)
		put_vertex_properties(r, &t);
	if (r->type == OBJ_WELL && r->npath > 0)
	{
		gx_text_put_str(&t, ",\"md\":[");
		for (i = 0; i < r->npath; i++)
		{
			if (i > 0)
				gx_text_put(&t, ",", 1);
			gx_text_put_double(&t, r->path[4 * i]);
		}
		gx_text_put(&t, "]", 1);
	}
	gx_text_put(&t, "}", 1);
	return gx_text_finish(&t, NULL, r->lr.err, "the GOCAD object's properties");
}

/* The position of the vertex id named by the record at line, or NULL with err set. */
static const double *
ref_point(GocadReader *r, Vertex **sorted, long long id, const char *kw, size_t line)
{
	Vertex	   *v = find_vertex(sorted, r->nverts, id);

	if (v == NULL)
		gx_error_set(r->lr.err, GX_ERR_PARSE, "%s at line %zu: vertex %lld is not defined in the object", kw, line,
					 id);
	return v != NULL ? v->xyz : NULL;
}

/* TSurf: its triangles; PLine: its segments chained; VSet: its vertices. */
static GxSerialized *
surface_lines_points(GocadReader *r, Vertex **sorted, size_t *size)
{
	GxIoParts	parts;
	double		(*line)[3] = NULL;
	double		tri[3][3];
	const double *p;
	size_t		cap_line = 0,
				nline = 0,
				i;
	int			k;
	char		msg[GX_IO_MSG];

	gx_io_parts_init(&parts, r->lr.err);
	for (i = 0; r->type == OBJ_VSET && i < r->nverts; i++)
		gx_io_parts_point(&parts, r->verts[i].xyz);
	for (i = 0; r->type == OBJ_TSURF && i < r->nrefs && gx_io_ok(&r->lr); i++)
	{
		for (k = 0; k < 3 && (p = ref_point(r, sorted, r->refs[i].id[k], "TRGL", r->refs[i].line)) != NULL; k++)
			memcpy(tri[k], p, sizeof(tri[k]));
		if (k == 3)
			gx_io_parts_face(&parts, (const double (*)[3]) tri, 3, "triangle", msg, sizeof(msg));
	}
	for (i = 0; r->type == OBJ_PLINE && i < r->nrefs && gx_io_ok(&r->lr); i++)
	{
		const Ref  *s = &r->refs[i];
		int			joined = nline > 0 && s->part == s[-1].part && s->id[0] == s[-1].id[1];

		if (!joined && nline > 0)
			gx_io_parts_line(&parts, (const double (*)[3]) line, nline);
		if (!joined)
			nline = 0;
		for (k = joined; k < 2 && (p = ref_point(r, sorted, s->id[k], "SEG", s->line)) != NULL; k++)
			if (gx_io_grow((void **) &line, &cap_line, nline + 1, sizeof(line[0]), r->lr.err))
				memcpy(line[nline++], p, sizeof(line[0]));
	}
	if (gx_io_ok(&r->lr) && nline > 0)
		gx_io_parts_line(&parts, (const double (*)[3]) line, nline);
	gx_free(line);
	if (gx_io_ok(&r->lr) && gx_io_parts_empty(&parts))
		gx_error_set(r->lr.err, GX_ERR_PARSE, "GOCAD %s object of line %zu without %s", type_names[r->type],
					 r->start_line, r->type == OBJ_TSURF ? "triangles (TRGL records)" :
					 r->type == OBJ_PLINE ? "segments (SEG records)" : "vertices (VRTX or PVRTX records)");
	if (!gx_io_ok(&r->lr))
	{
		gx_io_parts_free(&parts);
		return NULL;
	}
	return gx_io_parts_write(&parts, size);
}

/* Well: its path, at WREF + (dx, dy) and height z of each PATH record, or WREF alone. */
static GxSerialized *
well_path(GocadReader *r, size_t *size)
{
	GxBuilder	b;
	size_t		node,
				i;
	double		sign = r->depth_positive ? -1.0 : 1.0;

	if (!r->has_wref)
	{
		gx_error_set(r->lr.err, GX_ERR_PARSE, "GOCAD Well object of line %zu without WREF (its reference point)",
					 r->start_line);
		return NULL;
	}
	gx_builder_init(&b, r->lr.err);
	node = gx_builder_begin(&b, r->npath > 1 ? GX_LINESTRING : GX_POINT);
	if (r->npath == 0)
		gx_builder_coord(&b, r->wref[0], r->wref[1], 0.0 + sign * r->wref[2]);
	for (i = 0; i < r->npath; i++)
		gx_builder_coord(&b, r->wref[0] + r->path[4 * i + 2], r->wref[1] + r->path[4 * i + 3],
						 0.0 + sign * r->path[4 * i + 1]);
	gx_builder_end(&b, node, r->npath > 1 ? (uint32_t) r->npath : 1);
	return gx_builder_finish(&b, 0, size);
}

/* At END: the object read becomes an entry of out. */
static void
end_object(GocadReader *r)
{
	Vertex	  **sorted = NULL;
	GxSerialized *g = NULL;
	size_t		size = 0;
	char	   *props;

	if (r->type == OBJ_WELL)
		g = well_path(r, &size);
	else if ((sorted = resolve_vertices(r)) != NULL)
		g = surface_lines_points(r, sorted, &size);
	gx_free(sorted);
	if (g == NULL)
		return;
	props = object_properties(r);
	if (gx_io_objects_add(r->out, r->name, props, g, size, r->lr.err))
		r->name = NULL;
}

/* One line inside an object that is read. */
static void
object_line(GocadReader *r, Cursor *c, const char *kw, size_t n)
{
	int			surface = r->type == OBJ_TSURF,
				pline = r->type == OBJ_PLINE;

	if (gx_io_word_is(kw, n, "END"))
	{
		expect_end(r, c, "END", 0);
		end_object(r);
		reset_object(r);
	}
	else if (gx_io_word_is(kw, n, "GOCAD"))
		gx_io_line_error(&r->lr, kw, "expected END before the next object");
	else if (gx_io_word_is(kw, n, "HEADER"))
	{
		const char *open = memchr(c->p, '{', (size_t) (c->end - c->p));

		if (open == NULL)
			gx_io_line_error(&r->lr, kw, "HEADER: expected \"{\"");
		else
		{
			r->block = BLOCK_HEADER;
			header_text(r, open + 1, (size_t) (c->end - open - 1));
		}
	}
	else if (gx_io_word_is(kw, n, "GOCAD_ORIGINAL_COORDINATE_SYSTEM"))
		r->block = BLOCK_CRS;
	else if (gx_io_word_is(kw, n, "ZPOSITIVE"))
		read_zpositive(r, c);
	else if (memchr(c->p, '{', (size_t) (c->end - c->p)) != NULL && memchr(c->p, '}', (size_t) (c->end - c->p)) == NULL)
		r->block = BLOCK_SKIPPED;
	else if (gx_io_word_is(kw, n, "PROPERTIES") && r->type != OBJ_WELL)
		read_properties(r, c);
	else if (gx_io_word_is(kw, n, "ESIZES") && r->type != OBJ_WELL)
		read_esizes(r, c);
	else if (gx_io_word_is(kw, n, "NO_DATA_VALUES") && r->type != OBJ_WELL)
		read_nodata(r, c);
	else if (r->type != OBJ_WELL && (gx_io_word_is(kw, n, "VRTX") || gx_io_word_is(kw, n, "PVRTX")))
		read_vertex(r, c, gx_io_word_is(kw, n, "VRTX") ? "VRTX" : "PVRTX", 0, kw[0] == 'P' || kw[0] == 'p');
	else if (r->type != OBJ_WELL && (gx_io_word_is(kw, n, "ATOM") || gx_io_word_is(kw, n, "PATOM")))
		read_vertex(r, c, gx_io_word_is(kw, n, "ATOM") ? "ATOM" : "PATOM", 1, kw[0] == 'P' || kw[0] == 'p');
	else if (surface && gx_io_word_is(kw, n, "TRGL"))
		read_ref(r, c, "TRGL", 3);
	else if (pline && gx_io_word_is(kw, n, "SEG"))
		read_ref(r, c, "SEG", 2);
	else if (pline && gx_io_word_is(kw, n, "ILINE"))
		r->part++;
	else if (r->type == OBJ_WELL && gx_io_word_is(kw, n, "WREF"))
		read_wref(r, c);
	else if (r->type == OBJ_WELL && gx_io_word_is(kw, n, "PATH"))
		read_path(r, c);
	/* any other record (TFACE, BSTONE, BORDER, ...) carries nothing this reader keeps */
}

static void
read_line(GocadReader *r)
{
	Cursor		c = {r->lr.t.line.s, r->lr.t.line.s + r->lr.t.line.n};
	const char *kw;
	size_t		n;

	if (r->block == BLOCK_HEADER)
	{
		header_text(r, c.p, (size_t) (c.end - c.p));
		return;
	}
	if (!next_token(&c, &kw, &n) || kw[0] == '#')
		return;
	if (r->block == BLOCK_SKIPPED)
	{
		if (memchr(r->lr.t.line.s, '}', r->lr.t.line.n) != NULL)
			r->block = BLOCK_NONE;
	}
	else if (r->block == BLOCK_CRS)
		crs_line(r, &c, kw, n);
	else if (r->start_line == 0)
	{
		if (!gx_io_word_is(kw, n, "GOCAD"))
			gx_io_line_error(&r->lr, kw, "expected \"GOCAD <type> <version>\" to begin an object");
		else
			begin_object(r, &c);
	}
	else if (r->type != OBJ_SKIPPED)
		object_line(r, &c, kw, n);
	else if (gx_io_word_is(kw, n, "END"))
		reset_object(r);
}

int
gx_from_gocad(const char *data, size_t len, GxIoObjects *out, GxError *err)
{
	GocadReader r;
	GxIoObjects objects = {0};
	size_t		objects_seen = 0;

	err->code = GX_OK;
	err->msg[0] = '\0';
	memset(&r, 0, sizeof(r));
	r.lr.err = err;
	r.out = &objects;
	gx_io_lines_init(&r.lr.t, data, len);
	while (gx_io_ok(&r.lr) && gx_io_next_line(&r.lr.t))
	{
		size_t		before = r.start_line;

		read_line(&r);
		objects_seen += before == 0 && r.start_line != 0;
	}
	if (gx_io_ok(&r.lr) && r.start_line != 0)
		gx_error_set(err, GX_ERR_PARSE, "GOCAD object of line %zu not ended (expected END) at line %zu (end of input)",
					 r.start_line, r.lr.t.line.number + 1);
	if (gx_io_ok(&r.lr) && objects.n == 0 && objects_seen == 0)
		gx_error_set(err, GX_ERR_PARSE, "not a GOCAD ASCII file: no object (\"GOCAD <type> 1\" ... END)");
	if (gx_io_ok(&r.lr) && objects.n == 0)
		gx_error_set(err, GX_ERR_PARSE, "GOCAD file without a TSurf, PLine, VSet or Well object (%zu of other types skipped)",
					 objects_seen);
	reset_object(&r);
	if (!gx_io_ok(&r.lr))
	{
		gx_io_objects_free(&objects);
		return 0;
	}
	*out = objects;
	return 1;
}
