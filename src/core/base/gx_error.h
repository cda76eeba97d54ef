/* gx_error.h: error reporting of the core library (no PostgreSQL), a code and a message. */
#ifndef GX_ERROR_H
#define GX_ERROR_H

typedef enum GxErrorCode
{
	GX_OK = 0,
	GX_ERR_PARSE,		/* malformed or invalid input text/binary (bad syntax, counts, rings, NaN) */
	GX_ERR_LIMIT,		/* input too large or nested too deep */
	GX_ERR_SRID,		/* mixed SRIDs */
	GX_ERR_NOMEM,		/* allocation failed */
	GX_ERR_CANCELLED,	/* stopped by the caller's cancel flag */
	GX_ERR_DEVICE,		/* the GPU could not run the job and no CPU fallback was wanted */
	GX_ERR_INVALID,		/* a valid geometry that the operation cannot take (not a closed solid, ...) */
	GX_ERR_ARG,			/* an argument other than a geometry is invalid (e.g. a tile size) */
	GX_ERR_RANGE,		/* a result is out of the range of its type (e.g. a tile index) */
	GX_ERR_UNSUPPORTED	/* a case the operation does not decide (reported, never guessed) */
} GxErrorCode;

typedef struct GxError
{
	GxErrorCode code;
	char		msg[512];
} GxError;

/* Records the first error only: later calls keep the original message. */
void		gx_error_set(GxError *err, GxErrorCode code, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));

#endif
