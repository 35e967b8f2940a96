/* rb2d.h — rectangular-box map of the tile triangle D2(nb) (Jung and O'Leary; docs/maps.md#rb2d).
 *
 * The columns I < h = ceil(nb/2) of the triangle (the strip) stay where they are; the small
 * triangle of the columns past nb/2 is turned by 180 degrees into the empty corner above the
 * diagonal of the strip. The result is a rectangle of exactly T2(nb) blocks, for odd and even
 * nb alike: zero waste. (An "nb x (nb/2 + 1)" rectangle, as first planned, would waste nb/2
 * blocks at even nb; the exact rectangle is (nb+1) x nb/2 for even nb and nb x (nb+1)/2 for odd nb.
 * The paper gives the even case and says odd nb "partitions at floor(N/2)"; here one formula
 * covers both, with the strip ceil(nb/2) wide.)
 *
 * With c = 1 for even nb and 0 for odd nb, h = ceil(nb/2) = (nb+1)/2 (integer division):
 *     grid gx = nb + c (u = bx, the long side), gy = h (v = by);    gx gy = T2(nb)
 *     v + c <= u:  (I, J) = (v, u - c)                  the strip of the columns I < h
 *     v + c >  u:  (I, J) = (nb - c - v, nb - 1 - u)    the turned corner, I >= h
 * Why: the strip part takes, in column v, the rows u - c in [v, nb): all of column v.
 * In the corner part, u < v + c <= h - 1 + c; I <= J iff v + c > u, and I >= nb - c - (h-1)
 * = h there, so the corner is D2(nb - h) on [h, nb), T2(nb - h) tiles, once each:
 * even nb: v in [0, h), u in [0, v] gives T2(h) = T2(nb - h);
 * odd nb: v in [0, h), u in [0, v) gives T2(h - 1) = T2(nb - h).
 * Strip plus corner: h (nb + c) = T2(nb) blocks, every tile once, nothing outside.
 * Per block: 2 adds, 1 compare, 2 subtracts; no roots.
 * Verified: tests/test_maps2d.c (CPU); on an H100 with the real grids, one atomic per block,
 * every nb 1..1100 and nb = 4095, 65535, 65536, 92681, 131069, 131070 (max_nb).
 *
 * Example, nb = 4 (even: c = 1, h = 2, grid 5 x 2):
 *     v = 0: u = 0 -> corner (3,3); u = 1..4 -> (0,0) (0,1) (0,2) (0,3)
 *     v = 1: u = 0 -> corner (2,3); u = 1 -> corner (2,2); u = 2..4 -> (1,1) (1,2) (1,3)
 * nb = 5 (odd: c = 0, h = 3, grid 5 x 3):
 *     v = 0: u = 0..4 -> (0,0) .. (0,4)
 *     v = 1: u = 0 -> corner (4,4); u = 1..4 -> (1,1) .. (1,4)
 *     v = 2: u = 0 -> corner (3,4); u = 1 -> corner (3,3); u = 2..4 -> (2,2) (2,3) (2,4)
 * 10 = T2(4) and 15 = T2(5) blocks, no DISCARD. */
#ifndef TB_MAP2D_RB2D_H
#define TB_MAP2D_RB2D_H

#include <stdio.h>
#include <string.h>

#include "maps3d/map2d.h"

/* gy = (nb+1)/2 <= 65535 (CUDA limit on grid y). */
#define MAP2D_RB2D_MAX_NB 131070

static inline int map2d_rb2d_plan(int nb, const map2d_opts *o, map2d_plan *p, char *err,
                                  size_t errlen)
{
    (void)o;
    if (nb < 1 || nb > MAP2D_RB2D_MAX_NB) {
        snprintf(err, errlen, "rb2d: nb = %d outside 1..%d (CUDA grid limit gy <= 65535)", nb,
                 MAP2D_RB2D_MAX_NB);
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->nb = nb;
    p->n_launch = 1;
    p->launch[0].nb = nb;
    p->launch[0].c = 1 - (nb & 1);
    p->launch[0].gx = (unsigned)(nb + p->launch[0].c);
    p->launch[0].gy = (unsigned)((nb + 1) / 2);
    return 0;
}

TB_HOSTDEV static inline int map2d_rb2d_first(const map2d_launch *L, unsigned bx, unsigned by,
                                              map2d_cursor *c)
{
    const int u = (int)bx, v = (int)by, e = L->c;
    if (v + e <= u) {
        c->I = v;
        c->J = u - e;
    } else {
        c->I = L->nb - e - v;
        c->J = L->nb - 1 - u;
    }
    return 1;
}

#endif
