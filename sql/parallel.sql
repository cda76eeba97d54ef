-- parallel: gx_intersects is parallel safe, and a parallel plan gives the serial plan's answer; the custom
-- join runs above a Gather of a parallel scan.
CREATE TABLE par_segments AS
SELECT i AS id, format('LINESTRING(%s %s %s, %s %s %s)', i % 100, i / 100, i % 7, (i % 100) + 0.5, (i / 100) + 0.5, i % 7 + 0.5)::gxgeom AS geom
FROM generate_series(0, 19999) i;
CREATE TABLE par_planes AS
SELECT j AS id, format('TRIANGLE((0 0 %s, 200 0 %s, 0 400 %s, 0 0 %s))', j, j, j, j)::gxgeom AS geom
FROM generate_series(1, 9) j;
ANALYZE par_segments;
ANALYZE par_planes;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_segments WHERE gx_intersects(geom, 'TRIANGLE((0 0 5, 200 0 5, 0 400 5, 0 0 5))');
SELECT count(*) FROM par_segments WHERE gx_intersects(geom, 'TRIANGLE((0 0 5, 200 0 5, 0 400 5, 0 0 5))');
SET gpuexact.device = cpu;
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_segments s JOIN par_planes p ON gx_intersects(s.geom, p.geom);
SELECT count(*) FROM par_segments s JOIN par_planes p ON gx_intersects(s.geom, p.geom);
SET max_parallel_workers_per_gather = 0;
SET gpuexact.enable_join = off;
SELECT count(*) FROM par_segments s JOIN par_planes p ON gx_intersects(s.geom, p.geom);
SELECT count(*) FROM par_segments WHERE gx_intersects(geom, 'TRIANGLE((0 0 5, 200 0 5, 0 400 5, 0 0 5))');
DROP TABLE par_segments, par_planes;
