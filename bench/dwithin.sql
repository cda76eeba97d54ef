-- bench/dwithin.sql: the mining workload written by `build/bench_batch mining 1 --copy DIR` (psql -v dir=DIR
-- -v device=gpu|cpu): "which holes pass within 25 m of an ore body", as the batched join on gx_dwithin,
-- timed (warm), with EXPLAIN ANALYZE, checked against gx_dwithin_pairs.
\ir mining_tables.sql
VACUUM ANALYZE holes;
VACUUM ANALYZE bodies;
SET gpuexact.device = :'device';
SET gpuexact.gpu_min_elements = 0;
SELECT count(*) FROM holes h JOIN bodies b ON gx_dwithin(h.geom, b.geom, 25);
\timing on
SELECT count(*) AS pairs_25m FROM holes h JOIN bodies b ON gx_dwithin(h.geom, b.geom, 25);
SELECT count(*) AS pairs_25m FROM holes h JOIN bodies b ON gx_dwithin(h.geom, b.geom, 25);
SELECT count(*) AS pairs_25m FROM holes h JOIN bodies b ON gx_dwithin(h.geom, b.geom, 25);
SELECT count(*) AS intersecting FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
SELECT count(*) AS pairs_25m_srf FROM gx_dwithin_pairs('SELECT id, geom FROM holes', 'SELECT id, geom FROM bodies', 25);
\timing off
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_dwithin(h.geom, b.geom, 25);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
