/*
 * gx_glb_write.c: writes geometries as one binary glTF 2.0 scene (.glb), for viewers: each geometry a mesh of
 * its triangles, segments and points over its distinct vertices.
 *
 * glTF positions are float32, while mining coordinates are UTM (x = 500000, y = 7000000, where a float's
 * step is 0.03 to 0.5 m). So the positions are float32 offsets from one origin for the whole scene, the
 * centre of the items' boxes, and the origin itself, in doubles, goes into the root node. glTF is Y-up
 * where the geometries are Z-up: the root node also turns the scene by -90 degrees about X, R(x, y, z) =
 * (x, z, -y). A node's transform is T * R (rotation first), so a child vertex at offset p lands at
 * T + R p; it belongs at R (origin + p), hence T = R origin = (ox, oz, -oy).
 *
 * The BIN chunk holds, per mesh, its indices (uint32: triangles, then segments, then points) and then its
 * positions (3 float32 each), every element 4 bytes, so every offset is 4-byte aligned and the chunk needs no
 * padding. Items of the same colour share a material.
 *
 * The file is made in one allocation of exactly its size: a first walk counts each item's indices (the least
 * size, for failing before any work), a second finds each item's distinct vertices (the exact size of BIN,
 * then the JSON), and a third, after the allocation, writes indices and positions in place. Items may be
 * packed (gx_pack.h): a packed surface's corners are read through its indices.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_format.h"
#include "geom/gx_pack.h"
#include "io/gx_io.h"
#include "io/gx_io_internal.h"
#include "io/gx_text_out.h"

#define GLB_MAGIC			0x46546C67u	/* "glTF" */
#define GLB_VERSION			2
#define GLB_HEADER			12
#define GLB_CHUNK_HEADER	8
#define CHUNK_JSON			0x4E4F534Au
#define CHUNK_BIN			0x004E4942u
#define MODE_POINTS			0
#define MODE_LINES			1
#define MODE_TRIANGLES		4
#define ROTATION_Z_UP_TO_Y_UP	"[-0.7071067811865476,0,0,0.7071067811865476]"

enum
{
	PRIM_TRIANGLES, PRIM_LINES, PRIM_POINTS, PRIMS
};

static const int prim_mode[PRIMS] = {MODE_TRIANGLES, MODE_LINES, MODE_POINTS};

/* Light grey, for items without a colour; 0.75 is exact in float and short in JSON. */
static const float default_colour[4] = {0.75f, 0.75f, 0.75f, 1.0f};

/* One item with coordinates, as a mesh. */
typedef struct GlbMesh
{
	size_t		item;
	size_t		indices[PRIMS]; /* index count of each primitive (0: none) */
	size_t		points;			/* at most that many distinct vertices */
	size_t		vertices;		/* distinct float32 positions */
	size_t		offset;			/* of its indices in BIN; its positions follow them */
	float		min[3],
				max[3];
	size_t		material;
} GlbMesh;

/* A coloured mesh's colour, sorted to number the materials. */
typedef struct GlbColour
{
	float		rgba[4];
	size_t		mesh;
} GlbColour;

typedef struct Glb
{
	double		origin[3];
	size_t		bin_len;		/* of the BIN chunk's data */
	uint32_t   *slots;			/* hash table of the current mesh's vertices: index + 1, 0 free */
	size_t		slots_cap;
	size_t		mask;
	/* the mesh being filled */
	GlbMesh    *mesh;
	uint32_t   *next[PRIMS];	/* where each primitive's next index goes; NULL: indices not written */
	float	   *verts;			/* its distinct positions */
	GxError    *err;
} Glb;

/* The counts of one item, from a first walk. */
typedef struct GlbCounts
{
	size_t		indices[PRIMS];
	size_t		points;			/* input vertices (of a packed surface, its distinct ones): at most that many distinct */
} GlbCounts;

