/*
 * test_cuda_engine.c: standalone test of the CUDA engine (gpuexact_cuda.so, gx_cuda.h) against the CPU.
 *
 * Element sets: random; lattice (many touching, coplanar, collinear and degenerate configurations), at
 * UTM-sized offsets, 1-ulp perturbed; and lattices scaled to exponents near 2^997 and 2^-1000, where the
 * device's filters and expansions cannot decide and pairs must come back undecided. For each job (float
 * pass off and on) the device's distinct geometry pairs, plus its undecided pairs re-decided on the CPU
 * with gx_elements_intersect, must equal a brute-force CPU reference over all pairs; candidate and
 * survivor counts must equal a CPU computation with the same grid rule; asked for element pairs, the job
 * lists each intersecting element pair once. Also: chunking under a small
 * memory cap, out of memory, cancellation, bad device, empty sides. In kept sides of solids: point location,
 * the volume filter in boxes, and gx_overlap_pairs' part (each pair of solids' candidate pairs of triangles
 * against all pairs whose boxes overlap, the solids' own volumes against their exact values).
 *
 * Prints "N passed, N failed"; exit 0 if none failed, 1 otherwise, 77 (skipped) without a CUDA device.
 * With --bench: timings of large synthetic jobs (8 000 segments against 1M triangles; 1M against 1M
 * triangles of two sphere meshes) instead.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gmp.h>

#include "algorithm/gx_primitives.h"
#include "algorithm/gx_round.h"
#include "gx_cuda.h"

static int	passed,
			failed;
static int	cpu_only;		/* --cpu-only: check the test's own CPU references (no device needed) */

