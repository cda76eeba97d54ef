-- bench/overlaps_timed.sql: included by bench/overlaps.sql, and run alone on tables it loaded: gx_overlap_pairs of
-- the ore bodies (the table bodies, made solids) against themselves, timed three times.
\timing on
SELECT count(*) AS pairs, count(*) FILTER (WHERE a_id < b_id) AS overlapping, round(sum(volume)::numeric, 1) AS volume
FROM gx_overlap_pairs('SELECT id, geom FROM bodies', 'SELECT id, geom FROM bodies');
SELECT count(*) AS pairs, count(*) FILTER (WHERE a_id < b_id) AS overlapping, round(sum(volume)::numeric, 1) AS volume
FROM gx_overlap_pairs('SELECT id, geom FROM bodies', 'SELECT id, geom FROM bodies');
SELECT count(*) AS pairs, count(*) FILTER (WHERE a_id < b_id) AS overlapping, round(sum(volume)::numeric, 1) AS volume
FROM gx_overlap_pairs('SELECT id, geom FROM bodies', 'SELECT id, geom FROM bodies');
\timing off
