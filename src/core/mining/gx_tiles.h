/*
 * gx_tiles.h: the tiles of a fixed 3D grid, for co-locating geometries on a distributed database (Citus):
 * a geometry is stored once per tile its box covers, and a pair of geometries is reported by one tile only,
 * its owner. Tile k along an axis is the closed interval [k*s, (k+1)*s], s = tile_size, with k*s the exact
 * real product: every decision compares a coordinate with k*s exactly, so a coordinate on a boundary lies
 * in both tiles beside it, and the owner tile of two overlapping boxes is always one both were stored in.
 */
#ifndef GX_TILES_H
#define GX_TILES_H

#include <stdbool.h>
#include <stdint.h>

#include "base/gx_error.h"
#include "geom/gx_geom.h"

/* Tile indices along each axis lie in [GX_TILE_INDEX_MIN, GX_TILE_INDEX_MAX] (21 bits). */
#define GX_TILE_INDEX_BITS	21
#define GX_TILE_INDEX_MIN	(-(1 << (GX_TILE_INDEX_BITS - 1)))
#define GX_TILE_INDEX_MAX	((1 << (GX_TILE_INDEX_BITS - 1)) - 1)

/* tile_size must lie in [GX_TILE_SIZE_MIN, GX_TILE_SIZE_MAX]: the products k*s then never overflow or underflow. */
#define GX_TILE_SIZE_MIN	1e-270
#define GX_TILE_SIZE_MAX	1e270

/* A geometry may cover at most this many tiles (it is stored in each). */
#define GX_TILES_MAX		10000

/* The inclusive range of tile indices a box covers, per axis. */
typedef struct GxTileRange
{
	int32_t		lo[3];
	int32_t		hi[3];
} GxTileRange;

/*
 * The tiles covered by box b expanded by d/2 on every side (rounded outward), d >= 0. False with *err set
 * when tile_size or d is invalid (GX_ERR_ARG), an index is out of range (GX_ERR_RANGE), or the box covers
 * more than GX_TILES_MAX tiles (GX_ERR_LIMIT). b must not be EMPTY.
 */
bool		gx_tile_range(const GxBox3D *b, double tile_size, double d, GxTileRange *r, GxError *err);

/* Number of tiles in a range. */
int64_t		gx_tile_count(const GxTileRange *r);

/*
 * The tile id of tile (i, j, k): the three indices offset by 2^20 and packed into 21 bits each, i highest;
 * ids are non-negative.
 */
int64_t		gx_tile_id(int32_t i, int32_t j, int32_t k);

/*
 * The owner tile of two boxes, each expanded by d/2 as in gx_tile_range: per axis the lowest tile
 * containing the minimum corner of their overlap. *found is false when the expanded boxes do not overlap
 * (or one is EMPTY): no tile owns the pair. False with *err set as for gx_tile_range (no tile count limit).
 */
bool		gx_tile_owner(const GxBox3D *a, const GxBox3D *b, double tile_size, double d, bool *found,
						  int64_t *id, GxError *err);

#endif
