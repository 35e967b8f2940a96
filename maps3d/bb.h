/* bb.h — bounding-box map (docs/maps.md#bb): the baseline the others are measured against.
 *
 * Grid (nb, nb, nb); block (bx, by, bz) owns tile (I, J, K) = (bx, by, bz) iff I <= J <= K,
 * otherwise it exits. nb^3 blocks for Tet(nb) tiles: the ratio tends to 6.
 * Example, nb = 2: 8 blocks; (0,0,0) (0,0,1) (0,1,1) (1,1,1) are kept, the other 4 exit. */
#ifndef TB_MAP3D_BB_H
#define TB_MAP3D_BB_H

#include "map3d.h"

#include <stdio.h>
#include <string.h>

/* Host only: one nb x nb x nb grid. */
static inline int map3d_bb_plan(int nb, const map3d_opts *o, map3d_plan *p, char *err,
                                size_t errlen)
{
    (void)o;
    if (nb < 1 || nb > MAP3D_GRID_YZ_MAX) {
        snprintf(err, errlen, "bb: nb = %d outside 1..%lld (CUDA grid limit gy, gz <= 65535)",
                 nb, MAP3D_GRID_YZ_MAX);
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->nb = nb;
    p->n_launch = 1;
    p->launch[0].gx = p->launch[0].gy = p->launch[0].gz = (unsigned)nb;
    p->launch[0].nb = nb;
    return 0;
}

TB_HOSTDEV static inline int map3d_bb_first(const map3d_launch *L, unsigned bx, unsigned by,
                                            unsigned bz, map3d_cursor *c)
{
    (void)L;
    if (bx > by || by > bz)
        return 0;
    c->I = (int)bx;
    c->J = (int)by;
    c->K = (int)bz;
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
