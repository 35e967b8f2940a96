/* nbr_ring.h — the ring walk's indices (host and device): which entry pairs (j, k) of an
 * anchor's ma ATM entries each lane of a warp visits at each step in the GPU's default
 * neighbour-list loop (solver/gpu/gpu_nbr_ring.cuh, docs/gpu.md "Cutoff systems"). Plain C so
 * that tests/test_nbr_ring.c walks every lane and step on the host for every ma.
 *
 * The pairs are taken by their difference d = k - j (mod ma), 1 <= d <= ma/2. Lane l of chunk c
 * holds J entries (J = 2, 3 or 4), j_0 = 32c + l and j_i = j_0 + i D (mod ma) with D =
 * ceil(floor(ma/2) / J), and visits k = j_{J-1} + s (mod ma), s = 1..D: (j_i, k) has difference
 * (J - 1 - i) D + s, so the D steps of the ma lanes meet every difference 1..JD once.
 * Differences beyond ma/2 are masked, and at d = ma/2 (ma even) only the pair's j_i < ma/2
 * counts: each pair is met exactly once. At a step the lanes' k are distinct (their j_0 are, s
 * is common), so entry k's sums need no atomics, and one load and one update of entry k serve
 * J triplets.
 *
 * The last chunk has r = ma - 32c real lanes; the others are pads: their j_0 = 32c (real data,
 * no j stores), all their slots masked, and their k fixed at 32c + lane, in ma..32c + 31 (the
 * kernel's padding of ent and unused sums, never a real lane's k): so every lane loads and
 * stores entry k's sums at every step, with no predicate and no race. Where r <= 16 the chunk's
 * steps are split among g = 2, 4, ... groups of 32/g lanes: each group the same j_0, a 1/g
 * share of the steps (L each), the groups' j sums then summed. That is done only while each
 * group has a step to take (g <= D) and the groups' k cannot meet: L >= r (the groups' k are L
 * apart, their j less than r) and (J - 1) D + g L < ma (no wrap brings them together, nor k
 * back to a j_i). Without a split k is never a j_i where JD < ma (nbr_ring_j: the J a row of ma
 * entries takes; J = 2 serves every ma >= 3); ma = 2, one pair, is lane 0's alone. */
#ifndef TB_NBR_RING_H
#define TB_NBR_RING_H

#include "common/tb.h"

#define NBR_RING_JMAX 4

/* One lane's part of chunk c: its entries j[0..J-1] and first k; it counts (j[i], k) while
 * u < lim[i] at steps u = 0..L-1, k then becoming k + inc, or 0 where that is wrap (a real
 * lane: k + 1 mod ma; a pad: k stays); it stores its j sums (after its group's are summed) iff
 * real && grp == 0. */
typedef struct {
    int gs, grp, L;         /* lanes per group (32 / groups), this lane's group, steps */
    int real, k, inc, wrap; /* k: the first step's */
    int j[NBR_RING_JMAX], lim[NBR_RING_JMAX];
} nbr_ring_lane;

/* D of the ring of J entries per lane for ma entries. */
TB_HOSTDEV static inline int nbr_ring_d(int ma, int J) { return (ma / 2 + J - 1) / J; }

/* The J the ring of ma >= 3 entries takes: J where JD < ma, else 2. */
TB_HOSTDEV static inline int nbr_ring_j(int ma, int J)
{
    return J > 2 && J * nbr_ring_d(ma, J) >= ma ? 2 : J;
}

/* The split of chunk c: 2^lg groups, L steps each (shifts, no divisions: the kernel forms this
 * once per chunk). */
TB_HOSTDEV static inline void nbr_ring_split(int ma, int J, int c, int *lg, int *L)
{
    const int D = nbr_ring_d(ma, J), r = ma - 32 * c < 32 ? ma - 32 * c : 32;
    int l = 0;
    while (r <= 16) { /* only a last chunk of at most 16 real lanes splits */
        const int l2 = l + 1, g2 = 1 << l2, L2 = (D + g2 - 1) >> l2;
        if (l2 > 5 || (r << l2) > 32 || g2 > D || L2 < r || (J - 1) * D + (L2 << l2) >= ma)
            break;
        l = l2;
    }
    *lg = l;
    *L = (D + (1 << l) - 1) >> l;
}

/* Lane `lane` of chunk c of the ring of J = nbr_ring_j(ma, J) entries per lane (ma >= 3). */
TB_HOSTDEV static inline nbr_ring_lane nbr_ring_at(int ma, int J, int c, int lane)
{
    nbr_ring_lane w;
    const int D = nbr_ring_d(ma, J);
    int lg;
    nbr_ring_split(ma, J, c, &lg, &w.L);
    w.gs = 32 >> lg;
    const int jl = lane & (w.gs - 1);
    w.grp = lane >> (5 - lg);
    w.real = 32 * c + jl < ma;
    w.j[0] = w.real ? 32 * c + jl : 32 * c;
    for (int i = 1; i < NBR_RING_JMAX; i++)
        w.j[i] = i < J ? (w.j[i - 1] + D < ma ? w.j[i - 1] + D : w.j[i - 1] + D - ma) : 0;
    const int s0 = 1 + w.grp * w.L;
    /* u < lim: s = s0 + u <= D, and 2 ((J - 1 - i) D + s) < ma + (2 j_i < ma) */
    const int ls = !w.real ? 0 : D - s0 + 1 < w.L ? D - s0 + 1 : w.L;
    for (int i = 0; i < NBR_RING_JMAX; i++) {
        const int n = ma + (2 * w.j[i] < ma ? 1 : 0) - 2 * (J - 1 - i) * D - 2 * s0 + 1;
        const int li = n > 0 ? n >> 1 : 0;
        w.lim[i] = i >= J ? 0 : li < ls ? li : ls;
    }
    const int kr = w.j[J - 1] + s0;
    w.k = w.real ? (kr < ma ? kr : kr - ma) : 32 * c + lane;
    w.inc = w.real ? 1 : 0;
    w.wrap = w.real ? ma : -1;
    return w;
}

/* Slots the ring walks for ma entries (J asked): 32 J per warp step of the J it takes; ma = 2:
 * the one pair; ma < 2: none. */
TB_HOSTDEV static inline long long nbr_ring_slots(int ma, int J)
{
    if (ma < 3)
        return ma == 2;
    J = nbr_ring_j(ma, J);
    long long n = 0;
    for (int c = 0; 32 * c < ma; c++) {
        int lg, L;
        nbr_ring_split(ma, J, c, &lg, &L);
        n += L;
    }
    return 32 * J * n;
}

#endif