static bool
count_leaf(void *ctx, const GxNode *leaf, const GxPackedSurface *surface)
{
	GlbCounts  *c = ctx;
	size_t		n = leaf->count;
	uint32_t	last = 0;

	switch (leaf->type)
	{
		case GX_POINT:
			c->indices[PRIM_POINTS] += n;
			c->points += n;
			break;
		case GX_LINESTRING:
			c->indices[PRIM_LINES] += n == 0 ? 0 : 2 * (n - 1);
			c->points += n;
			break;
		default:
			/* TRIANGLE, TIN, POLYHEDRALSURFACE: n triangles */
			c->indices[PRIM_TRIANGLES] += 3 * n;
			if (surface == NULL)
				c->points += 3 * n;
			else if (n > 0)
			{
				/* indices number the vertices in first appearance order */
				for (size_t i = 0; i < 3 * n; i++)
					last = surface->index[i] > last ? surface->index[i] : last;
				c->points += (size_t) last + 1;
			}
			break;
	}
	return true;
}

/* gx_node_walk's visitor calling a GxPackedVisitor, for unpacked items. */
typedef struct GlbWalk
{
	GxPackedVisitor visit;
	void	   *ctx;
} GlbWalk;

static bool
unpacked_leaf(void *ctx, const GxNode *leaf)
{
	GlbWalk    *w = ctx;

	return w->visit(w->ctx, leaf, NULL);
}

/* Visits the leaves of g, packed or not; false as soon as a visit does. */
static bool
walk_item(const GxSerialized *g, GxPackedVisitor visit, void *ctx)
{
	GlbWalk		w = {visit, ctx};

	if (g->flags & GX_FLAG_PACKED)
		return gx_packed_walk(g, visit, ctx);
	return gx_node_walk(gx_body(g), unpacked_leaf, &w) != NULL;
}

static size_t
count_indices(const GlbCounts *c)
{
	return c->indices[PRIM_TRIANGLES] + c->indices[PRIM_LINES] + c->indices[PRIM_POINTS];
}

/* The least an item of these counts adds to BIN: 4 bytes an index and one vertex (none without an index). */
static size_t
least_bytes(const GlbCounts *c)
{
	return count_indices(c) == 0 ? 0 : 4 * count_indices(c) + 12;
}

size_t
gx_glb_least_bytes(const GxSerialized *g)
{
	GlbCounts	c;

	memset(&c, 0, sizeof(c));
	walk_item(g, count_leaf, &c);
	return least_bytes(&c);
}

static uint32_t
hash_floats(const float v[3])
{
	uint32_t	b[3];
	uint32_t	h;

	memcpy(b, v, sizeof(b));
	h = b[0] * 0x9E3779B1u ^ b[1] * 0x85EBCA77u ^ b[2] * 0xC2B2AE3Du;
	h ^= h >> 15;
	h *= 0x2C1B3C6Du;
	h ^= h >> 12;
	return h;
}

/*
 * The index of the vertex at p (doubles) in the current mesh: its float32 offset from the origin, added
 * when new. False with GX_ERR_RANGE when an offset is beyond float range.
 */
static bool
vertex_index(Glb *b, const double *p, uint32_t *index)
{
	GlbMesh    *m = b->mesh;
	float		v[3];
	size_t		h;
	char		num[32];
	int			k;

	for (k = 0; k < 3; k++)
	{
		v[k] = (float) (p[k] - b->origin[k]);
		if (isinf(v[k]))
		{
			gx_format_double(p[k], num);
			gx_error_set(b->err, GX_ERR_RANGE, "glTF positions are float32 offsets from the scene's centre: "
						 "coordinate %s of item %zu is beyond their range", num, m->item + 1);
			return false;
		}
	}
	for (h = hash_floats(v) & b->mask; b->slots[h] != 0; h = (h + 1) & b->mask)
		if (memcmp(b->verts + 3 * (size_t) (b->slots[h] - 1), v, sizeof(v)) == 0)
		{
			*index = b->slots[h] - 1;
			return true;
		}
	*index = (uint32_t) m->vertices++;
	b->slots[h] = *index + 1;
	memcpy(b->verts + 3 * (size_t) *index, v, sizeof(v));
	for (k = 0; k < 3; k++)
	{
		m->min[k] = *index == 0 || v[k] < m->min[k] ? v[k] : m->min[k];
		m->max[k] = *index == 0 || v[k] > m->max[k] ? v[k] : m->max[k];
	}
	return true;
}

