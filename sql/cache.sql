-- cache: the geometry cache keeps sides of TOASTed values, and of values stored inline, flattened between
-- queries, and no change to the data can make it answer from old geometry: every answer below is compared
-- with the stock plan's.
CREATE TABLE cbodies (id int, geom gxgeom);
ALTER TABLE cbodies ALTER COLUMN geom SET STORAGE EXTERNAL;	-- out of line, uncompressed: TOASTed for sure
CREATE FUNCTION cbody(j int, z float8) RETURNS gxgeom LANGUAGE sql AS $$
 SELECT ('TIN Z (' || string_agg(format('((%s %s %s,%s %s %s,%s %s %s,%s %s %s))', 10 * j + i, k, z, 10 * j + i + 1, k, z,
	10 * j + i, k + 1, z, 10 * j + i, k, z), ',') || ')')::gxgeom FROM generate_series(0, 9) i, generate_series(0, 9) k $$;
INSERT INTO cbodies SELECT j, cbody(j, 0) FROM generate_series(0, 19) j;
CREATE TABLE choles AS SELECT i AS id, format('LINESTRING Z (%s 5.5 -1,%s 5.5 1)', i + 0.5, i + 0.5)::gxgeom AS geom
FROM generate_series(0, 199) i;
ANALYZE cbodies;
ANALYZE choles;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
-- the batched join's count and the stock plan's
CREATE FUNCTION both_counts(OUT batched bigint, OUT stock bigint) LANGUAGE plpgsql AS $$
BEGIN
	PERFORM set_config('gpuexact.enable_join', 'on', true);
	EXECUTE 'SELECT count(*) FROM choles h JOIN cbodies b ON gx_intersects(h.geom, b.geom)' INTO batched;
	PERFORM set_config('gpuexact.enable_join', 'off', true);
	EXECUTE 'SELECT count(*) FROM choles h JOIN cbodies b ON gx_intersects(h.geom, b.geom)' INTO stock;
	PERFORM set_config('gpuexact.enable_join', 'on', true);
END $$;
EXPLAIN (COSTS OFF) SELECT count(*) FROM choles h JOIN cbodies b ON gx_intersects(h.geom, b.geom);
SELECT gx_cache_reset();
SELECT * FROM both_counts();
SELECT * FROM both_counts();
SELECT sum(entries) >= 1 AS kept, sum(hits) >= 1 AS hit FROM gx_cache_stats();
-- the same side through gx_intersecting_pairs
SELECT count(*) FROM gx_intersecting_pairs('SELECT id, geom FROM choles', 'SELECT id, geom FROM cbodies');
SELECT sum(hits) >= 2 AS hit_again FROM gx_cache_stats();
-- identities read from the rows themselves: a join, and a pair function, probe no TOAST index; a side read
-- through a sort (copies of the rows) is identified with one probe per value, with the same answer
SELECT gx_stats_reset();
SELECT * FROM both_counts();
SELECT count(*) FROM gx_intersecting_pairs('SELECT id, geom FROM choles', 'SELECT id, geom FROM cbodies');
SELECT value AS probes_from_rows FROM gx_stats() WHERE counter = 'toast_index_probes';
SELECT count(*) FROM gx_intersecting_pairs('SELECT id, geom FROM choles', 'SELECT id, geom FROM cbodies ORDER BY id DESC');
SELECT value AS probes_from_copies FROM gx_stats() WHERE counter = 'toast_index_probes';
-- UPDATE: body 3 moves away
UPDATE cbodies SET geom = cbody(3, 50) WHERE id = 3;
SELECT * FROM both_counts();
-- DELETE + INSERT
DELETE FROM cbodies WHERE id = 4;
INSERT INTO cbodies VALUES (4, cbody(4, 70));
SELECT * FROM both_counts();
-- a rolled-back transaction: the moved body comes back
BEGIN;
UPDATE cbodies SET geom = cbody(3, 0) WHERE id = 3;
SELECT * FROM both_counts();
ROLLBACK;
SELECT * FROM both_counts();
-- TRUNCATE and reload with other bodies
TRUNCATE cbodies;
INSERT INTO cbodies SELECT j, cbody(j, CASE WHEN j % 2 = 0 THEN 0 ELSE 9 END) FROM generate_series(0, 19) j;
SELECT * FROM both_counts();
-- VACUUM FULL rewrites the table and its TOAST values
DELETE FROM cbodies WHERE id < 5;
VACUUM FULL cbodies;
SELECT * FROM both_counts();
-- DROP and re-create under the same name
DROP TABLE cbodies;
CREATE TABLE cbodies (id int, geom gxgeom);
ALTER TABLE cbodies ALTER COLUMN geom SET STORAGE EXTERNAL;
INSERT INTO cbodies SELECT j, cbody(j, 0) FROM generate_series(0, 9) j;
ANALYZE cbodies;
SELECT * FROM both_counts();
-- values stored compressed (pglz, lz4: decompressed in parallel), out of line and inline
CREATE TABLE cbig (id int, geom gxgeom);
CREATE TABLE cbig_lz4 (id int, geom gxgeom COMPRESSION lz4);
INSERT INTO cbig SELECT j, ('TIN Z (' || string_agg(format('((%s %s 0,%s %s 0,%s %s 0,%s %s 0))', 10 * j + i / 20.0, k / 20.0,
	10 * j + (i + 1) / 20.0, k / 20.0, 10 * j + i / 20.0, (k + 1) / 20.0, 10 * j + i / 20.0, k / 20.0), ',') || ')')::gxgeom
