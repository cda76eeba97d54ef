/*
 * bench_overlay.cpp: the exact volume of the common part of two ore bodies of about 5 000 triangles each, by
 * gpuexact's overlay (operation/gx_overlay.h, gx_overlay_volumes: index, cut, locate, sum, round) and by
 * CGAL's corefine_and_compute_intersection with exact constructions then PMP::volume, side by side in one
 * run, one thread each; the volume must be CGAL's exact one rounded once. Two cases: bodies of different
 * shapes about one centre, and a body with its copy shifted by 0.37 m. Usage: build/bench_overlay [n (4 n^2
 * triangles a body, 36)] [repeats (3)]. Built only where CGAL's headers are (make build/bench_overlay).
 * Then gpuexact's construction of the common part as a solid (gx_boolean_solid: cut, locate, round, mend,
 * checked valid), against the same CGAL time: on every core (its default: the work shared among the cores'
 * threads, 2 on the 2-core VM) and on one thread.
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "cgal_overlay.h"
extern "C"
{
#include "algorithm/gx_round.h"
#include "base/gx_alloc.h"
#include "gx_bench_data.h"
#include "operation/gx_boolean.h"
#include "operation/gx_solid_make.h"
#include "solid/gx_solid.h"
}

static double
now_ms()
{
	return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* Ore body `seed` made a solid, its triangles shifted by dx. */
static std::vector<double>
body(unsigned seed, int n, double dx)
{
	GxError		err = {GX_OK, ""};
	GxSerialized *g = gx_bench_ore_body(seed, 30, n),
			   *s;
	size_t		size,
				nt;
	const double *tri;
	std::vector<double> out;

	if (g == NULL || (s = gx_solid_from(g, NULL, &size, &err)) == NULL)
	{
		fprintf(stderr, "bench_overlay: no solid: %s\n", err.msg);
		exit(1);
	}
	tri = gx_solid_triangles(s, &nt);
	out.assign(tri, tri + 9 * nt);
	for (size_t i = 0; i < out.size(); i += 3)
		out[i] += dx;
	gx_free(g);
	gx_free(s);
	return out;
}

static void
run(const char *name, const std::vector<double> &a, const std::vector<double> &b, int repeats)
{
	Mesh		ma = mesh_of(a),
				mb = mesh_of(b);
	double		best_gx = 1e300,
				best_cgal = 1e300,
				best_make[2] = {1e300, 1e300},
				v_gx[3] = {0, 0, 0};
	mpq_t		c;
	GxError		err = {GX_OK, ""};
	size_t		made_triangles = 0;

	mpq_init(c);
	for (int r = 0; r < repeats; r++)
	{
		double		t0 = now_ms();

		if (!gx_rounded_volumes(a, b, v_gx, &err))
		{
			fprintf(stderr, "bench_overlay: %s\n", err.msg);
			exit(1);
		}
		best_gx = std::min(best_gx, now_ms() - t0);
	}
	for (int r = 0; r < repeats; r++)
	{
		Mesh		x = ma,
					y = mb,
					out;
		double		t0 = now_ms();

		if (!PMP::corefine_and_compute_intersection(x, y, out))
		{
			fprintf(stderr, "bench_overlay: CGAL failed\n");
			exit(1);
		}
		to_mpq(PMP::volume(out), c);
		best_cgal = std::min(best_cgal, now_ms() - t0);
	}
	for (int r = 0; r < 2 * repeats; r++)
	{
		GxSolidIndex ia,
					ib;
		GxOverlayOptions ov = {0, NULL, false, r % 2, NULL};	/* every core, then one thread */
		GxSerialized *common = NULL;
		size_t		size;
		double		t0 = now_ms();

		if (!gx_solid_index_build(&ia, a.data(), a.size() / 9, &err) ||
			!gx_solid_index_build(&ib, b.data(), b.size() / 9, &err) ||
			(common = gx_boolean_of_indexes(&ia, &ib, GX_BOOL_INTERSECTION, 0, &ov, &size, &err)) == NULL)
		{
			fprintf(stderr, "bench_overlay: %s\n", err.msg);
			exit(1);
		}
		best_make[r % 2] = std::min(best_make[r % 2], now_ms() - t0);
		gx_solid_triangles(common, &made_triangles);
		gx_free(common);
		gx_solid_index_free(&ia);
		gx_solid_index_free(&ib);
	}
	printf("%s: %zu and %zu triangles, common volume %.17g m3 (%s CGAL's exact one rounded once)\n"
		   "  gpuexact overlay (all three booleans' volumes, rounded once): %.1f ms\n"
		   "  CGAL corefine_and_compute_intersection + volume, exact constructions: %.1f ms\n"
		   "  ratio %.1fx (best of %d each)\n"
		   "  gpuexact gx_intersection as a solid (%zu triangles, checked valid): %.1f ms, ratio %.1fx;"
		   " on one thread %.1f ms, ratio %.1fx\n",
		   name, a.size() / 9, b.size() / 9, v_gx[0], v_gx[0] == gx_mpq_get_d_nearest(c) ? "equal to" : "DIFFERENT FROM",
		   best_gx, best_cgal, best_cgal / best_gx, repeats, made_triangles, best_make[0], best_cgal / best_make[0], best_make[1],
		   best_cgal / best_make[1]);
	mpq_clear(c);
}

int
main(int argc, char **argv)
{
	int			n = argc > 1 ? atoi(argv[1]) : 36,
				repeats = argc > 2 ? atoi(argv[2]) : 3;
	std::vector<double> a = body(1, n, 0);

	run("two bodies about one centre", a, body(2, n, 0), repeats);
	run("a body and its copy shifted 0.37 m", a, body(1, n, 0.37), repeats);
	return 0;
}
