-- near_miss: 1-ulp decisions on both sides, at small and at UTM coordinates, where a plain floating-point
-- evaluation cannot be trusted. The triangle lies in the plane z = x - x0 (x0 = 0 or 500 000), the segment
-- comes down vertically onto a point of that plane, ending exactly on it, one ulp above, or one ulp below.
-- All values are built with float8 arithmetic that is exact here (Sterbenz, one-ulp steps).
CREATE TEMP TABLE cases AS
SELECT x0, y0, x0 + 0.3 AS x, y0 + 0.25 AS y FROM (VALUES (0::float8, 0::float8), (500000, 7000000)) v(x0, y0);
CREATE TEMP TABLE probes AS
SELECT x0, y0, x, y, x - x0 AS zon,                     -- exactly on the plane
	(x - x0) + 5.551115123125783e-17 AS zabove,          -- one ulp above (ulp(0.3) = 2^-54)
	(x - x0) - 5.551115123125783e-17 AS zbelow           -- one ulp below
FROM cases;
SELECT x0, side,
	gx_intersects(format('TRIANGLE((%s %s 0, %s %s 1, %s %s 0, %s %s 0))', x0, y0, x0 + 1, y0, x0, y0 + 1, x0, y0)::gxgeom,
		format('LINESTRING(%s %s 10, %s %s %s)', x, y, x, y, z)::gxgeom) AS intersects
FROM probes, LATERAL (VALUES ('on', zon), ('1 ulp above', zabove), ('1 ulp below', zbelow)) s(side, z)
ORDER BY x0, side;
-- the same near misses between two segments and between two triangles
SELECT x0,
	gx_intersects(format('LINESTRING(%s %s 0, %s %s 1)', x0, y, x0 + 1, y)::gxgeom,
		format('LINESTRING(%s %s 10, %s %s %s)', x, y, x, y, zon)::gxgeom) AS seg_touch,
	gx_intersects(format('LINESTRING(%s %s 0, %s %s 1)', x0, y, x0 + 1, y)::gxgeom,
		format('LINESTRING(%s %s 10, %s %s %s)', x, y, x, y, zabove)::gxgeom) AS seg_above,
	gx_intersects(format('TRIANGLE((%s %s 0, %s %s 1, %s %s 0, %s %s 0))', x0, y0, x0 + 1, y0, x0, y0 + 1, x0, y0)::gxgeom,
		format('TRIANGLE((%s %s 10, %s %s 10, %s %s %s, %s %s 10))', x - 1, y, x + 1, y, x, y, zabove, x - 1, y)::gxgeom) AS tri_above,
	gx_intersects(format('TRIANGLE((%s %s 0, %s %s 1, %s %s 0, %s %s 0))', x0, y0, x0 + 1, y0, x0, y0 + 1, x0, y0)::gxgeom,
		format('TRIANGLE((%s %s 10, %s %s 10, %s %s %s, %s %s 10))', x - 1, y, x + 1, y, x, y, zon, x - 1, y)::gxgeom) AS tri_touch
FROM probes ORDER BY x0;
