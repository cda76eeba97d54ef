-- intersects: gx_intersects for every pair of geometry types, touching cases, SRIDs, large against large.
-- Set "at_origin": one geometry of each type, each containing the point (0 0 0) (touching or through it),
-- so every pair among them intersects. Set "far": one of each type inside the box x,y,z in [10, 20],
-- so no pair across the two sets intersects. EMPTY intersects nothing.
CREATE TEMP TABLE at_origin (t text, g gxgeom);
INSERT INTO at_origin VALUES
	('point', 'POINT(0 0 0)'),
	('linestring', 'LINESTRING(-1 -1 -1, 1 1 1, 2 0 0)'),
	('multipoint', 'MULTIPOINT((5 5 5), (0 0 0))'),
	('multilinestring', 'MULTILINESTRING((5 5 5, 6 6 6), (0 0 -1, 0 0 1))'),
	('triangle', 'TRIANGLE((0 0 0, 1 0 0, 0 1 0, 0 0 0))'),
	('tin', 'TIN(((3 3 3, 4 3 3, 3 4 3, 3 3 3)), ((-1 -1 0, 1 -1 0, 0 1 0, -1 -1 0)))'),
	('polyhedralsurface', 'POLYHEDRALSURFACE(((0 0 0, 0 -1 0, -1 0 0, 0 0 0)))'),
	('collection', 'GEOMETRYCOLLECTION(POINT(7 7 7), GEOMETRYCOLLECTION(LINESTRING(0 0 0, 0 0 -3)))');
CREATE TEMP TABLE far (t text, g gxgeom);
INSERT INTO far VALUES
	('point', 'POINT(15 15 15)'),
	('linestring', 'LINESTRING(10 10 10, 20 20 20)'),
	('multipoint', 'MULTIPOINT((10 10 10), (20 20 20))'),
	('multilinestring', 'MULTILINESTRING((10 20 10, 20 10 20))'),
	('triangle', 'TRIANGLE((10 10 10, 20 10 10, 10 20 20, 10 10 10))'),
	('tin', 'TIN(((10 10 10, 20 10 10, 10 20 10, 10 10 10)))'),
	('polyhedralsurface', 'POLYHEDRALSURFACE(((10 10 20, 20 20 20, 10 20 20, 10 10 20)))'),
	('collection', 'GEOMETRYCOLLECTION(POINT(12 12 12), TRIANGLE((10 10 10, 20 10 10, 10 20 10, 10 10 10)))');
SELECT count(*) AS pairs, count(*) FILTER (WHERE gx_intersects(a.g, b.g)) AS intersecting
FROM at_origin a, at_origin b;
SELECT a.t, b.t FROM at_origin a, at_origin b WHERE NOT gx_intersects(a.g, b.g);
SELECT count(*) AS pairs, count(*) FILTER (WHERE gx_intersects(a.g, b.g) OR gx_intersects(b.g, a.g)) AS intersecting
FROM at_origin a, far b;
-- within "far", these pairs are apart (checked by hand); all others meet
SELECT a.t, b.t FROM far a, far b WHERE NOT gx_intersects(a.g, b.g) AND a.t < b.t ORDER BY 1, 2;
SELECT count(*) FROM far a, far b WHERE gx_intersects(a.g, b.g) <> gx_intersects(b.g, a.g);
SELECT a.t, count(*) FILTER (WHERE gx_intersects(a.g, e.g) OR gx_intersects(e.g, a.g)) AS with_empty
FROM at_origin a, (VALUES ('POINT EMPTY'::gxgeom), ('TIN EMPTY'), ('GEOMETRYCOLLECTION EMPTY'),
	('GEOMETRYCOLLECTION(POINT EMPTY)')) e(g) GROUP BY a.t ORDER BY a.t;

