#!/usr/bin/env bash
# test/writers.sh: what gpuexact writes, saved as files by tools/gx-export and read by other programs: GeoJSON
# by Python's json module (every coordinate back to the same double), binary glTF scenes checked by
# test/glb_check.py against the glTF 2.0 rules (and by the Khronos glTF validator when node finds
# gltf-validator), STL and OBJ files read back by gx-load, bit for bit. A larger result (100 000 triangles
# in stored, packed rows) goes through each writer with --progress. Bad queries leave no file.
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
export_to() { PGDATABASE=$db "$root/tools/gx-export" "$@"; }
cleanup() {
	rm -rf "$tmp"
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1
}
trap cleanup EXIT

# The Khronos glTF validator, when node has it (npm install -g gltf-validator): "errors N warnings N".
node_path=${NODE_PATH:+$NODE_PATH:}$(npm root -g 2>/dev/null)
if command -v node >/dev/null && NODE_PATH=$node_path node -e "require('gltf-validator')" 2>/dev/null; then
	khronos() {
		NODE_PATH=$node_path node -e "require('gltf-validator').validateBytes(new Uint8Array(require('fs').readFileSync(
			process.argv[1]))).then(r => console.log('errors ' + r.issues.numErrors + ' warnings ' + r.issues.numWarnings),
			e => console.log('failed: ' + e))" "$1"
	}
else
	echo "skipped: the Khronos glTF validator (node's gltf-validator not found)"
	khronos() { echo "errors 0 warnings 0"; }
fi

PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null || exit 1
q -c "CREATE EXTENSION gpuexact" || exit 1
q -c "CREATE TABLE g AS SELECT k, format('LINESTRING(%s %s %s, %s 0.1 1e-300, 500000.123456789 7000000.3 -5)',
	k * 0.1, 1.0 / (k + 3), -k * 1e10, k + 1)::gxgeom AS geom, 'line ' || k AS name FROM generate_series(1, 50) k" || exit 1
q -c "CREATE TABLE t AS SELECT k, format('TIN Z (((%s %s %s, %s 7000000.3 1e-300, 500000.1 %s 12.345678901234567, %s %s %s)),
	((0 0 0, 1 0 0, 0 1 %s, 0 0 0)))', 500000 + k / 3.0, 7000000 + 1.0 / k, -k * 0.1, 500000.7 + k, 7000001 + k / 7.0,
	500000 + k / 3.0, 7000000 + 1.0 / k, -k * 0.1, k)::gxgeom AS geom FROM generate_series(1, 20) k" || exit 1
cube="gx_makesolid('POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 1 0,1 0 0,0 0 0)),((0 0 1,1 0 1,1 1 1,0 1 1,0 0 1)),((0 0 0,1 0 0,1 0 1,0 0 1,0 0 0)),((0 1 0,0 1 1,1 1 1,1 1 0,0 1 0)),((0 0 0,0 0 1,0 1 1,0 1 0,0 0 0)),((1 0 0,1 1 0,1 1 1,1 0 1,1 0 0)))')"
# The expected text of rows read back as one multi-geometry: the rows' WKT inside its outer parentheses, in
# order, joined by $1 (default ',').
parts() { echo "string_agg(substring(gx_astext(geom) FROM position('(' IN gx_astext(geom)) + 1 FOR
	length(gx_astext(geom)) - position('(' IN gx_astext(geom)) - 1), '${1:-,}' ORDER BY k)"; }

# GeoJSON: a FeatureCollection that Python parses, each feature's other columns its properties, every
# coordinate the stored double (compared through the WKT's shortest form)
export_to 'SELECT geom, k, name AS "Name" FROM g ORDER BY k' "$tmp/lines.geojson" >/dev/null || failed=1
q -c "SELECT gx_astext(geom) FROM g ORDER BY k" >"$tmp/lines.wkt"
check "GeoJSON read by Python's json, properties, coordinates bit for bit" "$(python3 - "$tmp/lines.geojson" "$tmp/lines.wkt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
wkts = open(sys.argv[2]).read().splitlines()
bad = doc["type"] != "FeatureCollection" or len(doc["features"]) != len(wkts)
for k, (f, wkt) in enumerate(zip(doc["features"], wkts), 1):
    inner = wkt[wkt.index("(") + 1:wkt.rindex(")")]
    want = [[float(v) for v in p.split()] for p in inner.split(",")]
    bad += f["geometry"]["coordinates"] != want or f["properties"] != {"k": k, "Name": "line %d" % k}
print(int(bad))
PY
)" 0

