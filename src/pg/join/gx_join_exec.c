/*
 * gx_join_exec.c: execution and EXPLAIN of the batched custom join (see gx_join.h). The inner side's
 * rows are copied once and its geometries flattened into one batch side; the outer side comes in
 * batches; each batch's (outer row, inner row) pairs come back ordered by outer row and are emitted as
 * scan tuples (outer columns then inner columns), which ExecScan filters by the other join clauses and
 * projects. A semi join emits each matching outer row once.
 *
 * The answer is the stock plan's, whatever the plan shape: a rescan whose parameters changed reads the
 * sides again (the inner side only if they reach it); a pair of rows with different SRIDs, for which
 * gx_intersects would raise, raises the same error only when the other join clauses accept the pair, as
 * the stock plan evaluates them first (cheaper), and is otherwise dropped like any non-matching pair.
 */
#include "postgres.h"

#include <math.h>
#include "access/detoast.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "access/sysattr.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/datum.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "base/gx_clock.h"
#include "base/gx_format.h"
#include "batch/gx_pg_batch.h"
#include "batch/gx_pg_table.h"
#include "gx_settings.h"
#include "io/gx_io.h"
#include "join/gx_join.h"

typedef struct GxJoinState
{
	CustomScanState css;
	JoinType	jointype;
	int			n_outer_cols;
	ExprState  *outer_expr;
	ExprState  *inner_expr;
	AttrNumber	geom_attno[2];	/* outer, inner: the geometry is this column of the side's row, or 0 (an
								 * expression) */
	Bitmapset  *inner_expr_params;	/* the parameters inner_expr reads */
	ExprState  *joinqual;		/* left and anti joins: the other clauses of the ON (NULL: none) */
	ExprState  *distance;		/* gx_dwithin's distance, evaluated per batch; NULL for gx_intersects */
	double		last_distance;	/* for EXPLAIN */
	TupleTableSlot *outer_row;		/* slots of the children's row types, to unpack copies */
	TupleTableSlot *inner_row;
	/*
	 * outer, inner: the side's table, when its plan scans a whole table (gx_pg_table.h); from_table: this
	 * scan's side is that table's, kept or read whole (one batch), and its rows are fetched as pairs need them
	 */
	GxPgTable	table[2];
	bool		from_table[2];
	Bitmapset  *needed[2];		/* the columns of each side's row the query reads (its output, its filters) */
	bool		from_columns[2];	/* that side's rows built from its kept columns, not fetched */
	bool		outer_started;	/* the outer side's first batch was read (since the last rescan) */
	int64		outer_row_in_slot;	/* outer table side: the row the outer scan's slot holds, or -1 */
	TupleTableSlot *outer_slot;	/* that row, as the outer plan returns it */
	MinimalTuple *inner_fetched;	/* inner table side: copies of its rows fetched so far, per row */
	/* inner side, read once */
	bool		inner_loaded;
	MemoryContext inner_cxt;
	MinimalTuple *inner_tuples;
	GxPgSide	inner;
	/* current outer batch */
	bool		outer_done;
	MemoryContext batch_cxt;
	MinimalTuple *outer_tuples;
	GxPgSide	outer;
	GxPairs		pairs;
	size_t		next_pair;
	uint32		current_outer;	/* outer row of the pair last handed to ExecScan */
	int64		semi_matched;	/* semi join: outer row already emitted in this batch, or -1 */
	size_t		batch_rows;		/* outer rows of the batch */
	bool	   *matched;		/* per outer row of the batch: it has a partner (that passed the join's clauses) */
	size_t		next_unmatched; /* left and anti joins: next outer row to consider for output alone */
	bool		srid_check_pending;	/* the batch's pairs of conflicting SRIDs are still to be checked */
	bool		srids_may_conflict;	/* some outer and inner geometry of the batch have conflicting SRIDs */
	/* for EXPLAIN ANALYZE */
	GxBatchStats totals;
	uint64		batches;
	uint64		outer_rows,
				inner_rows;
	double		read_ms[2];		/* making the outer and inner sides' arrays (GxPgSide.read_ms) */
	double		send_ms;		/* writing them for the GPU service */
	double		run_ms;			/* the batches, whole: the above, the engine, the service's round trips */
	char		device[sizeof(((GxBatchStats *) 0)->device)];
	char		fallback[sizeof(((GxBatchStats *) 0)->fallback)];
} GxJoinState;

