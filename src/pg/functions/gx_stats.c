/*
 * gx_stats.c: gx_stats() shows this backend's counters: the predicate ladder at work, the TOAST values
 * identified by a probe of their TOAST table, those read by a pass over it, and the join sides
 * kept as whole tables (gx_pg_table.h); gx_stats_reset() zeroes them.
 */
#include "postgres.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "algorithm/gx_predicates.h"
#include "batch/gx_pg_cache.h"
#include "batch/gx_pg_table.h"
#include "batch/gx_pg_values.h"

PG_FUNCTION_INFO_V1(gx_stats);
PG_FUNCTION_INFO_V1(gx_stats_reset);

Datum
gx_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const GxPredStats *s = &gx_pred_stats;
	const struct
	{
		const char *name;
		uint64_t	value;
	}			rows[] = {
		{"orient3d_signs", s->orient3d},
		{"orient2d_signs", s->orient2d},
		{"filter_undecided", s->filter_failures},
		{"decided_by_expansions", s->exact_expansion},
		{"decided_by_gmp", s->exact_gmp},
		{"toast_index_probes", gx_pg_toast_probes},
		{"toast_values_by_pass", gx_pg_toast_pass_values},
		{"table_sides_read", gx_pg_table_sides_read},
		{"table_sides_kept", gx_pg_table_sides_kept},
		{"sides_laid_out_in_segment", gx_pg_sides_laid_out},
	};
	int			i;

	InitMaterializedSRF(fcinfo, 0);
	for (i = 0; i < lengthof(rows); i++)
	{
		Datum		values[2] = {CStringGetTextDatum(rows[i].name), Int64GetDatum((int64) rows[i].value)};
		bool		nulls[2] = {false, false};

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

Datum
gx_stats_reset(PG_FUNCTION_ARGS)
{
	memset(&gx_pred_stats, 0, sizeof(gx_pred_stats));
	gx_pg_toast_probes = 0;
	gx_pg_toast_pass_values = 0;
	gx_pg_table_sides_read = 0;
	gx_pg_table_sides_kept = 0;
	gx_pg_sides_laid_out = 0;
	PG_RETURN_VOID();
}
