/*
 * test_boolean_kept.c: the booleans as solids with their shortcuts (gx_boolean_solid: the pairs of triangles
 * found once, of a solid whose pieces outside are dropped only the triangles near the other, the solids'
 * unchanged triangles not checked against each other again) against the same with the solids' indexes given
 * (gx_boolean_solid_indexed, as the SQL calls keep them), and against the same with the cuts decided in
 * rationals only (exact_cuts: no filter of certified enclosures), and against the same on one thread (the
 * default shares the work among the cores' threads): the same bytes, or the same error; and
 * gx_solid_make_kept against gx_solid_make on crossing surfaces. Inputs meant to reach every rung: identical
 * solids, copies shifted by small and by tiny amounts, solids sharing faces, edges and vertices (boxes and
 * tetrahedra on a grid), octahedra whose vertices lie on the other's planes, star-shaped blobs at UTM
 * coordinates, and a convex pit of large triangles that many small ones cut.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "construct/gx_construct.h"
#include "gx_test.h"
#include "gx_test_tris.h"
#include "io/gx_io.h"
#include "operation/gx_boolean.h"
#include "operation/gx_solid_make.h"

#define PI 3.14159265358979323846

/* A growing triangle soup. */
typedef struct Mesh
{
	double	   *v;
	size_t		n,
				cap;
} Mesh;

static void
mesh_add(Mesh *m, const double *a, const double *b, const double *c)
{
	if (m->n == m->cap)
	{
		m->cap = m->cap ? 2 * m->cap : 64;
		m->v = realloc(m->v, m->cap * 9 * sizeof(double));
	}
	memcpy(m->v + 9 * m->n, a, 3 * sizeof(double));
	memcpy(m->v + 9 * m->n + 3, b, 3 * sizeof(double));
	memcpy(m->v + 9 * m->n + 6, c, 3 * sizeof(double));
	m->n++;
}

/* The solid the soup bounds (gx_alloc'd), the soup freed. */
static GxSerialized *
solid_of(Mesh *m)
{
	GxBuilder	b;
	GxError		err = {GX_OK, ""};
	size_t		size,
				node;
	GxSerialized *g,
			   *s;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, GX_TIN);
	for (size_t i = 0; i < 3 * m->n; i++)
		gx_builder_coord(&b, m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]);
	gx_builder_end(&b, node, (uint32_t) m->n);
	g = gx_builder_finish(&b, 0, &size);
	s = gx_solid_from(g, NULL, &size, &err);
	CHECK_MSG(s != NULL, "a test solid: %s", err.msg);
	gx_free(g);
	free(m->v);
	*m = (Mesh) {NULL, 0, 0};
	return s;
}

/* The box [lo, hi] shifted by o. */
static GxSerialized *
box_at(const double *lo, const double *hi, const double *o)
{
	Mesh		m = {NULL, 0, 0};
	double		t[12 * 9];

	box_triangles(lo, hi, false, t);
	for (int k = 0; k < 12; k++)
	{
		for (int c = 0; c < 9; c++)
			t[9 * k + c] += o[c % 3];
		mesh_add(&m, t + 9 * k, t + 9 * k + 3, t + 9 * k + 6);
	}
	return solid_of(&m);
}

/*
 * A star-shaped blob about c: a sphere of nu rings and nv meridians, radius r times 1 + amp times a smooth
 * wave of phase ph, each coordinate rounded to a multiple of q (0: not rounded), then shifted by o.
 */
