/*
 * test_split.c: a solid split by an open surface (operation/gx_split.h), against oracles that share none of
 * the split's code. Where the surface is a height field over a grid, the part below it is the solid's
 * intersection with the prism between the surface and a plane below the solid, and the part above its
 * difference: their exact volumes come from the overlay (gx_overlay.h), and random points lie in the parts
 * exactly where they lie in the solid and in (or out of) the prism. Volumes are compared exactly where no new
 * vertex is rounded, to 1e-9 relative elsewhere. Cases: a box and a plane of two triangles (the two boxes),
 * tilted planes, random grids, planes through the box's vertices and edges and along its faces, a ridge and
 * a valley folded along a face and along an edge, a box with a cavity, a body the surface does not reach,
 * UTM coordinates; reversing the surface swaps the parts; refusals: a surface that ends inside, one
 * inconsistently oriented, one beside the solid.
 */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gx_test.h"
#include "gx_test_field.h"
#include "gx_test_solids.h"
#include "operation/gx_boolean.h"
#include "operation/gx_split.h"

/* The prism between the field and the plane z = zb below it (any orientation: gx_solid_from orients it). */
static void
prism(Soup *s, const Field *f, double zb)
{
	field_triangles(s, f, NAN, false);
	field_triangles(s, f, zb, true);
	for (int side = 0; side < 4; side++)
	{
		int			n = side < 2 ? f->nx : f->ny;

		for (int k = 0; k + 1 < n; k++)
		{
			int			i0 = side < 2 ? k : (side == 2 ? 0 : f->nx - 1),
						i1 = side < 2 ? k + 1 : i0,
						j0 = side < 2 ? (side == 0 ? 0 : f->ny - 1) : k,
						j1 = side < 2 ? j0 : k + 1;
			double		a[3],
						b[3],
						c[3],
						d[3];

			node(f, i0, j0, NAN, a);
			node(f, i1, j1, NAN, b);
			node(f, i1, j1, zb, c);
			node(f, i0, j0, zb, d);
			tri3(s, a, b, c);
			tri3(s, a, c, d);
		}
	}
}

/* A field over [lo - 1, hi + 1]^2 of n x n nodes, heights z(x, y) = c0 + cx x + cy y plus up to jitter. */
static Field
field(double lo, double hi, int n, double c0, double cx, double cy, double jitter)
{
	Field		f = {.nx = n, .ny = n};

	for (int k = 0; k < n; k++)
		f.xs[k] = f.ys[k] = lo - 1 + (hi - lo + 2) * k / (n - 1);
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++)
			f.h[i + n * j] = c0 + cx * f.xs[i] + cy * f.ys[j] + jitter * ((double) gx_test_below(1024) / 1024 - 0.5);
	return f;
}

static void
check_volume(const GxSerialized *g, mpq_srcptr want, bool exact, const char *what, const char *side)
{
	mpq_t		got,
				diff;

	mpq_inits(got, diff, NULL);
	volume_of(g, got);
	mpq_sub(diff, got, want);
	if (exact)
		CHECK_MSG(mpq_equal(got, want), "%s: %s part: volume %.17g, exactly %.17g", what, side, mpq_get_d(got),
				  mpq_get_d(want));
	else
		CHECK_MSG(fabs(mpq_get_d(diff)) <= 1e-9 * fabs(mpq_get_d(want)), "%s: %s part: volume %.17g, exactly %.17g",
				  what, side, mpq_get_d(got), mpq_get_d(want));
	mpq_clears(got, diff, NULL);
}

/*
 * The solid sa split by field f (its triangles counter-clockwise from above: the positive side is above):
 * the parts are solids, of the volumes of sa's intersection with the prism below f and its difference, and
 * random points are in them as in sa and the prism. Returns the parts' exact volumes (negative, positive).
 */
