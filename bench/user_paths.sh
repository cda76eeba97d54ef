#!/usr/bin/env bash
# bench/user_paths.sh: the queries of the mining guide as a user types them, on default settings with the GPU
# service (shared_preload_libraries = gpuexact), on the GPU machine (device tool; carry gpuexact.so, build/
# and .device) or any machine with the carried PostgreSQL. For each SCALE of SCALES (the data of
# `build/bench_batch mining SCALE --copy`), loaded with COPY and ANALYZE only (as loaders do):
# - the join of holes and bodies, and gx_intercepts_pairs of the holes and the bodies made solids: a new
#   session's first, then the best and worst of three warm ones;
# - at scale 1, block coding of BLOCKS centroids against the solids, counted in the server;
# - at scale 1, the same after the GiST indexes docs/mining.md recommends (on the solids and the blocks):
#   the plan chosen and its time;
# - the same queries again after VACUUM;
# - at the scales of MAKESOLIDS (e.g. MAKESOLIDS=10), the bodies made solids with gx_makesolids and row by row
#   with gx_makesolid (CREATE TABLE AS and UPDATE), and whether both made the same solids.
# One table in $OUT/user_paths.txt (ms), the plans in $OUT/plans_*.txt.
set -u
cd "$(dirname "$0")/.."
SCALES=${SCALES:-"1 20"}
BLOCKS=${BLOCKS:-2000000}
source bench/device_setup.sh
restart "-c shared_preload_libraries=gpuexact -c max_wal_size=8GB"
sleep 2
table="$OUT/user_paths.txt"
printf '%-6s %-58s %s\n' scale query "ms: new session's first; best, worst of 3 warm" >"$table"
row() { printf '%-6s %-58s %s\n' "$1" "$2" "$3" >>"$table"; }
# A new session's first run, then three in one session: "first; best worst"
runs() {
	local first
	first=$(psql -X -q -d mine -c '\timing on' -c "$*" -o /dev/null | sed -n 's/^Time: \([0-9.]*\).*/\1/p')
	psql -X -q -d mine -c '\timing on' -c "$*" -c "$*" -c "$*" -o /dev/null 2>&1 |
		awk -v f="$first" '/^Time:/ {t[n++] = $2} END {b = t[0]; w = t[0]; for (i in t) {if (t[i] < b) b = t[i]; if (t[i] > w) w = t[i]}; printf "%s; %s %s", f, b, w}'
}
for s in $SCALES; do
	dir=/tmp/mining$s
	mkdir -p $dir && chmod 755 $dir
	./build/bench_batch mining "$s" --device cpu --reps 1 --copy $dir >"$OUT/engine_$s.txt" 2>&1
	chmod 644 $dir/*
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS mine" -c "CREATE DATABASE mine"
	bash bench/load_mining.sh $dir mine || exit 1
	rm -f $dir/*.copy
	psql -X -q -d mine -c "ALTER TABLE bodies SET (autovacuum_enabled = off)" -c "ALTER TABLE holes SET (autovacuum_enabled = off)"
	if [[ " ${MAKESOLIDS:-} " == *" $s "* ]]; then
		t=$(psql -X -q -d mine -c '\timing on' -c "CREATE TABLE solids_set AS SELECT id, solid AS geom FROM gx_makesolids('SELECT id, geom FROM bodies')" | sed -n 's/^Time: \([0-9.]*\).*/\1/p')
		row "x$s" "CREATE TABLE AS ... gx_makesolids(...)" "$t"
		t=$(psql -X -q -d mine -c '\timing on' -c "CREATE TABLE solids_rows AS SELECT id, gx_makesolid(geom) AS geom FROM bodies" | sed -n 's/^Time: \([0-9.]*\).*/\1/p')
		row "x$s" "CREATE TABLE AS SELECT id, gx_makesolid(geom) (row by row)" "$t"
		psql -X -q -d mine -c "CREATE TABLE remade AS SELECT id, geom FROM bodies" -c CHECKPOINT
		t=$(psql -X -q -d mine -c '\timing on' -c "UPDATE remade SET geom = gx_makesolid(geom)" | sed -n 's/^Time: \([0-9.]*\).*/\1/p')
		row "x$s" "UPDATE ... SET geom = gx_makesolid(geom) (row by row)" "$t"
		psql -X -At -d mine -c "SELECT 'row by row = set: ' || (SELECT count(*) FROM solids_set s JOIN solids_rows r USING (id) WHERE s.geom = r.geom) || ' of ' || count(*) FROM solids_set" >>"$OUT/engine_$s.txt"
		psql -X -q -d mine -c "DROP TABLE solids_set, solids_rows, remade"
	fi
	psql -X -q -d mine -c "CREATE TABLE solids AS SELECT id, solid AS geom FROM gx_makesolids('SELECT id, geom FROM bodies')" \
		-c "ALTER TABLE solids SET (autovacuum_enabled = off)"
	if [ "$s" = 1 ]; then
		psql -X -q -d mine -v blocks=$BLOCKS -v bodies=solids -f bench/block_model.sql -c "ALTER TABLE blocks SET (autovacuum_enabled = off)"
	fi
	psql -X -q -d mine -c "ANALYZE" -c CHECKPOINT
	join="SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom)"
	coding="SELECT count(*) FROM blocks p JOIN solids b ON gx_intersects(p.geom, b.geom)"
	for state in "just loaded" "vacuumed"; do
		[ "$state" = vacuumed ] && psql -X -q -d mine -c "VACUUM ANALYZE" -c CHECKPOINT
		row "x$s" "join holes x bodies, $state" "$(runs "$join")"
		row "x$s" "gx_intercepts_pairs holes x solids, $state" "$(runs "SELECT * FROM gx_intercepts_pairs('SELECT id, geom FROM holes', 'SELECT id, geom FROM solids')")"
		if [ "$s" = 1 ]; then
			nb=$(psql -X -At -d mine -c "SELECT count(*) FROM blocks")
			row "x$s" "block coding, $nb centroids, count, $state" "$(runs "$coding")"
			psql -X -d mine -c "EXPLAIN (ANALYZE, COSTS OFF) $coding" >"$OUT/plans_coding_${state// /_}.txt" 2>&1
		fi
	done
	if [ "$s" = 1 ]; then
		psql -X -q -d mine -c "CREATE INDEX ON solids USING gist (geom)" -c "CREATE INDEX ON blocks USING gist (geom)" -c ANALYZE
		row "x$s" "block coding with GiST on both sides" "$(runs "$coding")"
		psql -X -d mine -c "EXPLAIN (ANALYZE, COSTS OFF) $coding" >"$OUT/plans_coding_gist.txt" 2>&1
		few="SELECT count(*) FROM (SELECT * FROM blocks WHERE id <= 20) p JOIN solids b ON gx_intersects(p.geom, b.geom)"
		row "x$s" "20 centroids x solids with GiST" "$(runs "$few")"
		psql -X -d mine -c "EXPLAIN (ANALYZE, COSTS OFF) $few" >"$OUT/plans_few_gist.txt" 2>&1
	fi
	cat "$table"
done
