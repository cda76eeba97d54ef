/* gx_pair_ids.c: the pair functions' id columns, integer or of any type (gx_pair_ids.h). */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "functions/gx_pair_ids.h"

static bool
is_integer(Oid type)
{
	return type == INT8OID || type == INT4OID || type == INT2OID;
}

Oid
gx_pair_ids_result_type(FunctionCallInfo fcinfo)
{
	return TupleDescAttr(((ReturnSetInfo *) fcinfo->resultinfo)->setDesc, 0)->atttypid;
}

void
gx_pair_ids_begin(GxPairIds *ids, Oid source, Oid want, const char *fname, const char *which, MemoryContext keep)
{
	memset(ids, 0, sizeof(*ids));
	if (want == INT8OID && !is_integer(source))
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
						errmsg("%s: %s's first column must be an integer id, not %s", fname, which,
							   format_type_be(source)),
						errhint("For ids of another type, give their type as the last argument, e.g. NULL::%s.",
								format_type_be(source))));
	ids->source = source;
	ids->convert = want != INT8OID || !is_integer(source);
	if (ids->convert)
	{
		Oid			in;

		getTypeInputInfo(want, &in, &ids->in_param);
		fmgr_info_cxt(in, &ids->in, keep);
	}
}

int64
gx_pair_ids_add(GxPairIds *ids, Datum id, size_t row, MemoryContext keep)
{
	Oid			out;
	bool		varlena;
	MemoryContext old;

	if (is_integer(ids->source))
		return ids->source == INT8OID ? DatumGetInt64(id) : ids->source == INT4OID ? DatumGetInt32(id) :
			DatumGetInt16(id);
	old = MemoryContextSwitchTo(keep);
	if (row >= ids->cap)
	{
		ids->cap = Max(1024, 2 * (row + 1));
		ids->text = ids->text ? repalloc_huge(ids->text, ids->cap * sizeof(char *)) :
			palloc_extended(ids->cap * sizeof(char *), MCXT_ALLOC_HUGE);
	}
	getTypeOutputInfo(ids->source, &out, &varlena);
	ids->text[row] = OidOutputFunctionCall(out, id);
	MemoryContextSwitchTo(old);
	return (int64) row;
}

void
gx_pair_ids_restart(GxPairIds *ids)
{
	ids->text = NULL;
	ids->cap = 0;
}

char *
gx_pair_ids_text(const GxPairIds *ids, int64 kept)
{
	return ids->text ? ids->text[kept] : psprintf(INT64_FORMAT, kept);
}

Datum
gx_pair_ids_datum(const GxPairIds *ids, int64 kept)
{
	if (!ids->convert)
		return Int64GetDatum(kept);
	return InputFunctionCall((FmgrInfo *) &ids->in, gx_pair_ids_text(ids, kept), ids->in_param, -1);
}
