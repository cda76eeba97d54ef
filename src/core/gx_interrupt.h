/* gx_interrupt.h: a hook that long loops of the core library call now and then (query cancel in PostgreSQL). */
#ifndef GX_INTERRUPT_H
#define GX_INTERRUPT_H

/* NULL by default; PostgreSQL installs CHECK_FOR_INTERRUPTS, which may longjmp out of the core. */
extern void (*gx_check_interrupts) (void);

#define GX_INTERRUPT_EVERY 4096	/* elements processed between two calls */

static inline void
gx_maybe_interrupt(unsigned long i)
{
	if (gx_check_interrupts && (i % GX_INTERRUPT_EVERY) == 0)
		gx_check_interrupts();
}

#endif
