/* bb2d.h — bounding-box map of the tile triangle: grid nb x nb, keep I <= J (ratio -> 2).
 * Example, nb = 2: blocks (0,0) (0,1) (1,1) are kept as (I,J) = (bx,by); (1,0) exits. */
#ifndef TB_MAP2D_BB2D_H
#define TB_MAP2D_BB2D_H

#include <stdio.h>
#include <string.h>

#include "maps3d/map2d.h"

static inline int map2d_bb2d_plan(int nb, const map2d_opts *o, map2d_plan *p, char *err,
                                  size_t errlen)
{
    (void)o;
    if (nb < 1 || nb > 65535) {
        snprintf(err, errlen, "bb2d: nb = %d outside 1..65535 (CUDA grid limit gy <= 65535)", nb);
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->nb = nb;
    p->n_launch = 1;
    p->launch[0].gx = p->launch[0].gy = (unsigned)nb;
    p->launch[0].nb = nb;
    return 0;
}

TB_HOSTDEV static inline int map2d_bb2d_first(const map2d_launch *L, unsigned bx, unsigned by,
                                              map2d_cursor *c)
{
    (void)L;
    if (bx > by)
        return 0;
    c->I = (int)bx;
    c->J = (int)by;
    return 1;
}

#endif
