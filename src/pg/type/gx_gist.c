/* gx_gist.c: the GiST operator class gist_gxgeom_ops: gxgeom indexed by its 3D bounding box (gxbox3d keys). */
#include "postgres.h"

#include <float.h>
#include <math.h>

#include "access/gist.h"
#include "access/stratnum.h"
#include "utils/float.h"
#include "utils/lsyscache.h"

#include "type/gx_box3d.h"

/*
 * Leaf keys are the geometries' cached boxes, copied exactly, so the box operators need no recheck; an EMPTY
 * geometry gets the EMPTY box, which no query matches. Internal keys are unions. There is no decompress
 * function (GiST then uses the key as is) and no fetch: the box does not give the geometry back.
 */

PG_FUNCTION_INFO_V1(gx_gist_consistent);
PG_FUNCTION_INFO_V1(gx_gist_union);
PG_FUNCTION_INFO_V1(gx_gist_compress);
PG_FUNCTION_INFO_V1(gx_gist_penalty);
PG_FUNCTION_INFO_V1(gx_gist_picksplit);
PG_FUNCTION_INFO_V1(gx_gist_same);
PG_FUNCTION_INFO_V1(gx_gist_distance);

/* ---- compress, union, same ---------------------------------------------------------------------------- */

Datum
gx_gist_compress(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *retval;
	GxBox3D    *box;

	if (!entry->leafkey)
		PG_RETURN_POINTER(entry);
	box = palloc(sizeof(GxBox3D));
	(void) gx_datum_get_box(entry->key, box);	/* EMPTY geometry: EMPTY box */
	retval = palloc(sizeof(GISTENTRY));
	gistentryinit(*retval, PointerGetDatum(box), entry->rel, entry->page, entry->offset, false);
	PG_RETURN_POINTER(retval);
}

Datum
gx_gist_union(PG_FUNCTION_ARGS)
{
	GistEntryVector *entryvec = (GistEntryVector *) PG_GETARG_POINTER(0);
	int		   *sizep = (int *) PG_GETARG_POINTER(1);
	GxBox3D    *u = palloc(sizeof(GxBox3D));
	int			i;

	gx_box_set_empty(u);
	for (i = 0; i < entryvec->n; i++)
		gx_box_extend(u, DatumGetGxBox3DP(entryvec->vector[i].key));
	*sizep = sizeof(GxBox3D);
	PG_RETURN_POINTER(u);
}

Datum
gx_gist_same(PG_FUNCTION_ARGS)
{
	const GxBox3D *a = PG_GETARG_GXBOX3D_P(0);
	const GxBox3D *b = PG_GETARG_GXBOX3D_P(1);
	bool	   *result = (bool *) PG_GETARG_POINTER(2);

	*result = (a && b) ? gx_box_equal(a, b) : (a == NULL && b == NULL);
	PG_RETURN_POINTER(result);
}

/* ---- consistent --------------------------------------------------------------------------------------- */

/*
 * The query is a gxgeom or, for the cross-type operators, a gxbox3d; the subtype argument (the operator's
 * right-hand type) tells which. The opfamily holds only these two, so the type's length decides: 48 for
 * gxbox3d, -1 for gxgeom. Cached per scan key in fn_extra (fmgr_info_copy clears it for each key).
 */
typedef struct QueryTypeCache
{
	Oid			subtype;
	bool		is_box;
} QueryTypeCache;

static bool
query_is_box(FunctionCallInfo fcinfo, Oid subtype)
{
	QueryTypeCache *c = (QueryTypeCache *) fcinfo->flinfo->fn_extra;

	if (c == NULL)
	{
		c = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(QueryTypeCache));
		c->subtype = InvalidOid;
		c->is_box = false;
		fcinfo->flinfo->fn_extra = c;
	}
	if (c->subtype != subtype)
	{
		c->subtype = subtype;
		c->is_box = OidIsValid(subtype) && get_typlen(subtype) == (int16) sizeof(GxBox3D);
	}
	return c->is_box;
}

