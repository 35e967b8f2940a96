/* gpu_sw.cu — Stillinger-Weber on the GPU (pot_sw.h, the CPU's twin is cpu/sw_cpu.h): one warp
 * per centre over the full neighbour lists of gpu_nbr_build.cu (gpu_nbr.full), several warps
 * (centres) per block: solver.threads / 32 of them, at most SW_MAXT / 32 (0: 128 threads, 4
 * centres; solver.threads = 32 is the one-centre block the kernel had first). Each warp works
 * alone (its own shared arrays, warp shuffles, no block barrier), so a centre's arithmetic and
 * the order of its sums do not depend on the warps per block: the results are the same bit
 * for bit at every solver.threads.
 *
 * The warp filters the centre's row at the current positions into shared memory (separations
 * formed in double, rounded to R; the legs within their (i, j, j) cutoffs, order kept by a
 * ballot compaction). Lane l then owns legs q = l, l + 32, ...: the pair of leg q (once, at the
 * centre it comes after: nbr_after), and every angle q-i-k, k != q, of which it keeps the
 * force on its own leg only; the angle is evaluated in the order of the legs (j < k, the
 * CPU's), so each angle is computed twice, by its two lanes, and its energy counted by the
 * lane of the smaller leg. No atomics between lanes, a fixed order: deterministic sums with
 * the accumulation modes' own (add_force). The centre gets -sum F_q, the virial sum_q d_q (x)
 * F_q. */
#include <math.h>

#include "common/check.h"
#include "solver/gpu/gpu_atm.cuh"
#include "solver/gpu/gpu_nbr_int.h"

#define SW_NT 32     /* lanes of a warp: one centre */
#define SW_MAXT 256  /* threads per block at most (the launch bounds) */

template <typename R> struct sw_real;
template <> struct sw_real<float> {
    typedef pot_coef_f C;
    typedef pot_sw_pair_f P;
    typedef pot_sw_trip_f T;
    static __device__ __forceinline__ const C &coef(const gpu_args &a) { return a.kf; }
    static __device__ __forceinline__ float two(const P *p, float r2, float *fp)
    {
        return pot_sw2_f(p, r2, fp);
    }
    static __device__ __forceinline__ float three(const P *pj, const P *pk, const T *t,
                                                  const float dj[3], float rj, const float dk[3],
                                                  float rk, float fj[3], float fk[3])
    {
        return pot_sw3_f(pj, pk, t, dj, rj, dk, rk, fj, fk);
    }
};
template <> struct sw_real<double> {
    typedef pot_coef_d C;
    typedef pot_sw_pair_d P;
    typedef pot_sw_trip_d T;
    static __device__ __forceinline__ const C &coef(const gpu_args &a) { return a.kd; }
    static __device__ __forceinline__ double two(const P *p, double r2, double *fp)
    {
        return pot_sw2_d(p, r2, fp);
    }
    static __device__ __forceinline__ double three(const P *pj, const P *pk, const T *t,
                                                   const double dj[3], double rj,
                                                   const double dk[3], double rk, double fj[3],
                                                   double fk[3])
    {
        return pot_sw3_d(pj, pk, t, dj, rj, dk, rk, fj, fk);
    }
};

struct sw_args {
    const int *perm, *off, *idx;
    tb_box_d box;
    int cap; /* legs the shared arrays hold */
    int b0;  /* warp w of block b takes centre perm[b0 + b warps + w] */
    int count; /* centres: b0 .. b0 + count - 1 */
    int typed;
};

/* The warp's sum of v, lanes in the xor-butterfly order (block_sum's for a block of one warp,
 * bit for bit: its final 0.0 + v changes nothing). */
