/*
 * gx_selectivity.c: selectivity of the box operators &&&, ~, @ (their RESTRICT and JOIN functions) and of
 * gx_intersects (through its support function), from the box statistics of gxgeom columns.
 *
 * A clause keeps a row or pair only if the boxes overlap, so every estimate is the probability that the
 * boxes overlap (src/core/index/gx_boxstats.h), times the fraction of rows that are neither NULL nor EMPTY. That
 * is an upper bound for gx_intersects, ~ and @, which keep fewer, as PostGIS estimates ST_Intersects by its
 * box. Without statistics (never analyzed, a gxbox3d column, an expression) the estimates are constants.
 * (The core's overlap is -1 only when it cannot get memory, which palloc never lets happen: the range
 * checks below turn it into the constant.)
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"

#include "index/gx_boxstats.h"
#include "type/gx_box3d.h"
#include "type/gx_selectivity.h"

/*
 * Without statistics: a box test against a constant keeps 1 row in 1000, a join keeps 1 pair in 10000
 * (instead of the default 1/3 for a boolean function, which would make every plan with it look wildly
 * unselective).
 */
#define GX_DEFAULT_RESTRICT_SEL 0.001
#define GX_DEFAULT_JOIN_SEL		0.0001

PG_FUNCTION_INFO_V1(gx_box3d_sel);
PG_FUNCTION_INFO_V1(gx_box3d_joinsel);

/* The box statistics of a column, decoded. */
typedef struct ColumnBoxes
{
	GxBoxStats	s;
	double	   *encoded;		/* what s points into */
	double		frac;			/* fraction of the rows with a box: neither NULL nor EMPTY */
} ColumnBoxes;

static bool
column_boxes(VariableStatData *vardata, ColumnBoxes *cb)
{
	AttStatsSlot sslot;
	int			i;
	bool		ok;

	if (!HeapTupleIsValid(vardata->statsTuple) ||
		!get_attstatsslot(&sslot, vardata->statsTuple, GX_STATISTIC_KIND_BOXES, InvalidOid, ATTSTATSSLOT_VALUES))
		return false;
	cb->encoded = palloc(Max(sslot.nvalues, 1) * sizeof(double));
	ok = sslot.valuetype == FLOAT8OID;
	for (i = 0; ok && i < sslot.nvalues; i++)
		cb->encoded[i] = DatumGetFloat8(sslot.values[i]);
	ok = ok && gx_boxstats_decode(cb->encoded, sslot.nvalues, &cb->s);
	free_attstatsslot(&sslot);
	if (!ok)
	{
		pfree(cb->encoded);
		return false;
	}
	cb->frac = (1 - ((Form_pg_statistic) GETSTRUCT(vardata->statsTuple))->stanullfrac) * (1 - cb->s.empty_frac);
	return true;
}

/* Fraction of the column's rows whose box overlaps the constant's (gxgeom or gxbox3d; not NULL). */
static double
constant_selectivity(const ColumnBoxes *col, const Const *c)
{
	GxBox3D		box;
	GxBoxStats	one;
	double		cell;

	if (c->constlen == (int16) sizeof(GxBox3D))
		box = *DatumGetGxBox3DP(c->constvalue);
	else
		(void) gx_datum_get_box(c->constvalue, &box);
	if (gx_box_is_empty(&box))
		return 0;
	gx_boxstats_of_box(&box, &one, &cell);
	return col->frac * gx_boxstats_overlap(&col->s, &one);
}

/*
 * Restriction: the variable side against a constant, or against an expression of other relations (a
 * parameterized scan's outer value): then the rows matching one of its values, on average over its boxes.
 */
Selectivity
gx_restriction_selectivity(PlannerInfo *root, List *args, int varRelid)
{
	VariableStatData vardata,
				otherdata;
	Node	   *other;
	bool		varonleft;
	ColumnBoxes col,
				oc;
	double		sel = GX_DEFAULT_RESTRICT_SEL;

	if (!get_restriction_variable(root, args, varRelid, &vardata, &other, &varonleft))
		return sel;
	if (IsA(other, Const) && ((Const *) other)->constisnull)
		sel = 0;
	else if (column_boxes(&vardata, &col))
	{
		if (IsA(other, Const))
			sel = constant_selectivity(&col, (Const *) other);
		else
		{
			examine_variable(root, other, 0, &otherdata);
			if (column_boxes(&otherdata, &oc))
			{
				sel = col.frac * gx_boxstats_overlap(&col.s, &oc.s);
				pfree(oc.encoded);
			}
			ReleaseVariableStats(otherdata);
		}
		pfree(col.encoded);
	}
	ReleaseVariableStats(vardata);
	return sel >= 0 && sel <= 1 ? sel : GX_DEFAULT_RESTRICT_SEL;
}

