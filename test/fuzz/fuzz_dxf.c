/*
 * fuzz_dxf.c: libFuzzer harness of the DXF reader: any input must be read as the shape fuzz_parts.h checks,
 * or refused with an error.
 */
#include <stdint.h>

#include "fuzz_parts.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t		gsize = 0;
	GxError		err;
	GxSerialized *g = gx_from_dxf((const char *) data, size, &gsize, &err);

	fuzz_check_parts(g, gsize, &err);
	return 0;
}
