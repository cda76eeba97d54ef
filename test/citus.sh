#!/usr/bin/env bash
# test/citus.sh: gpuexact on a throwaway Citus cluster (a coordinator and 2 workers on this machine, built by
# tools/citus.sh). On generated mining data (drill holes, ore bodies) and mesh data (TIN patches and triangles
# on a lattice whose spacing divides the tile size, so geometries straddle tile boundaries and touch exactly
# on them), the two distributed patterns must give exactly the pairs of a single-node stock join
# (gx_intersects per pair, batched join off) on the coordinator's local copies:
#   1. reference table: ore bodies replicated, drill holes distributed by hole id; the batched join runs in
#      each worker's task (EXPLAIN shows Custom Scan (GpuexactJoin) under Citus Adaptive);
#   2. tiles: meshes distributed on gx_tiles(geom, tile_size), joined on the tile and gx_owner_tile: pushed
#      down as co-located, each pair reported once (no DISTINCT), for two tile sizes (0.7 is not a double: its
#      boundaries are decided exactly); and the same for gx_dwithin, with tiles and owners of boxes grown
#      by the distance.
# Prints "SKIPPED: ..." and succeeds when the Citus source tarball is absent (GX_CITUS_TARBALL).
# GX_CITUS_INSTALLED=1: Citus is installed already (no build); GX_CITUS_SERVICE_CPU=off and
# GX_CITUS_EXPECT_GPU=1 (on a GPU machine, with gpuexact.device = gpu in GX_PG_OPTS): the workers' batches
# must run on the GPU.
# Usage: test/citus.sh [SEED]; run as root (CI) or as a user who may sudo, under flock /tmp/gx-pg.lock.
set -uo pipefail
source "$(dirname "$0")/../tools/citus.sh"
seed=${1:-$(( RANDOM % 1000 ))}

if [ -z "${GX_CITUS_INSTALLED:-}" ]; then
	if [ ! -f "$GX_CITUS_TARBALL" ]; then
		echo "SKIPPED: citus: no Citus source at $GX_CITUS_TARBALL (set GX_CITUS_TARBALL)"
		exit 0
	fi
	gx_citus_install || exit 1
fi
GX_PG_OPTS="${GX_PG_OPTS:-} -c gpuexact.service_cpu=${GX_CITUS_SERVICE_CPU:-on}" gx_citus_start 2 || exit 1
echo "== seed $seed"
fail=0
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

q -v seed="$seed" <<'SQL' | grep -v '^$' || exit 1
SET client_min_messages = warning;
SELECT setseed(:seed / 1000.0);
-- lattice coordinate: a multiple of 0.5 in [0, 12], sometimes nudged by a hair (near-touching)
CREATE FUNCTION c() RETURNS float8 LANGUAGE sql VOLATILE AS $$
	SELECT floor(random() * 25) * 0.5 + CASE WHEN random() < 0.9 THEN 0 ELSE (ARRAY[1e-9, -1e-9])[1 + floor(random() * 2)::int] END $$;
-- a point at most 1.5 from (x, y, z) along each axis, on the lattice
CREATE FUNCTION near(x float8, y float8, z float8) RETURNS text LANGUAGE sql VOLATILE AS $$
	SELECT format('%s %s %s', x + floor(random() * 7) * 0.5 - 1.5, y + floor(random() * 7) * 0.5 - 1.5,
		z + floor(random() * 7) * 0.5 - 1.5) $$;
-- an ore body: a closed box of 12 triangles
CREATE FUNCTION orebody() RETURNS gxgeom LANGUAGE plpgsql VOLATILE AS $$
DECLARE x0 float8 := c(); y0 float8 := c(); z0 float8 := c();
	x1 float8 := x0 + 0.5 + floor(random() * 4) * 0.5; y1 float8 := y0 + 0.5 + floor(random() * 4) * 0.5;
	z1 float8 := z0 + 0.5 + floor(random() * 4) * 0.5;
	v text[] := ARRAY[format('%s %s %s', x0, y0, z0), format('%s %s %s', x1, y0, z0), format('%s %s %s', x1, y1, z0),
		format('%s %s %s', x0, y1, z0), format('%s %s %s', x0, y0, z1), format('%s %s %s', x1, y0, z1),
		format('%s %s %s', x1, y1, z1), format('%s %s %s', x0, y1, z1)];
	f int[] := ARRAY[1,2,3, 1,3,4, 5,7,6, 5,8,7, 1,6,2, 1,5,6, 2,7,3, 2,6,7, 3,8,4, 3,7,8, 4,5,1, 4,8,5];
	t text := '';
