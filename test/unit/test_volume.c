/*
 * test_volume.c: exact volumes of solids, whole and inside boxes (operation/gx_volume.h), against
 * oracles that share none of its code:
 *  - unions of voxels, whose volume inside any box is the sum of the voxels' box overlaps;
 *  - closed "terrain blocks" with slanted tops at UTM offsets, whose whole volume is (1/6) sum a.(b x c),
 *    and whose volumes in the boxes of any partition of space add up to it exactly;
 *  - hand cases: a unit cube half in a box, boxes touching faces, edges and vertices, a cavity.
 * Every comparison is between exact rationals, or between a double and the correctly rounded rational.
 */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "gx_test.h"
#include "gx_test_tris.h"
#include "operation/gx_volume.h"

/* Rounded volumes in boxes (gx_volume_in_box_nearest, the filter first) that differ from the exact one's. */
static int	nearest_differ,
			nearest_checked;

/*
 * Exact volume of the solid inside box, through a fresh index; on the way, the rounded volume taken the
 * fast way must be the exact one rounded.
 */
static void
volume_in_box(const Tris *t, const GxBox3D *box, GxVolumeWork *w, mpq_t out)
{
	GxSolidIndex s;
	GxError		err = {GX_OK, ""};
	double		fast;

	if (!gx_solid_index_build(&s, t->v, t->n, &err))
	{
		fprintf(stderr, "index: %s\n", err.msg);
		exit(2);
	}
	fast = gx_volume_in_box_nearest(&s, box, w);
	gx_volume_in_box_exact(&s, box, w, out);
	nearest_checked++;
	if (fast != gx_mpq_get_d_nearest(out) && nearest_differ++ < 5)
		gmp_fprintf(stderr, "rounded volume %.17g, exact %Qd\n", fast, out);
	gx_solid_index_free(&s);
}

/*
 * Every rounded volume above was the exact one rounded, and each way to it was taken: a located corner, the
 * filter, an empty open box, the exact rationals.
 */
static void
test_nearest(void)
{
	GxVolumeStats *st = &gx_volume_stats;

	CHECK_MSG(nearest_differ == 0, "%d of %d rounded volumes in boxes differ from the exact ones", nearest_differ,
			  nearest_checked);
	CHECK_MSG(st->located > 0 && st->filtered > 0 && st->open_box_empty > 0 && st->exact > 0,
			  "ways taken: %llu located, %llu filtered, %llu empty open boxes, %llu exact",
			  (unsigned long long) st->located, (unsigned long long) st->filtered,
			  (unsigned long long) st->open_box_empty, (unsigned long long) st->exact);
	printf("rounded volumes in %d boxes: %llu located, %llu filtered, %llu empty open boxes, %llu exact\n",
		   nearest_checked, (unsigned long long) st->located, (unsigned long long) st->filtered,
		   (unsigned long long) st->open_box_empty, (unsigned long long) st->exact);
}

/* ---- voxels ------------------------------------------------------------------------------------------- */

#define NV 5
static bool vox[NV][NV][NV];

static bool
filled(int i, int j, int k)
{
	return i >= 0 && j >= 0 && k >= 0 && i < NV && j < NV && k < NV && vox[i][j][k];
}

/* The boundary of the voxels: every face between a filled and an empty cell, oriented outward. */
static void
voxel_surface(Tris *t, const double o[3], double h)
{
	for (int i = 0; i < NV; i++)
		for (int j = 0; j < NV; j++)
			for (int k = 0; k < NV; k++)
			{
				double		p[8][3];

				if (!vox[i][j][k])
					continue;
				for (int c = 0; c < 8; c++)
				{
					p[c][0] = o[0] + h * (i + (c & 1));
					p[c][1] = o[1] + h * (j + ((c >> 1) & 1));
					p[c][2] = o[2] + h * (k + ((c >> 2) & 1));
				}
				if (!filled(i - 1, j, k))
					add_quad(t, p[0], p[4], p[6], p[2]);
				if (!filled(i + 1, j, k))
					add_quad(t, p[1], p[3], p[7], p[5]);
				if (!filled(i, j - 1, k))
					add_quad(t, p[0], p[1], p[5], p[4]);
				if (!filled(i, j + 1, k))
					add_quad(t, p[2], p[6], p[7], p[3]);
				if (!filled(i, j, k - 1))
					add_quad(t, p[0], p[2], p[3], p[1]);
				if (!filled(i, j, k + 1))
					add_quad(t, p[4], p[5], p[7], p[6]);
			}
}

