-- index: the gxbox3d type, the box operators &&& (overlap), ~ (contains) and @ (contained by), the GiST
-- operator class gist_gxgeom_ops, and the planner support that searches the index for gx_intersects with
-- the lossy condition &&&, for constants, parameters and the inner side of nested loop joins.
SET max_parallel_workers_per_gather = 0;

-- gxbox3d text I/O: shortest round-trip doubles, any case and spacing, corners given reversed are
-- normalized, EMPTY (the key of an EMPTY geometry) has its own form.
SELECT t, t::gxbox3d AS box, t::gxbox3d::text::gxbox3d::text = t::gxbox3d::text AS round_trip
FROM (VALUES ('BOX3D(1 2 3,4 5 6)'), (' box3d ( 4 5 6 , 1 2 3 ) '), ('BOX3D(0.1 -0 5e-324,1e300 2 3)'),
	('BOX3D(-1.7976931348623157e308 0.30000000000000004 500000.00000000006,1.7976931348623157e308 1 500001)'),
	('BOX3D(7 7 7,7 7 7)'), ('BOX3D EMPTY'), ('box3d  empty ')) v(t);
SELECT 'BOX3D(1 2,3 4 5 6)'::gxbox3d;
SELECT 'BOX3D(1 2 3 4 5 6)'::gxbox3d;
SELECT 'BOX3D(1 2 inf,3 4 5)'::gxbox3d;
SELECT 'BOX3D(1 2 3,4 5 1e999)'::gxbox3d;
SELECT 'BOX(1 2 3,4 5 6)'::gxbox3d;
SELECT 'BOX3D(1 2 3,4 5 6) x'::gxbox3d;
SELECT 'BOX3D(1 2 3,4 5 6'::gxbox3d;
SELECT 'BOX3D(1e-3 2 3,4 5 6)'::gxbox3d, gxbox3d_send('BOX3D(1 2 3,4 5 6)');

-- gx_box3d and the cast: the cached box; NULL for EMPTY
SELECT g, gx_box3d(g::gxgeom), g::gxgeom::gxbox3d AS cast
FROM (VALUES ('POINT(1 2 3)'), ('LINESTRING Z (1 2 3, 4 -5 6)'), ('TRIANGLE((0 0 0,1 0 0,0 1 0,0 0 0))'),
	('SRID=32633;MULTIPOINT((500000.1 7000000.2 0.3), (500000.4 6999999.5 -0.5))'), ('POINT EMPTY'),
	('GEOMETRYCOLLECTION(POINT EMPTY, LINESTRING(0 0 0, 1 1 1))')) v(g);

-- The box operators on touching cases. a is the box [0,1]^3; brute = the bounds compared one by one.
CREATE TEMP TABLE idx_pairs (name text, b gxgeom);
INSERT INTO idx_pairs VALUES
	('same box', 'LINESTRING Z (1 1 1, 0 0 0)'),
	('inside', 'POINT(0.5 0.5 0.5)'),
	('around', 'LINESTRING Z (-1 -1 -1, 2 2 2)'),
	('shares a face', 'LINESTRING Z (1 0.25 0.25, 2 0.75 0.75)'),
	('shares an edge (flat)', 'LINESTRING Z (1 1 0.5, 2 2 0.5)'),
	('shares a corner', 'LINESTRING Z (1 1 1, 2 2 2)'),
	('point on the corner', 'POINT(1 1 1)'),
	('one ulp past the face', 'POINT(1.0000000000000002 0.5 0.5)'),
	('flat, on the top face', 'TRIANGLE Z ((0 0 1, 1 0 1, 0 1 1, 0 0 1))'),
	('flat, one ulp above', 'TRIANGLE Z ((0 0 1.0000000000000002, 1 0 1.0000000000000002, 0 1 1.0000000000000002, 0 0 1.0000000000000002))'),
	('above in z only', 'LINESTRING Z (0 0 2, 1 1 3)'),
	('EMPTY', 'POINT EMPTY'),
	('EMPTY collection', 'GEOMETRYCOLLECTION EMPTY');
