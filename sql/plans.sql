-- plans: an answer never depends on the plan, the prepared-geometry cache, or a setting; each case below
-- once gave a wrong answer, an error or a crash (issue 7).
-- F1: a PL/pgSQL variable assigned again may lie at the same address with other contents: the prepared
-- geometry must be recognised by its bytes, not its address.
CREATE FUNCTION tin_at(z float8) RETURNS gxgeom LANGUAGE sql AS $$
 SELECT ('TIN Z (' || string_agg(format('((%s %s %s,%s %s %s,%s %s %s,%s %s %s))', i, j, z, i + 1, j, z, i, j + 1, z, i, j, z), ',') || ')')::gxgeom
 FROM generate_series(0, 9) i, generate_series(0, 9) j $$;
DO $$ DECLARE g gxgeom; n int := 0; BEGIN
 FOR k IN 1..100 LOOP
  g := tin_at(CASE WHEN k % 3 = 0 THEN 0 ELSE 5 END);
  g := gx_setsrid(g, 0);
  IF gx_intersects(g, 'LINESTRING Z (0.5 0.5 -1,0.5 0.5 1)') <> (k % 3 = 0) THEN n := n + 1; END IF;
  IF gx_intersects('LINESTRING Z (0.5 0.5 -1,0.5 0.5 1)', g) <> (k % 3 = 0) THEN n := n + 1; END IF;
 END LOOP; RAISE NOTICE 'wrong answers in a PL/pgSQL loop: %', n; END $$;
-- the same through a prepared statement's parameter, executed with different values
PREPARE probe(gxgeom) AS SELECT gx_intersects($1, 'LINESTRING Z (0.5 0.5 -1,0.5 0.5 1)');
EXECUTE probe(tin_at(0));
EXECUTE probe(tin_at(5));
EXECUTE probe(tin_at(0));
DEALLOCATE probe;
-- F2: a rescan with changed parameters (LATERAL, correlated subqueries) reads the sides again
CREATE TABLE ra AS SELECT i id, format('LINESTRING Z (%s 0 -1,%s 0 1)', i, i)::gxgeom g FROM generate_series(1, 200) i;
CREATE TABLE rx(n int);
INSERT INTO rx VALUES (1), (5), (50), (200);
ANALYZE ra;
ANALYZE rx;
EXPLAIN (COSTS OFF) SELECT rx.n, c.hits FROM rx CROSS JOIN LATERAL (SELECT count(*) hits FROM ra
  JOIN generate_series(1, rx.n) i ON gx_intersects(ra.g, format('POINT Z (%s 0 0)', i)::gxgeom)) c ORDER BY n;
SELECT rx.n, c.hits FROM rx CROSS JOIN LATERAL (SELECT count(*) hits FROM ra
  JOIN generate_series(1, rx.n) i ON gx_intersects(ra.g, format('POINT Z (%s 0 0)', i)::gxgeom)) c ORDER BY n;
-- a parameter read by the inner geometry expression only, and one read by another join clause
SELECT rx.n, (SELECT count(*) FROM ra JOIN ra r2 ON gx_intersects(ra.g, gx_setsrid(r2.g, 0)) AND r2.id <= rx.n)
FROM rx ORDER BY n;
SELECT rx.n, (SELECT count(*) FROM ra JOIN (SELECT id, format('POINT Z (%s 0 0)', id % (rx.n + 1))::gxgeom AS p FROM ra) q
  ON gx_intersects(ra.g, q.p)) FROM rx ORDER BY n;
SET gpuexact.enable_join = off;
SELECT rx.n, (SELECT count(*) FROM ra JOIN (SELECT id, format('POINT Z (%s 0 0)', id % (rx.n + 1))::gxgeom AS p FROM ra) q
  ON gx_intersects(ra.g, q.p)) FROM rx ORDER BY n;
RESET gpuexact.enable_join;
-- F3: tables mixing SRIDs, joined with an SRID clause: the answer, as the stock plan gives it
CREATE TABLE ma AS SELECT i id, gx_setsrid(format('LINESTRING Z (%s 0 -1,%s 0 1)', i % 50, i % 50)::gxgeom,
  CASE WHEN i % 2 = 0 THEN 4326 ELSE 32633 END) g FROM generate_series(1, 100) i;
CREATE TABLE mb AS SELECT i id, gx_setsrid(format('POINT Z (%s 0 0)', i % 50)::gxgeom,
  CASE WHEN i % 3 = 0 THEN 4326 ELSE 32633 END) g FROM generate_series(1, 150) i;