Datum
gx_gist_consistent(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	StrategyNumber strategy = (StrategyNumber) PG_GETARG_UINT16(2);
	Oid			subtype = PG_GETARG_OID(3);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(4);
	const GxBox3D *key = DatumGetGxBox3DP(entry->key);
	GxBox3D		query;

	/* Leaf keys are exact: the index answers the box operators by itself. */
	*recheck = false;

	if (key == NULL || gx_box_is_empty(key))
		PG_RETURN_BOOL(false);
	if (query_is_box(fcinfo, subtype))
		query = *PG_GETARG_GXBOX3D_P(1);
	else
		(void) gx_datum_get_box(PG_GETARG_DATUM(1), &query);
	if (gx_box_is_empty(&query))
		PG_RETURN_BOOL(false);

	switch (strategy)
	{
		case RTOverlapStrategyNumber:
			PG_RETURN_BOOL(gx_box_overlaps(key, &query));
		case RTContainsStrategyNumber:
			/* a union contains whatever one of its leaves contains */
			PG_RETURN_BOOL(gx_box_contains(key, &query));
		case RTContainedByStrategyNumber:
			/* a union holding a leaf inside the query overlaps the query */
			if (GIST_LEAF(entry))
				PG_RETURN_BOOL(gx_box_contains(&query, key));
			PG_RETURN_BOOL(gx_box_overlaps(key, &query));
		default:
			elog(ERROR, "gx_gist_consistent: unknown strategy number %d", strategy);
	}
	PG_RETURN_BOOL(false);		/* not reached */
}

/* ---- distance (ORDER BY geom <-> q) ------------------------------------------------------------------------ */

/*
 * A lower bound of the distance between two boxes: the gaps along each axis, the length of that vector
 * scaled by its largest gap (no overflow or underflow of the squares), then lowered by far more than the few
 * roundings made: relatively, each at most half an ulp of a normal result; absolutely, half the smallest
 * subnormal where a result is subnormal (there the relative lowering rounds away). Every geometry under key
 * is at least that far from the query, so the bound is also at most the exact distance rounded once.
 */
static double
box_distance_below(const GxBox3D *a, const GxBox3D *b)
{
	double		g[3] = {fmax(0, fmax(a->xmin - b->xmax, b->xmin - a->xmax)),
		fmax(0, fmax(a->ymin - b->ymax, b->ymin - a->ymax)),
	fmax(0, fmax(a->zmin - b->zmax, b->zmin - a->zmax))};
	double		m = fmax(g[0], fmax(g[1], g[2])),
				s = 0,
				d;

	if (m == 0)
		return 0;
	for (int k = 0; k < 3; k++)
		s += (g[k] / m) * (g[k] / m);
	d = m * sqrt(s) * (1 - 0x1p-44) - 4 * DBL_TRUE_MIN;
	return isfinite(d) ? fmax(d, 0) : DBL_MAX * (1 - 0x1p-44);
}

/*
 * GiST support 8, for ORDER BY geom <-> q (the exact distance, gx_distance): the key's box to the query's,
 * from below. Leaves are rechecked: the executor orders the rows by the operator's own value, so an index
 * scan returns them in the order of sorting by gx_distance. EMPTY keys and queries are infinitely far.
 */
Datum
gx_gist_distance(PG_FUNCTION_ARGS)
{
	GISTENTRY  *entry = (GISTENTRY *) PG_GETARG_POINTER(0);
	bool	   *recheck = (bool *) PG_GETARG_POINTER(4);
	const GxBox3D *key = DatumGetGxBox3DP(entry->key);
	GxBox3D		query;

	*recheck = GIST_LEAF(entry);
	if (key == NULL || gx_box_is_empty(key) || !gx_datum_get_box(PG_GETARG_DATUM(1), &query))
		PG_RETURN_FLOAT8(get_float8_infinity());
	PG_RETURN_FLOAT8(box_distance_below(key, &query));
}

/* ---- penalty ------------------------------------------------------------------------------------------ */

/*
 * Shape of a box: dims = how many axes have a positive extent (-1 for EMPTY), measure = the product of those
 * extents (length, area or volume; 1 for a point), margin = the sum of all extents. Flat boxes (z extent 0,
 * common in 3D data) have volume 0, so volume alone cannot rank them: measure is taken in the box's own
 * dimension.
 */
typedef struct BoxShape
{
	int			dims;
	double		measure;
	double		margin;
} BoxShape;

