/* gpu_sw.cu — Stillinger-Weber on the GPU (pot_sw.h, the CPU's twin is cpu/sw_cpu.h) over the
 * full neighbour lists of gpu_nbr_build.cu (gpu_nbr.full). The default kernel (sw_kernel_p) is
 * persistent: one wave of resident blocks of solver.threads / 32 warps (0: 256 threads in float,
 * 128 in double; at most SW_MAXT), each warp 8 groups of 4 lanes taking its next 8 centres from a
 * queue when its last are done, in the order of their legs at the last evaluation, most first
 * (gpu_sw_order.cu; TB_SW_GRID=3: the grid before, group g taking centres g, g + groups, ..., or
 * one centre per group at few rounds: sw_launch). Each group works alone (its own shared
 * arrays, shuffles within its lanes; one block barrier, at the end, before the block's sums), so a
 * centre's arithmetic and the order of its sums depend neither on the block size nor on which
 * group takes it: the same bits at every solver.threads and order in deterministic mode. With
 * the queue, a warp's groups meet once per centre, after the angles (__syncwarp): the groups of
 * fewer legs leave the angle loop first and, left alone, ran on through the sums, the atomics
 * and the next centre's filter as separate partial-warp instructions until the queue's shuffle
 * joined them: 1.3x the kernel's time at every n on the H200 (docs/performance-sw.md). No
 * arithmetic changes: the same bits.
 *
 * Per centre (sw_centre): the group filters the row at the current positions into shared
 * memory (separations formed in double, rounded to R; the legs within their (i, j, j) cutoffs,
 * order kept by a ballot compaction). Lane l then owns legs q = l, l + L, ...: their radial
 * factors (pot_sw_leg, kept after the legs for every lane's angles), the pair of leg
 * q (once, at the centre it comes after: nbr_after), and every angle q-i-k, k != q, of which it
 * keeps the force on its own leg only; the angle is evaluated in the order of the legs (j < k,
 * the CPU's), so each angle is computed twice, by its two lanes, and its energy counted by the
 * lane of the smaller leg. No atomics between lanes, a fixed order: deterministic sums with the
 * accumulation modes' own (add_force). The centre gets -sum F_q, the virial sum_q d_q (x) F_q.
 * Its energies and virial go to the group's running sums (shared memory), summed over the
 * block's groups and added to the global words once per block at the end (deterministic:
 * fix_add's integer words, split per centre).
 *
 * TB_SW_KERNEL=0 selects the first kernel (sw_kernel: a warp per centre, each centre's sums
 * added by global atomics) for before/after measurements; docs/gpu.md and docs/performance-sw.md
 * give the numbers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu_atm.cuh"
#include "solver/gpu/gpu_nbr_int.h"
#include "solver/gpu/gpu_nbr_test.cuh"

#define SW_NT 32     /* lanes of a warp: one centre */
#define SW_MAXT 256  /* threads per block at most (the launch bounds) */
/* The block when solver.threads is unset, by the legs' precision: in float 256 threads (3
 * blocks of 57 KB per SM rather than 7 of 29 KB at 128: fewer warps in each other's way, more
 * L1 per warp) was faster at every n on the H200; in double, 90 KB blocks, 2 per SM, were
 * slower at every n than 128 (docs/performance-sw.md). The other kernels keep 128. */
#define SW_THREADS_F 256
#define SW_THREADS_D 128

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
    /* one leg's radial factors (pot_sw_leg), and the angle from both legs' (pot_sw3_legs) */
    static __device__ __forceinline__ float leg(const P *p, float r2, float *r, float *g)
    {
        return pot_sw_leg_f(p, r2, r, g);
    }
    static __device__ __forceinline__ float three_legs(const T *t, const float d1[3], float r21,
                                                      float e1, float r1, float g1,
                                                      const float d2[3], float r22, float e2,
                                                      float r2, float g2, float f1[3], float f2[3])
    {
        return pot_sw3_legs_f(t, d1, r21, e1, r1, g1, d2, r22, e2, r2, g2, f1, f2);
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
    /* one leg's radial factors (pot_sw_leg), and the angle from both legs' (pot_sw3_legs) */
    static __device__ __forceinline__ double leg(const P *p, double r2, double *r, double *g)
    {
        return pot_sw_leg_d(p, r2, r, g);
    }
    static __device__ __forceinline__ double three_legs(const T *t, const double d1[3], double r21,
                                                      double e1, double r1, double g1,
                                                      const double d2[3], double r22, double e2,
                                                      double r2, double g2, double f1[3],
                                                      double f2[3])
    {
        return pot_sw3_legs_d(t, d1, r21, e1, r1, g1, d2, r22, e2, r2, g2, f1, f2);
    }
};