ANALYZE ma;
ANALYZE mb;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ma a JOIN mb b ON gx_srid(a.g) = gx_srid(b.g) AND gx_intersects(a.g, b.g);
SELECT count(*) FROM ma a JOIN mb b ON gx_srid(a.g) = gx_srid(b.g) AND gx_intersects(a.g, b.g);
SELECT count(*) FROM ma a WHERE EXISTS (SELECT 1 FROM mb b WHERE gx_srid(a.g) = gx_srid(b.g) AND gx_intersects(a.g, b.g));
SET gpuexact.enable_join = off;
SELECT count(*) FROM ma a JOIN mb b ON gx_srid(a.g) = gx_srid(b.g) AND gx_intersects(a.g, b.g);
SELECT count(*) FROM ma a WHERE EXISTS (SELECT 1 FROM mb b WHERE gx_srid(a.g) = gx_srid(b.g) AND gx_intersects(a.g, b.g));
RESET gpuexact.enable_join;
-- without the SRID clause both plans raise the mixed-SRID error
SELECT count(*) FROM ma a JOIN mb b ON gx_intersects(a.g, b.g);
RESET enable_hashjoin;
RESET enable_mergejoin;
-- F5: a grid resolution asked far beyond the data does not allocate its cube (8.6e9 cells at 2048)
SET gpuexact.grid_resolution = 2048;
SELECT count(*) FROM (VALUES ('MULTIPOINT Z ((0 0 0),(1000 1000 1000))'::gxgeom)) a(g)
  JOIN (VALUES ('MULTIPOINT Z ((1000 1000 1000),(3 3 3))'::gxgeom), ('POINT Z (1 1 1)')) b(g) ON gx_intersects(a.g, b.g);
SELECT count(*) FROM gx_intersecting_pairs($$SELECT 1, 'MULTIPOINT Z ((0 0 0),(1000 1000 1000))'::gxgeom$$,
  $$SELECT 2, 'MULTIPOINT Z ((1000 1000 1000),(3 3 3))'::gxgeom$$);
RESET gpuexact.grid_resolution;
-- F7: thread counts are bounded by the machine's cores
DO $$ BEGIN SET gpuexact.cpu_threads = 1024; RAISE NOTICE 'cpu_threads = 1024 accepted';
EXCEPTION WHEN invalid_parameter_value THEN RAISE NOTICE 'cpu_threads = 1024 refused (%)', SQLSTATE; END $$;
SET gpuexact.cpu_threads = 1;
SELECT count(*) FROM ra a JOIN ra b ON gx_intersects(a.g, b.g);
RESET gpuexact.cpu_threads;
-- gx_intersecting_pairs runs its queries read-only, whatever they call
CREATE TABLE written(n int);
CREATE FUNCTION writer() RETURNS int LANGUAGE plpgsql VOLATILE AS $$ BEGIN INSERT INTO written VALUES (1); RETURN 1; END $$;
SELECT * FROM gx_intersecting_pairs('SELECT writer(), g FROM ra', 'SELECT id, g FROM ra');
SELECT count(*) AS rows_written FROM written;
CREATE SEQUENCE wseq;
SELECT * FROM gx_intersecting_pairs($$SELECT nextval('wseq'), g FROM ra$$, 'SELECT id, g FROM ra');
-- a query that writes: a permanent table raises 25006, a temporary one may be written (a WITH or RETURNING)
SELECT * FROM gx_intersecting_pairs('SELECT id, g FROM ra', 'WITH w AS (INSERT INTO written VALUES (2) RETURNING n) SELECT n, g FROM w, ra');
\set VERBOSITY sqlstate
SELECT * FROM gx_intersecting_pairs('INSERT INTO written VALUES (3) RETURNING n, NULL::gxgeom', 'SELECT id, g FROM ra');
\set VERBOSITY default
CREATE TEMP TABLE written_here (id int, g gxgeom);
SELECT count(*) AS pairs FROM gx_intersecting_pairs('WITH w AS (INSERT INTO written_here SELECT id, g FROM ra RETURNING id, g) SELECT id, g FROM w',
	'SELECT id, g FROM ra');
