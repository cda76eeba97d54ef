/*
 * fuzz_parts.h: what the OBJ and DXF harnesses check of a result: a refusal sets an error; a geometry has
 * the shape gx_io_parts.h promises (a non-empty TIN, MULTILINESTRING or MULTIPOINT, or a collection of a
 * TIN, then linestrings, then points, at least two kinds) and prints as WKT that reads back to its bytes.
 */
#ifndef FUZZ_PARTS_H
#define FUZZ_PARTS_H

#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io.h"

/* The rank of a collection member's type in the promised order (TIN, LINESTRING, POINT); 3 for others. */
static int
parts_rank(uint32_t type)
{
	return type == GX_TIN ? 0 : type == GX_LINESTRING ? 1 : type == GX_POINT ? 2 : 3;
}

/* Whether the count children after node n all have the given type and are not empty. */
static int
parts_children(const GxNode *n, uint32_t type)
{
	const GxNode *c = n + 1;
	uint32_t	i;

	for (i = 0; i < n->count; i++, c = gx_node_next(c))
		if (c->type != type || c->count == 0)
			return 0;
	return n->count > 0;
}

/* Whether a collection holds members of at least two kinds, in the promised order, none empty. */
static int
parts_collection(const GxNode *n)
{
	const GxNode *c = n + 1;
	uint32_t	i;
	int			rank = -1;
	int			kinds = 0;

	for (i = 0; i < n->count; i++, c = gx_node_next(c))
	{
		if (parts_rank(c->type) == 3 || parts_rank(c->type) < rank || c->count == 0 ||
			(c->type == GX_TIN && rank == 0))
			return 0;
		kinds += parts_rank(c->type) != rank;
		rank = parts_rank(c->type);
	}
	return kinds >= 2;
}

static void
fuzz_check_parts(GxSerialized *g, size_t gsize, const GxError *err)
{
	const GxNode *top;
	char	   *wkt;
	size_t		len;
	size_t		size2;
	GxError		err2;
	GxSerialized *back;

	if (g == NULL)
	{
		if (err->code == GX_OK)
			abort();
		return;
	}
	top = gx_body(g);
	if (err->code != GX_OK || (g->flags & GX_FLAG_EMPTY) ||
		!(top->type == GX_TIN ? top->count > 0 :
		  top->type == GX_MULTILINESTRING ? parts_children(top, GX_LINESTRING) :
		  top->type == GX_MULTIPOINT ? parts_children(top, GX_POINT) :
		  top->type == GX_GEOMETRYCOLLECTION && parts_collection(top)))
		abort();
	wkt = gx_to_wkt(g, 1, &len);
	back = gx_from_wkt(wkt, &size2, &err2);
	if (back == NULL || size2 != gsize || memcmp(back, g, gsize) != 0)
		abort();
	gx_free(back);
	gx_free(wkt);
	gx_free(g);
}

#endif
