/*
 * gx_html_write.c: writes geometries as one self-contained HTML page that shows them in 3D in a browser,
 * offline: the scene is gx_to_glb's file, base64 in the page, and the viewer is our own WebGL script
 * (viewer/gx_viewer.js, made a C string in gx_viewer_js.h by the Makefile), which reads it. The legend, the
 * rows' distinct labels each with its colour, is plain HTML written here.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* qsort_r */
#endif

#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "io/gx_io.h"
#include "io/gx_text_out.h"
#include "io/gx_viewer_js.h"

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<title>gpuexact scene</title>\n</head>\n<body>\n<ul id=\"gx-legend\">\n";
static const char page_scene[] = "</ul>\n<script type=\"application/octet-stream\" id=\"gx-scene\">";
static const char page_viewer[] = "</script>\n<script>\n";
static const char page_tail[] = "</script>\n</body>\n</html>\n";

static const char base64_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The bytes of the page around its base64 scene and its legend. */
static size_t
fixed_bytes(void)
{
	return sizeof(page_head) + sizeof(page_scene) + sizeof(page_viewer) + sizeof(page_tail) - 4 +
		sizeof(gx_viewer_js) - 1;
}

static size_t
base64_len(size_t n)
{
	return 4 * ((n + 2) / 3);
}

size_t
gx_html_least_bytes(size_t glb_least)
{
	return fixed_bytes() + base64_len(glb_least);
}

/* Writes the base64 of data (n bytes) at out, base64_len(n) characters. */
static void
put_base64(const unsigned char *data, size_t n, char *out)
{
	size_t		i;

	for (i = 0; i + 2 < n; i += 3, out += 4)
	{
		uint32_t	v = (uint32_t) data[i] << 16 | (uint32_t) data[i + 1] << 8 | data[i + 2];

		out[0] = base64_digits[v >> 18];
		out[1] = base64_digits[v >> 12 & 63];
		out[2] = base64_digits[v >> 6 & 63];
		out[3] = base64_digits[v & 63];
	}
	if (i < n)
	{
		uint32_t	v = (uint32_t) data[i] << 16 | (i + 1 < n ? (uint32_t) data[i + 1] << 8 : 0);

		out[0] = base64_digits[v >> 18];
		out[1] = base64_digits[v >> 12 & 63];
		out[2] = i + 1 < n ? base64_digits[v >> 6 & 63] : '=';
		out[3] = '=';
	}
}

/* Text as HTML character data or attribute value: & < > " escaped. */
static void
put_html_text(GxTextOut *t, const char *s)
{
	for (; *s; s++)
		switch (*s)
		{
			case '&':
				gx_text_put_str(t, "&amp;");
				break;
			case '<':
				gx_text_put_str(t, "&lt;");
				break;
			case '>':
				gx_text_put_str(t, "&gt;");
				break;
			case '"':
				gx_text_put_str(t, "&quot;");
				break;
			default:
				gx_text_put(t, s, 1);
		}
}

/* An item's colour as the glTF writer gives it: its own, or light grey. */
static const float *
item_colour(const GxGlbItem *item)
{
	static const float grey[4] = {0.75f, 0.75f, 0.75f, 1.0f};

	return item->has_colour ? item->rgba : grey;
}

/* Legend entries are items, compared by label, then colour (ctx: the items and their labels). */
typedef struct LegendSort
{
	const GxGlbItem *items;
	const char *const *labels;
} LegendSort;

static int
compare_label_colour(size_t i, size_t j, const LegendSort *s)
{
	int			c = strcmp(s->labels[i], s->labels[j]);

	return c != 0 ? c : memcmp(item_colour(&s->items[i]), item_colour(&s->items[j]), sizeof(float[4]));
}

/* By label and colour, then item: each distinct pair's first item first. */
static int
compare_entries(const void *a, const void *b, void *ctx)
{
	size_t		i = *(const size_t *) a,
				j = *(const size_t *) b;
	int			c = compare_label_colour(i, j, ctx);

	return c != 0 ? c : (i > j) - (i < j);
}

static int
compare_sizes(const void *a, const void *b)
{
	size_t		i = *(const size_t *) a,
				j = *(const size_t *) b;

	return (i > j) - (i < j);
}