SELECT count(*) AS pairs FROM gx_intersecting_pairs('DELETE FROM written_here RETURNING id, g', 'SELECT id, g FROM ra');
SELECT (SELECT count(*) FROM written) AS rows_written, (SELECT count(*) FROM written_here) AS temp_rows_left;
-- column types are checked even when a query returns no rows
SELECT * FROM gx_intersecting_pairs('SELECT id, g FROM ra WHERE false', 'SELECT id, id FROM ra WHERE false');
SELECT * FROM gx_intersecting_pairs('SELECT id::float8, g FROM ra WHERE false', 'SELECT id, g FROM ra');
-- errors with their proper SQLSTATE
\set VERBOSITY sqlstate
SELECT gx_extent_bound('POINT Z (1 2 3)', 6);
SELECT gx_extent_bound('POINT Z EMPTY', -1);
SELECT 'BOX3D(0x1p3 0 0,1 1 1)'::gxbox3d;
SELECT 'BOX3D(infinity 0 0,1 1 1)'::gxbox3d;
\set VERBOSITY default
-- JIT is judged on a plan's cost less the engine's work (each batched join's own cost beyond its two child
-- plans'): a threshold just above that rest compiles nothing, one just below it compiles, where this server
-- has JIT at all
CREATE FUNCTION jit_used(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF) ' || q LOOP
		IF l ~ '^JIT:' THEN RETURN true; END IF;
	END LOOP;
	RETURN false;
END $$;
CREATE FUNCTION cost_less_engine(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE j json; engine float8;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
	WITH RECURSIVE nodes(n) AS (SELECT j->0->'Plan' UNION ALL SELECT c FROM nodes, json_array_elements(n->'Plans') c)
	SELECT sum((n->>'Total Cost')::float8 - (SELECT sum((c->>'Total Cost')::float8) FROM json_array_elements(n->'Plans') c))
	INTO engine FROM nodes WHERE n->>'Custom Plan Provider' = 'GpuexactJoin';
	RETURN (j->0->'Plan'->>'Total Cost')::float8 - engine;
END $$;
-- (sides read through their plans: a side kept as its table leaves its plan out of the join's cost)
SET gpuexact.keep_tables = off;
CREATE TABLE jl AS SELECT i id, format('LINESTRING Z (%s 0 -1,%s 0 1)', i, i)::gxgeom g FROM generate_series(1, 3000) i;
CREATE TABLE jp AS SELECT i id, format('POINT Z (%s 0 0)', i)::gxgeom g FROM generate_series(1, 3000) i;
ANALYZE jl;
ANALYZE jp;
SET jit_optimize_above_cost = -1;
SET jit_inline_above_cost = -1;
SELECT set_config('jit_above_cost', (cost_less_engine('SELECT count(*) FROM jl JOIN jp ON gx_intersects(jl.g, jp.g)') + 1)::text, false) IS NOT NULL AS above;
SELECT jit_used('SELECT count(*) FROM jl JOIN jp ON gx_intersects(jl.g, jp.g)') AS compiled_above;
SELECT set_config('jit_above_cost', (cost_less_engine('SELECT count(*) FROM jl JOIN jp ON gx_intersects(jl.g, jp.g)') - 1)::text, false) IS NOT NULL AS below;
SELECT jit_used('SELECT count(*) FROM jl JOIN jp ON gx_intersects(jl.g, jp.g)') = pg_jit_available() AS compiled_below_where_available;
-- a cached plan is judged again at each execution: its first, above the threshold, compiled nothing and
-- leaves the plan as the planner made it
SELECT set_config('jit_above_cost', (cost_less_engine('SELECT count(*) FROM jl JOIN jp ON gx_intersects(jl.g, jp.g)') + 1)::text, false) IS NOT NULL AS above;
PREPARE jq AS SELECT count(*) FROM jl JOIN jp ON gx_intersects(jl.g, jp.g);
SELECT jit_used('EXECUTE jq') AS prepared_compiled_above;
SELECT set_config('jit_above_cost', (cost_less_engine('SELECT count(*) FROM jl JOIN jp ON gx_intersects(jl.g, jp.g)') - 1)::text, false) IS NOT NULL AS below;
SELECT jit_used('EXECUTE jq') = pg_jit_available() AS prepared_compiled_below_where_available;
DEALLOCATE jq;
RESET jit_above_cost;
RESET jit_optimize_above_cost;
RESET jit_inline_above_cost;
RESET gpuexact.keep_tables;
DROP TABLE jl, jp;
DROP FUNCTION jit_used(text), cost_less_engine(text);
DROP TABLE ra, rx, ma, mb, written;
DROP SEQUENCE wseq;
DROP FUNCTION tin_at(float8), writer();
