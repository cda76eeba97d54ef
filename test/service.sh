#!/usr/bin/env bash
# test/service.sh: the GPU service, on a cluster started with shared_preload_libraries = gpuexact (its CPU
# engine where there is no GPU: gpuexact.service_cpu). Batches (gx_intersects and gx_dwithin, and the pair
# functions' intercepts, block volumes and overlapping solids) go through the service with the stock plan's answers; its cache serves repeated joins; cancel reaches work inside it; killed with SIGKILL in
# the middle of a batch, the query still gets its answer (on the backend's CPU), other sessions go on,
# the supervisor starts the service again and the next query uses it. Uses PGHOST/PGPORT/PGUSER.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
db=gpuexact_service
failed=0
check() { if [ "$2" = "$3" ]; then echo "  ok: $1"; else echo "  FAILED: $1: got '$2', expected '$3'"; failed=1; fi; }
q() { psql -X -At -d $db -v ON_ERROR_STOP=1 "$@"; }
# the service: the child of this cluster's supervising worker (the postmaster's pid heads postmaster.pid)
datadir=$(psql -X -At -d postgres -c "SHOW data_directory")
supervisor_pid() { pgrep -P "$(head -1 "$datadir/postmaster.pid")" -f 'gpuexact GPU service supervisor' | head -1; }
service_pid() { local s; s=$(supervisor_pid); [ -n "$s" ] && pgrep -P "$s" | head -1; }

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" 2>/dev/null
psql -X -q -d postgres -c "CREATE DATABASE $db" || exit 1
q -q -f "$root/data/demo.sql" >/dev/null || exit 1
q -q <<'SQL' || exit 1
CREATE TABLE east AS SELECT i AS id, format('LINESTRING(%s -1000 0, %s 1000 0)', i * 0.01, -i * 0.01)::gxgeom AS geom
FROM generate_series(1, 3000) i;
CREATE TABLE north AS SELECT i AS id, format('LINESTRING(-1000 %s 0, 1000 %s 0)', i * 0.013, -i * 0.011)::gxgeom AS geom
FROM generate_series(1, 3000) i;
ANALYZE;
SQL

for i in $(seq 1 50); do [ -n "$(service_pid)" ] && break; sleep 0.1; done
pid=$(service_pid)
check "the service's parent is the supervising worker" \
	"$(ps -o args= -p "$(ps -o ppid= -p "$pid" | tr -d ' ')" | grep -c 'gpuexact GPU service supervisor')" 1
check "the service runs" "$([ -n "$pid" ] && echo yes)" yes

join="SELECT h.hole_id, b.body_id FROM drillholes h JOIN orebodies b ON gx_intersects(h.geom, b.geom) ORDER BY 1, 2"
stock=$(q -c "SET gpuexact.enable_join = off" -c "$join" | md5sum)
check "the join through the service gives the stock plan's pairs" "$(q -c "SET gpuexact.device = gpu" -c "$join" | md5sum)" "$stock"
check "EXPLAIN says where it ran" "$(q -c "SET gpuexact.device = gpu" -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) $join" | grep -c 'in the GPU service')" 1

# a side of more than 4 MB (these bodies: about 5.5 MB unpacked) is laid out in the batch's segment directly
# (no copy): the same pairs, and the service keeps it for the next session
q -q <<'SQL' || exit 1
CREATE TABLE big_bodies AS SELECT b AS body_id, gx_makesolid(demo_orebody(500000 + 260 * b, 7000000, -180, 150, 170, b)) AS geom
FROM generate_series(0, 1) b;
ANALYZE big_bodies;
SQL
big="SELECT h.hole_id, b.body_id FROM drillholes h JOIN big_bodies b ON gx_intersects(h.geom, b.geom) ORDER BY 1, 2"
q -c "SELECT gx_cache_reset()" >/dev/null
out=$(q -c "SET gpuexact.device = gpu" -c "$big" -c "SELECT 'laid out: ' || value FROM gx_stats() WHERE counter = 'sides_laid_out_in_segment'")
check "a join with a large side laid out in the segment gives the stock plan's pairs" \
	"$(echo "$out" | grep -v '^SET$\|^laid out: ' | md5sum)" "$(q -c "SET gpuexact.enable_join = off" -c "$big" | grep -v '^SET$' | md5sum)"
