/* gpu_nbr_parts.cuh — the neighbour-list force kernel's block-wide parts that its tile loops
 * VAR >= 2 use (gpu_nbr.cu, docs/gpu.md): the one-sweep filter of an anchor's row and the
 * block's sums of several doubles behind one barrier. Included by gpu_nbr.cu only, after
 * gpu_nbr_tri.cuh (nbr_args, NBR_NT, NBR_NW and NBR_SCRATCH). */
#ifndef TB_GPU_NBR_PARTS_CUH
#define TB_GPU_NBR_PARTS_CUH

/* VAR >= 2's filter: one sweep of the row (one position load and one minimum image per entry,
 * where the two passes of VAR 0 and 1 did both twice) keeps the ATM partners in ent and the
 * LJ-only ones, in the order met, in a staging area (the warps' sums, zeroed after), then moves
 * those behind the ATM partners: the same entries in the same order as the two passes. box:
 * q.box, or the kernel's copy of a box that moves on the device. */
template <typename R, bool TYP, typename V>
static __device__ __forceinline__ void nbr_filter1(const gpu_args &a, const nbr_args &q,
                                                   const tb_box_d *box, const tb_double4 &xi,
                                                   int i, const int *row,
                                                   int cnt, V *ent, int *tix, unsigned char *sty,
                                                   V *stage, int *wcount, int &m, int &ma)
{
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    int *st = (int *)(stage + q.cap); /* [cap] (t, type) pairs beside stage's [cap] entries */
    int ml = 0;
    for (int c0 = 0; c0 < cnt; c0 += NBR_NT) {
        const int r = c0 + tid;
        bool ka = false, kl = false;
        int t = 0, tt = 0;
        double e[3] = {0, 0, 0};
        if (r < cnt) {
            t = row[r];
            const tb_double4 xt = a.posd[t];
            if (TYP)
                tt = gpu_type_of(xt.w);
            e[0] = xt.x - xi.x;
            e[1] = xt.y - xi.y;
            e[2] = xt.z - xi.z;
            box_min_image_d(box, e);
            const double r2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
            const bool aft = nbr_after(e[0], e[1], e[2], i, t), atm = r2 <= q.rca2;
            ka = atm && aft;
            kl = !atm && r2 < q.rcl2 && aft;
        }
        const unsigned ba = __ballot_sync(0xffffffffu, ka), bl = __ballot_sync(0xffffffffu, kl);
        if (lane == 0) {
            wcount[warp] = __popc(ba);
            wcount[NBR_NW + warp] = __popc(bl);
        }
        __syncthreads();
        int pa = ma, pl = ml, ta = 0, tl = 0;
        for (int w = 0; w < NBR_NW; w++) {
            pa += w < warp ? wcount[w] : 0;
            pl += w < warp ? wcount[NBR_NW + w] : 0;
            ta += wcount[w];
            tl += wcount[NBR_NW + w];
        }
        if (ka || kl) {
            const unsigned below = (1u << lane) - 1u;
            V v;
            v.x = (R)e[0];
            v.y = (R)e[1];
            v.z = (R)e[2];
            v.w = v.x * v.x + v.y * v.y + v.z * v.z;
            if (ka) {
                const int p = pa + __popc(ba & below);
                ent[p] = v;
                tix[p] = t;
                if (TYP)
                    sty[p] = (unsigned char)tt;
            } else {
                const int p = pl + __popc(bl & below);
                stage[p] = v;
                st[2 * p] = t;
                st[2 * p + 1] = tt;
            }
        }
        ma += ta;
        ml += tl;
        __syncthreads();
    }
    for (int p = tid; p < ml; p += NBR_NT) {
        ent[ma + p] = stage[p];
        tix[ma + p] = st[2 * p];
        if (TYP)
            sty[ma + p] = (unsigned char)st[2 * p + 1];
    }
    m = ma + ml;
    __syncthreads(); /* the staging area is zeroed next */
}

/* The block's sums of N doubles at once: block_sum's order for each (the warps' shuffle tree,
 * then the warps in order), so the same bits, with one barrier instead of two per value. */
template <int N>
static __device__ __forceinline__ void nbr_block_sums(double v[N], double *scratch)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    static_assert(N * NBR_NW <= NBR_SCRATCH, "nbr_block_sums: scratch too small");
    __syncwarp(); /* the warp converged after its entries' loop: plain shuffles below */
#pragma unroll
    for (int c = 0; c < N; c++) {
        for (int o = 16; o > 0; o >>= 1)
            v[c] += __shfl_xor_sync(0xffffffffu, v[c], o);
        if (lane == 0)
            scratch[c * NBR_NW + warp] = v[c];
    }
    __syncthreads();
#pragma unroll
    for (int c = 0; c < N; c++) {
        v[c] = 0.0;
        for (int w = 0; w < NBR_NW; w++) /* fixed order: deterministic */
            v[c] += scratch[c * NBR_NW + w];
    }
}

#endif
