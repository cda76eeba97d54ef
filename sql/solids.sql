-- Solids: gx_makesolid's checks, gx_locate, volume semantics of gx_intersects (per pair, batched join,
-- SRF), gx_intercepts and gx_intercepts_pairs, and I/O of the solid flag.
SET extra_float_digits = 0;
-- a unit cube of 12 triangles, written with mixed orientations
CREATE TEMP TABLE cube AS SELECT 'TIN Z (((0 0 0,0 1 0,1 1 0,0 0 0)),((0 0 0,1 0 0,1 1 0,0 0 0)),
 ((0 0 1,1 0 1,1 1 1,0 0 1)),((0 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 0)),((0 0 0,1 0 1,0 0 1,0 0 0)),
 ((0 1 0,0 1 1,1 1 1,0 1 0)),((0 1 0,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 0 0)),((0 0 0,0 1 1,0 1 0,0 0 0)),
 ((1 0 0,1 1 0,1 1 1,1 0 0)),((1 0 0,1 1 1,1 0 1,1 0 0)))'::gxgeom AS surface;
SELECT gx_issolid(surface), gx_issolid(gx_makesolid(surface)) FROM cube;
-- the solid's text reads back as a solid (SFCGAL's SOLID form), and its EWKB too
SELECT left(gx_astext(gx_makesolid(surface)), 12) FROM cube;
SELECT gx_issolid(gx_astext(gx_makesolid(surface))::gxgeom) FROM cube;
SELECT gx_issolid(gx_geomfromwkb(gx_asewkb(gx_makesolid(surface)))) AS ewkb_keeps_it,
       gx_issolid(gx_geomfromwkb(gx_asbinary(gx_makesolid(surface)))) AS iso_wkb_drops_it FROM cube;
SELECT gx_makesolid(surface) = gx_makesolid(gx_makesolid(surface)) AS idempotent FROM cube;
-- each face faces outward: the cube's own text, face by face (orientation is the function's, not the input's)
SELECT gx_astext(gx_makesolid('TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((0 0 0,0 0 1,1 0 0,0 0 0)),((0 0 0,0 1 0,0 0 1,0 0 0)),((1 0 0,0 0 1,0 1 0,1 0 0)))'));
SELECT gx_astext(gx_makesolid('TIN Z (((0 0 0,0 1 0,1 0 0,0 0 0)),((0 0 0,1 0 0,0 0 1,0 0 0)),((0 0 0,0 0 1,0 1 0,0 0 0)),((1 0 0,0 1 0,0 0 1,1 0 0)))'));

-- a triangle with a repeated vertex lying along an edge (as at the poles of many meshes) is dropped;
-- one elsewhere is refused (below)
SELECT gx_ntriangles(gx_makesolid(gx_geomfromtext(replace(gx_astext(surface), 'TIN Z (', 'TIN Z (((0 0 0,1 0 0,0 0 0,0 0 0)),'))))
	FROM cube;

-- point location, exact: faces, edges, vertices, one ulp off
SELECT p, gx_locate(p::gxgeom, gx_makesolid(surface)) FROM cube,
  unnest(ARRAY['POINT Z (0.5 0.5 0.5)', 'POINT Z (0.5 0.5 1)', 'POINT Z (1 1 1)', 'POINT Z (1 0.5 0)',
               'POINT Z (0.5 0.5 1.0000000000000002)', 'POINT Z (0.5 0.5 0.9999999999999999)',
               'POINT Z (2 0.5 0.5)', 'POINT Z (-1e-300 0.5 0.5)']) AS p;
-- gx_intersects is the volume's: a point or a segment inside intersects, one outside does not
SELECT gx_intersects('POINT Z (0.5 0.5 0.5)', gx_makesolid(surface)) AS inside_point,
       gx_intersects('LINESTRING Z (0.2 0.2 0.2, 0.8 0.8 0.8)', gx_makesolid(surface)) AS inside_segment,
       gx_intersects('POINT Z (0.5 0.5 0.5)', surface) AS surface_only,
       gx_intersects('POINT Z (1.5 0.5 0.5)', gx_makesolid(surface)) AS outside,
       gx_intersects('MULTIPOINT Z ((9 9 9), (0.5 0.5 0.5))', gx_makesolid(surface)) AS one_part_inside FROM cube;

