#!/usr/bin/env bash
# test/ogr.sh: tools/gx-load on files that GDAL's ogr2ogr itself writes (GeoPackage, Shapefile PointZ,
# LineStringZ, PolygonZ and MultiPatch, FlatGeobuf, GML, KML, DXF) from a source of 3D points, lines, a
# planar non-convex PolygonZ, a TIN and a polyhedral surface, against the cluster in PGHOST/PGPORT/PGUSER.
# Each loaded geometry must equal, bit for bit, what OGR itself reads from the file (ogrinfo's WKT at 17
# significant digits, read by gx_geomfromtext), and the source's own WKT where the format keeps doubles and
# the geometry as it is (GeoPackage, FlatGeobuf); layers, attributes and the SRID of the layer's EPSG code,
# a 2D layer (z = 0, with a warning), --ogr on a .dxf, a file OGR cannot read and a missing ogr2ogr.
# Without ogr2ogr (Debian's gdal-bin): one "SKIPPED:" line and exit status 77. Exit status 0 when every
# check passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v ogr2ogr >/dev/null || ! command -v ogrinfo >/dev/null; then
	echo "SKIPPED: test/ogr.sh: ogr2ogr is not installed (gdal-bin)"
	exit 77
fi
db=gpuexact_ogr
failed=0
export PGOPTIONS="-c client_min_messages=warning"

check() {
	if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAILED: $1: expected '$3', got '$2'"; failed=1; fi
}
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d $db -c "$1"; }
load() { "$root/tools/gx-load" -d $db "$@"; }
tmp=$(mktemp -d /tmp/gpuexact-ogr.XXXXXX)
trap 'cd /; rm -rf "$tmp"; psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db"' EXIT
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" || exit 1
q "CREATE EXTENSION gpuexact" || exit 1
cd "$tmp" || exit 1

# The source: CSV files of WKT (doubles that short decimals do not give exactly, such as 0.1 + 0.2) and
# attributes, one per kind of geometry, and all.csv of them all.
cat >points.csv <<'EOF'
wkt,name,grade
"POINT Z (600000.1 5000000.2 0.30000000000000004)",p1,1.25
"POINT Z (600001.7 5000003.9 -12.345678901234567)",p2,0.1
EOF
cat >lines.csv <<'EOF'
wkt,name,grade
"LINESTRING Z (600000.1 5000000.2 0.30000000000000004,600010.3 5000020.7 -5.1,600015 5000021 1e-17)",l1,3
EOF
# an L in the plane z = 100.125 + (x - 600000) / 2 + (y - 5000000) / 4: exactly planar
cat >polygons.csv <<'EOF'
wkt,name,grade
"POLYGON Z ((600000 5000000 100.125,600004 5000000 102.125,600004 5000002 102.625,600002 5000002 101.625,600002 5000004 102.125,600000 5000004 101.125,600000 5000000 100.125))",L,7.5
EOF
cat >tins.csv <<'EOF'
wkt,name,grade
"TIN Z (((0.1 0.2 0.3,1.1 0.2 0.3,0.1 1.7 0.9,0.1 0.2 0.3)),((1.1 0.2 0.3,1.1 1.7 0.9,0.1 1.7 0.9,1.1 0.2 0.3)))",t,1
"POLYHEDRALSURFACE Z (((0 0 0,0 1 0,1 0 0,0 0 0)),((0 0 0,1 0 0,0 0 1,0 0 0)),((0 0 0,0 0 1,0 1 0,0 0 0)),((1 0 0,0 1 0,0 0 1,1 0 0)))",ps,2
EOF
{ cat points.csv; tail -n +2 lines.csv; tail -n +2 polygons.csv; tail -n +2 tins.csv; } >all.csv
# For KML (longitude and latitude) and DXF (no TIN): points, a line and a planar polygon in degrees.
cat >geo.csv <<'EOF'
wkt,name,grade
"POINT Z (7.123456789012345 46.98765432109876 0.30000000000000004)",p1,1.25
"LINESTRING Z (7.1 46.2 1e-17,7.3 46.7 -5.1,7.30000000000001 46.8 1234.5678)",l1,3
"POLYGON Z ((7 46 100.125,7.5 46 102.125,7.5 46.25 102.625,7.25 46.25 101.625,7.25 46.5 102.125,7 46.5 101.125,7 46 100.125))",L,7.5
EOF
from_csv=(-oo GEOM_POSSIBLE_NAMES=wkt -oo KEEP_GEOM_COLUMNS=NO -oo AUTODETECT_TYPE=YES -nlt GEOMETRYZ)
# The WKT of a CSV source, one geometry a line.
source_wkt() { for f in "$@"; do tail -n +2 "$f" | cut -d'"' -f2; done; }
# The WKT that OGR reads from a file, every layer in turn, at 17 significant digits (exact doubles).
ogr_wkt() {
	ogrinfo --config OGR_WKT_PRECISION 17 -ro -q -al "$1" | sed -n 's/^  \([A-Z]\+\( Z\| M\| ZM\)\? \?(.*\)$/\1/p'
}
# The loaded geometries of a file, in load order, against the geometries of the WKT on standard input.
same() {
	q "DROP TABLE IF EXISTS expected; CREATE TABLE expected (n serial, wkt text)" &&
		psql -X -q -d $db -c "COPY expected (wkt) FROM STDIN" &&
		q "SELECT (SELECT string_agg(gx_astext(geom), ' | ' ORDER BY id) FROM loaded WHERE file = '$1') IS NOT DISTINCT FROM
			(SELECT string_agg(gx_astext(gx_geomfromtext(wkt)), ' | ' ORDER BY n) FROM expected)
			AND (SELECT count(*) FROM loaded WHERE file = '$1') = (SELECT count(*) FROM expected)
			AND (SELECT count(*) FROM expected) > 0"
}