struct sw_args {
    const int *perm, *off, *idx;
    tb_box_d box;
    const tb_box_d *dbox; /* a box that moves on the device (gpu_nbr_box_dev), else NULL */
    int cap; /* legs the shared arrays hold */
    int b0;  /* warp w of block b takes centre perm[b0 + b warps + w] */
    int count; /* centres: b0 .. b0 + count - 1 */
    int cbeg;  /* sw_kernel_p: its centres are cbeg .. count - 1 (a launch of the tail: sw_launch) */
    int typed;
    int *queue; /* sw_kernel_p: [2] the next centre and the warps done (0 between launches), or
                   NULL: group g takes centres g, g + groups, ... */
    const int *order; /* the queue's k-th centre is order[k] (gpu_sw_order.cu), or NULL: k */
    int first;        /* with the queue: each warp's first centres by its place (TB_SW_Q0) */
    int *legs;        /* each centre's legs recorded here (by particle), or NULL */
};

/* sw_kernel_p's options (TB_SW_OPT, a bit mask; docs/gpu.md): the filter with two entries per
 * lane in flight, their loads issued together; the group's arrays' size written so that the
 * compiler sees their 16-byte alignment (cap a multiple of 8): one 16-byte shared load per float
 * leg rather than a scalar and an 8-byte pair */
#define SW_OPT_PF 1
#define SW_OPT_A16 2

/* The sum of v over a group of L lanes (mask gm), in the xor-butterfly order (at L = 32
 * block_sum's for a block of one warp, bit for bit: its final 0.0 + v changes nothing). */
template <int L> __device__ __forceinline__ double group_sum(double v, unsigned gm)
{
    for (int o = L / 2; o > 0; o >>= 1)
        v += __shfl_xor_sync(gm, v, o);
    return v;
}

/* The filter's step for one entry per lane of the group (t < 0: none, xt its position): whether
 * it is a leg (within its (i, t, t) cutoff), and if so its separation, species and particle
 * stored at the next place in the group's arrays, order kept by a ballot; *m counts the legs. */
template <typename R>
__device__ __forceinline__ void sw_keep(const gpu_args &a, const sw_args &q, const tb_box_d *box,
                                        const tb_double4 &xi, int ti, int t, const tb_double4 &xt,
                                        int gb, int sl, unsigned gm, R *ld, int *lt, int *ls,
                                        int *m)
{
    bool keep = false;
    int tt = 0;
    double e[3] = {0, 0, 0};
    if (t >= 0) {
        tt = q.typed ? gpu_type_of(xt.w) : 0;
        const double x0[3] = {xi.x, xi.y, xi.z}, x1[3] = {xt.x, xt.y, xt.z};
        const double r2 = nbr_separation(box, x0, x1, e);
        keep = r2 < a.kd.tab->sw2[POT_PAIR(ti, tt)].cutsq;
    }
    const unsigned ball = (__ballot_sync(gm, keep) & gm) >> gb;
    if (keep) {
        const int p = *m + __popc(ball & ((1u << sl) - 1u));
        R *d = ld + 4 * (size_t)p;
        d[0] = (R)e[0];
        d[1] = (R)e[1];
        d[2] = (R)e[2];
        d[3] = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        lt[p] = t;
        ls[p] = tt;
    }
    *m += __popc(ball);
}

/* Leg q's radial factors (e returned, r, g): kept in fac (pre: sw_centre's), else formed. */
template <typename R>
__device__ __forceinline__ R sw_leg_of(bool pre, const R *fac, int q,
                                       const typename sw_real<R>::P *p, R r2, R *r, R *g)
{
    if (!pre)
        return sw_real<R>::leg(p, r2, r, g);
    *r = fac[3 * q + 1];
    *g = fac[3 * q + 2];
    return fac[3 * q];
}

/* One centre c (of count) by a group of L lanes (sl its lane, gm its mask; L = 32: a warp):
 * filters the row into ld / lt / ls (the group's shared arrays), adds the forces of the legs
 * and of the centre, and returns its sums in out[8] on the group's first LA lanes: the
 * three-body energy, the pair energy, the virial xx yy zz xy xz yz. The filter's result (the
 * legs, in the row's order) does not depend on L; the legs' forces and the sums are the first
 * LA lanes' (LA <= L, the others idle there), so a centre's bits depend on LA only: the tail's
 * groups of 8 or 16 lanes with LA = 4 give the 4-lane groups' bits (sw_launch). */
