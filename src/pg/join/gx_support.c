/*
 * gx_support.c: planner support of gx_intersects and gx_dwithin: index searches (lossy &&&, against the
 * other side's box grown by the distance for gx_dwithin) and selectivity (gx_selectivity.c).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/stratnum.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"
#include "nodes/value.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "type/gx_selectivity.h"

PG_FUNCTION_INFO_V1(gx_intersects_support);
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
 * Index conditions of a two-geometry predicate (strategies by the indexed argument) and its selectivity,
 * estimated as gx_intersects' (containment implies intersection: an upper bound).
 */
static Datum
predicate_support(FunctionCallInfo fcinfo, const StrategyNumber *strategies)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

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
