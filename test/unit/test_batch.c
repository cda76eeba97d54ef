/*
 * test_batch.c: the batch engine's CPU path against per-pair gx_intersects (brute force over all geometry
 * pairs), on random sets of small geometries built from lattice points (many touching, coplanar and
 * degenerate cases) at the origin and at UTM offsets; the pair list must not depend on the grid's
 * resolution or the number of threads, and prepared geometries (gx_prepare) must answer like
 * gx_intersects. Also: a few geometries against a kept side with an index (gx_side_index.h), probed
 * instead of gridded, in either role; the element pairs a batch lists when asked, against brute force over
 * all element pairs; cancel, mixed SRIDs, empty sides, and a GPU request on a machine
 * without the CUDA engine falling back to the CPU with the same answer.
 */
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "batch/gx_batch.h"
#include "batch/gx_side_index.h"
#include "gx_test.h"
#include "operation/gx_intersects.h"

static int
rnd(int lo, int hi)
{
	return lo + rand() % (hi - lo + 1);
}

/* A random geometry near cell (cx, cy, cz) of a coarse lattice, at offset (ox, oy). */
static GxSerialized *
random_geometry(double ox, double oy, int spread)
{
	static const GxType types[] = {GX_POINT, GX_LINESTRING, GX_TRIANGLE, GX_TIN, GX_MULTIPOINT};
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	GxType		t = types[rnd(0, 4)];
	int			cx = rnd(0, spread),
				cy = rnd(0, spread),
				cz = rnd(0, spread);
	int			n = t == GX_POINT || t == GX_TRIANGLE ? 1 : rnd(2, 6);
	int			per = t == GX_TRIANGLE || t == GX_TIN ? 3 : 1;
	size_t		node = 0,
				size;
	int			i,
				v;

	gx_builder_init(&b, &err);
	if (t == GX_MULTIPOINT)
	{
		node = gx_builder_begin(&b, GX_MULTIPOINT);
		for (i = 0; i < n; i++)
		{
			size_t		p = gx_builder_begin(&b, GX_POINT);

			gx_builder_coord(&b, ox + cx + rnd(0, 3), oy + cy + rnd(0, 3), cz + rnd(0, 3));
			gx_builder_end(&b, p, 1);
		}
		gx_builder_end(&b, node, n);
		return gx_builder_finish(&b, 0, &size);
	}
	node = gx_builder_begin(&b, t);
	for (i = 0; i < n; i++)
		for (v = 0; v < per; v++)
			gx_builder_coord(&b, ox + cx + rnd(0, 3), oy + cy + rnd(0, 3), cz + rnd(0, 3) * 0.5);
	gx_builder_end(&b, node, t == GX_LINESTRING || t == GX_TIN ? (uint32_t) n : 1);
	return gx_builder_finish(&b, 0, &size);
}

static void
build_side(GxBatchSide *s, GxSerialized **g, int n)
{
	GxError		err = {GX_OK, ""};
	int			i;

	gx_batch_side_init(s);
	for (i = 0; i < n; i++)
		CHECK(gx_batch_side_add(s, g[i], &err));
}

static bool
same_pairs(const GxPairs *p, const GxPairs *q)
{
	return p->n == q->n && (p->n == 0 || memcmp(p->keys, q->keys, p->n * sizeof(uint64_t)) == 0);
}

/* Brute force: every intersecting element pair of a and b (a's element << 32 | b's element), ascending. */
static GxPairs
element_pairs(const GxBatchSide *a, const GxBatchSide *b)
{
	GxPairs		e = {NULL, 0, NULL, 0};

	for (size_t i = 0; i < a->n; i++)
		for (size_t j = 0; j < b->n; j++)
			if (gx_batch_elems_intersect(a, i, b, j))
			{
				e.keys = realloc(e.keys, (e.n + 1) * sizeof(uint64_t));
				e.keys[e.n++] = ((uint64_t) i << 32) | j;
			}
	return e;
}

/* got's element pairs are ref's keys (with opt->element_pairs), and it holds no element pairs otherwise. */
static bool
same_elements(const GxPairs *got, const GxPairs *ref, const GxBatchOptions *opt)
{
	GxPairs		e = {got->elements, got->nelements, NULL, 0};

	return opt->element_pairs ? got->elements != NULL && same_pairs(&e, ref) : got->elements == NULL;
}