check "the bodies' side was laid out in the segment" "$(echo "$out" | grep '^laid out: ')" "laid out: 1"
q -c "SET gpuexact.device = gpu" -c "$big" >/dev/null
check "and a new session finds that side in the service's cache" \
	"$(q -c "SELECT hits >= 1 FROM gx_cache_stats() WHERE scope = 'service host'")" t

# the service's cache: a repeated join finds the ore bodies' side there, in a new session too
q -c "SELECT gx_cache_reset()" >/dev/null
q -c "SET gpuexact.device = gpu" -c "$join" >/dev/null
q -c "SET gpuexact.device = gpu" -c "$join" >/dev/null
check "a repeated join is served from the service's cache" \
	"$(q -c "SELECT hits >= 1 FROM gx_cache_stats() WHERE scope = 'service host'")" t
# the drill holes, stored inline, are kept under a hash of their bytes: a new session finds them (both sides
# hit); after an UPDATE of one hole the bytes differ, and the answer follows
q -c "SELECT gx_cache_reset()" >/dev/null
q -c "SET gpuexact.device = gpu" -c "$join" >/dev/null
q -c "SET gpuexact.device = gpu" -c "$join" >/dev/null
check "a new session finds both sides in the service's cache" \
	"$(q -c "SELECT hits FROM gx_cache_stats() WHERE scope = 'service host'")" 2
check "the holes are stored inline" "$(q -c "SELECT bool_and(pg_column_size(geom) < 2000) FROM drillholes")" t
q -q -c "UPDATE drillholes SET geom = (SELECT geom FROM drillholes ORDER BY hole_id DESC LIMIT 1) WHERE hole_id = (SELECT min(hole_id) FROM drillholes)"
check "after an UPDATE of a hole, the join through the service gives the stock plan's pairs" \
	"$(q -c "SET gpuexact.device = gpu" -c "$join" | grep -v '^SET$' | md5sum)" "$(q -c "SET gpuexact.enable_join = off" -c "$join" | grep -v '^SET$' | md5sum)"
# two sides of inline values, the outer one read in many batches (each with bytes of its own): the inner
# side's bytes are checked against the service's at each batch
self="SELECT a.hole_id, b.hole_id FROM drillholes a JOIN drillholes b ON gx_intersects(a.geom, b.geom) ORDER BY 1, 2"
check "a join of two inline sides in many batches through the service gives the stock plan's pairs" \
	"$(q -c "SET gpuexact.device = gpu" -c "SET gpuexact.join_batch_rows = 7" -c "$self" | grep -v '^SET$' | md5sum)" \
	"$(q -c "SET gpuexact.enable_join = off" -c "$self" | grep -v '^SET$' | md5sum)"
dwithin="SELECT h.hole_id, b.body_id FROM drillholes h JOIN orebodies b ON gx_dwithin(h.geom, b.geom, 40) ORDER BY 1, 2"
check "a join on gx_dwithin through the service gives the stock plan's pairs" \
	"$(q -c "SET gpuexact.device = gpu" -c "$dwithin" | md5sum)" "$(q -c "SET gpuexact.enable_join = off" -c "$dwithin" | md5sum)"
check "and it ran in the service" \
	"$(q -c "SET gpuexact.device = gpu" -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) $dwithin" | grep -c 'in the GPU service')" 1
check "gx_intersecting_pairs through the service" \
	"$(q -c "SET gpuexact.device = gpu" -c "SELECT count(*) FROM gx_intersecting_pairs('SELECT hole_id, geom FROM drillholes', 'SELECT body_id, geom FROM orebodies')")" \
	"$(q -c "SET gpuexact.enable_join = off" -c "SELECT count(*) FROM drillholes h JOIN orebodies b ON gx_intersects(h.geom, b.geom)")"

# The pair function fname's query (a printf template taking the solids' query) through the service gives
# want: with the solids sent along, then twice with the solids the service keeps from the call before
sent_and_kept() {
	local fname=$1 template=$2 want=$3 i
	check "$fname through the service, solids sent along" \
		"$(q -c "SET gpuexact.device = gpu" -c "$(printf "$template" "'SELECT body_id, gx_makesolid(geom) FROM orebodies'")" | grep -v '^SET$' | md5sum)" "$want"
	q -c "SELECT gx_cache_reset()" >/dev/null
	for i in 1 2; do
		check "$fname through the service, solids kept there (call $i)" \
			"$(q -c "SET gpuexact.device = gpu" -c "$(printf "$template" "'SELECT body_id, geom FROM solid_bodies'")" | grep -v '^SET$' | md5sum)" "$want"
	done
}

