/*
 * gx_stl_write.c: writes the triangles of a surface as an STL mesh, ASCII (shortest round-trip decimals, so
 * that gx_from_stl reads back the same doubles) or binary (float32, rounded).
 */
#include <math.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_format.h"
#include "io/gx_io.h"
#include "io/gx_io_internal.h"
#include "io/gx_text_out.h"

#define STL_HEADER			80		/* binary: free-form header bytes */
#define STL_PREFIX			84		/* binary: header + uint32 facet count */
#define STL_FACET			50		/* binary: normal, 3 vertices (12 float32), uint16 attribute */
#define STL_NAME			"gpuexact"

/* The next node in pre-order: a collection's first child, or the node after a leaf. */
static const GxNode *
next_in_order(const GxNode *n)
{
	return gx_leaf_doubles(n->type, n->count) < 0 ? n + 1 : gx_node_next(n);
}

static bool
is_surface(uint32_t type)
{
	return type == GX_TRIANGLE || type == GX_TIN || type == GX_POLYHEDRALSURFACE;
}

/* How many triangles node n holds itself (a collection none: its children hold them). */
static uint32_t
own_triangles(const GxNode *n)
{
	return is_surface(n->type) ? n->count : 0;
}

/*
 * Counts the triangles of g into *count; false with GX_ERR_INVALID when g holds a point or a line, even an
 * empty one: STL has no way to say either, and a surface writer is not the place to drop them.
 */
static bool
count_triangles(const GxSerialized *g, size_t *count, GxError *err)
{
	const GxNode *end = gx_node_next(gx_body(g));
	const GxNode *n;

	*count = 0;
	for (n = gx_body(g); n < end; n = next_in_order(n))
	{
		if (n->type != GX_GEOMETRYCOLLECTION && !is_surface(n->type))
		{
			gx_error_set(err, GX_ERR_INVALID, "STL holds only triangles: the geometry has a %s",
						 gx_type_name(n->type));
			return false;
		}
		*count += own_triangles(n);
	}
	return true;
}

/*
 * The unit normal of triangle c (a, b, c: right-handed), computed in double; 0 0 0 when it is degenerate.
 * The edges are taken from halved coordinates, which cannot overflow, and scaled by a power of two to
 * about 1 (exactly), so the cross product neither overflows nor loses a tiny triangle to underflow.
 */
static void
facet_normal(const double *c, double nrm[3])
{
	double		e1[3],
				e2[3],
				x[3];
	double		m = 0,
				len;
	int			k,
				ex;

	memset(nrm, 0, 3 * sizeof(double));
	for (k = 0; k < 3; k++)
	{
		e1[k] = c[3 + k] * 0.5 - c[k] * 0.5;
		e2[k] = c[6 + k] * 0.5 - c[k] * 0.5;
		m = fmax(m, fmax(fabs(e1[k]), fabs(e2[k])));
	}
	if (m == 0)
		return;
	frexp(m, &ex);
	for (k = 0; k < 3; k++)
	{
		e1[k] = ldexp(e1[k], -ex);
		e2[k] = ldexp(e2[k], -ex);
	}
	x[0] = e1[1] * e2[2] - e1[2] * e2[1];
	x[1] = e1[2] * e2[0] - e1[0] * e2[2];
	x[2] = e1[0] * e2[1] - e1[1] * e2[0];
	len = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
	/* a degenerate triangle keeps 0 0 0; adding 0 turns the -0 of a cross product into 0 */
	if (len > 0)
		for (k = 0; k < 3; k++)
			nrm[k] = x[k] / len + 0.0;
}

static void
put_triple(GxTextOut *t, const char *keyword, const double *v)
{
	int			k;

	gx_text_put_str(t, keyword);
	for (k = 0; k < 3; k++)
	{
		gx_text_put(t, " ", 1);
		gx_text_put_double(t, v[k]);
	}
	gx_text_put(t, "\n", 1);
}