WITH p AS (SELECT name, 'LINESTRING Z (0 0 0, 1 1 1)'::gxgeom AS a, b FROM idx_pairs)
SELECT name, a &&& b AS overlaps, b &&& a AS commuted,
	NOT gx_isempty(a) AND NOT gx_isempty(b) AND gx_xmin(a) <= gx_xmax(b) AND gx_xmin(b) <= gx_xmax(a)
		AND gx_ymin(a) <= gx_ymax(b) AND gx_ymin(b) <= gx_ymax(a)
		AND gx_zmin(a) <= gx_zmax(b) AND gx_zmin(b) <= gx_zmax(a) AS brute,
	a::gxbox3d &&& b AS box_geom, a &&& b::gxbox3d AS geom_box, a::gxbox3d &&& b::gxbox3d AS box_box,
	a ~ b AS contains, a @ b AS within, a::gxbox3d ~ b AS box_contains, a @ b::gxbox3d AS within_box
FROM p;
SELECT 'POINT EMPTY'::gxgeom &&& 'POINT EMPTY'::gxgeom AS empty_empty,
	'BOX3D EMPTY'::gxbox3d &&& 'BOX3D EMPTY'::gxbox3d AS empty_boxes,
	'BOX3D EMPTY'::gxbox3d ~ 'POINT(0 0 0)'::gxgeom AS empty_contains,
	'POINT(0 0 0)'::gxgeom @ 'BOX3D EMPTY'::gxbox3d AS within_empty,
	'BOX3D(0 0 0,1 1 1)'::gxbox3d ~ 'BOX3D EMPTY'::gxbox3d AS contains_empty;

-- The operator class is valid and the default for gxgeom.
SELECT opcname, opcdefault, amvalidate(oid) FROM pg_opclass WHERE opcname = 'gist_gxgeom_ops';

-- A table of 100 000 rows over a 10 km square at UTM-like coordinates: short segments, flat triangles,
-- tilted triangles; every 100th row EMPTY, every 1000th NULL. The index exists before the rows arrive,
-- so it is grown by inserts (penalty, picksplit); it is rebuilt in one go further down.
CREATE TABLE idx_geoms (id integer PRIMARY KEY, geom gxgeom);
CREATE INDEX idx_geoms_gist ON idx_geoms USING gist (geom);
INSERT INTO idx_geoms
SELECT i, CASE
	WHEN i % 1000 = 7 THEN NULL
	WHEN i % 100 = 50 THEN (ARRAY['POINT EMPTY', 'LINESTRING EMPTY', 'TRIANGLE EMPTY', 'GEOMETRYCOLLECTION EMPTY'])[i / 100 % 4 + 1]::gxgeom
	WHEN i % 3 = 0 THEN gx_geomfromtext(format('LINESTRING Z (%s %s %s, %s %s %s)',
		x, y, z, x + i * 37 % 41 - 20, y + i * 43 % 41 - 20, z + i % 5 - 2))
	WHEN i % 3 = 1 THEN gx_geomfromtext(format('TRIANGLE Z ((%s %s %s, %s %s %s, %s %s %s, %s %s %s))',
		x, y, z, x + 1 + i * 7 % 15, y, z, x, y + 1 + i * 11 % 15, z, x, y, z))
	ELSE gx_geomfromtext(format('TRIANGLE Z ((%s %s %s, %s %s %s, %s %s %s, %s %s %s))',
		x, y, z, x + 2 + i * 7 % 13, y + 1, z + i % 7 - 3, x + 1, y + 2 + i * 11 % 13, z + 3 - i % 5, x, y, z))
	END
FROM (SELECT i, 500000 + i * 7919 % 10007 + i * 13 % 100 * 0.01 AS x,
		7000000 + i * 104729 % 9973 + i * 17 % 100 * 0.01 AS y, i * 31 % 200 AS z
	FROM generate_series(1::bigint, 100000) i) s;
-- Touching cases around the box [505000,505001] x [7005000,7005001] x [50,51], whose diagonal is row 1000001.
INSERT INTO idx_geoms VALUES
	(1000001, 'LINESTRING Z (505000 7005000 50, 505001 7005001 51)'),
	(1000002, 'LINESTRING Z (505001 7005000.25 50.25, 505002 7005000.75 50.75)'),	-- shares a face
	(1000003, 'LINESTRING Z (505001 7005001 50.5, 505002 7005002 50.5)'),		-- shares an edge; flat
	(1000004, 'LINESTRING Z (505001 7005001 51, 505002 7005002 52)'),			-- shares a corner
	(1000005, 'POINT Z (505001.00000000006 7005000.5 50.5)'),					-- one ulp past a face
	(1000006, 'TRIANGLE Z ((505000 7005000 51, 505001 7005000 51, 505000 7005001 51, 505000 7005000 51))'), -- flat, on the top face
	(1000007, 'TRIANGLE Z ((505000 7005000 51.00000000000001, 505001 7005000 51.00000000000001, 505000 7005001 51.00000000000001, 505000 7005000 51.00000000000001))'), -- one ulp above
	(1000008, 'TIN EMPTY'),
	(1000009, 'POINT Z (505000 7005000 49.99999999999999)'),					-- one ulp below a corner
	(1000010, 'POINT Z (505000 7005000 50)');									-- on the corner