template <typename R, int L, int OPT = 0, int LA = L>
__device__ __forceinline__ void sw_centre(const gpu_args &a, const sw_args &q,
                                          const tb_box_d *box, int c, int sl, unsigned gm, R *ld,
                                          int *lt, int *ls, double out[8], unsigned wm = 0u)
{
    typedef typename sw_real<R>::P P;
    typedef typename sw_real<R>::T T;
    const auto &kc = sw_real<R>::coef(a);
    const int i = q.perm[q.b0 + c];
    const tb_double4 xi = a.posd[i];
    const int ti = q.typed ? gpu_type_of(xi.w) : 0;
    const P *legs = kc.tab->sw2 + POT_PAIR(ti, 0);
    const T *angles = kc.tab->sw3 + POT_TRIPLET(ti, 0, 0);
    const int *row = q.idx + q.off[c], cnt = q.off[c + 1] - q.off[c];
    const int gb = (threadIdx.x & 31) - sl; /* the group's first lane in the warp */
    int m = 0;
    if (OPT & SW_OPT_PF) { /* two entries per lane in flight: their loads issued together */
        for (int c0 = 0; c0 < cnt; c0 += 2 * L) {
            const int r0 = c0 + sl, r1 = r0 + L;
            const int t0 = r0 < cnt ? row[r0] : -1, t1 = r1 < cnt ? row[r1] : -1;
            const tb_double4 x0 = t0 >= 0 ? a.posd[t0] : xi, x1 = t1 >= 0 ? a.posd[t1] : xi;
            sw_keep<R>(a, q, box, xi, ti, t0, x0, gb, sl, gm, ld, lt, ls, &m);
            if (c0 + L < cnt) /* group-uniform */
                sw_keep<R>(a, q, box, xi, ti, t1, x1, gb, sl, gm, ld, lt, ls, &m);
        }
    } else { /* the loop before (sw_keep's body, one entry per lane): the kernel's code before */
        for (int c0 = 0; c0 < cnt; c0 += L) { /* the legs within their cutoffs, order kept */
            const int r = c0 + sl;
            bool keep = false;
            int t = 0, tt = 0;
            double e[3] = {0, 0, 0}, r2 = 0;
            if (r < cnt) {
                t = row[r];
                const tb_double4 xt = a.posd[t];
                tt = q.typed ? gpu_type_of(xt.w) : 0;
                const double x0[3] = {xi.x, xi.y, xi.z}, x1[3] = {xt.x, xt.y, xt.z};
                r2 = nbr_separation(box, x0, x1, e);
                keep = r2 < a.kd.tab->sw2[POT_PAIR(ti, tt)].cutsq;
            }
            const unsigned ball = (__ballot_sync(gm, keep) & gm) >> gb;
            if (keep) {
                const int p = m + __popc(ball & ((1u << sl) - 1u));
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
    }
    __syncwarp(gm);
    if (q.legs && sl == 0) /* for the queue's next order */
        q.legs[i] = m;
    if (LA < L && sl >= LA) { /* idle while the first LA lanes take the legs */
        __syncwarp(gm);
        return;
    }
    const unsigned am = LA == L ? gm : ((1u << LA) - 1u) << gb; /* the first LA lanes */
    /* Each leg's radial factors (pot_sw_leg: e, r, g) once per centre, by the lane that owns the
     * leg, into the arrays' unused end (3 m values after the m legs in ld, where they fit: 7 m
     * <= 4 cap, so always in silicon's rows), read by the angle loop instead of forming leg k's
     * at every angle: the same function of the same values, so the same bits; a sqrt, two
     * divides and an exp fewer per angle. */
    R *fac = ld + 4 * (size_t)m;
    const bool pre = 7 * m <= 4 * q.cap;
    if (pre) {
        for (int j = sl; j < m; j += LA) {
            R rj, gj;
            const R ej = sw_real<R>::leg(legs + ls[j], ld[4 * (size_t)j + 3], &rj, &gj);
            fac[3 * j] = ej;
            fac[3 * j + 1] = rj;
            fac[3 * j + 2] = gj;
        }
        __syncwarp(am);
    }
    double fi[3] = {0, 0, 0}, ep = 0, e3 = 0, vir[6] = {0, 0, 0, 0, 0, 0};
    for (int j = sl; j < m; j += LA) {
        const R *dj = ld + 4 * (size_t)j;
        const double dw[3] = {(double)dj[0], (double)dj[1], (double)dj[2]};
        double f[3] = {0, 0, 0};
        if (nbr_after(dw[0], dw[1], dw[2], i, lt[j])) { /* the pair, once */
            R fp;
            ep += (double)sw_real<R>::two(legs + ls[j], dj[3], &fp);
            for (int x = 0; x < 3; x++)
                f[x] += (double)(fp * dj[x]);
        }
        /* leg j's radial factors once for its m - 1 angles, leg k's at each where they are not
         * kept (the same arithmetic as forming both at every angle) */
        R rj, gj;
        const R ej = sw_leg_of<R>(pre, fac, j, legs + ls[j], dj[3], &rj, &gj);
        for (int k = 0; k < m; k++) { /* the angles j-i-k: the force on j */
            if (k == j)
                continue;
            const R *dk = ld + 4 * (size_t)k;
            R fa[3], fb[3], rk, gk;
            const R ek = sw_leg_of<R>(pre, fac, k, legs + ls[k], dk[3], &rk, &gk);
            if (j < k) {
                e3 += (double)sw_real<R>::three_legs(angles + POT_PAIR(ls[j], ls[k]), dj, dj[3],
                                                     ej, rj, gj, dk, dk[3], ek, rk, gk, fa, fb);
                for (int x = 0; x < 3; x++)
                    f[x] += (double)fa[x];
            } else {
                sw_real<R>::three_legs(angles + POT_PAIR(ls[k], ls[j]), dk, dk[3], ek, rk, gk, dj,
                                       dj[3], ej, rj, gj, fa, fb);
                for (int x = 0; x < 3; x++)
                    f[x] += (double)fb[x];
            }
        }
        add_force(a, lt[j], f[0], f[1], f[2]);
        for (int x = 0; x < 3; x++)
            fi[x] -= f[x];
        nbr_virial_add(vir, dw, f);
    }
    if (wm) /* the warp's groups together again (sw_kernel_p) */
        __syncwarp(wm);
    for (int x = 0; x < 3; x++)
        fi[x] = group_sum<LA>(fi[x], am);
    for (int x = 0; x < 6; x++)
        out[2 + x] = group_sum<LA>(vir[x], am);
    out[0] = group_sum<LA>(e3, am);
    out[1] = group_sum<LA>(ep, am);
    if (sl == 0)
        add_force(a, i, fi[0], fi[1], fi[2]);
    __syncwarp(gm); /* the shared arrays are reused by the group's next centre */
}

/* Adds the centre's sums s[8] (sw_centre's out) by the accumulation mode, as add_energy and
 * add_virial do. */
__device__ __forceinline__ void sw_add_sums(const gpu_args &a, const double s[8])
{
    add_energy(a, 0, s[0]);
    add_energy(a, 1, s[1]);
    for (int x = 0; x < 6; x++)
        add_virial(a, x, s[2 + x]);
}

/* The kernel of 2026-11-24 (TB_SW_KERNEL=0): one warp per centre, each centre's energies and
 * virial added by global atomics to the same 8 words (2 x 8 integer atomics in deterministic
 * mode): 10^6 centres serialize there, 8.8 ms per evaluation at 10^6 atoms. */
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
    double s[8];
    sw_centre<R, 32>(a, q, &q.box, c, lane, 0xffffffffu, ld, lt, ls, s);
    if (lane == 0)
        sw_add_sums(a, s);
}

/* The default: a grid of resident warps, groups of L lanes (L = 32: a warp), group g taking
 * centres g, g + groups, ...; lane 0 of a group sums its centres' energies and virial in
 * shared memory (FIX: as the integer words of fix_add, split per centre exactly as fix_add
 * splits it, so the totals are the per-centre atomics' bit for bit); at the end the block sums
 * its groups' and adds them, one atomic per word and block. */
template <typename R, int L, bool FIX, int MINB, bool MOV = false, int OPT = 0, int LA = L>
__global__ void __launch_bounds__(SW_MAXT, MINB) sw_kernel_p(gpu_args a, sw_args q)
{
    __shared__ tb_box_d sbox; /* MOV: the box that moves on the device, read once a block */
    gpu_pdl_wait(); /* the kernel before ended (launched early under TB_STEP_PDL) */
    gpu_pdl_trigger();
    if (MOV) {
        if (threadIdx.x == 0)
            sbox = *q.dbox;
        __syncthreads();
    }
    const tb_box_d *qbox = MOV ? &sbox : &q.box;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const int sl = threadIdx.x & (L - 1), grp = threadIdx.x / L;
    const unsigned gm = L == 32 ? 0xffffffffu
                                : ((1u << L) - 1u) << ((threadIdx.x & 31) & ~(L - 1));
    const size_t per = OPT & SW_OPT_A16 /* bytes per group; cap is a multiple of 8 */
                           ? (size_t)(q.cap >> 3) * (8 * (4 * sizeof(R) + 2 * sizeof(int)))
                           : (size_t)q.cap * (4 * sizeof(R) + 2 * sizeof(int));
    R *ld = (R *)(smem_raw + per * grp);       /* [4 cap]: d x y z, r^2 */
    int *lt = (int *)(ld + 4 * (size_t)q.cap); /* [cap]: particle */
    int *ls = lt + q.cap;                      /* [cap]: species */
    const int groups = gridDim.x * (blockDim.x / L);
    /* the group's running sums, lane 0's, in shared memory (after every group's arrays) rather
     * than in registers: 16 words fewer for each of the 32 lanes */
    unsigned long long *acc = (unsigned long long *)(smem_raw + per * (blockDim.x / L)) + 16 * grp;
    double *sum = (double *)acc;
    if (sl == 0)
        for (int x = 0; x < 16; x++)
            acc[x] = 0;
    /* The centres: group g takes g, g + groups, ... (a static share), or, with a queue, each
     * warp takes the next 32 / L centres when its last ones are done, so no warp waits for
     * another before the queue is empty (a static share leaves the SMs up to a centre's time
     * apart at a few rounds; docs/gpu.md). The last warp out zeroes the queue for the next
     * launch. Which group takes a centre changes no bits in deterministic mode (integer words);
     * in the others the sums' order changes, as their atomics' does. One call of sw_centre. */
    const int wl = threadIdx.x & 31;
    /* q.first: each warp's first 32 / L centres by its place in the grid, the queue handing out
     * the rest after them (no burst of one atomic per warp on one word as the kernel starts) */
    const int nw = (int)(gridDim.x * (blockDim.x >> 5));
    const int gw = (int)(blockIdx.x * (blockDim.x >> 5)) + (threadIdx.x >> 5);
    bool first = q.first;
    for (int c = q.cbeg + blockIdx.x * (blockDim.x / L) + grp;; c += groups) {
        if (q.queue) {
            int base = 0;
            if (first) {
                base = q.cbeg + gw * (32 / L);
                first = false;
            } else {
                if (wl == 0)
                    base = atomicAdd(q.queue, 32 / L) + (q.first ? nw * (32 / L) : 0);
                base = q.cbeg + __shfl_sync(0xffffffffu, base, 0);
            }
            if (base >= q.count)
                break;
            c = base + wl / L;
        } else if (c >= q.count) {
            break;
        }
        /* with a queue, the warp's groups that have a centre (the whole warp is here) */
        const unsigned wm = q.queue && LA == L ? __ballot_sync(0xffffffffu, c < q.count) : 0u;
        if (c >= q.count)
            continue;
        double s[8];
        sw_centre<R, L, OPT, LA>(a, q, qbox, q.order ? q.order[c] : c, sl, gm, ld, lt, ls, s, wm);
        if (sl == 0)
            for (int x = 0; x < 8; x++) {
                if (FIX) { /* fix_add's words (gpu_atm.cuh), summed here, added once below */
                    unsigned long long hi, lo;
                    fix_words(s[x], &hi, &lo);
                    acc[2 * x] += hi;
                    acc[2 * x + 1] += lo;
                } else {
                    sum[x] += s[x];
                }
            }
    }
    const int warps = (int)(gridDim.x * (blockDim.x >> 5));
    if (q.queue && wl == 0 && atomicAdd(q.queue + 1, 1) == warps - 1) {
        atomicExch(q.queue, 0);
        atomicExch(q.queue + 1, 0);
    }
    /* The block's groups summed first, one atomic per word and block: every group ends at
     * about the same time, and one atomic per group and word (8 words, 16 fixed-point, in one
     * or two L2 lines) serialized there for ~1 ns each, a fixed 0.2 ms per launch from the
     * ~25 000 groups of the wave, whatever n (docs/gpu.md). Integer words: the same sums mod
     * 2^64 in any grouping, so the same bits. */
    __syncthreads();
    const int ng = blockDim.x / L, w = threadIdx.x;
    const unsigned long long *all = (const unsigned long long *)(smem_raw + per * ng);
    if (FIX && w < 16) {
        unsigned long long t = 0;
        for (int g = 0; g < ng; g++)
            t += all[16 * g + w];
        atomicAdd(w < 4 ? a.efix + w : a.vfix + (w - 4), t);
    } else if (!FIX && w < 8) {
        double t = 0;
        for (int g = 0; g < ng; g++)
            t += ((const double *)(all + 16 * g))[w];
        atomicAdd(w < 2 ? a.energy + w : a.virial + (w - 2), t);
    }
}

/* The kernel: TB_SW_KERNEL=0 in the environment selects sw_kernel (kept for before/after
 * measurements in one binary), 1 the persistent kernel with a warp per centre, 2 with 8 lanes
 * per centre, 3 with 8 lanes and at most 64 registers, 4 with 4 lanes and at most 64
 * registers; unset: the default, SW_VAR_DEFAULT. */
#define SW_VAR_DEFAULT 4
/* TB_SW_OPT unset: both options in float legs (mixed, single: faster at every n on the H200),
 * none in double (4 % slower from 10^6 with them; without, the kernel before, its PTX the same) */
#define SW_OPT_DEFAULT_F (SW_OPT_PF | SW_OPT_A16)
#define SW_OPT_DEFAULT_D 0
#define SW_FEW 4         /* TB_SW_FEW: at most this many rounds, one centre per group */
/* TB_SW_GRID: 0 the full wave, 1 the persistent wave (a static share), 2 one centre per group,
 * 3 by the rounds (1 or 2: SW_FEW), 4 the persistent wave taking centres from a queue */
#define SW_GRID_QUEUE 4
#define SW_GRID_DEFAULT SW_GRID_QUEUE
/* The tail, a measurement switch, off by default (TB_SW_TAIL: the lanes per centre, 8 or 16;
 * 1: 16 where the rest fills at most 128 groups per SM, else 8; unset or 0: none): where the
 * centres make more than one full wave of the default kernel but fewer than SW_TAILR
 * (TB_SW_TAILR) and do not fill the last, the full waves' centres are one launch and the rest a
 * second, groups of 8 or 16 lanes each taking one centre (the filter over 8 or 16 lanes, the
 * legs over the first 4: the bits of 4-lane groups, sw_centre). Slower on the H200 at every n
 * measured (force phase at 97336 0.250 -> 0.302 ms, at 110592 0.292 -> 0.318 with 8 lanes,
 * 0.334 with 16; docs/gpu-measured.md, "the SW kernel's partial last wave") */
#define SW_TAILR 64
static int sw_env(const char *name, int dflt);
static int sw_variant(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("TB_SW_KERNEL");
        v = e && e[0] >= '0' && e[0] <= '4' && !e[1] ? e[0] - '0' : SW_VAR_DEFAULT;
    }
    return v;
}