/* The overlap of [a0, a1] and [b0, b1], exactly (0 when they miss). */
static void
overlap(mpq_t out, double a0, double a1, double b0, double b1)
{
	double		lo = fmax(a0, b0),
				hi = fmin(a1, b1);
	mpq_t		l;

	mpq_set_ui(out, 0, 1);
	if (hi <= lo)
		return;
	mpq_init(l);
	mpq_set_d(out, hi);
	mpq_set_d(l, lo);
	mpq_sub(out, out, l);
	mpq_clear(l);
}

/* A box bound near the voxel grid: on a grid plane, a quarter off it, or a random double. */
static double
near_grid(double o, double h)
{
	switch (gx_test_rand32() % 4)
	{
		case 0:
			return o + h * (int) (gx_test_rand32() % (NV + 1));
		case 1:
			return o + h * ((int) (gx_test_rand32() % (4 * NV + 4)) - 2) / 4.0;
		case 2:
			return o + h * (NV + 2) * (gx_test_rand32() * 0x1p-32) - h;
		default:
			return nextafter(o + h * (int) (gx_test_rand32() % (NV + 1)), gx_test_rand32() % 2 ? INFINITY : -INFINITY);
	}
}

static void
test_voxels(void)
{
	const double o[3] = {500000.25, 7000000.5, 250.0};
	const double h = 2.5;
	GxVolumeWork w;
	mpq_t		got,
				want,
				a,
				b,
				c;
	int			mismatches = 0,
				boxes = 0;

	gx_volume_work_init(&w);
	mpq_inits(got, want, a, b, c, NULL);
	for (int round = 0; round < 40; round++)
	{
		Tris		t = {0};

		for (int i = 0; i < NV; i++)
			for (int j = 0; j < NV; j++)
				for (int k = 0; k < NV; k++)
					vox[i][j][k] = gx_test_rand32() % 100 < 45;
		voxel_surface(&t, o, h);
		if (t.n == 0)
			continue;
		for (int q = 0; q < 60; q++)
		{
			GxBox3D		box;
			double		lo[3],
						hi[3];

			for (int k = 0; k < 3; k++)
			{
				double		x = near_grid(o[k], h),
							y = near_grid(o[k], h);

				lo[k] = fmin(x, y);
				hi[k] = fmax(x, y);
			}
			box = (GxBox3D) {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
			mpq_set_ui(want, 0, 1);
			for (int i = 0; i < NV; i++)
				for (int j = 0; j < NV; j++)
					for (int k = 0; k < NV; k++)
					{
						if (!vox[i][j][k])
							continue;
						overlap(a, o[0] + h * i, o[0] + h * (i + 1), lo[0], hi[0]);
						overlap(b, o[1] + h * j, o[1] + h * (j + 1), lo[1], hi[1]);
						overlap(c, o[2] + h * k, o[2] + h * (k + 1), lo[2], hi[2]);
						mpq_mul(a, a, b);
						mpq_mul(a, a, c);
						mpq_add(want, want, a);
					}
			volume_in_box(&t, &box, &w, got);
			boxes++;
			if (!mpq_equal(got, want))
			{
				if (mismatches++ < 5)
					gmp_fprintf(stderr, "voxels round %d box %d: got %Qd, want %Qd\n", round, q, got, want);
			}
		}
		free(t.v);
	}
	CHECK_MSG(mismatches == 0, "%d of %d voxel boxes differ", mismatches, boxes);
	mpq_clears(got, want, a, b, c, NULL);
	gx_volume_work_clear(&w);
}

/* ---- terrain blocks -------------------------------------------------------------------------------- */

#define G 6

/* A block over a G x G grid: flat bottom at z0, a top of random heights, vertical walls. */
static void
terrain(Tris *t, double x0, double y0, double z0, double dx, double dy, double *heights)
{
	double		top[G + 1][G + 1][3],
				bot[G + 1][G + 1][3];

	for (int i = 0; i <= G; i++)
		for (int j = 0; j <= G; j++)
		{
			double		x = x0 + dx * i,
						y = y0 + dy * j;

			heights[i * (G + 1) + j] = z0 + 1.0 + (gx_test_rand32() * 0x1p-32) * 7.3;
			top[i][j][0] = bot[i][j][0] = x;
			top[i][j][1] = bot[i][j][1] = y;
			top[i][j][2] = heights[i * (G + 1) + j];
			bot[i][j][2] = z0;
		}
	for (int i = 0; i < G; i++)
		for (int j = 0; j < G; j++)
		{
			add_quad(t, top[i][j], top[i + 1][j], top[i + 1][j + 1], top[i][j + 1]);
			add_quad(t, bot[i][j], bot[i][j + 1], bot[i + 1][j + 1], bot[i + 1][j]);
		}
	for (int i = 0; i < G; i++)
	{
		add_quad(t, bot[i][0], bot[i + 1][0], top[i + 1][0], top[i][0]);
		add_quad(t, bot[i + 1][G], bot[i][G], top[i][G], top[i + 1][G]);
		add_quad(t, bot[0][i + 1], bot[0][i], top[0][i], top[0][i + 1]);
		add_quad(t, bot[G][i], bot[G][i + 1], top[G][i + 1], top[G][i]);
	}
}

/* (1/6) sum a.(b x c): the divergence theorem with the field x/3, exactly. */
static void
volume_oracle(const Tris *t, mpq_t out)
{
	mpq_t		p[9],
				d,
				e;

	for (int k = 0; k < 9; k++)
		mpq_init(p[k]);
	mpq_inits(d, e, NULL);
	mpq_set_ui(out, 0, 1);
	for (size_t i = 0; i < t->n; i++)
	{
		for (int k = 0; k < 9; k++)
			mpq_set_d(p[k], t->v[9 * i + k]);
		/* a . (b x c) */
		for (int r = 0; r < 3; r++)
		{
			int			s = (r + 1) % 3,
						u = (r + 2) % 3;

			mpq_mul(d, p[3 + s], p[6 + u]);
			mpq_mul(e, p[3 + u], p[6 + s]);
			mpq_sub(d, d, e);
			mpq_mul(d, d, p[r]);
			mpq_add(out, out, d);
		}
	}
	mpq_set_ui(d, 6, 1);
	mpq_div(out, out, d);
	for (int k = 0; k < 9; k++)
		mpq_clear(p[k]);
	mpq_clears(d, e, NULL);
}

/* Cut values along an axis: a vertex coordinate, a random double between, or outside. */
static void
cuts(double *c, int n, double lo, double hi, const double *grid, int ngrid)
{
	for (int k = 0; k < n; k++)
		c[k] = gx_test_rand32() % 2 ? grid[gx_test_rand32() % ngrid] : lo + (hi - lo) * (gx_test_rand32() * 0x1p-32);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && c[j] < c[j - 1]; j--)
		{
			double		x = c[j];

			c[j] = c[j - 1];
			c[j - 1] = x;
		}
}

