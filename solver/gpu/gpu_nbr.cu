/* gpu_nbr.cu — the neighbour-list path on the GPU (nbr.h): the force kernel with one block per
 * anchor, over the lists gpu_nbr_build.cu builds (their struct: gpu_nbr_int.h).
 *
 * Force kernel: block b takes anchor perm[b] (particles in cell order, so neighbouring blocks
 * read neighbouring particles). Its NBR_NT threads (one warp since 2026-11-29; 4 before) filter
 * the row at the current positions into shared memory (separations formed in double, stored in
 * R; the ATM partners first, order kept by a ballot compaction), then its warps share the
 * 32 x 32 tiles (P, Q) of the entry-pair triangle. One warp per block: no warp of a block waits
 * at the barriers after the tile loop for the one with the most items (30 % of the stall
 * samples with 4), 32 blocks of one warp per SM where 8 of 4 were: 1.12x in mixed, 1.13x in
 * double at 10^6 on the H200 (docs/gpu-measured.md, "one warp per anchor"); -DNBR_NT=128 builds
 * the blocks before. VAR 1's loop (docs/gpu.md): items (J, Q), 2J <= Q, dealt
 * round-robin; lane l holds j1 = 64 J + l and j2 = j1 + 32 and visits k = 32 Q + ((l + s) mod
 * 32), s = 0..31 (the diagonal tiles Q = 2J: l against l + s, s = 1..16): at each step the 32
 * lanes touch 32 different k, so each warp keeps the k-side sums in its own shared array
 * without atomics, and one 16-byte load and one update of entry k serve two triplets. Per
 * triplet: its 3 sides, pot_atm_list (no energy: E = (1/9) sum_q d_q . F_q at the end), 4 FMAs
 * into the k sums and 4 into the j sums. The default since 2026-11-25 (VAR 7; 8 where
 * cutoff_triple can cut) walks the same items and steps after a one-sweep filter
 * (gpu_nbr_parts.cuh), adds entry k's shares by FMAs, takes pot_atm_list_v (its factor v
 * folded into the sums' FMAs) and leaves out the cutoff_triple test where it cannot fail: 7-9 %
 * less time in mixed precision, 1-2 % in double. The default since 2026-11-29 (VAR 18; 19 where
 * cutoff_triple can cut; gpu_nbr_ring.cuh) walks the same pairs by their difference k - j mod
 * m_atm, two entries per lane, with no tile's masked half nor pad: 59 % of the slots hold a
 * triplet instead of 47 %, 1.27x in mixed and 1.32x in double at 10^6 on the H200
 * (docs/gpu-measured.md, "Measured: the ring walk"). VAR 9 (gpu_nbr_cmp.cuh) evaluates only the
 * useful slots, compacted by warp, with shared-memory atomics: 3.3x slower, kept for
 * measurements (docs/gpu-measured.md). The loop before VAR 1 (VAR 0): tile w =
 * warp, warp + 4, ... placed by lambda2d, one j per lane, pot_atm_set and the energy per
 * triplet. At the end each entry's force F_q = 0.75 nu (V_q + S_q d_q) (VAR 1: -3 nu 5^(-5/2)
 * (V_q + S_q d_q)) (+ its LJ pair force; in mixed precision
 * the pair in double, from the double separation formed again: the pair term is O(m), the
 * triangle O(m^2), and float pairs cost ~1e-6 of the force against LAMMPS) is added to
 * global memory by the accumulation mode, the anchor's F_i = -sum F_q, and the block's
 * energies and virial sum_q d_q (x) F_q.
 *
 * Species (the typed instances nbr_kernel<atm_typed<R>, STATS>, several species only): the
 * filter keeps each entry's type (from the type lane of the position it loads anyway), then
 * the block writes nuk[tj cap + k] = nu(ti, tj, type of entry k) for the anchor's type ti and
 * every species tj; in a tile lane j reads its row tj at k, one 4- (8-) byte load per triplet
 * beside the 16-byte load of entry k, in 32 different banks (rows cap apart, cap a multiple of
 * 32, and 32 different k), and its e, ga, gb, gc take the factor nu (one multiply; the other
 * three fold into the sums' FMAs); the epilogue then scales by 0.75 alone. The LJ-only partners
 * are those within the largest species pair's cutoff (q.rcl2), and each entry's pair takes
 * its own coefficients (the anchor's row of the LJ table, staged in shared memory): its
 * cutoff, and none for a pair of species without LJ. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps3d/lambda2d.h"
#include "common/check.h"
#include "solver/gpu/gpu_atm.cuh"
#include "solver/gpu/gpu_nbr_int.h"
#include "solver/gpu/gpu_nbr_tri.cuh" /* NBR_NT, nbr_real, nbr_args, one triplet */
#include "solver/gpu/gpu_nbr_parts.cuh"
#include "solver/gpu/gpu_nbr_cmp.cuh"
#include "solver/gpu/gpu_nbr_ring.cuh"

/* ---- forces ------------------------------------------------------------------------ */