# gx_intercepts_pairs through the service, which computes the intercepts too: the per-pair answers, with
# solids sent along and with solids the service keeps (and has indexed) from the call before
q -q -c "CREATE TABLE solid_bodies AS SELECT body_id, gx_makesolid(geom) AS geom FROM orebodies" || exit 1
lateral=$(q -c "SELECT h.hole_id, b.body_id, i.from_m, i.to_m FROM drillholes h, solid_bodies b, LATERAL gx_intercepts(h.geom, b.geom) i ORDER BY 1, 2, 3" | md5sum)
ipairs="SELECT a_id, b_id, from_m, to_m FROM gx_intercepts_pairs('SELECT hole_id, geom FROM drillholes', %s) ORDER BY 1, 2, 3"
sent_and_kept gx_intercepts_pairs "$ipairs" "$lateral"
check "the solids came from the service's cache" "$(q -c "SELECT hits >= 1 FROM gx_cache_stats() WHERE scope = 'service host'")" t

# gx_volume_pairs through the service, which computes the blocks' volumes in the solids it keeps: the
# per-pair gx_volume(solid, block) of every block sharing volume with a solid, sent along and kept
q -q -c "CREATE TABLE blocks AS SELECT row_number() OVER () AS id, format('BOX3D(%s %s %s,%s %s %s)', x, y, z, x + 25, y + 25, z + 10)::gxbox3d AS box
	FROM (SELECT gx_extent(geom)::text AS e FROM solid_bodies) e,
	LATERAL (SELECT string_to_array(replace(replace(replace(e, 'BOX3D(', ''), ')', ''), ',', ' '), ' ')::float8[] AS v) b,
	generate_series(floor(v[1])::int, ceil(v[4])::int, 25) x, generate_series(floor(v[2])::int, ceil(v[5])::int, 25) y,
	generate_series(floor(v[3])::int, ceil(v[6])::int, 10) z" || exit 1
per_pair=$(q -c "SELECT k.id, b.body_id, gx_volume(b.geom, k.box) FROM blocks k, solid_bodies b WHERE gx_volume(b.geom, k.box) > 0 ORDER BY 1, 2" | md5sum)
vpairs="SELECT a_id, b_id, volume FROM gx_volume_pairs('SELECT id, box FROM blocks', %s) ORDER BY 1, 2"
sent_and_kept gx_volume_pairs "$vpairs" "$per_pair"
check "the blocks' solids came from the service's cache" "$(q -c "SELECT hits >= 1 FROM gx_cache_stats() WHERE scope = 'service host'")" t
check "and some blocks share volume with them" "$(q -c "SELECT count(*) > 100 FROM gx_volume_pairs('SELECT id, box FROM blocks', 'SELECT body_id, geom FROM solid_bodies')")" t
# the blocks a whole table kept, read in chunks of 500: the service keeps each chunk too, named by the table's
# state, and another session's call sends only those names (a hit for each chunk and for the solids)
q -q -c "VACUUM blocks" || exit 1
chunks=$(q -c "SELECT ceil(count(*) / 500.0)::int FROM blocks")
kept_vpairs() { q -c "SET gpuexact.device = gpu" -c "SET gpuexact.join_batch_rows = 500" -c "$(printf "$vpairs" "'SELECT body_id, geom FROM solid_bodies'")" | grep -v '^SET$' | md5sum; }
check "gx_volume_pairs of a kept table in chunks through the service" "$(kept_vpairs)" "$per_pair"
hits=$(q -c "SELECT hits FROM gx_cache_stats() WHERE scope = 'service host'")
check "and in another session, its chunks kept there" "$(kept_vpairs)" "$per_pair"
check "and found there with the solids ($chunks chunks)" \
	"$(q -c "SELECT hits - $hits FROM gx_cache_stats() WHERE scope = 'service host'")" $((2 * chunks))

# a table's side that the service keeps, with its rows' locations: a new session's join finds both there and
# reads no row of the table, only its answer's rows (EXPLAIN says so); the same pairs as the stock plan's,
# with rows lacking a geometry (their numbers kept too) and without; after an UPDATE, the new rows'
q -q <<'SQL' || exit 1
CREATE TABLE centroids AS SELECT id, format('POINT Z (%s %s %s)', (gx_xmin(box) + gx_xmax(box)) / 2,
	(gx_ymin(box) + gx_ymax(box)) / 2, (gx_zmin(box) + gx_zmax(box)) / 2)::gxgeom AS geom FROM blocks;
