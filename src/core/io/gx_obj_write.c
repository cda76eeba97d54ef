/*
 * gx_obj_write.c: writes a serialized geometry as Wavefront OBJ: each leaf as its own vertices (shortest
 * round-trip decimals, so that gx_from_obj reads back the same doubles) and its faces, polyline or point.
 * Vertices are not shared between elements: a reader gets the same geometry either way, and the writer
 * stays one pass without a vertex index.
 */
#include "io/gx_io.h"
#include "io/gx_text_out.h"

typedef struct ObjOut
{
	GxTextOut	t;
	size_t		vertices;		/* "v" lines so far: the number of the last one */
} ObjOut;

/* "v x y z" lines for n points from c. */
static void
put_vertices(ObjOut *o, const double *c, size_t n)
{
	size_t		i;
	int			k;

	for (i = 0; i < n; i++)
	{
		gx_text_put(&o->t, "v", 1);
		for (k = 0; k < 3; k++)
		{
			gx_text_put(&o->t, " ", 1);
			gx_text_put_double(&o->t, c[3 * i + k]);
		}
		gx_text_put(&o->t, "\n", 1);
	}
	o->vertices += n;
}

/* "<statement> a b ...": the n vertices last written, in order. */
static void
put_element(ObjOut *o, const char *statement, size_t n)
{
	size_t		i;

	gx_text_put_str(&o->t, statement);
	for (i = o->vertices - n + 1; i <= o->vertices; i++)
		gx_text_printf(&o->t, " %zu", i);
	gx_text_put(&o->t, "\n", 1);
}

static bool
put_leaf(void *ctx, const GxNode *leaf)
{
	ObjOut	   *o = ctx;
	const double *c = gx_node_coords(leaf);
	uint32_t	i;

	switch (leaf->type)
	{
		case GX_POINT:
		case GX_LINESTRING:
			if (leaf->count == 0)
				break;
			put_vertices(o, c, leaf->count);
			put_element(o, leaf->type == GX_POINT ? "p" : "l", leaf->count);
			break;
		default:
			/* TRIANGLE, TIN, POLYHEDRALSURFACE: count triangles */
			for (i = 0; i < leaf->count; i++)
			{
				put_vertices(o, c + 9 * (size_t) i, 3);
				put_element(o, "f", 3);
			}
			break;
	}
	return !o->t.failed;
}

char *
gx_to_obj(const GxSerialized *g, size_t *len)
{
	ObjOut		o = {{0}, 0};

	gx_text_put_str(&o.t, "# gpuexact\n");
	gx_node_walk(gx_body(g), put_leaf, &o);
	return gx_text_finish(&o.t, len, NULL, "OBJ");
}
