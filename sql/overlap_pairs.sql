-- gx_overlap_pairs: every pair of solids of two queries sharing an exactly positive volume, with that volume.
-- op_faces: the six faces of the box [x0,x1] x [y0,y1] x [z0,z1], outward; op_box: that box as a solid.
CREATE FUNCTION op_faces(x0 float8, y0 float8, z0 float8, x1 float8, y1 float8, z1 float8) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT format('((%1$s %2$s %3$s,%1$s %5$s %3$s,%4$s %5$s %3$s,%4$s %2$s %3$s,%1$s %2$s %3$s)),'
		'((%1$s %2$s %6$s,%4$s %2$s %6$s,%4$s %5$s %6$s,%1$s %5$s %6$s,%1$s %2$s %6$s)),'
		'((%1$s %2$s %3$s,%4$s %2$s %3$s,%4$s %2$s %6$s,%1$s %2$s %6$s,%1$s %2$s %3$s)),'
		'((%1$s %5$s %3$s,%1$s %5$s %6$s,%4$s %5$s %6$s,%4$s %5$s %3$s,%1$s %5$s %3$s)),'
		'((%1$s %2$s %3$s,%1$s %2$s %6$s,%1$s %5$s %6$s,%1$s %5$s %3$s,%1$s %2$s %3$s)),'
		'((%4$s %2$s %3$s,%4$s %5$s %3$s,%4$s %5$s %6$s,%4$s %2$s %6$s,%4$s %2$s %3$s))', x0, y0, z0, x1, y1, z1) $$;
CREATE FUNCTION op_box(x0 float8, y0 float8, z0 float8, x1 float8, y1 float8, z1 float8) RETURNS gxgeom
LANGUAGE sql IMMUTABLE AS $$ SELECT gx_makesolid(('POLYHEDRALSURFACE Z (' || op_faces(x0, y0, z0, x1, y1, z1) || ')')::gxgeom) $$;
CREATE TABLE op_domains (id int, name text, geom gxgeom);
INSERT INTO op_domains VALUES
  (1, 'oxide',     op_box(0, 0, 0, 2, 2, 2)),
  (2, 'sulphide',  op_box(1, 1, 1, 3, 3, 3)),        -- overlaps 1 in [1,2]^3: 1
  (3, 'waste',     op_box(2, 0, 0, 4, 2, 2)),        -- shares a face with 1: 0; overlaps 2 in [2,3]x[1,2]x[1,2]: 1
  (4, 'edge',      op_box(2, 2, 0, 4, 4, 1)),        -- shares an edge with 1: 0; touches 2 along z = 1: 0
  (5, 'corner',    op_box(2, 2, 2, 4, 4, 4)),        -- shares a vertex with 1: 0; overlaps 2 in [2,3]^3: 1
  (6, 'sliver',    op_box(0, 0, 1.75, 0.5, 0.5, 2.25)),  -- overlaps 1 in 0.5 x 0.5 x 0.25 = 0.0625
  (7, 'empty',     'POLYHEDRALSURFACE Z EMPTY'),
  (8, 'no geom',   NULL),
  (9, 'far',       op_box(100, 100, 100, 101, 101, 101));
-- the domain overlap check: every pair of distinct domains sharing a volume, each pair once
SELECT a_id, b_id, volume FROM gx_overlap_pairs('SELECT id, geom FROM op_domains', 'SELECT id, geom FROM op_domains')
WHERE a_id < b_id ORDER BY a_id, b_id;
-- a solid shares its own volume with itself; EMPTY and NULL rows share nothing
SELECT a_id, volume FROM gx_overlap_pairs('SELECT id, geom FROM op_domains', 'SELECT id, geom FROM op_domains')
WHERE a_id = b_id ORDER BY a_id;
-- per pair = batch: each row equals gx_intersection_volume of its pair, and every pair with a common volume is a row
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE p.volume = gx_intersection_volume(a.geom, b.geom)) AS equal_to_pair
FROM gx_overlap_pairs('SELECT id, geom FROM op_domains', 'SELECT id, geom FROM op_domains') p
JOIN op_domains a ON a.id = p.a_id JOIN op_domains b ON b.id = p.b_id;
SELECT count(*) AS missing FROM op_domains a, op_domains b
WHERE gx_intersection_volume(a.geom, b.geom) > 0
  AND NOT EXISTS (SELECT 1 FROM gx_overlap_pairs('SELECT id, geom FROM op_domains', 'SELECT id, geom FROM op_domains') p
                  WHERE p.a_id = a.id AND p.b_id = b.id);
-- text ids, from the name column, and mixed id types converted through text
SELECT * FROM gx_overlap_pairs('SELECT name, geom FROM op_domains WHERE id = 1',
                               'SELECT name, geom FROM op_domains', NULL::text) ORDER BY b_id;
SELECT * FROM gx_overlap_pairs('SELECT id, geom FROM op_domains WHERE id = 2',
                               'SELECT name, geom FROM op_domains', NULL::text) ORDER BY b_id;
-- at UTM coordinates: two blocks of 10 m overlapping by 2.5 m in x
SELECT * FROM gx_overlap_pairs('SELECT 1, op_box(500000, 7000000, 200, 500010, 7000010, 210)',
                               'SELECT 2, op_box(500007.5, 7000000, 200, 500017.5, 7000010, 210)');
