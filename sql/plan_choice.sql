-- plan_choice: with GiST indexes on both sides, as the docs recommend, the planner picks the batched join
-- where it does less work than a nested loop over an index, and the nested loop where that does less: a
-- call of gx_intersects costs by the elements of its geometries (column statistics), the batch by the sides
-- it reads and probes.
SET max_parallel_workers_per_gather = 0;
-- the join node of a plan: 'Nested Loop', 'Custom Scan GpuexactJoin', ...
CREATE FUNCTION join_node(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE j json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
	WITH RECURSIVE nodes(n, d) AS (SELECT j->0->'Plan', 0 UNION ALL SELECT c, d + 1 FROM nodes, json_array_elements(n->'Plans') c)
	SELECT concat_ws(' ', n->>'Node Type', n->>'Custom Plan Provider') INTO STRICT q FROM nodes
	WHERE n->>'Node Type' IN ('Nested Loop', 'Hash Join', 'Merge Join') OR n->>'Custom Plan Provider' = 'GpuexactJoin'
	ORDER BY d LIMIT 1;
	RETURN q;
END $$;
-- a cube of side l at (x, y, z), each face a grid of n x n squares of two triangles: 12 n^2 triangles
CREATE FUNCTION pc_pt(a int, s int, u int, v int, x float8, y float8, z float8, l float8, n int) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
SELECT CASE a WHEN 0 THEN format('%s %s %s', x + s * l, y + u * l / n, z + v * l / n)
	WHEN 1 THEN format('%s %s %s', x + u * l / n, y + s * l, z + v * l / n)
	ELSE format('%s %s %s', x + u * l / n, y + v * l / n, z + s * l) END $$;
CREATE FUNCTION pc_cube(x float8, y float8, z float8, l float8, n int) RETURNS gxgeom LANGUAGE sql AS $$
SELECT gx_makesolid(('TIN Z (' || string_agg(format('((%s,%s,%s,%s))', pc_pt(a, s, i, j, x, y, z, l, n),
	pc_pt(a, s, i + 1, j + k, x, y, z, l, n), pc_pt(a, s, i + 1 - k, j + 1, x, y, z, l, n), pc_pt(a, s, i, j, x, y, z, l, n)), ',') || ')')::gxgeom)
FROM generate_series(0, 2) a, generate_series(0, 1) s, generate_series(0, n - 1) i, generate_series(0, n - 1) j,
	(VALUES (0), (1)) t(k) $$;
-- 20 cubes of 1 728 triangles, 20 000 points over them (5 000 inside), 2 000 vertical holes of 10 segments
CREATE TABLE pc_solids AS SELECT c AS id, pc_cube(20 * (c % 5), 20 * (c / 5), 0, 10, 12) AS geom FROM generate_series(0, 19) c;
CREATE TABLE pc_points AS SELECT i AS id, format('POINT Z (%s %s %s)', (i % 50) * 2 + 0.5, (i / 50 % 40) * 2 + 0.5, (i / 2000) + 0.5)::gxgeom AS geom
FROM generate_series(0, 19999) i;
CREATE TABLE pc_holes AS SELECT h AS id, ('LINESTRING Z (' || string_agg(format('%s %s %s', (h % 50) * 2 + 0.25, (h / 50) * 2 + 0.25, 12 - 1.5 * k), ',' ORDER BY k) || ')')::gxgeom AS geom
FROM generate_series(0, 1999) h, generate_series(0, 10) k GROUP BY h;
CREATE TABLE pc_few AS SELECT id, geom FROM pc_points WHERE id IN (1, 2, 3);
CREATE TABLE pc_ten AS SELECT id, geom FROM pc_points WHERE id < 10;
CREATE INDEX ON pc_solids USING gist (geom);
CREATE INDEX ON pc_points USING gist (geom);
CREATE INDEX ON pc_holes USING gist (geom);
CREATE INDEX ON pc_few USING gist (geom);
CREATE INDEX ON pc_ten USING gist (geom);
VACUUM ANALYZE pc_solids;
VACUUM ANALYZE pc_points;
VACUUM ANALYZE pc_holes;
VACUUM ANALYZE pc_few;
VACUUM ANALYZE pc_ten;
SELECT sum(gx_ntriangles(geom)) AS triangles FROM pc_solids;
-- a few points against the solids: a nested loop probing the solids' index (a batch would read every solid)
SELECT join_node('SELECT p.id, b.id FROM pc_few p JOIN pc_solids b ON gx_intersects(p.geom, b.geom)') AS small_x_large;
-- two small tables: a nested loop
SELECT join_node('SELECT p.id, q.id FROM pc_ten p JOIN pc_ten q ON gx_intersects(p.geom, q.geom)') AS both_small;
-- many points against the solids: the batch
SELECT join_node('SELECT p.id, b.id FROM pc_points p JOIN pc_solids b ON gx_intersects(p.geom, b.geom)') AS points_x_solids;
SELECT join_node('SELECT p.id FROM pc_points p WHERE EXISTS (SELECT FROM pc_solids b WHERE gx_intersects(p.geom, b.geom))') AS points_in_any;
-- the same answers either way
SELECT count(*) AS coded FROM pc_points p JOIN pc_solids b ON gx_intersects(p.geom, b.geom);
SELECT count(*) AS holes_pairs FROM pc_holes h JOIN pc_solids b ON gx_intersects(h.geom, b.geom);
SELECT count(*) AS few_pairs FROM pc_few p JOIN pc_solids b ON gx_intersects(p.geom, b.geom);
SET gpuexact.enable_join = off;
SELECT count(*) AS coded FROM pc_points p JOIN pc_solids b ON gx_intersects(p.geom, b.geom);
SELECT count(*) AS holes_pairs FROM pc_holes h JOIN pc_solids b ON gx_intersects(h.geom, b.geom);
RESET gpuexact.enable_join;
-- once the solids are kept in this backend (read whole by the joins above), a batch for a few points
-- probes them without reading them: the batch
SELECT join_node('SELECT p.id, b.id FROM pc_few p JOIN pc_solids b ON gx_intersects(p.geom, b.geom)') AS small_x_kept;
DROP TABLE pc_solids, pc_points, pc_holes, pc_few, pc_ten;
DROP FUNCTION join_node(text), pc_cube(float8, float8, float8, float8, int), pc_pt(int, int, int, int, float8, float8, float8, float8, int);
