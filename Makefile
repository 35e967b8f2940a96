# tribody — top-level Makefile.
#   make            build build/tribody (CUDA when nvcc is found, else a CPU-only build) and the
#                   library build/libtribody.so (include/tribody.h; python/tribody loads it)
#   make python     install the Python package tribody (python/) with pip, for /usr/bin/python3
#   make deps       install the Debian packages that are missing (scripts/install-deps)
#   make test       check the include rules (scripts/check-includes), then build and run every
#                   program in tests/; ends with "N passed, N failed"
#   make example    build and run examples/sim.cfg
#   make bench      build/tribody bench (every map; the CPU backend when there is no GPU)
#   make validate   build/tribody validate examples/sim.cfg (backend against the references)
#   make test-asan  the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer,
#                   leak checking on, a CPU-only one-process build in build-asan/ (MPI=0:
#                   Open MPI's own allocations at exit would read as leaks; test_mpi covers
#                   the MPI build in `make test`)
#   make fuzz       the config loader, the XYZ reader, the checkpoint reader and the restart's
#                   file matching under libFuzzer + ASan + UBSan (clang), FUZZ_SECONDS in all
#                   (split evenly), from the seed corpus in tests/fuzz/
#   make clean
# Builds print one short line per file (CC, NVCC, AR, LINK); V=1 prints the commands.
# Knobs (override on the command line: make DEBUG=1 CUDA_ARCH="80 90"):

# `make` alone builds the binary (the first rule below would otherwise be the default).
.DEFAULT_GOAL := all
# One job per core unless the command line says (-jN; make -j1 builds one file at a time): the
# nvcc files take minutes each, and a fresh build on one job of 2 cores took ~10 of CI's 23.
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

CC        ?= gcc
CXX       ?= g++
# nvcc: found on PATH or in /usr/local/cuda; NVCC= (empty) forces a CPU-only build.
NVCC      ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
# GPU architectures compiled to machine code; PTX is embedded for the last one.
CUDA_ARCH ?= 80 90
# MPI: one simulation over several processes (docs/scaling.md). Built when mpicc is found;
# MPI=0 forces the one-process build. The flags come from mpicc (Open MPI's --showme).
MPICC     ?= $(shell command -v mpicc 2>/dev/null)
MPI       ?= $(if $(strip $(MPICC)),1,0)
# DEBUG=1: -g -O0 (-G for kernels) and a device synchronize after every launch.
DEBUG     ?= 0
BUILD     ?= build
# SAN: sanitizer flags for compiling and linking (make test-asan sets them).
SAN       ?=
# NVEXTRA: more nvcc flags, e.g. a kernel knob for a variant build (scripts/build-variant).
NVEXTRA   ?=
# V=1: print every command; by default one short line per file (warnings are still shown).
V         ?= 0
ifeq ($(V),1)
Q       :=
say      = @true
else
Q       := @
say      = @printf '  %-6s %s\n' $(1) $(2)
endif

WARN   := -Wall -Wextra -Wshadow -Wundef -Wdouble-promotion -Wstrict-prototypes -Wmissing-prototypes
ifeq ($(DEBUG),1)
OPT     := -g -O0
NVOPT   := -g -G -O0
DEFS    := -DTB_SYNC_LAUNCHES
else
OPT     := -O3 -g
NVOPT   := -O3 -lineinfo
DEFS    :=
endif
CFLAGS  ?=
# -fPIC: the same objects make build/tribody and build/libtribody.so (no second build);
# -fno-semantic-interposition keeps GCC inlining and binding within the library as in an executable.
PIC     := -fPIC -fno-semantic-interposition
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L -fopenmp $(OPT) $(WARN) $(DEFS) $(SAN) $(PIC) -I. -MMD -MP

# Static GSL and libconfig (as files, so the binary runs where they are not installed);
# libgomp statically too. The CUDA runtime is linked statically by default.
staticlib = $(firstword $(wildcard $(shell $(CC) -print-file-name=$(1))))
GSL_LIBS  := $(call staticlib,libgsl.a) $(call staticlib,libgslcblas.a)
CFG_LIBS  := $(call staticlib,libconfig.a)
GOMP_LIB  := $(or $(call staticlib,libgomp.a),-lgomp)
LDLIBS    := $(CFG_LIBS) $(GSL_LIBS) $(GOMP_LIB) -lpthread -lm

ifeq ($(MPI),1)
MPI_CFLAGS := -DTB_MPI $(shell $(MPICC) --showme:compile)
MPI_LIBS   := $(shell $(MPICC) --showme:link)
CFLAGS     += $(MPI_CFLAGS)
LDLIBS     += $(MPI_LIBS)
endif