static void
test_terrain(void)
{
	GxVolumeWork w;
	mpq_t		whole,
				oracle,
				sum,
				part;
	int			bad_whole = 0,
				bad_sum = 0,
				bad_round = 0,
				rounds = 30;

	gx_volume_work_init(&w);
	mpq_inits(whole, oracle, sum, part, NULL);
	for (int round = 0; round < rounds; round++)
	{
		Tris		t = {0};
		double		heights[(G + 1) * (G + 1)];
		double		x0 = 500000.0 + gx_test_rand32() % 1000 + 0.1,
					y0 = 7000000.0 + gx_test_rand32() % 1000 + 0.3,
					z0 = 250.0 + 0.7,
					dx = 3.7,
					dy = 2.9;
		double		gx[G + 1],
					gy[G + 1],
					cx[6],
					cy[6],
					cz[6];

		terrain(&t, x0, y0, z0, dx, dy, heights);
		gx_volume_exact(t.v, t.n, &w, whole);
		volume_oracle(&t, oracle);
		if (!mpq_equal(whole, oracle) || mpq_sgn(whole) <= 0)
			bad_whole++;
		/* rounding: the double nearest to the oracle's value */
		{
			double		r = gx_mpq_get_d_nearest(oracle);
			mpq_t		lo,
						hi,
						x;

			mpq_inits(lo, hi, x, NULL);
			mpq_set_d(lo, nextafter(r, -INFINITY));
			mpq_set_d(hi, nextafter(r, INFINITY));
			mpq_set_d(x, r);
			/* |oracle - r| <= |oracle - neighbour| for both neighbours */
			mpq_sub(lo, oracle, lo);
			mpq_sub(hi, hi, oracle);
			mpq_sub(x, oracle, x);
			mpq_abs(x, x);
			mpq_abs(lo, lo);
			mpq_abs(hi, hi);
			if (mpq_cmp(x, lo) > 0 || mpq_cmp(x, hi) > 0)
				bad_round++;
			mpq_clears(lo, hi, x, NULL);
		}
		/* a partition of space into 7 x 7 x 7 boxes (the outer ones reaching far out) */
		for (int i = 0; i <= G; i++)
		{
			gx[i] = x0 + dx * i;
			gy[i] = y0 + dy * i;
		}
		cuts(cx, 6, x0, x0 + dx * G, gx, G + 1);
		cuts(cy, 6, y0, y0 + dy * G, gy, G + 1);
		cuts(cz, 6, z0, z0 + 8.3, heights, (G + 1) * (G + 1));
		mpq_set_ui(sum, 0, 1);
		for (int i = 0; i <= 6; i++)
			for (int j = 0; j <= 6; j++)
				for (int k = 0; k <= 6; k++)
				{
					GxBox3D		box = {i ? cx[i - 1] : x0 - 100, j ? cy[j - 1] : y0 - 100, k ? cz[k - 1] : z0 - 100,
						i < 6 ? cx[i] : x0 + 1000, j < 6 ? cy[j] : y0 + 1000, k < 6 ? cz[k] : z0 + 100};

					volume_in_box(&t, &box, &w, part);
					mpq_add(sum, sum, part);
				}
		if (!mpq_equal(sum, whole))
		{
			if (bad_sum++ < 3)
				gmp_fprintf(stderr, "terrain round %d: the boxes add up to %Qd, the whole is %Qd\n", round, sum, whole);
		}
		free(t.v);
	}
	CHECK_MSG(bad_whole == 0, "%d of %d whole volumes differ from (1/6) sum a.(b x c)", bad_whole, rounds);
	CHECK_MSG(bad_round == 0, "%d of %d volumes are not the nearest double", bad_round, rounds);
	CHECK_MSG(bad_sum == 0, "%d of %d partitions do not add up to the whole volume", bad_sum, rounds);
	mpq_clears(whole, oracle, sum, part, NULL);
	gx_volume_work_clear(&w);
}

