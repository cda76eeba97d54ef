-- Booleans of two solids: the exact volume of their common part, rounded once.
-- ov_faces: the six faces of the box [x0,x1] x [y0,y1] x [z0,z1], outward; ov_box: that box as a solid.
CREATE FUNCTION ov_faces(x0 float8, y0 float8, z0 float8, x1 float8, y1 float8, z1 float8) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT format('((%1$s %2$s %3$s,%1$s %5$s %3$s,%4$s %5$s %3$s,%4$s %2$s %3$s,%1$s %2$s %3$s)),'
		'((%1$s %2$s %6$s,%4$s %2$s %6$s,%4$s %5$s %6$s,%1$s %5$s %6$s,%1$s %2$s %6$s)),'
		'((%1$s %2$s %3$s,%4$s %2$s %3$s,%4$s %2$s %6$s,%1$s %2$s %6$s,%1$s %2$s %3$s)),'
		'((%1$s %5$s %3$s,%1$s %5$s %6$s,%4$s %5$s %6$s,%4$s %5$s %3$s,%1$s %5$s %3$s)),'
		'((%1$s %2$s %3$s,%1$s %2$s %6$s,%1$s %5$s %6$s,%1$s %5$s %3$s,%1$s %2$s %3$s)),'
		'((%4$s %2$s %3$s,%4$s %5$s %3$s,%4$s %5$s %6$s,%4$s %2$s %6$s,%4$s %2$s %3$s))', x0, y0, z0, x1, y1, z1) $$;
CREATE FUNCTION ov_box(x0 float8, y0 float8, z0 float8, x1 float8, y1 float8, z1 float8) RETURNS gxgeom
LANGUAGE sql IMMUTABLE AS $$ SELECT gx_makesolid(('POLYHEDRALSURFACE Z (' || ov_faces(x0, y0, z0, x1, y1, z1) || ')')::gxgeom) $$;
CREATE TABLE ov_solids (id int, geom gxgeom);
INSERT INTO ov_solids VALUES
  (1, ov_box(0, 0, 0, 2, 2, 2)),
  (2, ov_box(1, 1, 1, 3, 3, 3)),                 -- overlaps 1 in a unit cube
  (3, ov_box(2, 0, 0, 4, 2, 2)),                 -- shares a face with 1
  (4, ov_box(2, 2, 0, 4, 4, 2)),                 -- shares an edge with 1
  (5, ov_box(2, 2, 2, 4, 4, 4)),                 -- shares a vertex with 1
  (6, ov_box(0.1, 0.1, 0.1, 2.1, 2.1, 2.1)),     -- 1 shifted by 0.1
  (7, ov_box(0, 0, 0, 2, 2, 1)),                 -- 1's lower half: shares five faces' planes
  -- the octahedron |x| + |y| + |z| <= 1, and the same at UTM coordinates
  (8, gx_makesolid('TIN Z (((1 0 0,0 1 0,0 0 1,1 0 0)),((0 1 0,-1 0 0,0 0 1,0 1 0)),((-1 0 0,0 -1 0,0 0 1,-1 0 0)),((0 -1 0,1 0 0,0 0 1,0 -1 0)),((0 1 0,1 0 0,0 0 -1,0 1 0)),((-1 0 0,0 1 0,0 0 -1,-1 0 0)),((0 -1 0,-1 0 0,0 0 -1,0 -1 0)),((1 0 0,0 -1 0,0 0 -1,1 0 0)))')),
  (9, gx_makesolid('TIN Z (((500001 7000000 250,500000 7000001 250,500000 7000000 251,500001 7000000 250)),((500000 7000001 250,499999 7000000 250,500000 7000000 251,500000 7000001 250)),((499999 7000000 250,500000 6999999 250,500000 7000000 251,499999 7000000 250)),((500000 6999999 250,500001 7000000 250,500000 7000000 251,500000 6999999 250)),((500000 7000001 250,500001 7000000 250,500000 7000000 249,500000 7000001 250)),((499999 7000000 250,500000 7000001 250,500000 7000000 249,499999 7000000 250)),((500000 6999999 250,499999 7000000 250,500000 7000000 249,500000 6999999 250)),((500001 7000000 250,500000 6999999 250,500000 7000000 249,500001 7000000 250)))')),
  (10, ov_box(0, 0, 0, 1, 1, 1)),                -- the octahedron's first octant's box
  (11, ov_box(499999.5, 6999999.5, 249.5, 500000.5, 7000000.5, 250))   -- through the UTM octahedron's middle
;
-- the common volumes of boxes: the product of their overlaps; touching boxes share 0
SELECT a.id, b.id, gx_intersection_volume(a.geom, b.geom) AS common
FROM ov_solids a, ov_solids b WHERE a.id = 1 AND b.id BETWEEN 1 AND 7 ORDER BY b.id;
-- symmetric, and a solid with itself is its volume
SELECT count(*) AS asymmetric FROM ov_solids a, ov_solids b
  WHERE gx_intersection_volume(a.geom, b.geom) <> gx_intersection_volume(b.geom, a.geom);
SELECT count(*) AS not_itself FROM ov_solids WHERE gx_intersection_volume(geom, geom) <> gx_volume(geom);
-- the octahedron in a box is gx_volume(solid, box): one octant is 1/6, rounded once
SELECT gx_intersection_volume(o.geom, b.geom) = 1.0::float8 / 6 AS one_sixth,
       gx_intersection_volume(o.geom, b.geom) = gx_volume(o.geom, 'BOX3D(0 0 0,1 1 1)') AS as_in_box
FROM ov_solids o, ov_solids b WHERE o.id = 8 AND b.id = 10;
SELECT gx_intersection_volume(o.geom, b.geom) AS utm_slab,
       gx_intersection_volume(o.geom, b.geom) = gx_volume(o.geom, 'BOX3D(499999.5 6999999.5 249.5,500000.5 7000000.5 250)') AS as_in_box
FROM ov_solids o, ov_solids b WHERE o.id = 9 AND b.id = 11;
-- EMPTY shares nothing
SELECT gx_intersection_volume(geom, 'POLYHEDRALSURFACE Z EMPTY') AS with_empty FROM ov_solids WHERE id = 1;
-- errors: a surface that is not a solid, mixed SRIDs
SELECT gx_intersection_volume(geom, 'TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))') FROM ov_solids WHERE id = 1;
SELECT gx_intersection_volume(gx_setsrid(geom, 32633), gx_setsrid(geom, 32634)) FROM ov_solids WHERE id = 1;
-- a triangle cut more times than work_mem holds (a cube's faces crossed by 40 slabs)
CREATE TABLE ov_comb AS SELECT gx_makesolid(('POLYHEDRALSURFACE Z (' ||
	string_agg(ov_faces(0.01 + k * 0.02, -1, -1, 0.02 + k * 0.02, 3, 3), ',') || ')')::gxgeom) AS geom
	FROM generate_series(0, 39) k;
SELECT gx_ntriangles(geom) FROM ov_comb;
SET work_mem = 64;
SELECT gx_intersection_volume(s.geom, c.geom) FROM ov_solids s, ov_comb c WHERE s.id = 1;
RESET work_mem;
SELECT round(gx_intersection_volume(s.geom, c.geom)::numeric, 9) AS comb_in_cube FROM ov_solids s, ov_comb c WHERE s.id = 1;