/* An integer from the environment (measurement switches, read once per name; the names below):
 * dflt when unset (asked at every call: TB_SW_OPT's default depends on the precision). */
static int sw_env(const char *name, int dflt)
{
    static const char *const names[] = {"TB_SW_BLOCKS", "TB_SW_GRID", "TB_SW_THREADS",
                                        "TB_SW_OPT",    "TB_SW_FEW",  "TB_SW_FEWT",
                                        "TB_SW_TAIL",   "TB_SW_TAILR", "TB_SW_Q0"};
    static int got[9] = {-1, -1, -1, -1, -1, -1, -1, -1, -1}; /* -1: not read yet, -2: unset */
    int w = 0;
    while (w < 8 && strcmp(name, names[w]) != 0)
        w++;
    if (got[w] == -1) {
        const char *e = getenv(name);
        got[w] = e && *e ? atoi(e) : -2;
        got[w] = got[w] == -2 ? -2 : got[w] < 0 ? 0 : got[w];
    }
    return got[w] == -2 ? dflt : got[w];
}

/* The default kernel (4 lanes, at most 64 registers) with the options opt (SW_OPT_*). */
template <typename R, bool FIX, bool MOV>
static void (*sw_pick_opt(int opt))(gpu_args, sw_args)
{
    switch (opt & 3) {
    case 0: return sw_kernel_p<R, 4, FIX, 4, MOV, 0>;
    case 1: return sw_kernel_p<R, 4, FIX, 4, MOV, 1>;
    case 2: return sw_kernel_p<R, 4, FIX, 4, MOV, 2>;
    default: return sw_kernel_p<R, 4, FIX, 4, MOV, 3>;
    }
}