# Sources: common/, config/, maps3d/, validate/ and solver/ with its sub-folders (README, Architecture).
SOLVER_DIRS := solver solver/cli solver/io solver/physics solver/cpu solver/gpu solver/par solver/lib
SRC_C   := $(filter-out solver/cli/main.c solver/gpu/gpu_none.c solver/gpu/gpu_bench_none.c,\
             $(wildcard common/*.c config/*.c maps3d/*.c validate/*.c $(addsuffix /*.c,$(SOLVER_DIRS))))
SRC_CU  := $(wildcard solver/gpu/*.cu)
TESTS   := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))

# The GPU backend is built when nvcc is there and the .cu sources exist.
HAVE_CUDA := $(if $(and $(strip $(NVCC)),$(strip $(SRC_CU))),1,)

ifeq ($(HAVE_CUDA),1)
GENCODE := $(foreach a,$(CUDA_ARCH),-gencode arch=compute_$(a),code=sm_$(a)) \
           -gencode arch=compute_$(lastword $(CUDA_ARCH)),code=compute_$(lastword $(CUDA_ARCH))
NVFLAGS := -std=c++17 $(NVOPT) $(DEFS) $(NVEXTRA) -I. $(GENCODE) \
           -DTB_CUDA_ARCH_LIST='"$(CUDA_ARCH)"' -Xcompiler "-Wall -Wextra -Wshadow -fPIC" -MMD -MP
ifeq ($(MPI),1)
# NCCL: nccl.h at compile time only; libnccl.so.2 is opened at run time by the first
# multi-rank GPU run (gpu_comm.cu), so the binary still runs where NCCL is absent.
NCCL_H  ?= $(firstword $(wildcard $(CUDA_HOME)/include/nccl.h /usr/include/nccl.h))
NVFLAGS += -DTB_MPI $(if $(NCCL_H),-DTB_NCCL -I$(dir $(NCCL_H)),)
endif
OBJ_GPU := $(patsubst %.cu,$(BUILD)/obj/%.o,$(SRC_CU))
LINK    := $(CXX)
LDCUDA  := -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt
else
OBJ_GPU := $(BUILD)/obj/solver/gpu/gpu_none.o $(BUILD)/obj/solver/gpu/gpu_bench_none.o
LINK    := $(CC)
LDCUDA  :=
endif

OBJ_LIB := $(patsubst %.c,$(BUILD)/obj/%.o,$(SRC_C)) $(OBJ_GPU)

check-includes:
	@scripts/check-includes

.PHONY: all deps check-includes test test-asan fuzz example validate bench clean check-deps python
all: check-deps $(BUILD)/tribody $(BUILD)/libtribody.so

check-deps:
	@scripts/install-deps --check
ifeq ($(MPI),1)
	@echo "tribody: MPI build ($(MPICC)): launch with mpirun -np P build/tribody ... (MPI=0 for one process)"
ifeq ($(HAVE_CUDA),1)
	@$(if $(NCCL_H),true,echo "tribody: nccl.h not found under $(CUDA_HOME)/include: GPU runs will be one-rank only (set NCCL_H=/path/nccl.h)")
endif
endif
ifeq ($(strip $(NVCC)),)
	@echo "tribody: nvcc not found: building the CPU-only backend (set NVCC=/path/to/nvcc for the GPU)"
endif

deps:
	@scripts/install-deps

$(BUILD)/libtribody.a: $(OBJ_LIB)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

$(BUILD)/tribody: $(BUILD)/obj/solver/cli/main.o $(BUILD)/libtribody.a
	$(call say,LINK,$@)
	$(Q)$(LINK) $(SAN) -o $@ $^ $(LDCUDA) $(LDLIBS)

# The shared library (include/tribody.h): the same objects; only tribody_* is exported
# (solver/lib/tribody.map). Debian's libconfig.a and libgsl.a are not PIC, so it links their
# shared libraries (and libgomp's); the CUDA runtime stays static, as in the binary.
LDLIBS_SO := -lconfig -lgsl -lgslcblas -lgomp -lpthread -lm $(if $(filter 1,$(MPI)),$(MPI_LIBS))
$(BUILD)/libtribody.so: $(OBJ_LIB) solver/lib/tribody.map
	$(call say,LINK,$@)
	$(Q)$(LINK) $(SAN) -shared -o $@ $(OBJ_LIB) -Wl,--version-script=solver/lib/tribody.map \
	    -Wl,-z,defs $(LDCUDA) $(LDLIBS_SO)

# The Python package for /usr/bin/python3 (PYTHON=...), with the library copied beside it
# (python/tribody/libtribody.so, git-ignored). Debian marks its python3 externally managed:
# pip then installs into /usr/local only with --break-system-packages (PIP_FLAGS to change,
# e.g. PIP_FLAGS="--user --break-system-packages" or a venv's python as PYTHON).
PYTHON    ?= /usr/bin/python3
PIP_FLAGS ?= --no-build-isolation --break-system-packages
python: $(BUILD)/libtribody.so
	cp $(BUILD)/libtribody.so python/tribody/libtribody.so
	$(PYTHON) -m pip install $(PIP_FLAGS) ./python

# Objects older than the PIC flags (a build folder from before them) are rebuilt once.
$(BUILD)/obj/.pic:
	@mkdir -p $(dir $@) && touch $@

$(BUILD)/obj/%.o: %.c $(BUILD)/obj/.pic
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

# The vectorized triplet tiles: sqrt in SIMD lanes needs no errno (solver/cpu/tile_simd.c), and
# no trapping math: else GCC 12 vectorizes only the AVX-512 clone (the lanes' selects after the
# divisions need a masked divide), and the AVX2 and baseline clones stay scalar.
$(BUILD)/obj/solver/cpu/tile_simd.o: CFLAGS += -fno-math-errno -fno-trapping-math
# Likewise the neighbour-list path's vectorized triangle (solver/cpu/nbr_simd.c), and without
# trapping math: the lane masks select after a division (tb_rsqrt), which GCC 12 will not
# if-convert without AVX-512's masked divide, so the AVX2 and baseline clones stayed scalar.
$(BUILD)/obj/solver/cpu/nbr_simd.o: CFLAGS += -fno-math-errno -fno-trapping-math

# The RDF histogram rounds every operation as the host does (no FMA), so both count the same
# pairs in the same bins (solver/rdf.h).
$(BUILD)/obj/solver/gpu/gpu_rdf.o: NVFLAGS += -fmad=false
# The box MTK moves on the device takes the host's bits (box_deform_d, nbr_stretch_limit).
$(BUILD)/obj/solver/gpu/gpu_mtk_box.o: NVFLAGS += -fmad=false

$(BUILD)/obj/%.o: %.cu $(BUILD)/obj/.pic
	@mkdir -p $(dir $@)
	$(call say,NVCC,$<)
	$(Q)$(NVCC) $(NVFLAGS) -c $< -o $@

# Tests: warnings are errors; every launch synchronizes.
$(BUILD)/tests/%: tests/%.c $(BUILD)/libtribody.a $(wildcard tests/tb_*.h)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CFLAGS) -Werror -DTB_SYNC_LAUNCHES $< -o $@ $(BUILD)/libtribody.a $(LDCUDA) $(LDLIBS) $(if $(HAVE_CUDA),-lstdc++)

# The include rules (README, Architecture) are checked first: a violation fails the test run.
# The Python tests (tests/python/) load build/libtribody.so into /usr/bin/python3; not under
# the sanitizers (the interpreter would need libasan preloaded).
PY_TESTS := $(if $(SAN),,$(wildcard tests/python/test_*.py))
test: check-includes check-deps $(BUILD)/tribody $(TESTS) $(if $(PY_TESTS),$(BUILD)/libtribody.so)
	@TB_BIN=$(BUILD)/tribody TRIBODY_LIB=$(CURDIR)/$(BUILD)/libtribody.so PYTHONPATH=$(CURDIR)/python \
	    scripts/run-tests $(TESTS) $(PY_TESTS)

# The sanitizer run: a CPU-only build of its own, every test, leaks checked. The leaks that
# libconfig 1.5 itself has on a syntax error are suppressed by name (tests/asan.supp says why).
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_ENV   := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1 \
              LSAN_OPTIONS=suppressions=$(CURDIR)/tests/asan.supp:print_suppressions=0 \
              UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
test-asan: check-deps
	$(ASAN_ENV) TB_TEST_LOGS=build-asan/test-logs $(MAKE) BUILD=build-asan NVCC= MPI=0 SAN="$(ASAN_FLAGS)" test

# Fuzzing (tests/fuzz/): libFuzzer targets built with clang, ASan and UBSan, run for
# FUZZ_SECONDS in all (each target an equal share) from the seed corpus; findings land in
# build-fuzz/artifacts/.
FUZZ_CC      ?= $(shell command -v clang 2>/dev/null || command -v clang-14 2>/dev/null)
FUZZ_SECONDS ?= 240
FUZZ_FLAGS   := -std=c11 -D_POSIX_C_SOURCE=200809L -I. -g -O1 -fno-omit-frame-pointer \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_SRC     := $(wildcard config/*.c) \
                maps3d/map3d.c maps3d/map2d.c common/check.c solver/io/xyz.c solver/io/lines.c solver/io/lammps_data.c solver/io/cell.c solver/state.c solver/io/init.c solver/io/init_random.c solver/io/init_vox.c solver/io/init_draws.c solver/io/init_par.c solver/io/init_lattice.c \
                solver/finite.c solver/io/output.c solver/io/checkpoint.c solver/io/restart.c
build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_SRC) $(wildcard common/*.h config/*.h maps3d/*.h $(addsuffix /*.h,$(SOLVER_DIRS)))
	@mkdir -p $(dir $@)
	$(call say,FUZZ,$<)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_SRC) -o $@ $(CFG_LIBS) $(GSL_LIBS) -lm

ifeq ($(strip $(FUZZ_CC)),)
fuzz:
	@echo "tribody: make fuzz needs clang with libFuzzer (Debian: apt-get install clang libclang-rt-14-dev); skipped"
else
FUZZ_TARGETS := config xyz ckpt restart data
fuzz: check-deps $(addprefix build-fuzz/fuzz_,$(FUZZ_TARGETS))
	@scripts/run-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)
endif

example: all
	$(BUILD)/tribody run examples/sim.cfg

validate: all
	$(BUILD)/tribody validate examples/sim.cfg

bench: all
	$(BUILD)/tribody bench --maps all

clean:
	rm -rf $(BUILD) build-asan build-fuzz

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