FROM generate_series(0, 9) j, generate_series(0, 199) i, generate_series(0, 199) k WHERE j < 3 OR i < 20 GROUP BY j;
INSERT INTO cbig_lz4 SELECT * FROM cbig;
SELECT count(*) FILTER (WHERE pg_column_size(geom) < gx_npoints(geom) * 24) AS compressed FROM cbig;
SELECT (SELECT count(*) FROM choles h JOIN cbig b ON gx_intersects(h.geom, b.geom)) AS pglz_batched,
	(SELECT count(*) FROM choles h JOIN cbig_lz4 b ON gx_intersects(h.geom, b.geom)) AS lz4_batched;
SET gpuexact.enable_join = off;
SELECT (SELECT count(*) FROM choles h JOIN cbig b ON gx_intersects(h.geom, b.geom)) AS pglz_stock,
	(SELECT count(*) FROM choles h JOIN cbig_lz4 b ON gx_intersects(h.geom, b.geom)) AS lz4_stock;
RESET gpuexact.enable_join;
DROP TABLE cbig, cbig_lz4;
-- the cache stays within its bound, and can be turned off
SET gpuexact.cache_host_mb = 0;
SELECT * FROM both_counts();
RESET gpuexact.cache_host_mb;
SELECT bytes <= 256 * 1024 * 1024 AS within_bound FROM gx_cache_stats() WHERE scope = 'backend host';
-- a side too large for the cache is flattened for its query alone: what the cache keeps stays
CREATE TABLE chuge (id int, geom gxgeom);
ALTER TABLE chuge ALTER COLUMN geom SET STORAGE EXTERNAL;
INSERT INTO chuge SELECT j, cbody(j, 0) FROM generate_series(0, 299) j;
SET gpuexact.cache_host_mb = 1;
SELECT gx_cache_reset();
SELECT * FROM both_counts();
SELECT entries AS kept_before FROM gx_cache_stats() WHERE scope = 'backend host';
SET gpuexact.enable_join = on;
SELECT count(*) AS huge_batched FROM choles h JOIN chuge b ON gx_intersects(h.geom, b.geom);
SET gpuexact.enable_join = off;
SELECT count(*) AS huge_stock FROM choles h JOIN chuge b ON gx_intersects(h.geom, b.geom);
RESET gpuexact.enable_join;
SELECT entries AS kept_after, bytes <= 1024 * 1024 AS within_bound FROM gx_cache_stats() WHERE scope = 'backend host';
SELECT * FROM both_counts();
SELECT hits >= 1 AS still_hit FROM gx_cache_stats() WHERE scope = 'backend host';
RESET gpuexact.cache_host_mb;
DROP TABLE chuge;
-- a side of values stored inline (the holes) is kept under an identity of its bytes: a changed value (of the
-- same size), the same rows in another order, or fewer rows make another side. Pairs, batched against stock:
CREATE FUNCTION pair_diff(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE d bigint;
BEGIN
	PERFORM set_config('gpuexact.enable_join', 'on', true);
	EXECUTE 'CREATE TEMP TABLE pb AS ' || q;
	PERFORM set_config('gpuexact.enable_join', 'off', true);
	EXECUTE 'CREATE TEMP TABLE ps AS ' || q;
	PERFORM set_config('gpuexact.enable_join', 'on', true);
	SELECT count(*) INTO d FROM ((TABLE pb EXCEPT ALL TABLE ps) UNION ALL (TABLE ps EXCEPT ALL TABLE pb)) x;
	DROP TABLE pb, ps;
	RETURN d;
END $$;
SELECT gx_cache_reset();
SELECT pair_diff('SELECT h.id AS h, b.id AS b FROM choles h JOIN cbodies b ON gx_intersects(h.geom, b.geom)') AS first,
	pair_diff('SELECT h.id AS h, b.id AS b FROM choles h JOIN cbodies b ON gx_intersects(h.geom, b.geom)') AS again;
SELECT hits >= 2 AS both_sides_hit FROM gx_cache_stats() WHERE scope = 'backend host';
UPDATE choles SET geom = 'LINESTRING Z (7.5 5.5 5,7.5 5.5 6)' WHERE id = 7;
SELECT pg_column_size(geom) = (SELECT pg_column_size(geom) FROM choles WHERE id = 8) AS same_size FROM choles WHERE id = 7;
SELECT pair_diff('SELECT h.id AS h, b.id AS b FROM choles h JOIN cbodies b ON gx_intersects(h.geom, b.geom)') AS moved,
	pair_diff('SELECT h.id AS h, b.id AS b FROM (SELECT * FROM choles ORDER BY id DESC) h JOIN cbodies b ON gx_intersects(h.geom, b.geom)') AS reversed,
	pair_diff('SELECT h.id AS h, b.id AS b FROM (SELECT * FROM choles ORDER BY id) h JOIN cbodies b ON gx_intersects(h.geom, b.geom)') AS in_order,
	pair_diff('SELECT h.id AS h, b.id AS b FROM (SELECT * FROM choles WHERE id % 2 = 0) h JOIN cbodies b ON gx_intersects(h.geom, b.geom)') AS fewer;
SELECT count(*) AS holes_meeting_bodies FROM choles h JOIN cbodies b ON gx_intersects(h.geom, b.geom);
-- an inline side in more batches than a few memos would hold: a repeated join finds every batch again
SET gpuexact.join_batch_rows = 20;
SELECT gx_cache_reset();
SELECT pair_diff('SELECT h.id AS h, b.id AS b FROM choles h JOIN cbodies b ON gx_intersects(h.geom, b.geom)') AS batches;
SELECT misses AS first_misses FROM gx_cache_stats() WHERE scope = 'backend host' \gset
SELECT pair_diff('SELECT h.id AS h, b.id AS b FROM choles h JOIN cbodies b ON gx_intersects(h.geom, b.geom)') AS again;
SELECT misses = :first_misses AS no_batch_read_again FROM gx_cache_stats() WHERE scope = 'backend host';
RESET gpuexact.join_batch_rows;
RESET enable_hashjoin;
RESET enable_mergejoin;
DROP TABLE cbodies, choles;
DROP FUNCTION both_counts(), cbody(int, float8), pair_diff(text);
