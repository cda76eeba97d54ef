/* gx_error.c: formatting of core-library errors. */
#include <stdarg.h>
#include <stdio.h>

#include "base/gx_error.h"

void
gx_error_set(GxError *err, GxErrorCode code, const char *fmt,...)
{
	va_list		ap;

	if (err == NULL || err->code != GX_OK)
		return;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}
