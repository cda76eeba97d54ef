-- bench/postgis.sql: the same workload (tables from bench/join.sql) in PostGIS: ST_3DIntersects with a 3D
-- GiST index (gist_geometry_ops_nd, &&&), timed, and its pairs compared with gpuexact's exact ones.
\set ON_ERROR_STOP on
CREATE EXTENSION IF NOT EXISTS postgis;
DROP TABLE IF EXISTS pg_a, pg_b;
CREATE TABLE pg_a AS SELECT id, gx_asewkb(geom)::geometry AS geom FROM bench_a;
CREATE TABLE pg_b AS SELECT id, gx_asewkb(geom)::geometry AS geom FROM bench_b;
CREATE INDEX ON pg_a USING gist (geom gist_geometry_ops_nd);
CREATE INDEX ON pg_b USING gist (geom gist_geometry_ops_nd);
ANALYZE pg_a;
ANALYZE pg_b;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT a.id, b.id FROM pg_a a JOIN pg_b b ON ST_3DIntersects(a.geom, b.geom);
CREATE TEMP TABLE postgis_pairs AS SELECT a.id AS a, b.id AS b FROM pg_a a JOIN pg_b b ON false;
\timing on
INSERT INTO postgis_pairs SELECT a.id, b.id FROM pg_a a JOIN pg_b b ON ST_3DIntersects(a.geom, b.geom);
\timing off
SET gpuexact.device = cpu;
CREATE TEMP TABLE gx_pairs AS SELECT a.id AS a, b.id AS b FROM bench_a a JOIN bench_b b ON false;
\timing on
INSERT INTO gx_pairs SELECT a.id, b.id FROM bench_a a JOIN bench_b b ON gx_intersects(a.geom, b.geom);
\timing off
SELECT (SELECT count(*) FROM postgis_pairs) AS postgis_pairs, (SELECT count(*) FROM gx_pairs) AS gpuexact_pairs,
	(SELECT count(*) FROM (SELECT * FROM postgis_pairs EXCEPT SELECT * FROM gx_pairs) d) AS postgis_only,
	(SELECT count(*) FROM (SELECT * FROM gx_pairs EXCEPT SELECT * FROM postgis_pairs) d) AS gpuexact_only;
