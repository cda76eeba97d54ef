#!/usr/bin/env bash
# demo.sh: sets everything up on a fresh Debian 12 machine (packages, build, install, throwaway cluster),
# loads the built-in drill-hole / ore-body demo dataset (data/demo.sql) and the geologist's collars, surveys and
# assays (data/mining.sql), prints the answer of the exact join and the drilling summary, and writes the
# result as a 3D scene, demo.glb (holes that meet an ore body in red, the others in blue, the bodies gold).
set -euo pipefail
source "$(dirname "$0")/tools/pgcluster.sh"
gx_install_deps
gx_build_install
gx_cluster_start
psql -q -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/demo.sql"
psql -q -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/mining.sql"
psql -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/demo_query.sql"
psql -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/mining_query.sql"
"$GX_ROOT/tools/gx-export" --no-progress "SELECT h.geom, CASE WHEN EXISTS (SELECT FROM orebodies b
		WHERE gx_intersects(h.geom, b.geom)) THEN ARRAY[0.85, 0.1, 0.1] ELSE ARRAY[0.2, 0.4, 0.9] END FROM drillholes h
	UNION ALL SELECT geom, ARRAY[0.9, 0.7, 0.1, 0.6] FROM orebodies" "$GX_ROOT/demo.glb" >/dev/null
echo "wrote $GX_ROOT/demo.glb ($(stat -c %s "$GX_ROOT/demo.glb") bytes): the drill holes and ore bodies, for any glTF viewer"