BEGIN
	FOR i IN 0..11 LOOP
		t := t || CASE WHEN i > 0 THEN ',' ELSE '' END ||
			format('((%s,%s,%s,%s))', v[f[3*i+1]], v[f[3*i+2]], v[f[3*i+3]], v[f[3*i+1]]);
	END LOOP;
	RETURN ('TIN Z (' || t || ')')::gxgeom;
END $$;
-- a drill hole: a polyline from the top downwards
CREATE FUNCTION hole() RETURNS gxgeom LANGUAGE plpgsql VOLATILE AS $$
DECLARE x float8 := c(); y float8 := c(); z float8 := 12; s text := format('%s %s %s', x, y, z);
BEGIN
	FOR i IN 0..1 + floor(random() * 4)::int LOOP
		x := x + floor(random() * 5) * 0.5 - 1; y := y + floor(random() * 5) * 0.5 - 1; z := z - floor(random() * 6) * 0.5;
		s := s || format(',%s %s %s', x, y, z);
	END LOOP;
	RETURN ('LINESTRING Z (' || s || ')')::gxgeom;
END $$;
-- a mesh: a triangle, a TIN of two, or a patch of 8 triangles, all within 3 units; now and then EMPTY
CREATE FUNCTION mesh() RETURNS gxgeom LANGUAGE plpgsql VOLATILE AS $$
DECLARE r float8 := random(); x float8 := c(); y float8 := c(); z float8 := c(); a text := format('%s %s %s', x, y, z);
BEGIN
	IF r < 0.03 THEN RETURN 'TIN Z EMPTY'; END IF;
	IF r < 0.4 THEN RETURN format('TRIANGLE Z ((%s,%s,%s,%s))', a, near(x, y, z), near(x, y, z), a); END IF;
	IF r < 0.7 THEN RETURN format('TIN Z (((%s,%s,%s,%s)),((%s,%s,%s,%s)))', a, near(x, y, z), near(x, y, z), a,
		a, near(x, y, z), near(x, y, z), a); END IF;
	RETURN ('TIN Z (' || (SELECT string_agg(format('((%1$s,%2$s,%3$s,%1$s)),((%2$s,%4$s,%3$s,%2$s))',
		format('%s %s %s', x + i, y + j, z + i * 0.5), format('%s %s %s', x + i + 1, y + j, z + i * 0.5 + 0.5),
		format('%s %s %s', x + i, y + j + 1, z + i * 0.5), format('%s %s %s', x + i + 1, y + j + 1, z + i * 0.5 + 0.5)), ',')
		FROM generate_series(0, 1) i, generate_series(0, 1) j) || ')')::gxgeom;
END $$;

-- the single-node data: local tables of the coordinator
CREATE TABLE orebodies AS SELECT i AS body_id, orebody() AS geom FROM generate_series(1, 40) i;
CREATE TABLE drillholes AS SELECT i AS hole_id, hole() AS geom FROM generate_series(1, 300) i;
CREATE TABLE meshes_a AS SELECT i AS mesh_id, mesh() AS geom FROM generate_series(1, 250) i;
CREATE TABLE meshes_b AS SELECT i AS mesh_id, mesh() AS geom FROM generate_series(1, 250) i;

-- the single-node answers: the stock plan, gx_intersects per pair
SET gpuexact.enable_join = off;
CREATE TABLE want_holes AS SELECT h.hole_id, b.body_id FROM drillholes h JOIN orebodies b ON gx_intersects(h.geom, b.geom);
CREATE TABLE want_left AS SELECT h.hole_id, b.body_id FROM drillholes h LEFT JOIN orebodies b ON gx_intersects(h.geom, b.geom);
CREATE TABLE want_misses AS SELECT h.hole_id, 0 AS none FROM drillholes h
	WHERE NOT EXISTS (SELECT FROM orebodies b WHERE gx_intersects(h.geom, b.geom));
CREATE TABLE want_ab AS SELECT a.mesh_id AS a_id, b.mesh_id AS b_id FROM meshes_a a JOIN meshes_b b ON gx_intersects(a.geom, b.geom);
CREATE TABLE want_aa AS SELECT a.mesh_id AS a_id, b.mesh_id AS b_id FROM meshes_a a JOIN meshes_a b ON gx_intersects(a.geom, b.geom);
SELECT format('single-node pairs: %s holes x bodies, %s a x b, %s a x a', (SELECT count(*) FROM want_holes),
	(SELECT count(*) FROM want_ab), (SELECT count(*) FROM want_aa));
