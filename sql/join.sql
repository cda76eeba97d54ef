-- join: the batched custom join and gx_intersecting_pairs give exactly the pairs of the per-pair plan.
CREATE TEMP TABLE holes AS
SELECT i AS hole_id, ('LINESTRING Z (' || string_agg(format('%s %s %s', 500000 + 10 * i + 3 * sin(k + i), 7000000 + 7 * i + 40 * k,
	100 - 15 * k), ',' ORDER BY k) || ')')::gxgeom AS geom
FROM generate_series(1, 300) i, generate_series(0, 12) k GROUP BY i;
CREATE TEMP TABLE bodies AS
SELECT j AS body_id, ('TIN Z (' || string_agg(format('((%s %s %s,%s %s %s,%s %s %s,%s %s %s))',
	x, y, z, x + 80, y, z - 5, x, y + 120, z + 3, x, y, z), ',') || ')')::gxgeom AS geom
FROM (SELECT j, t, 500000 + 97 * (j % 30) + 3 * t AS x, 7000000 + 41 * (j / 30) + 17 * t AS y, 20 - 9 * (j % 7) - t AS z
	  FROM generate_series(0, 89) j, generate_series(0, 20) t) s GROUP BY j;
INSERT INTO holes VALUES (301, NULL), (302, 'LINESTRING EMPTY');
ANALYZE holes;
ANALYZE bodies;
-- the reference: per-pair evaluation
SET gpuexact.enable_join = off;
CREATE TEMP TABLE ref AS SELECT h.hole_id, b.body_id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
SELECT count(*) AS reference_pairs FROM ref;
RESET gpuexact.enable_join;
-- the custom join
EXPLAIN (COSTS OFF) SELECT h.hole_id, b.body_id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
SELECT count(*) AS missing FROM (SELECT * FROM ref EXCEPT SELECT h.hole_id, b.body_id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom)) d;
SELECT count(*) AS extra FROM (SELECT h.hole_id, b.body_id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom) EXCEPT SELECT * FROM ref) d;
SELECT count(*) = (SELECT count(*) FROM ref) AS no_duplicates FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
-- argument order, small batches, other join clauses, filters on either side
SET gpuexact.join_batch_rows = 7;
SELECT (SELECT count(*) FROM holes h JOIN bodies b ON gx_intersects(b.geom, h.geom)) AS small_batches_swapped,
	(SELECT count(*) FROM ref) AS reference;
RESET gpuexact.join_batch_rows;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT h.hole_id, b.body_id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom)
	AND (h.hole_id + b.body_id) % 3 <> 0 WHERE b.body_id % 2 = 0 AND h.hole_id > 10;
SELECT (SELECT count(*) FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom) AND (h.hole_id + b.body_id) % 3 <> 0
		WHERE b.body_id % 2 = 0 AND h.hole_id > 10) AS custom,
	(SELECT count(*) FROM ref WHERE (hole_id + body_id) % 3 <> 0 AND body_id % 2 = 0 AND hole_id > 10) AS reference;
RESET enable_nestloop;
-- EXISTS: a semi join
EXPLAIN (COSTS OFF) SELECT hole_id FROM holes h WHERE EXISTS (SELECT 1 FROM bodies b WHERE gx_intersects(h.geom, b.geom));
SELECT (SELECT count(*) FROM holes h WHERE EXISTS (SELECT 1 FROM bodies b WHERE gx_intersects(h.geom, b.geom))) AS semi,
	(SELECT count(DISTINCT hole_id) FROM ref) AS reference;
-- a semi join with another join clause: an outer row counts if any partner passes that clause too
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT hole_id FROM holes h
WHERE EXISTS (SELECT 1 FROM bodies b WHERE gx_intersects(h.geom, b.geom) AND b.body_id > h.hole_id / 4);
SELECT (SELECT count(*) FROM holes h WHERE EXISTS (SELECT 1 FROM bodies b WHERE gx_intersects(h.geom, b.geom)
			AND b.body_id > h.hole_id / 4)) AS semi_with_clause,
	(SELECT count(DISTINCT hole_id) FROM ref WHERE body_id > hole_id / 4) AS reference;
RESET enable_nestloop;
-- left and anti joins (NOT EXISTS) run batched too: rows without a partner come out alone
SET enable_nestloop = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT h.hole_id, b.body_id FROM holes h LEFT JOIN bodies b ON gx_intersects(h.geom, b.geom) AND b.body_id % 2 = 0;
EXPLAIN (COSTS OFF) SELECT hole_id FROM holes h WHERE NOT EXISTS (SELECT 1 FROM bodies b WHERE gx_intersects(h.geom, b.geom));
SELECT (SELECT count(*) FROM holes h LEFT JOIN bodies b ON gx_intersects(h.geom, b.geom) AND b.body_id % 2 = 0) AS left_rows,
	(SELECT count(*) FROM holes h LEFT JOIN bodies b ON gx_intersects(h.geom, b.geom) AND b.body_id % 2 = 0 WHERE b.body_id IS NULL) AS left_alone,
	(SELECT count(*) FROM holes h WHERE NOT EXISTS (SELECT 1 FROM bodies b WHERE gx_intersects(h.geom, b.geom))) AS anti,
	(SELECT count(*) FROM holes h WHERE NOT EXISTS (SELECT 1 FROM bodies b WHERE gx_intersects(h.geom, b.geom) AND b.body_id > h.hole_id / 4)) AS anti_with_clause;
