/*
 * test_open_box.c: the exact triangle / open box test (algorithm/gx_open_box.h) and the certified
 * double-doubles under the volume filter (algorithm/gx_ddi.h), against GMP rationals.
 *  - gx_triangle_meets_open_box against an oracle that shares none of its code: the triangle clipped to the
 *    closed box in rationals (Sutherland-Hodgman); the open box is met exactly when the clipped polygon is
 *    not empty and the mean of its vertices, a point of its relative interior, lies strictly inside (a convex
 *    set in a closed box misses the open box only when it lies in one face's plane). Triangles on a small
 *    grid touch the box on faces, edges and corners; some are moved by one ulp, some are degenerate
 *    (segments, points), some sit at UTM offsets.
 *  - every gx_ddi operation's enclosure holds the exact value, over chains of sums, products and quotients
 *    of UTM-sized and tiny inputs, and a rounding it certifies is the exact value's nearest double.
 */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>

#include "algorithm/gx_ddi.h"
#include "algorithm/gx_open_box.h"
#include "algorithm/gx_round.h"
#include "gx_test.h"

/* ---- the oracle: clipping in rationals ------------------------------------------------------------------ */

#define MAXV 16

typedef mpq_t QVertex[3];

/* The part of polygon in (n vertices) with coordinate k >= bound (ge) or <= bound, into out. */
static int
clip_q(QVertex *in, int n, QVertex *out, int k, mpq_srcptr bound, bool ge, mpq_t t, mpq_t u)
{
	int			m = 0;

	for (int i = 0; i < n; i++)
	{
		QVertex    *p = &in[i],
				   *q = &in[(i + 1) % n];
		int			sp = mpq_cmp((*p)[k], bound) * (ge ? 1 : -1),
					sq = mpq_cmp((*q)[k], bound) * (ge ? 1 : -1);

		if (sp >= 0)
		{
			for (int c = 0; c < 3; c++)
				mpq_set(out[m][c], (*p)[c]);
			m++;
		}
		if ((sp > 0 && sq < 0) || (sp < 0 && sq > 0))
		{
			mpq_sub(t, bound, (*p)[k]);
			mpq_sub(u, (*q)[k], (*p)[k]);
			mpq_div(t, t, u);
			for (int c = 0; c < 3; c++)
			{
				mpq_sub(u, (*q)[c], (*p)[c]);
				mpq_mul(u, u, t);
				mpq_add(out[m][c], (*p)[c], u);
			}
			m++;
		}
	}
	return m;
}

static bool
oracle_meets(const double *tri, const GxBox3D *box)
{
	static QVertex a[MAXV],
				b[MAXV];
	static bool ready;
	const double lo[3] = {box->xmin, box->ymin, box->zmin},
				hi[3] = {box->xmax, box->ymax, box->zmax};
	QVertex    *p = a,
			   *q = b,
			   *swap;
	mpq_t		bound,
				t,
				u,
				mean;
	int			n = 3;
	bool		inside = true;

	if (!ready)
	{
		for (int i = 0; i < MAXV; i++)
			for (int c = 0; c < 3; c++)
			{
				mpq_init(a[i][c]);
				mpq_init(b[i][c]);
			}
		ready = true;
	}
	mpq_inits(bound, t, u, mean, NULL);
	for (int i = 0; i < 3; i++)
		for (int c = 0; c < 3; c++)
			mpq_set_d(p[i][c], tri[3 * i + c]);
	for (int k = 0; k < 3 && n > 0; k++)
	{
		mpq_set_d(bound, lo[k]);
		n = clip_q(p, n, q, k, bound, true, t, u);
		swap = p, p = q, q = swap;
		mpq_set_d(bound, hi[k]);
		n = clip_q(p, n, q, k, bound, false, t, u);
		swap = p, p = q, q = swap;
	}
	for (int k = 0; k < 3 && n > 0; k++)
	{
		mpq_set_ui(mean, 0, 1);
		for (int i = 0; i < n; i++)
			mpq_add(mean, mean, p[i][k]);
		mpq_set_ui(t, n, 1);
		mpq_div(mean, mean, t);
		mpq_set_d(bound, lo[k]);
		inside &= mpq_cmp(mean, bound) > 0;
		mpq_set_d(bound, hi[k]);
		inside &= mpq_cmp(mean, bound) < 0;
	}
	mpq_clears(bound, t, u, mean, NULL);
	return n > 0 && inside;
}

/* ---- triangles near a box ------------------------------------------------------------------------------- */

/* A coordinate on the grid -1 .. 4 around the box [0, 3]^3 (scaled and offset), sometimes one ulp off. */
static double
grid_coordinate(double offset, double scale)
{
	double		x = offset + scale * ((int) (gx_test_rand32() % 6) - 1);

	switch (gx_test_rand32() % 8)
	{
		case 0:
			return nextafter(x, INFINITY);
		case 1:
			return nextafter(x, -INFINITY);
		case 2:
			return offset + scale * (gx_test_rand32() % 1000) / 250.0 - scale;
		default:
			return x;
	}
}

