/* tile_simd.c — instantiates the vectorized ATM triplet tile (tile_simd_body.h) in double
 * (dd), mixed (fd) and single (ff) precision, each cloned per instruction set.
 *
 * The precisions and TB_SIMD_CLONES (AVX-512, AVX2 and baseline clones picked at load time)
 * come from cpu_instances.h. The Makefile compiles this file with -fno-math-errno, without
 * which sqrt cannot run in lanes. */
#include "solver/cpu/tile_simd.h"

#include "solver/physics/pot.h"

#define TB_CPU_TEMPLATE "solver/cpu/tile_simd_body.h"
#include "solver/cpu/cpu_instances.h"