#define CHECK(cond, ...) \
	do { if (!(cond)) { printf("  FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); ok = 0; } } while (0)

/* ---------------------------------------------------------------------------------------------------- */
/* Element sets                                                                                           */
/* ---------------------------------------------------------------------------------------------------- */

typedef struct Set
{
	size_t		n,
				cap;
	double	   *coords;
	uint8_t    *kind;
	uint32_t   *geom;
	int			group;			/* elements per geometry */
} Set;

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static uint64_t rng_state = 88172645463325252ull;

static uint64_t
rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static double
urand(void)
{
	return (rnd() >> 11) * 0x1p-53;
}

static int
irand(int lo, int hi)
{
	return lo + (int) (rnd() % (uint64_t) (hi - lo + 1));
}

static void
set_init(Set *s, int group)
{
	memset(s, 0, sizeof(*s));
	s->group = group;
}

static void
set_free(Set *s)
{
	free(s->coords);
	free(s->kind);
	free(s->geom);
	memset(s, 0, sizeof(*s));
}

static void
set_add(Set *s, int kind, const double p[3][3])
{
	if (s->n == s->cap)
	{
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->coords = realloc(s->coords, 9 * s->cap * sizeof(double));
		s->kind = realloc(s->kind, s->cap);
		s->geom = realloc(s->geom, s->cap * sizeof(uint32_t));
		if (!s->coords || !s->kind || !s->geom)
		{
			fprintf(stderr, "out of memory\n");
			exit(2);
		}
	}
	for (int v = 0; v < 3; v++)
		for (int k = 0; k < 3; k++)
			s->coords[9 * s->n + 3 * v + k] = p[v < kind ? v : kind - 1][k];
	s->kind[s->n] = (uint8_t) kind;
	s->geom[s->n] = (uint32_t) (s->n / s->group);
	s->n++;
}

static int
random_kind(void)
{
	int			r = irand(0, 9);

	return r == 0 ? 1 : r < 4 ? 2 : 3;
}

/* Random elements of size ~sz in [0, L]^3. */
static void
gen_random(Set *s, size_t n, double L, double sz)
{
	for (size_t i = 0; i < n; i++)
	{
		double		p[3][3];

		for (int k = 0; k < 3; k++)
			p[0][k] = urand() * L;
		for (int v = 1; v < 3; v++)
			for (int k = 0; k < 3; k++)
				p[v][k] = p[0][k] + (urand() * 2 - 1) * sz;
		set_add(s, random_kind(), p);
	}
}

/*
 * Lattice elements: vertices offset + step * (integers in [0, L]), the others within 2 lattice steps of
 * the first: touching, coplanar, collinear and degenerate configurations are frequent. perturb: chance
 * that a coordinate moves by one ulp.
 */
static void
gen_lattice(Set *s, size_t n, int L, double step, const double offset[3], double perturb)
{
	for (size_t i = 0; i < n; i++)
	{
		double		p[3][3];
		int			q[3][3];

		for (int k = 0; k < 3; k++)
			q[0][k] = irand(0, L);
		for (int v = 1; v < 3; v++)
			for (int k = 0; k < 3; k++)
				q[v][k] = q[0][k] + irand(-2, 2);
		for (int v = 0; v < 3; v++)
			for (int k = 0; k < 3; k++)
			{
				p[v][k] = offset[k] + step * q[v][k];
				if (perturb > 0 && urand() < perturb)
					p[v][k] = nextafter(p[v][k], (rnd() & 1) ? INFINITY : -INFINITY);
			}
		set_add(s, random_kind(), p);
	}
}

/* UV sphere of 2 * nlat * nlon triangles; pole along axis `pole`; c + offset. */
static void
gen_sphere(Set *s, const double c[3], double r, int nlat, int nlon, int pole)
{
	for (int i = 0; i < nlat; i++)
		for (int j = 0; j < nlon; j++)
		{
			double		v[4][3];

			for (int t = 0; t < 4; t++)
			{
				int			ii = i + (t == 1 || t == 2),
							jj = j + (t == 2 || t == 3);
				double		th = M_PI * ii / nlat,
							ph = 2 * M_PI * jj / nlon;
				double		u[3] = {sin(th) * cos(ph), sin(th) * sin(ph), cos(th)};

				for (int k = 0; k < 3; k++)
					v[t][k] = c[k] + r * u[(k + 3 - pole + 2) % 3];
			}
			{
				double		t1[3][3],
							t2[3][3];

				memcpy(t1[0], v[0], sizeof(v[0]));
				memcpy(t1[1], v[1], sizeof(v[0]));
				memcpy(t1[2], v[2], sizeof(v[0]));
				memcpy(t2[0], v[0], sizeof(v[0]));
				memcpy(t2[1], v[2], sizeof(v[0]));
				memcpy(t2[2], v[3], sizeof(v[0]));
				set_add(s, 3, t1);
				set_add(s, 3, t2);
			}
		}
}

/* ---------------------------------------------------------------------------------------------------- */
/* CPU side: boxes, the grid rule, references                                                            */
/* ---------------------------------------------------------------------------------------------------- */

typedef struct Box
{
	double		lo[3],
				hi[3];
} Box;

static Box
elem_box(const Set *s, size_t i)
{
	const double *c = s->coords + 9 * i;
	Box			b;

	for (int k = 0; k < 3; k++)
		b.lo[k] = b.hi[k] = c[k];
	for (int v = 1; v < s->kind[i]; v++)
		for (int k = 0; k < 3; k++)
		{
			double		x = c[3 * v + k];

			b.lo[k] = x < b.lo[k] ? x : b.lo[k];
			b.hi[k] = x > b.hi[k] ? x : b.hi[k];
		}
	return b;
}

static int
box_overlap(const Box *a, const Box *b)
{
	for (int k = 0; k < 3; k++)
		if (a->hi[k] < b->lo[k] || b->hi[k] < a->lo[k])
			return 0;
	return 1;
}

static Box
set_extent(const Set *s)
{
	Box			e = elem_box(s, 0);

	for (size_t i = 1; i < s->n; i++)
	{
		Box			b = elem_box(s, i);

		for (int k = 0; k < 3; k++)
		{
			e.lo[k] = fmin(e.lo[k], b.lo[k]);
			e.hi[k] = fmax(e.hi[k], b.hi[k]);
		}
	}
	return e;
}

/* gx_grid_choose_dims of src/core/index/gx_grid.c. */
static void
choose_dims(const Box *e, double cells, int dim[3])
{
	double		d[3] = {e->hi[0] - e->lo[0], e->hi[1] - e->lo[1], e->hi[2] - e->lo[2]};
	double		dmax = fmax(d[0], fmax(d[1], d[2]));
	double		prod = 1;
	int			m = 0;

	for (int k = 0; k < 3; k++)
		if (d[k] > dmax * 1e-6)
		{
			prod *= d[k];
			m++;
		}
	for (int k = 0; k < 3; k++)
	{
		double		side = m ? pow(prod / fmax(cells, 1), 1.0 / m) : 0;
		double		n = (d[k] > dmax * 1e-6 && side > 0) ? ceil(d[k] / side) : 1;

		dim[k] = (int) fmin(fmax(n, 1), 2048);
	}
}

typedef struct Grid
{
	Box			ext;
	int			dim[3];
	double		scale[3];
	size_t		ncells;
	size_t	   *start;
	uint32_t   *items;
} Grid;

/* gx_grid_coord of src/core/index/gx_grid.h. */
static int
grid_coord(const Grid *g, int k, double v)
{
	double		c = (v - g->ext.lo[k]) * g->scale[k];

	if (!(c > 0))
		return 0;
	return c >= g->dim[k] ? g->dim[k] - 1 : (int) c;
}

/* The engine's rule: elements whose box misses the extent are left out; the others cover a cell range. */
static int
grid_range(const Grid *g, const Box *b, int lo[3], int hi[3])
{
	if (!box_overlap(b, &g->ext))
		return 0;
	for (int k = 0; k < 3; k++)
	{
		lo[k] = grid_coord(g, k, b->lo[k]);
		hi[k] = grid_coord(g, k, b->hi[k]);
	}
	return 1;
}

static void
grid_build(Grid *g, const Box *ext, const int dim[3], const Box *boxes, size_t n)
{
	int			lo[3],
				hi[3];

	g->ext = *ext;
	g->ncells = 1;
	for (int k = 0; k < 3; k++)
	{
		double		d = ext->hi[k] - ext->lo[k];

		g->dim[k] = dim[k];
		g->scale[k] = d > 0 ? dim[k] / d : 0;
		g->ncells *= dim[k];
	}
	g->start = calloc(g->ncells + 1, sizeof(size_t));
	for (int pass = 0; pass < 2; pass++)
	{
		for (size_t i = 0; i < n; i++)
			if (grid_range(g, &boxes[i], lo, hi))
				for (int z = lo[2]; z <= hi[2]; z++)
					for (int y = lo[1]; y <= hi[1]; y++)
						for (int x = lo[0]; x <= hi[0]; x++)
						{
							size_t		c = ((size_t) z * g->dim[1] + y) * g->dim[0] + x;

							if (pass == 0)
								g->start[c + 1]++;
							else
								g->items[g->start[c]++] = (uint32_t) i;
						}
		if (pass == 0)
		{
			for (size_t c = 0; c < g->ncells; c++)
				g->start[c + 1] += g->start[c];
			g->items = malloc((g->start[g->ncells] + 1) * sizeof(uint32_t));
		}
		else
		{
			memmove(g->start + 1, g->start, g->ncells * sizeof(size_t));
			g->start[0] = 0;
		}
	}
}

static void
grid_free(Grid *g)
{
	free(g->start);
	free(g->items);
}

typedef struct Keys
{
	uint64_t   *v;
	size_t		n,
				cap;
} Keys;

static void
keys_push(Keys *k, uint64_t v)
{
	if (k->n == k->cap)
	{
		k->cap = k->cap ? 2 * k->cap : 1024;
		k->v = realloc(k->v, k->cap * sizeof(uint64_t));
	}
	k->v[k->n++] = v;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a,
				y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

static void
keys_sort_unique(Keys *k)
{
	size_t		m = 0;

	if (k->n == 0)
		return;
	qsort(k->v, k->n, sizeof(uint64_t), cmp_u64);
	for (size_t i = 0; i < k->n; i++)
		if (m == 0 || k->v[i] != k->v[m - 1])
			k->v[m++] = k->v[i];
	k->n = m;
}

typedef struct Reference
{
	uint64_t	candidates,
				survivors,
				overlapping,	/* brute force: overlapping boxes, both in the extent */
				element_pairs;	/* brute force: intersecting element pairs */
	Keys		keys;			/* distinct geometry pairs (brute force, or grid when brute is off) */
} Reference;

/* Grid counts (candidates, survivors in their reference cell) and, if brute, the all-pairs reference;
 * else the intersecting pairs from the grid survivors. */
static void
reference(const Set *a, const Set *b, const Box *ext, const int dim[3], int brute, Reference *r)
{
	Box		   *ba = malloc(a->n * sizeof(Box)),
			   *bb = malloc(b->n * sizeof(Box));
	Grid		ga,
				gb;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < a->n; i++)
		ba[i] = elem_box(a, i);
	for (size_t j = 0; j < b->n; j++)
		bb[j] = elem_box(b, j);
	grid_build(&ga, ext, dim, ba, a->n);
	grid_build(&gb, ext, dim, bb, b->n);
	for (size_t c = 0; c < ga.ncells; c++)
	{
		int			x = (int) (c % ga.dim[0]),
					y = (int) (c / ga.dim[0] % ga.dim[1]),
					z = (int) (c / ((size_t) ga.dim[0] * ga.dim[1]));

		r->candidates += (uint64_t) (ga.start[c + 1] - ga.start[c]) * (gb.start[c + 1] - gb.start[c]);
		for (size_t p = ga.start[c]; p < ga.start[c + 1]; p++)
			for (size_t q = gb.start[c]; q < gb.start[c + 1]; q++)
			{
				uint32_t	i = ga.items[p],
							j = gb.items[q];

				if (!box_overlap(&ba[i], &bb[j]) ||
					grid_coord(&ga, 0, fmax(ba[i].lo[0], bb[j].lo[0])) != x ||
					grid_coord(&ga, 1, fmax(ba[i].lo[1], bb[j].lo[1])) != y ||
					grid_coord(&ga, 2, fmax(ba[i].lo[2], bb[j].lo[2])) != z)
					continue;
				r->survivors++;
				if (!brute && gx_elements_intersect(a->coords + 9 * i, a->kind[i], b->coords + 9 * j, b->kind[j]))
				{
					r->element_pairs++;
					keys_push(&r->keys, ((uint64_t) a->geom[i] << 32) | b->geom[j]);
				}
			}
	}
	if (brute)
		for (size_t i = 0; i < a->n; i++)
		{
			if (!box_overlap(&ba[i], ext))
				continue;
			for (size_t j = 0; j < b->n; j++)
			{
				if (!box_overlap(&bb[j], ext) || !box_overlap(&ba[i], &bb[j]))
					continue;
				r->overlapping++;
				if (gx_elements_intersect(a->coords + 9 * i, a->kind[i], b->coords + 9 * j, b->kind[j]))
				{
					r->element_pairs++;
					keys_push(&r->keys, ((uint64_t) a->geom[i] << 32) | b->geom[j]);
				}
			}
		}
	keys_sort_unique(&r->keys);
	grid_free(&ga);
	grid_free(&gb);
	free(ba);
	free(bb);
}

/* ---------------------------------------------------------------------------------------------------- */
/* Jobs                                                                                                   */
/* ---------------------------------------------------------------------------------------------------- */

static void
make_job(GxCudaJob *job, const Set *a, const Set *b, const Box *ext, const int dim[3], int float_pass)
{
	memset(job, 0, sizeof(*job));
	job->a.n = a->n;
	job->a.coords = a->coords;
	job->a.kind = a->kind;
	job->a.geom = a->geom;
	job->b.n = b->n;
	job->b.coords = b->coords;
	job->b.kind = b->kind;
	job->b.geom = b->geom;
	for (int k = 0; k < 3; k++)
	{
		job->extent[k] = ext->lo[k];
		job->extent[k + 3] = ext->hi[k];
		job->dim[k] = dim[k];
	}
	job->float_pass = float_pass;
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Device result + CPU re-decision of its undecided pairs; element pairs decided true on the CPU. */
static uint64_t
device_keys(const Set *a, const Set *b, const GxCudaResult *res, Keys *out)
{
	uint64_t	cpu_true = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < res->npairs; i++)
		keys_push(out, res->pairs[i]);
	for (size_t u = 0; u < res->nundecided; u++)
	{
		uint32_t	i = res->undecided[2 * u],
					j = res->undecided[2 * u + 1];

		if (gx_elements_intersect(a->coords + 9 * (size_t) i, a->kind[i], b->coords + 9 * (size_t) j, b->kind[j]))
		{
			cpu_true++;
			keys_push(out, ((uint64_t) a->geom[i] << 32) | b->geom[j]);
		}
	}
	keys_sort_unique(out);
	return cpu_true;
}

/*
 * The smallest memory cap under which job runs (bisection: the engine's accounting is deterministic); an error
 * other than running out of memory ends it with *ok = 0 (ok may be NULL).
 */
static size_t
smallest_cap(GxCudaJob *job, int *ok)
{
	size_t		lo = 0,
				hi = (size_t) 1 << 36;
	GxCudaResult res;
	char		err[256];

	while (hi - lo > 1)
	{
		size_t		mid = lo + (hi - lo) / 2;
		int			rc;

		job->memory_cap = mid;
		rc = gx_cuda_intersect(job, &res, err, sizeof(err));
		gx_cuda_free_result(&res);
		if (rc == GX_CUDA_OK)
			hi = mid;
		else if (rc == GX_CUDA_OUT_OF_MEMORY)
			lo = mid;
		else
		{
			printf("  FAIL: cap %zu: rc %d (%s)\n", mid, rc, err);
			if (ok)
				*ok = 0;
			break;
		}
	}
	job->memory_cap = 0;
	return hi;
}

/* One job against the reference; returns 1 if everything matched. */
static int
check_job(const char *name, const Set *a, const Set *b, const Box *ext, const int dim[3], int float_pass,
		  const Reference *ref, size_t memory_cap, int expect_undecided, int quiet)
{
	GxCudaJob	job;
	GxCudaResult res;
	char		err[256];
	int			rc,
				ok = 1;
	Keys		got;
	uint64_t	cpu_true;

	make_job(&job, a, b, ext, dim, float_pass);
	job.memory_cap = memory_cap;
	rc = gx_cuda_intersect(&job, &res, err, sizeof(err));
	if (rc != GX_CUDA_OK)
	{
		printf("  FAIL %s float=%d: rc %d: %s\n", name, float_pass, rc, err);
		failed++;
		return 0;
	}
	for (size_t i = 1; i < res.npairs; i++)
		CHECK(res.pairs[i - 1] < res.pairs[i], "pairs not ascending and distinct at %zu", i);
	cpu_true = device_keys(a, b, &res, &got);
	CHECK(res.candidates == ref->candidates, "candidates %llu, CPU grid %llu",
		  (unsigned long long) res.candidates, (unsigned long long) ref->candidates);
	CHECK(res.bbox_survivors == ref->survivors, "survivors %llu, CPU grid %llu",
		  (unsigned long long) res.bbox_survivors, (unsigned long long) ref->survivors);
	CHECK(ref->overlapping == 0 || ref->overlapping == ref->survivors, "CPU grid survivors %llu != overlapping pairs %llu",
		  (unsigned long long) ref->survivors, (unsigned long long) ref->overlapping);
	/*
	 * the device passes over the element pairs of geometry pairs it has found (where its table of them fits),
	 * so the element pairs decided intersecting are at least one per geometry pair and at most all of them
	 */
	CHECK(res.element_pairs + cpu_true >= got.n && res.element_pairs + cpu_true <= ref->element_pairs,
		  "element pairs %llu + %llu (CPU), %zu geometry pairs, reference %llu",
		  (unsigned long long) res.element_pairs, (unsigned long long) cpu_true, got.n,
		  (unsigned long long) ref->element_pairs);
	CHECK(got.n == ref->keys.n && (got.n == 0 || memcmp(got.v, ref->keys.v, got.n * sizeof(uint64_t)) == 0),
		  "geometry pairs differ: device+CPU %zu, reference %zu", got.n, ref->keys.n);
	CHECK(res.used_float_pass == (float_pass == 1) || float_pass < 0, "used_float_pass %d", res.used_float_pass);
	CHECK(res.float_failures <= res.bbox_survivors, "float failures");
	CHECK(res.double_failures <= (res.used_float_pass ? res.float_failures : res.bbox_survivors), "double failures");
	CHECK(res.nundecided <= res.double_failures, "undecided %zu > double failures", res.nundecided);
	CHECK(!expect_undecided || res.nundecided > 0, "expected undecided pairs, got none");
	CHECK(res.chunks >= 1, "chunks %d", res.chunks);
	/*
	 * the same job asked for its element pairs: with the undecided ones the CPU finds intersecting, every
	 * intersecting element pair once (as many as the reference has, each distinct and intersecting)
	 */
	{
		GxCudaResult re;
		Keys		elems;
		size_t		wrong = 0;

		job.element_pairs = 1;
		rc = gx_cuda_intersect(&job, &re, err, sizeof(err));
		job.element_pairs = 0;
		CHECK(rc == GX_CUDA_OK, "element pairs: rc %d: %s", rc, err);
		if (rc == GX_CUDA_OK)
		{
			memset(&elems, 0, sizeof(elems));
			for (size_t i = 0; i < re.npairs; i++)
				keys_push(&elems, re.pairs[i]);
			for (size_t u = 0; u < re.nundecided; u++)
			{
				uint32_t	i = re.undecided[2 * u],
							j = re.undecided[2 * u + 1];

				if (gx_elements_intersect(a->coords + 9 * (size_t) i, a->kind[i], b->coords + 9 * (size_t) j,
										  b->kind[j]))
					keys_push(&elems, ((uint64_t) i << 32) | j);
			}
			keys_sort_unique(&elems);
			for (size_t k = 0; k < elems.n; k++)
			{
				uint32_t	i = (uint32_t) (elems.v[k] >> 32),
							j = (uint32_t) elems.v[k];

				wrong += i >= a->n || j >= b->n ||
					!gx_elements_intersect(a->coords + 9 * (size_t) i, a->kind[i], b->coords + 9 * (size_t) j,
										   b->kind[j]);
			}
			CHECK(elems.n == ref->element_pairs && wrong == 0, "element pairs: %zu (%zu not intersecting), reference %llu",
				  elems.n, wrong, (unsigned long long) ref->element_pairs);
			free(elems.v);
			gx_cuda_free_result(&re);
		}
	}
	/*
	 * the same job with its sides swapped (the larger side is gridded, so the other way round where their
	 * sizes differ): the same candidates and survivors, and the same geometry pairs the other way round
	 */
	{
		GxCudaJob	swapped;
		GxCudaResult rs;
		Keys		got_s;

		make_job(&swapped, b, a, ext, dim, float_pass);
		swapped.memory_cap = memory_cap;
		rc = gx_cuda_intersect(&swapped, &rs, err, sizeof(err));
		/* a cap sized for the job as given may leave too little room for the other side's grid */
		CHECK(rc == GX_CUDA_OK || (memory_cap > 0 && rc == GX_CUDA_OUT_OF_MEMORY), "sides swapped: rc %d: %s", rc, err);
		if (rc == GX_CUDA_OK)
		{
			device_keys(b, a, &rs, &got_s);
			for (size_t i = 0; i < got_s.n; i++)
				got_s.v[i] = got_s.v[i] << 32 | got_s.v[i] >> 32;
			qsort(got_s.v, got_s.n, sizeof(uint64_t), cmp_u64);
			CHECK(rs.candidates == ref->candidates && rs.bbox_survivors == ref->survivors &&
				  got_s.n == ref->keys.n && (got_s.n == 0 || memcmp(got_s.v, ref->keys.v, got_s.n * sizeof(uint64_t)) == 0),
				  "sides swapped: %llu candidates, %llu survivors, %zu geometry pairs; reference %llu, %llu, %zu",
				  (unsigned long long) rs.candidates, (unsigned long long) rs.bbox_survivors, got_s.n,
				  (unsigned long long) ref->candidates, (unsigned long long) ref->survivors, ref->keys.n);
			free(got_s.v);
			gx_cuda_free_result(&rs);
		}
	}
	/*
	 * the same job with both sides kept on the device beforehand (the GPU service's cache), twice: the
	 * second time on the grids the first one left with the sides; same result both times
	 */
	if (memory_cap == 0)
	{
		GxCudaResident *ra = NULL,
				   *rb = NULL;
		GxCudaResult res2;
		size_t		bytes;

		CHECK(gx_cuda_side_upload(job.device, &job.a, &ra, &bytes, err, sizeof(err)) == GX_CUDA_OK, "resident a: %s", err);
		CHECK(gx_cuda_side_upload(job.device, &job.b, &rb, &bytes, err, sizeof(err)) == GX_CUDA_OK, "resident b: %s", err);
		job.resident[0] = ra;
		job.resident[1] = rb;
		for (int again = 0; again < 2; again++)
		{
			rc = gx_cuda_intersect(&job, &res2, err, sizeof(err));
			CHECK(rc == GX_CUDA_OK && res2.npairs == res.npairs && res2.nundecided == res.nundecided &&
				  res2.candidates == res.candidates &&
				  (res.npairs == 0 || memcmp(res2.pairs, res.pairs, res.npairs * sizeof(uint64_t)) == 0),
				  "resident sides (run %d): rc %d, %zu pairs against %zu", again + 1, rc, res2.npairs, res.npairs);
			if (rc == GX_CUDA_OK)
				gx_cuda_free_result(&res2);
		}
		gx_cuda_side_free(ra);
		gx_cuda_side_free(rb);
	}
	if (!quiet || !ok)
		printf("  %-4s %-28s float=%d  cand %9llu surv %8llu ffail %7llu dfail %6llu elem %7llu pairs %6zu undec %5zu chunks %d\n",
			   ok ? "ok" : "BAD", name, res.used_float_pass, (unsigned long long) res.candidates,
			   (unsigned long long) res.bbox_survivors, (unsigned long long) res.float_failures,
			   (unsigned long long) res.double_failures, (unsigned long long) res.element_pairs, res.npairs,
			   res.nundecided, res.chunks);
	if (ok)
		passed++;
	else
		failed++;
	free(got.v);
	gx_cuda_free_result(&res);
	return ok;
}

static Box
common_extent(const Set *a, const Set *b)
{
	Box			ea = set_extent(a),
				eb = set_extent(b),
				e;

	for (int k = 0; k < 3; k++)
	{
		e.lo[k] = fmax(ea.lo[k], eb.lo[k]);
		e.hi[k] = fmin(ea.hi[k], eb.hi[k]);
	}
	return e;
}

/* Both float settings, grid dims as the core chooses them (cells per element), against brute force. */
static void
scenario(const char *name, const Set *a, const Set *b, double cells_per_element, int expect_undecided)
{
	Box			ext = common_extent(a, b);
	int			dim[3];
	Reference	ref;

	if (cells_per_element > 0)
		choose_dims(&ext, cells_per_element * (double) (a->n + b->n), dim);
	else
	{
		/* Fixed grid (the core's dims degenerate to 1x1x1 where the extent's volume overflows). */
		dim[0] = 5;
		dim[1] = 4;
		dim[2] = 6;
	}
	reference(a, b, &ext, dim, 1, &ref);
	printf("%s: %zu x %zu elements, grid %dx%dx%d, %zu geometry pairs, %llu element pairs\n", name, a->n, b->n,
		   dim[0], dim[1], dim[2], ref.keys.n, (unsigned long long) ref.element_pairs);
	if (cpu_only)
	{
		printf("  %s candidates %llu survivors %llu overlapping %llu\n", ref.survivors == ref.overlapping ? "ok" : "BAD",
			   (unsigned long long) ref.candidates, (unsigned long long) ref.survivors,
			   (unsigned long long) ref.overlapping);
		if (ref.survivors == ref.overlapping)
			passed++;
		else
			failed++;
	}
	else
	{
		check_job(name, a, b, &ext, dim, 0, &ref, 0, expect_undecided, 0);
		check_job(name, a, b, &ext, dim, 1, &ref, 0, expect_undecided, 0);
	}
	free(ref.keys.v);
}

static void
lattice_pair(Set *a, Set *b, size_t n, int L, double step, const double off[3], double perturb)
{
	set_init(a, 3);
	set_init(b, 2);
	gen_lattice(a, n, L, step, off, perturb);
	gen_lattice(b, n, L, step, off, perturb);
}

static void locate_tests(void);
static void volume_tests(void);
static void overlap_tests(void);

static void
run_tests(void)
{
	Set			a,
				b;
	const double zero[3] = {0, 0, 0};
	const double utm[3] = {500000, 7000000, 100};

	locate_tests();
	volume_tests();
	overlap_tests();

	/* Random. */
	set_init(&a, 3);
	set_init(&b, 5);
	gen_random(&a, 3000, 100, 6);
	gen_random(&b, 2500, 100, 6);
	scenario("random", &a, &b, 0.5, 0);
	scenario("random, fine grid", &a, &b, 8, 0);
	set_free(&a);
	set_free(&b);

	/* Lattices. */
	lattice_pair(&a, &b, 2500, 12, 1.0, zero, 0);
	scenario("lattice", &a, &b, 0.5, 0);
	scenario("lattice, fine grid", &a, &b, 16, 0);
	set_free(&a);
	set_free(&b);

	lattice_pair(&a, &b, 2500, 12, 0.25, utm, 0);
	scenario("lattice at UTM offsets", &a, &b, 0.5, 0);
	set_free(&a);
	set_free(&b);

	lattice_pair(&a, &b, 2500, 12, 0.25, utm, 0.3);
	scenario("UTM lattice, 1-ulp perturbed", &a, &b, 2, 0);
	set_free(&a);
	set_free(&b);

	lattice_pair(&a, &b, 2000, 10, 1.0, zero, 0.3);
	scenario("lattice, 1-ulp perturbed", &a, &b, 1, 0);
	set_free(&a);
	set_free(&b);

	/* Exponent extremes: filters and expansions out of range; pairs go to the CPU. */
	lattice_pair(&a, &b, 600, 6, ldexp(1.0, 997), zero, 0);
	scenario("lattice at 2^997", &a, &b, 0.5, 1);
	scenario("lattice at 2^997, 5x4x6 grid", &a, &b, -1, 1);
	set_free(&a);
	set_free(&b);

	lattice_pair(&a, &b, 600, 6, ldexp(1.0, -1000), zero, 0);
	scenario("lattice at 2^-1000", &a, &b, 0.5, 1);
	scenario("lattice at 2^-1000, 5x4x6 grid", &a, &b, -1, 1);
	set_free(&a);
	set_free(&b);

	if (cpu_only)
		return;

	/* A sub-extent: elements whose box misses it are skipped. */
	{
		Box			ext;
		int			dim[3] = {7, 5, 6};
		Reference	ref;

		set_init(&a, 3);
		set_init(&b, 4);
		gen_random(&a, 2000, 50, 2);
		gen_random(&b, 2000, 50, 2);
		for (int k = 0; k < 3; k++)
		{
			ext.lo[k] = 10 + 3 * k;
			ext.hi[k] = 35;
		}
		reference(&a, &b, &ext, dim, 1, &ref);
		printf("sub-extent: %zu geometry pairs\n", ref.keys.n);
		check_job("sub-extent", &a, &b, &ext, dim, 0, &ref, 0, 0, 0);
		check_job("sub-extent", &a, &b, &ext, dim, 1, &ref, 0, 0, 0);
		free(ref.keys.v);
		set_free(&a);
		set_free(&b);
	}

	/* Flat extent (all in one plane z = 1): scale 0 along z. */
	{
		const double flat[3] = {0, 0, 1};

		set_init(&a, 2);
		set_init(&b, 2);
		for (int i = 0; i < 1500; i++)
		{
			double		p[3][3];

			for (int v = 0; v < 3; v++)
			{
				p[v][0] = flat[0] + irand(0, 20) + (v ? irand(-2, 2) : 0);
				p[v][1] = flat[1] + irand(0, 20) + (v ? irand(-2, 2) : 0);
				p[v][2] = flat[2];
			}
			set_add(i & 1 ? &b : &a, random_kind(), p);
		}
		scenario("flat (coplanar) sets", &a, &b, 1, 0);
		set_free(&a);
		set_free(&b);
	}

	/* Chunking under a memory cap just above the minimum, errors, cancellation. */
	{
		Box			ext;
		int			dim[3];
		Reference	ref;
		GxCudaJob	job;
		GxCudaResult res;
		char		err[256];
		size_t		hi;
		volatile int cancel = 1;
		int			rc,
					ok = 1;

		set_init(&a, 3);
		set_init(&b, 3);
		gen_random(&a, 6000, 60, 4);
		gen_random(&b, 6000, 60, 4);
		ext = common_extent(&a, &b);
		choose_dims(&ext, 0.5 * (a.n + b.n), dim);
		reference(&a, &b, &ext, dim, 1, &ref);
		make_job(&job, &a, &b, &ext, dim, 0);
		hi = smallest_cap(&job, &ok);
		printf("chunking: %llu survivors, smallest working memory cap %zu bytes\n",
			   (unsigned long long) ref.survivors, hi);
		if (ok)
			passed++;
		else
			failed++;
		check_job("chunked, smallest cap", &a, &b, &ext, dim, 0, &ref, hi, 0, 0);
		check_job("chunked, smallest cap", &a, &b, &ext, dim, 1, &ref, hi + 9 * 8 * (a.n + b.n), 0, 0);
		check_job("chunked, cap + 200 KB", &a, &b, &ext, dim, 0, &ref, hi + 200000, 0, 0);
		/* room for the table of geometry pairs found, read out after the chunks */
		check_job("chunked, cap + 4 MB", &a, &b, &ext, dim, 0, &ref, hi + (4 << 20), 0, 0);
		/*
		 * side a the larger, so that it is gridded and side b probes it, at its own smallest cap: several
		 * chunks, the same pairs
		 */
		{
			Reference	shorter;
			size_t		nb = b.n,
						cap_a;

			b.n = 4000;
			reference(&a, &b, &ext, dim, 1, &shorter);
			make_job(&job, &a, &b, &ext, dim, 0);
			ok = 1;
			cap_a = smallest_cap(&job, &ok);
			job.memory_cap = cap_a;
			rc = gx_cuda_intersect(&job, &res, err, sizeof(err));
			CHECK(ok && rc == GX_CUDA_OK && res.chunks > 1, "side a gridded at its smallest cap %zu: rc %d, %d chunk(s)",
				  cap_a, rc, res.chunks);
			if (ok)
				passed++;
			else
				failed++;
			gx_cuda_free_result(&res);
			check_job("chunked, side a gridded", &a, &b, &ext, dim, 0, &shorter, cap_a, 0, 0);
			b.n = nb;
			free(shorter.keys.v);
			make_job(&job, &a, &b, &ext, dim, 0);
		}
		/*
		 * the same elements in 40 geometries a side: the table of pairs found is small enough to be kept
		 * at the smallest cap, across several chunks
		 */
		{
			Reference	few;

			for (size_t i = 0; i < a.n; i++)
				a.geom[i] = (uint32_t) (i / 150);
			for (size_t i = 0; i < b.n; i++)
				b.geom[i] = (uint32_t) (i / 150);
			reference(&a, &b, &ext, dim, 1, &few);
			check_job("chunked, 40 geometries a side", &a, &b, &ext, dim, 0, &few, hi, 0, 0);
			make_job(&job, &a, &b, &ext, dim, 0);
			job.memory_cap = hi;
			ok = 1;
			rc = gx_cuda_intersect(&job, &res, err, sizeof(err));
			CHECK(rc == GX_CUDA_OK && res.chunks > 1, "40 geometries a side at the smallest cap: rc %d, %d chunk(s)",
				  rc, res.chunks);
			if (ok)
				passed++;
			else
				failed++;
			gx_cuda_free_result(&res);
			free(few.keys.v);
		}

		ok = 1;
		job.memory_cap = 4096;
		rc = gx_cuda_intersect(&job, &res, err, sizeof(err));
		CHECK(rc == GX_CUDA_OUT_OF_MEMORY, "4 KB cap: rc %d (%s)", rc, err);
		CHECK(res.pairs == NULL && res.npairs == 0, "result not empty after an error");
		printf("  out of memory: \"%s\"\n", err);
		job.memory_cap = 0;
		job.cancel[1] = &cancel;
		rc = gx_cuda_intersect(&job, &res, err, sizeof(err));
		CHECK(rc == GX_CUDA_CANCELLED, "cancel: rc %d (%s)", rc, err);
		job.cancel[1] = NULL;
		job.device = 99;
		rc = gx_cuda_intersect(&job, &res, err, sizeof(err));
		CHECK(rc == GX_CUDA_NO_DEVICE, "device 99: rc %d (%s)", rc, err);
		job.device = 0;
		job.b.n = 0;
		rc = gx_cuda_intersect(&job, &res, err, sizeof(err));
		CHECK(rc == GX_CUDA_OK && res.npairs == 0 && res.candidates == 0, "empty side: rc %d (%s)", rc, err);
		gx_cuda_free_result(&res);
		printf("  %-4s errors, cancellation, bad device, empty side\n", ok ? "ok" : "BAD");
		if (ok)
			passed++;
		else
			failed++;
		free(ref.keys.v);
		set_free(&a);
		set_free(&b);
	}
}

/* ---------------------------------------------------------------------------------------------------- */
/* Point location in solids (gx_cuda_locate)                                                             */
/* ---------------------------------------------------------------------------------------------------- */

#define VOX 6					/* voxels per axis of a test solid */

/* A solid made of filled voxels (side h, from origin o): its boundary faces as triangles. */
typedef struct Voxels
{
	bool		fill[VOX][VOX][VOX];
	double		o[3],
				h;
} Voxels;

static bool
filled(const Voxels *v, int i, int j, int k)
{
	return i >= 0 && j >= 0 && k >= 0 && i < VOX && j < VOX && k < VOX && v->fill[i][j][k];
}

/*
 * Adds the boundary of v to s (geometry g): two triangles per face between a filled and an empty voxel,
 * facing out of the filled one.
 */
static void
voxel_surface(Set *s, const Voxels *v, uint32_t g)
{
	for (int i = 0; i < VOX; i++)
		for (int j = 0; j < VOX; j++)
			for (int k = 0; k < VOX; k++)
				for (int axis = 0; axis < 3; axis++)
					for (int side = 0; side < 2; side++)
					{
						int			n[3] = {i, j, k},
									c[3] = {i, j, k},
									u = (axis + 1) % 3,
									w = (axis + 2) % 3;
						double		q[4][3];

						n[axis] += side ? 1 : -1;
						if (!v->fill[i][j][k] || filled(v, n[0], n[1], n[2]))
							continue;
						c[axis] += side;
						for (int corner = 0; corner < 4; corner++)
						{
							int			p[3] = {c[0], c[1], c[2]};

							p[u] += corner == 1 || corner == 2;
							p[w] += corner >= 2;
							for (int d = 0; d < 3; d++)
								q[corner][d] = v->o[d] + p[d] * v->h;
						}
						{
							/* q0 q1 q2 faces +axis: a face at the voxel's low side is turned over (outward) */
							double		t1[3][3], t2[3][3];

							memcpy(t1[0], q[0], 24); memcpy(t1[1], q[side ? 1 : 2], 24); memcpy(t1[2], q[side ? 2 : 1], 24);
							memcpy(t2[0], q[0], 24); memcpy(t2[1], q[side ? 2 : 3], 24); memcpy(t2[2], q[side ? 3 : 2], 24);
							set_add(s, 3, t1);
							s->geom[s->n - 1] = g;
							set_add(s, 3, t2);
							s->geom[s->n - 1] = g;
						}
					}
}

/*
 * Where p lies in v, from its coordinates alone (p - o and the division by h are exact for the points of
 * the test): 0 outside (no filled voxel's closed cube holds it), 1 inside (every voxel whose closed cube
 * holds it is filled), 3 on the boundary.
 */
static int
voxel_oracle(const Voxels *v, const double *p)
{
	int			lo[3],
				hi[3],
				any = 0,
				all = 1;

	for (int d = 0; d < 3; d++)
	{
		double		u = (p[d] - v->o[d]) / v->h,
					f = floor(u);

		lo[d] = (int) f - (u == f);
		hi[d] = (int) f;
	}
	for (int i = lo[0]; i <= hi[0]; i++)
		for (int j = lo[1]; j <= hi[1]; j++)
			for (int k = lo[2]; k <= hi[2]; k++)
			{
				int			f = filled(v, i, j, k);

				any |= f;
				all &= f;
			}
	return !any ? 0 : all ? 1 : 3;
}

/*
 * The side of the device tests on solids: two voxel solids, v[0] a shell with a cavity at UTM offsets and v[1]
 * random voxels at the origin, as geometries 0 and 2, and geometry 1 a triangle that is not a solid.
 */
static void
voxel_side(Voxels v[2], Set *s)
{
	memset(v, 0, 2 * sizeof(Voxels));
	v[0].o[0] = 500000, v[0].o[1] = 7000000, v[0].o[2] = 100, v[0].h = 0.25;
	v[1].h = 1;
	for (int i = 0; i < VOX; i++)
		for (int j = 0; j < VOX; j++)
			for (int k = 0; k < VOX; k++)
			{
				v[0].fill[i][j][k] = i >= 1 && j >= 1 && k >= 1 && i <= 4 && j <= 4 && k <= 4 && !(i == 2 && j == 2 && k == 2);
				v[1].fill[i][j][k] = (rnd() & 1) != 0;
			}
	set_init(s, 1 << 30);
	voxel_surface(s, &v[0], 0);
	{
		double		t[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};

		set_add(s, 3, t);
		s->geom[s->n - 1] = 1;
	}
	voxel_surface(s, &v[1], 2);
}

/* The cell index along an axis, as gx_grid_coord computes it. */
static int
column_coord(double x, double lo, double scale, int dim)
{
	double		c = (x - lo) * scale;

	if (!(c > 0))
		return 0;
	return c >= dim ? dim - 1 : (int) c;
}

/* Column grids (nx x ny over each solid's box) for the geometries of s; geometries in none are not solids. */
static void
build_columns(const Set *s, int ngeoms, const bool *solid, int nx, int ny, GxCudaColumns *c)
{
	double	   *frame = calloc(4 * ngeoms, sizeof(double));
	int32_t    *dim = calloc(2 * ngeoms, sizeof(int32_t));
	uint64_t   *cell0 = calloc(ngeoms, sizeof(uint64_t)),
			   *start;
	uint32_t   *items;
	size_t		ncells = 0,
				nitems = 0;

	for (int g = 0; g < ngeoms; g++)
		ncells += solid[g] ? (size_t) nx * ny : 0;
	start = calloc(ncells + 1, sizeof(uint64_t));
	items = malloc((s->n * nx * ny + 1) * sizeof(uint32_t));
	ncells = 0;
	for (int g = 0; g < ngeoms; g++)
	{
		double		lo[2] = {INFINITY, INFINITY},
					hi[2] = {-INFINITY, -INFINITY};

		cell0[g] = ncells;
		if (!solid[g])
			continue;
		for (size_t e = 0; e < s->n; e++)
			for (int v = 0; s->geom[e] == (uint32_t) g && v < 3; v++)
				for (int d = 0; d < 2; d++)
				{
					lo[d] = fmin(lo[d], s->coords[9 * e + 3 * v + d]);
					hi[d] = fmax(hi[d], s->coords[9 * e + 3 * v + d]);
				}
		dim[2 * g] = nx;
		dim[2 * g + 1] = ny;
		frame[4 * g] = lo[0];
		frame[4 * g + 1] = lo[1];
		frame[4 * g + 2] = nx / (hi[0] - lo[0]);
		frame[4 * g + 3] = ny / (hi[1] - lo[1]);
		for (int cy = 0; cy < ny; cy++)
			for (int cx = 0; cx < nx; cx++)
			{
				start[ncells++] = nitems;
				for (size_t e = 0; e < s->n; e++)
				{
					double		tl[2] = {INFINITY, INFINITY},
								th[2] = {-INFINITY, -INFINITY};

					if (s->geom[e] != (uint32_t) g)
						continue;
					for (int v = 0; v < 3; v++)
						for (int d = 0; d < 2; d++)
						{
							tl[d] = fmin(tl[d], s->coords[9 * e + 3 * v + d]);
							th[d] = fmax(th[d], s->coords[9 * e + 3 * v + d]);
						}
					if (column_coord(tl[0], lo[0], frame[4 * g + 2], nx) <= cx && cx <= column_coord(th[0], lo[0], frame[4 * g + 2], nx) &&
						column_coord(tl[1], lo[1], frame[4 * g + 3], ny) <= cy && cy <= column_coord(th[1], lo[1], frame[4 * g + 3], ny))
						items[nitems++] = (uint32_t) e;
				}
			}
	}
	start[ncells] = nitems;
	*c = (GxCudaColumns) {(size_t) ngeoms, frame, dim, cell0, ncells, start, nitems, items};
}

static void
columns_free(GxCudaColumns *c)
{
	free((void *) c->frame);
	free((void *) c->dim);
	free((void *) c->cell0);
	free((void *) c->start);
	free((void *) c->items);
}

/*
 * Two voxel solids (one with a cavity, at UTM offsets; one at the origin) as geometries 0 and 2 of a side,
 * geometry 1 a triangle that is not a solid; points random, on lattice vertices, edge and face centres,
 * and one ulp off them. The device's answer must be the voxel oracle's whenever it gives one, and it must
 * leave every boundary point to the CPU.
 */
static void
locate_tests(void)
{
	Voxels		v[2];
	Set			s;
	GxCudaColumns cols;
	GxCudaResident *r = NULL;
	const bool	solid[3] = {true, false, true};
	size_t		n = 60000,
				bytes,
				counts[2][3] = {{0}};
	double	   *pts = malloc(3 * n * sizeof(double));
	uint32_t   *which = malloc(n * sizeof(uint32_t));
	uint8_t    *answer = malloc(n);
	char		err[256] = "";
	volatile int cancel = 1;
	volatile const int *no_cancel[2] = {NULL, NULL},
			   *cancelled[2] = {NULL, &cancel};
	int			ok = 1,
				rc;

	voxel_side(v, &s);
	build_columns(&s, 3, solid, 4, 3, &cols);
	for (size_t i = 0; i < n; i++)
	{
		int			g = i % 7 == 6 ? 1 : (i % 2) * 2;
		const Voxels *x = &v[g == 1 ? 0 : g / 2];
		int			mode = irand(0, 3);

		which[i] = (uint32_t) g;
		for (int d = 0; d < 3; d++)
		{
			double		u = mode == 0 ? urand() * VOX : irand(0, 2 * VOX) / 2.0,
						p = x->o[d] + u * x->h;

			if (mode == 2 && irand(0, 2) == 0)
				p = nextafter(p, irand(0, 1) ? INFINITY : -INFINITY);
			pts[3 * i + d] = p;
		}
	}
	if (cpu_only)
		goto done;
	rc = gx_cuda_side_upload(0, &(GxCudaSide) {s.n, s.coords, s.kind, s.geom, &cols}, &r, &bytes, err, sizeof(err));
	CHECK(rc == GX_CUDA_OK, "upload with columns: %s", err);
	if (rc != GX_CUDA_OK)
		goto done;
	rc = gx_cuda_locate(r, pts, which, n, answer, no_cancel, err, sizeof(err));
	CHECK(rc == GX_CUDA_OK, "locate: %s", err);
	for (size_t i = 0; rc == GX_CUDA_OK && i < n; i++)
	{
		int			want = which[i] == 1 ? 2 : voxel_oracle(&v[which[i] / 2], pts + 3 * i);

		if (which[i] == 1)
			CHECK(answer[i] == 2, "query %zu in a geometry that is not a solid: %d", i, answer[i]);
		else if (want == 3)
			CHECK(answer[i] == 2, "point %zu on the boundary (%.17g %.17g %.17g) decided: %d", i, pts[3 * i],
				  pts[3 * i + 1], pts[3 * i + 2], answer[i]);
		else
			CHECK(answer[i] == want || answer[i] == 2, "point %zu (%.17g %.17g %.17g): %d, oracle %d", i,
				  pts[3 * i], pts[3 * i + 1], pts[3 * i + 2], answer[i], want);
		if (which[i] != 1 && want != 3 && answer[i] != 2)
			counts[which[i] / 2][want]++;
		if (!ok)
			break;
	}
	/* most points off the boundary are decided on the device; both answers occur in both solids */
	for (int g = 0; g < 2; g++)
		CHECK(counts[g][0] > 1000 && counts[g][1] > 1000, "solid %d: %zu outside, %zu inside decided", g,
			  counts[g][0], counts[g][1]);
	rc = gx_cuda_locate(r, pts, which, n, answer, cancelled, err, sizeof(err));
	CHECK(rc == GX_CUDA_CANCELLED, "cancel: rc %d", rc);
	rc = gx_cuda_locate(r, pts, which, 0, answer, no_cancel, err, sizeof(err));
	CHECK(rc == GX_CUDA_OK, "no points: rc %d (%s)", rc, err);
	printf("  %-4s point location: %zu + %zu outside, %zu + %zu inside decided on the device\n", ok ? "ok" : "BAD",
		   counts[0][0], counts[1][0], counts[0][1], counts[1][1]);
	if (ok)
		passed++;
	else
		failed++;
done:
	gx_cuda_side_free(r);
	columns_free(&cols);
	set_free(&s);
	free(pts);
	free(which);
	free(answer);
}

/* ---------------------------------------------------------------------------------------------------- */
/* gx_overlap_pairs' part (gx_cuda_overlap_candidates, gx_cuda_solid_volumes)                            */
/* ---------------------------------------------------------------------------------------------------- */

#define OV_SOLIDS 9				/* solids of the overlap tests' side, then one triangle that is not a solid */

/* The overlap tests' solids: voxel solids and spheres, most overlapping others; a huge one and a tiny one. */
static void
overlap_side(Set *s, size_t first[OV_SOLIDS + 2])
{
	Voxels		v;

	set_init(s, 1 << 30);
	for (int g = 0; g < OV_SOLIDS; g++)
	{
		first[g] = s->n;
		if (g % 3 == 2)
		{
			const double c[3] = {500001 + 0.37 * g, 7000002 - 0.21 * g, 101 + 0.13 * g};
			size_t		from = s->n;

			gen_sphere(s, c, 1.5 + 0.25 * g, 6 + g, 8 + g, g % 3);
			for (size_t e = from; e < s->n; e++)
				s->geom[e] = (uint32_t) g;
			continue;
		}
		memset(&v, 0, sizeof(v));
		v.o[0] = 500000 + 0.25 * (g % 4);
		v.o[1] = 7000000 + 0.5 * (g % 3);
		v.o[2] = 100 - 0.125 * g;
		v.h = 0.75;
		if (g == 7)
			v.o[0] = v.o[1] = v.o[2] = v.h = 0x1p600;	/* a det of about 2^1800: beyond the double-doubles */
		if (g == 4)
			v.o[0] = v.o[1] = v.o[2] = v.h = 0x1p-300;
		for (int i = 0; i < VOX; i++)
			for (int j = 0; j < VOX; j++)
				for (int k = 0; k < VOX; k++)
					v.fill[i][j][k] = (rnd() % 3) != 0;
		voxel_surface(s, &v, (uint32_t) g);
	}
	first[OV_SOLIDS] = s->n;
	{
		double		t[3][3] = {{500000, 7000000, 100}, {500001, 7000000, 100}, {500000, 7000001, 101}};

		set_add(s, 3, t);
		s->geom[s->n - 1] = OV_SOLIDS;
	}
	first[OV_SOLIDS + 1] = s->n;
}

static int
cmp_pair(const void *x, const void *y)
{
	const uint32_t *p = x,
			   *q = y;

	return p[0] != q[0] ? (p[0] < q[0] ? -1 : 1) : (p[1] < q[1] ? -1 : p[1] > q[1]);
}

/*
 * 6 times the signed volume of the prism between triangle T and the plane z = o[2], exact, into out (w:
 * temporaries): the projected area's double times the sum of the heights, as gx_overlay_prism encloses it.
 */
static void
prism_exact(const double *T, const double *o, mpq_t out, mpq_t w[8])
{
	for (int k = 0; k < 3; k++)
	{
		mpq_set_d(w[k], T[3 * k]);
		mpq_set_d(w[3 + k], T[3 * k + 1]);
	}
	mpq_sub(w[1], w[1], w[0]);	/* x1 - x0 */
	mpq_sub(w[2], w[2], w[0]);	/* x2 - x0 */
	mpq_sub(w[4], w[4], w[3]);	/* y1 - y0 */
	mpq_sub(w[5], w[5], w[3]);	/* y2 - y0 */
	mpq_mul(w[6], w[1], w[5]);
	mpq_mul(w[7], w[2], w[4]);
	mpq_sub(out, w[6], w[7]);
	mpq_set_ui(w[6], 0, 1);
	for (int k = 0; k < 3; k++)
	{
		mpq_set_d(w[7], T[3 * k + 2]);
		mpq_add(w[6], w[6], w[7]);
		mpq_set_d(w[7], o[2]);
		mpq_sub(w[6], w[6], w[7]);
	}
	mpq_mul(out, out, w[6]);
}

/*
 * One side of voxel solids and spheres (two huge, tiny or far apart), kept twice: as built, and with its
 * geometries in the reverse order (other element numbers). For every pair of solids (the same one twice too)
 * across the two, and a pair of no triangles, the device's candidate pairs of triangles must be, in some order,
 * every pair whose closed boxes overlap, once; every solid's own volume, where the device rounds it, the exact
 * sum of its triangles' prisms rounded once, and the huge one's left to the CPU.
 */
static void
overlap_tests(void)
{
	Set			s,
				r;
	size_t		first[OV_SOLIDS + 2],
				rfirst[OV_SOLIDS + 2],
				bytes,
				npairs = 0,
				total = 0,
				decided = 0;
	GxCudaColumns cols,
				rcols;
	GxCudaResident *ks = NULL,
			   *kr = NULL;
	bool		solid[OV_SOLIDS + 1];
	uint64_t	a_first[OV_SOLIDS * OV_SOLIDS + 1],
				b_first[OV_SOLIDS * OV_SOLIDS + 1],
				start[OV_SOLIDS * OV_SOLIDS + 2],
				vfirst[OV_SOLIDS];
	uint32_t	a_count[OV_SOLIDS * OV_SOLIDS + 1],
				b_solid[OV_SOLIDS * OV_SOLIDS + 1],
				vcount[OV_SOLIDS],
			   *tri = NULL;
	double		b_box[6 * (OV_SOLIDS * OV_SOLIDS + 1)],
				value[OV_SOLIDS];
	int8_t		sign[OV_SOLIDS];
	char		err[256] = "";
	volatile int cancel = 1;
	volatile const int *no_cancel[2] = {NULL, NULL},
			   *cancelled[2] = {NULL, &cancel};
	mpq_t		w[8],
				v,
				d;
	int			ok = 1,
				rc;

	for (int k = 0; k < 8; k++)
		mpq_init(w[k]);
	mpq_inits(v, d, NULL);
	overlap_side(&s, first);
	/* the same solids in the reverse order */
	set_init(&r, 1 << 30);
	for (int g = OV_SOLIDS; g >= 0; g--)
	{
		rfirst[g] = r.n;
		for (size_t e = first[g]; e < first[g + 1]; e++)
		{
			double		t[3][3];

			memcpy(t, s.coords + 9 * e, sizeof(t));
			set_add(&r, 3, t);
			r.geom[r.n - 1] = (uint32_t) g;
		}
	}
	for (int g = 0; g <= OV_SOLIDS; g++)
		solid[g] = g < OV_SOLIDS;
	build_columns(&s, OV_SOLIDS + 1, solid, 5, 4, &cols);
	build_columns(&r, OV_SOLIDS + 1, solid, 3, 6, &rcols);
	/* the pairs: a's solid i (kept as built) and b's solid k (kept reversed), then one of no triangles */
	for (int i = 0; i < OV_SOLIDS; i++)
		for (int k = 0; k < OV_SOLIDS; k++, npairs++)
		{
			a_first[npairs] = first[i];
			a_count[npairs] = (uint32_t) (first[i + 1] - first[i]);
			b_solid[npairs] = (uint32_t) k;
			b_first[npairs] = rfirst[k];
			for (int c = 0; c < 3; c++)
			{
				b_box[6 * npairs + c] = INFINITY;
				b_box[6 * npairs + 3 + c] = -INFINITY;
			}
			for (size_t e = rfirst[k]; e < rfirst[k] + (first[k + 1] - first[k]); e++)
			{
				Box			x = elem_box(&r, e);

				for (int c = 0; c < 3; c++)
				{
					b_box[6 * npairs + c] = fmin(b_box[6 * npairs + c], x.lo[c]);
					b_box[6 * npairs + 3 + c] = fmax(b_box[6 * npairs + 3 + c], x.hi[c]);
				}
			}
		}
	a_first[npairs] = first[1];
	a_count[npairs] = 0;
	b_solid[npairs] = 0;
	b_first[npairs] = rfirst[0];
	memcpy(b_box + 6 * npairs, b_box, 6 * sizeof(double));
	npairs++;
	if (cpu_only)
		goto done;
	rc = gx_cuda_side_upload(0, &(GxCudaSide) {s.n, s.coords, s.kind, s.geom, &cols}, &ks, &bytes, err, sizeof(err));
	CHECK(rc == GX_CUDA_OK, "upload: %s", err);
	if (rc == GX_CUDA_OK)
		rc = gx_cuda_side_upload(0, &(GxCudaSide) {r.n, r.coords, r.kind, r.geom, &rcols}, &kr, &bytes, err,
								 sizeof(err));
	CHECK(rc == GX_CUDA_OK, "upload: %s", err);
	if (rc != GX_CUDA_OK)
		goto done;
	rc = gx_cuda_overlap_candidates(ks, kr, a_first, a_count, b_solid, b_first, b_box, npairs, start, &tri, no_cancel,
									err, sizeof(err));
	CHECK(rc == GX_CUDA_OK, "candidates: %s", err);
	for (size_t p = 0; rc == GX_CUDA_OK && p < npairs && ok; p++)
	{
		size_t		nref = 0,
					ngot = start[p + 1] - start[p];
		uint32_t   *ref = malloc((a_count[p] * (size_t) (first[b_solid[p] + 1] - first[b_solid[p]]) + 1) * 2 *
								 sizeof(uint32_t)),
				   *got = tri + 2 * start[p];

		CHECK(start[p + 1] >= start[p], "pair %zu: start %lu then %lu", p, (unsigned long) start[p],
			  (unsigned long) start[p + 1]);
		for (uint32_t t = 0; t < a_count[p]; t++)
			for (uint32_t u = 0; u < first[b_solid[p] + 1] - first[b_solid[p]]; u++)
			{
				Box			x = elem_box(&s, a_first[p] + t),
							y = elem_box(&r, b_first[p] + u);

				if (box_overlap(&x, &y))
				{
					ref[2 * nref] = t;
					ref[2 * nref++ + 1] = u;
				}
			}
		qsort(got, ngot, 2 * sizeof(uint32_t), cmp_pair);
		CHECK(ngot == nref && memcmp(got, ref, 2 * nref * sizeof(uint32_t)) == 0,
			  "pair %zu (solids %u and %u): %zu candidates, %zu pairs of boxes overlapping", p,
			  p < npairs - 1 ? (unsigned) (p / OV_SOLIDS) : 1, b_solid[p], ngot, nref);
		total += nref;
		free(ref);
	}
	CHECK(total > 10000, "%zu candidates in all", total);
	free(tri);
	tri = NULL;
	rc = gx_cuda_overlap_candidates(ks, kr, a_first, a_count, b_solid, b_first, b_box, npairs, start, &tri, cancelled,
									err, sizeof(err));
	CHECK(rc == GX_CUDA_CANCELLED && tri == NULL, "cancel: rc %d", rc);
	free(tri);
	tri = NULL;
	/* b must come with its columns */
	{
		GxCudaResident *bare = NULL;

		rc = gx_cuda_side_upload(0, &(GxCudaSide) {r.n, r.coords, r.kind, r.geom, NULL}, &bare, &bytes, err,
								 sizeof(err));
		if (rc == GX_CUDA_OK)
			rc = gx_cuda_overlap_candidates(ks, bare, a_first, a_count, b_solid, b_first, b_box, npairs, start, &tri,
											no_cancel, err, sizeof(err));
		CHECK(rc == GX_CUDA_ERROR && tri == NULL, "a side without columns: rc %d", rc);
		free(tri);
		gx_cuda_side_free(bare);
	}
	/* the solids' own volumes */
	for (int g = 0; g < OV_SOLIDS; g++)
	{
		vfirst[g] = first[g];
		vcount[g] = (uint32_t) (first[g + 1] - first[g]);
	}
	rc = gx_cuda_solid_volumes(ks, vfirst, vcount, OV_SOLIDS, value, sign, no_cancel, err, sizeof(err));
	CHECK(rc == GX_CUDA_OK, "volumes: %s", err);
	for (int g = 0; rc == GX_CUDA_OK && g < OV_SOLIDS; g++)
	{
		const double *o = s.coords + 9 * first[g];

		mpq_set_ui(v, 0, 1);
		for (size_t e = first[g]; e < first[g + 1]; e++)
		{
			prism_exact(s.coords + 9 * e, o, d, w);
			mpq_add(v, v, d);
		}
		mpq_set_ui(d, 6, 1);
		mpq_div(v, v, d);
		if (sign[g] == 2)
			continue;
		decided++;
		CHECK(sign[g] == mpq_sgn(v) && value[g] == gx_mpq_get_d_nearest(v), "solid %d: %.17g (sign %d), exact %.17g",
			  g, value[g], sign[g], mpq_get_d(v));
	}
	CHECK(rc != GX_CUDA_OK || (decided >= OV_SOLIDS - 2 && sign[7] == 2), "%zu volumes decided, the huge one's sign %d",
		  decided, sign[7]);
	rc = gx_cuda_solid_volumes(ks, vfirst, vcount, OV_SOLIDS, value, sign, cancelled, err, sizeof(err));
	CHECK(rc == GX_CUDA_CANCELLED, "volumes cancelled: rc %d", rc);
	printf("  %-4s overlap pairs: %zu candidate pairs of triangles in %zu pairs of solids, %zu of %d volumes rounded\n",
		   ok ? "ok" : "BAD", total, npairs, decided, OV_SOLIDS);
	if (ok)
		passed++;
	else
		failed++;
done:
	gx_cuda_side_free(ks);
	gx_cuda_side_free(kr);
	columns_free(&cols);
	columns_free(&rcols);
	set_free(&s);
	set_free(&r);
	for (int k = 0; k < 8; k++)
		mpq_clear(w[k]);
	mpq_clears(v, d, NULL);
}

/* ---------------------------------------------------------------------------------------------------- */
/* Benchmarks                                                                                            */
/* ---------------------------------------------------------------------------------------------------- */

static void
bench(const char *name, const Set *a, const Set *b, int verify, int chunked)
{
	Box			ext = common_extent(a, b);
	int			dim[3];
	Reference	ref;
	double		tref = 0;
	size_t		min_cap = 0;
	static const char *const label[3] = {"float=0", "float=1", "chunked"};

	choose_dims(&ext, 0.5 * (double) (a->n + b->n), dim);	/* the core's default: 0.5 cells per element */
	printf("%s: %zu x %zu elements, grid %dx%dx%d\n", name, a->n, b->n, dim[0], dim[1], dim[2]);
	if (verify)
	{
		tref = now_ms();
		reference(a, b, &ext, dim, 0, &ref);
		tref = now_ms() - tref;
		printf("  CPU reference (grid, 1 thread): %.0f ms, %llu candidates, %llu survivors, %zu geometry pairs\n",
			   tref, (unsigned long long) ref.candidates, (unsigned long long) ref.survivors, ref.keys.n);
	}
	for (int fp = 0; fp <= (chunked ? 2 : 1) && !cpu_only; fp++)
		for (int rep = 0; rep < 2; rep++)
		{
			GxCudaJob	job;
			GxCudaResult res;
			char		err[256];
			double		t0,
						wall;
			int			rc;

			make_job(&job, a, b, &ext, dim, fp == 2 ? 0 : fp);
			if (fp == 2)
			{
				/* Room for about a million survivors a chunk: 40 bytes a slot. */
				if (min_cap == 0)
				{
					min_cap = smallest_cap(&job, NULL);
					printf("  smallest working memory cap %zu bytes; chunked runs get 40 MB more\n", min_cap);
				}
				job.memory_cap = min_cap + 40000000;
			}
			t0 = now_ms();
			rc = gx_cuda_intersect(&job, &res, err, sizeof(err));
			wall = now_ms() - t0;
			if (rc != GX_CUDA_OK)
			{
				printf("  FAIL %s: rc %d: %s\n", label[fp], rc, err);
				failed++;
				continue;
			}
			if (rep == 1)
			{
				printf("  %s cand %llu surv %llu ffail %llu dfail %llu elem %llu pairs %zu undec %zu chunks %d\n",
					   label[fp], (unsigned long long) res.candidates, (unsigned long long) res.bbox_survivors,
					   (unsigned long long) res.float_failures, (unsigned long long) res.double_failures,
					   (unsigned long long) res.element_pairs, res.npairs, res.nundecided, res.chunks);
				printf("  %s ms: upload %.2f grid %.2f cull %.2f float %.2f double %.2f dedup %.2f download %.2f | wall %.1f\n",
					   label[fp], res.t_upload, res.t_grid, res.t_cull, res.t_float, res.t_double, res.t_dedup,
					   res.t_download, wall);
				if (verify)
				{
					Keys		got;
					int			ok = 1;

					device_keys(a, b, &res, &got);
					CHECK(res.candidates == ref.candidates && res.bbox_survivors == ref.survivors, "counts differ");
					CHECK(got.n == ref.keys.n && (got.n == 0 || memcmp(got.v, ref.keys.v, got.n * 8) == 0),
						  "pairs differ (%zu vs %zu)", got.n, ref.keys.n);
					printf("  %s %s matches the CPU reference\n", ok ? "ok" : "BAD", label[fp]);
					if (ok)
						passed++;
					else
						failed++;
					free(got.v);
				}
			}
			gx_cuda_free_result(&res);
		}
	if (verify)
		free(ref.keys.v);
}

static void
run_benches(void)
{
	const double c0[3] = {500000, 7000000, 100};
	const double c1[3] = {500030, 7000000, 100};
	Set			segs,
				s1,
				s2;
	double		t0 = now_ms();

	set_init(&s1, 100);
	gen_sphere(&s1, c0, 100, 500, 1000, 2);
	set_init(&segs, 1);
	for (int i = 0; i < 8000; i++)
	{
		double		p[3][3],
					u[3],
					w[3],
					r = 97 + 6 * urand(),
					nu = 0,
					nw = 0;

		for (int k = 0; k < 3; k++)
		{
			u[k] = urand() * 2 - 1;
			w[k] = urand() * 2 - 1;
			nu += u[k] * u[k];
			nw += w[k] * w[k];
		}
		for (int k = 0; k < 3; k++)
		{
			p[0][k] = c0[k] + r * u[k] / sqrt(nu);
			p[1][k] = p[0][k] + 10 * w[k] / sqrt(nw);
		}
		set_add(&segs, 2, p);
	}
	printf("generated in %.0f ms\n", now_ms() - t0);
	bench("8000 segments x 1M triangles (sphere, UTM offsets)", &segs, &s1, 1, 0);

	set_init(&s2, 100);
	gen_sphere(&s2, c1, 100, 625, 800, 0);
	bench("1M x 1M triangles, two offset spheres", &s1, &s2, 1, 0);
	set_free(&s2);

	set_init(&s2, 100);
	gen_sphere(&s2, c0, 100.0002, 625, 800, 0);
	bench("1M x 1M triangles, concentric spheres (radius +2e-4)", &s1, &s2, 1, 1);
	set_free(&s2);
	set_free(&s1);

	set_init(&s1, 100);
	gen_sphere(&s1, c0, 100, 1000, 2000, 2);
	set_init(&s2, 100);
	gen_sphere(&s2, c0, 100.00005, 1250, 1600, 0);
	bench("4M x 4M triangles, concentric spheres (radius +5e-5)", &s1, &s2, 1, 0);
	set_free(&s2);
	set_free(&s1);
	set_free(&segs);
}

int
main(int argc, char **argv)
{
	char		name[128] = "";
	int			weak = 0;
	int			rc;

	if (argc > 1 && strcmp(argv[1], "--cpu-only") == 0)
	{
		cpu_only = 1;
		if (argc > 2 && strcmp(argv[2], "--bench") == 0)
			run_benches();
		else
			run_tests();
		printf("%d passed, %d failed\n", passed, failed);
		return failed ? 1 : 0;
	}
	rc = gx_cuda_device_info(0, name, sizeof(name), &weak, NULL);
	if (rc != GX_CUDA_OK)
	{
		printf("no CUDA device (gx_cuda_device_info: %d): skipped\n", rc);
		return 77;
	}
	printf("device 0: %s, FP64 %s\n", name, weak ? "weak (float pass by default)" : "strong (double only by default)");
	if (argc > 1 && strcmp(argv[1], "--bench") == 0)
		run_benches();
	else
		run_tests();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* The volume filter in solids (gx_cuda_volumes)                                                         */
/* ---------------------------------------------------------------------------------------------------- */

/* The exact volume of v inside box b (xmin ymin zmin xmax ymax zmax): voxel by voxel, the overlaps' product. */
static void
voxel_volume(const Voxels *v, const double *b, mpq_t out)
{
	mpq_t		len[3],
				lo,
				hi,
				prod;

	mpq_inits(len[0], len[1], len[2], lo, hi, prod, NULL);
	mpq_set_ui(out, 0, 1);
	for (int i = 0; i < VOX; i++)
		for (int j = 0; j < VOX; j++)
			for (int k = 0; k < VOX; k++)
			{
				int			c[3] = {i, j, k},
							empty = !v->fill[i][j][k];

				for (int d = 0; d < 3 && !empty; d++)
				{
					double		vlo = v->o[d] + c[d] * v->h,
								vhi = v->o[d] + (c[d] + 1) * v->h;

					mpq_set_d(lo, fmax(vlo, b[d]));
					mpq_set_d(hi, fmin(vhi, b[3 + d]));
					mpq_sub(len[d], hi, lo);
					empty = mpq_sgn(len[d]) <= 0;
				}
				if (empty)
					continue;
				mpq_mul(prod, len[0], len[1]);
				mpq_mul(prod, prod, len[2]);
				mpq_add(out, out, prod);
			}
	mpq_clears(len[0], len[1], len[2], lo, hi, prod, NULL);
}

/*
 * The same two voxel solids (faces outward) against boxes with bounds random, on lattice planes and one ulp
 * off them, around and inside the solids, with the column reaching up or down: a volume the device rounds
 * must be the exact volume correctly rounded, one it calls near zero must be below the box's own, and many
 * must be rounded. Geometry 1 is not a solid: left to the CPU.
 */
static void
volume_tests(void)
{
	Voxels		v[2];
	Set			s;
	GxCudaColumns cols;
	GxCudaResident *r = NULL;
	const bool	solid[3] = {true, false, true};
	size_t		n = 20000,
				bytes,
				counts[3] = {0};
	double	   *boxes = malloc(6 * n * sizeof(double)),
			   *reach = malloc(n * sizeof(double)),
			   *value = malloc(n * sizeof(double));
	uint32_t   *which = malloc(n * sizeof(uint32_t));
	uint8_t    *down = malloc(n),
			   *verdict = malloc(n);
	char		err[256] = "";
	volatile int cancel = 1;
	volatile const int *no_cancel[2] = {NULL, NULL},
			   *cancelled[2] = {NULL, &cancel};
	mpq_t		exact,
				whole;
	int			ok = 1,
				rc;

	mpq_inits(exact, whole, NULL);
	voxel_side(v, &s);
	build_columns(&s, 3, solid, 5, 4, &cols);
	for (size_t i = 0; i < n; i++)
	{
		int			g = i % 9 == 8 ? 1 : (i % 2) * 2;
		const Voxels *x = &v[g == 1 ? 0 : g / 2];
		double		zlo = INFINITY,
					zhi = -INFINITY;

		which[i] = (uint32_t) g;
		for (int d = 0; d < 3; d++)
		{
			double		p[2];

			for (int e = 0; e < 2; e++)
			{
				int			mode = irand(0, 3);
				double		u = mode == 0 ? urand() * (VOX + 1) - 0.5 : irand(0, 2 * VOX) / 2.0;

				p[e] = x->o[d] + u * x->h;
				if (mode == 2 && irand(0, 2) == 0)
					p[e] = nextafter(p[e], irand(0, 1) ? INFINITY : -INFINITY);
			}
			boxes[6 * i + d] = fmin(p[0], p[1]);
			boxes[6 * i + 3 + d] = fmax(p[0], p[1]);
		}
		for (size_t e = 0; e < s.n; e++)
			for (int c = 0; s.geom[e] == (uint32_t) g && c < 3; c++)
			{
				zlo = fmin(zlo, s.coords[9 * e + 3 * c + 2]);
				zhi = fmax(zhi, s.coords[9 * e + 3 * c + 2]);
			}
		down[i] = (uint8_t) irand(0, 1);
		reach[i] = down[i] ? zlo : zhi;
	}
	if (cpu_only)
		goto done;
	rc = gx_cuda_side_upload(0, &(GxCudaSide) {s.n, s.coords, s.kind, s.geom, &cols}, &r, &bytes, err, sizeof(err));
	CHECK(rc == GX_CUDA_OK, "upload with columns: %s", err);
	if (rc != GX_CUDA_OK)
		goto done;
	rc = gx_cuda_volumes(r, boxes, reach, down, which, n, verdict, value, no_cancel, err, sizeof(err));
	CHECK(rc == GX_CUDA_OK, "volumes: %s", err);
	for (size_t i = 0; rc == GX_CUDA_OK && i < n && ok; i++)
	{
		const double *b = boxes + 6 * i;

		if (which[i] == 1)
		{
			CHECK(verdict[i] == 2, "query %zu in a geometry that is not a solid: %d", i, verdict[i]);
			continue;
		}
		voxel_volume(&v[which[i] / 2], b, exact);
		counts[verdict[i] < 3 ? verdict[i] : 2]++;
		if (verdict[i] == 0)
			CHECK(value[i] == gx_mpq_get_d_nearest(exact), "box %zu (%.17g %.17g %.17g, %.17g %.17g %.17g): %.17g, "
				  "exact %.17g", i, b[0], b[1], b[2], b[3], b[4], b[5], value[i], mpq_get_d(exact));
		else if (verdict[i] == 1)
		{
			/* the exact volume lies in the enclosure, below the box's own */
			mpq_t		side,
						lo;

			mpq_inits(side, lo, NULL);
			mpq_set_ui(whole, 1, 1);
			for (int d = 0; d < 3; d++)
			{
				mpq_set_d(side, b[3 + d]);
				mpq_set_d(lo, b[d]);
				mpq_sub(side, side, lo);
				mpq_mul(whole, whole, side);
			}
			CHECK(mpq_cmp(exact, whole) < 0, "box %zu: near zero, exact %.17g", i, mpq_get_d(exact));
			mpq_clears(side, lo, NULL);
		}
	}
	/* boxes with faces on the voxels' planes leave many clipped vertices to the CPU: a fifth rounded suffices */
	CHECK(counts[0] > n / 5 && counts[1] > 100, "%zu rounded, %zu near zero, %zu undecided", counts[0], counts[1],
		  counts[2]);
	rc = gx_cuda_volumes(r, boxes, reach, down, which, n, verdict, value, cancelled, err, sizeof(err));
	CHECK(rc == GX_CUDA_CANCELLED, "cancel: rc %d", rc);
	printf("  %-4s volumes in boxes: %zu rounded (each the exact volume rounded), %zu near zero, %zu for the CPU\n",
		   ok ? "ok" : "BAD", counts[0], counts[1], counts[2]);
	if (ok)
		passed++;
	else
		failed++;
done:
	gx_cuda_side_free(r);
	columns_free(&cols);
	set_free(&s);
	mpq_clears(exact, whole, NULL);
	free(boxes);
	free(reach);
	free(value);
	free(which);
	free(down);
	free(verdict);
}
