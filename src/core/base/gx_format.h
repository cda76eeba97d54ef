/* gx_format.h: doubles as the shortest decimal that reads back to the same value (text output, messages). */
#ifndef GX_FORMAT_H
#define GX_FORMAT_H

/* Writes the shortest decimal that reads back (strtod) to the same double; returns its length. buf >= 32. */
int			gx_format_double(double d, char *buf);

#endif