-- Element pairs, touching and not (triangle T in the plane z = 0).
\set T '''TRIANGLE((0 0 0, 4 0 0, 0 4 0, 0 0 0))'''
SELECT s, gx_intersects(:T, g::gxgeom) FROM (VALUES
	('point inside', 'POINT(1 1 0)'), ('point on edge', 'POINT(2 2 0)'), ('point at vertex', 'POINT(4 0 0)'),
	('point just off edge', 'POINT(2 2.0000000000000004 0)'), ('point above', 'POINT(1 1 1e-300)'),
	('segment crossing', 'LINESTRING(1 1 -1, 1 1 1)'), ('segment ending on face', 'LINESTRING(1 1 0, 1 1 5)'),
	('segment through edge', 'LINESTRING(2 0 -1, 2 0 1)'), ('segment through vertex', 'LINESTRING(-1 -1 -1, 1 1 1)'),
	('segment passing beside', 'LINESTRING(3 3 -1, 3 3 1)'), ('segment in plane crossing', 'LINESTRING(-1 1 0, 5 1 0)'),
	('segment in plane inside', 'LINESTRING(0.5 0.5 0, 1 1 0)'), ('segment in plane outside', 'LINESTRING(3 3 0, 5 5 0)'),
	('segment in plane along edge', 'LINESTRING(-5 0 0, 9 0 0)'), ('segment parallel above', 'LINESTRING(-5 1 1, 9 1 1)'),
	('triangle crossing', 'TRIANGLE((1 1 -1, 1 1 1, 2 1 1, 1 1 -1))'),
	('triangle touching at a vertex', 'TRIANGLE((4 0 0, 5 0 1, 5 1 1, 4 0 0))'),
	('triangle sharing an edge', 'TRIANGLE((0 0 0, 4 0 0, 2 -3 5, 0 0 0))'),
	('triangle coplanar overlapping', 'TRIANGLE((1 1 0, 5 1 0, 1 5 0, 1 1 0))'),
	('triangle coplanar inside', 'TRIANGLE((0.5 0.5 0, 1 0.5 0, 0.5 1 0, 0.5 0.5 0))'),
	('triangle coplanar containing', 'TRIANGLE((-1 -1 0, 9 -1 0, -1 9 0, -1 -1 0))'),
	('triangle coplanar apart', 'TRIANGLE((3 3 0, 5 3 0, 3 5 0, 3 3 0))'),
	('triangle coplanar edge to edge', 'TRIANGLE((4 0 0, 0 4 0, 4 4 0, 4 0 0))'),
	('triangle parallel above', 'TRIANGLE((0 0 1, 4 0 1, 0 4 1, 0 0 1))'),
	('triangle above, edge over edge', 'TRIANGLE((2 2 0.5, 3 3 2, 2 3 2, 2 2 0.5))'),
	('collection: zero-length segment on the face', 'GEOMETRYCOLLECTION(LINESTRING(1 1 0, 1 1 0))')
) v(s, g);
SELECT gx_intersects('LINESTRING(0 0 0, 2 2 2)', 'LINESTRING(0 2 0, 2 0 2)') AS skew_crossing,
	gx_intersects('LINESTRING(0 0 0, 2 2 2)', 'LINESTRING(0 2 0, 2 0 2.0000000000000004)') AS skew_missing,
	gx_intersects('LINESTRING(0 0 0, 2 2 2)', 'LINESTRING(1 1 1, 5 5 5)') AS collinear_overlap,
	gx_intersects('LINESTRING(0 0 0, 2 2 2)', 'LINESTRING(2 2 2, 5 5 5)') AS collinear_touching,
	gx_intersects('LINESTRING(0 0 0, 2 2 2)', 'LINESTRING(3 3 3, 5 5 5)') AS collinear_apart,
	gx_intersects('LINESTRING(0 0 0, 2 2 2)', 'POINT(1 1 1)') AS point_on_segment,
	gx_intersects('LINESTRING(0 0 0, 3 3 3)', 'POINT(1 1 1.0000000000000002)') AS point_off_segment;

-- SRIDs: equal or unknown (0) mix fine; two different non-zero SRIDs are an error.
SELECT gx_intersects('SRID=32633;POINT(1 2 3)', 'SRID=32633;POINT(1 2 3)'),
	gx_intersects('SRID=32633;POINT(1 2 3)', 'POINT(1 2 3)');
SELECT gx_intersects('SRID=32633;POINT(1 2 3)', 'SRID=4326;POINT(1 2 3)');
-- the pair functions name a row of each SRID by its id, and its query (ids of any type)
SELECT * FROM gx_intersecting_pairs('SELECT 10, ''SRID=32633;POINT(0 0 0)''::gxgeom',
	'SELECT g, format(''SRID=%s;POINT(0 0 0)'', CASE WHEN g < 3 THEN 32633 ELSE 4326 END)::gxgeom FROM generate_series(1, 4) g');
SELECT * FROM gx_intersecting_pairs('SELECT ''x'' || g, format(''SRID=%s;POINT(0 0 0)'', 4326 + g)::gxgeom FROM generate_series(1, 2) g',
	'SELECT 1, ''SRID=4327;POINT(0 0 0)''::gxgeom', NULL::text);
