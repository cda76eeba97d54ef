-- bench/volumes.sql: block proportions on the mining workload written by `build/bench_batch mining 1 --copy DIR`
-- (psql -v dir=DIR -v blocks=N): the ore bodies made solids, a regular block model of about N blocks over
-- their extent, then gx_volume_pairs timed three times, and the proportions checked against gx_volume.
\ir mining_tables.sql
UPDATE bodies SET geom = gx_makesolid(geom);
\set bodies bodies
\ir block_model.sql
SELECT count(*) AS blocks FROM blocks;
SELECT count(*) AS solids, sum(gx_ntriangles(geom)) AS triangles, round(sum(gx_volume(geom))::numeric, 1) AS volume FROM bodies;
\timing on
SELECT count(*) AS block_pairs, round(sum(volume)::numeric, 1) AS volume FROM gx_volume_pairs('SELECT id, box FROM blocks', 'SELECT id, geom FROM bodies');
SELECT count(*) AS block_pairs, round(sum(volume)::numeric, 1) AS volume FROM gx_volume_pairs('SELECT id, box FROM blocks', 'SELECT id, geom FROM bodies');
SELECT count(*) AS block_pairs, round(sum(volume)::numeric, 1) AS volume FROM gx_volume_pairs('SELECT id, box FROM blocks', 'SELECT id, geom FROM bodies');
\timing off
-- the proportions add up to each body's volume (to rounding)
SELECT count(*) AS bodies_off FROM (
  SELECT b_id, sum(volume) AS v FROM gx_volume_pairs('SELECT id, box FROM blocks', 'SELECT id, geom FROM bodies') GROUP BY b_id) p
  JOIN bodies b ON b.id = p.b_id WHERE abs(p.v - gx_volume(b.geom)) > 1e-9 * gx_volume(b.geom);
