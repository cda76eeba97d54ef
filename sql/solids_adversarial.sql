-- Solids at the edges: malformed SOLID text and EWKB (an ERROR each, never a crash), coordinates near
-- overflow and underflow (point location and finite, non-zero intercept lengths), and a cavity whose
-- vertices all lie on the outer shell (oriented inward: its faces' normals point into the cavity).
SET extra_float_digits = 0;
\set VERBOSITY sqlstate
SELECT 'SOLID'::gxgeom;
SELECT 'SOLID Z'::gxgeom;
SELECT 'SOLID EMPTY'::gxgeom;
SELECT 'SOLID ZM ((((0 0 0 0,1 0 0 0,0 1 0 0,0 0 0 0))))'::gxgeom;
SELECT 'SOLID Z ()'::gxgeom;
SELECT 'SOLID Z (())'::gxgeom;
SELECT 'SOLID Z ((((0 0 0,1 0 0,0 1 0,0 0 0)))'::gxgeom;
SELECT 'SOLID Z (((0 0 0,1 0 0,1 1 0,0 1 0,0 0 0)))'::gxgeom;
SELECT 'SOLID Z ((((0 0 0,1 0 0,0 1 0,0 0 0)),((0 0 0,0 0 1,1 0 0,0 0 0))))'::gxgeom;
SELECT 'GEOMETRYCOLLECTION Z (SOLID Z ((((0 0 0,1 0 0,0 1 0,0 0 0)))))'::gxgeom;
-- the solid flag on a POINT, and on a surface nested in a collection: unknown type codes
SELECT '0101000090000000000000F03F00000000000000400000000000000840'::gxgeom;
SELECT '010700008001000000010F0000900000000000'::gxgeom;
\set VERBOSITY default

-- a tetrahedron scaled by 2^1020 (its top at 1.3e308: no height above it is twice as far) and by 2^-1040
CREATE TEMP TABLE scaled AS SELECT s, gx_makesolid(format(
  'TIN Z (((0 0 %1$s,%2$s 0 %1$s,0 %2$s %1$s,0 0 %1$s)),((0 0 %1$s,0 0 %3$s,%2$s 0 %1$s,0 0 %1$s)),
          ((0 0 %1$s,0 %2$s %1$s,0 0 %3$s,0 0 %1$s)),((%2$s 0 %1$s,0 0 %3$s,0 %2$s %1$s,%2$s 0 %1$s)))',
  8 * s, 4 * s, 12 * s)::gxgeom) AS g
  FROM (VALUES (2::float8 ^ 1020), (2::float8 ^ -1040)) AS v(s);
SELECT s > 1 AS huge, gx_locate(format('POINT Z (%s %s %s)', s, s, 9 * s)::gxgeom, g) AS inside,
       gx_locate(format('POINT Z (%s %s %s)', s, s, 13 * s)::gxgeom, g) AS above,
       gx_locate(format('POINT Z (0 0 %s)', 8 * s)::gxgeom, g) AS vertex
  FROM scaled ORDER BY 1;
-- the segment from (s, s, 7s) to (s, s, 13s) is in the solid from z = 8s to 10s: a third of its length
SELECT s > 1 AS huge, i.from_m / (6 * s) AS from_fraction, i.to_m / (6 * s) AS to_fraction
  FROM scaled, gx_intercepts(format('LINESTRING Z (%s %s %s, %s %s %s)', s, s, 7 * s, s, s, 13 * s)::gxgeom, g) AS i
  ORDER BY 1;

-- a cube with a pyramid on each face, less the tetrahedron of alternate corners: the cavity's faces
-- point into it (before, its depth was taken from a vertex, all of which lie on the outer shell)
CREATE TEMP TABLE inscribed AS SELECT gx_makesolid(
  'TIN Z (((2 2 -1,0 0 0,4 0 0,2 2 -1)),((2 2 -1,4 0 0,4 4 0,2 2 -1)),((2 2 -1,4 4 0,0 4 0,2 2 -1)),((2 2 -1,0 4 0,0 0 0,2 2 -1)),
          ((2 2 5,0 0 4,4 0 4,2 2 5)),((2 2 5,4 0 4,4 4 4,2 2 5)),((2 2 5,4 4 4,0 4 4,2 2 5)),((2 2 5,0 4 4,0 0 4,2 2 5)),
          ((2 -1 2,0 0 0,4 0 0,2 -1 2)),((2 -1 2,4 0 0,4 0 4,2 -1 2)),((2 -1 2,4 0 4,0 0 4,2 -1 2)),((2 -1 2,0 0 4,0 0 0,2 -1 2)),
          ((2 5 2,0 4 0,4 4 0,2 5 2)),((2 5 2,4 4 0,4 4 4,2 5 2)),((2 5 2,4 4 4,0 4 4,2 5 2)),((2 5 2,0 4 4,0 4 0,2 5 2)),
          ((-1 2 2,0 0 0,0 4 0,-1 2 2)),((-1 2 2,0 4 0,0 4 4,-1 2 2)),((-1 2 2,0 4 4,0 0 4,-1 2 2)),((-1 2 2,0 0 4,0 0 0,-1 2 2)),
          ((5 2 2,4 0 0,4 4 0,5 2 2)),((5 2 2,4 4 0,4 4 4,5 2 2)),((5 2 2,4 4 4,4 0 4,5 2 2)),((5 2 2,4 0 4,4 0 0,5 2 2)),
          ((0 0 0,4 4 0,4 0 4,0 0 0)),((0 0 0,4 4 0,0 4 4,0 0 0)),((0 0 0,4 0 4,0 4 4,0 0 0)),((4 4 0,4 0 4,0 4 4,4 4 0)))'::gxgeom) AS g;
