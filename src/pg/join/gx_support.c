/*
 * gx_support.c: planner support of gx_intersects, gx_dwithin, gx_contains and gx_within: index searches
 * (lossy &&&, against the other side's box grown by the distance for gx_dwithin), selectivity
 * (gx_selectivity.c) and the cost of a call, from the sizes of the geometries it reads.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/stratnum.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"
#include "nodes/value.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "type/gx_selectivity.h"

PG_FUNCTION_INFO_V1(gx_intersects_support);
PG_FUNCTION_INFO_V1(gx_makesolid_support);
PG_FUNCTION_INFO_V1(gx_dwithin_support);
PG_FUNCTION_INFO_V1(gx_contains_support);
PG_FUNCTION_INFO_V1(gx_within_support);

/*
 * True if opfamily is this extension's GiST family for gxgeom: gist_gxgeom_ops in the schema of the
 * function asked about (gx_intersects; the extension's objects share one schema).
 */
static bool
is_gxgeom_gist_family(Oid opfamily, Oid funcid)
{
	HeapTuple	tup = SearchSysCache1(OPFAMILYOID, ObjectIdGetDatum(opfamily));
	Form_pg_opfamily fam;
	bool		ours;

	if (!HeapTupleIsValid(tup))
		return false;
	fam = (Form_pg_opfamily) GETSTRUCT(tup);
	ours = fam->opfmethod == GIST_AM_OID &&
		strcmp(NameStr(fam->opfname), "gist_gxgeom_ops") == 0 &&
		fam->opfnamespace == get_func_namespace(funcid);
	ReleaseSysCache(tup);
	return ours;
}

/*
 * gx_expand(g, d), the box of g grown by d (rounded outward), as an expression: the function of this
 * extension's schema (that of funcid, the support function's caller), folded when g and d are constants.
 */
static Node *
expand_expr(PlannerInfo *root, Oid funcid, Node *geom, Node *dist)
{
	Oid			argtypes[2] = {exprType(geom), FLOAT8OID};
	List	   *name = list_make2(makeString(get_namespace_name(get_func_namespace(funcid))),
								  makeString("gx_expand"));
	Oid			expand = LookupFuncName(name, 2, argtypes, false);

	return eval_const_expressions(root, (Node *) makeFuncExpr(expand, get_func_rettype(expand),
															  list_make2(geom, dist), InvalidOid, InvalidOid,
															  COERCE_EXPLICIT_CALL));
}

/*
 * The lossy index condition of gx_intersects(a, b) and gx_dwithin(a, b, d): gx_intersects(a, b) implies
 * a &&& b (two point sets that share a point have boxes that share it), gx_dwithin(a, b, d) implies
 * a &&& gx_expand(b, d) (two point sets within d have boxes within d, and the grown box is rounded
 * outward). When a or b is the indexed column of a gist_gxgeom_ops index and the other side (and d) do not
 * depend on the indexed table (a constant, a parameter, a column of another table in a join), the planner
 * gets that condition, with the indexed column first (both are symmetric in a and b): the executor still
 * applies the function to the rows it returns. Containment's conditions are strategies[indexarg]: the
 * container's box contains the other's (~), the contained one's lies within the other's (@).
 */
static List *
index_condition(SupportRequestIndexCondition *req, int nargs, const StrategyNumber *strategies)
{
	FuncExpr   *clause;
	Node	   *indexed,
			   *other;
	Oid			opno;

	if (!is_funcclause(req->node))
		return NIL;
	clause = (FuncExpr *) req->node;
	if (list_length(clause->args) != nargs || req->indexarg < 0 || req->indexarg > 1)
		return NIL;
	if (!is_gxgeom_gist_family(req->opfamily, req->funcid))
		return NIL;
	indexed = (Node *) list_nth(clause->args, req->indexarg);
	other = (Node *) list_nth(clause->args, 1 - req->indexarg);
	if (!is_pseudo_constant_for_index(req->root, other, req->index) ||
		(nargs == 3 && !is_pseudo_constant_for_index(req->root, (Node *) lthird(clause->args), req->index)))
		return NIL;
	if (nargs == 3)
		other = expand_expr(req->root, req->funcid, other, (Node *) lthird(clause->args));
	opno = get_opfamily_member(req->opfamily, exprType(indexed), exprType(other), strategies[req->indexarg]);
	if (!OidIsValid(opno))
		return NIL;
	req->lossy = true;
	return list_make1(make_opclause(opno, BOOLOID, false, (Expr *) indexed, (Expr *) other,
									InvalidOid, InvalidOid));
}

static const StrategyNumber overlap[2] = {RTOverlapStrategyNumber, RTOverlapStrategyNumber};

/*
 * The cost of a call on two geometries, in units of cpu_operator_cost: a call's own work (the function's
 * declared COST), and the work per
 * element of the two values, which each call detoasts and flattens, and locates in when one is a solid
 * (on the 2-core VM, a point against a solid of 4 620 triangles 0.8 ms a call, against the same surface
 * 0.17 ms; two points 0.15 us). A constant is prepared once (its elements and grid kept across calls): its
 * elements count once, at startup.
 */
#define ELEMENT_COST	15.0

