/*
 * test_overlap_pairs.c: the batch of solids sharing a volume (operation/gx_overlap_pairs.h) against each pair's
 * own overlay (gx_overlay.h) over every pair, candidates or not: boxes on a coarse grid (identical, sharing
 * faces, edges, vertices, or only touching), octahedra jittered or not at UTM coordinates, a box with a cavity,
 * EMPTY solids, and copies of solids bit for bit (pairs that take the volumes of their mirrors). A pair
 * is listed exactly when its exact common volume is > 0, with that volume rounded once;
 * one thread and two give the same list; a cancel flag and the bound on cuts stop it with their errors.
 */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "algorithm/gx_round.h"
#include "geom/gx_box.h"
#include "gx_test.h"
#include "gx_test_tris.h"
#include "operation/gx_overlap_pairs.h"
#include "operation/gx_overlay.h"

#define NSOLIDS 48

/* Solid k of the set: a box on a grid of unit 1, an octahedron, a box with a cavity, or EMPTY (n == 0). */
static void
make_solid(int k, Tris *t)
{
	const double o[3] = {500000, 7000000, 300};

	if (k % 12 == 11)
		return;					/* EMPTY */
	if (k % 3 == 0 || k % 12 == 10)
	{
		double		lo[3],
					hi[3];

		for (int d = 0; d < 3; d++)
		{
			lo[d] = o[d] + (double) (gx_test_rand() % 4);
			hi[d] = lo[d] + 1 + (double) (gx_test_rand() % 2);
		}
		add_box(t, lo, hi, false);
		if (k % 12 == 10)
		{
			double		clo[3],
						chi[3];

			for (int d = 0; d < 3; d++)
			{
				clo[d] = lo[d] + 0.25;
				chi[d] = hi[d] - 0.25;
			}
			add_box(t, clo, chi, true);
		}
	}
	else
	{
		double		c[3];

		for (int d = 0; d < 3; d++)
			c[d] = o[d] + (double) (gx_test_rand() % 16) / 4;
		add_octahedron(t, c, 0.5 + (double) (gx_test_rand() % 4) / 4, k % 2 ? 0.25 : 0);
	}
}

static void
test_against_pairs(void)
{
	Tris		t[NSOLIDS] = {{0}};
	GxSolidIndex idx[NSOLIDS];
	GxBatchOptions opt;
	GxError		err = {GX_OK, ""};
	GxOverlapPair *one = NULL,
			   *two = NULL;
	size_t		none = 0,
				ntwo = 0,
				at = 0,
				positive = 0,
				zero_touching = 0;
	const size_t na = 30;		/* the first set: solids 0..29; the second: all of them */
	GxOverlaySums s;
	GxOverlayOptions ov = {0, NULL, false, 0, NULL};
	mpq_t		v;

	for (int k = 0; k < NSOLIDS; k++)
		make_solid(k, &t[k]);
	/* copies, bit for bit: solid 12 of solid 3 (both sets), solid 40 of solid 7 (the second set only) */
	for (int k = 0; k < 2; k++)
	{
		Tris	   *to = &t[k ? 40 : 12];
		const Tris *from = &t[k ? 7 : 3];

		to->n = 0;
		for (size_t i = 0; i < from->n; i++)
			add_tri(to, from->v + 9 * i, from->v + 9 * i + 3, from->v + 9 * i + 6);
	}
	for (int k = 0; k < NSOLIDS; k++)
		CHECK(gx_solid_index_build(&idx[k], t[k].v, t[k].n, &err));
	gx_batch_options_default(&opt);
	opt.threads = 1;
	CHECK_MSG(gx_overlap_pairs(idx, na, idx, NSOLIDS, &opt, 0, &one, &none, &err), "%s", err.msg);
	opt.threads = 2;
	CHECK_MSG(gx_overlap_pairs(idx, na, idx, NSOLIDS, &opt, 0, &two, &ntwo, &err), "%s", err.msg);
	CHECK(none == ntwo && (none == 0 || memcmp(one, two, none * sizeof(GxOverlapPair)) == 0));
	gx_overlay_sums_init(&s);
	mpq_init(v);
	for (uint32_t i = 0; i < na; i++)
		for (uint32_t j = 0; j < NSOLIDS; j++)
		{
			bool		listed = at < none && one[at].a == i && one[at].b == j;

			if (idx[i].n == 0 || idx[j].n == 0)
				mpq_set_ui(v, 0, 1);
			else
			{
				CHECK(gx_overlay_sums(&idx[i], &idx[j], &ov, &s, &err));
				gx_overlay_volume(&s, GX_BOOL_INTERSECTION, v);
			}
			CHECK_MSG(listed == (mpq_sgn(v) > 0), "pair (%u, %u): listed %d, exact volume %g", i, j, listed,
					  mpq_get_d(v));
			if (listed)
			{
				CHECK_MSG(one[at].volume == gx_mpq_get_d_nearest(v), "pair (%u, %u): %.17g, not %.17g", i, j,
						  one[at].volume, gx_mpq_get_d_nearest(v));
				at++;
				positive++;
			}
			else if (idx[i].n && idx[j].n && gx_box_overlaps(&idx[i].box, &idx[j].box))
				zero_touching++;
		}
	CHECK(at == none);
	/* the set must exercise both: pairs sharing a volume, and boxes meeting without one */
	CHECK_MSG(positive >= 30 && zero_touching >= 10, "%zu positive, %zu touching", positive, zero_touching);
	mpq_clear(v);
	gx_overlay_sums_clear(&s);
	free(one);
	free(two);
	/* errors: a triangle cut past the bound, a cancel */
	{
		volatile int flag = 1;

		CHECK(!gx_overlap_pairs(idx, na, idx, NSOLIDS, &opt, 2, &one, &none, &err) && err.code == GX_ERR_LIMIT &&
			  one == NULL && none == 0);
		opt.cancel.flag[0] = &flag;
		err.code = GX_OK;
		CHECK(!gx_overlap_pairs(idx, na, idx, NSOLIDS, &opt, 0, &one, &none, &err) &&
			  err.code == GX_ERR_CANCELLED && one == NULL);
	}
	/* no solid on a side: nothing */
	CHECK(gx_overlap_pairs(idx, 0, idx, NSOLIDS, &opt, 0, &one, &none, &err) && none == 0);
	for (int k = 0; k < NSOLIDS; k++)
	{
		gx_solid_index_free(&idx[k]);
		free(t[k].v);
	}
}

int
main(void)
{
	test_against_pairs();
	return gx_test_report("test_overlap_pairs");
}
