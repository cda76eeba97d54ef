#!/usr/bin/env bash
# bench/device_citus.sh: issue 12's check on the GPU machine (device tool): a Citus coordinator and 2 workers
# sharing its GPU, each node with gpuexact preloaded (its own GPU service), running test/citus.sh with the
# batches forced onto the GPU: both patterns must give the single-node answer, and every worker task's batch
# must run on the GPU. Expects .device/citus-root (Citus installed with DESTDIR on the build machine:
# `make -C /var/tmp/gpuexact-citus-build install DESTDIR=$PWD/.device/citus-root`), the build carried
# (gpuexact.so, build/) and .device (see bench/device_run.sh).
set -u
cd "$(dirname "$0")/.."
source bench/device_setup.sh
cp -r .device/citus-root/usr/lib/postgresql/15/lib/. "$LIB/"
cp -r .device/citus-root/usr/share/postgresql/15/extension/. "$PGXS_ROOT/usr/share/postgresql/15/extension/"
GX_PG_BIN=$PGXS_ROOT/usr/lib/postgresql/15/bin GX_CITUS_USER=pgrun GX_CITUS_INSTALLED=1 GX_CITUS_SERVICE_CPU=off \
	GX_CITUS_EXPECT_GPU=1 GX_PG_OPTS="-c jit=off -c gpuexact.device=gpu -c gpuexact.gpu_min_elements=0" \
	test/citus.sh >"$OUT/citus_gpu.txt" 2>&1
echo "exit $?" >>"$OUT/citus_gpu.txt"
