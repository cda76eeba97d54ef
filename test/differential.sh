#!/usr/bin/env bash
# test/differential.sh: randomized differential test of the batched join. For each seed (printed) it builds
# small random tables of points, drill-hole polylines, triangles, TINs and solids on a coarse integer lattice (so
# touching and near-touching pairs are frequent), with NULLs, EMPTYs, duplicates and several SRIDs, then runs
# every query shape in the list below twice: with gpuexact.enable_join on (the batched custom join, or
# gx_intersecting_pairs) and off (the stock plan, gx_intersects per pair), under randomly chosen planner
# settings that push towards the custom join. The two results must be the same multiset of rows, or both
# runs must fail with the same SQLSTATE (a mixed-SRID pair reaching gx_intersects). It also checks that the
# batched plan really ran: every "join" shape at least once, and in at least half of their runs.
#
# Uses the cluster in PGHOST/PGPORT/PGUSER (plain bash + psql). Usage: test/differential.sh [SEEDS]
#   GX_DIFF_SEEDS  number of seeds (default 50, 82 comparisons each: one per shape; every other seed's tables
#                  vacuumed, so that join sides that scan a whole table are kept as whole tables)
#   GX_DIFF_SEED   first seed (default: random); a mismatch is reproduced with GX_DIFF_SEED=s GX_DIFF_SEEDS=1,
#                  after which database gpuexact_differential keeps that seed's tables (ta tb tc tm1 tm2 tx)
set -uo pipefail
seeds=${1:-${GX_DIFF_SEEDS:-50}}
first=${GX_DIFF_SEED:-$(( (RANDOM * 32768 + RANDOM) % 1000000000 + 1 ))}
db=gpuexact_differential
psql -q -d postgres -c "DROP DATABASE IF EXISTS $db" 2>/dev/null
psql -q -d postgres -c "CREATE DATABASE $db" || exit 1
psql -q -d $db -v ON_ERROR_STOP=1 <<'SQL' || exit 1
CREATE EXTENSION gpuexact;
-- no JIT: the planner settings' disable costs would JIT-compile every tiny query
ALTER DATABASE gpuexact_differential SET statement_timeout = '60s';
ALTER DATABASE gpuexact_differential SET jit = off;
ALTER DATABASE gpuexact_differential SET client_min_messages = warning;
CREATE TABLE gxd_cfg (ox float8, oy float8, s float8, zs float8);
CREATE TABLE gxd_log (seed bigint, shape text, settings text, on_sql text, off_sql text, batched bool,
	on_res text, off_res text, ok bool);

-- Random geometry on a lattice: coordinates 0..4, sometimes nudged by a half or by a hair (near-touching).
-- Each seed shifts it to UTM-sized coordinates or scales it by a power of two (sometimes to exponents only GMP
-- can decide), and sometimes flattens it to z = 0 (coplanar triangles).
CREATE FUNCTION gxd_xyz(x float8, y float8, z float8) RETURNS text LANGUAGE sql STABLE AS $$
	SELECT format('%s %s %s', ox + x * s, oy + y * s, z * s * zs) FROM gxd_cfg $$;
-- a distance of x lattice units
CREATE FUNCTION gxd_d(x float8) RETURNS float8 LANGUAGE sql STABLE AS $$ SELECT x * s FROM gxd_cfg $$;
CREATE FUNCTION gxd_pt(x float8, y float8, z float8) RETURNS gxgeom LANGUAGE sql STABLE AS $$
	SELECT ('POINT Z (' || gxd_xyz(x, y, z) || ')')::gxgeom $$;
CREATE FUNCTION gxd_c() RETURNS float8 LANGUAGE sql VOLATILE AS $$
	SELECT floor(random() * 5) + CASE WHEN random() < 0.85 THEN 0
		ELSE (ARRAY[0.5, 1e-9, -1e-9, power(2::float8, -45)])[1 + floor(random() * 4)::int] END $$;
CREATE FUNCTION gxd_p() RETURNS text LANGUAGE sql VOLATILE AS $$ SELECT gxd_xyz(gxd_c(), gxd_c(), gxd_c()) $$;
CREATE FUNCTION gxd_tri() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE p text := gxd_p();
BEGIN
	RETURN format('(%s,%s,%s,%s)', p, gxd_p(), gxd_p(), p);
END $$;
-- a drill hole: from the top of the lattice downwards (steps of 0 included: zero-length segments)
CREATE FUNCTION gxd_hole() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE x float8 := gxd_c(); y float8 := gxd_c(); z float8 := 4; s text := gxd_xyz(x, y, z);
BEGIN
	FOR i IN 0..floor(random() * 4)::int LOOP
		x := x + floor(random() * 3) - 1; y := y + floor(random() * 3) - 1; z := z - floor(random() * 3);
		s := s || ',' || gxd_xyz(x, y, z);
	END LOOP;
	RETURN s;
