# bench/device_setup.sh: sourced by the bench/device_*.sh scripts on the GPU machine (device tool): starts the
# carried PostgreSQL (.device/pg-device.sh), installs the carried build into it (the extension, the CUDA engine,
# the GPU service program, the SQL script), and writes what the machine is to $OUT/machine.txt. restart OPTIONS
# restarts that cluster with server options (e.g. -c shared_preload_libraries=gpuexact).
OUT=${OUT:-/tmp/out}
source .device/pg-device.sh
LIB=$PGXS_ROOT/usr/lib/postgresql/15/lib
install -m 755 gpuexact.so build/gpuexact_cuda.so "$LIB/"
install -m 755 build/gpuexact-service "$LIB/gpuexact-service"
cp gpuexact.control sql/gpuexact--0.1.sql "$PGXS_ROOT/usr/share/postgresql/15/extension/"
export GPUEXACT_CUDA_LIB=build/gpuexact_cuda.so
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; } >"$OUT/machine.txt" 2>&1
restart() { su pgrun -c "LD_LIBRARY_PATH=$LD_LIBRARY_PATH $PGXS_ROOT/usr/lib/postgresql/15/bin/pg_ctl -D /tmp/pgdata -w -m fast -l /tmp/pg.log -o '-k /tmp/pgsock -c listen_addresses= -c jit=off $1' restart" >/dev/null; }
