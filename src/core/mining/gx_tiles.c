/*
 * gx_tiles.c: tiles of a fixed 3D grid and the owner tile of a pair (gx_tiles.h), decided exactly. Tile k
 * along an axis is [k*s, (k+1)*s]; a coordinate is placed by comparing it with the exact product k*s, which
 * Dekker's error-free product gives as an unevaluated sum p + e (no overflow or underflow for the allowed
 * tile sizes and indices). A floating-point quotient x/s gives the first guess, off by at most one.
 */
#include <math.h>

#include "algorithm/gx_expansion.h"
#include "geom/gx_box.h"
#include "mining/gx_tiles.h"

/*
 * Sign of k*s - x, exactly. With p = fl(k*s) and k*s = p + e: when p differs from x, p lies on the same
 * side of x as k*s (k*s is within half the gap from p to its neighbour, and x is at least a whole gap
 * away), so only p == x needs the sign of e.
 */
static int
product_cmp(double k, double s, double x)
{
	double		p, e;

	gx_two_product(k, s, &p, &e);
	if (p != x)
		return p < x ? -1 : 1;
	return (e > 0) - (e < 0);
}

/*
 * The largest integer k with k*s <= x, exactly, into *k; false when it is certainly outside the index
 * range (x/s beyond +-2^GX_TILE_INDEX_BITS, or not finite).
 */
static bool
floor_exact(double x, double s, double *k)
{
	double		q = x / s;

	if (!(fabs(q) <= (double) (1 << GX_TILE_INDEX_BITS)))
		return false;
	*k = floor(q);
	while (product_cmp(*k, s, x) > 0)
		*k -= 1;
	while (product_cmp(*k + 1, s, x) <= 0)
		*k += 1;
	return true;
}

/* Stores tile index k (an integer in a double) into *index, or sets a range error naming the axis. */
static bool
index_in_range(bool ok, double k, double x, double s, int axis, int32_t *index, GxError *err)
{
	if (!ok || k < GX_TILE_INDEX_MIN || k > GX_TILE_INDEX_MAX)
	{
		gx_error_set(err, GX_ERR_RANGE,
					 "tile index out of range: %c = %.17g lies in a tile of size %.17g outside tiles [%d, %d]",
					 "xyz"[axis], x, s, GX_TILE_INDEX_MIN, GX_TILE_INDEX_MAX);
		return false;
	}
	*index = (int32_t) k;
	return true;
}

/* The highest tile containing x: the largest k with k*s <= x. */
static bool
highest_tile(double x, double s, int axis, int32_t *index, GxError *err)
{
	double		k = 0;
	bool		ok = floor_exact(x, s, &k);

	return index_in_range(ok, k, x, s, axis, index, err);
}

/* The lowest tile containing x: the smallest k with (k+1)*s >= x, that is -floor(-x/s) - 1. */
static bool
lowest_tile(double x, double s, int axis, int32_t *index, GxError *err)
{
	double		k = 0;
	bool		ok = floor_exact(-x, s, &k);

	return index_in_range(ok, -k - 1, x, s, axis, index, err);
}

static bool
check_args(double tile_size, double d, GxError *err)
{
	if (!(tile_size >= GX_TILE_SIZE_MIN && tile_size <= GX_TILE_SIZE_MAX))
	{
		gx_error_set(err, GX_ERR_ARG, "tile_size must lie in [%g, %g], not %.17g",
					 GX_TILE_SIZE_MIN, GX_TILE_SIZE_MAX, tile_size);
		return false;
	}
	if (!(d >= 0 && isfinite(d)))
	{
		gx_error_set(err, GX_ERR_ARG, "distance must be finite and non-negative, not %.17g", d);
		return false;
	}
	return true;
}

/* b expanded by d/2 on every side, each bound rounded outward (d/2 itself rounded up). */
static GxBox3D
expand_half(const GxBox3D *b, double d)
{
	GxBox3D		r = *b;
	double		h = d * 0.5;
	double		x, y;
	int			axis;

	if (d == 0)
		return r;
	if (h * 2 != d)				/* d/2 below the smallest subnormal was rounded */
		h = nextafter(h, INFINITY);
	for (axis = 0; axis < 3; axis++)
	{
		gx_two_diff(GX_BOX_LO(b, axis), h, &x, &y);
		((double *) &r.xmin)[axis] = y < 0 ? nextafter(x, -INFINITY) : x;
		gx_two_sum(GX_BOX_HI(b, axis), h, &x, &y);
		((double *) &r.xmax)[axis] = y > 0 ? nextafter(x, INFINITY) : x;
	}
	return r;
}

int64_t
gx_tile_count(const GxTileRange *r)
{
	return (int64_t) (r->hi[0] - r->lo[0] + 1) * (r->hi[1] - r->lo[1] + 1) * (r->hi[2] - r->lo[2] + 1);
}

bool
gx_tile_range(const GxBox3D *b, double tile_size, double d, GxTileRange *r, GxError *err)
{
	GxBox3D		e;
	int64_t		n = 1;
	int			axis;

	if (!check_args(tile_size, d, err))
		return false;
	e = expand_half(b, d);
	for (axis = 0; axis < 3; axis++)
	{
		if (!lowest_tile(GX_BOX_LO(&e, axis), tile_size, axis, &r->lo[axis], err) ||
			!highest_tile(GX_BOX_HI(&e, axis), tile_size, axis, &r->hi[axis], err))
			return false;
		n *= r->hi[axis] - r->lo[axis] + 1;
		if (n > GX_TILES_MAX)
			break;
	}
	if (n > GX_TILES_MAX)
	{
		gx_error_set(err, GX_ERR_LIMIT,
					 "a geometry may cover at most %d tiles; this one covers more with tile_size %.17g "
					 "(choose a larger tile_size)",
					 GX_TILES_MAX, tile_size);
		return false;
	}
	return true;
}

int64_t
gx_tile_id(int32_t i, int32_t j, int32_t k)
{
	const int64_t off = -(int64_t) GX_TILE_INDEX_MIN;

	return ((i + off) << (2 * GX_TILE_INDEX_BITS)) | ((j + off) << GX_TILE_INDEX_BITS) | (k + off);
}

bool
gx_tile_owner(const GxBox3D *a, const GxBox3D *b, double tile_size, double d, bool *found, int64_t *id,
			  GxError *err)
{
	GxBox3D		ea, eb;
	int32_t		ijk[3];
	int			axis;

	*found = false;
	if (!check_args(tile_size, d, err))
		return false;
	if (gx_box_is_empty(a) || gx_box_is_empty(b))
		return true;
	ea = expand_half(a, d);
	eb = expand_half(b, d);
	if (!gx_box_overlaps(&ea, &eb))
		return true;
	for (axis = 0; axis < 3; axis++)
		if (!lowest_tile(fmax(GX_BOX_LO(&ea, axis), GX_BOX_LO(&eb, axis)), tile_size, axis, &ijk[axis], err))
			return false;
	*id = gx_tile_id(ijk[0], ijk[1], ijk[2]);
	*found = true;
	return true;
}
