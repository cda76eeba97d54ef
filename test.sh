#!/usr/bin/env bash
# test.sh: the whole test suite on a fresh Debian 12 machine: installs dependencies, builds, runs the core
# library's unit tests (no PostgreSQL), then the pg_regress suite and the shell tests on a throwaway cluster,
# and last a throwaway Citus cluster (test/citus.sh; skipped when the Citus source tarball is absent).
# Every test program, regression file and shell test counts as one test, and so does each group of checks a
# test program skips (printed as "SKIPPED: ...", counted on the line before the last); the last line is
# "N passed, N failed".
set -uo pipefail
source "$(dirname "$0")/tools/pgcluster.sh"
cd "$GX_ROOT"
# Chromium only for test/html.sh, which opens the HTML page of a scene in a real browser (skipped without it)
GX_PACKAGES="$GX_PACKAGES chromium"
# gdal-bin only for test/ogr.sh, which loads files that ogr2ogr writes through gx-load (skipped without it)
GX_PACKAGES="$GX_PACKAGES gdal-bin"
gx_install_deps || exit 1
gx_build_install || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
skipped=0
count() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $2"; fi; }
# A shell test that exits 77 when it cannot run on this machine: then counted as skipped.
optional() { "$@"; local rc=$?; if [ "$rc" = 77 ]; then skipped=$((skipped + 1)); else count $rc "$1"; fi; }
# A shell test some of whose checks may not run here, each printing a "SKIPPED: ..." line, counted as skipped.
with_skips() {
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	echo "$out"
	skipped=$((skipped + $(grep -c '^SKIPPED: ' <<<"$out")))
	count $rc "$1"
}

echo "== core unit tests"
# The STL reader's test reads the stl-models collection from GX_STL_DIR, else from ../shared/data when there.
unit_dir=$(mktemp -d /tmp/gpuexact-unit.XXXXXX)
if [ -z "${GX_STL_DIR:-}" ] && [ -f "$GX_ROOT/../shared/data/stl-models-0.12.0.tgz" ]; then
	tar xzf "$GX_ROOT/../shared/data/stl-models-0.12.0.tgz" -C "$unit_dir" && export GX_STL_DIR="$unit_dir/package"
fi
make -s unittest-build >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
for t in $(make -s unittest-list); do
	"$t" test/fuzz/regressions >"$unit_dir/out"
	rc=$?
	grep -v '^SKIPPED: ' "$unit_dir/out" | tail -n 3
	grep '^SKIPPED: ' "$unit_dir/out"
	skipped=$((skipped + $(grep -c '^SKIPPED: ' "$unit_dir/out")))
	count $rc "$t"
done

rm -rf "$unit_dir"

echo "== the booleans' volumes and solids against CGAL (test/oracle, where CGAL's headers are)"
oracle_out=$(test/oracle/run.sh 2>&1)
rc=$?
echo "$oracle_out" | tail -n 3
if grep -q '^SKIPPED: ' <<<"$oracle_out"; then skipped=$((skipped + 1)); else count $rc test/oracle/run.sh; fi

echo "== the core's folders call one way (docs/architecture.md)"
test/layers.sh
count $? test/layers.sh

echo "== every SQL object and setting has its entry in docs/reference.md"
test/docs_reference.sh
count $? test/docs_reference.sh

echo "== pg_regress"
gx_cluster_start
make -s installcheck >regress.log 2>&1
cat regress.log | grep -E '^(ok|not ok|test| +[a-z_]+ +\.\.\.)|tests|failed' || true
r_ok=$(grep -cE '^ok |^test .* \.\.\. ok|     ok ' regress.log || true)
r_bad=$(grep -cE '^not ok |\.\.\. FAILED|FAILED \(test process' regress.log || true)
passed=$((passed + r_ok))
failed=$((failed + r_bad))
if [ "$r_bad" != 0 ] || [ "$r_ok" = 0 ]; then
	[ -f regression.diffs ] && head -n 200 regression.diffs
	[ "$r_ok" = 0 ] && [ "$r_bad" = 0 ] && failed=$((failed + 1))
fi
rm -f regress.log

echo "== the PostGIS bridge (gpuexact_postgis)"
optional test/postgis_bridge.sh

echo "== concurrent sessions"
test/concurrency.sh 6
count $? test/concurrency.sh

echo "== join sides kept as whole tables, across sessions and snapshots"
test/kept_tables.sh
count $? test/kept_tables.sh

echo "== gx-load as a plain role"
test/gx_load.sh
count $? test/gx_load.sh

echo "== GOCAD and Surpac files through gx-load (../shared/data/geology when present)"
with_skips test/geology.sh

echo "== files of any format OGR reads through gx-load, written by ogr2ogr where it is installed"
optional test/ogr.sh

echo "== drill holes from CSV through gx-load --drillholes"
with_skips test/drillholes.sh

echo "== what gpuexact writes, read by other programs (GeoJSON, glTF, STL, OBJ)"
test/writers.sh
count $? test/writers.sh

echo "== the HTML page of a scene, in headless Chromium where it is installed"
with_skips test/html.sh

echo "== CGAL's GOCAD reader reads gx_asgocad's TSurfs (where CGAL's headers are)"
optional test/cgal_gocad.sh

echo "== transforms against Python's exact rationals"
test/affine_fraction.sh
count $? test/affine_fraction.sh

echo "== differential: batched plans against the stock plan"
test/differential.sh
count $? test/differential.sh

echo "== the GPU service (preloaded; its CPU engine where there is no GPU)"
gx_cluster_restart "-c shared_preload_libraries=gpuexact -c gpuexact.service_cpu=${GX_SERVICE_CPU:-auto}"
test/service.sh
count $? test/service.sh
test/concurrency.sh 6
count $? "test/concurrency.sh (through the service)"
test/kept_tables.sh
count $? "test/kept_tables.sh (through the service)"
GX_DIFF_SEEDS=10 test/differential.sh
count $? "test/differential.sh (through the service)"

echo "== Citus: a coordinator and 2 workers on this machine (built once from ../shared/vendor)"
citus_out=$(test/citus.sh 2>&1)
rc=$?
echo "$citus_out"
if grep -q '^SKIPPED: ' <<<"$citus_out"; then skipped=$((skipped + 1)); else count $rc test/citus.sh; fi

echo "$skipped skipped (see the SKIPPED lines above)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
