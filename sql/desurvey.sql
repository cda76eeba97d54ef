-- desurvey.sql: gx_desurvey (minimum curvature), gx_length and gx_locate_along: results, conventions, errors.

-- A vertical hole at UTM coordinates: exact coordinates, the collar's SRID kept.
SELECT gx_asewkt(gx_desurvey('SRID=32633;POINT Z (500000 7000000 350)', '{0,100,250}', '{0,0,0}', '{-90,-90,-90}'));
-- The first survey below the collar gives the direction from the collar down to it; horizontal east.
SELECT gx_astext(gx_desurvey('POINT Z (500000 7000000 350)', '{10,40.5}', '{90,90}', '{0,0}'));
-- Dip convention: negative is downward by default; dip_positive_down takes inclination-style dips.
SELECT gx_desurvey('POINT Z (1 2 3)', '{0,50,120}', '{10,25,40}', '{-60,-55,-52}')
	= gx_desurvey('POINT Z (1 2 3)', '{0,50,120}', '{10,25,40}', '{60,55,52}', dip_positive_down => true) AS same_hole;
SELECT gx_zmin(gx_desurvey('POINT Z (0 0 0)', '{0,10}', '{0,0}', '{90,90}')) AS up_zmin,
	gx_zmin(gx_desurvey('POINT Z (0 0 0)', '{0,10}', '{0,0}', '{90,90}', dip_positive_down => true)) AS down_zmin;

-- The worked example of drillingformulas.com: 3500 ft (inclination 15, azimuth 20) to 3600 ft (25, 45):
-- North 27.22 ft, East 19.45 ft, TVD 94.01 ft between the two stations (here measured from 0 to 100).
SELECT round(gx_ymax(e)::numeric, 2) AS north, round(gx_xmax(e)::numeric, 2) AS east, round(-gx_zmin(e)::numeric, 2) AS tvd
FROM (SELECT gx_locate_along(g, gx_length(g)) AS e
	FROM (SELECT gx_desurvey('POINT Z (0 0 0)', '{0,100}', '{20,45}', '{-75,-65}') AS g) h) p;