/*
 * The legend's list items: one per distinct (label, colour) of the items, in the order of their first
 * item; items without a label are left out. NULL with err set when memory runs out.
 */
static char *
legend_html(const GxGlbItem *items, const char *const *labels, size_t n, size_t *len, GxError *err)
{
	GxTextOut	t = {.max = GX_MAX_SIZE};
	LegendSort	s = {items, labels};
	size_t	   *order = gx_alloc_try(sizeof(size_t) * (n > 0 ? n : 1));
	size_t		m = 0,
				kept = 0;
	size_t		i;

	if (order == NULL)
	{
		gx_error_set(err, GX_ERR_NOMEM, "out of memory writing the HTML legend");
		return NULL;
	}
	for (i = 0; labels != NULL && i < n; i++)
		if (labels[i] != NULL)
			order[m++] = i;
	qsort_r(order, m, sizeof(size_t), compare_entries, &s);
	for (i = 0; i < m; i++)
		if (i == 0 || compare_label_colour(order[i - 1], order[i], &s) != 0)
			order[kept++] = order[i];
	qsort(order, kept, sizeof(size_t), compare_sizes);
	for (i = 0; i < kept; i++)
	{
		const float *c = item_colour(&items[order[i]]);

		gx_text_printf(&t, "<li><span style=\"background:rgba(%d,%d,%d,%.3g)\"></span>", (int) (c[0] * 255 + 0.5f),
					   (int) (c[1] * 255 + 0.5f), (int) (c[2] * 255 + 0.5f), c[3]);
		put_html_text(&t, labels[order[i]]);
		gx_text_put_str(&t, "</li>\n");
	}
	gx_free(order);
	return gx_text_finish(&t, len, err, "the HTML legend");
}

char *
gx_to_html(const GxGlbItem *items, const char *const *labels, size_t n, size_t limit, size_t room, size_t *len,
		   GxError *err)
{
	size_t		legend_len = 0,
				glb_len = 0,
				size;
	char	   *legend;
	unsigned char *glb;
	char	   *out,
			   *at;

	err->code = GX_OK;
	err->msg[0] = '\0';
	limit = limit < GX_MAX_SIZE ? limit : GX_MAX_SIZE;
	legend = legend_html(items, labels, n, &legend_len, err);
	if (legend == NULL)
		return NULL;
	if (fixed_bytes() + legend_len > limit)
	{
		gx_free(legend);
		gx_error_set(err, GX_ERR_LIMIT, "the HTML page would be more than the limit of %zu bytes", limit);
		return NULL;
	}
	/* the largest scene whose base64 fits what the limit leaves */
	glb = gx_to_glb(items, n, (limit - fixed_bytes() - legend_len) / 4 * 3, 0, &glb_len, err);
	if (glb == NULL)
	{
		gx_free(legend);
		if (err->code == GX_ERR_LIMIT)
		{
			char		why[sizeof(err->msg)];

			memcpy(why, err->msg, sizeof(why));
			err->code = GX_OK;
			gx_error_set(err, GX_ERR_LIMIT, "the HTML page would be more than the limit of %zu bytes (its scene is "
						 "base64, 4/3 of the glTF file): %s", limit, why);
		}
		return NULL;
	}
	size = fixed_bytes() + legend_len + base64_len(glb_len);
	out = gx_alloc_try(room + size + 1);
	if (out == NULL)
		gx_error_set(err, GX_ERR_NOMEM, "out of memory writing an HTML page of %zu bytes", size);
	else
	{
		at = out + room;
		memcpy(at, page_head, sizeof(page_head) - 1);
		at += sizeof(page_head) - 1;
		memcpy(at, legend, legend_len);
		at += legend_len;
		memcpy(at, page_scene, sizeof(page_scene) - 1);
		at += sizeof(page_scene) - 1;
		put_base64(glb, glb_len, at);
		at += base64_len(glb_len);
		memcpy(at, page_viewer, sizeof(page_viewer) - 1);
		at += sizeof(page_viewer) - 1;
		memcpy(at, gx_viewer_js, sizeof(gx_viewer_js) - 1);
		at += sizeof(gx_viewer_js) - 1;
		memcpy(at, page_tail, sizeof(page_tail));
		*len = size;
	}
	gx_free(legend);
	gx_free(glb);
	return out;
}
