#!/usr/bin/env bash
# test/concurrency.sh: several sessions run batched joins at once (on one GPU when there is one, else on the
# CPU) and each must return exactly the per-pair answer. Uses the cluster in PGHOST/PGPORT/PGUSER; loads the
# demo dataset into its own database. Usage: test/concurrency.sh [SESSIONS] [DEVICE]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sessions=${1:-6}
device=${2:-auto}
db=gpuexact_concurrency
query="SELECT h.hole_id, b.body_id FROM drillholes h JOIN orebodies b ON gx_intersects(h.geom, b.geom) ORDER BY 1, 2"
psql -q -d postgres -c "DROP DATABASE IF EXISTS $db" 2>/dev/null; psql -q -d postgres -c "CREATE DATABASE $db" || exit 1
psql -q -d $db -v ON_ERROR_STOP=1 -f "$root/data/demo.sql" >/dev/null || exit 1
out=$(mktemp -d /tmp/gpuexact-conc.XXXXXX)
psql -At -d $db -c "SET gpuexact.enable_join = off" -c "$query" | grep -v '^SET$' >"$out/reference" || exit 1
for s in $(seq 1 "$sessions"); do
	psql -At -d $db -c "SET gpuexact.device = $device" -c "SET gpuexact.gpu_min_elements = 0" \
		-c "$query" -c "$query" -c "$query" >"$out/session$s" 2>&1 &
done
wait
failed=0
for s in $(seq 1 "$sessions"); do
	# three runs per session, each identical to the reference
	if ! diff -q <(cat "$out/reference" "$out/reference" "$out/reference") <(grep -v '^SET$' "$out/session$s") >/dev/null; then
		echo "session $s differs from the per-pair answer:"; head -5 "$out/session$s"; failed=1
	fi
done
pairs=$(wc -l <"$out/reference")
echo "concurrency: $sessions sessions x 3 batched joins ($device), $pairs pairs each: $([ $failed = 0 ] && echo same answers || echo DIFFERENT)"
rm -rf "$out"
psql -q -d postgres -c "DROP DATABASE $db"
exit $failed
