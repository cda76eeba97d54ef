#!/usr/bin/env bash
# demo.sh: sets everything up on a fresh Debian 12 machine (packages, build, install, throwaway cluster),
# loads the built-in drill-hole / ore-body demo dataset (data/demo.sql) and the geologist's collars, surveys and
# assays (data/mining.sql), and prints the answer of the exact join and the drilling summary.
set -euo pipefail
source "$(dirname "$0")/tools/pgcluster.sh"
gx_install_deps
gx_build_install
gx_cluster_start
psql -q -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/demo.sql"
psql -q -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/mining.sql"
psql -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/demo_query.sql"
psql -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/mining_query.sql"
