-- distance: gx_dwithin (exact), gx_distance (the exact distance rounded once), gx_shortestline (closest
-- points rounded once), gx_expand (a box grown outward), NULL / EMPTY / SRID / bad distance errors, and the
-- GiST index search of gx_dwithin (lossy a &&& gx_expand(b, d)) with the same answers as without the index.
SET max_parallel_workers_per_gather = 0;

-- Exact distances that are doubles, decided at d and one double below
SELECT name, gx_distance(a::gxgeom, b::gxgeom) AS dist,
	gx_dwithin(a::gxgeom, b::gxgeom, d) AS at_d, gx_dwithin(b::gxgeom, a::gxgeom, d) AS at_d_swapped,
	gx_dwithin(a::gxgeom, b::gxgeom, d_below) AS one_below
FROM (VALUES
	('point-point 3-4-5', 'POINT Z (0 0 0)', 'POINT Z (3 0 4)', 5, 4.999999999999999),
	('point-segment interior', 'POINT Z (0 0 0)', 'LINESTRING Z (3 -10 4, 3 10 4)', 5, 4.999999999999999),
	('skew segments', 'LINESTRING Z (-1 0 0, 1 0 0)', 'LINESTRING Z (0 -1 0.25, 0 1 0.25)', 0.25, 0.24999999999999997),
	('parallel segments', 'LINESTRING Z (-1 0 0, 1 0 0)', 'LINESTRING Z (0 0 0.015625, 3 0 0.015625)', 0.015625, 0.015624999999999998),
	('point over a triangle', 'TRIANGLE Z ((1 0 -1, 0 2 -1, -1 -1 1.5, 1 0 -1))', 'POINT Z (2 1 2)', 3, 2.9999999999999996),
	('parallel triangles', 'TRIANGLE Z ((1 0 -1, 0 2 -1, -1 -1 1.5, 1 0 -1))', 'TIN Z (((3 1 1, 2 3 1, 1 0 3.5, 3 1 1)))', 3, 2.9999999999999996),
	('degenerate triangle, zero-length segment', 'TRIANGLE Z ((0 0 0, 2 0 0, 1 0 0, 0 0 0))', 'LINESTRING Z (1 0.75 0, 1 0.75 0)', 0.75, 0.7499999999999999),
	('UTM, centimetre over a face', 'TRIANGLE Z ((500000 7000000 1000, 500010 7000000 1000, 500000 7000010 1000, 500000 7000000 1000))',
		'POINT Z (500001 7000001 1000.01)', 0.009999999999990905, 0.009999999999990903),
	('UTM, the point one ulp higher', 'TRIANGLE Z ((500000 7000000 1000, 500010 7000000 1000, 500000 7000010 1000, 500000 7000000 1000))',
		'POINT Z (500001 7000001 1000.0100000000001)', 0.009999999999990905, 0.009999999999990903),
	('touching at a vertex', 'TRIANGLE Z ((0 0 0, 1 0 0, 0 1 0, 0 0 0))', 'LINESTRING Z (1 0 0, 2 2 2)', 0, -1),
	('crossing', 'TRIANGLE Z ((0 0 0, 4 0 0, 0 4 0, 0 0 0))', 'LINESTRING Z (1 1 -1, 1 1 1)', 0, -1),
	('collections', 'GEOMETRYCOLLECTION (POINT Z (10 10 10), LINESTRING Z (0 0 0, 0 0 1))',
		'MULTIPOINT Z ((3 4 12), (0 3 5))', 5, 4.999999999999999)
	) v(name, a, b, d, d_below);

-- gx_distance is correctly rounded: sqrt(2) and sqrt(1/3) to the nearest double, and 1e-320 (subnormal)
SELECT gx_distance('POINT Z (0 0 0)', 'POINT Z (1 1 0)') = sqrt(2::float8) AS sqrt2,
	gx_distance('POINT Z (0 0 0)', 'TRIANGLE Z ((1 0 0, 0 1 0, 0 0 1, 1 0 0))') AS inv_sqrt3,
	gx_distance('POINT Z (0 0 0)', 'POINT Z (1e-320 0 0)') AS subnormal,
	gx_distance('POINT Z (-1e308 0 0)', 'POINT Z (1e308 0 0)') AS overflow;