static GxSerialized *
blob(const double *c, double r, int nu, int nv, double amp, double ph, double q, const double *o)
{
	Mesh		m = {NULL, 0, 0};
	double	   *p = malloc((size_t) (nu * nv + 2) * 3 * sizeof(double));

	for (int i = 0; i <= nu + 1; i++)
		for (int j = 0; j < (i == 0 || i == nu + 1 ? 1 : nv); j++)
		{
			double		th = PI * i / (nu + 1),
						phi = 2 * PI * j / nv,
						rr = r * (1 + amp * sin(3 * th + ph) * cos(2 * phi + 2 * ph)),
						*x = p + 3 * (i == 0 ? 0 : i == nu + 1 ? nu * nv + 1 : 1 + (i - 1) * nv + j);

			x[0] = c[0] + rr * sin(th) * cos(phi);
			x[1] = c[1] + rr * sin(th) * sin(phi);
			x[2] = c[2] + rr * cos(th);
			for (int k = 0; k < 3; k++)
			{
				if (q > 0)
					x[k] = q * nearbyint(x[k] / q);
				x[k] += o[k];
			}
		}
	for (int j = 0; j < nv; j++)
	{
		int			j1 = (j + 1) % nv;

		mesh_add(&m, p, p + 3 * (1 + j), p + 3 * (1 + j1));
		mesh_add(&m, p + 3 * (nu * nv + 1), p + 3 * (1 + (nu - 1) * nv + j1), p + 3 * (1 + (nu - 1) * nv + j));
		for (int i = 1; i < nu; i++)
		{
			double	   *a = p + 3 * (1 + (i - 1) * nv + j),
					   *b = p + 3 * (1 + (i - 1) * nv + j1),
					   *d = p + 3 * (1 + i * nv + j),
					   *e = p + 3 * (1 + i * nv + j1);

			mesh_add(&m, a, d, e);
			mesh_add(&m, a, e, b);
		}
	}
	free(p);
	return solid_of(&m);
}

/* The octahedron of centre c and radius r. */
static GxSerialized *
octahedron(const double *c, double r)
{
	Mesh		m = {NULL, 0, 0};
	double		v[6][3];

	for (int k = 0; k < 6; k++)
	{
		memcpy(v[k], c, sizeof(v[k]));
		v[k][k / 2] += k % 2 ? -r : r;
	}
	for (int sx = 0; sx < 2; sx++)
		for (int sy = 0; sy < 2; sy++)
			for (int sz = 0; sz < 2; sz++)
				mesh_add(&m, v[sx], v[2 + sy], v[4 + sz]);
	return solid_of(&m);
}

/* Tetrahedron k (0 to 5) of the unit cube's Kuhn triangulation, scaled by s and shifted by o. */
static GxSerialized *
kuhn(int k, double s, const double *o)
{
	static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	Mesh		m = {NULL, 0, 0};
	double		v[4][3] = {{0, 0, 0}};

	/* from (0, 0, 0) to (1, 1, 1) one axis at a time */
	for (int i = 1; i < 4; i++)
	{
		memcpy(v[i], v[i - 1], sizeof(v[i]));
		v[i][perm[k][i - 1]] = 1;
	}
	for (int i = 0; i < 4; i++)
		for (int a = 0; a < 3; a++)
			v[i][a] = s * v[i][a] + o[a];
	mesh_add(&m, v[0], v[1], v[2]);
	mesh_add(&m, v[0], v[1], v[3]);
	mesh_add(&m, v[0], v[2], v[3]);
	mesh_add(&m, v[1], v[2], v[3]);
	return solid_of(&m);
}

/* A pit: the convex hull of a ring of 16 points of radius r0 at height z0 and one of r1 at z1, about c. */
static GxSerialized *
pit(const double *c, double r0, double z0, double r1, double z1)
{
	char		text[16 * 2 * 80 + 32];
	size_t		len = 0,
				size;
	GxError		err = {GX_OK, ""};
	GxSerialized *mp,
			   *h;

	len += sprintf(text, "MULTIPOINT Z (");
	for (int ring = 0; ring < 2; ring++)
		for (int k = 0; k < 16; k++)
			len += sprintf(text + len, "%.17g %.17g %.17g,", c[0] + (ring ? r1 : r0) * cos(2 * PI * k / 16),
						   c[1] + (ring ? r1 : r0) * sin(2 * PI * k / 16), ring ? z1 : z0);
	text[len - 1] = ')';
	mp = gx_from_wkt(text, &size, &err);
	h = mp ? gx_convexhull(mp, &size, &err) : NULL;
	CHECK_MSG(h != NULL, "the pit: %s", err.msg);
	gx_free(mp);
	return h;
}

