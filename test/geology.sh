#!/usr/bin/env bash
# test/geology.sh: tools/gx-load on GOCAD and Surpac files against the cluster in PGHOST/PGPORT/PGUSER: the
# synthetic files of test/geology/ always, and the third-party files of ../shared/data/geology/ (objects,
# triangles, points, z sign) when they are there; a malformed file loads nothing and its error names the
# file and the line; what gx-export writes as GOCAD and Surpac loads back bit for bit. Exit status 0 when
# every check passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
db=gpuexact_geology
shared=$root/../shared/data/geology
failed=0
export PGOPTIONS="-c client_min_messages=warning"

check() {
	if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAILED: $1: expected '$3', got '$2'"; failed=1; fi
}
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d $db -c "$1"; }
tmp=$(mktemp -d /tmp/gpuexact-geology.XXXXXX)
trap 'rm -rf "$tmp"; psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db"' EXIT
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
q "CREATE EXTENSION gpuexact" || exit 1

g=$root/test/geology
"$root/tools/gx-load" -d $db rocks "$g/synthetic.ts" "$g/synthetic.pl" "$g/synthetic.vs" "$g/synthetic.wl" \
	"$g/synthetic.str" "$g/synthetic.dtm" >/dev/null || failed=1
check "synthetic files: one row per object" \
	"$(q "SELECT string_agg(concat_ws(':', name, gx_geometrytype(geom), gx_npoints(geom)), ' ' ORDER BY id) FROM rocks")" \
	"top:TIN:8 fault trace:MULTILINESTRING:5 samples:MULTIPOINT:2 DH-7:LINESTRING:3 7:LINESTRING:2 8:POINT:1 9:LINESTRING:3 1.1:TIN:8"
check "properties column" "$(q "SELECT properties->'vertex_properties'->'grade' FROM rocks WHERE name = 'top'")" \
	"[1.5, null, 2.5, null, null]"
check "file column" "$(q "SELECT count(DISTINCT file) FROM rocks")" 6

# A table without name and properties columns takes the geometries alone.
q "CREATE TABLE plain (id serial, geom gxgeom)"
"$root/tools/gx-load" -d $db plain "$g/synthetic.str" >/dev/null || failed=1
check "table without name/properties" "$(q "SELECT count(*) FROM plain")" 3

printf 'GOCAD TSurf 1\nVRTX 1 0 0 0\nTRGL 1 1 2\nEND\n' >/tmp/gx_geology_bad.ts
out=$("$root/tools/gx-load" -d $db rocks /tmp/gx_geology_bad.ts 2>&1)
check "malformed file refused, naming file and line" "$?:$(grep -c 'gx_geology_bad.ts: TRGL at line 3: vertex 2 is not defined' <<<"$out")" 1:1
rm -f /tmp/gx_geology_bad.ts
check "rows after the malformed file" "$(q "SELECT count(*) FROM rocks")" 8

# Round trips through files: gx-export writes GOCAD (an object per row, named by the second column) and
# Surpac, gx-load reads them back.
"$root/tools/gx-export" -d $db "SELECT geom, name FROM rocks WHERE name IN ('top', 'fault trace', 'samples')" \
	"$tmp/out.ts" >/dev/null || failed=1
"$root/tools/gx-load" -d $db back "$tmp/out.ts" >/dev/null || failed=1
check "GOCAD written and read back bit for bit" \
	"$(q "SELECT count(*) FROM rocks r JOIN back b USING (name) WHERE gx_asewkb(r.geom) = gx_asewkb(b.geom)")" 3
"$root/tools/gx-export" -d $db "SELECT geom FROM rocks WHERE name IN ('7', '8', '9') ORDER BY id" "$tmp/out.str" \
	>/dev/null || failed=1
"$root/tools/gx-load" -d $db back_str "$tmp/out.str" >/dev/null || failed=1
check "Surpac string file written and read back bit for bit" \
	"$(q "SELECT string_agg(encode(gx_asewkb(geom), 'hex'), ' ' ORDER BY id) FROM back_str")" \
	"$(q "SELECT string_agg(encode(gx_asewkb(geom), 'hex'), ' ' ORDER BY id) FROM rocks WHERE name IN ('7', '8', '9')")"

if [ ! -d "$shared" ]; then
	echo "SKIPPED: test/geology.sh third-party files: $shared not found"
	exit $failed
fi
# Each file: objects, triangles, segments, points; and the first z of the first object.
expect() {
	local out
	out=$("$root/tools/gx-load" -d $db shared "$shared/$1" 2>&1) || { echo "FAILED: $1: $out"; failed=1; return; }
	out=${out%%$'\n'*}
	check "$1" "${out#*-> shared: }" "$2"
}
expect gocad/OpenGeode-GeosciencesIO__2triangles.ts "1 objects, 2 triangles, 0 segments, 8 points, SRID 0"
expect gocad/OpenGeode-GeosciencesIO__Fault_without_crs.ts "1 objects, 324 triangles, 0 segments, 1296 points, SRID 0"
expect gocad/OpenGeode-GeosciencesIO__points.vs "1 objects, 0 triangles, 0 segments, 6 points, SRID 0"
expect gocad/OpenGeode-GeosciencesIO__sgrid_tsurf.ts "1 objects, 2 triangles, 0 segments, 8 points, SRID 0"
expect gocad/OpenGeode-GeosciencesIO__surf2d.ts "1 objects, 46 triangles, 0 segments, 184 points, SRID 0"
expect gocad/OpenGeode-GeosciencesIO__surf2d_multi.ts "2 objects, 92 triangles, 0 segments, 368 points, SRID 0"
expect gocad/OpenGeode-GeosciencesIO__ts-2props.ts "1 objects, 2 triangles, 0 segments, 8 points, SRID 0"
expect gocad/OpenGeode-GeosciencesIO__test.wl "1 objects, 0 triangles, 54 segments, 55 points, SRID 0"
expect "surpac/Kirra2D__406 windrow pickup.str" "1 objects, 0 triangles, 26 segments, 27 points, SRID 0"
expect surpac/Kirra2D__blastholestext.str "738 objects, 0 triangles, 738 segments, 1476 points, SRID 0"
expect surpac/Kirra2D__S5_346_516_V2.str "324 objects, 0 triangles, 630 segments, 954 points, SRID 0"
expect surpac/Kirra2D__24m-west-wall-presplits.dtm "1 objects, 292 triangles, 0 segments, 1168 points, SRID 0"
# z signs: ZPOSITIVE Depth negated (sgrid_tsurf's VRTX 1 at depth 1461.34326171875, the well's WREF at
# depth -167.9), Elevation kept (2triangles' VRTX 0 at -2238.04...)
check "z signs" "$(q "SELECT string_agg(gx_zmax(geom)::text, ' ' ORDER BY id) FROM shared WHERE id IN (1, 4, 9)")" \
	"-2233.59422969156 3610.798828125 167.89999389648438"
exit $failed
