/*
 * gx_pack.h: the packed storage form of triangle surfaces (issue 8, "fewer bytes").
 *
 * In a closed mesh each vertex is shared by about six triangles, so the model's 9 doubles per triangle
 * (gx_geom.h) carry every vertex six times. A packed value stores each TIN and POLYHEDRALSURFACE leaf as its
 * distinct vertices (the same 24 bytes: coordinates unchanged bit for bit) and 3 indices per triangle:
 *
 *   GxNode {type, count = triangles}, then {uint32 vertices, uint32 0}, then 3*vertices doubles,
 *   then 3*count uint32 indices (first appearance order), padded with zeros to 8 bytes
 *
 * A packed value has GX_FLAG_PACKED in its header; its header, box and node headers are those of the
 * unpacked value, so a reader of the header alone needs no unpacking. Every other node is as in gx_geom.h.
 * Packing is a pure function of the unpacked bytes, so equal values stay equal byte for byte.
 *
 * Packed values are a storage form: the core's readers take unpacked values, except the batch sides
 * (gx_batch_side.h), which unpack surfaces straight into their arrays; the PostgreSQL layer unpacks a
 * stored value as it reads it, or checks it for a batch side.
 */
#ifndef GX_PACK_H
#define GX_PACK_H

#include "geom/gx_geom.h"

/* Smallest value worth packing: values below it are not TOASTed and would only pay the unpacking. */
#define GX_PACK_MIN_BYTES	2048

/*
 * The packed form of g (size bytes, unpacked, trusted), allocated with gx_alloc, when it is at most 3/4 of
 * size; NULL when packing does not pay (or g is already packed). *packed_size is set on success. Out of
 * memory: NULL with err set (GX_ERR_NOMEM); otherwise err is untouched.
 */
GxSerialized *gx_pack(const GxSerialized *g, size_t size, size_t *packed_size, GxError *err);

/*
 * Unpacking in two steps, for callers that allocate themselves (threads): the unpacked size of the packed
 * value p (size bytes), then the unpacked value written into out (that many bytes). Every count and index
 * is checked against size, so a corrupt value gives false with err set (GX_ERR_PARSE), never a stray read;
 * a value gx_unpacked_size accepts can be walked (gx_packed_walk) without further checks.
 */
bool		gx_unpacked_size(const GxSerialized *p, size_t size, size_t *unpacked_size, GxError *err);
bool		gx_unpack_into(const GxSerialized *p, size_t size, GxSerialized *out, GxError *err);

/* Both steps, the result allocated with gx_alloc (NULL on error, err set). */
GxSerialized *gx_unpack(const GxSerialized *p, size_t size, size_t *unpacked_size, GxError *err);

/* A surface leaf of a packed value: each triangle's three corners as indices into its distinct vertices. */
typedef struct GxPackedSurface
{
	const double *vertices;		/* 3 doubles each */
	const uint32_t *index;		/* 3 per triangle (the leaf's count) */
} GxPackedSurface;

/*
 * Calls visit(ctx, leaf, surface) for every leaf of the packed value p (accepted by gx_unpacked_size), in
 * order, as gx_node_walk does for an unpacked value: surface NULL for a leaf whose coordinates follow its
 * header (as unpacked), else where a surface's triangles are. false as soon as a visit returns false.
 */
typedef bool (*GxPackedVisitor) (void *ctx, const GxNode *leaf, const GxPackedSurface *surface);
bool		gx_packed_walk(const GxSerialized *p, GxPackedVisitor visit, void *ctx);

#endif
