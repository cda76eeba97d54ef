/* gx_batch_options.c: the batch options' defaults. */
#include <string.h>

#include "batch/gx_batch_options.h"

void
gx_batch_options_default(GxBatchOptions *o)
{
	memset(o, 0, sizeof(*o));
	o->device = GX_DEVICE_AUTO;
	o->gpu_min_elements = 20000;
	o->float_pass = -1;
}
