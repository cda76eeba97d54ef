/* gx_box3d.c: the gxbox3d type (I/O, gx_box3d(gxgeom)) and the 3D bounding-box operators &&&, ~ and @. */
#include "postgres.h"

#include <ctype.h>
#include <math.h>

#include "access/detoast.h"
#include "fmgr.h"
#include "libpq/pqformat.h"

#include "base/gx_format.h"
#include "io/gx_io.h"
#include "type/gx_box3d.h"

StaticAssertDecl(sizeof(GxBox3D) == 6 * sizeof(double), "gxbox3d is declared with INTERNALLENGTH = 48");

PG_FUNCTION_INFO_V1(gxbox3d_in);
PG_FUNCTION_INFO_V1(gxbox3d_out);
PG_FUNCTION_INFO_V1(gxbox3d_recv);
PG_FUNCTION_INFO_V1(gxbox3d_send);
PG_FUNCTION_INFO_V1(gx_box3d);

/*
 * Elements of a value judged by its first node: exact for a point, a line string and a surface (a TIN or a
 * POLYHEDRALSURFACE, packed or not, whose node header is the same), else a vertex's worth of its
 * uncompressed bytes each.
 */
static double
first_node_elements(Datum geom, const GxNode *node)
{
	switch (node->type)
	{
		case GX_POINT:
		case GX_TRIANGLE:
			return 1;
		case GX_LINESTRING:
			return Max((double) node->count - 1, 1);
		case GX_MULTIPOINT:
		case GX_TIN:
		case GX_POLYHEDRALSURFACE:
			return Max((double) node->count, 1);
		default:
			return Max((double) (toast_raw_datum_size(geom) - sizeof(GxSerialized)) / (3 * sizeof(double)), 1);
	}
}

bool
gx_datum_get_head(Datum geom, GxBox3D *box, double *elements)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(geom);
	struct
	{
		GxSerialized hdr;
		GxNode		node;
	}			head;
	/* the header, and the first node's when asked for (every value has one) */
	size_t		len = elements ? sizeof(head) : sizeof(head.hdr);

	/*
	 * Copy the fixed header out: a short (1-byte header) value is not aligned, and nothing else is needed.
	 * A TOAST pointer has a 1-byte header too: it goes the other way.
	 */
	if (VARATT_IS_SHORT(v) && !VARATT_IS_EXTERNAL(v))
	{
		if (VARSIZE_SHORT(v) < VARHDRSZ_SHORT + len - VARHDRSZ)
			elog(ERROR, "gxgeom value too short: %zu bytes", (size_t) VARSIZE_SHORT(v));
		memcpy((char *) &head + VARHDRSZ, VARDATA_SHORT(v), len - VARHDRSZ);
	}
	else
	{
		/* In line and uncompressed: returned as is; compressed or external: only the header is fetched. */
		struct varlena *h = PG_DETOAST_DATUM_SLICE(geom, 0, len - VARHDRSZ);

		if (VARSIZE(h) < len)
			elog(ERROR, "gxgeom value too short: %zu bytes", (size_t) VARSIZE(h));
		memcpy(&head, h, len);
		if (h != v)
			pfree(h);
	}
	if (elements)
		*elements = head.hdr.flags & GX_FLAG_EMPTY ? 0 : first_node_elements(geom, &head.node);
	if (head.hdr.flags & GX_FLAG_EMPTY)
	{
		gx_box_set_empty(box);
		return false;
	}
	*box = head.hdr.box;
	return true;
}

bool
gx_datum_get_box(Datum geom, GxBox3D *box)
{
	return gx_datum_get_head(geom, box, NULL);
}

/* ---- Text and binary I/O ------------------------------------------------------------------------------ */

static void
box_syntax_error(const char *str, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for type gxbox3d: \"%s\"", str),
			 errdetail("%s", detail)));
}

static const char *
skip_space(const char *p)
{
	while (isspace((unsigned char) *p))
		p++;
	return p;
}

/* Reads one corner: three whitespace-separated finite doubles "x y z" into c[0..2]; skips the space after. */
static const char *
read_point(const char *p, double *c, const char *str)
{
	int			i;

	for (i = 0; i < 3; i++)
	{
		const char *q = skip_space(p);
		char	   *end;

		c[i] = strtod(q, &end);
		if (end == q)
			box_syntax_error(str, "Expected a number.");
		if (i > 0 && q == p)
			box_syntax_error(str, "Expected whitespace between coordinates.");
		if (!isfinite(c[i]))
			box_syntax_error(str, "Coordinates must be finite.");
		if (!gx_io_is_decimal(q, (size_t) (end - q)))
			box_syntax_error(str, "Expected a number in decimal notation.");
		p = end;
	}
	return skip_space(p);
}

