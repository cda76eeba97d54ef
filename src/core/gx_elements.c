/* gx_elements.c: flattening a serialized geometry into its elements, and the element-pair dispatch. */
#include "gx_alloc.h"
#include "gx_elements.h"
#include "gx_primitives.h"

GxBox3D
gx_elem_box(GxElem e)
{
	GxBox3D		b = {e.c[0], e.c[1], e.c[2], e.c[0], e.c[1], e.c[2]};
	int			i;

	for (i = 1; i < e.kind; i++)
	{
		const double *p = e.c + 3 * i;

		b.xmin = p[0] < b.xmin ? p[0] : b.xmin;
		b.ymin = p[1] < b.ymin ? p[1] : b.ymin;
		b.zmin = p[2] < b.zmin ? p[2] : b.zmin;
		b.xmax = p[0] > b.xmax ? p[0] : b.xmax;
		b.ymax = p[1] > b.ymax ? p[1] : b.ymax;
		b.zmax = p[2] > b.zmax ? p[2] : b.zmax;
	}
	return b;
}

bool
gx_box_overlaps(const GxBox3D *a, const GxBox3D *b)
{
	return a->xmin <= b->xmax && b->xmin <= a->xmax &&
		a->ymin <= b->ymax && b->ymin <= a->ymax &&
		a->zmin <= b->zmax && b->zmin <= a->zmax;
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
	if (col->out->n == col->cap)
	{
		size_t		cap = col->cap ? 2 * col->cap : 64;
		GxElem	   *grown = gx_realloc(col->out->elems, cap * sizeof(GxElem));

		if (grown == NULL)
		{
			gx_error_set(col->err, GX_ERR_NOMEM, "out of memory collecting %zu elements", cap);
			return false;
		}
		col->out->elems = grown;
		col->cap = cap;
	}
	col->out->elems[col->out->n++] = e;
	return true;
}

/* Pushes the elements of the subtree at n; returns the node after it, or NULL on failure. */
static const GxNode *
collect_node(Collector *col, const GxNode *n)
{
	const double *c = gx_node_coords(n);
	const GxNode *child;
	uint32_t	i;

	switch (n->type)
	{
		case GX_POINT:
			if (n->count == 1 && !push(col, c, 1))
				return NULL;
			break;
		case GX_LINESTRING:
			for (i = 0; i + 1 < n->count; i++)
				if (!push(col, c + 3 * i, 2))
					return NULL;
			break;
		case GX_TRIANGLE:
		case GX_TIN:
		case GX_POLYHEDRALSURFACE:
			for (i = 0; i < n->count; i++)
				if (!push(col, c + 9 * i, 3))
					return NULL;
			break;
		default:
			child = n + 1;
			for (i = 0; i < n->count && child; i++)
				child = collect_node(col, child);
			return child;
	}
	return (const GxNode *) (c + gx_leaf_doubles(n->type, n->count));
}

bool
gx_elements_collect(const GxSerialized *g, const GxBox3D *clip, GxElements *out, GxError *err)
{
	Collector	col = {out, 0, clip, err};

	out->elems = NULL;
	out->n = 0;
	if (collect_node(&col, gx_body(g)) == NULL)
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
