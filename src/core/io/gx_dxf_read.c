/*
 * gx_dxf_read.c: reads ASCII DXF: the 3DFACE, LINE, 3D POLYLINE and polyface mesh entities of the ENTITIES
 * section, written as gx_io_parts.h says. A DXF file is a sequence of groups, each a line with an integer
 * code and a line with its value; group 0 starts a section, an entity or the final EOF. Other sections
 * and entities (2D ones, blocks and their references included) are skipped, their groups still checked.
 */
#include <stdarg.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io.h"
#include "io/gx_io_internal.h"
#include "io/gx_io_parts.h"

#define GROUP_MIN			(-5)	/* group codes: -5 .. 1071 */
#define GROUP_MAX			1071
#define GROUP_COMMENT		999

#define POLYLINE_CLOSED		1		/* POLYLINE group 70 flags */
#define POLYLINE_3D			8
#define POLYLINE_MESH		16
#define POLYLINE_POLYFACE	64
#define VERTEX_FRAME		16		/* VERTEX group 70 flags: spline frame control point (not on the curve) */
#define VERTEX_MESH			64
#define VERTEX_POLYFACE		128

/* The groups an entity reader keeps: points 10-13 (x), 20-23 (y), 30-33 (z); integers 70-74. */
#define SEEN_XYZ(axis, corner)	(1u << (4 * (axis) + (corner)))
#define SEEN_INT(code)			(1u << (12 + (code) - 70))

typedef struct DxfFields
{
	double		xyz[4][3];
	long long	ints[5];		/* groups 70-74, 0 when absent */
	unsigned	seen;
} DxfFields;

typedef struct DxfReader
{
	GxTextLines t;
	int			code;			/* the current group */
	const char *value;			/* its value, without surrounding whitespace */
	size_t		n;
	GxTextLine	code_line;
	GxTextLine	value_line;
	int			held;			/* the current group is to be read again */
	double		(*verts)[3];	/* the vertices of the current POLYLINE */
	size_t		nverts,
				cap_verts;
	GxIoParts	parts;
	GxError    *err;
} DxfReader;

static int
ok(const DxfReader *r)
{
	return r->err->code == GX_OK;
}

static void
__attribute__((format(printf, 4, 5)))
line_error(DxfReader *r, const GxTextLine *line, const char *at, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	gx_io_verror_line(r->err, GX_ERR_PARSE, line, at, fmt, ap);
	va_end(ap);
}

static void
__attribute__((format(printf, 2, 3)))
end_error(DxfReader *r, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	gx_io_verror_end(r->err, GX_ERR_PARSE, &r->t, fmt, ap);
	va_end(ap);
}

/* Reads the next group (comments skipped) into r; 0 at the end of the input or on error. */
static int
next_group(DxfReader *r)
{
	const char *s;
	size_t		n;
	long long	code;

	if (r->held)
	{
		r->held = 0;
		return 1;
	}
	do
	{
		if (!ok(r) || !gx_io_next_line(&r->t))
			return 0;
		r->code_line = r->t.line;
		s = r->t.line.s;
		n = r->t.line.n;
		gx_io_trim(&s, &n);
		if (!gx_io_parse_int(s, n, &code) || code < GROUP_MIN || code > GROUP_MAX)
		{
			line_error(r, &r->code_line, s, "invalid group code (an integer from %d to %d expected)", GROUP_MIN, GROUP_MAX);
			return 0;
		}
		if (!gx_io_next_line(&r->t))
		{
			end_error(r, "group code %lld without a value (an odd number of lines)", code);
			return 0;
		}
		r->value_line = r->t.line;
		r->value = r->t.line.s;
		r->n = r->t.line.n;
		gx_io_trim(&r->value, &r->n);
	} while (code == GROUP_COMMENT);
	r->code = (int) code;
	return 1;
}

/* Whether the current group is group 0 with the value name (in any case). */
static int
is_marker(const DxfReader *r, const char *name)
{
	return r->code == 0 && gx_io_word_is(r->value, r->n, name);
}

/* An error about the current group's value, quoted at its line. */
static void
__attribute__((format(printf, 2, 3)))
value_error(DxfReader *r, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	gx_io_verror_line(r->err, GX_ERR_PARSE, &r->value_line, r->value, fmt, ap);
	va_end(ap);
}

/*
 * Reads the groups of the entity what (begun at line start) up to the next group 0, which is held: points
 * and integers into f, other groups skipped. 0 on error, or at the end of the input (an error too).
 */