static void
check_split(const Soup *sa, const Field *f, bool exact, const char *what, mpq_t vol[2])
{
	Soup		sf = {.n = 0},
				sp = {.n = 0};
	GxSerialized *a = solid(sa),
			   *surface,
			   *below,
			   *part[2];
	GxOverlayOptions opt = {0, NULL, false, 0, NULL};
	GxError		err = {GX_OK, ""};
	GxBox3D		bb;
	size_t		size[2];
	double		scale;
	int			located = 0;

	field_triangles(&sf, f, NAN, false);
	prism(&sp, f, a->box.zmin - 1);
	surface = tin(&sf);
	below = solid(&sp);
	bb = a->box;
	scale = fmax(fmax(bb.xmax - bb.xmin, bb.ymax - bb.ymin), bb.zmax - bb.zmin);
	CHECK_MSG(gx_split_solid(a, surface, &opt, part, size, &err), "%s: %s", what, err.msg);
	if (err.code != GX_OK)
		return;
	for (int h = 0; h < 2; h++)
	{
		GxBooleanOp op = h ? GX_BOOL_DIFFERENCE : GX_BOOL_INTERSECTION;
		GxSolidIndex ia,
					ib;
		GxOverlaySums s;
		size_t		na,
					nb;
		const double *ta = gx_solid_triangles(a, &na),
				   *tb = gx_solid_triangles(below, &nb);

		CHECK_MSG(part[h]->flags & (GX_FLAG_SOLID | GX_FLAG_EMPTY), "%s: part %d is no solid", what, h);
		gx_solid_index_build(&ia, ta, na, &err);
		gx_solid_index_build(&ib, tb, nb, &err);
		gx_overlay_sums_init(&s);
		CHECK(gx_overlay_sums(&ia, &ib, &opt, &s, &err));
		gx_overlay_volume(&s, op, vol[h]);
		gx_overlay_sums_clear(&s);
		gx_solid_index_free(&ia);
		gx_solid_index_free(&ib);
		check_volume(part[h], vol[h], exact, what, h ? "positive" : "negative");
	}
	for (int k = 0; k < 300; k++)
	{
		double		p[3];
		GxLocation	la,
					lb,
					l0,
					l1;
		bool		in,
					under;

		random_point(&bb, p);
		la = locate(a, p);
		lb = locate(below, p);
		l0 = locate(part[0], p);
		l1 = locate(part[1], p);
		in = la == GX_LOC_INSIDE;
		under = lb == GX_LOC_INSIDE;
		if (near_surface(a, below, p, 1e-9 * scale))
			continue;
		CHECK_MSG((l0 == GX_LOC_INSIDE) == (in && under) && (l1 == GX_LOC_INSIDE) == (in && !under),
				  "%s: (%.17g %.17g %.17g) in the parts %d %d, in the solid %d, below %d", what, p[0], p[1], p[2],
				  l0, l1, la, lb);
		located++;
	}
	CHECK_MSG(located > 150, "%s: only %d points located", what, located);
	/* the surface reversed: the parts swap */
	{
		Soup		rf = {.n = 0};
		GxSerialized *rsurface,
				   *rpart[2];
		size_t		rsize[2];

		(void) size;
		field_triangles(&rf, f, NAN, true);
		rsurface = tin(&rf);
		CHECK_MSG(gx_split_solid(a, rsurface, &opt, rpart, rsize, &err), "%s reversed: %s", what, err.msg);
		if (err.code == GX_OK)
		{
			check_volume(rpart[0], vol[1], exact, what, "reversed: negative");
			check_volume(rpart[1], vol[0], exact, what, "reversed: positive");
			gx_free(rpart[0]);
			gx_free(rpart[1]);
		}
		gx_free(rsurface);
	}
	gx_free(part[0]);
	gx_free(part[1]);
	gx_free(surface);
	gx_free(below);
	gx_free(a);
}

static void
unit_box(Soup *s, double lo, double hi)
{
	const double l[3] = {lo, lo, lo},
				h[3] = {hi, hi, hi};

	box(s, l, h);
}

