/* real.h — scalar helpers for the two arithmetic types of the shared kernel bodies.
 *
 * The bodies in pot_atm.h, pot_lj.h and triplet.h are written once with TB_REAL and
 * TB_NAME(x) and compiled twice through pot.h: TB_REAL = double gives x_d, TB_REAL = float
 * gives x_f (the templates_on.h habit of GSL). The helpers below are the only place where
 * the two types differ. */
#ifndef TB_REAL_H
#define TB_REAL_H

#include <math.h>
#include "common/tb.h"

TB_HOSTDEV static inline double tb_sqrt_d(double x) { return sqrt(x); }
TB_HOSTDEV static inline float tb_sqrt_f(float x) { return sqrtf(x); }
TB_HOSTDEV static inline double tb_rint_d(double x) { return rint(x); }
TB_HOSTDEV static inline double tb_exp_d(double x) { return exp(x); }
TB_HOSTDEV static inline float tb_exp_f(float x) { return expf(x); }
TB_HOSTDEV static inline double tb_pow_d(double x, double y) { return pow(x, y); }
TB_HOSTDEV static inline float tb_pow_f(float x, float y) { return powf(x, y); }
TB_HOSTDEV static inline float tb_rint_f(float x) { return rintf(x); }

/* x*y + z: one fused instruction on the GPU; on the host the compiler's choice (no slow
 * software fma where the CPU build has no FMA instruction). */
TB_HOSTDEV static inline double tb_fma_d(double x, double y, double z)
{
#ifdef __CUDA_ARCH__
    return fma(x, y, z);
#else
    return x * y + z;
#endif
}
TB_HOSTDEV static inline float tb_fma_f(float x, float y, float z)
{
#ifdef __CUDA_ARCH__
    return fmaf(x, y, z);
#else
    return x * y + z;
#endif
}

/* 1/sqrt(x) for the potentials, where x is a product of squared distances (positive, normal,
 * finite; zero for overlapping particles, which gives a non-finite result either way and is
 * reported by the finiteness checks). On the GPU, in double: the hardware's coarse
 * approximation (rsqrt.approx.ftz.f64: the upper word only, relative error about 2^-20) and
 * two Newton steps r <- r + r (1/2 - (x/2) r^2), each squaring the error (below 2^-39, then
 * below the double rounding: within 2 ulp), without the special-case selects and the
 * slow-path branch of CUDA's rsqrt(double); in float, the hardware approximation (relative
 * error < 2^-22.9) without rsqrtf's denormal fix-up (3 instructions a triplet). */
TB_HOSTDEV static inline double tb_rsqrt_d(double x)
{
#ifdef __CUDA_ARCH__
    double r;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
    const double xh = 0.5 * x;
    for (int it = 0; it < 2; it++)
        r = fma(r, fma(-xh * r, r, 0.5), r);
    return r;
#else
    return 1.0 / sqrt(x);
#endif
}
TB_HOSTDEV static inline float tb_rsqrt_f(float x)
{
#ifdef __CUDA_ARCH__
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
#else
    return 1.0f / sqrtf(x);
#endif
}

#endif