/* Row r of a side: a copy read from its plan, or its table's row r. */
static TupleTableSlot *
side_row(GxJoinState *js, bool outer_part, size_t r)
{
	GxPgTable  *t = &js->table[outer_part ? 0 : 1];

	if (!js->from_table[outer_part ? 0 : 1])
		return ExecStoreMinimalTuple(outer_part ? js->outer_tuples[r] : js->inner_tuples[r],
									 outer_part ? js->outer_row : js->inner_row, false);
	/* the outer side's pairs come by outer row: its row stays in its scan's slot while they do */
	if (outer_part)
	{
		if (js->outer_row_in_slot != (int64) r)
		{
			js->outer_slot = gx_pg_table_row(t, r);
			js->outer_row_in_slot = (int64) r;
		}
		return js->outer_slot;
	}
	if (js->from_columns[1])
		return gx_pg_table_row(t, r);
	if (js->inner_fetched[r] == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(js->inner_cxt);

		js->inner_fetched[r] = ExecCopySlotMinimalTuple(gx_pg_table_row(t, r));
		MemoryContextSwitchTo(old);
	}
	return ExecStoreMinimalTuple(js->inner_fetched[r], js->inner_row, false);
}

/* Fills the scan slot's outer part (inner part NULL), or its inner part, from a row of the side. */
static void
fill_from(GxJoinState *js, bool outer_part, TupleTableSlot *row)
{
	TupleTableSlot *scan = js->css.ss.ss_ScanTupleSlot;
	int			first = outer_part ? 0 : js->n_outer_cols;
	int			i;

	slot_getallattrs(row);
	for (i = 0; i < row->tts_tupleDescriptor->natts; i++)
	{
		scan->tts_values[first + i] = row->tts_values[i];
		scan->tts_isnull[first + i] = row->tts_isnull[i];
	}
}

/* The same from row r of the side. */
static void
fill_part(GxJoinState *js, bool outer_part, size_t r)
{
	fill_from(js, outer_part, side_row(js, outer_part, r));
}

/*
 * Evaluates the geometry expression of one side on a row; false if it is NULL. A plain column is read
 * from the row itself, without the scan slot and the expression machinery (a block model's millions of
 * points pay this per row).
 */
static bool
side_geometry(GxJoinState *js, bool outer_part, MinimalTuple tup, Datum *geom)
{
	TupleTableSlot *scan = js->css.ss.ss_ScanTupleSlot;
	ExprContext *econtext = js->css.ss.ps.ps_ExprContext;
	AttrNumber	attno = js->geom_attno[outer_part ? 0 : 1];
	bool		isnull;

	if (attno > 0)
	{
		TupleTableSlot *row = outer_part ? js->outer_row : js->inner_row;

		ExecStoreMinimalTuple(tup, row, false);
		*geom = slot_getattr(row, attno, &isnull);
		return !isnull;
	}
	ExecClearTuple(scan);
	memset(scan->tts_isnull, true, scan->tts_tupleDescriptor->natts * sizeof(bool));
	fill_from(js, outer_part, ExecStoreMinimalTuple(tup, outer_part ? js->outer_row : js->inner_row, false));
	ExecStoreVirtualTuple(scan);
	econtext->ecxt_scantuple = scan;
	*geom = ExecEvalExpr(outer_part ? js->outer_expr : js->inner_expr, econtext, &isnull);
	return !isnull;
}

/* gx_pg_stored_xmin of column attno of a row (InvalidTransactionId when NULL). */
static TransactionId
stored_xmin(TupleTableSlot *slot, AttrNumber attno)
{
	bool		isnull;
	Datum		d = slot_getattr(slot, attno, &isnull);

	return isnull ? InvalidTransactionId : gx_pg_stored_xmin(d);
}

/*
 * Reads up to limit rows of a child (and, byte_limit not 0, until their geometries' uncompressed bytes reach
 * byte_limit), copied into cxt, then makes their geometries a batch side (ids are
 * row numbers; from the geometry cache when they are all TOASTed values, held until cxt is reset). The
 * child runs in the caller's memory context (its state must outlive cxt's resets).
 */
