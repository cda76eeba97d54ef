-- knn: geom <-> q is gx_distance (exact, correctly rounded); ORDER BY geom <-> q LIMIT k uses the GiST
-- index and returns the order of sorting by the exact distance, ties and 1-ulp differences included.
CREATE TEMP TABLE pts AS
SELECT k AS id, format('POINT(%s %s %s)', (k % 17) * 0.5, (k / 17 % 13) * 0.25, (k / 221) * 2)::gxgeom AS geom
FROM generate_series(0, 1999) k;
-- adversarial neighbours of the query point (1 1 1): exact ties, 1 ulp nearer and farther, a segment and a
-- triangle passing 1 ulp from it, an EMPTY point
INSERT INTO pts VALUES (-1, 'POINT(1 1 1.5)'), (-2, 'POINT(1 1 0.5)'), (-3, 'POINT(1 1 1.4999999999999998)'),
	(-4, 'POINT(1 1 1.5000000000000002)'), (-5, 'LINESTRING(0 0 1.25, 2 0 1.25)'),
	(-6, 'LINESTRING(0 1.0000000000000002 1, 2 1.0000000000000002 1)'),
	(-7, 'TRIANGLE((0 0 0.9999999999999999, 2 0 0.9999999999999999, 0 2 0.9999999999999999, 0 0 0.9999999999999999))'),
	(-8, 'POINT EMPTY');
SELECT 'POINT(0 0 0)'::gxgeom <-> 'POINT(3 4 0)' AS five, 'POINT(0 0 0)'::gxgeom <-> 'POINT EMPTY' AS empty;
CREATE TEMP TABLE by_sort AS
SELECT id, geom <-> 'POINT(1 1 1)' AS d, row_number() OVER (ORDER BY gx_distance(geom, 'POINT(1 1 1)'), id) AS rank FROM pts;
CREATE INDEX pts_gist ON pts USING gist (geom);
ANALYZE pts;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM pts ORDER BY geom <-> 'POINT(1 1 1)' LIMIT 10;
-- the index's order has the same distances, rank by rank, as sorting (ties may come in either order)
CREATE TEMP TABLE by_index AS
SELECT id, d, row_number() OVER () AS rank FROM (SELECT id, geom <-> 'POINT(1 1 1)' AS d FROM pts ORDER BY geom <-> 'POINT(1 1 1)' LIMIT 40) s;
SELECT count(*) AS ranks, count(*) FILTER (WHERE i.d IS DISTINCT FROM s.d) AS differing
FROM by_index i JOIN by_sort s USING (rank);
SELECT id, d FROM by_index ORDER BY d, id LIMIT 12;
-- every row comes, EMPTY last (a NULL distance)
SELECT count(*) AS rows, (array_agg(id ORDER BY rank DESC))[1] AS last FROM (
	SELECT id, row_number() OVER () AS rank FROM (SELECT id FROM pts ORDER BY geom <-> 'POINT(1 1 1)') s) t;
-- a solid's distance is 0 inside it
CREATE TEMP TABLE bodies AS SELECT 1 AS id, gx_makesolid('POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))') AS geom
UNION ALL SELECT 2, 'POINT(5 5 5)';
CREATE INDEX ON bodies USING gist (geom);
SELECT id, geom <-> 'POINT(0.5 0.5 0.5)' AS d FROM bodies ORDER BY geom <-> 'POINT(0.5 0.5 0.5)' LIMIT 2;
-- subnormal coordinates: the index's bound stays below the exact distance rounded once
CREATE TEMP TABLE tiny AS SELECT 1 AS id, 'POINT Z (5.6710719e-316 4.2875e-320 3.104e-320)'::gxgeom AS geom
UNION ALL SELECT 2, 'POINT Z (4.9e-324 0 0)' UNION ALL SELECT 3, 'POINT Z (1e308 -1e308 1e308)';
CREATE INDEX ON tiny USING gist (geom);
SELECT id, geom <-> 'POINT(0 0 0)' AS d FROM tiny ORDER BY geom <-> 'POINT(0 0 0)';
SELECT id, geom <-> 'POINT(1e-320 -2e-322 0)' AS d FROM tiny ORDER BY geom <-> 'POINT(1e-320 -2e-322 0)';
RESET enable_seqscan;
