/* gpu_nbr_cmp.cuh — the neighbour-list force kernel's tile loop VAR 9 (TB_NBR_KERNEL=9, issue 23;
 * docs/gpu-measured-early.md, "Measured: compaction of the useful slots"): the slots of VAR 7's items
 * tested first, the useful ones queued, then evaluated 32 at a time with every lane busy.
 * Included by gpu_nbr.cu only, after gpu_nbr_tri.cuh (nbr_real, NBR_NW).
 *
 * Phase 1 (per step of an item, VAR 7's items (J, Q) and steps): each lane tests its slots'
 * b = |d_k - d_j|^2 <= r_c^2 (and k < m_atm, j < k), the warp ballots and appends the passing
 * (j, k) index pairs (j | k << 16) in lane order to its ring queue in shared memory (128 entries;
 * before a step it holds < 32, a step adds <= 64). Phase 2, whenever the queue holds >= 32: lane
 * l takes entry head + l and evaluates that triplet (pot_atm_list_v, the factor v folded into
 * the shares), then adds the shares to j's and k's sums with shared-memory atomics (any lane may
 * hold any j or k: VAR 7's conflict-free walk is gone). The leftover (< 32) is evaluated at the
 * end. The sums are the warp's array in structure-of-arrays form (x, y, z, w each mz floats
 * apart: a float's bank is its entry's index mod 32), which the epilogue reads.
 *
 * The atomics' order within a warp is the hardware's, so solver.deterministic takes VAR 7
 * (nbr_launch_t), and where cutoff_triple can cut VAR 8 (this loop has no cutoff_triple test).
 *
 * Probes, for timing only (their forces are wrong; TB_NBR_KERNEL=10..13, float, one species):
 * PR = 1 (VAR 10) queues the slots but evaluates nothing (phase 1's cost alone), PR = 2 (VAR 11)
 * adds the shares by plain read-modify-writes instead of atomics (races: what the scatter would
 * cost if it were conflict-free), PR = 3 (VAR 12) only tests the slots, each lane setting a bit
 * per passing slot (no ballot, no queue: the floor of any test pass), PR = 4 (VAR 13) walks no
 * triplet at all (the filter and the epilogue alone). */
#ifndef TB_GPU_NBR_CMP_CUH
#define TB_GPU_NBR_CMP_CUH

#define NBR_CMP_Q 128 /* ring queue entries per warp (a power of 2, >= 96) */
#ifndef NBR_CMP_UNROLL_N
#define NBR_CMP_UNROLL_N 4
#endif
constexpr int NBR_CMP_UNROLL = NBR_CMP_UNROLL_N; /* phase 1's steps unrolled */

/* One queued triplet (anchor, j, k) of entry pair e = j | k << 16; on = false (the last partial
 * batch's idle lanes) adds nothing. sx: the warp's sums, x, y, z, w at 0, mz, 2 mz, 3 mz. */
template <typename R, typename V, bool TYP, int PR>
static __device__ __forceinline__ void nbr_cmp_eval(const V *ent, R *sx, int mz, const R *nuk,
                                                    const unsigned char *sty, int cap,
                                                    unsigned e, bool on)
{
    const int j = (int)(e & 0xffffu), k = (int)(e >> 16);
    const V ej = ent[j], ek = ent[k];
    const R d[3] = {ek.x - ej.x, ek.y - ej.y, ek.z - ej.z};
    const R b = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    const R abc = ej.w * (b * ek.w);
    const R nah = (R)-0.5 * ej.w, r5a = atm_real<R>::five_over(ej.w);
    const R w = TYP ? nuk[sty[j] * cap + k] : (R)1;
    R v, ha, gb, hc;
    nbr_real<R>::list_v(ej.w, nah, r5a, b, ek.w, abc * (R)0.2, w, 1, 1, &v, &ha, &gb, &hc);
    if (PR == 2 && on) { /* the probe: plain adds, racy */
        const R g = gb * v;
        for (int x = 0; x < 3; x++) {
            sx[x * mz + j] += g * d[x];
            sx[x * mz + k] -= g * d[x];
        }
        sx[3 * mz + j] -= v * ha;
        sx[3 * mz + k] -= v * hc;
    } else if (on) {
        const R g = gb * v;
        for (int x = 0; x < 3; x++) {
            atomicAdd(sx + x * mz + j, g * d[x]);
            atomicAdd(sx + x * mz + k, -g * d[x]);
        }
        atomicAdd(sx + 3 * mz + j, -v * ha);
        atomicAdd(sx + 3 * mz + k, -v * hc);
    }
}

