/*
 * gx_analyze.c: ANALYZE of gxgeom columns: the standard statistics (NULL fraction, width, distinct values
 * and most common values under =) and, in a slot of their own kind, the box statistics of
 * src/core/index/gx_boxstats.h that the selectivity estimators read (gx_selectivity.c), and in another the
 * mean elements of a value, which the planner's costs read. Only the header and first node of each sampled
 * value are read: a huge TOASTed value is not fetched whole. (compute_stats runs in a
 * memory context that ANALYZE resets after each column; what is kept goes into anl_context.)
 */
#include "postgres.h"

#include "catalog/pg_type_d.h"
#include "commands/vacuum.h"
#include "fmgr.h"

#include "index/gx_boxstats.h"
#include "type/gx_box3d.h"
#include "type/gx_selectivity.h"

PG_FUNCTION_INFO_V1(gxgeom_analyze);

/* The standard typanalyze's routine and its data, run first. */
typedef struct BoxAnalyze
{
	AnalyzeAttrComputeStatsFunc std_compute;
	void	   *std_extra;
} BoxAnalyze;

static void
compute_box_stats(VacAttrStats *stats, AnalyzeAttrFetchFunc fetchfunc, int samplerows, double totalrows)
{
	BoxAnalyze *ba = (BoxAnalyze *) stats->extra_data;
	GxBox3D    *boxes = palloc(Max(samplerows, 1) * sizeof(GxBox3D));
	double	   *encoded = palloc((GX_BOXSTATS_HEADER + GX_BOXSTATS_MAX_CELLS) * sizeof(double));
	double		elements = 0,
				e;
	size_t		nboxes = 0,
				nempty = 0,
				len,
				i;
	Datum	   *values;
	MemoryContext old;
	int			slot;

	stats->extra_data = ba->std_extra;
	ba->std_compute(stats, fetchfunc, samplerows, totalrows);
	stats->extra_data = ba;

	for (i = 0; i < (size_t) samplerows; i++)
	{
		bool		isnull;
		Datum		value = fetchfunc(stats, (int) i, &isnull);

		vacuum_delay_point();
		if (isnull)
			continue;
		if (gx_datum_get_head(value, &boxes[nboxes], &e))
			nboxes++;
		else
			nempty++;
		elements += e;
	}
	/* Only NULLs: nothing to say about boxes. The standard routines use at most 3 of the 5 slots. */
	for (slot = 0; slot < STATISTIC_NUM_SLOTS && stats->stakind[slot] != 0; slot++)
		;
	if (nboxes + nempty == 0 || slot + 1 >= STATISTIC_NUM_SLOTS)
		return;

	len = gx_boxstats_build(boxes, nboxes, nempty, encoded);
	old = MemoryContextSwitchTo(stats->anl_context);
	values = palloc(len * sizeof(Datum));
	for (i = 0; i < len; i++)
		values[i] = Float8GetDatum(encoded[i]);
	MemoryContextSwitchTo(old);

	stats->stakind[slot] = GX_STATISTIC_KIND_BOXES;
	stats->staop[slot] = InvalidOid;
	stats->stacoll[slot] = InvalidOid;
	stats->stavalues[slot] = values;
	stats->numvalues[slot] = (int) len;
	stats->statypid[slot] = FLOAT8OID;
	stats->statyplen[slot] = sizeof(float8);
	stats->statypbyval[slot] = FLOAT8PASSBYVAL;
	stats->statypalign[slot] = TYPALIGN_DOUBLE;

	/* the mean elements of a value that is not NULL, in the next slot */
	old = MemoryContextSwitchTo(stats->anl_context);
	values = palloc(sizeof(Datum));
	values[0] = Float8GetDatum(elements / (double) (nboxes + nempty));
	MemoryContextSwitchTo(old);
	slot++;
	stats->stakind[slot] = GX_STATISTIC_KIND_ELEMENTS;
	stats->staop[slot] = InvalidOid;
	stats->stacoll[slot] = InvalidOid;
	stats->stavalues[slot] = values;
	stats->numvalues[slot] = 1;
	stats->statypid[slot] = FLOAT8OID;
	stats->statyplen[slot] = sizeof(float8);
	stats->statypbyval[slot] = FLOAT8PASSBYVAL;
	stats->statypalign[slot] = TYPALIGN_DOUBLE;
	stats->stats_valid = true;
}

/* The type's typanalyze: the standard one, then the boxes. */
Datum
gxgeom_analyze(PG_FUNCTION_ARGS)
{
	VacAttrStats *stats = (VacAttrStats *) PG_GETARG_POINTER(0);
	BoxAnalyze *ba;

	if (!std_typanalyze(stats))
		PG_RETURN_BOOL(false);
	ba = palloc(sizeof(BoxAnalyze));
	ba->std_compute = stats->compute_stats;
	ba->std_extra = stats->extra_data;
	stats->compute_stats = compute_box_stats;
	stats->extra_data = ba;
	PG_RETURN_BOOL(true);
}
