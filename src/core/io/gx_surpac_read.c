/*
 * gx_surpac_read.c: reads Surpac string files (.str) and DTM files (.dtm) (gx_io_objects.h): comma-separated
 * records, the string records northing first, each segment one object; a DTM's triangles over the points of
 * its string file.
 */
#include <stdio.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io.h"
#include "io/gx_io_internal.h"
#include "io/gx_io_objects.h"
#include "io/gx_io_parts.h"

#define FIELDS_MAX 64			/* fields of a record read: a string record has 4 and up to 60 descriptors */

/* The fields of a comma-separated record, each trimmed. */
typedef struct Fields
{
	const char *s[FIELDS_MAX];
	size_t		n[FIELDS_MAX];
	int			count;
} Fields;

typedef struct SurpacReader
{
	GxLineReader lr;			/* the lines, where errors go */
	GxIoObjects *out;			/* where segments go, or NULL */
	double		(*pts)[3];		/* every point record, in order */
	size_t		npts,
				cap_pts;
	/* the segment being read */
	long long	string;
	size_t		first;			/* its first point in pts */
	GxTextOut	desc;			/* its descriptors: [..],[..] */
	int			has_desc;
	size_t		segments;
} SurpacReader;

/* Splits the current line at commas (the fields after the FIELDS_MAX-th are not kept). */
static void
split(const GxTextLine *line, Fields *f)
{
	const char *p = line->s,
			   *end = line->s + line->n,
			   *comma;

	f->count = 0;
	while (f->count < FIELDS_MAX)
	{
		comma = memchr(p, ',', (size_t) (end - p));
		f->s[f->count] = p;
		f->n[f->count] = (size_t) ((comma != NULL ? comma : end) - p);
		gx_io_trim(&f->s[f->count], &f->n[f->count]);
		f->count++;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
}

static int
field_number(SurpacReader *r, const Fields *f, int i, const char *what, double *v)
{
	GxNumberStatus status;

	if (i >= f->count)
	{
		gx_io_line_error(&r->lr, NULL, "%s: expected a number, found the end of the record", what);
		return 0;
	}
	status = gx_io_parse_number(f->s[i], f->n[i], v);
	if (status != GX_NUMBER_OK)
		gx_io_line_error(&r->lr, f->s[i], "%s: %s", what, gx_io_number_problem(status));
	return status == GX_NUMBER_OK;
}

static int
field_int(SurpacReader *r, const Fields *f, int i, const char *what, long long *v)
{
	if (i < f->count && gx_io_parse_int(f->s[i], f->n[i], v))
		return 1;
	gx_io_line_error(&r->lr, i < f->count ? f->s[i] : NULL, "%s: expected an integer", what);
	return 0;
}

/* The segment read so far becomes an object (when objects are wanted); the next starts empty. */
static void
end_segment(SurpacReader *r)
{
	size_t		n = r->npts - r->first,
				i,
				node,
				size;
	GxBuilder	b;
	GxTextOut	props = {0};
	GxSerialized *g;
	char	   *name;

	if (n == 0 || !gx_io_ok(&r->lr))
		return;
	r->segments++;
	if (r->out != NULL)
	{
		gx_builder_init(&b, r->lr.err);
		node = gx_builder_begin(&b, n > 1 ? GX_LINESTRING : GX_POINT);
		for (i = r->first; i < r->npts; i++)
			gx_builder_coord(&b, r->pts[i][0], r->pts[i][1], r->pts[i][2]);
		gx_builder_end(&b, node, (uint32_t) n);
		g = gx_builder_finish(&b, 0, &size);
		gx_text_printf(&props, "{\"string\":%lld,\"segment\":%zu", r->string, r->segments);
		if (r->has_desc)
		{
			gx_text_put_str(&props, ",\"descriptors\":[");
			gx_text_put(&props, r->desc.data, r->desc.len);
			gx_text_put(&props, "]", 1);
		}
		gx_text_put(&props, "}", 1);
		name = gx_alloc(24);
		snprintf(name, 24, "%lld", r->string);
		gx_io_objects_add(r->out, name, gx_text_finish(&props, NULL, r->lr.err, "the Surpac segment's properties"),
						  g, size, r->lr.err);
	}
	gx_free(r->desc.data);
	memset(&r->desc, 0, sizeof(r->desc));
	r->has_desc = 0;
	r->first = r->npts;
}

/* A string record "string, y, x, z[, d1, ...]" of a string other than 0. */
static void
point_record(SurpacReader *r, const Fields *f, long long string)
{
	double		y,
				x,
				z;
	int			i,
				last = f->count - 1;

	if (!field_number(r, f, 1, "string record (string, y, x, z, ...): y", &y) ||
		!field_number(r, f, 2, "string record (string, y, x, z, ...): x", &x) ||
		!field_number(r, f, 3, "string record (string, y, x, z, ...): z", &z))
		return;
	if (string != r->string)
		end_segment(r);
	r->string = string;
	if (!gx_io_grow((void **) &r->pts, &r->cap_pts, r->npts + 1, sizeof(r->pts[0]), r->lr.err))
		return;
	r->pts[r->npts][0] = x;
	r->pts[r->npts][1] = y;
	r->pts[r->npts][2] = z;
	r->npts++;
	while (last >= 4 && f->n[last] == 0)
		last--;
	if (r->out == NULL)
		return;
	if (r->npts - 1 > r->first)
		gx_text_put(&r->desc, ",", 1);
	gx_text_put(&r->desc, "[", 1);
	for (i = 4; i <= last; i++)
	{
		if (i > 4)
			gx_text_put(&r->desc, ",", 1);
		gx_text_put_json_string(&r->desc, f->s[i], f->n[i]);
	}
	gx_text_put(&r->desc, "]", 1);
	r->has_desc |= last >= 4;
}

/*
 * The string records after the header line (the first, when of string 0, the axis record, passed over),
 * through the "0, ..., END" record: returns 1 when it was read, 0 with err set otherwise.
 */
static int
read_strings(SurpacReader *r)
{
	Fields		f;
	long long	string;
	int			axis = 1;

	if (!gx_io_next_line(&r->lr.t))
	{
		gx_io_end_error(&r->lr, "Surpac file without records: expected a header line");
		return 0;
	}
	while (gx_io_ok(&r->lr) && gx_io_next_line(&r->lr.t))
	{
		if (r->lr.t.line.n == 0)
			continue;
		split(&r->lr.t.line, &f);
		if (!field_int(r, &f, 0, "string record (string, y, x, z, ...): string number", &string))
			return 0;
		if (axis && string == 0 && !gx_io_word_is(f.s[f.count - 1], f.n[f.count - 1], "END"))
		{
			axis = 0;
			continue;
		}
		axis = 0;
		if (string < 0)
			gx_io_line_error(&r->lr, f.s[0], "string record: string number from 1 expected");
		else if (string > 0)
			point_record(r, &f, string);
		else
		{
			end_segment(r);
			if (gx_io_word_is(f.s[f.count - 1], f.n[f.count - 1], "END"))
				return gx_io_ok(&r->lr);
		}
	}
	if (gx_io_ok(&r->lr))
		gx_io_end_error(&r->lr, "expected the end record \"0, 0.000, 0.000, 0.000, END\"");
	return 0;
}

/* Whatever follows must be blank. */
static void
expect_blank(SurpacReader *r)
{
	const char *s;
	size_t		n;

	while (gx_io_ok(&r->lr) && gx_io_next_line(&r->lr.t))
	{
		s = r->lr.t.line.s;
		n = r->lr.t.line.n;
		gx_io_trim(&s, &n);
		if (n > 0)
			gx_io_line_error(&r->lr, s, "text after the end record");
	}
}

static void
free_reader(SurpacReader *r)
{
	gx_free(r->pts);
	gx_free(r->desc.data);
}

int
gx_from_surpac_str(const char *data, size_t len, GxIoObjects *out, GxError *err)
{
	SurpacReader r;
	GxIoObjects objects = {0};

	err->code = GX_OK;
	err->msg[0] = '\0';
	memset(&r, 0, sizeof(r));
	r.lr.err = err;
	r.out = &objects;
	gx_io_lines_init(&r.lr.t, data, len);
	if (read_strings(&r))
		expect_blank(&r);
	if (gx_io_ok(&r.lr) && objects.n == 0)
		gx_error_set(err, GX_ERR_PARSE, "Surpac string file without points");
	free_reader(&r);
	if (!gx_io_ok(&r.lr))
	{
		gx_io_objects_free(&objects);
		return 0;
	}
	*out = objects;
	return 1;
}

/* The points of a string file (all of them, in order), or NULL with err set. */
static double (*
			   string_points(const char *str, size_t slen, size_t *npts, GxError *err))[3]
{
	SurpacReader r;

	memset(&r, 0, sizeof(r));
	r.lr.err = err;
	gx_io_lines_init(&r.lr.t, str, slen);
	if (read_strings(&r))
		expect_blank(&r);
	if (!gx_io_ok(&r.lr))
	{
		size_t		at = strlen(err->msg);

		snprintf(err->msg + at, sizeof(err->msg) - at, " (in the string file)");
		free_reader(&r);
		return NULL;
	}
	gx_free(r.desc.data);
	*npts = r.npts;
	return r.pts;
}

/* The triangulation being read: its triangles, and its OBJECT and TRISOLATION records' settings. */
typedef struct Trisolation
{
	GxIoParts	parts;
	GxTextOut	props;
	char		name[48];
	int			open;
} Trisolation;

/* The triangulation read so far becomes an object. */
static void
end_trisolation(SurpacReader *r, Trisolation *tri)
{
	size_t		size;
	GxSerialized *g;
	char	   *name;

	if (!tri->open || !gx_io_ok(&r->lr))
		return;
	tri->open = 0;
	if (gx_io_parts_empty(&tri->parts))
	{
		gx_io_line_error(&r->lr, NULL, "TRISOLATION %s without triangles", tri->name);
		return;
	}
	g = gx_io_parts_write(&tri->parts, &size);
	gx_text_put(&tri->props, "}", 1);
	name = gx_alloc(strlen(tri->name) + 1);
	strcpy(name, tri->name);
	gx_io_objects_add(r->out, name, gx_text_finish(&tri->props, NULL, r->lr.err, "the DTM's properties"), g,
					  size, r->lr.err);
	memset(&tri->props, 0, sizeof(tri->props));
}

/* "TRISOLATION, m, key=value, ...": a new triangulation of the current object. */
static void
begin_trisolation(SurpacReader *r, Trisolation *tri, const Fields *f, long long object)
{
	long long	id;
	int			i;
	const char *eq;

	if (!field_int(r, f, 1, "TRISOLATION record (TRISOLATION, id, ...): id", &id))
		return;
	gx_io_parts_init(&tri->parts, r->lr.err);
	snprintf(tri->name, sizeof(tri->name), "%lld.%lld", object, id);
	gx_text_printf(&tri->props, "{\"object\":%lld,\"trisolation\":%lld", object, id);
	for (i = 2; i < f->count; i++)
	{
		if (f->n[i] == 0)
			continue;
		eq = memchr(f->s[i], '=', f->n[i]);
		if (eq == NULL)
		{
			gx_io_line_error(&r->lr, f->s[i], "TRISOLATION record: expected key=value settings after the id");
			return;
		}
		gx_text_put(&tri->props, ",", 1);
		gx_text_put_json_string(&tri->props, f->s[i], (size_t) (eq - f->s[i]));
		gx_text_put(&tri->props, ":", 1);
		gx_text_put_json_string(&tri->props, eq + 1, f->n[i] - (size_t) (eq + 1 - f->s[i]));
	}
	tri->open = 1;
}

/* "n, v1, v2, v3, ...": a triangle over pts (npts of them). */
static void
triangle_record(SurpacReader *r, Trisolation *tri, const Fields *f, double (*pts)[3], size_t npts)
{
	double		v[3][3];
	long long	k;
	int			i;
	char		msg[GX_IO_MSG];

	if (!tri->open)
	{
		gx_io_line_error(&r->lr, f->s[0], "expected OBJECT or TRISOLATION before triangle records");
		return;
	}
	for (i = 1; i <= 3; i++)
	{
		if (!field_int(r, f, i, "triangle record (n, v1, v2, v3, ...): vertex number", &k))
			return;
		if (k < 1 || (unsigned long long) k > npts)
		{
			gx_io_line_error(&r->lr, f->s[i], "triangle record: vertex number %lld out of range (%zu points)",
					   k, npts);
			return;
		}
		memcpy(v[i - 1], pts[k - 1], sizeof(v[0]));
	}
	gx_io_parts_face(&tri->parts, (const double (*)[3]) v, 3, "triangle", msg, sizeof(msg));
}

int
gx_from_surpac_dtm(const char *data, size_t len, const char *str, size_t slen, GxIoObjects *out, GxError *err)
{
	SurpacReader r;
	GxIoObjects objects = {0};
	Trisolation tri;
	double		(*pts)[3] = NULL;
	size_t		npts = 0;
	Fields		f;
	long long	object = 0;
	int			ended = 0;

	err->code = GX_OK;
	err->msg[0] = '\0';
	memset(&r, 0, sizeof(r));
	memset(&tri, 0, sizeof(tri));
	r.lr.err = err;
	if (str != NULL && (pts = string_points(str, slen, &npts, err)) == NULL)
		return 0;
	gx_io_lines_init(&r.lr.t, data, len);
	if (read_strings(&r) && str == NULL)
	{
		pts = r.pts;
		npts = r.npts;
		r.pts = NULL;
	}
	r.out = &objects;
	while (gx_io_ok(&r.lr) && !ended && gx_io_next_line(&r.lr.t))
	{
		if (r.lr.t.line.n == 0)
			continue;
		split(&r.lr.t.line, &f);
		if (gx_io_word_is(f.s[0], f.n[0], "END"))
		{
			end_trisolation(&r, &tri);
			ended = 1;
		}
		else if (gx_io_word_is(f.s[0], f.n[0], "OBJECT"))
		{
			end_trisolation(&r, &tri);
			field_int(&r, &f, 1, "OBJECT record (OBJECT, id): id", &object);
		}
		else if (gx_io_word_is(f.s[0], f.n[0], "TRISOLATION"))
		{
			end_trisolation(&r, &tri);
			begin_trisolation(&r, &tri, &f, object);
		}
		else
			triangle_record(&r, &tri, &f, pts, npts);
	}
	if (gx_io_ok(&r.lr) && !ended)
		gx_io_end_error(&r.lr, "expected the DTM's END record");
	if (gx_io_ok(&r.lr))
		expect_blank(&r);
	if (gx_io_ok(&r.lr) && objects.n == 0)
		gx_error_set(err, GX_ERR_PARSE, "Surpac DTM without a TRISOLATION");
	if (tri.open)
		gx_io_parts_free(&tri.parts);
	gx_free(tri.props.data);
	gx_free(pts);
	free_reader(&r);
	if (!gx_io_ok(&r.lr))
	{
		gx_io_objects_free(&objects);
		return 0;
	}
	*out = objects;
	return 1;
}
