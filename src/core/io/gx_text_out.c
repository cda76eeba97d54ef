/* gx_text_out.c: the growing output buffer the text writers share (gx_text_out.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "base/gx_format.h"
#include "io/gx_text_out.h"

/* Makes room for n more bytes and the NUL; false (once failed, always) when they cannot be written. */
static int
reserve(GxTextOut *t, size_t n)
{
	size_t		cap;
	char	   *data;

	if (t->failed)
		return 0;
	if (t->max != 0 && n > t->max - t->len)
	{
		t->failed = GX_TEXT_TOO_LONG;
		return 0;
	}
	if (t->len + n + 1 <= t->cap)
		return 1;
	cap = t->cap ? t->cap : 256;
	while (cap < t->len + n + 1)
		cap *= 2;
	data = t->data ? gx_realloc(t->data, cap) : gx_alloc(cap);
	if (data == NULL)
	{
		t->failed = GX_TEXT_NO_MEMORY;
		return 0;
	}
	t->data = data;
	t->cap = cap;
	return 1;
}

void
gx_text_put(GxTextOut *t, const char *s, size_t n)
{
	if (t->counting)
	{
		t->len += n;
		return;
	}
	if (!reserve(t, n))
		return;
	memcpy(t->data + t->len, s, n);
	t->len += n;
	t->data[t->len] = '\0';
}

void
gx_text_put_str(GxTextOut *t, const char *s)
{
	gx_text_put(t, s, strlen(s));
}

void
gx_text_put_double(GxTextOut *t, double d)
{
	char		num[32];

	gx_text_put(t, num, (size_t) gx_format_double(d, num));
}

void
gx_text_printf(GxTextOut *t, const char *fmt,...)
{
	va_list		ap;
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)					/* an encoding error, which the writers' formats (numbers, ASCII) cannot have */
		return;
	if (t->counting)
	{
		t->len += (size_t) n;
		return;
	}
	if (!reserve(t, (size_t) n))
		return;
	va_start(ap, fmt);
	vsnprintf(t->data + t->len, (size_t) n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t) n;
}

char *
gx_text_finish(GxTextOut *t, size_t *len, GxError *err, const char *what)
{
	gx_text_put(t, "", 0);		/* allocates the "" of an output that got nothing */
	if (t->failed)
	{
		if (err != NULL && t->failed == GX_TEXT_TOO_LONG)
			gx_error_set(err, GX_ERR_LIMIT, "%s is longer than the limit of %zu bytes", what, t->max);
		else if (err != NULL)
			gx_error_set(err, GX_ERR_NOMEM, "out of memory writing %s", what);
		gx_free(t->data);
		t->data = NULL;
		return NULL;
	}
	if (len)
		*len = t->len;
	return t->data;
}
