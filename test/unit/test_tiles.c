/*
 * test_tiles.c: tile ranges and owner tiles (gx_tiles.c) against an exact rational oracle (GMP): points on
 * and beside tile boundaries, tile sizes that are not representable (0.1), boxes expanded by a distance,
 * the owner of every overlapping pair lying in both tile sets, id packing and every error.
 */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>

#include "algorithm/gx_expansion.h"
#include "geom/gx_box.h"
#include "gx_test.h"
#include "mining/gx_tiles.h"

/* The largest integer k with k*s <= x, exactly, for x rational. */
static long
oracle_floor_q(const mpq_t x, double s)
{
	mpq_t		q;
	mpz_t		f;
	long		k;

	mpq_init(q);
	mpz_init(f);
	mpq_set_d(q, s);
	mpq_div(q, x, q);
	mpz_fdiv_q(f, mpq_numref(q), mpq_denref(q));
	k = mpz_get_si(f);
	mpz_clear(f);
	mpq_clear(q);
	return k;
}

/* Tiles containing x + t exactly (t = 0 for x alone): [lowest, highest]; two when it lies on a boundary. */
static void
oracle_tiles_sum(double x, double t, double s, long *lowest, long *highest)
{
	mpq_t		v, w;

	mpq_init(v);
	mpq_init(w);
	mpq_set_d(v, x);
	mpq_set_d(w, t);
	mpq_add(v, v, w);
	*highest = oracle_floor_q(v, s);
	mpq_neg(v, v);
	*lowest = -oracle_floor_q(v, s) - 1;
	mpq_clear(v);
	mpq_clear(w);
}

static void
oracle_tiles(double x, double s, long *lowest, long *highest)
{
	oracle_tiles_sum(x, 0, s, lowest, highest);
}

static GxBox3D
point_box(double x, double y, double z)
{
	GxBox3D		b = {x, y, z, x, y, z};

	return b;
}

static double
rand_unit(void)
{
	return rand() / (RAND_MAX + 1.0);
}

/* A coordinate on, or one or two ulps beside, a multiple of s (as rounded), or anywhere. */
static double
coordinate_near_boundary(double s)
{
	double		x = (rand() % 41 - 20) * s;

	switch (rand() % 5)
	{
		case 0:
			return nextafter(x, INFINITY);
		case 1:
			return nextafter(x, -INFINITY);
		case 2:
			return nextafter(nextafter(x, INFINITY), INFINITY);
		case 3:
			return (rand_unit() - 0.5) * 40 * s;
		default:
			return x;
	}
}

static void
test_point_tiles(void)
{
	static const double sizes[] = {0.1, 1.0, 0.75, 3.0, 1.0 / 3.0, 1e-3, 12.5, 7e-200, 3e200};
	int			n, t;

	for (t = 0; t < (int) (sizeof(sizes) / sizeof(sizes[0])); t++)
		for (n = 0; n < 4000; n++)
		{
			double		s = sizes[t],
						x = coordinate_near_boundary(s);
			GxBox3D		b = point_box(x, -x, 0.5 * x);
			GxTileRange r;
			GxError		err = {GX_OK, ""};
			long		lo, hi;
			int			axis;

			CHECK(gx_tile_range(&b, s, 0, &r, &err));
			for (axis = 0; axis < 3; axis++)
			{
				double		c = axis == 0 ? x : axis == 1 ? -x : 0.5 * x;

				oracle_tiles(c, s, &lo, &hi);
				CHECK_MSG(r.lo[axis] == lo && r.hi[axis] == hi, "s %.17g x %.17g: [%d, %d], oracle [%ld, %ld]",
						  s, c, r.lo[axis], r.hi[axis], lo, hi);
			}
		}
	{
		/* 0.3 is not 3 * 0.1 as doubles: the exact product decides */
		GxBox3D		b = point_box(0.3, 0.30000000000000004, 0);
		GxTileRange r;
		GxError		err = {GX_OK, ""};
		long		lo, hi;

		CHECK(gx_tile_range(&b, 0.1, 0, &r, &err));
		oracle_tiles(0.3, 0.1, &lo, &hi);
		CHECK(r.lo[0] == lo && r.hi[0] == hi && lo == hi);
		oracle_tiles(0.30000000000000004, 0.1, &lo, &hi);
		CHECK(r.lo[1] == lo && r.hi[1] == hi);
		CHECK(r.lo[2] == -1 && r.hi[2] == 0);	/* 0 lies on the boundary of tiles -1 and 0 */
	}
}

/* lo - hi <= d, exactly. */
static bool
gap_within(double lo, double hi, double d)
{
	mpq_t		a, b;
	bool		r;

	mpq_init(a);
	mpq_init(b);
	mpq_set_d(a, lo);
	mpq_set_d(b, hi);
	mpq_sub(a, a, b);
	mpq_set_d(b, d);
	r = mpq_cmp(a, b) <= 0;
	mpq_clear(a);
	mpq_clear(b);
	return r;
}

