#!/usr/bin/env bash
# test/writers.sh: what gpuexact writes, read by other programs: GeoJSON by Python's json module (every
# coordinate back to the same double), binary glTF of a mining scene checked by test/glb_check.py against
# the glTF 2.0 rules, STL and OBJ files written with psql and read back through gx-load's readers.
# Runs against the cluster in PGHOST/PGPORT/PGUSER; exit status 0 when every check passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
db=gpuexact_writers
tmp=$(mktemp -d /tmp/gpuexact-writers.XXXXXX)
failed=0

check() {
	if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAILED: $1: expected '$3', got '$2'"; failed=1; fi
}
q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 -d $db "$@"; }
cleanup() {
	rm -rf "$tmp"
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1
}
trap cleanup EXIT

PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null || exit 1
q -c "CREATE EXTENSION gpuexact" || exit 1
q -c "CREATE TABLE g AS SELECT k, format('LINESTRING(%s %s %s, %s 0.1 1e-300, 500000.123456789 7000000.3 -5)',
	k * 0.1, 1.0 / (k + 3), -k * 1e10, k + 1)::gxgeom AS geom FROM generate_series(1, 50) k" || exit 1

# GeoJSON: Python parses it, and its floats are the stored doubles (compared through the WKT's shortest form)
q -c "SELECT gx_asgeojson(geom) || chr(9) || gx_astext(geom) FROM g ORDER BY k" >"$tmp/geojson.tsv"
check "GeoJSON read by Python's json, coordinates bit for bit" "$(python3 - "$tmp/geojson.tsv" <<'PY'
import json, sys
bad = 0
for line in open(sys.argv[1]):
    js, wkt = line.rstrip("\n").split("\t")
    coords = json.loads(js)["coordinates"]
    inner = wkt[wkt.index("(") + 1:wkt.rindex(")")]
    want = [[float(v) for v in p.split()] for p in inner.split(",")]
    bad += coords != want
print(bad)
PY
)" 0

# glTF: the demo's kind of scene (lines coloured by row, a solid), written by psql, checked by glb_check.py
q -c "SELECT encode(gx_asglb(geom, ARRAY[k / 50.0, 0.2, 1 - k / 50.0]), 'base64') FROM (
	SELECT k, geom FROM g UNION ALL SELECT 0, gx_makesolid('POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))')) s" \
	| base64 -d >"$tmp/scene.glb"
check "a glb scene passes glb_check.py" "$(python3 "$root/test/glb_check.py" "$tmp/scene.glb")" "glb ok"

# STL and OBJ as files, read back as gx-load reads them
q -c "SELECT encode(convert_to(gx_asstl(gx_makesolid('POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))')), 'UTF8'), 'base64')" \
	| base64 -d >"$tmp/cube.stl"
check "an STL file written and read back is a closed cube" \
	"$(q -c "SELECT gx_ntriangles(gx_makesolid(gx_geomfromstl(decode('$(base64 -w0 "$tmp/cube.stl")', 'base64'))))")" 12
q -c "SELECT gx_asobj(geom) FROM g WHERE k = 7" >"$tmp/line.obj"
check "an OBJ file written and read back has the same coordinates" \
	"$(q -c "SELECT gx_astext(gx_geomfromobj(\$obj\$$(cat "$tmp/line.obj")\$obj\$)) = replace(gx_astext(geom), 'LINESTRING Z (', 'MULTILINESTRING Z ((') || ')' FROM g WHERE k = 7")" t
exit $failed
