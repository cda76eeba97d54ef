/* test_boxstats.c: box statistics for selectivity: the model's limits, its estimates against counted overlaps. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "geom/gx_box.h"
#include "gx_test.h"
#include "index/gx_boxstats.h"

static double
uniform(double lo, double hi)
{
	return lo + (hi - lo) * (rand() / (RAND_MAX + 1.0));
}

static GxBox3D
box_at(double x, double y, double z, double wx, double wy, double wz)
{
	GxBox3D		b = {x, y, z, x + wx, y + wy, z + wz};

	return b;
}

typedef struct Stats
{
	double		v[GX_BOXSTATS_HEADER + GX_BOXSTATS_MAX_CELLS];
	GxBoxStats	s;
} Stats;

static void
build(Stats *st, const GxBox3D *boxes, size_t n, size_t nempty)
{
	size_t		len = gx_boxstats_build(boxes, n, nempty, st->v);

	CHECK(gx_boxstats_decode(st->v, len, &st->s));
}

static double
overlap_with_box(const GxBoxStats *s, const GxBox3D *q)
{
	GxBoxStats	qs;
	double		cell;

	gx_boxstats_of_box(q, &qs, &cell);
	return gx_boxstats_overlap(s, &qs);
}

/* Counted fraction of pairs of a x b whose boxes overlap. */
static double
counted(const GxBox3D *a, size_t na, const GxBox3D *b, size_t nb)
{
	size_t		i,
				j,
				hits = 0;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			hits += gx_box_overlaps(&a[i], &b[j]);
	return (double) hits / ((double) na * nb);
}

static bool
within(double estimate, double truth, double factor)
{
	return estimate >= truth / factor && estimate <= truth * factor;
}

/* Two single boxes: the model is the overlap test itself (integer coordinates: no rounding). */
static void
single_boxes(void)
{
	int			k,
				wrong = 0;

	for (k = 0; k < 20000; k++)
	{
		GxBox3D		a = box_at(rand() % 9, rand() % 9, rand() % 9, rand() % 4, rand() % 4, rand() % 4),
					b = box_at(rand() % 9, rand() % 9, rand() % 9, rand() % 4, rand() % 4, rand() % 4);
		double		p = overlap_with_box(&(GxBoxStats) {0}, &a);	/* no cells: 0 */
		GxBoxStats	as;
		double		cell;

		CHECK(p == 0);
		gx_boxstats_of_box(&a, &as, &cell);
		p = overlap_with_box(&as, &b);
		wrong += p != (gx_box_overlaps(&a, &b) ? 1.0 : 0.0);
	}
	CHECK_MSG(wrong == 0, "%d of 20000 single-box pairs disagree with the overlap test", wrong);
}

/*
 * One cell (fewer than ten boxes): centres uniform over their extent, the mean width; against a Monte
 * Carlo draw of that very model, for intervals, points and flat sets on each axis.
 */
static void
one_cell_model(void)
{
	static const double spans[][3] = {{10, 6, 4}, {10, 0, 4}, {0, 0, 0}, {1e-9, 5, 1e9}};
	int			t,
				k,
				d;

	for (t = 0; t < 4; t++)
	{
		GxBox3D		two[2] = {box_at(0, 0, 0, 2, 1, 0), box_at(spans[t][0], spans[t][1], spans[t][2], 2, 3, 0)};
		GxBox3D		q;
		double		qb[6];
		Stats		st;
		double		p,
					mc = 0;
		const int	draws = 400000;

		build(&st, two, 2, 0);
		/* a query box a fifth of the extent wide (at least 0.5), off the middle of the centres */
		for (d = 0; d < 3; d++)
		{
			double		w = spans[t][d] / 5 + 0.5,
						c = st.s.lo[d] / 2 + st.s.hi[d] / 2 + spans[t][d] * 0.3;

			qb[d] = c - w / 2;
			qb[d + 3] = c + w / 2;
		}
		q = box_at(qb[0], qb[1], qb[2], qb[3] - qb[0], qb[4] - qb[1], qb[5] - qb[2]);
		CHECK(st.s.n[0] == 1 && st.s.n[1] == 1 && st.s.n[2] == 1);
		p = overlap_with_box(&st.s, &q);
		for (k = 0; k < draws; k++)
		{
			int			hit = 1;

			for (d = 0; d < 3; d++)
			{
				double		c = uniform(st.s.lo[d], st.s.hi[d]);
				double		qc = GX_BOX_LO(&q, d) / 2 + GX_BOX_HI(&q, d) / 2;
				double		qw = GX_BOX_HI(&q, d) - GX_BOX_LO(&q, d);

				hit &= fabs(c - qc) <= (st.s.width[d] + qw) / 2;
			}
			mc += hit;
		}
		mc /= draws;
		CHECK_MSG(p > 0.01 && fabs(p - mc) < 0.005, "spans %g %g %g: model %.5f, Monte Carlo %.5f", spans[t][0], spans[t][1],
				  spans[t][2], p, mc);
	}
}