static BoxShape
box_shape(const GxBox3D *b)
{
	BoxShape	s = {-1, 0.0, 0.0};
	int			d;

	if (gx_box_is_empty(b))
		return s;
	s.dims = 0;
	s.measure = 1.0;
	for (d = 0; d < 3; d++)
	{
		double		e = GX_BOX_HI(b, d) - GX_BOX_LO(b, d);

		s.margin += e;
		if (e > 0)
		{
			s.dims++;
			s.measure *= e;
		}
	}
	return s;
}

/*
 * Packs (realm, value) into one non-negative float that orders by realm first, then by value: the bits of a
 * non-negative float order like the float, so the value's bits shifted down by 2 go under a 2-bit realm field.
 * Realms 0..2 only: realm 3 could make the exponent all ones (NaN, which GiST would read as 0).
 */
static float
pack_penalty(int realm, double value)
{
	float		f;
	uint32		bits;

	if (!(value >= 0))			/* negative or NaN (inf - inf) */
		value = isnan(value) ? FLT_MAX : 0;
	f = (float) Min(value, (double) FLT_MAX);
	memcpy(&bits, &f, sizeof(bits));
	bits = (bits >> 2) | ((uint32) realm << 29);
	memcpy(&f, &bits, sizeof(f));
	return f;
}

/*
 * Cost of adding the new box to the subtree of orig, best first:
 *   realm 0: orig already covers it; the smaller orig (by margin) the better;
 *   realm 1: orig grows within its own dimensions (a flat box stays flat): growth of its length/area/volume;
 *   realm 2: orig gains a dimension (a flat box grows thick; a point becomes a segment): growth of its margin.
 * An EMPTY new key costs nothing anywhere.
 */
Datum
gx_gist_penalty(PG_FUNCTION_ARGS)
{
	GISTENTRY  *origentry = (GISTENTRY *) PG_GETARG_POINTER(0);
	GISTENTRY  *newentry = (GISTENTRY *) PG_GETARG_POINTER(1);
	float	   *penalty = (float *) PG_GETARG_POINTER(2);
	const GxBox3D *orig = DatumGetGxBox3DP(origentry->key);
	const GxBox3D *add = DatumGetGxBox3DP(newentry->key);
	GxBox3D		u;
	BoxShape	so,
				su;

	if (gx_box_is_empty(add))
	{
		*penalty = 0;
		PG_RETURN_POINTER(penalty);
	}
	u = *orig;
	gx_box_extend(&u, add);
	so = box_shape(orig);
	if (gx_box_equal(&u, orig))
		*penalty = pack_penalty(0, so.margin);
	else
	{
		su = box_shape(&u);
		if (su.dims == so.dims)
			*penalty = pack_penalty(1, su.measure - so.measure);
		else
			*penalty = pack_penalty(2, su.margin - so.margin);
	}
	PG_RETURN_POINTER(penalty);
}

/* ---- picksplit ---------------------------------------------------------------------------------------- */

/*
 * For each axis, the entries are sorted by the centre of their box (EMPTY boxes last) and every cut leaving
 * at least 30% on each side is scored; the best cut over the three axes wins. Score, best first: the overlap
 * of the two halves' boxes (none, then smaller shape as in box_shape: fewer dimensions, then smaller
 * measure), then the sum of their margins, then balance.
 */
typedef struct SplitItem
{
	OffsetNumber off;
	const GxBox3D *box;
	double		centre;
	bool		empty;
} SplitItem;

typedef struct SplitScore
{
	int			overlap_dims;
	double		overlap_measure;
	double		margins;
	int			imbalance;
} SplitScore;

static int
split_item_cmp(const void *a, const void *b)
{
	const SplitItem *x = (const SplitItem *) a;
	const SplitItem *y = (const SplitItem *) b;

	if (x->empty != y->empty)
		return x->empty ? 1 : -1;
	if (!x->empty && x->centre != y->centre)
		return x->centre < y->centre ? -1 : 1;
	return (int) x->off - (int) y->off;
}

static void
sort_items(SplitItem *items, int n, int axis)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		items[i].empty = gx_box_is_empty(items[i].box);
		/* halves first: lo + hi could overflow */
		items[i].centre = items[i].empty ? 0 : GX_BOX_LO(items[i].box, axis) / 2 + GX_BOX_HI(items[i].box, axis) / 2;
	}
	qsort(items, n, sizeof(SplitItem), split_item_cmp);
}

