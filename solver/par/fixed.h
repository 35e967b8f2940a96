/* fixed.h — the two-word fixed-point sums of solver.deterministic, shared by the GPU kernels
 * (gpu_atm.cuh) and the CPU backend.
 *
 * A value v adds hi = floor(v 2^20) to one 64-bit word and lo = rint((v 2^20 - hi) 2^32) to
 * another (lo < 2^32 + 1, so up to 2^31 adds cannot overflow it). Integer sums do not depend on
 * their order — of threads, blocks or ranks — so the decoded total, hi / 2^20 + lo / 2^52, is
 * the same bits however the work was cut. Resolution 2^-52, range 2^43. The words are kept
 * unsigned so that sums wrap (two's complement) instead of overflowing; MPI and NCCL sum
 * them as unsigned 64-bit integers. */
#ifndef TB_FIXED_H
#define TB_FIXED_H

#include <math.h>

#include "common/tb.h"

#define TB_FIX_HI 1048576.0             /* 2^20 */
#define TB_FIX_LO 4294967296.0          /* 2^32 */

/* The two words of v. */
TB_HOSTDEV static inline void fix_encode(double v, unsigned long long *hi, unsigned long long *lo)
{
    const double s = v * TB_FIX_HI;
    const double h = floor(s);
    *hi = (unsigned long long)(long long)h;
    *lo = (unsigned long long)llrint((s - h) * TB_FIX_LO);
}

/* The value of the pair hl[0] (hi), hl[1] (lo). */
TB_HOSTDEV static inline double fix_decode(const unsigned long long *hl)
{
    return (double)(long long)hl[0] / TB_FIX_HI +
           (double)(long long)hl[1] / (TB_FIX_HI * TB_FIX_LO);
}

#endif
