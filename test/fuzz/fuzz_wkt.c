/*
 * fuzz_wkt.c: libFuzzer harness of the WKT/EWKT reader (and, through it, of hex EWKB): any input must be
 * read or refused with an error, and what is read must print as WKT that reads back to the same bytes.
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
	char	   *text = gx_alloc(size + 1);
	char	   *out;
	size_t		gsize;
	size_t		size2;
	size_t		len;
	GxError		err;
	GxSerialized *g;
	GxSerialized *back;

	memcpy(text, data, size);
	text[size] = '\0';
	g = gx_from_wkt(text, &gsize, &err);
	if (g == NULL && err.code == GX_OK)
		abort();
	if (g != NULL)
	{
		out = gx_to_wkt(g, 1, &len);
		back = gx_from_wkt(out, &size2, &err);
		if (back == NULL || size2 != gsize || memcmp(back, g, gsize) != 0)
			abort();
		gx_free(back);
		gx_free(out);
		gx_free(g);
	}
	gx_free(text);
	return 0;
}
