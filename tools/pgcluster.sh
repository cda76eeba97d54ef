# tools/pgcluster.sh: sourced by demo.sh and test.sh: installs build dependencies, builds and installs the
# extension, and starts a throwaway PostgreSQL 15 cluster owned by a non-root user (stopped and removed on exit).
# After gx_cluster_start: PGHOST, PGPORT, PGUSER and PGDATABASE point at it. GX_PG_OPTS adds server options
# (e.g. "-c shared_buffers=1GB").

GX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GX_PG_BIN=${GX_PG_BIN:-/usr/lib/postgresql/15/bin}
# postgresql-15-postgis-3 only for the optional PostGIS bridge's test, python3 only for test/writers.sh, libcgal-dev
# and g++ only for the independent check of the booleans against CGAL (test/oracle; never linked into gpuexact)
# (gpuexact itself needs none of them); libproj-dev for gx_transform (gpuexact builds without it: gx_transform
# then raises).
GX_PACKAGES="postgresql-15 postgresql-server-dev-15 libgmp-dev liblz4-dev make gcc postgresql-15-postgis-3 python3 libcgal-dev g++ libproj-dev"

gx_as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

gx_install_deps() {
	local missing="" p
	for p in $GX_PACKAGES; do
		dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "== installing:$missing"
	gx_as_root apt-get update -qq
	DEBIAN_FRONTEND=noninteractive gx_as_root apt-get install -y -qq $missing >/dev/null
}

gx_build_install() {
	echo "== building gpuexact"
	make -C "$GX_ROOT" -s -j2 >/dev/null
	gx_as_root make -C "$GX_ROOT" -s install >/dev/null
}

gx_cluster_stop() {
	[ -n "${GX_PGDATA:-}" ] || return 0
	gx_as_user "$GX_PG_BIN/pg_ctl" -D "$GX_PGDATA" -m immediate stop >/dev/null 2>&1
	rm -rf "$GX_PGDATA"
	GX_PGDATA=
}

# Runs a command as the cluster's owner (root may not run PostgreSQL).
gx_as_user() {
	if [ "$(id -u)" = 0 ]; then runuser -u "$GX_PGUSER" -- "$@"; else "$@"; fi
}

# As root, the cluster runs as the "postgres" system user that Debian's PostgreSQL packages create: no user
# is created for it, so nothing is left behind and concurrent runs share no user they could delete.
gx_cluster_start() {
	if [ "$(id -u)" = 0 ]; then
		GX_PGUSER=postgres
		id -u "$GX_PGUSER" >/dev/null 2>&1 || { echo "no postgres system user: install postgresql-15" >&2; return 1; }
	else
		GX_PGUSER=$(id -un)
	fi
	GX_PGDATA=$(mktemp -d /tmp/gpuexact-pg.XXXXXX)
	chown "$GX_PGUSER" "$GX_PGDATA"
	trap gx_cluster_stop EXIT
	PGPORT=${GX_PORT:-55432}
	while (exec 3<>/dev/tcp/127.0.0.1/$PGPORT) 2>/dev/null; do PGPORT=$((PGPORT + 1)); done
	echo "== starting a throwaway cluster in $GX_PGDATA (port $PGPORT, user $GX_PGUSER)"
	gx_as_user "$GX_PG_BIN/initdb" -D "$GX_PGDATA" -A trust -U "$GX_PGUSER" --no-sync >/dev/null
	gx_as_user "$GX_PG_BIN/pg_ctl" -D "$GX_PGDATA" -l "$GX_PGDATA/server.log" -w \
		-o "-p $PGPORT -k $GX_PGDATA -c listen_addresses='' ${GX_PG_OPTS:-}" start >/dev/null
	export PGHOST=$GX_PGDATA PGPORT PGUSER=$GX_PGUSER PGDATABASE=postgres
}

# Restarts the cluster with extra server options, e.g. "-c shared_preload_libraries=gpuexact".
gx_cluster_restart() {
	gx_as_user "$GX_PG_BIN/pg_ctl" -D "$GX_PGDATA" -l "$GX_PGDATA/server.log" -w -m fast \
		-o "-p $PGPORT -k $GX_PGDATA -c listen_addresses='' $1" restart >/dev/null
}