static long cases,
			solids_compared;

/*
 * a op b by gx_boolean_solid against the same with both solids' indexes given, with the cuts exact, and on one
 * thread.
 */
static void
compare_solids(const GxSerialized *a, const GxSerialized *b, const char *what)
{
	static const char *const name[3] = {"intersection", "union", "difference"};
	GxOverlayOptions opt = {0, NULL, false, 0, NULL},
				exact = {0, NULL, true, 0, NULL},
				one = {0, NULL, false, 1, NULL};
	const GxSerialized *g[2] = {a, b};
	GxSolidIndex idx[2];
	GxError		err = {GX_OK, ""};
	const double *t[2];
	size_t		n[2];

	for (int k = 0; k < 2; k++)
	{
		t[k] = gx_solid_triangles(g[k], &n[k]);
		CHECK(gx_solid_index_build(&idx[k], t[k], n[k], &err));
	}
	for (int op = 0; op < 3; op++)
	{
		GxError		e[4] = {{GX_OK, ""}, {GX_OK, ""}, {GX_OK, ""}, {GX_OK, ""}};
		size_t		size[4] = {0, 0, 0, 0};
		GxSerialized *r[4];

		r[0] = gx_boolean_solid(a, b, (GxBooleanOp) op, &opt, &size[0], &e[0]);
		r[1] = gx_boolean_solid_indexed(a, &idx[0], b, &idx[1], (GxBooleanOp) op, &opt, &size[1], &e[1]);
		r[2] = gx_boolean_solid(a, b, (GxBooleanOp) op, &exact, &size[2], &e[2]);
		r[3] = gx_boolean_solid(a, b, (GxBooleanOp) op, &one, &size[3], &e[3]);
		for (int k = 1; k < 4; k++)
			CHECK_MSG((r[0] == NULL) == (r[k] == NULL) && strcmp(e[0].msg, e[k].msg) == 0 &&
					  (r[0] == NULL || (size[0] == size[k] && memcmp(r[0], r[k], size[0]) == 0)),
					  "%s: %s: %s (%s), %s %s (%s)", what, name[op], r[0] ? "a solid" : "none", e[0].msg,
					  k == 1 ? "indexes given" : k == 2 ? "cuts exact" : "one thread", r[k] ? "a solid" : "none",
					  e[k].msg);
		solids_compared++;
		for (int k = 0; k < 4; k++)
			gx_free(r[k]);
	}
	for (int k = 0; k < 2; k++)
		gx_solid_index_free(&idx[k]);
}

/* Both sides of the pair, then frees them. */
static void
compare(GxSerialized *a, GxSerialized *b, const char *what)
{
	if (a && b)
	{
		compare_solids(a, b, what);
		cases++;
	}
	gx_free(a);
	gx_free(b);
}