/* 1 - (1 - q)^n: the chance that at least one of n rows, each matching with probability q, matches. */
static double
any_of(double q, double n)
{
	return -expm1(n * log1p(-q));
}

/*
 * Join: the fraction of pairs whose boxes overlap. For a semi or anti join, the fraction of outer rows
 * that have at least one partner among the inner rows (the anti join keeps the others; PostgreSQL asks
 * both the same way).
 */
Selectivity
gx_join_selectivity(PlannerInfo *root, List *args, JoinType jointype, SpecialJoinInfo *sjinfo)
{
	VariableStatData v1,
				v2;
	bool		reversed;
	ColumnBoxes c1,
				c2;
	bool		have1,
				have2;
	double		p = -1,			/* overlap of two boxes */
				outer_frac = 1,
				inner_frac = 1,
				sel;

	get_join_variables(root, args, sjinfo, &v1, &v2, &reversed);
	have1 = column_boxes(&v1, &c1);
	have2 = column_boxes(&v2, &c2);
	if (have1 && have2)
	{
		p = gx_boxstats_overlap(&c1.s, &c2.s);
		outer_frac = reversed ? c2.frac : c1.frac;
		inner_frac = reversed ? c1.frac : c2.frac;
	}
	if (!(p >= 0 && p <= 1))
	{
		p = GX_DEFAULT_JOIN_SEL;
		outer_frac = inner_frac = 1;
	}
	if (jointype == JOIN_SEMI || jointype == JOIN_ANTI)
	{
		RelOptInfo *inner = reversed ? v1.rel : v2.rel;

		sel = outer_frac * (inner ? any_of(inner_frac * p, inner->rows) : inner_frac * p);
	}
	else
		sel = outer_frac * inner_frac * p;
	if (have1)
		pfree(c1.encoded);
	if (have2)
		pfree(c2.encoded);
	ReleaseVariableStats(v1);
	ReleaseVariableStats(v2);
	return Min(Max(sel, 0), 1);
}

/* RESTRICT estimator of the box operators: (planner info, operator, arguments, varRelid). */
Datum
gx_box3d_sel(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(gx_restriction_selectivity((PlannerInfo *) PG_GETARG_POINTER(0), (List *) PG_GETARG_POINTER(2),
												PG_GETARG_INT32(3)));
}

/* JOIN estimator of the box operators: (planner info, operator, arguments, join type, join info). */
Datum
gx_box3d_joinsel(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(gx_join_selectivity((PlannerInfo *) PG_GETARG_POINTER(0), (List *) PG_GETARG_POINTER(2),
										 (JoinType) PG_GETARG_INT16(3), (SpecialJoinInfo *) PG_GETARG_POINTER(4)));
}

double
gx_expr_elements(PlannerInfo *root, Node *expr)
{
	VariableStatData vardata;
	AttStatsSlot sslot;
	double		elements = -1;
	GxBox3D		box;

	if (IsA(expr, Const))
	{
		Const	   *c = (Const *) expr;

		if (c->constisnull)
			return 0;
		if (c->constlen == (int16) sizeof(GxBox3D))
			return 1;
		(void) gx_datum_get_head(c->constvalue, &box, &elements);
		return elements;
	}
	examine_variable(root, expr, 0, &vardata);
	if (HeapTupleIsValid(vardata.statsTuple) &&
		get_attstatsslot(&sslot, vardata.statsTuple, GX_STATISTIC_KIND_ELEMENTS, InvalidOid, ATTSTATSSLOT_VALUES))
	{
		if (sslot.valuetype == FLOAT8OID && sslot.nvalues == 1)
			elements = DatumGetFloat8(sslot.values[0]);
		free_attstatsslot(&sslot);
	}
	ReleaseVariableStats(vardata);
	return elements;
}
