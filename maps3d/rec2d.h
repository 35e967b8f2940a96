/* rec2d.h — recursive map of the tile triangle D2(nb) (docs/maps.md#rec2d), exact for every nb.
 *
 * Core (the recursive-mapping paper, III.A, corrected). For a power of two P, D2(P) is the diagonal
 * (P tiles) plus, for each level b = 1, 2, 4, ..., P/2, the P/(2b) mixed squares b x b of the
 * sub-triangles of size 2b at the offsets 2qb. On a grid of P/2 columns wx and P+1 rows wy:
 *     wy = 0:          (I, J) = (2wx, 2wx)                       diagonal, even
 *     wy = P:          (I, J) = (2wx+1, 2wx+1)                   diagonal, odd
 *     0 < wy < P:      l = lg(wy), q = wx >> l,
 *                      (I, J) = (wx + (q << l), wy + (q << (l+1)))   strict pair I < J
 * Rows wy in [b, 2b) hold the level-b squares: I - 2qb = wx mod b in [0, b) and
 * J - 2qb = wy in [b, 2b). lg(x) = 31 - clz(x). P/2 (P+1) = T2(P): no block is wasted.
 * Family c = 1 (nb = 2P-1, that is S2(2P) shifted): grid P x (2P-1), wy = row + 1 in
 * [1, 2P-1), the same strict formula with n = 2P, and (I, J) = (x, y - 1). Also exact.
 *
 * Other nb: "from below" (the 2D form of docs/maps.md#from-below). With base = 0 and N = nb,
 * repeat: P = hibit(N); if N = 2P-1, one family-1 segment D2(2P-1) at base, done; else one segment
 * of D2(P) at base plus the rectangle [base, base+P) x [base+P, nb) (P x r, r = N - P),
 * then base += P, N = r. The rectangle rides in the same launch as its triangle: it is
 * P/2 x 2r, so it takes 2r more rows of the same P/2 columns:
 *     wy = P+1+t, t in [0, 2r):  (I, J) = (2wx + (t & 1), P + (t >> 1))
 * (consecutive t share the row J and walk I). Everything is shifted by (base, base).
 * One launch per segment: popcount(nb) launches for even nb, and for odd nb one for its
 * trailing run of ones plus popcount of the bits above it (nb = 2^L - 1 is one launch); at
 * most 15 for nb <= 65535, hence MAP2D_MAX_LAUNCH = 16. Zero waste for every nb:
 * blocks = T2(nb) exactly, so the ratio is 1.
 *
 * Rows are the long side, so they go on x: bx = wy, by = wx (gy = P/2 <= 32768).
 * Launch fields: kind = 0 (D2(P) + rectangle) or 1 (family D2(2P-1)), a = base, b = P,
 * c = r.
 *
 * Blocks / T2(nb), from below (launches) vs round-up via S2(n), n = 2^ceil(log2(nb+1)), on
 * the n/2 x (n-1) grid with DISCARD for J >= nb (one launch; the 3.56 / 3.94 / 3.99 /
 * 3.999 first quoted for it count the n/2 x n grid with its wy = 0 row discarded as well):
 *     nb     from below    round-up
 *     8      1 (1)         3.3333
 *     64     1 (1)         3.9077
 *     100    1 (3)         1.6095
 *     300    1 (4)         2.8974
 *     512    1 (1)         3.9883
 *     1000   1 (6)         1.0465
 *     1023   1 (1)         1.0000
 *     1025   1 (2)         3.9864
 *     2050   1 (2)         3.9893
 *     4095   1 (1)         1.0000
 *     4096   1 (1)         3.9985
 * Launches over nb = 1..65535: 7 or 8 for most nb, at most 15 (nb = 65533, 65534).
 * Round-up only wins on launch count; from below never wastes a block, so it is the map.
 *
 * Verified: tests/test_maps2d.c (every nb 1..300 and the production sizes, CPU); on an H100
 * with the real grids and one atomic increment per block, every nb 1..1100 and nb = 4094,
 * 32767, 32768, 65533, 65534 (15 launches), 65535: every tile once, no block discarded.
 *
 * Example, nb = 5 = 4 + 1: launch 0 is kind 0, base 0, P = 4, r = 1, grid 7 x 2
 * (bx = wy, by = wx):
 *     wy = 0: (0,0) (2,2)          wy = 1 (l=0, q=wx): (0,1) (2,3)
 *     wy = 2 (l=1, q=0): (0,2) (1,2)   wy = 3: (0,3) (1,3)
 *     wy = 4 = P: (1,1) (3,3)      wy = 5 (t=0): (0,4) (2,4)   wy = 6 (t=1): (1,4) (3,4)
 * launch 1 is kind 1, base 4, P = 1 (N = 1 = 2P-1), grid 1 x 1: wy = 1, l = 0, q = 0,
 * (x, y) = (0, 1), so (I, J) = (4, 4). 14 + 1 = 15 = T2(5) blocks, each tile once. */
