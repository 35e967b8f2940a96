/* lambda2d.h — the 2D enumeration λ(ω) of the tile triangle (docs/maps.md#lambda2d): the row
 * inverse used as the inner layer of `lambda`, `table` and `stride`, and the D2 map `lambda2d`.
 *
 * Math. Row-major lower triangle: ω = T2(J) + I with 0 <= I <= J, T2(r) = r(r+1)/2. The row
 * is J = max{r : T2(r) <= ω} = floor(sqrt(2ω + 1/4) - 1/2), and I = ω - T2(J).
 *   exact (default): r^ = floor(sqrtf(2·float(ω) + 0.25f) - 0.5f) in float32, then one integer
 *     step: J = r^+1 if T2(r^+1) <= ω, r^-1 if T2(r^) > ω, else r^. The step needs |r^ - J| <= 1,
 *     true while the float error of the root is below 1: for ω < 2^45 (the first failure is
 *     at ω = 35,201,566,641,152; docs/maps.md#lambda2d). 2·float(ω) is exact, so
 *     fmaf(2, x, 0.25) and 2x + 0.25 agree and FMA contraction cannot change the estimate.
 *   sqrtf / rsqrtf / newton: the papers' float-only rows, no integer step (LTM-X, LTM-R, LTM-N,
 *     the last two with ε = 1e-4, as floor(x·y - 0.5 + 1e-4)). They are exact only up to a
 *     number of rows; the plan refuses nb above map2d_root_max_nb() = 4607 / 1967 / 1527
 *     (the figures measured when the maps were designed; docs/maps.md#float-only-roots).
 *     Measured for these expressions, exhaustively: H100 (nvcc 13.0, -O3, FMA contraction)
 *     4607 / 2055 / 1949; x86-64 gcc -std=c11 (no contraction)
 *     4607 / 2054 / 1622. So the plan's limits are safe on both sides.
 *     The host has no rsqrtf: host code uses 1/sqrtf (correctly rounded), the device the MUFU
 *     approximation; tests/test_lambda.c measures the host's range on every run.
 *
 * The map `lambda2d` over D2(nb): a 1D grid of T2(nb) blocks, ω = bx, ratio exactly 1, while
 * T2(nb) <= 2^31 - 1 (nb <= 65535). Above, a 2D grid gy = ceil(T2/(2^31-1)), gx = ceil(T2/gy),
 * ω = bx + gx·by (64-bit), blocks with ω >= T2(nb) exit (fewer than gy of them).
 *
 * Example, nb = 5: T2(5) = 15 blocks, ω = 0..14. Block 8: sqrtf(16.25) - 0.5 = 3.53, r^ = 3;
 * T2(4) = 10 > 8 and T2(3) = 6 <= 8, so J = 3, I = 8 - 6 = 2: tile (2, 3). Block 14:
 * sqrtf(28.25) - 0.5 = 4.82, r^ = 4, T2(5) = 15 > 14, T2(4) = 10 <= 14: tile (4, 4). Blocks
 * 0..14 give (0,0) (0,1) (1,1) (0,2) (1,2) (2,2) (0,3) ... (4,4), each once. */
#ifndef TB_MAP2D_LAMBDA2D_H
#define TB_MAP2D_LAMBDA2D_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "maps3d/map2d.h"

/* lambda2d's own limits: the 2D grid keeps ω < T2(nb) <= 2^45 - 2^22 < 2^45, the range of the
 * float32 estimate plus one step. */
#define MAP2D_LAMBDA2D_MAX_NB 8388607LL
#define MAP2D_LAMBDA2D_GRID_X_MAX 2147483647LL

/* The float32 estimate r^ of the row of ω (given as float(ω)); within 1 of the row for
 * ω < 2^45. Exposed for the tests, which record max |r^ - J|. */
TB_HOSTDEV static inline int map2d_lambda2d_row_est(float wf)
{
    return (int)floorf(sqrtf(2.0f * wf + 0.25f) - 0.5f);
}

/* The row J of ω for 32-bit ω (every unsigned value): estimate plus one integer step. T2 is
 * formed as a 32x32->64 product because T2(r^+1) may pass 2^32 near ω = 2^32. */
TB_HOSTDEV static inline int map2d_lambda2d_row32(unsigned w)
{
    int r = map2d_lambda2d_row_est((float)w);
    unsigned long long t1 = ((unsigned long long)(unsigned)(r + 1) * (unsigned)(r + 2)) >> 1;
    if (t1 <= w)
        return r + 1;
    if (((unsigned long long)(unsigned)r * (unsigned)(r + 1)) >> 1 > w)
        return r - 1;
    return r;
}

/* The row J of ω for 64-bit ω; exact for 0 <= ω < 2^45. */
TB_HOSTDEV static inline int map2d_lambda2d_row64(long long w)
{
    long long r = map2d_lambda2d_row_est((float)w);
    if ((r + 1) * (r + 2) / 2 <= w)
        return (int)(r + 1);
    if (r * (r + 1) / 2 > w)
        return (int)(r - 1);
    return (int)r;
}

