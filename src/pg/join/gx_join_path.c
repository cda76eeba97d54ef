/*
 * gx_join_path.c: planning of the batched custom join: a set_join_pathlist_hook that finds a
 * gx_intersects(outer, inner) join clause (inner, semi, left and anti joins), offers a CustomPath costed as
 * one batch per side instead of a call per pair, and turns it into a CustomScan plan.
 */
#include "postgres.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "gx_settings.h"
#include "join/gx_join.h"

/* Work of the engine per row of either side, in units of cpu_operator_cost (one gx_intersects call is 100). */
#define BATCH_COST_PER_ROW 200.0

static set_join_pathlist_hook_type prev_join_pathlist_hook;

static Plan *gx_join_plan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path, List *tlist,
						  List *clauses, List *custom_plans);

static const CustomPathMethods gx_join_path_methods = {
	.CustomName = "GpuexactJoin",
	.PlanCustomPath = gx_join_plan,
};

const CustomScanMethods gx_join_scan_methods = {
	.CustomName = "GpuexactJoin",
	.CreateCustomScanState = gx_join_create_state,
};

/*
 * Which of this extension's join predicates funcid is, by the C symbol behind it: 2 for gx_intersects (two
 * arguments), 3 for gx_dwithin (two geometries and a distance), 0 for anything else. gx_contains and
 * gx_within are 2 with *recheck: the batch finds the intersecting pairs (containment implies intersection)
 * and the clause itself decides each of them.
 */
static int
join_predicate(Oid funcid, bool *recheck)
{
	HeapTuple	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	int			result = 0;

	if (HeapTupleIsValid(tup))
	{
		Form_pg_proc proc = (Form_pg_proc) GETSTRUCT(tup);
		bool		isnull;
		Datum		src = SysCacheGetAttr(PROCOID, tup, Anum_pg_proc_prosrc, &isnull);

		if (proc->prolang == ClanguageId && !isnull)
		{
			char	   *name = TextDatumGetCString(src);

			*recheck = strcmp(name, "gx_contains_sql") == 0 || strcmp(name, "gx_within_sql") == 0;
			result = strcmp(name, "gx_intersects_sql") == 0 || *recheck ? 2 : strcmp(name, "gx_dwithin_sql") == 0 ? 3 : 0;
		}
		ReleaseSysCache(tup);
	}
	return result;
}

/*
 * Finds a clause gx_intersects(x, y), or gx_dwithin(x, y, d) with d over neither rel (a constant or a
 * parameter: *distance, else NULL), with x over the outer rel only and y over the inner rel only (or the
 * reverse); sets *outer_expr, *inner_expr and the remaining clauses, as plain expressions: for an outer
 * or anti join, *joinquals are the other clauses of its ON (deciding which pairs match) and *others the
 * clauses pushed down to it (filtering its output); for inner and semi joins all go to *others. For an
 * outer join the gx_intersects clause must be one of its own.
 */
static bool
find_join_clause(PlannerInfo *root, RelOptInfo *joinrel, JoinType jointype, List *restrictlist,
				 RelOptInfo *outerrel, RelOptInfo *innerrel, Expr **outer_expr, Expr **inner_expr,
				 Expr **distance, List **joinquals, List **others)
{
	ListCell   *lc;
	bool		found = false;
	bool		outer_join = jointype == JOIN_LEFT || jointype == JOIN_ANTI;

	*joinquals = NIL;
	*others = NIL;
	*distance = NULL;
	foreach(lc, restrictlist)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		FuncExpr   *f = (FuncExpr *) ri->clause;
		bool		pushed_down = RINFO_IS_PUSHED_DOWN(ri, joinrel->relids),
					recheck = false;

		if (!found && IsA(f, FuncExpr) && join_predicate(f->funcid, &recheck) == list_length(f->args) &&
			!contain_volatile_functions((Node *) f) && !(outer_join && pushed_down))
		{
			Expr	   *x = linitial(f->args),
					   *y = lsecond(f->args);
			Relids		rx = pull_varnos(root, (Node *) x),
						ry = pull_varnos(root, (Node *) y);

			*distance = list_length(f->args) == 3 ? lthird(f->args) : NULL;
			if (!bms_is_empty(rx) && !bms_is_empty(ry) &&
				(*distance == NULL || bms_is_empty(pull_varnos(root, (Node *) *distance))))
			{
				if (bms_is_subset(rx, outerrel->relids) && bms_is_subset(ry, innerrel->relids))
				{
					*outer_expr = x;
					*inner_expr = y;
					found = true;
				}
				else if (bms_is_subset(ry, outerrel->relids) && bms_is_subset(rx, innerrel->relids))
				{
					*outer_expr = y;
					*inner_expr = x;
					found = true;
				}
				if (found && !recheck)
					continue;
			}
		}
		if (outer_join && !pushed_down)
			*joinquals = lappend(*joinquals, ri->clause);
		else
			*others = lappend(*others, ri->clause);
	}
	return found;
}