static MinimalTuple *
read_rows(GxJoinState *js, PlanState *child, bool outer_part, MemoryContext cxt, GxPgSide *side,
		  size_t limit, size_t byte_limit, uint64 *count, bool *exhausted)
{
	size_t		cap = 1024,
				n = 0,
				bytes = 0;
	MinimalTuple *rows = MemoryContextAlloc(cxt, cap * sizeof(MinimalTuple));
	Datum	   *geoms = MemoryContextAlloc(cxt, cap * sizeof(Datum));
	bool	   *present = MemoryContextAlloc(cxt, cap * sizeof(bool));
	TransactionId *xmins = MemoryContextAlloc(cxt, cap * sizeof(TransactionId));
	MemoryContext old;

	*exhausted = false;
	while (n < limit && (byte_limit == 0 || bytes < byte_limit))
	{
		TupleTableSlot *slot = ExecProcNode(child);
		Datum		geom;

		if (TupIsNull(slot))
		{
			*exhausted = true;
			break;
		}
		old = MemoryContextSwitchTo(cxt);
		if (n == cap)
		{
			cap *= 2;
			rows = repalloc_huge(rows, cap * sizeof(MinimalTuple));
			geoms = repalloc_huge(geoms, cap * sizeof(Datum));
			present = repalloc_huge(present, cap * sizeof(bool));
			xmins = repalloc_huge(xmins, cap * sizeof(TransactionId));
		}
		rows[n] = ExecCopySlotMinimalTuple(slot);
		present[n] = side_geometry(js, outer_part, rows[n], &geom);
		/* a plain column's TOAST pointer, read in the scanned row itself, carries that row's xmin */
		xmins[n] = present[n] && js->geom_attno[outer_part ? 0 : 1] > 0 &&
			VARATT_IS_EXTERNAL_ONDISK(DatumGetPointer(geom)) ?
			stored_xmin(slot, js->geom_attno[outer_part ? 0 : 1]) : InvalidTransactionId;
		if (present[n])
		{
			/* a column's value lies in the row copied just now, which lives as long: no second copy */
			char	   *p = DatumGetPointer(geom);

			geoms[n] = p >= (char *) rows[n] && p < (char *) rows[n] + rows[n]->t_len ? geom :
				datumCopy(geom, false, -1);
			bytes += toast_raw_datum_size(geom);
		}
		MemoryContextSwitchTo(old);
		ResetExprContext(js->css.ss.ps.ps_ExprContext);
		n++;
	}
	old = MemoryContextSwitchTo(cxt);
	gx_pg_side_prepare(side, geoms, present, xmins, n, cxt);
	MemoryContextSwitchTo(old);
	*count += n;
	return rows;
}

static void
add_stats(GxJoinState *js, const GxBatchStats *s)
{
	GxBatchStats *t = &js->totals;

	t->elements_a += s->elements_a;
	t->elements_b = s->elements_b;
	t->candidates += s->candidates;
	t->bbox_survivors += s->bbox_survivors;
	t->float_failures += s->float_failures;
	t->double_failures += s->double_failures;
	t->exact_decisions += s->exact_decisions;
	t->element_pairs += s->element_pairs;
	t->geometry_pairs += s->geometry_pairs;
	t->volume_pairs += s->volume_pairs;
	t->located += s->located;
	t->located_gpu += s->located_gpu;
	t->t_upload += s->t_upload;
	t->t_grid += s->t_grid;
	t->t_cull += s->t_cull;
	t->t_float += s->t_float;
	t->t_double += s->t_double;
	t->t_exact += s->t_exact;
	t->t_dedup += s->t_dedup;
	t->t_download += s->t_download;
	t->t_total += s->t_total;
	js->batches++;
	memcpy(js->device, s->device, sizeof(js->device));
	if (s->fallback[0])
		memcpy(js->fallback, s->fallback, sizeof(js->fallback));
}

/*
 * gx_dwithin's distance for this batch (0 for gx_intersects); false when no pair can match (NULL, or
 * negative). Not finite: gx_dwithin's ERROR.
 */
static bool
batch_distance(GxJoinState *js, double *d)
{
	bool		isnull;
	Datum		v;

	*d = 0;
	if (js->distance == NULL)
		return true;
	v = ExecEvalExpr(js->distance, js->css.ss.ps.ps_ExprContext, &isnull);
	if (isnull)
		return false;
	*d = DatumGetFloat8(v);
	if (!isfinite(*d))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("gx_dwithin: distance must be a finite number, not %g", *d)));
	js->last_distance = *d;
	return *d >= 0;
}

