/*
 * gx_pack.c: packing triangle surfaces into distinct vertices and indices, and unpacking them (gx_pack.h).
 * Vertices are told apart by their 24 bytes, so the coordinates come back bit for bit.
 */
#include <string.h>

#include "base/gx_alloc.h"
#include "geom/gx_pack.h"

static bool
is_surface(uint32_t type)
{
	return type == GX_TIN || type == GX_POLYHEDRALSURFACE;
}

/* Bytes of the indices of count triangles, padded to 8. */
static size_t
index_bytes(size_t count)
{
	return (12 * count + 7) & ~(size_t) 7;
}

/* ---- packing ---------------------------------------------------------------------------------------- */

typedef struct Packer
{
	unsigned char *out;
	size_t		len;
	size_t		limit;			/* packing stops paying past this many bytes */
	uint32_t   *slot;			/* open-addressing table of vertex ids + 1 (0 = free) */
	size_t		nslots;
	uint32_t   *index;			/* the current leaf's indices */
	size_t		nindex;
	GxError    *err;
	bool		failed;			/* out of memory (err set) or over the limit */
} Packer;

static bool
put(Packer *pk, const void *src, size_t n)
{
	if (pk->failed || pk->len + n > pk->limit)
	{
		pk->failed = true;
		return false;
	}
	if (n > 0)
		memcpy(pk->out + pk->len, src, n);
	pk->len += n;
	return true;
}

static size_t
vertex_hash(const double *v, size_t mask)
{
	uint64_t	w[3];

	memcpy(w, v, sizeof(w));
	return (size_t) (((w[0] * 0x9E3779B97F4A7C15ULL) ^ (w[1] * 0xC2B2AE3D27D4EB4FULL) ^
					  (w[2] * 0x165667B19E3779F9ULL)) >> 17) & mask;
}

/*
 * Makes room for a leaf of count triangles in the table (cleared; *mask set to its used size - 1) and the
 * index array; false when out of memory.
 */
static bool
leaf_room(Packer *pk, size_t count, size_t *mask)
{
	size_t		want = 16;

	while (want < 6 * count)
		want *= 2;
	if (want > pk->nslots)
	{
		gx_free(pk->slot);
		pk->nslots = 0;
		if ((pk->slot = gx_alloc(want * sizeof(uint32_t))) == NULL)
			return false;
		pk->nslots = want;
	}
	if (3 * count > pk->nindex)
	{
		gx_free(pk->index);
		pk->nindex = 0;
		if ((pk->index = gx_alloc(3 * count * sizeof(uint32_t))) == NULL)
			return false;
		pk->nindex = 3 * count;
	}
	memset(pk->slot, 0, want * sizeof(uint32_t));
	*mask = want - 1;
	return true;
}

/* Writes a TIN or POLYHEDRALSURFACE leaf packed: its vertices as first met, then its indices. */
static void
pack_surface(Packer *pk, const GxNode *n)
{
	const double *c = gx_node_coords(n);
	size_t		count = n->count,
				mask,
				at,
				i;
	uint32_t	nverts = 0,
				zero = 0;

	if (!leaf_room(pk, count, &mask))
	{
		gx_error_set(pk->err, GX_ERR_NOMEM, "out of memory packing %zu triangles", count);
		pk->failed = true;
		return;
	}
	put(pk, n, sizeof(GxNode));
	at = pk->len;
	put(pk, &nverts, sizeof(nverts));
	put(pk, &zero, sizeof(zero));
	for (i = 0; i < 3 * count && !pk->failed; i++)
	{
		const double *v = c + 3 * i;
		size_t		h = vertex_hash(v, mask);
		const double *verts = (const double *) (pk->out + at + 8);

		while (pk->slot[h] != 0 && memcmp(verts + 3 * (size_t) (pk->slot[h] - 1), v, 24) != 0)
			h = (h + 1) & mask;
		if (pk->slot[h] == 0 && put(pk, v, 24))
			pk->slot[h] = ++nverts;
		pk->index[i] = pk->slot[h] - 1;
	}
	if (pk->failed)
		return;
	memcpy(pk->out + at, &nverts, sizeof(nverts));
	put(pk, pk->index, 12 * count);
	put(pk, "\0\0\0\0", index_bytes(count) - 12 * count);
}

