-- bench/overlaps.sql: the domain overlap check on the mining workload written by
-- `build/bench_batch mining SCALE --copy DIR` (psql -v dir=DIR): the ore bodies made solids, then
-- gx_overlap_pairs of the bodies against themselves timed three times (bench/overlaps_timed.sql), and its volumes
-- checked pair by pair against gx_intersection_volume.
\ir mining_tables.sql
UPDATE bodies SET geom = gx_makesolid(geom);
SELECT count(*) AS solids, sum(gx_ntriangles(geom)) AS triangles FROM bodies;
\ir overlaps_timed.sql
-- per pair = batch: every row's volume is gx_intersection_volume's, bit for bit
SELECT count(*) AS rows_off FROM gx_overlap_pairs('SELECT id, geom FROM bodies', 'SELECT id, geom FROM bodies') p
  JOIN bodies a ON a.id = p.a_id JOIN bodies b ON b.id = p.b_id WHERE p.volume <> gx_intersection_volume(a.geom, b.geom);