-- A hole bending 30 degrees over 150 m in a vertical plane (radius 286.48 m): the polyline's length is the sum of
-- its chords, a little under the depth; densified every metre on the arc, within 0.1 mm (the chords' deficit: depth * step^2 / (24 R^2)).
WITH h AS (
	SELECT gx_desurvey('SRID=32633;POINT Z (500000 7000000 0)', '{0,50,100,150}', '{0,0,0,0}', '{-90,-80,-70,-60}') AS plain,
		gx_desurvey('SRID=32633;POINT Z (500000 7000000 0)', '{0,50,100,150}', '{0,0,0,0}', '{-90,-80,-70,-60}', 1) AS dense)
SELECT gx_npoints(plain) AS plain_points, gx_npoints(dense) AS dense_points, gx_srid(dense) AS srid,
	round(gx_length(plain)::numeric, 6) AS plain_length, round(gx_length(dense)::numeric, 6) AS dense_length,
	round((150 - gx_length(dense))::numeric, 9) AS dense_deficit,
	-- the analytic circle: end point at (R (1 - cos 30deg), -R sin 30deg) from the collar, R = 150 / (pi / 6)
	round((gx_ymax(plain) - 7000000 - 150 / (pi() / 6) * (1 - cos(pi() / 6)))::numeric, 9) AS north_error,
	round((gx_zmin(plain) + 150 / (pi() / 6) * sin(pi() / 6))::numeric, 9) AS depth_error,
	gx_locate_along(plain, gx_length(plain)) = gx_locate_along(dense, gx_length(dense)) AS same_end
FROM h;
-- A step that falls on the survey depths adds points between them only.
SELECT gx_npoints(gx_desurvey('POINT Z (0 0 0)', '{0,50,100,150}', '{0,0,0,0}', '{-90,-80,-70,-60}', 25)) AS points,
	gx_npoints(gx_desurvey('POINT Z (0 0 0)', '{0,50,100,150}', '{0,0,0,0}', '{-90,-80,-70,-60}', 1000)) AS big_step;
-- NULL step_m: no densification; other NULL arguments give NULL.
SELECT gx_npoints(gx_desurvey('POINT Z (0 0 0)', '{0,10}', '{0,0}', '{-45,-45}', NULL)) AS null_step,
	gx_desurvey(NULL, '{0,10}', '{0,0}', '{-45,-45}') IS NULL AS null_collar,
	gx_desurvey('POINT Z (0 0 0)', NULL, '{0,0}', '{-45,-45}') IS NULL AS null_depth;

-- gx_length: 3D length of the linestrings; points and triangles count 0.
SELECT gx_length('LINESTRING Z (0 0 0,3 4 12,3 4 13)') AS line,
	gx_length('MULTILINESTRING Z ((0 0 0,1 0 0),(0 0 0,0 2 0))') AS multi,
	gx_length('GEOMETRYCOLLECTION (POINT (1 1),LINESTRING (0 0,0 5),TRIANGLE ((0 0,1 0,0 1,0 0)))') AS collection,
	gx_length('LINESTRING EMPTY') AS empty, gx_length('POINT (1 2 3)') AS point;

-- gx_locate_along: the ends and the vertices exactly, the SRID kept.
SELECT m, gx_asewkt(gx_locate_along('SRID=32633;LINESTRING Z (500000 7000000 0,500003 7000004 12,500003 7000004 13)', m))
FROM unnest(ARRAY[0, 6.5, 13, 13.5, 14]::float8[]) m;
SELECT gx_locate_along(l, gx_length(l)) = 'POINT Z (0.1 0.2 0.3)' AS last_vertex
FROM (SELECT 'LINESTRING Z (0 0 0,0.3 0.1 0.7,0.1 0.2 0.3)'::gxgeom AS l) s;

-- gx_line_substring: the piece between two lengths; its ends as gx_locate_along places them, the vertices
-- between as they are, a POINT for equal lengths, the whole line for [0, length], the SRID kept; errors.
SELECT f, t, gx_asewkt(gx_line_substring('SRID=32633;LINESTRING Z (500000 7000000 0,500003 7000004 12,500003 7000004 13)', f, t))
FROM (VALUES (0::float8, 13::float8), (0, 14), (6.5, 13.5), (13, 13), (2, 3), (13.5, 14)) v(f, t);
SELECT gx_line_substring(l, 1, 2) = gx_line_substring(gx_line_substring(l, 0.5, 3), 0.5, 1.5) AS nested,
	gx_npoints(gx_line_substring(l, 0, gx_length(l))) = gx_npoints(l) AS whole
FROM (SELECT 'LINESTRING Z (0 0 0,1 0 0,1 1 0,1 1 1)'::gxgeom AS l) s;

-- Errors: 22023 for every bad argument (54000 for a trace too large for one value), SQLSTATE and message.
CREATE FUNCTION pg_temp.failure(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT pg_temp.failure(q) FROM (VALUES
	('SELECT gx_line_substring(''LINESTRING(0 0 0,1 0 0)'', 0.75, 0.25)'),
	('SELECT gx_line_substring(''LINESTRING(0 0 0,1 0 0)'', 0, 2)'),
	('SELECT gx_line_substring(''LINESTRING(0 0 0,1 0 0)'', ''NaN'', 1)'),
	('SELECT gx_line_substring(''POINT(0 0 0)'', 0, 0)'),
	($q$SELECT gx_desurvey('LINESTRING (0 0,1 1)', '{0,10}', '{0,0}', '{-60,-60}')$q$),
	($q$SELECT gx_desurvey('POINT EMPTY', '{0,10}', '{0,0}', '{-60,-60}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10,20}', '{0,0}', '{-60,-60}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{}', '{}', '{}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,NULL}', '{0,0}', '{-60,-60}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10}', '{0,0}', '{-60,NULL}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{{0,10}}', '{0,0}', '{-60,-60}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10,10}', '{0,0,0}', '{-60,-60,-60}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,20,10}', '{0,0,0}', '{-60,-60,-60}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{-5,10}', '{0,0}', '{-60,-60}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,NaN}', '{0,0}', '{-60,-60}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10}', '{0,Infinity}', '{-60,-60}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10}', '{0,0}', '{-60,-90.5}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10}', '{0,0}', '{95,60}', dip_positive_down => true)$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10}', '{0,0}', '{-60,-60}', 0)$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10}', '{0,0}', '{-60,-60}', -1)$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10}', '{0,0}', '{-60,-60}', 'NaN')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10}', '{0,0}', '{-60,-60}', 'Infinity')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10}', '{0,0}', '{-60,-60}', 1e-300)$q$),
	($q$SELECT gx_desurvey('POINT (1e308 0 0)', '{0,1e308}', '{90,90}', '{0,0}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0}', '{0}', '{-60}')$q$),
	($q$SELECT gx_desurvey('POINT (0 0 0)', '{0,10}', '{0,180}', '{-30,30}')$q$),
	($q$SELECT gx_locate_along('LINESTRING (0 0,3 4)', -1)$q$),
	($q$SELECT gx_locate_along('LINESTRING (0 0,3 4)', 5.000000000000001)$q$),
	($q$SELECT gx_locate_along('LINESTRING (0 0,3 4)', 'NaN')$q$),
	($q$SELECT gx_locate_along('POINT (0 0)', 0)$q$),
	($q$SELECT gx_locate_along('LINESTRING EMPTY', 0)$q$)
) t(q);
