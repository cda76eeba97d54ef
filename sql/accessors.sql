-- accessors: SRID, type, counts, emptiness, extent.
WITH g(g) AS (VALUES ('SRID=32633;LINESTRING Z (0 0 0, 1 2 3, 4 -5 6)'::gxgeom),
	('TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((1 0 0,1 1 0,0 1 0,1 0 0)))'), ('POINT EMPTY'),
	('GEOMETRYCOLLECTION(POINT(9 9 9), MULTILINESTRING((0 0 0,1 1 1,2 2 2)), TRIANGLE((0 0 -1,1 0 0,0 1 0,0 0 -1)))'))
SELECT gx_geometrytype(g), gx_srid(g), gx_isempty(g), gx_npoints(g), gx_nsegments(g), gx_ntriangles(g),
	gx_xmin(g), gx_ymin(g), gx_zmin(g), gx_xmax(g), gx_ymax(g), gx_zmax(g)
FROM g;
SELECT gx_asewkt(gx_setsrid('POINT(1 2 3)'::gxgeom, 4326)), gx_srid(gx_setsrid('SRID=4326;POINT(1 2 3)'::gxgeom, 0));
SELECT gx_asewkt(gx_geomfromtext('POINT(1 2 3)', 2056));
