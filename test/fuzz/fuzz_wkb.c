/*
 * fuzz_wkb.c: libFuzzer harness of the (E)WKB reader: any input must be read or refused with an error,
 * and what is read must be written as EWKB that reads back to the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *wkb;
	size_t		gsize;
	size_t		size2;
	size_t		len;
	GxError		err;
	GxSerialized *g = gx_from_wkb(data, size, &gsize, &err);
	GxSerialized *back;

	if (g == NULL && err.code == GX_OK)
		abort();
	if (g != NULL)
	{
		wkb = gx_to_wkb(g, GX_WKB_EWKB, &len);
		back = gx_from_wkb(wkb, len, &size2, &err);
		if (back == NULL || size2 != gsize || memcmp(back, g, gsize) != 0)
			abort();
		gx_free(back);
		gx_free(wkb);
		gx_free(g);
	}
	return 0;
}
