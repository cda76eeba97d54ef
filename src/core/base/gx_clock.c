/* gx_clock.c: a monotonic clock in milliseconds, for the phase times the engines report. */
#include <time.h>

#include "base/gx_clock.h"

double
gx_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