/* Copies or packs the subtree at n; returns the node after it. */
static const GxNode *
pack_node(Packer *pk, const GxNode *n)
{
	long		nd = gx_leaf_doubles(n->type, n->count);
	const GxNode *child;
	uint32_t	i;

	if (is_surface(n->type))
	{
		pack_surface(pk, n);
		return (const GxNode *) (gx_node_coords(n) + nd);
	}
	if (nd >= 0)
	{
		put(pk, n, sizeof(GxNode) + (size_t) nd * sizeof(double));
		return (const GxNode *) (gx_node_coords(n) + nd);
	}
	put(pk, n, sizeof(GxNode));
	child = n + 1;
	for (i = 0; i < n->count && !pk->failed; i++)
		child = pack_node(pk, child);
	return child;
}

static bool
has_surface(void *ctx, const GxNode *leaf)
{
	*(bool *) ctx |= is_surface(leaf->type) && leaf->count > 0;
	return true;
}

GxSerialized *
gx_pack(const GxSerialized *g, size_t size, size_t *packed_size, GxError *err)
{
	Packer		pk;
	bool		surface = false;
	GxSerialized *p;

	if (size < GX_PACK_MIN_BYTES || (g->flags & GX_FLAG_PACKED))
		return NULL;
	gx_node_walk(gx_body(g), has_surface, &surface);
	if (!surface)
		return NULL;
	memset(&pk, 0, sizeof(pk));
	pk.limit = size / 4 * 3;
	pk.err = err;
	if ((pk.out = gx_alloc(pk.limit)) == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory packing a value of %zu bytes", size);
		return NULL;
	}
	put(&pk, g, sizeof(GxSerialized));
	pack_node(&pk, gx_body(g));
	gx_free(pk.slot);
	gx_free(pk.index);
	if (pk.failed)
	{
		gx_free(pk.out);
		return NULL;
	}
	p = (GxSerialized *) pk.out;
	p->flags |= GX_FLAG_PACKED;
	*packed_size = pk.len;
	return p;
}

/* ---- unpacking -------------------------------------------------------------------------------------- */

typedef struct Unpacker
{
	const unsigned char *in;
	size_t		size;
	unsigned char *out;			/* NULL while sizing */
	size_t		len;			/* bytes of unpacked output so far */
	GxError    *err;
} Unpacker;

static bool
corrupt(Unpacker *u, const char *what)
{
	gx_error_set(u->err, GX_ERR_PARSE, "packed gxgeom value is corrupt: %s", what);
	return false;
}

/* The n bytes at offset at of the input, or NULL (err set) past its end. */
static const void *
take(Unpacker *u, size_t at, size_t n)
{
	if (at > u->size || n > u->size - at)
	{
		corrupt(u, "truncated");
		return NULL;
	}
	return u->in + at;
}

static void
emit(Unpacker *u, const void *src, size_t n)
{
	if (u->out)
		memcpy(u->out + u->len, src, n);
	u->len += n;
}

/* Unpacks the leaf at *at (its header already read as n); advances *at. */
static bool
unpack_surface(Unpacker *u, const GxNode *n, size_t *at)
{
	const uint32_t *nv = take(u, *at, 8);
	const double *verts;
	const uint32_t *index;
	size_t		count = n->count,
				nverts,
				i;

	if (nv == NULL)
		return false;
	nverts = nv[0];
	if (nverts > 3 * count)
		return corrupt(u, "more vertices than corners");
	if ((verts = take(u, *at + 8, 24 * nverts)) == NULL ||
		(index = take(u, *at + 8 + 24 * nverts, index_bytes(count))) == NULL)
		return false;
	for (i = 0; i < 3 * count; i++)
		if (index[i] >= nverts)
			return corrupt(u, "vertex index out of range");
	emit(u, n, sizeof(GxNode));
	if (u->out)
	{
		double	   *c = (double *) (u->out + u->len);

		for (i = 0; i < 3 * count; i++)
			memcpy(c + 3 * i, verts + 3 * (size_t) index[i], 24);
	}
	u->len += 72 * count;
	*at += 8 + 24 * nverts + index_bytes(count);
	return true;
}

