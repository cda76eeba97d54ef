/*
 * gx_equality.c: exact equality of gxgeom and what rests on it: =, <>, a total order for btree
 * (<, <=, >, >=, cmp) and hashing (hash, extended hash).
 *
 * Two values are equal iff their serialized forms (src/core/geom/gx_geom.h) are identical byte for byte. The
 * form is canonical: the builder zeroes the header, writes every node and coordinate with no padding, and
 * derives the flags and the cached box from the coordinates alone (the box is all zeros for EMPTY). So =
 * means same SRID, same structure (type codes and counts, hence TRIANGLE <> one-triangle TIN) and the same
 * coordinates bit for bit: -0.0 and 0.0 differ (NaN is refused on input). The order sorts by SRID, then by
 * the bytes: arbitrary, but the same for the same values on every call (byte order is the machine's).
 */
#include "postgres.h"

#include "access/detoast.h"
#include "common/hashfn.h"
#include "fmgr.h"

#include "geom/gx_geom.h"

PG_FUNCTION_INFO_V1(gxgeom_eq);
PG_FUNCTION_INFO_V1(gxgeom_ne);
PG_FUNCTION_INFO_V1(gxgeom_lt);
PG_FUNCTION_INFO_V1(gxgeom_le);
PG_FUNCTION_INFO_V1(gxgeom_gt);
PG_FUNCTION_INFO_V1(gxgeom_ge);
PG_FUNCTION_INFO_V1(gxgeom_cmp);
PG_FUNCTION_INFO_V1(gxgeom_hash);
PG_FUNCTION_INFO_V1(gxgeom_hash_extended);

/* Equal iff the same bytes; values of different sizes are told apart without detoasting either. */
static bool
geom_equal(FunctionCallInfo fcinfo)
{
	struct varlena *a,
			   *b;
	bool		equal;

	if (toast_raw_datum_size(PG_GETARG_DATUM(0)) != toast_raw_datum_size(PG_GETARG_DATUM(1)))
		return false;
	a = PG_GETARG_VARLENA_PP(0);
	b = PG_GETARG_VARLENA_PP(1);
	equal = memcmp(VARDATA_ANY(a), VARDATA_ANY(b), VARSIZE_ANY_EXHDR(a)) == 0;
	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	return equal;
}

/* SRID first (as a number), then the bytes after the varlena header, then the size (a prefix sorts first). */
static int
geom_compare(FunctionCallInfo fcinfo)
{
	struct varlena *a = PG_GETARG_VARLENA_PP(0);
	struct varlena *b = PG_GETARG_VARLENA_PP(1);
	size_t		la = VARSIZE_ANY_EXHDR(a),
				lb = VARSIZE_ANY_EXHDR(b);
	int32		srid_a,
				srid_b;
	int			r;

	/* the SRID is the first field after the length word; a short-header value is not aligned */
	StaticAssertStmt(offsetof(GxSerialized, srid) == VARHDRSZ, "the SRID follows the varlena header");
	memcpy(&srid_a, VARDATA_ANY(a), sizeof(int32));
	memcpy(&srid_b, VARDATA_ANY(b), sizeof(int32));
	if (srid_a != srid_b)
		r = srid_a < srid_b ? -1 : 1;
	else if ((r = memcmp(VARDATA_ANY(a), VARDATA_ANY(b), Min(la, lb))) != 0)
		r = r < 0 ? -1 : 1;
	else
		r = (la > lb) - (la < lb);
	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	return r;
}

Datum
gxgeom_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(geom_equal(fcinfo));
}

Datum
gxgeom_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!geom_equal(fcinfo));
}

Datum
gxgeom_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(geom_compare(fcinfo) < 0);
}

Datum
gxgeom_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(geom_compare(fcinfo) <= 0);
}

Datum
gxgeom_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(geom_compare(fcinfo) > 0);
}

Datum
gxgeom_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(geom_compare(fcinfo) >= 0);
}

Datum
gxgeom_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(geom_compare(fcinfo));
}

/* The hash of the bytes that = compares. */
Datum
gxgeom_hash(PG_FUNCTION_ARGS)
{
	struct varlena *g = PG_GETARG_VARLENA_PP(0);
	Datum		h = hash_any((unsigned char *) VARDATA_ANY(g), VARSIZE_ANY_EXHDR(g));

	PG_FREE_IF_COPY(g, 0);
	return h;
}

/* The same with a seed (hash partitioning). */
Datum
gxgeom_hash_extended(PG_FUNCTION_ARGS)
{
	struct varlena *g = PG_GETARG_VARLENA_PP(0);
	Datum		h = hash_any_extended((unsigned char *) VARDATA_ANY(g), VARSIZE_ANY_EXHDR(g), PG_GETARG_INT64(1));

	PG_FREE_IF_COPY(g, 0);
	return h;
}
