/*
 * gx_solid_geom.c: solids as serialized values: gx_makesolid's result (one POLYHEDRALSURFACE of every
 * shell's triangles, flagged GX_FLAG_SOLID) and the triangles of a stored solid.
 */
#include <string.h>

#include "gx_alloc.h"
#include "gx_box.h"
#include "gx_solid.h"

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

const double *
gx_solid_triangles(const GxSerialized *g, size_t *n)
{
	const GxNode *body = gx_body(g);

	*n = body->count;
	return gx_node_coords(body);
}

/* gx_solid_contains_any's walk: the solid, its index (given, or built at the first piece that needs it). */
typedef struct Inside
{
	const GxSerialized *solid;
	const GxSolidIndex *index;
	GxSolidIndex own;
	GxLocation	found;
	bool		failed;			/* the index could not be built: err is set */
	GxError    *err;
} Inside;

/*
 * The connected pieces of a leaf (a point, a linestring, each triangle) with their first vertex and box:
 * visit(ctx, vertex, box) for each, until it returns false.
 */
static bool
leaf_pieces(const GxNode *leaf, bool (*visit) (void *ctx, const double *vertex, const GxBox3D *box), void *ctx)
{
	const double *c = gx_node_coords(leaf);
	GxBox3D		box;

	if (leaf->count == 0)
		return true;
	if (leaf->type == GX_POINT || leaf->type == GX_LINESTRING)
	{
		box = gx_box_of_points(c, leaf->type == GX_POINT ? 1 : leaf->count);
		return visit(ctx, c, &box);
	}
	for (uint32_t i = 0; i < leaf->count; i++)
	{
		box = gx_box_of_points(c + 9 * (size_t) i, 3);
		if (!visit(ctx, c + 9 * (size_t) i, &box))
			return false;
	}
	return true;
}

static bool
inside_piece(void *ctx, const double *vertex, const GxBox3D *box)
{
	Inside	   *in = ctx;

	/* a piece missing the surface can only be inside if its box is: only then is the solid indexed */
	if (!gx_box_contains(&in->solid->box, box))
		return true;
	if (in->index == NULL)
	{
		size_t		n;
		const double *tri = gx_solid_triangles(in->solid, &n);

		if (!gx_solid_index_build(&in->own, tri, n, in->err))
		{
			in->failed = true;
			return false;
		}
		in->index = &in->own;
	}
	in->found = gx_solid_locate(in->index, vertex);
	return in->found == GX_LOC_OUTSIDE;
}

static bool
inside_leaf(void *ctx, const GxNode *leaf)
{
	return leaf_pieces(leaf, inside_piece, ctx);
}

int
gx_solid_contains_any(const GxSerialized *solid, const GxSolidIndex *index, const GxSerialized *x, GxError *err)
{
	Inside		in = {solid, index, {0}, GX_LOC_OUTSIDE, false, err};

	gx_node_walk(gx_body(x), inside_leaf, &in);
	if (in.index == &in.own)
		gx_solid_index_free(&in.own);
	if (in.failed)
		return -1;
	if (in.found == GX_LOC_FAILED)
	{
		gx_error_set(err, GX_ERR_INVALID, "could not locate a point in a solid (no ray avoided its edges)");
		return -1;
	}
	return in.found != GX_LOC_OUTSIDE;
}