/* Unpacks the subtree at *at; advances *at. */
static bool
unpack_node(Unpacker *u, size_t *at, int depth)
{
	const GxNode *n = take(u, *at, sizeof(GxNode));
	long		nd;
	uint32_t	i;

	if (n == NULL)
		return false;
	if (depth > GX_MAX_DEPTH || gx_type_name(n->type) == NULL)
		return corrupt(u, "bad node");
	*at += sizeof(GxNode);
	if (is_surface(n->type))
		return unpack_surface(u, n, at);
	if ((nd = gx_leaf_doubles(n->type, n->count)) >= 0)
	{
		if (take(u, *at, (size_t) nd * sizeof(double)) == NULL)
			return false;
		emit(u, n, sizeof(GxNode) + (size_t) nd * sizeof(double));
		*at += (size_t) nd * sizeof(double);
		return true;
	}
	emit(u, n, sizeof(GxNode));
	for (i = 0; i < n->count; i++)
		if (!unpack_node(u, at, depth + 1))
			return false;
	return true;
}

bool
gx_unpacked_size(const GxSerialized *p, size_t size, size_t *unpacked_size, GxError *err)
{
	Unpacker	u = {(const unsigned char *) p, size, NULL, sizeof(GxSerialized), err};
	size_t		at = sizeof(GxSerialized);

	if (size < sizeof(GxSerialized) || !(p->flags & GX_FLAG_PACKED))
		return corrupt(&u, "no packed header");
	if (!unpack_node(&u, &at, 0))
		return false;
	if (at != size)
		return corrupt(&u, "trailing bytes");
	if (u.len > GX_MAX_SIZE)
		return corrupt(&u, "too large");
	*unpacked_size = u.len;
	return true;
}

bool
gx_unpack_into(const GxSerialized *p, size_t size, GxSerialized *out, GxError *err)
{
	Unpacker	u = {(const unsigned char *) p, size, (unsigned char *) out, 0, err};
	size_t		at = sizeof(GxSerialized);

	emit(&u, p, sizeof(GxSerialized));
	if (!unpack_node(&u, &at, 0))
		return false;
	out->flags &= ~GX_FLAG_PACKED;
	return true;
}

GxSerialized *
gx_unpack(const GxSerialized *p, size_t size, size_t *unpacked_size, GxError *err)
{
	GxSerialized *g;

	if (!gx_unpacked_size(p, size, unpacked_size, err))
		return NULL;
	if ((g = gx_alloc(*unpacked_size)) == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory unpacking a value to %zu bytes", *unpacked_size);
		return NULL;
	}
	if (!gx_unpack_into(p, size, g, err))
	{
		gx_free(g);
		return NULL;
	}
	return g;
}

/* ---- walking a packed value ------------------------------------------------------------------------- */

/* Visits the leaves of the subtree at `at`; returns the bytes after it, or NULL when a visit said stop. */
static const unsigned char *
walk_packed(const unsigned char *at, GxPackedVisitor visit, void *ctx)
{
	const GxNode *n = (const GxNode *) at;
	long		nd;

	at += sizeof(GxNode);
	if (is_surface(n->type))
	{
		uint32_t	nverts = ((const uint32_t *) at)[0];
		GxPackedSurface surface = {(const double *) (at + 8), (const uint32_t *) (at + 8 + 24 * (size_t) nverts)};

		return visit(ctx, n, &surface) ? at + 8 + 24 * (size_t) nverts + index_bytes(n->count) : NULL;
	}
	if ((nd = gx_leaf_doubles(n->type, n->count)) >= 0)
		return visit(ctx, n, NULL) ? at + (size_t) nd * sizeof(double) : NULL;
	for (uint32_t i = 0; i < n->count; i++)
		if ((at = walk_packed(at, visit, ctx)) == NULL)
			return NULL;
	return at;
}

bool
gx_packed_walk(const GxSerialized *p, GxPackedVisitor visit, void *ctx)
{
	return walk_packed((const unsigned char *) gx_body(p), visit, ctx) != NULL;
}
