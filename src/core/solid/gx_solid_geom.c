/*
 * gx_solid_geom.c: stored solids: their triangles, and whether a geometry that misses the surface lies
 * inside (one vertex of each connected piece located).
 */
#include "base/gx_alloc.h"
#include "geom/gx_box.h"
#include "solid/gx_solid.h"

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