/* What VAR >= 2 take (docs/gpu.md): 2 the cutoff_triple test and pot_atm_list; 7 (the
 * default) pot_atm_list_v and no test (taken where it cannot fail: nbr_launch_t); 8 the same
 * with the test; 18 and 19 the ring walk (gpu_nbr_ring.cuh) as 7 and 8. */
__host__ __device__ constexpr bool nbr_tri_test(int var)
{
    return var == 19 || (var != 7 && var < 14);
}
__host__ __device__ constexpr bool nbr_ring_var(int var) { return var >= 18 && var <= 23; }
/* The ring's entries per lane: 18, 19, 22, 23 two, 20 three, 21 four (nbr_ring.h). */
__host__ __device__ constexpr int nbr_ring_jv(int var) { return var == 20 ? 3 : var == 21 ? 4 : 2; }
/* The ring's full steps without the masks' tests (gpu_nbr_ring.cuh's PEEL): in double, 2.5-3 %
 * faster on the H200, not in float, 2 % slower (docs/gpu-measured.md); VAR 22 takes the other
 * choice, for the comparison in one binary. */
template <typename R> __host__ __device__ constexpr bool nbr_ring_peel(int var)
{
    return (var == 22) != (sizeof(R) == sizeof(double));
}
/* The ring's triplets in the dot form (nbr_tri_dot: d_j . d_k in place of d_jk, two
 * instructions fewer per triplet): in float, 3 % faster on the H200; in double 2-3 % slower
 * (one more step of latency before the reciprocal square root, with 12 warps per SM: the double
 * kernel waits on latency, not on issue); VAR 23 takes the other form (docs/gpu-measured.md). */
template <typename R> __host__ __device__ constexpr bool nbr_ring_dot(int var)
{
    return (var == 23) != (sizeof(R) == sizeof(float));
}
__host__ __device__ constexpr bool nbr_vfold(int var) { return var >= 7; }
/* Timing probes of the row's O(m) part (float, one species; their results are wrong;
 * docs/gpu-measured.md, "Measured: the row's O(m) part"): VAR 7 with 14 the filter alone (no
 * triplets, no epilogue), 15 the entries' force atomics replaced by plain stores, 16 no LJ
 * pairs, 17 no block energy and virial atomics. */
__host__ __device__ constexpr bool nbr_cmp(int var) { return var >= 9 && var <= 13; }
__host__ __device__ constexpr bool nbr_walk7(int var)
{
    return (var >= 2 && var < 9) || (var >= 15 && var <= 17);
}

/* VAR 0: the tile loop of 2026-11-22 (one j per lane, pot_atm_set, the energy per triplet);
 * VAR 1 (the default since 2026-11-24, TB_NBR_KERNEL=0 selects VAR 0): two j per lane (tiles
 * 2J and 2J + 1 against tile Q, one load and one update of entry k's sums for both), the
 * diagonal tiles Q = 2J in 16 steps instead of 32, pot_atm_list, and the ATM energy from
 * Euler's relation E = (1/9) sum_q d_q . F_q. */
