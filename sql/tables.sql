-- tables: a join side that is a whole table, all-visible after VACUUM or with every row settled, is kept between
-- queries with its rows' locations; a repeated join reads only the rows of its answer. No change to the table can make it answer
-- from old rows: every answer below is compared with the stock plan's, pair by pair.
CREATE TABLE tblocks (id int, note text, geom gxgeom);
INSERT INTO tblocks SELECT i, 'block ' || i, format('POINT Z (%s %s %s)', i % 20 + 0.5, (i / 20) % 20 + 0.5, i / 400 - 0.5)::gxgeom
FROM generate_series(0, 1599) i;
INSERT INTO tblocks VALUES (1600, 'no geometry', NULL);
CREATE TABLE tbodies (id int, geom gxgeom);
ALTER TABLE tbodies ALTER COLUMN geom SET STORAGE EXTERNAL;
-- body j: a closed box of 3 x 3 x 2 over cell j of a 5 x 5 grid, moved by dx
CREATE FUNCTION tbox(j int, dx float8) RETURNS gxgeom LANGUAGE sql AS $$
SELECT gx_makesolid(('TIN Z (' ||
	format('((%1$s %2$s 0,%3$s %2$s 0,%1$s %4$s 0,%1$s %2$s 0)),((%3$s %2$s 0,%3$s %4$s 0,%1$s %4$s 0,%3$s %2$s 0)),', x0, y0, x1, y1) ||
	format('((%1$s %2$s 2,%1$s %4$s 2,%3$s %2$s 2,%1$s %2$s 2)),((%3$s %2$s 2,%1$s %4$s 2,%3$s %4$s 2,%3$s %2$s 2)),', x0, y0, x1, y1) ||
	format('((%1$s %2$s 0,%1$s %2$s 2,%3$s %2$s 0,%1$s %2$s 0)),((%3$s %2$s 0,%1$s %2$s 2,%3$s %2$s 2,%3$s %2$s 0)),', x0, y0, x1, y1) ||
	format('((%1$s %4$s 0,%3$s %4$s 0,%1$s %4$s 2,%1$s %4$s 0)),((%3$s %4$s 0,%3$s %4$s 2,%1$s %4$s 2,%3$s %4$s 0)),', x0, y0, x1, y1) ||
	format('((%1$s %2$s 0,%1$s %4$s 0,%1$s %2$s 2,%1$s %2$s 0)),((%1$s %4$s 0,%1$s %4$s 2,%1$s %2$s 2,%1$s %4$s 0)),', x0, y0, x1, y1) ||
	format('((%3$s %2$s 0,%3$s %2$s 2,%3$s %4$s 0,%3$s %2$s 0)),((%3$s %4$s 0,%3$s %2$s 2,%3$s %4$s 2,%3$s %4$s 0)))', x0, y0, x1, y1))::gxgeom)
