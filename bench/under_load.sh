#!/usr/bin/env bash
# bench/under_load.sh: the join of holes and bodies alone and under load, on the GPU machine, after
# `SCALE=N bench/mine_sessions.sh` has loaded the database `mine` into the running cluster: with OTHERS other
# sessions joining (pgbench; default "0 7"), six EXPLAIN ANALYZE of the join (its Engine Time, Batch Time,
# planning and execution) and 30 plain joins (best, median, worst) in one session, the host's CPU ticks
# (user, nice, system, idle) over that time, and the CPU ticks of each kind of process (backends, the GPU
# service, pgbench), most first.
set -u
cd "$(dirname "$0")/.."
source bench/device_env.sh
join="SELECT h.id, b.id FROM holes h JOIN bodies b ON gx_intersects(h.geom, b.geom)"
echo "$join;" >/tmp/under_load.pgb
chmod 644 /tmp/under_load.pgb
# CPU ticks (user + system) of every process, by name (backends as postgres), as "name ticks"
ticks() {
	for p in /proc/[0-9]*; do
		awk -v c="$(cat "$p/comm" 2>/dev/null)" '{print c, $14 + $15}' "$p/stat" 2>/dev/null
	done | awk '{k = $1; if (k ~ /^postgres/) k = "postgres"; t[k] += $NF} END {for (k in t) print k, t[k]}'
}
for c in ${OTHERS:-0 7}; do
	echo "== $c other sessions"
	if [ "$c" -gt 0 ]; then
		(cd /tmp && pgbench -n -d mine -f /tmp/under_load.pgb -c "$c" -j "$c" -T 9 2>&1 | grep tps) \
			>/tmp/under_load.tps &
		sleep 2
	fi
	head -1 /proc/stat >/tmp/under_load.s0
	ticks >/tmp/under_load.t0
	{
		echo '\timing on'
		for i in 1 2 3 4 5 6; do echo "EXPLAIN (ANALYZE, COSTS OFF) $join;"; done
		for i in $(seq 30); do echo "$join;"; done
	} | psql -X -d mine 2>&1 | grep -E "Engine Time|Batch Time|Execution Time|Planning Time|^Time" >/tmp/under_load.out
	head -1 /proc/stat >/tmp/under_load.s1
	ticks >/tmp/under_load.t1
	grep -v "^Time" /tmp/under_load.out
	grep "^Time" /tmp/under_load.out | tail -30 | awk '{print $2}' | sort -n |
		awk '{v[NR] = $1} END {print "plain joins (ms): best", v[1], "median", v[int((NR + 1) / 2)], "worst", v[NR]}'
	paste /tmp/under_load.s0 /tmp/under_load.s1 |
		awk '{print "host CPU ticks: user", $13 - $2, "nice", $14 - $3, "system", $15 - $4, "idle", $16 - $5}'
	awk 'NR == FNR {t0[$1] = $2; next} {d = $2 - t0[$1]; if (d > 0) print "  " $1, d}' \
		/tmp/under_load.t0 /tmp/under_load.t1 |
		sort -k2 -n -r | head -6
	wait
	if [ "$c" -gt 0 ]; then echo "the other sessions: $(cat /tmp/under_load.tps)"; fi
done
