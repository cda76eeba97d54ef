-- writers: GeoJSON, STL, OBJ and binary glTF out; each read back (GeoJSON by PostgreSQL's json, STL and OBJ
-- by gpuexact's readers, bit for bit, glb's header and JSON chunk here); errors.
CREATE TEMP TABLE g(name text, geom gxgeom);
INSERT INTO g VALUES
	('point', 'POINT(0.1 -0 1e300)'), ('line', 'LINESTRING(500000.123456789 7000000.1 -12.5, 1e-300 2 3)'),
	('multipoint', 'MULTIPOINT(1 2 3, 4 5 6)'), ('multiline', 'MULTILINESTRING((0 0 0, 1 1 1),(2 2 2, 3 3 3, 4 4 5))'),
	('triangle', 'TRIANGLE((0 0 0, 1 0 0, 0 1 0, 0 0 0))'),
	('tin', 'TIN Z (((0.1 0.2 0.3, 123456789.12345679 0.3333333333333333 -0, 1e-300 5e-324 7, 0.1 0.2 0.3)),((1 1 1, 2 1 1, 1 2 1, 1 1 1)))'),
	('collection', 'GEOMETRYCOLLECTION(POINT(1 2 3), LINESTRING(0 0 0, 1 0 0), TIN Z (((0 0 0, 1 0 0, 0 1 0, 0 0 0))))'),
	('empty point', 'POINT EMPTY'), ('empty collection', 'GEOMETRYCOLLECTION EMPTY');
-- GeoJSON: valid JSON (cast to json), the type, the coordinates reading back to the same doubles
SELECT name, gx_asgeojson(geom), gx_asgeojson(geom)::json->>'type' AS type FROM g ORDER BY name;
SELECT gx_asgeojson('LINESTRING(0.123456 1.5 2, 1e-7 -0.0000004 3)', 3) AS three_digits;
SELECT ((j->0->>0)::float8 = 500000.123456789 AND (j->0->>1)::float8 = 7000000.1) AS first_point,
	(j->1->>0)::float8 = 1e-300 AS tiny
FROM (SELECT gx_asgeojson(geom)::json->'coordinates' AS j FROM g WHERE name = 'line') s;
-- ASCII STL and OBJ read back bit for bit; binary STL rounds to float32
SELECT name, gx_geomfromstl(convert_to(gx_asstl(geom), 'UTF8')) = gx_geomfromtext(gx_astext(geom)) AS stl_same
FROM g WHERE name = 'tin';
SELECT gx_makesolid(gx_geomfromstl(convert_to(gx_asstl(s), 'UTF8'))) = s AS solid_stl_same
FROM (SELECT gx_makesolid(geom) AS s FROM (SELECT 'POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))'::gxgeom AS geom) s) t;
SELECT name, gx_geomfromobj(gx_asobj(geom)) AS obj_read_back FROM g WHERE name IN ('tin', 'multiline', 'multipoint', 'collection') ORDER BY name;
SELECT gx_astext(gx_geomfromstl(gx_asstl_binary('TIN Z (((0 0 0, 1.5 0 0, 0 0.25 -2, 0 0 0)))'))) AS binary_exact,
	gx_astext(gx_geomfromstl(gx_asstl_binary('TIN Z (((0.1 0 0, 1 0 0, 0 1 0, 0.1 0 0)))'))) AS binary_rounded;
-- glb: the header ("glTF", version 2, the length), the JSON chunk parsed
CREATE TEMP TABLE scene AS SELECT gx_asglb(geom, CASE WHEN name = 'tin' THEN ARRAY[1, 0.5, 0, 0.8] END) AS glb FROM g WHERE name <> 'point';
SELECT convert_from(substring(glb FROM 1 FOR 4), 'UTF8') AS magic, get_byte(glb, 4) AS version,
	(get_byte(glb, 8) + 256 * get_byte(glb, 9) + 65536 * get_byte(glb, 10)) = length(glb) AS length_ok FROM scene;
CREATE TEMP TABLE scene_json AS SELECT convert_from(substring(glb FROM 21 FOR
	get_byte(glb, 12) + 256 * get_byte(glb, 13) + 65536 * get_byte(glb, 14)), 'UTF8')::json AS j FROM scene;
SELECT j->'asset'->>'version' AS version, json_array_length(j->'meshes') AS meshes, json_array_length(j->'nodes') AS nodes,
	json_array_length(j->'materials') AS materials, j->'materials'->1->'pbrMetallicRoughness'->'baseColorFactor' AS colour
FROM scene_json;
SELECT length(gx_asglb(geom)) > 0 AS empty_scene FROM g WHERE false;
-- errors
SELECT gx_asstl('LINESTRING(0 0 0, 1 1 1)');
SELECT gx_asstl_binary('TIN Z (((0 0 0, 1e300 0 0, 0 1 0, 0 0 0)))');
SELECT gx_asgeojson('POINT(1 2 3)', 18);
SELECT gx_asglb(geom) FROM g;
SELECT gx_asglb(geom, ARRAY[1, 2, 0]) FROM g;
SELECT gx_asglb(geom, ARRAY[1, 0]) FROM g;
