-- Booleans of many bodies with a pit stored out of line, which each call site keeps indexed between rows
-- (gx_intersection, gx_union, gx_difference, gx_intersection_volume): every answer the same as with the pit
-- given inline (gx_makesolid of a solid hands back its value detoasted), read and indexed at each call; and
-- gx_intersection_pairs, whose common parts are made on the backend's threads, the same as gx_intersection.
CREATE TABLE bk_pits (id int, geom gxgeom);
ALTER TABLE bk_pits ALTER COLUMN geom SET STORAGE EXTERNAL;
-- two pits, each the convex hull of a ring of 32 points at the surface and a smaller one 40 m down
INSERT INTO bk_pits SELECT p, gx_convexhull(('SRID=32633;MULTIPOINT Z (' || string_agg(format('%s %s %s',
	round((500000 + 40 * p + r * cos(2 * pi() * k / 32))::numeric, 3), round((7000000 + r * sin(2 * pi() * k / 32))::numeric, 3), z),
	',' ORDER BY z, k) || ')')::gxgeom)
FROM generate_series(1, 2) p, (VALUES (0, 60.0), (-40, 20.0)) ring(z, r), generate_series(0, 31) k GROUP BY p;
-- 25 bodies on a grid across the pits' rims and floors: convex hulls of 50 points on spheres of 8 to 12 m
CREATE TABLE bk_bodies AS SELECT i AS id, gx_convexhull(('SRID=32633;MULTIPOINT Z (' || string_agg(format('%s %s %s',
	round((499940 + 30 * (i % 5) + (8 + i % 5) * sqrt(1 - (1 - (2 * j + 1) / 50.0) ^ 2) * cos(2.399963 * j))::numeric, 3),
	round((6999940 + 30 * (i / 5) + (8 + i % 5) * sqrt(1 - (1 - (2 * j + 1) / 50.0) ^ 2) * sin(2.399963 * j))::numeric, 3),
	round((-45 + 9 * ((i * 7) % 6) + (8 + i % 5) * (1 - (2 * j + 1) / 50.0))::numeric, 3)), ',' ORDER BY j) || ')')::gxgeom) AS geom
FROM generate_series(0, 24) i, generate_series(0, 49) j GROUP BY i;
SELECT (SELECT count(*) FROM bk_bodies) AS bodies, count(*) AS pits, bool_and(gx_issolid(geom)) AS pits_solid FROM bk_pits;
-- the pits are stored out of line: their TOAST table holds them
CREATE FUNCTION bk_values_out_of_line(t regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	EXECUTE format('SELECT count(DISTINCT chunk_id) FROM %s', (SELECT reltoastrelid::regclass FROM pg_class WHERE oid = t)) INTO n;
	RETURN n;
END $$;
SELECT bk_values_out_of_line('bk_pits') AS pits_out_of_line;
-- every body against both pits, the pits kept between rows and given inline: the same solids and volumes
SELECT count(*) AS pairs,
	count(*) FILTER (WHERE NOT gx_isempty(gx_intersection(b.geom, p.geom))) AS in_pit,
	count(*) FILTER (WHERE gx_astext(gx_intersection(b.geom, p.geom)) = gx_astext(gx_intersection(b.geom, gx_makesolid(p.geom)))) AS same_intersection,
	count(*) FILTER (WHERE gx_astext(gx_intersection(p.geom, b.geom)) = gx_astext(gx_intersection(gx_makesolid(p.geom), b.geom))) AS same_pit_first,
	count(*) FILTER (WHERE gx_intersection_volume(b.geom, p.geom) = gx_intersection_volume(b.geom, gx_makesolid(p.geom))) AS same_volume,
	count(*) FILTER (WHERE gx_intersection_volume(p.geom, b.geom) = gx_intersection_volume(gx_makesolid(p.geom), b.geom)) AS same_volume_pit_first,
	count(*) FILTER (WHERE gx_astext(gx_difference(p.geom, b.geom)) = gx_astext(gx_difference(gx_makesolid(p.geom), b.geom))) AS same_difference,
	count(*) FILTER (WHERE gx_astext(gx_union(b.geom, p.geom)) = gx_astext(gx_union(b.geom, gx_makesolid(p.geom)))) AS same_union
FROM bk_bodies b, bk_pits p;
-- the volumes are the solids' to 1e-9, and the ore inside either pit adds up
SELECT count(*) FILTER (WHERE abs(gx_volume(gx_intersection(b.geom, p.geom)) - gx_intersection_volume(b.geom, p.geom))
	<= 1e-9 * gx_volume(b.geom)) AS volumes_match, round(sum(gx_intersection_volume(b.geom, p.geom))::numeric, 3) > 0 AS some_ore
FROM bk_bodies b, bk_pits p;
-- the pairs' common parts made on the threads: the rows with a positive volume, each gx_intersection of its pair
SELECT count(*) AS rows,
	count(*) FILTER (WHERE gx_astext(x.geom) = gx_astext(gx_intersection(b.geom, p.geom))) AS equal_to_pair,
	count(*) = (SELECT count(*) FROM bk_bodies b, bk_pits p WHERE gx_intersection_volume(b.geom, p.geom) > 0) AS all_in_pit
FROM gx_intersection_pairs('SELECT id, geom FROM bk_bodies', 'SELECT id, geom FROM bk_pits') x
JOIN bk_bodies b ON b.id = x.a_id JOIN bk_pits p ON p.id = x.b_id;
-- two solids stored out of line in one call, the site's memory too small for both (0: no keeping): the first
-- stays until the call is done, so each answer is that of the two given inline
SET gpuexact.cache_host_mb = 0;
SELECT a.id AS a, b.id AS b,
	gx_intersection_volume(a.geom, b.geom) = gx_intersection_volume(gx_makesolid(a.geom), gx_makesolid(b.geom)) AS same_volume,
	gx_astext(gx_intersection(a.geom, b.geom)) = gx_astext(gx_intersection(gx_makesolid(a.geom), gx_makesolid(b.geom))) AS same_intersection,
	gx_astext(gx_difference(a.geom, b.geom)) = gx_astext(gx_difference(gx_makesolid(a.geom), gx_makesolid(b.geom))) AS same_difference,
	gx_intersection_volume(a.geom, b.geom) < gx_volume(a.geom) AS not_itself
FROM bk_pits a, bk_pits b WHERE a.id <> b.id ORDER BY a.id;
RESET gpuexact.cache_host_mb;
DROP TABLE bk_bodies, bk_pits;
DROP FUNCTION bk_values_out_of_line(regclass);
