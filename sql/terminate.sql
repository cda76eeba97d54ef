-- terminate: pg_terminate_backend ends a backend in the middle of a long batch at once (the engine polls
-- termination as well as cancel). The batch: 30 000 x 30 000 long segments crossing in one small region
-- on one thread, minutes of work. A second session (dblink) runs it; this one terminates it.
CREATE EXTENSION dblink;
CREATE TABLE te AS SELECT i AS id, format('LINESTRING(%s -1000 0, %s 1000 0)', i * 0.01, -i * 0.01)::gxgeom AS geom
FROM generate_series(1, 30000) i;
CREATE TABLE tn AS SELECT i AS id, format('LINESTRING(-1000 %s 0, 1000 %s 0)', i * 0.013, -i * 0.011)::gxgeom AS geom
FROM generate_series(1, 30000) i;
ANALYZE te;
ANALYZE tn;
SELECT dblink_connect('long', format('dbname=%s port=%s host=%s', current_database(), current_setting('port'),
	split_part(current_setting('unix_socket_directories'), ',', 1)));
SELECT pid AS long_pid FROM dblink('long', 'SELECT pg_backend_pid()') AS t(pid int) \gset
SELECT dblink_send_query('long', 'SET gpuexact.device = cpu; SET gpuexact.cpu_threads = 1; SET statement_timeout = ''10min'';
	SELECT count(*) FROM te e JOIN tn n ON gx_intersects(e.geom, n.geom)');
SELECT pg_sleep(2);
SELECT state, query LIKE '%JOIN tn%' AS in_the_join FROM pg_stat_activity WHERE pid = :long_pid;
SELECT pg_terminate_backend(:long_pid, 20000) AS terminated_within_20_s;
SELECT dblink_disconnect('long');
DROP TABLE te, tn;
DROP EXTENSION dblink;
