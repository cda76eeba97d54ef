/* gx_builder.c: writing a serialized geometry node by node, then sealing it with flags and bounding box. */
#include <math.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "geom/gx_box.h"
#include "geom/gx_geom.h"

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

/* Levels of nesting of the subtree at n (1 for a leaf); *next is set to the node after it. */
static int
subtree_depth(const GxNode *n, const GxNode **next)
{
	long		nd = gx_leaf_doubles(n->type, n->count);
	const GxNode *child = n + 1;
	int			deepest = 0;

	if (nd >= 0)
	{
		*next = (const GxNode *) (gx_node_coords(n) + nd);
		return 1;
	}
	for (uint32_t i = 0; i < n->count; i++)
	{
		int			d = subtree_depth(child, &child);

		deepest = d > deepest ? d : deepest;
	}
	*next = child;
	return deepest + 1;
}

void
gx_builder_node(GxBuilder *b, const GxNode *n)
{
	const GxNode *next;
	size_t		bytes;

	if (b->depth + subtree_depth(n, &next) > GX_MAX_DEPTH)
		gx_error_set(b->err, GX_ERR_LIMIT, "geometry nested deeper than %d levels", GX_MAX_DEPTH);
	bytes = (size_t) ((const unsigned char *) next - (const unsigned char *) n);
	gx_builder_reserve(b, bytes);
	if (builder_failed(b))
		return;
	memcpy(b->data + b->len, n, bytes);
	b->len += bytes;
}

void
gx_builder_discard(GxBuilder *b)
{
	gx_free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* Box of a whole geometry: context of box_leaf. */
typedef struct BoxWalk
{
	GxBox3D		box;
	size_t		npoints;
} BoxWalk;

static bool
box_leaf(void *ctx, const GxNode *n)
{
	BoxWalk    *w = ctx;
	size_t		points = (size_t) gx_leaf_doubles(n->type, n->count) / 3;
	GxBox3D		b;

	if (points == 0)
		return true;
	b = gx_box_of_points(gx_node_coords(n), points);
	if (w->npoints == 0)
		w->box = b;
	else
		gx_box_extend(&w->box, &b);
	w->npoints += points;
	return true;
}

GxSerialized *
gx_builder_finish(GxBuilder *b, int32_t srid, size_t *size)
{
	GxSerialized *g;
	BoxWalk		walk = {{0, 0, 0, 0, 0, 0}, 0};

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
	gx_node_walk(gx_body(g), box_leaf, &walk);
	g->box = walk.box;
	if (walk.npoints == 0)
		g->flags |= GX_FLAG_EMPTY;
	*size = b->len;
	b->data = NULL;
	return g;
}