/* ---- hand cases ------------------------------------------------------------------------------------ */

/* The cube [a, b]^3, outward (inward for a cavity). */
static void
cube(Tris *t, double a, double b, bool inward)
{
	const double lo[3] = {a, a, a},
				hi[3] = {b, b, b};

	add_box(t, lo, hi, inward);
}

static double
rounded_in_box(const Tris *t, GxBox3D box)
{
	GxVolumeWork w;
	mpq_t		v;
	double		d;

	gx_volume_work_init(&w);
	mpq_init(v);
	volume_in_box(t, &box, &w, v);
	d = gx_mpq_get_d_nearest(v);
	mpq_clear(v);
	gx_volume_work_clear(&w);
	return d;
}

static void
test_hand(void)
{
	Tris		t = {0},
				hollow = {0};
	GxVolumeWork w;
	mpq_t		v;

	cube(&t, 0, 1, false);
	gx_volume_work_init(&w);
	mpq_init(v);
	gx_volume_exact(t.v, t.n, &w, v);
	CHECK(mpq_cmp_ui(v, 1, 1) == 0);
	CHECK(rounded_in_box(&t, (GxBox3D) {0.5, -1, -1, 2, 2, 2}) == 0.5);
	CHECK(rounded_in_box(&t, (GxBox3D) {-1, -1, 0.5, 2, 2, 2}) == 0.5);
	CHECK(rounded_in_box(&t, (GxBox3D) {0, 0, 0, 1, 1, 1}) == 1);
	CHECK(rounded_in_box(&t, (GxBox3D) {0.25, 0.25, 0.25, 0.75, 0.75, 0.75}) == 0.125);
	/* touching a face, an edge, a vertex: nothing inside */
	CHECK(rounded_in_box(&t, (GxBox3D) {1, 0, 0, 2, 1, 1}) == 0);
	CHECK(rounded_in_box(&t, (GxBox3D) {1, 1, 0, 2, 2, 1}) == 0);
	CHECK(rounded_in_box(&t, (GxBox3D) {1, 1, 1, 2, 2, 2}) == 0);
	CHECK(rounded_in_box(&t, (GxBox3D) {0, 0, 1, 1, 1, 3}) == 0);
	/* a flat box has no volume */
	CHECK(rounded_in_box(&t, (GxBox3D) {0.5, 0, 0, 0.5, 1, 1}) == 0);
	/* one third: the nearest double */
	CHECK(rounded_in_box(&t, (GxBox3D) {0, 0, 0, 1.0 / 3, 1, 1}) == 1.0 / 3);
	/* a cavity: a cube of side 1/2 inside, oriented inward */
	cube(&hollow, 0, 1, false);
	cube(&hollow, 0.25, 0.75, true);
	gx_volume_exact(hollow.v, hollow.n, &w, v);
	CHECK(gx_mpq_get_d_nearest(v) == 0.875);
	CHECK(rounded_in_box(&hollow, (GxBox3D) {0.25, 0.25, 0.25, 0.75, 0.75, 0.75}) == 0);
	CHECK(rounded_in_box(&hollow, (GxBox3D) {0, 0, 0, 0.5, 0.5, 0.5}) == 0.125 - 0.015625);
	CHECK(rounded_in_box(&hollow, (GxBox3D) {0.3, 0.3, 0.3, 0.4, 0.4, 0.4}) == 0);
	mpq_clear(v);
	gx_volume_work_clear(&w);
	free(t.v);
	free(hollow.v);
}

