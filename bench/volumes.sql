-- bench/volumes.sql: block proportions on the mining workload written by `build/bench_batch mining 1 --copy DIR`
-- (psql -v dir=DIR -v blocks=N): the ore bodies made solids, a regular block model of about N blocks over
-- their extent, then gx_volume_pairs timed three times, and the proportions checked against gx_volume.
\ir mining_tables.sql
UPDATE bodies SET geom = gx_makesolid(geom);
DROP TABLE IF EXISTS blocks;
-- cubic blocks of the side that gives about :blocks blocks over the bodies' extent
CREATE TABLE blocks AS
WITH e AS (SELECT gx_extent(geom)::text AS t FROM bodies),
     b AS (SELECT string_to_array(replace(replace(replace(t, 'BOX3D(', ''), ')', ''), ',', ' '), ' ')::float8[] AS v FROM e),
     s AS (SELECT v, cbrt((v[4] - v[1]) * (v[5] - v[2]) * (v[6] - v[3]) / :blocks) AS side FROM b)
SELECT row_number() OVER ()::int AS id,
       format('BOX3D(%s %s %s,%s %s %s)', v[1] + i * side, v[2] + j * side, v[3] + k * side,
              v[1] + (i + 1) * side, v[2] + (j + 1) * side, v[3] + (k + 1) * side)::gxbox3d AS box
FROM s, generate_series(0, ceil((v[4] - v[1]) / side)::int - 1) i, generate_series(0, ceil((v[5] - v[2]) / side)::int - 1) j,
     generate_series(0, ceil((v[6] - v[3]) / side)::int - 1) k;
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
