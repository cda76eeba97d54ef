-- bench/solids.sql: the mining workload written by `build/bench_batch mining 1 --copy DIR` (psql -v dir=DIR
-- -v device=gpu|cpu), its ore bodies made solids in SQL, then the geologist's queries timed: the batched
-- join with volume semantics, gx_intercepts_pairs, and the same intercepts through LATERAL gx_intercepts.
\ir mining_tables.sql
SET gpuexact.device = :'device';
\timing on
UPDATE bodies SET geom = gx_makesolid(geom);
\timing off
VACUUM ANALYZE holes;
VACUUM ANALYZE bodies;
SELECT count(*) AS solids, sum(gx_ntriangles(geom)) AS triangles FROM bodies WHERE gx_issolid(geom);
-- warm up, then time each query three times
SELECT count(*) FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
\timing on
SELECT count(*) AS join_pairs FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
SELECT count(*) AS join_pairs FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
SELECT count(*) AS join_pairs FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
SELECT count(*) AS intervals, round(sum(to_m - from_m)::numeric, 3) AS metres
	FROM gx_intercepts_pairs('SELECT id, geom FROM holes', 'SELECT id, geom FROM bodies');
SELECT count(*) AS intervals, round(sum(to_m - from_m)::numeric, 3) AS metres
	FROM gx_intercepts_pairs('SELECT id, geom FROM holes', 'SELECT id, geom FROM bodies');
SELECT count(*) AS intervals, round(sum(i.to_m - i.from_m)::numeric, 3) AS metres
	FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom), LATERAL gx_intercepts(h.geom, b.geom) AS i;
\timing off
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
-- the same answers through per-pair gx_intersects (no batched join)
SET gpuexact.enable_join = off;
SELECT count(*) AS per_pair_join_pairs FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
RESET gpuexact.enable_join;
