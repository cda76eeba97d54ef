#!/usr/bin/env bash
# bench/run_sql_bench.sh [SCALE]: the mining workload as SQL on this machine: gpuexact's batched join on the
# CPU (bench/join.sql) and PostGIS ST_3DIntersects with a 3D GiST index on the same data (bench/postgis.sql).
# Installs Debian's PostGIS for the comparison. Like demo.sh, run as root or with sudo.
set -euo pipefail
scale=${1:-1}
source "$(dirname "$0")/../tools/pgcluster.sh"
cd "$GX_ROOT"
GX_PACKAGES="$GX_PACKAGES postgresql-15-postgis-3"
gx_install_deps
gx_build_install
make -s build/bench_batch
data=$(mktemp -d /tmp/gpuexact-bench.XXXXXX)
chmod 755 "$data"
./build/bench_batch mining "$scale" --device cpu --reps 3 --copy "$data"
chmod 644 "$data"/*
gx_cluster_start
psql -q -d postgres -v dir="$data" -v device=cpu -f bench/join.sql
psql -q -d postgres -f bench/postgis.sql
psql -q -d postgres -f bench/postgis_near_miss.sql
rm -rf "$data"
