#!/usr/bin/env bash
# demo.sh: sets everything up on a fresh Debian 12 machine (packages, build, install, throwaway cluster),
# loads the built-in drill-hole / ore-body demo dataset (data/demo.sql) and the geologist's collars, surveys and
# assays (data/mining.sql), prints the answer of the exact join, the drilling summary and the ore inside a pit
# shell (data/demo_pit.sql), and writes the answer as a 3D scene (data/demo_scene.sql: the ore bodies, the pit
# shell and the ore inside it, and the holes coloured by their assays' grade), as demo.glb for glTF viewers and
# demo.html for a browser.
set -euo pipefail
source "$(dirname "$0")/tools/pgcluster.sh"
gx_install_deps
gx_build_install
gx_cluster_start
psql -q -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/demo.sql"
psql -q -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/mining.sql"
psql -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/demo_query.sql"
psql -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/mining_query.sql"
psql -v ON_ERROR_STOP=1 -f "$GX_ROOT/data/demo_pit.sql"
for f in demo.glb demo.html; do
	"$GX_ROOT/tools/gx-export" --no-progress -- "$(cat "$GX_ROOT/data/demo_scene.sql")" "$GX_ROOT/$f" >/dev/null
done
echo "wrote $GX_ROOT/demo.glb ($(stat -c %s "$GX_ROOT/demo.glb") bytes), for any glTF viewer, and" \
	"$GX_ROOT/demo.html ($(stat -c %s "$GX_ROOT/demo.html") bytes), for a browser: the ore bodies, the pit shell and" \
	"the ore inside it, and the holes coloured by grade (data/demo_scene.sql)"