-- gx_shortestline: from the first geometry to the second; each coordinate the double nearest to the exact one;
-- intersecting geometries give one point of the intersection twice
SELECT name, gx_astext(gx_shortestline(a::gxgeom, b::gxgeom))
FROM (VALUES
	('skew segments', 'LINESTRING Z (0 0 0, 0 0 1)', 'LINESTRING Z (1 -1 0.5, 1 1 0.5)'),
	('point to a slanted segment (rational foot)', 'POINT Z (0 0 0)', 'LINESTRING Z (3 0 0, 0 3 1)'),
	('point over a triangle', 'POINT Z (2 1 2)', 'TRIANGLE Z ((1 0 -1, 0 2 -1, -1 -1 1.5, 1 0 -1))'),
	('crossing', 'TRIANGLE Z ((0 0 0, 4 0 0, 0 4 0, 0 0 0))', 'LINESTRING Z (1 1 -1, 1 1 1)')
	) v(name, a, b);
SELECT gx_asewkt(gx_shortestline('SRID=32633;POINT Z (0 0 0)', 'POINT Z (1 0 0)'));

-- NULL, EMPTY, bad distances, mixed SRIDs
SELECT gx_dwithin(NULL, 'POINT Z (0 0 0)', 1) IS NULL AS null_arg, gx_dwithin('POINT Z (0 0 0)', 'POINT Z (0 0 0)', NULL) IS NULL AS null_d;
SELECT gx_dwithin('POINT EMPTY', 'POINT Z (0 0 0)', 1e300) AS empty_within, gx_distance('POINT Z (0 0 0)', 'TIN EMPTY') IS NULL AS empty_distance,
	gx_shortestline('GEOMETRYCOLLECTION EMPTY', 'POINT Z (0 0 0)') IS NULL AS empty_line;
SELECT gx_dwithin('POINT Z (0 0 0)', 'POINT Z (0 0 0)', -1) AS negative_d, gx_dwithin('POINT Z (0 0 0)', 'POINT Z (0 0 0)', 0) AS zero_d;
SELECT gx_dwithin('POINT Z (0 0 0)', 'POINT Z (0 0 0)', 'NaN');
SELECT gx_dwithin('POINT Z (0 0 0)', 'POINT Z (0 0 0)', 'Infinity');
SELECT gx_expand('POINT Z (0 0 0)', '-Infinity');
SELECT gx_dwithin('SRID=32633;POINT Z (0 0 0)', 'SRID=4326;POINT Z (0 0 0)', 1);
SELECT gx_distance('SRID=32633;POINT Z (0 0 0)', 'SRID=4326;POINT Z (0 0 0)');
SELECT gx_shortestline('SRID=32633;POINT Z (0 0 0)', 'SRID=4326;POINT Z (0 0 0)');
SELECT gx_dwithin('SRID=32633;POINT Z (0 0 0)', 'POINT Z (0 0 1)', 1) AS srid_and_unknown;

-- gx_expand: every bound moved outward by at least d (rounded outward), EMPTY for EMPTY or negative d
SELECT gx_expand('POINT Z (1 2 3)', 0.5) AS grown, gx_expand('POINT Z (1 2 3)', 0) AS same,
	gx_expand('POINT EMPTY', 1) AS empty, gx_expand('POINT Z (1 2 3)', -1) AS negative,
	gx_expand('POINT Z (1e308 0 0)', 1e308) AS clamped;

-- The index: a lattice of 1000 points, searched around a segment
CREATE TEMP TABLE dist_pts AS
	SELECT x * 100 + y * 10 + z AS id, format('POINT Z (%s %s %s)', x, y, z)::gxgeom AS geom
	FROM generate_series(0, 9) x, generate_series(0, 9) y, generate_series(0, 9) z;
CREATE INDEX dist_pts_gist ON dist_pts USING gist (geom);
ANALYZE dist_pts;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM dist_pts WHERE gx_dwithin(geom, 'LINESTRING Z (0 0 0.5, 9 9 0.5)', 0.5);
EXPLAIN (COSTS OFF) SELECT id FROM dist_pts WHERE gx_dwithin('LINESTRING Z (0 0 0.5, 9 9 0.5)', geom, 0.5);
-- a join: the inner side searched with the outer row's geometry and distance
CREATE TEMP TABLE dist_q (qid int, g gxgeom, d float8);
INSERT INTO dist_q VALUES (1, 'LINESTRING Z (0 0 0.5, 9 9 0.5)', 0.5), (2, 'POINT Z (4.5 4.5 4.5)', 0.8660254037844387),
	(3, 'TRIANGLE Z ((0 0 9.25, 9 0 9.25, 0 9 9.25, 0 0 9.25))', 0.25), (4, 'POINT Z (4.5 4.5 4.5)', 0.8660254037844386),
	(5, 'POINT EMPTY', 100), (6, 'LINESTRING Z (-3 -3 -3, -1 -1 -1)', 1.7320508075688772),
	(7, 'LINESTRING Z (-3 -3 -3, -1 -1 -1)', 1.7320508075688774);