SELECT gx_locate('POINT Z (2 2 2)', g) AS in_cavity, gx_locate('POINT Z (3.5 0.5 0.5)', g) AS in_wall FROM inscribed;
-- every face's normal points out of the material: a small step from its centroid along it is outside
SELECT count(*) AS faces, count(*) FILTER (WHERE gx_locate(format('POINT Z (%s %s %s)', cx + nx / n / 16, cy + ny / n / 16,
         cz + nz / n / 16)::gxgeom, g) = 'outside') AS facing_out
FROM inscribed, LATERAL (
  SELECT *, sqrt(nx * nx + ny * ny + nz * nz) AS n FROM (
    SELECT (c[1] + c[4] + c[7]) / 3 AS cx, (c[2] + c[5] + c[8]) / 3 AS cy, (c[3] + c[6] + c[9]) / 3 AS cz,
           (c[5] - c[2]) * (c[9] - c[3]) - (c[6] - c[3]) * (c[8] - c[2]) AS nx,
           (c[6] - c[3]) * (c[7] - c[1]) - (c[4] - c[1]) * (c[9] - c[3]) AS ny,
           (c[4] - c[1]) * (c[8] - c[2]) - (c[5] - c[2]) * (c[7] - c[1]) AS nz
    FROM (SELECT regexp_split_to_array(trim(regexp_replace(t, '[^0-9. ,-]', '', 'g')), '[ ,]+')::float8[] AS c
          FROM unnest(regexp_split_to_array(substr(gx_astext(g), 10), '\)\),\(\(')) AS u(t)) AS s) AS q
  ) AS faces;
-- near the top of the double range: the cube [-1e308, 1e308]^3 is located in, intersected, measured and cut
WITH c AS (SELECT gx_makesolid('POLYHEDRALSURFACE Z (((-1e308 -1e308 -1e308,-1e308 1e308 -1e308,1e308 1e308 -1e308,1e308 -1e308 -1e308,-1e308 -1e308 -1e308)),((-1e308 -1e308 1e308,1e308 -1e308 1e308,1e308 1e308 1e308,-1e308 1e308 1e308,-1e308 -1e308 1e308)),((-1e308 -1e308 -1e308,1e308 -1e308 -1e308,1e308 -1e308 1e308,-1e308 -1e308 1e308,-1e308 -1e308 -1e308)),((-1e308 1e308 -1e308,-1e308 1e308 1e308,1e308 1e308 1e308,1e308 1e308 -1e308,-1e308 1e308 -1e308)),((-1e308 -1e308 -1e308,-1e308 -1e308 1e308,-1e308 1e308 1e308,-1e308 1e308 -1e308,-1e308 -1e308 -1e308)),((1e308 -1e308 -1e308,1e308 1e308 -1e308,1e308 1e308 1e308,1e308 -1e308 1e308,1e308 -1e308 -1e308)))') AS s)
SELECT gx_locate('POINT(0.25 0.25 0.25)', s), gx_locate('POINT(1e308 0 0)', s), gx_locate('POINT(1.5e308 0 0)', s),
  gx_intersects('POINT(0.25 0.25 0.25)', s), gx_distance('POINT(0.25 0.25 0.25)', s),
  (SELECT array_agg(from_m || '..' || to_m) FROM gx_intercepts('LINESTRING(0 0 0, 1 1 1)', s)) FROM c;
WITH c AS (SELECT gx_makesolid('POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))') AS s)
SELECT i.* FROM c, gx_intercepts('LINESTRING(-1e308 0.5 0.5, 1e308 0.5 0.5)', s) AS i;
WITH c AS (SELECT gx_makesolid('POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))') AS s)
SELECT i.* FROM c, gx_intercepts('LINESTRING(0.5 0.5 0.5, 1.7e308 0.5 0.5, -1.7e308 0.5 0.5)', s) AS i;
