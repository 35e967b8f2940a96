/* nbr_simd.c — instantiates the vectorized triangle of one anchor of the neighbour-list path
 * (nbr_simd_body.h) in double (dd), mixed (fd) and single (ff) precision, each cloned per
 * instruction set as tile_simd.c does, for one species (nbr_simd_triangle_*) and several
 * (nbr_simd_triangle_typed_*).
 *
 * The precisions and TB_SIMD_CLONES (AVX-512, AVX2 and baseline clones picked at load time)
 * come from cpu_instances.h. The Makefile compiles this file with -fno-math-errno, without
 * which sqrt cannot run in lanes, and -fno-trapping-math, without which GCC 12 vectorizes only
 * the AVX-512 clone (the lane masks' selects after tb_rsqrt's division need masked divides:
 * "control flow in loop"); the AVX2 and baseline clones ran scalar until 2026-11-29. */
#include "solver/cpu/nbr_simd.h"

#include <stddef.h>

#include "solver/physics/nbr.h"
#include "solver/physics/pot.h"

#define TB_TYPED 0
#define TB_CPU_TEMPLATE "solver/cpu/nbr_simd_body.h"
#include "solver/cpu/cpu_instances.h"
#undef TB_TYPED

#define TB_TYPED 1
#define TB_CPU_TEMPLATE "solver/cpu/nbr_simd_body.h"
#include "solver/cpu/cpu_instances.h"
#undef TB_TYPED
