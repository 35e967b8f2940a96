/* utm2d.h — upper-triangular map of Avril et al. (UTM; docs/maps.md#utm2d): block k -> tile by
 * one sqrt.
 *
 * Enumeration: D2(nb) row by row of the upper triangle, row I holding J = I .. nb-1, so row I
 * starts at s(I) = I nb - I(I-1)/2 = I (2nb + 1 - I) / 2 and k = s(I) + (J - I), for
 * k in [0, T2(nb)). Inverse: I = max{ i : s(i) <= k } is the floor of the smaller root of
 * s(x) = k, x^2 - (2nb+1) x + 2k = 0:
 *     I = floor( ((2nb+1) - sqrt((2nb+1)^2 - 8k)) / 2 ),   J = I + k - s(I).
 * Computed with a double sqrt (the radicand, below (2nb+1)^2 < 2^53, is exact in double)
 * and one integer fix step: if s(I+1) <= k then I+1, else if s(I) > k then I-1. The double
 * estimate alone has no error at any row boundary for nb = 4096, 65536, 2^21 and 2^24 (the
 * fix is insurance against a sqrt that is not correctly rounded), so the map is exact for every
 * nb <= MAP2D_UTM2D_MAX_NB (tests/test_maps2d.c checks every row boundary at nb = max_nb).
 * Also verified on an H100 with the real grids, one atomic per block: every nb 1..1100 and
 * nb = 4096, 65535, 65536 (2D grid), 92681, 92682, 131070 (T2 > 2^33): every tile once.
 *
 * The formula as printed (paper 2D, III.B, after Avril et al.), for n items and thread k:
 *     a = floor( (-(2n+1) + sqrt(4n^2 - 4n - 8k + 1)) / -2 ),  b = (a+1) + k - (a-1)(2n-a)/2
 * Verified exhaustively (docs/maps.md#checking-a-map) against the row-major enumeration of
 * the pairs a < b:
 * - It is a 1-based map: 1 <= a < b <= n for k in [0, n(n-1)/2). Read with the 0-based
 *   indices of a kernel it is wrong at its first thread. Counterexample: n = 2, k = 0 gives
 *   (a, b) = (1, 2), outside [0, 2); the only pair is (0, 1). At the last thread b = n.
 * - 1-based and evaluated in double it is right: no error for any k at n <= 3000, nor at any
 *   row boundary (k = start - 1, start) for n <= 20000 and n = 65537, 2^21+1, 2^22+1,
 *   2^24+1, 2^26+1.
 * - In float32 (sqrtf, as GPU kernels tend to evaluate it) it first fails at n = 4098,
 *   k = 4096, the last thread of row 1: a = 2 instead of 1 (CPU, IEEE sqrtf, no FMA).
 * Corrected, 0-based, for S2(n) (0 <= a < b < n):
 *     a = floor( ((2n-1) - sqrt((2n-1)^2 - 8k)) / 2 ),  b = a + 1 + k - a(2n-1-a)/2,
 * plus the integer fix above. D2(nb) is S2(nb+1) through (I, J) = (a, b-1), which gives the
 * formula at the top (2n-1 = 2nb+1). The printed 1-based (a, b) at n = nb+1 is
 * (I+1, J+2).
 *
 * Grid: 1D, gx = T2(nb), when T2(nb) <= 2^31-1 (nb <= 65535); above, 2D with
 * gy = ceil(T2/(2^31-1)) and gx = ceil(T2/gy), k = bx + gx by, and the gx gy - T2(nb) < gy
 * spare blocks exit. Launch fields: w0 = T2(nb).
 *
 * Example, nb = 4: T2 = 10 blocks, 2nb+1 = 9, row starts s = 0, 4, 7, 9.
 *     k = 3: sqrt(81 - 24) = 7.55, (9 - 7.55)/2 = 0.72 -> I = 0, J = 0 + 3 - 0 = 3
 *     k = 5: sqrt(81 - 40) = 6.40, (9 - 6.40)/2 = 1.30 -> I = 1, J = 1 + 5 - 4 = 2
 *     k = 9: sqrt(81 - 72) = 3,    (9 - 3)/2 = 3       -> I = 3, J = 3 + 9 - 9 = 3
 * and k = 0..9 give (0,0) (0,1) (0,2) (0,3) (1,1) (1,2) (1,3) (2,2) (2,3) (3,3). */
#ifndef TB_MAP2D_UTM2D_H
#define TB_MAP2D_UTM2D_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "maps3d/map2d.h"

#define MAP2D_UTM2D_MAX_NB 2097152
#define MAP2D_UTM2D_GX_MAX 2147483647LL

static inline int map2d_utm2d_plan(int nb, const map2d_opts *o, map2d_plan *p, char *err,
                                   size_t errlen)
{
    const long long t2 = (long long)nb * (nb + 1) / 2;
    long long gy;
    (void)o;
    if (nb < 1 || nb > MAP2D_UTM2D_MAX_NB) {
        snprintf(err, errlen, "utm2d: nb = %d outside 1..%d", nb, MAP2D_UTM2D_MAX_NB);
        return -1;
    }
    gy = (t2 + MAP2D_UTM2D_GX_MAX - 1) / MAP2D_UTM2D_GX_MAX;
    memset(p, 0, sizeof *p);
    p->nb = nb;
    p->n_launch = 1;
    p->launch[0].nb = nb;
    p->launch[0].w0 = t2;
    p->launch[0].gy = (unsigned)gy;
    p->launch[0].gx = (unsigned)((t2 + gy - 1) / gy);
    return 0;
}

/* Start of row i in the upper-row-major order: s(i) = i (2nb + 1 - i) / 2. */
TB_HOSTDEV static inline long long map2d_utm2d_start(long long nb, long long i)
{
    return i * (2 * nb + 1 - i) / 2;
}

TB_HOSTDEV static inline int map2d_utm2d_first(const map2d_launch *L, unsigned bx, unsigned by,
                                               map2d_cursor *c)
{
    const long long k = (long long)bx + (long long)L->gx * by, nb = L->nb, m = 2 * nb + 1;
    long long i;
    if (k >= L->w0)
        return 0;
    i = (long long)floor(((double)m - sqrt((double)(m * m - 8 * k))) * 0.5);
    if (map2d_utm2d_start(nb, i + 1) <= k)
        i++;
    else if (map2d_utm2d_start(nb, i) > k)
        i--;
    c->I = (int)i;
    c->J = (int)(i + k - map2d_utm2d_start(nb, i));
    return 1;
}

#endif
