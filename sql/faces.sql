-- faces: polygon faces (POLYGON, MULTIPOLYGON, POLYHEDRALSURFACE faces) in WKT, EWKT, WKB and EWKB, stored
-- as the triangles of their exact triangulation; faces not planar or not simple are refused, naming the face.

-- a square, a non-convex polygon, a polygon with a hole, collinear and repeated vertices
SELECT gx_astext('POLYGON((0 0,1 0,1 1,0 1,0 0))');
SELECT gx_astext('POLYGON Z ((0 0 0,2 0 0,1 1 0,2 2 0,0 2 0,0 0 0))');
SELECT gx_ntriangles(g), gx_geometrytype(g) FROM (SELECT 'POLYGON((0 0,4 0,4 4,0 4,0 0),(1 1,1 3,3 3,3 1,1 1))'::gxgeom AS g) s;
SELECT gx_astext('POLYGON((0 0,1 0,2 0,2 0,2 1,0 1,0 0))');
SELECT gx_astext('POLYGON((0 0,1 0,2 0,0 0))') AS on_one_line;
SELECT gx_astext('POLYGON EMPTY'), gx_astext('MULTIPOLYGON EMPTY');

-- EWKT keeps the SRID; M is dropped; MULTIPOLYGON is one TIN
SELECT gx_asewkt('SRID=32633;MULTIPOLYGON(((500000 7000000,500010 7000000,500010 7000010,500005 7000010,500005 7000005,500000 7000005,500000 7000000)),EMPTY)');
SELECT gx_astext('POLYGON ZM ((0 0 0 9,1 0 0 9,1 1 1 9,0 1 1 9,0 0 0 9))');

-- a cube of six quads as a POLYHEDRALSURFACE: 12 triangles; what touches the surface intersects it
CREATE TABLE faces_cube AS SELECT 'POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),
	((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)),((1 1 0,0 1 0,0 1 1,1 1 1,1 1 0)),
	((0 1 0,0 0 0,0 0 1,0 1 1,0 1 0)))'::gxgeom AS g;
SELECT gx_geometrytype(g), gx_ntriangles(g), gx_npoints(g) FROM faces_cube;
SELECT p, gx_intersects(g, p::gxgeom) FROM faces_cube, (VALUES ('POINT(1 0.5 0.5)'), ('POINT(0.5 0.5 1)'),
	('POINT(1.0000000000000002 0.5 0.5)'), ('LINESTRING(0.5 0.5 0.5, 2 0.5 0.5)'), ('POINT(0.5 0.5 0.5)')) v(p);

-- WKB and EWKB: an ISO POLYGON Z, hex EWKB with an SRID, a MULTIPOLYGON given an SRID, the cube through WKB
SELECT gx_asewkt(gx_geomfromwkb('\x01eb0300000100000005000000000000000000000000000000000000000000000000000000000000000000f03f00000000000000000000000000000000000000000000f03f000000000000f03f000000000000f03f0000000000000000000000000000f03f000000000000f03f000000000000000000000000000000000000000000000000'::bytea));
SELECT gx_asewkt('0103000020797F0000010000000400000000000000000000000000000000000000000000000000F03F00000000000000000000000000000000000000000000F03F00000000000000000000000000000000'::gxgeom);
SELECT gx_asewkt(gx_geomfromwkb('\x0106000000010000000103000000010000000400000000000000000000000000000000000000000000000000f03f00000000000000000000000000000000000000000000f03f00000000000000000000000000000000'::bytea, 4326));
SELECT gx_ntriangles(gx_geomfromwkb(gx_asbinary(g))) FROM faces_cube;

-- refused faces name the face and a point; rings must be closed and have 4 points or more
SELECT 'POLYGON((0 0,2 2,2 0,0 2,0 0))'::gxgeom;
SELECT 'POLYGON Z ((0 0 0,4 0 0,4 4 0,0 4 1,0 0 0))'::gxgeom;
-- the odd one out is named, also when it is one of the first three points
SELECT 'POLYGON Z ((0 0 0,2 0 0,2 1 1,2 2 0,0 2 0,0 0 0))'::gxgeom;
SELECT 'POLYGON Z ((0 0 7,2 0 0,2 2 0,0 2 0,-1 1 0,0 0 7))'::gxgeom;
SELECT 'POLYHEDRALSURFACE Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((0 0 0,4 0 0,4 4 0,0 4 0.000000000000001,0 0 0)))'::gxgeom;
SELECT 'MULTIPOLYGON(((0 0,1 0,0 1,0 0)),((0 0,4 0,4 4,0 4,0 0),(5 5,6 5,6 6,5 5)))'::gxgeom;
SELECT 'POLYGON((0 0,4 0,4 4,0 4,0 0),(1 1,2 1,2 2,1 2,1 1),(2 2,3 2,3 3,2 3,2 2))'::gxgeom;
SELECT 'POLYGON((0 0,4 0,4 4,0 4,0 0),(0 0,2 1,1 2,0 0))'::gxgeom;
SELECT 'POLYGON((0 0,1 0,1 1,0 1))'::gxgeom;
SELECT 'POLYGON((0 0,1 0,0 0))'::gxgeom;
SELECT gx_geomfromwkb('\x010300000001000000050000000000000000000000000000000000000000000000000000400000000000000040000000000000004000000000000000000000000000000000000000000000004000000000000000000000000000000000'::bytea);

DROP TABLE faces_cube;
