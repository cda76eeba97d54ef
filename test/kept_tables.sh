#!/usr/bin/env bash
# test/kept_tables.sh: join sides kept as whole tables (all-visible after VACUUM, or just loaded with every row
# settled) across sessions and snapshots. Session A keeps both tables, then holds a REPEATABLE READ snapshot while session B moves a body
# and vacuums: A must still get its snapshot's pairs (the batched plan's equal to the stock plan's, in the
# same snapshot), and, once its snapshot is gone and the table vacuumed again, the new pairs, from the table
# read whole again. Uses the cluster in PGHOST/PGPORT/PGUSER (with or without the GPU service).
set -uo pipefail
db=gpuexact_kept
psql -q -d postgres -c "DROP DATABASE IF EXISTS $db" 2>/dev/null
psql -q -d postgres -c "CREATE DATABASE $db" || exit 1
psql -X -q -d $db -v ON_ERROR_STOP=1 >/dev/null <<'SQL' || exit 1
CREATE EXTENSION gpuexact;
-- box j: a closed box of 3 x 3 x 2 over cell j of a 5 x 5 grid, moved up by dz
CREATE FUNCTION kbox(j int, dz float8) RETURNS gxgeom LANGUAGE sql AS $$
SELECT gx_makesolid(('TIN Z (' ||
	format('((%1$s %2$s %5$s,%3$s %2$s %5$s,%1$s %4$s %5$s,%1$s %2$s %5$s)),((%3$s %2$s %5$s,%3$s %4$s %5$s,%1$s %4$s %5$s,%3$s %2$s %5$s)),', x0, y0, x1, y1, z0) ||
	format('((%1$s %2$s %5$s,%1$s %4$s %5$s,%3$s %2$s %5$s,%1$s %2$s %5$s)),((%3$s %2$s %5$s,%1$s %4$s %5$s,%3$s %4$s %5$s,%3$s %2$s %5$s)),', x0, y0, x1, y1, z1) ||
	format('((%1$s %2$s %5$s,%1$s %2$s %6$s,%3$s %2$s %5$s,%1$s %2$s %5$s)),((%3$s %2$s %5$s,%1$s %2$s %6$s,%3$s %2$s %6$s,%3$s %2$s %5$s)),', x0, y0, x1, y1, z0, z1) ||
	format('((%1$s %4$s %5$s,%3$s %4$s %5$s,%1$s %4$s %6$s,%1$s %4$s %5$s)),((%3$s %4$s %5$s,%3$s %4$s %6$s,%1$s %4$s %6$s,%3$s %4$s %5$s)),', x0, y0, x1, y1, z0, z1) ||
	format('((%1$s %2$s %5$s,%1$s %4$s %5$s,%1$s %2$s %6$s,%1$s %2$s %5$s)),((%1$s %4$s %5$s,%1$s %4$s %6$s,%1$s %2$s %6$s,%1$s %4$s %5$s)),', x0, y0, x1, y1, z0, z1) ||
	format('((%3$s %2$s %5$s,%3$s %2$s %6$s,%3$s %4$s %5$s,%3$s %2$s %5$s)),((%3$s %4$s %5$s,%3$s %2$s %6$s,%3$s %4$s %6$s,%3$s %4$s %5$s)))', x0, y0, x1, y1, z0, z1))::gxgeom)
