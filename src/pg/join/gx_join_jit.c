/*
 * gx_join_jit.c: the executor's JIT judged on the work it could speed up. PostgreSQL compiles a plan's
 * expressions when the plan's cost passes jit_above_cost (and inlines and optimizes past the higher
 * thresholds). A batched join's cost is mostly the engine's work on its sides, compiled C that JIT does not
 * touch; counted in, a block model's coding would pay tens of milliseconds of compiling for nothing. So,
 * as the executor starts (this library may have been loaded by the planning of that very query), the same
 * thresholds are applied to the plan's cost less the engine's work: each GpuexactJoin's own cost beyond its
 * two child plans'. The flags go on a copy of the plan's top node for this execution: a cached plan keeps
 * the planner's, so each execution is judged on the thresholds of its moment.
 */
#include "postgres.h"

#include "jit/jit.h"
#include "nodes/extensible.h"
#include "nodes/plannodes.h"
#include "executor/executor.h"

#include "join/gx_join.h"

static ExecutorStart_hook_type prev_executor_start;

/* The engine's work in plan p and the plans below it (the common shapes; others count none). */
static Cost
engine_cost(Plan *p)
{
	Cost		c = 0;
	ListCell   *lc;

	if (p == NULL)
		return 0;
	if (IsA(p, CustomScan))
	{
		CustomScan *cs = (CustomScan *) p;

		/* none when a side kept as its table, whose plan never runs, is not counted in the join's cost */
		if (cs->methods == &gx_join_scan_methods)
			c += Max(p->total_cost - ((Plan *) linitial(cs->custom_plans))->total_cost -
					 ((Plan *) lsecond(cs->custom_plans))->total_cost, 0);
		foreach(lc, cs->custom_plans)
			c += engine_cost(lfirst(lc));
	}
	else if (IsA(p, Append))
		foreach(lc, ((Append *) p)->appendplans)
			c += engine_cost(lfirst(lc));
	else if (IsA(p, MergeAppend))
		foreach(lc, ((MergeAppend *) p)->mergeplans)
			c += engine_cost(lfirst(lc));
	else if (IsA(p, SubqueryScan))
		c += engine_cost(((SubqueryScan *) p)->subplan);
	return c + engine_cost(p->lefttree) + engine_cost(p->righttree);
}

static void
gx_executor_start(QueryDesc *query, int eflags)
{
	PlannedStmt *stmt = query->plannedstmt;
	Cost		engine,
				rest;
	ListCell   *lc;
	int			flags = stmt->jitFlags;

	if (flags & PGJIT_PERFORM)
	{
		engine = engine_cost(stmt->planTree);
		foreach(lc, stmt->subplans)
			engine += engine_cost(lfirst(lc));
		/* standard_planner's rules, on the rest */
		rest = stmt->planTree->total_cost - engine;
		if (engine > 0 && !(rest > jit_above_cost))
			flags = PGJIT_NONE;
		else if (engine > 0)
		{
			if (!(jit_optimize_above_cost >= 0 && rest > jit_optimize_above_cost))
				flags &= ~PGJIT_OPT3;
			if (!(jit_inline_above_cost >= 0 && rest > jit_inline_above_cost))
				flags &= ~PGJIT_INLINE;
		}
	}
	if (flags != stmt->jitFlags)
	{
		PlannedStmt *mine = makeNode(PlannedStmt);

		memcpy(mine, stmt, sizeof(PlannedStmt));
		mine->jitFlags = flags;
		query->plannedstmt = mine;
	}
	if (prev_executor_start)
		prev_executor_start(query, eflags);
	else
		standard_ExecutorStart(query, eflags);
}

void
gx_join_jit_init(void)
{
	prev_executor_start = ExecutorStart_hook;
	ExecutorStart_hook = gx_executor_start;
}
