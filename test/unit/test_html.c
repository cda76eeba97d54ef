/*
 * test_html.c: unit tests of the HTML page writer (gx_to_html): the page is well formed around its parts,
 * its scene decodes to gx_to_glb's bytes exactly, it refers to nothing outside itself (no URL, no src or
 * href), its legend has each distinct label and colour once, escaped, and a page one byte past the limit is
 * refused. The viewer itself runs in a browser: test/html.sh. argv[1] (a directory) is not used.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "gx_test.h"
#include "io/gx_io.h"

#define ITEMS 6

/* Decodes base64 text (n characters, a multiple of 4) into out; the number of bytes, or -1 when malformed. */
static long
decode_base64(const char *s, size_t n, unsigned char *out)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	long		len = 0;
	size_t		i;
	int			k;

	if (n % 4 != 0)
		return -1;
	for (i = 0; i < n; i += 4)
	{
		uint32_t	v = 0;
		int			pad = 0;

		for (k = 0; k < 4; k++)
		{
			const char *d = s[i + k] == '=' ? NULL : strchr(digits, s[i + k]);

			if (s[i + k] == '=' && i + 4 == n && k >= 2)
				pad++;
			else if (d == NULL || s[i + k] == '\0' || pad > 0)
				return -1;
			v = v << 6 | (d ? (uint32_t) (d - digits) : 0);
		}
		out[len++] = v >> 16;
		if (pad < 2)
			out[len++] = v >> 8 & 255;
		if (pad < 1)
			out[len++] = v & 255;
	}
	return len;
}

static size_t
count_of(const char *s, const char *what)
{
	size_t		n = 0;

	for (s = strstr(s, what); s != NULL; s = strstr(s + 1, what))
		n++;
	return n;
}

/* Does the page's scene, between its script tags, decode to exactly glb (glb_len bytes)? */
static int
scene_is(const char *page, const unsigned char *glb, size_t glb_len)
{
	const char *open = "<script type=\"application/octet-stream\" id=\"gx-scene\">";
	const char *at = strstr(page, open);
	const char *end = at ? strstr(at, "</script>") : NULL;
	unsigned char *bytes;
	long		n;
	int			same;

	if (end == NULL)
		return 0;
	at += strlen(open);
	bytes = malloc((size_t) (end - at) + 1);
	n = decode_base64(at, (size_t) (end - at), bytes);
	same = n == (long) glb_len && memcmp(bytes, glb, glb_len) == 0;
	free(bytes);
	return same;
}

