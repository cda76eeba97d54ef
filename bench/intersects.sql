-- bench/intersects.sql: issue 2's target through SQL: gx_intersects of a 10 000-segment polyline against a
-- 1 000 000-triangle TIN (data written by `build/bench_intersects --copy DIR`; psql -v dir=DIR).
\set ON_ERROR_STOP on
CREATE EXTENSION IF NOT EXISTS gpuexact;
DROP TABLE IF EXISTS bench_tin, bench_lines;
CREATE TABLE bench_tin (id int, geom gxgeom);
CREATE TABLE bench_lines (id int, geom gxgeom);
\set tin_file :dir '/tin.copy'
\set lines_file :dir '/lines.copy'
COPY bench_tin FROM :'tin_file';
COPY bench_lines FROM :'lines_file';
SELECT gx_ntriangles(geom) AS triangles, pg_size_pretty(pg_column_size(geom)::bigint) AS stored FROM bench_tin;
\timing on
-- each line: 1 = 5 cm above the surface (false, full search), 2 = dips through at its end, 3 = ends on a vertex
SELECT l.id, gx_nsegments(l.geom) AS segments, gx_intersects(l.geom, t.geom) FROM bench_lines l, bench_tin t WHERE l.id = 1;
SELECT l.id, gx_nsegments(l.geom) AS segments, gx_intersects(l.geom, t.geom) FROM bench_lines l, bench_tin t WHERE l.id = 1;
SELECT l.id, gx_nsegments(l.geom) AS segments, gx_intersects(l.geom, t.geom) FROM bench_lines l, bench_tin t WHERE l.id = 2;
SELECT l.id, gx_nsegments(l.geom) AS segments, gx_intersects(l.geom, t.geom) FROM bench_lines l, bench_tin t WHERE l.id = 3;
\timing off
