/* rec.h — the recursive two-branch orthotope map (docs/maps.md#rec; the recursive-mapping
 * paper, III.C, corrected): no roots, no loops, one clz and a few shifts per block.
 *
 * Math. Three exact families c = 0, 1, 2: for n = 2^L, m = n/2, family c covers D3(n - c)
 * with the grid (m, m, H), H = H0 + Hs, H0 = m + 1 - c (level 0, box B_m), Hs = m/2 + 1 - c
 * (the slab of all lower levels; for m = 1: 2 if c = 0 else 0). The domain D3(2s - c) on
 * [o, o + 2s - c) is a low D3(s - c), a high D3(s - c) and the mixed set (I - o < s,
 * K - o >= s - c), which is folded onto the box B_s = s x s x (s + 1 - c) (u, v, w):
 *     c | second triangle (high pair (J,K))   | first triangle (low pair (I,J))
 *     0 | w <= v: (o+u, o+s+w,   o+s+v)       | w >  v: (o+v, o+w-1, o+s+u)
 *     1 | w <  v: (o+u, o+s+w,   o+s+v-1)     | w >= v: (o+v, o+w,   o+s-1+u)
 *     2 | w <  v: (o+u, o+s-1+w, o+s+v-2)     | w >= v: (o+v, o+w,   o+s-2+u)
 * Decode of block (wx, wy, wz): if wz < H0, the level-0 box (s = m, o = 0, (u,v,w) = (wx,
 * wy, wz)). Otherwise w = wz - H0 and d = m - 1 - wy: d = 0 holds the singletons (t,t,t),
 * t = 2wx + w, for c = 0 and w < 2 (else exit); d > 0 is level s = 2^lg(d) (exit when
 * w >= s + 1 - c), box j = wx >> lg(d) at o = 2sj, u = wx & (s-1), v = d - s.
 * Ratio: 1.0667 / 1.1189 / 1.1243 / 1.1249 at nb = 8 / 64 / 512 / 4096, limit 9/8.
 *
 * Any other nb: the "from below" decomposition (docs/maps.md#from-below), one launch per
 * segment. With base = 0 and N = nb, while N > 0: P = hibit(N); if N >= 2P - 2 the family c =
 * 2P - N covers N1 = N exactly, else N1 = P and c = 0; r = N - N1. Segments: REC (family c, m =
 * (N1+c)/2, shifted by base), and if r > 0 AAB = D2(N1) x [0, r) and ABB = [0, N1) x D2(r),
 * whose triangles are laid out as the zero-waste rectangle R(p) of D2(p) (pe = p - p mod 2,
 * width pe + 1, height pe/2 + (p mod 2); cell (a, e): (a, p-1) if e = pe/2; (a, pe-1-e) if a <
 * pe - e; else (a - pe + e, e)). Then base += N1, N = r. At most 46 segments for nb <=
 * MAP3D_REC_MAX_NB (31 for nb <= 4096). Ratio 1.0356 at nb = 100 (7 segments), 1.0191 at 1000
 * (16), 1.1245 at 2050 (4); worst 1.1355 for nb >= 16.
 * Launch fields: kind = segment (MAP3D_REC_SEG_*), a = family c, b = m (REC) or N1 (AAB,
 * ABB), c = base, d = H0 (REC), e = r (ABB).
 * Range: every grid side fits CUDA (gy, gz <= 65535) for nb <= 131,069; nb = 131,070..131,072
 * would need m = 65536 rows.
 *
 * Example, nb = 4, family c = 0, m = 2, grid 2 x 2 x 5 = 20 = Tet(4): level 0
 * (wz <= 2) gives (u,2,2) (u,2,3) (u,3,3) (w <= v) and (0,0,2+u) (0,1,2+u) (1,1,2+u) (w > v)
 * for u = 0, 1; the slab row wy = 1 (d = 0) gives the singletons (t,t,t), t = 0..3, and wy = 0
 * (d = 1, s = 1, o = 2wx) gives (o,o+1,o+1) and (o,o,o+1). No block exits.
 * nb = 5 is no family size: P = 4, N1 = 4, c = 0, r = 1: REC 2 x 2 x 5 (D3(4)), AAB 5 x 2 x 1
 * (the 10 tiles (I,J,4) with I <= J < 4), ABB 4 x 1 x 1 (the tiles (a,4,4), a < 4), then
 * N = 1: REC family c = 1, m = 1, 1 x 1 x 1, the tile (4,4,4) at base 4. 35 blocks, 35 tiles. */
