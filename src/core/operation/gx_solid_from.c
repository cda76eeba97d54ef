/*
 * gx_solid_from.c: gx_makesolid's result as a serialized value: the triangles of a geometry checked and
 * oriented by gx_solid_make, written as one POLYHEDRALSURFACE of every shell's triangles flagged
 * GX_FLAG_SOLID.
 */
#include <string.h>

#include "base/gx_alloc.h"
#include "operation/gx_solid_make.h"

typedef struct Collect
{
	double	   *tri;
	size_t		n;
	GxError    *err;
} Collect;

/* Appends the triangles of one leaf (tri NULL: only counts them); other element kinds are refused. */
static bool
collect_leaf(void *ctx, const GxNode *leaf)
{
	Collect    *c = ctx;

	if (leaf->type != GX_TRIANGLE && leaf->type != GX_TIN && leaf->type != GX_POLYHEDRALSURFACE)
	{
		gx_error_set(c->err, GX_ERR_INVALID, "a solid is bounded by triangles only (a TIN, POLYHEDRALSURFACE, "
					 "TRIANGLE or a collection of them), not by a %s", gx_type_name(leaf->type));
		return false;
	}
	if (c->tri)
		memcpy(c->tri + 9 * c->n, gx_node_coords(leaf), 9 * sizeof(double) * leaf->count);
	c->n += leaf->count;
	return true;
}

GxSerialized *
gx_solid_from(const GxSerialized *g, const GxBatchOptions *opt, size_t *size, GxError *err)
{
	Collect		c = {NULL, 0, err};
	GxBatchOptions defaults;
	GxBuilder	b;
	GxSerialized *out;
	size_t		node,
				shells;

	if (opt == NULL)
	{
		gx_batch_options_default(&defaults);
		defaults.device = GX_DEVICE_CPU;
		opt = &defaults;
	}
	if (!gx_node_walk(gx_body(g), collect_leaf, &c))
		return NULL;
	c.tri = gx_alloc((c.n ? c.n : 1) * 9 * sizeof(double));
	if (!c.tri)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for a solid of %zu triangles", c.n);
		return NULL;
	}
	c.n = 0;
	gx_node_walk(gx_body(g), collect_leaf, &c);
	if (!gx_solid_make(c.tri, &c.n, opt, &shells, err))
	{
		gx_free(c.tri);
		return NULL;
	}
	gx_builder_init(&b, err);
	gx_builder_reserve(&b, c.n * 9 * sizeof(double) + 64);
	node = gx_builder_begin(&b, GX_POLYHEDRALSURFACE);
	for (size_t i = 0; i < 3 * c.n; i++)
		gx_builder_coord(&b, c.tri[3 * i], c.tri[3 * i + 1], c.tri[3 * i + 2]);
	gx_builder_end(&b, node, (uint32_t) c.n);
	gx_free(c.tri);
	out = gx_builder_finish(&b, g->srid, size);
	if (out)
		out->flags |= GX_FLAG_SOLID;
	return out;
}
