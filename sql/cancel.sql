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
-- gx_makesolids stops too (2 000 copies of a torus of 5 000 triangles: seconds of work on one thread), and the
-- session goes on: threads, their tokens and the round's memory given back
CREATE TEMP TABLE torus AS
WITH p(i, j, t) AS (SELECT i, j, format('%s %s %s', (3 + cos(2 * pi() * j / 50)) * cos(2 * pi() * i / 50),
		(3 + cos(2 * pi() * j / 50)) * sin(2 * pi() * i / 50), sin(2 * pi() * j / 50))
	FROM generate_series(0, 49) i, generate_series(0, 49) j)
SELECT ('TIN Z (' || string_agg(format('((%s,%s,%s,%s)),((%s,%s,%s,%s))', a.t, b.t, c.t, a.t, a.t, c.t, d.t, a.t), ',') || ')')::gxgeom AS geom
FROM p a JOIN p b ON b.i = (a.i + 1) % 50 AND b.j = a.j JOIN p c ON c.i = (a.i + 1) % 50 AND c.j = (a.j + 1) % 50
	JOIN p d ON d.i = a.i AND d.j = (a.j + 1) % 50;
SELECT gx_issolid(gx_makesolid(geom)) FROM torus;
SET statement_timeout = '200ms';
SELECT count(*) FROM gx_makesolids('SELECT g, geom FROM torus, generate_series(1, 2000) g');
RESET statement_timeout;
SELECT count(*) FROM gx_makesolids('SELECT g, geom FROM torus, generate_series(1, 3) g');
-- gx_volume_pairs stops too, reading its boxes or computing their volumes (chunks of 1 000 boxes, each of them
-- cut by the surface of the torus made a solid), and the session goes on
CREATE TEMP TABLE torus_solid AS SELECT 1 AS id, gx_makesolid(geom) AS geom FROM torus;
SET gpuexact.join_batch_rows = 1000;
SET statement_timeout = '100ms';
SELECT count(*) FROM gx_volume_pairs('SELECT g, ''BOX3D(3.9 -0.1 -0.1,4.1 0.1 0.1)''::gxbox3d FROM generate_series(1, 100000000) g',
	'SELECT id, geom FROM torus_solid');
RESET statement_timeout;
SELECT count(*), sum(volume) > 0 AS positive FROM gx_volume_pairs('SELECT g, ''BOX3D(3.9 -0.1 -0.1,4.1 0.1 0.1)''::gxbox3d FROM generate_series(1, 3) g',
	'SELECT id, geom FROM torus_solid');
RESET gpuexact.join_batch_rows;
