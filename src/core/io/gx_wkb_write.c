/*
 * gx_wkb_write.c: writes a serialized geometry as ISO WKB (Z codes 1000+) or PostGIS EWKB (Z flag, SRID on
 * the outermost geometry), in the machine's byte order. TIN members are written as TRIANGLEs and
 * POLYHEDRALSURFACE faces as POLYGONs, each one ring of 4 points; POINT EMPTY as NaN coordinates. A
 * solid's EWKB carries the flag 0x10000000 on its outermost type code (PostGIS reads past it); ISO WKB
 * has no way to say it and writes the surface alone.
 */
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io.h"

#define CODE_POLYGON	3
#define EWKB_Z			0x80000000u
#define EWKB_SRID		0x20000000u
#define EWKB_SOLID		0x10000000u	/* gpuexact's: the outermost POLYHEDRALSURFACE is a solid (PostGIS ignores it) */

/*
 * Output cursor. With data == NULL nothing is stored and only len advances: the same walk first
 * measures the output, then writes it.
 */
typedef struct WkbOut
{
	unsigned char *data;
	size_t		len;
	GxWkbVariant variant;
	uint32_t	solid;			/* EWKB_SOLID for the outermost header of a solid, then 0 */
} WkbOut;

static void
put(WkbOut *w, const void *v, size_t n)
{
	if (w->data != NULL)
		memcpy(w->data + w->len, v, n);
	w->len += n;
}

static void
put_u32(WkbOut *w, uint32_t v)
{
	put(w, &v, sizeof(v));
}

/* Byte order byte, type code, and for EWKB the SRID when srid != 0 (only the outermost passes one). */
static void
put_header(WkbOut *w, uint32_t type, int32_t srid)
{
	const uint16_t one = 1;
	unsigned char order;

	memcpy(&order, &one, 1);	/* 1 (NDR) on a little-endian machine, 0 (XDR) on a big-endian one */
	put(w, &order, 1);
	if (w->variant == GX_WKB_ISO)
		put_u32(w, type + 1000);
	else
	{
		put_u32(w, type | EWKB_Z | (srid != 0 ? EWKB_SRID : 0) | w->solid);
		w->solid = 0;
		if (srid != 0)
			put(w, &srid, sizeof(srid));
	}
}

/* A TRIANGLE or POLYGON of one closed ring a, b, c, a; c == NULL writes an empty one (no ring). */
static void
put_triangle(WkbOut *w, uint32_t type, int32_t srid, const double *c)
{
	put_header(w, type, srid);
	put_u32(w, c != NULL);
	if (c == NULL)
		return;
	put_u32(w, 4);
	put(w, c, 9 * sizeof(double));
	put(w, c, 3 * sizeof(double));
}

/* Writes node n (srid only for the outermost); returns the node after it. */
static const GxNode *
put_node(WkbOut *w, const GxNode *n, int32_t srid)
{
	static const uint64_t nan_bits = 0x7FF8000000000000u;	/* the quiet NaN PostGIS writes */
	const double *c = gx_node_coords(n);
	const GxNode *child = n + 1;
	uint32_t	i;

	switch (n->type)
	{
		case GX_POINT:
			put_header(w, n->type, srid);
			if (n->count != 0)
				put(w, c, 3 * sizeof(double));
			else
				for (i = 0; i < 3; i++)
					put(w, &nan_bits, sizeof(nan_bits));
			return gx_node_next(n);
		case GX_TRIANGLE:
			put_triangle(w, n->type, srid, n->count != 0 ? c : NULL);
			return gx_node_next(n);
	}
	put_header(w, n->type, srid);
	put_u32(w, n->count);
	switch (n->type)
	{
		case GX_LINESTRING:
			put(w, c, 3 * sizeof(double) * n->count);
			return gx_node_next(n);
		case GX_TIN:
		case GX_POLYHEDRALSURFACE:
			for (i = 0; i < n->count; i++)
				put_triangle(w, n->type == GX_TIN ? GX_TRIANGLE : CODE_POLYGON, 0, c + 9 * (size_t) i);
			return gx_node_next(n);
	}
	for (i = 0; i < n->count; i++)
		child = put_node(w, child, 0);
	return child;
}

unsigned char *
gx_to_wkb(const GxSerialized *g, GxWkbVariant variant, size_t *len)
{
	uint32_t	solid = (g->flags & GX_FLAG_SOLID) ? EWKB_SOLID : 0;
	WkbOut		w = {NULL, 0, variant, solid};

	put_node(&w, gx_body(g), g->srid);
	w.data = gx_alloc(w.len);
	if (w.data == NULL)
		return NULL;
	*len = w.len;
	w.len = 0;
	w.solid = solid;
	put_node(&w, gx_body(g), g->srid);
	return w.data;
}
