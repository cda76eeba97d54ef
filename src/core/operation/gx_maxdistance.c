/*
 * gx_maxdistance.c: the exact farthest pair of vertices of two geometries. Each pair's squared distance in
 * doubles has a relative error below 2^-50 (three rounded differences, three squares, two sums) when nothing
 * overflows or underflows; pairs whose estimate reaches the largest estimate less that margin (and any pair
 * out of the safe range) are decided exactly.
 */
#include <math.h>

#include "base/gx_alloc.h"
#include "operation/gx_maxdistance.h"

typedef struct Vertices
{
	double	   *p;
	size_t		n;
} Vertices;

static bool
vertex_leaf(void *ctx, const GxNode *leaf)
{
	Vertices   *v = ctx;
	size_t		k = (size_t) gx_leaf_doubles(leaf->type, leaf->count);

	if (v->p)
		for (size_t i = 0; i < k; i++)
			v->p[3 * v->n + i] = gx_node_coords(leaf)[i];
	v->n += k / 3;
	return true;
}

/* The vertices of g (gx_alloc'd); false when memory runs out. */
static bool
vertices(const GxSerialized *g, Vertices *v)
{
	v->p = NULL;
	v->n = 0;
	gx_node_walk(gx_body(g), vertex_leaf, v);
	v->p = gx_alloc((v->n ? v->n : 1) * 3 * sizeof(double));
	if (v->p == NULL)
		return false;
	v->n = 0;
	gx_node_walk(gx_body(g), vertex_leaf, v);
	return true;
}

static double
estimate(const double *p, const double *q)
{
	double		s = 0;

	for (int d = 0; d < 3; d++)
		s += (p[d] - q[d]) * (p[d] - q[d]);
	return s;
}

/* out = |p - q|^2 exactly; t a temporary. */
static void
exact_d2(const double *p, const double *q, mpq_t out, mpq_t t, mpq_t u)
{
	mpq_set_ui(out, 0, 1);
	for (int d = 0; d < 3; d++)
	{
		mpq_set_d(t, p[d]);
		mpq_set_d(u, q[d]);
		mpq_sub(t, t, u);
		mpq_mul(t, t, t);
		mpq_add(out, out, t);
	}
}

/* The estimate is within the margin of its exact value: no overflow, no underflow that matters. */
static bool
safe(double e)
{
	return isfinite(e) && (e == 0 || e > 0x1p-900);
}

int
gx_farthest(const GxSerialized *a, const GxSerialized *b, mpq_t d2, double *pa, double *pb, GxError *err)
{
	Vertices	va,
				vb;
	double		top = 0,
				margin = 1 - 0x1p-48;
	bool		found = false;
	mpq_t		t,
				u,
				cand;

	if (!gx_srids_match(a, b, err))
		return -1;
	if ((a->flags & GX_FLAG_EMPTY) || (b->flags & GX_FLAG_EMPTY))
		return 0;
	if (!vertices(a, &va) || !vertices(b, &vb))
	{
		gx_free(va.p);
		gx_error_set(err, GX_ERR_NOMEM, "out of memory for the vertices of two geometries");
		return -1;
	}
	for (size_t i = 0; i < va.n; i++)
		for (size_t j = 0; j < vb.n; j++)
		{
			double		e = estimate(va.p + 3 * i, vb.p + 3 * j);

			if (safe(e) && e > top)
				top = e;
		}
	mpq_inits(t, u, cand, NULL);
	for (size_t i = 0; i < va.n; i++)
		for (size_t j = 0; j < vb.n; j++)
		{
			double		e = estimate(va.p + 3 * i, vb.p + 3 * j);

			if (safe(e) && e < top * margin)
				continue;
			exact_d2(va.p + 3 * i, vb.p + 3 * j, cand, t, u);
			if (!found || mpq_cmp(cand, d2) > 0)
			{
				mpq_set(d2, cand);
				for (int d = 0; d < 3; d++)
				{
					pa[d] = va.p[3 * i + d];
					pb[d] = vb.p[3 * j + d];
				}
				found = true;
			}
		}
	mpq_clears(t, u, cand, NULL);
	gx_free(va.p);
	gx_free(vb.p);
	return 1;
}