# glTF: the demo's kind of scene (lines coloured by row, a solid), checked by glb_check.py and the validator
export_to "SELECT geom, ARRAY[k / 50.0, 0.2, 1 - k / 50.0] FROM g UNION ALL SELECT $cube, NULL" "$tmp/scene.glb" >/dev/null || failed=1
check "a glb scene passes glb_check.py" "$(python3 "$root/test/glb_check.py" "$tmp/scene.glb")" "glb ok"
check "a glb scene passes the Khronos validator" "$(khronos "$tmp/scene.glb")" "errors 0 warnings 0"
check "a glb file is gx_asglb's bytes" "$(q -c "SELECT md5(gx_asglb(geom, c)) FROM (
	SELECT geom, ARRAY[k / 50.0, 0.2, 1 - k / 50.0] AS c FROM g UNION ALL SELECT $cube, NULL) s")" "$(md5sum <"$tmp/scene.glb" | cut -d' ' -f1)"

# STL of several rows: one solid, read back by gx-load as the TIN of every row's triangles, bit for bit
export_to "SELECT geom FROM t ORDER BY k" "$tmp/t.stl" >/dev/null || failed=1
PGDATABASE=$db "$root/tools/gx-load" stl_back "$tmp/t.stl" >/dev/null || failed=1
check "an STL file of 20 rows reads back bit for bit" \
	"$(q -c "SELECT gx_astext(geom) = (SELECT 'TIN Z (' || $(parts) || ')' FROM t) FROM stl_back")" t
# OBJ of several rows: read back as one MULTILINESTRING of every row's points, bit for bit
export_to "SELECT geom FROM g ORDER BY k" "$tmp/g.obj" >/dev/null || failed=1
PGDATABASE=$db "$root/tools/gx-load" obj_back "$tmp/g.obj" >/dev/null || failed=1
check "an OBJ file of 50 rows reads back bit for bit" \
	"$(q -c "SELECT gx_astext(geom) = (SELECT 'MULTILINESTRING Z ((' || $(parts '),(') || '))' FROM g) FROM obj_back")" t

# Errors: not a gxgeom column (2), a query the server refuses and a geometry STL cannot hold (1); no file
export_to "SELECT k FROM g" "$tmp/bad.stl" 2>/dev/null
check "a first column that is not gxgeom" $? 2
export_to "SELECT nosuch FROM g" "$tmp/bad.stl" 2>/dev/null
check "a query the server refuses" $? 1
out=$(export_to "SELECT geom FROM g" "$tmp/bad.stl" 2>&1)
check "lines as STL refused" "$?:$(grep -c 'STL holds only triangles' <<<"$out")" 1:1
check "no file left by the errors" "$(ls -A "$tmp" | grep -c 'bad\|gx-export')" 0

# A larger result, with --progress: 5 stored rows of 20 000 triangles (packed when stored), each writer
q -c "CREATE TABLE big AS SELECT k, ('TIN Z (' || string_agg(format('((%s %s %s,%s %s %s,%s %s %s,%s %s %s))',
	x, y, k + x * 0.001, x + 1, y, k + (x + 1) * 0.001, x, y + 1, k + x * 0.001, x, y, k + x * 0.001) || ',' ||
	format('((%s %s %s,%s %s %s,%s %s %s,%s %s %s))', x + 1, y, k + (x + 1) * 0.001, x + 1, y + 1, k + (x + 1) * 0.001,
	x, y + 1, k + x * 0.001, x + 1, y, k + (x + 1) * 0.001), ',') || ')')::gxgeom AS geom
	FROM generate_series(1, 5) k, generate_series(500000, 500099) x, generate_series(7000000, 7000099) y GROUP BY k" || exit 1
for f in big.glb big.stl big.obj big.geojson; do
	export_to --progress "SELECT geom, ARRAY[0.5, 0.5, k / 5.0] FROM big ORDER BY k" "$tmp/$f" >/dev/null 2>"$tmp/progress" || failed=1
	check "$f: --progress ends with the bytes received" "$(tail -n 1 "$tmp/progress" | sed 's/, [0-9]* s$//')" \
		"gx-export: $tmp/$f: $(stat -c %s "$tmp/$f") bytes received"
done
check "the large glb passes glb_check.py" "$(python3 "$root/test/glb_check.py" "$tmp/big.glb")" "glb ok"
check "the large glb passes the Khronos validator" "$(khronos "$tmp/big.glb")" "errors 0 warnings 0"
PGDATABASE=$db "$root/tools/gx-load" big_back "$tmp/big.stl" "$tmp/big.obj" >/dev/null || failed=1
check "the large STL and OBJ read back bit for bit" \
	"$(q -c "SELECT string_agg((gx_astext(geom) = (SELECT 'TIN Z (' || $(parts) || ')' FROM big))::text, ' ' ORDER BY id) FROM big_back")" "true true"
check "the large GeoJSON parses, 100 000 triangles" "$(python3 -c "import json, sys
print(sum(len(f['geometry']['coordinates']) for f in json.load(open(sys.argv[1]))['features']))" "$tmp/big.geojson")" 100000
exit $failed