static bool
score_better(const SplitScore *a, const SplitScore *b)
{
	if (a->overlap_dims != b->overlap_dims)
		return a->overlap_dims < b->overlap_dims;
	if (a->overlap_measure != b->overlap_measure)
		return a->overlap_measure < b->overlap_measure;
	if (a->margins != b->margins)
		return a->margins < b->margins;
	return a->imbalance < b->imbalance;
}

Datum
gx_gist_picksplit(PG_FUNCTION_ARGS)
{
	GistEntryVector *entryvec = (GistEntryVector *) PG_GETARG_POINTER(0);
	GIST_SPLITVEC *v = (GIST_SPLITVEC *) PG_GETARG_POINTER(1);
	int			n = entryvec->n - FirstOffsetNumber;
	int			min_fill = Max(1, n * 3 / 10);
	SplitItem  *items = palloc(n * sizeof(SplitItem));
	GxBox3D    *left = palloc((n + 1) * sizeof(GxBox3D));	/* left[k]: union of items[0 .. k-1] */
	GxBox3D    *right = palloc((n + 1) * sizeof(GxBox3D));	/* right[k]: union of items[k .. n-1] */
	GxBox3D    *ldatum,
			   *rdatum;
	SplitScore	best = {0, 0, 0, 0};
	int			best_axis = -1,
				best_k = 0,
				axis,
				i,
				k;

	if (n < 2)
		elog(ERROR, "gx_gist_picksplit: cannot split %d entries", n);
	for (i = 0; i < n; i++)
	{
		items[i].off = (OffsetNumber) (FirstOffsetNumber + i);
		items[i].box = DatumGetGxBox3DP(entryvec->vector[FirstOffsetNumber + i].key);
	}
	for (axis = 0; axis < 3; axis++)
	{
		sort_items(items, n, axis);
		gx_box_set_empty(&left[0]);
		for (i = 0; i < n; i++)
		{
			left[i + 1] = left[i];
			gx_box_extend(&left[i + 1], items[i].box);
		}
		gx_box_set_empty(&right[n]);
		for (i = n - 1; i >= 0; i--)
		{
			right[i] = right[i + 1];
			gx_box_extend(&right[i], items[i].box);
		}
		for (k = min_fill; k <= n - min_fill; k++)
		{
			GxBox3D		inter;
			BoxShape	so;
			SplitScore	s;

			inter.xmin = Max(left[k].xmin, right[k].xmin);
			inter.ymin = Max(left[k].ymin, right[k].ymin);
			inter.zmin = Max(left[k].zmin, right[k].zmin);
			inter.xmax = Min(left[k].xmax, right[k].xmax);
			inter.ymax = Min(left[k].ymax, right[k].ymax);
			inter.zmax = Min(left[k].zmax, right[k].zmax);
			so = box_shape(&inter);
			s.overlap_dims = so.dims;
			s.overlap_measure = so.measure;
			s.margins = box_shape(&left[k]).margin + box_shape(&right[k]).margin;
			s.imbalance = abs(2 * k - n);
			if (best_axis < 0 || score_better(&s, &best))
			{
				best = s;
				best_axis = axis;
				best_k = k;
			}
		}
	}
	Assert(best_axis >= 0 && best_k >= 1 && best_k < n);

	/* The comparison is a total order (ties broken by offset), so sorting again gives the same order. */
	sort_items(items, n, best_axis);
	v->spl_left = palloc(n * sizeof(OffsetNumber));
	v->spl_right = palloc(n * sizeof(OffsetNumber));
	v->spl_nleft = v->spl_nright = 0;
	ldatum = palloc(sizeof(GxBox3D));
	rdatum = palloc(sizeof(GxBox3D));
	gx_box_set_empty(ldatum);
	gx_box_set_empty(rdatum);
	for (i = 0; i < n; i++)
	{
		if (i < best_k)
		{
			v->spl_left[v->spl_nleft++] = items[i].off;
			gx_box_extend(ldatum, items[i].box);
		}
		else
		{
			v->spl_right[v->spl_nright++] = items[i].off;
			gx_box_extend(rdatum, items[i].box);
		}
	}
	v->spl_ldatum = PointerGetDatum(ldatum);
	v->spl_rdatum = PointerGetDatum(rdatum);
	pfree(items);
	pfree(left);
	pfree(right);
	PG_RETURN_POINTER(v);
}
