/* gx_stl_read.c: reads STL meshes, binary or ASCII, into a serialized TIN (facet normals checked, then ignored). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "io/gx_io.h"
#include "io/gx_io_internal.h"

#define STL_HEADER			80		/* binary: free-form header bytes */
#define STL_PREFIX			84		/* binary: header + uint32 facet count */
#define STL_FACET			50		/* binary: normal, 3 vertices (12 float32), uint16 attribute */
#define STL_MAX_FACETS		((uint32_t) 1 << 26)
#define TRIANGLE_BYTES		(9 * sizeof(double))

typedef struct StlReader
{
	const unsigned char *data;
	size_t		len;
	size_t		pos;			/* ASCII: next byte to read */
	size_t		line;			/* ASCII: 1-based line of pos */
	uint32_t	facets;			/* facets begun so far: the current one's 1-based number */
	GxBuilder	b;
	GxError    *err;
} StlReader;

static int
ok(const StlReader *r)
{
	return r->err->code == GX_OK;
}

/*
 * A file is ASCII when it starts with "solid" (after optional whitespace) and has no NUL byte in its
 * first 84 bytes; anything else is binary. ASCII never holds a NUL (the ASCII reader refuses one
 * anywhere), while a binary file's facet count below 2^24 puts one at byte 83, even after a "solid" header.
 */
static int
is_binary(const unsigned char *data, size_t len, size_t start)
{
	return len - start < 5 || !gx_io_word_is((const char *) data + start, 5, "solid") ||
		memchr(data, 0, len < STL_PREFIX ? len : STL_PREFIX) != NULL;
}

static uint32_t
le32(const unsigned char *s)
{
	return (uint32_t) s[0] | (uint32_t) s[1] << 8 | (uint32_t) s[2] << 16 | (uint32_t) s[3] << 24;
}

