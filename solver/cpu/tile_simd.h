/* tile_simd.h — the CPU backend's vectorized ATM triplet tiles (tile_simd_body.h, built in
 * tile_simd.c): one per precision, double (dd), mixed (fd: float arithmetic, double
 * accumulation) and single (ff). Each runs the same triplets as tile_cpu.h's tile_triplets
 * and adds the same forces, energy and virial, to rounding. */
#ifndef TB_TILE_SIMD_H
#define TB_TILE_SIMD_H

#include <stddef.h>

#include "solver/physics/pot_params.h"
#include "common/tb.h"

/* The k loop is padded to a multiple of this many lanes (the widest clone's float lanes). */
#define TB_SIMD_PAD 16

/* Entries per scratch array for tile edge `edge`: the tile plus one padded vector. */
static inline int tile_simd_stride(int edge)
{
    return (edge + 2 * TB_SIMD_PAD - 1) / TB_SIMD_PAD * TB_SIMD_PAD;
}

/* Bytes of scratch one thread needs for tile edge `edge` (eleven arrays of doubles, and one
 * per species for the typed tile), a multiple of 64. */
static inline size_t tile_simd_scratch(int edge)
{
    return (11 + TB_TYPES_MAX) * (size_t)tile_simd_stride(edge) * sizeof(double);
}

TB_BEGIN_DECLS
/* ATM energy of triplet tile (I, J, K) of n particles with positions x[3n] and tile edge
 * `edge`; forces added into f[3n], the virial (xx yy zz xy xz yz) into w[6]. scr: this call's
 * tile_simd_scratch(edge) bytes, 64-byte aligned, owned by the calling thread. */
double tile_simd_triplets_dd(const pot_coef_d *kc, const double *x, int n, int edge, int I,
                             int J, int K, double *f, double *w, void *scr);
double tile_simd_triplets_fd(const pot_coef_f *kc, const float *x, int n, int edge, int I,
                             int J, int K, double *f, double *w, void *scr);
double tile_simd_triplets_ff(const pot_coef_f *kc, const float *x, int n, int edge, int I,
                             int J, int K, float *f, double *w, void *scr);
/* The same with several species: type[n] the particles' species, nu per triplet from kc->tab
 * (kc->ntypes > 1). */
double tile_simd_triplets_typed_dd(const pot_coef_d *kc, const int *type, const double *x, int n,
                                   int edge, int I, int J, int K, double *f, double *w, void *scr);
double tile_simd_triplets_typed_fd(const pot_coef_f *kc, const int *type, const float *x, int n,
                                   int edge, int I, int J, int K, double *f, double *w, void *scr);
double tile_simd_triplets_typed_ff(const pot_coef_f *kc, const int *type, const float *x, int n,
                                   int edge, int I, int J, int K, float *f, double *w, void *scr);
TB_END_DECLS

#endif
