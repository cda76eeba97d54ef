#!/usr/bin/env bash
# bench/device_service.sh: issue 8's figures on the GPU machine (device tool), in one run: the CUDA engine
# test, the engine on the mining workload, then the SQL join as users see it, first without the GPU service
# (every backend its own CUDA context) and then with it (shared_preload_libraries = gpuexact): repeated join
# in a warm session, a new session on data another session cached, a cold first join, 8 sessions x 5 joins
# (pgbench: throughput, p95), CUDA contexts (nvidia-smi), memory over 1000 joins, cancel inside the service,
# SIGKILL of the service in the middle of a GPU batch, the regression SQL and concurrency through the service.
# Expects the build carried (gpuexact.so, build/) and .device (PostgreSQL debs, pg-device.sh).
set -u
cd "$(dirname "$0")/.."
REPS=${REPS:-1000}
source bench/device_setup.sh
join="SELECT a.id, b.id FROM bench_a a JOIN bench_b b ON gx_intersects(a.geom, b.geom)"
# milliseconds of one statement run in a new session (psql's \timing)
timed() { psql -X -q -d bench -c '\timing on' "$@" -c "$join" -o /dev/null | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1; }
service_pid() { pgrep -P "$(pgrep -P "$(head -1 /tmp/pgdata/postmaster.pid)" -f 'gpuexact GPU service supervisor' | head -1)" | head -1; }