/* The persistent kernel of variant var (1..4) for the accumulation mode; *lanes: per centre;
 * mov: the instance that reads a moving box from device memory (the default variant only). */
template <typename R>
static void (*sw_pick(int var, bool fix, bool mov, int *lanes))(gpu_args, sw_args)
{
    *lanes = var == 1 ? 32 : var == 4 ? 4 : 8;
    const int opt = sw_env("TB_SW_OPT", sizeof(R) == sizeof(float) ? SW_OPT_DEFAULT_F
                                                                    : SW_OPT_DEFAULT_D);
    if (mov)
        return fix ? sw_pick_opt<R, true, true>(opt) : sw_pick_opt<R, false, true>(opt);
    switch (var) {
    case 1: return fix ? sw_kernel_p<R, 32, true, 1> : sw_kernel_p<R, 32, false, 1>;
    case 3: return fix ? sw_kernel_p<R, 8, true, 4> : sw_kernel_p<R, 8, false, 4>;
    case 4: return fix ? sw_pick_opt<R, true, false>(opt) : sw_pick_opt<R, false, false>(opt);
    default: return fix ? sw_kernel_p<R, 8, true, 1> : sw_kernel_p<R, 8, false, 1>;
    }
}

/* The tail's kernel: groups of tl (8 or 16) lanes, the legs over the first 4, for the default
 * kernel's instance (FIX, MOV) with the precision's default options; NULL for other options
 * (TB_SW_OPT) or tl. */
