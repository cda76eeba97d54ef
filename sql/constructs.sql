-- Boxes as geometries, parts, transforms, largest distances and prisms (gx_construct.h)
-- a box as a geometry of its dimension
SELECT gx_geometrytype(b::gxbox3d::gxgeom) AS type, gx_issolid(b::gxbox3d::gxgeom) AS solid,
	gx_ntriangles(b::gxbox3d::gxgeom) AS triangles, gx_box3d(b::gxbox3d::gxgeom) = b::gxbox3d::gxgeom::gxbox3d AS same
FROM (VALUES ('BOX3D(0 0 0,1 2 3)'), ('BOX3D(0 0 5,1 2 5)'), ('BOX3D(0 7 5,1 7 5)'), ('BOX3D(1 2 3,1 2 3)')) v(b);
SELECT gx_volume('BOX3D(0 0 0,1 2 3)'::gxbox3d::gxgeom) AS volume,
	gx_astext('BOX3D(0 0 5,1 2 5)'::gxbox3d::gxgeom) AS flat;
-- a box where a geometry goes: the implicit cast (a solid box is a volume: a point inside intersects it)
SELECT gx_intersects('POINT(0.5 0.5 0.5)'::gxgeom, 'BOX3D(0 0 0,1 1 1)'::gxbox3d) AS inside,
	gx_intersects('BOX3D(0 0 0,1 1 1)'::gxbox3d, 'POINT(1 1 1.0000000000000002)'::gxgeom) AS ulp_above,
	gx_distance('POINT(3 0.5 0.5)'::gxgeom, 'BOX3D(0 0 0,1 1 1)'::gxbox3d) AS distance,
	gx_dwithin('LINESTRING(2 2 2,3 3 3)'::gxgeom, 'BOX3D(0 0 0,1 1 1)'::gxbox3d, sqrt(3)) AS dwithin,
	gx_contains('BOX3D(0 0 0,4 4 4)'::gxbox3d, 'LINESTRING(1 1 1,3 3 3)'::gxgeom) AS box_contains;
-- a function declared for gxbox3d keeps its meaning: gx_volume(solid, box) is the part in the box
SELECT gx_volume('BOX3D(0 0 0,2 2 2)'::gxbox3d::gxgeom, 'BOX3D(1 1 1,5 5 5)'::gxbox3d);

-- parts: a collection's children; a TIN or a solid is one part
SELECT gx_numgeometries(g::gxgeom) FROM (VALUES ('MULTIPOINT(1 2 3,4 5 6)'), ('POINT EMPTY'),
	('GEOMETRYCOLLECTION(POINT(1 2 3),LINESTRING(0 0 0,1 1 1))'), ('TIN(((0 0 0,1 0 0,0 1 0,0 0 0)),((1 0 0,1 1 0,0 1 0,1 0 0)))')) v(g);
SELECT n, gx_asewkt(gx_geometryn('SRID=32633;MULTIPOINT(1 2 3,4 5 6)', n)) FROM generate_series(0, 3) n;
SELECT gx_astext(gx_geometryn('TIN(((0 0 0,1 0 0,0 1 0,0 0 0)))', 1)), gx_geometryn('TIN(((0 0 0,1 0 0,0 1 0,0 0 0)))', 2) IS NULL;
SELECT path, gx_asewkt(geom) FROM gx_dump('SRID=4326;GEOMETRYCOLLECTION(POINT(1 2 3),MULTILINESTRING((0 0 0,1 1 1),(2 2 2,3 3 3)),TIN(((0 0 0,1 0 0,0 1 0,0 0 0))))');
SELECT path, gx_astext(geom) FROM gx_dump('POINT(1 2 3)');
SELECT count(*) FROM gx_dump('GEOMETRYCOLLECTION EMPTY');
-- gx_collect of gx_dump is the input again
SELECT g, (SELECT gx_collect(geom ORDER BY path) FROM gx_dump(g::gxgeom)) = g::gxgeom AS round_trip
FROM (VALUES ('SRID=32633;MULTIPOINT(1 2 3,4 5 6,7 8 9)'), ('MULTILINESTRING((0 0 0,1 1 1),(2 2 2,3 3 3,4 4 5))'),
	('GEOMETRYCOLLECTION(POINT(1 2 3),LINESTRING(0 0 0,1 1 1),TIN(((0 0 0,1 0 0,0 1 0,0 0 0))),POINT EMPTY)')) v(g);
SELECT gx_asewkt(gx_collect('POINT(1 2 3)', 'SRID=4326;POINT(4 5 6)')),
	gx_astext(gx_collect('POINT(1 2 3)', 'LINESTRING(0 0 0,1 1 1)')),
	gx_astext(gx_collect(ARRAY['POINT(1 2 3)'::gxgeom, NULL, 'POINT(4 5 6)'])),
	gx_collect(ARRAY[NULL::gxgeom]) IS NULL AS all_null;