-- intercepts: through, starting inside, along a face, touching an edge, missing, a polyline in and out
SELECT l, i.* FROM cube, unnest(ARRAY[
	'LINESTRING Z (-1 0.5 0.5, 2 0.5 0.5)',
	'LINESTRING Z (0.5 0.5 0.5, 0.5 0.5 3)',
	'LINESTRING Z (-1 0 0.5, 3 0 0.5)',
	'LINESTRING Z (-1 -1 1, 1 1 1)',
	'LINESTRING Z (2 2 2, 3 3 3)',
	'LINESTRING Z (-1 0.5 0.5, 0.5 0.5 0.5, 0.5 0.5 2, 0.5 2 2, 0.5 0.5 0.25)']) AS l,
	LATERAL gx_intercepts(l::gxgeom, gx_makesolid(surface)) AS i ORDER BY l COLLATE "C", i.from_m;

-- a solid with a cavity: a point in the cavity is outside, in the wall inside
CREATE TEMP TABLE hollow AS SELECT gx_makesolid(gx_geomfromtext(
  'GEOMETRYCOLLECTION Z (' || gx_astext(surface) || ',' ||
  replace(regexp_replace(regexp_replace(gx_astext(surface), '\m1\M', 'Q', 'g'), '\m0\M', '0.25', 'g'), 'Q', '0.75')
  || ')')) AS g FROM cube;
SELECT gx_locate('POINT Z (0.5 0.5 0.5)', g) AS cavity, gx_locate('POINT Z (0.1 0.5 0.5)', g) AS wall,
       gx_locate('POINT Z (0.25 0.5 0.5)', g) AS cavity_face FROM hollow;
SELECT i.* FROM hollow, gx_intercepts('LINESTRING Z (-1 0.5 0.5, 2 0.5 0.5)', g) AS i;

-- the batched join and the SRF give what gx_intersects gives per pair
CREATE TEMP TABLE bodies AS SELECT 1 AS id, gx_makesolid(surface) AS geom FROM cube
	UNION ALL SELECT 2, g FROM hollow;
CREATE TEMP TABLE holes (id int, geom gxgeom);
INSERT INTO holes VALUES (1, 'LINESTRING Z (0.1 0.1 0.1, 0.2 0.2 0.2)'), (2, 'POINT Z (0.5 0.5 0.5)'),
	(3, 'LINESTRING Z (-1 0.5 0.5, 2 0.5 0.5)'), (4, 'LINESTRING Z (5 5 5, 6 6 6)'),
	(5, 'LINESTRING Z (0.4 0.4 0.4, 0.6 0.6 0.6)'),
	(6, 'MULTILINESTRING Z ((7 7 7, 8 8 8), (0.1 0.1 0.1, 0.2 0.1 0.1))');
SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom) ORDER BY 1, 2;
SET enable_seqscan = off;
SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom) ORDER BY 1, 2;
RESET enable_seqscan;
SELECT * FROM gx_intersecting_pairs('SELECT id, geom FROM holes', 'SELECT id, geom FROM bodies') ORDER BY 1, 2;
SELECT * FROM gx_intercepts_pairs('SELECT id, geom FROM holes WHERE id NOT IN (2, 6)', 'SELECT id, geom FROM bodies')
	ORDER BY 1, 2, 3;

-- solids stored out of line (TOAST, over 2 kB): a LATERAL join meets them in turn; each call site keeps them
-- indexed, and the answers are those of gx_intercepts_pairs and of gx_locate on the same solids inline
CREATE FUNCTION box_tin(x float8, y float8, z float8, d float8) RETURNS text LANGUAGE sql AS $$
	SELECT 'TIN Z (' || string_agg(format('((%s,%s,%s,%s))', v[f[3 * i + 1]], v[f[3 * i + 2]], v[f[3 * i + 3]],
		v[f[3 * i + 1]]), ',' ORDER BY i) || ')'
	FROM generate_series(0, 11) i,
		(SELECT ARRAY[format('%s %s %s', x, y, z), format('%s %s %s', x + d, y, z), format('%s %s %s', x, y + d, z),
			format('%s %s %s', x + d, y + d, z), format('%s %s %s', x, y, z + d), format('%s %s %s', x + d, y, z + d),
			format('%s %s %s', x, y + d, z + d), format('%s %s %s', x + d, y + d, z + d)] AS v,
			ARRAY[1,3,2, 2,3,4, 5,6,7, 6,8,7, 1,2,5, 2,6,5, 3,7,4, 4,7,8, 1,5,3, 3,5,7, 2,4,6, 4,8,6] AS f) q $$;
