-- bench/booleans.sql: the booleans of solids on the mining workload written by
-- `build/bench_batch mining SCALE --copy DIR` (psql -v dir=DIR): the ore bodies made solids, a pit shell over
-- them (the convex hull of a ring of 32 points above the bodies, half their extent's width across, and a ring
-- of a fifth of it across a third of the way up from their lowest point), then every body against the pit
-- timed: gx_intersection_volume, and gx_intersection (the ore inside the pit as solids), whose volumes are
-- checked against the first to 1e-9 relative.
\ir mining_tables.sql
\timing on
UPDATE bodies SET geom = gx_makesolid(geom);
\timing off
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
SELECT (SELECT count(*) FROM bodies) AS solids, (SELECT sum(gx_ntriangles(geom)) FROM bodies) AS triangles,
	gx_issolid(geom) AS pit_is_solid, gx_ntriangles(geom) AS pit_triangles, round(gx_volume(geom)::numeric) AS pit_volume
FROM pit;
\echo 'gx_intersection_volume, every body against the pit:'
\timing on
CREATE TEMP TABLE in_pit AS SELECT b.id, gx_intersection_volume(b.geom, p.geom) AS volume FROM bodies b, pit p;
\echo 'gx_intersection, every body against the pit:'
CREATE TEMP TABLE ore_in_pit AS SELECT b.id, gx_intersection(b.geom, p.geom) AS geom FROM bodies b, pit p;
\timing off
SELECT count(*) FILTER (WHERE i.volume > 0) AS bodies_in_pit, round(sum(i.volume)::numeric, 1) AS volume_in_pit,
	sum(gx_ntriangles(o.geom)) AS triangles_in_pit,
	count(*) FILTER (WHERE abs(gx_volume(o.geom) - i.volume) > 1e-9 * i.volume) AS volumes_off
FROM in_pit i JOIN ore_in_pit o USING (id);
