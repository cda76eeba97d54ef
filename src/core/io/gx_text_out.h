/*
 * gx_text_out.h: the growing output buffer the text writers share (WKT, GeoJSON, STL, OBJ, the JSON of glTF):
 * appends that stop at the first failure, so a writer checks once at the end.
 */
#ifndef GX_TEXT_OUT_H
#define GX_TEXT_OUT_H

#include <stddef.h>

#include "base/gx_error.h"

typedef enum GxTextFailure
{
	GX_TEXT_OK = 0,
	GX_TEXT_NO_MEMORY,
	GX_TEXT_TOO_LONG			/* longer than max */
} GxTextFailure;

/*
 * A growing, NUL-terminated output string (bytes: binary writers may use it too). Start from all zeros;
 * counting set only measures the length; max, when not 0, is the longest output allowed.
 */
typedef struct GxTextOut
{
	char	   *data;
	size_t		len;
	size_t		cap;
	size_t		max;
	GxTextFailure failed;
	int			counting;
} GxTextOut;

void		gx_text_put(GxTextOut *t, const char *s, size_t n);
void		gx_text_put_str(GxTextOut *t, const char *s);

/* The shortest decimal that reads back to the same double (gx_format_double). */
void		gx_text_put_double(GxTextOut *t, double d);

void		gx_text_printf(GxTextOut *t, const char *fmt,...) __attribute__((format(printf, 2, 3)));

/*
 * The text (gx_alloc'd, "" when nothing was put) with its length in *len (len may be NULL), or NULL after
 * a failure, the buffer freed and, when err is not NULL, err set: GX_ERR_NOMEM, or GX_ERR_LIMIT naming the
 * output by what ("the STL text").
 */
char	   *gx_text_finish(GxTextOut *t, size_t *len, GxError *err, const char *what);

#endif
