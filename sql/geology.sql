-- GOCAD and Surpac files read in SQL: one row per object, its name and its properties (jsonb)
SET extra_float_digits = 0;
-- a TSurf in depth (z negated) of two TFACE blocks, an ATOM, a property, after a skipped SGrid
SELECT name, gx_asewkt(geom), properties FROM gx_read_gocad(E'GOCAD SGrid 1\nEND\nGOCAD TSurf 1\nHEADER {\nname: top\n}\n'
	'ZPOSITIVE Depth\nPROPERTIES grade\nTFACE\nPVRTX 1 0 0 10 1.5\nPVRTX 2 10 0 10 2\nVRTX 3 0 10 12\nTRGL 1 2 3\n'
	'TFACE\nATOM 4 2\nVRTX 5 10 10 20\nTRGL 4 5 3\nEND\n', 32633);
-- a PLine of two ILINEs, a VSet, a Well (PATH: md z dx dy from WREF), in one file
SELECT name, gx_astext(geom), properties FROM gx_read_gocad(E'GOCAD PLine 1\nHEADER {name:trace}\nILINE\nVRTX 1 0 0 0\n'
	'VRTX 2 1 0 0\nVRTX 3 2 0 0\nSEG 1 2\nSEG 2 3\nILINE\nVRTX 4 5 5 5\nVRTX 5 6 6 6\nSEG 4 5\nEND\n'
	'GOCAD VSet 1\nVRTX 1 1 2 3\nVRTX 2 4 5 6\nEND\n'
	'GOCAD Well 1\nHEADER {\nname: DH-7\n}\nZPOSITIVE Depth\nWREF 1000 2000 -50\nPATH 0 -50 0 0\nPATH 120 68 5 -2\nEND\n');
-- Surpac: northing before easting; each segment a row
SELECT name, gx_astext(geom), properties FROM gx_read_surpac(E'pit,1-Jan-26,,\n0, 0, 0, 0, 0, 0, 0\n'
	'7, 2000.5, 1000.25, 100, crest, A\n7, 2010.5, 1000.25, 101,\n0, 0, 0, 0,\n8, 2020, 1010, 99, toe\n0, 0, 0, 0, END\n');
-- a DTM's triangles over its string file's points (1-based)
SELECT name, gx_astext(geom), properties FROM gx_read_surpac_dtm(E'pit.str\n0, 0, 0, 0, END\nOBJECT, 1,\n'
	'TRISOLATION, 1, closed=no\n1, 1, 2, 3, 0, 0, 0,\nEND\n',
	E'pit\n0, 0, 0, 0, 0, 0, 0\n1, 0, 0, 5\n1, 0, 1, 5\n1, 1, 0, 6\n0, 0, 0, 0, END\n');
SELECT count(*) FROM gx_read_surpac(NULL);
-- errors name the line, and the file when given
SELECT * FROM gx_read_gocad(E'GOCAD TSurf 1\nVRTX 1 0 0 x\nEND\n');
SELECT * FROM gx_read_gocad(E'GOCAD TSurf 1\nVRTX 1 0 0 0\nTRGL 1 1 2\nEND\n', 0, 'fault.ts');
SELECT * FROM gx_read_gocad(E'GOCAD Voxet 1\nEND\n', 0, 'model.vo');
SELECT * FROM gx_read_surpac(E'pit\n1, 2, 1\n', 0, 'pit.str');
SELECT * FROM gx_read_surpac_dtm(E'pit.str\n0,0,0,0,END\nOBJECT, 1,\nTRISOLATION, 1,\n1, 1, 2, 9,\nEND\n',
	E'pit\n1, 0, 0, 5\n1, 0, 1, 5\n0, 0, 0, 0, END\n', 0, 'pit.dtm');
SELECT * FROM gx_read_gocad(E'GOCAD TSurf 1\nEND\n', -1);
-- writers: GOCAD and Surpac, read back bit for bit by the readers
SELECT gx_asgocad('TIN Z (((0 0 0,1 0 0,0 1 -0,0 0 0)),((1 0 0,1 1 0.1,0 1 -0,1 0 0)))', 'top');
SELECT gx_asewkb(r.geom) = gx_asewkb(g) AS same, r.name
FROM (VALUES ('TIN Z (((602123.4567890123 6891234.000000001 -0.1,1e-300 5e-324 1.7976931348623157e+308,0 -0 0,602123.4567890123 6891234.000000001 -0.1)))'::gxgeom),
	('MULTILINESTRING Z ((1 2 3,4 5 6.000000000000001),(0.1 0.2 0.30000000000000004,-0 0 0))'),
	('MULTIPOINT Z ((1 2 3),(-1e-310 0 0))')) v(g), gx_read_gocad(gx_asgocad(g, 'v')) r;
SELECT gx_assurpac('MULTILINESTRING Z ((1 2 3,4 5 6),(7 8 9,10 11 12))', 7);
SELECT string_agg(gx_astext(geom), ' ' ORDER BY name) FROM gx_read_surpac(gx_assurpac('MULTIPOINT Z ((1 2 3),(0.1 0.2 0.30000000000000004))'));
SELECT d.str, d.dtm FROM gx_assurpac_dtm('TIN Z (((0 0 5,1 0 5,0 1 6,0 0 5)),((1 0 5,1 1 7,0 1 6,1 0 5)))', 'pit') d;
SELECT gx_asewkb(r.geom) = gx_asewkb(g) AS same, r.name
FROM (VALUES ('TIN Z (((602123.4567890123 6891234.000000001 -0.1,1e-300 5e-324 1.7976931348623157e+308,0 -0 0,602123.4567890123 6891234.000000001 -0.1)),((0 -0 0,1 1 1,602123.4567890123 6891234.000000001 -0.1,0 -0 0)))'::gxgeom)) v(g),
	gx_assurpac_dtm(g) d, gx_read_surpac_dtm(d.dtm, d.str) r;
SELECT gx_assurpac('TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))');
SELECT gx_assurpac('POINT Z (1 2 3)', 0);
SELECT gx_assurpac_dtm('POINT Z (1 2 3)');
SELECT gx_asgocad('POINT Z EMPTY');