/* [0, 2]^3 by horizontal planes, tilted ones, random grids; the plane z = 0.5 of two triangles: two boxes. */
static void
test_planes(void)
{
	Soup		a = {.n = 0};
	mpq_t		vol[2];
	char		what[96];

	mpq_inits(vol[0], vol[1], NULL);
	unit_box(&a, 0, 2);
	{
		Field		f = field(0, 2, 2, 0.5, 0, 0, 0);
		GxSerialized *s = solid(&a),
				   *t,
				   *part[2];
		Soup		sf = {.n = 0};
		GxOverlayOptions opt = {0, NULL, false, 0, NULL};
		GxError		err = {GX_OK, ""};
		size_t		size[2];

		check_split(&a, &f, true, "z = 0.5", vol);
		CHECK(mpq_get_d(vol[0]) == 2 && mpq_get_d(vol[1]) == 6);
		field_triangles(&sf, &f, NAN, false);
		t = tin(&sf);
		CHECK(sf.n == 2);
		CHECK(gx_split_solid(s, t, &opt, part, size, &err));
		CHECK(part[0]->box.zmin == 0 && part[0]->box.zmax == 0.5 && part[1]->box.zmin == 0.5 &&
			  part[1]->box.zmax == 2 && part[0]->box.xmax == 2 && part[1]->box.ymin == 0);
		gx_free(part[0]);
		gx_free(part[1]);
		gx_free(t);
		gx_free(s);
	}
	/* along the faces: all on one side; through the vertices and edges (z = x, z = 2 - y) */
	{
		Field		bottom = field(0, 2, 2, 0, 0, 0, 0),
					top = field(0, 2, 2, 2, 0, 0, 0),
					diag = field(0, 2, 2, 0, 1, 0, 0),
					anti = field(0, 2, 3, 2, 0, -1, 0);

		check_split(&a, &bottom, true, "z = 0", vol);
		CHECK(mpq_sgn(vol[0]) == 0 && mpq_get_d(vol[1]) == 8);
		check_split(&a, &top, true, "z = 2", vol);
		CHECK(mpq_get_d(vol[0]) == 8 && mpq_sgn(vol[1]) == 0);
		check_split(&a, &diag, true, "z = x", vol);
		CHECK(mpq_get_d(vol[0]) == 4 && mpq_get_d(vol[1]) == 4);
		check_split(&a, &anti, true, "z = 2 - y, nodes on the box's edges", vol);
		CHECK(mpq_get_d(vol[0]) == 4 && mpq_get_d(vol[1]) == 4);
	}
	for (int k = 0; k < 12; k++)
	{
		Field		f = field(0, 2, 2, 0.7 + 0.05 * k, 0.13 * (k % 5) - 0.2, 0.07 * (k % 3) - 0.05, 0);

		snprintf(what, sizeof(what), "tilted plane %d", k);
		check_split(&a, &f, false, what, vol);
	}
	for (int k = 0; k < 12; k++)
	{
		Field		f = field(0, 2, 3 + k % 4, 1, 0.1, -0.05, 0.9);

		snprintf(what, sizeof(what), "random grid %d", k);
		check_split(&a, &f, false, what, vol);
	}
	mpq_clears(vol[0], vol[1], NULL);
}

/* A ridge and a valley folded on a box's face x = 2 (along x = 2, z = 1) and along a box's top edge; UTM grids. */
static void
test_folds_utm(void)
{
	Soup		a = {.n = 0};
	mpq_t		vol[2];
	Field		ridge = {.xs = {-1, 2, 5}, .ys = {-1, 3}, .h = {0.25, 1, 0.25, 0.25, 1, 0.25}, .nx = 3, .ny = 2},
				valley = {.xs = {-1, 2, 5}, .ys = {-1, 3}, .h = {1.75, 1, 1.75, 1.75, 1, 1.75}, .nx = 3, .ny = 2};

	mpq_inits(vol[0], vol[1], NULL);
	unit_box(&a, 0, 2);
	check_split(&a, &ridge, false, "ridge on a face", vol);
	check_split(&a, &valley, false, "valley on a face", vol);
	/* the fold along the top edge (x = 2, z = 1) of a flat box: its top face is between the fold's planes */
	{
		Soup		flat = {.n = 0};
		const double lo[3] = {0, 0, 0},
					hi[3] = {2, 2, 1};

		box(&flat, lo, hi);
		check_split(&flat, &ridge, false, "ridge along an edge", vol);
		check_split(&flat, &valley, false, "valley along an edge", vol);
	}
	for (int k = 0; k < 6; k++)
	{
		Soup		u = {.n = 0};
		const double lo[3] = {500000, 7000000, 250},
					hi[3] = {500002.25, 7000001.5, 252};
		Field		f = field(0, 0, 4, 0, 0, 0, 0);

		box(&u, lo, hi);
		for (int i = 0; i < 4; i++)
		{
			f.xs[i] = 499999 + 1.5 * i + 0.01 * k;
			f.ys[i] = 6999999 + 1.25 * i;
		}
		for (int i = 0; i < 16; i++)
			f.h[i] = 250.5 + (double) gx_test_below(1000) / 1000;
		check_split(&u, &f, false, "UTM grid", vol);
	}
	mpq_clears(vol[0], vol[1], NULL);
}

