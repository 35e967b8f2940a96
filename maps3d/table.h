/* table.h — λ(ω) with a layer-start table instead of an exact cube root (docs/maps.md#table,
 * the "succinct lookup table" the 3D paper proposes in its conclusions).
 *
 * Math. Same enumeration and grid as lambda.h: ω = Tet(K) + T2(J) + I, one block per tile.
 * The plan stores the layer starts tab[K] = Tet(K), K = 0..nb (nb + 1 int64 entries: o(Tet)
 * memory, 8(nb+1) bytes, 756 KB at the largest nb). A block estimates its layer with a cheap
 * cube root, k^ = trunc(2^(log2(6ω)/3) - 1) (on the device __log2f and exp2f, two MUFU ops;
 * on the host log2f/exp2f), clamps k^ to [0, nb-1], then walks the table until
 * tab[K] <= ω < tab[K+1]. The walk makes any estimate exact, so nothing depends on the
 * accuracy of the root; the estimate only bounds the walk (a step or two: the relative error of
 * the estimate is about 1e-6). The row comes from lambda2d (exact variant).
 * The launch's `table` points at tab in the memory of the code that decodes: the plan sets
 * it to the host copy, the GPU backend to its device copy.
 *
 * Example, nb = 5: tab = {0, 1, 4, 10, 20, 35}, 35 blocks. Block 17: 2^(log2(102)/3) - 1 =
 * 3.67, k^ = 3; tab[3] = 10 <= 17 < tab[4] = 20, so K = 3, ω2 = 7, lambda2d gives (J, I) =
 * (3, 1): tile (1, 3, 3). Block 34: 2^(log2(204)/3) - 1 = 4.88, k^ = 4, tab[4] = 20 <= 34 < 35:
 * K = 4, ω2 = 14: tile (4, 4, 4). */
#ifndef TB_MAP3D_TABLE_H
#define TB_MAP3D_TABLE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps3d/lambda.h"
#include "maps3d/map3d.h"

#define MAP3D_TABLE_MAX_NB MAP3D_LAMBDA_MAX_NB /* same grid as lambda */

/* The layer of ω from the table tab[0..nb] of layer starts: 0 <= ω < tab[nb]. */
TB_HOSTDEV static inline int map3d_table_layer(const long long *TB_RESTRICT tab, int nb,
                                               long long w)
{
    float x = 6.0f * (float)w;
#ifdef __CUDA_ARCH__
    float c = exp2f(__log2f(x) * (1.0f / 3.0f)); /* exp2f is MUFU.EX2 plus a scale */
#else
    float c = exp2f(log2f(x) * (1.0f / 3.0f));
#endif
    int k = (int)(c - 1.0f); /* c >= 0: truncation is the floor, -1 < c - 1 gives 0 */
    if (k > nb - 1)
        k = nb - 1;
    if (k < 0)
        k = 0;
    while (tab[k] > w)
        k--;
    while (tab[k + 1] <= w)
        k++;
    return k;
}

/* Host only: lambda's grid plus the table (nb + 1 entries). */
static inline int map3d_table_plan(int nb, const map3d_opts *o, map3d_plan *p, char *err,
                                   size_t errlen)
{
    if (map3d_lambda_grid("table", nb, MAP3D_TABLE_MAX_NB, o, p, err, errlen))
        return -1;
    p->h_table = (long long *)malloc(((size_t)nb + 1) * sizeof *p->h_table);
    if (!p->h_table) {
        snprintf(err, errlen, "table: out of memory for %d layer starts", nb + 1);
        return -1;
    }
    for (int k = 0; k <= nb; k++)
        p->h_table[k] = map3d_tet(k);
    p->table_len = (long long)nb + 1;
    p->launch[0].table = p->h_table;
    return 0;
}

TB_HOSTDEV static inline int map3d_table_first(const map3d_launch *L, unsigned bx, unsigned by,
                                               unsigned bz, map3d_cursor *c)
{
    long long w = L->w_off + (long long)bx + (long long)L->gx * by;
    long long w2;
    int K, J;
    (void)bz;
    if (w >= L->w0)
        return 0;
    K = map3d_table_layer(L->table, L->nb, w);
    w2 = w - L->table[K];
    J = map2d_lambda2d_row(w2);
    c->K = K;
    c->J = J;
    c->I = (int)(w2 - map3d_tri(J));
    c->left = 0;
    return 1;
}

TB_HOSTDEV static inline int map3d_table_next(const map3d_launch *L, map3d_cursor *c)
{
    (void)L;
    (void)c;
    return 0;
}

#endif