static void
differential(double ox, double oy, int na, int nb, int spread)
{
	GxSerialized *ga[400],
			   *gb[400];
	GxBatchSide a,
				b;
	GxBatchOptions opt;
	GxBatchStats st;
	GxError		err = {GX_OK, ""};
	GxPairs		ref = {NULL, 0, NULL, 0},
				elements,
				got;
	int			i,
				j,
				r;
	static const int resolutions[] = {0, 1, 7, 64};
	static const int threads[] = {1, 2};

	for (i = 0; i < na; i++)
		ga[i] = random_geometry(ox, oy, spread);
	for (j = 0; j < nb; j++)
		gb[j] = random_geometry(ox, oy, spread);
	ref.keys = malloc((size_t) na * nb * sizeof(uint64_t));
	for (i = 0; i < na; i++)
	{
		GxPrepared	prep;
		int			agree = 1;

		CHECK(gx_prepare(&prep, ga[i], &err));
		for (j = 0; j < nb; j++)
		{
			int			r = gx_intersects(ga[i], gb[j], &err);

			if (r == 1)
				ref.keys[ref.n++] = ((uint64_t) i << 32) | (uint32_t) j;
			/* a prepared geometry answers the same, in either role */
			agree &= gx_intersects_prepared(&prep, gb[j], &err) == r;
		}
		CHECK_MSG(agree, "prepared geometry %d disagrees with gx_intersects", i);
		gx_prepared_free(&prep);
	}
	build_side(&a, ga, na);
	build_side(&b, gb, nb);
	elements = element_pairs(&a, &b);
	gx_batch_options_default(&opt);
	opt.device = GX_DEVICE_CPU;
	for (r = 0; r < 4; r++)
		for (i = 0; i < 2; i++)
		{
			opt.grid_resolution = resolutions[r];
			opt.threads = threads[i];
			opt.element_pairs = (r + i) % 2;
			CHECK(gx_batch_intersect(&a, &b, &opt, &got, &st, &err));
			CHECK_MSG(same_pairs(&got, &ref), "offset %g: %zu pairs, brute force %zu (resolution %d, %d threads)",
					  ox, got.n, ref.n, resolutions[r], threads[i]);
			CHECK_MSG(same_elements(&got, &elements, &opt), "offset %g: %zu element pairs, brute force %zu "
					  "(resolution %d, %d threads, asked %d)", ox, got.nelements, elements.n, resolutions[r],
					  threads[i], opt.element_pairs);
			CHECK(st.geometry_pairs == ref.n && st.element_pairs >= ref.n && st.bbox_survivors <= st.candidates);
			gx_free(got.keys);
			gx_free(got.elements);
		}
	free(elements.keys);
	printf("test_batch: offset (%g, %g): %d x %d geometries, %zu intersecting pairs\n", ox, oy, na, nb, ref.n);
	free(ref.keys);
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
	for (i = 0; i < na; i++)
		gx_free(ga[i]);
	for (j = 0; j < nb; j++)
		gx_free(gb[j]);
}

/*
 * A few geometries against many with an index: the probes find the brute-force pairs, either side first;
 * then with the few indexed instead, so that the many probe them.
 */
static void
probe_differential(double ox, double oy, int nq, int nk, int spread)
{
	GxSerialized *gq[8],
			   *gk[600];
	GxBatchSide q,
				k;
	GxBatchOptions opt;
	GxBatchStats st;
	GxError		err = {GX_OK, ""};
	GxPairs		qk = {NULL, 0, NULL, 0},
				kq = {NULL, 0, NULL, 0},
				qke,
				kqe,
				got;
	int			i,
				j;

	for (i = 0; i < nq; i++)
		gq[i] = random_geometry(ox, oy, spread);
	for (j = 0; j < nk; j++)
		gk[j] = random_geometry(ox, oy, spread);
	qk.keys = malloc((size_t) nq * nk * sizeof(uint64_t));
	kq.keys = malloc((size_t) nq * nk * sizeof(uint64_t));
	for (j = 0; j < nk; j++)
		for (i = 0; i < nq; i++)
			if (gx_intersects(gk[j], gq[i], &err) == 1)
				kq.keys[kq.n++] = ((uint64_t) j << 32) | (uint32_t) i;
	for (i = 0; i < nq; i++)
		for (j = 0; j < nk; j++)
			if (gx_intersects(gq[i], gk[j], &err) == 1)
				qk.keys[qk.n++] = ((uint64_t) i << 32) | (uint32_t) j;
	build_side(&q, gq, nq);
	build_side(&k, gk, nk);
	qke = element_pairs(&q, &k);
	kqe = element_pairs(&k, &q);
	gx_batch_options_default(&opt);
	opt.device = GX_DEVICE_CPU;
	for (int indexed = 0; indexed < 2; indexed++)
	{
		GxBatchSide *kept = indexed == 0 ? &k : &q;

		CHECK(gx_side_index_build(kept, &err));
		for (opt.threads = 1; opt.threads <= 2; opt.threads++)
			/* the few first, then the many first */
			for (int many = 0; many < 2; many++)
			{
				const GxPairs *pairs = many ? &kq : &qk,
						   *elements = many ? &kqe : &qke;

				opt.element_pairs = opt.threads == 2;
				CHECK(gx_batch_intersect(many ? &k : &q, many ? &q : &k, &opt, &got, &st, &err));
				CHECK_MSG(same_pairs(&got, pairs) && same_elements(&got, elements, &opt),
						  "probes (%s indexed), %s first: %zu pairs, brute force %zu; %zu element pairs, brute force %zu",
						  indexed ? "few" : "many", many ? "many" : "few", got.n, pairs->n, got.nelements, elements->n);
				gx_free(got.keys);
				gx_free(got.elements);
			}
		gx_side_index_free(kept);
	}
	free(qke.keys);
	free(kqe.keys);
	printf("test_batch: probes at (%g, %g): %d x %d geometries, %zu intersecting pairs\n", ox, oy, nq, nk, qk.n);
	free(qk.keys);
	free(kq.keys);
	gx_batch_side_free(&q);
	gx_batch_side_free(&k);
	for (i = 0; i < nq; i++)
		gx_free(gq[i]);
	for (j = 0; j < nk; j++)
		gx_free(gk[j]);
}