static int
read_fields(DxfReader *r, const char *what, const GxTextLine *start, DxfFields *f)
{
	unsigned	bit;
	int			corner;
	int			axis;
	GxNumberStatus status;

	memset(f, 0, sizeof(*f));
	while (next_group(r))
	{
		if (r->code == 0)
		{
			r->held = 1;
			return 1;
		}
		corner = r->code % 10;
		axis = r->code / 10 - 1;
		if (r->code >= 10 && r->code < 40 && corner < 4)
			bit = SEEN_XYZ(axis, corner);
		else if (r->code >= 70 && r->code <= 74)
			bit = SEEN_INT(r->code);
		else
			continue;
		if (f->seen & bit)
		{
			line_error(r, &r->code_line, NULL, "%s (line %zu): group %d repeated", what, start->number, r->code);
			return 0;
		}
		f->seen |= bit;
		if (r->code >= 70)
		{
			if (!gx_io_parse_int(r->value, r->n, &f->ints[r->code - 70]) ||
				f->ints[r->code - 70] < -32768 || f->ints[r->code - 70] > 32767)
				value_error(r, "%s group %d: expected an integer from -32768 to 32767", what, r->code);
		}
		else if ((status = gx_io_parse_number(r->value, r->n, &f->xyz[corner][axis])) != GX_NUMBER_OK)
			value_error(r, "%s group %d: %s", what, r->code, gx_io_number_problem(status));
		if (!ok(r))
			return 0;
	}
	if (ok(r))
		end_error(r, "%s (line %zu) not finished", what, start->number);
	return 0;
}

/* Reads point corner of f into v (Z 0 when absent); 0 with an error when X or Y is missing. */
static int
get_point(DxfReader *r, const char *what, const GxTextLine *start, const DxfFields *f, int corner, double v[3])
{
	int			axis;

	for (axis = 0; axis < 2; axis++)
		if (!(f->seen & SEEN_XYZ(axis, corner)))
		{
			line_error(r, start, NULL, "%s without group %d (the %c of its point %d)", what,
					   10 * (axis + 1) + corner, "XY"[axis], corner + 1);
			return 0;
		}
	memcpy(v, f->xyz[corner], 3 * sizeof(double));
	return 1;
}

/* Adds the face v[0..n-1] (n 3 or 4; a fourth vertex equal to the third makes a triangle), or refuses it. */
static void
add_face(DxfReader *r, const char *what, const GxTextLine *start, double (*v)[3], size_t n)
{
	char		msg[GX_IO_MSG];

	if (n == 4 && v[3][0] == v[2][0] && v[3][1] == v[2][1] && v[3][2] == v[2][2])
		n = 3;
	if (!gx_io_parts_face(&r->parts, (const double (*)[3]) v, n, what, msg, sizeof(msg)))
		line_error(r, start, NULL, "%s", msg);
}

/* 3DFACE: corners 10/20/30 to 13/23/33; without its fourth corner it is a triangle. */
static void
read_3dface(DxfReader *r, const GxTextLine *start)
{
	DxfFields	f;
	double		v[4][3];
	int			corners = 4;
	int			i;

	if (!read_fields(r, "3DFACE", start, &f))
		return;
	if (!(f.seen & (SEEN_XYZ(0, 3) | SEEN_XYZ(1, 3) | SEEN_XYZ(2, 3))))
		corners = 3;
	for (i = 0; i < corners; i++)
		if (!get_point(r, "3DFACE", start, &f, i, v[i]))
			return;
	add_face(r, "3DFACE", start, v, (size_t) corners);
}

/* LINE: from 10/20/30 to 11/21/31. */
static void
read_line(DxfReader *r, const GxTextLine *start)
{
	DxfFields	f;
	double		v[2][3];

	if (read_fields(r, "LINE", start, &f) && get_point(r, "LINE", start, &f, 0, v[0]) &&
		get_point(r, "LINE", start, &f, 1, v[1]))
		gx_io_parts_line(&r->parts, (const double (*)[3]) v, 2);
}

/* Skips the groups of an entity that is not read, up to the next group 0 (held). */
static void
skip_entity(DxfReader *r, const GxTextLine *start)
{
	while (next_group(r))
		if (r->code == 0)
		{
			r->held = 1;
			return;
		}
	if (ok(r))
		end_error(r, "entity (line %zu) not finished", start->number);
}

