/*
 * test_fuzz_regressions.c: replays every file of a directory (argv[1], test/fuzz/regressions) through the
 * WKT, WKB, STL, OBJ and DXF fuzz harnesses, compiled in under other names: each input must be read or
 * refused without a crash, and what is read must round-trip to identical bytes (the harnesses abort otherwise).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "gx_test.h"

#define LLVMFuzzerTestOneInput fuzz_wkt_one
#include "../fuzz/fuzz_wkt.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_wkb_one
#include "../fuzz/fuzz_wkb.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_stl_one
#include "../fuzz/fuzz_stl.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_obj_one
#include "../fuzz/fuzz_obj.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_dxf_one
#include "../fuzz/fuzz_dxf.c"
#undef LLVMFuzzerTestOneInput

/* Reads a whole file into a gx_alloc'd buffer; NULL if it cannot be read. */
static unsigned char *
read_file(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t		cap = 0;
	size_t		n = 0;
	size_t		got;

	if (f == NULL)
		return NULL;
	do
	{
		if (n == cap)
		{
			cap = cap ? 2 * cap : 4096;
			data = data ? gx_realloc(data, cap) : gx_alloc(cap);
		}
		got = fread(data + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	if (ferror(f))
	{
		gx_free(data);
		data = NULL;
	}
	fclose(f);
	*len = n;
	return data;
}

int
main(int argc, char **argv)
{
	DIR		   *dir;
	struct dirent *e;
	char		path[4096];
	unsigned char *data;
	size_t		len;
	long		files = 0;

	CHECK_MSG(argc == 2, "usage: %s DIRECTORY", argv[0]);
	dir = argc == 2 ? opendir(argv[1]) : NULL;
	CHECK_MSG(dir != NULL, "cannot open directory %s", argc == 2 ? argv[1] : "");
	while (dir != NULL && (e = readdir(dir)) != NULL)
	{
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[1], e->d_name);
		data = read_file(path, &len);
		CHECK_MSG(data != NULL, "cannot read %s", path);
		if (data == NULL)
			continue;
		CHECK(fuzz_wkt_one(data, len) == 0);
		CHECK(fuzz_wkb_one(data, len) == 0);
		CHECK(fuzz_stl_one(data, len) == 0);
		CHECK(fuzz_obj_one(data, len) == 0);
		CHECK(fuzz_dxf_one(data, len) == 0);
		gx_free(data);
		files++;
	}
	if (dir != NULL)
		closedir(dir);
	CHECK_MSG(files > 0, "no regression inputs in %s", argc == 2 ? argv[1] : "");
	return gx_test_report("test_fuzz_regressions");
}