# GeoPackage: a layer per kind, in EPSG:32633.
for kind in points lines polygons tins; do
	ogr2ogr -f GPKG -update -append a.gpkg $kind.csv "${from_csv[@]}" -a_srs EPSG:32633 -nln $kind 2>/dev/null || failed=1
done
load loaded a.gpkg >out || failed=1
check "GeoPackage: one row per feature, a layer after another" \
	"$(q "SELECT string_agg(concat_ws(':', name, properties->>'name', gx_geometrytype(geom)), ' ' ORDER BY id) FROM loaded")" \
	"points:p1:POINT points:p2:POINT lines:l1:LINESTRING polygons:L:TIN tins:t:TIN tins:ps:POLYHEDRALSURFACE"
check "GeoPackage: the source's geometries bit for bit" "$(source_wkt points.csv lines.csv polygons.csv tins.csv | same a.gpkg)" t
check "GeoPackage: what OGR reads" "$(ogr_wkt a.gpkg | same a.gpkg)" t
check "GeoPackage: SRID from the layer's EPSG code" "$(q "SELECT string_agg(DISTINCT gx_srid(geom)::text, ',') FROM loaded")" 32633
check "GeoPackage: attributes as jsonb (numbers as numbers)" \
	"$(q "SELECT properties FROM loaded WHERE properties->>'name' = 'p1'")" '{"name": "p1", "grade": 1.25}'
check "GeoPackage: the planar L as its exact triangulation" \
	"$(q "SELECT gx_ntriangles(geom) || ' ' || gx_area(geom) FROM loaded WHERE name = 'polygons'")" \
	"$(q "SELECT gx_ntriangles(g) || ' ' || gx_area(g) FROM gx_geomfromtext('$(source_wkt polygons.csv)') g")"
check "GeoPackage: gx-load reports each layer" "$(grep -c '^layer ' out)" 4

# FlatGeobuf: one layer of every kind.
ogr2ogr -f FlatGeobuf all.fgb all.csv "${from_csv[@]}" -a_srs EPSG:32633 -lco SPATIAL_INDEX=NO 2>/dev/null || failed=1
load loaded all.fgb >/dev/null || failed=1
check "FlatGeobuf: the source's geometries bit for bit" "$(source_wkt all.csv | same all.fgb)" t
check "FlatGeobuf: what OGR reads" "$(ogr_wkt all.fgb | same all.fgb)" t