static void
test_blobs(void)
{
	const double utm[3] = {500123.25, 7000456.5, 210},
				zero[3] = {0, 0, 0},
				c[3] = {0, 0, 0};
	const double shifts[][3] = {{0.37, 0, 0}, {0.37, 0.21, -0.13}, {1e-3, 0, 0}, {0x1p-30, 0, 0}, {0, 0, 5},
	{0x1p-40, 0x1p-41, 0}};
	char		what[100];

	/* identical, at small and at UTM coordinates */
	compare(blob(c, 10, 8, 12, 0.2, 0.3, 0, zero), blob(c, 10, 8, 12, 0.2, 0.3, 0, zero), "a blob with itself");
	compare(blob(c, 30, 10, 16, 0.3, 1.1, 1e-3, utm), blob(c, 30, 10, 16, 0.3, 1.1, 1e-3, utm),
			"a blob with itself at UTM coordinates");
	/* copies shifted */
	for (size_t s = 0; s < sizeof(shifts) / sizeof(shifts[0]); s++)
	{
		double		o[3] = {utm[0] + shifts[s][0], utm[1] + shifts[s][1], utm[2] + shifts[s][2]};

		snprintf(what, sizeof(what), "a blob and its copy shifted by (%g %g %g)", shifts[s][0], shifts[s][1],
				 shifts[s][2]);
		compare(blob(c, 30, 10, 16, 0.3, 1.1, 1e-3, utm), blob(c, 30, 10, 16, 0.3, 1.1, 1e-3, o), what);
	}
	/* large enough for the work to be shared among threads (a side's triangles and its cut ones by the hundred) */
	{
		double		o[3] = {utm[0] + 0.37, utm[1] + 0.21, utm[2]};

		compare(blob(c, 30, 40, 64, 0.3, 1.1, 1e-3, utm), blob(c, 30, 40, 64, 0.3, 1.1, 1e-3, o),
				"blobs of 5 000 triangles, one shifted by (0.37 0.21 0)");
		compare(blob(c, 30, 40, 64, 0.3, 1.1, 0, utm), blob(c, 28, 44, 60, 0.25, 2.1, 0, utm),
				"blobs of 5 000 triangles of different shapes");
	}
	/* different shapes about one centre, and crossing at an angle */
	for (int k = 0; k < 6; k++)
	{
		double		o[3] = {utm[0] + 7 * k, utm[1] - 3 * k, utm[2]};

		snprintf(what, sizeof(what), "two blobs of different shapes (%d)", k);
		compare(blob(c, 30, 9 + k, 14, 0.3, 0.2 * k, k % 2 ? 1e-3 : 0, utm),
				blob(c, 25 + k, 12, 11 + k, 0.25, 1 + k, 0, o), what);
	}
}

/* Random boxes on a grid of 4: identical, sharing faces, edges or vertices, nested. */
static void
test_boxes(void)
{
	const double o[3] = {500000, 7000000, 100};

	for (int n = 0; n < 40; n++)
	{
		double		lo[2][3],
					hi[2][3];

		for (int s = 0; s < 2; s++)
			for (int k = 0; k < 3; k++)
			{
				int			x = (int) gx_test_below(4),
							y = (int) gx_test_below(4);

				lo[s][k] = x < y ? x : y;
				hi[s][k] = (x < y ? y : x) + (x == y);
			}
		compare(box_at(lo[0], hi[0], n % 2 ? o : (double[3]) {0, 0, 0}),
				box_at(lo[1], hi[1], n % 2 ? o : (double[3]) {0, 0, 0}), "two boxes on a grid");
	}
}

/* Tetrahedra of a grid of Kuhn cubes, against each other and against boxes and octahedra through them. */
static void
test_tetrahedra(void)
{
	const double o[3] = {500000, 7000000, 100};

	for (int n = 0; n < 40; n++)
	{
		double		oa[3],
					ob[3];
		int			ka = (int) gx_test_below(6),
					kb = (int) gx_test_below(6);

		for (int k = 0; k < 3; k++)
		{
			oa[k] = o[k] + (double) gx_test_below(2);
			ob[k] = o[k] + (double) gx_test_below(2) + (n % 4 == 3 ? 0.5 : 0);
		}
		compare(kuhn(ka, 1, oa), kuhn(kb, 1, ob), "two tetrahedra of a grid");
	}
	for (int k = 0; k < 6; k++)
	{
		const double lo[3] = {0.25, 0, 0.5},
					hi[3] = {1, 0.75, 1.5},
					c[3] = {0.5, 0.5, 0.5};

		compare(kuhn(k, 1, o), box_at(lo, hi, o), "a tetrahedron and a box through its vertices");
		compare(kuhn(k, 2, (double[3]) {0, 0, 0}), octahedron(c, 1), "a tetrahedron and an octahedron");
	}
}

