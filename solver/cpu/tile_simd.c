/* tile_simd.c — instantiates the vectorized ATM triplet tile (tile_simd_body.h) in double
 * (dd), mixed (fd) and single (ff) precision, each cloned per instruction set, for one species
 * (tile_simd_triplets_*) and several (tile_simd_triplets_typed_*).
 *
 * The precisions and TB_SIMD_CLONES (AVX-512, AVX2 and baseline clones picked at load time)
 * come from cpu_instances.h. The Makefile compiles this file with -fno-math-errno, without
 * which sqrt cannot run in lanes, and -fno-trapping-math, without which GCC 12 vectorizes the
 * AVX-512 clone only (the AVX2 and baseline clones ran scalar until 2026-11-29: objdump showed
 * 5 ymm instructions in tile_simd_triplets_dd.avx2, 346 with it; the arithmetic is the same). */
#include "solver/cpu/tile_simd.h"

#include "solver/physics/pot.h"

#define TB_TYPED 0
#define TB_CPU_TEMPLATE "solver/cpu/tile_simd_body.h"
#include "solver/cpu/cpu_instances.h"
#undef TB_TYPED

#define TB_TYPED 1
#define TB_CPU_TEMPLATE "solver/cpu/tile_simd_body.h"
#include "solver/cpu/cpu_instances.h"
#undef TB_TYPED
