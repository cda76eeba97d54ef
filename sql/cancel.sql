-- cancel: statement_timeout (and so query cancel) stops a long batch, in the custom join and in
-- gx_intersecting_pairs; the session then works normally. The data puts 2 x 2 500 long segments in the plane
-- z = 0 through one small region: every one of the 6 250 000 pairs crosses, in the same few cells.
CREATE TEMP TABLE east AS SELECT i AS id, format('LINESTRING(%s -1000 0, %s 1000 0)', i * 0.01, -i * 0.01)::gxgeom AS geom
FROM generate_series(1, 2500) i;
CREATE TEMP TABLE north AS SELECT i AS id, format('LINESTRING(-1000 %s 0, 1000 %s 0)', i * 0.013, -i * 0.011)::gxgeom AS geom
FROM generate_series(1, 2500) i;
ANALYZE east;
ANALYZE north;
SET gpuexact.device = cpu;
SET gpuexact.cpu_threads = 1;
SET statement_timeout = '100ms';
SELECT count(*) FROM east e JOIN north n ON gx_intersects(e.geom, n.geom);
SELECT count(*) FROM gx_intersecting_pairs('SELECT id, geom FROM east', 'SELECT id, geom FROM north');
RESET statement_timeout;
-- the same session goes on, and a small join still gives its answer
SELECT count(*) FROM east e JOIN north n ON gx_intersects(e.geom, n.geom) WHERE e.id <= 20 AND n.id <= 20;
SET gpuexact.enable_join = off;
SELECT count(*) FROM east e JOIN north n ON gx_intersects(e.geom, n.geom) WHERE e.id <= 20 AND n.id <= 20;