/* gx_volume_pairs over a block model of two solids equals gx_volume_in_box_exact block by block. */
static void
test_pairs(void)
{
	Tris		t[2] = {{0}, {0}};
	GxSolidIndex s[3];
	GxBox3D		boxes[512];
	GxVolumePair *pairs;
	size_t		npairs,
				nb = 0,
				want = 0,
				k = 0;
	GxError		err = {GX_OK, ""};
	GxVolumeWork w;
	GxBatchOptions opt;
	mpq_t		v;
	int			differ = 0;

	cube(&t[0], 0, 1, false);
	cube(&t[1], 0.5, 2, false);
	for (int i = 0; i < 2; i++)
		CHECK(gx_solid_index_build(&s[i], t[i].v, t[i].n, &err));
	CHECK(gx_solid_index_build(&s[2], NULL, 0, &err));	/* an EMPTY solid */
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			for (int l = 0; l < 8; l++)
				boxes[nb++] = (GxBox3D) {-0.1 + 0.3 * i, -0.1 + 0.3 * j, -0.1 + 0.3 * l, 0.2 + 0.3 * i, 0.2 + 0.3 * j, 0.2 + 0.3 * l};
	gx_batch_options_default(&opt);
	opt.threads = 2;
	CHECK(gx_volume_pairs(boxes, nb, s, 3, &opt, &pairs, &npairs, &err));
	gx_volume_work_init(&w);
	mpq_init(v);
	for (size_t i = 0; i < nb; i++)
		for (uint32_t j = 0; j < 3; j++)
		{
			gx_volume_in_box_exact(&s[j], &boxes[i], &w, v);
			if (mpq_sgn(v) <= 0)
				continue;
			want++;
			if (k < npairs && pairs[k].a == i && pairs[k].b == j && pairs[k].volume == gx_mpq_get_d_nearest(v))
				k++;
			else
				differ++;
		}
	CHECK_MSG(differ == 0 && k == npairs && npairs == want, "gx_volume_pairs: %zu pairs, %zu wanted, %d differ",
			  npairs, want, differ);
	free(pairs);
	mpq_clear(v);
	gx_volume_work_clear(&w);
	for (int i = 0; i < 3; i++)
		gx_solid_index_free(&s[i]);
	free(t[0].v);
	free(t[1].v);
}

