-- gpuexact--0.1.sql: the gxgeom type, its I/O and accessors, and the exact predicate gx_intersects.
\echo Use "CREATE EXTENSION gpuexact" to load this file. \quit

CREATE TYPE gxgeom;

CREATE FUNCTION gxgeom_in(cstring) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gxgeom_out(gxgeom) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gxgeom_recv(internal) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gxgeom_send(gxgeom) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- ANALYZE: the standard statistics plus box statistics for the estimates of gx_intersects and &&&
CREATE FUNCTION gxgeom_analyze(internal) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT;

CREATE TYPE gxgeom (
	INPUT = gxgeom_in,
	OUTPUT = gxgeom_out,
	RECEIVE = gxgeom_recv,
	SEND = gxgeom_send,
	ANALYZE = gxgeom_analyze,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = extended,
	-- a quoted literal given to a function that also takes a gxbox3d there (gx_contains) is a gxgeom
	PREFERRED = true
);
COMMENT ON TYPE gxgeom IS '3D geometry (points, lines, triangles) with float8 coordinates and an SRID';

-- Conversions
CREATE FUNCTION gx_astext(gxgeom) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_asewkt(gxgeom) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_asbinary(gxgeom) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_asewkb(gxgeom) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_geomfromwkb(bytea) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_geomfromwkb(bytea, integer) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_geomfromstl(bytea) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_geomfromstl(bytea, integer) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_geomfromobj(text) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_geomfromobj(text, integer) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_geomfromdxf(text) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_geomfromdxf(text, integer) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_geomfromtext(text) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_geomfromtext(text, integer) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Files of several named objects, one row per object with its name and properties (NULL data: no row;
-- file, when given, names the file in errors)
CREATE FUNCTION gx_read_gocad(data text, srid integer DEFAULT 0, file text DEFAULT NULL)
	RETURNS TABLE (name text, geom gxgeom, properties jsonb)
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION gx_read_gocad(text, integer, text) IS
	'the TSurf, PLine, VSet and Well objects of a GOCAD ASCII file, one row each';
CREATE FUNCTION gx_read_surpac(str text, srid integer DEFAULT 0, file text DEFAULT NULL)
	RETURNS TABLE (name text, geom gxgeom, properties jsonb)
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION gx_read_surpac(text, integer, text) IS
	'the segments of a Surpac string file (.str), one row each';
CREATE FUNCTION gx_read_surpac_dtm(dtm text, str text, srid integer DEFAULT 0, file text DEFAULT NULL)
	RETURNS TABLE (name text, geom gxgeom, properties jsonb)
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 1;
COMMENT ON FUNCTION gx_read_surpac_dtm(text, text, integer, text) IS
	'the triangulations of a Surpac DTM (.dtm) over the points of its string file (.str), one row each';

