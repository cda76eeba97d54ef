/*
 * test_pack.c: the packed storage form of surfaces (gx_pack.h): bit-for-bit round trips over meshes and
 * collections, when packing pays, determinism, corrupt packed values refused without stray reads, and
 * packed values laid out into a batch side as their unpacked values are.
 */
#include <stdlib.h>
#include <string.h>

#include "base/gx_alloc.h"
#include "batch/gx_batch_side.h"
#include "geom/gx_pack.h"
#include "gx_test.h"
#include "io/gx_io.h"

/* A height field of n x n cells (2 n^2 triangles sharing their vertices) at UTM-like offsets, as a TIN. */
static GxSerialized *
height_field(int n, GxType type, size_t *size)
{
	GxError		err = {GX_OK, ""};
	GxBuilder	b;
	size_t		node;
	int			i,
				j,
				k;

	gx_builder_init(&b, &err);
	node = gx_builder_begin(&b, type);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
		{
			double		x[4],
						y[4],
						z[4];
			static const int tri[2][3] = {{0, 1, 2}, {1, 3, 2}};
			int			t;

			for (k = 0; k < 4; k++)
			{
				int			a = i + (k & 1),
							c = j + (k >> 1);

				x[k] = 500000.0 + a * 0.7;
				y[k] = 7000000.0 + c * 0.3;
				/* exact signed zeros and sub-ulp structure: bit patterns matter */
				z[k] = ((a * 31 + c * 17) % 5 == 0) ? (a % 2 ? -0.0 : 0.0) : 1000.0 + (a * 7 + c * 3) * 1e-9;
			}
			for (t = 0; t < 2; t++)
				for (k = 0; k < 3; k++)
					gx_builder_coord(&b, x[tri[t][k]], y[tri[t][k]], z[tri[t][k]]);
		}
	gx_builder_end(&b, node, (uint32_t) (2 * n * n));
	return gx_builder_finish(&b, 32633, size);
}

/* Packs g, checks the packed header, unpacks, and checks the bytes come back; returns the packed size. */
static size_t
round_trip(const GxSerialized *g, size_t size, const char *what)
{
	GxError		err = {GX_OK, ""};
	size_t		psize = 0,
				usize = 0;
	GxSerialized *p = gx_pack(g, size, &psize, &err),
			   *q,
			   *u;

	CHECK_MSG(p != NULL && err.code == GX_OK, "%s: not packed (%s)", what, err.msg);
	if (p == NULL)
		return 0;
	CHECK_MSG(psize <= size / 4 * 3, "%s: %zu of %zu bytes", what, psize, size);
	CHECK(p->flags == (g->flags | GX_FLAG_PACKED) && p->srid == g->srid);
	CHECK(memcmp(&p->box, &g->box, sizeof(GxBox3D)) == 0);
	CHECK(memcmp(gx_body(p), gx_body(g), sizeof(GxNode)) == 0);
	CHECK(gx_pack(p, psize, &usize, &err) == NULL);
	q = gx_pack(g, size, &usize, &err);
	CHECK_MSG(q != NULL && usize == psize && memcmp(q, p, psize) == 0, "%s: packing is not deterministic", what);
	gx_free(q);
	u = gx_unpack(p, psize, &usize, &err);
	CHECK_MSG(u != NULL && usize == size && memcmp((char *) u + 4, (const char *) g + 4, size - 4) == 0,
			  "%s: unpacked bytes differ (%s)", what, err.msg);
	gx_free(u);
	gx_free(p);
	return psize;
}

static GxSerialized *
wkt(const char *text, size_t *size)
{
	GxError		err = {GX_OK, ""};
	GxSerialized *g = gx_from_wkt(text, size, &err);

	CHECK_MSG(g != NULL, "%s: %s", text, err.msg);
	return g;
}

static void
test_meshes(void)
{
	size_t		size,
				psize;
	GxSerialized *g = height_field(40, GX_TIN, &size);

	GxError		err = {GX_OK, ""};

	psize = round_trip(g, size, "TIN 3200 triangles");
	/* 41^2 distinct vertices of 24 bytes and 12 bytes of indices per triangle, against 72 */
	CHECK_MSG(psize == sizeof(GxSerialized) + 16 + 24 * 41 * 41 + 12 * 3200, "%zu of %zu bytes", psize, size);
	gx_free(g);
	g = height_field(30, GX_POLYHEDRALSURFACE, &size);
	round_trip(g, size, "surface of 1800 triangles");
	gx_free(g);
	/* 18 triangles, 1 344 bytes: below the packing threshold */
	g = height_field(3, GX_POLYHEDRALSURFACE, &size);
	CHECK(size < GX_PACK_MIN_BYTES && gx_pack(g, size, &psize, &err) == NULL && err.code == GX_OK);
	gx_free(g);
}

