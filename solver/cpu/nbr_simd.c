/* nbr_simd.c — instantiates the vectorized triangle of one anchor of the neighbour-list path
 * (nbr_simd_body.h) in double (dd), mixed (fd) and single (ff) precision, each cloned per
 * instruction set as tile_simd.c does.
 *
 * TB_SIMD_CLONES: on x86-64 GCC builds each function for AVX-512, AVX2 and the baseline, and
 * picks one at load time (an ifunc); elsewhere one build. The Makefile compiles this file with
 * -fno-math-errno, without which sqrt cannot run in lanes. */
#include "solver/cpu/nbr_simd.h"

#include <stddef.h>

#include "solver/physics/nbr.h"
#include "solver/physics/pot.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TB_SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TB_SIMD_CLONES
#endif

#define TB_REAL double
#define TB_ACC double
#define TB_NAME(x) x##_d
#define TB_TNAME(x) x##_dd
#include "solver/cpu/nbr_simd_body.h"
#undef TB_REAL
#undef TB_ACC
#undef TB_NAME
#undef TB_TNAME

#define TB_REAL float
#define TB_ACC double
#define TB_NAME(x) x##_f
#define TB_TNAME(x) x##_fd
#include "solver/cpu/nbr_simd_body.h"
#undef TB_ACC
#undef TB_TNAME

#define TB_ACC float
#define TB_TNAME(x) x##_ff
#include "solver/cpu/nbr_simd_body.h"
#undef TB_REAL
#undef TB_ACC
#undef TB_NAME
#undef TB_TNAME
