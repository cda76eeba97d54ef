#!/usr/bin/env bash
# bench/device_overlaps.sh: gx_overlap_pairs on the GPU machine (device tool): the CUDA engine test (its overlap
# checks among the others); bench_overlaps at scales 1 and 10 on the GPU and the CPU (the lists identical, volumes
# bit for bit); then bench/overlaps.sql on the 2 000 bodies of `bench_batch mining 10`, in the backend on its CPU
# threads, and through the GPU service (shared_preload_libraries = gpuexact) with the GPU's part, each row checked
# against gx_intersection_volume. Expects the build carried (gpuexact.so, build/) and .device (see
# bench/device_run.sh). SCALE (default 10) sets the SQL's scale.
set -u
cd "$(dirname "$0")/.."
SCALE=${SCALE:-10}
source bench/device_setup.sh

echo "== CUDA engine test"
./build/test_cuda_engine >"$OUT/cuda_test.txt" 2>&1; echo "exit $?" >>"$OUT/cuda_test.txt"

echo "== bench_overlaps"
{
	./build/bench_overlaps 1 --device both --reps 3; echo "exit $?"
	./build/bench_overlaps 10 --device both --reps 3; echo "exit $?"
} >"$OUT/bench_overlaps.txt" 2>&1

echo "== SQL, in the backend"
mkdir -p /tmp/mining_ov && chmod 755 /tmp/mining_ov
./build/bench_batch mining "$SCALE" --device cpu --reps 1 --copy /tmp/mining_ov >/dev/null 2>&1
chmod 644 /tmp/mining_ov/*
PGOPTIONS="-c gpuexact.device=cpu" psql -X -d postgres -v dir=/tmp/mining_ov -f bench/overlaps.sql \
	>"$OUT/overlaps_sql_backend.txt" 2>&1

echo "== SQL, through the GPU service"
restart "-c shared_preload_libraries=gpuexact"
sleep 3
{
	psql -X -d postgres -f bench/overlaps_timed.sql
	echo "per pair = service: rows whose volume is not gx_intersection_volume's:"
	psql -X -At -d postgres -c "SELECT count(*) FROM gx_overlap_pairs('SELECT id, geom FROM bodies', 'SELECT id, geom FROM bodies') p
		JOIN bodies a ON a.id = p.a_id JOIN bodies b ON b.id = p.b_id WHERE p.volume <> gx_intersection_volume(a.geom, b.geom)"
	echo "the lists of the service and of the backend:"
	psql -X -At -d postgres -c "SELECT md5(string_agg(format('%s %s %s', a_id, b_id, volume::text), ',' ORDER BY a_id, b_id))
		FROM gx_overlap_pairs('SELECT id, geom FROM bodies', 'SELECT id, geom FROM bodies')"
	psql -X -At -d postgres -c "SET gpuexact.device = cpu" -c "SELECT md5(string_agg(format('%s %s %s', a_id, b_id, volume::text), ',' ORDER BY a_id, b_id))
		FROM gx_overlap_pairs('SELECT id, geom FROM bodies', 'SELECT id, geom FROM bodies')"
	grep -i gpuexact /tmp/pg.log | tail -5
} >"$OUT/overlaps_sql_service.txt" 2>&1