/*
 * A cube of side 1e-110 (volume 1e-330, which rounds to 0): a box around it, one inside it and one cut by
 * its surface each share a positive exact volume, and are listed with the volume 0; a box beside it is not.
 */
static void
test_pairs_below_subnormal(void)
{
	Tris		t = {0};
	GxSolidIndex s;
	GxBox3D		boxes[4] = {{-1, -1, -1, 1, 1, 1}, {2.5e-111, 2.5e-111, 2.5e-111, 7.5e-111, 7.5e-111, 7.5e-111},
	{5e-111, 5e-111, 5e-111, 1, 1, 1}, {2e-110, 0, 0, 1, 1, 1}};
	GxVolumePair *pairs;
	size_t		npairs;
	GxError		err = {GX_OK, ""};
	GxVolumeWork w;
	GxBatchOptions opt;
	mpq_t		v;

	cube(&t, 0, 1e-110, false);
	CHECK(gx_solid_index_build(&s, t.v, t.n, &err));
	gx_batch_options_default(&opt);
	opt.threads = 1;
	CHECK(gx_volume_pairs(boxes, 4, &s, 1, &opt, &pairs, &npairs, &err));
	CHECK_MSG(npairs == 3, "%zu pairs, 3 wanted", npairs);
	gx_volume_work_init(&w);
	mpq_init(v);
	for (size_t k = 0; k < npairs && k < 3; k++)
	{
		gx_volume_in_box_exact(&s, &boxes[pairs[k].a], &w, v);
		CHECK_MSG(pairs[k].a == k && pairs[k].volume == 0 && mpq_sgn(v) > 0, "pair %zu: box %u, volume %g",
				  k, pairs[k].a, pairs[k].volume);
	}
	free(pairs);
	mpq_clear(v);
	gx_volume_work_clear(&w);
	gx_solid_index_free(&s);
	free(t.v);
}

int
main(void)
{
	test_pairs();
	test_pairs_below_subnormal();
	test_hand();
	test_voxels();
	test_terrain();
	test_nearest();
	return gx_test_report("test_volume");
}