char *
gx_to_stl_ascii(const GxSerialized *g, size_t *len, GxError *err)
{
	GxTextOut	t = {.max = GX_MAX_SIZE};
	const GxNode *end = gx_node_next(gx_body(g));
	const GxNode *n;
	const double *c;
	double		nrm[3];
	size_t		count;
	uint32_t	i;
	int			k;

	err->code = GX_OK;
	err->msg[0] = '\0';
	if (!count_triangles(g, &count, err))
		return NULL;
	gx_text_put_str(&t, "solid " STL_NAME "\n");
	for (n = gx_body(g); n < end && !t.failed; n = next_in_order(n))
		for (i = 0, c = gx_node_coords(n); i < own_triangles(n); i++, c += 9)
		{
			facet_normal(c, nrm);
			put_triple(&t, "  facet normal", nrm);
			gx_text_put_str(&t, "    outer loop\n");
			for (k = 0; k < 3; k++)
				put_triple(&t, "      vertex", c + 3 * k);
			gx_text_put_str(&t, "    endloop\n  endfacet\n");
		}
	gx_text_put_str(&t, "endsolid " STL_NAME "\n");
	return gx_text_finish(&t, len, err, "the STL text");
}

/*
 * Writes 3 doubles as little-endian float32, rounded to nearest; returns -1, or the first one (0..2) beyond
 * float range (rounding to infinity).
 */
static int
put_floats(unsigned char *at, const double *v)
{
	float		f;
	uint32_t	bits;
	int			k;

	for (k = 0; k < 3; k++)
	{
		f = (float) v[k];
		if (isinf(f))
			return k;
		memcpy(&bits, &f, sizeof(bits));
		gx_io_put_le32(at + 4 * k, bits);
	}
	return -1;
}

unsigned char *
gx_to_stl_binary(const GxSerialized *g, size_t *len, GxError *err)
{
	const GxNode *end = gx_node_next(gx_body(g));
	const GxNode *n;
	const double *c;
	double		nrm[3];
	size_t		count;
	size_t		facet = 0;
	unsigned char *out;
	unsigned char *at;
	uint32_t	i;
	int			k,
				bad;
	char		num[32];

	err->code = GX_OK;
	err->msg[0] = '\0';
	if (!count_triangles(g, &count, err))
		return NULL;
	if (count > (GX_MAX_SIZE - STL_PREFIX) / STL_FACET)
	{
		gx_error_set(err, GX_ERR_LIMIT, "binary STL of %zu facets is longer than the limit of %zu bytes", count,
					 (size_t) GX_MAX_SIZE);
		return NULL;
	}
	out = gx_alloc(STL_PREFIX + STL_FACET * count);
	if (out == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory writing the binary STL");
		return NULL;
	}
	/* zeros after the name: a NUL in the first 84 bytes marks the file binary even to a reader that sniffs "solid" */
	memset(out, 0, STL_HEADER);
	memcpy(out, STL_NAME " binary STL", strlen(STL_NAME " binary STL"));
	gx_io_put_le32(out + STL_HEADER, (uint32_t) count);
	at = out + STL_PREFIX;
	for (n = gx_body(g); n < end; n = next_in_order(n))
		for (i = 0, c = gx_node_coords(n); i < own_triangles(n); i++, c += 9, at += STL_FACET)
		{
			facet++;
			facet_normal(c, nrm);
			put_floats(at, nrm);
			for (k = 0; k < 3; k++)
				if ((bad = put_floats(at + 12 * (k + 1), c + 3 * k)) >= 0)
				{
					gx_format_double(c[3 * k + bad], num);
					gx_error_set(err, GX_ERR_RANGE, "binary STL holds float32: coordinate %s of vertex %d of facet %zu "
								 "is beyond its range", num, k + 1, facet);
					gx_free(out);
					return NULL;
				}
			at[48] = at[49] = 0;	/* attribute byte count */
		}
	*len = STL_PREFIX + STL_FACET * count;
	return out;
}