EXPLAIN (COSTS OFF) SELECT q.qid, p.id FROM dist_q q JOIN dist_pts p ON gx_dwithin(p.geom, q.g, q.d);
CREATE TEMP TABLE dist_indexed AS SELECT q.qid, p.id FROM dist_q q JOIN dist_pts p ON gx_dwithin(p.geom, q.g, q.d);
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE dist_scanned AS SELECT q.qid, p.id FROM dist_q q JOIN dist_pts p ON gx_dwithin(p.geom, q.g, q.d);
RESET enable_indexscan;
RESET enable_bitmapscan;
-- the same pairs with and without the index; counts per query. sqrt(3)/2 and sqrt(3) are irrational: the
-- double above reaches the 8 corners around the centre (2) or the origin (7), the double below nothing (4, 6)
SELECT (SELECT count(*) FROM (TABLE dist_indexed EXCEPT TABLE dist_scanned) x) AS only_indexed,
	(SELECT count(*) FROM (TABLE dist_scanned EXCEPT TABLE dist_indexed) x) AS only_scanned;
SELECT qid, count(*) FROM dist_indexed GROUP BY qid ORDER BY qid;

-- gx_dwithin_pairs: one CPU batch with the boxes grown by d; the same pairs as the join on gx_dwithin
SELECT r, (SELECT count(*) FROM gx_dwithin_pairs('SELECT qid, g FROM dist_q', 'SELECT id, geom FROM dist_pts', r)) AS pairs,
	(SELECT count(*) FROM (SELECT * FROM gx_dwithin_pairs('SELECT qid, g FROM dist_q', 'SELECT id, geom FROM dist_pts', r)
		EXCEPT SELECT q.qid, p.id FROM dist_q q JOIN dist_pts p ON gx_dwithin(q.g, p.geom, r)) x) AS only_batch,
	(SELECT count(*) FROM (SELECT q.qid, p.id FROM dist_q q JOIN dist_pts p ON gx_dwithin(q.g, p.geom, r)
		EXCEPT SELECT * FROM gx_dwithin_pairs('SELECT qid, g FROM dist_q', 'SELECT id, geom FROM dist_pts', r)) x) AS only_join
FROM (VALUES (0::float8), (0.25), (0.49999999999999994), (0.5), (0.8660254037844386), (0.8660254037844387), (1.5), (-1)) v(r);
SELECT * FROM gx_dwithin_pairs('SELECT qid, g FROM dist_q', 'SELECT id, geom FROM dist_pts', 'NaN');
SELECT * FROM gx_dwithin_pairs('SELECT 1, ''SRID=4326;POINT Z (0 0 0)''::gxgeom', 'SELECT 2, ''SRID=32633;POINT Z (0 0 0)''::gxgeom', 1);

-- A solid is its volume: a geometry inside it (away from its surface) is at distance 0, the shortest line
-- a vertex inside; outside, the distance is the surface's
CREATE TEMP TABLE dist_cube AS SELECT gx_makesolid('TIN Z (((0 0 0,4 4 0,4 0 0,0 0 0)),((0 0 0,0 4 0,4 4 0,0 0 0)),
	((0 0 4,4 0 4,4 4 4,0 0 4)),((0 0 4,4 4 4,0 4 4,0 0 4)),((0 0 0,4 0 0,4 0 4,0 0 0)),((0 0 0,4 0 4,0 0 4,0 0 0)),
	((0 4 0,4 4 4,4 4 0,0 4 0)),((0 4 0,0 4 4,4 4 4,0 4 0)),((0 0 0,0 4 4,0 4 0,0 0 0)),((0 0 0,0 0 4,0 4 4,0 0 0)),
	((4 0 0,4 4 0,4 4 4,4 0 0)),((4 0 0,4 4 4,4 0 4,4 0 0)))') AS s;
SELECT g, gx_dwithin(s, g::gxgeom, 0) AS within_0, gx_dwithin(g::gxgeom, s, 0.5) AS within_half,
	gx_distance(s, g::gxgeom) AS dist, gx_astext(gx_shortestline(g::gxgeom, s)) AS line
FROM dist_cube, (VALUES ('POINT Z (1 2 3)'), ('LINESTRING Z (1 1 1, 2 2 2)'), ('MULTIPOINT Z ((9 9 9), (1 2 3))'),
	('POINT Z (4 2 2)'), ('LINESTRING Z (6 2 2, 7 3 3)')) v(g);