template <typename K, bool STATS, int VAR, bool MOV = false>
__global__ void __launch_bounds__(NBR_NT) nbr_kernel(gpu_args a, nbr_args q)
{
    typedef typename atm_family<K>::R R;
    constexpr bool TYP = atm_family<K>::TYP;
    typedef typename nbr_real<R>::V V;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    V *ent = (V *)smem_raw;            /* [cap]: d_q, |d_q|^2 */
    V *acc = ent + q.cap;              /* [NW][cap]: V_q, S_q per warp */
    double *scratch = (double *)(acc + NBR_NW * q.cap); /* [NBR_SCRATCH] */
    int *wcount = (int *)(scratch + NBR_SCRATCH);       /* [8] */
    int *tix = wcount + 8;                              /* [cap] */
    typedef typename atm_real<R>::lj_pair LP;
    const int nt = TYP ? a.kf.ntypes : 0;
    R *nuk = (R *)(tix + q.cap);                        /* TYP: [nt][cap] (16-byte aligned) */
    LP *slj = (LP *)(nuk + nt * q.cap);                 /* TYP: [nt] LJ of (anchor, species) */
    unsigned char *sty = (unsigned char *)(slj + nt);   /* TYP: [cap] */
    const int tid = threadIdx.x, lane = tid & 31;
    const int warp = NBR_NW == 1 ? 0 : tid >> 5; /* known 0 with one-warp blocks: accw is acc */
    const auto &kc = nbr_real<R>::coef(a);
    const int i = q.perm[q.b0 + blockIdx.x];
    const tb_double4 xi = a.posd[i];
    const int ti = TYP ? gpu_type_of(xi.w) : 0; /* the anchor's species */
    const int *row = q.idx + q.off[blockIdx.x], cnt = q.off[blockIdx.x + 1] - q.off[blockIdx.x];
    __shared__ tb_box_d sbox; /* MOV: the box that moves on the device, read once a block */
    if (MOV) {
        if (tid == 0)
            sbox = *q.dbox;
        __syncthreads();
    }
    const tb_box_d *qbox = MOV ? &sbox : &q.box;

    /* entries: ATM partners, then LJ-only partners, order kept (VAR >= 2: one sweep, nbr_filter1) */
    int m = 0, ma = 0;
    if (VAR >= 2)
        nbr_filter1<R, TYP>(a, q, qbox, xi, i, row, cnt, ent, tix, sty, acc, wcount, m, ma);
    for (int pass = 0; VAR < 2 && pass < 2; pass++) {
        for (int c0 = 0; c0 < cnt; c0 += NBR_NT) {
            const int r = c0 + tid;
            bool keep = false;
            int t = 0, tt = 0;
            double dx = 0, dy = 0, dz = 0, r2 = 0;
            if (r < cnt) {
                t = row[r];
                const tb_double4 xt = a.posd[t];
                if (TYP)
                    tt = gpu_type_of(xt.w);
                double e[3] = {xt.x - xi.x, xt.y - xi.y, xt.z - xi.z};
                box_min_image_d(qbox, e);
                dx = e[0];
                dy = e[1];
                dz = e[2];
                r2 = dx * dx + dy * dy + dz * dz;
                const bool atm = r2 <= q.rca2;
                keep = (pass == 0 ? atm : !atm && r2 < q.rcl2) && nbr_after(dx, dy, dz, i, t);
            }
            const unsigned ball = __ballot_sync(0xffffffffu, keep);
            if (lane == 0)
                wcount[warp] = __popc(ball);
            __syncthreads();
            int before = m, total = 0;
            for (int w = 0; w < NBR_NW; w++) {
                before += w < warp ? wcount[w] : 0;
                total += wcount[w];
            }
            if (keep) {
                const int p = before + __popc(ball & ((1u << lane) - 1u));
                V v;
                v.x = (R)dx;
                v.y = (R)dy;
                v.z = (R)dz;
                v.w = v.x * v.x + v.y * v.y + v.z * v.z;
                ent[p] = v;
                tix[p] = t;
                if (TYP)
                    sty[p] = (unsigned char)tt;
            }
            m += total;
            __syncthreads();
        }
        if (pass == 0)
            ma = m;
    }
    const int mpad = (ma + 31) & ~31; /* tiles read up to here: pad with far, finite entries */
    for (int p = m + tid; p < mpad; p += NBR_NT) {
        V v;
        v.x = v.y = v.z = (R)1e3;
        v.w = (R)3e6;
        ent[p] = v;
    }
    const int mz = mpad > m ? mpad : m;
    for (int p = tid; p < NBR_NW * mz; p += NBR_NT) {
        V z;
        z.x = z.y = z.z = z.w = (R)0;
        acc[(p / mz) * q.cap + p % mz] = z;
    }
    if (TYP) { /* nu of (anchor, species tj, entry k); 0 beyond the ATM partners (masked anyway) */
        for (int p = tid; p < nt * mpad; p += NBR_NT) {
            const int tj = p / mpad, k = p - tj * mpad;
            nuk[tj * q.cap + k] = k < ma ? __ldg(kc.tab->nu + POT_TRIPLET(ti, tj, sty[k])) : (R)0;
        }
        for (int p = tid; p < nt; p += NBR_NT)
            slj[p] = kc.tab->lj[POT_PAIR(ti, p)];
    }
    __syncthreads();

    /* triplets: tile pairs (P, Q) of the ma ATM entries, dealt to the warps */
    double e_thread = 0.0;
    unsigned long long hits = 0;
    const int mb = mpad / 32;
    const long long n_tiles = map3d_tri(mb);
    V *accw = acc + warp * q.cap;
    if (VAR == 1) {
        /* items (J, Q), 2J <= Q, in column order, dealt round-robin to the warps: lane l takes
         * j1 = 64 J + l and, when 2J + 1 <= Q, j2 = j1 + 32 against k = 32 Q + ((l + s) mod 32) */
        const R rc2 = kc.atm_rc2, rct6 = kc.atm_rct6;
        int item = 0;
        for (int Q = 0; Q < mb; Q++) {
            for (int J = 0; 2 * J <= Q; J++, item++) {
                if ((item & (NBR_NW - 1)) != warp)
                    continue;
                const bool dual = 2 * J + 1 <= Q;
                const int j1 = 64 * J + lane, j2 = j1 + 32;
                const V e1 = ent[j1];
                const R d1[3] = {e1.x, e1.y, e1.z}, nah1 = (R)-0.5 * e1.w;
                const R r51 = atm_real<R>::five_over(e1.w);
                const R *nrow1 = nuk + (TYP && j1 < ma ? sty[j1] : 0) * q.cap;
                R A1 = 0, f1[3] = {0, 0, 0};
                if (dual) {
                    const V e2 = ent[j2];
                    const R d2[3] = {e2.x, e2.y, e2.z}, nah2 = (R)-0.5 * e2.w;
                    const R r52 = atm_real<R>::five_over(e2.w);
                    const R *nrow2 = nuk + (TYP && j2 < ma ? sty[j2] : 0) * q.cap;
                    R A2 = 0, f2[3] = {0, 0, 0};
#pragma unroll (nbr_unroll_dual<R>())
                    for (int s = 0; s < 32; s++) {
                        const int k = 32 * Q + ((lane + s) & 31);
                        const V ek = ent[k];
                        const bool kin = k < ma;
                        R ka[3], kb[3], ga, gb;
                        const bool o1 = nbr_tri(d1, e1.w, nah1, r51, ek, kin, rc2, rct6,
                                                TYP ? nrow1[k] : (R)1, A1, f1, ka, &ga);
                        const bool o2 = nbr_tri(d2, e2.w, nah2, r52, ek, kin && j2 < k, rc2,
                                                rct6, TYP ? nrow2[k] : (R)1, A2, f2, kb, &gb);
                        if (STATS)
                            hits += (unsigned)o1 + (unsigned)o2;
                        V vk = accw[k];
                        vk.x -= ka[0] + kb[0];
                        vk.y -= ka[1] + kb[1];
                        vk.z -= ka[2] + kb[2];
                        vk.w -= ga + gb;
                        accw[k] = vk;
                        __syncwarp();
                    }
                    nbr_put_j<R, V>(accw, j2, f2, A2);
                } else {
                    /* the diagonal tile Q = 2J: lane l pairs with l + s (mod 32), s = 1..16, each
                     * pair of the tile once (at s = 16 the lanes l < 16 only); the triplet's
                     * body is symmetric in j and k */
                    const bool jin = j1 < ma;
#pragma unroll 4
                    for (int s = 1; s <= 16; s++) {
                        const int k = 32 * Q + ((lane + s) & 31);
                        const V ek = ent[k];
                        R ka[3], ga;
                        const bool pre = jin && k < ma && (s < 16 || lane < 16);
                        const bool o1 = nbr_tri(d1, e1.w, nah1, r51, ek, pre, rc2, rct6,
                                                TYP ? nrow1[k] : (R)1, A1, f1, ka, &ga);
                        if (STATS)
                            hits += o1;
                        V vk = accw[k];
                        vk.x -= ka[0];
                        vk.y -= ka[1];
                        vk.z -= ka[2];
                        vk.w -= ga;
                        accw[k] = vk;
                        __syncwarp();
                    }
                }
                nbr_put_j<R, V>(accw, j1, f1, A1);
                __syncwarp();
            }
        }
    }
    if constexpr (nbr_cmp(VAR)) /* VAR 7's slots tested, the useful ones queued (gpu_nbr_cmp.cuh) */
        hits = nbr_loop_cmp<R, V, TYP, VAR - 9>(ent, (R *)accw, mz, (unsigned *)(sty + (TYP ? q.cap : 0)) +
                                                              warp * NBR_CMP_Q,
                                       ma, mb, kc.atm_rc2, nuk, sty, q.cap, warp, lane);
    if constexpr (nbr_ring_var(VAR)) /* the ring walk (gpu_nbr_ring.cuh) */
        hits = nbr_ring<R, V, TYP, nbr_tri_test(VAR), STATS, nbr_ring_jv(VAR),
                        nbr_ring_peel<R>(VAR), nbr_ring_dot<R>(VAR)>(
            ent, accw, nuk, sty, q.cap, ma, kc.atm_rc2, kc.atm_rct6, lane);
    if (nbr_walk7(VAR)) {
        /* VAR 1's items (J, Q) and steps, dealt round-robin (an even deal of the steps was
         * slower: docs/gpu.md) */
        constexpr bool TRI = nbr_tri_test(VAR), VF = nbr_vfold(VAR);
        const R rc2 = kc.atm_rc2, rct6 = kc.atm_rct6;
        int item = 0;
        for (int Q = 0; Q < mb; Q++) {
            for (int J = 0; 2 * J <= Q; J++, item++) {
                if ((item & (NBR_NW - 1)) != warp)
                    continue;
                const bool dual = 2 * J + 1 <= Q;
                const int j1 = 64 * J + lane, j2 = j1 + 32;
                const V e1 = ent[j1];
                const R d1[3] = {e1.x, e1.y, e1.z}, nah1 = (R)-0.5 * e1.w;
                const R r51 = atm_real<R>::five_over(e1.w), a51 = (R)0.2 * e1.w;
                const R *nrow1 = nuk + (TYP && j1 < ma ? sty[j1] : 0) * q.cap;
                R A1 = 0, f1[3] = {0, 0, 0};
                if (dual) {
                    const V e2 = ent[j2];
                    const R d2[3] = {e2.x, e2.y, e2.z}, nah2 = (R)-0.5 * e2.w;
                    const R r52 = atm_real<R>::five_over(e2.w), a52 = (R)0.2 * e2.w;
                    const R *nrow2 = nuk + (TYP && j2 < ma ? sty[j2] : 0) * q.cap;
                    R A2 = 0, f2[3] = {0, 0, 0};
#pragma unroll (nbr_unroll_dual<R>())
                    for (int s = 0; s < 32; s++) {
                        const int k = 32 * Q + ((lane + s) & 31);
                        const V ek = ent[k];
                        const bool kin = k < ma;
                        nbr_share<R> k1, k2;
                        /* j1 (tile 2J < Q, never a pad) is never entry k: no degenerate */
                        const bool o1 = nbr_tri2<R, V, TRI, VF, false>(
                            d1, e1.w, nah1, r51, a51, ek, kin, rc2, rct6,
                            TYP ? nrow1[k] : (R)1, A1, f1, k1);
                        const bool o2 = nbr_tri2<R, V, TRI, VF>(d2, e2.w, nah2, r52, a52, ek,
                                                                kin && j2 < k, rc2, rct6,
                                                                TYP ? nrow2[k] : (R)1, A2, f2, k2);
                        if (STATS)
                            hits += (unsigned)o1 + (unsigned)o2;
                        V vk = accw[k];
                        k1.add(vk);
                        k2.add(vk);
                        accw[k] = vk;
                        __syncwarp();
                    }
                    nbr_put_j<R, V>(accw, j2, f2, A2);
                } else { /* the diagonal tile Q = 2J: as VAR 1 */
                    const bool jin = j1 < ma;
#pragma unroll 4
                    for (int s = 1; s <= 16; s++) {
                        const int k = 32 * Q + ((lane + s) & 31);
                        const V ek = ent[k];
                        const bool pre = jin && k < ma && (s < 16 || lane < 16);
                        nbr_share<R> k1;
                        const bool o1 = nbr_tri2<R, V, TRI, VF>(d1, e1.w, nah1, r51, a51, ek, pre,
                                                                rc2, rct6, TYP ? nrow1[k] : (R)1,
                                                                A1, f1, k1);
                        if (STATS)
                            hits += o1;
                        V vk = accw[k];
                        k1.add(vk);
                        accw[k] = vk;
                        __syncwarp();
                    }
                }
                nbr_put_j<R, V>(accw, j1, f1, A1);
                __syncwarp();
            }
        }
    }
    for (long long w = warp; VAR == 0 && w < n_tiles; w += NBR_NW) {
        const int Q = map2d_lambda2d_row(w), P = (int)(w - map3d_tri(Q));
        const int j = 32 * P + lane;
        const V ej = ent[j];
        const R dj[3] = {ej.x, ej.y, ej.z};
        const R *nrow = nuk + (TYP && j < ma ? sty[j] : 0) * q.cap; /* TYP: j's row */
        R A = 0, E = 0, fx = 0, fy = 0, fz = 0;
#pragma unroll 4
        for (int s = 0; s < 32; s++) {
            const int kk = (lane + s) & 31, k = 32 * Q + kk;
            const V ek = ent[k];
            const R dk[3] = {ek.x, ek.y, ek.z};
            R djk[3], e, ga, gb, gc;
            const int in = nbr_real<R>::atm(kc, dj, ej.w, dk, ek.w, djk, &e, &ga, &gb, &gc);
            const bool ok = in && j < ma && k < ma && (P < Q || kk > lane);
            e = ok ? e : (R)0;
            ga = ok ? ga : (R)0;
            gb = ok ? gb : (R)0;
            gc = ok ? gc : (R)0;
            R nu = (R)1;
            if (TYP) { /* the triplet's nu, which the one-species kernel applies at the end: */
                nu = nrow[k]; /* e and ga fold into the sums' FMAs, gc below, gb costs a multiply */
                e *= nu;
                ga *= nu;
                gb *= nu;
            }
            if (STATS)
                hits += ok;
            E += e;
            A += ga;
            fx += gb * djk[0];
            fy += gb * djk[1];
            fz += gb * djk[2];
            V vk = accw[k];
            vk.x -= gb * djk[0];
            vk.y -= gb * djk[1];
            vk.z -= gb * djk[2];
            vk.w = TYP ? atm_real<R>::fma(-gc, nu, vk.w) : vk.w - gc;
            accw[k] = vk;
            __syncwarp();
        }
        V vj = accw[j];
        vj.x += fx;
        vj.y += fy;
        vj.z += fz;
        vj.w -= A;
        accw[j] = vj;
        __syncwarp();
        e_thread += (double)E;
    }
    __syncthreads();

    /* forces of the entries, pairs, the anchor's force, virial */
    /* VAR 1: pot_atm_list's g = dE/dr^2 / (-(3/2) nu 5^(-5/2)), so F = 2 dE/dr^2 sums take
     * -3 nu 5^(-5/2) = -3 nu / (25 sqrt 5) */
    const double scale = (VAR >= 1 ? POT_ATM_LIST_SCALE : 0.75) *
                         (TYP ? 1.0 : (double)kc.nu);
    double fi[3] = {0, 0, 0}, ep = 0, vir[6] = {0, 0, 0, 0, 0, 0}, ea = 0;
    for (int p = tid; VAR != 14 && p < m; p += NBR_NT) {
        const V d = ent[p];
        const R dv[3] = {d.x, d.y, d.z};
        double f[3] = {0, 0, 0}, dw[3] = {(double)d.x, (double)d.y, (double)d.z};
        if (p < ma) {
            R sx = 0, sy = 0, sz = 0, sw = 0;
            for (int w = 0; w < NBR_NW; w++) { /* fixed order: deterministic */
                if (nbr_cmp(VAR)) { /* structure of arrays, mz apart */
                    const R *v = (const R *)(acc + w * q.cap) + p;
                    sx += v[0];
                    sy += v[mz];
                    sz += v[2 * mz];
                    sw += v[3 * mz];
                } else {
                    const V v = acc[w * q.cap + p];
                    sx += v.x;
                    sy += v.y;
                    sz += v.z;
                    sw += v.w;
                }
            }
            f[0] = scale * (double)(sx + sw * dv[0]);
            f[1] = scale * (double)(sy + sw * dv[1]);
            f[2] = scale * (double)(sz + sw * dv[2]);
            if (VAR >= 1) /* Euler: 9 E = sum_q d_q . F_q of the ATM forces */
                ea += dw[0] * f[0] + dw[1] * f[1] + dw[2] * f[2];
        }
        if (sizeof(R) < sizeof(double) && q.pdbl && VAR != 16) { /* mixed: the pair in double */
            const tb_double4 xt = a.posd[tix[p]];
            const double x0[3] = {xi.x, xi.y, xi.z}, x1[3] = {xt.x, xt.y, xt.z};
            const double r2 = nbr_separation(qbox, x0, x1, dw);
            const pot_lj_pair_d *pr = TYP ? a.kd.tab->lj + POT_PAIR(ti, sty[p]) : NULL;
            if (r2 < (TYP ? pr->rc2 : a.kd.lj_rc2)) {
                double pi[3] = {0, 0, 0}, pj[3] = {0, 0, 0};
                ep += TYP ? pair_accumulate_typed_d(pr, dw, r2, pi, pj)
                          : pair_accumulate_d(&a.kd, dw, r2, pi, pj);
                f[0] += pj[0];
                f[1] += pj[1];
                f[2] += pj[2];
            }
        } else if (VAR != 16 && d.w < (TYP ? slj[sty[p]].rc2 : kc.lj_rc2)) { /* TYP: its own */
            R pi[3] = {0, 0, 0}, pj[3] = {0, 0, 0};
            ep += (double)(TYP ? atm_real<R>::pair(slj[sty[p]], dv, d.w, pi, pj)
                               : atm_real<R>::pair(kc, dv, d.w, pi, pj));
            f[0] += (double)pj[0];
            f[1] += (double)pj[1];
            f[2] += (double)pj[2];
        }
        if (VAR == 15) { /* the probe: plain stores, no atomics (mode ACC_DOUBLE: nbr_launch_t) */
            a.acc[4 * tix[p]] = f[0];
            a.acc[4 * tix[p] + 1] = f[1];
            a.acc[4 * tix[p] + 2] = f[2];
        } else
            add_force(a, tix[p], f[0], f[1], f[2]);
        fi[0] -= f[0];
        fi[1] -= f[1];
        fi[2] -= f[2];
        vir[0] += dw[0] * f[0];
        vir[1] += dw[1] * f[1];
        vir[2] += dw[2] * f[2];
        vir[3] += 0.5 * (dw[0] * f[1] + dw[1] * f[0]);
        vir[4] += 0.5 * (dw[0] * f[2] + dw[2] * f[0]);
        vir[5] += 0.5 * (dw[1] * f[2] + dw[2] * f[1]);
    }
    double et, eps, hsum = 0.0;
    if (VAR >= 2) { /* the same sums in one barrier */
        double v[12] = {fi[0], fi[1], fi[2], vir[0], vir[1], vir[2], vir[3], vir[4], vir[5],
                        ea, ep, (double)hits};
        nbr_block_sums<STATS ? 12 : 11>(v, scratch);
        for (int c = 0; c < 3; c++)
            fi[c] = v[c];
        for (int c = 0; c < 6; c++)
            vir[c] = v[3 + c];
        et = v[9];
        eps = v[10];
        hsum = v[11];
    } else {
        for (int c = 0; c < 3; c++)
            fi[c] = block_sum(fi[c], scratch);
        for (int c = 0; c < 6; c++)
            vir[c] = block_sum(vir[c], scratch);
        et = block_sum(VAR == 1 ? ea : e_thread, scratch);
        eps = block_sum(ep, scratch);
        if (STATS)
            hsum = block_sum((double)hits, scratch);
    }
    if (tid == 0 && VAR == 17)
        add_force(a, i, fi[0], fi[1], fi[2]);
    else if (tid == 0) {
        add_force(a, i, fi[0], fi[1], fi[2]);
        add_energy(a, 0, VAR >= 1 ? et / 9.0 : (TYP ? 1.0 : (double)kc.nu) * et);
        add_energy(a, 1, eps);
        for (int c = 0; c < 6; c++) {
            add_virial(a, c, vir[c]);
        }
        if (STATS) {
            /* slots launched: 1024 per tile; VAR 1 walks the (mb + 1) / 2 diagonal tiles
             * Q = 2J in 512; the ring its own (nbr_ring.h) */
            atomicAdd(q.stats, nbr_ring_var(VAR)
                                   ? (unsigned long long)nbr_ring_slots(ma, nbr_ring_jv(VAR))
                                   : (unsigned long long)n_tiles * 1024ull -
                                         (VAR >= 1 ? (unsigned long long)((mb + 1) / 2) * 512ull
                                                   : 0ull));
            atomicAdd(q.stats + 1, (unsigned long long)hsum);
        }
    }
}