static void
gx_join_pathlist(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel, RelOptInfo *innerrel,
				 JoinType jointype, JoinPathExtraData *extra)
{
	Path	   *outer_path = outerrel->cheapest_total_path;
	Path	   *inner_path = innerrel->cheapest_total_path;
	Expr	   *outer_expr = NULL,
			   *inner_expr = NULL,
			   *distance;
	List	   *joinquals,
			   *others;
	CustomPath *cp;
	double		per_row = BATCH_COST_PER_ROW * cpu_operator_cost;

	if (prev_join_pathlist_hook)
		prev_join_pathlist_hook(root, joinrel, outerrel, innerrel, jointype, extra);
	/*
	 * Only plain SELECTs without row locks: under EvalPlanQual (UPDATE, DELETE, FOR UPDATE) a join's
	 * recheck would have to rebuild the joined row, which this node does not; those get the stock plan.
	 */
	if (root->parse->commandType != CMD_SELECT || root->parse->rowMarks != NIL)
		return;
	if (!gx_enable_join ||
		(jointype != JOIN_INNER && jointype != JOIN_SEMI && jointype != JOIN_LEFT && jointype != JOIN_ANTI) ||
		outer_path == NULL || inner_path == NULL ||
		outer_path->param_info != NULL || inner_path->param_info != NULL ||
		!bms_is_empty(joinrel->lateral_relids) ||
		!find_join_clause(root, joinrel, jointype, extra->restrictlist, outerrel, innerrel, &outer_expr,
						  &inner_expr, &distance, &joinquals, &others))
		return;

	cp = makeNode(CustomPath);
	cp->path.pathtype = T_CustomScan;
	cp->path.parent = joinrel;
	cp->path.pathtarget = joinrel->reltarget;
	cp->path.param_info = NULL;
	cp->path.parallel_aware = false;
	cp->path.parallel_safe = false;
	cp->path.parallel_workers = 0;
	cp->path.rows = joinrel->rows;
	/* The inner side is read and indexed before the first row comes out. */
	cp->path.startup_cost = inner_path->total_cost + outer_path->startup_cost + per_row * inner_path->rows;
	cp->path.total_cost = inner_path->total_cost + outer_path->total_cost +
		per_row * (outer_path->rows + inner_path->rows) + cpu_tuple_cost * joinrel->rows;
	cp->path.pathkeys = NIL;
	cp->flags = 0;
	cp->custom_paths = list_make2(outer_path, inner_path);
	cp->custom_private = list_make5(outer_expr, inner_expr, others, makeInteger(jointype), joinquals);
	cp->custom_private = lappend(cp->custom_private, distance);
	cp->methods = &gx_join_path_methods;
	add_path(joinrel, &cp->path);
}

/* The scan tuple: the outer plan's columns, then the inner plan's. */
static List *
concat_tlists(Plan *outer, Plan *inner)
{
	List	   *tl = NIL;
	ListCell   *lc;
	AttrNumber	resno = 1;

	foreach(lc, outer->targetlist)
		tl = lappend(tl, makeTargetEntry((Expr *) copyObject(lfirst_node(TargetEntry, lc)->expr), resno++, NULL, false));
	foreach(lc, inner->targetlist)
		tl = lappend(tl, makeTargetEntry((Expr *) copyObject(lfirst_node(TargetEntry, lc)->expr), resno++, NULL, false));
	return tl;
}

static Plan *
gx_join_plan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path, List *tlist,
			 List *clauses, List *custom_plans)
{
	CustomScan *cs = makeNode(CustomScan);
	Plan	   *outer = linitial(custom_plans);
	Plan	   *inner = lsecond(custom_plans);
	List	   *priv = best_path->custom_private;

	cs->scan.plan.targetlist = tlist;
	cs->scan.plan.qual = lthird(priv);
	cs->scan.scanrelid = 0;
	cs->flags = best_path->flags;
	cs->custom_plans = custom_plans;
	cs->custom_exprs = list_make4(linitial(priv), lsecond(priv), list_nth(priv, 4), list_nth(priv, 5));
	cs->custom_scan_tlist = concat_tlists(outer, inner);
	cs->custom_private = list_make2(lfourth(priv), makeInteger(list_length(outer->targetlist)));
	cs->methods = &gx_join_scan_methods;
	return &cs->scan.plan;
}

void
gx_join_init(void)
{
	prev_join_pathlist_hook = set_join_pathlist_hook;
	set_join_pathlist_hook = gx_join_pathlist;
	RegisterCustomScanMethods(&gx_join_scan_methods);
	gx_join_jit_init();
}
