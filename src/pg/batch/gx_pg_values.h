/*
 * gx_pg_values.h: a side's stored geometries read whole, for flattening: this backend fetches them from
 * TOAST while helper threads decompress (pglz) and unpack (or check) the ones already fetched.
 */
#ifndef GX_PG_VALUES_H
#define GX_PG_VALUES_H

#include "postgres.h"

/* Values read by passes over their TOAST table, in this backend (gx_stats). */
extern uint64 gx_pg_toast_pass_values;

/* The bytes the present values of geoms[0..n) take decompressed, from their headers (nothing is read). */
size_t		gx_pg_values_bytes(const Datum *geoms, const bool *present, size_t n);

/*
 * Reads the count present values of geoms[0..n) whole into raw[0..count), in order, with threads - 1
 * helper threads beside this backend (threads the caller holds): unpacked, or with keep_packed, packed
 * values left packed (checked, for gx_batch_side_add_many, which unpacks them into a side's arrays).
 * owned[k] (zeroed by the caller): raw[k] was malloc'd here, for the caller to free, on return and on an
 * ERROR (cancel, a TOAST error) alike; no helper runs after either. false if a value is corrupt (its
 * compressed or packed form unreadable).
 */
bool		gx_pg_values_read(const Datum *geoms, const bool *present, size_t n, size_t count, int threads,
							  bool keep_packed, struct varlena **raw, bool *owned);

#endif
