#!/usr/bin/env bash
# test/drillholes.sh: gx-load --drillholes against the cluster in PGHOST/PGPORT/PGUSER: the demo's collars,
# surveys and assays (data/demo.sql, data/mining.sql) written out as CSV with the headers of mining exports,
# loaded back, give bit for bit the traces of the hand-written SQL (data/mining.sql's holes, docs/mining.md's
# query) and the same assays; their intercepts with the bodies go out as CSV intervals (gx-export) and
# back; each kind of bad row gives its message and loads nothing; the pygslib files of
# ../shared/data/geology/drillhole load when present. Exit status 0 when every check passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
db=gpuexact_drillholes
tmp=$(mktemp -d /tmp/gpuexact-drillholes.XXXXXX)
shared=$root/../shared/data/geology/drillhole
failed=0
export PGOPTIONS="-c client_min_messages=warning"

check() {
	if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAILED: $1: expected '$3', got '$2'"; failed=1; fi
}
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d $db -c "$1"; }
cleanup() {
	rm -rf "$tmp"
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db"
}
trap cleanup EXIT
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
q "CREATE EXTENSION gpuexact" || exit 1
PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -d $db -f "$root/data/demo.sql" -f "$root/data/mining.sql" \
	>/dev/null || exit 1

# The demo's tables as a drilling database exports them (float8 text reads back to the same doubles).
q "COPY (SELECT name AS \"HOLEID\", gx_xmin(collar) AS \"EAST\", gx_ymin(collar) AS \"NORTH\", gx_zmin(collar) AS \"RL\",
	end_depth AS \"LENGTH\" FROM collars ORDER BY hole_id) TO STDOUT WITH (FORMAT csv, HEADER)" >"$tmp/collars.csv"
q "COPY (SELECT name AS \"HOLE_ID\", depth AS \"AT\", azimuth AS \"AZI\", dip AS \"DIP\" FROM surveys JOIN collars USING (hole_id)
	ORDER BY hole_id, depth) TO STDOUT WITH (FORMAT csv, HEADER)" >"$tmp/surveys.csv"
q "COPY (SELECT name AS \"BHID\", from_m AS \"FROM\", to_m AS \"TO\", grade AS \"AU\" FROM assays JOIN collars USING (hole_id)
	ORDER BY hole_id, from_m) TO STDOUT WITH (FORMAT csv, HEADER)" >"$tmp/assays.csv"
"$root/tools/gx-load" --drillholes -d $db --srid 32633 --step 5 --prefix s5 "$tmp/collars.csv" "$tmp/surveys.csv" \
	"$tmp/assays.csv" >"$tmp/out" 2>&1 || { cat "$tmp/out"; failed=1; }
check "traces at step 5 equal data/mining.sql's holes" \
	"$(q "SELECT count(*) FILTER (WHERE gx_asewkb(h.geom) = gx_asewkb(d.geom)), count(*), (SELECT count(*) FROM s5_holes)
		FROM holes h JOIN collars c USING (hole_id) LEFT JOIN s5_holes d ON d.hole_id = c.name")" "231|231|231"
check "assays equal" "$(q "SELECT count(*) FILTER (WHERE d.to_m = a.to_m AND d.au = a.grade), count(*), (SELECT count(*) FROM s5_assays)
		FROM assays a JOIN collars c USING (hole_id) LEFT JOIN s5_assays d ON d.hole_id = c.name AND d.from_m = a.from_m")" \
	"$(q "SELECT count(*) || '|' || count(*) || '|' || count(*) FROM assays")"
"$root/tools/gx-load" --drillholes -d $db --srid 32633 --step 1 --prefix s1 "$tmp/collars.csv" "$tmp/surveys.csv" \
	>"$tmp/out" 2>&1 || { cat "$tmp/out"; failed=1; }
# docs/mining.md's query, step_m => 1
check "traces at step 1 equal docs/mining.md's query" \
	"$(q "SELECT count(*) FILTER (WHERE gx_asewkb(h.geom) = gx_asewkb(d.geom)), count(*) FROM (
		SELECT c.name, gx_desurvey(c.collar, array_agg(s.depth ORDER BY s.depth), array_agg(s.azimuth ORDER BY s.depth),
			array_agg(s.dip ORDER BY s.depth), step_m => 1) AS geom
		FROM collars c JOIN surveys s USING (hole_id) GROUP BY c.hole_id, c.collar) h JOIN s1_holes d ON d.hole_id = h.name")" \
	"231|231"

