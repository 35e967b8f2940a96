/* split.h — how the force work is cut into P contiguous shares of equal work (docs/scaling.md).
 *
 * Triplet tiles: in the lambda order omega = Tet(K) + T2(J) + I (map3d.h) the number of particle
 * triplets i<j<k in the tiles before omega has a closed form (tiles on the faces I = J, J = K hold
 * fewer, the last tile is clipped to n):
 *   P(omega) = C3(min(K rho, n)) + C2(J rho) s_K + I rho (J < K ? s_J s_K : C2(s_K)),
 * s_T = min(rho, n - T rho) the size of tile T. Rank r takes [W(r), W(r+1)) with W(r) the
 * least omega such that P(omega) >= r C3(n) / P: equal to within one tile (rho^3 triplets).
 * Pair tiles likewise in omega2 = T2(J) + I: Q(omega2) = C2(min(J rho, n)) + I rho s_J.
 * That is the CPU's cost; a GPU block costs the same for every tile, so the GPU takes equal
 * tile counts instead (split_even; the two differ by about 1.5/nb of the work).
 * Anchors of the neighbour lists: contiguous ranges of an order (index on the CPU, cell order
 * on the GPU) with equal sums of the weights the caller gives (list row length squared). */
#ifndef TB_SPLIT_H
#define TB_SPLIT_H

#include "common/tb.h"

TB_BEGIN_DECLS

/* Rank r's share [*lo, *hi) of the triplet tiles of n particles in tiles of rho (lambda order). */
void split_triplets(int n, int rho, int r, int nranks, long long *lo, long long *hi);

/* Rank r's share [*lo, *hi) of the pair tiles (omega2 = T2(J) + I). */
void split_pairs(int n, int rho, int r, int nranks, long long *lo, long long *hi);

/* Rank r's share [*lo, *hi) of `total` equal items: floor(r total / nranks) onwards. The GPU
 * splits its tiles so, because a GPU tile costs the same whether it is full or on a face (the
 * masked path computes every slot), while a CPU tile costs its triplets. */
void split_even(long long total, int r, int nranks, long long *lo, long long *hi);

/* Rank r's share [*lo, *hi) of m items whose running work sums are prefix[0..m]
 * (prefix[0] = 0, non-decreasing). */
void split_prefix(const long long *prefix, int m, int r, int nranks, int *lo, int *hi);

/* The least index a in [0, m] with prefix[a] >= r prefix[m] / nranks: rank r's first anchor,
 * for the host (split_prefix) and the device (gpu_nbr.cu cuts the anchors where their row
 * counts are), one text so that both cut at the same anchor. */
TB_HOSTDEV static inline int split_prefix_at(const long long *prefix, int m, int r, int nranks)
{
    if (r <= 0)
        return 0;
    if (r >= nranks)
        return m;
    const long long target = (long long)((__int128)prefix[m] * r / nranks);
    int lo = 0, hi = m;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (prefix[mid] >= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Triplets in the tiles before omega (P above), and pairs before omega2 (Q); exposed for the
 * tests. */
long long split_triplets_before(int n, int rho, long long omega);
long long split_pairs_before(int n, int rho, long long omega2);

TB_END_DECLS

#endif
