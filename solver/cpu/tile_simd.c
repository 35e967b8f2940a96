/* tile_simd.c — instantiates the vectorized ATM triplet tile (tile_simd_body.h) in double
 * (dd), mixed (fd) and single (ff) precision, each cloned per instruction set, for one species
 * (tile_simd_triplets_*) and several (tile_simd_triplets_typed_*).
 *
 * The precisions and TB_SIMD_CLONES (AVX-512, AVX2 and baseline clones picked at load time)
 * come from cpu_instances.h. The Makefile compiles this file with -fno-math-errno, without
 * which sqrt cannot run in lanes. */
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
