/*
 * gx_threads.h: how many worker threads the engine may use: bounded by the cores, by what can be started,
 * and by a budget shared by every process of a cluster.
 */
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

/*
 * Begins a parallel run: gx_threads_usable, then, when budget_dir is given, no more threads than the
 * tokens this process could take from the budget that every process using that directory shares (one
 * token file per core, held with flock: the kernel releases a dead process's tokens). At least 1 (the
 * caller's own thread needs no token). Sets OpenMP's thread count; gx_threads_end gives the tokens back. Called
 * from within a parallel region (one thread of a run over many small inputs, even a team of one), both do
 * nothing: 1 thread. Runs do not nest otherwise: a begin gives back what an earlier run still holds.
 */
int			gx_threads_begin(int wanted, const char *budget_dir);
void		gx_threads_end(void);

/*
 * Called with the number of token files the budget keeps open in this process, whenever it changes, so
 * that a host program can count those descriptors among its own (PostgreSQL's file cache); NULL: none.
 */
extern void (*gx_threads_fds_hook) (int open_fds);

#endif