static void
special_cases(void)
{
	GxSerialized *g[2] = {random_geometry(0, 0, 2), random_geometry(0, 0, 2)};
	GxBatchSide a,
				b,
				empty;
	GxBatchOptions opt;
	GxBatchStats st;
	GxError		err = {GX_OK, ""};
	GxPairs		p,
				q;
	int			cancel = 1;

	build_side(&a, g, 2);
	build_side(&b, g, 2);
	gx_batch_side_init(&empty);
	gx_batch_options_default(&opt);
	opt.device = GX_DEVICE_CPU;
	/* a geometry always meets itself */
	CHECK(gx_batch_intersect(&a, &b, &opt, &p, &st, &err) && p.n >= 2);
	gx_free(p.keys);
	CHECK(gx_batch_intersect(&a, &empty, &opt, &p, &st, &err) && p.n == 0);
	gx_free(p.keys);
	opt.cancel.flag[1] = &cancel;
	CHECK(!gx_batch_intersect(&a, &b, &opt, &p, &st, &err) && err.code == GX_ERR_CANCELLED);
	opt.cancel.flag[1] = NULL;
	/* element pairs are an intersection batch's only */
	opt.element_pairs = true;
	opt.distance = 1;
	err.code = GX_OK;
	CHECK(!gx_batch_intersect(&a, &b, &opt, &p, &st, &err) && err.code == GX_ERR_ARG && p.elements == NULL);
	opt.element_pairs = false;
	opt.distance = 0;
	/* a GPU request where the CUDA engine cannot be loaded: same answer from the CPU, reason recorded */
	err.code = GX_OK;
	CHECK(gx_batch_intersect(&a, &b, &opt, &p, &st, &err));
	opt.device = GX_DEVICE_GPU;
	opt.cuda_library = "/nonexistent/gpuexact_cuda.so";
	CHECK(gx_batch_intersect(&a, &b, &opt, &q, &st, &err) && same_pairs(&p, &q));
	CHECK(strstr(st.fallback, "not loadable") != NULL && strncmp(st.device, "CPU", 3) == 0);
	gx_free(p.keys);
	gx_free(q.keys);
	/* mixed SRIDs */
	a.srid = 4326;
	b.srid = 32633;
	CHECK(!gx_batch_intersect(&a, &b, &opt, &p, &st, &err) && err.code == GX_ERR_SRID);
	CHECK_MSG(strstr(err.msg, "(4326 and 32633)") != NULL, "%s", err.msg);
	/* two SRIDs within side b, the same first one as side a's: the side is named */
	err = (GxError) {GX_OK, ""};
	b.srid = 4326;
	b.mixed_srid = true;
	CHECK(!gx_batch_intersect(&a, &b, &opt, &p, &st, &err) && err.code == GX_ERR_SRID);
	CHECK_MSG(strstr(err.msg, "(4326 and another SRID, both in side b)") != NULL, "%s", err.msg);
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
	gx_free(g[0]);
	gx_free(g[1]);
}

int
main(int argc, char **argv)
{
	unsigned	seed = argc > 2 ? (unsigned) atoi(argv[2]) : 7u;

	printf("test_batch: seed %u\n", seed);
	srand(seed);
	differential(0, 0, 300, 250, 12);
	differential(500000, 7000000, 300, 300, 20);
	for (int r = 0; r < 20; r++)
		probe_differential(r % 2 ? 500000 : 0, r % 2 ? 7000000 : 0, 1 + r % 8, 600, 4 + r % 6);
	differential(-2048, 1e6, 120, 400, 6);
	special_cases();
	return gx_test_report("test_batch");
}
