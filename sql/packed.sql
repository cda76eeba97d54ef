-- packed.sql: surfaces stored as distinct vertices and indices (gx_pack.h): sizes, bit-for-bit round trips
-- through every reader, one stored form per value (equality, hashing), and the batched join on every
-- storage variant giving the stock plan's answer.

-- an n x n height field of 2 n^2 triangles sharing (n+1)^2 vertices, at UTM offsets, with signed zeros
CREATE FUNCTION v(i int, j int, x0 int) RETURNS text LANGUAGE sql AS $$
	SELECT format('%s %s %s', x0 + i * 0.7, 7000000.1 + j * 0.3,
		CASE WHEN (i * 31 + j * 17) % 5 = 0 THEN (CASE WHEN i % 2 = 1 THEN '-0' ELSE '0' END)
		ELSE (1000 + (i * 7 + j * 3) * 1e-9)::text END) $$;

CREATE FUNCTION hf(n int, x0 int) RETURNS text LANGUAGE sql AS $$
	SELECT 'SRID=32633;TIN Z (' || string_agg(format('((%s,%s,%s,%s)),((%s,%s,%s,%s))',
		v(i, j, x0), v(i + 1, j, x0), v(i, j + 1, x0), v(i, j, x0),
		v(i + 1, j, x0), v(i + 1, j + 1, x0), v(i, j + 1, x0), v(i + 1, j, x0)), ',' ORDER BY i, j) || ')'
	FROM generate_series(0, n - 1) i, generate_series(0, n - 1) j $$;
CREATE TABLE pk (id int, wkt text, geom gxgeom);
ALTER TABLE pk ALTER COLUMN geom SET STORAGE EXTERNAL;	-- stored as it is: its size is the packed size
INSERT INTO pk SELECT k, hf(10 * k, 500000 + 1000 * k), hf(10 * k, 500000 + 1000 * k)::gxgeom FROM generate_series(1, 3) k;
-- past the varlena header (pg_column_size of an out-of-line value): the header (60 bytes) and the node's (8),
-- then 8 bytes, 24 per distinct vertex and 12 per triangle, against 72 per triangle unpacked
SELECT id, gx_ntriangles(geom) AS triangles, pg_column_size(geom) AS stored,
	76 + 24 * (10 * id + 1) ^ 2 + 12 * gx_ntriangles(geom) AS packed, 68 + 72 * gx_ntriangles(geom) AS unpacked
	FROM pk ORDER BY id;
-- bit for bit: text, EWKB and binary COPY forms are those of the input
SELECT id, gx_asewkt(geom) = gx_asewkt(wkt::gxgeom) AS same_text, gx_asewkb(geom) = gx_asewkb(wkt::gxgeom) AS same_ewkb,
	gx_asewkt(gx_geomfromwkb(gx_asewkb(geom))) = gx_asewkt(geom) AS ewkb_round_trip,
	gx_asewkt(geom) LIKE '%-0,%' AS keeps_negative_zero FROM pk ORDER BY id;
-- one stored form per value: equal whatever the path, the same hash, one group
SELECT id, geom = wkt::gxgeom AS eq_text, geom = gx_geomfromwkb(gx_asewkb(geom)) AS eq_ewkb,
	geom = gx_setsrid(gx_setsrid(geom, 0), 32633) AS eq_setsrid,
	gxgeom_hash(geom) = gxgeom_hash(wkt::gxgeom) AS same_hash FROM pk ORDER BY id;
SELECT count(*) AS values_per_group FROM (SELECT geom FROM pk UNION ALL SELECT wkt::gxgeom FROM pk) u GROUP BY geom;
-- readers of the header alone, and of the whole value
SELECT id, gx_geometrytype(geom), gx_srid(geom), gx_npoints(geom), gx_xmin(geom) = 500000 + 1000 * id AS xmin,
	gx_isempty(geom) FROM pk ORDER BY id;
-- small values and values that do not share vertices are stored as they are
SELECT pg_column_size(hf(2, 0)::gxgeom) = 72 + 72 * 8 AS small_unpacked,
	pg_column_size(('TIN Z (' || (SELECT string_agg(format('((%s 0 0,%s 1 0,%s 0 1,%s 0 0))', i, i, i, i), ',')
		FROM generate_series(1, 100) i) || ')')::gxgeom) = 72 + 72 * 100 AS unshared_unpacked;

-- predicates and joins on packed values, every storage variant, against the stock plan
CREATE TABLE pk_lines AS SELECT i AS id, format('SRID=32633;LINESTRING Z (%s 7000000 %s, %s 7000009 %s)',
	500000 + 1000 * (1 + i % 3) + 0.35 * (i / 3), 999 + (i % 4) * 0.5,
	500000 + 1000 * (1 + i % 3) + 0.35 * (i / 3), 1001 - (i % 5) * 0.5)::gxgeom AS geom FROM generate_series(0, 59) i;