/* Every kind of node around the surfaces, nested, is copied as it is. */
static void
test_collections(void)
{
	char		text[65536];
	size_t		len = 0,
				size;
	int			i;
	GxSerialized *g;

	len += sprintf(text + len, "GEOMETRYCOLLECTION Z (POINT Z (1 2 3), LINESTRING Z (0 0 0, 1 1 1), TIN Z EMPTY, "
				   "GEOMETRYCOLLECTION Z (MULTIPOINT Z ((5 5 5)), TIN Z (");
	for (i = 0; i < 60; i++)
		len += sprintf(text + len, "%s((%d 0 0, %d 0 0, %d 1 0, %d 0 0)), ((%d 0 0, %d 1 0, %d 1 0, %d 0 0))",
					   i ? "," : "", i, i + 1, i, i, i + 1, i + 1, i, i + 1);
	len += sprintf(text + len, ")), TRIANGLE Z ((0 0 0, 1 0 0, 0 1 0, 0 0 0)), POLYHEDRALSURFACE Z (");
	for (i = 0; i < 60; i++)
		len += sprintf(text + len, "%s((%d 0 0, %d 0 0, %d 1 0, %d 0 0)), ((%d 0 0, %d 1 0, %d 1 0, %d 0 0))",
					   i ? "," : "", i, i + 1, i, i, i + 1, i + 1, i, i + 1);
	sprintf(text + len, "))");
	g = wkt(text, &size);
	if (g)
		round_trip(g, size, "collection");
	gx_free(g);
}

/* Packing that does not pay is not done. */
static void
test_not_packed(void)
{
	char		text[65536];
	size_t		len = 0,
				size,
				psize;
	int			i;
	GxError		err = {GX_OK, ""};
	GxSerialized *g;

	/* disjoint triangles: no vertex shared */
	len += sprintf(text + len, "TIN Z (");
	for (i = 0; i < 100; i++)
		len += sprintf(text + len, "%s((%d 0 0, %d.5 1 0, %d 0 1, %d 0 0))", i ? "," : "", 3 * i, 3 * i,
					   3 * i + 1, 3 * i);
	sprintf(text + len, ")");
	g = wkt(text, &size);
	CHECK(g && gx_pack(g, size, &psize, &err) == NULL && err.code == GX_OK);
	gx_free(g);
	/* no surface at all */
	len = sprintf(text, "LINESTRING Z (");
	for (i = 0; i < 200; i++)
		len += sprintf(text + len, "%s%d 0 0", i ? "," : "", i);
	sprintf(text + len, ")");
	g = wkt(text, &size);
	CHECK(g && gx_pack(g, size, &psize, &err) == NULL && err.code == GX_OK);
	gx_free(g);
}

/* Whether two sides hold the same elements, owners and extent. */
static bool
same_side(const GxBatchSide *a, const GxBatchSide *b)
{
	return a->n == b->n && a->ngeoms == b->ngeoms && memcmp(a->coords, b->coords, a->n * 9 * sizeof(double)) == 0 &&
		memcmp(a->kind, b->kind, a->n) == 0 && memcmp(a->geom, b->geom, a->n * sizeof(uint32_t)) == 0 &&
		memcmp(&a->extent, &b->extent, sizeof(GxBox3D)) == 0;
}

