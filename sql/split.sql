-- gx_split: a solid's parts on either side of an open surface (positive: where the surface's normals point,
-- each triangle counter-clockwise seen from there). Uses overlay.sql's ov_box, ov_solids and ov_comb.
-- sp_plane: the plane z = z0 + cx (x - x0) + cy (y - y0) over [x0-1,x0+3] x [y0-1,y0+3], two triangles
-- counter-clockwise seen from above (clockwise when down).
CREATE FUNCTION sp_plane(z0 float8, cx float8, cy float8, down bool DEFAULT false, x0 float8 DEFAULT 0,
	y0 float8 DEFAULT 0) RETURNS gxgeom
LANGUAGE sql IMMUTABLE AS $$
	SELECT format(CASE WHEN down THEN 'TIN Z (((%1$s,%3$s,%2$s,%1$s)),((%1$s,%4$s,%3$s,%1$s)))'
		ELSE 'TIN Z (((%1$s,%2$s,%3$s,%1$s)),((%1$s,%3$s,%4$s,%1$s)))' END,
		format('%s %s %s', x0 - 1, y0 - 1, z0 - cx - cy), format('%s %s %s', x0 + 3, y0 - 1, z0 + 3 * cx - cy),
		format('%s %s %s', x0 + 3, y0 + 3, z0 + 3 * cx + 3 * cy), format('%s %s %s', x0 - 1, y0 + 3, z0 - cx + 3 * cy))::gxgeom $$;
-- [0,2]^3 by z = 0.5: the boxes [0,2]^2 x [0.5,2] above (6) and [0,2]^2 x [0,0.5] below (2)
SELECT s.side, gx_issolid(s.geom) AS solid, gx_volume(s.geom) AS volume, gx_box3d(s.geom) AS box
FROM ov_solids, gx_split(geom, sp_plane(0.5, 0, 0)) s WHERE id = 1;
-- the same plane facing down: the sides swap
SELECT s.side, gx_volume(s.geom) AS volume, gx_box3d(s.geom) AS box
FROM ov_solids, gx_split(geom, sp_plane(0.5, 0, 0, true)) s WHERE id = 1;
-- z = x passes through two of the box's edges and along two faces' diagonals: two prisms of 4
SELECT s.side, gx_volume(s.geom) AS volume, gx_box3d(s.geom) AS box
FROM ov_solids, gx_split(geom, sp_plane(0, 1, 0)) s WHERE id = 1;
-- along the top face: all of it below; along the bottom face: all above
SELECT s.side, gx_volume(s.geom) AS volume FROM ov_solids, gx_split(geom, sp_plane(2, 0, 0)) s WHERE id = 1;
SELECT s.side, gx_volume(s.geom) AS volume FROM ov_solids, gx_split(geom, sp_plane(0, 0, 0)) s WHERE id = 1;
-- a roof folded along x = 1 (z = 0.5 at x = -1 and 3, 1.5 at x = 1): below it 2 x (1.25 + 1.25) = 5, above 3
SELECT s.side, gx_volume(s.geom) AS volume, gx_ntriangles(s.geom) > 0 AS made
FROM ov_solids, gx_split(geom, 'TIN Z (((-1 -1 0.5,1 -1 1.5,1 3 1.5,-1 -1 0.5)),((-1 -1 0.5,1 3 1.5,-1 3 0.5,-1 -1 0.5)),
	((1 -1 1.5,3 -1 0.5,3 3 0.5,1 -1 1.5)),((1 -1 1.5,3 3 0.5,1 3 1.5,1 -1 1.5)))') s WHERE id = 1;
-- a tilted plane: the parts add up to the box, and the part below is the box's part below the plane
SELECT round(sum(gx_volume(s.geom))::numeric, 9) AS total, count(*) AS parts,
       round(min(gx_volume(s.geom)) FILTER (WHERE s.side = 'negative')::numeric, 9) AS below
FROM ov_solids, gx_split(geom, sp_plane(0.7, 0.2, 0.1)) s WHERE id = 1;
-- at UTM coordinates: the UTM octahedron's upper and lower halves, 2/3 each
SELECT s.side, round(gx_volume(s.geom)::numeric, 9) AS volume, gx_issolid(s.geom) AS solid
FROM ov_solids, gx_split(geom, sp_plane(250, 0, 0, false, 499999, 6999999)) s WHERE id = 9;
-- the octahedron (4/3) by z = 0.25: the cap above is its upper half (2/3) scaled by 0.75: 0.28125; below 101/96
SELECT s.side, gx_volume(s.geom) AS volume FROM ov_solids, gx_split(geom, sp_plane(0.25, 0, 0)) s WHERE id = 8;
-- EMPTY: no part
SELECT count(*) AS parts FROM gx_split('POLYHEDRALSURFACE Z EMPTY', sp_plane(0.5, 0, 0));
-- errors: a surface that ends inside the solid; a surface beside it; not a solid; mixed SRIDs; triangles
-- that run an edge the same way
SELECT * FROM ov_solids, gx_split(geom, 'TIN Z (((-1 -1 1,1 -1 1,1 3 1,-1 -1 1)),((-1 -1 1,1 3 1,-1 3 1,-1 -1 1)))') WHERE id = 1;
SELECT * FROM ov_solids, gx_split(geom, sp_plane(1, 0, 0, false, 10, 0)) WHERE id = 1;
SELECT * FROM gx_split(sp_plane(1, 0, 0), sp_plane(1, 0, 0));
SELECT * FROM ov_solids, gx_split(gx_setsrid(geom, 32633), gx_setsrid(sp_plane(1, 0, 0), 32634)) WHERE id = 1;
SELECT * FROM ov_solids, gx_split(geom, 'TIN Z (((-1 -1 1,3 -1 1,3 3 1,-1 -1 1)),((-1 -1 1,-1 3 1,3 3 1,-1 -1 1)))') WHERE id = 1;
-- by a closed surface (40 slabs across the box): a triangle cut more times than work_mem holds, then the
-- slabs' 40 x 0.01 x 2 x 2 = 1.6 inside them, 6.4 outside
SET work_mem = 64;
SELECT * FROM ov_solids s, ov_comb c, gx_split(s.geom, c.geom) WHERE s.id = 1;
RESET work_mem;
SELECT p.side, round(gx_volume(p.geom)::numeric, 9) AS volume FROM ov_solids s, ov_comb c, gx_split(s.geom, c.geom) p WHERE s.id = 1;
-- cancel: statement_timeout stops a split along boolean.sql's 400 slabs across the cube, and the session goes on
SET work_mem = '1GB';
SET statement_timeout = '200ms';
SELECT * FROM ov_solids s, bo_comb c, gx_split(s.geom, c.geom) WHERE s.id = 1;
RESET statement_timeout;
RESET work_mem;
SELECT s.side, gx_volume(s.geom) AS volume FROM ov_solids, gx_split(geom, sp_plane(0.5, 0, 0)) s WHERE id = 1;
