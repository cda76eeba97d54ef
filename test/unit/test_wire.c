/*
 * test_wire.c: shared segments (gx_wire.h) of one memfd or several: made with every page allocated, mapped
 * again from their descriptors with the same bytes at the same offsets; a size whose pieces do not match
 * is refused.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gx_test.h"
#include "wire/gx_wire.h"

/* Whether this kernel allocates pages ahead (MADV_POPULATE_WRITE, Linux 5.14): else nothing to count. */
static bool
kernel_populates(void)
{
	char	   *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bool		yes = p != MAP_FAILED && madvise(p, 4096, MADV_POPULATE_WRITE) == 0;

	if (p != MAP_FAILED)
		munmap(p, 4096);
	return yes;
}

/* Pages of the segment not allocated yet (mincore; none where the kernel cannot allocate them ahead). */
static size_t
pages_missing(char *seg, size_t size)
{
	size_t		pages = (size + 4095) / 4096,
				missing = 0;
	unsigned char *vec;

	if (!kernel_populates())
		return 0;
	vec = malloc(pages);
	if (vec == NULL || mincore(seg, size, vec) != 0)
	{
		free(vec);
		return pages;
	}
	for (size_t i = 0; i < pages; i++)
		missing += !(vec[i] & 1);
	free(vec);
	return missing;
}

/* Writes a pattern over the segment, maps it again from its descriptors, and checks the bytes. */
static void
check_round_trip(char *seg, size_t size, GxWireFds *fds, const char *what)
{
	char	   *again;
	size_t		bad = 0;

	for (size_t i = 0; i < size; i += 4096)
		seg[i] = (char) (i / 4096 * 31 + 7);
	if ((size - 1) % 4096 != 0)
		seg[size - 1] = 42;
	again = gx_wire_segment_map(fds, size, false);
	CHECK_MSG(again != NULL, "%s: not mapped again", what);
	if (again == NULL)
		return;
	for (size_t i = 0; i < size; i += 4096)
		bad += again[i] != (char) (i / 4096 * 31 + 7);
	CHECK_MSG(bad == 0 && ((size - 1) % 4096 == 0 || again[size - 1] == 42), "%s: %zu pages differ", what, bad);
	munmap(again, size);
	/* one page more is a segment of other pieces */
	if (fds->n > 1)
		CHECK_MSG(gx_wire_segment_map(fds, size + 4096 * (size_t) fds->n, false) == NULL, "%s: another size mapped", what);
}

static void
test_segments(void)
{
	const size_t sizes[] = {1, 4096, 5 << 20, ((size_t) 130 << 20) + 12345, (size_t) 300 << 20};

	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++)
	{
		size_t		size = sizes[z];
		GxWireFds	fds;
		char	   *seg = gx_wire_segment_create(size, &fds);
		char		what[64];

		snprintf(what, sizeof(what), "%zu bytes", size);
		CHECK_MSG(seg != NULL, "%s: failed", what);
		if (seg)
		{
			CHECK_MSG(pages_missing(seg, size) == 0, "%s: %zu pages not allocated", what, pages_missing(seg, size));
			check_round_trip(seg, size, &fds, what);
			munmap(seg, size);
			gx_wire_fds_close(&fds);
		}
	}
}

int
main(void)
{
	test_segments();
	return gx_test_report("test_wire");
}
