#!/usr/bin/env bash
# bench/mine_sessions.sh: how the join of holes and ore bodies behaves across sessions at one SCALE of the
# mining workload (`build/bench_batch mining SCALE --copy`), through the GPU service
# (shared_preload_libraries = gpuexact), default settings otherwise, on the GPU machine (device tool; carry
# build/, gpuexact.so and .device): the cold first join (gx_cache_reset, then a new session), a new session's
# first join on cached data, a warm session, and the throughput of 1 and of 8 concurrent sessions (pgbench,
# 5 joins each, then joining for THROUGHPUT_S seconds, 5 by default); then the same holes against the
# bodies made solids, a new session's and a warm session's joins. Results in $OUT/mine_sessions.txt.
set -u
cd "$(dirname "$0")/.."
SCALE=${SCALE:-20}
source bench/device_setup.sh
restart "-c shared_preload_libraries=gpuexact -c max_wal_size=8GB"
sleep 2
out="$OUT/mine_sessions.txt"
dir=/tmp/mining$SCALE
mkdir -p $dir && chmod 755 $dir
./build/bench_batch mining "$SCALE" --device cpu --reps 1 --copy $dir >/dev/null 2>&1
chmod 644 $dir/*
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS mine" -c "CREATE DATABASE mine"
bash bench/load_mining.sh $dir mine || exit 1
rm -f $dir/*.copy
psql -X -q -d mine -c "VACUUM ANALYZE" -c "CHECKPOINT"
join="SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom)"
ms() { psql -X -q -d mine -c '\timing on' "$@" -o /dev/null | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1; }
echo "$join;" >/tmp/mine_join.pgb
chmod 644 /tmp/mine_join.pgb
{
	echo "scale $SCALE: $(psql -X -At -d mine -c "SELECT count(*) || ' holes' FROM holes") x $(psql -X -At -d mine -c "SELECT count(*) || ' bodies, ' || sum(gx_ntriangles(geom)) || ' triangles' FROM bodies")"
	ms -c "$join" >/dev/null
	echo "cold first join (ms): $(for i in 1 2 3; do psql -X -q -d mine -c "SELECT gx_cache_reset()" -o /dev/null; ms -c "$join"; done | tr '\n' ' ')"
	echo "new session, cached (ms): $(for i in 1 2 3 4 5; do ms -c "$join"; done | tr '\n' ' ')"
	echo "warm session (ms): $(psql -X -q -d mine -c '\timing on' -c "$join" -c "$join" -c "$join" -c "$join" -c "$join" -o /dev/null | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tr '\n' ' ')"
	cd /tmp
	for k in 1 2; do
		echo "1 session x 5 joins: $(pgbench -n -d mine -f /tmp/mine_join.pgb -c 1 -j 1 -t 5 2>&1 | grep -E "^tps" | tr '\n' ' ')"
		echo "8 sessions x 5 joins: $(pgbench -n -d mine -f /tmp/mine_join.pgb -c 8 -j 8 -t 5 2>&1 | grep -E "^tps" | tr '\n' ' ')"
	done
	# the steady state: sessions joining for ${THROUGHPUT_S:-5} s each
	for k in 1 2; do
		echo "1 session for ${THROUGHPUT_S:-5} s: $(pgbench -n -d mine -f /tmp/mine_join.pgb -c 1 -j 1 -T ${THROUGHPUT_S:-5} 2>&1 | grep -E "^tps" | tr '\n' ' ')"
		echo "8 sessions for ${THROUGHPUT_S:-5} s: $(pgbench -n -d mine -f /tmp/mine_join.pgb -c 8 -j 8 -T ${THROUGHPUT_S:-5} 2>&1 | grep -E "^tps" | tr '\n' ' ')"
	done
	cd - >/dev/null
	psql -X -d mine -c "EXPLAIN (ANALYZE, COSTS OFF) $join" | grep -E "Engine Time|Batch Time|Execution Time"
	# the same holes against the bodies made solids (volume semantics: holes inside a body count); SOLIDS=0 skips it
	[ "${SOLIDS:-1}" = 0 ] && exit 0
	psql -X -q -d mine -c "CREATE TABLE solids AS SELECT id, solid AS geom FROM gx_makesolids('SELECT id, geom FROM bodies')" -c "VACUUM ANALYZE solids" -c "CHECKPOINT"
	sjoin="SELECT h.id, b.id FROM holes h JOIN solids b ON gx_intersects(h.geom, b.geom)"
	ms -c "$sjoin" >/dev/null
	echo "solids, new session, cached (ms): $(for i in 1 2 3; do ms -c "$sjoin"; done | tr '\n' ' ')"
	echo "solids, warm session (ms): $(psql -X -q -d mine -c '\timing on' -c "$sjoin" -c "$sjoin" -c "$sjoin" -c "$sjoin" -c "$sjoin" -o /dev/null | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tr '\n' ' ')"
	psql -X -d mine -c "EXPLAIN (ANALYZE, COSTS OFF) $sjoin" | grep -E "Engine Time|Batch Time|Execution Time"
} >"$out" 2>&1
cat "$out"
