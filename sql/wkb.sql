-- wkb: ISO WKB and PostGIS EWKB, both byte orders, hex input, SRID override.
-- PostGIS: SELECT ST_AsEWKB('SRID=4326;POINT Z(1 2 3)'::geometry)
SELECT gx_geomfromwkb('\x01010000a0e6100000000000000000f03f00000000000000400000000000000840'::bytea);
-- the same point as ISO WKB (type 1001), little and big endian
SELECT gx_geomfromwkb('\x01e9030000000000000000f03f00000000000000400000000000000840'::bytea);
SELECT gx_geomfromwkb('\x00000003e93ff000000000000040000000000000004008000000000000'::bytea);
-- 2D WKB: z = 0; SRID argument
SELECT gx_geomfromwkb('\x0101000000000000000000f03f0000000000000040'::bytea, 32633);
-- hex EWKB as text input, as PostGIS prints geometries
SELECT '01010000A0E6100000000000000000F03F00000000000000400000000000000840'::gxgeom;
-- writers
SELECT gx_asbinary('POINT(1 2 3)'::gxgeom), gx_asewkb('SRID=4326;POINT(1 2 3)'::gxgeom);
SELECT gx_asbinary('POINT EMPTY'::gxgeom);
-- round trips through both variants for every type
WITH g(t) AS (VALUES ('POINT Z (1 2 3)'), ('LINESTRING Z (0 0 0,1 1 1)'), ('TRIANGLE Z ((0 0 0,1 0 0,0 1 0,0 0 0))'),
	('TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((1 0 0,1 1 0,0 1 0,1 0 0)))'),
	('POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 0 0,0 0 0)))'), ('MULTIPOINT Z ((1 2 3),(4 5 6))'),
	('MULTILINESTRING Z ((0 0 0,1 1 1),(2 2 2,3 3 3))'), ('SRID=3857;GEOMETRYCOLLECTION Z (POINT Z (1 2 3),TIN Z EMPTY)'),
	('POINT EMPTY'), ('GEOMETRYCOLLECTION EMPTY'))
SELECT t, gx_asewkt(gx_geomfromwkb(gx_asewkb(t::gxgeom))) = gx_asewkt(t::gxgeom) AS ewkb_ok,
	gx_astext(gx_geomfromwkb(gx_asbinary(t::gxgeom))) = gx_astext(t::gxgeom) AS iso_ok
FROM g;
