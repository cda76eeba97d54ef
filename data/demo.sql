-- data/demo.sql: the built-in demo dataset, generated in SQL (deterministic): ore bodies as solids bounded by
-- closed, non-convex triangulated surfaces and drill holes as deviating 3D polylines, at UTM coordinates
-- (zone 33N: x near 500 000 m, y near 7 000 000 m, z below the surface).
CREATE EXTENSION IF NOT EXISTS gpuexact;

-- A closed surface: a sphere of n x 2n quads, radially bumped (non-convex) and squashed. The ore bodies are
-- the solids these surfaces bound (gx_makesolid; the zero-area triangles at the poles are dropped).
CREATE FUNCTION demo_orebody(cx float8, cy float8, cz float8, r float8, n int, seed float8)
RETURNS gxgeom LANGUAGE sql IMMUTABLE AS $$
WITH v AS (
	SELECT i, j, r * (1 + 0.3 * sin(3 * 2 * pi() * j / (2 * n) + seed) * sin(2 * pi() * i / n)) AS rr,
		pi() * i / n AS th, 2 * pi() * j / (2 * n) AS ph
	FROM generate_series(0, n) i, generate_series(0, 2 * n - 1) j
), p AS (
	SELECT i, j, format('%s %s %s',
		round((cx + rr * sin(th) * cos(ph))::numeric, 3),
		round((cy + rr * sin(th) * sin(ph) * 0.7)::numeric, 3),
		round((cz + rr * cos(th) * 0.5)::numeric, 3)) AS xyz
	FROM v
), q AS (
	SELECT a.xyz AS a, b.xyz AS b, c.xyz AS c, d.xyz AS d, a.i, a.j
	FROM p a
	JOIN p b ON b.i = a.i + 1 AND b.j = a.j
	JOIN p c ON c.i = a.i + 1 AND c.j = (a.j + 1) % (2 * n)
	JOIN p d ON d.i = a.i AND d.j = (a.j + 1) % (2 * n)
)
SELECT ('SRID=32633;TIN Z (' || string_agg(format('((%s,%s,%s,%s)),((%s,%s,%s,%s))', a, b, c, a, a, c, d, a), ','
	ORDER BY i, j) || ')')::gxgeom
FROM q
$$;

-- A drill hole from a collar: 15 m segments, starting azimuth and dip, drifting a little per segment.
CREATE FUNCTION demo_drillhole(x0 float8, y0 float8, z0 float8, az float8, dip float8, nseg int)
RETURNS gxgeom LANGUAGE sql IMMUTABLE AS $$
WITH RECURSIVE s(k, x, y, z, a, d) AS (
	SELECT 0, x0, y0, z0, az, dip
	UNION ALL
	SELECT k + 1, x + 15 * cos(radians(d)) * sin(radians(a)), y + 15 * cos(radians(d)) * cos(radians(a)),
		z - 15 * sin(radians(d)), a + 0.8, d - 0.3
	FROM s WHERE k < nseg
)
SELECT ('SRID=32633;LINESTRING Z (' || string_agg(format('%s %s %s', round(x::numeric, 3), round(y::numeric, 3),
	round(z::numeric, 3)), ',' ORDER BY k) || ')')::gxgeom
FROM s
$$;

CREATE TABLE orebodies (body_id int PRIMARY KEY, name text, geom gxgeom NOT NULL);
CREATE TABLE drillholes (hole_id int PRIMARY KEY, name text, geom gxgeom NOT NULL);

INSERT INTO orebodies
SELECT b, 'body ' || b, gx_makesolid(demo_orebody(500000 + 260 * (b % 3), 7000000 + 300 * (b / 3), -180 - 40 * (b % 2),
	90 + 15 * b, 24 + 4 * b, b))
FROM generate_series(0, 5) b;

INSERT INTO drillholes
SELECT 100 * gx + gy, format('DH-%s-%s', gx, gy),
	demo_drillhole(499850 + 60 * gx, 6999800 + 60 * gy, 0, 20 * gx + 7 * gy, 62 + (gx + gy) % 20, 30)
FROM generate_series(0, 14) gx, generate_series(0, 14) gy;

ANALYZE orebodies;
ANALYZE drillholes;