#ifndef TB_MAP3D_REC_H
#define TB_MAP3D_REC_H

#include <stdio.h>
#include <string.h>

#include "maps3d/map3d.h"

#define MAP3D_REC_MAX_NB 131069LL

enum { MAP3D_REC_SEG_REC = 0, MAP3D_REC_SEG_AAB = 1, MAP3D_REC_SEG_ABB = 2 };

/* lg(x) = floor(log2 x) for x > 0. */
TB_HOSTDEV static inline int map3d_rec_lg(unsigned x)
{
#ifdef __CUDA_ARCH__
    return 31 - __clz((int)x);
#else
    return 31 - __builtin_clz(x);
#endif
}

/* The fold of M (the table above): cell (u, v, w) of the box B_s at offset o, family c. */
TB_HOSTDEV static inline void map3d_rec_fold(int c, int s, int o, int u, int v, int w,
                                             map3d_cursor *t)
{
    if (c == 0) {
        if (w <= v) {
            t->I = o + u, t->J = o + s + w, t->K = o + s + v;
        } else {
            t->I = o + v, t->J = o + w - 1, t->K = o + s + u;
        }
    } else if (c == 1) {
        if (w < v) {
            t->I = o + u, t->J = o + s + w, t->K = o + s + v - 1;
        } else {
            t->I = o + v, t->J = o + w, t->K = o + s - 1 + u;
        }
    } else {
        if (w < v) {
            t->I = o + u, t->J = o + s - 1 + w, t->K = o + s + v - 2;
        } else {
            t->I = o + v, t->J = o + w, t->K = o + s - 2 + u;
        }
    }
}

/* One exact family c on the grid (m, m, H0 + Hs): block (wx, wy, wz) to its tile, or 0. */
TB_HOSTDEV static inline int map3d_rec_family(int c, int m, int h0, int wx, int wy, int wz,
                                              map3d_cursor *t)
{
    int s, o, u, v, w, d, l;
    if (wz < h0) {
        map3d_rec_fold(c, m, 0, wx, wy, wz, t);
        return 1;
    }
    w = wz - h0;
    d = m - 1 - wy;
    if (d == 0) {
        if (c != 0 || w >= 2)
            return 0;
        t->I = t->J = t->K = 2 * wx + w;
        return 1;
    }
    l = map3d_rec_lg((unsigned)d);
    s = 1 << l;
    if (w >= s + 1 - c)
        return 0;
    u = wx & (s - 1);
    v = d - s;
    o = (wx >> l) << (l + 1);
    map3d_rec_fold(c, s, o, u, v, w, t);
    return 1;
}

/* The rectangle fold R(p) of D2(p): cell (a, e) to (I, J), I <= J < p. */
TB_HOSTDEV static inline void map3d_rec_rect(int p, int a, int e, int *I, int *J)
{
    int pe = p & ~1;
    if (e == pe >> 1) {
        *I = a, *J = p - 1;
    } else if (a < pe - e) {
        *I = a, *J = pe - 1 - e;
    } else {
        *I = a - (pe - e), *J = e;
    }
}

/* Host only: fills one launch of the plan. */
static inline void map3d_rec_set(map3d_launch *L, int gx, int gy, int gz, int nb, int kind, int a,
                                 int b, int c, int d, int e)
{
    memset(L, 0, sizeof *L);
    L->gx = (unsigned)gx, L->gy = (unsigned)gy, L->gz = (unsigned)gz;
    L->nb = nb, L->kind = kind;
    L->a = a, L->b = b, L->c = c, L->d = d, L->e = e;
}