CREATE TEMP TABLE bodies_many AS SELECT id, gx_makesolid(('GEOMETRYCOLLECTION Z (' || box_tin(id * 0.1, 0, 0, 1) || ',' ||
	box_tin(id * 0.1 + 0.25, 0.25, 0.25, 0.5) || ',' || box_tin(5, 5, id, 1) || ',' || box_tin(8, 8, 8 + id, 1) ||
	-- far boxes, that no hole meets: they make each value big enough to be stored out of line packed
	(SELECT string_agg(',' || box_tin(40 + 2 * k, 40, 40 + id, 1), '') FROM generate_series(1, 6) k) || ')')::gxgeom) AS geom
	FROM generate_series(1, 4) id;
CREATE TEMP TABLE bodies_toasted (id int, geom gxgeom);
ALTER TABLE bodies_toasted ALTER COLUMN geom SET STORAGE EXTERNAL;
INSERT INTO bodies_toasted SELECT id, gx_astext(geom)::gxgeom FROM bodies_many;
SELECT pg_relation_size(reltoastrelid) > 0 AS stored_out_of_line FROM pg_class WHERE oid = 'bodies_toasted'::regclass;
SELECT h.id, b.id, i.* FROM holes h JOIN bodies_toasted b ON gx_intersects(h.geom, b.geom),
	LATERAL gx_intercepts(h.geom, b.geom) i WHERE h.id NOT IN (2, 6) ORDER BY 1, 2, 3;
SELECT count(*) AS lateral_rows_not_in_pairs FROM (
	SELECT h.id, b.id, i.from_m, i.to_m FROM holes h JOIN bodies_toasted b ON gx_intersects(h.geom, b.geom),
		LATERAL gx_intercepts(h.geom, b.geom) i WHERE h.id NOT IN (2, 6)
	EXCEPT ALL SELECT * FROM gx_intercepts_pairs('SELECT id, geom FROM holes WHERE id NOT IN (2, 6)',
		'SELECT id, geom FROM bodies_many')) x;
SELECT count(*) AS located_differently FROM unnest(ARRAY['POINT Z (0.5 0.5 0.5)', 'POINT Z (0.15 0.5 0.5)',
	'POINT Z (0.45 0.5 0.5)', 'POINT Z (5.5 5.5 2.5)', 'POINT Z (2 2 2)']) p, bodies_toasted b JOIN bodies_many m USING (id)
	WHERE gx_locate(p::gxgeom, b.geom) <> gx_locate(p::gxgeom, m.geom);

-- gx_makesolids: every row of a query made a solid on the threads, compressed there with the default TOAST
-- method, stored as it comes; byte for byte gx_makesolid's solids (an already solid row and a NULL one too),
-- in rounds (join_batch_mb), read back by PostgreSQL's own decompression
CREATE TEMP TABLE surfaces_many AS SELECT id, ('GEOMETRYCOLLECTION Z (' || box_tin(id * 0.1, 0, 0, 1) ||
	(SELECT string_agg(',' || box_tin(40 + 2 * k, 40, 40 + id, 1), '') FROM generate_series(0, id % 40) k) || ')')::gxgeom AS geom
	FROM generate_series(1, 300) id;
INSERT INTO surfaces_many VALUES (301, NULL), (302, (SELECT geom FROM bodies_many WHERE id = 1));
SET gpuexact.join_batch_mb = 1;
CREATE TEMP TABLE solids_bulk AS SELECT * FROM gx_makesolids('SELECT id, geom FROM surfaces_many ORDER BY id');
RESET gpuexact.join_batch_mb;
SELECT count(*) AS made, count(*) FILTER (WHERE gx_asbinary(b.solid) = gx_asbinary(gx_makesolid(s.geom))) AS as_makesolid,
	count(*) FILTER (WHERE gx_issolid(b.solid)) AS solids, min(b.id), max(b.id)
	FROM solids_bulk b JOIN surfaces_many s USING (id);
