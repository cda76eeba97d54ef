-- io: text round trips of every geometry type; EWKT; 2D, M and ZM input; shortest exact doubles.
SELECT 'POINT(1 2)'::gxgeom;
SELECT 'point z (1 2 3)'::gxgeom;
SELECT 'POINT M (1 2 99)'::gxgeom;
SELECT 'POINT ZM (1 2 3 99)'::gxgeom;
SELECT 'SRID=32633;LINESTRING Z (500000.12 7000000.34 -12.5, 500010 7000010 -30)'::gxgeom;
SELECT 'TRIANGLE((0 0 0, 1 0 0, 0 1 0, 0 0 0))'::gxgeom;
SELECT 'TIN Z (((0 0 0,1 0 0,0 1 0,0 0 0)),((1 0 0,1 1 0,0 1 0,1 0 0)))'::gxgeom;
SELECT 'POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 0 0,0 0 0)),((0 0 0,0 0 1,0 1 0,0 0 0)))'::gxgeom;
SELECT 'MULTIPOINT Z ((1 2 3),(4 5 6))'::gxgeom, 'MULTIPOINT(1 2 3, 4 5 6)'::gxgeom;
SELECT 'MULTILINESTRING Z ((0 0 0,1 1 1),(2 2 2,3 3 3,4 4 4))'::gxgeom;
SELECT 'GEOMETRYCOLLECTION Z (POINT Z (1 2 3), LINESTRING Z (0 0 0, 1 1 1), GEOMETRYCOLLECTION(TRIANGLE((0 0 0,1 0 0,0 1 0,0 0 0))))'::gxgeom;
SELECT 'POINT EMPTY'::gxgeom, 'LINESTRING Z EMPTY'::gxgeom, 'TIN EMPTY'::gxgeom, 'GEOMETRYCOLLECTION EMPTY'::gxgeom;
SELECT 'GEOMETRYCOLLECTION(POINT EMPTY, LINESTRING EMPTY)'::gxgeom;
-- shortest decimal that reads back to the same double
SELECT 'POINT(0.1 0.30000000000000004 1e21)'::gxgeom, 'POINT(-0 5e-324 1.7976931348623157e308)'::gxgeom;
-- text round trip is bit-identical (compared through the binary form)
WITH g(t) AS (VALUES ('POINT Z (0.1 0.2 0.3)'), ('LINESTRING(500000.123456789 7000000.987654321 1.1e-17, 1 2 3)'),
	('TIN Z (((1e-300 2e300 3,4 5 6,7 8 9,1e-300 2e300 3)))'), ('SRID=4326;POINT(1 2 3)'))
SELECT t, gx_asewkb(t::gxgeom) = gx_asewkb(t::gxgeom::text::gxgeom) AS same_bits FROM g;
-- a table round trip
CREATE TEMP TABLE shapes (id int, g gxgeom);
INSERT INTO shapes VALUES (1, 'SRID=32633;POINT(1 2 3)'), (2, 'LINESTRING(0 0 0, 1 1 1)'), (3, NULL);
SELECT id, g, gx_astext(g), gx_asewkt(g) FROM shapes ORDER BY id;
-- binary COPY round trip (send/recv)
SELECT current_setting('data_directory') || '/gpuexact_regress_shapes.bin' AS binfile \gset
COPY shapes TO :'binfile' WITH (FORMAT binary);
CREATE TEMP TABLE shapes2 (id int, g gxgeom);
COPY shapes2 FROM :'binfile' WITH (FORMAT binary);
SELECT a.id, a.g::text = b.g::text AS same FROM shapes a JOIN shapes2 b USING (id) ORDER BY 1;
-- large values are TOASTed and read back intact
CREATE TEMP TABLE big (g gxgeom);
INSERT INTO big SELECT ('LINESTRING Z (' || string_agg(format('%s %s %s', i, i * 0.5, i * 0.25), ',') || ')')::gxgeom
FROM generate_series(1, 20000) i;
SELECT gx_npoints(g), pg_column_size(g) < 20000 * 24 + 100 AS stored_compact, gx_xmax(g), gx_zmax(g) FROM big;
-- STL import (ASCII here; binary STL is read too)
SELECT gx_geomfromstl(convert_to('solid t
  facet normal 0 0 1
    outer loop
      vertex 0 0 0
      vertex 1 0 0
      vertex 0 1 0
    endloop
  endfacet
endsolid t', 'UTF8'), 32633);
