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
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_format.h"
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
	unsigned char *bin;
	size_t		bin_len,
				bin_cap;
	uint32_t   *slots;			/* hash table of the current mesh's vertices: index + 1, 0 free */
	size_t		slots_cap;
	size_t		mask;
	/* the mesh being filled */
	GlbMesh    *mesh;
	uint32_t   *next[PRIMS];	/* where each primitive's next index goes */
	float	   *verts;
	GxError    *err;
} Glb;

/* The counts of one item, from a first walk. */
typedef struct GlbCounts
{
	size_t		indices[PRIMS];
	size_t		points;			/* input vertices: at most that many distinct */
} GlbCounts;

static bool
count_leaf(void *ctx, const GxNode *leaf)
{
	GlbCounts  *c = ctx;
	size_t		n = leaf->count;

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
			c->points += 3 * n;
			break;
	}
	return true;
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
fill_leaf(void *ctx, const GxNode *leaf)
{
	Glb		   *b = ctx;
	const double *c = gx_node_coords(leaf);
	size_t		i;
	size_t		nv = leaf->type == GX_POINT || leaf->type == GX_LINESTRING ? leaf->count : 3 * (size_t) leaf->count;
	int			prim = leaf->type == GX_POINT ? PRIM_POINTS : leaf->type == GX_LINESTRING ? PRIM_LINES : PRIM_TRIANGLES;
	uint32_t	index;

	for (i = 0; i < nv; i++)
	{
		if (!vertex_index(b, c + 3 * i, &index))
			return false;
		/* a segment ends where the next one starts */
		if (prim == PRIM_LINES && i > 0 && i < nv - 1)
			*b->next[prim]++ = index;
		*b->next[prim]++ = index;
	}
	return true;
}

/*
 * Adds the item's mesh to BIN when it has coordinates (m->indices all 0 otherwise); false with err set on
 * failure.
 */
static bool
add_mesh(Glb *b, const GxSerialized *g, GlbMesh *m)
{
	GlbCounts	c;
	size_t		total;
	size_t		size;
	int			p;

	memset(&c, 0, sizeof(c));
	gx_node_walk(gx_body(g), count_leaf, &c);
	memcpy(m->indices, c.indices, sizeof(m->indices));
	total = c.indices[PRIM_TRIANGLES] + c.indices[PRIM_LINES] + c.indices[PRIM_POINTS];
	if (total == 0)
		return true;
	if (total > (GX_MAX_SIZE - b->bin_len) / 4)
	{
		gx_error_set(b->err, GX_ERR_LIMIT, "glTF binary data of item %zu goes past the limit of %zu bytes",
					 m->item + 1, (size_t) GX_MAX_SIZE);
		return false;
	}
	for (size = 16; size < 2 * c.points; size *= 2)
		;
	if (!gx_grow((void **) &b->bin, &b->bin_cap, b->bin_len + 4 * total + 12 * c.points, 1, (size_t) -1) ||
		!gx_grow((void **) &b->slots, &b->slots_cap, size, sizeof(uint32_t), (size_t) -1))
	{
		gx_error_set(b->err, GX_ERR_NOMEM, "out of memory writing glTF");
		return false;
	}
	memset(b->slots, 0, size * sizeof(uint32_t));
	b->mask = size - 1;
	b->mesh = m;
	m->offset = b->bin_len;
	b->next[0] = (uint32_t *) (b->bin + m->offset);
	for (p = 1; p < PRIMS; p++)
		b->next[p] = b->next[p - 1] + m->indices[p - 1];
	b->verts = (float *) (b->bin + m->offset + 4 * total);
	if (gx_node_walk(gx_body(g), fill_leaf, b) == NULL)
		return false;
	b->bin_len += 4 * total + 12 * m->vertices;
	if (b->bin_len > GX_MAX_SIZE)
	{
		gx_error_set(b->err, GX_ERR_LIMIT, "glTF binary data of item %zu goes past the limit of %zu bytes",
					 m->item + 1, (size_t) GX_MAX_SIZE);
		return false;
	}
	return true;
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

/* The .glb file: header, the JSON chunk padded with spaces, and BIN when there is any. */
static unsigned char *
assemble(const Glb *b, const char *json, size_t json_len, size_t *len, GxError *err)
{
	size_t		json_chunk = (json_len + 3) & ~(size_t) 3;
	size_t		total = GLB_HEADER + GLB_CHUNK_HEADER + json_chunk + (b->bin_len > 0 ? GLB_CHUNK_HEADER + b->bin_len : 0);
	unsigned char *out;
	unsigned char *at;

	if (total > GX_MAX_SIZE)
	{
		gx_error_set(err, GX_ERR_LIMIT, "glTF file of %zu bytes is longer than the limit of %zu bytes", total,
					 (size_t) GX_MAX_SIZE);
		return NULL;
	}
	out = gx_alloc(total);
	if (out == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory writing glTF");
		return NULL;
	}
	gx_io_put_le32(out, GLB_MAGIC);
	gx_io_put_le32(out + 4, GLB_VERSION);
	gx_io_put_le32(out + 8, (uint32_t) total);
	gx_io_put_le32(out + 12, (uint32_t) json_chunk);
	gx_io_put_le32(out + 16, CHUNK_JSON);
	at = out + GLB_HEADER + GLB_CHUNK_HEADER;
	memcpy(at, json, json_len);
	memset(at + json_len, ' ', json_chunk - json_len);
	at += json_chunk;
	if (b->bin_len > 0)
	{
		gx_io_put_le32(at, (uint32_t) b->bin_len);
		gx_io_put_le32(at + 4, CHUNK_BIN);
		memcpy(at + GLB_CHUNK_HEADER, b->bin, b->bin_len);
		bin_to_little_endian(at + GLB_CHUNK_HEADER, b->bin_len);
	}
	*len = total;
	return out;
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
	GxBox3D		u;
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

unsigned char *
gx_to_glb(const GxGlbItem *items, size_t n, size_t *len, GxError *err)
{
	Glb			b;
	GlbMesh    *meshes;
	size_t		nmeshes = 0;
	char	   *json = NULL;
	size_t		json_len;
	unsigned char *out = NULL;
	size_t		i;

	err->code = GX_OK;
	err->msg[0] = '\0';
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
	for (i = 0; i < n; i++)
	{
		memset(&meshes[nmeshes], 0, sizeof(GlbMesh));
		meshes[nmeshes].item = i;
		if (!add_mesh(&b, items[i].geom, &meshes[nmeshes]))
			break;
		if (meshes[nmeshes].vertices > 0)
			nmeshes++;
	}
	if (i == n)
		json = scene_json(&b, items, meshes, nmeshes, &json_len);
	if (json != NULL)
		out = assemble(&b, json, json_len, len, err);
	gx_free(json);
	gx_free(meshes);
	gx_free(b.slots);
	gx_free(b.bin);
	return out;
}
