-- bench/join.sql: a workload written by `build/bench_batch ... --copy DIR` (psql -v dir=DIR -v device=gpu|cpu
-- [-v compression=pglz|lz4]) as tables, then the batched join timed as SQL (tuples in, tuples out), EXPLAIN
-- ANALYZE, and the answer checked against the engine's own pair list (DIR/pairs.txt).
\set ON_ERROR_STOP on
\if :{?compression}
\else
\set compression pglz
\endif
CREATE EXTENSION IF NOT EXISTS gpuexact;
DROP TABLE IF EXISTS bench_a, bench_b, bench_pairs;
CREATE TABLE bench_a (id int PRIMARY KEY, geom gxgeom COMPRESSION :compression);
CREATE TABLE bench_b (id int PRIMARY KEY, geom gxgeom COMPRESSION :compression);
CREATE TABLE bench_pairs (a int, b int);
\set a_file :dir '/a.copy'
\set b_file :dir '/b.copy'
\set pairs_file :dir '/pairs.txt'
COPY bench_a FROM :'a_file';
COPY bench_b FROM :'b_file';
COPY bench_pairs FROM :'pairs_file' WITH (DELIMITER '|');
ANALYZE bench_a;
ANALYZE bench_b;
SELECT (SELECT count(*) FROM bench_a) AS a_rows, (SELECT sum(gx_nsegments(geom) + gx_ntriangles(geom)) FROM bench_a) AS a_elements,
	(SELECT count(*) FROM bench_b) AS b_rows, (SELECT sum(gx_nsegments(geom) + gx_ntriangles(geom)) FROM bench_b) AS b_elements;
SET gpuexact.device = :'device';
SET gpuexact.gpu_min_elements = 0;
-- warm up (first use loads the CUDA engine and initialises the device), then time it three times
SELECT count(*) FROM bench_a a JOIN bench_b b ON gx_intersects(a.geom, b.geom);
\o /dev/null
\timing on
SELECT a.id, b.id FROM bench_a a JOIN bench_b b ON gx_intersects(a.geom, b.geom);
SELECT a.id, b.id FROM bench_a a JOIN bench_b b ON gx_intersects(a.geom, b.geom);
SELECT a.id, b.id FROM bench_a a JOIN bench_b b ON gx_intersects(a.geom, b.geom);
\timing off
\o
EXPLAIN (ANALYZE, COSTS OFF) SELECT a.id, b.id FROM bench_a a JOIN bench_b b ON gx_intersects(a.geom, b.geom);
\timing on
SELECT count(*) AS srf_pairs FROM gx_intersecting_pairs('SELECT id, geom FROM bench_a', 'SELECT id, geom FROM bench_b');
\timing off
SELECT (SELECT count(*) FROM bench_pairs) AS engine_pairs,
	(SELECT count(*) FROM (SELECT a.id, b.id FROM bench_a a JOIN bench_b b ON gx_intersects(a.geom, b.geom)
		EXCEPT SELECT a, b FROM bench_pairs) d) AS sql_not_in_engine,
	(SELECT count(*) FROM (SELECT a, b FROM bench_pairs EXCEPT
		SELECT a.id, b.id FROM bench_a a JOIN bench_b b ON gx_intersects(a.geom, b.geom)) d) AS engine_not_in_sql;