/* Host only: the from-below decomposition, one launch per segment. */
static inline int map3d_rec_plan(int nb, const map3d_opts *o, map3d_plan *p, char *err,
                                 size_t errlen)
{
    int base = 0, N = nb, q = 0;
    (void)o;
    if (nb < 1 || nb > MAP3D_REC_MAX_NB) {
        snprintf(err, errlen, "rec: nb = %d outside 1..%lld (CUDA grid limit gy, gz <= 65535)",
                 nb, MAP3D_REC_MAX_NB);
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->nb = nb;
    while (N > 0) {
        int P = 1 << map3d_rec_lg((unsigned)N), N1, c, r, m, h0, hs;
        if (N >= 2 * P - 2) {
            N1 = N;
            c = 2 * P - N;
        } else {
            N1 = P;
            c = 0;
        }
        r = N - N1;
        m = (N1 + c) / 2;
        h0 = m + 1 - c;
        hs = m >= 2 ? m / 2 + 1 - c : (c == 0 ? 2 : 0);
        if (q + 3 > MAP3D_MAX_LAUNCH) {
            snprintf(err, errlen, "rec: nb = %d needs more than %d launches", nb, MAP3D_MAX_LAUNCH);
            return -1;
        }
        map3d_rec_set(&p->launch[q++], m, m, h0 + hs, nb, MAP3D_REC_SEG_REC, c, m, base, h0, 0);
        if (r > 0) {
            int pe = N1 & ~1, re = r & ~1;
            map3d_rec_set(&p->launch[q++], pe + 1, pe / 2 + N1 % 2, r, nb, MAP3D_REC_SEG_AAB, 0,
                          N1, base, 0, r);
            map3d_rec_set(&p->launch[q++], N1, re + 1, re / 2 + r % 2, nb, MAP3D_REC_SEG_ABB, 0,
                          N1, base, 0, r);
        }
        base += N1;
        N = r;
    }
    p->n_launch = q;
    for (int i = 0; i < q; i++) {
        const map3d_launch *L = &p->launch[i];
        if (L->gx < 1 || L->gy < 1 || L->gz < 1 || L->gy > MAP3D_GRID_YZ_MAX ||
            L->gz > MAP3D_GRID_YZ_MAX) {
            snprintf(err, errlen, "rec: nb = %d: launch %d grid %ux%ux%u outside CUDA limits", nb,
                     i, L->gx, L->gy, L->gz);
            return -1;
        }
    }
    return 0;
}

TB_HOSTDEV static inline int map3d_rec_first(const map3d_launch *L, unsigned bx, unsigned by,
                                             unsigned bz, map3d_cursor *c)
{
    int base = L->c, I, J;
    c->left = 0;
    if (L->kind == MAP3D_REC_SEG_REC) {
        if (!map3d_rec_family(L->a, L->b, L->d, (int)bx, (int)by, (int)bz, c))
            return 0;
        c->I += base;
        c->J += base;
        c->K += base;
        return 1;
    }
    if (L->kind == MAP3D_REC_SEG_AAB) { /* (I', J') = R_N1(bx, by), K' = N1 + bz */
        map3d_rec_rect(L->b, (int)bx, (int)by, &I, &J);
        c->I = base + I;
        c->J = base + J;
        c->K = base + L->b + (int)bz;
        return 1;
    }
    /* ABB: I' = bx, (J', K') = N1 + R_r(by, bz) */
    map3d_rec_rect(L->e, (int)by, (int)bz, &I, &J);
    c->I = base + (int)bx;
    c->J = base + L->b + I;
    c->K = base + L->b + J;
    return 1;
}

TB_HOSTDEV static inline int map3d_rec_next(const map3d_launch *L, map3d_cursor *c)
{
    (void)L;
    (void)c;
    return 0;
}

#endif
