/* gx_geom_base.c: walking the serialized geometry model: type names, node sizes, counts, SRIDs. */
#include <string.h>

#include "geom/gx_geom.h"

const char *
gx_type_name(uint32_t type)
{
	switch (type)
	{
		case GX_POINT:
			return "POINT";
		case GX_LINESTRING:
			return "LINESTRING";
		case GX_MULTIPOINT:
			return "MULTIPOINT";
		case GX_MULTILINESTRING:
			return "MULTILINESTRING";
		case GX_GEOMETRYCOLLECTION:
			return "GEOMETRYCOLLECTION";
		case GX_POLYHEDRALSURFACE:
			return "POLYHEDRALSURFACE";
		case GX_TIN:
			return "TIN";
		case GX_TRIANGLE:
			return "TRIANGLE";
	}
	return NULL;
}

long
gx_leaf_doubles(uint32_t type, uint32_t count)
{
	switch (type)
	{
		case GX_POINT:
		case GX_LINESTRING:
			return 3L * count;
		case GX_TRIANGLE:
		case GX_TIN:
		case GX_POLYHEDRALSURFACE:
			return 9L * count;
	}
	return -1;
}

const GxNode *
gx_node_walk(const GxNode *n, GxLeafVisitor visit, void *ctx)
{
	long		nd = gx_leaf_doubles(n->type, n->count);
	const GxNode *child;
	uint32_t	i;

	if (nd >= 0)
		return visit(ctx, n) ? (const GxNode *) (gx_node_coords(n) + nd) : NULL;
	child = n + 1;
	for (i = 0; i < n->count && child; i++)
		child = gx_node_walk(child, visit, ctx);
	return child;
}

static bool
skip_leaf(void *ctx, const GxNode *leaf)
{
	(void) ctx;
	(void) leaf;
	return true;
}

const GxNode *
gx_node_next(const GxNode *n)
{
	return gx_node_walk(n, skip_leaf, NULL);
}

static bool
count_leaf(void *ctx, const GxNode *n)
{
	GxCounts   *c = ctx;

	switch (n->type)
	{
		case GX_POINT:
			c->points += n->count;
			break;
		case GX_LINESTRING:
			c->points += n->count;
			if (n->count > 1)
				c->segments += n->count - 1;
			break;
		default:				/* triangles */
			c->points += 4 * (size_t) n->count;
			c->triangles += n->count;
			break;
	}
	return true;
}

GxCounts
gx_counts(const GxSerialized *g)
{
	GxCounts	c;

	memset(&c, 0, sizeof(c));
	gx_node_walk(gx_body(g), count_leaf, &c);
	return c;
}

bool		gx_strict_srid = false;

bool
gx_srids_match(const GxSerialized *a, const GxSerialized *b, GxError *err)
{
	if (gx_srids_conflict(a->srid, b->srid, gx_strict_srid))
	{
		gx_error_set(err, GX_ERR_SRID, "operation on mixed SRID geometries (%d and %d)", a->srid, b->srid);
		return false;
	}
	return true;
}
