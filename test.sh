#!/usr/bin/env bash
# test.sh: the whole test suite on a fresh Debian 12 machine: installs dependencies, builds, runs the core
# library's unit tests (no PostgreSQL), then the pg_regress suite on a throwaway cluster.
# Every test program and every regression file counts as one test; the last line is "N passed, N failed".
set -uo pipefail
source "$(dirname "$0")/tools/pgcluster.sh"
cd "$GX_ROOT"
gx_install_deps || exit 1
gx_build_install || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
count() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $2"; fi; }

echo "== core unit tests"
# The STL reader's test reads the real collection from ../shared/data when it is there.
stl_dir=$(mktemp -d /tmp/gpuexact-stl.XXXXXX)
if [ -f "$GX_ROOT/../shared/data/stl-models-0.12.0.tgz" ]; then
	tar xzf "$GX_ROOT/../shared/data/stl-models-0.12.0.tgz" -C "$stl_dir" && export GX_STL_DIR="$stl_dir/package"
fi
make -s unittest-build >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
for t in $(make -s unittest-list); do
	"$t" test/fuzz/regressions | tail -n 3
	count "${PIPESTATUS[0]}" "$t"
done

rm -rf "$stl_dir"

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

echo "== concurrent sessions"
test/concurrency.sh 6
count $? test/concurrency.sh

echo "== differential: batched plans against the stock plan"
test/differential.sh
count $? test/differential.sh

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