/* [0, 4]^3 with the cavity [1, 2]^3 cut above it and through it; a second body the surface does not reach. */
static void
test_shells(void)
{
	Soup		a = {.n = 0},
				b = {.n = 0};
	mpq_t		vol[2];
	const double lo[3] = {1, 1, 1},
				hi[3] = {2, 2, 2},
				lo2[3] = {0, 0, 5},
				hi2[3] = {2, 2, 6};
	Field		over = field(0, 4, 2, 3, 0, 0, 0),
				through = field(0, 4, 2, 1.5, 0, 0, 0),
				mid = field(0, 2, 2, 1, 0, 0, 0);

	mpq_inits(vol[0], vol[1], NULL);
	unit_box(&a, 0, 4);
	box(&a, lo, hi);
	check_split(&a, &over, true, "above a cavity", vol);
	CHECK(mpq_get_d(vol[0]) == 47 && mpq_get_d(vol[1]) == 16);
	check_split(&a, &through, true, "through a cavity", vol);
	CHECK(mpq_get_d(vol[0]) == 23.5 && mpq_get_d(vol[1]) == 39.5);
	unit_box(&b, 0, 2);
	box(&b, lo2, hi2);
	check_split(&b, &mid, true, "a body above the surface", vol);
	CHECK(mpq_get_d(vol[0]) == 4 && mpq_get_d(vol[1]) == 8);
	mpq_clears(vol[0], vol[1], NULL);
}

/* Split refused: error code and a phrase of the message. */
/*
 * At UTM coordinates, a surface through a box's top edge to within the rounding (its nodes 0.3 m off the
 * grid): the part above it is a wedge thinner than the rounding everywhere, which rounds flat: EMPTY, and the
 * part below is the box (to the wedge's volume); each part a solid or EMPTY, their volumes adding up to the box's.
 */
static void
test_thin_part(void)
{
	const double lo[3] = {500125.25, 7000458.5, 1200},
				hi[3] = {500128.25, 7000460.5, 1201};
	Field		f = {.nx = 4, .ny = 4};
	Soup		a = {.n = 0},
				sf = {.n = 0};
	GxSerialized *s,
			   *t,
			   *part[2];
	GxOverlayOptions opt = {0, NULL, false, 0, NULL};
	GxError		err = {GX_OK, ""};
	size_t		size[2];

	for (int k = 0; k < 4; k++)
	{
		f.xs[k] = 500124.25 + k * (500129.25 - 500124.25) / 3;
		f.ys[k] = 7000457.5 + 0.3 + k * (4 / 3.0);
		for (int j = 0; j < 4; j++)
			f.h[k + 4 * j] = 1200.8 + 0.2 * (f.xs[k] - f.xs[0]);
	}
	box(&a, lo, hi);
	field_triangles(&sf, &f, NAN, false);
	s = solid(&a);
	t = tin(&sf);
	CHECK_MSG(gx_split_solid(s, t, &opt, part, size, &err), "a surface through a box's edge: %s", err.msg);
	if (err.code == GX_OK)
	{
		mpq_t		v[2],
					whole;

		mpq_inits(v[0], v[1], whole, NULL);
		for (int h = 0; h < 2; h++)
		{
			CHECK(part[h]->flags & (GX_FLAG_SOLID | GX_FLAG_EMPTY));
			volume_of(part[h], v[h]);
			gx_free(part[h]);
		}
		volume_of(s, whole);
		mpq_add(v[0], v[0], v[1]);
		mpq_sub(v[0], v[0], whole);
		CHECK_MSG(fabs(mpq_get_d(v[0])) <= 1e-9 * mpq_get_d(whole), "a surface through a box's edge: the parts "
				  "add up to %.17g more than the box", mpq_get_d(v[0]));
		mpq_clears(v[0], v[1], whole, NULL);
	}
	gx_free(s);
	gx_free(t);
}