/* The warp's share of the anchor's triangle: VAR 7's items dealt round-robin, each tested, queued
 * and evaluated as above. qb: the warp's ring queue [NBR_CMP_Q]. Returns, on lane 0, the
 * triplets queued (those within the cutoff: VAR 7's hits), 0 on the others. */
template <typename R, typename V, bool TYP, int PR>
static __device__ __forceinline__ unsigned nbr_loop_cmp(const V *ent, R *sx, int mz, unsigned *qb,
                                                        int ma, int mb, R rc2, const R *nuk,
                                                        const unsigned char *sty, int cap,
                                                        int warp, int lane)
{
    if (PR == 4)
        return 0u;
    const unsigned below = (1u << lane) - 1u;
    unsigned head = 0, tail = 0; /* warp-uniform; the queue holds tail - head */
    int item = 0;
    for (int Q = 0; Q < mb; Q++) {
        for (int J = 0; 2 * J <= Q; J++, item++) {
            if ((item & (NBR_NW - 1)) != warp)
                continue;
            const bool dual = 2 * J + 1 <= Q;
            const int j1 = 64 * J + lane, j2 = j1 + 32;
            const V e1 = ent[j1], e2 = ent[dual ? j2 : j1];
            const int s0 = dual ? 0 : 1, s1 = dual ? 32 : 17;
            unsigned mk1 = 0, mk2 = 0; /* PR 3 */
#pragma unroll NBR_CMP_UNROLL
            for (int s = s0; s < s1; s++) {
                const int k = 32 * Q + ((lane + s) & 31);
                const V ek = ent[k];
                const bool kin = k < ma;
                const R x1 = ek.x - e1.x, y1 = ek.y - e1.y, z1 = ek.z - e1.z;
                const R x2 = ek.x - e2.x, y2 = ek.y - e2.y, z2 = ek.z - e2.z;
                /* dual: j1 against every k of tile Q, j2 against k > j2; the diagonal tile
                 * Q = 2J: l against l + s, s = 1..16 (at s = 16 the lanes l < 16) */
                const bool p1 = kin && (dual || (j1 < ma && (s < 16 || lane < 16))) &&
                                x1 * x1 + y1 * y1 + z1 * z1 <= rc2;
                const bool p2 = dual && kin && j2 < k && x2 * x2 + y2 * y2 + z2 * z2 <= rc2;
                if (PR == 3) {
                    mk1 |= (unsigned)p1 << s;
                    mk2 |= (unsigned)p2 << s;
                    continue;
                }
                const unsigned b1 = __ballot_sync(0xffffffffu, p1);
                const unsigned b2 = __ballot_sync(0xffffffffu, p2);
                const int n1 = __popc(b1);
                if (p1) /* the diagonal's k may precede j1: the body is symmetric in j, k */
                    qb[(tail + __popc(b1 & below)) & (NBR_CMP_Q - 1)] =
                        (unsigned)j1 | (unsigned)k << 16;
                if (p2)
                    qb[(tail + n1 + __popc(b2 & below)) & (NBR_CMP_Q - 1)] =
                        (unsigned)j2 | (unsigned)k << 16;
                tail += n1 + __popc(b2);
                while (tail - head >= 32) {
                    __syncwarp();
                    if (PR != 1)
                        nbr_cmp_eval<R, V, TYP, PR>(ent, sx, mz, nuk, sty, cap,
                                                    qb[(head + lane) & (NBR_CMP_Q - 1)], true);
                    head += 32;
                }
            }
            if (PR == 3) /* a side effect, so that the tests stay */
                qb[lane] += (unsigned)__popc(mk1) + (unsigned)__popc(mk2);
        }
    }
    __syncwarp();
    if (PR != 1 && PR != 3 && tail != head) {
        const bool on = lane < (int)(tail - head);
        nbr_cmp_eval<R, V, TYP, PR>(ent, sx, mz, nuk, sty, cap,
                                    on ? qb[(head + lane) & (NBR_CMP_Q - 1)] : 0u, on);
    }
    return lane == 0 ? tail : 0u;
}

#endif
