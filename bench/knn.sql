-- bench/knn.sql: nearest-neighbour latency with the GiST index: ORDER BY geom <-> q LIMIT 10 over :n points
-- and :n drill-hole-like segments (UTM coordinates), 200 query points each, as a session types it.
-- Usage: psql -v n=100000 -f bench/knn.sql   (prints the median and 95th percentile in ms per query)
\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS gpuexact;
DROP TABLE IF EXISTS knn_points, knn_lines;
SELECT setseed(0.25);
CREATE TABLE knn_points AS SELECT k AS id, format('SRID=32633;POINT(%s %s %s)', 500000 + random() * 5000,
	7000000 + random() * 5000, -random() * 800)::gxgeom AS geom FROM generate_series(1, :n) k;
CREATE TABLE knn_lines AS SELECT k AS id, format('SRID=32633;LINESTRING(%1$s %2$s %3$s, %4$s %5$s %6$s)',
	x, y, z, x + 20 * random(), y + 20 * random(), z - 50) ::gxgeom AS geom
	FROM (SELECT k, 500000 + random() * 5000 AS x, 7000000 + random() * 5000 AS y, -random() * 800 AS z
		FROM generate_series(1, :n) k) s;
CREATE INDEX ON knn_points USING gist (geom);
CREATE INDEX ON knn_lines USING gist (geom);
VACUUM ANALYZE knn_points;
VACUUM ANALYZE knn_lines;
CREATE OR REPLACE FUNCTION pg_temp.knn_latency(source regclass) RETURNS TABLE (tab text, rows bigint, median_ms float8, p95_ms float8)
LANGUAGE plpgsql AS $$
DECLARE
	q gxgeom;
	t0 timestamptz;
	ms float8[] := '{}';
BEGIN
	PERFORM setseed(0.5);
	FOR i IN 1 .. 200 LOOP
		q := format('SRID=32633;POINT(%s %s %s)', 500000 + random() * 5000, 7000000 + random() * 5000, -random() * 800)::gxgeom;
		t0 := clock_timestamp();
		EXECUTE format('SELECT count(*) FROM (SELECT id FROM %s ORDER BY geom <-> $1 LIMIT 10) s', source) USING q;
		ms := ms || extract(epoch FROM clock_timestamp() - t0) * 1000;
	END LOOP;
	RETURN QUERY SELECT source::text, (SELECT count(*) FROM knn_points),
		percentile_cont(0.5) WITHIN GROUP (ORDER BY m), percentile_cont(0.95) WITHIN GROUP (ORDER BY m) FROM unnest(ms) m;
END $$;
EXPLAIN (COSTS OFF) SELECT id FROM knn_lines ORDER BY geom <-> 'SRID=32633;POINT(502500 7002500 -400)' LIMIT 10;
SELECT * FROM pg_temp.knn_latency('knn_points') UNION ALL SELECT * FROM pg_temp.knn_latency('knn_lines');
