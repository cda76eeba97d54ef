#!/usr/bin/env bash
# bench/citus.sh [SCALE] [WORKERS]: the mining workload (build/bench_batch mining SCALE --copy) on a throwaway
# Citus cluster of this machine (tools/citus.sh), timed three ways: single node (the coordinator's local
# tables), the reference-table pattern (ore bodies replicated, drill holes distributed by id) and the tile
# pattern (both distributed on gx_tiles) for several tile sizes, with the tile duplication of each. Every
# distributed answer is checked against the single-node one. Run as root or with sudo, under
# flock /tmp/gx-pg.lock. On one machine the workers share its cores (and GPU): the figures give Citus's own
# overhead and the duplication, not a speed-up.
set -euo pipefail
scale=${1:-1}
workers=${2:-2}
source "$(dirname "$0")/../tools/citus.sh"
cd "$GX_ROOT"
gx_build_install
make -s build/bench_batch
gx_citus_install
data=$(mktemp -d /tmp/gpuexact-bench.XXXXXX)
chmod 755 "$data"
./build/bench_batch mining "$scale" --device cpu --reps 1 --copy "$data" | tail -n 2
chmod 644 "$data"/*
GX_PG_OPTS="${GX_PG_OPTS:-} -c gpuexact.service_cpu=${GX_SERVICE_CPU:-on}" gx_citus_start "$workers"
trap 'gx_citus_stop; rm -rf "$data"' EXIT
psql -X -q -v ON_ERROR_STOP=1 -v dir="$data" -v workers="$workers" <<'SQL'
SET client_min_messages = warning;
SET default_toast_compression = lz4;
\set a_file :dir '/a.copy'
\set b_file :dir '/b.copy'
CREATE TABLE holes (id int, geom gxgeom);
CREATE TABLE bodies (id int, geom gxgeom);
COPY holes FROM :'a_file';
COPY bodies FROM :'b_file';
ANALYZE holes;
ANALYZE bodies;
SELECT count(*) AS holes, pg_size_pretty(sum(pg_column_size(geom))) AS hole_bytes FROM holes;
SELECT count(*) AS bodies, pg_size_pretty(sum(pg_column_size(geom))) AS body_bytes,
	round(avg(gx_xmax(geom) - gx_xmin(geom))) AS mean_body_dx, round(avg(gx_zmax(geom) - gx_zmin(geom))) AS mean_body_dz
FROM bodies;
SELECT round(max(gx_xmax(geom)) - min(gx_xmin(geom))) AS extent_dx, round(max(gx_ymax(geom)) - min(gx_ymin(geom))) AS extent_dy,
	round(max(gx_zmax(geom)) - min(gx_zmin(geom))) AS extent_dz FROM (SELECT geom FROM holes UNION ALL SELECT geom FROM bodies) g;
\timing on
\echo == single node: the coordinator, local tables, three runs
CREATE TABLE want AS SELECT h.id AS a, b.id AS b FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
\o /dev/null
SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom);
\o
\timing off
SET citus.shard_count = :workers;
\echo == reference table: bodies replicated, holes distributed by id (one shard per worker)
CREATE TABLE bodies_ref (id int, geom gxgeom);
SELECT create_reference_table('bodies_ref') \gset
INSERT INTO bodies_ref SELECT * FROM bodies;
CREATE TABLE holes_dist (id int, geom gxgeom);
SELECT create_distributed_table('holes_dist', 'id') \gset
INSERT INTO holes_dist SELECT * FROM holes;
\timing on
\o /dev/null
SELECT h.id, b.id FROM holes_dist h JOIN bodies_ref b ON gx_intersects(h.geom, b.geom);
SELECT h.id, b.id FROM holes_dist h JOIN bodies_ref b ON gx_intersects(h.geom, b.geom);
SELECT h.id, b.id FROM holes_dist h JOIN bodies_ref b ON gx_intersects(h.geom, b.geom);
\o
\timing off
CREATE TEMP TABLE got AS SELECT h.id AS a, b.id AS b FROM holes_dist h JOIN bodies_ref b ON gx_intersects(h.geom, b.geom);
SELECT count(*) AS pairs, count(*) = (SELECT count(*) FROM want) AND NOT EXISTS (SELECT * FROM got EXCEPT ALL SELECT * FROM want)
	AS same_as_single_node FROM got;
SET citus.explain_all_tasks = on;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT h.id, b.id FROM holes_dist h JOIN bodies_ref b ON gx_intersects(h.geom, b.geom);
RESET citus.explain_all_tasks;
SQL

for tile in ${GX_TILE_SIZES:-25 50 100 200 400}; do
	echo "== tiles of $tile m: holes and bodies distributed on the tile (co-located)"
	psql -X -q -v ON_ERROR_STOP=1 -v s="$tile" -v workers="$workers" <<'SQL'
SET client_min_messages = warning;
SET default_toast_compression = lz4;
DROP TABLE IF EXISTS holes_t, bodies_t;
SET citus.shard_count = :workers;
CREATE TABLE holes_t (tile bigint, id int, geom gxgeom);
CREATE TABLE bodies_t (tile bigint, id int, geom gxgeom);
SELECT create_distributed_table('holes_t', 'tile') \gset
SELECT create_distributed_table('bodies_t', 'tile', colocate_with => 'holes_t') \gset
\timing on
INSERT INTO holes_t SELECT t, id, geom FROM holes, gx_tiles(geom, :s) t;
INSERT INTO bodies_t SELECT t, id, geom FROM bodies, gx_tiles(geom, :s) t;
\timing off
SELECT round((SELECT count(*) FROM holes_t) / (SELECT count(*) FROM holes)::numeric, 2) AS hole_copies,
	round((SELECT count(*) FROM bodies_t) / (SELECT count(*) FROM bodies)::numeric, 2) AS body_copies,
	(SELECT count(DISTINCT tile) FROM bodies_t) AS body_tiles;
\timing on
\o /dev/null
SELECT a.id, b.id FROM holes_t a JOIN bodies_t b ON a.tile = b.tile AND gx_intersects(a.geom, b.geom)
	AND gx_owner_tile(a.geom, b.geom, :s) = a.tile;
SELECT a.id, b.id FROM holes_t a JOIN bodies_t b ON a.tile = b.tile AND gx_intersects(a.geom, b.geom)
	AND gx_owner_tile(a.geom, b.geom, :s) = a.tile;
\o
\timing off
CREATE TEMP TABLE got AS SELECT a.id AS a, b.id AS b FROM holes_t a JOIN bodies_t b ON a.tile = b.tile
	AND gx_intersects(a.geom, b.geom) AND gx_owner_tile(a.geom, b.geom, :s) = a.tile;
SELECT count(*) AS pairs, count(*) = (SELECT count(*) FROM want) AND NOT EXISTS (SELECT * FROM got EXCEPT ALL SELECT * FROM want)
	AS same_as_single_node FROM got;
SQL
done
