/* lambda.h — the cubic-root enumeration λ(ω) of the tile tetrahedron (docs/maps.md#lambda):
 * one block per tile, no block wasted.
 *
 * Math. Layer by layer: ω = idx3(I, J, K) = Tet(K) + T2(J) + I, ω in [0, Tet(nb)).
 *   1. K = max{k : Tet(k) <= ω}. Estimate k^ = floor(cbrtf(6·float(ω)) - 1) in float32: with
 *      c = cbrt(6ω), K < c < K + 2 in exact arithmetic, so k^ is K - 1 or K, and the float error
 *      moves it by at most one more (to K + 1 at a layer top). One integer step in 64 bits fixes
 *      it: K = k^+1 if Tet(k^+1) <= ω, k^-1 if Tet(k^) > ω, else k^.
 *   2. ω2 = ω - Tet(K) < T2(K+1); (J, I) from lambda2d (exact variant, lambda2d.h).
 * Widths: ω and Tet are 64-bit (Tet(nb) >= 2^31 from nb = 2344); k(k+1)(k+2) fits int64 for
 * k <= 2,097,151, so the decode is exact for nb <= MAP3D_LAMBDA_DECODE_MAX_NB = 2,097,150
 * (the step may evaluate Tet(nb + 1)). ω2 uses lambda2d's 32-bit path below 2^32.
 *
 * Grid (docs/maps.md#lambda): a 1D grid gx = Tet(nb) while Tet(nb) <= 2^31 - 1 (nb <= 2343); above,
 * a 2D grid gy = ceil(Tet/(2^31-1)), gx = ceil(Tet/gy), ω = bx + gx·by in 64 bits, and the
 * fewer than gy blocks with ω >= Tet exit (2 spare blocks at nb = 4096, gy = 6). gy <= 65535
 * bounds the map at nb <= 94,517 (Tet(94517) = 1.407e14 needs gy = 65534).
 *
 * Example, nb = 5: Tet(5) = 35 blocks, ω = bx = 0..34. Block 17: cbrtf(102) = 4.67, k^ = 3;
 * Tet(4) = 20 > 17 and Tet(3) = 10 <= 17, so K = 3, ω2 = 7; lambda2d(7) gives J = 3, I = 1:
 * tile (1, 3, 3). Block 20: cbrtf(120) = 4.93, k^ = 3; Tet(4) = 20 <= 20, so K = 4, ω2 = 0:
 * tile (0, 0, 4). Blocks 0..34 give (0,0,0) (0,0,1) (0,1,1) (1,1,1) (0,0,2) ... (4,4,4). */
#ifndef TB_MAP3D_LAMBDA_H
#define TB_MAP3D_LAMBDA_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "maps3d/lambda2d.h"
#include "maps3d/map3d.h"

#define MAP3D_LAMBDA_MAX_NB 94517LL            /* 2D grid: gy <= 65535 */
#define MAP3D_LAMBDA_1D_MAX_NB 2343            /* 1D grid: Tet(nb) <= 2^31 - 1 */
#define MAP3D_LAMBDA_DECODE_MAX_NB 2097150LL   /* decode alone: Tet(nb + 1) in int64 */

/* The float32 layer estimate k^ (within 1 of K); exposed for the tests. */
TB_HOSTDEV static inline int map3d_lambda_layer_est(long long w)
{
    return (int)floorf(cbrtf(6.0f * (float)w) - 1.0f);
}

/* The layer K = max{k : Tet(k) <= ω}, for 0 <= ω < Tet(MAP3D_LAMBDA_DECODE_MAX_NB). */
TB_HOSTDEV static inline int map3d_lambda_layer(long long w)
{
    long long k = map3d_lambda_layer_est(w);
    if (map3d_tet(k + 1) <= w)
        return (int)(k + 1);
    if (map3d_tet(k) > w)
        return (int)(k - 1);
    return (int)k;
}

/* The tile of ω: the inverse of idx3. */
TB_HOSTDEV static inline void map3d_lambda_decode(long long w, map3d_cursor *c)
{
    int K = map3d_lambda_layer(w);
    long long w2 = w - map3d_tet(K);
    int J = map2d_lambda2d_row(w2);
    c->K = K;
    c->J = J;
    c->I = (int)(w2 - map3d_tri(J));
    c->left = 0;
}

/* Host only: the 1D or 2D grid above. Shared by `table` (same layout). Launch
 * fields: kind = 0 for the 1D grid, 1 for the 2D grid; w0 = the end of the omega range
 * (Tet(nb) for the whole domain), w_off = its start: block (bx, by) takes omega =
 * w_off + bx + gx by. A sub-range [o->w_begin, o->w_end) (one rank's share) launches only its
 * own blocks; an empty one launches nothing. */
static inline int map3d_lambda_grid(const char *name, int nb, long long max_nb,
                                    const map3d_opts *o, map3d_plan *p, char *err, size_t errlen)
{
    long long tet, w_begin = 0, w_end, count, gy, gx;
    if (nb < 1 || nb > max_nb) {
        snprintf(err, errlen, "%s: nb = %d outside 1..%lld (2D grid: gy = ceil(Tet/(2^31-1)) "
                 "<= 65535)", name, nb, max_nb);
        return -1;
    }
    memset(p, 0, sizeof *p);
    tet = map3d_tet(nb);
    w_end = tet;
    if (o && o->w_end > 0) {
        if (o->w_begin < 0 || o->w_begin > o->w_end || o->w_end > tet) {
            snprintf(err, errlen, "%s: omega range [%lld, %lld) outside [0, Tet(%d) = %lld)", name,
                     o->w_begin, o->w_end, nb, tet);
            return -1;
        }
        w_begin = o->w_begin;
        w_end = o->w_end;
    }
    p->nb = nb;
    p->w_begin = w_begin;
    p->w_end = w_end;
    count = w_end - w_begin;
    if (count == 0)
        return 0; /* nothing of the domain: no launch */
    gy = (count + MAP3D_GRID_X_MAX - 1) / MAP3D_GRID_X_MAX;
    gx = (count + gy - 1) / gy;
    p->n_launch = 1;
    p->launch[0].gx = (unsigned)gx;
    p->launch[0].gy = (unsigned)gy;
    p->launch[0].gz = 1;
    p->launch[0].nb = nb;
    p->launch[0].kind = gy > 1;
    p->launch[0].w0 = w_end;
    p->launch[0].w_off = w_begin;
    return 0;
}

static inline int map3d_lambda_plan(int nb, const map3d_opts *o, map3d_plan *p, char *err,
                                    size_t errlen)
{
    return map3d_lambda_grid("lambda", nb, MAP3D_LAMBDA_MAX_NB, o, p, err, errlen);
}

TB_HOSTDEV static inline int map3d_lambda_first(const map3d_launch *L, unsigned bx, unsigned by,
                                                unsigned bz, map3d_cursor *c)
{
    long long w = L->w_off + (long long)bx + (long long)L->gx * by;
    (void)bz;
    if (w >= L->w0)
        return 0;
    map3d_lambda_decode(w, c);
    return 1;
}

TB_HOSTDEV static inline int map3d_lambda_next(const map3d_launch *L, map3d_cursor *c)
{
    (void)L;
    (void)c;
    return 0;
}

#endif
