#!/usr/bin/env bash
# test/postgis_bridge.sh: the gpuexact_postgis bridge's regression test (postgis/sql/postgis_bridge.sql) on the
# cluster test.sh started; exits 77 (skipped) when PostGIS (postgresql-15-postgis-3) is not installed.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ ! -f "$(pg_config --sharedir)/extension/postgis.control" ]; then
	echo "SKIPPED: test/postgis_bridge.sh: PostGIS is not installed (postgresql-15-postgis-3)"
	exit 77
fi
rm -f postgis/regression.diffs
# pg_regress's own chatter goes to a log: the test's one result line is shown, and the diffs when it fails
log=$(mktemp /tmp/gpuexact-bridge.XXXXXX)
make -s installcheck-postgis >"$log" 2>&1
rc=$?
grep -E '^(ok|not ok) |\.\.\. (ok|FAILED)' "$log" || cat "$log"
[ "$rc" != 0 ] && [ -f postgis/regression.diffs ] && head -n 150 postgis/regression.diffs
rm -f "$log"
exit $rc