END $$;
-- a surface of 128 triangles (large enough for gx_intersects to prepare it)
CREATE FUNCTION gxd_surface() RETURNS text LANGUAGE sql VOLATILE AS $$
	SELECT 'TIN Z (' || string_agg(format('((%1$s,%2$s,%3$s,%1$s)),((%2$s,%4$s,%3$s,%2$s))', gxd_xyz(x, y, z),
		gxd_xyz(x + .5, y, z + sl), gxd_xyz(x, y + .5, z), gxd_xyz(x + .5, y + .5, z + sl)), ',') || ')'
	FROM (SELECT i * .5 AS x, j * .5 AS y, h + i * sl AS z, sl
		  FROM (SELECT floor(random() * 5) AS h, (ARRAY[0, .5, -.5])[1 + floor(random() * 3)::int]::float8 AS sl) p,
			   generate_series(0, 7) i, generate_series(0, 7) j) q $$;
-- a solid: a lattice box of side 1 or 2 (a point instead when the seed flattens z, where no box bounds a volume)
CREATE FUNCTION gxd_solid() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE x float8 := floor(random() * 4); y float8 := floor(random() * 4); z float8 := floor(random() * 4);
	d float8 := 1 + floor(random() * 2); v text[];
BEGIN
	IF (SELECT zs FROM gxd_cfg) = 0 THEN RETURN format('POINT Z (%s)', gxd_p()); END IF;
	v := ARRAY[gxd_xyz(x, y, z), gxd_xyz(x + d, y, z), gxd_xyz(x, y + d, z), gxd_xyz(x + d, y + d, z),
		gxd_xyz(x, y, z + d), gxd_xyz(x + d, y, z + d), gxd_xyz(x, y + d, z + d), gxd_xyz(x + d, y + d, z + d)];
	RETURN 'SOLID Z ((' || (SELECT string_agg(format('((%s,%s,%s,%s))', v[f[3 * i + 1]], v[f[3 * i + 2]], v[f[3 * i + 3]],
		v[f[3 * i + 1]]), ',' ORDER BY i) FROM generate_series(0, 11) i,
		(SELECT ARRAY[1,3,2, 2,3,4, 5,6,7, 6,8,7, 1,2,5, 2,6,5, 3,7,4, 4,7,8, 1,5,3, 3,5,7, 2,4,6, 4,8,6] AS f) q) || '))';
END $$;
CREATE FUNCTION gxd_geom(srids int[]) RETURNS gxgeom LANGUAGE plpgsql VOLATILE AS $$
DECLARE r float8 := random(); srid int := srids[1 + floor(random() * cardinality(srids))::int]; w text;
BEGIN
	IF r < 0.05 THEN RETURN NULL; END IF;
	w := CASE
		WHEN r < 0.11 THEN (ARRAY['POINT Z EMPTY', 'LINESTRING Z EMPTY', 'TRIANGLE Z EMPTY', 'TIN Z EMPTY', 'MULTIPOINT Z EMPTY',
			'GEOMETRYCOLLECTION Z EMPTY', 'GEOMETRYCOLLECTION Z (POINT Z EMPTY,LINESTRING Z EMPTY)'])[1 + floor(random() * 7)::int]
		WHEN r < 0.28 THEN format('POINT Z (%s)', gxd_p())
		WHEN r < 0.33 THEN format('MULTIPOINT Z ((%s),EMPTY,(%s))', gxd_p(), gxd_p())
		WHEN r < 0.55 THEN format('LINESTRING Z (%s)', gxd_hole())
		WHEN r < 0.60 THEN format('MULTILINESTRING Z ((%s),(%s))', gxd_hole(), gxd_hole())
		WHEN r < 0.74 THEN format('TRIANGLE Z (%s)', gxd_tri())
		WHEN r < 0.84 THEN format('TIN Z ((%s),(%s))', gxd_tri(), gxd_tri())
		WHEN r < 0.88 THEN format('POLYHEDRALSURFACE Z ((%s),(%s),(%s))', gxd_tri(), gxd_tri(), gxd_tri())
		WHEN r < 0.92 THEN format('GEOMETRYCOLLECTION Z (POINT Z (%s),LINESTRING Z (%s),TRIANGLE Z (%s))', gxd_p(), gxd_hole(), gxd_tri())
		WHEN r < 0.95 THEN format('GEOMETRYCOLLECTION Z (TIN Z EMPTY,MULTILINESTRING Z (EMPTY,(%s)),POINT Z EMPTY)', gxd_hole())
		WHEN r < 0.98 THEN gxd_solid()
		ELSE gxd_surface() END;
	RETURN (CASE WHEN srid <> 0 THEN format('SRID=%s;', srid) ELSE '' END || w)::gxgeom;