SELECT pg_column_compression(solid) AS compressed, count(*) FROM solids_bulk GROUP BY 1 ORDER BY 1;
SET default_toast_compression = lz4;
SELECT pg_column_compression(m.solid) AS compressed, count(*), count(*) FILTER (WHERE gx_asbinary(m.solid) = gx_asbinary(b.solid)) AS same
	FROM gx_makesolids('SELECT id, geom FROM surfaces_many WHERE id > 290') m JOIN solids_bulk b USING (id) GROUP BY 1 ORDER BY 1;
RESET default_toast_compression;
SET gpuexact.cpu_threads = 1;
SELECT count(*) AS same_on_one_thread FROM gx_makesolids('SELECT id, geom FROM surfaces_many') m JOIN solids_bulk b USING (id)
	WHERE gx_asbinary(m.solid) = gx_asbinary(b.solid);
RESET gpuexact.cpu_threads;
UPDATE surfaces_many s SET geom = m.solid FROM gx_makesolids('SELECT id, geom FROM surfaces_many') m WHERE m.id = s.id;
SELECT count(*) FILTER (WHERE gx_issolid(geom)) AS updated_to_solids, count(geom) AS not_null FROM surfaces_many;
SELECT id, pg_typeof(id), gx_issolid(solid) FROM gx_makesolids('SELECT ''B-'' || id, geom FROM surfaces_many WHERE id < 3', NULL::text)
	ORDER BY 1;
