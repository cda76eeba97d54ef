#!/usr/bin/env bash
# bench/device_distance.sh: gx_dwithin on the GPU machine (device tool): the engine at 25 m against its own
# intersection run (GPU and CPU, identical pair lists checked by bench_batch), the SQL join (bench/dwithin.sql)
# on both devices, and the distance regression file forced onto the GPU.
# Expects the build carried (gpuexact.so, build/) and .device (see bench/device_run.sh).
set -u
cd "$(dirname "$0")/.."
source bench/device_setup.sh
mkdir -p /tmp/mining && chmod 755 /tmp/mining
{
	./build/bench_batch mining 1 --device both --reps 5 --copy /tmp/mining; echo "exit $?"
	./build/bench_batch mining 1 --device both --reps 5 --distance 25; echo "exit $?"
	./build/bench_batch mining 1 --device both --reps 3 --distance 100; echo "exit $?"
	./build/bench_batch mining 4 --device both --reps 3 --distance 25; echo "exit $?"
} >"$OUT/bench_distance_engine.txt" 2>&1
chmod 644 /tmp/mining/*
{
	for d in gpu cpu; do
		echo "#### device $d"
		psql -d postgres -v dir=/tmp/mining -v device=$d -f bench/dwithin.sql
	done
	psql -q -d postgres -c "CREATE DATABASE regress"
	psql -q -d regress -c "CREATE EXTENSION gpuexact"
	for t in distance solids; do
		PGOPTIONS="-c gpuexact.device=gpu -c gpuexact.gpu_min_elements=0" psql -X -a -q -d regress <"sql/$t.sql" >"/tmp/$t.out" 2>&1
		diff "expected/$t.out" "/tmp/$t.out" >"/tmp/$t.diff" && echo "$t on GPU: same as expected" || { echo "$t on GPU: DIFFERS"; head -40 "/tmp/$t.diff"; }
	done
} >"$OUT/bench_distance_sql.txt" 2>&1
# the GPU service (preloaded, on the GPU): the service test, its gx_dwithin checks included
restart "-c shared_preload_libraries=gpuexact"
GX_SERVER_LOG=/tmp/pg.log test/service.sh >"$OUT/service_gpu.txt" 2>&1; echo "service test exit $?" >>"$OUT/service_gpu.txt"