FROM (SELECT 4 * (j % 5) AS x0, 4 * (j % 5) + 3 AS x1, 4 * (j / 5) AS y0, 4 * (j / 5) + 3 AS y1, dz AS z0, dz + 2 AS z1) c $$;
CREATE TABLE kpoints AS SELECT i AS id, format('POINT Z (%s %s 1)', i % 20 + 0.5, i / 20 + 0.5)::gxgeom AS geom
FROM generate_series(0, 399) i;
CREATE TABLE kbodies AS SELECT j AS id, kbox(j, 0) AS geom FROM generate_series(0, 24) j;
VACUUM ANALYZE kpoints;
VACUUM ANALYZE kbodies;
SQL
q="SELECT count(*) FROM kpoints p JOIN kbodies b ON gx_intersects(p.geom, b.geom)"
# session A, with session B's statements run from it (\!) at the right moments
out=$(psql -X -At -d $db -v ON_ERROR_STOP=1 2>&1 <<SQL
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT 'first ' || ($q);
SELECT 'again ' || ($q);
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT 'snapshot ' || ($q);
\! psql -X -q -d $db -c "UPDATE kbodies SET geom = kbox(0, 50) WHERE id = 0" -c "VACUUM kbodies"
SELECT 'held ' || ($q);
SET LOCAL gpuexact.enable_join = off;
SELECT 'held_stock ' || ($q);
COMMIT;
SELECT 'committed ' || ($q);
\! psql -X -q -d $db -c "VACUUM kbodies"
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $q;
SELECT 'vacuumed ' || ($q);
SET gpuexact.enable_join = off;
SELECT 'stock ' || ($q);
SQL
)
val() { sed -n "s/^$1 //p" <<<"$out" | head -1; }
failed=0
check() {
	if [ "$2" = "$3" ] && [ -n "$2" ]; then echo "  ok: $1"; else echo "  FAILED: $1: got '$2', expected '$3'"; failed=1; fi
}
first=$(val first)
check "the first join and a repeated one agree" "$(val again)" "$first"
check "a snapshot's join before the change" "$(val snapshot)" "$first"
check "the held snapshot's join after another session moved a body and vacuumed" "$(val held)" "$first"
check "the stock plan in that snapshot" "$(val held_stock)" "$first"
check "after commit, the moved body is seen" "$(val committed)" "$(val stock)"
check "after VACUUM, the table read whole again" "$(val vacuumed)" "$(val stock)"
check "the body moved away lost its points" "$([ "$(val stock)" -lt "$first" ] && echo yes)" yes
check "EXPLAIN shows the bodies read whole again" "$(grep -c 'inner kbodies (read whole, kept\|outer kbodies (read whole, kept' <<<"$out")" 1
[ $failed = 0 ] || echo "$out"
# the same with a table just loaded, never vacuumed (kept once its rows are settled): session B moves and
# deletes points and commits, without VACUUM, while A holds a snapshot, then after it
psql -X -q -d $db -c "CREATE TABLE kfresh WITH (autovacuum_enabled = false) AS SELECT * FROM kpoints" -c "ANALYZE kfresh" || exit 1
f="SELECT count(*) FROM kfresh p JOIN kbodies b ON gx_intersects(p.geom, b.geom)"
fout=$(psql -X -At -d $db -v ON_ERROR_STOP=1 2>&1 <<SQL
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT 'first ' || ($f);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) $f;
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT 'snapshot ' || ($f);
\! psql -X -q -d $db -c "UPDATE kfresh SET geom = 'POINT Z (500 500 500)' WHERE id % 7 = 0" -c "DELETE FROM kfresh WHERE id % 5 = 0"
SELECT 'held ' || ($f);
COMMIT;
SELECT 'changed ' || ($f);
SELECT 'again ' || ($f);
SET gpuexact.enable_join = off;
SELECT 'stock ' || ($f);
SQL
)
fval() { sed -n "s/^$1 //p" <<<"$fout" | head -1; }
before=$failed
check "a just-loaded table kept" "$(grep -c 'kfresh (kept\|kfresh (read whole, kept' <<<"$fout")" 1
check "a snapshot's join on it" "$(fval snapshot)" "$(fval first)"
check "the held snapshot's join after another session changed rows, not vacuumed" "$(fval held)" "$(fval first)"
check "after commit, the changes are seen" "$(fval changed)" "$(fval stock)"
check "and again" "$(fval again)" "$(fval stock)"
check "the changes lost points" "$([ "$(fval stock)" -lt "$(fval first)" ] && echo yes)" yes
[ $failed = "$before" ] || echo "$fout"
psql -q -d postgres -c "DROP DATABASE $db"
echo "kept_tables: $([ $failed = 0 ] && echo passed || echo FAILED)"
exit $failed
