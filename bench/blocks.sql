-- bench/blocks.sql: block-model coding on the mining workload written by `build/bench_batch mining SCALE --copy
-- DIR` (psql -v dir=DIR -v blocks=N): a regular model of about N block centroids over the ore bodies' extent,
-- joined with the bodies made solids (a centroid inside a body is coded with it) and, for comparison, with the
-- same bodies as plain surfaces (a centroid on a triangle only); then the holes joined with the solids, and
-- gx_intercepts_pairs of them. Each query warmed once, then timed three times. Every table is vacuumed (all
-- pages all-visible), so that the joins keep their sides as whole tables.
\ir mining_tables.sql
DROP TABLE IF EXISTS surfaces, blocks;
CREATE TABLE surfaces AS SELECT id, geom FROM bodies;
UPDATE bodies SET geom = gx_makesolid(geom);
\set bodies bodies
\ir block_model.sql
VACUUM ANALYZE blocks;
VACUUM ANALYZE bodies;
VACUUM ANALYZE surfaces;
VACUUM ANALYZE holes;
SELECT count(*) AS blocks FROM blocks;
SELECT count(*) AS solids, sum(gx_ntriangles(geom)) AS triangles FROM bodies;
\set q 'SELECT count(*) AS coded FROM blocks p JOIN bodies b ON gx_intersects(p.geom, b.geom)'
\ir time_three.sql
\set q 'SELECT count(*) AS on_surfaces FROM blocks p JOIN surfaces b ON gx_intersects(p.geom, b.geom)'
\ir time_three.sql
\set q 'SELECT count(*) AS holes_in_solids FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom)'
\ir time_three.sql
\set q 'SELECT count(*) AS intervals FROM gx_intercepts_pairs(''SELECT id, geom FROM holes'', ''SELECT id, geom FROM bodies'')'
\ir time_three.sql
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT count(*) FROM blocks p JOIN bodies b ON gx_intersects(p.geom, b.geom);