/* Corrupt packed values: every truncation and many byte flips give NULL or a value, never a crash. */
static void
test_corrupt(void)
{
	GxError		err = {GX_OK, ""};
	size_t		size,
				psize = 0,
				usize,
				cut;
	GxSerialized *g = height_field(12, GX_TIN, &size),
			   *p = gx_pack(g, size, &psize, &err),
			   *u;
	unsigned char *bad = malloc(psize);
	int			i,
				refused = 0,
				accepted_laid_out = 0;

	CHECK(p != NULL);
	if (p == NULL)
		return;
	for (cut = 0; cut < psize; cut += 1 + cut / 16)
	{
		memcpy(bad, p, psize);
		err.code = GX_OK;
		u = gx_unpack((GxSerialized *) bad, cut, &usize, &err);
		CHECK_MSG(u == NULL && err.code == GX_ERR_PARSE, "truncated to %zu of %zu", cut, psize);
		gx_free(u);
	}
	/* an index past the vertices */
	memcpy(bad, p, psize);
	((uint32_t *) (bad + psize - 12 * 288))[5] = 1u << 30;
	err.code = GX_OK;
	CHECK(gx_unpack((GxSerialized *) bad, psize, &usize, &err) == NULL && strstr(err.msg, "index"));
	err.code = GX_OK;
	CHECK(!gx_unpacked_size((GxSerialized *) bad, psize, &usize, &err) && strstr(err.msg, "index"));
	srand(7);
	for (i = 0; i < 20000; i++)
	{
		memcpy(bad, p, psize);
		bad[rand() % psize] ^= (unsigned char) (1 + rand() % 255);
		err.code = GX_OK;
		u = gx_unpack((GxSerialized *) bad, psize, &usize, &err);
		refused += u == NULL;
		/* a flipped value still accepted lays out as its unpacked value does */
		if (u != NULL && !(u->flags & GX_FLAG_EMPTY) && usize < ((size_t) 64 << 20))
		{
			GxBatchSide a,
						b;

			gx_batch_side_init(&a);
			gx_batch_side_init(&b);
			CHECK(gx_batch_side_add(&a, u, &err) && gx_batch_side_add(&b, (GxSerialized *) bad, &err));
			CHECK_MSG(same_side(&a, &b), "flip %d: the packed value lays out otherwise", i);
			accepted_laid_out++;
			gx_batch_side_free(&a);
			gx_batch_side_free(&b);
		}
		gx_free(u);
	}
	CHECK_MSG(refused > 0, "no flip refused");
	CHECK_MSG(accepted_laid_out > 0, "no flipped value accepted");
	free(bad);
	gx_free(p);
	gx_free(g);
}

/*
 * A side laid out from packed values (gx_batch_side_add_many unpacks their surfaces into its arrays) is the
 * side of the same values unpacked, alone and among unpacked ones, placed in room the caller made too.
 */
static void
test_side_from_packed(void)
{
	GxError		err = {GX_OK, ""};
	const char *texts[] = {"POINT Z (1 2 3)", "LINESTRING Z (0 0 0, 1 1 1, 2 0 1)", "TIN Z EMPTY"};
	GxSerialized *plain[6],
			   *mixed[6];
	size_t		size[6],
				psize,
				usize;
	GxBatchSide a,
				b,
				c;
	int			n = 0;

	plain[n] = height_field(40, GX_TIN, &size[n]);
	n++;
	plain[n] = height_field(20, GX_POLYHEDRALSURFACE, &size[n]);
	n++;
	for (int i = 0; i < 3; i++, n++)
		plain[n] = wkt(texts[i], &size[n]);
	plain[n] = height_field(25, GX_TIN, &size[n]);
	n++;
	/* the surfaces packed, the rest as they are */
	for (int i = 0; i < n; i++)
	{
		mixed[i] = plain[i];
		if (plain[i] && !(plain[i]->flags & GX_FLAG_EMPTY) &&
			(gx_body(plain[i])->type == GX_TIN || gx_body(plain[i])->type == GX_POLYHEDRALSURFACE))
		{
			GxSerialized *p = gx_pack(plain[i], size[i], &psize, &err);

			CHECK_MSG(p != NULL && gx_unpacked_size(p, psize, &usize, &err), "geometry %d not packed: %s", i, err.msg);
			if (p)
				mixed[i] = p;
		}
	}
	gx_batch_side_init(&a);
	gx_batch_side_init(&b);
	CHECK(gx_batch_side_add_many(&a, (const GxSerialized *const *) plain, n, &err));
	CHECK(gx_batch_side_count_many((const GxSerialized *const *) mixed, n) == a.n);
	CHECK(gx_batch_side_add_many(&b, (const GxSerialized *const *) mixed, n, &err));
	CHECK_MSG(same_side(&a, &b), "packed: %zu elements, unpacked %zu", b.n, a.n);
	/* into room made beforehand, as in a shared segment */
	gx_batch_side_init(&c);
	c.cap = a.n;
	c.coords = malloc(a.n * 9 * sizeof(double));
	c.kind = malloc(a.n);
	c.geom = malloc(a.n * sizeof(uint32_t));
	CHECK(gx_batch_side_add_many(&c, (const GxSerialized *const *) mixed, n, &err));
	CHECK(c.coords && same_side(&a, &c));
	free(c.coords);
	free(c.kind);
	free(c.geom);
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
	for (int i = 0; i < n; i++)
	{
		if (mixed[i] != plain[i])
			gx_free(mixed[i]);
		gx_free(plain[i]);
	}
}

int
main(void)
{
	test_side_from_packed();
	test_meshes();
	test_collections();
	test_not_packed();
	test_corrupt();
	return gx_test_report("test_pack");
}
