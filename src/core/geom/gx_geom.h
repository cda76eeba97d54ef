/*
 * gx_geom.h: the geometry model of gpuexact, which is also its storage format.
 *
 * A geometry is one contiguous buffer (the PostgreSQL varlena value, 4-byte header included):
 *
 *   GxSerialized header: varlena length word, SRID, flags, cached 3D bounding box
 *   body: one node, written in pre-order. A node is a GxNode header {type, count} followed by
 *     POINT                       count 0 (EMPTY) or 1, then 3 doubles
 *     LINESTRING                  count points (0 = EMPTY, else >= 2), then 3*count doubles
 *     TRIANGLE                    count 0 (EMPTY) or 1, then 9 doubles (the closing vertex is implied)
 *     TIN, POLYHEDRALSURFACE      count triangles, then 9*count doubles
 *     MULTIPOINT, MULTILINESTRING,
 *     GEOMETRYCOLLECTION          count child nodes, which follow
 *
 * All coordinates are finite doubles (x, y, z); every node header is 8 bytes so doubles stay 8-byte
 * aligned. Byte order is the machine's. Type codes are the ISO WKB base codes. A stored value may instead be
 * in the packed form of gx_pack.h (GX_FLAG_PACKED), which only the batch sides read (gx_batch_side.h).
 */
#ifndef GX_GEOM_H
#define GX_GEOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/gx_error.h"

typedef enum GxType
{
	GX_POINT = 1,
	GX_LINESTRING = 2,
	GX_MULTIPOINT = 4,
	GX_MULTILINESTRING = 5,
	GX_GEOMETRYCOLLECTION = 7,
	GX_POLYHEDRALSURFACE = 15,
	GX_TIN = 16,
	GX_TRIANGLE = 17
} GxType;

#define GX_FLAG_EMPTY		0x1		/* no coordinate anywhere: bbox is meaningless */
#define GX_FLAG_SOLID		0x2		/* a POLYHEDRALSURFACE checked to bound a volume (gx_solid.h) */
#define GX_FLAG_PACKED		0x4		/* surfaces stored as vertices and indices (gx_pack.h): storage only */

#define GX_SRID_MAX			999999	/* largest SRID accepted, as in PostGIS */
#define GX_MAX_DEPTH		32		/* deepest nesting of collections accepted */
#define GX_MAX_SIZE			((size_t) 0x3FFFFFFF - 64)	/* a varlena holds at most 1 GB */

typedef struct GxBox3D
{
	double		xmin, ymin, zmin, xmax, ymax, zmax;
} GxBox3D;

typedef struct GxSerialized
{
	uint32_t	vl_len;			/* varlena header, owned by PostgreSQL; the core never reads it */
	int32_t		srid;			/* 0 = unknown */
	uint32_t	flags;
	uint32_t	reserved;		/* 0 */
	GxBox3D		box;
	/* body follows */
} GxSerialized;

typedef struct GxNode
{
	uint32_t	type;
	uint32_t	count;
} GxNode;

static inline const GxNode *
gx_body(const GxSerialized *g)
{
	return (const GxNode *) (g + 1);
}

static inline const double *
gx_node_coords(const GxNode *n)
{
	return (const double *) (n + 1);
}

/* Name in WKT, upper case ("POINT", "TIN", ...), or NULL for an unknown code. */
const char *gx_type_name(uint32_t type);

/* Doubles that follow the node header of a leaf node; -1 for a collection type. */
long		gx_leaf_doubles(uint32_t type, uint32_t count);

/* Returns the node after n (its whole subtree skipped); the buffer is trusted (already validated). */
const GxNode *gx_node_next(const GxNode *n);

/*
 * Calls visit(ctx, leaf) for every leaf node (POINT, LINESTRING, TRIANGLE, TIN, POLYHEDRALSURFACE) of the
 * subtree at n, in order; returns the node after the subtree, or NULL as soon as a visit returns false.
 */
typedef bool (*GxLeafVisitor) (void *ctx, const GxNode *leaf);
const GxNode *gx_node_walk(const GxNode *n, GxLeafVisitor visit, void *ctx);

/* Counts over a whole geometry. */
typedef struct GxCounts
{
	size_t		points;			/* vertices as written in WKT (a triangle's ring has 4) */
	size_t		segments;		/* linestring segments */
	size_t		triangles;
} GxCounts;

GxCounts	gx_counts(const GxSerialized *g);

/*
 * Builder: writes a serialized geometry node by node. A parser calls gx_builder_begin for each node
 * (remembering the returned offset), adds coordinates or children, then gx_builder_end with the final
 * count. Coordinates must be finite (the builder checks and fails otherwise). All failures are recorded
 * in b->err and make later calls no-ops; gx_builder_finish returns NULL then.
 */
/*
 * The SRID rule: geometries of different SRIDs may not meet, except that SRID 0 (unknown) goes with any
 * SRID unless strict (gpuexact.strict_srid).
 */
static inline bool
gx_srids_conflict(int32_t a, int32_t b, bool strict)
{
	return a != b && (strict || (a != 0 && b != 0));
}

/* The process's strictness (set from the session's setting; the GPU service gets it with each batch). */
extern bool gx_strict_srid;

/* false with err set (GX_ERR_SRID) when a and b conflict under gx_strict_srid. */
bool		gx_srids_match(const GxSerialized *a, const GxSerialized *b, GxError *err);

typedef struct GxBuilder
{
	unsigned char *data;
	size_t		len;
	size_t		cap;
	int			depth;
	GxError    *err;
} GxBuilder;

void		gx_builder_init(GxBuilder *b, GxError *err);
size_t		gx_builder_begin(GxBuilder *b, GxType type);
void		gx_builder_end(GxBuilder *b, size_t node_offset, uint32_t count);
void		gx_builder_coord(GxBuilder *b, double x, double y, double z);
/* Appends a copy of the subtree at n (a node of a validated geometry) as the next node. */
void		gx_builder_node(GxBuilder *b, const GxNode *n);
/* Makes room for n more bytes in advance (a hint: parsers that know a count call it once). */
void		gx_builder_reserve(GxBuilder *b, size_t n);
/* Computes flags and bounding box; returns the buffer (caller frees with gx_free), or NULL on error. */
GxSerialized *gx_builder_finish(GxBuilder *b, int32_t srid, size_t *size);
void		gx_builder_discard(GxBuilder *b);

#endif