-- Accessors
CREATE FUNCTION gx_srid(gxgeom) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_setsrid(gxgeom, integer) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_geometrytype(gxgeom) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_isempty(gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_npoints(gxgeom) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_nsegments(gxgeom) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_ntriangles(gxgeom) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION gx_extent_bound(gxgeom, integer) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_xmin(gxgeom) RETURNS float8 AS 'SELECT gx_extent_bound($1, 0)'
	LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_ymin(gxgeom) RETURNS float8 AS 'SELECT gx_extent_bound($1, 1)'
	LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_zmin(gxgeom) RETURNS float8 AS 'SELECT gx_extent_bound($1, 2)'
	LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_xmax(gxgeom) RETURNS float8 AS 'SELECT gx_extent_bound($1, 3)'
	LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_ymax(gxgeom) RETURNS float8 AS 'SELECT gx_extent_bound($1, 4)'
	LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_zmax(gxgeom) RETURNS float8 AS 'SELECT gx_extent_bound($1, 5)'
	LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE;

-- Equality: same SRID, same structure, same coordinates bit for bit (the serialized bytes are identical;
-- -0.0 <> 0.0). The order is arbitrary (SRID, then bytes) but stable; it serves btree indexes, sorting,
-- DISTINCT, GROUP BY, UNION and merge joins. The hash serves hash joins, hash aggregation and partitioning.
CREATE FUNCTION gxgeom_eq(gxgeom, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION gxgeom_ne(gxgeom, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION gxgeom_lt(gxgeom, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION gxgeom_le(gxgeom, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION gxgeom_gt(gxgeom, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION gxgeom_ge(gxgeom, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION gxgeom_cmp(gxgeom, gxgeom) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION gxgeom_hash(gxgeom) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION gxgeom_hash_extended(gxgeom, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = gxgeom, RIGHTARG = gxgeom, FUNCTION = gxgeom_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = gxgeom, RIGHTARG = gxgeom, FUNCTION = gxgeom_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = gxgeom, RIGHTARG = gxgeom, FUNCTION = gxgeom_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = gxgeom, RIGHTARG = gxgeom, FUNCTION = gxgeom_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = gxgeom, RIGHTARG = gxgeom, FUNCTION = gxgeom_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = gxgeom, RIGHTARG = gxgeom, FUNCTION = gxgeom_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- Equal values are identical images, so btree may deduplicate (btequalimage).
CREATE OPERATOR CLASS btree_gxgeom_ops
	DEFAULT FOR TYPE gxgeom USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 gxgeom_cmp(gxgeom, gxgeom),
	FUNCTION 4 btequalimage(oid);

CREATE OPERATOR CLASS hash_gxgeom_ops
	DEFAULT FOR TYPE gxgeom USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 gxgeom_hash(gxgeom),
	FUNCTION 2 gxgeom_hash_extended(gxgeom, bigint);

-- The exact predicate
CREATE FUNCTION gx_intersects(gxgeom, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_intersects_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION gx_intersects(gxgeom, gxgeom) IS
	'true iff the two closed point sets share a point, decided exactly for the stored doubles';

-- Batches: every intersecting (a_id, b_id) of two queries yielding (id, geom), in one run of the engine
CREATE FUNCTION gx_intersecting_pairs(a_query text, b_query text, OUT a_id bigint, OUT b_id bigint)
	RETURNS SETOF record AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION gx_intersecting_pairs(text, text) IS
	'intersecting (a_id, b_id) pairs of two queries returning (id, geom gxgeom), computed as one batch (GPU or CPU)';

-- The predicate ladder at work in this backend
CREATE FUNCTION gx_stats(OUT counter text, OUT value bigint) RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION gx_stats_reset() RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

-- Index support: 3D box type, &&& and the GiST operator class
CREATE TYPE gxbox3d;

CREATE FUNCTION gxbox3d_in(cstring) RETURNS gxbox3d
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gxbox3d_out(gxbox3d) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gxbox3d_recv(internal) RETURNS gxbox3d
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gxbox3d_send(gxbox3d) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE gxbox3d (
	INPUT = gxbox3d_in,
	OUTPUT = gxbox3d_out,
	RECEIVE = gxbox3d_recv,
	SEND = gxbox3d_send,
	INTERNALLENGTH = 48,
	ALIGNMENT = double,
	STORAGE = plain
);
COMMENT ON TYPE gxbox3d IS 'closed 3D box, BOX3D(xmin ymin zmin,xmax ymax zmax): the bounding box of a gxgeom';

CREATE FUNCTION gx_box3d(gxgeom) RETURNS gxbox3d
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_box3d(gxgeom) IS 'the 3D bounding box of the geometry; NULL for EMPTY';
CREATE CAST (gxgeom AS gxbox3d) WITH FUNCTION gx_box3d(gxgeom);

-- Selectivity estimators: the chance that boxes overlap, from the box statistics of ANALYZE
CREATE FUNCTION gx_box3d_sel(internal, oid, internal, integer) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_joinsel(internal, oid, internal, smallint, internal) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- Box operators over gxgeom (its cached box) and gxbox3d in any mix; EMPTY is true of none of them.
-- &&& overlap (closed: touching boxes overlap), ~ contains, @ contained by.
CREATE FUNCTION gx_box3d_overlaps(gxgeom, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_overlaps_gg' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_overlaps(gxgeom, gxbox3d) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_overlaps_gb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_overlaps(gxbox3d, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_overlaps_bg' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_overlaps(gxbox3d, gxbox3d) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_overlaps_bb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_contains(gxgeom, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_contains_gg' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_contains(gxgeom, gxbox3d) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_contains_gb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_contains(gxbox3d, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_contains_bg' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_contains(gxbox3d, gxbox3d) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_contains_bb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_within(gxgeom, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_within_gg' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_within(gxgeom, gxbox3d) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_within_gb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_within(gxbox3d, gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_within_bg' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_box3d_within(gxbox3d, gxbox3d) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_box3d_within_bb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR &&& (LEFTARG = gxgeom, RIGHTARG = gxgeom, FUNCTION = gx_box3d_overlaps,
	COMMUTATOR = &&&, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);
CREATE OPERATOR &&& (LEFTARG = gxgeom, RIGHTARG = gxbox3d, FUNCTION = gx_box3d_overlaps,
	COMMUTATOR = &&&, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);
CREATE OPERATOR &&& (LEFTARG = gxbox3d, RIGHTARG = gxgeom, FUNCTION = gx_box3d_overlaps,
	COMMUTATOR = &&&, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);
CREATE OPERATOR &&& (LEFTARG = gxbox3d, RIGHTARG = gxbox3d, FUNCTION = gx_box3d_overlaps,
	COMMUTATOR = &&&, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);
CREATE OPERATOR ~ (LEFTARG = gxgeom, RIGHTARG = gxgeom, FUNCTION = gx_box3d_contains,
	COMMUTATOR = @, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);
CREATE OPERATOR ~ (LEFTARG = gxgeom, RIGHTARG = gxbox3d, FUNCTION = gx_box3d_contains,
	COMMUTATOR = @, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);
CREATE OPERATOR ~ (LEFTARG = gxbox3d, RIGHTARG = gxgeom, FUNCTION = gx_box3d_contains,
	COMMUTATOR = @, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);
CREATE OPERATOR ~ (LEFTARG = gxbox3d, RIGHTARG = gxbox3d, FUNCTION = gx_box3d_contains,
	COMMUTATOR = @, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);
CREATE OPERATOR @ (LEFTARG = gxgeom, RIGHTARG = gxgeom, FUNCTION = gx_box3d_within,
	COMMUTATOR = ~, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);
CREATE OPERATOR @ (LEFTARG = gxgeom, RIGHTARG = gxbox3d, FUNCTION = gx_box3d_within,
	COMMUTATOR = ~, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);
CREATE OPERATOR @ (LEFTARG = gxbox3d, RIGHTARG = gxgeom, FUNCTION = gx_box3d_within,
	COMMUTATOR = ~, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);
CREATE OPERATOR @ (LEFTARG = gxbox3d, RIGHTARG = gxbox3d, FUNCTION = gx_box3d_within,
	COMMUTATOR = ~, RESTRICT = gx_box3d_sel, JOIN = gx_box3d_joinsel);

-- GiST: a gxgeom column indexed by boxes (leaf keys exact, internal keys unions)
CREATE FUNCTION gx_gist_consistent(internal, gxgeom, smallint, oid, internal) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_gist_union(internal, internal) RETURNS gxbox3d
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_gist_compress(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_gist_penalty(internal, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_gist_picksplit(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_gist_same(gxbox3d, gxbox3d, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS gist_gxgeom_ops
	DEFAULT FOR TYPE gxgeom USING gist AS
	STORAGE gxbox3d,
	OPERATOR 3 &&& (gxgeom, gxgeom),
	OPERATOR 3 &&& (gxgeom, gxbox3d),
	OPERATOR 7 ~ (gxgeom, gxgeom),
	OPERATOR 7 ~ (gxgeom, gxbox3d),
	OPERATOR 8 @ (gxgeom, gxgeom),
	OPERATOR 8 @ (gxgeom, gxbox3d),
	FUNCTION 1 gx_gist_consistent(internal, gxgeom, smallint, oid, internal),
	FUNCTION 2 gx_gist_union(internal, internal),
	FUNCTION 3 gx_gist_compress(internal),
	FUNCTION 5 gx_gist_penalty(internal, internal, internal),
	FUNCTION 6 gx_gist_picksplit(internal, internal),
	FUNCTION 7 gx_gist_same(gxbox3d, gxbox3d, internal);

-- gx_intersects(a, b) on an indexed column searches the index with the lossy condition a &&& b.
CREATE FUNCTION gx_intersects_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
ALTER FUNCTION gx_intersects(gxgeom, gxgeom) SUPPORT gx_intersects_support;

-- The geometry cache (sides of joins made of TOASTed values, kept flattened between queries)
CREATE FUNCTION gx_cache_stats(OUT scope text, OUT entries bigint, OUT bytes bigint, OUT hits bigint, OUT misses bigint)
	RETURNS SETOF record AS 'MODULE_PATHNAME', 'gx_cache_stats_sql' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION gx_cache_reset() RETURNS void
	AS 'MODULE_PATHNAME', 'gx_cache_reset_sql' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
-- emptying the caches slows every session of the cluster: for the superuser, or roles granted it
REVOKE EXECUTE ON FUNCTION gx_cache_reset() FROM PUBLIC;

-- Solids: closed surfaces taken as the volume they bound. gx_intersects, the batched join, the SRFs and
-- the index treat a solid as its volume: a point or a line inside it intersects it.
CREATE FUNCTION gx_makesolid(gxgeom) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10000;
COMMENT ON FUNCTION gx_makesolid(gxgeom) IS
	'the solid bounded by a closed surface of triangles, checked exactly (closed, manifold, not self-intersecting) and oriented outward';
CREATE FUNCTION gx_makesolid_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
ALTER FUNCTION gx_makesolid(gxgeom) SUPPORT gx_makesolid_support;
CREATE FUNCTION gx_makesolids(query text, OUT id bigint, OUT solid gxgeom)
	RETURNS SETOF record AS 'MODULE_PATHNAME', 'gx_makesolids_sql' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION gx_makesolids(text) IS
	'gx_makesolid of every row (id, geom) of a query, made on parallel threads and compressed there: for CREATE TABLE ... AS and UPDATE ... FROM';
CREATE FUNCTION gx_issolid(gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_locate(point gxgeom, solid gxgeom) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION gx_locate(gxgeom, gxgeom) IS
	'''inside'', ''boundary'' or ''outside'': where a point lies with respect to a solid, exactly';
CREATE FUNCTION gx_intercepts(line gxgeom, solid gxgeom, OUT from_m float8, OUT to_m float8, OUT piece gxgeom)
	RETURNS SETOF record AS 'MODULE_PATHNAME', 'gx_intercepts_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	COST 1000 ROWS 2;
COMMENT ON FUNCTION gx_intercepts(gxgeom, gxgeom) IS
	'the maximal intervals (metres from the first vertex) of a LINESTRING inside or on a solid, in order, with each piece of the line';
CREATE FUNCTION gx_intercepts_pairs(lines_query text, solids_query text,
	OUT a_id bigint, OUT b_id bigint, OUT from_m float8, OUT to_m float8)
	RETURNS SETOF record AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION gx_intercepts_pairs(text, text) IS
	'the intercepts of every line of lines_query (id, LINESTRING) with every solid of solids_query (id, solid), as one batch';

-- Tiles: co-locating geometries on a distributed database (Citus). A geometry is stored in every tile of a
-- fixed 3D grid that its box (expanded by d/2) covers; a pair is reported by its owner tile only.
CREATE FUNCTION gx_tiles(geom gxgeom, tile_size float8, d float8 DEFAULT 0) RETURNS SETOF bigint
	AS 'MODULE_PATHNAME', 'gx_tiles_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 8;
COMMENT ON FUNCTION gx_tiles(gxgeom, float8, float8) IS
	'ids of the tiles [k*tile_size, (k+1)*tile_size]^3 covered by the box of geom expanded by d/2, decided exactly';
CREATE FUNCTION gx_owner_tile(a gxgeom, b gxgeom, tile_size float8, d float8 DEFAULT 0) RETURNS bigint
	AS 'MODULE_PATHNAME', 'gx_owner_tile_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_owner_tile(gxgeom, gxgeom, float8, float8) IS
	'the tile (one of both geometries'' gx_tiles) that reports the pair: the lowest one holding the minimum corner of the overlap of their boxes expanded by d/2; NULL when those boxes do not overlap';

-- Drill holes: lengths along lines, the point at a length, and desurvey by minimum curvature
CREATE FUNCTION gx_length(gxgeom) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_length(gxgeom) IS '3D length of the linestrings of a geometry (compensated sum)';
CREATE FUNCTION gx_area(gxgeom) RETURNS float8
	AS 'MODULE_PATHNAME', 'gx_area_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_area(gxgeom) IS '3D area of the triangles of a geometry (double precision, compensated sum; error bound in the reference)';
CREATE FUNCTION gx_volume(solid gxgeom) RETURNS float8
	AS 'MODULE_PATHNAME', 'gx_volume_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_volume(gxgeom) IS 'the exact volume of a solid, rounded once to the nearest float8';
CREATE FUNCTION gx_volume(solid gxgeom, box gxbox3d) RETURNS float8
	AS 'MODULE_PATHNAME', 'gx_volume_box_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_volume(gxgeom, gxbox3d) IS 'the exact volume of the part of a solid inside a box, rounded once to the nearest float8';
CREATE FUNCTION gx_intersection_volume(a gxgeom, b gxgeom) RETURNS float8
	AS 'MODULE_PATHNAME', 'gx_intersection_volume_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_intersection_volume(gxgeom, gxgeom) IS 'the exact volume of the common part of two solids, rounded once to the nearest float8';
CREATE FUNCTION gx_intersection(a gxgeom, b gxgeom) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_intersection_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_intersection(gxgeom, gxgeom) IS 'the common part of two solids, as a solid (exact pieces, new vertices rounded once, checked valid); of a surface and a solid, the part of the surface in the solid';
CREATE FUNCTION gx_intersection(solid gxgeom, box gxbox3d) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_intersection_box_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_intersection(gxgeom, gxbox3d) IS 'the part of a solid inside a box, as a solid';
CREATE FUNCTION gx_union(a gxgeom, b gxgeom) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_union_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_union(gxgeom, gxgeom) IS 'the union of two solids, as a solid (exact pieces, new vertices rounded once, checked valid)';
CREATE FUNCTION gx_difference(a gxgeom, b gxgeom) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_difference_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_difference(gxgeom, gxgeom) IS 'the part of solid a outside solid b, as a solid (exact pieces, new vertices rounded once, checked valid)';
CREATE FUNCTION gx_split(solid gxgeom, surface gxgeom, OUT side text, OUT geom gxgeom)
	RETURNS SETOF record AS 'MODULE_PATHNAME', 'gx_split_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	ROWS 2;
COMMENT ON FUNCTION gx_split(gxgeom, gxgeom) IS 'the parts of a solid on either side of an open surface that cuts it through: a row per side (positive: where the surface''s normals point), each a solid (exact pieces, new vertices rounded once, checked valid)';
CREATE FUNCTION gx_overlap_pairs(a_query text, b_query text, OUT a_id bigint, OUT b_id bigint, OUT volume float8)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'gx_overlap_pairs_sql' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION gx_overlap_pairs(text, text) IS
	'(a_id, b_id, volume) for every pair of solids of a_query and b_query (id, gxgeom) sharing a positive volume: the exact common volume, rounded once';
CREATE FUNCTION gx_overlap_pairs(a_query text, b_query text, id_type anyelement,
	OUT a_id anyelement, OUT b_id anyelement, OUT volume float8)
	RETURNS SETOF record AS 'MODULE_PATHNAME', 'gx_overlap_pairs_sql' LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION gx_overlap_pairs(text, text, anyelement) IS
	'gx_overlap_pairs with ids of the type of id_type (NULL::text, ...), converted through their text form';
CREATE FUNCTION gx_intersection_pairs(a_query text, b_query text, OUT a_id bigint, OUT b_id bigint, OUT geom gxgeom)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'gx_intersection_pairs_sql' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION gx_intersection_pairs(text, text) IS
	'(a_id, b_id, geom) for every pair of solids of a_query and b_query (id, gxgeom) sharing a positive volume: their common part as a solid (gx_intersection)';
CREATE FUNCTION gx_intersection_pairs(a_query text, b_query text, id_type anyelement,
	OUT a_id anyelement, OUT b_id anyelement, OUT geom gxgeom)
	RETURNS SETOF record AS 'MODULE_PATHNAME', 'gx_intersection_pairs_sql' LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION gx_intersection_pairs(text, text, anyelement) IS
	'gx_intersection_pairs with ids of the type of id_type (NULL::text, ...), converted through their text form';
CREATE FUNCTION gx_volume_pairs(boxes_query text, solids_query text, OUT a_id bigint, OUT b_id bigint, OUT volume float8)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'gx_volume_pairs_sql' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION gx_volume_pairs(text, text) IS
	'(a_id, b_id, volume) for every box of boxes_query (id, gxbox3d) sharing a positive volume with a solid of solids_query (id, gxgeom): block proportions, exact then rounded once';
CREATE FUNCTION gx_extent_add(gxbox3d, gxgeom) RETURNS gxbox3d
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gx_extent_combine(gxbox3d, gxbox3d) RETURNS gxbox3d
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE gx_extent(gxgeom) (
	SFUNC = gx_extent_add,
	STYPE = gxbox3d,
	COMBINEFUNC = gx_extent_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE gx_extent(gxgeom) IS 'the 3D extent (gxbox3d) of a set of geometries, as ST_3DExtent; NULL when none has a box';
CREATE FUNCTION gx_locate_along(line gxgeom, m float8) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_locate_along(gxgeom, float8) IS 'the POINT at 3D length m along a LINESTRING, from its first vertex';
CREATE FUNCTION gx_line_substring(line gxgeom, from_m float8, to_m float8) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_line_substring(gxgeom, float8, float8) IS
	'the piece of a LINESTRING between two 3D lengths from its first vertex (a POINT when they are equal); cut points are rounded';
-- not STRICT: a NULL step_m means no densification; any other NULL argument gives NULL
CREATE FUNCTION gx_desurvey(collar gxgeom, depth float8[], azimuth float8[], dip float8[],
	step_m float8 DEFAULT NULL, dip_positive_down boolean DEFAULT false) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_desurvey_sql' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION gx_desurvey(gxgeom, float8[], float8[], float8[], float8, boolean) IS
	'drill-hole trace (LINESTRING Z) from a collar and surveys by minimum curvature; dip negative downward unless dip_positive_down';

-- Distance (exact): gx_dwithin decides the exact distance against d; gx_distance rounds the exact distance
-- once to the nearest double; gx_shortestline gives the two closest points, each coordinate rounded once.
-- gx_dwithin on an indexed column searches the index with the lossy condition a &&& gx_expand(b, d).
CREATE FUNCTION gx_expand(gxgeom, float8) RETURNS gxbox3d
	AS 'MODULE_PATHNAME', 'gx_expand_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_expand(gxgeom, float8) IS
	'the 3D bounding box grown by the distance on every side, rounded outward; EMPTY for EMPTY or a negative distance';
CREATE FUNCTION gx_dwithin_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_dwithin(gxgeom, gxgeom, float8) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_dwithin_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000
	SUPPORT gx_dwithin_support;
COMMENT ON FUNCTION gx_dwithin(gxgeom, gxgeom, float8) IS
	'true if the 3D distance between the geometries is at most the given distance, decided exactly; false for EMPTY';
CREATE FUNCTION gx_distance(gxgeom, gxgeom) RETURNS float8
	AS 'MODULE_PATHNAME', 'gx_distance_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION gx_distance(gxgeom, gxgeom) IS
	'the 3D distance between the geometries: the double nearest to the exact distance; NULL for EMPTY';
-- Nearest neighbours: ORDER BY geom <-> q LIMIT k searches a GiST index from the nearest boxes out, each
-- row rechecked with the exact distance, so the order is that of sorting by gx_distance.
CREATE OPERATOR <-> (LEFTARG = gxgeom, RIGHTARG = gxgeom, FUNCTION = gx_distance, COMMUTATOR = <->);
CREATE FUNCTION gx_gist_distance(internal, gxgeom, smallint, oid, internal) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
ALTER OPERATOR FAMILY gist_gxgeom_ops USING gist ADD
	OPERATOR 13 <-> (gxgeom, gxgeom) FOR ORDER BY pg_catalog.float_ops,
	FUNCTION 8 (gxgeom, gxgeom) gx_gist_distance(internal, gxgeom, smallint, oid, internal);
CREATE FUNCTION gx_shortestline(gxgeom, gxgeom) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_shortestline_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION gx_shortestline(gxgeom, gxgeom) IS
	'the 3D shortest line from the first geometry to the second, its coordinates rounded to nearest; NULL for EMPTY';
-- Batches within a distance: every (a_id, b_id) of two queries yielding (id, geom) with gx_dwithin(a, b, d),
-- in one run of the CPU engine (boxes of a grown by d, grid culling, exact element tests)
CREATE FUNCTION gx_dwithin_pairs(a_query text, b_query text, d float8, OUT a_id bigint, OUT b_id bigint)
	RETURNS SETOF record AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION gx_dwithin_pairs(text, text, float8) IS
	'(a_id, b_id) pairs of two queries returning (id, geom gxgeom) within the distance d, computed as one batch (CPU)';

-- Containment: b lies in the closed point set of a (a solid's volume), exactly. The batched join finds
-- the intersecting pairs and decides each; an index on either side is searched with a ~ b or b @ a.
CREATE FUNCTION gx_contains(a gxgeom, b gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_contains_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION gx_contains(gxgeom, gxgeom) IS
	'true iff b lies in the closed point set of a (a solid''s volume), decided exactly';
CREATE FUNCTION gx_within(b gxgeom, a gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_within_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION gx_within(gxgeom, gxgeom) IS 'gx_contains(a, b)';
CREATE FUNCTION gx_contains_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_within_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
ALTER FUNCTION gx_contains(gxgeom, gxgeom) SUPPORT gx_contains_support;
ALTER FUNCTION gx_within(gxgeom, gxgeom) SUPPORT gx_within_support;
-- a block (box) wholly in a solid: exact volumes compared
CREATE FUNCTION gx_contains(a gxgeom, block gxbox3d) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_contains_box_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION gx_contains(gxgeom, gxbox3d) IS
	'true iff the whole box lies in the solid a, decided exactly';
CREATE FUNCTION gx_within(block gxbox3d, a gxgeom) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_within_box_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION gx_within(gxbox3d, gxgeom) IS 'gx_contains(a, block)';

-- Writers: GeoJSON, STL, OBJ, GOCAD, Surpac and binary glTF (one scene of many rows)
CREATE FUNCTION gx_asgeojson(g gxgeom) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_asgeojson(g gxgeom, digits integer) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_asgeojson(gxgeom) IS 'RFC 7946 GeoJSON with Z, numbers that read back to the same doubles';
COMMENT ON FUNCTION gx_asgeojson(gxgeom, integer) IS 'RFC 7946 GeoJSON with Z, at most digits decimals';
CREATE FUNCTION gx_asstl(g gxgeom) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_asstl(gxgeom) IS 'ASCII STL of the triangles, numbers that read back to the same doubles';
CREATE FUNCTION gx_asstl_binary(g gxgeom) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_asstl_binary(gxgeom) IS 'binary STL of the triangles, numbers rounded to float32';
CREATE FUNCTION gx_asobj(g gxgeom) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_asobj(gxgeom) IS 'Wavefront OBJ, numbers that read back to the same doubles';
CREATE FUNCTION gx_asgocad(g gxgeom, name text DEFAULT 'gpuexact') RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_asgocad(gxgeom, text) IS
	'GOCAD ASCII: a TSurf of the triangles, a PLine of the lines, a VSet of the points, numbers that read back to the same doubles';
CREATE FUNCTION gx_assurpac(g gxgeom, string integer DEFAULT 1) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_assurpac(gxgeom, integer) IS
	'a Surpac string file of the lines and points, numbers that read back to the same doubles';
CREATE FUNCTION gx_assurpac_dtm(g gxgeom, name text DEFAULT 'surface', OUT str text, OUT dtm text) RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_assurpac_dtm(gxgeom, text) IS
	'a Surpac DTM of the triangles (dtm) and its string file (str, to be saved as name.str)';
CREATE FUNCTION gx_asglb_add(internal, gxgeom) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gx_asglb_add(internal, gxgeom, float8[]) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gx_asglb_final(internal) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gx_asglb(gxgeom) (SFUNC = gx_asglb_add, STYPE = internal, FINALFUNC = gx_asglb_final);
CREATE AGGREGATE gx_asglb(gxgeom, float8[]) (SFUNC = gx_asglb_add, STYPE = internal, FINALFUNC = gx_asglb_final);
COMMENT ON AGGREGATE gx_asglb(gxgeom) IS 'one binary glTF 2.0 scene (.glb) of the rows'' geometries';
COMMENT ON AGGREGATE gx_asglb(gxgeom, float8[]) IS 'one binary glTF 2.0 scene (.glb) of the rows'' geometries, each with its RGB or RGBA colour';
CREATE FUNCTION gx_ashtml_add(internal, gxgeom) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gx_ashtml_add(internal, gxgeom, float8[]) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gx_ashtml_add(internal, gxgeom, float8[], text) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION gx_ashtml_final(internal) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE gx_ashtml(gxgeom) (SFUNC = gx_ashtml_add, STYPE = internal, FINALFUNC = gx_ashtml_final);
CREATE AGGREGATE gx_ashtml(gxgeom, float8[]) (SFUNC = gx_ashtml_add, STYPE = internal, FINALFUNC = gx_ashtml_final);
CREATE AGGREGATE gx_ashtml(gxgeom, float8[], text) (SFUNC = gx_ashtml_add, STYPE = internal, FINALFUNC = gx_ashtml_final);
COMMENT ON AGGREGATE gx_ashtml(gxgeom) IS 'a self-contained HTML page that shows the rows'' geometries in 3D, offline';
COMMENT ON AGGREGATE gx_ashtml(gxgeom, float8[]) IS 'a self-contained HTML page that shows the rows'' geometries in 3D, offline, each with its RGB or RGBA colour';
COMMENT ON AGGREGATE gx_ashtml(gxgeom, float8[], text) IS 'a self-contained HTML page that shows the rows'' geometries in 3D, offline, each with its colour and its legend label';

-- The pair functions with ids of any type (text hole ids such as 'DH-001'): the last argument gives the type
-- the ids come back as (NULL::text), each query's ids converted to it through their text form
CREATE FUNCTION gx_intersecting_pairs(a_query text, b_query text, id_type anyelement,
	OUT a_id anyelement, OUT b_id anyelement)
	RETURNS SETOF record AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 1000;
CREATE FUNCTION gx_dwithin_pairs(a_query text, b_query text, d float8, id_type anyelement,
	OUT a_id anyelement, OUT b_id anyelement)
	RETURNS SETOF record AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 1000;
CREATE FUNCTION gx_intercepts_pairs(lines_query text, solids_query text, id_type anyelement,
	OUT a_id anyelement, OUT b_id anyelement, OUT from_m float8, OUT to_m float8)
	RETURNS SETOF record AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 1000;
CREATE FUNCTION gx_makesolids(query text, id_type anyelement, OUT id anyelement, OUT solid gxgeom)
	RETURNS SETOF record AS 'MODULE_PATHNAME', 'gx_makesolids_sql' LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 1000;
CREATE FUNCTION gx_volume_pairs(boxes_query text, solids_query text, id_type anyelement,
	OUT a_id anyelement, OUT b_id anyelement, OUT volume float8)
	RETURNS SETOF record AS 'MODULE_PATHNAME', 'gx_volume_pairs_sql' LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 1000;

-- A box as a geometry of its dimension: a solid of 12 triangles, a flat box's 2 triangles, a line, a point.
-- Implicit, as PostGIS's box3d to geometry: every function of gxgeom takes a gxbox3d (gx_intersects(g, box),
-- gx_distance(g, box), ...); functions declared for gxbox3d itself (gx_contains(g, box), gx_volume(g, box),
-- &&&) are exact matches and keep their own meaning.
CREATE FUNCTION gxgeom(gxbox3d) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_box3d_geom' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gxgeom(gxbox3d) IS
	'the box as a geometry: a solid of 12 triangles, a flat box as 2 triangles, a line, a point; GEOMETRYCOLLECTION EMPTY for EMPTY';
CREATE CAST (gxbox3d AS gxgeom) WITH FUNCTION gxgeom(gxbox3d) AS IMPLICIT;

-- Parts: a collection's children; any other geometry (a TIN, a solid: one geometry of many triangles) is one part
CREATE FUNCTION gx_numgeometries(gxgeom) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_numgeometries(gxgeom) IS 'the number of parts: a collection''s children, 1 for any other geometry, 0 for EMPTY';
CREATE FUNCTION gx_geometryn(gxgeom, integer) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_geometryn(gxgeom, integer) IS 'part n (1-based); NULL out of range';
CREATE FUNCTION gx_dump(gxgeom, OUT path integer[], OUT geom gxgeom) RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 4;
COMMENT ON FUNCTION gx_dump(gxgeom) IS 'every part that is no collection, with its path of 1-based positions, as ST_Dump';
CREATE FUNCTION gx_numpoints(gxgeom) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_numpoints(gxgeom) IS 'the number of points of a LINESTRING; NULL for any other geometry';
CREATE FUNCTION gx_pointn(gxgeom, integer) RETURNS gxgeom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_pointn(gxgeom, integer) IS 'point n of a LINESTRING (1-based, negative from the end); NULL otherwise';
CREATE FUNCTION gx_startpoint(gxgeom) RETURNS gxgeom AS 'SELECT gx_pointn($1, 1)'
	LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_endpoint(gxgeom) RETURNS gxgeom AS 'SELECT gx_pointn($1, -1)'
	LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_collect(gxgeom, gxgeom) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_collect_pair' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_collect(gxgeom[]) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_collect_array' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE gx_collect(gxgeom) (
	SFUNC = array_append,
	STYPE = gxgeom[],
	FINALFUNC = gx_collect,
	COMBINEFUNC = array_cat,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE gx_collect(gxgeom) IS
	'the rows'' geometries as one MULTIPOINT, MULTILINESTRING or GEOMETRYCOLLECTION, NULLs skipped, as ST_Collect';

-- Moving geometries: each output coordinate the exact value rounded once; solids checked again
CREATE FUNCTION gx_affine(gxgeom, a float8, b float8, c float8, d float8, e float8, f float8,
	g float8, h float8, i float8, xoff float8, yoff float8, zoff float8) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_affine_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_affine(gxgeom, float8, float8, float8, float8, float8, float8, float8, float8, float8, float8, float8, float8) IS
	'(a x + b y + c z + xoff, d x + e y + f z + yoff, g x + h y + i z + zoff), each coordinate exact then rounded once';
CREATE FUNCTION gx_translate(gxgeom, dx float8, dy float8, dz float8 DEFAULT 0) RETURNS gxgeom
	AS 'SELECT gx_affine($1, 1, 0, 0, 0, 1, 0, 0, 0, 1, $2, $3, $4)' LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_scale(gxgeom, sx float8, sy float8, sz float8 DEFAULT 1) RETURNS gxgeom
	AS 'SELECT gx_affine($1, $2, 0, 0, 0, $3, 0, 0, 0, $4, 0, 0, 0)' LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_rotatez(gxgeom, angle float8) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_rotatez_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION gx_rotatez(gxgeom, angle float8, origin gxgeom) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_rotatez_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_rotatez(gxgeom, float8) IS
	'rotated counter-clockwise by angle (radians) about the z axis: the matrix of the doubles cos(angle), sin(angle); exact 0 and 1 at multiples of pi()/2';
COMMENT ON FUNCTION gx_rotatez(gxgeom, float8, gxgeom) IS 'gx_rotatez about the vertical axis through a POINT, each coordinate exact then rounded once';
CREATE FUNCTION gx_transform(gxgeom, srid integer) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_transform_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_transform(gxgeom, integer) IS 'the geometry in another coordinate system (EPSG codes as SRIDs), through PROJ';

-- Largest distance: exact, then rounded once
CREATE FUNCTION gx_maxdistance(gxgeom, gxgeom) RETURNS float8
	AS 'MODULE_PATHNAME', 'gx_maxdistance_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION gx_maxdistance(gxgeom, gxgeom) IS 'the largest 3D distance between the geometries, exact then rounded once; NULL for EMPTY';
CREATE FUNCTION gx_longestline(gxgeom, gxgeom) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_longestline_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION gx_longestline(gxgeom, gxgeom) IS 'the 3D longest line between the geometries: two of their vertices; NULL for EMPTY';
CREATE FUNCTION gx_dfullywithin(gxgeom, gxgeom, float8) RETURNS boolean
	AS 'MODULE_PATHNAME', 'gx_dfullywithin_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION gx_dfullywithin(gxgeom, gxgeom, float8) IS 'true if the largest 3D distance between the geometries is at most d, decided exactly; false for EMPTY';

-- Geometries made from others
CREATE FUNCTION gx_extrude(gxgeom, dz float8) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_extrude_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gx_extrude(gxgeom, float8) IS 'the solid swept by a surface (polygon, TIN) moved by dz along z, sides added';
CREATE FUNCTION gx_convexhull(gxgeom) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_convexhull_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION gx_convexhull(gxgeom) IS
	'the exact 3D convex hull of the vertices: a solid; in one plane a polygon''s triangles, on one line a LINESTRING, a POINT';
CREATE FUNCTION gx_delaunay(points gxgeom) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_delaunay_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10000;
CREATE FUNCTION gx_delaunay(points gxgeom, breaklines gxgeom) RETURNS gxgeom
	AS 'MODULE_PATHNAME', 'gx_delaunay_sql' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10000;
COMMENT ON FUNCTION gx_delaunay(gxgeom) IS
	'the 2.5D Delaunay triangulation (TIN) of the vertices in (x, y), each keeping its z; exact, cocircular points by a fixed perturbation';
COMMENT ON FUNCTION gx_delaunay(gxgeom, gxgeom) IS
	'gx_delaunay constrained by breaklines (LINESTRINGs): their segments are edges of the TIN';