SELECT (SELECT count(*) FROM ref WHERE body_id % 2 = 0) + (SELECT count(*) FROM holes h WHERE NOT EXISTS (SELECT 1 FROM ref r
		WHERE r.hole_id = h.hole_id AND r.body_id % 2 = 0)) AS left_rows,
	(SELECT count(*) FROM holes h WHERE NOT EXISTS (SELECT 1 FROM ref r WHERE r.hole_id = h.hole_id AND r.body_id % 2 = 0)) AS left_alone,
	(SELECT count(*) FROM holes h WHERE hole_id NOT IN (SELECT hole_id FROM ref)) AS anti,
	(SELECT count(*) FROM holes h WHERE NOT EXISTS (SELECT 1 FROM ref r WHERE r.hole_id = h.hole_id AND r.body_id > h.hole_id / 4)) AS anti_with_clause;
SET gpuexact.join_batch_rows = 7;
SELECT count(*) AS left_rows_small_batches FROM holes h LEFT JOIN bodies b ON gx_intersects(h.geom, b.geom) AND b.body_id % 2 = 0;
RESET gpuexact.join_batch_rows;
RESET enable_nestloop;
RESET enable_hashjoin;
RESET enable_mergejoin;
-- statements that lock or modify rows (EvalPlanQual) keep the stock plan, with the same answer
EXPLAIN (COSTS OFF) SELECT h.hole_id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom) FOR UPDATE OF h;
SELECT count(*) AS locked_rows FROM (SELECT h.hole_id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom) FOR UPDATE OF h) l;
-- rescanned under a lateral parameter
SELECT v.k, s.n, (SELECT count(*) FROM ref WHERE body_id > v.k) AS reference
FROM (VALUES (10), (50)) v(k) CROSS JOIN LATERAL
	(SELECT count(*) AS n FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom) WHERE b.body_id > v.k) s;
-- EXPLAIN ANALYZE tells what happened (numbers that vary with the machine are masked)
CREATE FUNCTION explain_lines(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
		RETURN NEXT regexp_replace(l, 'Ran On: .*', 'Ran On: ...');
	END LOOP;
END $$;
SET gpuexact.device = cpu;
SELECT * FROM explain_lines('SELECT h.hole_id, b.body_id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom)');
RESET gpuexact.device;
-- gpuexact.device = gpu on a machine without a usable GPU: same answer, computed on the CPU
SET gpuexact.device = gpu;
SELECT count(*) = (SELECT count(*) FROM ref) AS same_on_fallback FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
RESET gpuexact.device;

-- gx_intersecting_pairs: the same pairs from two queries
SELECT count(*) AS missing FROM (SELECT * FROM ref EXCEPT
	SELECT * FROM gx_intersecting_pairs('SELECT hole_id, geom FROM holes', 'SELECT body_id, geom FROM bodies')) d;
SELECT count(*) AS extra FROM (SELECT * FROM gx_intersecting_pairs('SELECT hole_id, geom FROM holes', 'SELECT body_id, geom FROM bodies')
	EXCEPT SELECT * FROM ref) d;
SELECT count(*) FROM gx_intersecting_pairs('SELECT hole_id::int2, geom FROM holes WHERE hole_id < 100',
	'SELECT body_id::bigint, geom FROM bodies') p JOIN holes h ON h.hole_id = p.a_id;
-- bad queries
SELECT * FROM gx_intersecting_pairs('SELECT hole_id FROM holes', 'SELECT body_id, geom FROM bodies');
SELECT * FROM gx_intersecting_pairs('SELECT hole_id::text, geom FROM holes', 'SELECT body_id, geom FROM bodies');
SELECT * FROM gx_intersecting_pairs('SELECT hole_id, geom::text FROM holes', 'SELECT body_id, geom FROM bodies');
SELECT * FROM gx_intersecting_pairs('SELECT NULL::int, geom FROM holes', 'SELECT body_id, geom FROM bodies');
SELECT * FROM gx_intersecting_pairs('SELECT hole_id, geom FROM no_such_table', 'SELECT body_id, geom FROM bodies');
SELECT * FROM gx_intersecting_pairs('SELECT 1, ''SRID=4326;POINT(0 0 0)''::gxgeom', 'SELECT 1, ''SRID=32633;POINT(0 0 0)''::gxgeom');
SELECT count(*) AS holes_left FROM holes;
-- a new session's first statement already gets the custom join: planning gx_intersects loads the library
-- (through its support function), which installs the planner hook; no shared_preload_libraries needed
CREATE TABLE join_holes AS SELECT * FROM holes;
CREATE TABLE join_bodies AS SELECT * FROM bodies;
\c
EXPLAIN (COSTS OFF) SELECT h.hole_id, b.body_id FROM join_holes h JOIN join_bodies b ON gx_intersects(h.geom, b.geom);
DROP TABLE join_holes, join_bodies;
