/* gx_test_files.h: reading a whole file, for the unit tests of the readers. */
#ifndef GX_TEST_FILES_H
#define GX_TEST_FILES_H

#include <stdio.h>

#include "base/gx_alloc.h"

/* A whole file, gx_alloc'd and NUL-terminated (*len bytes before the NUL); NULL if it cannot be read whole. */
static inline char *
gx_test_read_file(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	long		n;
	char	   *data = NULL;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
		(data = gx_alloc((size_t) n + 1)) != NULL)
	{
		*len = fread(data, 1, (size_t) n, f);
		if (*len != (size_t) n)
		{
			gx_free(data);
			data = NULL;
		}
		else
			data[n] = '\0';
	}
	fclose(f);
	return data;
}

#endif
