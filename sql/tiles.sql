-- tiles: gx_tiles and gx_owner_tile, the tile co-location scheme for Citus (single node here; test/citus.sh
-- runs it distributed). Tile ids are decoded to their (i, j, k) indices to be readable.
CREATE FUNCTION tile_ijk(id bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT format('(%s,%s,%s)', (id >> 42) - 1048576, ((id >> 21) & 2097151) - 1048576, (id & 2097151) - 1048576) $$;
-- a point inside a tile lies in one tile; on a boundary in both tiles beside it, on a corner in all eight
SELECT tile_ijk(t) FROM gx_tiles('POINT(0.5 0.5 0.5)', 1) t;
SELECT tile_ijk(t) FROM gx_tiles('POINT(0 0.5 0.5)', 1) t;
SELECT tile_ijk(t) FROM gx_tiles('POINT(0 0 0)', 1) t;
SELECT tile_ijk(t) FROM gx_tiles('LINESTRING(-1.5 0.5 0.5, 2 0.5 0.5)', 1) t;
-- 0.3 is below 3 * 0.1 (as doubles, exactly): tile 2 only; 0.30000000000000004 is above it: tile 3 only
SELECT tile_ijk(t) FROM gx_tiles('POINT(0.3 0.05 0.05)', 0.1) t;
SELECT tile_ijk(t) FROM gx_tiles('POINT(0.30000000000000004 0.05 0.05)', 0.1) t;
-- d expands the box by d/2 on every side
SELECT tile_ijk(t) FROM gx_tiles('POINT(0.5 0.5 0.5)', 1, 1) t;
SELECT count(*) FROM gx_tiles('POINT(0.5 0.5 0.5)', 1, 0.9);
-- EMPTY lies in no tile
SELECT count(*) FROM gx_tiles('TIN Z EMPTY', 1);
-- the owner: the lowest tile holding the minimum corner of the overlap of the boxes
SELECT tile_ijk(gx_owner_tile('LINESTRING(0 0 0, 2 2 2)', 'LINESTRING(1 1 0.5, 3 3 0.5)', 1));
SELECT tile_ijk(gx_owner_tile('POINT(1 1 1)', 'POINT(1 1 1)', 1));
SELECT gx_owner_tile('POINT(0 0 0)', 'POINT(1 0 0)', 1) IS NULL AS apart,
	tile_ijk(gx_owner_tile('POINT(0 0 0)', 'POINT(1 0 0)', 1, 1)) AS within_d,
	gx_owner_tile('POINT(0 0 0)', 'TIN Z EMPTY', 1) IS NULL AS empty;
-- the owner is one of the tiles of both, for pairs touching on tile boundaries
CREATE TABLE tg (id int, geom gxgeom);
INSERT INTO tg SELECT i * 10 + j, format('LINESTRING(%s %s 0, %s %s 1)', i * 0.5, j * 0.5, 1 + j * 0.5, i * 0.5)::gxgeom
	FROM generate_series(0, 4) i, generate_series(0, 4) j;
SELECT count(*) AS pairs,
	count(*) FILTER (WHERE gx_owner_tile(a.geom, b.geom, 1) IN (SELECT gx_tiles(a.geom, 1))
		AND gx_owner_tile(a.geom, b.geom, 1) IN (SELECT gx_tiles(b.geom, 1))) AS owned_by_both
FROM tg a, tg b WHERE a.geom &&& b.geom;
-- errors
\set VERBOSITY sqlstate
SELECT gx_tiles('POINT(0 0 0)', 0);
SELECT gx_tiles('POINT(1e7 0 0)', 1);
SELECT gx_tiles('LINESTRING(0 0 0, 100 100 100)', 1);
\set VERBOSITY default
SELECT gx_tiles('POINT(0 0 0)', 0);
SELECT gx_tiles('POINT(0 0 0)', -1);
SELECT gx_tiles('POINT(0 0 0)', 'NaN');
SELECT gx_tiles('POINT(0 0 0)', 'Infinity');
SELECT gx_tiles('POINT(0 0 0)', 1e-300);
SELECT gx_tiles('TIN Z EMPTY', 0);
SELECT gx_tiles('POINT(0 0 0)', 1, -1);
SELECT gx_owner_tile('POINT(0 0 0)', 'POINT(0 0 0)', 1, 'NaN');
SELECT gx_tiles('POINT(1e7 0 0)', 1);
SELECT gx_tiles('POINT(0 0 -1048576)', 1);
SELECT gx_owner_tile('POINT(0 0 1e300)', 'POINT(0 0 1e300)', 1);
SELECT gx_tiles('LINESTRING(0 0 0, 100 100 100)', 1);
SELECT count(*) FROM gx_tiles('LINESTRING(0.5 0.5 0.5, 9.5 9.5 99.5)', 1);
DROP TABLE tg;
DROP FUNCTION tile_ijk(bigint);
