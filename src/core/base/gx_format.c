/* gx_format.c: doubles as the shortest decimal that reads back to the same value (text output, messages). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_format.h"

int
gx_format_double(double d, char *buf)
{
	int			prec;
	int			n = 0;
	char	   *e;
	char	   *digits;

	/*
	 * A normal double whose shortest form has at most DBL_DIG digits is printed in that form by %.*g at
	 * DBL_DIG (it rounds to it, and %g drops trailing zeros); subnormals have fewer significant bits, so
	 * for them every precision is tried.
	 */
	for (prec = fpclassify(d) == FP_SUBNORMAL ? 1 : DBL_DIG; prec <= 17; prec++)
	{
		n = snprintf(buf, 32, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	/* Exponent without leading zeros: "1e-05" -> "1e-5". */
	e = strchr(buf, 'e');
	if (e != NULL)
	{
		digits = e + 2;
		e = digits;
		while (*e == '0' && e[1] != '\0')
			e++;
		memmove(digits, e, strlen(e) + 1);
		n -= (int) (e - digits);
	}
	return n;
}
