#!/usr/bin/env bash
# bench/block_models.sh: block models at their real size, as a user runs them on default settings. The ore
# bodies of `bench_batch mining SCALE` (default 1: 200 bodies) made solids; for each N of SIZES, a regular model
# of about N blocks over their extent (build/bench_blocks), loaded with COPY by one session per core, then
# VACUUM ANALYZE. For each model:
# - block coding, counted in the server: a new session's first run, then the best and worst of three
#   warm ones (after a warm-up in that session);
# - the coding again as the first query of a new session, the model kept (by the GPU service; without it,
#   by no session: read again);
# - the coded pairs' ids summed in the server (sum(p.id), sum(b.id)), and sent out (COPY (SELECT p.id, b.id
#   ...) TO '/dev/null'): a new session's first, then warm;
# - proportions: gx_volume_pairs of the blocks' boxes and the solids (count and sum of volumes), warm, for
#   models up to PROPORTIONS_MAX blocks (default 20 000 000): the whole table (its ids and boxes kept by a
#   session's first call), and the same boxes through a filter (WHERE id > 0: read through the query's
#   cursor at every call);
# - cancel: the coding, and the proportions (kept, then filtered), with statement_timeout = 100ms in a new
#   session, the time until the error;
# - the EXPLAIN ANALYZE of a warm coding, and the largest resident memory of the GPU service.
# On the GPU machine (device tool; carry gpuexact.so, build/ and .device): `DEVICE=1 bench/block_models.sh`,
# the extension preloaded (the GPU service). Elsewhere, with a running cluster in the PG* environment:
# `bench/block_models.sh` (psql as given). One table in $OUT/block_models.txt (ms), plans in $OUT/.
set -u
cd "$(dirname "$0")/.."
SIZES=${SIZES:-"2000000 20000000 50000000"}
SCALE=${SCALE:-1}
OUT=${OUT:-/tmp/out}
DB=${DB:-blocks}
mkdir -p "$OUT"
if [ "${DEVICE:-0}" = 1 ]; then
	source bench/device_setup.sh
	restart "-c shared_preload_libraries=gpuexact -c max_wal_size=16GB"
	sleep 2