# The intercepts of the loaded traces with the ore bodies as CSV intervals (gx-export), read back the same.
query="SELECT a_id AS hole_id, b_id AS body_id, from_m, to_m FROM gx_intercepts_pairs('SELECT hole_id, geom FROM s5_holes',
	'SELECT body_id, geom FROM orebodies', NULL::text) ORDER BY 1, 2, 3"
"$root/tools/gx-export" -d $db "$query" "$tmp/intercepts.csv" >/dev/null || failed=1
q "CREATE TABLE intercepts_back (hole_id text, body_id text, from_m float8, to_m float8)"
psql -X -q -d $db -c "\copy intercepts_back FROM '$tmp/intercepts.csv' WITH (FORMAT csv, HEADER)" || failed=1
check "intercepts as CSV intervals, read back the same" \
	"$(q "SELECT count(*) FROM ($query) i JOIN intercepts_back b USING (hole_id, body_id, from_m, to_m)")|$(head -n 1 "$tmp/intercepts.csv")" \
	"$(q "SELECT count(*) FROM ($query) i")|hole_id,body_id,from_m,to_m"
check "intercepts found" "$(q "SELECT count(*) > 0 FROM intercepts_back")" t

# Bad rows: each its message, and nothing loaded.
printf 'HOLEID,EAST,NORTH,RL,LENGTH\nA,0,0,100,50\nB,10,0,100,50\nC,20,0,100,50\n' >"$tmp/c.csv"
printf 'HOLEID,DEPTH,AZIMUTH,DIP\nA,0,0,-90\nA,50,0,-90\nB,0,0,-60\nB,40,10,-60\n' >"$tmp/s.csv"
printf 'HOLEID,FROM,TO,CU\nA,0,10,0.5\nA,12,20,0.7\nA,40,55,1.1\n' >"$tmp/a.csv"
bad() {
	local what=$1 expected=$2 out
	shift 2
	out=$("$root/tools/gx-load" --drillholes -d $db --prefix bad "$@" 2>&1)
	check "$what" "$([ $? = 0 ] && echo loaded || echo refused):$(grep -cF -- "$expected" <<<"$out")" \
		"$([ "$what" = "${what#warning}" ] && echo refused || echo loaded):1"
	[ "$what" = "${what#warning}" ] || q "DROP TABLE IF EXISTS bad_a, bad_holes, bad_surveys, bad_collars" >/dev/null
	[ "$(grep -cF -- "$expected" <<<"$out")" = 1 ] || echo "$out"
}
bad "warnings: collar without surveys" "warning: $tmp/c.csv:4: hole C: collar without surveys: no trace" "$tmp/c.csv" "$tmp/s.csv" "$tmp/a.csv"
bad "warnings: gap" "warning: $tmp/a.csv:3: hole A: gap from 10 to 12 before this interval" "$tmp/c.csv" "$tmp/s.csv" "$tmp/a.csv"
bad "warnings: interval past the end" "warning: $tmp/a.csv:4: hole A: interval to 55 past the end of the hole (50)" \
	"$tmp/c.csv" "$tmp/s.csv" "$tmp/a.csv"
printf 'HOLEID,DEPTH,AZIMUTH,DIP\nA,0,0,-90\nA,60,0,-90\nB,0,0,-60\nB,40,10,-60\n' >"$tmp/s_end.csv"
bad "warnings: survey past the end" "warning: $tmp/s_end.csv:3: hole A: survey at depth 60 past the end of the hole (50)" \
	"$tmp/c.csv" "$tmp/s_end.csv"
printf 'HOLEID,DEPTH,AZIMUTH,DIP\nA,0,0,-90\nA,50,0,-90\nA,30,0,-90\n' >"$tmp/s_order.csv"
bad "surveys out of order" "error: $tmp/s_order.csv:4: hole A: survey at depth 30 after depth 50 (line 3): out of order" \
	"$tmp/c.csv" "$tmp/s_order.csv"
printf 'HOLEID,DEPTH,AZIMUTH,DIP\nA,0,0,-90\nA,50,0,-90\nA,50,0,-80\n' >"$tmp/s_rep.csv"
bad "survey depth repeated" "error: $tmp/s_rep.csv:4: hole A: survey at depth 50 after depth 50 (line 3): depth repeated" \
	"$tmp/c.csv" "$tmp/s_rep.csv"
printf 'HOLEID,DEPTH,AZIMUTH,DIP\nA,0,0,-90\nZ,0,0,-90\n' >"$tmp/s_orphan.csv"
bad "survey without a collar" "error: $tmp/s_orphan.csv:3: hole Z: survey of a hole without a collar" "$tmp/c.csv" "$tmp/s_orphan.csv"
printf 'HOLEID,DEPTH,AZIMUTH,DIP\nA,0,0,-90\nA,ten,0,-90\n' >"$tmp/s_nan.csv"
bad "a value not a number" "error: $tmp/s_nan.csv:3: hole A: DEPTH: not a number: 'ten'" "$tmp/c.csv" "$tmp/s_nan.csv"
printf 'HOLEID,EAST,NORTH,RL\nA,0,0,100\nA,1,1,100\n' >"$tmp/c_dup.csv"
bad "collar given twice" "error: $tmp/c_dup.csv:3: hole A: collar given twice (first at line 2)" "$tmp/c_dup.csv" "$tmp/s.csv"
printf 'HOLEID,FROM,TO,CU\nA,0,10,0.5\nA,0,10,0.6\n' >"$tmp/a_dup.csv"
bad "duplicate interval" "error: $tmp/a_dup.csv:3: hole A: interval from 0 to 10 repeated (line 2)" "$tmp/c.csv" "$tmp/s.csv" "$tmp/a_dup.csv"
printf 'HOLEID,FROM,TO,CU\nA,0,10,0.5\nA,8,12,0.6\n' >"$tmp/a_over.csv"
bad "overlapping intervals" "error: $tmp/a_over.csv:3: hole A: interval from 8 to 12 overlaps the one from 0 to 10 (line 2)" \
	"$tmp/c.csv" "$tmp/s.csv" "$tmp/a_over.csv"
printf 'HOLEID,FROM,TO,CU\nA,10,5,0.5\n' >"$tmp/a_inv.csv"
bad "from not less than to" "error: $tmp/a_inv.csv:2: hole A: interval from 10 to 5: from must be less than to" \
	"$tmp/c.csv" "$tmp/s.csv" "$tmp/a_inv.csv"
printf 'HOLEID,DEPTH,AZIMUTH,DIP\nA,0,0,-90\n' >"$tmp/s_one.csv"
bad "a hole gx_desurvey refuses" "error: $tmp/s_one.csv: hole A: desurvey: " "$tmp/c.csv" "$tmp/s_one.csv"
printf 'HOLEID,EAST,NORTH\nA,0,0\n' >"$tmp/c_noz.csv"
bad "a required column missing" "$tmp/c_noz.csv: no z column (expected one of: RL ELEV ELEVATION Z ZCOLLAR)" "$tmp/c_noz.csv" "$tmp/s.csv"
check "nothing loaded by refused data" "$(q "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'bad%'")" 0

if [ ! -d "$shared" ]; then
	echo "SKIPPED: test/drillholes.sh pygslib files: $shared not found"
	exit $failed
fi
"$root/tools/gx-load" --drillholes -d $db --step 10 --prefix py "$shared/pygslib__dhole_data_collar.csv" \
	"$shared/pygslib__dhole_data_survey.csv" "$shared/pygslib__dhole_data_assay.csv" "$shared/pygslib__dhole_data_litho.csv" \
	>"$tmp/out" 2>&1 || { cat "$tmp/out"; failed=1; }
check "pygslib dhole_data: collars, surveys, traces, assays, litho" \
	"$(q "SELECT (SELECT count(*) FROM py_collars) || ' ' || (SELECT count(*) FROM py_surveys) || ' ' || (SELECT count(*) FROM py_holes)
		|| ' ' || (SELECT count(*) FROM py_pygslib__dhole_data_assay) || ' ' || (SELECT count(*) FROM py_pygslib__dhole_data_litho)")" \
	"5 14 5 46 18"
# P-338 is drilled upward (DIP +37) from an underground collar at -103.94
check "pygslib up-hole rises" "$(q "SELECT gx_zmax(geom) > -103.94 FROM py_holes WHERE hole_id = 'P-338'")" t
exit $failed
