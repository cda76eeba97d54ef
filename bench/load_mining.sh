#!/usr/bin/env bash
# bench/load_mining.sh DIR DB: the mining workload written by `build/bench_batch mining SCALE --copy DIR` loaded
# into database DB as the tables holes and bodies (bench/mining_tables.sql), the bodies' file split into one
# part per core and copied by as many sessions at once; exits 1 when any COPY failed.
set -eu
dir=$1 db=$2
parts=$(nproc)
psql -X -q -d "$db" -v empty=1 -f "$(dirname "$0")/mining_tables.sql"
psql -X -q -d "$db" -c "COPY holes FROM '$dir/a.copy'"
split -n l/"$parts" -d "$dir/b.copy" "$dir/b.part."
chmod 644 "$dir"/b.part.*
pids="" failed=0
for f in "$dir"/b.part.*; do
	psql -X -q -d "$db" -c "COPY bodies FROM '$f'" &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || failed=1; done
rm -f "$dir"/b.part.*
[ "$failed" = 0 ] || { echo "load_mining.sh: a COPY failed" >&2; exit 1; }
