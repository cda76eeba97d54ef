-- Booleans of two solids as solids: gx_intersection, gx_union, gx_difference, a solid in a box, a surface in
-- a solid. Uses overlay.sql's ov_box and ov_solids (1: [0,2]^3, 2: [1,3]^3, 3: shares a face with 1, 4: an
-- edge, 6: 1 shifted by 0.1, 8: the octahedron |x| + |y| + |z| <= 1, 9: it at UTM coordinates).
-- two boxes overlapping in a unit cube: a ∩ b is that cube, a ∪ b 8 + 8 - 1, a \ b 8 - 1
SELECT gx_issolid(r) AS solid, gx_volume(r) AS volume, gx_box3d(r) AS box
FROM ov_solids a, ov_solids b, LATERAL (VALUES (gx_intersection(a.geom, b.geom)), (gx_union(a.geom, b.geom)),
  (gx_difference(a.geom, b.geom))) AS v(r) WHERE a.id = 1 AND b.id = 2;
-- sharing a face: no common part, a union of 16, the difference is a
SELECT gx_isempty(gx_intersection(a.geom, b.geom)) AS common_empty, gx_volume(gx_union(a.geom, b.geom)) AS union_volume,
       gx_box3d(gx_union(a.geom, b.geom)) AS union_box, gx_volume(gx_difference(a.geom, b.geom)) AS difference_volume
FROM ov_solids a, ov_solids b WHERE a.id = 1 AND b.id = 3;
-- a solid with itself: itself, and nothing left of it
SELECT gx_volume(gx_intersection(geom, geom)) AS with_itself, gx_volume(gx_union(geom, geom)) AS union_itself,
       gx_isempty(gx_difference(geom, geom)) AS nothing_left FROM ov_solids WHERE id = 1;
-- shifted by 0.1: 1.9^3 in common, and inclusion-exclusion
SELECT round(gx_volume(gx_intersection(a.geom, b.geom))::numeric, 12) AS common,
       round((gx_volume(gx_union(a.geom, b.geom)) + gx_volume(gx_intersection(a.geom, b.geom)))::numeric, 12) AS sum
FROM ov_solids a, ov_solids b WHERE a.id = 1 AND b.id = 6;
-- with EMPTY
SELECT gx_isempty(gx_intersection(geom, 'POLYHEDRALSURFACE Z EMPTY')) AS common_empty,
       gx_volume(gx_union(geom, 'POLYHEDRALSURFACE Z EMPTY')) AS union_is_a FROM ov_solids WHERE id = 1;
-- the octahedron's part in a box: one octant, 1/6 = gx_volume(solid, box); at UTM coordinates
SELECT gx_volume(gx_intersection(geom, 'BOX3D(0 0 0,1 1 1)'::gxbox3d)) = 1.0::float8 / 6 AS one_sixth,
       gx_issolid(gx_intersection(geom, 'BOX3D(0 0 0,1 1 1)'::gxbox3d)) AS solid FROM ov_solids WHERE id = 8;
SELECT abs(gx_volume(gx_intersection(geom, b)) - gx_volume(geom, b)) < 1e-9 AS as_gx_volume
FROM ov_solids, (VALUES ('BOX3D(499999.5 6999999.5 249.5,500000.5 7000000.5 250)'::gxbox3d)) AS v(b) WHERE id = 9;
-- at UTM coordinates, a box and another shifted 0.3 m on every axis: the planes of each cross the diagonals of
-- the other's faces; each face is cut as one polygon, so every vertex is where planes of the boxes meet and the
-- results are exact: a ∩ b is the box of the overlaps, 0.7 m a side
SELECT gx_issolid(i) AND gx_issolid(u) AND gx_issolid(d) AS solids, gx_box3d(i) AS common_box,
       gx_volume(i) = gx_intersection_volume(a, b) AS exact, round(gx_volume(i)::numeric, 6) AS common,
       round(gx_volume(u)::numeric, 6) AS union_volume, round(gx_volume(d)::numeric, 6) AS difference_volume
FROM (SELECT ov_box(500126.25, 7000456.5, 1202, 500127.25, 7000457.5, 1204) AS a,
             ov_box(500126.25 + 0.3, 7000456.5 + 0.3, 1203 + 0.3, 500127.25 + 0.3, 7000459.5 + 0.3, 1204 + 0.3) AS b) s,
     LATERAL (SELECT gx_intersection(a, b) AS i, gx_union(a, b) AS u, gx_difference(a, b) AS d) r;
-- a surface's part in a solid: a square at z = 1 across [0,2]^3 keeps 2 x 2
SELECT gx_area(gx_intersection('TIN Z (((-1 -1 1,3 -1 1,3 3 1,-1 -1 1)),((-1 -1 1,3 3 1,-1 3 1,-1 -1 1)))'::gxgeom, geom)) AS area
FROM ov_solids WHERE id = 1;
-- errors: boxes touching along an edge have no manifold union; not a solid; mixed SRIDs
SELECT gx_union(a.geom, b.geom) FROM ov_solids a, ov_solids b WHERE a.id = 1 AND b.id = 4;
SELECT gx_intersection(geom, 'TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))') FROM ov_solids WHERE id = 1;
SELECT gx_difference(gx_setsrid(geom, 32633), gx_setsrid(geom, 32634)) FROM ov_solids WHERE id = 1;
SELECT gx_intersection('LINESTRING Z (0 0 0,1 1 1)'::gxgeom, geom) FROM ov_solids WHERE id = 1;
-- a triangle cut more times than work_mem holds
SET work_mem = 64;
SELECT gx_intersection(s.geom, c.geom) FROM ov_solids s, ov_comb c WHERE s.id = 1;
RESET work_mem;
SELECT round(gx_volume(gx_intersection(s.geom, c.geom))::numeric, 9) AS comb_in_cube FROM ov_solids s, ov_comb c WHERE s.id = 1;
-- cancel: statement_timeout stops a construction whose triangles are each cut very many times (a cube's faces
-- crossed by 400 slabs, work_mem large enough to let it run for minutes), and the session goes on
CREATE TABLE bo_comb AS SELECT gx_makesolid(('POLYHEDRALSURFACE Z (' ||
	string_agg(ov_faces(0.001 + k * 0.004, -1, -1, 0.003 + k * 0.004, 3, 3), ',') || ')')::gxgeom) AS geom
	FROM generate_series(0, 399) k;
SET work_mem = '1GB';
SET statement_timeout = '200ms';
SELECT gx_intersection(s.geom, c.geom) FROM ov_solids s, bo_comb c WHERE s.id = 1;
SELECT gx_difference(s.geom, c.geom) FROM ov_solids s, bo_comb c WHERE s.id = 1;
RESET statement_timeout;
RESET work_mem;
SELECT gx_volume(gx_intersection(a.geom, b.geom)) AS after_cancel FROM ov_solids a, ov_solids b WHERE a.id = 1 AND b.id = 2;
