-- Exact volumes of solids, whole and inside boxes; block proportions; areas; gx_extent.
CREATE TABLE vol_solids (id int, geom gxgeom);
INSERT INTO vol_solids VALUES
  (1, gx_makesolid('POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))')),
  (2, gx_makesolid('TIN Z (((1 0 0,0 1 0,0 0 1,1 0 0)),((0 1 0,-1 0 0,0 0 1,0 1 0)),((-1 0 0,0 -1 0,0 0 1,-1 0 0)),((0 -1 0,1 0 0,0 0 1,0 -1 0)),((0 1 0,1 0 0,0 0 -1,0 1 0)),((-1 0 0,0 1 0,0 0 -1,-1 0 0)),((0 -1 0,-1 0 0,0 0 -1,0 -1 0)),((1 0 0,0 -1 0,0 0 -1,1 0 0)))')),
  -- the octahedron moved to UTM coordinates
  (3, gx_makesolid('TIN Z (((500001 7000000 250,500000 7000001 250,500000 7000000 251,500001 7000000 250)),((500000 7000001 250,499999 7000000 250,500000 7000000 251,500000 7000001 250)),((499999 7000000 250,500000 6999999 250,500000 7000000 251,499999 7000000 250)),((500000 6999999 250,500001 7000000 250,500000 7000000 251,500000 6999999 250)),((500000 7000001 250,500001 7000000 250,500000 7000000 249,500000 7000001 250)),((499999 7000000 250,500000 7000001 250,500000 7000000 249,499999 7000000 250)),((500000 6999999 250,499999 7000000 250,500000 7000000 249,500000 6999999 250)),((500001 7000000 250,500000 6999999 250,500000 7000000 249,500001 7000000 250)))'));
-- whole volumes: the cube 1, the octahedron 4/3 rounded once, the same at UTM offsets
SELECT id, gx_volume(geom), gx_volume(geom) = 4.0::float8 / 3 AS is_four_thirds, gx_area(geom) FROM vol_solids ORDER BY id;
-- a cube half in a box, along each axis; boxes touching a face, an edge, a vertex; a flat box
SELECT gx_volume(geom, 'BOX3D(0.5 -1 -1,2 2 2)') AS half_x, gx_volume(geom, 'BOX3D(-1 0.5 -1,2 2 2)') AS half_y,
       gx_volume(geom, 'BOX3D(-1 -1 0.5,2 2 2)') AS half_z, gx_volume(geom, 'BOX3D(0.25 0.25 0.25,0.75 0.75 0.75)') AS inner,
       gx_volume(geom, 'BOX3D(1 0 0,2 1 1)') AS face, gx_volume(geom, 'BOX3D(1 1 0,2 2 1)') AS edge,
       gx_volume(geom, 'BOX3D(1 1 1,2 2 2)') AS vertex, gx_volume(geom, 'BOX3D(0.5 0 0,0.5 1 1)') AS flat,
       gx_volume(geom, 'BOX3D(5 5 5,6 6 6)') AS far
FROM vol_solids WHERE id = 1;
-- the octahedron's top half, and one eighth of it
SELECT gx_volume(geom, 'BOX3D(-2 -2 0,2 2 2)') = 2.0::float8 / 3 AS top_half,
       gx_volume(geom, 'BOX3D(0 0 0,2 2 2)') = 1.0::float8 / 6 AS one_eighth
FROM vol_solids WHERE id = 2;
-- a block model of 0.25 m blocks over both octahedra: the proportions add up to the whole volume
CREATE TABLE vol_blocks AS
SELECT row_number() OVER ()::int AS id, format('BOX3D(%s %s %s,%s %s %s)', x, y, z, x + 0.25, y + 0.25, z + 0.25)::gxbox3d AS box
FROM generate_series(-1.5, 1.25, 0.25) x, generate_series(-1.5, 1.25, 0.25) y, generate_series(-1.5, 1.25, 0.25) z;
INSERT INTO vol_blocks
SELECT 100000 + row_number() OVER (), format('BOX3D(%s %s %s,%s %s %s)', x, y, z, x + 0.3, y + 0.3, z + 0.3)::gxbox3d
FROM generate_series(499998.8, 500000.9, 0.3) x, generate_series(6999998.8, 7000000.9, 0.3) y, generate_series(248.8, 250.9, 0.3) z;
SELECT b_id, count(*) AS blocks, abs(sum(volume) - (SELECT gx_volume(geom) FROM vol_solids s WHERE s.id = b_id)) < 1e-9 AS adds_up
FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids') GROUP BY b_id ORDER BY b_id;
-- every proportion is gx_volume(solid, box), and every block with volume inside is listed
SELECT count(*) AS differ FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids') p
  JOIN vol_blocks b ON b.id = p.a_id JOIN vol_solids s ON s.id = p.b_id WHERE p.volume <> gx_volume(s.geom, b.box);
