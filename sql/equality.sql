-- equality: = is exact (same SRID, same structure, same coordinates bit for bit), with a stable total order
-- for btree and a hash for hash joins, hash indexes and hash partitioning.
SET max_parallel_workers_per_gather = 0;

-- What = means: the serialized values are identical. Text output reads back to the same value.
SELECT a, b, a::gxgeom = b::gxgeom AS eq, a::gxgeom <> b::gxgeom AS ne,
	gxgeom_cmp(a::gxgeom, b::gxgeom) = 0 AS cmp_zero,
	gxgeom_hash(a::gxgeom) = gxgeom_hash(b::gxgeom) AS same_hash
FROM (VALUES
	('POINT(1 2 3)', 'POINT Z (1 2 3)'),
	('POINT(1 2 3)', 'POINT(1 2 3.0000000000000004)'),
	('POINT(0 0 0)', 'POINT(-0 0 0)'),
	('POINT(1 2 3)', 'SRID=4326;POINT(1 2 3)'),
	('SRID=4326;POINT(1 2 3)', 'SRID=4326;POINT(1 2 3)'),
	('POINT(1 2 3)', 'MULTIPOINT((1 2 3))'),
	('POINT(1 2 3)', 'GEOMETRYCOLLECTION(POINT(1 2 3))'),
	('TRIANGLE((0 0 0,1 0 0,0 1 0,0 0 0))', 'TIN(((0 0 0,1 0 0,0 1 0,0 0 0)))'),
	('TIN(((0 0 0,1 0 0,0 1 0,0 0 0)))', 'POLYHEDRALSURFACE(((0 0 0,1 0 0,0 1 0,0 0 0)))'),
	('TRIANGLE((0 0 0,1 0 0,0 1 0,0 0 0))', 'TRIANGLE((1 0 0,0 1 0,0 0 0,1 0 0))'),
	('LINESTRING(0 0 0,1 1 1)', 'LINESTRING(1 1 1,0 0 0)'),
	('POINT EMPTY', 'POINT EMPTY'),
	('POINT EMPTY', 'LINESTRING EMPTY'),
	('GEOMETRYCOLLECTION EMPTY', 'GEOMETRYCOLLECTION(POINT EMPTY)'),
	('POINT M (1 2 9)', 'POINT(1 2 0)')) v(a, b);
SELECT 'POINT(-0 0 0)'::gxgeom AS negative_zero, gx_setsrid('SRID=4326;POINT(1 2 3)', 0) = 'POINT(1 2 3)' AS setsrid_eq;
SELECT count(*) AS round_trips FROM (VALUES ('SRID=32633;LINESTRING Z (500000.1 7000000.2 -0.3,500001 7000001 0)'),
	('TIN(((0 0 0,1 0 0,0 1 0,0 0 0)),((0 0 1,1 0 1,0 1 1,0 0 1)))'), ('POINT(-0 5e-324 1e300)')) v(t)
WHERE t::gxgeom::text::gxgeom = t::gxgeom AND gx_geomfromwkb(gx_asewkb(t::gxgeom)) = t::gxgeom;

-- The order is total and consistent with =: antisymmetric, transitive, SRID first.
CREATE TEMP TABLE eq_vals (id int, g gxgeom);
INSERT INTO eq_vals VALUES (1, 'POINT(1 2 3)'), (2, 'POINT(1 2 3)'), (3, 'SRID=4326;POINT(1 2 3)'),
	(4, 'POINT(-0 0 0)'), (5, 'POINT(0 0 0)'), (6, 'TRIANGLE((0 0 0,1 0 0,0 1 0,0 0 0))'),
	(7, 'TIN(((0 0 0,1 0 0,0 1 0,0 0 0)))'), (8, 'POINT EMPTY'), (9, 'LINESTRING EMPTY'), (10, NULL),
	(11, 'SRID=4326;POINT(1 2 3)'), (12, 'SRID=2;LINESTRING(0 0 0,1 1 1)'), (13, 'TIN(((0 0 0,1 0 0,0 1 0,0 0 0)))');
SELECT count(*) FILTER (WHERE (a.g < b.g) <> (gxgeom_cmp(a.g, b.g) < 0) OR (a.g <= b.g) <> (gxgeom_cmp(a.g, b.g) <= 0)
		OR (a.g > b.g) <> (gxgeom_cmp(a.g, b.g) > 0) OR (a.g >= b.g) <> (gxgeom_cmp(a.g, b.g) >= 0)
		OR (a.g = b.g) <> (gxgeom_cmp(a.g, b.g) = 0) OR gxgeom_cmp(a.g, b.g) <> -gxgeom_cmp(b.g, a.g)
		OR (a.g = b.g AND gxgeom_hash(a.g) <> gxgeom_hash(b.g))) AS inconsistent,
	count(*) FILTER (WHERE a.g = b.g) AS equal_pairs
