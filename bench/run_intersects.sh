#!/usr/bin/env bash
# bench/run_intersects.sh: issue 2's benchmark end to end: the core-library run, then the same data through
# SQL on a throwaway cluster (builds and installs the extension first, like demo.sh).
set -euo pipefail
source "$(dirname "$0")/../tools/pgcluster.sh"
cd "$GX_ROOT"
gx_install_deps
gx_build_install
make -s build/bench_intersects
data=$(mktemp -d /tmp/gpuexact-bench.XXXXXX)
chmod 755 "$data"
echo "== core library (no PostgreSQL)"
./build/bench_intersects --copy "$data"
chmod 644 "$data"/*.copy
gx_cluster_start
echo "== through SQL"
psql -q -v dir="$data" -f bench/intersects.sql
rm -rf "$data"
