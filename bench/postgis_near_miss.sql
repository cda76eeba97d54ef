-- bench/postgis_near_miss.sql: the near misses of sql/near_miss.sql and sql/intersects.sql asked of both
-- gpuexact and PostGIS ST_3DIntersects (needs the postgis extension). gpuexact's answers are exact.
CREATE EXTENSION IF NOT EXISTS postgis;
CREATE TEMP TABLE probes AS
SELECT x0, y0, x0 + 0.3 AS x, y0 + 0.25 AS y, (x0 + 0.3) - x0 AS zon FROM (VALUES (0::float8, 0::float8), (500000, 7000000)) v(x0, y0);
-- a vertical segment ending on a tilted triangle's plane, one ulp above it, or one ulp below it
SELECT x0, side, gx_intersects(tri::gxgeom, seg::gxgeom) AS gpuexact, ST_3DIntersects(tri::geometry, seg::geometry) AS postgis
FROM (SELECT x0, side,
		format('TRIANGLE((%s %s 0, %s %s 1, %s %s 0, %s %s 0))', x0, y0, x0 + 1, y0, x0, y0 + 1, x0, y0) AS tri,
		format('LINESTRING(%s %s 10, %s %s %s)', x, y, x, y, z) AS seg
	  FROM probes, LATERAL (VALUES ('on', zon), ('1 ulp above', zon + 5.551115123125783e-17),
		('1 ulp below', zon - 5.551115123125783e-17)) s(side, z)) q
ORDER BY 1, 2;
SELECT label, gx_intersects(a::gxgeom, b::gxgeom) AS gpuexact, ST_3DIntersects(a::geometry, b::geometry) AS postgis FROM (VALUES
	('TRIANGLE((0 0 0, 1 1 1, 2 2 2, 0 0 0))', 'POINT(1.5 1.5 1.5)', 'degenerate triangle, point on it'),
	('LINESTRING(0 0 0, 2 2 2)', 'LINESTRING(0 2 0, 2 0 2)', 'skew segments crossing'),
	('LINESTRING(0 0 0, 3 3 3)', 'POINT(1 1 1.0000000000000002)', 'point 1 ulp off a segment'),
	('TRIANGLE((0 0 0, 4 0 0, 0 4 0, 0 0 0))', 'POINT(2 2.0000000000000004 0)', 'point 1 ulp outside an edge'),
	('TRIANGLE((0 0 0, 4 0 0, 0 4 0, 0 0 0))', 'POINT(1 1 1e-300)', 'point 1e-300 above a face')) v(a, b, label);
