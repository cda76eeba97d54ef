/* gx_elements.c: flattening a serialized geometry into its elements, and the element-pair dispatch. */
#include "algorithm/gx_elements.h"
#include "algorithm/gx_primitives.h"
#include "base/gx_alloc.h"
#include "geom/gx_box.h"

GxBox3D
gx_elem_box(GxElem e)
{
	return gx_box_of_points(e.c, (size_t) e.kind);
}

typedef struct Collector
{
	GxElements *out;
	size_t		cap;
	const GxBox3D *clip;
	GxError    *err;
} Collector;

static bool
push(Collector *col, const double *c, int kind)
{
	GxElem		e = {c, kind};
	GxBox3D		box;

	if (col->clip)
	{
		box = gx_elem_box(e);
		if (!gx_box_overlaps(&box, col->clip))
			return true;
	}
	if (!gx_grow((void **) &col->out->elems, &col->cap, col->out->n + 1, sizeof(GxElem), SIZE_MAX / sizeof(GxElem)))
	{
		gx_error_set(col->err, GX_ERR_NOMEM, "out of memory collecting %zu elements", col->out->n + 1);
		return false;
	}
	col->out->elems[col->out->n++] = e;
	return true;
}

/* Pushes the elements of one leaf node; false on allocation failure. */
static bool
collect_leaf(void *ctx, const GxNode *n)
{
	Collector  *col = ctx;
	const double *c = gx_node_coords(n);
	int			kind = n->type == GX_POINT ? 1 : n->type == GX_LINESTRING ? 2 : 3;
	uint32_t	i,
				count = kind == 2 ? (n->count > 1 ? n->count - 1 : 0) : n->count;

	for (i = 0; i < count; i++)
		if (!push(col, c + (kind == 3 ? 9 : 3) * (size_t) i, kind))
			return false;
	return true;
}

bool
gx_elements_collect(const GxSerialized *g, const GxBox3D *clip, GxElements *out, GxError *err)
{
	Collector	col = {out, 0, clip, err};

	out->elems = NULL;
	out->n = 0;
	if (gx_node_walk(gx_body(g), collect_leaf, &col) == NULL)
	{
		gx_elements_free(out);
		return false;
	}
	return true;
}

void
gx_elements_free(GxElements *e)
{
	gx_free(e->elems);
	e->elems = NULL;
	e->n = 0;
}

bool
gx_elem_intersects(GxElem a, GxElem b)
{
	return gx_elements_intersect(a.c, a.kind, b.c, b.kind);
}
