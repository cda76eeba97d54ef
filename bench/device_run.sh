#!/usr/bin/env bash
# bench/device_run.sh: everything measured on the GPU machine in one run (device tool, see README):
# the engine benchmarks (mining, mesh) on GPU and CPU, the SQL join on the GPU,
# the regression SQL forced onto the GPU, concurrent sessions on one GPU, and cancel of a GPU batch.
# Expects the build carried (gpuexact.so, build/), .device (PostgreSQL debs, pg-device.sh, bunny.bin.stl).
set -u
cd "$(dirname "$0")/.."
source bench/device_setup.sh


echo "== engine benchmarks"
mkdir -p /tmp/mining /tmp/mesh && chmod 755 /tmp/mining /tmp/mesh
{
	./build/bench_batch mining 1 --device both --reps 5 --copy /tmp/mining; echo "exit $?"
	./build/bench_batch mining 4 --device both --reps 3; echo "exit $?"
	./build/bench_batch mesh .device/bunny.bin.stl 2 0.1 --device both --reps 3 --copy /tmp/mesh; echo "exit $?"
	./build/bench_batch mesh .device/bunny.bin.stl 2 0.1 --device gpu --reps 3 --float-pass 1; echo "exit $?"
	./build/bench_batch mesh .device/bunny.bin.stl 3 0.1 --device gpu --reps 3; echo "exit $?"
} >"$OUT/bench_engine.txt" 2>&1
chmod 644 /tmp/mining/* /tmp/mesh/*

echo "== SQL joins on the GPU"
{
	for c in pglz lz4; do
		echo "#### mining, $c"
		psql -d postgres -v dir=/tmp/mining -v device=gpu -v compression=$c -f bench/join.sql
	done
	echo "#### mesh, lz4"
	psql -d postgres -v dir=/tmp/mesh -v device=gpu -v compression=lz4 -f bench/join.sql
	echo "#### mining, lz4, CPU (16 threads)"
	psql -d postgres -v dir=/tmp/mining -v device=cpu -v compression=lz4 -f bench/join.sql
} >"$OUT/bench_sql.txt" 2>&1

echo "== regression SQL forced onto the GPU, cancel"
{
	psql -q -d postgres -c "CREATE DATABASE regress"
	psql -q -d regress -c "CREATE EXTENSION gpuexact"
	for t in join parallel intersects; do
		PGOPTIONS="-c gpuexact.device=gpu -c gpuexact.gpu_min_elements=0" psql -X -a -q -d regress <"sql/$t.sql" >"/tmp/$t.out" 2>&1
		diff "expected/$t.out" "/tmp/$t.out" >"/tmp/$t.diff" && echo "$t on GPU: same as expected" || { echo "$t on GPU: DIFFERS"; head -40 "/tmp/$t.diff"; }
	done
	test/concurrency.sh 8 gpu; echo "concurrency exit $?"
	echo "== cancel of a GPU batch (statement_timeout 100ms): elapsed until the error"
	psql -d regress <<'SQL'
CREATE TABLE east AS SELECT i AS id, format('LINESTRING(%s -1000 0, %s 1000 0)', i * 0.01, -i * 0.01)::gxgeom AS geom FROM generate_series(1, 12000) i;
CREATE TABLE north AS SELECT i AS id, format('LINESTRING(-1000 %s 0, 1000 %s 0)', i * 0.013, -i * 0.011)::gxgeom AS geom FROM generate_series(1, 12000) i;
SET gpuexact.device = gpu;
\timing on
SELECT count(*) FROM (SELECT * FROM east LIMIT 3000) e JOIN (SELECT * FROM north LIMIT 3000) n ON gx_intersects(e.geom, n.geom);
SET statement_timeout = '100ms';
SELECT count(*) FROM gx_intersecting_pairs('SELECT id, geom FROM east', 'SELECT id, geom FROM north');
SELECT count(*) FROM east e JOIN north n ON gx_intersects(e.geom, n.geom);
RESET statement_timeout;
SELECT count(*) FROM east e JOIN north n ON gx_intersects(e.geom, n.geom) WHERE e.id <= 100 AND n.id <= 100;
SQL
} >"$OUT/sql_gpu.txt" 2>&1
echo done