/* Octahedra shifted by fractions of their radius: vertices on the other's planes and edges. */
static void
test_octahedra(void)
{
	for (int n = 0; n < 30; n++)
	{
		double		c[2][3];

		for (int k = 0; k < 3; k++)
		{
			c[0][k] = 1000 + (double) gx_test_below(4) / 4;
			c[1][k] = 1000 + (double) gx_test_below(4) / 4;
		}
		compare(octahedron(c[0], 1), octahedron(c[1], n % 3 ? 1 : 0.5), "two octahedra");
	}
}

/* A pit of large triangles against blobs of small ones reaching into it from below and beside. */
static void
test_pit(void)
{
	const double c[3] = {500200, 7000150, 0},
				zero[3] = {0, 0, 0};

	for (int k = 0; k < 4; k++)
	{
		double		bc[3] = {c[0] + 40 * k, c[1] - 25 * k, -150 + 30 * k};

		compare(blob(bc, 40, 14, 20, 0.3, 0.7 * k, 1e-3, zero), pit(c, 200, 0, 80, -180),
				"a blob reaching into a pit");
	}
}

/*
 * gx_solid_make_kept where the kept triangles meet only where they may and others cross them: the same error
 * as gx_solid_make's (whose pair is the first at fault), on the grid (two boxes crossing) and on the tree of
 * boxes (a double cone of thin triangles fanning out from its apexes, crossing a box).
 */
static void
test_kept(void)
{
	for (int shape = 0; shape < 2; shape++)
	{
		Mesh		m = {NULL, 0, 0};
		double		lo[3] = {0, 0, 0},
					hi[3] = {2, 2, 2},
					t[12 * 9];
		size_t		n,
					first,
					shells;
		uint8_t    *kept;
		double	   *copy;
		GxBatchOptions bo;
		GxError		e[2] = {{GX_OK, ""}, {GX_OK, ""}};
		bool		ok[2];

		gx_batch_options_default(&bo);
		bo.device = GX_DEVICE_CPU;
		if (shape == 0)
		{
			box_triangles(lo, hi, false, t);
			for (int k = 0; k < 12; k++)
				mesh_add(&m, t + 9 * k, t + 9 * k + 3, t + 9 * k + 6);
		}
		else
			for (int k = 0; k < 200; k++)
				for (int apex = 0; apex < 2; apex++)
				{
					double		c[3] = {1, 1, apex ? 0.2 : 1.8},
								p[2][3];

					for (int r = 0; r < 2; r++)
					{
						double		a = 2 * PI * ((k + (apex ? 1 - r : r)) % 200) / 200;

						p[r][0] = 1 + cos(a);
						p[r][1] = 1 + sin(a);
						p[r][2] = 1;
					}
					mesh_add(&m, c, p[0], p[1]);
				}
		first = m.n;
		for (int k = 0; k < 3; k++)
		{
			lo[k] = 0.5 + 0.25 * k;
			hi[k] = 2.5 + 0.25 * k;
		}
		box_triangles(lo, hi, false, t);
		for (int k = 0; k < 12; k++)
			mesh_add(&m, t + 9 * k, t + 9 * k + 3, t + 9 * k + 6);
		n = m.n;
		kept = malloc(n);
		memset(kept, 1, first);
		memset(kept + first, 0, n - first);
		copy = malloc(n * 9 * sizeof(double));
		memcpy(copy, m.v, n * 9 * sizeof(double));
		ok[0] = gx_solid_make(m.v, &n, &bo, &shells, &e[0]);
		n = m.n;
		ok[1] = gx_solid_make_kept(copy, &n, kept, &bo, &shells, &e[1]);
		CHECK_MSG(!ok[0] && !ok[1] && strcmp(e[0].msg, e[1].msg) == 0, "shape %d: %s, kept: %s", shape, e[0].msg,
				  e[1].msg);
		free(kept);
		free(copy);
		free(m.v);
	}
}

int
main(void)
{
	test_kept();
	test_blobs();
	test_boxes();
	test_tetrahedra();
	test_octahedra();
	test_pit();
	CHECK_MSG(cases > 100, "%ld cases", cases);
	printf("%ld pairs and %ld solids compared\n", cases, solids_compared);
	return gx_test_report("test_boolean_kept");
}
