# tools/citus.sh: sourced by test/citus.sh (or by hand): builds and installs Citus from the vendored source
# tarball (with its patch for Debian's PostgreSQL 15 headers), and starts a throwaway Citus cluster on this
# machine: a coordinator and N workers, each its own PostgreSQL instance owned by a non-root user, reached
# through Unix sockets only, with citus (and gpuexact) preloaded and both extensions created everywhere.
# Everything is stopped and removed on exit.
#
#   source tools/citus.sh
#   gx_citus_install || exit 1          # builds once into GX_CITUS_BUILD, then installs (as root or via sudo)
#   gx_citus_start 2 || exit 1          # coordinator + 2 workers; PGHOST/PGPORT/PGUSER/PGDATABASE: the coordinator
#   psql -c 'SELECT * FROM citus_get_active_worker_nodes()'
#
# GX_CITUS_TARBALL: the source tarball (default ../shared/vendor/citus-13.2.2.tar.gz beside the repository);
# its patch is the citus-pg*.patch files beside it (GX_CITUS_PATCHES overrides). GX_CITUS_BUILD: the build
# cache, outside the repository (default /var/tmp/gpuexact-citus-build). GX_PG_OPTS adds server options.
# GX_PG_BIN (the server's programs) and GX_CITUS_USER (the nodes' owner) serve other installations, such as
# the GPU machine's (bench/device_citus.sh).

source "$(dirname "${BASH_SOURCE[0]}")/pgcluster.sh"

GX_CITUS_TARBALL=${GX_CITUS_TARBALL:-$GX_ROOT/../shared/vendor/citus-13.2.2.tar.gz}
GX_CITUS_BUILD=${GX_CITUS_BUILD:-/var/tmp/gpuexact-citus-build}
GX_CITUS_NODES=()
# Headers that Debian's server build makes Citus include: zstd.h and lz4.h (columnar storage), gssapi.h
# (libpq-be.h).
GX_CITUS_PACKAGES="libzstd-dev liblz4-dev libkrb5-dev"

# The tarball's patches: GX_CITUS_PATCHES, else every citus-pg*.patch beside it.
gx_citus_patches() {
	if [ -n "${GX_CITUS_PATCHES:-}" ]; then echo "$GX_CITUS_PATCHES"; return; fi
	ls "$(dirname "$GX_CITUS_TARBALL")"/citus-pg*.patch 2>/dev/null
}

# Builds Citus into GX_CITUS_BUILD unless the build there came from the same tarball, patches and server
# headers. Configured without libcurl (its anonymous usage reports; the cluster is local anyway).
gx_citus_build() {
	[ -f "$GX_CITUS_TARBALL" ] || { echo "no Citus source tarball at $GX_CITUS_TARBALL" >&2; return 1; }
	GX_PACKAGES="$GX_PACKAGES $GX_CITUS_PACKAGES" gx_install_deps || return 1
	local key patches p
	patches=$(gx_citus_patches)
	key=$( { sha256sum "$GX_CITUS_TARBALL" $patches | cut -d' ' -f1; pg_config --version; } | sha256sum | cut -c1-16)
	if [ -f "$GX_CITUS_BUILD/built-$key" ]; then return 0; fi
	echo "== building Citus from $(basename "$GX_CITUS_TARBALL") in $GX_CITUS_BUILD (a few minutes, once)"
	rm -rf "$GX_CITUS_BUILD" && mkdir -p "$GX_CITUS_BUILD" || return 1
	tar xzf "$GX_CITUS_TARBALL" -C "$GX_CITUS_BUILD" --strip-components=1 || return 1
	for p in $patches; do
		patch -s -d "$GX_CITUS_BUILD" -p1 <"$p" || { echo "patch $p does not apply" >&2; return 1; }
	done
	(cd "$GX_CITUS_BUILD" && ./configure --without-libcurl >configure.log 2>&1 &&
		nice make -s -j2 >make.log 2>&1) ||
		{ echo "Citus build failed: see $GX_CITUS_BUILD/configure.log and make.log" >&2; return 1; }
	touch "$GX_CITUS_BUILD/built-$key"
}

gx_citus_install() {
	gx_citus_build || return 1
	gx_as_root make -C "$GX_CITUS_BUILD" -s install >/dev/null 2>&1 ||
		{ echo "Citus install failed" >&2; return 1; }
}

# Stops and removes every node this shell started.
gx_citus_stop() {
	local dir
	for dir in "${GX_CITUS_NODES[@]}"; do
		gx_as_user "$GX_PG_BIN/pg_ctl" -D "$dir" -m immediate stop >/dev/null 2>&1
	done
	GX_CITUS_NODES=()
	[ -n "${GX_CITUS_DIR:-}" ] && rm -rf "$GX_CITUS_DIR"
	GX_CITUS_DIR=
}

# Starts one node in $GX_CITUS_DIR/$1 on port $2: its Unix socket in its own directory, no TCP at all.
gx_citus_node_start() {
	local dir=$GX_CITUS_DIR/$1
	mkdir "$dir" && chown "$GX_PGUSER" "$dir" || return 1
	gx_as_user "$GX_PG_BIN/initdb" -D "$dir" -A trust -U "$GX_PGUSER" --no-sync >/dev/null || return 1
	GX_CITUS_NODES+=("$dir")
	gx_as_user "$GX_PG_BIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -o "-p $2 -k $dir -c listen_addresses='' \
		-c shared_preload_libraries='citus,gpuexact' -c max_prepared_transactions=20 ${GX_PG_OPTS:-}" start \
		>/dev/null || { cat "$dir/server.log" >&2; return 1; }
	gx_as_user "$GX_PG_BIN/psql" -X -q -h "$dir" -p "$2" -U "$GX_PGUSER" -d postgres -v ON_ERROR_STOP=1 \
		-c 'CREATE EXTENSION citus' -c 'CREATE EXTENSION gpuexact' >/dev/null
}

# Starts a coordinator and $1 workers (default 2), registers the workers, and points PGHOST, PGPORT, PGUSER
# and PGDATABASE at the coordinator. Nodes reach each other through their socket directories: the node
# name Citus stores is that directory. The port numbers only name the sockets, so they need not be free.
gx_citus_start() {
	local n=${1:-2} w port=${GX_PORT:-55432}
	if [ -n "${GX_CITUS_USER:-}" ]; then GX_PGUSER=$GX_CITUS_USER; elif [ "$(id -u)" = 0 ]; then GX_PGUSER=postgres
	else GX_PGUSER=$(id -un); fi
	GX_CITUS_DIR=$(mktemp -d /tmp/gpuexact-citus.XXXXXX) && chmod 755 "$GX_CITUS_DIR" || return 1
	trap gx_citus_stop EXIT
	echo "== starting a throwaway Citus cluster in $GX_CITUS_DIR: a coordinator and $n workers (user $GX_PGUSER)"
	gx_citus_node_start coordinator "$port" || return 1
	export PGHOST=$GX_CITUS_DIR/coordinator PGPORT=$port PGUSER=$GX_PGUSER PGDATABASE=postgres
	psql -X -q -v ON_ERROR_STOP=1 -c "SELECT citus_set_coordinator_host('$PGHOST', $port)" >/dev/null || return 1
	for w in $(seq 1 "$n"); do
		gx_citus_node_start "worker$w" "$port" || return 1
		psql -X -q -v ON_ERROR_STOP=1 -c "SELECT citus_add_node('$GX_CITUS_DIR/worker$w', $port)" >/dev/null ||
			return 1
	done
}
