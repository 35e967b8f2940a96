/* nbr_simd.h — the CPU backend's vectorized triangle of entry pairs of one anchor of the
 * neighbour-list path (nbr.h; the body is nbr_simd_body.h, built in nbr_simd.c): one per
 * precision, double (dd), mixed (fd: float arithmetic; nbr_cpu.h accumulates in double) and
 * single (ff); and the layout of the per-thread scratch it shares with nbr_cpu.h. */
#ifndef TB_NBR_SIMD_H
#define TB_NBR_SIMD_H

#include "solver/physics/pot_params.h"
#include "common/tb.h"

/* The k loop of a row is padded to a multiple of this many lanes (the widest clone's float
 * lanes; a multiple of every clone's lane count). */
#define NBR_SIMD_PAD 16

/* Elements per SoA array of a scratch for up to cap entries: the entries, one padded vector
 * past the last one, rounded to NBR_SIMD_PAD (so every array starts 64-byte aligned when the
 * first does). */
static inline int nbr_simd_stride(int cap)
{
    return (cap + 2 * NBR_SIMD_PAD - 1) / NBR_SIMD_PAD * NBR_SIMD_PAD;
}

TB_BEGIN_DECLS
/* The triplets of the ma ATM entries of one anchor: d holds the entries' SoA arrays
 * x, y, z, |d|^2 at d, d + st, d + 2 st, d + 3 st (st = nbr_simd_stride(cap)), entries
 * [ma, ma + NBR_SIMD_PAD) finite (padding: read, never counted); v the SoA arrays V_x, V_y,
 * V_z, S (nbr.h) alike, into which the triplets' sums are added (entries [ma, ma +
 * NBR_SIMD_PAD) receive zeros), in pot_atm_list's scaling: F_q = -3 nu 5^(-5/2) (V_q + S_q d_q)
 * (no energy: 9 E = sum_q d_q . F_q, nbr_cpu.h). Adds the triplets that counted to *hits. */
void nbr_simd_triangle_dd(const pot_coef_d *kc, const double *d, double *v, int st, int ma,
                          long long *hits);
void nbr_simd_triangle_fd(const pot_coef_f *kc, const float *d, float *v, int st, int ma,
                          long long *hits);
void nbr_simd_triangle_ff(const pot_coef_f *kc, const float *d, float *v, int st, int ma,
                          long long *hits);
/* The same with several species (kc->ntypes > 1): nus [TB_TYPES_MAX st] holds, per species t,
 * the nu of (anchor's species, t, entry k's species) for every entry k (zero from ma on), tt [st]
 * the entries' species, rowon[t] whether some nu of nus's array t is not zero. The sums then
 * include nu: F = -3 5^(-5/2) (V + S d). */
void nbr_simd_triangle_typed_dd(const pot_coef_d *kc, const double *d, double *v, int st,
                                int ma, const double *nus, const int *tt, const int *rowon,
                                long long *hits);
void nbr_simd_triangle_typed_fd(const pot_coef_f *kc, const float *d, float *v, int st, int ma,
                                const float *nus, const int *tt, const int *rowon,
                                long long *hits);
void nbr_simd_triangle_typed_ff(const pot_coef_f *kc, const float *d, float *v, int st, int ma,
                                const float *nus, const int *tt, const int *rowon,
                                long long *hits);
TB_END_DECLS

#endif