#ifndef TB_MAP2D_REC2D_H
#define TB_MAP2D_REC2D_H

#include <stdio.h>
#include <string.h>

#include "maps3d/map2d.h"

#define MAP2D_REC2D_MAX_NB 65535

/* floor(log2 x) for x > 0. */
TB_HOSTDEV static inline int map2d_rec2d_lg(unsigned x)
{
#ifdef __CUDA_ARCH__
    return 31 - __clz((int)x);
#else
    return 31 - __builtin_clz(x);
#endif
}

static inline int map2d_rec2d_plan(int nb, const map2d_opts *o, map2d_plan *p, char *err,
                                   size_t errlen)
{
    int base = 0, n_left = nb;
    (void)o;
    if (nb < 1 || nb > MAP2D_REC2D_MAX_NB) {
        snprintf(err, errlen, "rec2d: nb = %d outside 1..%d", nb, MAP2D_REC2D_MAX_NB);
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->nb = nb;
    while (n_left > 0) {
        const int P = 1 << map2d_rec2d_lg((unsigned)n_left);
        map2d_launch *L;
        if (p->n_launch == MAP2D_MAX_LAUNCH) {
            snprintf(err, errlen, "rec2d: nb = %d needs more than MAP2D_MAX_LAUNCH = %d launches",
                     nb, MAP2D_MAX_LAUNCH);
            return -1;
        }
        L = &p->launch[p->n_launch++];
        L->nb = nb;
        L->a = base;
        L->b = P;
        if (n_left == 2 * P - 1) { /* family c = 1: S2(2P) shifted, grid (2P-1) x P */
            L->kind = 1;
            L->gx = (unsigned)(2 * P - 1);
            L->gy = (unsigned)P;
            n_left = 0;
        } else { /* D2(P) + rectangle P x r, grid (P+1+2r) x P/2; P >= 2 here */
            const int r = n_left - P;
            L->kind = 0;
            L->c = r;
            L->gx = (unsigned)(P + 1 + 2 * r);
            L->gy = (unsigned)(P / 2);
            base += P;
            n_left = r;
        }
    }
    return 0;
}

TB_HOSTDEV static inline int map2d_rec2d_first(const map2d_launch *L, unsigned bx, unsigned by,
                                               map2d_cursor *c)
{
    const unsigned wx = by, P = (unsigned)L->b;
    unsigned wy = bx, I, J;
    if (L->kind == 1) { /* strict pair (x, y) of S2(2P), then J = y - 1 */
        wy += 1;
        const int l = map2d_rec2d_lg(wy);
        const unsigned q = wx >> l;
        I = wx + (q << l);
        J = wy + (q << (l + 1)) - 1;
    } else if (wy == 0) {
        I = J = 2 * wx;
    } else if (wy < P) {
        const int l = map2d_rec2d_lg(wy);
        const unsigned q = wx >> l;
        I = wx + (q << l);
        J = wy + (q << (l + 1));
    } else if (wy == P) {
        I = J = 2 * wx + 1;
    } else {
        const unsigned t = wy - P - 1;
        I = 2 * wx + (t & 1u);
        J = P + (t >> 1);
    }
    c->I = L->a + (int)I;
    c->J = L->a + (int)J;
    return 1;
}

#endif
