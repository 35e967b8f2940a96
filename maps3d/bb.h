/* bb.h — bounding-box map (docs/maps.md#bb): the baseline the others are measured against.
 *
 * Grid (nb, nb, nb); block (bx, by, bz) owns tile (I, J, K) = (bx, by, bz) iff I <= J <= K,
 * otherwise it exits. nb^3 blocks for Tet(nb) tiles: the ratio tends to 6.
 * Example, nb = 2: 8 blocks; (0,0,0) (0,0,1) (0,1,1) (1,1,1) are kept, the other 4 exit.
 *
 * A rank's sub-grid (o->w_begin/w_end, docs/scaling.md): the layers K_lo..K_hi that hold the
 * omega range, as the box (K_hi + 1)^2 x (K_hi - K_lo + 1) with K = bz + K_lo (launch field a);
 * the tiles of the two end layers outside the range are skipped by the caller
 * (map3d_in_range). */
#ifndef TB_MAP3D_BB_H
#define TB_MAP3D_BB_H

#include "maps3d/map3d.h"

#include <stdio.h>
#include <string.h>

/* Host only: the layer K of omega, Tet(K) <= omega < Tet(K + 1) (a binary search). */
static inline int map3d_bb_layer(int nb, long long w)
{
    int lo = 0, hi = nb - 1;
    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (map3d_tet(mid) <= w)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Host only: one nb x nb x nb grid, or a rank's box of layers (launch field a = K_lo). */
static inline int map3d_bb_plan(int nb, const map3d_opts *o, map3d_plan *p, char *err,
                                size_t errlen)
{
    int k_lo = 0, k_hi = nb - 1;
    if (nb < 1 || nb > MAP3D_GRID_YZ_MAX) {
        snprintf(err, errlen, "bb: nb = %d outside 1..%lld (CUDA grid limit gy, gz <= 65535)",
                 nb, MAP3D_GRID_YZ_MAX);
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->nb = nb;
    if (o && o->w_end > 0) {
        if (o->w_begin < 0 || o->w_begin >= o->w_end || o->w_end > map3d_tet(nb)) {
            snprintf(err, errlen, "bb: omega range [%lld, %lld) empty or outside [0, Tet(%d))",
                     o->w_begin, o->w_end, nb);
            return -1;
        }
        k_lo = map3d_bb_layer(nb, o->w_begin);
        k_hi = map3d_bb_layer(nb, o->w_end - 1);
        p->w_begin = map3d_tet(k_lo); /* the layers launched: a superset of the range */
        p->w_end = map3d_tet(k_hi + 1);
    }
    p->n_launch = 1;
    p->launch[0].gx = p->launch[0].gy = (unsigned)(k_hi + 1);
    p->launch[0].gz = (unsigned)(k_hi - k_lo + 1);
    p->launch[0].nb = nb;
    p->launch[0].a = k_lo;
    return 0;
}

TB_HOSTDEV static inline int map3d_bb_first(const map3d_launch *L, unsigned bx, unsigned by,
                                            unsigned bz, map3d_cursor *c)
{
    const unsigned K = bz + (unsigned)L->a;
    if (bx > by || by > K)
        return 0;
    c->I = (int)bx;
    c->J = (int)by;
    c->K = (int)K;
    c->left = 0;
    return 1;
}

TB_HOSTDEV static inline int map3d_bb_next(const map3d_launch *L, map3d_cursor *c)
{
    (void)L;
    (void)c;
    return 0;
}

#endif
