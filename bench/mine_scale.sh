#!/usr/bin/env bash
# bench/mine_scale.sh: the mining workflows at several scales, on the GPU machine (device tool; carry build/,
# gpuexact.so and .device) or any machine with the carried PostgreSQL. For each SCALE of SCALES (the data of
# `build/bench_batch mining SCALE --copy`): the bodies made solids (gx_makesolids), the cold first join (the
# caches emptied), then, with the GPU service (shared_preload_libraries = gpuexact) and with the CPU engine in
# the backend: the warm join of holes and bodies as surfaces, a new session's first join, holes x solids
# (volume semantics), gx_intercepts_pairs,
# and block-model coding of BLOCKS centroids (scale 1 only; also counted in the server, no pair sent to psql,
# and its EXPLAIN ANALYZE in a warm session). Each query is warmed, then the best and worst
# of three runs are printed, as one table in $OUT/mine_scale.txt.
set -u
cd "$(dirname "$0")/.."
SCALES=${SCALES:-"1 10 20 40"}
BLOCKS=${BLOCKS:-2000000}
source bench/device_setup.sh
restart "-c shared_preload_libraries=gpuexact -c max_wal_size=8GB"
sleep 2
table="$OUT/mine_scale.txt"
printf '%-6s %-34s %-8s %s\n' scale workflow engine "ms (best, worst of 3; rows)" >"$table"
# ms of each of three runs of a statement after a warm-up, in one session: "best worst rows"
three() {
	local engine=$1; shift
	psql -X -q -d mine -c "SET gpuexact.device = $engine" -c "$*" -o /dev/null
	psql -X -q -d mine -c "SET gpuexact.device = $engine" -c '\timing on' -c "$*" -c "$*" -c "$*" 2>&1 |
		awk -v rows="$(psql -X -At -d mine -c "SET gpuexact.device = $engine" -c "SELECT count(*) FROM ($*) q" | tail -1)" \
		'/^Time:/ {t[n++] = $2} END {if (n == 0) {printf "failed"; exit}; b = t[0]; w = t[0]; for (i in t) {if (t[i] < b) b = t[i]; if (t[i] > w) w = t[i]}; printf "%s %s %s", b, w, rows}'
}
row() { printf '%-6s %-34s %-8s %s\n' "$1" "$2" "$3" "$4" >>"$table"; }
for s in $SCALES; do
	dir=/tmp/mining$s
	mkdir -p $dir && chmod 755 $dir
	./build/bench_batch mining "$s" --device cpu --reps 1 --copy $dir >"$OUT/engine_$s.txt" 2>&1
	chmod 644 $dir/*
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS mine" -c "CREATE DATABASE mine"
	bash bench/load_mining.sh $dir mine || exit 1
	rm -f $dir/*.copy
	t=$(psql -X -q -d mine -c '\timing on' -c "CREATE TABLE solids AS SELECT id, solid AS geom FROM gx_makesolids('SELECT id, geom FROM bodies')" | sed -n 's/^Time: \([0-9.]*\).*/\1/p')
	row "x$s" "CREATE TABLE solids AS ... gx_makesolids" cpu "$t"
	psql -X -q -d mine -c "ALTER TABLE solids ADD PRIMARY KEY (id)"
	# the same bodies made solids in place: in bulk, and (scales 1 and 10) row by row, each on a fresh copy
	for form in bulk rows; do
		[ "$form" = rows ] && [ "$s" -gt 10 ] && continue
		psql -X -q -d mine -c "DROP TABLE IF EXISTS remade" -c "CREATE TABLE remade AS SELECT id, geom FROM bodies" -c "CHECKPOINT"
		if [ "$form" = bulk ]; then
			q="UPDATE remade r SET geom = m.solid FROM gx_makesolids('SELECT id, geom FROM remade') m WHERE m.id = r.id"
			label="UPDATE ... FROM gx_makesolids"
		else
			q="UPDATE remade SET geom = gx_makesolid(geom)"
			label="UPDATE ... gx_makesolid, row by row"
		fi
		row "x$s" "$label" cpu "$(psql -X -q -d mine -c '\timing on' -c "$q" | sed -n 's/^Time: \([0-9.]*\).*/\1/p')"
	done
	psql -X -q -d mine -c "DROP TABLE remade"
	psql -X -q -d mine -c "VACUUM ANALYZE" -c "CHECKPOINT"
	psql -X -At -d mine -c "SELECT 'holes ' || count(*) || ', segments ' || sum(gx_nsegments(geom)) FROM holes" \
		-c "SELECT 'bodies ' || count(*) || ', triangles ' || sum(gx_ntriangles(geom)) FROM bodies" >>"$OUT/engine_$s.txt"
	join="SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom)"
	psql -X -q -d mine -c "SELECT gx_cache_reset()" -o /dev/null
	c=$(psql -X -q -d mine -c "SET gpuexact.device = gpu" -c '\timing on' -c "$join" -o /dev/null | sed -n 's/^Time: \([0-9.]*\).*/\1/p')
	row "x$s" "join, cold (caches emptied)" gpu "$c"
	for e in gpu cpu; do
		row "x$s" "join holes x surfaces, warm" $e "$(three $e "$join")"
		n=$(psql -X -q -d mine -c "SET gpuexact.device = $e" -c '\timing on' -c "$join" -o /dev/null | sed -n 's/^Time: \([0-9.]*\).*/\1/p')
		row "x$s" "join, new session" $e "$n"
		row "x$s" "join holes x solids, warm" $e "$(three $e "SELECT h.id, b.id FROM holes h JOIN solids b ON gx_intersects(h.geom, b.geom)")"
		row "x$s" "gx_intercepts_pairs" $e "$(three $e "SELECT * FROM gx_intercepts_pairs('SELECT id, geom FROM holes', 'SELECT id, geom FROM solids')")"
	done
	psql -X -d mine -c "SET gpuexact.device = gpu" -c "EXPLAIN (ANALYZE, COSTS OFF) SELECT h.id, b.id FROM holes h JOIN solids b ON gx_intersects(h.geom, b.geom)" >"$OUT/explain_solids_$s.txt" 2>&1
	if [ "$s" = 1 ]; then
		psql -X -q -d mine -v blocks=$BLOCKS -v bodies=solids -f bench/block_model.sql -c "VACUUM ANALYZE blocks"
		nb=$(psql -X -At -d mine -c "SELECT count(*) FROM blocks")
		for e in gpu cpu; do
			row "x$s" "block coding, $nb points x solids" $e "$(three $e "SELECT p.id, b.id FROM blocks p JOIN solids b ON gx_intersects(p.geom, b.geom)")"
			row "x$s" "the same, counted in the server" $e "$(three $e "SELECT count(*) FROM blocks p JOIN solids b ON gx_intersects(p.geom, b.geom)")"
			row "x$s" "same points x surfaces" $e "$(three $e "SELECT p.id, b.id FROM blocks p JOIN bodies b ON gx_intersects(p.geom, b.geom)")"
		done
		for e in gpu cpu; do
			q="SELECT p.id, b.id FROM blocks p JOIN solids b ON gx_intersects(p.geom, b.geom)"
			psql -X -d mine -c "SET gpuexact.device = $e" -c '\o /dev/null' -c "$q" -c '\o' -c "EXPLAIN (ANALYZE, COSTS OFF) $q" >"$OUT/explain_blocks_$e.txt" 2>&1
		done
		# the GPU's coding (points located on the device) against the CPU engine's, pair for pair
		for e in gpu cpu; do
			psql -X -q -d mine -c "SET gpuexact.device = $e" -c "DROP TABLE IF EXISTS coded_$e" \
				-c "CREATE TABLE coded_$e AS SELECT p.id AS block, b.id AS body FROM blocks p JOIN solids b ON gx_intersects(p.geom, b.geom)"
		done
		psql -X -At -d mine -c "SELECT 'block coding, pairs of the GPU not the CPU: ' || (SELECT count(*) FROM (TABLE coded_gpu EXCEPT TABLE coded_cpu) d) || ', of the CPU not the GPU: ' || (SELECT count(*) FROM (TABLE coded_cpu EXCEPT TABLE coded_gpu) d)" >>"$OUT/engine_$s.txt"
	fi
	cat "$table"
done
