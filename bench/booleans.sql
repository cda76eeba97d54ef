-- bench/booleans.sql: the booleans of solids on the mining workload written by
-- `build/bench_batch mining SCALE --copy DIR` (psql -v dir=DIR): the ore bodies made solids, a pit shell over
-- them (the convex hull of a ring of 32 points above the bodies, half their extent's width across, and a ring
-- of a fifth of it across a third of the way up from their lowest point), then every body against the pit
-- timed: gx_intersection_volume, and gx_intersection (the ore inside the pit as solids), a call per body; then
-- the same as one batch each on the backend's threads, gx_overlap_pairs (the volumes) and gx_intersection_pairs
-- (the solids). The solids' volumes are checked against the first to 1e-9 relative, and the batches' rows
-- against the calls'. With -v pit_triangles=N the pit is a bowl of about N triangles over the same top ring
-- instead (bench/bench_boolean.c's: points on a jittered grid of the disk, on a paraboloid from a third of the
-- way up to the rim and on a flat dome over it).
\ir mining_tables.sql
\timing on
UPDATE bodies SET geom = gx_makesolid(geom);
\timing off
\if :{?pit_triangles}
SELECT setseed(0.25);
CREATE TEMP TABLE pit AS
WITH e AS (
	SELECT gx_extent(geom) AS b FROM bodies
), f AS (
	SELECT (gx_xmin(b) + gx_xmax(b)) / 2 AS cx, (gx_ymin(b) + gx_ymax(b)) / 2 AS cy,
		greatest(gx_xmax(b) - gx_xmin(b), gx_ymax(b) - gx_ymin(b)) / 4 AS r, gx_zmin(b) + (gx_zmax(b) - gx_zmin(b)) / 3 AS z0,
		gx_zmax(b) + 10 AS z1
	FROM e
), g AS (
	SELECT f.*, sqrt(pi() * r * r / (:pit_triangles / 4.0)) AS step FROM f
), p AS (
	SELECT g.*, (i + 0.6 * (random() - 0.5)) * step AS x, (j + 0.6 * (random() - 0.5)) * step AS y
	FROM g, generate_series(-ceil(r / step)::int, ceil(r / step)::int) i, generate_series(-ceil(r / step)::int, ceil(r / step)::int) j
), q AS (
	SELECT p.*, (x * x + y * y) / (r * r) AS q FROM p WHERE x * x + y * y <= r * r
)
SELECT gx_convexhull(('MULTIPOINT Z (' || string_agg(format('%s %s %s,%s %s %s', cx + x, cy + y, z0 + (z1 - z0) * q,
	cx + x, cy + y, z1 + (z1 - z0) / 20 * (1 - q)), ',') || ')')::gxgeom) AS geom
FROM q;
\else
CREATE TEMP TABLE pit AS
WITH e AS (
	SELECT gx_extent(geom) AS b FROM bodies
), f AS (
	SELECT (gx_xmin(b) + gx_xmax(b)) / 2 AS cx, (gx_ymin(b) + gx_ymax(b)) / 2 AS cy,
		greatest(gx_xmax(b) - gx_xmin(b), gx_ymax(b) - gx_ymin(b)) AS w, gx_zmin(b) AS z0, gx_zmax(b) AS z1
	FROM e
)
SELECT gx_convexhull(('MULTIPOINT Z (' || string_agg(format('%s %s %s',
	round((cx + r * cos(2 * pi() * k / 32))::numeric, 3), round((cy + r * sin(2 * pi() * k / 32))::numeric, 3),
	round(z::numeric, 3)), ',' ORDER BY z, k) || ')')::gxgeom) AS geom
FROM f, LATERAL (VALUES (z1 + 10, w / 4), (z0 + (z1 - z0) / 3, w / 10)) ring(z, r), generate_series(0, 31) k;
\endif
SELECT (SELECT count(*) FROM bodies) AS solids, (SELECT sum(gx_ntriangles(geom)) FROM bodies) AS triangles,
	gx_issolid(geom) AS pit_is_solid, gx_ntriangles(geom) AS pit_triangles, round(gx_volume(geom)::numeric) AS pit_volume
FROM pit;
\echo 'gx_intersection_volume, every body against the pit:'
\timing on
CREATE TEMP TABLE in_pit AS SELECT b.id, gx_intersection_volume(b.geom, p.geom) AS volume FROM bodies b, pit p;
\echo 'gx_intersection, every body against the pit:'
CREATE TEMP TABLE ore_in_pit AS SELECT b.id, gx_intersection(b.geom, p.geom) AS geom FROM bodies b, pit p;
\echo 'gx_overlap_pairs, the bodies against the pit as one batch:'
CREATE TEMP TABLE pairs_in_pit AS SELECT a_id AS id, volume FROM gx_overlap_pairs('SELECT id, geom FROM bodies', 'SELECT 1, geom FROM pit');
\echo 'gx_intersection_pairs, the bodies against the pit as one batch:'
CREATE TEMP TABLE ore_pairs AS SELECT a_id AS id, geom FROM gx_intersection_pairs('SELECT id, geom FROM bodies', 'SELECT 1, geom FROM pit');
\timing off
SELECT count(*) FILTER (WHERE i.volume > 0) AS bodies_in_pit, round(sum(i.volume)::numeric, 1) AS volume_in_pit,
	sum(gx_ntriangles(o.geom)) AS triangles_in_pit,
	count(*) FILTER (WHERE abs(gx_volume(o.geom) - i.volume) > 1e-9 * i.volume) AS volumes_off
FROM in_pit i JOIN ore_in_pit o USING (id);
SELECT (SELECT count(*) FROM pairs_in_pit) AS pairs,
	(SELECT count(*) FROM pairs_in_pit p JOIN in_pit i USING (id) WHERE p.volume = i.volume) AS pair_volumes_equal,
	(SELECT count(*) FROM ore_pairs p JOIN ore_in_pit o USING (id) WHERE gx_astext(p.geom) = gx_astext(o.geom)) AS pair_solids_equal;