/* Exact row for any 0 <= ω < 2^45, taking the 32-bit path when ω fits in it. */
TB_HOSTDEV static inline int map2d_lambda2d_row(long long w)
{
    return w < 4294967296LL ? map2d_lambda2d_row32((unsigned)w) : map2d_lambda2d_row64(w);
}

/* Float-only rows (no integer step), exact only for nb up to map2d_root_max_nb(). x = 2ω+1/4. */
TB_HOSTDEV static inline int map2d_lambda2d_row_sqrtf(unsigned w)
{
    return (int)floorf(sqrtf(2.0f * (float)w + 0.25f) - 0.5f);
}

/* Paper LTM-R: √x = x·rsqrtf(x), plus ε = 1e-4. */
TB_HOSTDEV static inline int map2d_lambda2d_row_rsqrtf(unsigned w)
{
    float x = 2.0f * (float)w + 0.25f;
#ifdef __CUDA_ARCH__
    float y = rsqrtf(x);
#else
    float y = 1.0f / sqrtf(x);
#endif
    return (int)floorf(x * y - 0.5f + 1e-4f);
}

/* Paper LTM-N: 1/√x from the 0x5f3759df guess and 3 Newton steps, √x = x·y, plus ε = 1e-4.
 * nvcc contracts the steps into FMAs, gcc -std=c11 does not: the ranges differ
 * (docs/maps.md#float-only-roots). */
TB_HOSTDEV static inline int map2d_lambda2d_row_newton(unsigned w)
{
    float x = 2.0f * (float)w + 0.25f;
    float xh = 0.5f * x, y;
    int i;
#ifdef __CUDA_ARCH__
    i = __float_as_int(x);
    y = __int_as_float(0x5f3759df - (i >> 1));
#else
    memcpy(&i, &x, sizeof i);
    i = 0x5f3759df - (i >> 1);
    memcpy(&y, &i, sizeof y);
#endif
    y = y * (1.5f - xh * y * y);
    y = y * (1.5f - xh * y * y);
    y = y * (1.5f - xh * y * y);
    return (int)floorf(x * y - 0.5f + 1e-4f);
}

/* The row of ω with root variant `root` (enum map2d_root). Float-only variants take ω < 2^32. */
TB_HOSTDEV static inline int map2d_lambda2d_row_with(int root, long long w)
{
    switch (root) {
    case MAP2D_ROOT_SQRTF: return map2d_lambda2d_row_sqrtf((unsigned)w);
    case MAP2D_ROOT_RSQRTF: return map2d_lambda2d_row_rsqrtf((unsigned)w);
    case MAP2D_ROOT_NEWTON: return map2d_lambda2d_row_newton((unsigned)w);
    default: return map2d_lambda2d_row(w);
    }
}

/* Host only. Launch fields: kind = root variant, a = 0 for the 1D grid / 1 for the 2D grid,
 * w0 = T2(nb). Refuses nb beyond the float-only variant's exact range. */
static inline int map2d_lambda2d_plan(int nb, const map2d_opts *o, map2d_plan *p, char *err,
                                      size_t errlen)
{
    int root = o ? o->root : MAP2D_ROOT_EXACT;
    long long t2, gy, gx;
    if (root < MAP2D_ROOT_EXACT || root > MAP2D_ROOT_NEWTON) {
        snprintf(err, errlen, "lambda2d: unknown root variant %d", root);
        return -1;
    }
    if (nb < 1 || nb > MAP2D_LAMBDA2D_MAX_NB) {
        snprintf(err, errlen, "lambda2d: nb = %d outside 1..%lld (float32 row estimate exact for "
                 "omega < 2^45)", nb, MAP2D_LAMBDA2D_MAX_NB);
        return -1;
    }
    if (root != MAP2D_ROOT_EXACT && nb > map2d_root_max_nb(root)) {
        snprintf(err, errlen, "lambda2d: root '%s' (float only, no integer fix) is exact only for "
                 "nb <= %lld; nb = %d (use root 'exact')", map2d_root_name(root),
                 map2d_root_max_nb(root), nb);
        return -1;
    }
    memset(p, 0, sizeof *p);
    t2 = (long long)nb * (nb + 1) / 2;
    gy = (t2 + MAP2D_LAMBDA2D_GRID_X_MAX - 1) / MAP2D_LAMBDA2D_GRID_X_MAX;
    gx = (t2 + gy - 1) / gy;
    p->nb = nb;
    p->n_launch = 1;
    p->launch[0].gx = (unsigned)gx;
    p->launch[0].gy = (unsigned)gy;
    p->launch[0].nb = nb;
    p->launch[0].kind = root;
    p->launch[0].a = gy > 1;
    p->launch[0].w0 = t2;
    return 0;
}

TB_HOSTDEV static inline int map2d_lambda2d_first(const map2d_launch *L, unsigned bx,
                                                  unsigned by, map2d_cursor *c)
{
    long long w = (long long)bx + (long long)L->gx * by;
    int J;
    if (w >= L->w0)
        return 0;
    J = map2d_lambda2d_row_with(L->kind, w);
    c->J = J;
    c->I = (int)(w - (long long)J * (J + 1) / 2);
    return 1;
}

#endif
