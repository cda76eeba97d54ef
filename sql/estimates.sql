-- estimates: ANALYZE keeps box statistics of gxgeom columns, and the planner estimates gx_intersects and the
-- box operators from them. Estimates are checked against the actual rows within a factor of 10, so that the
-- expected output does not depend on exact floating-point figures.
SET max_parallel_workers_per_gather = 0;

-- 'ok' when EXPLAIN's estimate of the top plan node (or of its inner child) is within a factor of 10 of the
-- rows it actually returned (both taken as at least 1); otherwise both figures.
CREATE FUNCTION est_check(q text, node text DEFAULT 'top') RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	p json;
	est float8;
	act float8;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF, SUMMARY OFF) ' || q INTO p;
	p := p -> 0 -> 'Plan';
	IF node = 'inner' THEN
		p := p -> 'Plans' -> 1;
	END IF;
	est := greatest((p ->> 'Plan Rows')::float8, 1);
	act := greatest((p ->> 'Actual Rows')::float8, 1);
	RETURN CASE WHEN est BETWEEN act / 10 AND act * 10 THEN 'ok'
		ELSE format('estimated %s, actual %s', est, act) END;
END $$;
CREATE FUNCTION est_node(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE p json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO p;
	RETURN concat_ws(' ', p -> 0 -> 'Plan' ->> 'Node Type', p -> 0 -> 'Plan' ->> 'Custom Plan Provider');
END $$;
-- Is there a box statistics slot for the column?
CREATE FUNCTION est_has_boxes(rel regclass) RETURNS boolean LANGUAGE sql AS $$
SELECT coalesce(bool_or(17813 IN (stakind1, stakind2, stakind3, stakind4, stakind5)), false)
FROM pg_statistic WHERE starelid = rel AND staattnum = (SELECT attnum FROM pg_attribute WHERE attrelid = rel AND attname = 'geom')
$$;

-- Ore bodies: 60 octahedra of radius 40-100 m at UTM coordinates, 100-250 m deep. Drill holes: a 20 x 20
-- grid of collars, each a polyline of 4 segments down to 400 m with some drift; plus a NULL and an EMPTY.
CREATE TABLE est_bodies (body_id int, geom gxgeom);
INSERT INTO est_bodies
SELECT j, format('SRID=32633;TIN Z (((%1$s %2$s %6$s,%4$s %2$s %3$s,%1$s %5$s %3$s,%1$s %2$s %6$s)),'
	'((%1$s %2$s %6$s,%1$s %5$s %3$s,%7$s %2$s %3$s,%1$s %2$s %6$s)),((%1$s %2$s %6$s,%7$s %2$s %3$s,%1$s %8$s %3$s,%1$s %2$s %6$s)),'
	'((%1$s %2$s %6$s,%1$s %8$s %3$s,%4$s %2$s %3$s,%1$s %2$s %6$s)),((%1$s %2$s %9$s,%4$s %2$s %3$s,%1$s %5$s %3$s,%1$s %2$s %9$s)),'
	'((%1$s %2$s %9$s,%1$s %5$s %3$s,%7$s %2$s %3$s,%1$s %2$s %9$s)),((%1$s %2$s %9$s,%7$s %2$s %3$s,%1$s %8$s %3$s,%1$s %2$s %9$s)),'
	'((%1$s %2$s %9$s,%1$s %8$s %3$s,%4$s %2$s %3$s,%1$s %2$s %9$s)))',
	cx, cy, cz, cx + r, cy + r, cz + r / 2, cx - r, cy - r, cz - r / 2)::gxgeom
FROM (SELECT j, 500000 + 330 * (j % 6) + 37 * sin(j) AS cx, 7000000 + 300 * (j / 6) + 41 * cos(j) AS cy,
		-100 - 50 * (j % 4) AS cz, 40 + 10 * (j % 7) AS r
	  FROM generate_series(0, 59) j) s;
CREATE TABLE est_holes (hole_id int, geom gxgeom);
INSERT INTO est_holes
SELECT 100 * gx + gy, ('SRID=32633;LINESTRING Z (' || string_agg(format('%s %s %s',
	499950 + 100 * gx + k * (15 + 10 * sin(gx + gy)), 6999950 + 150 * gy + k * 12 * cos(gx * gy), -100 * k), ',' ORDER BY k)
	|| ')')::gxgeom
FROM generate_series(0, 19) gx, generate_series(0, 19) gy, generate_series(0, 4) k GROUP BY gx, gy;
INSERT INTO est_holes VALUES (-1, NULL), (-2, 'LINESTRING EMPTY');
ANALYZE est_bodies;
ANALYZE est_holes;
SELECT est_has_boxes('est_bodies') AS bodies_boxes, est_has_boxes('est_holes') AS holes_boxes;
SELECT count(*) AS pairs FROM est_holes h JOIN est_bodies b ON gx_intersects(h.geom, b.geom);

-- Joins: the batched custom join's rows, the per-pair plan's, the box join's, semi and anti joins
SELECT est_node('SELECT h.hole_id, b.body_id FROM est_holes h JOIN est_bodies b ON gx_intersects(h.geom, b.geom)') AS plan,
	est_check('SELECT h.hole_id, b.body_id FROM est_holes h JOIN est_bodies b ON gx_intersects(h.geom, b.geom)') AS estimate;
SELECT est_check('SELECT h.hole_id, b.body_id FROM est_holes h JOIN est_bodies b ON gx_intersects(b.geom, h.geom)') AS swapped,
	est_check('SELECT hole_id FROM est_holes h WHERE EXISTS (SELECT 1 FROM est_bodies b WHERE gx_intersects(h.geom, b.geom))') AS semi,
	est_check('SELECT body_id FROM est_bodies b WHERE EXISTS (SELECT 1 FROM est_holes h WHERE gx_intersects(h.geom, b.geom))') AS semi_bodies,
	est_check('SELECT hole_id FROM est_holes h WHERE NOT EXISTS (SELECT 1 FROM est_bodies b WHERE gx_intersects(h.geom, b.geom))') AS anti,
	est_check('SELECT h.hole_id, b.body_id FROM est_holes h JOIN est_bodies b ON h.geom &&& b.geom') AS box_join;
SET gpuexact.enable_join = off;
SELECT est_node('SELECT h.hole_id, b.body_id FROM est_holes h JOIN est_bodies b ON gx_intersects(h.geom, b.geom)') AS plan,
	est_check('SELECT h.hole_id, b.body_id FROM est_holes h JOIN est_bodies b ON gx_intersects(h.geom, b.geom)') AS estimate;
-- a nested loop over a GiST index: the inner scan's rows per outer row, estimated from both columns' boxes
CREATE INDEX est_holes_gist ON est_holes USING gist (geom);
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT est_node('SELECT h.hole_id, b.body_id FROM est_bodies b JOIN est_holes h ON gx_intersects(h.geom, b.geom)') AS plan,
	est_check('SELECT h.hole_id, b.body_id FROM est_bodies b JOIN est_holes h ON gx_intersects(h.geom, b.geom)', 'inner') AS inner_scan;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET gpuexact.enable_join;

-- Restrictions: a constant geometry, a constant box, a box that holds everything, one that holds nothing,
-- an EMPTY constant, a NULL
SELECT est_check($$SELECT hole_id FROM est_holes WHERE gx_intersects(geom,
	'SRID=32633;TRIANGLE Z ((499900 6999900 -250,501200 6999900 -250,499900 7002000 -250,499900 6999900 -250))')$$) AS triangle,
	est_check($$SELECT hole_id FROM est_holes WHERE geom &&& 'BOX3D(500500 7000500 -400,501000 7001500 -300)'::gxbox3d$$) AS box,
	est_check($$SELECT body_id FROM est_bodies WHERE geom &&& 'BOX3D(500400 7000000 -200,500800 7003000 -100)'::gxbox3d$$) AS box_bodies,
	est_check($$SELECT hole_id FROM est_holes WHERE geom &&& 'BOX3D(0 0 -1000,1e7 1e7 0)'::gxbox3d$$) AS everything,
	est_check($$SELECT hole_id FROM est_holes WHERE geom &&& 'BOX3D(0 0 1,1e7 1e7 2)'::gxbox3d$$) AS nothing,
	est_check($$SELECT hole_id FROM est_holes WHERE gx_intersects(geom, 'POINT EMPTY')$$) AS empty,
	est_check($$SELECT hole_id FROM est_holes WHERE gx_intersects(geom, NULL::gxgeom)$$) AS null;
SELECT est_check($$SELECT hole_id FROM est_holes WHERE geom ~ 'POINT(500000 7000000 -50)'::gxgeom$$) AS contains,
	est_check($$SELECT hole_id FROM est_holes WHERE geom @ 'BOX3D(499000 6999000 -500,500600 7004000 100)'::gxbox3d$$) AS within;

-- Clustered data: two clumps of short segments far apart; a query between them finds nothing, one on a
-- clump finds it.
CREATE TABLE est_clumps (id int, geom gxgeom);
INSERT INTO est_clumps SELECT i, format('LINESTRING(%s %s %s,%s %s %s)', x, y, z, x + 2, y + 1, z + 1)::gxgeom
FROM (SELECT i, CASE WHEN i % 2 = 0 THEN 0 ELSE 10000 END + i % 97 AS x, i % 89 AS y, i % 13 AS z
	FROM generate_series(1, 5000) i) s;
ANALYZE est_clumps;
SELECT est_check($$SELECT id FROM est_clumps WHERE geom &&& 'BOX3D(4000 0 0,6000 100 20)'::gxbox3d$$) AS between_clumps,
	est_check($$SELECT id FROM est_clumps WHERE geom &&& 'BOX3D(10000 0 0,10050 50 20)'::gxbox3d$$) AS on_a_clump,
	est_check($$SELECT a.id, b.id FROM est_clumps a JOIN est_clumps b ON a.geom &&& b.geom WHERE a.id < 300$$) AS self_join;

-- ANALYZE on awkward tables: no rows, only NULLs, only EMPTYs, and huge values (TINs of 20 000 triangles,
-- 1.4 MB, stored compressed in about 32 TOAST pages each), of which only the header is read: ANALYZE touches
-- a page or so of TOAST per value, reading the values whole touches them all.
CREATE TABLE est_none (geom gxgeom);
CREATE TABLE est_nulls (geom gxgeom);
CREATE TABLE est_empties (geom gxgeom);
INSERT INTO est_nulls SELECT NULL FROM generate_series(1, 100);
INSERT INTO est_empties SELECT (ARRAY['POINT EMPTY', 'TIN EMPTY', 'GEOMETRYCOLLECTION EMPTY'])[i % 3 + 1]::gxgeom
FROM generate_series(1, 100) i;
ANALYZE est_none;
ANALYZE est_nulls;
ANALYZE est_empties;
SELECT est_has_boxes('est_none') AS none_boxes, est_has_boxes('est_nulls') AS nulls_boxes,
	est_has_boxes('est_empties') AS empties_boxes;
SELECT est_check($$SELECT * FROM est_none WHERE gx_intersects(geom, 'POINT(1 2 3)')$$) AS none,
	est_check($$SELECT * FROM est_nulls WHERE gx_intersects(geom, 'POINT(1 2 3)')$$) AS nulls,
	est_check($$SELECT * FROM est_empties WHERE gx_intersects(geom, 'POINT(1 2 3)')$$) AS empties,
	est_check($$SELECT * FROM est_empties e JOIN est_holes h ON gx_intersects(e.geom, h.geom)$$) AS empties_join;

CREATE TABLE est_huge (id int, geom gxgeom);
INSERT INTO est_huge SELECT k, ('TIN Z (' || string_agg(format('((%1$s %2$s 0,%3$s %2$s 0,%1$s %4$s 1,%1$s %2$s 0))',
	500000 + k * 1000 + i % 200 * 2.5, 7000000 + i / 200 * 2.5, 500002 + k * 1000 + i % 200 * 2.5, 7000002 + i / 200 * 2.5), ',')
	|| ')')::gxgeom
FROM generate_series(1, 3) k, generate_series(0, 19999) i GROUP BY k;
INSERT INTO est_huge SELECT 10 + i, format('LINESTRING(%s 7000100 -1,%s 7000100 2)', 500000 + 300 * i, 500000 + 300 * i)::gxgeom
FROM generate_series(0, 14) i;
SELECT pg_stat_force_next_flush() \gset
SELECT toast_blks_read + toast_blks_hit AS toast_before FROM pg_statio_user_tables WHERE relname = 'est_huge' \gset
ANALYZE est_huge;
SELECT pg_stat_force_next_flush() \gset
SELECT toast_blks_read + toast_blks_hit - :toast_before < 10 AS analyze_reads_headers_only
FROM pg_statio_user_tables WHERE relname = 'est_huge';
SELECT est_has_boxes('est_huge') AS huge_boxes,
	est_check($$SELECT id FROM est_huge WHERE geom &&& 'BOX3D(501000 7000000 0,501100 7000100 1)'::gxbox3d$$) AS huge_box,
	est_check($$SELECT a.id, b.id FROM est_huge a JOIN est_huge b ON a.geom &&& b.geom$$) AS huge_join;
-- reading the values whole, for comparison
SELECT sum(gx_ntriangles(geom)) FROM est_huge;
SELECT pg_stat_force_next_flush() \gset
SELECT toast_blks_read + toast_blks_hit - :toast_before > 60 AS full_read_touches_toast
FROM pg_statio_user_tables WHERE relname = 'est_huge';

-- Without statistics the estimates are constants, and plans still come out.
CREATE TABLE est_fresh (geom gxgeom);
INSERT INTO est_fresh SELECT geom FROM est_holes;
SELECT est_node($$SELECT * FROM est_fresh WHERE gx_intersects(geom, 'POINT(1 2 3)')$$) AS restriction,
	est_node($$SELECT * FROM est_fresh f JOIN est_bodies b ON gx_intersects(f.geom, b.geom)$$) AS join;

DROP TABLE est_bodies, est_holes, est_clumps, est_none, est_nulls, est_empties, est_huge, est_fresh;