CREATE TABLE pk_pglz (id int, geom gxgeom);
CREATE TABLE pk_lz4 (id int, geom gxgeom COMPRESSION lz4);
INSERT INTO pk_pglz SELECT id, wkt::gxgeom FROM pk;
INSERT INTO pk_lz4 SELECT id, wkt::gxgeom FROM pk;
SET gpuexact.enable_join = off;
CREATE TABLE pk_stock AS SELECT l.id AS lid, b.id AS bid FROM pk_lines l JOIN pk b ON gx_intersects(l.geom, b.wkt::gxgeom);
SELECT count(*) AS stock_pairs, count(DISTINCT bid) AS bodies FROM pk_stock;
RESET gpuexact.enable_join;
EXPLAIN (COSTS OFF) SELECT l.id, b.id FROM pk_lines l JOIN pk_pglz b ON gx_intersects(l.geom, b.geom);
SELECT 'external' AS storage, count(*) AS differing FROM ((SELECT l.id, b.id FROM pk_lines l JOIN pk b ON gx_intersects(l.geom, b.geom)
	EXCEPT SELECT * FROM pk_stock) UNION ALL (SELECT * FROM pk_stock EXCEPT SELECT l.id, b.id FROM pk_lines l JOIN pk b ON gx_intersects(l.geom, b.geom))) d
UNION ALL
SELECT 'pglz', count(*) FROM ((SELECT l.id, b.id FROM pk_lines l JOIN pk_pglz b ON gx_intersects(l.geom, b.geom)
	EXCEPT SELECT * FROM pk_stock) UNION ALL (SELECT * FROM pk_stock EXCEPT SELECT l.id, b.id FROM pk_lines l JOIN pk_pglz b ON gx_intersects(l.geom, b.geom))) d
UNION ALL
SELECT 'lz4', count(*) FROM ((SELECT l.id, b.id FROM pk_lines l JOIN pk_lz4 b ON gx_intersects(l.geom, b.geom)
	EXCEPT SELECT * FROM pk_stock) UNION ALL (SELECT * FROM pk_stock EXCEPT SELECT l.id, b.id FROM pk_lines l JOIN pk_lz4 b ON gx_intersects(l.geom, b.geom))) d;
-- read by a pass over the TOAST table (cache off: read every time), against the stock plan; one side from two
-- tables: the values of one read by a pass over its TOAST table, the other's fetched one by one
SET gpuexact.cache_host_mb = 0;
SELECT gx_stats_reset();
SELECT count(*) AS differing FROM ((SELECT l.id, b.id FROM pk_lines l JOIN pk_pglz b ON gx_intersects(l.geom, b.geom)
	EXCEPT ALL SELECT * FROM pk_stock) UNION ALL (SELECT * FROM pk_stock EXCEPT ALL SELECT l.id, b.id FROM pk_lines l JOIN pk_pglz b ON gx_intersects(l.geom, b.geom))) d;
SELECT value AS values_by_pass FROM gx_stats() WHERE counter = 'toast_values_by_pass';
CREATE TEMP VIEW pk_both AS SELECT id, geom FROM pk_pglz UNION ALL SELECT id, geom FROM pk_lz4 UNION ALL
	SELECT id, geom FROM pk_pglz WHERE id = 2;
SELECT gx_stats_reset();
SELECT count(*) AS differing FROM ((SELECT l.id, b.id FROM pk_lines l JOIN pk_both b ON gx_intersects(l.geom, b.geom)
	EXCEPT ALL (SELECT * FROM pk_stock UNION ALL SELECT * FROM pk_stock UNION ALL SELECT * FROM pk_stock WHERE bid = 2))
	UNION ALL ((SELECT * FROM pk_stock UNION ALL SELECT * FROM pk_stock UNION ALL SELECT * FROM pk_stock WHERE bid = 2)
	EXCEPT ALL SELECT l.id, b.id FROM pk_lines l JOIN pk_both b ON gx_intersects(l.geom, b.geom))) d;
SELECT value AS values_by_pass FROM gx_stats() WHERE counter = 'toast_values_by_pass';
EXPLAIN (COSTS OFF) SELECT l.id, b.id FROM pk_lines l JOIN pk_both b ON gx_intersects(l.geom, b.geom);
DROP VIEW pk_both;
RESET gpuexact.cache_host_mb;
-- per pair, distance and solids on packed values
SELECT count(*) FILTER (WHERE gx_intersects(l.geom, b.geom) <> gx_intersects(l.geom, b.wkt::gxgeom)) AS per_pair_differing,
	count(*) FILTER (WHERE gx_distance(l.geom, b.geom) <> gx_distance(l.geom, b.wkt::gxgeom)) AS distance_differing
	FROM pk_lines l, pk b;
DROP TABLE pk, pk_lines, pk_pglz, pk_lz4, pk_stock;
DROP FUNCTION hf(int, int), v(int, int, int);
