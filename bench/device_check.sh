#!/usr/bin/env bash
# bench/device_check.sh: on the GPU machine (device tool; carry build/, gpuexact.so and .device): the CUDA
# engine's test, the regression SQL and the randomized differential test (test/differential.sh, GX_DIFF_SEEDS
# seeds, 16 by default) forced onto the GPU, the block proportions of bench/volumes.sql on the
# mining workload (BLOCKS, default 100000; a list runs each; gx_volume_pairs runs on the host's cores) and the
# nearest-neighbour latency of bench/knn.sql (100 000 points and segments), then regression SQL and the block
# proportions and the differential test through the GPU service (which keeps the solids on the GPU and filters
# there). Results under $OUT.
set -u
cd "$(dirname "$0")/.."
source bench/device_setup.sh

echo "== CUDA engine test"
./build/test_cuda_engine >"$OUT/cuda_test.txt" 2>&1
echo "test_cuda_engine exit $?" >>"$OUT/cuda_test.txt"
tail -2 "$OUT/cuda_test.txt"

echo "== regression SQL forced onto the GPU"
{
	psql -q -d postgres -c "CREATE DATABASE regress"
	psql -q -d regress -c "CREATE EXTENSION gpuexact"
	for t in join parallel intersects solids distance volumes contains knn tables intercepts; do
		PGOPTIONS="-c gpuexact.device=gpu -c gpuexact.gpu_min_elements=0" psql -X -a -q -d regress <"sql/$t.sql" >"/tmp/$t.out" 2>&1
		diff "expected/$t.out" "/tmp/$t.out" >"/tmp/$t.diff" && echo "$t on GPU: same as expected" || { echo "$t on GPU: DIFFERS"; head -40 "/tmp/$t.diff"; }
	done
} >"$OUT/sql_gpu.txt" 2>&1
cat "$OUT/sql_gpu.txt" | grep "on GPU"
PGOPTIONS="-c gpuexact.device=gpu -c gpuexact.gpu_min_elements=0" GX_DIFF_SEEDS=${GX_DIFF_SEEDS:-16} \
	test/differential.sh >"$OUT/differential_gpu.txt" 2>&1
echo "differential on the GPU: exit $?, $(tail -1 "$OUT/differential_gpu.txt")"

echo "== block proportions"
mkdir -p /tmp/mining && chmod 755 /tmp/mining
./build/bench_batch mining 1 --device gpu --reps 1 --copy /tmp/mining >"$OUT/bench_engine.txt" 2>&1
chmod 644 /tmp/mining/*
for n in ${BLOCKS:-100000}; do
	psql -X -d postgres -v dir=/tmp/mining -v blocks=$n -f bench/volumes.sql >"$OUT/volumes_$n.txt" 2>&1
	grep -E "Time|^ +[0-9]+ *(\\||$)" "$OUT/volumes_$n.txt" | head -20
done

echo "== nearest neighbours"
psql -X -d postgres -v n=100000 -f bench/knn.sql >"$OUT/knn.txt" 2>&1
tail -8 "$OUT/knn.txt"

# the same regression SQL through the GPU service (points located in kept solids on the GPU): its answers
# must be the expected ones; EXPLAIN's lines on where and how long a batch ran differ by nature
echo "== regression SQL through the GPU service"
restart "-c shared_preload_libraries=gpuexact"
sleep 2
{
	psql -q -d postgres -c "DROP DATABASE IF EXISTS regsvc" -c "CREATE DATABASE regsvc"
	psql -q -d regsvc -c "CREATE EXTENSION gpuexact"
	for t in join intersects solids contains volumes tables; do
		PGOPTIONS="-c gpuexact.device=gpu -c gpuexact.gpu_min_elements=0" psql -X -a -q -d regsvc <"sql/$t.sql" >"/tmp/svc_$t.out" 2>&1
		diff -I 'Ran On\|GPU\|Time\|Filter Undecided\|Decided Exactly\|Points Located\|Batches' "expected/$t.out" "/tmp/svc_$t.out" >"/tmp/svc_$t.diff" &&
			echo "$t through the service: same as expected" || { echo "$t through the service: DIFFERS"; head -40 "/tmp/svc_$t.diff"; }
	done
} >"$OUT/sql_service.txt" 2>&1
grep "through the service" "$OUT/sql_service.txt"
PGOPTIONS="-c gpuexact.device=gpu -c gpuexact.gpu_min_elements=0" GX_DIFF_SEEDS=${GX_DIFF_SEEDS:-16} \
	test/differential.sh >"$OUT/differential_service.txt" 2>&1
echo "differential through the service: exit $?, $(tail -1 "$OUT/differential_service.txt")"

# the block proportions again through the service: the solids kept there, filtered on the GPU
echo "== block proportions through the GPU service"
for n in ${BLOCKS:-100000}; do
	psql -X -d postgres -v dir=/tmp/mining -v blocks=$n -f bench/volumes.sql >"$OUT/volumes_service_$n.txt" 2>&1
	grep -E "Time|^ +[0-9]+ *(\\||$)" "$OUT/volumes_service_$n.txt" | head -20
done
echo done
