/*
 * gx_project.c: gx_makesolid row by row, made a round of rows at a time. `UPDATE bodies SET geom =
 * gx_makesolid(geom)` and `CREATE TABLE solids AS SELECT id, gx_makesolid(geom) FROM bodies` call the function
 * once a row, each body on one thread and stored (compressed) on the backend's; gx_makesolids makes a round
 * of bodies on every thread, packed and compressed where they are made. As the executor starts (the
 * function's planner support has loaded this library while the query was planned), the plan that computes
 * gx_makesolid(x) for the statement's rows (the top plan, or the plan under an INSERT, UPDATE or CREATE
 * TABLE AS) is given a node above it, GpuexactMakeSolids: the plan below computes x, and the node reads a
 * round of its rows (gpuexact.join_batch_mb of geometry per thread), makes their solids as gx_makesolids
 * does, and returns the rows in order with the solids in place of x. The answer is the function's, row for
 * row; the first row that is no solid raises the function's ERROR. The change is made on a copy of the plan
 * for this execution: a cached plan keeps the planner's.
 */
#include "postgres.h"

#include "access/toast_compression.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/plannodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "functions/gx_makesolids.h"
#include "gx_settings.h"
#include "project/gx_project.h"
#include "service/gx_service.h"

#define ROUND_ROWS 16384		/* rows made at once, at most */

static ExecutorStart_hook_type prev_executor_start;

/* ---- the plan ---- */

/* Is e a call of this library's gx_makesolid (its C symbol), with arguments that may be computed below? */
static bool
is_makesolid(Node *e)
{
	FuncExpr   *f = (FuncExpr *) e;
	HeapTuple	t;
	bool		found = false;

	if (e == NULL || !IsA(e, FuncExpr) || list_length(f->args) != 1 || contain_volatile_functions(e) ||
		contain_subplans(e))
		return false;
	t = SearchSysCache1(PROCOID, ObjectIdGetDatum(f->funcid));
	if (HeapTupleIsValid(t))
	{
		Form_pg_proc p = (Form_pg_proc) GETSTRUCT(t);
		bool		isnull;
		Datum		src = SysCacheGetAttr(PROCOID, t, Anum_pg_proc_prosrc, &isnull);

		found = p->prolang == ClanguageId && !isnull && strcmp(TextDatumGetCString(src), "gx_makesolid") == 0;
		ReleaseSysCache(t);
	}
	return found;
}

static CustomScanMethods gx_project_scan_methods;
static CustomExecMethods gx_project_exec_methods;

/*
 * Plan p given the node above it, when its target list calls gx_makesolid: p's copy computes the calls'
 * arguments instead, and the node's scan tuple is p's target list (the calls in place, for its types and
 * EXPLAIN); p itself when it calls none.
 */
static Plan *
wrap(Plan *p)
{
	CustomScan *cs;
	Plan	   *below;
	List	   *tlist = NIL;
	ListCell   *lc;
	bool		any = false;
	int			i = 0;

	foreach(lc, p->targetlist)
		any |= is_makesolid((Node *) ((TargetEntry *) lfirst(lc))->expr);
	if (!any)
		return p;
	below = (Plan *) copyObject(p);
	foreach(lc, below->targetlist)
	{
		TargetEntry *te = lfirst(lc);

		if (is_makesolid((Node *) te->expr))
			te->expr = linitial(((FuncExpr *) te->expr)->args);
	}
	foreach(lc, p->targetlist)
	{
		TargetEntry *te = lfirst(lc);

		tlist = lappend(tlist, makeTargetEntry((Expr *) makeVar(INDEX_VAR, ++i, exprType((Node *) te->expr),
																exprTypmod((Node *) te->expr),
																exprCollation((Node *) te->expr), 0),
											   te->resno, te->resname, te->resjunk));
	}
	cs = makeNode(CustomScan);
	cs->scan.plan.startup_cost = p->startup_cost;
	cs->scan.plan.total_cost = p->total_cost;
	cs->scan.plan.plan_rows = p->plan_rows;
	cs->scan.plan.plan_width = p->plan_width;
	cs->scan.plan.parallel_aware = false;
	cs->scan.plan.parallel_safe = p->parallel_safe;
	cs->scan.plan.targetlist = tlist;
	cs->scan.plan.extParam = bms_copy(p->extParam);
	cs->scan.plan.allParam = bms_copy(p->allParam);
	cs->scan.scanrelid = 0;
	cs->custom_plans = list_make1(below);
	cs->custom_scan_tlist = copyObject(p->targetlist);
	cs->methods = &gx_project_scan_methods;
	return &cs->scan.plan;
}

/* The largest plan node id in p and below it. */
static int
max_node_id(Plan *p)
{
	int			m;
	ListCell   *lc;

	if (p == NULL)
		return -1;
	m = Max(p->plan_node_id, Max(max_node_id(p->lefttree), max_node_id(p->righttree)));
	if (IsA(p, CustomScan))
		foreach(lc, ((CustomScan *) p)->custom_plans)
			m = Max(m, max_node_id(lfirst(lc)));
	else if (IsA(p, Append))
		foreach(lc, ((Append *) p)->appendplans)
			m = Max(m, max_node_id(lfirst(lc)));
	else if (IsA(p, MergeAppend))
		foreach(lc, ((MergeAppend *) p)->mergeplans)
			m = Max(m, max_node_id(lfirst(lc)));
	else if (IsA(p, SubqueryScan))
		m = Max(m, max_node_id(((SubqueryScan *) p)->subplan));
	return m;
}

