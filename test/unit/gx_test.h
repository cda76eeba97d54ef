/* gx_test.h: a minimal harness for the core library's unit tests (no PostgreSQL). */
#ifndef GX_TEST_H
#define GX_TEST_H

#include <stdint.h>
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

/*
 * The tests' random numbers: Marsaglia's xorshift64 (shifts 13, 7, 17), one state per test program, so that
 * every run draws the same sequence. The state starts at GX_TEST_SEED; gx_test_seed() starts it elsewhere.
 */
#define GX_TEST_SEED UINT64_C(0x9E3779B97F4A7C15)

static uint64_t gx_test_state = GX_TEST_SEED;

/* Restarts the sequence at seed (0, where xorshift would stay, restarts it at GX_TEST_SEED). */
static inline void
gx_test_seed(uint64_t seed)
{
	gx_test_state = seed ? seed : GX_TEST_SEED;
}

/* The next 64 random bits: the generator's new state. */
static inline uint64_t
gx_test_rand(void)
{
	gx_test_state ^= gx_test_state << 13;
	gx_test_state ^= gx_test_state >> 7;
	gx_test_state ^= gx_test_state << 17;
	return gx_test_state;
}

/* 32 random bits: bits 11 to 42 of the next state. */
static inline unsigned
gx_test_rand32(void)
{
	return (unsigned) (gx_test_rand() >> 11);
}

/* In [0, n), n > 0: the next state modulo n. */
static inline unsigned
gx_test_below(unsigned n)
{
	return (unsigned) (gx_test_rand() % n);
}

/* In [lo, hi], lo <= hi: lo plus the next state modulo hi - lo + 1. */
static inline long long
gx_test_int(long long lo, long long hi)
{
	return lo + (long long) (gx_test_rand() % (uint64_t) (hi - lo + 1));
}

/* In [0, 1): the top 53 bits of the next state. */
static inline double
gx_test_uniform(void)
{
	return (double) (gx_test_rand() >> 11) * 0x1p-53;
}

#endif