/* Reads the next outer batch and runs it; false when the outer side is exhausted. */
static bool
next_batch(GxJoinState *js)
{
	PlanState  *outer = linitial(js->css.custom_ps);
	GxBatchStats st;
	MemoryContext old;
	uint64		rows_before = js->outer_rows;
	double		distance = 0;

	if (js->outer_done)
		return false;
	MemoryContextReset(js->batch_cxt);
	js->outer_row_in_slot = -1;
	/* a whole table kept, or read whole, makes one batch (its rows fetched as pairs need them) */
	js->from_table[0] = !js->outer_started && gx_pg_table_side(&js->table[0], &js->outer, js->batch_cxt);
	js->outer_started = true;
	js->from_columns[0] = js->from_table[0] && gx_pg_table_columns(&js->table[0], js->needed[0], js->batch_cxt);
	if (js->from_table[0])
	{
		js->outer_tuples = NULL;
		js->outer_rows += js->table[0].nrows;
		js->outer_done = true;
	}
	else
		js->outer_tuples = read_rows(js, outer, true, js->batch_cxt, &js->outer, (size_t) gx_join_batch_rows,
									 (size_t) gx_join_batch_mb << 20,
									 &js->outer_rows, &js->outer_done);
	js->batch_rows = js->outer_rows - rows_before;
	old = MemoryContextSwitchTo(js->batch_cxt);
	if (batch_distance(js, &distance))
	{
		double		t0 = gx_now_ms();

		gx_pg_batch_run(&js->outer, &js->inner, true, distance, &js->pairs, &st);
		js->run_ms += gx_now_ms() - t0;
	}
	else
	{
		/* a NULL or negative distance: gx_dwithin is true of no pair */
		memset(&st, 0, sizeof(st));
		js->pairs.keys = palloc(sizeof(uint64));
		js->pairs.n = 0;
	}
	js->read_ms[0] += js->outer.read_ms;
	js->read_ms[1] += js->inner.read_ms;
	js->send_ms += js->outer.send_ms + js->inner.send_ms;
	js->outer.read_ms = js->inner.read_ms = js->outer.send_ms = js->inner.send_ms = 0;
	js->matched = palloc0(Max(js->batch_rows, 1) * sizeof(bool));
	js->next_unmatched = 0;
	/* per-geometry SRIDs are looked at only when two of them may conflict */
	js->srids_may_conflict = gx_batch_srids_conflict(&js->outer.side, &js->inner.side, gx_strict_srid);
	if (js->srids_may_conflict)
	{
		gx_pg_side_materialize(&js->outer);
		gx_pg_side_materialize(&js->inner);
	}
	MemoryContextSwitchTo(old);
	add_stats(js, &st);
	js->next_pair = 0;
	js->semi_matched = -1;
	js->srid_check_pending = true;
	return true;
}

/* Left and anti joins: outer rows without a partner come out too (alone), and only they for anti. */
static inline bool
outer_join(const GxJoinState *js)
{
	return js->jointype == JOIN_LEFT || js->jointype == JOIN_ANTI;
}

/* Puts outer geometry o and inner geometry i of the batch into the scan slot. */
static TupleTableSlot *
scan_pair(GxJoinState *js, uint32 o, uint32 i)
{
	TupleTableSlot *scan = js->css.ss.ss_ScanTupleSlot;

	ExecClearTuple(scan);
	/* a query that reads no column of either row (a count) gets a row per pair, its contents unread */
	if (js->needed[0] != NULL || js->needed[1] != NULL)
	{
		fill_part(js, true, js->outer.ids[o]);
		fill_part(js, false, js->inner.ids[i]);
	}
	return ExecStoreVirtualTuple(scan);
}

/*
 * The pairs of the batch with conflicting SRIDs, which the engine's pairs leave out: the stock plan
 * calls gx_intersects on such a pair, and so raises, when the other join clauses accept it (for a semi or
 * anti join: and no partner matched the outer row). Costs a nested loop, only when SRIDs are mixed.
 */