FROM eq_vals a, eq_vals b WHERE a.g IS NOT NULL AND b.g IS NOT NULL;
SELECT count(*) AS intransitive FROM eq_vals a, eq_vals b, eq_vals c WHERE a.g < b.g AND b.g < c.g AND NOT a.g < c.g;
SELECT array_agg(id ORDER BY g, id) AS by_srid_first FROM eq_vals WHERE gx_srid(g) <> 0;

-- DISTINCT, GROUP BY, UNION, INTERSECT, EXCEPT: hashed and sorted
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT DISTINCT g FROM eq_vals;
EXPLAIN (COSTS OFF) SELECT g FROM eq_vals UNION SELECT 'POINT(1 2 3)'::gxgeom;
SELECT count(DISTINCT g) AS distinct_agg, (SELECT count(*) FROM (SELECT DISTINCT g FROM eq_vals) d) AS distinct_rows
FROM eq_vals;
SELECT gx_asewkt(g) AS g, count(*), array_agg(id ORDER BY id) AS ids FROM eq_vals GROUP BY g ORDER BY 3;
SELECT count(*) AS union_rows FROM (SELECT g FROM eq_vals UNION SELECT 'POINT(1 2 3)'::gxgeom) u;
SELECT gx_asewkt(g) AS intersect_rows FROM (SELECT g FROM eq_vals WHERE id < 5 INTERSECT SELECT g FROM eq_vals WHERE id > 2) i
ORDER BY 1;
SELECT count(*) AS except_rows FROM (SELECT g FROM eq_vals EXCEPT SELECT g FROM eq_vals WHERE id > 5) e;
RESET enable_sort;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT DISTINCT g FROM eq_vals;
SELECT count(*) AS distinct_sorted FROM (SELECT DISTINCT g FROM eq_vals) d;
SELECT count(*) AS groups_sorted FROM (SELECT g FROM eq_vals GROUP BY g) d;
SELECT count(*) AS union_sorted FROM (SELECT g FROM eq_vals UNION SELECT 'POINT(1 2 3)'::gxgeom) u;
RESET enable_hashagg;

-- Joins on =: hash join and merge join give the same pairs as a nested loop.
CREATE TEMP TABLE eq_a AS SELECT i AS id, format('SRID=%s;POINT(%s %s 0)', i % 3, i % 17, i % 5)::gxgeom AS g
FROM generate_series(1, 2000) i;
CREATE TEMP TABLE eq_b AS SELECT i AS id, format('SRID=%s;POINT(%s %s 0)', i % 2, i % 13, i % 5)::gxgeom AS g
FROM generate_series(1, 300) i;
ANALYZE eq_a;
ANALYZE eq_b;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM eq_a a JOIN eq_b b ON a.g = b.g;
SELECT count(*) AS hash_join FROM eq_a a JOIN eq_b b ON a.g = b.g;
SET enable_hashjoin = off;
SET enable_mergejoin = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM eq_a a JOIN eq_b b ON a.g = b.g;
SELECT count(*) AS merge_join FROM eq_a a JOIN eq_b b ON a.g = b.g;
SET enable_mergejoin = off;
SET enable_nestloop = on;
SELECT count(*) AS nested_loop FROM eq_a a JOIN eq_b b ON a.g = b.g;
SELECT count(*) AS by_text FROM eq_a a JOIN eq_b b ON a.g::text = b.g::text;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_nestloop;

