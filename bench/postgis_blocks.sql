-- bench/postgis_blocks.sql: block-model coding in gpuexact and in PostGIS (with SFCGAL), on the mining workload
-- written by `build/bench_batch mining 1 --copy DIR` (psql -v dir=DIR -v blocks=N -v nbodies=M): the first M ore
-- bodies made solids, a regular model of about N block centroids over their extent, and the centroids inside
-- a body. gpuexact: the join on gx_intersects (warmed, then three runs); PostGIS: ST_3DIntersects against
-- ST_MakeSolid bodies with an n-D GiST index (one run: it takes minutes). The counts must agree.
\set ON_ERROR_STOP on
\ir mining_tables.sql
CREATE EXTENSION IF NOT EXISTS postgis;
CREATE EXTENSION IF NOT EXISTS postgis_sfcgal;
DROP TABLE IF EXISTS some_bodies, pg_bodies, pg_blocks;
CREATE TABLE some_bodies AS SELECT id, gx_makesolid(geom) AS geom FROM bodies WHERE id <= :nbodies;
\set bodies some_bodies
\ir block_model.sql
VACUUM ANALYZE blocks;
VACUUM ANALYZE some_bodies;
SELECT count(*) AS blocks FROM blocks;
SELECT count(*) AS solids, sum(gx_ntriangles(geom)) AS triangles FROM some_bodies;
\set q 'SELECT count(*) AS gpuexact_coded FROM blocks p JOIN some_bodies b ON gx_intersects(p.geom, b.geom)'
\ir time_three.sql
CREATE TABLE pg_bodies AS SELECT id, ST_MakeSolid(ST_GeomFromEWKB(gx_asewkb(geom))) AS geom FROM some_bodies;
CREATE TABLE pg_blocks AS SELECT id, ST_SetSRID(ST_GeomFromEWKB(gx_asewkb(geom)), (SELECT ST_SRID(geom) FROM pg_bodies LIMIT 1)) AS geom FROM blocks;
CREATE INDEX ON pg_bodies USING gist (geom gist_geometry_ops_nd);
CREATE INDEX ON pg_blocks USING gist (geom gist_geometry_ops_nd);
ANALYZE pg_bodies;
ANALYZE pg_blocks;
SET max_parallel_workers_per_gather = 0;
\timing on
SELECT count(*) AS postgis_coded FROM pg_blocks p JOIN pg_bodies b ON ST_3DIntersects(p.geom, b.geom);
\timing off