/* The statement's plan with the node where its rows' gx_makesolid calls are; NULL when there is none. */
static PlannedStmt *
with_rounds(PlannedStmt *stmt)
{
	Plan	   *top = stmt->planTree,
			   *p;
	PlannedStmt *mine;

	if (top == NULL)
		return NULL;
	if (IsA(top, ModifyTable))
	{
		if (top->lefttree == NULL || (p = wrap(top->lefttree)) == top->lefttree)
			return NULL;
		top = (Plan *) copyObject(top);
		top->lefttree = p;
	}
	else if ((top = wrap(top)) == stmt->planTree)
		return NULL;
	mine = makeNode(PlannedStmt);
	memcpy(mine, stmt, sizeof(PlannedStmt));
	mine->planTree = top;
	/* the node's own id, after every other (parallel workers' instruments are found by id) */
	{
		Plan	   *node = IsA(top, ModifyTable) ? top->lefttree : top;
		int			id = max_node_id(stmt->planTree);
		ListCell   *lc;

		foreach(lc, stmt->subplans)
			id = Max(id, max_node_id(lfirst(lc)));
		node->plan_node_id = id + 1;
	}
	return mine;
}

static void
gx_project_executor_start(QueryDesc *query, int eflags)
{
	PlannedStmt *mine;

	if ((query->operation == CMD_SELECT || query->operation == CMD_INSERT || query->operation == CMD_UPDATE) &&
		!(eflags & (EXEC_FLAG_BACKWARD | EXEC_FLAG_MARK)) &&
		(mine = with_rounds(query->plannedstmt)) != NULL)
		query->plannedstmt = mine;
	if (prev_executor_start)
		prev_executor_start(query, eflags);
	else
		standard_ExecutorStart(query, eflags);
}

/* ---- the execution ---- */

typedef struct ProjectState
{
	CustomScanState css;
	int			ncols;
	bool	   *made_col;		/* the columns that call gx_makesolid */
	int			nmade_cols;
	TupleTableSlot **rows;		/* the round's rows from below (copies) */
	GxMade	   *made;			/* their solids, column by column: made[row * nmade_cols + k] */
	size_t		cap,
				n,
				next;
	bool		done;			/* the plan below has no more rows */
	uint64		bodies,
				rounds;
	GxBatchOptions opt;
} ProjectState;

static Node *
create_state(CustomScan *cs)
{
	ProjectState *ps = (ProjectState *) newNode(sizeof(ProjectState), T_CustomScanState);

	ps->css.methods = &gx_project_exec_methods;
	return (Node *) ps;
}

static void
begin(CustomScanState *node, EState *estate, int eflags)
{
	ProjectState *ps = (ProjectState *) node;
	CustomScan *cs = (CustomScan *) node->ss.ps.plan;
	ListCell   *lc;
	int			i = 0;

	node->custom_ps = list_make1(ExecInitNode(linitial(cs->custom_plans), estate, eflags));
	ps->ncols = list_length(cs->custom_scan_tlist);
	ps->made_col = palloc0(Max(ps->ncols, 1) * sizeof(bool));
	foreach(lc, cs->custom_scan_tlist)
	{
		ps->made_col[i] = is_makesolid((Node *) ((TargetEntry *) lfirst(lc))->expr);
		ps->nmade_cols += ps->made_col[i++];
	}
	gx_settings_batch_options(&ps->opt);
	/* the GPU is the service's: this backend makes no CUDA context of its own when there is one */
	if (gx_service_started())
		ps->opt.device = GX_DEVICE_CPU;
}

static void
clear_round(ProjectState *ps)
{
	if (ps->made)
		gx_made_free(ps->made, ps->n * ps->nmade_cols);
	for (size_t k = 0; k < ps->n; k++)
		ExecClearTuple(ps->rows[k]);
	ps->n = ps->next = 0;
}

