/* real.h — scalar helpers for the two arithmetic types of the shared kernel bodies.
 *
 * The bodies in pot_atm.h, pot_lj.h and triplet.h are written once with TB_REAL and
 * TB_NAME(x) and compiled twice through pot.h: TB_REAL = double gives x_d, TB_REAL = float
 * gives x_f (the templates_on.h habit of GSL). The helpers below are the only place where
 * the two types differ. */
#ifndef TB_REAL_H
#define TB_REAL_H

#include <math.h>
#include "tb.h"

TB_HOSTDEV static inline double tb_sqrt_d(double x) { return sqrt(x); }
TB_HOSTDEV static inline float tb_sqrt_f(float x) { return sqrtf(x); }
TB_HOSTDEV static inline double tb_rint_d(double x) { return rint(x); }
TB_HOSTDEV static inline float tb_rint_f(float x) { return rintf(x); }

/* 1/sqrt(x): a hardware reciprocal square root on the GPU in single precision. */
TB_HOSTDEV static inline double tb_rsqrt_d(double x)
{
#ifdef __CUDA_ARCH__
    return rsqrt(x);
#else
    return 1.0 / sqrt(x);
#endif
}
TB_HOSTDEV static inline float tb_rsqrt_f(float x)
{
#ifdef __CUDA_ARCH__
    return rsqrtf(x);
#else
    return 1.0f / sqrtf(x);
#endif
}

#endif
