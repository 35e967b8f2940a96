/* gpu_nbr_ring.cuh — the neighbour-list force kernel's ring walk of an anchor's entry pairs
 * (VAR 18-22 of gpu_nbr.cu; docs/gpu.md, "Cutoff systems"): the pairs (j, k) of the ma ATM
 * entries taken by their difference k - j (mod ma) instead of 32 x 32 tiles, the lanes' indices
 * from solver/physics/nbr_ring.h. As in the tiles, at each step the lanes' k are distinct and
 * one 16-byte load and one update of entry k's sums serve the J triplets of the J entries a
 * lane holds; but no slot is a tile's masked half or pad, only the last chunk's lanes beyond ma
 * (and fewer of those where its steps are split among groups). In the liquid (ma ~ 150, 62 % of
 * the pairs within r_c) the slots that hold a triplet go from VAR 7's 47 % to 59 % (J = 2).
 * ent and the sums must be valid up to 32 ceil(ma / 32) (the pad lanes' k): the kernel's
 * padding (mpad). Included by gpu_nbr.cu only, after gpu_nbr_tri.cuh. */
#ifndef TB_GPU_NBR_RING_CUH
#define TB_GPU_NBR_RING_CUH

#include "solver/physics/nbr_ring.h"

/* The ring of J entries per lane (ma >= 3, J = nbr_ring_j(ma, J)): the k and j sums into accw;
 * TYP: nu of (anchor, j's species, entry k) from nuk's rows (cap apart); TRI: the
 * cutoff_triple test; PEEL (double; gpu_nbr.cu's nbr_ring_peel): the steps where no lane masks a
 * slot (all but the last one or two of a chunk without pads) without the masks' tests, a second
 * copy of the unrolled step. Returns the triplets that counted (STATS). */
template <typename R, typename V, bool TYP, bool TRI, bool STATS, int J, bool PEEL, bool DOT>
static __device__ __forceinline__ unsigned long long nbr_ring_walk(const V *ent, V *accw,
                                                                   const R *nuk,
                                                                   const unsigned char *sty,
                                                                   int cap, int ma, R rc2, R rct6,
                                                                   int lane)
{
    unsigned long long hits = 0;
    for (int c = 0; 32 * c < ma; c++) {
        const nbr_ring_lane w = nbr_ring_at(ma, J, c, lane);
        int k = w.k, inc = w.inc, wrap = w.wrap;
        /* opaque to the compiler: else it forms inc and wrap again from the lane at every step
         * of the loop (with the warp's array address before NBR_NW == 1 made it known, 9 PTX
         * instructions more per 4 steps: 2 % slower in mixed) */
        asm volatile("" : "+r"(inc), "+r"(wrap));
        R d[J][3], a[J], nah[J], r5[J], a5[J], A[J], f[J][3];
        const R *nrow[J];
#pragma unroll
        for (int i = 0; i < J; i++) {
            const V e = ent[w.j[i]];
            d[i][0] = e.x;
            d[i][1] = e.y;
            d[i][2] = e.z;
            a[i] = e.w;
            nah[i] = (R)-0.5 * e.w;
            r5[i] = atm_real<R>::five_over(e.w);
            a5[i] = (R)0.2 * e.w;
            nrow[i] = nuk + (TYP ? sty[w.j[i]] : 0) * cap;
            A[i] = 0;
            f[i][0] = f[i][1] = f[i][2] = 0;
        }
        /* one step: entry k against the lane's J entries; test: the slots' masks (u < lim) */
        auto step = [&](const int u, const bool test) {
            const V ek = ent[k];
            nbr_share<R> ks[J];
            nbr_share_dot<R> kd[J];
#pragma unroll
            for (int i = 0; i < J; i++) {
                /* k is never a j_i (nbr_ring.h), and a pad lane's are real entries and a
                 * padding (far, finite) or LJ-only entry: no degenerate triplet */
                const bool pre = !test || u < w.lim[i];
                const R wt = TYP ? nrow[i][k] : (R)1;
                bool o;
                if constexpr (DOT)
                    o = nbr_tri_dot<R, V, TRI>(d[i], a[i], r5[i], a5[i], ek, pre, rc2, rct6, wt,
                                               A[i], f[i], kd[i]);
                else
                    o = nbr_tri2<R, V, TRI, true, false>(d[i], a[i], nah[i], r5[i], a5[i], ek,
                                                         pre, rc2, rct6, wt, A[i], f[i], ks[i]);
                if (STATS)
                    hits += (unsigned)o;
            }
            V vk = accw[k]; /* loaded after the triplets (2 % faster in mixed than before) */
#pragma unroll
            for (int i = 0; i < J; i++) { /* a pad lane's k: its own, beyond ma (zero shares) */
                if constexpr (DOT)
                    kd[i].add(vk, d[i]);
                else
                    ks[i].add(vk);
            }
            accw[k] = vk;
            __syncwarp();
            k += inc;
            k = k == wrap ? 0 : k;
        };
        int u = 0;
        if (PEEL) { /* the steps every lane counts in full: no masks (a chunk with pads: none) */
            int lm = w.lim[0];
#pragma unroll
            for (int i = 1; i < J; i++)
                lm = min(lm, w.lim[i]);
            const int Lu = __reduce_min_sync(0xffffffffu, lm);
#pragma unroll (nbr_unroll_ring<R, J>())
            for (; u < Lu; u++)
                step(u, false);
        }
#pragma unroll (nbr_unroll_ring<R, J>())
        for (; u < w.L; u++)
            step(u, true);
#pragma unroll
        for (int i = 0; i < J; i++) {
            for (int o = w.gs; o < 32; o *= 2) { /* the groups' j sums, in a fixed order */
                A[i] += __shfl_xor_sync(0xffffffffu, A[i], o);
                for (int x = 0; x < 3; x++)
                    f[i][x] += __shfl_xor_sync(0xffffffffu, f[i][x], o);
            }
            if (w.real && w.grp == 0)
                nbr_put_j<R, V>(accw, w.j[i], f[i], A[i]);
            __syncwarp(); /* j_i of one lane may be j_i' of another */
        }
    }
    return hits;
}

