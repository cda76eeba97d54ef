-- postgis_bridge: the gpuexact_postgis extension's casts between PostGIS geometry and gxgeom, both ways, for
-- every geometry type: SRID kept, EMPTY, M dropped, 2D read with Z = 0, polygon faces triangulated, errors.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS postgis;
CREATE EXTENSION IF NOT EXISTS gpuexact;
CREATE EXTENSION gpuexact_postgis;
RESET client_min_messages;

-- geometry -> gxgeom -> geometry for every type gpuexact stores: the same bytes back (exact round trip)
CREATE TABLE shapes (id int, geom geometry);
INSERT INTO shapes VALUES
	(1, 'POINT Z (1 2 3)'),
	(2, 'SRID=32633;POINT Z (500000.12345678901 7000000.987654321 123.456)'),
	(3, 'LINESTRING Z (0 0 0, 1 1 1, 2 0 -1)'),
	(4, 'SRID=4326;MULTIPOINT Z ((1 2 3), (4 5 6))'),
	(5, 'MULTILINESTRING Z ((0 0 0, 1 1 1), (2 2 2, 3 3 3))'),
	(6, 'TRIANGLE Z ((0 0 0, 1 0 0, 0 1 0, 0 0 0))'),
	(7, 'TIN Z (((0 0 0, 1 0 0, 0 1 0, 0 0 0)), ((1 0 0, 1 1 0, 0 1 0, 1 0 0)))'),
	(8, 'SRID=32633;POLYHEDRALSURFACE Z (((0 0 0, 1 0 0, 0 1 0, 0 0 0)), ((0 0 0, 0 1 0, 0 0 1, 0 0 0)))'),
	(9, 'GEOMETRYCOLLECTION Z (POINT Z (1 2 3), LINESTRING Z (0 0 0, 1 1 1), TIN Z (((0 0 0, 1 0 0, 0 1 0, 0 0 0))))'),
	(10, 'POINT Z EMPTY'),
	(11, 'LINESTRING Z EMPTY'),
	(12, 'TIN Z EMPTY'),
	(13, 'SRID=4326;GEOMETRYCOLLECTION Z EMPTY'),
	(14, 'MULTIPOINT Z EMPTY'),
	(15, 'POINT Z (-0 1e-300 1.7976931348623157e+308)');
SELECT id, gx_asewkt(geom::gxgeom) AS gxgeom, ST_AsEWKB(geom::gxgeom::geometry) = ST_AsEWKB(geom) AS same_bytes,
	ST_SRID(geom::gxgeom::geometry) = ST_SRID(geom) AS same_srid
FROM shapes ORDER BY id;

-- gxgeom -> geometry -> gxgeom: equal (same SRID, structure and bits)
SELECT id, geom::gxgeom::geometry::gxgeom = geom::gxgeom AS same FROM shapes ORDER BY id;

-- what PostGIS has and gxgeom has not: M dropped, 2D read with Z = 0, polygons as the triangles of their
-- exact triangulation (a TIN; POLYHEDRALSURFACE faces stay faces, as triangles)
SELECT gx_asewkt(g::geometry::gxgeom) FROM (VALUES
	('POINT M (1 2 9)'),
	('SRID=4326;LINESTRING ZM (1 2 3 9, 4 5 6 9)'),
	('POINT (1 2)'),
	('POLYGON EMPTY'),
	('MULTIPOLYGON EMPTY'),
	('SRID=32633;POLYGON ((500000 7000000, 500010 7000000, 500010 7000010, 500000 7000010, 500000 7000000))'),
	('POLYGON Z ((0 0 0, 4 0 0, 4 4 0, 0 4 0, 0 0 0), (1 1 0, 1 3 0, 3 3 0, 3 1 0, 1 1 0))'),
	('MULTIPOLYGON Z (((0 0 5, 2 0 5, 1 1 5, 2 2 5, 0 2 5, 0 0 5)), ((10 10 0, 11 10 0, 10 11 0, 10 10 0)))'),
	('GEOMETRYCOLLECTION (POLYGON ((0 0, 1 0, 0 1, 0 0)), POINT (5 5))')) v(g);

-- a cube of six quads: twelve triangles, a closed surface that touches a point on a face
SELECT gx_geometrytype(c), gx_ntriangles(c), gx_intersects(c, 'POINT Z (1 0.5 0.5)') AS touches_face,
	gx_intersects(c, 'POINT Z (0.5 0.5 0.5)') AS inside_not_on_surface
FROM (SELECT 'POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),
	((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)),((1 1 0,0 1 0,0 1 1,1 1 1,1 1 0)),
	((0 1 0,0 0 0,0 0 1,0 1 1,0 1 0)))'::geometry::gxgeom AS c) s;

-- back to PostGIS: the triangles of a polygon with a hole have the polygon's area, and its vertices
SELECT ST_Area(g) AS polygon_area, (SELECT sum(ST_Area(ST_Force2D(d.geom))) FROM ST_Dump(g::gxgeom::geometry) d) AS triangles_area,
	ST_NPoints(g) - ST_NRings(g) AS polygon_vertices,
	(SELECT count(DISTINCT d.geom) FROM ST_DumpPoints(g::gxgeom::geometry) d) AS triangle_vertices
FROM (SELECT 'POLYGON ((0 0, 4 0, 4 4, 2 1, 0 4, 0 0), (1 0.5, 1.5 0.5, 1.5 1, 1 0.5))'::geometry AS g) s;

-- NULL stays NULL
SELECT NULL::geometry::gxgeom IS NULL AS null_in, NULL::gxgeom::geometry IS NULL AS null_out;

-- CREATE TABLE ... AS SELECT geom::gxgeom just works; an INSERT casts by assignment, both ways
CREATE TABLE gx_shapes AS SELECT id, geom::gxgeom AS geom FROM shapes WHERE id <= 9;
SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'gx_shapes'::regclass AND attname = 'geom';
INSERT INTO gx_shapes SELECT 100, geom FROM shapes WHERE id = 3;
SELECT count(*) FROM gx_shapes a JOIN gx_shapes b ON gx_intersects(a.geom, b.geom) WHERE a.id = 100;
CREATE TABLE pg_back (id int, geom geometry);
INSERT INTO pg_back SELECT id, geom FROM gx_shapes;
SELECT count(*) FROM pg_back b JOIN shapes s USING (id) WHERE ST_AsEWKB(b.geom) = ST_AsEWKB(s.geom);

-- the casts are inlined: a plan shows the two EWKB functions
EXPLAIN (VERBOSE, COSTS OFF) SELECT geom::gxgeom FROM shapes;

-- what gxgeom cannot hold is refused with an ERROR
SELECT 'CIRCULARSTRING (0 0, 1 1, 2 0)'::geometry::gxgeom;
SELECT 'POLYGON ((0 0, 2 2, 2 0, 0 2, 0 0))'::geometry::gxgeom;
SELECT 'POLYGON Z ((0 0 0, 4 0 0, 4 4 0, 0 4 1, 0 0 0))'::geometry::gxgeom;
SELECT 'MULTIPOLYGON (((0 0, 1 0, 0 1, 0 0)), ((0 0, 4 0, 4 4, 0 4, 0 0), (5 5, 6 5, 6 6, 5 5)))'::geometry::gxgeom;

DROP TABLE shapes, gx_shapes, pg_back;
DROP EXTENSION gpuexact_postgis;
