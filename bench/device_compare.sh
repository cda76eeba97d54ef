#!/usr/bin/env bash
# bench/device_compare.sh: two builds of the extension on one GPU machine, in turns (old, new, old, new), so
# that the machine's own speed of the day cancels out: for each, the mining workload loaded in the type's
# default storage, then through the GPU service: cold first joins (after gx_cache_reset, new sessions), joins
# of new sessions on cached data, a warm session, and pgbench 1 x 5 against 8 x 5 (throughput, p95).
# Expects .device/old and .device/new (gpuexact.so, gpuexact-service, gpuexact--0.1.sql, and optionally a
# gpuexact_cuda.so of its own), the carried
# build/ (gpuexact_cuda.so, bench_batch) and .device (PostgreSQL debs, pg-device.sh). VERSIONS (default
# "old new") and ROUNDS (default 2) choose what runs.
set -u
cd "$(dirname "$0")/.."
source bench/device_setup.sh
join="SELECT a.id, b.id FROM bench_a a JOIN bench_b b ON gx_intersects(a.geom, b.geom)"
timed() { psql -X -q -d bench -c '\timing on' "$@" -c "$join" -o /dev/null | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1; }
p95() { cat /tmp/pgb* | awk '{print $3/1000}' | sort -n | awk '{a[NR]=$1} END {print a[int(NR*0.95+0.5)]}'; }
mkdir -p /tmp/mining && chmod 755 /tmp/mining
./build/bench_batch mining 1 --device gpu --reps 1 --copy /tmp/mining >/dev/null 2>&1
chmod 644 /tmp/mining/*
echo "$join;" >/tmp/join.pgb; chmod 644 /tmp/join.pgb
for round in $(seq 1 "${ROUNDS:-2}"); do
	for ver in ${VERSIONS:-old new}; do
		cp ".device/$ver/gpuexact.so" "$LIB/"
		install -m 755 ".device/$ver/gpuexact-service" "$LIB/gpuexact-service"
		cp ".device/$ver/gpuexact--0.1.sql" "$PGXS_ROOT/usr/share/postgresql/15/extension/"
		cuda_lib=build/gpuexact_cuda.so
		[ -f ".device/$ver/gpuexact_cuda.so" ] && cuda_lib=".device/$ver/gpuexact_cuda.so"
		cp "$cuda_lib" "$LIB/gpuexact_cuda.so"
		restart "-c shared_preload_libraries=gpuexact"
		sleep 2
		{
		echo "== $ver, round $round"
		psql -q -d postgres -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench"
		psql -q -d bench -c "CREATE EXTENSION gpuexact" -c "CREATE TABLE bench_a (id int PRIMARY KEY, geom gxgeom)" \
			-c "CREATE TABLE bench_b (id int PRIMARY KEY, geom gxgeom)" -c '\timing on' -c "COPY bench_a FROM '/tmp/mining/a.copy'" \
			-c "COPY bench_b FROM '/tmp/mining/b.copy'" -c "ANALYZE" | grep Time | tail -1 | sed 's/^/load bodies: /'
		psql -X -At -d bench -c "SELECT 'bodies on disk: ' || pg_size_pretty(pg_total_relation_size('bench_b')) || ', pairs ' || (SELECT count(*) FROM ($join) j)"
		timed >/dev/null
		echo "cold (ms): $(for i in 1 2 3 4 5; do psql -X -d bench -c "SELECT gx_cache_reset()" >/dev/null; timed; done | tr '\n' ' ')"
		for i in 1 2 3; do
			psql -X -d bench -c "SELECT gx_cache_reset()" >/dev/null
			psql -X -d bench -c "EXPLAIN (ANALYZE, COSTS OFF) $join" | grep -E "Engine Time|Batch Time|Execution Time"
		done
		echo "new session, cached (ms): $(for i in 1 2 3 4 5; do timed; done | tr '\n' ' ')"
		echo "-- a new session's first join against its second (EXPLAIN ANALYZE)"
		for i in 1 2; do
			psql -X -d bench -c "EXPLAIN (ANALYZE, COSTS OFF) $join" -c "EXPLAIN (ANALYZE, COSTS OFF) $join" |
				grep -E "Planning Time|Execution Time|Batch Time|Engine Time"
		done
		echo "-- the same, timed by psql, after a first statement that loads nothing of gpuexact (ms): $(psql -X -q -d bench -c '\timing on' -c 'SELECT 1' -c "$join" -c "$join" -o /dev/null | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tr '\n' ' ')"
		echo "warm session (ms): $(psql -X -q -d bench -c '\timing on' -c "$join" -c "$join" -c "$join" -c "$join" -c "$join" -o /dev/null | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tr '\n' ' ')"
		cd /tmp
		for k in 1 2; do
			echo "1 x 5: $(pgbench -n -d bench -f /tmp/join.pgb -c 1 -j 1 -t 5 2>&1 | grep -E "^tps|latency average" | tr '\n' ' ')"
			rm -f /tmp/pgb*
			echo "8 x 5: $(pgbench -n -d bench -f /tmp/join.pgb -c 8 -j 8 -t 5 -l --log-prefix=/tmp/pgb 2>&1 | grep -E "^tps|latency average" | tr '\n' ' ') p95 $(p95) ms"
		done
		echo "-- EXPLAIN ANALYZE alone, then while 8 other sessions join (pgbench -T 4)"
		psql -X -d bench -c "EXPLAIN (ANALYZE, COSTS OFF) $join" | grep -E "Engine Time|Batch Time|Execution Time"
		pgbench -n -d bench -f /tmp/join.pgb -c 8 -j 8 -T 4 >/tmp/load.txt 2>&1 &
		sleep 1
		for i in 1 2 3; do psql -X -d bench -c "EXPLAIN (ANALYZE, COSTS OFF) $join" | grep -E "Engine Time|Batch Time|Execution Time"; done
		wait
		grep -E "^tps" /tmp/load.txt | sed 's/^/under load: /'
		cd - >/dev/null
		} >>"$OUT/compare.txt" 2>&1
	done
done
echo done
