#!/usr/bin/env bash
# test/html.sh: the HTML page of a scene (gx_ashtml, gx-export's .html) on the demo's data (data/demo.sql,
# data/mining.sql, data/demo_pit.sql, the scene of data/demo_scene.sql): the page gx-export saves is
# gx_ashtml's text, its embedded scene decodes to the .glb file's bytes exactly, it names nothing outside
# itself (no URL, no src or href), its legend has the scene's labels. Where Chromium is installed (Debian's
# chromium), headless Chromium opens the page from its file without a network and takes a screenshot, which
# test/png_check.py finds to be a picture with the bodies', the holes' and the ore in the pit's colours; a
# page of an empty scene must not pass that check. Otherwise one "SKIPPED:" line. --screenshot FILE keeps the
# demo page's screenshot (docs/img/demo.png).
# Runs against the cluster in PGHOST/PGPORT/PGUSER; exit status 0 when every check passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
db=gpuexact_html
tmp=$(mktemp -d /tmp/gpuexact-html.XXXXXX)
failed=0
keep=
[ "${1:-}" = --screenshot ] && keep=$(realpath -m -- "${2:?--screenshot needs a file}")

check() {
	if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAILED: $1: expected '$3', got '$2'"; failed=1; fi
}
q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 -d $db "$@"; }
export_to() { PGDATABASE=$db "$root/tools/gx-export" --no-progress "$@"; }
cleanup() {
	rm -rf "$tmp"
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1
}
trap cleanup EXIT

PGOPTIONS="-c client_min_messages=warning" psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null || exit 1
q -f "$root/data/demo.sql" >/dev/null && q -f "$root/data/mining.sql" >/dev/null && q -f "$root/data/demo_pit.sql" >/dev/null ||
	exit 1
scene=$(cat "$root/data/demo_scene.sql")

# The page and the scene's .glb, as the demo writes them
export_to -- "$scene" "$tmp/demo.html" >/dev/null || failed=1
export_to -- "$scene" "$tmp/demo.glb" >/dev/null || failed=1
check "gx-export writes the page and the .glb file" "$([ -s "$tmp/demo.html" ] && [ -s "$tmp/demo.glb" ] && echo yes)" yes
check "the .html file is gx_ashtml's text" "$(md5sum <"$tmp/demo.html" | cut -d' ' -f1)" \
	"$(q -c "SELECT md5(convert_to(gx_ashtml(geom, colour, label), 'UTF8')) FROM ($scene) s")"
scene_of() { sed -n 's/^<script type="application\/octet-stream" id="gx-scene">\(.*\)<\/script>$/\1/p' "$1" | base64 -d; }
check "the page's scene is the .glb file's bytes" "$(scene_of "$tmp/demo.html" | md5sum)" "$(md5sum <"$tmp/demo.glb")"
check "the page's scene passes glb_check.py" "$(scene_of "$tmp/demo.html" >"$tmp/scene.glb"; python3 "$root/test/glb_check.py" "$tmp/scene.glb")" "glb ok"
check "the page names nothing outside itself" "$(grep -oiE 'https?:|ftp:|//[a-z0-9.-]+\.[a-z]{2,}/|src=|href=|url\(|@import|<link|<iframe|<img' "$tmp/demo.html" | sort -u)" ""
check "the page's legend: each label once, escaped" "$(sed -n 's/^<li><span style="background:rgba([0-9,.]*)"><\/span>\(.*\)<\/li>$/\1/p' "$tmp/demo.html" | LC_ALL=C sort | tr '\n' '|')" \
	"grade &gt;= 2 g/t|grade &lt; 0.5 g/t|grade 0.5 to 2 g/t|ore body|ore inside the pit|pit shell|"

# From SQL: colours without labels, no rows, bad colours
check "without labels, no legend" "$(q -c "SELECT gx_ashtml(geom, ARRAY[1, 0, 0]) FROM orebodies" | grep -c '^<li>')" "0"
q -c "SELECT gx_ashtml(geom) FROM orebodies WHERE false" >"$tmp/empty.html"
check "no rows: the page of an empty scene" "$(scene_of "$tmp/empty.html" | md5sum | cut -d' ' -f1)" \
	"$(q -c "SELECT md5(gx_asglb(geom)) FROM orebodies WHERE false")"
check "a colour outside [0, 1]" "$(q -c "SELECT gx_ashtml(geom, ARRAY[2, 0, 0], 'x') FROM orebodies" 2>&1)" \
	"ERROR:  gx_ashtml: colour component 1 must be a number in [0, 1]"
check "a query whose first column is not gxgeom" "$(export_to "SELECT 1" "$tmp/bad.html" 2>&1; echo "status $?")" \
	"gx-export: the query's first column is of type integer, not gxgeom
status 2"

# In a browser: headless Chromium, the page from its file, the network cut off (a network namespace of its
# own where unshare can make one; else an unreachable proxy for every host)
screenshot() {
	local net=()
	unshare -n true 2>/dev/null && net=(unshare -n)
	timeout 120 "${net[@]}" chromium --headless --no-sandbox --disable-gpu --use-gl=angle --use-angle=swiftshader \
		--enable-unsafe-swiftshader --proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>' \
		--user-data-dir="$tmp/profile" --window-size=1200,800 --hide-scrollbars --virtual-time-budget=5000 \
		--screenshot="$2" "file://$1" >"$tmp/chromium.log" 2>&1
}
if command -v chromium >/dev/null; then
	screenshot "$tmp/demo.html" "$tmp/demo.png" || { failed=1; tail -n 20 "$tmp/chromium.log"; }
	out=$(python3 "$root/test/png_check.py" "$tmp/demo.png" 200 body=0.9,0.7,0.1:2000 "high grade=0.85,0.1,0.1:30" \
		"middle grade=0.2,0.75,0.3:30" "low grade=0.2,0.4,0.9:1000" "ore in the pit=0.6,0.2,0.8:500" 2>&1)
	echo "$out" | sed 's/^/  /'
	check "headless Chromium shows the scene: bodies and holes" "$(tail -n 1 <<<"$out")" "png ok"
	[ -n "$keep" ] && [ -f "$tmp/demo.png" ] && cp "$tmp/demo.png" "$keep" && echo "wrote $keep"
	screenshot "$tmp/empty.html" "$tmp/empty.png" || failed=1
	check "the empty scene's screenshot fails that check" \
		"$(python3 "$root/test/png_check.py" "$tmp/empty.png" 200 body=0.9,0.7,0.1:2000 | tail -n 1 | cut -c1-8)" "png bad:"
else
	echo "SKIPPED: the page in headless Chromium: chromium not installed (apt-get install chromium)"
fi

[ "$failed" = 0 ] && echo "html: all checks passed"
exit "$failed"