CREATE TABLE sparse_centroids AS SELECT id, CASE WHEN id % 7 <> 0 THEN geom END AS geom FROM centroids;
VACUUM ANALYZE centroids, sparse_centroids;
SQL
for t in centroids sparse_centroids; do
	coding="SELECT c.id, b.body_id FROM $t c JOIN solid_bodies b ON gx_intersects(c.geom, b.geom) ORDER BY 1, 2"
	stock=$(q -c "SET gpuexact.enable_join = off" -c "$coding" | grep -v '^SET$' | md5sum)
	check "$t: the join through the service gives the stock plan's pairs" \
		"$(q -c "SET gpuexact.device = gpu" -c "$coding" | grep -v '^SET$' | md5sum)" "$stock"
	check "$t: a new session finds the side and its rows in the service" \
		"$(q -c "SET gpuexact.device = gpu" -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) $coding" | grep -c "$t (kept by the GPU service, no row read")" 1
	check "$t: and gets the stock plan's pairs from them" \
		"$(q -c "SET gpuexact.device = gpu" -c "$coding" | grep -v '^SET$' | md5sum)" "$stock"
	check "$t: and the stock plan's count" \
		"$(q -c "SET gpuexact.device = gpu" -c "SELECT count(*), sum(c.id) FROM $t c JOIN solid_bodies b ON gx_intersects(c.geom, b.geom)" | grep -v '^SET$')" \
		"$(q -c "SET gpuexact.enable_join = off" -c "SELECT count(*), sum(c.id) FROM $t c JOIN solid_bodies b ON gx_intersects(c.geom, b.geom)" | grep -v '^SET$')"
done
check "some centroids lie in the bodies" "$(q -c "SELECT count(*) > 100 FROM centroids c JOIN solid_bodies b ON gx_intersects(c.geom, b.geom)")" t
q -q -c "UPDATE sparse_centroids s SET geom = c.geom FROM centroids c WHERE c.id = s.id AND s.geom IS NULL" -c "VACUUM sparse_centroids" || exit 1
coding="SELECT c.id, b.body_id FROM sparse_centroids c JOIN solid_bodies b ON gx_intersects(c.geom, b.geom) ORDER BY 1, 2"
check "after an UPDATE, a new session gets the new rows' pairs" \
	"$(q -c "SET gpuexact.device = gpu" -c "$coding" | grep -v '^SET$' | md5sum)" \
	"$(q -c "SET gpuexact.device = gpu" -c "SELECT c.id, b.body_id FROM centroids c JOIN solid_bodies b ON gx_intersects(c.geom, b.geom) ORDER BY 1, 2" | grep -v '^SET$' | md5sum)"