/* Adds a leaf's triangles, segments (each linestring's consecutive points as pairs) or point. */
static bool
fill_leaf(void *ctx, const GxNode *leaf, const GxPackedSurface *surface)
{
	Glb		   *b = ctx;
	const double *c = surface ? surface->vertices : gx_node_coords(leaf);
	size_t		i;
	size_t		nv = leaf->type == GX_POINT || leaf->type == GX_LINESTRING ? leaf->count : 3 * (size_t) leaf->count;
	int			prim = leaf->type == GX_POINT ? PRIM_POINTS : leaf->type == GX_LINESTRING ? PRIM_LINES : PRIM_TRIANGLES;
	uint32_t	index;

	for (i = 0; i < nv; i++)
	{
		if (!vertex_index(b, c + 3 * (size_t) (surface ? surface->index[i] : i), &index))
			return false;
		if (b->next[prim] == NULL)
			continue;
		/* a segment ends where the next one starts */
		if (prim == PRIM_LINES && i > 0 && i < nv - 1)
			*b->next[prim]++ = index;
		*b->next[prim]++ = index;
	}
	return true;
}

/*
 * Walks item g for its mesh m (m->indices counted, m->points its bound on distinct vertices): numbers its
 * distinct vertices into verts (room for m->points), setting m->vertices, min and max, and, when indices is
 * not NULL, writes its indices there (triangles, segments, points). False with err set on failure.
 */
static bool
walk_mesh(Glb *b, const GxSerialized *g, GlbMesh *m, size_t points, float *verts, uint32_t *indices)
{
	size_t		size;
	int			p;

	for (size = 16; size < 2 * points; size *= 2)
		;
	if (!gx_grow((void **) &b->slots, &b->slots_cap, size, sizeof(uint32_t), (size_t) -1))
	{
		gx_error_set(b->err, GX_ERR_NOMEM, "out of memory writing glTF");
		return false;
	}
	memset(b->slots, 0, size * sizeof(uint32_t));
	b->mask = size - 1;
	b->mesh = m;
	m->vertices = 0;
	b->verts = verts;
	b->next[0] = indices;
	for (p = 1; p < PRIMS; p++)
		b->next[p] = indices == NULL ? NULL : b->next[p - 1] + m->indices[p - 1];
	return walk_item(g, fill_leaf, b);
}

static int
compare_colours(const void *a, const void *b)
{
	return memcmp(((const GlbColour *) a)->rgba, ((const GlbColour *) b)->rgba, sizeof(float[4]));
}

static void
put_floats(GxTextOut *t, const float *v, int n)
{
	int			k;

	for (k = 0; k < n; k++)
	{
		gx_text_put(t, k == 0 ? "[" : ",", 1);
		gx_text_put_double(t, v[k]);
	}
	gx_text_put(t, "]", 1);
}

static void
put_material(GxTextOut *t, const float rgba[4], bool first)
{
	if (!first)
		gx_text_put(t, ",", 1);
	gx_text_put_str(t, "{\"pbrMetallicRoughness\":{\"baseColorFactor\":");
	put_floats(t, rgba, 4);
	gx_text_put_str(t, ",\"metallicFactor\":0,\"roughnessFactor\":1},\"doubleSided\":true");
	if (rgba[3] < 1)
		gx_text_put_str(t, ",\"alphaMode\":\"BLEND\"");
	gx_text_put(t, "}", 1);
}

/*
 * Numbers the materials of the meshes (the default one first, when used, then each colour in sorted order)
 * and writes their "materials" member; false when memory runs out.
 */
static bool
put_materials(GxTextOut *t, const GxGlbItem *items, GlbMesh *meshes, size_t nmeshes)
{
	GlbColour  *colours = gx_alloc(sizeof(GlbColour) * nmeshes);
	size_t		ncolours = 0;
	size_t		materials;
	size_t		i;

	if (colours == NULL)
		return false;
	for (i = 0; i < nmeshes; i++)
		if (items[meshes[i].item].has_colour)
		{
			memcpy(colours[ncolours].rgba, items[meshes[i].item].rgba, sizeof(float[4]));
			colours[ncolours++].mesh = i;
		}
	gx_text_put_str(t, ",\"materials\":[");
	materials = ncolours < nmeshes ? 1 : 0;
	if (materials == 1)
		put_material(t, default_colour, true);
	for (i = 0; i < nmeshes; i++)
		meshes[i].material = 0;
	qsort(colours, ncolours, sizeof(GlbColour), compare_colours);
	for (i = 0; i < ncolours; i++)
	{
		if (i == 0 || compare_colours(&colours[i - 1], &colours[i]) != 0)
			put_material(t, colours[i].rgba, materials++ == 0);
		meshes[colours[i].mesh].material = materials - 1;
	}
	gx_text_put(t, "]", 1);
	gx_free(colours);
	return true;
}

