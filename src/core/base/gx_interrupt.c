/* gx_interrupt.c: the interrupt hook's storage. */
#include <stddef.h>

#include "base/gx_interrupt.h"

void		(*gx_check_interrupts) (void) = NULL;
GxCancel	gx_cancel_flags = {{NULL, NULL}};
