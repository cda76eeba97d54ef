/*
 * gx_wkt_write.c: writes a serialized geometry as ISO WKT with Z (optionally EWKT's "SRID=n;" prefix),
 * with every coordinate as the shortest decimal that reads back to the same double.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_format.h"
#include "io/gx_io.h"

/*
 * A growing output string; on allocation failure it stops growing and the result is NULL. A counting
 * one only measures the length.
 */
typedef struct TextOut
{
	char	   *data;
	size_t		len;
	size_t		cap;
	int			failed;
	int			counting;
} TextOut;

static void
put(TextOut *t, const char *s, size_t n)
{
	size_t		cap;
	char	   *data;

	if (t->counting)
	{
		t->len += n;
		return;
	}
	if (t->failed)
		return;
	if (t->len + n + 1 > t->cap)
	{
		cap = t->cap ? t->cap : 256;
		while (cap < t->len + n + 1)
			cap *= 2;
		data = t->data ? gx_realloc(t->data, cap) : gx_alloc(cap);
		if (data == NULL)
		{
			t->failed = 1;
			return;
		}
		t->data = data;
		t->cap = cap;
	}
	memcpy(t->data + t->len, s, n);
	t->len += n;
	t->data[t->len] = '\0';
}

static void
put_str(TextOut *t, const char *s)
{
	put(t, s, strlen(s));
}

/* "x y z,x y z,...": n points from c, then the first one again when close is set. */
static void
put_points(TextOut *t, const double *c, size_t n, int close)
{
	char		num[32];
	size_t		i;
	int			k;

	for (i = 0; i < n + (close ? 1 : 0); i++)
	{
		if (i > 0)
			put(t, ",", 1);
		for (k = 0; k < 3; k++)
		{
			if (k > 0)
				put(t, " ", 1);
			put(t, num, (size_t) gx_format_double(c[3 * (i % n) + k], num));
		}
	}
}

/* "((a,b,c,a))": the body of one triangle, closing vertex written. */
static void
put_triangle(TextOut *t, const double *c)
{
	put(t, "((", 2);
	put_points(t, c, 3, 1);
	put(t, "))", 2);
}

/*
 * Writes the node n, preceded by "TYPE Z " when tagged (members of MULTIPOINT and MULTILINESTRING are
 * not); returns the node after it.
 */
static const GxNode *
put_node(TextOut *t, const GxNode *n, int tagged)
{
	const double *c = gx_node_coords(n);
	const GxNode *child = n + 1;
	uint32_t	i;

	if (tagged)
	{
		put_str(t, gx_type_name(n->type));
		put(t, " Z ", 3);
	}
	if (n->count == 0)
	{
		put(t, "EMPTY", 5);
		return gx_node_next(n);
	}
	switch (n->type)
	{
		case GX_POINT:
		case GX_LINESTRING:
			put(t, "(", 1);
			put_points(t, c, n->count, 0);
			put(t, ")", 1);
			return gx_node_next(n);
		case GX_TRIANGLE:
			put_triangle(t, c);
			return gx_node_next(n);
		case GX_TIN:
		case GX_POLYHEDRALSURFACE:
			put(t, "(", 1);
			for (i = 0; i < n->count; i++)
			{
				if (i > 0)
					put(t, ",", 1);
				put_triangle(t, c + 9 * (size_t) i);
			}
			put(t, ")", 1);
			return gx_node_next(n);
	}
	put(t, "(", 1);
	for (i = 0; i < n->count; i++)
	{
		if (i > 0)
			put(t, ",", 1);
		child = put_node(t, child, n->type == GX_GEOMETRYCOLLECTION);
	}
	put(t, ")", 1);
	return child;
}

char *
gx_to_wkt(const GxSerialized *g, int with_srid, size_t *len)
{
	TextOut		t = {NULL, 0, 0, 0, 0};
	char		prefix[32];
	int			n;

	if (with_srid && g->srid != 0)
	{
		n = snprintf(prefix, sizeof(prefix), "SRID=%d;", (int) g->srid);
		put(&t, prefix, (size_t) n);
	}
	if (g->flags & GX_FLAG_SOLID)
	{
		/* SFCGAL's form, all shells written as one */
		put(&t, "SOLID Z (", 9);
		put_node(&t, gx_body(g), 0);
		put(&t, ")", 1);
	}
	else
		put_node(&t, gx_body(g), 1);
	if (t.failed)
	{
		gx_free(t.data);
		return NULL;
	}
	if (len)
		*len = t.len;
	return t.data;
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
	TextOut		t = {NULL, 0, 0, 0, 1};

	if (bound <= (double) limit)
		return true;
	put_node(&t, gx_body(g), 1);
	return t.len + PREFIX_TEXT_MAX <= limit;
}