static void
test_open_box(void)
{
	const double offsets[3][3] = {{0, 0, 0}, {512345.5, 7012345.25, 1234.0}, {-3.0, 1e-3, 2.5}};
	int			differ = 0,
				met = 0,
				total = 0;

	for (int o = 0; o < 3; o++)
	{
		const double *off = offsets[o];
		double		scale = o == 2 ? 1e-6 : 1.0;
		GxBox3D		box = {off[0], off[1], off[2], off[0] + 3 * scale, off[1] + 3 * scale, off[2] + 3 * scale};

		for (int r = 0; r < 20000; r++)
		{
			double		t[9];
			bool		got,
						want;

			for (int i = 0; i < 3; i++)
				for (int k = 0; k < 3; k++)
					t[3 * i + k] = grid_coordinate(off[k], scale);
			switch (gx_test_rand32() % 6)
			{
				case 0:			/* a point */
					for (int k = 0; k < 3; k++)
						t[3 + k] = t[6 + k] = t[k];
					break;
				case 1:			/* a segment: the third vertex repeats one */
					for (int k = 0; k < 3; k++)
						t[6 + k] = t[3 + k];
					break;
				default:
					break;
			}
			got = gx_triangle_meets_open_box(t, &box);
			want = oracle_meets(t, &box);
			total++;
			met += want;
			if (got != want && differ++ < 5)
				fprintf(stderr, "open box: got %d want %d for (%.17g %.17g %.17g, %.17g %.17g %.17g, %.17g %.17g %.17g)\n",
						got, want, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8]);
		}
	}
	CHECK_MSG(differ == 0, "%d of %d triangles decided against the oracle", differ, total);
	CHECK_MSG(met > total / 10 && met < total - total / 10, "%d of %d triangles meet the open box", met, total);
	/* a flat box has no inside; a triangle in a face's plane does not meet it */
	{
		GxBox3D		flat = {0, 0, 0, 1, 1, 0};
		const double in_face[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
		GxBox3D		cube = {0, 0, 0, 1, 1, 1};
		const double through[9] = {0.5, 0.5, -1, 0.5, 0.5, 2, 0.5, 0.6, 2};

		CHECK(!gx_triangle_meets_open_box(through, &flat));
		CHECK(!gx_triangle_meets_open_box(in_face, &cube));
		CHECK(gx_triangle_meets_open_box(through, &cube));
	}
}

/* ---- certified double-doubles ---------------------------------------------------------------------------- */

/* Does the enclosure of a hold q? */
static bool
encloses(const GxDDI *a, mpq_srcptr q, mpq_t t, mpq_t u)
{
	if (!isfinite(a->hi) || !isfinite(a->lo) || !isfinite(a->rad))
		return true;			/* no information: nothing to hold */
	mpq_set_d(t, a->hi);
	mpq_set_d(u, a->lo);
	mpq_add(t, t, u);
	mpq_sub(t, q, t);
	mpq_abs(t, t);
	mpq_set_d(u, a->rad);
	return mpq_cmp(t, u) <= 0;
}

static double
random_input(void)
{
	switch (gx_test_rand32() % 4)
	{
		case 0:
			return 500000.0 + (gx_test_rand32() % 100000) / 64.0;
		case 1:
			return 7000000.0 + (gx_test_rand32() % 100000) / 1024.0;
		case 2:
			return ((int) (gx_test_rand32() % 2001) - 1000) * 1e-300;
		default:
			return ((int) (gx_test_rand32() % 2001) - 1000) / 7.0;
	}
}

static void
test_ddi(void)
{
	enum
	{
		N = 8
	};
	gx_ddi_t	x[N];
	mpq_t		q[N],
				t,
				u;
	int			wrong = 0,
				ops = 0,
				rounded = 0,
				bad_round = 0;

	for (int i = 0; i < N; i++)
		mpq_init(q[i]);
	mpq_inits(t, u, NULL);
	for (int r = 0; r < 4000; r++)
	{
		for (int i = 0; i < N; i++)
		{
			double		d = random_input();

			gx_ddi_set_d(x[i], d);
			mpq_set_d(q[i], d);
		}
		for (int step = 0; step < 24; step++)
		{
			int			a = gx_test_rand32() % N,
						b = gx_test_rand32() % N,
						z = gx_test_rand32() % N,
						op = gx_test_rand32() % 4;
			double		d;

			if (op == 3 && mpq_sgn(q[b]) == 0)
				op = 2;
			switch (op)
			{
				case 0:
					gx_ddi_add(x[z], x[a], x[b]);
					mpq_add(q[z], q[a], q[b]);
					break;
				case 1:
					gx_ddi_sub(x[z], x[a], x[b]);
					mpq_sub(q[z], q[a], q[b]);
					break;
				case 2:
					gx_ddi_mul(x[z], x[a], x[b]);
					mpq_mul(q[z], q[a], q[b]);
					break;
				default:
					gx_ddi_div(x[z], x[a], x[b]);
					mpq_div(q[z], q[a], q[b]);
					break;
			}
			ops++;
			if (!encloses(x[z], q[z], t, u) && wrong++ < 5)
				gmp_fprintf(stderr, "ddi op %d: enclosure %.17g + %.17g +- %.3g misses %Qd\n", op, x[z]->hi,
							x[z]->lo, x[z]->rad, q[z]);
			if (gx_ddi_round(x[z], &d))
			{
				rounded++;
				bad_round += d != gx_mpq_get_d_nearest(q[z]);
			}
			/* keep values in a range where chains stay finite */
			if (!isfinite(x[z]->rad) || fabs(x[z]->hi) > 1e60 || (x[z]->hi != 0 && fabs(x[z]->hi) < 1e-250))
			{
				gx_ddi_set_d(x[z], 1.5);
				mpq_set_d(q[z], 1.5);
			}
		}
	}
	CHECK_MSG(wrong == 0, "%d of %d double-double enclosures miss the exact value", wrong, ops);
	CHECK_MSG(bad_round == 0 && rounded > ops / 2, "%d of %d certified roundings are wrong (%d operations)", bad_round,
			  rounded, ops);
	for (int i = 0; i < N; i++)
		mpq_clear(q[i]);
	mpq_clears(t, u, NULL);
}

int
main(void)
{
	gx_test_seed(UINT64_C(0x2545F4914F6CDD1D));
	test_open_box();
	test_ddi();
	return gx_test_report("test_open_box");
}
