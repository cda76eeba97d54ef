/*
 * gx_parts.c: the parts of a geometry (a collection's children; any other geometry is one part, itself) and
 * collections made of geometries: gx_numgeometries, gx_geometryn, gx_dump and gx_collect.
 */
#include "base/gx_alloc.h"
#include "construct/gx_construct.h"

static bool
is_collection(uint32_t type)
{
	return type == GX_MULTIPOINT || type == GX_MULTILINESTRING || type == GX_GEOMETRYCOLLECTION;
}

uint32_t
gx_num_parts(const GxSerialized *g)
{
	const GxNode *n = gx_body(g);

	if (is_collection(n->type))
		return n->count;
	return (g->flags & GX_FLAG_EMPTY) ? 0 : 1;
}

GxSerialized *
gx_geom_of_node(const GxNode *n, int32_t srid, size_t *size, GxError *err)
{
	GxBuilder	b;

	gx_builder_init(&b, err);
	gx_builder_node(&b, n);
	return gx_builder_finish(&b, srid, size);
}

/* Visits the non-collection nodes under n, path[0..depth) leading to n; *next is the node after n's subtree. */
static bool
dump_node(const GxNode *n, int *path, int depth, GxDumpVisitor visit, void *ctx, const GxNode **next)
{
	const GxNode *child = n + 1;

	if (!is_collection(n->type))
	{
		*next = gx_node_next(n);
		return visit(ctx, path, depth, n);
	}
	for (uint32_t i = 0; i < n->count; i++)
	{
		path[depth] = (int) i + 1;
		if (!dump_node(child, path, depth + 1, visit, ctx, &child))
			return false;
	}
	*next = child;
	return true;
}

bool
gx_dump_walk(const GxSerialized *g, GxDumpVisitor visit, void *ctx)
{
	int			path[GX_MAX_DEPTH + 1];
	const GxNode *next;

	return dump_node(gx_body(g), path, 0, visit, ctx, &next);
}

GxSerialized *
gx_collect(const GxSerialized *const *parts, size_t n, size_t *size, GxError *err)
{
	GxBuilder	b;
	GxType		type;
	int32_t		srid = 0;
	uint32_t	first = n ? gx_body(parts[0])->type : GX_POINT;
	size_t		node;
	bool		same = true;

	if (n > UINT32_MAX)
	{
		gx_error_set(err, GX_ERR_LIMIT, "a collection holds at most %u parts, not %zu", UINT32_MAX, n);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
	{
		if (i > 0 && !gx_srids_match(parts[0], parts[i], err))
			return NULL;
		srid = srid != 0 ? srid : parts[i]->srid;
		same &= gx_body(parts[i])->type == first;
	}
	type = n > 0 && same && first == GX_POINT ? GX_MULTIPOINT :
		n > 0 && same && first == GX_LINESTRING ? GX_MULTILINESTRING : GX_GEOMETRYCOLLECTION;
	gx_builder_init(&b, err);
	node = gx_builder_begin(&b, type);
	for (size_t i = 0; i < n; i++)
		gx_builder_node(&b, gx_body(parts[i]));
	gx_builder_end(&b, node, (uint32_t) n);
	return gx_builder_finish(&b, srid, size);
}
