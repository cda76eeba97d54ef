#!/usr/bin/env bash
# bench/join_intercepts.sh DB [SOLIDS] [N]: the join of the holes with solid bodies and gx_intercepts_pairs of
# the same, alternated N times (default 10) in one session after one of each to warm up: the best of each and
# their ratio. DB is the database bench/blocks.sql fills (tables holes, and bodies made solids); SOLIDS is
# a table of them (default bodies), or a number k: the bodies with id <= k, copied once into the table
# bodies_k (vacuumed, so that joins keep it whole). Connection from the PG* environment.
set -eu
db=$1 solids=${2:-bodies} n=${3:-10}
if [[ $solids =~ ^[0-9]+$ ]]; then
	k=$solids solids=bodies_$solids
	psql -X -q -d "$db" -c "SET client_min_messages = warning" \
		-c "CREATE TABLE IF NOT EXISTS $solids AS SELECT * FROM bodies WHERE id <= $k" \
		-c "VACUUM ANALYZE $solids"
fi
{
	echo '\timing on'
	for i in $(seq 0 "$n"); do
		echo "SELECT count(*) FROM holes h JOIN $solids b ON gx_intersects(h.geom, b.geom);"
		echo "SELECT count(*) FROM gx_intercepts_pairs('SELECT id, geom FROM holes', 'SELECT id, geom FROM $solids');"
	done
} | psql -X -q -d "$db" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' |
	awk 'NR > 2 { if (NR % 2) { if (!j || $1 < j) j = $1 } else if (!k || $1 < k) k = $1 }
		END { printf "join %.2f ms, gx_intercepts_pairs %.2f ms: %.2f times the join\n", j, k, k / j }'