/* The JSON chunk's text of a scene of meshes (none: one empty node). */
static char *
scene_json(const Glb *b, const GxGlbItem *items, GlbMesh *meshes, size_t nmeshes, size_t *len)
{
	GxTextOut	t = {.max = GX_MAX_SIZE};
	double		translation[3] = {b->origin[0], b->origin[2], 0 - b->origin[1]};	/* 0 - y: no "-0" */
	size_t		accessor = 0;
	size_t		i;
	int			p,
				k;

	gx_text_put_str(&t, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"gpuexact\"},\"scene\":0,"
					"\"scenes\":[{\"nodes\":[0]}],\"nodes\":[");
	if (nmeshes == 0)
	{
		gx_text_put_str(&t, "{}]}");
		return gx_text_finish(&t, len, b->err, "the glTF JSON");
	}
	gx_text_put_str(&t, "{\"rotation\":" ROTATION_Z_UP_TO_Y_UP ",\"translation\":");
	for (k = 0; k < 3; k++)
	{
		gx_text_put(&t, k == 0 ? "[" : ",", 1);
		gx_text_put_double(&t, translation[k]);
	}
	gx_text_put_str(&t, "],\"children\":[");
	for (i = 0; i < nmeshes; i++)
		gx_text_printf(&t, i == 0 ? "%zu" : ",%zu", i + 1);
	gx_text_put_str(&t, "]}");
	for (i = 0; i < nmeshes; i++)
		gx_text_printf(&t, ",{\"mesh\":%zu}", i);

	gx_text_put(&t, "]", 1);
	/* numbers the meshes' materials, written before the meshes that refer to them */
	if (!put_materials(&t, items, meshes, nmeshes))
		t.failed = GX_TEXT_NO_MEMORY;

	/* each mesh: its POSITION accessor, then one index accessor per primitive, in PRIM order */
	gx_text_put_str(&t, ",\"meshes\":[");
	for (i = 0; i < nmeshes; i++)
	{
		size_t		position = accessor++;
		bool		first = true;

		gx_text_put_str(&t, i == 0 ? "{\"primitives\":[" : ",{\"primitives\":[");
		for (p = 0; p < PRIMS; p++)
			if (meshes[i].indices[p] > 0)
			{
				gx_text_printf(&t, "%s{\"attributes\":{\"POSITION\":%zu},\"indices\":%zu,\"mode\":%d,\"material\":%zu}",
							   first ? "" : ",", position, accessor++, prim_mode[p], meshes[i].material);
				first = false;
			}
		gx_text_put_str(&t, "]}");
	}
	gx_text_put(&t, "]", 1);

	/* bufferViews 2i (indices) and 2i + 1 (positions) are mesh i's */
	gx_text_put_str(&t, ",\"accessors\":[");
	for (i = 0; i < nmeshes; i++)
	{
		size_t		at = 0;

		gx_text_printf(&t, "%s{\"bufferView\":%zu,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\",\"min\":",
					   i == 0 ? "" : ",", 2 * i + 1, meshes[i].vertices);
		put_floats(&t, meshes[i].min, 3);
		gx_text_put_str(&t, ",\"max\":");
		put_floats(&t, meshes[i].max, 3);
		gx_text_put(&t, "}", 1);
		for (p = 0; p < PRIMS; p++)
			if (meshes[i].indices[p] > 0)
			{
				gx_text_printf(&t, ",{\"bufferView\":%zu,\"byteOffset\":%zu,\"componentType\":5125,\"count\":%zu,"
							   "\"type\":\"SCALAR\"}", 2 * i, 4 * at, meshes[i].indices[p]);
				at += meshes[i].indices[p];
			}
	}
	gx_text_put_str(&t, "],\"bufferViews\":[");
	for (i = 0; i < nmeshes; i++)
	{
		size_t		indices = meshes[i].indices[0] + meshes[i].indices[1] + meshes[i].indices[2];

		gx_text_printf(&t, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu,\"target\":34963},"
					   "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu,\"target\":34962}",
					   i == 0 ? "" : ",", meshes[i].offset, 4 * indices, meshes[i].offset + 4 * indices,
					   12 * meshes[i].vertices);
	}
	gx_text_printf(&t, "],\"buffers\":[{\"byteLength\":%zu}]}", b->bin_len);
	return gx_text_finish(&t, len, b->err, "the glTF JSON");
}