SELECT gx_collect('SRID=4326;POINT(1 2 3)', 'SRID=32633;POINT(4 5 6)');
-- points of a LINESTRING
SELECT gx_numpoints('LINESTRING(1 2 3,4 5 6,7 8 9)'), gx_numpoints('POINT(1 2 3)') IS NULL,
	gx_astext(gx_pointn('LINESTRING(1 2 3,4 5 6,7 8 9)', 2)), gx_astext(gx_pointn('LINESTRING(1 2 3,4 5 6,7 8 9)', -1)),
	gx_pointn('LINESTRING(1 2 3,4 5 6,7 8 9)', 4) IS NULL, gx_pointn('LINESTRING(1 2 3,4 5 6,7 8 9)', -4) IS NULL,
	gx_asewkt(gx_startpoint('SRID=32633;LINESTRING(1 2 3,4 5 6)')), gx_astext(gx_endpoint('LINESTRING(1 2 3,4 5 6)'));

-- transforms: each coordinate the exact value rounded once
SELECT gx_asewkt(gx_translate('SRID=32633;POINT(1 2 3)', 0.1, 0.2, 0.3)), gx_astext(gx_translate('POINT(1 2 3)', 1, 1)),
	gx_astext(gx_scale('POINT(1 2 3)', 3, 0.1)), gx_astext(gx_scale('LINESTRING(1 2 3,4 5 6)', 2, 2, 2));
-- quarter turns are exact (pi()/2 multiples: entries 0 and +-1), also about a point and at UTM offsets
SELECT gx_astext(gx_rotatez('POINT(1 2 3)', pi()/2)), gx_astext(gx_rotatez('POINT(1 2 3)', pi())),
	gx_astext(gx_rotatez('POINT(1 2 3)', -pi()/2)), gx_astext(gx_rotatez('POINT(1 2 3)', 3*pi()/2)),
	gx_astext(gx_rotatez('POINT(500001 4500002 300)', pi()/2, 'POINT(500000 4500000 0)'));