static void
call_cost(SupportRequestCost *req)
{
	FuncExpr   *f = (FuncExpr *) req->node;
	HeapTuple	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(req->funcid));
	double		per_call = 0,
				once = 0;
	ListCell   *lc;
	int			k = 0;

	if (HeapTupleIsValid(tup))
	{
		per_call = ((Form_pg_proc) GETSTRUCT(tup))->procost;
		ReleaseSysCache(tup);
	}
	foreach(lc, f->args)
	{
		Node	   *arg = lfirst(lc);
		double		e;

		if (k++ == 2)
			break;				/* gx_dwithin's distance */
		e = req->root ? gx_expr_elements(req->root, arg) : -1;
		if (e < 0)
			e = 1;
		if (IsA(arg, Const))
			once += ELEMENT_COST * e;
		else
			per_call += ELEMENT_COST * e;
	}
	req->startup = once * cpu_operator_cost;
	req->per_tuple = per_call * cpu_operator_cost;
}

/* Answers a SupportRequestCost about a call (of one or two geometries, and a distance for gx_dwithin). */
static bool
cost_request(Node *rawreq)
{
	SupportRequestCost *req = (SupportRequestCost *) rawreq;

	if (!IsA(rawreq, SupportRequestCost) || req->node == NULL || !IsA(req->node, FuncExpr) ||
		list_length(((FuncExpr *) req->node)->args) < 1)
		return false;
	call_cost(req);
	return true;
}

/*
 * Index conditions of a two-geometry predicate (strategies by the indexed argument) and its selectivity,
 * estimated as gx_intersects' (containment implies intersection: an upper bound).
 */
static Datum
predicate_support(FunctionCallInfo fcinfo, const StrategyNumber *strategies)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (cost_request(rawreq))
		PG_RETURN_POINTER(rawreq);
	if (IsA(rawreq, SupportRequestIndexCondition))
	{
		List	   *cond = index_condition((SupportRequestIndexCondition *) rawreq, 2, strategies);

		PG_RETURN_POINTER(cond);
	}
	if (IsA(rawreq, SupportRequestSelectivity))
	{
		SupportRequestSelectivity *req = (SupportRequestSelectivity *) rawreq;

		req->selectivity = req->is_join ?
			gx_join_selectivity(req->root, req->args, req->jointype, req->sjinfo) :
			gx_restriction_selectivity(req->root, req->args, req->varRelid);
		PG_RETURN_POINTER(req);
	}
	PG_RETURN_POINTER(NULL);
}

/*
 * gx_makesolid's cost by the elements of its argument; asked while the query is planned, it also loads this
 * library, whose executor hook then makes the rows' solids a round at a time (project/gx_project.c).
 */
Datum
gx_makesolid_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	PG_RETURN_POINTER(cost_request(rawreq) ? rawreq : NULL);
}

Datum
gx_intersects_support(PG_FUNCTION_ARGS)
{
	return predicate_support(fcinfo, overlap);
}

/* gx_contains(a, b): a indexed, a ~ b; b indexed, b @ a. */
Datum
gx_contains_support(PG_FUNCTION_ARGS)
{
	static const StrategyNumber s[2] = {RTContainsStrategyNumber, RTContainedByStrategyNumber};

	return predicate_support(fcinfo, s);
}

/* gx_within(b, a): b indexed, b @ a; a indexed, a ~ b. */
Datum
gx_within_support(PG_FUNCTION_ARGS)
{
	static const StrategyNumber s[2] = {RTContainedByStrategyNumber, RTContainsStrategyNumber};

	return predicate_support(fcinfo, s);
}

/*
 * Selectivity of gx_dwithin(a, b, d): against a constant side, that of the column's boxes overlapping the
 * constant's box grown by d; otherwise (joins, parameters) estimated as gx_intersects(a, b).
 */
static Selectivity
dwithin_selectivity(SupportRequestSelectivity *req)
{
	Node	   *a = (Node *) linitial(req->args),
			   *b = (Node *) lsecond(req->args),
			   *d = (Node *) lthird(req->args);
	List	   *args = list_make2(a, b);

	if (req->is_join)
		return gx_join_selectivity(req->root, args, req->jointype, req->sjinfo);
	if (IsA(b, Const) && IsA(d, Const))
		args = list_make2(a, expand_expr(req->root, req->funcid, b, d));
	else if (IsA(a, Const) && IsA(d, Const))
		args = list_make2(expand_expr(req->root, req->funcid, a, d), b);
	return gx_restriction_selectivity(req->root, args, req->varRelid);
}

Datum
gx_dwithin_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (cost_request(rawreq))
		PG_RETURN_POINTER(rawreq);
	if (IsA(rawreq, SupportRequestIndexCondition))
		PG_RETURN_POINTER(index_condition((SupportRequestIndexCondition *) rawreq, 3, overlap));
	if (IsA(rawreq, SupportRequestSelectivity))
	{
		SupportRequestSelectivity *req = (SupportRequestSelectivity *) rawreq;

		if (list_length(req->args) == 3)
		{
			req->selectivity = dwithin_selectivity(req);
			PG_RETURN_POINTER(req);
		}
	}
	PG_RETURN_POINTER(NULL);
}
