-- formats: OBJ and DXF files through gx_geomfromobj and gx_geomfromdxf: what they make, how they join, their errors.
CREATE TEMP TABLE files (name text PRIMARY KEY, body text);
-- a unit cube of quads as OBJ: each quad is planar and strictly convex, so it is read as its fan (12 triangles)
INSERT INTO files VALUES ('cube.obj', '# unit cube
mtllib cube.mtl
o cube
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
vn 0 0 -1
g sides
usemtl grey
s off
f 1//1 4//1 3//1 2//1
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f -6 -5 -1 -2
f 4 1 5 8
');
-- a drawing as DXF: a 3DFACE on the ground, a LINE (a pole), a polyface mesh (a roof on the cube: a square
-- base, a planar convex quad, and four triangles up to an apex), a CIRCLE (not read) and HEADER and TABLES sections
INSERT INTO files VALUES ('site.dxf', '999
roof, pole and ground
  0
SECTION
  2
HEADER
  9
$ACADVER
  1
AC1009
  0
ENDSEC
  0
SECTION
  2
TABLES
  0
TABLE
  2
LAYER
  0
ENDTAB
  0
ENDSEC
  0
SECTION
  2
ENTITIES
  0
3DFACE
  8
ground
 10
5
 20
5
 30
0
 11
6
 21
5
 31
0
 12
5
 22
6
 32
0
 13
5
 23
6
 33
0
  0
LINE
  8
pole
 10
0.5
 20
0.5
 30
1.5
 11
0.5
 21
0.5
 31
3
  0
CIRCLE
 10
0
 20
0
 40
1
  0
POLYLINE
  8
roof
 66
1
 70
64
 71
5
 72
5
  0
VERTEX
 10
0
 20
0
 30
1
 70
192
  0
VERTEX
 10
1
 20
0
 30
1
 70
192
  0
VERTEX
 10
1
 20
1
 30
1
 70
192
  0
VERTEX
 10
0
 20
1
 30
1
 70
192
  0
VERTEX
 10
0.5
 20
0.5
 30
1.5
 70
192
  0
VERTEX
 70
128
 71
1
 72
-4
 73
-3
 74
2
  0
VERTEX
 70
128
 71
1
 72
2
 73
5
  0
VERTEX
 70
128
 71
2
 72
3
 73
5
  0
VERTEX
 70
128
 71
3
 72
4
 73
5
  0
VERTEX
 70
128
 71
4
 72
1
 73
5
  0
SEQEND
  0
ENDSEC
  0
EOF
');
SELECT gx_astext(gx_geomfromobj(body)) FROM files WHERE name = 'cube.obj';
SELECT gx_astext(gx_geomfromdxf(body)) FROM files WHERE name = 'site.dxf';
-- the SRID argument; counts
SELECT name, gx_geometrytype(g), gx_ntriangles(g), gx_nsegments(g), gx_srid(g), gx_zmin(g), gx_zmax(g)
FROM (SELECT name, CASE WHEN name LIKE '%.obj' THEN gx_geomfromobj(body, 32633) ELSE gx_geomfromdxf(body, 32633) END AS g
	  FROM files) s ORDER BY name;
-- OBJ: polylines alone, points alone, vertices alone (a point cloud), and a mix (a collection)
SELECT gx_astext(gx_geomfromobj(E'v 0 0 0\nv 1 0 0\nv 1 1 0\nl 1 2 3\nl -1 -3\n'));
SELECT gx_astext(gx_geomfromobj(E'v 0 0 0\nv 1 0 0\nv 1 1 0\np 1 -1\n'));
SELECT gx_astext(gx_geomfromobj(E'v 0 0 0\nv 1 0 0 1\nv 1 1 0 0.2 0.4 0.6\n'));
SELECT gx_astext(gx_geomfromobj(E'v 0 0 0\r\nv 1 0 0\r\nv 1 1 0\r\nvt 0 0\r\nf 1/1 2/1 3/1\r\nl 1 3\r\np 2\r\n'));
-- joins: which model each probe meets, exactly (a point on the diagonal of the cube's bottom quad is on the
-- fan's shared edge; a point one ulp beside the cube is not on it)
CREATE TEMP TABLE models AS
SELECT name, CASE WHEN name LIKE '%.obj' THEN gx_geomfromobj(body) ELSE gx_geomfromdxf(body) END AS geom FROM files;
CREATE TEMP TABLE probes (name text, geom gxgeom);
INSERT INTO probes VALUES
	('hole to the bottom diagonal', 'LINESTRING Z (0.5 0.5 -1, 0.5 0.5 0)'),
	('hole through the ground', 'LINESTRING Z (5.2 5.2 1, 5.2 5.2 -1)'),
	('roof apex', 'POINT Z (0.5 0.5 1.5)'),
	('cube corner', 'POINT Z (1 1 1)'),
	('one ulp beside the cube', 'POINT Z (1.0000000000000002 0.5 0.5)'),
	('above the pole', 'POINT Z (0.5 0.5 3.0000000000000004)');
SELECT m.name AS model, p.name AS probe FROM models m JOIN probes p ON gx_intersects(m.geom, p.geom) ORDER BY 1, 2;
SELECT a.name, b.name, gx_intersects(a.geom, b.geom) FROM models a JOIN models b ON a.name < b.name;
-- errors: SQLSTATE 22P02, and the line at fault
\set VERBOSITY sqlstate
SELECT gx_geomfromobj(E'v 0 0 0\nf 1 2 3\n');
SELECT gx_geomfromdxf(E'0\nSECTION\n');
\set VERBOSITY default
SELECT gx_geomfromobj(E'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0.5\nf 1 2 3 4\n');
SELECT gx_geomfromobj(E'v 0 0 0\nv 2 0 0\nv 1 0.5 0\nv 0 2 0\nf 1 2 3 4\n');
SELECT gx_geomfromobj(E'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n');
SELECT gx_geomfromobj(E'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 3 2 -4\n');
SELECT gx_geomfromobj(E'v 0 0 0\nv 1 0 0\nf 1 2\n');
SELECT gx_geomfromobj(E'v 0 0\n');
SELECT gx_geomfromobj(E'# empty\n');
SELECT gx_geomfromobj(E'v 1 2 NaN\n');
SELECT gx_geomfromobj(E'v 0 0 0\ncstype bspline\n');
SELECT gx_geomfromdxf('');
SELECT gx_geomfromdxf(E'0\nSECTION\n2\nENTITIES\n0\n3DFACE\n10\n0\n20\n0\n11\n1\n21\n0\n12\n1\n22\n1\n13\n0\n23\n1\n33\n1\n0\nENDSEC\n0\nEOF\n');
SELECT gx_geomfromdxf(E'0\nSECTION\n2\nENTITIES\n0\n3DFACE\n10\n0\n20\n0\n11\n2\n21\n0\n12\n0.5\n22\n0.5\n13\n0\n23\n2\n0\nENDSEC\n0\nEOF\n');
SELECT gx_geomfromdxf(E'0\nSECTION\n2\nENTITIES\n0\nLINE\n10\n0\n20\nabc\n0\nENDSEC\n0\nEOF\n');
SELECT gx_geomfromdxf(E'0\nSECTION\n2\nENTITIES\n0\nPOLYLINE\n70\n64\n0\nVERTEX\n10\n0\n20\n0\n70\n192\n0\nVERTEX\n70\n128\n71\n1\n72\n2\n73\n3\n0\nSEQEND\n0\nENDSEC\n0\nEOF\n');
SELECT gx_geomfromdxf(E'0\nSECTION\n2\nENTITIES\n0\nLINE\n10\n0\n20\n0\n11\n1\n21\n1\n0\nENDSEC\n');
SELECT gx_geomfromdxf(E'0\nSECTION\n2\nENTITIES\n0\nLINE\n10\n0\n20\n0\n11\n1\n21\n');
SELECT gx_geomfromdxf(E'0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n10\n0\n20\n0\n40\n1\n0\nENDSEC\n0\nEOF\n');
SELECT gx_geomfromobj(E'v 0 0 0\n', 1000000);