/* Adds v to the vertices of the current POLYLINE. */
static void
add_vertex(DxfReader *r, const double v[3])
{
	if (gx_io_grow((void **) &r->verts, &r->cap_verts, r->nverts + 1, sizeof(r->verts[0]), r->err))
		memcpy(r->verts[r->nverts++], v, sizeof(r->verts[0]));
}

/*
 * A face record of a polyface mesh: the 3 or 4 vertices named by groups 71-74 (1-based among the mesh's
 * vertices so far, negative for an invisible edge, 0 or absent after the last).
 */
static void
read_face_record(DxfReader *r, const GxTextLine *start, const DxfFields *f)
{
	double		v[4][3];
	size_t		n = 0;
	int			k;
	long long	idx;

	for (k = 0; k < 4; k++)
	{
		idx = f->ints[1 + k] < 0 ? -f->ints[1 + k] : f->ints[1 + k];
		if (idx == 0)
			continue;
		if (n < (size_t) k)
		{
			line_error(r, start, NULL, "polyface mesh face: vertex index in group %d after an absent or 0 one", 71 + k);
			return;
		}
		if ((unsigned long long) idx > r->nverts)
		{
			line_error(r, start, NULL, "polyface mesh face: vertex index %lld (group %d) out of range (vertices so far: %zu)",
					   f->ints[1 + k], 71 + k, r->nverts);
			return;
		}
		memcpy(v[n++], r->verts[idx - 1], sizeof(v[0]));
	}
	if (n < 3)
		line_error(r, start, NULL, "polyface mesh face needs 3 or 4 vertices (groups 71-74), has %zu", n);
	else
		add_face(r, "polyface mesh face", start, v, n);
}

/*
 * POLYLINE, its VERTEX entities and SEQEND: a 3D polyline (flag 8) is a linestring, closed (flag 1) by
 * repeating its first vertex, without its spline frame control points; a polyface mesh (flag 64) is
 * faces. A polygon mesh (flag 16) is refused; a 2D polyline is skipped.
 */
static void
read_polyline(DxfReader *r, const GxTextLine *start)
{
	DxfFields	f;
	DxfFields	vf;
	GxTextLine	vstart;
	long long	flags;

	if (!read_fields(r, "POLYLINE", start, &f))
		return;
	flags = f.ints[0];
	if (!(flags & POLYLINE_POLYFACE) && (flags & POLYLINE_MESH))
	{
		line_error(r, start, NULL, "POLYLINE polygon meshes (flag 16) are not read; only 3D polylines (flag 8) and polyface meshes (flag 64)");
		return;
	}
	r->nverts = 0;
	for (;;)
	{
		next_group(r);			/* the group 0 that read_fields held */
		vstart = r->value_line;
		if (is_marker(r, "SEQEND"))
			break;
		if (!is_marker(r, "VERTEX"))
		{
			value_error(r, "POLYLINE (line %zu): expected VERTEX or SEQEND", start->number);
			return;
		}
		if (!read_fields(r, "VERTEX", &vstart, &vf))
			return;
		if (flags & POLYLINE_POLYFACE)
		{
			if ((vf.ints[0] & (VERTEX_POLYFACE | VERTEX_MESH)) == (VERTEX_POLYFACE | VERTEX_MESH))
			{
				if (get_point(r, "polyface mesh VERTEX", &vstart, &vf, 0, vf.xyz[0]))
					add_vertex(r, vf.xyz[0]);
			}
			else if (vf.ints[0] & VERTEX_POLYFACE)
				read_face_record(r, &vstart, &vf);
			else
				line_error(r, &vstart, NULL, "VERTEX of a polyface mesh without flag 128 (group 70)");
		}
		else if ((flags & POLYLINE_3D) && !(vf.ints[0] & VERTEX_FRAME) &&
				 get_point(r, "3D POLYLINE VERTEX", &vstart, &vf, 0, vf.xyz[0]))
			add_vertex(r, vf.xyz[0]);
		if (!ok(r))
			return;
	}
	if ((flags & (POLYLINE_POLYFACE | POLYLINE_3D)) == POLYLINE_3D)
	{
		if (r->nverts >= 2 && (flags & POLYLINE_CLOSED))
			add_vertex(r, r->verts[0]);
		if (r->nverts < 2)
			line_error(r, start, NULL, "3D POLYLINE needs at least 2 vertices, has %zu", r->nverts);
		else
			gx_io_parts_line(&r->parts, (const double (*)[3]) r->verts, r->nverts);
	}
	skip_entity(r, &vstart);
}