FROM (SELECT 4 * (j % 5) + dx AS x0, 4 * (j % 5) + 3 + dx AS x1, 4 * (j / 5) AS y0, 4 * (j / 5) + 3 AS y1) c $$;
INSERT INTO tbodies SELECT j, tbox(j, 0) FROM generate_series(0, 24) j;
VACUUM ANALYZE tblocks;
VACUUM ANALYZE tbodies;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
-- pairs of the batched plan not in the stock plan's, and the other way round
CREATE FUNCTION table_diff(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE d bigint;
BEGIN
	PERFORM set_config('gpuexact.enable_join', 'on', true);
	EXECUTE 'CREATE TEMP TABLE tb AS ' || q;
	PERFORM set_config('gpuexact.enable_join', 'off', true);
	EXECUTE 'CREATE TEMP TABLE ts AS ' || q;
	PERFORM set_config('gpuexact.enable_join', 'on', true);
	SELECT count(*) INTO d FROM ((TABLE tb EXCEPT ALL TABLE ts) UNION ALL (TABLE ts EXCEPT ALL TABLE tb)) x;
	DROP TABLE tb, ts;
	RETURN d;
END $$;
-- what EXPLAIN ANALYZE says of the sides
CREATE FUNCTION whole_tables(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
		IF l ~ 'Whole Tables' THEN RETURN trim(l); END IF;
	END LOOP;
	RETURN 'rows read from the plans';
END $$;
CREATE VIEW coding AS SELECT p.id AS block, p.note, b.id AS body FROM tblocks p JOIN tbodies b ON gx_intersects(p.geom, b.geom);
SELECT gx_stats_reset();
SELECT whole_tables('SELECT * FROM coding') AS first;
SELECT whole_tables('SELECT * FROM coding') AS again;
SELECT counter, value FROM gx_stats() WHERE counter LIKE 'table_sides%' ORDER BY counter;
SELECT table_diff('SELECT * FROM coding') AS kept, count(*) AS coded FROM coding;
SELECT block, note, body FROM coding WHERE block IN (3, 421, 845) ORDER BY block;
-- a query reading only columns passed by value (ids, grades, flags) builds the rows of its pairs from those
-- columns, kept with the side, and fetches none (NULLs among them stay NULL); a count needs no column
CREATE TABLE tgrades AS SELECT id, CASE WHEN id % 7 = 0 THEN NULL ELSE id / 10.0 END::float8 AS grade,
	id % 3 = 0 AS oxide, geom FROM tblocks;
VACUUM tgrades;
SELECT whole_tables('SELECT p.id, p.grade, b.id FROM tgrades p JOIN tbodies b ON gx_intersects(p.geom, b.geom)') AS first_read,
	whole_tables('SELECT p.id, p.grade, b.id FROM tgrades p JOIN tbodies b ON gx_intersects(p.geom, b.geom)') AS kept;
SELECT table_diff('SELECT * FROM (SELECT p.id, p.grade, p.oxide, b.id AS body FROM tgrades p JOIN tbodies b
	ON gx_intersects(p.geom, b.geom) OFFSET 0) j WHERE grade > 100 OR grade IS NULL') AS by_value_diff,
	whole_tables('SELECT * FROM (SELECT p.id, p.grade, p.oxide, b.id AS body FROM tgrades p JOIN tbodies b
	ON gx_intersects(p.geom, b.geom) OFFSET 0) j WHERE grade > 100 OR grade IS NULL') AS filtered_above,
	(SELECT count(*) FROM tgrades p JOIN tbodies b ON gx_intersects(p.geom, b.geom) WHERE p.grade IS NULL) AS null_grades;
SELECT whole_tables('SELECT count(*) FROM tgrades p JOIN tbodies b ON gx_intersects(p.geom, b.geom)') AS counted;
DROP TABLE tgrades;
-- the geometry cache emptied: the rows' locations are still known, the geometries read again
SELECT gx_cache_reset();
SELECT whole_tables('SELECT * FROM coding') AS cache_emptied, table_diff('SELECT * FROM coding') AS cache_emptied_diff;
-- other join types over kept tables: semi, anti, left (with the row without a geometry)
SELECT table_diff('SELECT id FROM tblocks p WHERE EXISTS (SELECT 1 FROM tbodies b WHERE gx_intersects(p.geom, b.geom))') AS semi,
	table_diff('SELECT id FROM tblocks p WHERE NOT EXISTS (SELECT 1 FROM tbodies b WHERE gx_intersects(p.geom, b.geom))') AS anti,
	table_diff('SELECT p.id AS p, b.id AS b FROM tblocks p LEFT JOIN tbodies b ON gx_intersects(p.geom, b.geom)') AS left_join,
	table_diff('SELECT a.id AS a, b.id AS b FROM tbodies a JOIN tbodies b ON gx_intersects(a.geom, b.geom)') AS self_join;
-- a kept outer side rescanned under a lateral parameter (the inner side filtered by it), and a cursor
-- fetched in parts (the rows' pages stay pinned between fetches, and are let go at its end)
SELECT table_diff('SELECT v.k, s.n FROM (VALUES (0), (7), (30)) v(k) CROSS JOIN LATERAL
	(SELECT count(*) AS n FROM tblocks p JOIN tbodies b ON gx_intersects(p.geom, b.geom) WHERE b.id > v.k) s') AS lateral_diff;
BEGIN;
DECLARE kept CURSOR FOR SELECT block, body FROM coding;
FETCH 3 FROM kept;
FETCH 2 FROM kept;
CLOSE kept;
COMMIT;
SELECT block, body FROM coding ORDER BY block, body LIMIT 5;
-- a filtered side, or the setting off, reads the plan's rows
SELECT whole_tables('SELECT p.id, b.id FROM tblocks p JOIN tbodies b ON gx_intersects(p.geom, b.geom) WHERE p.id < 800') AS filtered;
SET gpuexact.keep_tables = off;
SELECT whole_tables('SELECT * FROM coding') AS setting_off, table_diff('SELECT * FROM coding') AS setting_off_diff;
RESET gpuexact.keep_tables;
-- without the geometry cache, or for values that would not fit it, the rows are read from the plan (a table
-- found too large is not read whole again); on the CPU here, since a join's inner side the GPU service keeps
-- need not fit this backend's cache
SET gpuexact.device = cpu;
CREATE TABLE tbig (id int, geom gxgeom);
ALTER TABLE tbig ALTER COLUMN geom SET STORAGE EXTERNAL;
INSERT INTO tbig SELECT j, ('TIN Z (' || string_agg(format('((%s %s 0,%s %s 0,%s %s 1,%s %s 0))', i / 10.0, j / 3.0,
	i / 10.0 + 0.1, j / 3.0, i / 10.0, j / 3.0, i / 10.0, j / 3.0), ',') || ')')::gxgeom
FROM generate_series(0, 49) j, generate_series(0, 199) i GROUP BY j;
VACUUM tbig;
SET gpuexact.cache_host_mb = 1;
SELECT gx_stats_reset();
SELECT whole_tables('SELECT p.id, b.id FROM tblocks p JOIN tbig b ON gx_intersects(p.geom, b.geom)') AS too_large,
	table_diff('SELECT p.id AS p, b.id AS b FROM tblocks p JOIN tbig b ON gx_intersects(p.geom, b.geom)') AS too_large_diff;
SELECT value AS tables_read FROM gx_stats() WHERE counter = 'table_sides_read';
-- a table whose rows hold more than their geometries (a long note each): too large by its pages, until
-- ANALYZE has measured the geometry column, which then fits
CREATE TABLE twide (id int, note text, geom gxgeom);
ALTER TABLE twide ALTER COLUMN note SET STORAGE PLAIN;
INSERT INTO twide SELECT id, repeat(md5(id::text), 45), geom FROM tblocks;
VACUUM twide;
SET gpuexact.cache_host_mb = 4;
SELECT pg_relation_size('twide') > 4 * 1024 * 1024 / 2.5 AS pages_too_many;
SELECT whole_tables('SELECT p.id, b.id FROM twide p JOIN tbodies b ON gx_intersects(p.geom, b.geom)') AS wide_by_pages;
ANALYZE twide;
SELECT whole_tables('SELECT p.id, b.id FROM twide p JOIN tbodies b ON gx_intersects(p.geom, b.geom)') AS wide_analyzed,
	table_diff('SELECT p.id AS p, b.id AS b FROM twide p JOIN tbodies b ON gx_intersects(p.geom, b.geom)') AS wide_diff;
DROP TABLE twide;
SET gpuexact.cache_host_mb = 0;
SELECT whole_tables('SELECT * FROM coding') AS no_cache, table_diff('SELECT * FROM coding') AS no_cache_diff;
RESET gpuexact.cache_host_mb;
RESET gpuexact.device;
DROP TABLE tbig;
-- UPDATE: the page is no longer all-visible, but its rows are settled once the update commits (no other
-- snapshot is open): the table is read whole again (its state is a new one), and then kept; so after VACUUM
UPDATE tbodies SET geom = tbox(3, 100) WHERE id = 3;
SELECT whole_tables('SELECT * FROM coding') AS updated, table_diff('SELECT * FROM coding') AS updated_diff;
VACUUM tbodies;
SELECT whole_tables('SELECT * FROM coding') AS vacuumed, table_diff('SELECT * FROM coding') AS vacuumed_diff;
-- a moved block, in this transaction only: seen by it, then gone with the rollback
BEGIN;
UPDATE tblocks SET geom = 'POINT Z (100 100 100)' WHERE id = 421;
SELECT table_diff('SELECT * FROM coding') AS in_transaction, count(*) FILTER (WHERE block = 421) AS block_421 FROM coding;
ROLLBACK;
VACUUM tblocks;
SELECT table_diff('SELECT * FROM coding') AS rolled_back, count(*) FILTER (WHERE block = 421) AS block_421 FROM coding;
-- DELETE and INSERT, vacuumed: the rows' locations change
DELETE FROM tblocks WHERE id % 3 = 0;
INSERT INTO tblocks SELECT 2000 + i, 'new', format('POINT Z (%s 1.5 1)', i + 0.25)::gxgeom FROM generate_series(0, 19) i;
VACUUM tblocks;
SELECT whole_tables('SELECT * FROM coding') AS reloaded, table_diff('SELECT * FROM coding') AS reloaded_diff;
SELECT count(*) FILTER (WHERE note = 'new') AS new_coded, count(*) FILTER (WHERE block % 3 = 0 AND note <> 'new') AS deleted_coded FROM coding;
-- TRUNCATE and VACUUM FULL give the table new files
TRUNCATE tbodies;
INSERT INTO tbodies SELECT j, tbox(j, 1.5) FROM generate_series(0, 24, 2) j;
VACUUM tbodies;
SELECT whole_tables('SELECT * FROM coding') AS truncated;
SELECT table_diff('SELECT * FROM coding') AS truncated_diff, count(*) AS coded FROM coding;
VACUUM FULL tblocks;
VACUUM tblocks;
SELECT whole_tables('SELECT p.id, b.id FROM tblocks p JOIN tblocks b ON gx_intersects(p.geom, b.geom)') AS rewritten,
	table_diff('SELECT p.id AS p, b.id AS b FROM tblocks p JOIN tblocks b ON gx_intersects(p.geom, b.geom)') AS rewritten_diff;
-- a serializable transaction reads the tables from the plan (its scans check for conflicts page by page)
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT whole_tables('SELECT * FROM coding') AS serializable;
COMMIT;
-- a table given new files in this transaction is read from the plan: COPY FREEZE may add rows to an
-- all-visible page without clearing its bit
BEGIN;
TRUNCATE tbodies;
COPY tbodies FROM stdin WITH (FREEZE);
0	SRID=0;TIN Z (((0 0 0,3 0 0,0 3 0,0 0 0)))
\.
SELECT whole_tables('SELECT * FROM coding') AS truncated_here, table_diff('SELECT * FROM coding') AS truncated_here_diff;
COPY tbodies FROM stdin WITH (FREEZE);
1	SRID=0;TIN Z (((4 0 0.5,7 0 0.5,4 3 0.5,4 0 0.5)))
\.
SELECT table_diff('SELECT * FROM coding') AS copied_again_diff, count(*) AS coded FROM coding;
COMMIT;
-- a table just loaded, never vacuumed: no page is all-visible, but once every row is settled (written by a
-- transaction older than every snapshot) it is kept too, named by its pages' log positions. A row updated or
-- deleted since is seen at once; the changes of a transaction still open are read from the plan.
CREATE TABLE tfresh (id int, geom gxgeom) WITH (autovacuum_enabled = false);
INSERT INTO tfresh SELECT i, format('POINT Z (%s %s 0)', i % 20 + 0.5, (i / 20) % 20 + 0.5)::gxgeom FROM generate_series(0, 799) i;
CREATE VIEW fresh_coding AS SELECT p.id AS point, b.id AS body FROM tfresh p JOIN tbodies b ON gx_intersects(p.geom, b.geom);
SELECT whole_tables('SELECT * FROM fresh_coding') AS fresh_first, whole_tables('SELECT * FROM fresh_coding') AS fresh_again;
SELECT table_diff('SELECT * FROM fresh_coding') AS fresh_diff, count(*) AS coded FROM fresh_coding;
UPDATE tfresh SET geom = 'POINT Z (100 100 100)' WHERE id = 0;
DELETE FROM tfresh WHERE id = 1;
SELECT whole_tables('SELECT * FROM fresh_coding') AS fresh_changed, table_diff('SELECT * FROM fresh_coding') AS fresh_changed_diff,
	count(*) AS coded, count(*) FILTER (WHERE point IN (0, 1)) AS changed_coded FROM fresh_coding;
BEGIN;
DELETE FROM tfresh WHERE id = 2;
SELECT whole_tables('SELECT * FROM fresh_coding') AS fresh_open, table_diff('SELECT * FROM fresh_coding') AS fresh_open_diff,
	count(*) FILTER (WHERE point = 2) AS deleted_coded FROM fresh_coding;
ROLLBACK;
SELECT table_diff('SELECT * FROM fresh_coding') AS fresh_rolled_back_diff, count(*) FILTER (WHERE point = 2) AS point_2 FROM fresh_coding;
DROP VIEW fresh_coding;
DROP TABLE tfresh;
-- mixed SRIDs in a kept table raise the stock plan's error
UPDATE tblocks SET geom = gx_setsrid(geom, 4326) WHERE id = 1;
UPDATE tblocks SET geom = gx_setsrid(geom, 3857) WHERE id <> 1;
VACUUM tblocks;
SELECT count(*) FROM tblocks p JOIN tblocks b ON gx_intersects(p.geom, b.geom);
DROP VIEW coding;
DROP TABLE tblocks, tbodies;
DROP FUNCTION table_diff(text), whole_tables(text), tbox(int, float8);
RESET enable_hashjoin;
RESET enable_mergejoin;
