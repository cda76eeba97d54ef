# Makefile: builds the gpuexact extension with PGXS, and the core library's unit tests and benchmarks.
EXTENSION = gpuexact
MODULE_big = gpuexact
DATA = sql/gpuexact--0.1.sql
# The optional PostGIS bridge (postgis/): installed beside gpuexact, created only where PostGIS is.
DATA += postgis/gpuexact_postgis.control postgis/gpuexact_postgis--0.1.sql

CORE_SRCS = $(sort $(wildcard src/core/*/*.c))
PG_SRCS = $(sort $(wildcard src/pg/*.c src/pg/*/*.c))
OBJS = $(CORE_SRCS:.c=.o) $(PG_SRCS:.c=.o)

# Exact arithmetic needs IEEE behaviour: no FMA contraction, no fast-math.
PG_CPPFLAGS = -Isrc/core -Isrc/pg
PG_CFLAGS = -std=gnu11 -fopenmp -ffp-contract=off -fno-fast-math -Werror=implicit-function-declaration
SHLIB_LINK = -lgmp -llz4 -fopenmp -ldl
# gx_transform goes through PROJ (the library PostGIS uses) when pkg-config finds it (GX_PROJ=no builds
# without it, for a server that has no libproj); without it, it raises.
GX_PROJ ?= $(shell pkg-config --exists proj 2>/dev/null && echo yes)
ifeq ($(GX_PROJ),yes)
PG_CPPFLAGS += -DGX_HAVE_PROJ $(shell pkg-config --cflags proj)
SHLIB_LINK += $(shell pkg-config --libs proj)
endif

REGRESS = io wkb formats packed faces accessors intersects degenerate near_miss errors stats index equality estimates join cancel parallel plans terminate cache solids tiles desurvey distance solids_adversarial volumes contains writers knn tables intercepts plan_choice overlay boolean boolean_kept split overlap_pairs geology constructs transform
REGRESS_OPTS = --load-extension=gpuexact

EXTRA_CLEAN = build results regression.diffs regression.out

