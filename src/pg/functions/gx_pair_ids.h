/*
 * gx_pair_ids.h: the id column of the pair functions' queries. Integer ids (smallint, integer, bigint) come
 * back as bigint; in the variants given an id type (NULL::text, ...), the result's id columns have that type
 * and each query's ids, of any type, are converted to it through their text form.
 */
#ifndef GX_PAIR_IDS_H
#define GX_PAIR_IDS_H

#include "postgres.h"
#include "fmgr.h"

typedef struct GxPairIds
{
	char	  **text;			/* the ids' text forms by row, for ids that are not integers; else NULL */
	size_t		cap;
	Oid			source;			/* the query's id type */
	bool		convert;		/* to the result's id type, through text */
	FmgrInfo	in;				/* that type's input function */
	Oid			in_param;
} GxPairIds;

/* The type the function returns ids as: its first result column's (after InitMaterializedSRF). */
Oid			gx_pair_ids_result_type(FunctionCallInfo fcinfo);

/*
 * Starts the ids of a query whose id column is of type source, for a result id type want (an ERROR, with a
 * hint, for ids that are not integers when want is bigint). fname and which name the function and query.
 */
void		gx_pair_ids_begin(GxPairIds *ids, Oid source, Oid want, const char *fname, const char *which,
							  MemoryContext keep);

/* The int64 to keep for the id of row `row` (not NULL): the integer itself, or the row (its text kept). */
int64		gx_pair_ids_add(GxPairIds *ids, Datum id, size_t row, MemoryContext keep);

/*
 * Forgets the rows' text forms, for rows numbered from 0 again (a query read a chunk at a time): their memory
 * goes with the context given to gx_pair_ids_add.
 */
void		gx_pair_ids_restart(GxPairIds *ids);

/* A kept id as the result's id type, and as text (for messages). */
Datum		gx_pair_ids_datum(const GxPairIds *ids, int64 kept);
char	   *gx_pair_ids_text(const GxPairIds *ids, int64 kept);

#endif