-- the first row (in the query's order) that bounds no volume ends the call, naming its id, though a larger
-- body that bounds none either is made first
SELECT * FROM gx_makesolids('SELECT id, geom FROM (VALUES (1, ''TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))''::gxgeom),
	(2, ''LINESTRING Z (0 0 0,1 1 1)''::gxgeom)) v(id, geom)');
CREATE TEMP TABLE open_bodies AS SELECT 1 AS id, 'TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))'::gxgeom AS geom
	UNION ALL SELECT 2, regexp_replace('GEOMETRYCOLLECTION Z (' || (SELECT string_agg(box_tin(2 * k, 0, 0, 1), ',')
		FROM generate_series(1, 40) k) || ')', '^GEOMETRYCOLLECTION Z \(TIN Z \(\(\([^)]*\)\),', 'GEOMETRYCOLLECTION Z (TIN Z (')::gxgeom;
SELECT id, gx_ntriangles(geom) FROM open_bodies ORDER BY id;
SELECT * FROM gx_makesolids('SELECT id, geom FROM open_bodies WHERE id = 2');
SELECT * FROM gx_makesolids('SELECT id, geom FROM open_bodies ORDER BY id');
SELECT * FROM gx_makesolids('SELECT id, geom FROM surfaces_many UNION ALL SELECT 7, ''TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))''');
SELECT * FROM gx_makesolids('SELECT id FROM surfaces_many');
SELECT * FROM gx_makesolids('SELECT id::text, geom FROM surfaces_many');

-- errors: each with its SQLSTATE
\set VERBOSITY sqlstate
SELECT gx_makesolid('TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))');
\set VERBOSITY default
SELECT gx_makesolid('TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))');
SELECT gx_makesolid('TIN Z (((0 0 0,1 0 0,2 0 0,0 0 0)))');
SELECT gx_makesolid(gx_geomfromtext(replace(gx_astext(surface), 'TIN Z (', 'TIN Z (((0 0 0,1 1 1,0 0 0,0 0 0)),')))
	FROM cube;
SELECT gx_makesolid('TIN EMPTY');
SELECT gx_makesolid('LINESTRING Z (0 0 0, 1 1 1)');
-- two tetrahedra through each other: every edge is shared twice, yet the surfaces cross
SELECT gx_makesolid('TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((0 0 0,0 0 1,1 0 0,0 0 0)),((0 0 0,0 1 0,0 0 1,0 0 0)),((1 0 0,0 0 1,0 1 0,1 0 0)),
  ((0.1 0.1 0.1,1.1 0.1 0.1,0.1 1.1 0.1,0.1 0.1 0.1)),((0.1 0.1 0.1,0.1 0.1 1.1,1.1 0.1 0.1,0.1 0.1 0.1)),((0.1 0.1 0.1,0.1 1.1 0.1,0.1 0.1 1.1,0.1 0.1 0.1)),((1.1 0.1 0.1,0.1 0.1 1.1,0.1 1.1 0.1,1.1 0.1 0.1)))');
SELECT 'SOLID Z ((((0 0 0,1 0 0,0 1 0,0 0 0))))'::gxgeom;
SELECT gx_locate('LINESTRING Z (0 0 0, 1 1 1)', gx_makesolid(surface)) FROM cube;
SELECT gx_locate('POINT Z (0 0 0)', surface) FROM cube;
SELECT gx_locate('SRID=32633;POINT Z (0 0 0)', gx_setsrid(gx_makesolid(surface), 4326)) FROM cube;
SELECT * FROM gx_intercepts_pairs('SELECT id, geom FROM holes', 'SELECT id, geom FROM bodies');
SELECT * FROM gx_intercepts_pairs('SELECT id, geom FROM holes WHERE id <> 2', 'SELECT 1, surface FROM cube');
-- ids of other types: text hole names come back as text (integer ids converted through their text form),
-- the same pairs as with integer ids; without the type argument, text ids are an error with a hint
SELECT a_id, b_id, from_m, to_m FROM gx_intercepts_pairs('SELECT ''DH-'' || lpad(id::text, 3, ''0''), geom FROM holes WHERE id NOT IN (2, 6)',
	'SELECT id, geom FROM bodies', NULL::text) ORDER BY 1, 2, 3;
SELECT (SELECT count(*) FROM gx_intersecting_pairs('SELECT id::text, geom FROM holes', 'SELECT id, geom FROM bodies', NULL::text))
	= (SELECT count(*) FROM gx_intersecting_pairs('SELECT id, geom FROM holes', 'SELECT id, geom FROM bodies')) AS same_count,
	(SELECT array_agg(a_id || '/' || b_id ORDER BY a_id, b_id) FROM gx_dwithin_pairs('SELECT id::text, geom FROM holes', 'SELECT id, geom FROM bodies', 0.5, NULL::text))
	= (SELECT array_agg(a_id || '/' || b_id ORDER BY a_id::text, b_id::text) FROM gx_dwithin_pairs('SELECT id, geom FROM holes', 'SELECT id, geom FROM bodies', 0.5)) AS same_pairs;
SELECT pg_typeof(a_id) FROM gx_intersecting_pairs('SELECT id, geom FROM holes', 'SELECT id, geom FROM bodies', NULL::numeric) LIMIT 1;
SELECT count(*) FROM gx_intersecting_pairs(NULL, 'SELECT id, geom FROM bodies', NULL::text);
SELECT * FROM gx_intercepts_pairs('SELECT id::text, geom FROM holes', 'SELECT id, geom FROM bodies');

-- gx_makesolid row by row: a statement's rows are made a round at a time on the backend's threads (the
-- node GpuexactMakeSolids above the plan that reads them), with the function's answers, NULLs and errors
CREATE TEMP TABLE surfaces AS SELECT i AS id, surface AS geom FROM cube, generate_series(1, 5) AS i;
INSERT INTO surfaces VALUES (6, NULL);
EXPLAIN (COSTS OFF) UPDATE surfaces SET geom = gx_makesolid(geom);
EXPLAIN (COSTS OFF) SELECT id, gx_makesolid(geom) FROM surfaces;
EXPLAIN (COSTS OFF) SELECT gx_issolid(geom) FROM surfaces;
CREATE TEMP TABLE made_rows AS SELECT id, gx_makesolid(geom) AS geom FROM surfaces;
SELECT count(*) AS rows, count(geom) AS solids, bool_and(gx_issolid(geom)) AS all_solid,
	bool_and(geom = (SELECT gx_makesolid(surface) FROM cube)) AS each_the_function_s FROM made_rows;
UPDATE surfaces SET geom = gx_makesolid(geom);
SELECT count(*) FILTER (WHERE gx_issolid(geom)) AS solids, count(*) FILTER (WHERE geom IS NULL) AS nulls FROM surfaces;
-- a row that is no solid raises the function's error, whichever row of the round it is
INSERT INTO surfaces VALUES (7, 'TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)))');
UPDATE surfaces SET geom = gx_makesolid(geom);
SELECT count(*) FILTER (WHERE gx_issolid(geom)) AS solids_unchanged FROM surfaces;
DROP TABLE surfaces, made_rows;