/* glTF's binary data is little-endian: on a big-endian machine every 4-byte element of BIN is swapped. */
static void
bin_to_little_endian(unsigned char *bin, size_t len)
{
	const uint32_t one = 1;
	unsigned char first;
	uint32_t	v;
	size_t		i;

	memcpy(&first, &one, 1);
	if (first == 1)
		return;
	for (i = 0; i < len; i += 4)
	{
		memcpy(&v, bin + i, 4);
		gx_io_put_le32(bin + i, v);
	}
}

/* The size of the .glb file of a BIN of bin_len bytes and a JSON text of json_len bytes. */
static size_t
file_size(size_t json_len, size_t bin_len)
{
	return GLB_HEADER + GLB_CHUNK_HEADER + ((json_len + 3) & ~(size_t) 3) + (bin_len > 0 ? GLB_CHUNK_HEADER + bin_len : 0);
}

static void
too_large(GxError *err, const char *what, size_t size, size_t limit)
{
	gx_error_set(err, GX_ERR_LIMIT, "the glTF file would be %s%zu bytes, more than the limit of %zu bytes", what,
				 size, limit);
}

/*
 * Writes the .glb file at out (file_size bytes): header, the JSON chunk padded with spaces, and BIN when
 * there is any, each mesh's indices and positions walked a third time straight into their place.
 */
static bool
write_file(Glb *b, const GxGlbItem *items, GlbMesh *meshes, size_t nmeshes, const char *json, size_t json_len,
		   unsigned char *out)
{
	size_t		json_chunk = (json_len + 3) & ~(size_t) 3;
	unsigned char *at;
	unsigned char *bin;
	size_t		i;

	gx_io_put_le32(out, GLB_MAGIC);
	gx_io_put_le32(out + 4, GLB_VERSION);
	gx_io_put_le32(out + 8, (uint32_t) file_size(json_len, b->bin_len));
	gx_io_put_le32(out + 12, (uint32_t) json_chunk);
	gx_io_put_le32(out + 16, CHUNK_JSON);
	at = out + GLB_HEADER + GLB_CHUNK_HEADER;
	memcpy(at, json, json_len);
	memset(at + json_len, ' ', json_chunk - json_len);
	if (b->bin_len == 0)
		return true;
	at += json_chunk;
	gx_io_put_le32(at, (uint32_t) b->bin_len);
	gx_io_put_le32(at + 4, CHUNK_BIN);
	bin = at + GLB_CHUNK_HEADER;
	for (i = 0; i < nmeshes; i++)
	{
		GlbMesh    *m = &meshes[i];
		size_t		indices = m->indices[0] + m->indices[1] + m->indices[2];

		if (!walk_mesh(b, items[m->item].geom, m, m->points, (float *) (bin + m->offset + 4 * indices),
					   (uint32_t *) (bin + m->offset)))
			return false;
	}
	bin_to_little_endian(bin, b->bin_len);
	return true;
}

/* Checks the colours; false with GX_ERR_ARG naming the first component outside [0, 1]. */
static bool
colours_valid(const GxGlbItem *items, size_t n, GxError *err)
{
	char		num[32];
	size_t		i;
	int			k;

	for (i = 0; i < n; i++)
		for (k = 0; items[i].has_colour && k < 4; k++)
			if (!(items[i].rgba[k] >= 0 && items[i].rgba[k] <= 1))
			{
				gx_format_double(items[i].rgba[k], num);
				gx_error_set(err, GX_ERR_ARG, "glTF colour of item %zu: component %d is %s, outside [0, 1]", i + 1,
							 k + 1, num);
				return false;
			}
	return true;
}