echo "== CUDA engine test, engine benchmark"
./build/test_cuda_engine >"$OUT/cuda_test.txt" 2>&1; echo "exit $?" >>"$OUT/cuda_test.txt"
mkdir -p /tmp/mining && chmod 755 /tmp/mining
./build/bench_batch mining 1 --device both --reps 3 --copy /tmp/mining >"$OUT/engine.txt" 2>&1
chmod 644 /tmp/mining/*

echo "== load (the type's default storage)"
{
psql -q -d postgres -c "CREATE DATABASE bench"
psql -q -d bench <<'SQL'
CREATE EXTENSION gpuexact;
CREATE TABLE bench_a (id int PRIMARY KEY, geom gxgeom);
CREATE TABLE bench_b (id int PRIMARY KEY, geom gxgeom);
COPY bench_a FROM '/tmp/mining/a.copy';
COPY bench_b FROM '/tmp/mining/b.copy';
ANALYZE;
SELECT (SELECT count(*) FROM bench_a) AS holes, (SELECT sum(gx_nsegments(geom)) FROM bench_a) AS segments,
	(SELECT count(*) FROM bench_b) AS bodies, (SELECT sum(gx_ntriangles(geom)) FROM bench_b) AS triangles,
	pg_size_pretty(pg_total_relation_size('bench_b')) AS bodies_on_disk;
SQL
psql -X -At -d bench -c "$join" | sort >/tmp/reference.txt
echo "pairs: $(wc -l </tmp/reference.txt)"
} >"$OUT/load.txt" 2>&1

echo "== without the service: each backend its own CUDA context"
{
echo "first join, new session (ms): $(timed -c 'SET gpuexact.device = gpu') $(timed -c 'SET gpuexact.device = gpu') $(timed -c 'SET gpuexact.device = gpu')"
echo "repeated join, warm session (ms):"
psql -X -q -d bench -c "SET gpuexact.device = gpu" -c '\timing on' -c "$join" -c "$join" -c "$join" -c "$join" -c "$join" -o /dev/null | grep Time
echo "same, CPU engine (ms):"
psql -X -q -d bench -c "SET gpuexact.device = cpu" -c '\timing on' -c "$join" -c "$join" -c "$join" -o /dev/null | grep Time
} >"$OUT/without_service.txt" 2>&1

echo "== with the service"
restart "-c shared_preload_libraries=gpuexact"
sleep 3
{
echo "service: pid $(service_pid)"; grep -i gpuexact /tmp/pg.log | tail -3
psql -X -At -d bench -c "$join" | sort | diff -q - /tmp/reference.txt && echo "same pairs as without the service"
psql -X -d bench -c "EXPLAIN (ANALYZE, COSTS OFF) $join"
echo "cold: first join after gx_cache_reset, new session (ms): $(for i in 1 2 3 4 5; do
	psql -X -d bench -c "SELECT gx_cache_reset()" >/dev/null; timed; done | tr '\n' ' ')"
echo "new session, side cached by another session (ms): $(timed) $(timed) $(timed) $(timed) $(timed)"
echo "repeated join, warm session (ms):"
psql -X -q -d bench -c '\timing on' -c "$join" -c "$join" -c "$join" -c "$join" -c "$join" -c "$join" -c "$join" -c "$join" -o /dev/null | grep Time
psql -X -d bench -c "SELECT * FROM gx_cache_stats()"
psql -X -q -d bench -c "CREATE TABLE bench_b_lz4 (id int PRIMARY KEY, geom gxgeom COMPRESSION lz4)" -c "COPY bench_b_lz4 FROM '/tmp/mining/b.copy'" -c "ANALYZE bench_b_lz4"
psql -X -d bench -c "SELECT gx_cache_reset()" >/dev/null
echo "cold, ore bodies stored with lz4 (ms): $(psql -X -q -d bench -c '\timing on' -c "SELECT a.id, b.id FROM bench_a a JOIN bench_b_lz4 b ON gx_intersects(a.geom, b.geom)" -o /dev/null | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')"
psql -X -q -d bench -c "$join" -o /dev/null		# the mining side back in the caches
echo "$join;" >/tmp/join.pgb
chmod 644 /tmp/join.pgb
echo "-- pgbench, 1 session x 5 joins"
pgbench -n -d bench -f /tmp/join.pgb -c 1 -j 1 -t 5 2>&1 | grep -E "latency average|tps"
echo "-- the same 40 joins of 8 new sessions x 5, run one session after another, then all 8 at once (three times)"
cd /tmp
(for i in $(seq 1 20); do nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader; sleep 0.2; done | sort -u >/tmp/contexts.txt) &
for run in 1 2 3; do
	rm -f /tmp/seqlat* /tmp/pgb*
	seq_ms=0
	for i in 1 2 3 4 5 6 7 8; do
		t=$(pgbench -n -d bench -f /tmp/join.pgb -c 1 -j 1 -t 5 -l --log-prefix=/tmp/seqlat$i 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
		seq_ms=$(awk -v a="$seq_ms" -v t="$t" 'BEGIN {print a + 5000 / t}')
	done
	seq_tps=$(awk -v a="$seq_ms" 'BEGIN {printf "%.0f", 40000 / a}')
	seq_p95=$(cat /tmp/seqlat* | awk '{print $3/1000}' | sort -n | awk '{a[NR]=$1} END {print a[int(NR*0.95+0.5)]}')
	seq_mean=$(cat /tmp/seqlat* | awk '{s+=$3/1000} END {printf "%.2f", s/NR}')
	par=$(pgbench -n -d bench -f /tmp/join.pgb -c 8 -j 8 -t 5 -l --log-prefix=/tmp/pgb 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
	par_p95=$(cat /tmp/pgb* | awk '{print $3/1000}' | sort -n | awk '{a[NR]=$1} END {print a[int(NR*0.95+0.5)]}')
	echo "one at a time: $seq_tps joins/s, mean $seq_mean ms, p95 $seq_p95 ms; 8 at once: $par joins/s, p95 $par_p95 ms;" \
		"throughput $(awk -v a="$par" -v b="$seq_tps" 'BEGIN {printf "%.1f", a / b}')x, p95 $(awk -v a="$par_p95" -v b="$seq_p95" 'BEGIN {printf "%.2f", a / b}')x" \
		"(p95 against the one-at-a-time mean: $(awk -v a="$par_p95" -v b="$seq_mean" 'BEGIN {printf "%.2f", a / b}')x)"
done
wait
echo "-- again, 8 sessions x 20 joins"
pgbench -n -d bench -f /tmp/join.pgb -c 8 -j 8 -t 20 2>&1 | grep -E "latency average|tps"
cd - >/dev/null
echo "-- processes holding a CUDA context during the 8 sessions:"; cat /tmp/contexts.txt
echo "-- $REPS repeated joins: service RSS and GPU memory before and after"
p=$(service_pid)
echo "before: $(grep VmRSS /proc/$p/status) GPU $(nvidia-smi --query-gpu=memory.used --format=csv,noheader)"
pgbench -n -d bench -f /tmp/join.pgb -c 4 -j 4 -t $((REPS / 4)) 2>&1 | grep -E "tps|failed"
echo "after:  $(grep VmRSS /proc/$p/status) GPU $(nvidia-smi --query-gpu=memory.used --format=csv,noheader)"
} >"$OUT/with_service.txt" 2>&1

echo "== cancel and SIGKILL inside the service, on the GPU"
{
psql -q -d bench <<'SQL'
CREATE TABLE east AS SELECT i AS id, format('LINESTRING(%s -1000 0, %s 1000 0)', i * 0.01, -i * 0.01)::gxgeom AS geom FROM generate_series(1, 8000) i;
CREATE TABLE north AS SELECT i AS id, format('LINESTRING(-1000 %s 0, 1000 %s 0)', i * 0.013, -i * 0.011)::gxgeom AS geom FROM generate_series(1, 8000) i;
ANALYZE;
SQL
pairs="SELECT count(*) FROM gx_intersecting_pairs('SELECT id, geom FROM east', 'SELECT id, geom FROM north')"
echo "-- statement_timeout = 100ms on a 6.4e7-pair batch: time until the error"
psql -X -d bench -c "SET gpuexact.device = gpu" -c '\timing on' -c "SET statement_timeout = '100ms'" -c "$pairs" 2>&1 | grep -E "Time|ERROR" | tail -2
p=$(service_pid)
echo "-- SIGKILL of the service (pid $p) 0.3 s into that batch"
psql -X -At -d bench -c "SET gpuexact.device = gpu" -c '\timing on' -c "$pairs" >/tmp/killed.txt 2>&1 &
sleep 0.3; kill -9 "$p"; wait
echo "answer after the kill: $(grep -v -e Timing -e Time -e '^SET' /tmp/killed.txt | head -1) (expected 64000000), $(grep Time /tmp/killed.txt)"
sleep 1
echo "service again: pid $(service_pid)"
psql -X -d bench -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) $join" | grep -E "Ran On|GPU"
grep -E "gpuexact|terminating any other" /tmp/pg.log | tail -4
} >"$OUT/faults.txt" 2>&1

echo "== regression SQL on the GPU through the service; test/service.sh; concurrency"
{
psql -q -d postgres -c "CREATE DATABASE regress"
psql -q -d regress -c "CREATE EXTENSION gpuexact"
for t in join plans cache intersects; do
	PGOPTIONS="-c gpuexact.device=gpu -c gpuexact.gpu_min_elements=0" psql -X -a -q -d regress <"sql/$t.sql" >"/tmp/$t.out" 2>&1
	diff "expected/$t.out" "/tmp/$t.out" >"/tmp/$t.diff" && echo "$t on GPU: same as expected" || { echo "$t on GPU: DIFFERS"; head -40 "/tmp/$t.diff"; }
done
GX_SERVER_LOG=/tmp/pg.log test/service.sh; echo "service.sh exit $?"
test/concurrency.sh 8 gpu; echo "concurrency exit $?"
GX_DIFF_SEEDS=30 test/differential.sh | tail -3; echo "differential exit $?"
} >"$OUT/tests.txt" 2>&1
cp /tmp/pg.log "$OUT/pg.log"
echo done
