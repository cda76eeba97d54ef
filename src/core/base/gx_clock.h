/* gx_clock.h: a monotonic clock in milliseconds, for the phase times the engines report. */
#ifndef GX_CLOCK_H
#define GX_CLOCK_H

/* Milliseconds on a monotonic clock. */
double		gx_now_ms(void);

#endif