# No LLVM bitcode: JIT inlining would recompile the predicates without -ffp-contract=off.
override with_llvm = no

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# The HTML page's viewer (src/core/io/viewer/gx_viewer.js), made a C string that gx_html_write.c includes.
VIEWER_JS_H = src/core/io/gx_viewer_js.h
$(VIEWER_JS_H): src/core/io/viewer/gx_viewer.js
	{ echo '/* gx_viewer_js.h: made by the Makefile from viewer/gx_viewer.js; do not edit. */'; \
	  echo 'static const char gx_viewer_js[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } >$@
src/core/io/gx_html_write.o: $(VIEWER_JS_H)
EXTRA_CLEAN += $(VIEWER_JS_H)

# The PostGIS bridge's regression test, against a running server that has PostGIS (test/postgis_bridge.sh).
.PHONY: installcheck-postgis
installcheck-postgis:
	$(pg_regress_installcheck) --inputdir=postgis --outputdir=postgis --dbname=gx_postgis_regression postgis_bridge

# Header dependencies of the extension's objects (PGXS tracks them only in builds configured for it):
# a changed struct must never leave an object compiled against its old layout.
override CFLAGS += -MMD -MP
-include $(OBJS:.o=.d)
EXTRA_CLEAN += $(OBJS:.o=.d)

# --- Core library without PostgreSQL: unit tests and command-line benchmarks --------------------------------
CORE_CC ?= gcc
CORE_CFLAGS = -std=gnu11 -fopenmp -O2 -g -Wall -Wextra -Werror=implicit-function-declaration -ffp-contract=off -fno-fast-math -Isrc/core -Itest/unit
UNIT_TESTS = $(patsubst test/unit/%.c,build/%,$(sort $(wildcard test/unit/test_*.c)))
BENCHES = build/bench_intersects build/bench_predicates build/bench_batch build/bench_vertex_index build/bench_solid build/bench_boolean \
	build/bench_delaunay build/bench_hull build/bench_blocks build/bench_overlaps
BENCH_DATA = bench/gx_bench_mining.c bench/gx_bench_mesh.c

build/libgxcore.a: $(CORE_SRCS) $(wildcard src/core/*/*.h) $(VIEWER_JS_H)
	@mkdir -p build/core
	cd build/core && for f in $(CORE_SRCS); do $(CORE_CC) $(CORE_CFLAGS) -I../../src/core -c ../../$$f || exit 1; done
	ar rcs $@ build/core/*.o

build/%: test/unit/%.c build/libgxcore.a $(wildcard test/unit/*.h)
	$(CORE_CC) $(CORE_CFLAGS) -o $@ $< build/libgxcore.a $(UNIT_LIBS) -lgmp -lm -ldl

# The pglz writer's test reads its streams back with PostgreSQL's own decoder.
build/test_pglz: UNIT_LIBS = $(shell $(PG_CONFIG) --pkglibdir)/libpgcommon.a

# The regression replay compiles the fuzz harnesses in.
build/test_fuzz_regressions: $(wildcard test/fuzz/*.c test/fuzz/*.h)

build/bench_batch build/bench_vertex_index build/bench_solid build/bench_boolean build/bench_blocks build/bench_overlaps: build/%: bench/%.c $(BENCH_DATA) bench/gx_bench_data.h build/libgxcore.a
	$(CORE_CC) $(CORE_CFLAGS) -Ibench -o $@ $< $(BENCH_DATA) build/libgxcore.a -lgmp -lm -ldl

build/%: bench/%.c build/libgxcore.a
	$(CORE_CC) $(CORE_CFLAGS) -o $@ $< build/libgxcore.a -lgmp -lm -ldl

.PHONY: unittest unittest-build unittest-list benches
unittest-build: $(UNIT_TESTS)
unittest-list:
	@echo $(UNIT_TESTS)
unittest: $(UNIT_TESTS)
	@for t in $(UNIT_TESTS); do $$t test/fuzz/regressions || exit 1; done

benches: $(BENCHES)

# --- The GPU service (src/service): a program of its own, started by the supervising background worker ---
all: build/gpuexact-service
install: install-service

build/gpuexact-service: src/service/gx_service.c build/libgxcore.a
	$(CORE_CC) $(CORE_CFLAGS) -o $@ $< build/libgxcore.a -lgmp -lm -ldl -lpthread

.PHONY: install-service
install-service: build/gpuexact-service
	$(INSTALL_PROGRAM) build/gpuexact-service '$(DESTDIR)$(pkglibdir)/gpuexact-service'

# --- The CUDA engine (cuda/): built whenever nvcc is found, installed beside the extension --------------
NVCC ?= $(firstword $(wildcard /usr/local/cuda/bin/nvcc) $(shell command -v nvcc 2>/dev/null))
CUDA_DEPS = $(wildcard cuda/*.cu cuda/*.cuh cuda/*.h cuda/Makefile) src/core/algorithm/gx_primitives_impl.h \
	src/core/algorithm/gx_orient.h src/core/algorithm/gx_expansion.h src/core/base/gx_hd.h \
	src/core/algorithm/gx_distance_filter_impl.h src/core/algorithm/gx_ddi.h src/core/operation/gx_volume_dd.h \
	src/core/operation/gx_volume_impl.h src/core/operation/gx_volume_filter.h src/core/operation/gx_overlay_dd.h

ifneq ($(NVCC),)
all: build/gpuexact_cuda.so
install: install-cuda
endif

build/gpuexact_cuda.so: $(CUDA_DEPS)
	$(MAKE) -C cuda NVCC=$(NVCC) BUILD=../build ../build/gpuexact_cuda.so

.PHONY: install-cuda cuda-test
install-cuda: build/gpuexact_cuda.so
	$(INSTALL_SHLIB) build/gpuexact_cuda.so '$(DESTDIR)$(pkglibdir)/gpuexact_cuda.so'

# The device test (needs a GPU; exit status 77 when there is none).
cuda-test:
	$(MAKE) -C cuda NVCC=$(NVCC) BUILD=../build test

# --- CGAL as an independent oracle (test/oracle) and the booleans' benchmark against it: built only where its
# headers are (libcgal-dev); CGAL is never linked into the product. ---------------------------------------------
ORACLE_CXX = g++ -std=c++17 -O2 -DNDEBUG -fopenmp -frounding-math -Isrc/core -Itest/unit -Itest/oracle
build/cgal_boolean: test/oracle/cgal_boolean.cpp test/oracle/cgal_overlay.h test/unit/gx_test_tris.h build/libgxcore.a
	$(ORACLE_CXX) -o $@ $< build/libgxcore.a -lgmp -lmpfr -lm -ldl
build/bench_overlay: bench/bench_overlay.cpp test/oracle/cgal_overlay.h $(BENCH_DATA) build/libgxcore.a
	@mkdir -p build/bench_data
	for f in $(BENCH_DATA); do $(CORE_CC) $(CORE_CFLAGS) -Ibench -c $$f -o build/bench_data/$$(basename $$f .c).o || exit 1; done
	$(ORACLE_CXX) -Ibench -o $@ $< build/bench_data/*.o build/libgxcore.a -lgmp -lmpfr -lm -ldl