static void
check_refused(const Soup *sa, const Soup *sf, const char *phrase, const char *what)
{
	GxSerialized *a = solid(sa),
			   *t = tin(sf),
			   *part[2];
	GxOverlayOptions opt = {0, NULL, false, 0, NULL};
	GxError		err = {GX_OK, ""};
	size_t		size[2];

	CHECK_MSG(!gx_split_solid(a, t, &opt, part, size, &err) && err.code == GX_ERR_INVALID &&
			  strstr(err.msg, phrase) != NULL, "%s: %s", what, err.msg);
	gx_free(a);
	gx_free(t);
}

static void
test_refused(void)
{
	Soup		a = {.n = 0},
				half = {.n = 0},
				inside = {.n = 0},
				twisted = {.n = 0},
				apart = {.n = 0};
	Field		h = {.xs = {-1, 1}, .ys = {-1, 3}, .h = {1, 1, 1, 1}, .nx = 2, .ny = 2},
				in = {.xs = {0.5, 1.5}, .ys = {0.5, 1.5}, .h = {1, 1, 1, 1}, .nx = 2, .ny = 2},
				far = {.xs = {10, 12}, .ys = {-1, 3}, .h = {1, 1, 1, 1}, .nx = 2, .ny = 2},
				plane = field(0, 2, 2, 1, 0, 0, 0);

	unit_box(&a, 0, 2);
	field_triangles(&half, &h, NAN, false);
	check_refused(&a, &half, "does not cut the solid through", "a surface ending inside");
	field_triangles(&inside, &in, NAN, false);
	check_refused(&a, &inside, "does not cut the solid through", "a surface inside");
	field_triangles(&twisted, &plane, NAN, false);
	{
		double		t[3];

		memcpy(t, twisted.v + 12, sizeof(t));
		memcpy(twisted.v + 12, twisted.v + 15, sizeof(t));
		memcpy(twisted.v + 15, t, sizeof(t));
	}
	check_refused(&a, &twisted, "not oriented consistently", "an inconsistent surface");
	field_triangles(&apart, &far, NAN, false);
	check_refused(&a, &apart, "lies on neither side", "a surface beside the solid");
	/* cancel set: stopped */
	{
		GxSerialized *s = solid(&a),
				   *t = tin(&half),
				   *part[2];
		volatile int set = 1;
		GxCancel	cancel = {{&set, NULL}};
		GxOverlayOptions opt = {0, &cancel, false, 0, NULL};
		GxError		err = {GX_OK, ""};
		size_t		size[2];

		CHECK(!gx_split_solid(s, t, &opt, part, size, &err) && err.code == GX_ERR_CANCELLED);
		gx_free(s);
		gx_free(t);
	}
	/* EMPTY: nothing on either side */
	{
		double		none[9];
		const double *in[2] = {none, none};
		const size_t nin[2] = {0, 0};
		size_t		esize;
		GxOverlayOptions opt = {0, NULL, false, 0, NULL};
		GxSerialized *e = gx_boolean_make(none, 0, in, nin, 0, "test", &opt, &esize, &(GxError) {GX_OK, ""}),
				   *t = tin(&half),
				   *part[2];
		GxError		err = {GX_OK, ""};
		size_t		size[2];

		CHECK(e != NULL && (e->flags & GX_FLAG_EMPTY));
		if (e != NULL)
		{
			CHECK(gx_split_solid(e, t, &opt, part, size, &err));
			CHECK((part[0]->flags & GX_FLAG_EMPTY) && (part[1]->flags & GX_FLAG_EMPTY));
			gx_free(part[0]);
			gx_free(part[1]);
			gx_free(e);
		}
		gx_free(t);
	}
}

int
main(void)
{
	test_planes();
	test_folds_utm();
	test_shells();
	test_thin_part();
	test_refused();
	return gx_test_report("test_split");
}
