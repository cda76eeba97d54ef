#!/usr/bin/env bash
# bench/device_solids.sh: solids on the GPU machine (device tool): bench_solid on GPU and CPU (1 000 000-triangle
# body, mining intercepts, identical answers), the SQL of bench/solids.sql on both, and the solids regression
# file forced onto the GPU. Expects the build carried (gpuexact.so, build/) and .device (see bench/device_run.sh).
set -u
cd "$(dirname "$0")/.."
source bench/device_setup.sh

echo "== bench_solid"
{
	./build/bench_solid --body-n 500 --device both --cuda-lib build/gpuexact_cuda.so; echo "exit $?"
	./build/bench_solid --body-n 500 --device cpu --threads 1 --scale 0.01; echo "exit $?"
} >"$OUT/bench_solid.txt" 2>&1

echo "== SQL"
mkdir -p /tmp/mining && chmod 755 /tmp/mining
./build/bench_batch mining 1 --device cpu --reps 1 --copy /tmp/mining >/dev/null 2>&1
chmod 644 /tmp/mining/*
{
	for d in gpu cpu; do
		echo "#### device $d"
		psql -d postgres -v dir=/tmp/mining -v device=$d -f bench/solids.sql
	done
	psql -q -d postgres -c "CREATE DATABASE regress"
	psql -q -d regress -c "CREATE EXTENSION gpuexact"
	PGOPTIONS="-c gpuexact.device=gpu -c gpuexact.gpu_min_elements=0" psql -X -a -q -d regress <sql/solids.sql >/tmp/solids.out 2>&1
	diff expected/solids.out /tmp/solids.out >/tmp/solids.diff && echo "solids on GPU: same as expected" || { echo "solids on GPU: DIFFERS"; head -40 /tmp/solids.diff; }
} >"$OUT/bench_solids_sql.txt" 2>&1
