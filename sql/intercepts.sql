-- intercepts.sql: depths along holes rounded once. Bodies whose boundaries fall on assay boundaries (a
-- bench-aligned box), holes vertical and inclined, the mining guide's flagging recipe counted against a
-- count by hand; intercept pieces that are single points; points at a length (gx_locate_along,
-- gx_line_substring) that are the exact points rounded once.
-- (default extra_float_digits: every float8 printed exactly, shortest round trip)
-- a body spanning x, y 0..100 and z 300..340, as a solid
CREATE TEMP TABLE body AS SELECT 1 AS body_id, gx_makesolid('POLYHEDRALSURFACE Z (
 ((0 0 300,0 100 300,100 100 300,100 0 300,0 0 300)), ((0 0 340,100 0 340,100 100 340,0 100 340,0 0 340)),
 ((0 0 300,100 0 300,100 0 340,0 0 340,0 0 300)), ((0 100 300,0 100 340,100 100 340,100 100 300,0 100 300)),
 ((0 0 300,0 0 340,0 100 340,0 100 300,0 0 300)), ((100 0 300,100 100 300,100 100 340,100 0 340,100 0 300)))') AS geom;
-- 150 vertical holes from z 400 to 152 (in the body from 60 m to 100 m), 40 inclined ones along (3, 4, -12)
-- from z 400 to 280 (13 m of hole per 12 m of depth: in from 65 m), each at a different collar
CREATE TEMP TABLE holes AS
SELECT i AS hole_id, gx_geomfromtext(format('LINESTRING Z (%s %s 400, %s %s 152)',
	1 + (i % 15) * 6.53, 1 + (i / 15) * 9.71, 1 + (i % 15) * 6.53, 1 + (i / 15) * 9.71)) AS geom
FROM generate_series(0, 149) AS i
UNION ALL
SELECT 1000 + i, gx_geomfromtext(format('LINESTRING Z (%s %s 400, %s %s 280)',
	i * 1.25, i * 0.75, i * 1.25 + 30, i * 0.75 + 40)) FROM generate_series(0, 39) AS i;
-- one-metre assays down every hole
CREATE TEMP TABLE assays AS
SELECT hole_id, m::float8 AS from_m, m + 1::float8 AS to_m, 1.0::float8 AS grade
FROM holes, generate_series(0, floor(gx_length(geom))::int - 1) AS m;
-- the depths: exact where the exact depth is a double (108.33... rounded once)
SELECT a_id >= 1000 AS inclined, from_m, to_m, count(*)
FROM gx_intercepts_pairs('SELECT hole_id, geom FROM holes', 'SELECT body_id, geom FROM body')
GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
-- per pair, the same
SELECT h.hole_id >= 1000 AS inclined, i.from_m, i.to_m, count(*)
FROM holes h, body b, gx_intercepts(h.geom, b.geom) AS i GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
-- the mining guide's flagging recipe, against the samples lying in the body counted by hand
WITH intercepts AS (
	SELECT a_id AS hole_id, b_id AS body_id, from_m, to_m
	FROM gx_intercepts_pairs('SELECT hole_id, geom FROM holes', 'SELECT body_id, geom FROM body')
), flagged AS (
	SELECT a.hole_id, i.body_id, a.grade, least(a.to_m, i.to_m) - greatest(a.from_m, i.from_m) AS metres
	FROM assays a JOIN intercepts i ON i.hole_id = a.hole_id AND i.from_m < a.to_m AND i.to_m > a.from_m
), recipe AS (
	SELECT hole_id, count(*) AS samples, sum(metres) AS metres FROM flagged GROUP BY hole_id
), by_hand AS (
	SELECT hole_id, count(*) FILTER (WHERE hole_id < 1000 AND from_m >= 60 AND to_m <= 100
		OR hole_id >= 1000 AND to_m > 65 AND from_m < 1300.0 / 12) AS samples
	FROM assays GROUP BY hole_id
)
SELECT h.hole_id >= 1000 AS inclined, count(*) AS holes,
	count(*) FILTER (WHERE r.samples = h.samples) AS counts_agree, min(r.samples), max(r.samples),
	min(r.metres), max(r.metres)
FROM by_hand h JOIN recipe r USING (hole_id) GROUP BY 1 ORDER BY 1;

-- a line that touches a solid only at one of its own vertices meets it in a point
SELECT gx_astext(i.piece), i.from_m = i.to_m AS zero_length
FROM body, gx_intercepts('LINESTRING Z (50 50 350, 50 50 340, 60 50 350)', body.geom) AS i;
SELECT gx_astext(i.piece) FROM gx_intercepts('LINESTRING Z (2 2 2, 1 1 1, 2 0 2)',
	gx_makesolid('POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)), ((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),
	((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)), ((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)), ((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),
	((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))')) AS i;

-- the point at a length is the exact point rounded once: on a 3-4-12 segment of 13 m, at 6.5 and 3.25 m the
-- exact points; on the unit diagonal at 1 m, 1 / sqrt(3) rounded once in each coordinate
SELECT gx_astext(gx_locate_along('LINESTRING Z (0 0 0, 3 4 12)', 6.5)),
	gx_astext(gx_locate_along('LINESTRING Z (0 0 0, 3 4 12)', 3.25)),
	gx_astext(gx_locate_along('LINESTRING Z (7 9 400, 7 9 152)', 60)),
	gx_astext(gx_locate_along('LINESTRING Z (0 0 0, 1 1 1)', 1));
SELECT gx_astext(gx_line_substring('LINESTRING Z (0 0 0, 3 4 12, 3 4 0)', 3.25, 19));