static void
check_srid_conflicts(GxJoinState *js)
{
	ExprContext *econtext = js->css.ss.ps.ps_ExprContext;
	ExprState  *qual = outer_join(js) ? js->joinqual : js->css.ss.ps.qual;
	bool		first_match_only = js->jointype == JOIN_SEMI || js->jointype == JOIN_ANTI;
	const GxPgSide *o = &js->outer,
			   *in = &js->inner;
	uint32		k,
				m;

	if (!js->srids_may_conflict)
		return;
	for (k = 0; k < o->ngeoms; k++)
	{
		if ((o->srids[k] == 0 && !gx_strict_srid) || (first_match_only && js->matched[o->ids[k]]))
			continue;
		for (m = 0; m < in->ngeoms; m++)
		{
			bool		accepted;

			if (!gx_pg_srids_conflict(o->srids[k], in->srids[m]))
				continue;
			CHECK_FOR_INTERRUPTS();
			econtext->ecxt_scantuple = scan_pair(js, k, m);
			accepted = qual == NULL || ExecQual(qual, econtext);
			ResetExprContext(econtext);
			if (accepted)
				ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
								errmsg("operation on mixed SRID geometries (%d and %d)",
									   (int) o->srids[k], (int) in->srids[m])));
		}
	}
}

/* Does the pair in the scan slot pass the ON's other clauses (left and anti joins)? */
static bool
join_clauses_pass(GxJoinState *js, TupleTableSlot *scan)
{
	ExprContext *econtext = js->css.ss.ps.ps_ExprContext;

	econtext->ecxt_scantuple = scan;
	return js->joinqual == NULL || ExecQual(js->joinqual, econtext);
}

/* The next outer row of the batch without a partner, alone (inner columns NULL); NULL when none is left. */
static TupleTableSlot *
next_unmatched_row(GxJoinState *js)
{
	TupleTableSlot *scan = js->css.ss.ss_ScanTupleSlot;

	while (js->next_unmatched < js->batch_rows)
	{
		size_t		r = js->next_unmatched++;

		if (js->matched[r])
			continue;
		ExecClearTuple(scan);
		memset(scan->tts_isnull, true, scan->tts_tupleDescriptor->natts * sizeof(bool));
		fill_part(js, true, r);
		return ExecStoreVirtualTuple(scan);
	}
	return NULL;
}