__device__ __forceinline__ double warp_sum(double v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

template <typename R>
__global__ void __launch_bounds__(SW_MAXT) sw_kernel(gpu_args a, sw_args q)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int c = blockIdx.x * (blockDim.x >> 5) + warp; /* this warp's centre, of count */
    if (c >= q.count)
        return; /* a whole warp: no barrier below spans warps */
    const size_t per = (size_t)q.cap * (4 * sizeof(R) + 2 * sizeof(int)); /* bytes per warp */
    R *ld = (R *)(smem_raw + per * warp);      /* [4 cap]: d x y z, r^2 */
    int *lt = (int *)(ld + 4 * (size_t)q.cap); /* [cap]: particle */
    int *ls = lt + q.cap;                      /* [cap]: species */
    typedef typename sw_real<R>::P P;
    typedef typename sw_real<R>::T T;
    const auto &kc = sw_real<R>::coef(a);
    const int i = q.perm[q.b0 + c];
    const tb_double4 xi = a.posd[i];
    const int ti = q.typed ? gpu_type_of(xi.w) : 0;
    const P *legs = kc.tab->sw2 + POT_PAIR(ti, 0);
    const T *angles = kc.tab->sw3 + POT_TRIPLET(ti, 0, 0);
    const int *row = q.idx + q.off[c], cnt = q.off[c + 1] - q.off[c];
    int m = 0;
    for (int c0 = 0; c0 < cnt; c0 += SW_NT) { /* the legs within their cutoffs, order kept */
        const int r = c0 + lane;
        bool keep = false;
        int t = 0, tt = 0;
        double e[3] = {0, 0, 0}, r2 = 0;
        if (r < cnt) {
            t = row[r];
            const tb_double4 xt = a.posd[t];
            tt = q.typed ? gpu_type_of(xt.w) : 0;
            const double x0[3] = {xi.x, xi.y, xi.z}, x1[3] = {xt.x, xt.y, xt.z};
            r2 = nbr_separation(&q.box, x0, x1, e);
            keep = r2 < a.kd.tab->sw2[POT_PAIR(ti, tt)].cutsq;
        }
        const unsigned ball = __ballot_sync(0xffffffffu, keep);
        if (keep) {
            const int p = m + __popc(ball & ((1u << lane) - 1u));
            R *d = ld + 4 * (size_t)p;
            d[0] = (R)e[0];
            d[1] = (R)e[1];
            d[2] = (R)e[2];
            d[3] = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            lt[p] = t;
            ls[p] = tt;
        }
        m += __popc(ball);
    }
    __syncwarp();
    double fi[3] = {0, 0, 0}, ep = 0, e3 = 0, vir[6] = {0, 0, 0, 0, 0, 0};
    for (int j = lane; j < m; j += SW_NT) {
        const R *dj = ld + 4 * (size_t)j;
        const double dw[3] = {(double)dj[0], (double)dj[1], (double)dj[2]};
        double f[3] = {0, 0, 0};
        if (nbr_after(dw[0], dw[1], dw[2], i, lt[j])) { /* the pair, once */
            R fp;
            ep += (double)sw_real<R>::two(legs + ls[j], dj[3], &fp);
            for (int x = 0; x < 3; x++)
                f[x] += (double)(fp * dj[x]);
        }
        for (int k = 0; k < m; k++) { /* the angles j-i-k: the force on j */
            if (k == j)
                continue;
            const R *dk = ld + 4 * (size_t)k;
            R fa[3], fb[3];
            if (j < k) {
                e3 += (double)sw_real<R>::three(legs + ls[j], legs + ls[k],
                                                angles + POT_PAIR(ls[j], ls[k]), dj, dj[3], dk,
                                                dk[3], fa, fb);
                for (int x = 0; x < 3; x++)
                    f[x] += (double)fa[x];
            } else {
                sw_real<R>::three(legs + ls[k], legs + ls[j], angles + POT_PAIR(ls[k], ls[j]), dk,
                                  dk[3], dj, dj[3], fa, fb);
                for (int x = 0; x < 3; x++)
                    f[x] += (double)fb[x];
            }
        }
        add_force(a, lt[j], f[0], f[1], f[2]);
        for (int x = 0; x < 3; x++)
            fi[x] -= f[x];
        nbr_virial_add(vir, dw, f);
    }
    for (int x = 0; x < 3; x++)
        fi[x] = warp_sum(fi[x]);
    for (int x = 0; x < 6; x++)
        vir[x] = warp_sum(vir[x]);
    e3 = warp_sum(e3);
    ep = warp_sum(ep);
    if (lane == 0) {
        add_force(a, i, fi[0], fi[1], fi[2]);
        add_energy(a, 0, e3);
        add_energy(a, 1, ep);
        for (int x = 0; x < 6; x++)
            add_virial(a, x, vir[x]);
    }
}

template <typename R> static int sw_launch(gpu_nbr *b, const gpu_args *a, const sw_args &q,
                                           int threads, cudaStream_t st)
{
    const int per = q.cap * (4 * (int)sizeof(R) + 2 * (int)sizeof(int)); /* bytes per warp */
    int warps = (threads > 0 ? threads : 128) / SW_NT;
    warps = warps < 1 ? 1 : warps > SW_MAXT / SW_NT ? SW_MAXT / SW_NT : warps;
    while (warps > 1 && warps * per > b->smem_max) /* long rows: fewer centres per block */
        warps /= 2;
    if (per > b->smem_max)
        return tb_error(NULL, 0, "a neighbour row of %d entries needs %d bytes of shared memory, "
                                 "more than the GPU's %d: lower solver.skin", b->max_row, per,
                        b->smem_max);
    CUDA_CHECK(cudaFuncSetAttribute(sw_kernel<R>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    warps * per));
    if (q.count <= 0)
        return 0;
    sw_kernel<R><<<(q.count + warps - 1) / warps, warps * SW_NT, warps * per, st>>>(*a, q);
    TB_LAUNCH_CHECK("sw_kernel");
    return 0;
}

int gpu_sw_forces(gpu_nbr *b, const gpu_args *a, const pot_params *pp, int dbl, int threads,
                  cudaStream_t st)
{
    sw_args q;
    if (gpu_nbr_update(b, a->posd, st) != 0)
        return -1;
    q.perm = b->d_perm;
    q.off = b->d_roff;
    q.idx = b->d_idx;
    q.box = b->box;
    q.cap = ((b->max_row > 0 ? b->max_row : 1) + 31) & ~31;
    q.b0 = b->a_lo;
    q.count = b->a_hi - b->a_lo;
    q.typed = pp->d.ntypes > 1;
    if (b->n == 0)
        return 0;
    return dbl ? sw_launch<double>(b, a, q, threads, st) : sw_launch<float>(b, a, q, threads, st);
}