-- A btree index and a hash index on a gxgeom column.
CREATE INDEX eq_a_btree ON eq_a USING btree (g);
CREATE INDEX eq_b_hash ON eq_b USING hash (g);
SELECT opcname, amvalidate(oid) FROM pg_opclass WHERE opcname IN ('btree_gxgeom_ops', 'hash_gxgeom_ops') ORDER BY 1;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM eq_a WHERE g = 'SRID=2;POINT(3 3 0)';
SELECT count(*) AS btree_hits, (SELECT count(*) FROM eq_a WHERE g::text = 'SRID=2;POINT(3 3 0)'::gxgeom::text) AS reference
FROM eq_a WHERE g = 'SRID=2;POINT(3 3 0)';
EXPLAIN (COSTS OFF) SELECT id FROM eq_a WHERE g >= 'SRID=2;POINT(0 0 0)' ORDER BY g LIMIT 3;
SELECT count(*) AS btree_range FROM eq_a WHERE g > 'SRID=1;POINT(16 4 0)' AND g < 'SRID=2;POINT(0 0 0)';
EXPLAIN (COSTS OFF) SELECT count(*) FROM eq_b WHERE g = 'SRID=1;POINT(3 3 0)';
SELECT count(*) AS hash_hits, (SELECT count(*) FROM eq_b WHERE g::text = 'SRID=1;POINT(3 3 0)'::gxgeom::text) AS reference
FROM eq_b WHERE g = 'SRID=1;POINT(3 3 0)';
SELECT count(*) AS negative_zero_hits FROM eq_b WHERE g = 'SRID=1;POINT(-0 3 0)';
RESET enable_seqscan;
RESET enable_bitmapscan;

-- Hash partitioning (the extended hash function): every row lands in one partition and is found there.
CREATE TEMP TABLE eq_parts (id int, g gxgeom) PARTITION BY HASH (g);
CREATE TEMP TABLE eq_parts_0 PARTITION OF eq_parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TEMP TABLE eq_parts_1 PARTITION OF eq_parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO eq_parts SELECT * FROM eq_b;
SELECT (SELECT count(*) FROM eq_parts_0) > 0 AND (SELECT count(*) FROM eq_parts_1) > 0 AS both_used,
	(SELECT count(*) FROM eq_parts WHERE g = 'SRID=1;POINT(3 3 0)') AS pruned_hits;
EXPLAIN (COSTS OFF) SELECT * FROM eq_parts WHERE g = 'SRID=1;POINT(3 3 0)';

-- TOASTed values: out of line or in line, compressed or not (the plain table gets values built afresh:
-- a value copied from another table keeps its compression). Equal only to the identical value, whatever
-- the storage.
-- (a TIN of n triangles takes 72 (n + 1) bytes: a 64-byte header, an 8-byte node, 72 bytes a triangle;
-- the size of an out-of-line value leaves out its 4-byte length word)
CREATE TEMP TABLE eq_big (name text, g gxgeom);
CREATE TEMP TABLE eq_big_plain (name text, g gxgeom);
ALTER TABLE eq_big_plain ALTER COLUMN g SET STORAGE external;
CREATE FUNCTION eq_tin(n int, last float8) RETURNS gxgeom LANGUAGE sql IMMUTABLE AS $$
SELECT ('TIN Z (' || string_agg(format('((%s 0 0,%s 1 0,%s 0 1,%s 0 0))', i, i, CASE WHEN i = n THEN last ELSE i END, i), ',')
	|| ')')::gxgeom FROM generate_series(1, n) i $$;
CREATE TEMP VIEW eq_big_values AS VALUES ('big', eq_tin(20000, 0), 20000), ('last differs', eq_tin(20000, 1), 20000),
	('smaller', eq_tin(19999, 0), 19999), ('medium', eq_tin(40, 0), 40);
INSERT INTO eq_big SELECT column1, column2 FROM eq_big_values;
INSERT INTO eq_big_plain SELECT column1, column2 FROM eq_big_values;
SELECT name, pg_column_size(g) < 72 * (column3 + 1) AS compressed FROM eq_big JOIN eq_big_values ON name = column1
ORDER BY name;
SELECT name, pg_column_size(g) >= 72 * (column3 + 1) - 4 AS uncompressed FROM eq_big_plain JOIN eq_big_values ON name = column1
ORDER BY name;
SELECT pg_relation_size(reltoastrelid) > 0 AS out_of_line FROM pg_class WHERE relname IN ('eq_big', 'eq_big_plain');
SELECT a.name AS compressed, b.name AS uncompressed, a.g = b.g AS eq, a.g <> b.g AS ne,
	sign(gxgeom_cmp(a.g, b.g)) AS cmp, gxgeom_hash(a.g) = gxgeom_hash(b.g) AS same_hash
FROM eq_big a, eq_big_plain b ORDER BY 1, 2;
SELECT count(*) AS equal_to_fresh FROM eq_big WHERE g = eq_tin(20000, 0);
SELECT count(DISTINCT g) AS distinct_big FROM (SELECT g FROM eq_big UNION ALL SELECT g FROM eq_big_plain) u;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT a.name, b.name FROM eq_big a JOIN eq_big_plain b ON a.g = b.g ORDER BY 1;
RESET enable_mergejoin;
RESET enable_nestloop;