/* The tile loop: TB_NBR_KERNEL in the environment, 0 (the loop of 2026-11-22), 1 (of
 * 2026-11-24), 2, 7, 8 (of 2026-11-25: VAR 1's deal with the one-sweep filter, the one-barrier
 * sums and entry k's sums by FMA; nbr_tri_test, nbr_vfold), 9 (VAR 7's slots compacted,
 * gpu_nbr_cmp.cuh, 3.3x slower; VAR 7 in deterministic mode, 8 where cutoff_triple can cut),
 * 10-13 (9's timing probes, float and one species only, else 9), 14-17 (the timing probes of the
 * row's filter and epilogue: nbr_walk7; else 7), 18 (the ring walk of 2026-11-29,
 * gpu_nbr_ring.cuh, two entries per lane; 19 where cutoff_triple can cut), 20 and 21 (the ring
 * with three and four entries per lane: one species, else 18; 2-5 % slower in mixed, the same in
 * double), 22 (18 with the other choice of nbr_ring_peel; one species), 23 (18 with the other
 * choice of nbr_ring_dot; one species), kept for before/after measurements in one run; unset
 * (-1): VAR 18, or 19 where cutoff_triple can cut
 * (nbr_launch_t). */
static int nbr_variant(void)
{
    static int v = -2;
    if (v == -2) {
        const char *e = getenv("TB_NBR_KERNEL");
        char *end = NULL;
        const long x = e && e[0] ? strtol(e, &end, 10) : -1;
        v = end && *end == 0 && x >= 0 && x <= 23 && (x <= 2 || x >= 7) ? (int)x : -1;
    }
    return v;
}

