#!/usr/bin/env bash
# bench/storage.sh [BODIES ...]: the cold read (issue 8): how the TOAST storage of large gxgeom values changes
# the end-to-end join. The mining workload (build/bench_batch mining 1 --copy: 400 drill holes and 200 ore
# bodies of 945 616 triangles) is loaded from its COPY text files, once per variant, into tables whose geom
# column is
#   pglz  STORAGE EXTENDED, COMPRESSION pglz   (PostgreSQL's default compression)
#   lz4   STORAGE EXTENDED, COMPRESSION lz4
#   ext   STORAGE EXTERNAL                     (out of line, uncompressed)
# for the first BODIES ore bodies (default: 60, about 285 000 triangles, and 200, all of them). Each variant is
# loaded from text on purpose: INSERT ... SELECT from another table would keep already compressed values.
# Per variant it prints:
#   stored MB   pg_total_relation_size of the bodies table (heap + TOAST + index)
#   load s      the COPY from text (parsing + compression + writing)
#   detoast ms  SELECT sum(gx_npoints(geom)): reads every value whole (gx_npoints detoasts it, then walks
#               only the node headers), in a new session
#   detoast par the same with two parallel workers forced, so that the workers detoast (PostgreSQL would not
#               choose this plan by itself: the heap of a few hundred rows is far below
#               min_parallel_table_scan_size, whatever the size of its TOAST table)
#   cold join   the batched join (all 400 holes against the bodies, all pair rows to the client), first query
#               of a new session with the geometry cache off (gpuexact.cache_host_mb = 0)
#   again       the same join run next in that session, cache still off: detoasts and flattens again, but
#               into memory the backend has touched before (when glibc kept it)
#   repeated    the same join repeated in one session with the cache on (default 256 MB): the bodies' side
#               comes flattened from the cache, nothing is detoasted
# Each figure is the median (min-max) of GX_REPS (default 7) runs; the variants take turns, run by run, so
# that load from other processes spreads over all of them. All tables fit in shared_buffers (1 GB here),
# and every table is read once before measuring: the figures are CPU costs, not disk reads.
# The answer of every variant is checked against the engine's own pair list.
# Like demo.sh, run as root or with sudo; it builds, installs, and uses a throwaway cluster.
set -euo pipefail
source "$(dirname "$0")/../tools/pgcluster.sh"
cd "$GX_ROOT"
reps=${GX_REPS:-7}
device=${GX_DEVICE:-cpu}
bodies_list=("$@")
[ ${#bodies_list[@]} = 0 ] && bodies_list=(60 200)
variants=(pglz lz4 ext)

gx_install_deps
gx_build_install
make -s build/bench_batch
data=$(mktemp -d /tmp/gpuexact-storage.XXXXXX)
trap 'rm -rf "$data"; gx_cluster_stop' EXIT
chmod 755 "$data"
./build/bench_batch mining 1 --device cpu --reps 1 --copy "$data" >/dev/null
for n in "${bodies_list[@]}"; do
	head -n "$n" "$data/b.copy" >"$data/b$n.copy"
	awk -F'|' -v n="$n" '$2 <= n' "$data/pairs.txt" | wc -l >"$data/pairs$n"
done
chmod 644 "$data"/*
GX_PG_OPTS="-c shared_buffers=1GB" gx_cluster_start
trap 'rm -rf "$data"; gx_cluster_stop' EXIT

sql() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
# Runs stdin in a new session and prints the \timing figures (ms) of its statements, one a line.
timed() { { echo '\timing on'; cat; } | sql -o /dev/null | awk '/^Time:/ {print $2}'; }
last() { timed | tail -n 1; }
median() { sort -n | awk '{a[NR] = $1} END {m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2;
	printf "%.0f (%.0f-%.0f)", m, a[1], a[NR]}'; }
join_sql() { echo "SELECT h.id, b.id FROM st_holes h JOIN $1 b ON gx_intersects(h.geom, b.geom);"; }
settings="SET gpuexact.device = $device; SET gpuexact.gpu_min_elements = 0;"
forced_parallel="SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;"

sql -At -c "SELECT 'PostgreSQL ' || current_setting('server_version') || ', lz4 available: ' ||
	(SELECT (enumvals @> '{lz4}')::text FROM pg_settings WHERE name = 'default_toast_compression')"
sql <<EOF
CREATE EXTENSION gpuexact;
CREATE TABLE st_holes (id int PRIMARY KEY, geom gxgeom);
COPY st_holes FROM '$data/a.copy';
EOF

declare -A load
for n in "${bodies_list[@]}"; do
	for v in "${variants[@]}"; do
		t=st_b${n}_$v
		case $v in
			pglz) column="SET STORAGE EXTENDED, ALTER COLUMN geom SET COMPRESSION pglz" ;;
			lz4) column="SET STORAGE EXTENDED, ALTER COLUMN geom SET COMPRESSION lz4" ;;
			ext) column="SET STORAGE EXTERNAL" ;;
		esac
		sql -c "CREATE TABLE $t (id int PRIMARY KEY, geom gxgeom); ALTER TABLE $t ALTER COLUMN geom $column"
		load[$t]=$(echo "COPY $t FROM '$data/b$n.copy';" | last)
	done
done
sql -c "VACUUM ANALYZE"

echo
echo "== how the values are stored"
for n in "${bodies_list[@]}"; do
	for v in "${variants[@]}"; do
		t=st_b${n}_$v
		sql -At -F ' ' -c "SELECT '$t', count(*) || ' rows,', sum(gx_ntriangles(geom)) || ' triangles,',
			'compression: ' || string_agg(DISTINCT coalesce(pg_column_compression(geom), 'none'), ','),
			'values: raw ' || round(sum(pg_column_size(gx_setsrid(geom, gx_srid(geom)))) / 1048576.0, 1) ||
			' MB, stored ' || round(sum(pg_column_size(geom)) / 1048576.0, 1) || ' MB'
			FROM $t"
	done
done

echo
echo "== plans (geometry cache off)"
n=${bodies_list[-1]}
echo "$settings SET gpuexact.cache_host_mb = 0; EXPLAIN (ANALYZE, COSTS OFF) $(join_sql st_b${n}_pglz)" | sql
echo "$settings SET gpuexact.cache_host_mb = 0; $forced_parallel EXPLAIN (ANALYZE, COSTS OFF) $(join_sql st_b${n}_pglz)" | sql
echo "$forced_parallel EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT sum(gx_npoints(geom)) FROM st_b${n}_pglz;" | sql

# Read every table once (shared buffers), and check every variant's answer.
for n in "${bodies_list[@]}"; do
	for v in "${variants[@]}"; do
		t=st_b${n}_$v
		got=$(echo "$settings SET gpuexact.cache_host_mb = 0; SELECT count(*) FROM ($(join_sql $t | tr -d ';')) j;" | sql -At)
		want=$(cat "$data/pairs$n")
		if [ "$got" != "$want" ]; then
			echo "$t: the join gave $got pairs, the engine $want" >&2
			exit 1
		fi
	done
done

declare -A detoast detoast_par cold again repeated
for n in "${bodies_list[@]}"; do
	for r in $(seq "$reps"); do
		for v in "${variants[@]}"; do
			t=st_b${n}_$v
			detoast[$t]+="$(echo "SELECT sum(gx_npoints(geom)) FROM $t;" | last) "
			detoast_par[$t]+="$(echo "$forced_parallel SELECT sum(gx_npoints(geom)) FROM $t;" | last) "
			both=$({ echo "$settings SET gpuexact.cache_host_mb = 0;"; join_sql $t; join_sql $t; } | timed | tail -n 2)
			cold[$t]+="$(echo "$both" | head -n 1) "
			again[$t]+="$(echo "$both" | tail -n 1) "
			# repeated: the first join fills the cache; the next three are hits
			repeated[$t]+="$({ echo "$settings"; for k in 1 2 3 4; do join_sql $t; done; } | timed | tail -n 3 | median |
				cut -d' ' -f1) "
		done
	done
done

echo
echo "== the cold read: $(nproc) cores, device $device, median (min-max) of $reps runs, times in ms"
printf '%-7s %-9s %-5s %9s %7s %-14s %-14s %-14s %-14s %-14s\n' bodies triangles var 'stored MB' 'load s' \
	'detoast' 'detoast 2 wkrs' 'cold join' 'again' 'repeated'
for n in "${bodies_list[@]}"; do
	for v in "${variants[@]}"; do
		t=st_b${n}_$v
		read -r size tri < <(sql -At -F ' ' -c "SELECT round(pg_total_relation_size('$t') / 1048576.0, 1),
			sum(gx_ntriangles(geom)) FROM $t")
		printf '%-7s %-9s %-5s %9s %7.2f %-14s %-14s %-14s %-14s %-14s\n' "$n" "$tri" "$v" "$size" \
			"$(echo "${load[$t]}" | awk '{print $1 / 1000}')" \
			"$(echo "${detoast[$t]}" | tr ' ' '\n' | grep . | median)" \
			"$(echo "${detoast_par[$t]}" | tr ' ' '\n' | grep . | median)" \
			"$(echo "${cold[$t]}" | tr ' ' '\n' | grep . | median)" \
			"$(echo "${again[$t]}" | tr ' ' '\n' | grep . | median)" \
			"$(echo "${repeated[$t]}" | tr ' ' '\n' | grep . | median)"
	done
done
