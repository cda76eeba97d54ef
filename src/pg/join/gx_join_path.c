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
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "batch/gx_pg_table.h"
#include "gx_settings.h"
#include "join/gx_join.h"
#include "type/gx_selectivity.h"

/*
 * The batch's work, in units of cpu_operator_cost (about 10 ns on the 2-core VM, where these were measured),
 * the elements of each side estimated from its column's statistics (gx_analyze.c): reading a side that is
 * not kept, beyond its plan's own cost, READ_ROW a row and READ_ELEMENT an element (detoasted, flattened,
 * indexed: 306 680 points read in 349 ms, 61 solids of 281 808 triangles in 235 ms); PROBE_ELEMENT for each
 * element of the side that probes the other's grid or solids (306 680 points against 61 kept solids, 40
 * ms); BATCH_SETUP once (0.3 ms for two sides of 10 points). A side that this backend keeps as its whole
 * table is neither read nor scanned.
 */
#define READ_ROW		30.0
#define READ_ELEMENT	70.0
#define PROBE_ELEMENT	15.0
#define BATCH_SETUP		20000.0

/* What a side of the batch costs: reading it (0 when kept), and its elements. */
typedef struct SideCost
{
	Cost		read;
	double		elements;
	bool		kept;
} SideCost;

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

static SideCost
side_cost(PlannerInfo *root, RelOptInfo *rel, Path *path, Expr *expr)
{
	SideCost	c;
	double		e = gx_expr_elements(root, (Node *) expr);
	Var		   *v = (Var *) expr;

	c.elements = path->rows * (e < 0 ? 1 : e);
	/* a plain scan of a whole table, its column as the geometry (gx_pg_table_of_plan says when exactly) */
	c.kept = gx_keep_tables && path->pathtype == T_SeqScan && !path->parallel_aware &&
		rel->reloptkind == RELOPT_BASEREL && rel->rtekind == RTE_RELATION && rel->baserestrictinfo == NIL &&
		IsA(v, Var) && v->varno == rel->relid && v->varattno > 0 && v->varlevelsup == 0 &&
		gx_pg_table_kept(planner_rt_fetch(rel->relid, root)->relid, v->varattno);
	c.read = c.kept ? 0 :
		path->total_cost + (READ_ROW * path->rows + READ_ELEMENT * c.elements) * cpu_operator_cost;
	return c;
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
	SideCost	o,
				i;
	double		probes;

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
	o = side_cost(root, outerrel, outer_path, outer_expr);
	i = side_cost(root, innerrel, inner_path, inner_expr);
	/* a kept side is probed by the other; otherwise both are gridded, every element placed and probed */
	probes = o.kept && i.kept ? Min(o.elements, i.elements) :
		o.kept ? i.elements : i.kept ? o.elements : o.elements + i.elements;
	/* The inner side is read and indexed before the first row comes out. */
	cp->path.startup_cost = i.read + (o.kept ? 0 : outer_path->startup_cost) + BATCH_SETUP * cpu_operator_cost;
	cp->path.total_cost = i.read + o.read + (BATCH_SETUP + PROBE_ELEMENT * probes) * cpu_operator_cost +
		cpu_tuple_cost * joinrel->rows;
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