/* The centre of the boxes of the items that have coordinates; 0 0 0 when none has. */
static void
scene_origin(const GxGlbItem *items, size_t n, double origin[3])
{
	GxBox3D		u = {0, 0, 0, 0, 0, 0};
	bool		any = false;
	size_t		i;

	for (i = 0; i < n; i++)
	{
		const GxBox3D *bx = &items[i].geom->box;

		if (items[i].geom->flags & GX_FLAG_EMPTY)
			continue;
		if (!any)
			u = *bx;
		u.xmin = fmin(u.xmin, bx->xmin);
		u.ymin = fmin(u.ymin, bx->ymin);
		u.zmin = fmin(u.zmin, bx->zmin);
		u.xmax = fmax(u.xmax, bx->xmax);
		u.ymax = fmax(u.ymax, bx->ymax);
		u.zmax = fmax(u.zmax, bx->zmax);
		any = true;
	}
	/* halves first: the sum of two large coordinates could overflow */
	origin[0] = any ? u.xmin * 0.5 + u.xmax * 0.5 : 0;
	origin[1] = any ? u.ymin * 0.5 + u.ymax * 0.5 : 0;
	origin[2] = any ? u.zmin * 0.5 + u.zmax * 0.5 : 0;
}

/*
 * The second walk: each mesh's distinct vertices (numbered in a scratch array with room for the largest
 * bound, points) and so its place in BIN, whose length is b->bin_len; false with err set on failure, or when
 * BIN alone passes limit.
 */
static bool
lay_out_bin(Glb *b, const GxGlbItem *items, GlbMesh *meshes, size_t nmeshes, size_t points, size_t limit)
{
	float	   *verts = gx_alloc_try(sizeof(float[3]) * (points > 0 ? points : 1));
	size_t		i;

	if (verts == NULL)
	{
		gx_error_set(b->err, GX_ERR_NOMEM, "out of memory writing glTF");
		return false;
	}
	for (i = 0; i < nmeshes; i++)
	{
		GlbMesh    *m = &meshes[i];

		if (!walk_mesh(b, items[m->item].geom, m, m->points, verts, NULL))
			break;
		m->offset = b->bin_len;
		b->bin_len += 4 * (m->indices[0] + m->indices[1] + m->indices[2]) + 12 * m->vertices;
		if (b->bin_len > limit)
		{
			too_large(b->err, "at least ", b->bin_len, limit);
			break;
		}
	}
	gx_free(verts);
	return i == nmeshes;
}

unsigned char *
gx_to_glb(const GxGlbItem *items, size_t n, size_t limit, size_t room, size_t *len, GxError *err)
{
	Glb			b;
	GlbMesh    *meshes;
	size_t		nmeshes = 0;
	size_t		least = file_size(0, 0) + GLB_CHUNK_HEADER;
	size_t		points = 0;
	char	   *json = NULL;
	size_t		json_len = 0;
	size_t		size = 0;
	unsigned char *out = NULL;
	size_t		i;

	err->code = GX_OK;
	err->msg[0] = '\0';
	limit = limit < GX_MAX_SIZE ? limit : GX_MAX_SIZE;
	if (!colours_valid(items, n, err))
		return NULL;
	memset(&b, 0, sizeof(b));
	b.err = err;
	scene_origin(items, n, b.origin);
	meshes = gx_alloc(sizeof(GlbMesh) * (n > 0 ? n : 1));
	if (meshes == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory writing glTF");
		return NULL;
	}

	/* the first walk: the meshes, their indices and bounds on vertices; the least size, 4 bytes an index */
	for (i = 0; i < n; i++)
	{
		GlbCounts	c;

		memset(&c, 0, sizeof(c));
		walk_item(items[i].geom, count_leaf, &c);
		if (count_indices(&c) == 0)
			continue;
		memset(&meshes[nmeshes], 0, sizeof(GlbMesh));
		meshes[nmeshes].item = i;
		memcpy(meshes[nmeshes].indices, c.indices, sizeof(c.indices));
		meshes[nmeshes++].points = c.points;
		points = c.points > points ? c.points : points;
		least += least_bytes(&c);
	}
	if (least > limit)
		too_large(err, "at least ", least, limit);
	else if (lay_out_bin(&b, items, meshes, nmeshes, points, limit))
		json = scene_json(&b, items, meshes, nmeshes, &json_len);
	if (json != NULL)
		size = file_size(json_len, b.bin_len);
	if (json != NULL && size > limit)
		too_large(err, "", size, limit);
	else if (json != NULL && (out = gx_alloc_try(room + size)) == NULL)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory writing a glTF file of %zu bytes", size);
	else if (out != NULL && write_file(&b, items, meshes, nmeshes, json, json_len, out + room))
		*len = size;
	else if (out != NULL)
	{
		gx_free(out);
		out = NULL;
	}
	gx_free(json);
	gx_free(meshes);
	gx_free(b.slots);
	return out;
}