template <typename R, bool FIX, bool MOV>
static void (*sw_pick_tail(int opt, int tl))(gpu_args, sw_args)
{
    constexpr int O = sizeof(R) == sizeof(float) ? SW_OPT_DEFAULT_F : SW_OPT_DEFAULT_D;
    if ((opt & 3) != O)
        return NULL;
    return tl == 8 ? sw_kernel_p<R, 8, FIX, 4, MOV, O, 4>
                   : tl == 16 ? sw_kernel_p<R, 16, FIX, 4, MOV, O, 4> : NULL;
}

template <typename R> static int sw_launch(gpu_nbr *b, const gpu_args *a, const sw_args &q,
                                           int threads, cudaStream_t st)
{
    const int var = sw_variant();
    int lanes = SW_NT;
    if (q.dbox && var != SW_VAR_DEFAULT)
        return tb_error(NULL, 0, "internal: a box that moves on the device with TB_SW_KERNEL=%d",
                        var);
    void (*k)(gpu_args, sw_args) =
        var == 0 ? sw_kernel<R> : sw_pick<R>(var, a->mode == ACC_FIXED, q.dbox != NULL, &lanes);
    const int per = q.cap * (4 * (int)sizeof(R) + 2 * (int)sizeof(int)); /* bytes per centre */
    /* solver.threads unset (0): SW_THREADS_F / _D, or TB_SW_THREADS (a measurement switch) */
    const int tenv = sw_env("TB_SW_THREADS", 0);
    const int tdef = tenv > 0 ? tenv : sizeof(R) == sizeof(float) ? SW_THREADS_F : SW_THREADS_D;
    int warps = (threads > 0 ? threads : tdef) / SW_NT;
    warps = warps < 1 ? 1 : warps > SW_MAXT / SW_NT ? SW_MAXT / SW_NT : warps;
    const int gpw = SW_NT / lanes; /* centres per warp */
    const int pg = per + (var == 0 ? 0 : 128); /* bytes per group: + sw_kernel_p's sums */
    while (warps > 1 && warps * gpw * pg > b->smem_max) /* long rows: fewer warps per block */
        warps /= 2;
    if (gpw * pg > b->smem_max)
        return tb_error(NULL, 0, "a neighbour row of %d entries needs %d bytes of shared memory, "
                                 "more than the GPU's %d: lower solver.skin", b->max_row, gpw * pg,
                        b->smem_max);
    const int smem = warps * gpw * pg;
    if (var == 0) {
        CUDA_CHECK(cudaFuncSetAttribute(sw_kernel<R>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        smem));
        if (q.count <= 0)
            return 0;
        sw_kernel<R><<<(q.count + warps - 1) / warps, warps * SW_NT, smem, st>>>(*a, q);
        TB_LAUNCH_CHECK("sw_kernel");
        return 0;
    }
    /* the wave's size, asked again only when the kernel, its block or its shared memory (the
     * longest row) changes: four runtime calls less per evaluation, while the GPU waits */
    if (b->sw_fn != (const void *)k || b->sw_block != warps * SW_NT || b->sw_smem != smem) {
        int dev = 0, sms = 0, resident = 0;
        CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, k, warps * SW_NT, smem));
        b->sw_fn = (const void *)k;
        b->sw_block = warps * SW_NT;
        b->sw_smem = smem;
        b->sw_sms = sms;
        b->sw_res = resident > 0 ? resident : 1;
    }
    if (q.count <= 0)
        return 0;
    /* One wave: the resident blocks (TB_SW_BLOCKS: at most that many per SM), fewer when the
     * centres do not fill it. When that wave takes at most SW_FEW rounds of centres per group
     * (TB_SW_FEW: another count), one centre per group and every block the centres need instead,
     * the hardware starting a block where one ends (the persistent wave's SMs ended up to a
     * centre's time apart; docs/gpu.md); TB_SW_GRID=1 the persistent wave at any count, 2 one
     * centre per group at any count. Persistent, unless TB_SW_GRID=0 (the grid before, for
     * before/after measurements), as few blocks per SM, the same on every SM, as give each group
     * the same most centres k: at 10^5 centres and 128 threads the full wave of 924 x 32 groups
     * gave 8632 groups 4 centres and the rest 3, the kernel lasting 4 rounds at 3.3 rounds' work
     * (ncu: 359 us, 37.5 % occupancy achieved of 43.75); 6 blocks per SM do the same 4 rounds with
     * fewer warps in each other's way. The grid of h24f (ceil(count / (k groups per block)), 761
     * blocks there) left some SMs a block fewer: at 256 threads 375 of 396 blocks at 3e5, 5 %
     * slower than the full wave (docs/performance-sw.md). */
    const long long gpb = (long long)warps * gpw; /* groups per block */
    const int cap = sw_env("TB_SW_BLOCKS", 0);
    long long grid = (long long)b->sw_sms * (cap > 0 && cap < b->sw_res ? cap : b->sw_res);
    const int gm = sw_env("TB_SW_GRID", SW_GRID_DEFAULT);
    /* the tail (SW_TAILR): the first launch takes the full waves' centres, q1.count */
    sw_args q1 = q;
    void (*kt)(gpu_args, sw_args) = NULL;
    int tl = sw_env("TB_SW_TAIL", 0);
    const long long wave = grid * gpb, full = q.count / wave, rem = q.count - full * wave;
    if (var == SW_VAR_DEFAULT && gm == 3 && tl != 0 && full >= 1 && rem > 0 &&
        full < sw_env("TB_SW_TAILR", SW_TAILR)) {
        if (tl == 1) /* 16 lanes where the rest fills at most 128 groups per SM, else 8 */
            tl = rem <= 128LL * b->sw_sms ? 16 : 8;
        const int opt = sw_env("TB_SW_OPT", sizeof(R) == sizeof(float) ? SW_OPT_DEFAULT_F
                                                                        : SW_OPT_DEFAULT_D);
        kt = a->mode == ACC_FIXED ? (q.dbox ? sw_pick_tail<R, true, true>(opt, tl)
                                            : sw_pick_tail<R, true, false>(opt, tl))
                                  : (q.dbox ? sw_pick_tail<R, false, true>(opt, tl)
                                            : sw_pick_tail<R, false, false>(opt, tl));
        if (kt) {
            q1.count = (int)(full * wave);
            /* its shared memory: groups of the same bytes, fewer per block (tl > 4) */
            CUDA_CHECK(cudaFuncSetAttribute(kt, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            smem));
        }
    }
    const long long need = (q1.count + gpb - 1) / gpb;
    grid = need < grid ? need : grid;
    if (gm == SW_GRID_QUEUE) { /* the wave, as many blocks as the centres need at most */
        q1.queue = b->d_swq;
        q1.first = sw_env("TB_SW_Q0", 1) != 0;
        if (gpu_sw_order(b, q1.count, st, &q1.legs, &q1.order) != 0)
            return -1;
    }
    const long long rounds = (q1.count + grid * gpb - 1) / (grid * gpb);
    int block = warps * SW_NT, bsmem = smem;
    if (gm == 2 || (gm == 3 && rounds <= sw_env("TB_SW_FEW", SW_FEW))) {
        /* TB_SW_FEWT=t (a measurement): blocks of t threads for these few rounds when the block
         * is the kernel's own (neither solver.threads nor TB_SW_THREADS) and t is smaller: no
         * occupancy asked (every block the centres need), the shared memory attribute set for
         * the larger block serves */
        const int fw = sw_env("TB_SW_FEWT", 0) / SW_NT;
        if (gm == 3 && fw >= 1 && fw < warps && threads <= 0 && tenv <= 0) {
            block = fw * SW_NT;
            bsmem = fw * gpw * pg;
            grid = (q1.count + (long long)fw * gpw - 1) / ((long long)fw * gpw);
        } else {
            grid = need;
        }
    } else if (gm && gm != SW_GRID_QUEUE && grid < need) { /* a full wave: r blocks per SM */
        const long long most = (q1.count + grid * gpb - 1) / (grid * gpb); /* k */
        const long long per_sm = most * gpb * b->sw_sms;
        grid = (long long)b->sw_sms * ((q1.count + per_sm - 1) / per_sm);
    }
    CUDA_CHECK(gpu_launch(k, (int)grid, block, (size_t)bsmem, st, gpu_pdl(), *a, q1));
    TB_LAUNCH_CHECK("sw_kernel_p");
    if (kt) { /* the rest, one centre per group of tl lanes, blocks of the same threads */
        sw_args q2 = q;
        q2.cbeg = q1.count;
        const long long g2 = (warps * SW_NT) / tl; /* groups per block */
        CUDA_CHECK(gpu_launch(kt, (int)((rem + g2 - 1) / g2), warps * SW_NT, (size_t)(g2 * pg),
                              st, gpu_pdl(), *a, q2));
        TB_LAUNCH_CHECK("sw_kernel_p (the tail)");
    }
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
    q.dbox = b->d_box;
    const int round = sw_variant() == 0 ? 31 : 7; /* the legs' arrays: 32 (the old kernel's) or 8 */
    q.cap = ((b->max_row > 0 ? b->max_row : 1) + round) & ~round;
    q.b0 = b->a_lo;
    q.count = b->a_hi - b->a_lo;
    q.cbeg = 0;
    q.typed = pp->d.ntypes > 1;
    q.queue = NULL;
    q.first = 0;
    q.order = NULL;
    q.legs = NULL;
    if (b->n == 0)
        return 0;
    return dbl ? sw_launch<double>(b, a, q, threads, st) : sw_launch<float>(b, a, q, threads, st);
}

int gpu_sw_moving_ok(void)
{
    return sw_variant() == SW_VAR_DEFAULT;
}
