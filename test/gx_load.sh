#!/usr/bin/env bash
# test/gx_load.sh: tools/gx-load run by a plain role (no superuser, no pg_read_server_files) against the
# cluster in PGHOST/PGPORT/PGUSER (whose user is a superuser): STL (binary, ASCII, and one file larger than
# an argument may be), OBJ, DXF, WKT and WKB files, --srid and --column, and corrupt files that must load nothing.
# Exit status 0 when every check passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
db=gpuexact_load
role=gpuexact_loader
tmp=$(mktemp -d /tmp/gpuexact-load.XXXXXX)
failed=0

check() {
	if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAILED: $1: expected '$3', got '$2'"; failed=1; fi
}
as_admin() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
as_role() { PGUSER=$role PGDATABASE=$db "$@"; }
cleanup() {
	rm -rf "$tmp"
	as_admin -d postgres -c "DROP DATABASE IF EXISTS $db" -c "DROP ROLE IF EXISTS $role"
}
trap cleanup EXIT

as_admin -d postgres -c "DROP DATABASE IF EXISTS $db" -c "DROP ROLE IF EXISTS $role" \
	-c "CREATE ROLE $role LOGIN" -c "CREATE DATABASE $db OWNER $role" || exit 1
as_admin -d $db -c "CREATE EXTENSION gpuexact" || exit 1
check "the loading role is a plain role" \
	"$(as_admin -d postgres -c "SELECT rolsuper OR pg_has_role('$role', 'pg_read_server_files', 'MEMBER') FROM pg_roles WHERE rolname = '$role'")" f

# STL from the fuzz corpus, binary and ASCII, into a table gx-load creates.
stl=$root/test/fuzz/corpus_stl
as_role "$root/tools/gx-load" meshes "$stl/tetrahedron.bin.stl" "$stl/triangle.ascii.stl" || failed=1
check "STL triangle counts" "$(as_role psql -X -At -c 'SELECT string_agg(gx_ntriangles(geom)::text, $$ $$ ORDER BY id) FROM meshes')" "4 1"
check "owner of the created table" "$(as_role psql -X -At -c "SELECT tableowner FROM pg_tables WHERE tablename = 'meshes'")" $role
# loaded tables are vacuumed and analyzed: every page all-visible (batched joins keep them unchecked)
check "vacuumed after loading" "$(as_role psql -X -At -c "SELECT relpages > 0 AND relallvisible = relpages FROM pg_class WHERE relname = 'meshes'")" t

# 100 000 zero facets (5 MB, 6.7 MB of base64): far more than one command-line argument may hold.
{ head -c 80 /dev/zero; printf '\xa0\x86\x01\x00'; head -c 5000000 /dev/zero; } >"$tmp/big.stl"
as_role "$root/tools/gx-load" meshes "$tmp/big.stl" >/dev/null || failed=1
check "large STL" "$(as_role psql -X -At -c 'SELECT gx_ntriangles(geom) FROM meshes ORDER BY id DESC LIMIT 1')" 100000

# A corrupt STL: an error naming the defect, and no row.
out=$(as_role "$root/tools/gx-load" meshes "$stl/incorrectFaceCounter.bin.stl" 2>&1)
rc=$?
check "corrupt STL refused" "$rc:$(grep -c 'binary STL truncated: its 66 declared facets need 3384 bytes' <<<"$out")" 1:1
check "rows after the corrupt STL" "$(as_role psql -X -At -c 'SELECT count(*) FROM meshes')" 3

# OBJ (a cube of quads, with a UTF-8 byte order mark) and DXF (a LINE on a layer named in Latin-1).
printf '\xef\xbb\xbf' >"$tmp/cube.obj"
cat "$root/test/fuzz/corpus_obj/cube_quads.obj" >>"$tmp/cube.obj"
printf '0\nSECTION\n2\nENTITIES\n0\nLINE\n8\nH\xe4user\n10\n0\n20\n0\n11\n1\n21\n2\n31\n3\n0\nENDSEC\n0\nEOF\n' >"$tmp/line.dxf"
as_role "$root/tools/gx-load" --srid 2056 models "$tmp/cube.obj" "$tmp/line.dxf" >/dev/null || failed=1
check "OBJ cube" "$(as_role psql -X -At -c 'SELECT concat_ws($$ $$, gx_geometrytype(geom), gx_ntriangles(geom), gx_srid(geom)) FROM models WHERE id = 1')" \
	"TIN 12 2056"
check "DXF line" "$(as_role psql -X -At -c 'SELECT gx_asewkt(geom) FROM models WHERE id = 2')" \
	"SRID=2056;MULTILINESTRING Z ((0 0 0,1 2 3))"
out=$(printf 'v 0 0 0\nf 1 2 3\n' >"$tmp/bad.obj"; as_role "$root/tools/gx-load" models "$tmp/bad.obj" 2>&1)
rc=$?
check "corrupt OBJ refused" "$rc:$(grep -c 'vertex index 2 out of range (defined so far: 1) at line 2' <<<"$out")" 1:1

# EWKT and ISO WKB (POINT Z (1 2 3)) into a named column of a schema-qualified table, with --srid.
printf 'SRID=4326;LINESTRING Z (0 0 0, 1 1 1, 2 0 1)\n' >"$tmp/line.ewkt"
printf '\x01\xe9\x03\x00\x00\x00\x00\x00\x00\x00\x00\xf0\x3f\x00\x00\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00\x00\x08\x40' >"$tmp/point.wkb"
as_role psql -X -q -c "CREATE SCHEMA survey" || failed=1
as_role "$root/tools/gx-load" --srid 32633 --column shape survey.features "$tmp/line.ewkt" "$tmp/point.wkb" >/dev/null || failed=1
check "WKT and WKB with --srid" \
	"$(as_role psql -X -At -c 'SELECT string_agg(gx_asewkt(shape), $$ | $$ ORDER BY id) FROM survey.features')" \
	"SRID=32633;LINESTRING Z (0 0 0,1 1 1,2 0 1) | SRID=32633;POINT Z (1 2 3)"

exit $failed