# gx_overlap_pairs through the service, which finds the pairs of solids sharing a volume among those it keeps
# (a query against itself, and one of the bodies moved across the others): the per-pair gx_intersection_volume
# of every such pair, with solids sent along and kept
q -q -c "INSERT INTO solid_bodies SELECT body_id + 100, gx_translate(geom, 40, 25, 10) FROM solid_bodies" || exit 1
per_pair=$(q -c "SELECT a.body_id, b.body_id, gx_intersection_volume(a.geom, b.geom) FROM solid_bodies a, solid_bodies b
	WHERE gx_intersection_volume(a.geom, b.geom) > 0 ORDER BY 1, 2" | md5sum)
opairs="SELECT a_id, b_id, volume FROM gx_overlap_pairs('SELECT body_id, %s FROM solid_bodies', 'SELECT body_id, geom FROM solid_bodies') ORDER BY 1, 2"
check "gx_overlap_pairs through the service, solids sent along" \
	"$(q -c "SET gpuexact.device = gpu" -c "$(printf "$opairs" "gx_translate(geom, 0, 0, 0)")" | grep -v '^SET$' | md5sum)" "$per_pair"
q -c "SELECT gx_cache_reset()" >/dev/null
for i in 1 2; do
	check "gx_overlap_pairs through the service, solids kept there (call $i)" \
		"$(q -c "SET gpuexact.device = gpu" -c "$(printf "$opairs" geom)" | grep -v '^SET$' | md5sum)" "$per_pair"
done
# gx_intersection_pairs: the service finds the pairs, the backend makes their common parts (indexing only the
# solids of the pairs): each the per-pair gx_intersection
check "gx_intersection_pairs through the service gives each pair's gx_intersection" \
	"$(q -c "SET gpuexact.device = gpu" -c "SELECT a_id, b_id, gx_astext(geom) FROM gx_intersection_pairs('SELECT body_id, geom FROM solid_bodies', 'SELECT body_id, geom FROM solid_bodies') ORDER BY 1, 2" | grep -v '^SET$' | md5sum)" \
	"$(q -c "SELECT a.body_id, b.body_id, gx_astext(gx_intersection(a.geom, b.geom)) FROM solid_bodies a, solid_bodies b
		WHERE gx_intersection_volume(a.geom, b.geom) > 0 ORDER BY 1, 2" | md5sum)"
check "the overlapping solids came from the service's cache" "$(q -c "SELECT hits >= 1 FROM gx_cache_stats() WHERE scope = 'service host'")" t
check "and some pairs of different solids share volume" "$(q -c "SELECT count(*) > 0 FROM gx_overlap_pairs('SELECT body_id, geom FROM solid_bodies', 'SELECT body_id, geom FROM solid_bodies') WHERE a_id <> b_id")" t

# a second database with the same table names (other bodies) never gets the first one's cached side
db2=${db}_second
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db2" 2>/dev/null
psql -X -q -d postgres -c "CREATE DATABASE $db2" && psql -X -q -d $db2 -v ON_ERROR_STOP=1 -f "$root/data/demo.sql" >/dev/null &&
	psql -X -q -d $db2 -c "UPDATE orebodies o SET geom = p.geom FROM orebodies p WHERE p.body_id = o.body_id % 3 + 1" || exit 1
q2() { psql -X -At -d $db2 -v ON_ERROR_STOP=1 "$@" | grep -v '^SET$'; }
check "a second database with the same names gets its own answer" \
	"$(q2 -c "SET gpuexact.device = gpu" -c "$join" | md5sum)" "$(q2 -c "SET gpuexact.enable_join = off" -c "$join" | md5sum)"
check "and it differs from the first database's" \
	"$([ "$(q2 -c "$join" | md5sum)" != "$(q -c "$join" | md5sum)" ] && echo yes)" yes
psql -X -q -d postgres -c "DROP DATABASE $db2"

# cancel reaches the work inside the service; the service lives on
long="SELECT count(*) FROM east e JOIN north n ON gx_intersects(e.geom, n.geom)"
out=$(q -c "SET gpuexact.device = gpu" -c "SET statement_timeout = '200ms'" -c "$long" 2>&1)
check "statement_timeout cancels a batch in the service" "$(echo "$out" | grep -c 'canceling')" 1
check "the service survives a cancel" "$(service_pid)" "$pid"

# SIGKILL in the middle of a batch
expected=$(q -c "SET gpuexact.device = cpu" -c "$long" | grep -v '^SET$')
q -c "SET gpuexact.device = gpu" -c "$long" >"$PGHOST/killed.out" 2>&1 &
victim=$!
sleep 0.5
kill -9 "$pid"
other=$(q -c "SET gpuexact.device = gpu" -c "SELECT count(*) FROM drillholes h JOIN orebodies b ON gx_intersects(h.geom, b.geom)")
wait $victim
check "the killed batch still gets its answer" "$(grep -v '^SET$' "$PGHOST/killed.out")" "$expected"
check "another session goes on meanwhile" "$(echo "$other" | grep -v '^SET$')" \
	"$(q -c "SET gpuexact.enable_join = off" -c "SELECT count(*) FROM drillholes h JOIN orebodies b ON gx_intersects(h.geom, b.geom)" | grep -v '^SET$')"
for i in $(seq 1 100); do new=$(service_pid); [ -n "$new" ] && [ "$new" != "$pid" ] && break; sleep 0.1; done
check "the supervisor starts the service again" "$([ -n "$new" ] && [ "$new" != "$pid" ] && echo yes)" yes
check "the next query uses it" "$(q -c "SET gpuexact.device = gpu" -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) $join" | grep -c 'in the GPU service')" 1
check "no backend was reset" "$(grep -c 'terminating any other active server processes' "${GX_SERVER_LOG:-$PGHOST/server.log}")" 0

psql -X -q -d postgres -c "DROP DATABASE $db"
echo "service: $([ $failed = 0 ] && echo all checks passed || echo FAILED)"
exit $failed
