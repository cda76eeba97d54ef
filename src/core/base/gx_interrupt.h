/*
 * gx_interrupt.h: how long loops of the core library learn that they must stop. Single-threaded loops
 * call a hook (PostgreSQL installs CHECK_FOR_INTERRUPTS); parallel loops and the GPU engine, which must
 * not longjmp, poll flags instead (PostgreSQL: query cancel and backend termination).
 */
#ifndef GX_INTERRUPT_H
#define GX_INTERRUPT_H

#include <stdbool.h>

/* NULL by default; PostgreSQL installs CHECK_FOR_INTERRUPTS, which may longjmp out of the core. */
extern void (*gx_check_interrupts) (void);

#define GX_INTERRUPT_EVERY 4096	/* elements processed between two calls */

static inline void
gx_maybe_interrupt(unsigned long i)
{
	if (gx_check_interrupts && (i % GX_INTERRUPT_EVERY) == 0)
		gx_check_interrupts();
}

/* Flags set asynchronously by the caller (signal handlers); a non-zero one stops the work. Read-only here. */
typedef struct GxCancel
{
	volatile const int *flag[2];
} GxCancel;

static inline bool
gx_cancel_requested(const GxCancel *c)
{
	return c != NULL && ((c->flag[0] && *c->flag[0]) || (c->flag[1] && *c->flag[1]));
}

/*
 * The process's own flags, which the parallel loops that prepare sides (flattening geometries, indexing
 * solids and grids) poll: PostgreSQL sets query cancel and termination; none by default (the GPU service's
 * jobs carry their own).
 */
extern GxCancel gx_cancel_flags;

#endif