-- a NULL query gives no rows; an empty query gives none
SELECT count(*) FROM gx_overlap_pairs(NULL, 'SELECT id, geom FROM op_domains');
SELECT count(*) FROM gx_overlap_pairs('SELECT id, geom FROM op_domains WHERE false', 'SELECT id, geom FROM op_domains');
-- errors: a geometry that is not a solid, a non-integer id without an id type, mixed SRIDs, a write
SELECT * FROM gx_overlap_pairs('SELECT 1, ''TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))''::gxgeom', 'SELECT id, geom FROM op_domains');
SELECT * FROM gx_overlap_pairs('SELECT name, geom FROM op_domains', 'SELECT id, geom FROM op_domains');
SELECT * FROM gx_overlap_pairs('SELECT id, gx_setsrid(geom, 32633) FROM op_domains WHERE id = 1',
                               'SELECT id, gx_setsrid(geom, 32634) FROM op_domains WHERE id = 2');
SELECT * FROM gx_overlap_pairs('SELECT id, geom FROM op_domains',
                               'WITH d AS (DELETE FROM op_domains RETURNING id, geom) SELECT id, geom FROM d');
SELECT count(*) FROM op_domains;
-- a triangle cut more times than work_mem holds: 54000
CREATE TABLE op_comb AS SELECT 1 AS id, gx_makesolid(('POLYHEDRALSURFACE Z (' ||
	string_agg(op_faces(0.01 + k * 0.02, -1, -1, 0.02 + k * 0.02, 3, 3), ',') || ')')::gxgeom) AS geom
	FROM generate_series(0, 39) k;
SELECT gx_ntriangles(geom) FROM op_comb;
SET work_mem = 64;
SELECT * FROM gx_overlap_pairs('SELECT id, geom FROM op_domains WHERE id = 1', 'SELECT id, geom FROM op_comb');
RESET work_mem;
SELECT a_id, b_id, round(volume::numeric, 9) AS comb_in_oxide
FROM gx_overlap_pairs('SELECT id, geom FROM op_domains WHERE id = 1', 'SELECT id, geom FROM op_comb');
-- a statement timeout stops a long batch (5 000 overlays of the comb with a box)
SET statement_timeout = '200ms';
SELECT count(*) FROM gx_overlap_pairs('SELECT k, geom FROM op_comb, generate_series(1, 5000) k',
                                      'SELECT id, geom FROM op_domains WHERE id = 1');
RESET statement_timeout;
-- gx_intersection_pairs: the same pairs, each with its common part as a solid (a box here: its box and volume)
SELECT a_id, b_id, gx_issolid(geom) AS solid, gx_box3d(geom) AS box, gx_volume(geom) AS volume
FROM gx_intersection_pairs('SELECT id, geom FROM op_domains', 'SELECT id, geom FROM op_domains')
WHERE a_id < b_id ORDER BY a_id, b_id;
-- per pair = batch: each row is gx_intersection of its pair, and the rows are gx_overlap_pairs' rows
SELECT count(*) AS pairs, count(*) FILTER (WHERE gx_astext(p.geom) = gx_astext(gx_intersection(a.geom, b.geom))) AS equal_to_pair,
       count(*) FILTER (WHERE (p.a_id, p.b_id) IN (SELECT a_id, b_id FROM gx_overlap_pairs('SELECT id, geom FROM op_domains',
                                                                                         'SELECT id, geom FROM op_domains'))) AS in_overlap_pairs
FROM gx_intersection_pairs('SELECT id, geom FROM op_domains', 'SELECT id, geom FROM op_domains') p
JOIN op_domains a ON a.id = p.a_id JOIN op_domains b ON b.id = p.b_id;
-- text ids
SELECT a_id, b_id, gx_volume(geom) FROM gx_intersection_pairs('SELECT name, geom FROM op_domains WHERE id = 1',
                                                              'SELECT name, geom FROM op_domains', NULL::text) ORDER BY b_id;
-- errors: not a solid; a pair whose common part is no solid names the pair: a prism, its section in x and z
-- notched from below to the line x = 1, z = 2 on the block's top; its part in the block is two prisms (volume
-- 2 x 0.5 x 2 = 2) touching along that line
CREATE TABLE op_notch AS SELECT 7 AS id, gx_makesolid('POLYHEDRALSURFACE Z (((0 -1 1,1 -1 2,2 -1 1,2 -1 3,0 -1 3,0 -1 1)),
  ((0 3 1,1 3 2,2 3 1,2 3 3,0 3 3,0 3 1)),((0 -1 1,1 -1 2,1 3 2,0 3 1,0 -1 1)),((1 -1 2,2 -1 1,2 3 1,1 3 2,1 -1 2)),
  ((2 -1 1,2 -1 3,2 3 3,2 3 1,2 -1 1)),((2 -1 3,0 -1 3,0 3 3,2 3 3,2 -1 3)),((0 -1 3,0 -1 1,0 3 1,0 3 3,0 -1 3)))'::gxgeom) AS geom;
SELECT * FROM gx_overlap_pairs('SELECT id, geom FROM op_domains WHERE id = 1', 'SELECT id, geom FROM op_notch');
SELECT * FROM gx_intersection_pairs('SELECT 1, ''TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))''::gxgeom', 'SELECT id, geom FROM op_domains');
SELECT * FROM gx_intersection_pairs('SELECT id, geom FROM op_domains WHERE id = 1', 'SELECT id, geom FROM op_notch');
SET work_mem = 64;
SELECT * FROM gx_intersection_pairs('SELECT id, geom FROM op_domains WHERE id = 1', 'SELECT id, geom FROM op_comb');
RESET work_mem;
