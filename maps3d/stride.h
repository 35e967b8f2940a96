/* stride.h — persistent grid over the λ(ω) enumeration (docs/maps.md#stride): a few resident
 * blocks per multiprocessor, each walking a contiguous run of tiles with no roots per tile.
 *
 * Math. T = Tet(nb) tiles in λ order ω = Tet(K) + T2(J) + I. A 1D grid of G blocks
 * (opts->persistent_blocks, default MAP3D_STRIDE_DEFAULT_G = 132 SMs x 8 = 1056, clamped to T
 * so no block is empty). Block b owns the contiguous range [s(b), s(b+1)) with
 * s(b) = floor(b·T/G), computed without overflow as b·q + floor(b·r/G), q = T / G, r = T mod G
 * (b·r < G^2 <= 2^62). first() decodes s(b) once with lambda (one cbrtf and one sqrtf per
 * block) and sets `left` = s(b+1) - s(b) - 1; next() steps to ω + 1 incrementally:
 * I + 1 while I < J, else (0, J + 1, K) while J < K, else (0, 0, K + 1).
 *
 * The first design took every G-th tile (ω = b, b + G, ...). We take contiguous chunks
 * instead: every step is then exactly +1 in ω, a carry into J happens once per row and into
 * K once per layer, and consecutive tiles of a block share their K and J tiles (L2 reuse).
 * A block whose range is empty (possible only if G > T, which the plan prevents) returns 0.
 *
 * The decode of lambda is exact for nb <= 2,097,150 and the grid is only G blocks, so the
 * map's range is that of the decode.
 *
 * Example, nb = 5, G = 4: T = 35, q = 8, r = 3, s = 0, 8, 17, 26, 35. Block 1 decodes ω = 8
 * to (1, 2, 2) with left = 8 and then steps (2,2,2) (0,0,3) (0,1,3) (1,1,3) (0,2,3) (1,2,3)
 * (2,2,3) (0,3,3); block 3 starts at ω = 26, tile (0, 3, 4), and ends at (4, 4, 4). */
#ifndef TB_MAP3D_STRIDE_H
#define TB_MAP3D_STRIDE_H

#include <stdio.h>
#include <string.h>

#include "maps3d/lambda.h"
#include "maps3d/map3d.h"

#define MAP3D_STRIDE_DEFAULT_G 1056 /* 132 SMs (H100 SXM) x 8 resident blocks */
#define MAP3D_STRIDE_MAX_NB MAP3D_LAMBDA_DECODE_MAX_NB

/* Start s(b) = w_off + floor(b·T/G) of block b's range; T = w0, q = w1, r = b, G = a. */
TB_HOSTDEV static inline long long map3d_stride_start(const map3d_launch *L, long long b)
{
    return L->w_off + b * L->w1 + b * L->b / L->a;
}

/* Host only. Launch fields: a = G, b = T mod G, w0 = T = Tet(nb), w1 = T / G, w_off = 0.
 * A sub-range [o->w_begin, o->w_end) (one rank's share) is walked the same way with
 * T = w_end - w_begin and w_off = w_begin: G blocks over the rank's part alone. */
static inline int map3d_stride_plan(int nb, const map3d_opts *o, map3d_plan *p, char *err,
                                    size_t errlen)
{
    long long tet, g = o && o->persistent_blocks > 0 ? o->persistent_blocks : MAP3D_STRIDE_DEFAULT_G;
    if (nb < 1 || nb > MAP3D_STRIDE_MAX_NB) {
        snprintf(err, errlen, "stride: nb = %d outside 1..%lld (lambda decode: Tet(nb+1) in int64)",
                 nb, MAP3D_STRIDE_MAX_NB);
        return -1;
    }
    if (o && o->persistent_blocks < 0) {
        snprintf(err, errlen, "stride: persistent_blocks = %d must be >= 0 (0 = %d)",
                 o->persistent_blocks, MAP3D_STRIDE_DEFAULT_G);
        return -1;
    }
    memset(p, 0, sizeof *p);
    tet = map3d_tet(nb);
    p->w_end = tet;
    if (o && o->w_end > 0) {
        if (o->w_begin < 0 || o->w_begin > o->w_end || o->w_end > tet) {
            snprintf(err, errlen, "stride: omega range [%lld, %lld) outside [0, Tet(%d) = %lld)",
                     o->w_begin, o->w_end, nb, tet);
            return -1;
        }
        p->w_begin = o->w_begin;
        p->w_end = o->w_end;
    }
    p->nb = nb;
    tet = p->w_end - p->w_begin; /* the tiles to walk */
    if (tet == 0)
        return 0; /* nothing of the domain: no launch */
    if (g > tet)
        g = tet;
    p->n_launch = 1;
    p->launch[0].gx = (unsigned)g;
    p->launch[0].gy = p->launch[0].gz = 1;
    p->launch[0].nb = nb;
    p->launch[0].a = (int)g;
    p->launch[0].b = (int)(tet % g);
    p->launch[0].w0 = tet;
    p->launch[0].w1 = tet / g;
    p->launch[0].w_off = p->w_begin;
    return 0;
}

TB_HOSTDEV static inline int map3d_stride_first(const map3d_launch *L, unsigned bx, unsigned by,
                                                unsigned bz, map3d_cursor *c)
{
    long long s0 = map3d_stride_start(L, bx), s1 = map3d_stride_start(L, (long long)bx + 1);
    (void)by;
    (void)bz;
    if (s0 >= s1)
        return 0;
    map3d_lambda_decode(s0, c);
    c->left = s1 - s0 - 1;
    return 1;
}

TB_HOSTDEV static inline int map3d_stride_next(const map3d_launch *L, map3d_cursor *c)
{
    (void)L;
    if (c->left <= 0)
        return 0;
    c->left--;
    if (c->I < c->J) {
        c->I++;
    } else if (c->J < c->K) {
        c->I = 0;
        c->J++;
    } else {
        c->I = c->J = 0;
        c->K++;
    }
    return 1;
}

#endif
