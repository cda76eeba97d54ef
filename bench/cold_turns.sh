#!/usr/bin/env bash
# bench/cold_turns.sh: cold first joins, then warm ones, of builds of gpuexact in turns, on the GPU machine,
# after `SCALE=N bench/mine_sessions.sh` (or mine_scale.sh) has loaded the database `mine` into the running
# cluster: for each build in BUILDS (default "current old current old"; `current` is the carried ./gpuexact.so,
# build/gpuexact-service and build/gpuexact_cuda.so, any other name .device/NAME/gpuexact.so and, where it has
# them, .device/NAME/gpuexact-service and .device/NAME/gpuexact_cuda.so), the cluster restarted with it
# preloaded (a fresh GPU service), then three cold joins of holes and bodies (gx_cache_reset, then a new
# session each) and the Batch Time of a fourth's EXPLAIN ANALYZE, then WARM joins (default 10) in one new
# session: their best and median; with TPS_S > 0, then the joins a second of 1 session and of 8 joining for
# TPS_S seconds each (pgbench). The machine's speed of the moment then weighs on every build alike.
set -u
cd "$(dirname "$0")/.."
source bench/device_env.sh
LIB=$PGXS_ROOT/usr/lib/postgresql/15/lib
join="SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom)"
for build in ${BUILDS:-current old current old}; do
	if [ "$build" = current ]; then
		cp gpuexact.so build/gpuexact_cuda.so "$LIB/"
		install -m 755 build/gpuexact-service "$LIB/gpuexact-service"
	else
		cp ".device/$build/gpuexact.so" "$LIB/"
		if [ -f ".device/$build/gpuexact-service" ]; then install -m 755 ".device/$build/gpuexact-service" "$LIB/"; fi
		if [ -f ".device/$build/gpuexact_cuda.so" ]; then cp ".device/$build/gpuexact_cuda.so" "$LIB/"; fi
	fi
	su pgrun -c "LD_LIBRARY_PATH=$LD_LIBRARY_PATH $PGXS_ROOT/usr/lib/postgresql/15/bin/pg_ctl -D /tmp/pgdata -w -m fast -l /tmp/pg.log -o '-k /tmp/pgsock -c listen_addresses= -c jit=off -c shared_preload_libraries=gpuexact -c max_wal_size=8GB' restart" >/dev/null
	sleep 2
	psql -X -q -d mine -c "$join" -o /dev/null
	t=""
	for i in 1 2 3; do
		psql -X -q -d mine -c "SELECT gx_cache_reset()" -o /dev/null
		t="$t $(psql -X -q -d mine -c '\timing on' -c "$join" -o /dev/null | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')"
	done
	psql -X -q -d mine -c "SELECT gx_cache_reset()" -o /dev/null
	e=$(psql -X -d mine -c "EXPLAIN (ANALYZE, COSTS OFF) $join" | grep -E "Batch Time|Execution Time" | tr -s ' ' | tr '\n' ' ')
	w=$({ echo '\timing on'; for i in $(seq "${WARM:-10}"); do echo "$join;"; done; } | psql -X -q -d mine -o /dev/null |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | sort -n | awk '{v[NR] = $1} END {printf "best %s median %s", v[1], v[int((NR + 1) / 2)]}')
	x=""
	if [ "${TPS_S:-0}" -gt 0 ]; then
		echo "$join;" >/tmp/turns_join.pgb
		chmod 644 /tmp/turns_join.pgb
		for c in 1 8; do
			x="$x| $c session(s): $(cd /tmp && pgbench -n -d mine -f /tmp/turns_join.pgb -c $c -j $c -T "$TPS_S" 2>&1 |
				sed -n 's/^tps = \([0-9.]*\).*/\1/p') joins/s "
		done
	fi
	echo "$build: cold (ms)$t |$e| warm (ms) $w $x"
done