static void
test_page(void)
{
	const char *texts[ITEMS] = {
		"TIN Z (((500000 7000000 100,500010 7000000 100,500000 7000010 101,500000 7000000 100)),"
		"((500010 7000000 100,500010 7000010 99,500000 7000010 101,500010 7000000 100)))",
		"LINESTRING Z (499990 6999990 90,499995.5 6999995.25 95,499999 6999999 120)",
		"LINESTRING Z (499991 6999990 90,500001 7000003 130)",
		"LINESTRING Z (500020 7000020 80,500021 7000021 60)",
		"POINT Z (500005 7000005 105)",
		"LINESTRING Z (500030 7000030 80,500031 7000031 60)",
	};
	const char *labels[ITEMS] = {"ore body", "hits", "misses", "hits", NULL, "</script><b>\"&"};
	const float colours[ITEMS][4] = {
		{0.9f, 0.7f, 0.1f, 0.6f}, {0.85f, 0.1f, 0.1f, 1}, {0.2f, 0.4f, 0.9f, 1}, {0.85f, 0.1f, 0.1f, 1}, {0}, {0, 1, 0, 1}
	};
	GxSerialized *g[ITEMS];
	GxGlbItem	items[ITEMS];
	GxError		err;
	size_t		len = 0,
				glb_len = 0,
				least = 0,
				len2 = 0;
	unsigned char *glb;
	char	   *page,
			   *again;
	const char *legend;
	int			i;

	for (i = 0; i < ITEMS; i++)
	{
		size_t		size;

		g[i] = gx_from_wkt(texts[i], &size, &err);
		CHECK_MSG(g[i] != NULL, "%s: %s", texts[i], err.msg);
		if (g[i] == NULL)
			return;
		items[i].geom = g[i];
		items[i].has_colour = i != 4;
		memcpy(items[i].rgba, colours[i], sizeof(items[i].rgba));
		least += gx_glb_least_bytes(g[i]);
	}
	page = gx_to_html(items, labels, ITEMS, GX_MAX_SIZE, 0, &len, &err);
	glb = gx_to_glb(items, ITEMS, GX_MAX_SIZE, 0, &glb_len, &err);
	CHECK_MSG(page != NULL && glb != NULL, "html: %s", err.msg);
	if (page == NULL || glb == NULL)
		return;
	CHECK(strlen(page) == len);
	CHECK(strncmp(page, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">", 60) == 0);
	CHECK(len > 16 && strcmp(page + len - 16, "</body>\n</html>\n") == 0);
	CHECK_MSG(scene_is(page, glb, glb_len), "the page's scene is not gx_to_glb's file");

	/* nothing from outside: no URL, no src or href, no CSS import or url() */
	CHECK(strstr(page, "http://") == NULL && strstr(page, "https://") == NULL);
	CHECK(strstr(page, "src=") == NULL && strstr(page, "href=") == NULL);
	CHECK(strstr(page, "@import") == NULL && strstr(page, "url(") == NULL);
	/* two script elements, the scene and the viewer: the label's "</script>" is escaped */
	CHECK_MSG(count_of(page, "<script") == 2 && count_of(page, "</script>") == 2, "script tags");

	/* the legend: "ore body", "hits" (its two holes, one colour) once, "misses", the escaped label */
	legend = strstr(page, "<ul id=\"gx-legend\">\n");
	CHECK_MSG(legend != NULL && strstr(legend, "<li><span style=\"background:rgba(230,179,26,0.6)\"></span>ore body</li>\n"
									   "<li><span style=\"background:rgba(217,26,26,1)\"></span>hits</li>\n"
									   "<li><span style=\"background:rgba(51,102,230,1)\"></span>misses</li>\n"
									   "<li><span style=\"background:rgba(0,255,0,1)\"></span>"
									   "&lt;/script&gt;&lt;b&gt;&quot;&amp;</li>\n</ul>\n") == legend + 20,
			  "legend: %.400s", legend ? legend : page);
	CHECK(count_of(page, "<li>") == 4);

	/* the same page within its own size, none a byte short; the running bound is below it */
	again = gx_to_html(items, labels, ITEMS, len, 0, &len2, &err);
	CHECK_MSG(again != NULL && len2 == len && memcmp(again, page, len) == 0, "page at its own size: %s", err.msg);
	gx_free(again);
	again = gx_to_html(items, labels, ITEMS, len - 1, 0, &len2, &err);
	CHECK_MSG(again == NULL && err.code == GX_ERR_LIMIT && strstr(err.msg, "HTML page") != NULL,
			  "page a byte short: %s", err.msg);
	CHECK(gx_html_least_bytes(least) <= len);

	/* without labels: no legend entry, the same scene */
	gx_free(page);
	page = gx_to_html(items, NULL, ITEMS, GX_MAX_SIZE, 0, &len, &err);
	CHECK_MSG(page != NULL && count_of(page, "<li>") == 0 && scene_is(page, glb, glb_len), "no labels: %s", err.msg);
	gx_free(page);
	gx_free(glb);

	/* an empty scene */
	page = gx_to_html(NULL, NULL, 0, GX_MAX_SIZE, 0, &len, &err);
	glb = gx_to_glb(NULL, 0, GX_MAX_SIZE, 0, &glb_len, &err);
	CHECK_MSG(page != NULL && glb != NULL && scene_is(page, glb, glb_len), "empty page: %s", err.msg);
	gx_free(page);
	gx_free(glb);

	/* a bad colour fails as in gx_to_glb */
	items[1].rgba[0] = 2;
	page = gx_to_html(items, labels, ITEMS, GX_MAX_SIZE, 0, &len, &err);
	CHECK_MSG(page == NULL && err.code == GX_ERR_ARG, "bad colour: %s", err.msg);
	for (i = 0; i < ITEMS; i++)
		gx_free(g[i]);
}

int
main(int argc, char **argv)
{
	(void) argc;
	(void) argv;
	test_page();
	return gx_test_report("test_html");
}
