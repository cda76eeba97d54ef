#!/usr/bin/env bash
# bench/device_booleans.sh: the booleans of solids on the GPU machine (device tool), through the GPU service
# (shared_preload_libraries = gpuexact): the 2 000 bodies of `bench_batch mining SCALE` (default 10) against a
# pit bowl of PIT triangles (default 500 000), bench/booleans.sql: a call per body and one batch each
# (gx_overlap_pairs, gx_intersection_pairs), timed, the batches' rows checked against the calls'. Expects the
# build carried (gpuexact.so, build/) and .device (see bench/device_run.sh). Output in $OUT/booleans.txt.
set -u
cd "$(dirname "$0")/.."
SCALE=${SCALE:-10}
PIT=${PIT:-500000}
source bench/device_setup.sh
restart "-c shared_preload_libraries=gpuexact"
sleep 3
dir=/tmp/mining_bool
mkdir -p "$dir" && chmod 755 "$dir"
./build/bench_batch mining "$SCALE" --device cpu --reps 1 --copy "$dir" >/dev/null 2>&1
chmod 644 "$dir"/*
psql -X -d postgres -v dir="$dir" -v pit_triangles="$PIT" -f bench/booleans.sql >"$OUT/booleans.txt" 2>&1
cat "$OUT/booleans.txt"
