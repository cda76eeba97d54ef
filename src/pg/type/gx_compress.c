/*
 * gx_compress.c: a value compressed into PostgreSQL's inline compressed form (gx_compress.h): the pglz
 * stream of gx_pglz.h or LZ4's block format, behind the header whose bits name the method.
 */
#include "postgres.h"

#include <lz4.h>

#include "access/heaptoast.h"
#include "access/toast_compression.h"
#include "access/toast_internals.h"

#include "io/gx_pglz.h"
#include "type/gx_compress.h"

struct varlena *
gx_pg_compress(const struct varlena *v, char method)
{
	size_t		raw = VARSIZE(v) - VARHDRSZ,
				cap,
				len;
	struct varlena *c;

	if (VARSIZE(v) <= TOAST_TUPLE_THRESHOLD || raw > VARLENA_EXTSIZE_MASK)
		return NULL;
	/* as PostgreSQL's TOAST: kept only if at least 2 bytes smaller */
	cap = raw - 2 - (VARHDRSZ_COMPRESSED - VARHDRSZ) - 1;
	if ((c = malloc(VARHDRSZ_COMPRESSED + raw)) == NULL)
		return NULL;
	if (method == TOAST_LZ4_COMPRESSION)
	{
		int			n = LZ4_compress_default(VARDATA(v), (char *) c + VARHDRSZ_COMPRESSED, (int) raw, (int) cap);

		len = n > 0 ? (size_t) n : 0;
	}
	else
		len = gx_pglz_compress((const uint8_t *) VARDATA(v), raw, (uint8_t *) c + VARHDRSZ_COMPRESSED, cap);
	if (len == 0)
	{
		free(c);
		return NULL;
	}
	SET_VARSIZE_COMPRESSED(c, VARHDRSZ_COMPRESSED + len);
	TOAST_COMPRESS_SET_SIZE_AND_COMPRESS_METHOD(c, raw, method == TOAST_LZ4_COMPRESSION ? TOAST_LZ4_COMPRESSION_ID :
												TOAST_PGLZ_COMPRESSION_ID);
	return c;
}