template <typename R, bool STATS, bool TYP, int VAR>
static int nbr_launch_v(gpu_nbr *b, const gpu_args *a, const nbr_args &q, int smem,
                        cudaStream_t st)
{
    CUDA_CHECK(cudaFuncSetAttribute(nbr_kernel<typename atm_kernel_arg<R, TYP>::type, STATS, VAR>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    if (b->a_hi <= b->a_lo)
        return 0; /* no anchors for this rank */
    /* the instances a moving box takes (gpu_mtk.cu) */
    if constexpr ((VAR == 1 || VAR == 7 || VAR == 8 || VAR == 9 || VAR == 18 || VAR == 19) &&
                  !STATS) {
        if (q.dbox) {
            CUDA_CHECK(cudaFuncSetAttribute(
                nbr_kernel<typename atm_kernel_arg<R, TYP>::type, STATS, VAR, true>,
                cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
            nbr_kernel<typename atm_kernel_arg<R, TYP>::type, STATS, VAR, true>
                <<<b->a_hi - b->a_lo, NBR_NT, smem, st>>>(*a, q);
            TB_LAUNCH_CHECK("nbr_kernel");
            return 0;
        }
    }
    if (q.dbox)
        return tb_error(NULL, 0, "internal: a box that moves on the device with the lists' "
                                 "counters or TB_NBR_KERNEL=0, 2 or 10-13");
    nbr_kernel<typename atm_kernel_arg<R, TYP>::type, STATS, VAR>
        <<<b->a_hi - b->a_lo, NBR_NT, smem, st>>>(*a, q);
    TB_LAUNCH_CHECK("nbr_kernel");
    return 0;
}

template <typename R, bool STATS, bool TYP>
static int nbr_launch_t(gpu_nbr *b, const gpu_args *a, const nbr_args &q, cudaStream_t st)
{
    int v = nbr_variant();
    if (v < 0) /* the fastest measured, float and double (H200, docs/gpu.md): the ring */
        v = 18;
    /* the cutoff_triple test cannot fail when cutoff_triple^6 is well above rc^6 (unset: 3e38):
     * a, b, c <= rc^2 then give abc <= rc^6, whatever the rounding; VAR 9 (no test, and its
     * atomics' order the hardware's) takes VAR 7 where the sums must repeat bit for bit */
    const double rc2 = q.rca2 > 0 ? q.rca2 : 0.0;
    if (v >= 10 && v <= 17 && (STATS || TYP || sizeof(R) != sizeof(float)))
        v = v >= 14 ? 7 : 9;
    if (v == 15 && a->mode != ACC_DOUBLE)
        v = 7;
    if (v >= 9 && v <= 17 && a->mode == ACC_FIXED)
        v = 7;
    const bool tri = !(a->kd.atm_rct6 >= 2.0 * rc2 * rc2 * rc2);
    if ((v == 7 || (v >= 9 && v <= 17)) && tri)
        v = 8;
    if (v >= 18 && tri)
        v = 19;
    const int smem = nbr_smem_bytes<R>(q.cap, TYP ? a->kf.ntypes : 1) +
                     (nbr_cmp(v) ? NBR_NW * NBR_CMP_Q * (int)sizeof(unsigned) : 0);
    if (smem > b->smem_max)
        return tb_error(NULL, 0, "a neighbour row of %d entries needs %d bytes of shared memory, "
                                 "more than the GPU's %d: lower the cutoffs or solver.skin, or "
                                 "use solver.precision = \"mixed\" (half the bytes of double)",
                        b->max_row, smem, b->smem_max);
    switch (v) {
    case 0:
        return nbr_launch_v<R, STATS, TYP, 0>(b, a, q, smem, st);
    case 1:
        return nbr_launch_v<R, STATS, TYP, 1>(b, a, q, smem, st);
    case 7:
        return nbr_launch_v<R, STATS, TYP, 7>(b, a, q, smem, st);
    case 8:
        return nbr_launch_v<R, STATS, TYP, 8>(b, a, q, smem, st);
    case 9:
        return nbr_launch_v<R, STATS, TYP, 9>(b, a, q, smem, st);
    case 18:
        return nbr_launch_v<R, STATS, TYP, 18>(b, a, q, smem, st);
    case 19:
        return nbr_launch_v<R, STATS, TYP, 19>(b, a, q, smem, st);
    case 20:
    case 21:
    case 22:
    case 23:
        if constexpr (!TYP)
            return v == 20   ? nbr_launch_v<R, STATS, TYP, 20>(b, a, q, smem, st)
                   : v == 21 ? nbr_launch_v<R, STATS, TYP, 21>(b, a, q, smem, st)
                   : v == 22 ? nbr_launch_v<R, STATS, TYP, 22>(b, a, q, smem, st)
                             : nbr_launch_v<R, STATS, TYP, 23>(b, a, q, smem, st);
        return nbr_launch_v<R, STATS, TYP, 18>(b, a, q, smem, st);
    case 10:
    case 11:
    case 12:
    case 13:
        if constexpr (!STATS && !TYP && sizeof(R) == sizeof(float))
            return v == 10   ? nbr_launch_v<R, STATS, TYP, 10>(b, a, q, smem, st)
                   : v == 11 ? nbr_launch_v<R, STATS, TYP, 11>(b, a, q, smem, st)
                   : v == 12 ? nbr_launch_v<R, STATS, TYP, 12>(b, a, q, smem, st)
                             : nbr_launch_v<R, STATS, TYP, 13>(b, a, q, smem, st);
        return -1; /* not reached: v = 9 above */
    case 14:
    case 15:
    case 16:
    case 17:
        if constexpr (!STATS && !TYP && sizeof(R) == sizeof(float))
            return v == 14   ? nbr_launch_v<R, STATS, TYP, 14>(b, a, q, smem, st)
                   : v == 15 ? nbr_launch_v<R, STATS, TYP, 15>(b, a, q, smem, st)
                   : v == 16 ? nbr_launch_v<R, STATS, TYP, 16>(b, a, q, smem, st)
                             : nbr_launch_v<R, STATS, TYP, 17>(b, a, q, smem, st);
        return -1; /* not reached: v = 7 above */
    default:
        return nbr_launch_v<R, STATS, TYP, 2>(b, a, q, smem, st);
    }
}

int gpu_nbr_moving_ok(void)
{
    const int v = nbr_variant();
    return v < 0 || v == 1 || v == 7 || v == 8 || v == 9 || v == 18 || v == 19;
}

int gpu_nbr_forces(gpu_nbr *b, const gpu_args *a, const pot_params *pp, int dbl, int pdbl,
                   int stats, cudaStream_t st)
{
    nbr_args q;
    if (gpu_nbr_update(b, a->posd, st) != 0)
        return -1;
    q.perm = b->d_perm;
    q.off = b->d_roff;
    q.idx = b->d_idx;
    q.box = b->box;
    q.dbox = b->d_box;
    q.rca2 = pp->atm_on ? pp->d.atm_rc2 : -1.0;
    q.rcl2 = pp->lj_on ? pp->d.lj_rc2 : -1.0; /* several species: the largest pair's */
    const int nt = pp->d.ntypes;
    q.cap = ((b->max_row > 0 ? b->max_row : 1) + 31) & ~31;
    q.stats = b->d_stats;
    q.pdbl = pdbl && !dbl;
    q.b0 = b->a_lo;
    if (stats)
        CUDA_CHECK(cudaMemsetAsync(b->d_stats, 0, 2 * sizeof(unsigned long long), st));
    if (b->n == 0)
        return 0;
    if (nt > 1) /* several species: the typed instances */
        return dbl ? (stats ? nbr_launch_t<double, true, true>(b, a, q, st)
                            : nbr_launch_t<double, false, true>(b, a, q, st))
                   : (stats ? nbr_launch_t<float, true, true>(b, a, q, st)
                            : nbr_launch_t<float, false, true>(b, a, q, st));
    if (dbl)
        return stats ? nbr_launch_t<double, true, false>(b, a, q, st)
                     : nbr_launch_t<double, false, false>(b, a, q, st);
    return stats ? nbr_launch_t<float, true, false>(b, a, q, st)
                 : nbr_launch_t<float, false, false>(b, a, q, st);
}