/*
 * Random boxes on a lattice of quarter tiles (many bounds on boundaries): the owner of each pair whose boxes
 * lie within d is found, lies in both tile sets, and (d = 0) is the lowest tile holding the overlap's
 * minimum corner.
 */
static void
test_owner(double s, double d)
{
	int			n;

	for (n = 0; n < 20000; n++)
	{
		GxBox3D		box[2];
		GxTileRange r[2];
		GxError		err = {GX_OK, ""};
		bool		found;
		int64_t		id = -1;
		int			m, axis;
		bool		overlap = true;

		for (m = 0; m < 2; m++)
			for (axis = 0; axis < 3; axis++)
			{
				double		lo = (rand() % 24 - 12) * (s / 4),
							hi = lo + (rand() % 7) * (s / 4);

				((double *) &box[m].xmin)[axis] = lo;
				((double *) &box[m].xmax)[axis] = hi;
			}
		CHECK(gx_tile_range(&box[0], s, d, &r[0], &err) && gx_tile_range(&box[1], s, d, &r[1], &err));
		CHECK(gx_tile_owner(&box[0], &box[1], s, d, &found, &id, &err));
		for (axis = 0; axis < 3; axis++)
			overlap = overlap && gap_within(GX_BOX_LO(&box[0], axis), GX_BOX_HI(&box[1], axis), d) &&
				gap_within(GX_BOX_LO(&box[1], axis), GX_BOX_HI(&box[0], axis), d);
		/* expanded boxes rounded outward may also overlap when the gap exceeds d by a rounding error */
		CHECK_MSG(found == overlap || (found && d > 0), "pair %d: owner found %d, boxes within d %d", n, found,
				  overlap);
		if (!found)
			continue;
		{
			int32_t		ijk[3];
			long		lo, hi;

			for (axis = 0; axis < 3; axis++)
			{
				double		c = fmax(GX_BOX_LO(&box[0], axis), GX_BOX_LO(&box[1], axis));

				ijk[axis] = (int32_t) ((id >> (GX_TILE_INDEX_BITS * (2 - axis))) & ((1 << GX_TILE_INDEX_BITS) - 1)) +
					GX_TILE_INDEX_MIN;
				CHECK(ijk[axis] >= r[0].lo[axis] && ijk[axis] <= r[0].hi[axis]);
				CHECK(ijk[axis] >= r[1].lo[axis] && ijk[axis] <= r[1].hi[axis]);
				oracle_tiles(c, s, &lo, &hi);
				CHECK_MSG(d > 0 || ijk[axis] == lo, "owner %d along %d, oracle %ld", ijk[axis], axis, lo);
			}
			CHECK(gx_tile_id(ijk[0], ijk[1], ijk[2]) == id);
		}
	}
}

/* Two points exactly d apart along an axis have overlapping expanded boxes, however d/2 rounds. */
static void
test_distance_rounds_outward(void)
{
	int			n;

	for (n = 0; n < 20000; n++)
	{
		double		x = (rand_unit() - 0.5) * 100,
					d = rand_unit() * 10;
		double		y = x + d;
		GxBox3D		a, b;
		GxError		err = {GX_OK, ""};
		bool		found;
		int64_t		id;

		d = y - x;
		while (!gap_within(y, x, d))	/* the smallest d >= the exact y - x */
			d = nextafter(d, INFINITY);
		a = point_box(x, 0, 0);
		b = point_box(y, 0, 0);
		CHECK(gx_tile_owner(&a, &b, 0.7, d, &found, &id, &err) && found);
	}
	{
		GxBox3D		a = point_box(0, 0, 0),
					b = point_box(4.9406564584124654e-324, 0, 0);
		GxError		err = {GX_OK, ""};
		bool		found;
		int64_t		id;

		/* the smallest subnormal: d/2 rounds to 0, and must be rounded up */
		CHECK(gx_tile_owner(&a, &b, 1, 4.9406564584124654e-324, &found, &id, &err) && found);
	}
}

/*
 * A bound p = fl(k*s) that lies within less than half an ulp of the boundary k*s (not a double): p - d/2 or
 * p + d/2, with d/2 just past that boundary, rounds back to p, on the wrong side of it. The expanded box must
 * still reach the tile holding the exact value (outward rounding).
 */