/* Random boxes: uniform, clustered, flat; join and restriction estimates against counted overlaps. */
static void
estimates(void)
{
	enum
	{
		NA = 3000, NB = 800
	};
	static GxBox3D a[NA],
				b[NB];
	static Stats sa,
				sb;
	int			layout,
				i,
				k;

	for (layout = 0; layout < 3; layout++)
	{
		for (i = 0; i < NA; i++)
		{
			double		cx = layout == 1 ? (i % 2 ? 1000 : 9000) + uniform(-500, 500) : uniform(0, 10000);

			a[i] = box_at(cx, uniform(0, 5000), layout == 2 ? 0 : uniform(-300, 0), uniform(0, 60), uniform(0, 60),
						  layout == 2 ? 0 : uniform(0, 200));
		}
		for (i = 0; i < NB; i++)
			b[i] = box_at(uniform(layout == 1 ? 0 : 2000, 10000), uniform(0, 5000), layout == 2 ? 0 : uniform(-300, 0),
						  uniform(50, 400), uniform(50, 300), layout == 2 ? 0 : uniform(10, 100));
		build(&sa, a, NA, 7);
		build(&sb, b, NB, 0);
		CHECK(sa.s.n[0] * sa.s.n[1] * sa.s.n[2] <= GX_BOXSTATS_MAX_CELLS && sa.s.n[0] > 1);
		CHECK(fabs(sa.s.empty_frac - 7.0 / (NA + 7)) < 1e-12 && sb.s.empty_frac == 0);
		{
			double		truth = counted(a, NA, b, NB),
						est = gx_boxstats_overlap(&sa.s, &sb.s),
						rev = gx_boxstats_overlap(&sb.s, &sa.s);

			CHECK_MSG(within(est, truth, 1.3), "layout %d: join estimate %.5f, counted %.5f", layout, est, truth);
			CHECK_MSG(fabs(est - rev) <= 1e-12 * est, "layout %d: not symmetric: %.17g %.17g", layout, est, rev);
		}
		for (k = 0; k < 20; k++)
		{
			GxBox3D		q = box_at(uniform(0, 9000), uniform(0, 4000), layout == 2 ? 0 : uniform(-300, 0),
								   uniform(100, 2000), uniform(100, 2000), layout == 2 ? 0 : uniform(0, 300));
			double		truth = counted(a, NA, &q, 1),
						est = overlap_with_box(&sa.s, &q);

			if (truth >= 0.01)	/* enough boxes counted to compare */
				CHECK_MSG(within(est, truth, 1.6), "layout %d, query %d: estimate %.5f, counted %.5f", layout, k, est,
						  truth);
		}
		if (layout == 2)
		{
			GxBox3D		above = box_at(0, 0, 1, 10000, 5000, 0);

			CHECK(overlap_with_box(&sa.s, &above) == 0);
		}
	}
}

/* No boxes, extreme coordinates, malformed encodings. */
static void
edges(void)
{
	Stats		st;
	GxBox3D		huge[3] = {box_at(-DBL_MAX, -DBL_MAX, 0, DBL_MAX, 1, 1), box_at(DBL_MAX / 2, 0, -1e300, DBL_MAX / 2, 1, 1),
	box_at(0, 0, 0, 0, 0, 0)};
	GxBox3D		q = box_at(-1e308, 0, 0, 1e308, 1, 1);
	size_t		len;
	double		p;

	len = gx_boxstats_build(NULL, 0, 5, st.v);
	CHECK(len == GX_BOXSTATS_HEADER && gx_boxstats_decode(st.v, len, &st.s) && st.s.empty_frac == 1);
	CHECK(overlap_with_box(&st.s, &q) == 0);
	len = gx_boxstats_build(NULL, 0, 0, st.v);
	CHECK(gx_boxstats_decode(st.v, len, &st.s) && st.s.empty_frac == 0);

	build(&st, huge, 3, 0);
	p = overlap_with_box(&st.s, &q);
	CHECK_MSG(p >= 0 && p <= 1, "extreme coordinates: %g", p);
	CHECK(gx_boxstats_overlap(&st.s, &st.s) >= 0 && gx_boxstats_overlap(&st.s, &st.s) <= 1);

	len = gx_boxstats_build(huge, 3, 0, st.v);
	CHECK(!gx_boxstats_decode(st.v, len - 1, &st.s));
	st.v[0] = 2;
	CHECK(!gx_boxstats_decode(st.v, len, &st.s));
	st.v[0] = GX_BOXSTATS_VERSION;
	st.v[2] = 1.5;
	CHECK(!gx_boxstats_decode(st.v, len, &st.s));
	st.v[2] = 1;
	st.v[GX_BOXSTATS_HEADER] = NAN;
	CHECK(!gx_boxstats_decode(st.v, len, &st.s));
}

int
main(void)
{
	srand(13);
	single_boxes();
	one_cell_model();
	estimates();
	edges();
	return gx_test_report("test_boxstats");
}