/* The next round: rows read from below up to the round's bytes, their solids made on the threads. */
static void
read_round(ProjectState *ps)
{
	PlanState  *below = linitial(ps->css.custom_ps);
	size_t		budget = gx_made_round_bytes(&ps->opt),
				bytes = 0,
				nvalues = 0;
	Datum	   *values;
	size_t	   *where;

	clear_round(ps);
	while (!ps->done && ps->n < ROUND_ROWS && (ps->n == 0 || bytes < budget))
	{
		TupleTableSlot *slot = ExecProcNode(below);

		if (TupIsNull(slot))
		{
			ps->done = true;
			break;
		}
		if (ps->n == ps->cap)
		{
			size_t		cap = Max(64, 2 * ps->cap);

			ps->rows = ps->rows ? repalloc(ps->rows, cap * sizeof(TupleTableSlot *)) :
				palloc(cap * sizeof(TupleTableSlot *));
			ps->made = ps->made ? repalloc(ps->made, cap * Max(ps->nmade_cols, 1) * sizeof(GxMade)) :
				palloc(cap * Max(ps->nmade_cols, 1) * sizeof(GxMade));
			for (size_t k = ps->cap; k < cap; k++)
				ps->rows[k] = MakeSingleTupleTableSlot(slot->tts_tupleDescriptor, &TTSOpsMinimalTuple);
			ps->cap = cap;
		}
		ExecCopySlot(ps->rows[ps->n], slot);
		slot_getallattrs(ps->rows[ps->n]);
		for (int c = 0; c < ps->ncols; c++)
			if (ps->made_col[c] && !ps->rows[ps->n]->tts_isnull[c])
				bytes += VARSIZE_ANY(DatumGetPointer(ps->rows[ps->n]->tts_values[c]));
		ps->n++;
	}
	if (ps->n == 0)
		return;
	memset(ps->made, 0, ps->n * ps->nmade_cols * sizeof(GxMade));
	/* the round's present values in one array, each with its slot in made */
	values = palloc(ps->n * ps->nmade_cols * sizeof(Datum));
	where = palloc(ps->n * ps->nmade_cols * sizeof(size_t));
	for (size_t r = 0; r < ps->n; r++)
		for (int c = 0, k = 0; c < ps->ncols; c++)
			if (ps->made_col[c])
			{
				if (!ps->rows[r]->tts_isnull[c])
				{
					values[nvalues] = ps->rows[r]->tts_values[c];
					where[nvalues++] = r * ps->nmade_cols + k;
				}
				k++;
			}
	if (nvalues > 0)
	{
		GxMade	   *made = palloc0(nvalues * sizeof(GxMade));

		gx_made_round(values, nvalues, &ps->opt, (char) default_toast_compression, made);
		for (size_t v = 0; v < nvalues; v++)
			ps->made[where[v]] = made[v];
		pfree(made);
	}
	pfree(values);
	pfree(where);
	ps->bodies += nvalues;
	ps->rounds++;
}

static TupleTableSlot *
exec(CustomScanState *node)
{
	ProjectState *ps = (ProjectState *) node;
	TupleTableSlot *out = node->ss.ss_ScanTupleSlot,
			   *row;
	ProjectionInfo *proj = node->ss.ps.ps_ProjInfo;

	CHECK_FOR_INTERRUPTS();
	if (ps->next == ps->n)
	{
		read_round(ps);
		if (ps->n == 0)
			return ExecClearTuple(node->ss.ps.ps_ResultTupleSlot);
	}
	row = ps->rows[ps->next];
	ExecClearTuple(out);
	for (int c = 0, k = 0; c < ps->ncols; c++)
	{
		out->tts_isnull[c] = row->tts_isnull[c];
		out->tts_values[c] = row->tts_values[c];
		if (ps->made_col[c])
		{
			GxMade	   *m = &ps->made[ps->next * ps->nmade_cols + k++];

			if (!row->tts_isnull[c] && m->value == NULL)
				gx_made_raise(m, "");
			if (!row->tts_isnull[c])
				out->tts_values[c] = PointerGetDatum(m->value);
		}
	}
	ExecStoreVirtualTuple(out);
	ps->next++;
	if (proj == NULL)
		return out;
	ResetExprContext(node->ss.ps.ps_ExprContext);
	node->ss.ps.ps_ExprContext->ecxt_scantuple = out;
	return ExecProject(proj);
}

static void
end(CustomScanState *node)
{
	ProjectState *ps = (ProjectState *) node;

	clear_round(ps);
	for (size_t k = 0; k < ps->cap; k++)
		ExecDropSingleTupleTableSlot(ps->rows[k]);
	ExecEndNode(linitial(node->custom_ps));
}

static void
rescan(CustomScanState *node)
{
	ProjectState *ps = (ProjectState *) node;

	clear_round(ps);
	ps->done = false;
	ExecReScan(linitial(node->custom_ps));
}

static void
explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	ProjectState *ps = (ProjectState *) node;

	ExplainPropertyText("Function", "gx_makesolid, a round of rows at a time on the backend's threads", es);
	if (es->analyze)
	{
		ExplainPropertyUInteger("Bodies Made", NULL, ps->bodies, es);
		ExplainPropertyUInteger("Rounds", NULL, ps->rounds, es);
	}
}

static CustomExecMethods gx_project_exec_methods = {
	.CustomName = "GpuexactMakeSolids",
	.BeginCustomScan = begin,
	.ExecCustomScan = exec,
	.EndCustomScan = end,
	.ReScanCustomScan = rescan,
	.ExplainCustomScan = explain,
};

static CustomScanMethods gx_project_scan_methods = {
	.CustomName = "GpuexactMakeSolids",
	.CreateCustomScanState = create_state,
};

void
gx_project_init(void)
{
	RegisterCustomScanMethods(&gx_project_scan_methods);
	prev_executor_start = ExecutorStart_hook;
	ExecutorStart_hook = gx_project_executor_start;
}