static TupleTableSlot *
gx_join_next(ScanState *ss)
{
	GxJoinState *js = (GxJoinState *) ss;
	TupleTableSlot *scan = ss->ss_ScanTupleSlot;

	if (!js->inner_loaded)
	{
		bool		exhausted;

		js->from_table[1] = gx_pg_table_side(&js->table[1], &js->inner, js->inner_cxt);
		js->from_columns[1] = js->from_table[1] && gx_pg_table_columns(&js->table[1], js->needed[1], js->inner_cxt);
		if (js->from_table[1])
		{
			js->inner_rows += js->table[1].nrows;
			js->inner_fetched = MemoryContextAllocExtended(js->inner_cxt, Max(js->table[1].nrows, 1) * sizeof(MinimalTuple),
														   MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		}
		else
			js->inner_tuples = read_rows(js, lsecond(js->css.custom_ps), false, js->inner_cxt, &js->inner,
										 SIZE_MAX, 0, &js->inner_rows, &exhausted);
		js->inner_loaded = true;
	}
	for (;;)
	{
		while (js->next_pair < js->pairs.n)
		{
			uint64		key = js->pairs.keys[js->next_pair++];
			uint32		o = (uint32) (key >> 32);
			uint32		i = (uint32) key;

			/*
			 * A semi join wants each outer row once: once one of its partners has passed the other join
			 * clauses (see gx_join_exec), its remaining partners are skipped. Pairs come ordered by outer row.
			 * Pairs of conflicting SRIDs are check_srid_conflicts' business.
			 */
			if ((js->jointype == JOIN_SEMI && (int64) o == js->semi_matched) ||
				(js->jointype == JOIN_ANTI && js->matched[js->outer.ids[o]]) ||
				(js->srids_may_conflict && gx_pg_srids_conflict(js->outer.srids[o], js->inner.srids[i])))
				continue;
			js->current_outer = o;
			if (!outer_join(js))
				return scan_pair(js, o, i);
			/* left and anti joins: a partner is one that passes the ON's other clauses too */
			if (!join_clauses_pass(js, scan_pair(js, o, i)))
				continue;
			js->matched[js->outer.ids[o]] = true;
			if (js->jointype == JOIN_LEFT)
				return scan;
		}
		if (js->srid_check_pending)
		{
			js->srid_check_pending = false;
			check_srid_conflicts(js);
		}
		if (outer_join(js))
		{
			TupleTableSlot *alone = next_unmatched_row(js);

			if (alone)
				return alone;
		}
		if (!next_batch(js))
			return ExecClearTuple(scan);
	}
}

static bool
gx_join_recheck(ScanState *ss, TupleTableSlot *slot)
{
	return true;
}

/*
 * The column of a side's row that expression e (over the scan tuple: the outer row's ncols columns from
 * first = 0, then the inner row's from first = the outer's count) is, or 0 when it is not a plain column.
 */
static AttrNumber
plain_column(Node *e, int first, int ncols)
{
	Var		   *v = (Var *) e;

	if (e == NULL || !IsA(e, Var) || v->varno != INDEX_VAR || v->varattno <= first || v->varattno > first + ncols)
		return 0;
	return v->varattno - first;
}

/*
 * The columns of the outer and the inner row (numbered from 1 in each; 0: the whole row) that the query
 * reads from the scan tuple: in the output, the filters, the ON's other clauses and the distance. The
 * geometry expressions are the engine's (a side read from its table takes its geometries from the caches).
 */
static void
needed_columns(GxJoinState *js, CustomScan *cs)
{
	Bitmapset  *used = NULL;
	int			a = -1;

	pull_varattnos((Node *) cs->scan.plan.targetlist, INDEX_VAR, &used);
	pull_varattnos((Node *) cs->scan.plan.qual, INDEX_VAR, &used);
	pull_varattnos(lthird(cs->custom_exprs), INDEX_VAR, &used);
	pull_varattnos(lfourth(cs->custom_exprs), INDEX_VAR, &used);
	js->needed[0] = js->needed[1] = NULL;
	while ((a = bms_next_member(used, a)) >= 0)
	{
		int			col = a + FirstLowInvalidHeapAttributeNumber;

		if (col == 0)
		{
			js->needed[0] = bms_add_member(js->needed[0], 0);
			js->needed[1] = bms_add_member(js->needed[1], 0);
		}
		else if (col > 0)
			js->needed[col > js->n_outer_cols] = bms_add_member(js->needed[col > js->n_outer_cols],
																 col > js->n_outer_cols ? col - js->n_outer_cols : col);
	}
}

static void
gx_join_begin(CustomScanState *node, EState *estate, int eflags)
{
	GxJoinState *js = (GxJoinState *) node;
	CustomScan *cs = (CustomScan *) node->ss.ps.plan;
	PlanState  *outer = ExecInitNode(linitial(cs->custom_plans), estate, eflags);
	PlanState  *inner = ExecInitNode(lsecond(cs->custom_plans), estate, eflags);

	node->custom_ps = list_make2(outer, inner);
	js->jointype = (JoinType) intVal(linitial(cs->custom_private));
	js->n_outer_cols = intVal(lsecond(cs->custom_private));
	js->outer_expr = ExecInitExpr(linitial(cs->custom_exprs), &node->ss.ps);
	js->inner_expr = ExecInitExpr(lsecond(cs->custom_exprs), &node->ss.ps);
	js->geom_attno[0] = plain_column(linitial(cs->custom_exprs), 0, js->n_outer_cols);
	js->geom_attno[1] = plain_column(lsecond(cs->custom_exprs), js->n_outer_cols,
									 ExecGetResultType(inner)->natts);
	js->inner_expr_params = pull_paramids(lsecond(cs->custom_exprs));
	gx_pg_table_of_plan(&js->table[0], outer, js->geom_attno[0], false);
	gx_pg_table_of_plan(&js->table[1], inner, js->geom_attno[1], true);
	needed_columns(js, cs);
	js->outer_row_in_slot = -1;
	js->joinqual = ExecInitQual(lthird(cs->custom_exprs), &node->ss.ps);
	js->distance = ExecInitExpr(lfourth(cs->custom_exprs), &node->ss.ps);
	js->outer_row = ExecInitExtraTupleSlot(estate, ExecGetResultType(outer), &TTSOpsMinimalTuple);
	js->inner_row = ExecInitExtraTupleSlot(estate, ExecGetResultType(inner), &TTSOpsMinimalTuple);
	js->inner_cxt = AllocSetContextCreate(estate->es_query_cxt, "gpuexact join inner", ALLOCSET_DEFAULT_SIZES);
	js->batch_cxt = AllocSetContextCreate(estate->es_query_cxt, "gpuexact join batch", ALLOCSET_DEFAULT_SIZES);
	gx_pg_side_init(&js->inner);
	gx_pg_side_init(&js->outer);
	js->semi_matched = -1;
}

static TupleTableSlot *
gx_join_exec(CustomScanState *node)
{
	GxJoinState *js = (GxJoinState *) node;
	TupleTableSlot *slot = ExecScan(&node->ss, gx_join_next, gx_join_recheck);

	/*
	 * Inner and semi joins: the pair just emitted passed the other join clauses, so its outer row has a
	 * partner, and a semi join is done with it.
	 */
	if (!TupIsNull(slot) && !outer_join(js))
	{
		js->matched[js->outer.ids[js->current_outer]] = true;
		if (js->jointype == JOIN_SEMI)
			js->semi_matched = js->current_outer;
	}
	return slot;
}

static void
gx_join_end(CustomScanState *node)
{
	GxJoinState *js = (GxJoinState *) node;
	ListCell   *lc;

	gx_pg_table_release(&js->table[0]);
	gx_pg_table_release(&js->table[1]);

	foreach(lc, node->custom_ps)
		ExecEndNode(lfirst(lc));
}

/*
 * A rescan, with parameters changed (node->chgParam) or not: the children learn which of their parameters
 * changed, as for any join. The inner side, already read and flattened, is kept when neither its plan nor
 * the inner geometry expression depends on a changed parameter (a LATERAL loop reads it once).
 */
static void
gx_join_rescan(CustomScanState *node)
{
	GxJoinState *js = (GxJoinState *) node;
	PlanState  *outer = linitial(node->custom_ps);
	PlanState  *inner = lsecond(node->custom_ps);
	Bitmapset  *changed = node->ss.ps.chgParam;

	if (changed != NULL)
	{
		UpdateChangedParamSet(outer, changed);
		UpdateChangedParamSet(inner, changed);
	}
	ExecReScan(outer);
	gx_pg_table_release(&js->table[0]);
	gx_pg_table_release(&js->table[1]);
	if (!js->inner_loaded || inner->chgParam != NULL || bms_overlap(changed, js->inner_expr_params))
	{
		ExecReScan(inner);
		MemoryContextReset(js->inner_cxt);
		gx_pg_side_init(&js->inner);
		js->inner_loaded = false;
		js->from_table[1] = js->from_columns[1] = false;
		js->table[1].col_values = NULL;
		js->inner_fetched = NULL;
	}
	MemoryContextReset(js->batch_cxt);
	gx_pg_side_init(&js->outer);
	js->outer_done = false;
	js->outer_started = false;
	js->from_table[0] = js->from_columns[0] = false;
	js->table[0].col_values = NULL;
	js->outer_row_in_slot = -1;
	js->srid_check_pending = false;
	js->batch_rows = 0;
	js->next_unmatched = 0;
	js->pairs.n = 0;
	js->next_pair = 0;
	js->semi_matched = -1;
}

static void
gx_join_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	GxJoinState *js = (GxJoinState *) node;
	const GxBatchStats *t = &js->totals;
	char		buf[512];

	ExplainPropertyText("Join Type", js->jointype == JOIN_SEMI ? "Semi" : js->jointype == JOIN_LEFT ? "Left" :
						js->jointype == JOIN_ANTI ? "Anti" : "Inner", es);
	if (js->distance)
		ExplainPropertyText("Predicate", "gx_dwithin", es);
	if (js->distance && js->batches > 0)
	{
		char		d[32];

		gx_format_double(js->last_distance, d);
		ExplainPropertyText("Within Distance", d, es);
	}
	ExplainPropertyInteger("Batch Rows", NULL, gx_join_batch_rows, es);
	ExplainPropertyInteger("Batch Size", "MB", gx_join_batch_mb, es);
	if (!es->analyze)
		return;
	ExplainPropertyText("Ran On", js->batches ? js->device : "nothing (no batch ran)", es);
	if (js->fallback[0])
	{
		snprintf(buf, sizeof(buf), "not used, ran on the CPU (%s)", js->fallback);
		ExplainPropertyText("GPU", buf, es);
	}
	ExplainPropertyInteger("Batches", NULL, (int64) js->batches, es);
	ExplainPropertyInteger("Outer Rows", NULL, (int64) js->outer_rows, es);
	ExplainPropertyInteger("Inner Rows", NULL, (int64) js->inner_rows, es);
	if (js->from_table[0] || js->from_table[1])
	{
		buf[0] = '\0';
		for (int k = 0; k < 2; k++)
			if (js->from_table[k])
			{
				const GxPgTable *tk = &js->table[k];

				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s %s (%s", buf[0] ? ", " : "",
						 k == 0 ? "outer" : "inner", RelationGetRelationName(tk->rel),
						 tk->in_service ? "kept by the GPU service, no row read" :
						 tk->kept ? "kept, no row read" : "read whole, kept");
				if (js->from_columns[k])
					snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s%s", tk->kept ? " or fetched" : "",
							 tk->col_names[0] ? "; columns kept: " : "; no column needed", tk->col_names);
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ")");
			}
		ExplainPropertyText("Whole Tables", buf, es);
	}
	snprintf(buf, sizeof(buf), "outer %lu, inner %lu", (unsigned long) t->elements_a, (unsigned long) t->elements_b);
	ExplainPropertyText("Elements", buf, es);
	ExplainPropertyInteger("Element Pairs Sharing a Cell", NULL, (int64) t->candidates, es);
	ExplainPropertyInteger("Element Pairs With Overlapping Boxes", NULL, (int64) t->bbox_survivors, es);
	ExplainPropertyInteger("Float32 Filter Undecided", NULL, (int64) t->float_failures, es);
	ExplainPropertyInteger("Double Filter Undecided", NULL, (int64) t->double_failures, es);
	ExplainPropertyInteger("Decided Exactly", NULL, (int64) t->exact_decisions, es);
	ExplainPropertyInteger(js->distance ? "Element Pairs Within Distance" : "Intersecting Element Pairs", NULL,
						   (int64) t->element_pairs, es);
	ExplainPropertyInteger(js->distance ? "Row Pairs Within Distance" : "Intersecting Row Pairs", NULL,
						   (int64) t->geometry_pairs, es);
	if (t->volume_pairs > 0)
		ExplainPropertyInteger("Of Which Inside a Solid", NULL, (int64) t->volume_pairs, es);
	if (t->located > 0)
		ExplainPropertyInteger("Points Located in Solids", NULL, (int64) t->located, es);
	if (t->located_gpu > 0)
		ExplainPropertyInteger("Of Which on the GPU", NULL, (int64) t->located_gpu, es);
	if (es->timing)
	{
		snprintf(buf, sizeof(buf), "upload %.3f grid %.3f cull %.3f float %.3f double %.3f exact %.3f "
				 "dedup %.3f download %.3f total %.3f ms", t->t_upload, t->t_grid, t->t_cull, t->t_float,
				 t->t_double, t->t_exact, t->t_dedup, t->t_download, t->t_total);
		ExplainPropertyText("Engine Time", buf, es);
		snprintf(buf, sizeof(buf), "read outer %.3f inner %.3f, to the GPU service %.3f, in all %.3f ms",
				 js->read_ms[0], js->read_ms[1], js->send_ms, js->run_ms);
		ExplainPropertyText("Batch Time", buf, es);
	}
}

static const CustomExecMethods gx_join_exec_methods = {
	.CustomName = "GpuexactJoin",
	.BeginCustomScan = gx_join_begin,
	.ExecCustomScan = gx_join_exec,
	.EndCustomScan = gx_join_end,
	.ReScanCustomScan = gx_join_rescan,
	.ExplainCustomScan = gx_join_explain,
};

Node *
gx_join_create_state(CustomScan *cscan)
{
	GxJoinState *js = (GxJoinState *) newNode(sizeof(GxJoinState), T_CustomScanState);

	js->css.methods = &gx_join_exec_methods;
	return (Node *) js;
}