/* The ENTITIES section, after its name: entities up to ENDSEC. */
static void
read_entities(DxfReader *r, const GxTextLine *section)
{
	GxTextLine	start;

	while (ok(r))
	{
		if (!next_group(r))
		{
			if (ok(r))
				end_error(r, "ENTITIES section (line %zu) without ENDSEC", section->number);
			return;
		}
		start = r->value_line;
		if (r->code != 0)
			line_error(r, &r->code_line, NULL, "expected group 0 (an entity or ENDSEC), got group %d", r->code);
		else if (is_marker(r, "ENDSEC"))
			return;
		else if (is_marker(r, "EOF"))
			value_error(r, "EOF before the ENDSEC of the ENTITIES section (line %zu)", section->number);
		else if (is_marker(r, "3DFACE"))
			read_3dface(r, &start);
		else if (is_marker(r, "LINE"))
			read_line(r, &start);
		else if (is_marker(r, "POLYLINE"))
			read_polyline(r, &start);
		else if (is_marker(r, "VERTEX"))
			value_error(r, "VERTEX outside a POLYLINE");
		else
			skip_entity(r, &start);
	}
}

/* A section that is not read, after its name: groups up to ENDSEC. */
static void
skip_section(DxfReader *r, const GxTextLine *section)
{
	while (next_group(r))
	{
		if (is_marker(r, "ENDSEC"))
			return;
		if (is_marker(r, "EOF"))
		{
			value_error(r, "EOF before the ENDSEC of the SECTION (line %zu)", section->number);
			return;
		}
	}
	if (ok(r))
		end_error(r, "SECTION (line %zu) without ENDSEC", section->number);
}

/* Sections up to the EOF group, then nothing but whitespace. */
static void
read_sections(DxfReader *r)
{
	GxTextLine	section;
	const char *s;
	size_t		n;
	int			eof = 0;

	while (!eof && next_group(r))
	{
		if (is_marker(r, "EOF"))
		{
			eof = 1;
			continue;
		}
		if (!is_marker(r, "SECTION"))
		{
			line_error(r, r->code == 0 ? &r->value_line : &r->code_line, NULL, "expected group 0 SECTION or EOF");
			return;
		}
		section = r->value_line;
		if (!next_group(r) || r->code != 2)
		{
			if (ok(r))
				line_error(r, &section, NULL, "SECTION without its name (group 2)");
			return;
		}
		if (gx_io_word_is(r->value, r->n, "ENTITIES"))
			read_entities(r, &section);
		else
			skip_section(r, &section);
		if (!ok(r))
			return;
	}
	if (!ok(r))
		return;
	if (!eof)
	{
		end_error(r, "no EOF group at the end of the file");
		return;
	}
	while (gx_io_next_line(&r->t))
	{
		s = r->t.line.s;
		n = r->t.line.n;
		gx_io_trim(&s, &n);
		if (n > 0)
		{
			line_error(r, &r->t.line, s, "text after EOF");
			return;
		}
	}
}

GxSerialized *
gx_from_dxf(const char *data, size_t len, size_t *size, GxError *err)
{
	DxfReader	r;
	size_t		start = 0;

	err->code = GX_OK;
	err->msg[0] = '\0';
	memset(&r, 0, sizeof(r));
	r.err = err;
	gx_io_lines_init(&r.t, data, len);
	gx_io_parts_init(&r.parts, err);
	while (start < len && gx_io_is_space(data[start]))
		start++;
	if (start == len)
		gx_error_set(err, GX_ERR_PARSE, "empty DXF file (%zu bytes, no groups)", len);
	else if (len - start >= 18 && memcmp(data + start, "AutoCAD Binary DXF", 18) == 0)
		gx_error_set(err, GX_ERR_PARSE, "binary DXF is not read: save the drawing as ASCII DXF");
	else
		read_sections(&r);
	if (ok(&r) && gx_io_parts_empty(&r.parts))
		gx_error_set(err, GX_ERR_PARSE, "DXF file without 3DFACE, LINE, 3D POLYLINE or polyface mesh entities "
					 "(other entities are not read)");
	gx_free(r.verts);
	if (!ok(&r))
	{
		gx_io_parts_free(&r.parts);
		return NULL;
	}
	return gx_io_parts_write(&r.parts, size);
}