/* The ring walk of one warp over the ma ATM entries in ent: J entries per lane where the row
 * allows it (nbr_ring_j), else 2; ma = 2, one pair, lane 0's alone. */
template <typename R, typename V, bool TYP, bool TRI, bool STATS, int J, bool PEEL = false,
          bool DOT = false>
static __device__ __forceinline__ unsigned long long nbr_ring(const V *ent, V *accw, const R *nuk,
                                                              const unsigned char *sty, int cap,
                                                              int ma, R rc2, R rct6, int lane)
{
    if (ma >= 3 && (J == 2 || nbr_ring_j(ma, J) == J))
        return nbr_ring_walk<R, V, TYP, TRI, STATS, J, PEEL, DOT>(ent, accw, nuk, sty, cap, ma,
                                                                  rc2, rct6, lane);
    if (ma >= 3)
        return nbr_ring_walk<R, V, TYP, TRI, STATS, 2, PEEL, DOT>(ent, accw, nuk, sty, cap, ma,
                                                                  rc2, rct6, lane);
    unsigned long long hits = 0;
    if (ma == 2 && lane == 0) { /* one pair: lane 0, with the degenerate-safe body */
        const V e0 = ent[0];
        const R d0[3] = {e0.x, e0.y, e0.z};
        R A = 0, f[3] = {0, 0, 0};
        nbr_share<R> ks;
        const bool o = nbr_tri2<R, V, TRI, true>(
            d0, e0.w, (R)-0.5 * e0.w, atm_real<R>::five_over(e0.w), (R)0.2 * e0.w, ent[1], true,
            rc2, rct6, TYP ? nuk[sty[0] * cap + 1] : (R)1, A, f, ks);
        V v1 = accw[1];
        ks.add(v1);
        accw[1] = v1;
        nbr_put_j<R, V>(accw, 0, f, A);
        hits += STATS && o;
    }
    __syncwarp();
    return hits;
}

#endif