/* BOX3D(xmin ymin zmin,xmax ymax zmax), case-insensitive keyword, whitespace allowed; min/max swapped if given reversed. */
Datum
gxbox3d_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	const char *p = skip_space(str);
	GxBox3D    *box = palloc(sizeof(GxBox3D));
	double		lo[3],
				hi[3];
	int			d;

	if (pg_strncasecmp(p, "BOX3D", 5) != 0)
		box_syntax_error(str, "Expected \"BOX3D\".");
	p = skip_space(p + 5);
	if (pg_strncasecmp(p, "EMPTY", 5) == 0)
	{
		if (*skip_space(p + 5) != '\0')
			box_syntax_error(str, "Unexpected text after the box.");
		gx_box_set_empty(box);
		PG_RETURN_POINTER(box);
	}
	if (*p != '(')
		box_syntax_error(str, "Expected \"(\".");
	p = read_point(p + 1, lo, str);
	if (*p != ',')
		box_syntax_error(str, "Expected \",\" between the two corners.");
	p = read_point(p + 1, hi, str);
	if (*p != ')')
		box_syntax_error(str, "Expected \")\".");
	if (*skip_space(p + 1) != '\0')
		box_syntax_error(str, "Unexpected text after the box.");
	for (d = 0; d < 3; d++)
	{
		((double *) &box->xmin)[d] = Min(lo[d], hi[d]);
		((double *) &box->xmax)[d] = Max(lo[d], hi[d]);
	}
	PG_RETURN_POINTER(box);
}

/* Shortest round-trip doubles; "BOX3D EMPTY" for the EMPTY box. */
Datum
gxbox3d_out(PG_FUNCTION_ARGS)
{
	const GxBox3D *box = PG_GETARG_GXBOX3D_P(0);
	const double *c = &box->xmin;
	char	   *out,
			   *p;
	int			i;

	if (gx_box_is_empty(box))
		PG_RETURN_CSTRING(pstrdup("BOX3D EMPTY"));
	out = p = palloc(6 * 32 + 16);
	p += sprintf(p, "BOX3D(");
	for (i = 0; i < 6; i++)
	{
		p += gx_format_double(c[i], p);
		*p++ = (i == 2) ? ',' : (i == 5) ? ')' : ' ';
	}
	*p = '\0';
	PG_RETURN_CSTRING(out);
}

/* Six float8, in the order of the text form; the EMPTY box is +inf x3, -inf x3. */
Datum
gxbox3d_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	GxBox3D    *box = palloc(sizeof(GxBox3D));
	double	   *c = &box->xmin;
	GxBox3D		empty;
	int			i;

	for (i = 0; i < 6; i++)
		c[i] = pq_getmsgfloat8(buf);
	gx_box_set_empty(&empty);
	if (memcmp(box, &empty, sizeof(GxBox3D)) == 0)
		PG_RETURN_POINTER(box);
	for (i = 0; i < 6; i++)
		if (!isfinite(c[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					 errmsg("invalid gxbox3d: coordinates must be finite")));
	for (i = 0; i < 3; i++)
		if (c[i] > c[i + 3])
		{
			double		t = c[i];

			c[i] = c[i + 3];
			c[i + 3] = t;
		}
	PG_RETURN_POINTER(box);
}

Datum
gxbox3d_send(PG_FUNCTION_ARGS)
{
	const GxBox3D *box = PG_GETARG_GXBOX3D_P(0);
	const double *c = &box->xmin;
	StringInfoData buf;
	int			i;

	pq_begintypsend(&buf);
	for (i = 0; i < 6; i++)
		pq_sendfloat8(&buf, c[i]);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* The cached bounding box of a geometry; NULL for EMPTY. Also the cast gxgeom -> gxbox3d. */
Datum
gx_box3d(PG_FUNCTION_ARGS)
{
	GxBox3D    *box = palloc(sizeof(GxBox3D));

	if (!gx_datum_get_box(PG_GETARG_DATUM(0), box))
		PG_RETURN_NULL();
	PG_RETURN_POINTER(box);
}

/* ---- Operators: &&& (overlap), ~ (contains), @ (contained by), over gxgeom and gxbox3d in any mix ------ */

/* Argument n as a box; false (the operator is false) for EMPTY. */
static inline bool
geom_arg(FunctionCallInfo fcinfo, int n, GxBox3D *box)
{
	return gx_datum_get_box(PG_GETARG_DATUM(n), box);
}

static inline bool
box_arg(FunctionCallInfo fcinfo, int n, GxBox3D *box)
{
	*box = *PG_GETARG_GXBOX3D_P(n);
	return !gx_box_is_empty(box);
}

static inline bool
gx_box_within(const GxBox3D *a, const GxBox3D *b)
{
	return gx_box_contains(b, a);
}

/* name_gg (gxgeom, gxgeom), name_gb (gxgeom, gxbox3d), name_bg (gxbox3d, gxgeom), name_bb (gxbox3d, gxbox3d). */
#define GX_BOX_OPERATOR(name, get_a, get_b, test) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	GxBox3D		a, \
				b; \
\
	PG_RETURN_BOOL(get_a(fcinfo, 0, &a) && get_b(fcinfo, 1, &b) && test(&a, &b)); \
}

#define GX_BOX_OPERATORS(name, test) \
	GX_BOX_OPERATOR(name##_gg, geom_arg, geom_arg, test) \
	GX_BOX_OPERATOR(name##_gb, geom_arg, box_arg, test) \
	GX_BOX_OPERATOR(name##_bg, box_arg, geom_arg, test) \
	GX_BOX_OPERATOR(name##_bb, box_arg, box_arg, test)

GX_BOX_OPERATORS(gx_box3d_overlaps, gx_box_overlaps)
GX_BOX_OPERATORS(gx_box3d_contains, gx_box_contains)
GX_BOX_OPERATORS(gx_box3d_within, gx_box_within)