END $$;
-- a table (id, [junk,] k, g): the junk column sometimes dropped, NULL k, duplicate rows, duplicate geometries under other ids, sometimes a GiST index (not
-- on the mixed-SRID tables: there it would decide which mixed pairs reach gx_intersects in the stock plan)
CREATE FUNCTION gxd_table(name text, srids int[], max_rows int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('DROP TABLE IF EXISTS %I', name);
	EXECUTE format('CREATE TABLE %I AS SELECT i AS id, i * 7 AS junk, CASE WHEN random() < 0.1 THEN NULL ELSE floor(random() * 4)::int END AS k, '
		'gxd_geom(%L) AS g FROM generate_series(1, %s) i', name, srids,
		CASE WHEN random() < 0.04 THEN 0 ELSE 1 + floor(random() * max_rows) END);
	EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE random() < 0.1', name, name);
	EXECUTE format('INSERT INTO %I SELECT id + 100, junk, k, g FROM %I WHERE random() < 0.1', name, name);
	IF random() < 0.5 THEN EXECUTE format('ALTER TABLE %I DROP COLUMN junk', name); END IF;
	IF random() < 0.3 AND name NOT LIKE 'tm%' THEN EXECUTE format('CREATE INDEX ON %I USING gist (g)', name); END IF;
	IF random() < 0.8 THEN EXECUTE format('ANALYZE %I', name); END IF;
END $$;

-- The query shapes. %A %B %C: a random table among ta tb tc (SRIDs 0 and 4326, which mix); tm1 tm2 mix SRIDs
-- 0, 4326 and 32633; tx (n int) is a small outer table; %V a random VALUES list.
-- A lateral subquery with OFFSET 0 stays a subquery: its join is rescanned for each outer row, with new parameters.
-- kind: join (the custom join can run), stock (it cannot: compared anyway), srf (gx_intersecting_pairs).
CREATE TABLE gxd_shapes (name text, kind text, on_sql text, off_sql text);
INSERT INTO gxd_shapes (name, kind, on_sql) VALUES
('inner', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g)'),
('swapped_args', 'join', 'SELECT a.id, b.id, a.k FROM %A a JOIN %B b ON gx_intersects(b.g, a.g)'),
('where_clause', 'join', 'SELECT a.id, b.id FROM %A a, %B b WHERE gx_intersects(a.g, b.g)'),
('projection', 'join', 'SELECT a.id * 1000 + b.id, gx_npoints(a.g) + gx_npoints(b.g), a.k IS NULL, gx_srid(b.g) FROM %A a JOIN %B b ON gx_intersects(a.g, b.g)'),
('whole_rows', 'join', 'SELECT a, b.g, b.ctid FROM %A a JOIN %B b ON gx_intersects(a.g, b.g)'),
('expr_args', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(gx_setsrid(a.g, 0), gx_setsrid(b.g, 4326))'),
('extra_clause', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) AND a.k <> b.k'),
('extra_clauses', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON (a.id + b.id) % 3 <> 0 AND gx_intersects(a.g, b.g) AND a.k <= b.k'),
('extra_equijoin', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON a.k = b.k AND gx_intersects(a.g, b.g)'),
('extra_srid', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_srid(a.g) = gx_srid(b.g) AND gx_intersects(a.g, b.g)'),
('extra_subplan', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) AND b.k >= (SELECT min(c.k) FROM %C c WHERE c.id = a.id)'),
('two_predicates', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) AND gx_intersects(b.g, gx_setsrid(a.g, 0))'),
('extra_or', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) AND (a.k = b.k OR a.id < b.id)'),
('subquery_arg', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, (SELECT c.g FROM %C c WHERE c.id = b.id LIMIT 1))'),
('placeholder', 'join', 'SELECT a.id, s.id, c.id FROM %A a LEFT JOIN (SELECT b.id, b.k, coalesce(b.g, gxd_pt(0, 0, 0)) AS g0 FROM %B b) s ON a.k = s.k JOIN %C c ON gx_intersects(c.g, s.g0)'),
('left_reduced', 'join', 'SELECT a.id, b.id, c.id FROM %A a LEFT JOIN %B b ON a.k = b.k JOIN %C c ON gx_intersects(b.g, c.g)'),
('union_side', 'join', 'SELECT u.id, b.id FROM (SELECT id, g FROM %A UNION ALL SELECT id, g FROM %C WHERE k > 0) u JOIN %B b ON gx_intersects(u.g, b.g)'),
('window', 'join', 'SELECT a.id, b.id, count(*) OVER (PARTITION BY a.k), rank() OVER (PARTITION BY b.id ORDER BY a.id) FROM %A a JOIN %B b ON gx_intersects(a.g, b.g)'),
('filters', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) WHERE a.k > 0 AND b.id % 2 = 0 AND NOT gx_isempty(b.g)'),
('filter_geom', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) WHERE gx_npoints(a.g) > 2 OR b.g IS NULL'),
('mixed_srid_clause', 'join', 'SELECT a.id, b.id FROM tm1 a JOIN tm2 b ON gx_srid(a.g) = gx_srid(b.g) AND gx_intersects(a.g, b.g)'),
('mixed_srid_filtered', 'join', 'SELECT a.id, b.id FROM tm1 a JOIN tm2 b ON gx_intersects(a.g, b.g) WHERE gx_srid(a.g) = 4326 AND gx_srid(b.g) <> 32633'),
('mixed_srid_vs_0', 'join', 'SELECT a.id, b.id FROM tm1 a JOIN tc b ON gx_intersects(b.g, a.g)'),
('mixed_srid_plain', 'join', 'SELECT a.id, b.id FROM tm1 a JOIN tm2 b ON gx_intersects(a.g, b.g)'),
('mixed_srid_exists', 'join', 'SELECT a.id FROM tm1 a WHERE EXISTS (SELECT 1 FROM tm2 b WHERE gx_srid(b.g) = gx_srid(a.g) AND gx_intersects(a.g, b.g))'),
('exists', 'join', 'SELECT a.id, a.k FROM %A a WHERE EXISTS (SELECT 1 FROM %B b WHERE gx_intersects(a.g, b.g))'),
('exists_clause', 'join', 'SELECT a.id FROM %A a WHERE EXISTS (SELECT 1 FROM %B b WHERE gx_intersects(b.g, a.g) AND b.k >= a.k)'),
('exists_self', 'join', 'SELECT a.id FROM %A a WHERE EXISTS (SELECT 1 FROM %A a2 WHERE gx_intersects(a.g, a2.g) AND a2.id <> a.id)'),
('exists_join', 'join', 'SELECT a.id FROM %A a WHERE EXISTS (SELECT 1 FROM %B b JOIN %C c ON gx_intersects(b.g, c.g) WHERE b.k = a.k)'),
('exists_subplan', 'join', 'SELECT a.id FROM %A a WHERE a.k = 0 OR EXISTS (SELECT 1 FROM %B b JOIN %C c ON gx_intersects(b.g, c.g) WHERE c.id > 2 * a.id)'),
('not_exists_join', 'join', 'SELECT a.id FROM %A a WHERE NOT EXISTS (SELECT 1 FROM %B b JOIN %C c ON gx_intersects(c.g, b.g) WHERE b.id = a.id)'),
('not_exists', 'join', 'SELECT a.id FROM %A a WHERE NOT EXISTS (SELECT 1 FROM %B b WHERE gx_intersects(a.g, b.g))'),
('not_exists_clause', 'join', 'SELECT a.id, a.k FROM %A a WHERE NOT EXISTS (SELECT 1 FROM %B b WHERE gx_intersects(b.g, a.g) AND b.k >= a.k)'),
('not_exists_self', 'join', 'SELECT a.id FROM %A a WHERE NOT EXISTS (SELECT 1 FROM %A a2 WHERE gx_intersects(a.g, a2.g) AND a2.id <> a.id)'),
('not_exists_mixed_srid', 'join', 'SELECT a.id FROM tm1 a WHERE NOT EXISTS (SELECT 1 FROM tm2 b WHERE gx_srid(b.g) = gx_srid(a.g) AND gx_intersects(a.g, b.g))'),
('in_subquery', 'join', 'SELECT a.id, a.k FROM %A a WHERE a.id IN (SELECT b.id FROM %B b JOIN %C c ON gx_intersects(b.g, c.g))'),
('in_correlated', 'stock', 'SELECT a.id FROM %A a WHERE a.k IN (SELECT b.k FROM %B b WHERE gx_intersects(a.g, b.g))'),
('scalar_count', 'join', 'SELECT a.id, (SELECT count(*) FROM %B b JOIN %C c ON gx_intersects(b.g, c.g) WHERE b.k = a.k) FROM %A a'),
('scalar_count_clause', 'join', 'SELECT a.id, (SELECT count(*) FROM %B b JOIN %C c ON gx_intersects(b.g, c.g) AND c.id > a.id) FROM %A a'),
('scalar_count_geom', 'join', 'SELECT a.id, (SELECT count(*) FROM %B b JOIN %C c ON gx_intersects(b.g, c.g) WHERE gx_intersects(c.g, a.g)) FROM %A a'),
('scalar_grouped', 'join', 'SELECT a.id, (SELECT count(*) FROM %B b JOIN (SELECT k, count(*) AS c FROM %C WHERE id <= 2 * a.id AND k IS NOT NULL GROUP BY k) s ON gx_intersects(b.g, gxd_pt(s.k, s.c % 5, s.k))) FROM %A a'),
('scalar_series', 'join', 'SELECT a.id, (SELECT count(*) FROM %B b JOIN generate_series(0, a.k) i ON gx_intersects(b.g, gxd_pt(i, i, i))) FROM %A a'),
('uncorrelated_scalar', 'join', 'SELECT a.id FROM %A a WHERE a.k * 3 < (SELECT count(*) FROM %B b JOIN %C c ON gx_intersects(b.g, c.g))'),
('lateral_outer_side', 'join', 'SELECT x.n, l.* FROM tx x CROSS JOIN LATERAL (SELECT b.id, c.id FROM %B b JOIN %C c ON gx_intersects(b.g, c.g) WHERE b.k < x.n OFFSET 0) l'),
('lateral_inner_side', 'join', 'SELECT x.n, l.* FROM tx x CROSS JOIN LATERAL (SELECT b.id, c.id FROM %B b JOIN %C c ON gx_intersects(c.g, b.g) WHERE c.k >= x.n - 1) l'),
('lateral_clause', 'join', 'SELECT x.n, l.* FROM tx x CROSS JOIN LATERAL (SELECT b.id, c.id FROM %B b JOIN %C c ON gx_intersects(b.g, c.g) AND b.id + c.id > 4 * x.n OFFSET 0) l'),
('lateral_series', 'join', 'SELECT x.n, l.hits FROM tx x CROSS JOIN LATERAL (SELECT count(*) AS hits FROM %A a JOIN generate_series(0, x.n) i ON gx_intersects(a.g, gxd_pt(i, i, i))) l'),
('lateral_sorted', 'join', 'SELECT x.n, l.* FROM tx x CROSS JOIN LATERAL (SELECT b.id, c.id FROM (SELECT * FROM %B WHERE k <= x.n ORDER BY id LIMIT 100) b JOIN %C c ON gx_intersects(b.g, c.g) OFFSET 0) l'),
('lateral_hashed', 'join', 'SELECT x.n, l.* FROM tx x CROSS JOIN LATERAL (SELECT a.id, b.id FROM (SELECT a.* FROM %A a JOIN %C c ON a.k = c.k WHERE c.id <= 3 * x.n AND a.id <= 4 * x.n + 1 OFFSET 0) a JOIN %B b ON gx_intersects(a.g, b.g) OFFSET 0) l'),
('lateral_grouped', 'join', 'SELECT x.n, l.* FROM tx x CROSS JOIN LATERAL (SELECT b.id, s.k FROM %B b JOIN (SELECT k, count(*) AS c FROM %C WHERE id <= 3 * x.n AND k IS NOT NULL GROUP BY k) s ON gx_intersects(b.g, gxd_pt(s.k, s.c % 5, s.k)) OFFSET 0) l'),
('lateral_computed_geom', 'join', 'SELECT x.n, a.id FROM tx x CROSS JOIN LATERAL (SELECT gxd_pt(x.n % 5, x.n % 3, 4 - x.n % 5) AS g) p JOIN %A a ON gx_intersects(p.g, a.g)'),
('lateral_values', 'join', 'SELECT v.n, l.* FROM (VALUES (0), (2), (2), (5)) v(n), LATERAL (SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) WHERE a.k = v.n % 4) l'),
('lateral_uncorrelated', 'join', 'SELECT x.n, l.* FROM tx x CROSS JOIN LATERAL (SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) OFFSET 0) l'),
('series_side', 'join', 'SELECT a.id, i FROM %A a JOIN generate_series(0, 4) i ON gx_intersects(a.g, gxd_pt(i, i, i))'),
('values_side', 'join', 'SELECT a.id, v.id FROM %A a JOIN (VALUES %V) v(id, g) ON gx_intersects(v.g, a.g)'),
('self_join', 'join', 'SELECT a.id, a2.id FROM %A a JOIN %A a2 ON gx_intersects(a.g, a2.g) AND a.id < a2.id'),
('self_join_all', 'join', 'SELECT a.id, a2.id FROM %A a JOIN %A a2 ON gx_intersects(a2.g, a.g)'),
('three_way', 'join', 'SELECT a.id, b.id, c.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) JOIN %C c ON gx_intersects(c.g, b.g)'),
('three_way_cycle', 'join', 'SELECT a.id, b.id, c.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) JOIN %C c ON gx_intersects(b.g, c.g) AND gx_intersects(a.g, c.g)'),
('aggregate', 'join', 'SELECT a.k, count(*), count(DISTINCT b.id), min(b.id), max(a.id) FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) GROUP BY a.k'),
('having', 'join', 'SELECT b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) GROUP BY b.id HAVING count(*) > 1'),
('distinct', 'join', 'SELECT DISTINCT a.k, b.k FROM %A a JOIN %B b ON gx_intersects(a.g, b.g)'),
('order_limit', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) ORDER BY 1, 2 LIMIT 7'),
('cte', 'join', 'WITH j AS MATERIALIZED (SELECT a.id AS aid, b.id AS bid FROM %A a JOIN %B b ON gx_intersects(a.g, b.g)) SELECT j1.aid, j2.bid FROM j j1 JOIN j j2 ON j1.bid = j2.aid'),
('union', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) UNION ALL SELECT c.id, b.id FROM %C c JOIN %B b ON gx_intersects(b.g, c.g) AND c.k = 1'),
('left_join', 'join', 'SELECT a.id, b.id FROM %A a LEFT JOIN %B b ON gx_intersects(a.g, b.g)'),
('left_join_clause', 'join', 'SELECT a.id, b.id, b.k FROM %A a LEFT JOIN %B b ON gx_intersects(a.g, b.g) AND a.k <> b.k'),
('left_join_where', 'join', 'SELECT a.id, b.id FROM %A a LEFT JOIN %B b ON gx_intersects(b.g, a.g) WHERE b.id IS NULL OR b.k > 0'),
('left_join_count', 'join', 'SELECT a.id, count(b.id) FROM %A a LEFT JOIN %B b ON gx_intersects(a.g, b.g) GROUP BY a.id'),
('left_join_mixed_srid', 'join', 'SELECT a.id, b.id FROM tm1 a LEFT JOIN tm2 b ON gx_srid(a.g) = gx_srid(b.g) AND gx_intersects(a.g, b.g)'),
('left_lateral', 'join', 'SELECT x.n, l.* FROM tx x CROSS JOIN LATERAL (SELECT a.id, b.id FROM %A a LEFT JOIN %B b ON gx_intersects(a.g, b.g) AND b.k <= x.n WHERE a.k < x.n + 1 OFFSET 0) l'),
('dwithin', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_dwithin(a.g, b.g, gxd_d(0.5))'),
('dwithin_zero', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_dwithin(b.g, a.g, 0)'),
('dwithin_clause', 'join', 'SELECT a.id, b.id FROM %A a JOIN %B b ON gx_dwithin(a.g, b.g, gxd_d(1)) AND a.k <> b.k'),
('dwithin_not_exists', 'join', 'SELECT a.id FROM %A a WHERE NOT EXISTS (SELECT 1 FROM %B b WHERE gx_dwithin(a.g, b.g, gxd_d(0.75)))'),
('dwithin_left', 'join', 'SELECT a.id, b.id FROM %A a LEFT JOIN %B b ON gx_dwithin(a.g, b.g, gxd_d(0.25))'),
('dwithin_lateral', 'join', 'SELECT x.n, l.* FROM tx x CROSS JOIN LATERAL (SELECT a.id, b.id FROM %A a JOIN %B b ON gx_dwithin(a.g, b.g, gxd_d(x.n * 0.25 - 0.25)) OFFSET 0) l'),
('left_join_over', 'join', 'SELECT x.n, s.* FROM tx x LEFT JOIN (SELECT a.id, b.id, a.k FROM %A a JOIN %B b ON gx_intersects(a.g, b.g)) s ON s.k = x.n');
INSERT INTO gxd_shapes VALUES
('pairs', 'srf', 'SELECT * FROM gx_intersecting_pairs(''SELECT id, g FROM %A'', ''SELECT id, g FROM %B'')',
	'SELECT a.id::bigint, b.id::bigint FROM %A a JOIN %B b ON gx_intersects(a.g, b.g)'),
('pairs_filtered', 'srf', 'SELECT * FROM gx_intersecting_pairs(''SELECT id::int2, g FROM %A WHERE k IS NOT NULL'', ''SELECT id::bigint, g FROM %B ORDER BY id'')',
	'SELECT a.id::bigint, b.id::bigint FROM %A a JOIN %B b ON gx_intersects(a.g, b.g) WHERE a.k IS NOT NULL'),
('pairs_self', 'srf', 'SELECT * FROM gx_intersecting_pairs(''SELECT id, g FROM %A'', ''SELECT id, g FROM %A'')',
	'SELECT a.id::bigint, a2.id::bigint FROM %A a JOIN %A a2 ON gx_intersects(a.g, a2.g)'),
('pairs_mixed_srid', 'srf', 'SELECT * FROM gx_intersecting_pairs(''SELECT id, g FROM tm1'', ''SELECT id, g FROM tc'')',
	'SELECT a.id::bigint, b.id::bigint FROM tm1 a JOIN tc b ON gx_intersects(a.g, b.g)');

-- One result as one text: the rows sorted (a multiset), or the error's SQLSTATE and message.
CREATE FUNCTION gxd_result(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
	EXECUTE format('SELECT coalesce(string_agg(r::text, '' '' ORDER BY r::text), '''') FROM (%s) r', q) INTO r;
	RETURN 'rows: ' || r;
EXCEPTION WHEN OTHERS THEN
	RETURN 'error ' || SQLSTATE || ': ' || SQLERRM;
END $$;
CREATE FUNCTION gxd_uses_custom_join(q text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l LIKE '%GpuexactJoin%' THEN RETURN true; END IF;
	END LOOP;
	RETURN false;
EXCEPTION WHEN OTHERS THEN
	RETURN false;
END $$;
CREATE FUNCTION gxd_apply(settings text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE s text;
BEGIN
	PERFORM set_config(n, 'on', false) FROM unnest(ARRAY['enable_nestloop', 'enable_hashjoin', 'enable_mergejoin',
		'enable_seqscan', 'enable_material', 'enable_indexscan', 'enable_bitmapscan']) n;
	FOREACH s IN ARRAY string_to_array(settings, ' ') LOOP
		PERFORM set_config(split_part(s, '=', 1), split_part(s, '=', 2), false);
	END LOOP;
END $$;

-- One seed's new tables.
CREATE FUNCTION gxd_tables(seed bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	rows int;
BEGIN
	PERFORM setseed((seed % 2147483647) / 2147483647.0);
	DELETE FROM gxd_cfg;
	INSERT INTO gxd_cfg SELECT CASE WHEN r < 0.3 AND s = 1 THEN 500000 ELSE 0 END, CASE WHEN r < 0.3 AND s = 1 THEN 7000000 ELSE 0 END, s, zs
		FROM (SELECT random() AS r, (ARRAY[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, power(2::float8, -30), power(2::float8, 40),
				power(2::float8, -200), power(2::float8, 200), power(2::float8, -500), power(2::float8, 500)])[1 + floor(random() * 16)::int] AS s,
			CASE WHEN random() < 0.2 THEN 0 ELSE 1 END AS zs) c;
	-- at exponents only GMP decides, the batch (which finds every intersecting element pair) is slow: smaller tables
	SELECT CASE WHEN s BETWEEN 1e-100 AND 1e100 THEN 30 ELSE 14 END INTO rows FROM gxd_cfg;
	PERFORM gxd_table('ta', '{0,4326,4326}', rows), gxd_table('tb', '{4326,0}', rows), gxd_table('tc', '{0}', rows * 2 / 5),
		gxd_table('tm1', '{0,4326,32633}', rows / 2), gxd_table('tm2', '{0,4326,32633}', rows / 2);
	DROP TABLE IF EXISTS tx;
	CREATE TABLE tx AS SELECT floor(random() * 6)::int AS n FROM generate_series(1, 2 + floor(random() * 4)::int);
	ANALYZE tx;
END $$;

-- Every shape once on the seed's tables, under random settings. Returns the seed's one-line summary.
CREATE FUNCTION gxd_seed(seed bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	sh record; on_sql text; off_sql text; settings text; t text[]; vals text;
	on_res text; off_res text; used bool; ok bool; n int := 0; nb int := 0; nbad int := 0; t0 timestamptz := clock_timestamp();
	planner text[] := ARRAY['', 'enable_nestloop=off', 'enable_hashjoin=off enable_mergejoin=off',
		'enable_nestloop=off enable_hashjoin=off enable_mergejoin=off', 'enable_seqscan=off',
		'enable_material=off enable_hashjoin=off', 'enable_indexscan=off enable_bitmapscan=off'];
BEGIN
	PERFORM setseed((seed % 2147483647) / 2147483647.0 / 2);
	PERFORM gx_stats_reset();
	SELECT string_agg(format('(%s, %L::gxgeom)', i, gxd_geom('{0}')), ', ') INTO vals FROM generate_series(1, 5) i;
	FOR sh IN SELECT * FROM gxd_shapes ORDER BY name LOOP
		t := ARRAY[(ARRAY['ta', 'tb', 'tc'])[1 + floor(random() * 3)::int], (ARRAY['ta', 'tb', 'tc'])[1 + floor(random() * 3)::int],
			(ARRAY['ta', 'tb', 'tc'])[1 + floor(random() * 3)::int]];
		on_sql := replace(replace(replace(replace(sh.on_sql, '%A', t[1]), '%B', t[2]), '%C', t[3]), '%V', vals);
		off_sql := replace(replace(coalesce(sh.off_sql, on_sql), '%A', t[1]), '%B', t[2]);
		settings := trim(planner[1 + floor(random() * cardinality(planner))::int] ||
			' gpuexact.join_batch_rows=' || (ARRAY[1, 3, 7, 10000])[1 + floor(random() * 4)::int] ||
			' gpuexact.grid_resolution=' || (ARRAY[0, 0, 1, 2, 5, 64])[1 + floor(random() * 6)::int] ||
			' gpuexact.gpu_min_elements=' || (ARRAY[0, 20000])[1 + floor(random() * 2)::int]);
		PERFORM gxd_apply(settings || ' gpuexact.enable_join=on');
		used := sh.kind = 'srf' OR gxd_uses_custom_join(on_sql);
		on_res := gxd_result(on_sql);
		PERFORM gxd_apply(settings || ' gpuexact.enable_join=off');
		off_res := gxd_result(off_sql);
		IF gxd_uses_custom_join(off_sql) THEN
			off_res := 'the stock plan contains the custom join! ' || off_res;
		END IF;
		-- the same rows, or both failed with the same SQLSTATE
		ok := on_res = off_res OR (on_res LIKE 'error%' AND off_res LIKE 'error%' AND left(on_res, 11) = left(off_res, 11));
		INSERT INTO gxd_log VALUES (seed, sh.name, settings, on_sql, off_sql, used, on_res, off_res, ok);
		n := n + 1; nb := nb + used::int; nbad := nbad + (NOT ok)::int;
	END LOOP;
	RETURN format('seed %s: %s comparisons, %s with the batched plan, %s mismatches (%s s; scale %s%s; %s sides as whole tables)',
		seed, n, nb, nbad, round(extract(epoch FROM clock_timestamp() - t0)::numeric, 2), (SELECT s FROM gxd_cfg),
		(SELECT CASE WHEN zs = 0 THEN ', flat' ELSE '' END FROM gxd_cfg),
		(SELECT sum(value) FROM gx_stats() WHERE counter LIKE 'table_sides%'));
END $$;
SQL

echo "differential: seeds $first..$((first + seeds - 1)) (reproduce one with GX_DIFF_SEED=s GX_DIFF_SEEDS=1 $0)"
failed=0
# every other seed's tables vacuumed (all pages all-visible): their join sides are then kept as whole tables
for seed in $(seq "$first" $((first + seeds - 1))); do
	psql -q -d $db -c "SELECT gxd_tables($seed)" -o /dev/null &&
		{ [ $((seed % 2)) = 1 ] || psql -q -d $db -c "VACUUM ta, tb, tc, tm1, tm2, tx"; } &&
		psql -At -d $db -c "SELECT gxd_seed($seed) || CASE WHEN $seed % 2 = 0 THEN ', vacuumed' ELSE '' END" ||
		{ echo "seed $seed: psql failed (server crash?)"; failed=1; break; }
done

# Mismatches in full (two per shape), then per shape, then the totals.
psql -At -d $db <<'SQL'
SELECT format(E'MISMATCH seed %s, shape %s\n  settings: %s\n  batched (enable_join = on): %s\n    -> %s\n  stock (enable_join = off): %s\n    -> %s',
	seed, shape, settings, on_sql, left(on_res, 1500), CASE WHEN off_sql = on_sql THEN 'the same query' ELSE off_sql END, left(off_res, 1500))
FROM (SELECT *, row_number() OVER (PARTITION BY shape ORDER BY seed) AS r FROM gxd_log WHERE NOT ok) m WHERE r <= 2
ORDER BY shape, seed;
SELECT format('mismatching shape %s: %s of %s runs', shape, count(*) FILTER (WHERE NOT ok), count(*))
FROM gxd_log GROUP BY shape HAVING bool_or(NOT ok) ORDER BY shape;
SQL
read -r n nb nbad nj njb never < <(psql -At -F ' ' -d $db -c "SELECT count(*), count(*) FILTER (WHERE batched),
	count(*) FILTER (WHERE NOT ok), count(*) FILTER (WHERE kind = 'join'), count(*) FILTER (WHERE kind = 'join' AND batched),
	(SELECT count(*) FROM gxd_shapes s WHERE kind = 'join' AND NOT EXISTS (SELECT 1 FROM gxd_log WHERE shape = s.name AND batched))
	FROM gxd_log l JOIN gxd_shapes s ON s.name = l.shape")
[ "${n:-0}" -gt 0 ] && [ "$nbad" = 0 ] || failed=1
# A differential test whose batched plan never runs proves nothing: with enough seeds, every join shape must
# have run it, and the join shapes must have run it at least half of the time.
if [ "$seeds" -ge 20 ] && [ "${n:-0}" -gt 0 ]; then
	[ "$never" = 0 ] || { failed=1; psql -At -d $db -c "SELECT 'FAILED: shape ' || name || ' never ran the batched plan' FROM gxd_shapes s
		WHERE kind = 'join' AND NOT EXISTS (SELECT 1 FROM gxd_log WHERE shape = s.name AND batched)"; }
	[ $((2 * njb)) -ge "$nj" ] || { failed=1; echo "FAILED: the batched plan ran in fewer than half of the join shapes' runs"; }
fi
echo "differential: $n comparisons, $nb with the batched plan ($((100 * njb / (nj > 0 ? nj : 1)))% of the join shapes' runs), $nbad mismatches ($SECONDS s)"
# a failed run keeps the database, with the last seed's tables
[ $failed = 0 ] && psql -q -d postgres -c "DROP DATABASE $db"
exit $failed
