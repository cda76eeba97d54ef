#!/usr/bin/env bash
# test/cgal_gocad.sh: CGAL 5.5's GOCAD reader (CGAL::IO::read_GOCAD), an independent reader, reads the TSurfs
# that gx_asgocad writes, against the cluster in PGHOST/PGPORT/PGUSER: the same points bit for bit and the
# same triangles, for a third-party fault surface (../shared/data/geology, when present) and a synthetic one
# at UTM coordinates of 17 digits. Built only where CGAL's headers are (Debian: libcgal-dev): otherwise a
# SKIPPED line and exit status 77. Exit status 0 when every check passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
db=gpuexact_cgal
shared=$root/../shared/data/geology
tmp=$(mktemp -d /tmp/gpuexact-cgal.XXXXXX)
failed=0
export PGOPTIONS="-c client_min_messages=warning"

if [ ! -f /usr/include/CGAL/IO/GOCAD.h ]; then
	echo "SKIPPED: test/cgal_gocad.sh: CGAL's headers not found (apt-get install libcgal-dev)"
	rm -rf "$tmp"
	exit 77
fi
trap 'rm -rf "$tmp"; psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db"' EXIT
g++ -std=c++17 -O1 -o "$tmp/read_gocad" "$root/test/cgal/read_gocad.cpp" -lgmp -lmpfr || exit 1
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
psql -X -q -d $db -c "CREATE EXTENSION gpuexact" || exit 1

# what CGAL reads from file $2 must be its VRTX and TRGL records' numbers (as doubles, and 0-based)
check_file() {
	local what=$1 file=$2 got want
	got=$("$tmp/read_gocad" "$file") || { echo "FAILED: $what: CGAL refused the file"; failed=1; return; }
	want=$(awk '/^VRTX/ { n++ } /^TRGL/ { m++ } END { printf "points %d triangles %d\n", n, m }' "$file"
		awk '/^VRTX/ { printf "%.17g %.17g %.17g\n", $3, $4, $5 }' "$file"
		awk '/^TRGL/ { print $2 - 1, $3 - 1, $4 - 1 }' "$file")
	if [ "$got" = "$want" ] && [ "$(head -n 1 <<<"$got")" != "points 0 triangles 0" ]; then
		echo "ok: $what: $(head -n 1 <<<"$got")"
	else
		echo "FAILED: $what"
		diff <(echo "$want") <(echo "$got") | head -5
		failed=1
	fi
}

psql -X -q -At -d $db -c "SELECT gx_asgocad(gx_geomfromtext('TIN Z (((602123.4567890123 6891234.000000001 -1234.5678901234567,
	602124.4567890124 6891234.000000003 -0.1,602123.4567890123 6891235.000000001 17,602123.4567890123 6891234.000000001 -1234.5678901234567)),
	((602124.4567890124 6891234.000000003 -0.1,602125 6891236 3.3333333333333335,602123.4567890123 6891235.000000001 17,
	602124.4567890124 6891234.000000003 -0.1)))'), 'synthetic')" >"$tmp/synthetic.ts" || exit 1
check_file "synthetic TSurf" "$tmp/synthetic.ts"
if [ -f "$shared/gocad/OpenGeode-GeosciencesIO__Fault_without_crs.ts" ]; then
	psql -X -q -At -d $db -v "f=$(cat "$shared/gocad/OpenGeode-GeosciencesIO__Fault_without_crs.ts")" \
		<<<"SELECT gx_asgocad(geom, name) FROM gx_read_gocad(:'f')" >"$tmp/fault.ts" || exit 1
	check_file "the fault of ../shared/data/geology written again" "$tmp/fault.ts"
else
	echo "SKIPPED: test/cgal_gocad.sh third-party fault: $shared not found"
fi
exit $failed