RESET gpuexact.enable_join;

-- 1. reference-table pattern
SET citus.shard_count = 4;
CREATE TABLE ore_ref (body_id int, geom gxgeom);
SELECT create_reference_table('ore_ref');
INSERT INTO ore_ref SELECT * FROM orebodies;
CREATE TABLE holes_dist (hole_id int, geom gxgeom);
SELECT create_distributed_table('holes_dist', 'hole_id');
INSERT INTO holes_dist SELECT * FROM drillholes;
SQL

# Compares query $2 (rows a, b) with table $3 as multisets: prints the differences, fails on any.
same_pairs() {
	local name=$1 query=$2 want=$3 out
	out=$(q <<SQL
CREATE TEMP TABLE got AS $query;
SELECT 'missing', * FROM (SELECT * FROM $want EXCEPT ALL SELECT * FROM got) m;
SELECT 'extra', * FROM (SELECT * FROM got EXCEPT ALL SELECT * FROM $want) e;
SELECT 'pairs', count(*) FROM got;
SQL
) || { echo "FAILED: $name: query failed"; fail=1; return; }
	if [ "$(grep -vc '^pairs' <<<"$out")" != 0 ]; then
		echo "FAILED: $name differs from the single-node answer:"; head -20 <<<"$out"; fail=1
	else
		echo "ok: $name: $(grep '^pairs' <<<"$out" | cut -d'|' -f2) pairs, the single-node answer"
	fi
}

# Fails unless EXPLAIN of $2 contains every pattern given after it.
plan_has() {
	local name=$1 query=$2 plan p
	shift 2
	plan=$(q -c "EXPLAIN $query") || { echo "FAILED: $name: EXPLAIN failed"; fail=1; return; }
	for p in "$@"; do
		grep -q -- "$p" <<<"$plan" || { echo "FAILED: $name: no '$p' in the plan:"; echo "$plan"; fail=1; return; }
	done
	echo "ok: $name: the plan shows $*"
}

echo "== reference table: ore bodies replicated, drill holes distributed by hole id"
ref_join="SELECT h.hole_id, b.body_id FROM holes_dist h JOIN ore_ref b ON gx_intersects(h.geom, b.geom)"
same_pairs "reference join" "$ref_join" want_holes
plan_has "reference join" "$ref_join" "Custom Scan (Citus Adaptive)" "Task Count: 4" "Custom Scan (GpuexactJoin)"
if [ -n "${GX_CITUS_EXPECT_GPU:-}" ]; then
	# every worker task's batch ran on the GPU (its node's GPU service)
	gpu_plan=$(q -c "SET citus.explain_all_tasks = on" -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) $ref_join")
	on_gpu=$(grep -c 'Ran On: GPU' <<<"$gpu_plan")
	on_cpu=$(grep -c 'Ran On: CPU' <<<"$gpu_plan")
	if [ "$on_gpu" -ge 1 ] && [ "$on_cpu" = 0 ]; then
		echo "ok: reference join: $on_gpu worker tasks ran their batch on the GPU"
	else
		echo "FAILED: reference join: $on_gpu tasks on the GPU, $on_cpu on the CPU:"; echo "$gpu_plan"; fail=1
	fi
fi
left_join="SELECT h.hole_id, b.body_id FROM holes_dist h LEFT JOIN ore_ref b ON gx_intersects(h.geom, b.geom)"
same_pairs "reference left join" "$left_join" want_left
plan_has "reference left join" "$left_join" "Task Count: 4" "Join Type: Left"
misses="SELECT h.hole_id, 0 AS none FROM holes_dist h WHERE NOT EXISTS (SELECT FROM ore_ref b WHERE gx_intersects(h.geom, b.geom))"
same_pairs "reference anti join" "$misses" want_misses
plan_has "reference anti join" "$misses" "Task Count: 4" "Join Type: Anti"
# gx_intersecting_pairs runs on the coordinator, its queries through Citus
same_pairs "gx_intersecting_pairs on the coordinator" "SELECT a_id, b_id FROM gx_intersecting_pairs(
	'SELECT hole_id, geom FROM holes_dist', 'SELECT body_id, geom FROM ore_ref')" want_holes