-- Large TINs, stored compressed out of line (1000011), out of line as is (1000012), compressed in line
-- (1000013): index keys, gx_box3d and &&& read only the header. (Small rows are in line, with 1- or 4-byte
-- headers.) REINDEX below reads them all back from the table.
INSERT INTO idx_geoms
SELECT 1000011, gx_geomfromtext('TIN Z (' || string_agg(format('((%1$s %2$s 10, %3$s %2$s 10, %1$s %4$s 11, %1$s %2$s 10))',
	506000 + k % 40 * 2.5, 7006000 + k / 40 * 2.5, 506002 + k % 40 * 2.5, 7006002 + k / 40 * 2.5), ', ') || ')')
FROM generate_series(0, 1599) k;
ALTER TABLE idx_geoms ALTER COLUMN geom SET STORAGE external;
INSERT INTO idx_geoms
SELECT 1000012, gx_geomfromtext('TIN Z (' || string_agg(format('((%1$s %2$s 20, %3$s %2$s 20, %1$s %4$s 21, %1$s %2$s 20))',
	506200 + k % 40 * 2.5, 7006000 + k / 40 * 2.5, 506202 + k % 40 * 2.5, 7006002 + k / 40 * 2.5), ', ') || ')')
FROM generate_series(0, 1599) k;
ALTER TABLE idx_geoms ALTER COLUMN geom SET STORAGE main;
INSERT INTO idx_geoms
SELECT 1000013, gx_geomfromtext('TIN Z (' || string_agg(format('((%1$s %2$s 30, %3$s %2$s 30, %1$s %4$s 31, %1$s %2$s 30))',
	506400 + k % 20 * 2.5, 7006000 + k / 20 * 2.5, 506402 + k % 20 * 2.5, 7006002 + k / 20 * 2.5), ', ') || ')')
FROM generate_series(0, 399) k;
ALTER TABLE idx_geoms ALTER COLUMN geom SET STORAGE extended;
SELECT id, gx_ntriangles(geom), gx_box3d(geom), pg_column_compression(geom) IS NOT NULL AS compressed
FROM idx_geoms WHERE id > 1000010 ORDER BY id;
ANALYZE idx_geoms;
SELECT count(*) AS rows, count(geom) AS not_null, count(*) FILTER (WHERE gx_isempty(geom)) AS empty FROM idx_geoms;

-- Every non-EMPTY row is in the index: a box around everything finds them all (through the index, which
-- the planner would not choose for a box that keeps every row).
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM idx_geoms WHERE geom &&& 'BOX3D(-1e308 -1e308 -1e308,1e308 1e308 1e308)'::gxbox3d;
SELECT count(*) FROM idx_geoms WHERE geom &&& 'BOX3D(-1e308 -1e308 -1e308,1e308 1e308 1e308)'::gxbox3d;
RESET enable_seqscan;

-- gx_intersects against constants: an index scan on geom &&& const (bitmap or plain, as the estimate
-- chooses), gx_intersects rechecked.
-- q1 a vertical wall (flat query box), q2 a horizontal square at z = 100 (coplanar with flat triangles),
-- q3 a long 3D segment, q4 the diagonal of the touching cases, q5 EMPTY, q6 row 300's geometry through an
-- initplan parameter, q7 a vertical segment through the large compressed TIN.
\set q1 '''TRIANGLE Z ((502000 7003000 0, 506000 7003000 0, 504000 7003000 400, 502000 7003000 0))'''
\set q2 '''TIN Z (((503000 7003000 100, 504000 7003000 100, 504000 7004000 100, 503000 7003000 100)), ((503000 7003000 100, 504000 7004000 100, 503000 7004000 100, 503000 7003000 100)))'''
\set q3 '''LINESTRING Z (503000 7003000 0, 503600 7003400 200)'''
\set q4 '''LINESTRING Z (505000 7005000 50, 505001 7005001 51)'''
\set q5 '''POINT EMPTY'''
\set q7 '''LINESTRING Z (506050.5 7006050.5 0, 506050.5 7006050.5 20)'''
EXPLAIN (COSTS OFF) SELECT id FROM idx_geoms WHERE gx_intersects(geom, :q1);
EXPLAIN (COSTS OFF) SELECT id FROM idx_geoms WHERE gx_intersects(:q3, geom);
EXPLAIN (COSTS OFF) SELECT id FROM idx_geoms WHERE gx_intersects(geom, :q5);
-- a parameter: an initplan's result, and a prepared statement's generic plan
EXPLAIN (COSTS OFF) SELECT id FROM idx_geoms WHERE gx_intersects(geom, (SELECT geom FROM idx_geoms WHERE id = 300));
PREPARE idx_q(gxgeom) AS SELECT id FROM idx_geoms WHERE gx_intersects(geom, $1);
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE idx_q(:q1);
CREATE TEMP TABLE r_prep AS EXECUTE idx_q(:q2);
RESET plan_cache_mode;

