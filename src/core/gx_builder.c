/* gx_builder.c: writing a serialized geometry node by node, then sealing it with flags and bounding box. */
#include <math.h>
#include <string.h>

#include "gx_alloc.h"
#include "gx_geom.h"

void
gx_builder_init(GxBuilder *b, GxError *err)
{
	memset(b, 0, sizeof(*b));
	b->err = err;
	b->len = sizeof(GxSerialized);
}

static int
builder_failed(const GxBuilder *b)
{
	return b->err->code != GX_OK;
}

void
gx_builder_reserve(GxBuilder *b, size_t n)
{
	size_t		need;
	size_t		cap;
	unsigned char *data;

	if (builder_failed(b))
		return;
	need = b->len + n;
	if (need < b->len || need > GX_MAX_SIZE)
	{
		gx_error_set(b->err, GX_ERR_LIMIT, "geometry too large (more than %zu bytes)", (size_t) GX_MAX_SIZE);
		return;
	}
	if (need <= b->cap)
		return;
	cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap = cap > GX_MAX_SIZE / 2 ? GX_MAX_SIZE : cap * 2;
	data = gx_realloc(b->data, cap);
	if (data == NULL)
	{
		gx_error_set(b->err, GX_ERR_NOMEM, "out of memory building a geometry of %zu bytes", cap);
		return;
	}
	b->data = data;
	b->cap = cap;
}

size_t
gx_builder_begin(GxBuilder *b, GxType type)
{
	GxNode		node = {(uint32_t) type, 0};
	size_t		off = b->len;

	if (++b->depth > GX_MAX_DEPTH)
		gx_error_set(b->err, GX_ERR_LIMIT, "geometry nested deeper than %d levels", GX_MAX_DEPTH);
	gx_builder_reserve(b, sizeof(node));
	if (builder_failed(b))
		return 0;
	memcpy(b->data + b->len, &node, sizeof(node));
	b->len += sizeof(node);
	return off;
}

void
gx_builder_end(GxBuilder *b, size_t node_offset, uint32_t count)
{
	b->depth--;
	if (builder_failed(b))
		return;
	memcpy(b->data + node_offset + offsetof(GxNode, count), &count, sizeof(count));
}

void
gx_builder_coord(GxBuilder *b, double x, double y, double z)
{
	double		xyz[3] = {x, y, z};

	if (!isfinite(x) || !isfinite(y) || !isfinite(z))
		gx_error_set(b->err, GX_ERR_PARSE, "non-finite coordinate (%g %g %g)", x, y, z);
	gx_builder_reserve(b, sizeof(xyz));
	if (builder_failed(b))
		return;
	memcpy(b->data + b->len, xyz, sizeof(xyz));
	b->len += sizeof(xyz);
}

void
gx_builder_discard(GxBuilder *b)
{
	gx_free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* Extends box by the n points at c. */
static void
box_add_points(GxBox3D *box, const double *c, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++, c += 3)
	{
		box->xmin = fmin(box->xmin, c[0]);
		box->ymin = fmin(box->ymin, c[1]);
		box->zmin = fmin(box->zmin, c[2]);
		box->xmax = fmax(box->xmax, c[0]);
		box->ymax = fmax(box->ymax, c[1]);
		box->zmax = fmax(box->zmax, c[2]);
	}
}

/* Adds every coordinate of the subtree at n to box; returns the node after it. */
static const GxNode *
box_add_node(GxBox3D *box, const GxNode *n, size_t *npoints)
{
	long		nd = gx_leaf_doubles(n->type, n->count);
	const GxNode *c;
	uint32_t	i;

	if (nd >= 0)
	{
		box_add_points(box, gx_node_coords(n), (size_t) nd / 3);
		*npoints += (size_t) nd / 3;
		return (const GxNode *) (gx_node_coords(n) + nd);
	}
	c = n + 1;
	for (i = 0; i < n->count; i++)
		c = box_add_node(box, c, npoints);
	return c;
}

GxSerialized *
gx_builder_finish(GxBuilder *b, int32_t srid, size_t *size)
{
	GxSerialized *g;
	size_t		npoints = 0;

	if (b->data == NULL && !builder_failed(b))
		gx_error_set(b->err, GX_ERR_PARSE, "no geometry");
	if (builder_failed(b))
	{
		gx_builder_discard(b);
		return NULL;
	}
	g = (GxSerialized *) b->data;
	memset(g, 0, sizeof(*g));
	g->srid = srid;
	g->box.xmin = g->box.ymin = g->box.zmin = INFINITY;
	g->box.xmax = g->box.ymax = g->box.zmax = -INFINITY;
	box_add_node(&g->box, gx_body(g), &npoints);
	if (npoints == 0)
	{
		g->flags |= GX_FLAG_EMPTY;
		memset(&g->box, 0, sizeof(g->box));
	}
	*size = b->len;
	b->data = NULL;
	return g;
}

GxSerialized *
gx_set_srid(const GxSerialized *g, size_t size, int32_t srid)
{
	GxSerialized *copy = gx_alloc(size);

	if (copy == NULL)
		return NULL;
	memcpy(copy, g, size);
	copy->srid = srid;
	return copy;
}