# Tables $1 and $2 (tile, mesh_id, geom): meshes_a and meshes_b stored in each of their tiles
# gx_tiles(geom, $3) ($3: "tile_size" or "tile_size, d"), distributed on the tile and co-located.
tile_tables() {
	q <<SQL >/dev/null
SET client_min_messages = warning;
DROP TABLE IF EXISTS $1, $2;
SET citus.shard_count = 4;
CREATE TABLE $1 (tile bigint, mesh_id int, geom gxgeom);
CREATE TABLE $2 (tile bigint, mesh_id int, geom gxgeom);
SELECT create_distributed_table('$1', 'tile');
SELECT create_distributed_table('$2', 'tile', colocate_with => '$1');
INSERT INTO $1 SELECT t, mesh_id, geom FROM meshes_a, gx_tiles(geom, $3) t;
INSERT INTO $2 SELECT t, mesh_id, geom FROM meshes_b, gx_tiles(geom, $3) t;
SQL
}

for tile_size in 1.5 0.7; do
	echo "== tiles of size $tile_size: meshes_a and meshes_b distributed on the tile, co-located"
	tile_tables mesh_tiles_a mesh_tiles_b "$tile_size" || exit 1
	echo "   stored rows per mesh (duplication): $(q -c "SELECT round((SELECT count(*) FROM mesh_tiles_a) /
		(SELECT count(*) FROM meshes_a WHERE NOT gx_isempty(geom))::numeric, 2)")"
	tile_join="SELECT a.mesh_id AS a_id, b.mesh_id AS b_id FROM mesh_tiles_a a JOIN mesh_tiles_b b ON a.tile = b.tile
		AND gx_intersects(a.geom, b.geom) AND gx_owner_tile(a.geom, b.geom, $tile_size) = a.tile"
	self_join="SELECT a.mesh_id AS a_id, b.mesh_id AS b_id FROM mesh_tiles_a a JOIN mesh_tiles_a b ON a.tile = b.tile
		AND gx_intersects(a.geom, b.geom) AND gx_owner_tile(a.geom, b.geom, $tile_size) = a.tile"
	same_pairs "tile join a x b (tile_size $tile_size)" "$tile_join" want_ab
	same_pairs "tile self-join a x a (tile_size $tile_size)" "$self_join" want_aa
	plan_has "tile join (tile_size $tile_size)" "$tile_join" "Custom Scan (Citus Adaptive)" "Task Count: 4"
	# without the owner test the same pairs come back from several tiles: the test above can fail
	dup=$(q -c "SELECT count(*) - count(DISTINCT (a.mesh_id, b.mesh_id)) FROM mesh_tiles_a a JOIN mesh_tiles_b b
		ON a.tile = b.tile AND gx_intersects(a.geom, b.geom)")
	echo "   without gx_owner_tile: $dup duplicate pairs"
	[ "$dup" -gt 0 ] || { echo "FAILED: the data has no pair in several tiles (tile_size $tile_size)"; fail=1; }
done

# gx_dwithin by tiles: each geometry stored in the tiles its box grown by d/2 covers, the owner tile taken
# on the grown boxes; d = 0.5 is one lattice step, so many pairs are exactly d apart
echo "== tiles with a distance: gx_dwithin(a, b, 0.5), tile_size 1.5"
tile_tables mesh_near_a mesh_near_b "1.5, 0.5" || exit 1
q <<'SQL' >/dev/null || exit 1
SET client_min_messages = warning;
DROP TABLE IF EXISTS want_near;
CREATE TABLE want_near AS SELECT a.mesh_id AS a_id, b.mesh_id AS b_id FROM meshes_a a JOIN meshes_b b
	ON gx_dwithin(a.geom, b.geom, 0.5);
SQL
near_join="SELECT a.mesh_id AS a_id, b.mesh_id AS b_id FROM mesh_near_a a JOIN mesh_near_b b ON a.tile = b.tile
	AND gx_dwithin(a.geom, b.geom, 0.5) AND gx_owner_tile(a.geom, b.geom, 1.5, 0.5) = a.tile"
same_pairs "tile join within 0.5 (tile_size 1.5)" "$near_join" want_near
plan_has "tile join within 0.5" "$near_join" "Custom Scan (Citus Adaptive)" "Task Count: 4"
[ "$(q -c "SELECT count(*) FROM want_near") " != "$(q -c "SELECT count(*) FROM want_ab") " ] ||
	{ echo "FAILED: no pair lies within 0.5 without meeting"; fail=1; }

exit $fail