CREATE TEMP TABLE r_idx (q integer, id integer);
INSERT INTO r_idx SELECT 1, id FROM idx_geoms WHERE gx_intersects(geom, :q1);
INSERT INTO r_idx SELECT 2, id FROM idx_geoms WHERE gx_intersects(:q2, geom);
INSERT INTO r_idx SELECT 3, id FROM idx_geoms WHERE gx_intersects(geom, :q3);
INSERT INTO r_idx SELECT 4, id FROM idx_geoms WHERE gx_intersects(geom, :q4);
INSERT INTO r_idx SELECT 5, id FROM idx_geoms WHERE gx_intersects(geom, :q5);
INSERT INTO r_idx SELECT 6, id FROM idx_geoms WHERE gx_intersects(geom, (SELECT geom FROM idx_geoms WHERE id = 300));
INSERT INTO r_idx SELECT 7, id FROM idx_geoms WHERE gx_intersects(geom, :q7);
-- the same without the index
SET enable_indexscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM idx_geoms WHERE gx_intersects(geom, :q1);
CREATE TEMP TABLE r_seq (q integer, id integer);
INSERT INTO r_seq SELECT 1, id FROM idx_geoms WHERE gx_intersects(geom, :q1);
INSERT INTO r_seq SELECT 2, id FROM idx_geoms WHERE gx_intersects(:q2, geom);
INSERT INTO r_seq SELECT 3, id FROM idx_geoms WHERE gx_intersects(geom, :q3);
INSERT INTO r_seq SELECT 4, id FROM idx_geoms WHERE gx_intersects(geom, :q4);
INSERT INTO r_seq SELECT 5, id FROM idx_geoms WHERE gx_intersects(geom, :q5);
INSERT INTO r_seq SELECT 6, id FROM idx_geoms WHERE gx_intersects(geom, (SELECT geom FROM idx_geoms WHERE id = 300));
INSERT INTO r_seq SELECT 7, id FROM idx_geoms WHERE gx_intersects(geom, :q7);
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT q, count(r.id) AS hits FROM generate_series(1, 7) q LEFT JOIN r_idx r USING (q) GROUP BY q ORDER BY q;
SELECT 'index only' AS side, * FROM (SELECT * FROM r_idx EXCEPT SELECT * FROM r_seq) a
UNION ALL SELECT 'seq only', * FROM (SELECT * FROM r_seq EXCEPT SELECT * FROM r_idx) b
UNION ALL SELECT 'prepared only', 2, * FROM (SELECT * FROM r_prep EXCEPT SELECT id FROM r_seq WHERE q = 2) c
UNION ALL SELECT 'seq, not prepared', 2, * FROM (SELECT id FROM r_seq WHERE q = 2 EXCEPT SELECT * FROM r_prep) d;
-- the touching cases: the diagonal meets itself, the corner segment at its end, the point at its start;
-- the vertical segment q7 goes through the large TIN
SELECT q, id FROM r_idx WHERE q IN (4, 7) ORDER BY q, id;