-- gpuexact.strict_srid makes SRID 0 against another SRID an error too, per pair, in a batch and in a join
-- (the unknown SRID on either side, and in a side that also holds the known one).
SET gpuexact.strict_srid = on;
SELECT gx_intersects('SRID=32633;POINT(1 2 3)', 'SRID=32633;POINT(1 2 3)'), gx_intersects('POINT(1 2 3)', 'POINT(1 2 3)');
SELECT gx_intersects('SRID=32633;POINT(1 2 3)', 'POINT(1 2 3)');
SELECT gx_distance('POINT(1 2 3)', 'SRID=32633;POINT(1 2 3)');
SELECT * FROM gx_intersecting_pairs('SELECT 1, ''POINT(0 0 0)''::gxgeom', 'SELECT 1, ''SRID=32633;POINT(0 0 0)''::gxgeom');
SELECT * FROM gx_intersecting_pairs('SELECT 1, ''SRID=32633;POINT(0 0 0)''::gxgeom',
	'SELECT g, CASE WHEN g = 1 THEN ''SRID=32633;POINT(0 0 0)'' ELSE ''POINT(5 5 5)'' END::gxgeom FROM generate_series(1, 2) g');
CREATE TEMP TABLE strict_a AS SELECT g AS id, format('SRID=32633;POINT(%s 0 0)', g)::gxgeom AS geom FROM generate_series(1, 50) g;
CREATE TEMP TABLE strict_b AS SELECT g AS id, format('POINT(%s 0 0)', g)::gxgeom AS geom FROM generate_series(1, 50) g;
SET enable_nestloop = off; SET enable_hashjoin = off; SET enable_mergejoin = off;
SELECT count(*) FROM strict_a a JOIN strict_b b ON gx_intersects(a.geom, b.geom);
RESET gpuexact.strict_srid;
SELECT count(*) FROM strict_a a JOIN strict_b b ON gx_intersects(a.geom, b.geom);
RESET enable_nestloop; RESET enable_hashjoin; RESET enable_mergejoin;

-- Large against large: a 1 000-segment helix against a 20 000-triangle terrain, crossing once near its end,
-- and its copy lifted 1 km (no intersection); both go through the grid search.
CREATE TEMP TABLE terrain AS
SELECT ('TIN Z (' || string_agg(format('((%s %s %s,%s %s %s,%s %s %s,%s %s %s)),((%s %s %s,%s %s %s,%s %s %s,%s %s %s))',
	i, j, (i * j) % 7, i + 1, j, ((i + 1) * j) % 7, i, j + 1, (i * (j + 1)) % 7, i, j, (i * j) % 7,
	i + 1, j, ((i + 1) * j) % 7, i + 1, j + 1, ((i + 1) * (j + 1)) % 7, i, j + 1, (i * (j + 1)) % 7, i + 1, j, ((i + 1) * j) % 7),
	',') || ')')::gxgeom AS g
FROM generate_series(0, 99) i, generate_series(0, 99) j;
CREATE TEMP TABLE helix AS
SELECT lift, ('LINESTRING Z (' || string_agg(format('%s %s %s', 50 + 40 * cos(k / 50.0), 50 + 40 * sin(k / 50.0),
	lift + 200 - k * 0.21), ',' ORDER BY k) || ')')::gxgeom AS g
FROM generate_series(0, 1000) k, (VALUES (0), (1000)) l(lift) GROUP BY lift;
SELECT h.lift, gx_ntriangles(t.g), gx_nsegments(h.g), gx_intersects(h.g, t.g), gx_intersects(t.g, h.g) AS symmetric
FROM terrain t, helix h ORDER BY h.lift;
-- Many rows against one large geometry: the query parameter is prepared once (elements and grid) and
-- reused; the answers are those of the batch engine, which works without it.
CREATE TEMP TABLE probes AS
SELECT i AS id, format('LINESTRING(%s %s 10, %s %s 3.5)', i % 100 + 0.5, i / 100 + 0.5, i % 100 + 0.5, i / 100 + 0.5)::gxgeom AS geom
FROM generate_series(0, 9999) i;
SELECT count(*) AS prepared_answers FROM probes p WHERE gx_intersects(p.geom, (SELECT g FROM terrain));
SELECT count(*) AS batch_answers FROM gx_intersecting_pairs('SELECT id, geom FROM probes', 'SELECT 1, g FROM terrain');
SELECT count(*) AS differing FROM probes p
WHERE gx_intersects(p.geom, (SELECT g FROM terrain)) <> (p.id IN (SELECT a_id FROM gx_intersecting_pairs(
	'SELECT id, geom FROM probes', 'SELECT 1, g FROM terrain')));
