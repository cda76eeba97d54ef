/* gx_pg.h: glue shared by the PostgreSQL layer: fetching gxgeom arguments and raising core errors. */
#ifndef GX_PG_H
#define GX_PG_H

#include "postgres.h"
#include "fmgr.h"

#include "geom/gx_geom.h"

/*
 * A stored value as the core reads it: detoasted (8-byte aligned: the type has double alignment) and
 * unpacked when stored packed (gx_pack.h).
 */
GxSerialized *gx_pg_geom(Datum d);

#define PG_GETARG_GXGEOM(n)  gx_pg_geom(PG_GETARG_DATUM(n))

/*
 * The fixed header and the top node of a stored value (SRID, flags, box, type, count), detoasting that much
 * only: no copy at all for an in-line value.
 */
GxSerialized *gx_pg_header(Datum d);

/* Raises err as an ERROR; parse failures get parse_sqlstate (text or binary representation). */
void		gx_pg_raise(const GxError *err, int parse_sqlstate) pg_attribute_noreturn();

/* gx_pg_raise with the SQL function's name before the message ("fname: message"). */
void		gx_pg_raise_in(const char *fname, const GxError *err, int parse_sqlstate) pg_attribute_noreturn();

/* The len bytes at data (palloc'd, from a core writer through gx_alloc) as a bytea; data is freed. */
bytea	   *gx_pg_bytea(unsigned char *data, size_t len);

/* Returns srid if in [0, GX_SRID_MAX], else raises an ERROR. */
int32		gx_pg_check_srid(int32 srid);

/* The longest text form (EWKT) a value may have: below 1 GB, PostgreSQL's limit for one text value. */
#define GX_MAX_TEXT_BYTES 1000000000

/*
 * Seals a core-built buffer (from palloc through gx_alloc) as a varlena Datum, packed when that pays
 * (gx_pack.h: every value is stored in the one form its bytes decide); raises an ERROR when its text form
 * would exceed GX_MAX_TEXT_BYTES (it could be stored, but not dumped or printed).
 */
Datum		gx_pg_datum(GxSerialized *g, size_t size);

/*
 * What gx_pg_datum does without raising: g (size bytes, from gx_alloc, given up here) in its stored form,
 * packed when that pays, its varlena size set (*size updated); NULL when its text form would be too large
 * (*too_large) or packing ran out of memory (err). Calls no PostgreSQL function: a worker thread may run it
 * under gx_alloc_plain.
 */
GxSerialized *gx_pg_stored_form(GxSerialized *g, size_t *size, bool *too_large, GxError *err);

/* The ERROR of a value whose text form would exceed GX_MAX_TEXT_BYTES (gx_wkt_fits false), after where. */
void		gx_pg_raise_too_large(const char *where) pg_attribute_noreturn();

/*
 * Argument argnum prepared (gx_intersects.h; a solid's point location index included), kept in the call
 * site's fn_extra while the argument is the same value (gx_relate.c). Not for set-returning functions in
 * value-per-call mode, which own fn_extra.
 */
struct GxPrepared;
const struct GxPrepared *gx_pg_prepared_arg(FunctionCallInfo fcinfo, int argnum);

/*
 * The point location index of argument argnum, which the caller has checked is a solid, kept by the call
 * site: a solid stored out of line by its TOAST identity (least recently used out first), any other
 * while it is the same value (gx_solid_sql.c).
 */
/*
 * The piece of LINESTRING line that an intercept covers: its two points as gx_intercepts computed them and
 * the line's vertices between (a POINT for a touching point), with the line's SRID.
 */
struct GxInterval;
Datum		gx_pg_intercept_piece(const GxSerialized *line, const struct GxInterval *iv);

struct GxSolidIndex;
const struct GxSolidIndex *gx_pg_solid_arg(FunctionCallInfo fcinfo, int argnum);

/*
 * The indexes of the solids stored out of line values[0 .. n) (n at most 2: a call's arguments) into index[],
 * kept by the call site as for gx_pg_solid_arg: none of them dropped to make room for another while the call
 * runs.
 */
void		gx_pg_stored_solids(FunctionCallInfo fcinfo, const Datum *values, int n,
								const struct GxSolidIndex **index);

#endif