-- The box operators through the index against the bounds compared one by one.
\set b1 '''BOX3D(503000 7003000 50,503500 7003500 60)'''
\set b2 '''BOX3D(505000 7005000 50,505001 7005001 51)'''
EXPLAIN (COSTS OFF) SELECT id FROM idx_geoms WHERE geom &&& :b1::gxbox3d;
EXPLAIN (COSTS OFF) SELECT id FROM idx_geoms WHERE :b1::gxbox3d &&& geom;
EXPLAIN (COSTS OFF) SELECT id FROM idx_geoms WHERE geom @ :b1::gxbox3d;
EXPLAIN (COSTS OFF) SELECT id FROM idx_geoms WHERE geom ~ :q4::gxgeom;
CREATE TEMP TABLE o_idx (q text, id integer);
INSERT INTO o_idx SELECT 'b1 &&&', id FROM idx_geoms WHERE geom &&& :b1::gxbox3d;
INSERT INTO o_idx SELECT 'b2 &&&', id FROM idx_geoms WHERE :b2::gxbox3d &&& geom;
INSERT INTO o_idx SELECT 'q1 &&&', id FROM idx_geoms WHERE geom &&& :q1::gxgeom;
INSERT INTO o_idx SELECT 'q3 &&&', id FROM idx_geoms WHERE geom &&& :q3::gxgeom;
INSERT INTO o_idx SELECT 'q5 &&&', id FROM idx_geoms WHERE geom &&& :q5::gxgeom;
INSERT INTO o_idx SELECT 'q7 &&&', id FROM idx_geoms WHERE geom &&& :q7::gxgeom;
INSERT INTO o_idx SELECT 'b1 @', id FROM idx_geoms WHERE geom @ :b1::gxbox3d;
INSERT INTO o_idx SELECT 'b2 @', id FROM idx_geoms WHERE geom @ :b2::gxbox3d;
INSERT INTO o_idx SELECT 'q4 ~', id FROM idx_geoms WHERE geom ~ :q4::gxgeom;
INSERT INTO o_idx SELECT 'point ~', id FROM idx_geoms WHERE geom ~ 'POINT(505000.5 7005000.5 50.5)'::gxgeom;
CREATE TEMP TABLE o_brute AS
SELECT q, id FROM idx_geoms,
	(VALUES ('b1', 503000, 7003000, 50, 503500, 7003500, 60), ('b2', 505000, 7005000, 50, 505001, 7005001, 51),
		('q1', 502000, 7003000, 0, 506000, 7003000, 400), ('q3', 503000, 7003000, 0, 503600, 7003400, 200),
		('q4', 505000, 7005000, 50, 505001, 7005001, 51), ('q7', 506050.5, 7006050.5, 0, 506050.5, 7006050.5, 20),
		('point', 505000.5, 7005000.5, 50.5, 505000.5, 7005000.5, 50.5))
		AS b(name, x0, y0, z0, x1, y1, z1),
	LATERAL (VALUES
		(name || ' &&&', gx_xmin(geom) <= x1 AND x0 <= gx_xmax(geom) AND gx_ymin(geom) <= y1 AND y0 <= gx_ymax(geom)
			AND gx_zmin(geom) <= z1 AND z0 <= gx_zmax(geom)),
		(name || ' @', x0 <= gx_xmin(geom) AND gx_xmax(geom) <= x1 AND y0 <= gx_ymin(geom) AND gx_ymax(geom) <= y1
			AND z0 <= gx_zmin(geom) AND gx_zmax(geom) <= z1),
		(name || ' ~', gx_xmin(geom) <= x0 AND x1 <= gx_xmax(geom) AND gx_ymin(geom) <= y0 AND y1 <= gx_ymax(geom)
			AND gx_zmin(geom) <= z0 AND z1 <= gx_zmax(geom))) t(q, hit)
WHERE hit;
SELECT q, count(*) FROM o_idx GROUP BY q ORDER BY q;
SELECT 'index only' AS side, * FROM (SELECT * FROM o_idx EXCEPT SELECT * FROM o_brute) a
UNION ALL SELECT 'brute only', * FROM (SELECT * FROM o_brute
	WHERE q IN ('b1 &&&', 'b2 &&&', 'q1 &&&', 'q3 &&&', 'q7 &&&', 'b1 @', 'b2 @', 'q4 ~', 'point ~') EXCEPT SELECT * FROM o_idx) b;
SELECT q, id FROM o_idx WHERE q IN ('b2 &&&', 'b2 @', 'q4 ~', 'point ~') AND id > 1000000 ORDER BY q, id;

-- Nested loop join: the inner side is a parameterized index scan (the batched custom join is switched off).
-- Probes: vertical walls, horizontal squares, long 3D segments, an EMPTY and a NULL.
CREATE TABLE idx_probes (pid integer, geom gxgeom);
INSERT INTO idx_probes
SELECT p, gx_geomfromtext(format('TRIANGLE Z ((%s %s 0, %s %s 0, %s %s 300, %s %s 0))',
	500500 + p * 850, 7000500 + p * 900, 501300 + p * 850, 7000500 + p * 900, 500900 + p * 850, 7000500 + p * 900,
	500500 + p * 850, 7000500 + p * 900))
