# bench/device_env.sh: sourced by the bench scripts that work on the cluster .device/pg-device.sh started on
# the GPU machine (bench/device_setup.sh starts it): that PostgreSQL's programs and libraries, and its socket.
export PGXS_ROOT=/opt/pgroot
export LD_LIBRARY_PATH=$PGXS_ROOT/usr/lib/x86_64-linux-gnu:$PGXS_ROOT/lib/x86_64-linux-gnu
export PATH=$PGXS_ROOT/usr/lib/postgresql/15/bin:$PATH PGHOST=/tmp/pgsock PGPORT=5432 PGUSER=postgres
