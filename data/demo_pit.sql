-- data/demo_pit.sql: the demo's last step, ore inside a pit shell: the pit a solid made in SQL (the convex hull
-- of a ring of points at the surface and a smaller ring at its floor, an inverted truncated cone reaching into
-- some of data/demo.sql's ore bodies), then per body the exact volume of its ore inside the pit
-- (gx_intersection_volume) with a tonnage at 2.7 t/m3, and that ore as solids (gx_intersection, table
-- ore_in_pit, which data/demo_scene.sql draws).
CREATE TABLE pit AS
SELECT gx_convexhull(('SRID=32633;MULTIPOINT Z (' || string_agg(format('%s %s %s',
	round((500200 + r * cos(2 * pi() * k / 16))::numeric, 3), round((7000150 + r * sin(2 * pi() * k / 16))::numeric, 3),
	z), ',' ORDER BY z, k) || ')')::gxgeom) AS geom
FROM (VALUES (0, 320), (-200, 120)) ring(z, r), generate_series(0, 15) k;
\echo 'Ore inside a pit shell: the pit (the convex hull of a ring of 16 points at the surface, radius 320 m,'
\echo 'and one of radius 120 m at 200 m depth), the exact volume of each ore body inside it, and that ore made solids:'
SELECT gx_issolid(geom) AS pit_is_solid, gx_ntriangles(geom) AS triangles, round(gx_volume(geom)::numeric) AS pit_m3
FROM pit;
\timing on
CREATE TABLE ore_in_pit AS
SELECT o.body_id, gx_intersection_volume(o.geom, p.geom) AS volume, gx_intersection(o.geom, p.geom) AS geom
FROM orebodies o, pit p WHERE o.geom &&& p.geom;
\timing off
SELECT o.name AS body, round(gx_volume(o.geom)::numeric) AS body_m3, round(i.volume::numeric) AS in_pit_m3,
	round((100 * i.volume / gx_volume(o.geom))::numeric, 1) AS in_pit_pct, round((2.7 * i.volume)::numeric) AS in_pit_t,
	gx_ntriangles(i.geom) AS triangles, abs(gx_volume(i.geom) - i.volume) <= 1e-9 * i.volume AS solid_matches_volume
FROM orebodies o JOIN ore_in_pit i USING (body_id) WHERE i.volume > 0 ORDER BY o.body_id;
SELECT round(sum(volume)::numeric) AS in_pit_m3, round((2.7 * sum(volume))::numeric) AS in_pit_t FROM ore_in_pit;