/* Reads 3 little-endian float32 at s into v (exactly); 0 if one is NaN or infinite. */
static int
read_floats(const unsigned char *s, double v[3])
{
	float		f;
	uint32_t	bits;
	int			i;

	for (i = 0; i < 3; i++)
	{
		bits = le32(s + 4 * i);
		memcpy(&f, &bits, sizeof(f));
		v[i] = (double) f;
	}
	return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* Reads binary facet i (0-based): its normal is checked, its 3 vertices added. */
static void
read_binary_facet(StlReader *r, uint32_t i)
{
	size_t		at = STL_PREFIX + (size_t) i * STL_FACET;
	double		v[3];
	int			k;

	for (k = 0; k < 4 && ok(r); k++, at += 12)
	{
		if (!read_floats(r->data + at, v))
			gx_io_error_offset(r->err, GX_ERR_PARSE, at, k == 0 ? "facet %u: NaN or infinite number in the normal" :
							   "facet %u: NaN or infinite number in vertex %d", (unsigned) i + 1, k);
		else if (k > 0)
			gx_builder_coord(&r->b, v[0], v[1], v[2]);
	}
}

static void
read_binary(StlReader *r)
{
	uint32_t	count;
	unsigned long long need;	/* bytes the declared facet count takes */
	uint32_t	i;
	size_t		node;

	if (r->len < STL_PREFIX)
	{
		gx_error_set(r->err, GX_ERR_PARSE, "binary STL too short: %zu bytes, less than its %d-byte header and facet count",
					 r->len, STL_PREFIX);
		return;
	}
	count = le32(r->data + STL_HEADER);
	need = (unsigned long long) STL_PREFIX + (unsigned long long) STL_FACET * count;
	if (r->len < need)
	{
		gx_error_set(r->err, GX_ERR_PARSE, "binary STL truncated: its %u declared facets need %llu bytes, the file has %zu",
					 (unsigned) count, need, r->len);
		return;
	}
	if (r->len > need)
	{
		gx_error_set(r->err, GX_ERR_PARSE,
					 "binary STL has %llu trailing bytes after its %u declared facets (%llu bytes expected, the file has %zu)",
					 (unsigned long long) r->len - need, (unsigned) count, need, r->len);
		return;
	}
	if (count > STL_MAX_FACETS)
	{
		gx_error_set(r->err, GX_ERR_LIMIT, "binary STL has %u facets, more than the limit of %u",
					 (unsigned) count, (unsigned) STL_MAX_FACETS);
		return;
	}
	node = gx_builder_begin(&r->b, GX_TIN);
	gx_builder_reserve(&r->b, TRIANGLE_BYTES * count);
	for (i = 0; i < count && ok(r); i++)
		read_binary_facet(r, i);
	gx_builder_end(&r->b, node, count);
}

/*
 * ASCII: errors name the 1-based line and quote up to 16 bytes there (printable ASCII only, since the
 * input is arbitrary bytes), as the WKT reader does with positions.
 */
static void
__attribute__((format(printf, 3, 4)))
ascii_error(StlReader *r, GxErrorCode code, const char *fmt,...)
{
	va_list		ap;
	const char *at = (const char *) r->data + r->pos;
	size_t		left = r->len - r->pos;

	va_start(ap, fmt);
	gx_io_verror_near(r->err, code, "line", r->line, left == 0, at, gx_io_snippet_len(at, left), fmt, ap);
	va_end(ap);
}

static void
skip_space(StlReader *r)
{
	for (; r->pos < r->len && gx_io_is_space(r->data[r->pos]); r->pos++)
		r->line += (size_t) gx_io_line_end(r->data, r->len, r->pos);
}

/* Skips a solid's name: the rest of the line, which stops at a NUL too (refused by what follows). */
static void
skip_name(StlReader *r)
{
	while (r->pos < r->len && !gx_io_line_end(r->data, r->len, r->pos) && r->data[r->pos] != '\0')
		r->pos++;
}

/* Skips whitespace; returns the length of the token (a run of non-whitespace bytes) that follows. */
static size_t
next_token(StlReader *r)
{
	size_t		n = 0;

	skip_space(r);
	while (r->pos + n < r->len && !gx_io_is_space(r->data[r->pos + n]))
		n++;
	return n;
}

/* Consumes the keyword kw (lower case, matched ignoring case) if it is the next token. */
static int
take_keyword(StlReader *r, const char *kw)
{
	size_t		n = next_token(r);

	if (!gx_io_word_is((const char *) r->data + r->pos, n, kw))
		return 0;
	r->pos += n;
	return 1;
}

static int
expect_keyword(StlReader *r, const char *kw)
{
	if (take_keyword(r, kw))
		return 1;
	ascii_error(r, GX_ERR_PARSE, "facet %u: expected \"%s\"", (unsigned) r->facets, kw);
	return 0;
}

/* Reads one decimal number of the normal or a vertex ("what") of the current facet. */
static int
read_number(StlReader *r, const char *what, double *v)
{
	size_t		n = next_token(r);
	GxNumberStatus status = gx_io_parse_number((const char *) r->data + r->pos, n, v);

	switch (status)
	{
		case GX_NUMBER_TOO_LONG:
			ascii_error(r, GX_ERR_PARSE, "facet %u: number longer than %d characters in %s",
						(unsigned) r->facets, GX_IO_NUMBER_MAX, what);
			break;
		case GX_NUMBER_NOT_FINITE:
		case GX_NUMBER_OUT_OF_RANGE:
		case GX_NUMBER_UNDERFLOW:
			ascii_error(r, GX_ERR_PARSE, "facet %u: %s in %s", (unsigned) r->facets, gx_io_number_problem(status),
						what);
			break;
		case GX_NUMBER_INVALID:
			ascii_error(r, GX_ERR_PARSE, "facet %u: expected a number for %s", (unsigned) r->facets, what);
			break;
		case GX_NUMBER_OK:
			r->pos += n;
			break;
	}
	return ok(r);
}

static int
read_triple(StlReader *r, const char *what, double v[3])
{
	return read_number(r, what, &v[0]) && read_number(r, what, &v[1]) && read_number(r, what, &v[2]);
}

/* Reads the rest of a facet once "facet" is consumed, and adds its triangle. */
static void
read_facet(StlReader *r)
{
	double		v[3][3];
	double		scratch[3];		/* the normal, and vertices past the third */
	size_t		n = 0;
	char		what[32];

	if (r->facets == STL_MAX_FACETS)
	{
		ascii_error(r, GX_ERR_LIMIT, "more than %u facets", (unsigned) STL_MAX_FACETS);
		return;
	}
	r->facets++;
	if (!expect_keyword(r, "normal") || !read_triple(r, "the normal", scratch) ||
		!expect_keyword(r, "outer") || !expect_keyword(r, "loop"))
		return;
	while (take_keyword(r, "vertex"))
	{
		snprintf(what, sizeof(what), "vertex %zu", n + 1);
		if (!read_triple(r, what, n < 3 ? v[n] : scratch))
			return;
		n++;
	}
	if (n != 3)
		ascii_error(r, GX_ERR_PARSE, "facet %u has %zu vertices; STL facets are triangles", (unsigned) r->facets, n);
	else if (expect_keyword(r, "endloop") && expect_keyword(r, "endfacet"))
		for (n = 0; n < 3; n++)
			gx_builder_coord(&r->b, v[n][0], v[n][1], v[n][2]);
}

/* "solid [name]", facets, "endsolid [name]", then nothing but whitespace. */
static void
read_ascii(StlReader *r)
{
	size_t		node;

	if (!take_keyword(r, "solid"))
	{
		ascii_error(r, GX_ERR_PARSE, "expected \"solid\"");
		return;
	}
	skip_name(r);
	node = gx_builder_begin(&r->b, GX_TIN);
	while (ok(r) && take_keyword(r, "facet"))
		read_facet(r);
	if (ok(r) && !take_keyword(r, "endsolid"))
		ascii_error(r, GX_ERR_PARSE, r->pos == r->len ? "missing endsolid after %u facets" :
					"expected \"facet\" or \"endsolid\" after %u facets", (unsigned) r->facets);
	if (ok(r))
	{
		skip_name(r);
		skip_space(r);
		if (r->pos != r->len)
			ascii_error(r, GX_ERR_PARSE, "text after endsolid");
	}
	gx_builder_end(&r->b, node, r->facets);
}

GxSerialized *
gx_from_stl(const unsigned char *data, size_t len, size_t *size, GxError *err)
{
	StlReader	r;
	size_t		start = 0;

	err->code = GX_OK;
	err->msg[0] = '\0';
	memset(&r, 0, sizeof(r));
	r.data = data;
	r.len = len;
	r.line = 1;
	r.err = err;
	gx_builder_init(&r.b, err);
	while (start < len && gx_io_is_space(data[start]))
		start++;
	if (start == len)
		gx_error_set(err, GX_ERR_PARSE, "empty STL file (%zu bytes, no data)", len);
	else if (is_binary(data, len, start))
		read_binary(&r);
	else
		read_ascii(&r);
	return gx_builder_finish(&r.b, 0, size);
}