SELECT count(*) AS missing FROM vol_blocks b JOIN vol_solids s ON gx_volume(s.geom, b.box) > 0
  WHERE NOT EXISTS (SELECT 1 FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids') p
                    WHERE p.a_id = b.id AND p.b_id = s.id);
-- text ids: the same proportions, ids as text ('B-' block names, solid ids converted through text)
SELECT count(*) AS pairs, count(*) FILTER (WHERE t.volume IS DISTINCT FROM p.volume) AS differ
FROM gx_volume_pairs('SELECT ''B-'' || id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids', NULL::text) t
FULL JOIN gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids') p
  ON t.a_id = 'B-' || p.a_id AND t.b_id = p.b_id::text;
-- the boxes read and computed a chunk of gpuexact.join_batch_rows rows at a time: chunks of 7 rows give the
-- rows of one batch, in the same order (block, then solid), each gx_volume(solid, box); with text ids too
CREATE TEMP TABLE vol_one AS SELECT * FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids');
SET gpuexact.join_batch_rows = 7;
SELECT count(*) AS pairs, count(*) FILTER (WHERE p.volume IS DISTINCT FROM o.volume) AS differ
FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids') p FULL JOIN vol_one o USING (a_id, b_id);
SELECT bool_and(ord = r) AS in_order FROM (SELECT ord, row_number() OVER (ORDER BY a_id, b_id) AS r
	FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids') WITH ORDINALITY AS p(a_id, b_id, volume, ord)) x;
SELECT count(*) AS differ FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids') p
  JOIN vol_blocks b ON b.id = p.a_id JOIN vol_solids s ON s.id = p.b_id WHERE p.volume <> gx_volume(s.geom, b.box);
SELECT count(*) AS pairs, count(*) FILTER (WHERE t.volume IS DISTINCT FROM o.volume) AS differ
FROM gx_volume_pairs('SELECT ''B-'' || id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids', NULL::text) t
FULL JOIN vol_one o ON t.a_id = 'B-' || o.a_id AND t.b_id = o.b_id::text;
-- a filtered query, read from its cursor: the rows of its blocks
SELECT count(*) AS pairs, count(*) FILTER (WHERE p.volume IS DISTINCT FROM o.volume) AS differ
FROM gx_volume_pairs('SELECT id, box FROM vol_blocks WHERE id % 3 = 0', 'SELECT id, geom FROM vol_solids') p
FULL JOIN (SELECT * FROM vol_one WHERE a_id % 3 = 0) o USING (a_id, b_id);
-- a whole table, settled: its ids and boxes kept by a call, read by none after; the same rows
VACUUM vol_blocks;
SELECT count(*) AS pairs, count(*) FILTER (WHERE p.volume IS DISTINCT FROM o.volume) AS differ
FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids') p FULL JOIN vol_one o USING (a_id, b_id);
SELECT gx_stats_reset();
RESET gpuexact.join_batch_rows;
SELECT count(*) AS pairs, count(*) FILTER (WHERE p.volume IS DISTINCT FROM o.volume) AS differ
FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids') p FULL JOIN vol_one o USING (a_id, b_id);
SELECT counter, value FROM gx_stats() WHERE counter IN ('table_sides_read', 'table_sides_kept') ORDER BY counter;
-- a block moved into the cube, one made NULL, one made EMPTY: the table read again, each proportion as gx_volume says
UPDATE vol_blocks SET box = 'BOX3D(0.25 0.25 0.25,0.5 0.5 0.5)' WHERE id = 1;
UPDATE vol_blocks SET box = NULL WHERE id = 2;
UPDATE vol_blocks SET box = 'BOX3D EMPTY' WHERE id = 3;
VACUUM vol_blocks;
SELECT gx_stats_reset();
SELECT count(*) AS pairs, count(*) FILTER (WHERE p.volume <> gx_volume(s.geom, b.box)) AS differ,
	count(*) FILTER (WHERE p.a_id = 1 AND p.b_id = 1 AND p.volume = 0.015625) AS moved,
	count(*) FILTER (WHERE p.a_id IN (2, 3)) AS null_or_empty
FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids') p
  JOIN vol_blocks b ON b.id = p.a_id JOIN vol_solids s ON s.id = p.b_id;
SELECT count(*) AS missing FROM vol_blocks b JOIN vol_solids s ON gx_volume(s.geom, b.box) > 0
  WHERE NOT EXISTS (SELECT 1 FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, geom FROM vol_solids') p
                    WHERE p.a_id = b.id AND p.b_id = s.id);
SELECT counter, value FROM gx_stats() WHERE counter IN ('table_sides_read', 'table_sides_kept') ORDER BY counter;
-- a NULL id in a kept table is refused as in any query
CREATE TABLE vol_noid (id int, box gxbox3d);
INSERT INTO vol_noid VALUES (1, 'BOX3D(0 0 0,1 1 1)'), (NULL, 'BOX3D(0 0 0,1 1 1)');
VACUUM vol_noid;
SELECT * FROM gx_volume_pairs('SELECT id, box FROM vol_noid', 'SELECT id, geom FROM vol_solids');
SELECT * FROM gx_volume_pairs('SELECT id, box FROM vol_noid WHERE true', 'SELECT id, geom FROM vol_solids');
DROP TABLE vol_noid, vol_one;
-- a solid stored out of line (a 20 m cube of 4 800 triangles): its TOAST identity read from its row, no probe
CREATE FUNCTION vol_pt(f int, u int, v int) RETURNS text LANGUAGE sql AS $$
	SELECT CASE f WHEN 0 THEN format('%s %s 0', u, v) WHEN 1 THEN format('%s %s 20', u, v)
		WHEN 2 THEN format('%s 0 %s', u, v) WHEN 3 THEN format('%s 20 %s', u, v)
		WHEN 4 THEN format('0 %s %s', u, v) ELSE format('20 %s %s', u, v) END $$;
CREATE TABLE vol_big AS SELECT 1 AS id, gx_makesolid(('TIN Z (' || string_agg(format('((%s,%s,%s,%s)),((%s,%s,%s,%s))',
	vol_pt(f, u, v), vol_pt(f, u + 1, v), vol_pt(f, u + 1, v + 1), vol_pt(f, u, v),
	vol_pt(f, u, v), vol_pt(f, u + 1, v + 1), vol_pt(f, u, v + 1), vol_pt(f, u, v)), ',') || ')')::gxgeom) AS geom
	FROM generate_series(0, 5) f, generate_series(0, 19) u, generate_series(0, 19) v;
SELECT gx_ntriangles(geom), pg_column_size(geom) < octet_length(gx_asbinary(geom)) AS compressed_or_packed FROM vol_big;
SELECT gx_stats_reset();
SELECT count(*) AS pairs, sum(volume) FROM gx_volume_pairs(
	'SELECT x * 100 + y * 10 + z, format(''BOX3D(%s %s %s,%s %s %s)'', 10 * x - 5, 10 * y - 5, 10 * z - 5, 10 * x + 5, 10 * y + 5, 10 * z + 5)::gxbox3d
	 FROM generate_series(0, 2) x, generate_series(0, 2) y, generate_series(0, 2) z', 'SELECT id, geom FROM vol_big');
SELECT value AS toast_probes FROM gx_stats() WHERE counter = 'toast_index_probes';
DROP TABLE vol_big;
DROP FUNCTION vol_pt(int, int, int);
-- a solid of volume 1e-330 (rounded, 0): the blocks around it, inside it and cut by it share a positive
-- exact volume, and are listed with the volume 0; the block beside it is not
SELECT * FROM gx_volume_pairs($$SELECT * FROM (VALUES (1, 'BOX3D(-1 -1 -1,1 1 1)'::gxbox3d), (2, 'BOX3D(2.5e-111 2.5e-111 2.5e-111,7.5e-111 7.5e-111 7.5e-111)'),
	(3, 'BOX3D(5e-111 5e-111 5e-111,1 1 1)'), (4, 'BOX3D(2e-110 0 0,1 1 1)')) b$$,
	$$SELECT 9, gx_makesolid('POLYHEDRALSURFACE Z (((0 0 0,0 1e-110 0,1e-110 1e-110 0,1e-110 0 0,0 0 0)),((0 0 1e-110,1e-110 0 1e-110,1e-110 1e-110 1e-110,0 1e-110 1e-110,0 0 1e-110)),((0 0 0,1e-110 0 0,1e-110 0 1e-110,0 0 1e-110,0 0 0)),((0 1e-110 0,0 1e-110 1e-110,1e-110 1e-110 1e-110,1e-110 1e-110 0,0 1e-110 0)),((0 0 0,0 0 1e-110,0 1e-110 1e-110,0 1e-110 0,0 0 0)),((1e-110 0 0,1e-110 1e-110 0,1e-110 1e-110 1e-110,1e-110 0 1e-110,1e-110 0 0)))')$$);
-- areas of surfaces and of other geometries
SELECT gx_area('TIN Z (((0 0 0,3 0 0,0 4 0,0 0 0)))'), gx_area('POLYGON Z ((0 0 0,2 0 0,2 2 0,0 2 0,0 0 0))'),
       gx_area('LINESTRING Z (0 0 0,1 1 1)'), gx_area('POINT Z EMPTY');
-- areas at extreme magnitudes: 5e199, 5e-201, a side longer than the largest float8 (1.5e8), beyond it
SELECT gx_area('TRIANGLE Z ((0 0 0,1e100 0 0,0 1e100 0,0 0 0))') AS big, gx_area('TRIANGLE Z ((0 0 0,1e-100 0 0,0 1e-100 0,0 0 0))') AS small,
       gx_area('TRIANGLE Z ((-1.5e308 0 0,1.5e308 0 0,-1.5e308 1e-300 0,-1.5e308 0 0))') AS long_side,
       gx_area('TRIANGLE Z ((0 0 0,1e300 0 0,0 1e300 0,0 0 0))') AS beyond;
-- extents
SELECT gx_extent(geom) FROM vol_solids;
SELECT gx_extent(geom) FROM vol_solids WHERE false;
SELECT gx_extent(g) FROM (VALUES ('POINT Z (1 2 3)'::gxgeom), (NULL), ('LINESTRING Z EMPTY'), ('POINT Z (-1 5 0)')) v(g);
-- errors
SELECT gx_volume('TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))');
SELECT gx_volume(geom, 'BOX3D(0 0 0,1 1 1e400)') FROM vol_solids WHERE id = 1;
SELECT * FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id, gx_box3d(geom) FROM vol_solids');
SELECT * FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT id::text, geom FROM vol_solids');
SELECT * FROM gx_volume_pairs('SELECT id, box FROM vol_blocks', 'SELECT 7, ''POINT Z (0 0 0)''::gxgeom');
DROP TABLE vol_blocks, vol_solids;
-- a solid spanning every double (-DBL_MAX .. DBL_MAX on each axis) leaves no finite height for a ray to end
-- beyond it: points are located with every coordinate halved (exact here), so volumes and locations hold
CREATE TEMP TABLE everything AS SELECT gx_makesolid(replace('POLYHEDRALSURFACE Z (((-M -M -M,-M M -M,M M -M,M -M -M,-M -M -M)),
 ((-M -M M,M -M M,M M M,-M M M,-M -M M)), ((-M -M -M,M -M -M,M -M M,-M -M M,-M -M -M)), ((-M M -M,-M M M,M M M,M M -M,-M M -M)),
 ((-M -M -M,-M -M M,-M M M,-M M -M,-M -M -M)), ((M -M -M,M M -M,M M M,M -M M,M -M -M)))', 'M', '1.7976931348623157e308')::gxgeom) AS g;
SELECT gx_volume(g, 'BOX3D(1 1 1,2 2 2)') AS unit_block, gx_locate('POINT Z (1 2 3)', g) AS inside,
       gx_locate('POINT Z (1.7976931348623157e308 0 0)', g) AS on_face,
       gx_contains(g, 'POINT Z (5e307 -1e308 1)'::gxgeom) AS contains_point,
       gx_contains(g, 'BOX3D(-1e308 -1e308 -1e308,1e308 1e308 1e308)'::gxbox3d) AS contains_box FROM everything;