# Shapefile: PointZ, LineStringZ (arc Z), PolygonZ, and the TIN and polyhedral surface as MultiPatch.
ogr2ogr -f "ESRI Shapefile" points.shp points.csv "${from_csv[@]}" -nlt POINTZ 2>/dev/null &&
	ogr2ogr -f "ESRI Shapefile" lines.shp lines.csv "${from_csv[@]}" -nlt LINESTRINGZ 2>/dev/null &&
	ogr2ogr -f "ESRI Shapefile" polygons.shp polygons.csv "${from_csv[@]}" -nlt POLYGONZ 2>/dev/null &&
	ogr2ogr -f "ESRI Shapefile" tins.shp tins.csv "${from_csv[@]}" -lco SHPT=MULTIPATCH 2>/dev/null || failed=1
load loaded points.shp lines.shp polygons.shp tins.shp >/dev/null || failed=1
for f in points lines polygons tins; do
	check "Shapefile $f.shp: what OGR reads" "$(ogr_wkt $f.shp | same $f.shp)" t
done
check "Shapefile PointZ and LineStringZ: the source's geometries bit for bit" \
	"$(source_wkt points.csv | same points.shp):$(source_wkt lines.csv | same lines.shp)" t:t
check "Shapefile: the MultiPatch's triangles" "$(q "SELECT string_agg(gx_ntriangles(geom)::text, ' ' ORDER BY id) FROM loaded WHERE file = 'tins.shp'")" "2 4"

# GML 3, KML and DXF keep numbers as text: what OGR reads from them.
ogr2ogr -f GML all.gml all.csv "${from_csv[@]}" -dsco FORMAT=GML3 2>/dev/null &&
	ogr2ogr -f KML geo.kml geo.csv "${from_csv[@]}" 2>/dev/null &&
	ogr2ogr -f DXF geo.dxf geo.csv "${from_csv[@]}" 2>/dev/null || failed=1
load loaded all.gml geo.kml >/dev/null || failed=1
load --ogr loaded geo.dxf >/dev/null || failed=1
for f in all.gml geo.kml geo.dxf; do
	check "$f: what OGR reads" "$(ogr_wkt $f | same $f)" t
done
check "GML: the source's features" "$(q "SELECT count(*) FROM loaded WHERE file = 'all.gml'")" 6
check "KML: SRID 4326, the name attribute" \
	"$(q "SELECT string_agg(gx_srid(geom) || ':' || (properties->>'Name'), ' ' ORDER BY id) FROM loaded WHERE file = 'geo.kml'")" \
	"4326:p1 4326:l1 4326:L"

# --srid overrides the layer's; a 2D layer loads with z = 0 and a warning.
printf '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"k":1},"geometry":{"type":"Point","coordinates":[1.5,2.5]}}]}' >flat.geojson
load --srid 2056 loaded flat.geojson >/dev/null 2>err || failed=1
check "2D layer: a warning" "$(grep -c 'flat.geojson: layer flat (Point) is 2D: loaded with z = 0' err)" 1
check "2D layer: z = 0, --srid" "$(q "SELECT gx_asewkt(geom) FROM loaded WHERE file = 'flat.geojson'")" "SRID=2056;POINT Z (1.5 2.5 0)"

# Errors: a file OGR cannot read, and no ogr2ogr on the PATH; nothing loaded.
rows=$(q "SELECT count(*) FROM loaded")
echo 'not a geodata file' >junk.xyz1
out=$(load loaded junk.xyz1 2>&1)
check "unreadable file refused, naming it" "$?:$(grep -c 'junk.xyz1: OGR cannot read it: .*Unable to open datasource' <<<"$out")" 2:1
mkdir bin
for t in /usr/bin/* /bin/*; do
	case ${t##*/} in ogr2ogr | ogrinfo) ;; *) ln -sf "$t" bin/ 2>/dev/null ;; esac
done
out=$(PATH=$tmp/bin load loaded a.gpkg 2>&1)
check "missing ogr2ogr: the package named" "$?:$(grep -c "a.gpkg: read through GDAL's ogr2ogr, which is not installed (Debian: apt-get install gdal-bin" <<<"$out")" 2:1
check "nothing loaded by the errors" "$(q "SELECT count(*) FROM loaded")" "$rows"

exit $failed
