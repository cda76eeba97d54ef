/* gx_test.h: a minimal harness for the core library's unit tests (no PostgreSQL). */
#ifndef GX_TEST_H
#define GX_TEST_H

#include <stdio.h>

static long gx_test_passed, gx_test_failed, gx_test_skipped;

/* One assertion = one counted check; failures print where and why. */
#define CHECK(cond) \
	do { \
		if (cond) gx_test_passed++; \
		else { gx_test_failed++; fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } \
	} while (0)

#define CHECK_MSG(cond, ...) \
	do { \
		if (cond) gx_test_passed++; \
		else { gx_test_failed++; fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
			   fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
	} while (0)

/* A group of checks that cannot run here: one "SKIPPED:" line, which test.sh counts as a skipped test. */
static inline void
gx_test_skip(const char *group, const char *why)
{
	gx_test_skipped++;
	printf("SKIPPED: %s: %s\n", group, why);
}

/* Prints the program's tally, and returns the exit status. */
static inline int
gx_test_report(const char *name)
{
	printf("%s: %ld passed, %ld failed, %ld skipped\n", name, gx_test_passed, gx_test_failed, gx_test_skipped);
	return gx_test_failed ? 1 : 0;
}

#endif
