/*
 * fuzz_stl.c: libFuzzer harness of the STL reader: any input must be read as a TIN of the size its
 * triangle count implies, or refused with an error.
 */
#include <stdint.h>
#include <stdlib.h>

#include "base/gx_alloc.h"
#include "io/gx_io.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t		gsize;
	GxError		err;
	GxSerialized *g = gx_from_stl(data, size, &gsize, &err);
	const GxNode *tin;

	if (g == NULL && err.code == GX_OK)
		abort();
	if (g != NULL)
	{
		tin = gx_body(g);
		if (err.code != GX_OK || tin->type != GX_TIN ||
			gsize != sizeof(GxSerialized) + sizeof(GxNode) + 9 * sizeof(double) * tin->count ||
			((g->flags & GX_FLAG_EMPTY) != 0) != (tin->count == 0))
			abort();
		gx_free(g);
	}
	return 0;
}
