/*
 * gx_wkt_write.c: writes a serialized geometry as ISO WKT with Z (optionally EWKT's "SRID=n;" prefix),
 * with every coordinate as the shortest decimal that reads back to the same double.
 */
#include "io/gx_io.h"
#include "io/gx_text_out.h"

/* "x y z,x y z,...": n points from c, then the first one again when close is set. */
static void
put_points(GxTextOut *t, const double *c, size_t n, int close)
{
	size_t		i;
	int			k;

	for (i = 0; i < n + (close ? 1 : 0); i++)
	{
		if (i > 0)
			gx_text_put(t, ",", 1);
		for (k = 0; k < 3; k++)
		{
			if (k > 0)
				gx_text_put(t, " ", 1);
			gx_text_put_double(t, c[3 * (i % n) + k]);
		}
	}
}

/* "((a,b,c,a))": the body of one triangle, closing vertex written. */
static void
put_triangle(GxTextOut *t, const double *c)
{
	gx_text_put(t, "((", 2);
	put_points(t, c, 3, 1);
	gx_text_put(t, "))", 2);
}

/*
 * Writes the node n, preceded by "TYPE Z " when tagged (members of MULTIPOINT and MULTILINESTRING are
 * not); returns the node after it.
 */
static const GxNode *
put_node(GxTextOut *t, const GxNode *n, int tagged)
{
	const double *c = gx_node_coords(n);
	const GxNode *child = n + 1;
	uint32_t	i;

	if (tagged)
	{
		gx_text_put_str(t, gx_type_name(n->type));
		gx_text_put(t, " Z ", 3);
	}
	if (n->count == 0)
	{
		gx_text_put(t, "EMPTY", 5);
		return gx_node_next(n);
	}
	switch (n->type)
	{
		case GX_POINT:
		case GX_LINESTRING:
			gx_text_put(t, "(", 1);
			put_points(t, c, n->count, 0);
			gx_text_put(t, ")", 1);
			return gx_node_next(n);
		case GX_TRIANGLE:
			put_triangle(t, c);
			return gx_node_next(n);
		case GX_TIN:
		case GX_POLYHEDRALSURFACE:
			gx_text_put(t, "(", 1);
			for (i = 0; i < n->count; i++)
			{
				if (i > 0)
					gx_text_put(t, ",", 1);
				put_triangle(t, c + 9 * (size_t) i);
			}
			gx_text_put(t, ")", 1);
			return gx_node_next(n);
	}
	gx_text_put(t, "(", 1);
	for (i = 0; i < n->count; i++)
	{
		if (i > 0)
			gx_text_put(t, ",", 1);
		child = put_node(t, child, n->type == GX_GEOMETRYCOLLECTION);
	}
	gx_text_put(t, ")", 1);
	return child;
}

char *
gx_to_wkt(const GxSerialized *g, int with_srid, size_t *len)
{
	GxTextOut	t = {0};

	if (with_srid && g->srid != 0)
		gx_text_printf(&t, "SRID=%d;", (int) g->srid);
	if (g->flags & GX_FLAG_SOLID)
	{
		/* SFCGAL's form, all shells written as one */
		gx_text_put(&t, "SOLID Z (", 9);
		put_node(&t, gx_body(g), 0);
		gx_text_put(&t, ")", 1);
	}
	else
		put_node(&t, gx_body(g), 1);
	return gx_text_finish(&t, len, NULL, "WKT");
}

/* Longest text of one point: three shortest doubles (at most 24 characters each), 2 spaces and a comma. */
#define POINT_TEXT_MAX 75
/* Longest SRID prefix, and the longest text of the tag and brackets of one node, or one TIN member. */
#define PREFIX_TEXT_MAX 16
#define NODE_TEXT_MAX 48
#define TRIANGLE_TEXT_MAX 8

bool
gx_wkt_fits(const GxSerialized *g, size_t size, size_t limit)
{
	GxCounts	c = gx_counts(g);
	double		bound = PREFIX_TEXT_MAX + (double) c.points * POINT_TEXT_MAX +
		(double) c.triangles * TRIANGLE_TEXT_MAX + (double) (size / sizeof(GxNode)) * NODE_TEXT_MAX;
	GxTextOut	t = {.counting = 1};

	if (bound <= (double) limit)
		return true;
	put_node(&t, gx_body(g), 1);
	return t.len + PREFIX_TEXT_MAX <= limit;
}
