-- errors: every kind of bad input is a clear ERROR with a SQLSTATE, never a crash or a different geometry.
\set VERBOSITY sqlstate
\set SHOW_CONTEXT never
-- (the SQLSTATE alone first, then the messages)
SELECT 'POINT(1 2'::gxgeom;
SELECT gx_geomfromwkb('\x0101'::bytea);
\set VERBOSITY default
-- malformed WKT
SELECT 'POINT(1 2'::gxgeom;
SELECT 'POINT(1 abc 3)'::gxgeom;
SELECT 'POINT(1 2 3) trailing'::gxgeom;
SELECT 'CIRCLE(1 2 3)'::gxgeom;
SELECT 'POLYGON((0 0 0, 1 0 0, 0 1 0, 1 1 0, 0 0 0))'::gxgeom;
SELECT ''::gxgeom;
SELECT 'LINESTRING(1 2 3)'::gxgeom;
SELECT 'LINESTRING(1 2 3, 4 5)'::gxgeom;
SELECT 'POINT Z (1 2)'::gxgeom;
SELECT 'SRID=abc;POINT(1 2 3)'::gxgeom;
SELECT 'SRID=1000000;POINT(1 2 3)'::gxgeom;
-- non-finite coordinates, and decimals out of the float8 range
SELECT 'POINT(nan 2 3)'::gxgeom;
SELECT 'POINT(1 inf 3)'::gxgeom;
SELECT 'POINT(1 2 1e999)'::gxgeom;
SELECT 'POINT(-1e309 2 3)'::gxgeom;
SELECT gx_geomfromobj(E'v 0 0 0\nv 1 0 0\nv 0 1e309 0\nf 1 2 3\n');
-- rings
SELECT 'TRIANGLE((0 0 0, 1 0 0, 0 1 0, 0 0 1))'::gxgeom;
SELECT 'TRIANGLE((0 0 0, 1 0 0, 0 1 0, 1 1 0, 0 0 0))'::gxgeom;
SELECT 'TIN(((0 0 0, 1 0 0, 0 0 0)))'::gxgeom;
SELECT 'POLYHEDRALSURFACE(((0 0 0, 1 0 0, 0 1 0, 0 0 0)), ((0 0 0, 1 0 0, 1 1 0, 0 1 1, 0 0 0)))'::gxgeom;
SELECT 'POLYHEDRALSURFACE(((0 0 0, 1 0 0, 0 1 0, 0 0 0), (0 0 0, 1 0 0, 0 1 0, 0 0 0)))'::gxgeom;
-- nesting too deep
SELECT (repeat('GEOMETRYCOLLECTION(', 40) || 'POINT(1 2 3)' || repeat(')', 40))::gxgeom;
-- malformed WKB: truncated, unknown type, absurd count, bad byte order, trailing bytes, NaN, hex
SELECT gx_geomfromwkb('\x0101'::bytea);
SELECT gx_geomfromwkb('\x01e9030000000000000000f03f0000000000000040'::bytea);
SELECT gx_geomfromwkb('\x0163000000'::bytea);
SELECT gx_geomfromwkb('\x01ea030000ffffffff'::bytea);
SELECT gx_geomfromwkb('\x07e9030000000000000000f03f00000000000000400000000000000840'::bytea);
SELECT gx_geomfromwkb('\x01e9030000000000000000f03f0000000000000040000000000000084000'::bytea);
SELECT gx_geomfromwkb('\x01e9030000000000000000f87f00000000000000400000000000000840'::bytea);
SELECT gx_geomfromwkb('\x0103000000010000000400000000000000000000000000000000000000'::bytea);
SELECT '01010000A0E6100000000000000000F03F000000000000004000000000000008'::gxgeom;
SELECT gx_geomfromwkb('\x01e9030000000000000000f03f00000000000000400000000000000840'::bytea, -5);
-- malformed STL (ASCII facet with 4 vertices; binary truncated, or longer than its facet count; empty)
SELECT gx_geomfromstl(convert_to(E'solid t\nfacet normal 0 0 1 outer loop vertex 0 0 0 vertex 1 0 0 vertex 0 1 0 vertex 1 1 0 endloop endfacet\nendsolid t', 'UTF8'));
SELECT gx_geomfromstl(decode(repeat('00', 80) || '05000000', 'hex'));
SELECT gx_geomfromstl(decode(repeat('00', 80) || '00000000' || repeat('00', 49), 'hex'));
SELECT gx_geomfromstl(''::bytea);
-- binary input through recv: a COPY with a broken value
SELECT current_setting('data_directory') || '/gpuexact_regress_bad.bin' AS binfile \gset
COPY (SELECT '\x01ff'::bytea) TO :'binfile' WITH (FORMAT binary);
CREATE TEMP TABLE t (g gxgeom);
COPY t FROM :'binfile' WITH (FORMAT binary);
SELECT count(*) FROM t;
-- numbers below the smallest double are refused, as PostgreSQL's float input does (a subnormal is kept)
SELECT gx_geomfromobj('v 1e-400 0 0
v 1 0 0
v 0 1 0
f 1 2 3');
SELECT 'POINT(1e-400 0 0)'::gxgeom;
-- curves are refused by name, in WKT (glued dimensions too) and WKB
SELECT 'CIRCULARSTRING(0 0,1 1,2 0)'::gxgeom;
SELECT 'GEOMETRYCOLLECTION(POINT(0 0),COMPOUNDCURVEZ((0 0 0,1 1 1)))'::gxgeom;
SELECT gx_geomfromwkb('\x0108000000030000000000000000000000000000000000000000000000000000000000f03f000000000000f03f00000000000000400000000000000000'::bytea);
SELECT gx_geomfromwkb('\x01f003000000000000'::bytea);
SELECT 'POINT(4.9e-324 0 0)'::gxgeom;
