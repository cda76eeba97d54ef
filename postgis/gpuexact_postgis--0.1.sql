-- gpuexact_postgis--0.1.sql: the bridge between PostGIS geometry and gxgeom, both ways through EWKB, which
-- keeps the SRID. geometry -> gxgeom reads what gx_geomfromwkb reads: M values are dropped, 2D becomes Z = 0,
-- POLYGON and MULTIPOLYGON become the TIN of their exact triangulation and POLYHEDRALSURFACE faces their
-- triangles; curves and invalid faces are refused with an ERROR. gxgeom -> geometry is exact: the same
-- doubles. The function bodies are bound when the extension is created (SQL-standard bodies), so the casts
-- work whatever the search_path, and the planner inlines them.
\echo Use "CREATE EXTENSION gpuexact_postgis" to load this file. \quit

CREATE FUNCTION gxgeom(geometry) RETURNS gxgeom
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	RETURN gx_geomfromwkb(ST_AsEWKB($1));

CREATE FUNCTION geometry(gxgeom) RETURNS geometry
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	RETURN ST_GeomFromEWKB(gx_asewkb($1));

CREATE CAST (geometry AS gxgeom) WITH FUNCTION gxgeom(geometry) AS ASSIGNMENT;
CREATE CAST (gxgeom AS geometry) WITH FUNCTION geometry(gxgeom) AS ASSIGNMENT;
