-- bench/block_model.sql: included by bench/volumes.sql and bench/blocks.sql, run by bench/mine_scale.sh
-- (psql -v blocks=N -v bodies=TABLE): the table blocks (id, box, geom) of a regular model of about N cubic
-- blocks over the extent of TABLE's geometries: each block's box and its centroid.
DROP TABLE IF EXISTS blocks;
CREATE TABLE blocks AS
WITH e AS (SELECT gx_extent(geom)::text AS t FROM :"bodies"),
     b AS (SELECT string_to_array(replace(replace(replace(t, 'BOX3D(', ''), ')', ''), ',', ' '), ' ')::float8[] AS v FROM e),
     s AS (SELECT v, cbrt((v[4] - v[1]) * (v[5] - v[2]) * (v[6] - v[3]) / :blocks) AS side FROM b)
SELECT row_number() OVER ()::int AS id,
       format('BOX3D(%s %s %s,%s %s %s)', v[1] + i * side, v[2] + j * side, v[3] + k * side,
              v[1] + (i + 1) * side, v[2] + (j + 1) * side, v[3] + (k + 1) * side)::gxbox3d AS box,
       format('POINT Z (%s %s %s)', v[1] + (i + 0.5) * side, v[2] + (j + 0.5) * side, v[3] + (k + 0.5) * side)::gxgeom AS geom
FROM s, generate_series(0, ceil((v[4] - v[1]) / side)::int - 1) i, generate_series(0, ceil((v[5] - v[2]) / side)::int - 1) j,
     generate_series(0, ceil((v[6] - v[3]) / side)::int - 1) k;
