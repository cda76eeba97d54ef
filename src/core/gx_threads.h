/* gx_threads.h: how many worker threads the engine may use: bounded by the cores, and by what can be started. */
#ifndef GX_THREADS_H
#define GX_THREADS_H

/* Number of online cores. */
int			gx_threads_cores(void);

/*
 * Threads for a parallel run asked to use `wanted` (0 = one per core): at most the cores, and no more
 * than can actually be started now (OpenMP's runtime exits the process when it cannot start a thread,
 * so the count is tried first with plain threads of the same stack size). Sets OpenMP's thread count.
 */
int			gx_threads_usable(int wanted);

#endif