FROM generate_series(1, 10) p
UNION ALL
SELECT p, gx_geomfromtext(format('TIN Z (((%1$s %2$s %3$s, %4$s %2$s %3$s, %4$s %5$s %3$s, %1$s %2$s %3$s)), ((%1$s %2$s %3$s, %4$s %5$s %3$s, %1$s %5$s %3$s, %1$s %2$s %3$s)))',
	500000 + p * 450, 7000000 + p * 430, p * 17 % 200, 500300 + p * 450, 7000300 + p * 430))
FROM generate_series(11, 20) p
UNION ALL
SELECT p, gx_geomfromtext(format('LINESTRING Z (%s %s 0, %s %s 200)',
	500000 + p * 300, 7000000 + p * 250, 500700 + p * 300, 7000500 + p * 250))
FROM generate_series(21, 28) p
UNION ALL VALUES (29, 'POINT EMPTY'::gxgeom), (30, NULL);
ANALYZE idx_probes;
SET gpuexact.enable_join = off;
EXPLAIN (COSTS OFF) SELECT p.pid, t.id FROM idx_probes p JOIN idx_geoms t ON gx_intersects(p.geom, t.geom);
EXPLAIN (COSTS OFF) SELECT p.pid, t.id FROM idx_probes p JOIN idx_geoms t ON gx_intersects(t.geom, p.geom);
EXPLAIN (COSTS OFF) SELECT p.pid, t.id FROM idx_probes p LEFT JOIN idx_geoms t ON p.geom &&& t.geom;
CREATE TEMP TABLE j_idx AS SELECT p.pid, t.id FROM idx_probes p JOIN idx_geoms t ON gx_intersects(p.geom, t.geom);
CREATE TEMP TABLE jb_idx AS SELECT p.pid, t.id FROM idx_probes p LEFT JOIN idx_geoms t ON p.geom &&& t.geom;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT p.pid, t.id FROM idx_probes p JOIN idx_geoms t ON gx_intersects(p.geom, t.geom);
CREATE TEMP TABLE j_seq AS SELECT p.pid, t.id FROM idx_probes p JOIN idx_geoms t ON gx_intersects(p.geom, t.geom);
CREATE TEMP TABLE jb_seq AS SELECT p.pid, t.id FROM idx_probes p LEFT JOIN idx_geoms t ON p.geom &&& t.geom;
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET gpuexact.enable_join;
SELECT count(*) AS pairs, count(DISTINCT pid) AS probes_with_hits FROM j_idx;
SELECT count(*) AS box_pairs, count(id) AS matched FROM jb_idx;
SELECT 'index only' AS side, * FROM (SELECT * FROM j_idx EXCEPT SELECT * FROM j_seq) a
UNION ALL SELECT 'seq only', * FROM (SELECT * FROM j_seq EXCEPT SELECT * FROM j_idx) b
UNION ALL SELECT 'box index only', * FROM (SELECT * FROM jb_idx EXCEPT ALL SELECT * FROM jb_seq) c
UNION ALL SELECT 'box seq only', * FROM (SELECT * FROM jb_seq EXCEPT ALL SELECT * FROM jb_idx) d;

-- Rebuilt in one go (the build path rather than inserts), the index answers the same.
REINDEX INDEX idx_geoms_gist;
CREATE TEMP TABLE r_reindex AS
SELECT 1 AS q, id FROM idx_geoms WHERE gx_intersects(geom, :q1)
UNION ALL SELECT 2, id FROM idx_geoms WHERE gx_intersects(geom, :q2)
UNION ALL SELECT 3, id FROM idx_geoms WHERE gx_intersects(geom, :q3)
UNION ALL SELECT 4, id FROM idx_geoms WHERE gx_intersects(geom, :q4)
UNION ALL SELECT 7, id FROM idx_geoms WHERE gx_intersects(geom, :q7);
SELECT count(*) AS differences FROM ((SELECT * FROM r_reindex EXCEPT SELECT * FROM r_seq)
	UNION ALL (SELECT * FROM r_seq WHERE q IN (1, 2, 3, 4, 7) EXCEPT SELECT * FROM r_reindex)) d;
SELECT count(*) FROM idx_geoms WHERE geom &&& 'BOX3D(-1e308 -1e308 -1e308,1e308 1e308 1e308)'::gxbox3d;

DROP TABLE idx_probes;
DROP TABLE idx_geoms;
RESET max_parallel_workers_per_gather;
