#!/usr/bin/env bash
# bench/postgis_dwithin.sh: gx_dwithin against PostGIS's ST_3DDWithin, on this machine (PostGIS from Debian):
#   1. exactness: the adversarial pairs of bench/dwithin_cases.py (exact distance exactly d, and d one ulp
#      either side, at UTM offsets), answers counted against the truth known by construction;
#   2. speed: "holes within 25 m of an ore body" on the mining workload (bench_batch mining SCALE --copy),
#      PostGIS with its n-D GiST index against gx_dwithin's batched join on the CPU, same pairs.
# Usage: bench/postgis_dwithin.sh [SCALE] (default 0.25). Needs a built tree (make) and root or sudo.
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-0.25}
source tools/pgcluster.sh
gx_install_deps
gx_build_install
gx_cluster_start
work=$(mktemp -d /tmp/gx-postgis.XXXXXX)
chmod 755 "$work"
python3 bench/dwithin_cases.py 3000 >"$work/cases.tsv"
make -s build/bench_batch
./build/bench_batch mining "$scale" --device cpu --reps 1 --copy "$work" >/dev/null
chmod 644 "$work"/*
psql -X -v ON_ERROR_STOP=1 -v dir="$work" <<'SQL'
CREATE EXTENSION postgis;
CREATE EXTENSION gpuexact;
CREATE EXTENSION gpuexact_postgis;
\set cases :dir '/cases.tsv'
CREATE TABLE cases (id int, a text, b text, d float8, truth bool);
COPY cases FROM :'cases';
SELECT count(*) AS cases,
	count(*) FILTER (WHERE gx_dwithin(a::gxgeom, b::gxgeom, d) <> truth) AS gx_dwithin_wrong,
	count(*) FILTER (WHERE ST_3DDWithin(a::geometry, b::geometry, d) <> truth) AS st_3ddwithin_wrong,
	count(*) FILTER (WHERE ST_3DDWithin(a::geometry, b::geometry, d) <> truth AND truth) AS st_missed,
	count(*) FILTER (WHERE ST_3DDWithin(a::geometry, b::geometry, d) <> truth AND NOT truth) AS st_false_hits
FROM cases;
SELECT split_part(split_part(a, ';', 2), ' ', 1) || '-' || split_part(split_part(b, ';', 2), ' ', 1) AS shapes,
	count(*) AS cases, count(*) FILTER (WHERE ST_3DDWithin(a::geometry, b::geometry, d) <> truth) AS st_3ddwithin_wrong
FROM cases GROUP BY 1 ORDER BY 1;

\set a_file :dir '/a.copy'
\set b_file :dir '/b.copy'
CREATE TABLE holes (id int PRIMARY KEY, geom gxgeom);
CREATE TABLE bodies (id int PRIMARY KEY, geom gxgeom);
COPY holes FROM :'a_file';
COPY bodies FROM :'b_file';
CREATE TABLE pg_holes AS SELECT id, geom::geometry AS geom FROM holes;
CREATE TABLE pg_bodies AS SELECT id, geom::geometry AS geom FROM bodies;
CREATE INDEX ON pg_bodies USING gist (geom gist_geometry_ops_nd);
CREATE INDEX ON bodies USING gist (geom);
VACUUM ANALYZE holes; VACUUM ANALYZE bodies; VACUUM ANALYZE pg_holes; VACUUM ANALYZE pg_bodies;
SELECT (SELECT count(*) FROM holes) AS holes, (SELECT sum(gx_nsegments(geom)) FROM holes) AS segments,
	(SELECT count(*) FROM bodies) AS bodies, (SELECT sum(gx_ntriangles(geom)) FROM bodies) AS triangles;
SET gpuexact.device = cpu;
SELECT count(*) FROM holes h JOIN bodies b ON gx_dwithin(h.geom, b.geom, 25);
\timing on
SELECT count(*) AS gx_pairs FROM holes h JOIN bodies b ON gx_dwithin(h.geom, b.geom, 25);
SELECT count(*) AS gx_pairs FROM holes h JOIN bodies b ON gx_dwithin(h.geom, b.geom, 25);
SELECT count(*) AS st_pairs FROM pg_holes h JOIN pg_bodies b ON ST_3DDWithin(h.geom, b.geom, 25);
\timing off
EXPLAIN (COSTS OFF) SELECT count(*) FROM holes h JOIN bodies b ON gx_dwithin(h.geom, b.geom, 25);
\timing on
\timing off
EXPLAIN (COSTS OFF) SELECT count(*) FROM pg_holes h JOIN pg_bodies b ON ST_3DDWithin(h.geom, b.geom, 25);
SELECT count(*) AS pairs_disagreeing FROM
	((SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_dwithin(h.geom, b.geom, 25)
	  EXCEPT SELECT h.id, b.id FROM pg_holes h JOIN pg_bodies b ON ST_3DDWithin(h.geom, b.geom, 25))
	 UNION ALL
	 (SELECT h.id, b.id FROM pg_holes h JOIN pg_bodies b ON ST_3DDWithin(h.geom, b.geom, 25)
	  EXCEPT SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_dwithin(h.geom, b.geom, 25))) x;
SQL
rm -rf "$work"