static void
test_expansion_across_boundary(void)
{
	int			n,
				tried = 0;

	for (n = 0; n < 100000 && tried < 5000; n++)
	{
		double		s = 0.1 + rand_unit(),
					k = rand() % 1000 + 1,
					p, e, h, gap;
		GxBox3D		b;
		GxTileRange r;
		GxError		err = {GX_OK, ""};
		long		lo, hi;

		gx_two_product(k, s, &p, &e);
		if (e == 0)
			continue;
		h = nextafter(fabs(e), INFINITY);
		gap = fabs(nextafter(p, e < 0 ? -INFINITY : INFINITY) - p);
		if (!(h < gap / 2))
			continue;
		tried++;
		b = point_box(p, 0.5 * s, 0.5 * s);
		CHECK(gx_tile_range(&b, s, 2 * h, &r, &err));
		if (e < 0)
		{
			oracle_tiles_sum(p, -h, s, &lo, &hi);	/* p - h < k*s <= p */
			CHECK_MSG(r.lo[0] <= lo && lo == (long) k - 1, "s %.17g k %.0f: lowest tile %d, exact %ld", s, k,
					  r.lo[0], lo);
		}
		else
		{
			oracle_tiles_sum(p, h, s, &lo, &hi);	/* p < k*s < p + h */
			CHECK_MSG(r.hi[0] >= hi && hi == (long) k, "s %.17g k %.0f: highest tile %d, exact %ld", s, k,
					  r.hi[0], hi);
		}
	}
	CHECK_MSG(tried >= 1000, "only %d bounds near a boundary", tried);
}

static void
test_ids_and_errors(void)
{
	GxBox3D		b = point_box(0.5, 0.5, 0.5),
				empty;
	GxTileRange r;
	GxError		err = {GX_OK, ""};
	bool		found = true;
	int64_t		id = 0;
	static const double bad_sizes[] = {0, -1, 1e-271, 1e271, INFINITY};

	CHECK(gx_tile_id(GX_TILE_INDEX_MIN, GX_TILE_INDEX_MIN, GX_TILE_INDEX_MIN) == 0);
	CHECK(gx_tile_id(GX_TILE_INDEX_MAX, GX_TILE_INDEX_MAX, GX_TILE_INDEX_MAX) == INT64_MAX);
	CHECK(gx_tile_id(0, 0, 1) == gx_tile_id(0, 0, 0) + 1);
	CHECK(gx_tile_id(1, 0, 0) == gx_tile_id(0, 0, 0) + ((int64_t) 1 << 42));

	for (int i = 0; i < 5; i++)
	{
		err.code = GX_OK;
		CHECK(!gx_tile_range(&b, bad_sizes[i], 0, &r, &err) && err.code == GX_ERR_ARG);
	}
	err.code = GX_OK;
	CHECK(!gx_tile_range(&b, NAN, 0, &r, &err) && err.code == GX_ERR_ARG);
	err.code = GX_OK;
	CHECK(!gx_tile_range(&b, 1, -1, &r, &err) && err.code == GX_ERR_ARG);
	err.code = GX_OK;
	CHECK(!gx_tile_owner(&b, &b, 1, NAN, &found, &id, &err) && err.code == GX_ERR_ARG);

	/* the index range ends exactly at +-2^20 tiles */
	b = point_box(1048575.5, 0, 0);
	CHECK(gx_tile_range(&b, 1, 0, &r, &err) && r.lo[0] == 1048575 && r.hi[0] == 1048575);
	b = point_box(1048576, 0, 0);		/* on the upper boundary of the last tile: also in the next one */
	err.code = GX_OK;
	CHECK(!gx_tile_range(&b, 1, 0, &r, &err) && err.code == GX_ERR_RANGE);
	b = point_box(-1048576, 0, 0);
	err.code = GX_OK;
	CHECK(!gx_tile_range(&b, 1, 0, &r, &err) && err.code == GX_ERR_RANGE);
	b = point_box(-1048575.5, 0, 1e300);
	err.code = GX_OK;
	CHECK(!gx_tile_range(&b, 1, 0, &r, &err) && err.code == GX_ERR_RANGE);

	/* the tile count limit: 10 x 10 x 100 tiles pass, one more layer does not */
	b = (GxBox3D) {0.5, 0.5, 0.5, 9.5, 9.5, 99.5};
	CHECK(gx_tile_range(&b, 1, 0, &r, &err) && gx_tile_count(&r) == GX_TILES_MAX);
	b.zmax = 100.5;
	err.code = GX_OK;
	CHECK(!gx_tile_range(&b, 1, 0, &r, &err) && err.code == GX_ERR_LIMIT);
	b = (GxBox3D) {-1e6, -1e6, -1e6, 1e6, 1e6, 1e6};
	err.code = GX_OK;
	CHECK(!gx_tile_range(&b, 1, 0, &r, &err) && err.code == GX_ERR_LIMIT);

	/* EMPTY owns nothing */
	gx_box_set_empty(&empty);
	b = point_box(0.5, 0.5, 0.5);
	CHECK(gx_tile_owner(&empty, &b, 1, 0, &found, &id, &err) && !found);
}

int
main(void)
{
	srand(12);
	test_point_tiles();
	test_owner(1.0, 0);
	test_owner(0.1, 0);
	test_owner(0.75, 0.25);
	test_owner(0.1, 0.1);
	test_distance_rounds_outward();
	test_expansion_across_boundary();
	test_ids_and_errors();
	return gx_test_report("test_tiles");
}