fi
[ "${DEVICE:-0}" = 1 ] || make -s build/bench_batch build/bench_blocks >/dev/null
dir=${DATA_DIR:-/tmp/block_models}
mkdir -p "$dir" && chmod 755 "$dir"
parts=$(nproc)
table="$OUT/block_models.txt"
printf '%-10s %-44s %s\n' blocks query "ms (new session's first; best, worst of 3 warm) or value" >"$table"
row() { printf '%-10s %-44s %s\n' "$1" "$2" "$3" >>"$table"; }
# The time of query $1 as the first of a new session (ms).
first() { psql -X -q -d "$DB" -c '\timing on' -c "$*" -o /dev/null | sed -n 's/^Time: \([0-9.]*\).*/\1/p'; }
runs() {
	local first
	first=$(first "$*")
	psql -X -q -d "$DB" -c "$*" -c '\timing on' -c "$*" -c "$*" -c "$*" -o /dev/null 2>&1 |
		awk -v f="$first" '/^Time:/ {t[n++] = $2} END {b = t[0]; w = t[0]; for (i in t) {if (t[i] < b) b = t[i]; if (t[i] > w) w = t[i]}; printf "%s; %s %s", f, b, w}'
}
# The GPU service of this cluster (the one running in its data directory), if any.
service_pid() {
	local dir p
	dir=$(psql -X -At -d "$DB" -c "SHOW data_directory")
	for p in $(pgrep -x gpuexact-servic); do
		[ "$(readlink /proc/$p/cwd)" = "$dir" ] && echo "$p" && return
	done
}
# The CPU (ms, from /proc) of a warm run of query $1 in one session, after a first: the backend's, and the GPU
# service's where it runs (walls on a machine shared with other work vary more).
cpu() {
	local svc now
	svc=$(service_pid)
	now='\! echo cpu $(awk '"'"'{print ($14 + $15) * 10}'"'"' /proc/$GXPID/stat) $([ -n "$GXSVC" ] && awk '"'"'{print ($14 + $15) * 10}'"'"' /proc/$GXSVC/stat)'
	psql -X -q -At -d "$DB" <<SQL | awk 'BEGIN {n = 0} /^cpu/ {b[n] = $2; s[n++] = $3} END {printf "backend %d", b[1] - b[0]; if (s[0] != "") printf ", service %d", s[1] - s[0]}'
SELECT pg_backend_pid() AS pid \gset
\setenv GXPID :pid
\setenv GXSVC $svc
$1;
$now
$1;
$now
SQL
}
# the time until a query stopped by statement_timeout = 100ms, in a new session, fails
cancel() {
	psql -X -q -d "$DB" -c "SET statement_timeout = '100ms'" -c '\timing on' -c "$1" 2>&1 | sed -n 's/^Time: \([0-9.]*\).*/\1/p'
}
./build/bench_batch mining "$SCALE" --device cpu --reps 1 --copy "$dir" >/dev/null 2>&1
chmod 644 "$dir"/*
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
bash bench/load_mining.sh "$dir" "$DB" || exit 1
rm -f "$dir"/*.copy
psql -X -q -d "$DB" -c "UPDATE bodies SET geom = gx_makesolid(geom)" -c "VACUUM ANALYZE bodies"
row - solids "$(psql -X -At -d "$DB" -c "SELECT count(*) || ' solids, ' || sum(gx_ntriangles(geom)) || ' triangles' FROM bodies")"
coding='SELECT count(*) FROM blocks p JOIN bodies b ON gx_intersects(p.geom, b.geom)'
pairs="COPY (SELECT p.id, b.id FROM blocks p JOIN bodies b ON gx_intersects(p.geom, b.geom)) TO '/dev/null'"
ids='SELECT sum(p.id), sum(b.id) FROM blocks p JOIN bodies b ON gx_intersects(p.geom, b.geom)'
proportions="SELECT count(*), sum(volume) FROM gx_volume_pairs('SELECT id, box FROM blocks', 'SELECT id, geom FROM bodies')"
filtered="SELECT count(*), sum(volume) FROM gx_volume_pairs('SELECT id, box FROM blocks WHERE id > 0', 'SELECT id, geom FROM bodies')"
for n in $SIZES; do
	t0=$(date +%s)
	got=$(./build/bench_blocks "$SCALE" "$n" "$dir" "$parts")
	chmod 644 "$dir"/blocks.*.copy
	psql -X -q -d "$DB" -c "DROP TABLE IF EXISTS blocks" -c "CREATE TABLE blocks (id bigint, box gxbox3d, geom gxgeom)"
	pids=""
	for f in "$dir"/blocks.*.copy; do
		psql -X -q -d "$DB" -c "COPY blocks FROM '$f'" &
		pids="$pids $!"
	done
	for p in $pids; do wait "$p"; done
	rm -f "$dir"/blocks.*.copy
	psql -X -q -d "$DB" -c "VACUUM ANALYZE blocks"
	row "$got" "generated, loaded, vacuumed (s)" "$(( $(date +%s) - t0 ))"
	row "$got" "coding: count(*) of centroids x solids" "$(runs "$coding")"
	row "$got" "coded pairs" "$(psql -X -At -d "$DB" -c "$coding")"
	row "$got" "coding: a new session's first, side kept" "$(first "$coding")"
	row "$got" "coded pairs' ids summed in the server" "$(runs "$ids")"
	row "$got" "coded pairs sent out (COPY ... TO /dev/null)" "$(runs "$pairs")"
	if [ "$n" -le "${PROPORTIONS_MAX:-20000000}" ]; then
		row "$got" "proportions: gx_volume_pairs boxes x solids" "$(runs "$proportions")"
		row "$got" "proportions: rows, sum of volumes" "$(psql -X -At -d "$DB" -c "$proportions")"
		row "$got" "proportions: CPU ms of a warm call" "$(cpu "$proportions")"
		row "$got" "proportions of a filtered query (cursor)" "$(runs "$filtered")"
		row "$got" "filtered: CPU ms of a warm call" "$(cpu "$filtered")"
		row "$got" "filtered: rows, sum of volumes" "$(psql -X -At -d "$DB" -c "$filtered")"
		row "$got" "cancel of the proportions (100 ms timeout)" "$(cancel "$proportions")"
		row "$got" "cancel of the filtered proportions" "$(cancel "$filtered")"
		psql -X -d "$DB" -c "EXPLAIN (ANALYZE, COSTS OFF) $proportions" >"$OUT/plan_proportions_$n.txt" 2>&1
	fi
	row "$got" "cancel of the coding (100 ms timeout)" "$(cancel "$coding")"
	psql -X -q -d "$DB" -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) $coding" >/dev/null
	psql -X -d "$DB" -c "EXPLAIN (ANALYZE, COSTS OFF) $coding" >"$OUT/plan_coding_$n.txt" 2>&1
	svc=$(service_pid)
	[ -n "$svc" ] && row "$got" "GPU service's largest resident memory (MB)" "$(awk '/VmHWM/ {print int($2 / 1024)}' /proc/$svc/status)"
done
psql -X -d "$DB" -c "SELECT * FROM gx_cache_stats()" >"$OUT/cache_stats.txt" 2>&1
cat "$table"