-- other angles: the matrix of the doubles cos(a), sin(a); the offset about a point is exact before rounding
SELECT gx_astext(gx_rotatez('POINT(1 0 0)', 1.0)) = format('POINT Z (%s %s 0)', cos(1.0), sin(1.0)) AS cos_sin;
SELECT gx_astext(gx_affine('POINT(1 2 3)', 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
-- (0.1 * 3 - 0.3 + ...) cancels to the exact residue, not to what float8 arithmetic gives
SELECT gx_xmin(gx_affine('POINT(3 1 0)', 0.1, -0.3, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)) AS exact,
	0.1::float8 * 3 - 0.3::float8 AS float8_arithmetic;
-- a solid stays a solid (reoriented after a mirror); one flattened is refused
SELECT gx_issolid(g), gx_volume(g) FROM (SELECT gx_scale('BOX3D(0 0 0,1 2 3)'::gxbox3d::gxgeom, -1, 1, 2) g) s;
SELECT gx_volume(gx_rotatez('BOX3D(0 0 0,1 2 3)'::gxbox3d::gxgeom, 0.3)) BETWEEN 5.999999 AND 6.000001 AS rotated;
SELECT gx_scale('BOX3D(0 0 0,1 2 3)'::gxbox3d::gxgeom, 1, 1, 0);
SELECT gx_affine('POINT(1 2 3)', 'NaN', 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
SELECT gx_translate('POINT(1 2 3)', 'Infinity', 0);
SELECT gx_scale('POINT(1e300 2 3)', 1e10, 1);
SELECT gx_rotatez('POINT(1 2 3)', 'NaN');
SELECT gx_rotatez('POINT(1 2 3)', 1, 'LINESTRING(0 0 0,1 1 1)');

-- largest distances: exact, rounded once
SELECT gx_maxdistance('LINESTRING(0 0 0,1 0 0)', 'POINT(0 1 0)'), gx_astext(gx_longestline('LINESTRING(0 0 0,1 0 0)', 'POINT(0 1 0)')),
	gx_maxdistance('BOX3D(0 0 0,1 1 1)'::gxbox3d, 'POINT(0 0 0)') = sqrt(3::float8) AS cube_diagonal,
	gx_maxdistance('POINT EMPTY', 'POINT(0 0 0)') IS NULL AS empty;
-- sqrt(2) rounds up (1.4142135623730951 > sqrt 2), so the segment is fully within it; 1.414 is below
SELECT gx_dfullywithin('LINESTRING(0 0 0,1 0 0)', 'POINT(0 1 0)', sqrt(2::float8)),
	gx_dfullywithin('LINESTRING(0 0 0,1 0 0)', 'POINT(0 1 0)', 1.414),
	gx_dfullywithin('POINT(0 0 0)', 'POINT(3 4 0)', 5), gx_dfullywithin('POINT(0 0 0)', 'POINT(3 4 0)', 4.999999999999999),
	gx_dfullywithin('POINT EMPTY', 'POINT(0 0 0)', 1);
-- at UTM offsets the largest distance is still exact: 3-4-5 between two far corners
SELECT gx_maxdistance('MULTIPOINT(500000 4500000 100,500001 4500001 100)', 'POINT(500003 4500004 100)');
SELECT gx_maxdistance('SRID=4326;POINT(0 0 0)', 'SRID=32633;POINT(0 0 0)');

-- prisms: a polygon extruded, its volume the area times dz
SELECT gx_issolid(g), gx_volume(g), gx_ntriangles(g)
FROM (SELECT gx_extrude('POLYGON((0 0 0,2 0 0,2 2 0,1 1 0,0 2 0,0 0 0))', 5) g) s;
SELECT gx_volume(gx_extrude('TIN(((0 0 10,4 0 10,0 4 12,0 0 10)))', -3));
SELECT gx_extrude('POLYGON((0 0 0,2 0 0,2 2 0,0 0 0))', 0);
SELECT gx_extrude('LINESTRING(0 0 0,1 1 1)', 1);

-- convex hulls, exact: a solid, or a polygon's triangles, a line, a point
SELECT gx_geometrytype(h), gx_issolid(h), gx_volume(h), gx_npoints(h) / 4 AS triangles
FROM (SELECT gx_convexhull('MULTIPOINT(0 0 0,4 0 0,0 4 0,0 0 4,1 1 1,2 0 0,2 2 0)') h) s;
-- every point of a 3 x 3 x 3 grid is in or on its hull (the cube), at UTM offsets too
SELECT gx_volume(gx_convexhull(gx_collect(gx_translate(gxgeom(format('BOX3D(%s %s %s,%s %s %s)', x, y, z, x, y, z)::gxbox3d), 500000, 4500000, 0))))
FROM generate_series(0, 2) x, generate_series(0, 2) y, generate_series(0, 2) z;
SELECT gx_astext(gx_convexhull('MULTIPOINT(0 0 5,2 0 5,2 2 5,0 2 5,1 1 5,1 0 5)'));
SELECT gx_astext(gx_convexhull('LINESTRING(1 1 1,3 3 3,2 2 2,0 0 0)')), gx_astext(gx_convexhull('MULTIPOINT(1 2 3,1 2 3)'));
SELECT gx_contains(gx_convexhull(g), g) FROM (VALUES ('TIN(((0 0 0,1 0 0,0 1 0,0 0 0)),((1 0 0,1 1 1,0 1 0,1 0 0)))'::gxgeom)) v(g);
SELECT gx_convexhull('POINT EMPTY');

-- Delaunay triangulations in (x, y), each vertex keeping its z
SELECT gx_astext(gx_delaunay('MULTIPOINT(0 0 1,2 0 2,1 2 3,1 0.5 4)'));
-- a square's four corners lie on one circle: the diagonal is the one the perturbation rule gives, whatever the order
SELECT gx_astext(gx_delaunay('MULTIPOINT(0 0 0,1 0 0,1 1 0,0 1 0)')) = gx_astext(gx_delaunay('MULTIPOINT(1 1 0,0 1 0,1 0 0,0 0 0)')) AS same,
	gx_astext(gx_delaunay('MULTIPOINT(0 0 0,1 0 0,1 1 0,0 1 0)'));
-- a breakline along the other diagonal makes it an edge
SELECT gx_astext(gx_delaunay('MULTIPOINT(0 0 0,1 0 0,1 1 0,0 1 0)', 'LINESTRING(0 0 0,1 1 0)'));
-- a 10 x 10 grid at UTM offsets, 2 * 9 * 9 triangles, its area that of the square
SELECT gx_ntriangles(t), gx_area(t), gx_srid(t)
FROM (SELECT gx_delaunay(gx_collect(gx_setsrid(gxgeom(format('BOX3D(%s %s 0,%s %s 0)', 500000 + x, 4500000 + y, 500000 + x, 4500000 + y)::gxbox3d), 32633))) t
	FROM generate_series(0, 9) x, generate_series(0, 9) y) s;
SELECT gx_delaunay('MULTIPOINT(0 0 1,1 0 1,0 0 2)');
SELECT gx_delaunay('MULTIPOINT(0 0 1,1 0 1,0 0 1)');
SELECT gx_delaunay('MULTIPOINT(0 0 1,1 1 1,2 2 1)');
SELECT gx_delaunay('MULTIPOINT(0 0 0,4 0 0,4 4 0,0 4 0)', 'MULTILINESTRING((0 0 0,4 4 0),(4 0 0,0 4 0))');
SELECT gx_delaunay('MULTIPOINT(0 0 0,4 0 0,4 4 0)', 'POINT(1 1 1)');
